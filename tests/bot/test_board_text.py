"""A board's text: the newest public happenings that fit Discord's 2,000 characters (at most MOST_HAPPENINGS
lines), a line saying how many earlier ones were left to /play log, and the version mark always at the end."""

from __future__ import annotations

from types import SimpleNamespace

from bot.publisher import (
    MAX_CONTENT,
    MOST_HAPPENINGS,
    MOST_MOVES,
    RECENT_MOVES,
    TURN_LOOKBACK,
    Publisher,
    _newest,
)
from bot.service import ACTIVE


def test_the_newest_lines_are_kept_within_the_count_and_the_room():
    lines = [f"line {n:02}" for n in range(30)]  # 7 characters each, 8 with its newline
    assert _newest(lines, 10_000, 20) == (lines[10:], 10)
    assert _newest(lines, 8 * 3, 20) == (lines[27:], 27)
    assert _newest(lines, 8 * 3 - 1, 20) == (lines[28:], 28)
    assert _newest([], 100, 20) == ([], 0)


class Service:
    def __init__(self, moves: int, movers: list[int] | None = None) -> None:
        self.moves = moves
        self.movers = movers  # who made each move; None: moves by nobody in particular
        self.asked: list[int] = []

    async def settings_for(self, guild_id):
        return SimpleNamespace(deadline_hours=None)

    async def recent_events(self, table, limit: int):
        self.asked.append(
            limit - TURN_LOOKBACK
        )  # the moves asked for, besides those read to find a turn's start
        by = (lambda n: {"seat": self.movers[n]}) if self.movers else (lambda n: {})
        return [(n + 1, [{"type": "Told", "n": n, **by(n)}]) for n in range(self.moves)][
            -limit:
        ]  # move n made version n+1


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


def _table(version: int, acting: tuple[int, ...] = (0,), notes: list | None = None) -> SimpleNamespace:
    record = SimpleNamespace(locale="en", notes=notes or [], guild_id=1, shown_version=0, deadline_hours=None)
    return SimpleNamespace(
        id=7,
        version=version,
        record=record,
        state={},
        status=ACTIVE,
        names=["Alice", "Bob"],
        names_at=lambda version: ["Alice", "Bob"],  # nobody's seat changed hands
        view=lambda seat: {},
        to_act=lambda: list(acting),
        user_at=lambda seat: 100 + seat,
        people=lambda seats: list(seats),
        title=lambda locale: "Talisman",
    )


async def _board(
    moves: int,
    version: int,
    since: int | None,
    acting: tuple[int, ...] = (0,),
    notes: list | None = None,
    movers: list[int] | None = None,
) -> tuple[str, list[int]]:
    service = Service(moves, movers)
    publisher = Publisher(client=None, service=service, private=None, pictures=None)  # type: ignore[arg-type]
    publisher.note_text = lambda table, note: f"note {note['v']}"  # type: ignore[method-assign]
    text, _ = await publisher.board_content(_table(version, acting, notes), Game(), [100], set(), since)
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


async def test_a_board_reaches_back_to_the_start_of_the_turn_its_moves_begin_in():
    """The last few moves begin inside Alice's five-move turn: the board tells that whole turn (its first moves
    may be a scoring, or the first of draws told as one line), then Bob's."""
    movers = [1] * 3 + [0] * 5 + [1] * 3
    assert RECENT_MOVES == 6  # the last six moves begin with Alice's third
    text, _ = await _board(moves=11, version=11, since=10, movers=movers)
    told = [int(line.split()[2]) for line in text.splitlines() if line.startswith("• happening")]
    assert told == list(range(3, 11)), told
    text, _ = await _board(moves=11, version=11, since=10)  # moves by nobody: the last few only
    told = [int(line.split()[2]) for line in text.splitlines() if line.startswith("• happening")]
    assert told == list(range(11 - RECENT_MOVES, 11)), told


async def test_several_people_to_act_are_named_apart():
    text, _ = await _board(moves=3, version=3, since=0, acting=(0, 1))
    assert "<@100>, Bob — your move in Talisman #7." in text  # pinged Alice, and Bob, who turned pings off


async def test_notes_are_told_where_they_happened_and_no_cut_drops_them():
    """A game's start, a seat handed over or a missed deadline is told between the moves before and after it
    (a deadline's note just before the move it introduces, of the same version), however many lines are cut."""
    notes = [{"key": "k", "v": v} for v in (40, 3, 33, 36)]  # moves made versions 1..40
    notes.append({"key": "game.deadline", "v": 38})
    text, asked = await _board(moves=40, version=40, since=2, notes=notes)
    lines = [line.split(" ·")[0] for line in text.splitlines() if line.startswith("• ")]
    earlier = int(lines[0].split()[3])  # "• … and N earlier happenings: …"
    told = lines[1:]
    assert [line for line in told if line.startswith("• note")] == [
        "• note 3",
        "• note 33",
        "• note 36",
        "• note 38",
        "• note 40",
    ]
    made = [int(line.split()[2]) + 1 if "happening" in line else None for line in told]  # each move's version
    assert earlier > 0 and earlier + sum(v is not None for v in made) == asked[0]  # a cut, and no note in it
    for i, line in enumerate(told):
        if line.startswith("• note"):
            v = int(line.split()[2])
            heads = v == 38  # the deadline's: over its own move
            assert all(m <= v - heads for m in made[:i] if m), (v, told)
            assert all(m > v - heads for m in made[i + 1 :] if m), (v, told)
    assert told[told.index("• note 38") + 1] == "• happening 37"  # move 38, right under its note


async def test_moves_told_again_for_context_keep_their_notes():
    """A review's new board retold a deadline's moves, and those after a player was voted out, without the notes
    the board it replaced had told them with. The game's opening note is not told again."""
    notes = [
        {"key": "game.welcome", "v": 6},
        {"key": "game.deadline", "v": 3},  # heads move 3, which this board does not tell
        {"key": "k", "v": 4},  # with the change just before the first move told (5)
        {"key": "game.deadline", "v": 7},
    ]
    text, asked = await _board(moves=10, version=10, since=8, notes=notes)
    assert asked == [RECENT_MOVES]
    lines = [line.split(" ·")[0] for line in text.splitlines() if line.startswith("• ")]
    assert lines == [
        "• note 4",
        *(f"• happening {n}" for n in (4, 5)),
        "• note 7",
        *(f"• happening {n}" for n in (6, 7, 8, 9)),
    ]


async def test_a_replaced_board_ends_before_the_note_it_leaves_to_the_next():
    """Two deadlines passed in one tick: the board replaced ends with Carol's moves under Carol's note; Frank's,
    after his own note, are the next board's (a review read "⌛ Carol's deadline passed…: Carol and Frank are
    ready")."""
    notes = [{"key": "game.deadline", "v": 8}, {"key": "game.deadline", "v": 9}]
    service = Service(10)
    publisher = Publisher(client=None, service=service, private=None, pictures=None)  # type: ignore[arg-type]
    publisher.note_text = lambda table, note: f"note {note['v']}"  # type: ignore[method-assign]
    table = _table(10, (0,), notes)
    _, ended = await publisher.board_content(table, Game(), [], set(), 6, 8)
    lines = [line.split(" ·")[0] for line in ended.splitlines() if line.startswith("• ")]
    assert lines[-2:] == ["• note 8", "• happening 7"]  # move 8 under its note; 9 and 10 left to the next
