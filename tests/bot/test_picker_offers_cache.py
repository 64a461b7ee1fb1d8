"""The picker's offers are worked out once per game state and seat, and the cache keeps only what can still be played."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot import picker as picker_module
from bot.chooser import SUGGESTED, Chosen, PathError, narrow, path_to
from bot.picker import Picker, _clicked, _Offers, offered
from bot.service import ACTIVE, choice_token
from engines import get_engine


def _table(game_id: int, state, version: int = 0):
    engine = get_engine("roll_player")
    record = SimpleNamespace(state=engine.dump(state))
    return SimpleNamespace(
        id=game_id,
        engine=engine,
        state=state,
        record=record,
        version=version,
        seats=[0, 1],
        status=ACTIVE,
        once=lambda what, seat, work: work(),
        to_act=lambda: engine.to_act(state),
    )


def _states(count: int):
    engine = get_engine("roll_player")
    state = engine.new_game(2, engine.validate_options({}), 3)
    states = [state]
    while len(states) < count:
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, len(states)))
        states.append(state)
    return states


def test_offers_follow_the_newest_state_and_stay_within_their_bound(monkeypatch):
    picker = Picker(SimpleNamespace(service=None))
    calls = []
    monkeypatch.setattr(
        picker_module,
        "offered",
        lambda table, seat, actions: calls.append(1) or offered(table, seat, actions),
    )
    states = _states(6)

    async def ask(table):
        seat = table.engine.to_act(table.state)[0]
        return await picker.offered(table, seat, table.engine.legal_actions(table.state, seat))

    first = asyncio.run(ask(_table(1, states[0]))).actions
    again = asyncio.run(ask(_table(1, states[0]))).actions
    assert again is first and len(calls) == 1  # the same state: not worked out again
    for version, state in enumerate(states[1:], start=1):
        asyncio.run(ask(_table(1, state, version)))
    # one game: however many states it went through and whoever moved, only offers for its newest state are kept
    newest = get_engine("roll_player").dump(states[-1])
    assert [entry.state for entry in picker._offers.values()] == [newest]
    asyncio.run(ask(_table(1, states[0], 0)))  # a late read of an older version drops nothing newer
    assert newest in [entry.state for entry in picker._offers.values()]
    assert picker._offers_size == sum(entry.size for entry in picker._offers.values())

    monkeypatch.setattr(picker_module, "OFFERS_KEPT", len(first) * 3)
    for game_id in range(2, 30):
        asyncio.run(ask(_table(game_id, states[0])))
    assert picker._offers_size <= len(first) * 3
    assert picker._offers_size == sum(entry.size for entry in picker._offers.values())
    assert (29, get_engine("roll_player").to_act(states[0])[0]) in picker._offers  # the newest stays


def test_a_changed_state_is_worked_out_again():
    picker = Picker(SimpleNamespace(service=None))
    engine = get_engine("roll_player")
    first, _, third = _states(3)

    async def ask(state):
        seat = engine.to_act(state)[0]
        return await picker.offered(_table(7, state), seat, engine.legal_actions(state, seat))

    before = asyncio.run(ask(first)).actions
    after = asyncio.run(ask(third)).actions
    seat = engine.to_act(third)[0]
    assert after is not before
    assert after == offered(_table(7, third), seat, engine.legal_actions(third, seat))


def test_a_step_is_narrowed_once_and_a_path_that_does_not_fit_is_refused(monkeypatch):
    picker = Picker(SimpleNamespace(service=None))
    engine = get_engine("roll_player")
    state = _states(1)[0]
    seat = engine.to_act(state)[0]
    table = _table(3, state)
    narrowed = []
    monkeypatch.setattr(
        picker_module, "narrow", lambda offers, path: narrowed.append(path) or narrow(offers, path)
    )

    async def steps():
        actions = engine.legal_actions(state, seat)
        first = (await picker.offered(table, seat, actions)).step([0])
        again = (await picker.offered(table, seat, actions)).step([0])
        with pytest.raises(PathError):
            (await picker.offered(table, seat, actions)).step([999])
        return first, again

    first, again = asyncio.run(steps())
    assert first is again and narrowed == [[0], [999]]
    assert first == narrow(offered(table, seat, engine.legal_actions(state, seat)), [0])


def test_a_click_on_offers_from_before_another_players_move_plays_only_a_finished_choice():
    """Where another player's move left a seat's choices alone but chained its offers anew, a picker drawn from
    the earlier offers plays a finished choice the engine still allows; a step half-way (its next menu would now
    be drawn from other offers), a suggestion (it told what would follow) and a token of neither are out of date."""
    engine = get_engine("roll_player")
    state = _states(5)[-1]  # a set-up: a suggestion, and dice asked by die, then by row
    seat = engine.to_act(state)[0]
    table = _table(5, state, 1)
    earlier = offered(table, seat, engine.legal_actions(state, seat))
    mine = choice_token(engine.legal_actions(state, seat))
    before = _Offers(table.record.state, 0, mine, earlier)
    offers = _Offers(table.record.state, 1, mine, earlier[1:], before)  # chained anew
    suggested = next(a for a in earlier if SUGGESTED in a)
    placed = next(a for a in earlier if SUGGESTED not in a and len(path_to(earlier, a)) > 1)
    path = path_to(earlier, placed)

    def click(token: int, steps: list[int]):
        return _clicked(table, seat, offers, token, ".".join(map(str, steps)))

    assert click(before.token, path) == Chosen(placed)
    assert click(before.token, path[:1]) is None
    assert click(before.token, path_to(earlier, suggested)) is None
    assert click(before.token ^ 1, path) is None
    assert click(offers.token, path_to(offers.actions, placed)) == Chosen(
        placed
    )  # the current offers, as ever
