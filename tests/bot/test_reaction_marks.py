"""A chance to react is a wait of its own: a review's Talisman player was offered a Spell just after her own turn
and never told (the window kept her turn's mark, so only her silent DM was edited)."""

from __future__ import annotations

from bot.service import acting_after

ALICE, BOB = 0, 1


class Engine:
    """Who acts and who of them reacts, as the state says; each seat has a real choice (nothing only passes)."""

    passing_moments = False

    def to_act(self, state):
        return state["to_act"]

    def reaction_seats(self, state):
        return state["reacting"]

    def interrupted_turn(self, state):
        return state["turn"] if state["reacting"] else None

    def notice_stretch(self, state):
        return None

    def legal_actions(self, state, seat):
        return [{"type": "cast"}, {"type": "decline"}]

    def pass_action(self, state, seat):
        return {"type": "decline"}


def _after(
    before: dict[int, str], version: int, to_act: list[int], reacting: list[int] = (), turn: int | None = None
) -> dict[int, str]:
    state = {"to_act": to_act, "reacting": list(reacting), "turn": turn}
    return acting_after(Engine(), state, before, version)


def test_a_window_just_after_ones_own_turn_and_a_turn_just_after_reacting_are_new_waits():
    turn = {ALICE: "v5"}
    # Alice may cast a Spell as Bob's turn begins
    window = _after(turn, 6, [ALICE], reacting=[ALICE], turn=BOB)
    assert window[ALICE] != turn[ALICE]  # told: a DM that notifies
    again = _after(window, 7, [ALICE], reacting=[ALICE], turn=BOB)
    assert again == window  # the same window: not told twice
    bobs = _after(again, 8, [BOB])
    assert bobs == {BOB: "v8"}
    # Bob reacts in Alice's next turn, and his own turn follows at once: told of it
    reacted = _after({ALICE: "v9"}, 10, [BOB], reacting=[BOB], turn=ALICE)
    assert reacted[ALICE] == "v9"  # Alice's turn keeps its mark through the window
    assert _after(reacted, 11, [BOB])[BOB] != reacted[BOB]


def test_only_the_interrupted_turn_keeps_its_mark_through_a_window():
    """Alice's turn is over; Bob's begins with a chance for the built-in player to react. Alice's mark went on
    being kept, so she counted as acting, and an answer of hers waiting to carry on said "A chance to react" for a
    window she could only let pass (a review's sandbox game)."""
    BOT = 2
    window = _after({ALICE: "v5"}, 6, [BOT], reacting=[BOT], turn=BOB)
    assert ALICE not in window
    assert _after({BOB: "v7"}, 8, [BOT], reacting=[BOT], turn=BOB) == {BOB: "v7", BOT: "r8"}  # Bob's own turn
