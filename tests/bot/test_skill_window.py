"""Roll Player's skill window (Climb, Intimidate: a chance to change the initiative dice before another seat's pick)
is a chance to react: its holder is told by DM, not pinged on the board; the seat whose pick waits on it keeps the
mark of its wait, so the window's end does not ping it a second time for the same pick; and when the reaction
window ends unanswered, the host lets it pass by declining."""

from __future__ import annotations

from bot.service import acting_after
from engines import get_engine


def _window_opening():
    """The state just before a move opens a skill window, and that state's moves (seed 5: at move 108)."""
    engine = get_engine("roll_player")
    state = engine.new_game(3, engine.validate_options({}), 5)
    for number in range(500):
        seat = engine.to_act(state)[0]
        after, _ = engine.apply(state, seat, engine.bot_action(state, seat, number))
        if after["window"]:
            return engine, state, after
        state = after
    raise AssertionError("no skill window opened")


def test_a_skill_window_is_a_reaction_and_the_waiting_pick_keeps_its_mark():
    engine, before, state = _window_opening()
    holders, picker = state["window"]["seats"], state["window"]["before"]
    assert engine.reaction_seats(state) == sorted(holders) == engine.to_act(state)
    assert picker not in holders
    told = acting_after(engine, before, {}, 10)
    during = acting_after(engine, state, {**told, picker: "v10"}, 11)
    assert during[picker] == "v10"  # the waiting pick keeps its mark through the window
    for seat in holders:
        assert engine.pass_action(state, seat) == {"type": "decline_skill"}
        state, _ = engine.apply(state, seat, {"type": "decline_skill"})
    assert not engine.reaction_seats(state) and engine.to_act(state) == [picker]
    after = acting_after(engine, state, during, 12)
    assert after[picker] == "v10"  # same wait: not told again
