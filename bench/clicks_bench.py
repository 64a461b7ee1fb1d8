"""Clicks per turn in the move picker, for every game: seeded games played by the built-in player ("typical") and
by random clicks ("random"), counted with the picker as it is (joint steps, chained moves, the built-in player's
suggestion taken where offered, and in Druids its end of the turn offered with the last play), without suggestions
(nor Druids' offered ends of turn), and as it was (one parameter per step, one move per choice).

A click is one button or select option used in the picker: one per step, or the single button of a move with
nothing to choose. Opening the picker ("Take my turn") is not counted. A turn is a run of moves by one seat.
Roll Player's set-up (race, class, starting dice) and Talisman's movement (roll, reroll or accept, move) are
counted apart from ordinary turns. In Roll for the Galaxy the built-in player mostly uses the engine's one-click
shortcuts ("place the rest automatically and be ready"), so its "typical" turn is that of a player who does the
same; the random clicks show the rest. "was" figures come from games played with the old picker, so random
playouts are not the same games."""

from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from bench.common import percentile
from bot.chooser import COMBINE_LIMIT, SUGGESTED, Chosen, narrow, path_to, picker_actions, split
from engines import get_engine

GAMES = {"druids": 3, "roll_player": 3, "roll_for_the_galaxy": 3, "talisman": 3}
SETUP_PHASES = {"choose_race", "choose_class", "place_start"}
MOVEMENT = {"roll_move", "reroll", "accept_roll", "move"}


def _offered(engine: Any, state: Any, seat: int, mode: str) -> list[dict[str, Any]]:
    if mode == "before":
        return engine.legal_actions(state, seat)
    return picker_actions(engine, state, seat, suggest=mode == "now")


def _typical(engine: Any, state: Any, seat: int, offered: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    """The built-in player's moves from here, through the offered run that makes the most of them (a run of
    moves the engine calls unordered may take them in another order); a suggestion, when there is one, is
    taken."""
    if offered and offered[0].get(SUGGESTED):
        return offered[0]
    plan: list[dict[str, Any]] = []
    current = state
    for step in range(max(len(split(a)) for a in offered)):
        if seat not in engine.to_act(current) or engine.outcome(current) is not None:
            break
        move = engine.bot_action(current, seat, seed + step)
        plan.append(move)
        current, _ = engine.apply(current, seat, move)
    fitting = [a for a in offered if _same_moves(split(a), plan, engine.unordered_moves)]
    if not fitting:  # the picker offers one of two chains that end alike (two reclaims in either order)
        fitting = [a for a in offered if _ends_like(engine, state, seat, split(a), plan)]
    if not fitting:
        raise AssertionError(f"the picker offers no way to play {plan[0]}")
    return max(fitting, key=lambda a: len(split(a)))


def _same_moves(parts: list[dict[str, Any]], plan: list[dict[str, Any]], unordered: frozenset[str]) -> bool:
    mine = plan[: len(parts)]
    if len(mine) < len(parts) or sorted(map(_key, parts)) != sorted(map(_key, mine)):
        return False
    return [p for p in parts if p["type"] not in unordered] == [p for p in mine if p["type"] not in unordered]


def _ends_like(
    engine: Any, state: Any, seat: int, parts: list[dict[str, Any]], plan: list[dict[str, Any]]
) -> bool:
    """Whether the offered chain ends where some of the plan's first moves end: "leave the card" where the
    built-in player takes it and puts it straight down again."""
    mine = state
    for part in parts:
        mine, _ = engine.apply(mine, seat, part)
    theirs = state
    for move in plan:
        theirs, _ = engine.apply(theirs, seat, move)
        if engine.settled(theirs) == engine.settled(mine):
            return True
    return False


def _key(action: dict[str, Any]) -> str:
    return repr(sorted(action.items()))


def _random(offered: list[dict[str, Any]], rng: random.Random, limit: int) -> tuple[dict[str, Any], int]:
    path: list[int] = []
    while not isinstance(step := narrow(offered, path, limit), Chosen):
        path.append(rng.randrange(len(step.values)))
    return step.action, max(1, len(path))


def _moves(name: str, players: int, seed: int, policy: str, mode: str) -> Iterator[tuple[int, str, str, int]]:
    """(seat, phase, first action type, clicks) of each choice in one game."""
    engine = get_engine(name)
    limit = 1 if mode == "before" else COMBINE_LIMIT
    rng = random.Random(seed)
    state = engine.new_game(players, engine.validate_options({}), seed)
    for move in range(3000):
        if engine.outcome(state) is not None:
            return
        seat = engine.to_act(state)[0]
        offered = _offered(engine, state, seat, mode)
        if policy == "typical":
            picked = _typical(engine, state, seat, offered, seed * 10_000 + move)
            clicks = max(1, len(path_to(offered, picked, limit)))
        else:
            picked, clicks = _random(offered, rng, limit)
        phase = str(state.get("phase", ""))
        kinds = [part["type"] for part in split(picked)]
        for part in split(picked):
            state, _ = engine.apply(state, seat, part)
        yield seat, phase, "+".join(kinds), clicks


def measure(name: str, policy: str, mode: str, games: int) -> dict[str, list[int]]:
    """Clicks per turn, per set-up (Roll Player) and per movement (Talisman)."""
    out: dict[str, list[int]] = defaultdict(list)
    for game in range(games):
        players = GAMES[name]
        current: tuple[int, str] | None = None
        count = 0
        setup: dict[int, int] = defaultdict(int)
        moving: dict[int, int] = {}
        for seat, phase, kinds, clicks in _moves(name, players, 1000 + game, policy, mode):
            if name == "roll_player" and phase in SETUP_PHASES:
                setup[seat] += clicks
                continue
            if name == "talisman" and set(kinds.split("+")) & MOVEMENT:
                moving[seat] = moving.get(seat, 0) + clicks
                if "move" in kinds.split("+"):
                    out["movement"].append(moving.pop(seat))
            key = (seat, "turn")
            if key != current and current is not None:
                out["turn"].append(count)
                count = 0
            current = key
            count += clicks
        if count:
            out["turn"].append(count)
        out["set-up"] += list(setup.values())
    return out


def _line(label: str, values: list[int]) -> str:
    if not values:
        return f"  {label:<34} —"
    return (
        f"  {label:<34} median {statistics.median(values):>4g}  p90 {percentile(values, 90):>4g}"
        f"  (n={len(values)})"
    )


def run(games: int = 4) -> None:
    print(
        "\n## Clicks per turn in the move picker (now / without suggestions / one parameter per step, one move per choice)"
    )
    for name in GAMES:
        print(f"{name} ({GAMES[name]} players, {games} seeded games each)")
        for policy in ("typical", "random"):
            now = measure(name, policy, "now", games)
            manual = measure(name, policy, "manual", games) if name in ("druids", "roll_player") else now
            before = measure(name, policy, "before", games)
            for kind in ("turn", "set-up", "movement"):
                if now.get(kind):
                    extra = f"   without suggestions {_summary(manual[kind])}" if manual is not now else ""
                    print(_line(f"{policy} {kind}", now[kind]) + extra + f"   was {_summary(before[kind])}")
    times = [1000 * t for t in offers_cost(games)]
    print(
        f"Druids whole-turn offers per decision: mean {statistics.mean(times):.1f} / p90 {percentile(times, 90):.1f}"
        f" / max {max(times):.1f} ms (process CPU; {len(times)} decisions, {games} seeded 3-player games)"
    )


def offers_cost(games: int) -> list[float]:
    """Process CPU seconds to work out the picker's offers at each decision of seeded 3-player Druids games played
    by the built-in player (whole runs of a turn: `turn_runs` and the endings, `bot/chooser.py`)."""
    engine = get_engine("druids")
    times = []
    for seed in range(games):
        state = engine.new_game(3, {}, seed)
        for step in range(200):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            actions = engine.legal_actions(state, seat)
            start = time.process_time()
            picker_actions(engine, state, seat, actions)
            times.append(time.process_time() - start)
            state, _ = engine.apply(state, seat, engine.bot_action(state, seat, step))
    return times


def _summary(values: list[int]) -> str:
    return f"median {statistics.median(values):g}, p90 {percentile(values, 90):g}" if values else "—"


if __name__ == "__main__":
    run()
