"""The engine contract, checked for every registered engine and every player count by seeded random playouts.

Every playout must reach the end of its game: a game that random legal play cannot finish within STEP_LIMIT
steps is a finding about the engine (a loop that makes no progress), and the test fails rather than stop there.
The longest playouts seen over seeds 1-24 are about 600 steps (Druids), 2,100 (Roll for the Galaxy), 250 (Roll
Player) and 3,500 (Talisman, whose random games end when the characters run out, rarely at the Crown).
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest

from engines import all_engines
from engines.base import Engine, IllegalAction, Outcome, Path, Secret, State, clone
from engines.rng import Rng

SEEDS = (1, 2)
CASES = [
    pytest.param(engine, players, id=f"{engine.name}-{players}p")
    for engine in all_engines()
    for players in range(engine.min_players, engine.max_players + 1)
]


STEP_LIMIT = 20_000


def playout(
    engine: Engine, players: int, seed: int, check_every: int = 0, options: dict[str, Any] | None = None
):
    """Play random legal actions until the game ends; return the final state and the trail of (seat, action).
    Fails when the game has not ended after STEP_LIMIT steps."""
    state = engine.new_game(players, engine.validate_options(options or {}), seed)
    chooser = Rng.from_seed(seed * 7919 + players)
    trail = []
    for step in range(STEP_LIMIT + 1):
        if engine.outcome(state) is not None:
            break
        if step == STEP_LIMIT:
            pytest.fail(f"{engine.name} {players}p seed {seed}: no end after {STEP_LIMIT} random legal moves")
        seats = engine.to_act(state)
        assert seats, f"step {step}: game not over but nobody may act"
        seat = chooser.choice(sorted(seats))
        actions = engine.legal_actions(state, seat)
        assert actions, f"step {step}: seat {seat} must act but has no legal action"
        action = chooser.choice(actions)
        if check_every and step % check_every == 0:
            check_state(engine, state, seat, seed + step)
        before = engine.dump(state)
        state_after, events = engine.apply(state, seat, action)
        assert engine.dump(state) == before, "apply changed its input state"
        assert isinstance(events, list) and all("type" in e for e in events)
        json.dumps(events)
        state = state_after
        trail.append((seat, action))
    return state, trail


def check_state(engine: Engine, state, seat: int, seed: int) -> None:
    text = engine.dump(state)
    assert engine.load(text) == state, "load(dump(s)) differs from s"
    assert engine.dump(engine.load(text)) == text
    players = engine.player_count(state)
    for viewer in [None, *range(players)]:
        json.dumps(engine.view(state, viewer))
    # A seat's view must not change when only what it cannot see changes.
    for viewer in range(players):
        other = engine.shuffle_hidden(state, viewer, seed + viewer)
        assert engine.view(other, viewer) == engine.view(state, viewer), (
            f"seat {viewer}'s view leaks hidden data"
        )
        assert engine.to_act(other) == engine.to_act(state)
    # A move taken back after it drew on chance leaves a fresh source of chance and decks shuffled where nobody
    # has seen them: no view changes, and what the game holds (every card, gem and die) is the same.
    fresh = engine.reseeded(state, seed + 99)
    assert fresh["rng"] != state["rng"]
    for viewer in [None, *range(players)]:
        assert engine.view(fresh, viewer) == engine.view(state, viewer), f"seat {viewer} sees the reshuffle"
    secrets = [secret for secret in engine.secrets(state) if secret.path != ("rng",)]
    for secret in secrets:  # what a seat holds stays theirs
        if secret.owner is not None:
            assert _at(fresh, secret.path) == _at(state, secret.path), secret.path
    unseen = [secret.path for secret in secrets if secret.owner is None]
    assert sorted(repr(_at(fresh, path)) for path in unseen) == sorted(
        repr(_at(state, path)) for path in unseen
    )
    # Nobody but the seats to act may act, and nonsense is refused with a code.
    acting = set(engine.to_act(state))
    for other_seat in range(players):
        if other_seat not in acting:
            with pytest.raises(IllegalAction) as refused:
                engine.apply(state, other_seat, engine.legal_actions(state, seat)[0])
            assert refused.value.code == "not_your_turn"
            assert engine.legal_actions(state, other_seat) == []
    with pytest.raises(IllegalAction):
        engine.apply(state, seat, {"type": "no-such-action"})
    # The built-in player only ever chooses legal actions, and a pass is one of them when offered.
    assert engine.bot_action(state, seat, seed) in engine.legal_actions(state, seat)
    passing = engine.pass_action(state, seat)
    assert passing is None or passing in engine.legal_actions(state, seat)


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_random_playouts_keep_the_contract(engine: Engine, players: int):
    for seed in SEEDS:
        state, trail = playout(engine, players, seed, check_every=7)
        outcome = engine.outcome(state)
        assert isinstance(outcome, Outcome)
        assert len(outcome.scores) == players
        assert outcome.winners and all(0 <= w < players for w in outcome.winners)
        assert engine.to_act(state) == []
        assert all(engine.legal_actions(state, s) == [] for s in range(players))
        with pytest.raises(IllegalAction) as refused:
            engine.apply(state, 0, {"type": "anything"})
        assert refused.value.code == "game_over"


OPTION_CASES = [
    pytest.param(engine, option.name, value, id=f"{engine.name}-{option.name}={value}")
    for engine in all_engines()
    for option in engine.options
    for value in (option.choices or ((not option.default,) if isinstance(option.default, bool) else ()))
    if value != option.default
]


@pytest.mark.parametrize(("engine", "option", "value"), OPTION_CASES)
def test_games_end_under_every_option(engine: Engine, option: str, value: Any):
    for players in sorted({engine.min_players, engine.max_players}):
        state, _ = playout(engine, players, 1, options={option: value})
        assert engine.outcome(state) is not None


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_same_seed_same_game(engine: Engine, players: int):
    first, trail = playout(engine, players, 99)
    state = engine.new_game(players, engine.validate_options({}), 99)
    for seat, action in trail:
        state, _ = engine.apply(state, seat, action)
    assert engine.dump(state) == engine.dump(first)


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_different_seeds_deal_differently(engine: Engine, players: int):
    deals = {engine.dump(engine.new_game(players, engine.validate_options({}), seed)) for seed in range(5)}
    assert len(deals) > 1


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.name)
def test_player_counts_and_options_are_checked(engine: Engine):
    with pytest.raises(IllegalAction) as refused:
        engine.check_players(engine.max_players + 1)
    assert refused.value.code == "bad_player_count"
    with pytest.raises(IllegalAction) as refused:
        engine.validate_options({"no_such_option": 1})
    assert refused.value.code == "unknown_option"


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_is_legal_agrees_with_legal_actions(engine: Engine, players: int):
    """Engines may check legality directly; it must accept exactly the listed actions (and near misses fail)."""
    state = engine.new_game(players, engine.validate_options({}), 5)
    chooser = Rng.from_seed(5)
    for _ in range(60):
        if engine.outcome(state) is not None:
            break
        seat = chooser.choice(sorted(engine.to_act(state)))
        actions = engine.legal_actions(state, seat)
        assert all(engine.is_legal(state, seat, a) for a in actions)
        for action in actions[:5]:
            for key, value in action.items():
                if key == "type":
                    continue
                mutated = {**action, key: "nonsense" if not isinstance(value, str) else value + "?"}
                assert engine.is_legal(state, seat, mutated) == (mutated in actions)
        state, _ = engine.apply(state, seat, chooser.choice(actions))


# --- hidden information, checked against each engine's declared secrets rather than its own re-dealing ----------


def _at(state: Any, path: Path) -> Any:
    for key in path:
        state = state[key]
    return state


def perturbed(state: State, secrets: list[Secret], rng: Rng) -> State | None:
    """A copy of `state` with each of `secrets` given another of its possible values (None: none could change)."""
    out, changed = clone(state), False
    for secret in secrets:
        holder = _at(out, secret.path[:-1])
        others = [v for v in secret.values if v != holder[secret.path[-1]]]
        if others:
            holder[secret.path[-1]] = rng.choice(others)
            changed = True
    return out if changed else None


def check_secrets(engine: Engine, state: State, rng: Rng, owners_saw_change: set[int]) -> None:
    """Change one owner's secrets at a time: every other seat's view and the public view must stay the same."""
    players = engine.player_count(state)
    secrets = engine.secrets(state)
    for secret in secrets:
        _at(state, secret.path)  # every declared path exists
    viewers = [None, *range(players)]
    views = {viewer: engine.view(state, viewer) for viewer in viewers}
    for owner in viewers:
        changed = perturbed(state, [s for s in secrets if s.owner == owner], rng)
        if changed is None:
            continue
        for viewer in viewers:
            if viewer is None or viewer != owner:
                assert engine.view(changed, viewer) == views[viewer], (
                    f"{'the public' if viewer is None else f'seat {viewer}'} sees "
                    f"{'hidden data' if owner is None else f'a secret of seat {owner}'}"
                )
        if owner is not None and engine.view(changed, owner) != views[owner]:
            owners_saw_change.add(owner)


def public_picture(engine: Engine, state: State) -> bytes:
    render = importlib.import_module(f"render.{engine.name}")
    names = [f"P{seat + 1}" for seat in range(engine.player_count(state))]
    return render.render_table(engine.view(state, None), names, "en")


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_secrets_are_seen_by_their_owner_only(engine: Engine, players: int):
    state = engine.new_game(players, engine.validate_options({}), 3)
    chooser, rng = Rng.from_seed(3 * 7919 + players), Rng.from_seed(17)
    owners, owners_saw_change, pictured = set(), set(), False
    for step in range(STEP_LIMIT):
        if engine.outcome(state) is not None:
            break
        if step % 8 == 0:
            check_secrets(engine, state, rng, owners_saw_change)
            owners |= {s.owner for s in engine.secrets(state) if s.owner is not None}
            if not pictured and step >= 40:  # the public picture is drawn from the public view alone
                everything = perturbed(state, engine.secrets(state), rng)
                assert everything is not None
                assert public_picture(engine, everything) == public_picture(engine, state)
                pictured = True
        seat = chooser.choice(sorted(engine.to_act(state)))
        state, _ = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
    assert pictured
    # The declarations are not empty words: what a seat owns shows in its own view.
    assert owners_saw_change == owners


def test_the_secrets_check_catches_a_leak(monkeypatch):
    druids = next(e for e in all_engines() if e.name == "druids")
    state = druids.new_game(3, {}, 1)
    honest = type(druids).view

    def leaky(self, state, viewer):
        view = honest(self, state, viewer)
        view["hands"] = clone(state["hands"])  # every hand shown to everyone
        return view

    monkeypatch.setattr(type(druids), "view", leaky)
    with pytest.raises(AssertionError, match="a secret of seat"):
        check_secrets(druids, state, Rng.from_seed(1), set())
