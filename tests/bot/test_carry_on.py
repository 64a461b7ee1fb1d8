"""A player's answer that waits for built-in players, or a reaction window, alone carries on to their next choice
instead of a ping, but only while nobody else holds the game up: a review's player passed a reaction while a
built-in player could still react, another person then played a whole turn, and the old answer moved on minutes
later with no ping. A turn that kept its mark through a reaction window is carried on too (a review's player was
left reading "Waiting for Bot 1 to react; then it goes on" after the bot had answered), and told as anyone is
where its answer cannot be, or comes after a person's long window."""

from __future__ import annotations

from types import SimpleNamespace

from bot import publisher as publisher_module
from bot.publisher import Publisher

ALICE, BOT, BOB = 0, 1, 2  # seats: two people and a built-in player


class Table:
    """What the publisher reads of a game: who must act and who of them reacts, who of them is a person, the
    marks of their waits and who is newly told of theirs."""

    def __init__(
        self,
        to_act: list[int],
        newly: set[int] | None = None,
        status: str = "active",
        reacting: list[int] = (),
        kept: dict[int, str] | None = None,
    ) -> None:
        self.id = 7
        self.record = SimpleNamespace(status=status, demo_move_at=None)
        self.state = {}
        self.engine = SimpleNamespace(reaction_seats=lambda state: list(reacting))
        self._to_act = to_act
        self.newly = set(to_act) - {BOT} if newly is None else newly
        self.acting = {**{seat: f"v{seat}" for seat in self.newly}, **(kept or {})}

    def to_act(self) -> list[int]:
        return self._to_act

    def people(self, seats: list[int]) -> list[int]:
        return [seat for seat in seats if seat != BOT]


class Answer:
    """Stands in for editing the player's answer; `works` says whether Discord took the edit."""

    def __init__(self, works: bool = True) -> None:
        self.works = works
        self.shown: list[Table] = []

    async def __call__(self, table: Table) -> bool:
        self.shown.append(table)
        return self.works


def _publisher() -> Publisher:
    publisher = Publisher(client=None, service=None, private=None, pictures=None)  # type: ignore[arg-type]
    publisher._newly_told = lambda table: table.newly  # type: ignore[method-assign]
    return publisher


NOTHING = (set(), set())


async def test_the_answer_carries_on_once_the_built_in_players_are_done() -> None:
    publisher, answer = _publisher(), Answer()
    publisher.carry_on(7, ALICE, answer)
    assert await publisher._carried_on(Table([BOT])) == NOTHING  # still their turn: kept
    back = Table([ALICE])
    assert await publisher._carried_on(back) == ({ALICE}, set()) and answer.shown == [back]
    assert await publisher._carried_on(Table([ALICE])) == NOTHING  # used once


async def test_another_person_to_act_first_drops_the_answer() -> None:
    publisher, answer = _publisher(), Answer()
    publisher.carry_on(7, ALICE, answer)
    assert await publisher._carried_on(Table([BOT])) == NOTHING
    assert await publisher._carried_on(Table([BOB])) == NOTHING  # Bob's turn: Alice may have gone
    assert await publisher._carried_on(Table([ALICE])) == NOTHING and answer.shown == []


async def test_an_answer_discord_refuses_leaves_the_player_to_be_told() -> None:
    publisher, answer = _publisher(), Answer(works=False)
    publisher.carry_on(7, ALICE, answer)
    assert await publisher._carried_on(Table([ALICE])) == NOTHING and len(answer.shown) == 1  # newly told


async def test_an_ended_game_drops_its_answers() -> None:
    publisher, answer = _publisher(), Answer()
    publisher.carry_on(7, ALICE, answer)
    assert await publisher._carried_on(Table([], status="finished")) == NOTHING
    assert publisher._carrying == {} and answer.shown == []


async def test_a_turn_that_kept_its_mark_through_a_reaction_window_is_carried_on_or_told_again() -> None:
    for works, expected in ((True, ({ALICE}, set())), (False, (set(), {ALICE}))):
        publisher, answer = _publisher(), Answer(works)
        publisher.carry_on(7, ALICE, answer, window="bots")
        window = Table([BOT], reacting=[BOT], kept={ALICE: "v3"})  # the turn's mark is kept, Alice not to act
        assert await publisher._carried_on(window) == NOTHING and answer.shown == []
        back = Table([ALICE], newly=set(), kept={ALICE: "v3"})  # her turn again, with the same mark
        assert await publisher._carried_on(back) == expected and answer.shown == [back]


async def test_a_persons_reaction_window_keeps_the_answer_and_a_long_one_tells_the_player_too(
    monkeypatch,
) -> None:
    for quietly, expected in ((60, ({ALICE}, set())), (-1, (set(), {ALICE}))):
        monkeypatch.setattr(publisher_module, "QUIETLY_WITHIN", quietly)
        publisher, answer = _publisher(), Answer()
        publisher.carry_on(7, ALICE, answer, window="people")
        window = Table([BOB], newly={BOB}, reacting=[BOB], kept={ALICE: "v3"})  # Bob may cast a Spell
        assert await publisher._carried_on(window) == NOTHING and answer.shown == []  # not dropped
        back = Table([ALICE], newly=set(), kept={ALICE: "v3"})
        assert await publisher._carried_on(back) == expected and answer.shown == [back]


async def test_an_answer_waiting_on_a_window_says_what_happened_when_the_game_goes_on_to_another_person() -> (
    None
):
    """It said "then it goes on": where the window ended the player's turn (a fight lost, a life taken), it tells
    what happened and whom the game waits for, instead of keeping a promise that is over."""
    for window, shown in ((None, 0), ("bots", 1)):
        publisher, answer = _publisher(), Answer()
        publisher.carry_on(7, ALICE, answer, window)
        assert await publisher._carried_on(Table([BOT], reacting=[BOT], kept={ALICE: "v3"})) == NOTHING
        assert await publisher._carried_on(Table([BOB])) == NOTHING  # Bob's turn: dropped
        assert len(answer.shown) == shown and publisher._carrying == {}
