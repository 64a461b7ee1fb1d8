"""A player's answer that waits for built-in players alone carries on to their next choice instead of a ping, but
only while nobody else holds the game up: a review's player passed a reaction while a built-in player could still
react, another person then played a whole turn, and the old answer moved on minutes later with no ping."""

from __future__ import annotations

from types import SimpleNamespace

from bot.publisher import Publisher

ALICE, BOT, BOB = 0, 1, 2  # seats: two people and a built-in player


class Table:
    """What the publisher reads of a game: who must act, who of them is a person, who is newly told."""

    def __init__(self, to_act: list[int], newly: set[int] | None = None, status: str = "active") -> None:
        self.id = 7
        self.record = SimpleNamespace(status=status, demo_move_at=None)
        self._to_act = to_act
        self.newly = set(to_act) - {BOT} if newly is None else newly

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


async def test_the_answer_carries_on_once_the_built_in_players_are_done() -> None:
    publisher, answer = _publisher(), Answer()
    publisher.carry_on(7, ALICE, answer)
    assert await publisher._carried_on(Table([BOT])) == set()  # still their turn: kept
    back = Table([ALICE])
    assert await publisher._carried_on(back) == {ALICE} and answer.shown == [back]
    assert await publisher._carried_on(Table([ALICE])) == set()  # used once


async def test_another_person_to_act_first_drops_the_answer() -> None:
    publisher, answer = _publisher(), Answer()
    publisher.carry_on(7, ALICE, answer)
    assert await publisher._carried_on(Table([BOT])) == set()
    assert await publisher._carried_on(Table([BOB])) == set()  # Bob's turn: Alice may have gone
    assert await publisher._carried_on(Table([ALICE])) == set() and answer.shown == []


async def test_an_answer_discord_refuses_leaves_the_player_to_be_told() -> None:
    publisher, answer = _publisher(), Answer(works=False)
    publisher.carry_on(7, ALICE, answer)
    assert await publisher._carried_on(Table([ALICE])) == set() and len(answer.shown) == 1


async def test_an_ended_game_drops_its_answers() -> None:
    publisher, answer = _publisher(), Answer()
    publisher.carry_on(7, ALICE, answer)
    assert await publisher._carried_on(Table([], status="finished")) == set()
    assert publisher._carrying == {} and answer.shown == []
