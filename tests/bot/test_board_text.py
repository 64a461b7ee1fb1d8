"""A board's text: the newest public happenings that fit Discord's 2,000 characters (at most MOST_HAPPENINGS
lines), a line saying how many earlier ones were left to /play log, and the version mark always at the end."""

from __future__ import annotations

from types import SimpleNamespace

from bot.publisher import MAX_CONTENT, MOST_HAPPENINGS, MOST_MOVES, RECENT_MOVES, Publisher, _newest
from bot.service import ACTIVE


def test_the_newest_lines_are_kept_within_the_count_and_the_room():
    lines = [f"line {n:02}" for n in range(30)]  # 7 characters each, 8 with its newline
    assert _newest(lines, 10_000, 20) == (lines[10:], 10)
    assert _newest(lines, 8 * 3, 20) == (lines[27:], 27)
    assert _newest(lines, 8 * 3 - 1, 20) == (lines[28:], 28)
    assert _newest([], 100, 20) == ([], 0)


class Service:
    def __init__(self, moves: int) -> None:
        self.moves = moves
        self.asked: list[int] = []

    async def recent_events(self, table, limit: int):
        self.asked.append(limit)
        return [[{"type": "Told", "n": n}] for n in range(self.moves)][-limit:]


class Game:
    @staticmethod
    def condensed(events):
        return events

    @staticmethod
    def event_text(event, names, view, locale) -> str:
        return f"happening {event['n']} " + "·" * 150

    @staticmethod
    def status_text(view, names, locale) -> str:
        return "round 3"

    @staticmethod
    def title(locale) -> str:
        return "Talisman"


def _table(version: int, acting: tuple[int, ...] = (0,)) -> SimpleNamespace:
    record = SimpleNamespace(locale="en", notes=[], guild_id=1, shown_version=0)
    return SimpleNamespace(
        id=7,
        version=version,
        record=record,
        state={},
        status=ACTIVE,
        names=["Alice", "Bob"],
        view=lambda seat: {},
        to_act=lambda: list(acting),
        user_at=lambda seat: 100 + seat,
        people=lambda seats: list(seats),
        title=lambda locale: "Talisman",
    )


async def _board(
    moves: int, version: int, since: int | None, acting: tuple[int, ...] = (0,)
) -> tuple[str, list[int]]:
    service = Service(moves)
    publisher = Publisher(client=None, service=service, private=None, pictures=None)  # type: ignore[arg-type]
    text = await publisher.board_content(_table(version, acting), Game(), [100], set(), since)
    return text, service.asked


async def test_a_long_stretch_is_told_from_its_newest_happening_back_and_says_how_many_were_left_out():
    text, asked = await _board(moves=40, version=40, since=10)
    assert asked == [MOST_MOVES]  # everything since the board before, up to the most a board reads
    assert len(text) <= MAX_CONTENT and text.endswith("-# #7·v40")  # the mark that finds a resent board
    told = [line for line in text.splitlines() if line.startswith("• happening")]
    assert told and len(told) < MOST_HAPPENINGS  # the room ran out first: 150-character lines
    assert told[-1].startswith("• happening 39 ")  # the newest is kept
    assert f"… and {MOST_MOVES - len(told)} earlier happenings: `/play log` tells every move." in text
    assert "<@100> — your move in Talisman #7." in text


async def test_a_board_tells_at_least_the_last_few_moves_and_everything_since_the_board_before():
    assert (await _board(moves=40, version=40, since=39))[1] == [RECENT_MOVES]
    assert (await _board(moves=40, version=40, since=30))[1] == [10]
    assert (await _board(moves=40, version=40, since=None))[1] == [RECENT_MOVES]  # a game from before
    text, _ = await _board(moves=3, version=3, since=0)
    assert "earlier" not in text and text.count("• happening") == 3


async def test_several_people_to_act_are_named_apart():
    text, _ = await _board(moves=3, version=3, since=0, acting=(0, 1))
    assert "<@100>, Bob — your move in Talisman #7." in text  # pinged Alice, and Bob, who turned pings off
