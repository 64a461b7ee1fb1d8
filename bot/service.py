"""The one write path: load a game, let its engine decide, commit with a version check, then hand back the result.

Nothing here knows Discord. Every change to a game is committed in one transaction (game row + move log) before
the caller sends anything, so a crash after the commit loses no move and a crash before it loses nothing visible.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
from sqlalchemy import (
    JSON,
    LABEL_STYLE_TABLENAME_PLUS_COL,
    BigInteger,
    Connection,
    Integer,
    bindparam,
    case,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db import read, write
from bot.db.models import Game, GuildSettings, Move, Seat, Spectator, UserPrefs
from bot.games import presenter
from bot.recent import MoveEvents, MoveTails, Place, RecentGames
from engines import get_engine
from engines.base import Action, Engine, Event, IllegalAction, State, View, visible_to

LOBBY, ACTIVE, FINISHED, ABANDONED = "lobby", "active", "finished", "abandoned"
ARCHIVED, EXPIRED = "archived", "expired"  # idle too long; a lobby nobody started
OPEN = (LOBBY, ACTIVE)


class ServiceError(Exception):
    """A request the host refuses (not a rules question): unknown game, wrong user, stale button, full lobby…"""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


def utcnow() -> datetime:
    return datetime.now(UTC)


# Core tables: the hot path's statements skip the ORM's bulk-statement work (matching the rows against objects in
# the session, which holds none here): SQLAlchemy's CPU in a move's commit 40 % less under the load profile.
_GAMES, _SEATS, _MOVES = Game.__table__, Seat.__table__, Move.__table__


def _shown_statement() -> Any:
    """The publisher's "shown" (GameService.shown), built once: one statement matching the game's row whatever
    happened meanwhile, so the row is always locked before the seats, in the order a move takes them."""
    game = _GAMES.c
    version = bindparam("at_version", type_=Integer)
    behind = game.shown_version < version  # nothing newer was shown meanwhile
    current = game.version == version  # nothing newer was committed meanwhile
    return (
        update(_GAMES)
        .where(game.id == bindparam("game", type_=Integer))
        .values(
            shown_version=case((behind, version), else_=game.shown_version),
            shown_acting=case((behind, bindparam("told", type_=JSON)), else_=game.shown_acting),
            publish_attempts=case((behind, 0), else_=game.publish_attempts),
            publish_at=case((current, None), else_=game.publish_at),
            publish_problem=case((current, None), else_=game.publish_problem),
        )
    )


_SHOWN = _shown_statement()


def _with_note(
    notes: list[dict[str, Any]] | None, note: tuple[str, dict[str, Any]], version: int, board_from: int | None
) -> list[dict[str, Any]]:
    """The game's notes for the board with `note`, of the change to `version`, added; a note of the same kind at
    that version is replaced (a missed turn played over several moves is one note, told at its first). A note is
    told by every board that tells its version (publisher.board_content), so it stays until the board after the
    one that told it is posted; the notes no board tells any longer go now."""
    kept = [
        n
        for n in notes or []
        if n.get("v", 0) > (board_from or 0) and (n["key"], n.get("v")) != (note[0], version)
    ]
    return [*kept, {"key": note[0], "params": note[1], "v": version}]


_PRIVATE_MESSAGE_NOTES = (
    update(_SEATS)
    .where(_SEATS.c.game_id == bindparam("game"), _SEATS.c.seat == bindparam("at_seat"))
    .values(
        dm_channel_id=bindparam("channel"), dm_message_id=bindparam("message"), dm_view=bindparam("digest")
    )
)


def _private_message_notes(
    game_id: int, messages: Sequence[PrivateMessage]
) -> tuple[Any, list[dict[str, Any]]]:
    """Where each seat's private message is and what it shows: one statement for all of them (executemany)."""
    rows = [
        {"game": game_id, "at_seat": seat, "channel": channel, "message": message, "digest": digest}
        for seat, channel, message, digest in messages
    ]
    return _PRIVATE_MESSAGE_NOTES, rows


def _games_query(where: Any) -> Any:
    """Games and their seats, one row per seat (GameRow.of puts them together)."""
    return (
        select(_GAMES, _SEATS)
        .set_label_style(LABEL_STYLE_TABLENAME_PLUS_COL)
        .outerjoin(_SEATS, _SEATS.c.game_id == _GAMES.c.id)
        .where(where)
        .order_by(_GAMES.c.id.desc(), _SEATS.c.seat)
    )


# The statements of nearly every interaction, built once: building one costs about as much as sending it, and
# SQLAlchemy leaves some of what it builds in reference cycles for Python's full collections.
_GAME_BY_ID = _games_query(_GAMES.c.id == bindparam("game_id", type_=Integer))
_PLACE = bindparam("place", type_=BigInteger)
_IN_STATUSES = _GAMES.c.status.in_(bindparam("statuses", expanding=True))
_GAMES_IN_CHANNEL = _games_query(
    ((_GAMES.c.channel_id == _PLACE) | (_GAMES.c.thread_id == _PLACE)) & _IN_STATUSES
)
_GAMES_OF_USER = _games_query(
    _GAMES.c.id.in_(select(_SEATS.c.game_id).where(_SEATS.c.user_id == _PLACE)) & _IN_STATUSES
)
_LOG_MOVE = insert(_MOVES)
_RESET_REMINDERS = (
    update(_SEATS)
    .where(_SEATS.c.game_id == bindparam("game"), _SEATS.c.seat.in_(bindparam("seats", expanding=True)))
    .values(reminders_sent=0)
)
_LAPSE_VOTES = (
    update(_SEATS)
    .where(_SEATS.c.game_id == bindparam("game"), _SEATS.c.seat.in_(bindparam("seats", expanding=True)))
    .values(kick_votes=[])
)
_PING_PREFERENCES = select(UserPrefs.user_id, UserPrefs.pings).where(
    UserPrefs.user_id.in_(bindparam("users", expanding=True))
)


class SeatRow:
    """A seat as read (the columns of `Seat`, plain attributes)."""

    def __init__(self, **columns: Any) -> None:
        self.__dict__.update(columns)

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    def changed(self, **changes: Any) -> SeatRow:
        return SeatRow(**{**self.__dict__, **changes})


class GameRow:
    """A game as read for a table (the columns of `Game`, plain attributes, with its seats in order)."""

    seats: list[SeatRow]

    def __init__(self, seats: list[SeatRow], **columns: Any) -> None:
        self.__dict__.update(columns)
        self.seats = seats

    @classmethod
    def of(cls, rows: Sequence[Any]) -> GameRow:
        """From the rows of a game joined with its seats: the game's columns repeated beside each seat."""
        first = rows[0]._mapping
        seats = [
            SeatRow(**{column.name: row._mapping[column] for column in _SEATS.columns})
            for row in rows
            if row._mapping[_SEATS.c.id] is not None
        ]
        return cls(seats, **{column.name: first[column] for column in _GAMES.columns})

    def changed(self, seats: list[SeatRow], **changes: Any) -> GameRow:
        """The row as a change leaves it: a new row, so a table holding this one still stands for its version."""
        columns = {name: value for name, value in self.__dict__.items() if name != "seats"}
        return GameRow(seats, **{**columns, **changes})


@dataclass
class Table:
    """A game as loaded from the database, with its engine and decoded state. A table stands for one version of
    the game, so what is derived from its state (views, each seat's choices) is worked out once per table."""

    record: Game | GameRow
    engine: Engine
    state: State | None
    _derived: dict[tuple[str, int | None], Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def seats(self) -> list[Seat]:
        return list(self.record.seats)

    @property
    def names(self) -> list[str]:
        return [seat.display_name for seat in self.record.seats]

    def holders_at(self, version: int) -> list[tuple[str, bool]]:
        """Who held each seat when move `version` was made (their name, and whether a person): a seat's past moves
        stay its then holder's."""
        return [
            next(
                ((name, person) for last, name, person, *_ in seat.holders or [] if version <= last),
                (seat.display_name, seat.user_id is not None),
            )
            for seat in self.record.seats
        ]

    def names_at(self, version: int) -> list[str]:
        return [name for name, _ in self.holders_at(version)]

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.record.seats if s.user_id == user_id), None)

    def seat_row(self, seat: int) -> Seat:
        return next(s for s in self.record.seats if s.seat == seat)

    def user_at(self, seat: int) -> int | None:
        """The person holding `seat`, or None when the built-in player holds it."""
        return next(s.user_id for s in self.record.seats if s.seat == seat)

    def abandoned_by(self) -> dict[str, Any] | None:
        """Who abandoned the game, from its note: {"user": their name, "by_id": their id}; None if nobody did."""
        return next(
            (n["params"] for n in reversed(self.record.notes or []) if n["key"] == "game.abandoned"), None
        )

    def title(self, locale: str) -> str:
        """The game's name in `locale` (from its string file)."""
        return presenter(self.engine.name).title(locale)

    def view(self, viewer: int | None) -> View:
        assert self.state is not None
        return self.once("view", viewer, lambda: self.engine.view(self.state, viewer))

    def once(self, what: str, seat: int | None, work: Callable[[], Any]) -> Any:
        """What `work` derives from this version for `seat`, worked out at the first ask."""
        key = (what, seat)
        if key not in self._derived:
            self._derived[key] = work()
        return self._derived[key]

    def to_act(self) -> list[int]:
        return [] if self.state is None else self.engine.to_act(self.state)

    def people(self, seats: Iterable[int]) -> list[int]:
        """Those of `seats` that people hold (built-in players hold the others, and never wait to be told)."""
        return [seat for seat in seats if self.user_at(seat) is not None]

    def users_to_act(self) -> list[int]:
        """People (not bots) who must act now."""
        return [user for seat in self.to_act() if (user := self.user_at(seat)) is not None]

    def bots_to_act(self) -> list[int]:
        return [seat for seat in self.to_act() if self.user_at(seat) is None]

    @property
    def acting(self) -> dict[int, str]:
        """The seats that must act now and are to be told so, each with a mark of the wait it is in (a seat is
        told once per mark)."""
        return {int(seat): mark for seat, mark in (self.record.acting or {}).items()}

    @property
    def told(self) -> dict[int, str]:
        """For each seat, the mark of the last wait Discord told it about."""
        return {int(seat): mark for seat, mark in (self.record.shown_acting or {}).items()}

    def choice_token(self, seat: int) -> int:
        """A short digest of what `seat` may do now, which `/play move`'s suggestions carry (with the choice's
        index): one is out of date only when this changes, so one player's step in a simultaneous phase leaves the
        others' suggestions good."""
        return self.once("token", seat, lambda: choice_token(choices(self, seat)))


def _of(tables: list[Table], statuses: tuple[str, ...]) -> list[Table]:
    return [table for table in tables if table.status in statuses]


def choices(table: Table, seat: int) -> list[Action]:
    """What `seat` may do now: its legal actions, or when it is not its move, its side actions (e.g. taking back
    a "ready")."""
    if table.state is None or table.status != ACTIVE:
        return []
    state = table.state
    return table.once(
        "choices",
        seat,
        lambda: table.engine.legal_actions(state, seat) or table.engine.side_actions(state, seat),
    )


def choice_token(actions: list[Action]) -> int:
    """A short digest of a list of actions (a seat's choices, or what its picker offers), which components and
    suggestions carry to tell whether the list they were made from is still the one offered."""
    digest = hashlib.blake2b(orjson.dumps(actions, option=orjson.OPT_SORT_KEYS), digest_size=4).digest()
    return int.from_bytes(digest, "big")


def only_passing(engine: Engine, state: State, seat: int) -> bool:
    """A seat whose only choice is to let the moment pass: a reaction with nothing castable, or (Talisman) a turn's
    end or a missed turn where the Spells it holds fit nothing. Whether a Spell fits is private, so such a moment
    is still offered, and passed by the clock after a delay that says nothing, without telling the player."""
    if not engine.passing_moments and seat not in engine.reaction_seats(state):
        return False
    return engine.legal_actions(state, seat) == [engine.pass_action(state, seat)]


def acting_after(engine: Engine, state: State, before: dict[int, str], version: int) -> dict[int, str]:
    """Who must act after a change, each with a mark of its wait; a seat is told (pinged, sent a "your move")
    once per mark. A seat that was acting keeps its mark; a new wait is marked by `version`, or, in games that
    group waits into stretches (a round's phases), by the stretch, and by the version as well for a seat needed
    again in a stretch it had finished its part of. Seats that could only let a reaction pass are
    never told (the clock passes for them). A chance to react is a wait of its own: it keeps its mark only while
    the seat keeps reacting, so a Spell offered just after the seat's own turn is told, and so is the seat's turn
    after it reacted. While a reaction window is open, the player whose turn it is keeps its mark, so the
    window's end does not ping them as if a new turn had begun (their open picker carries on instead)."""
    reacting = set(engine.reaction_seats(state))
    waiting = [s for s in engine.to_act(state) if not only_passing(engine, state, s)]
    reactions = {
        s: before[s] if _is_reaction(before.get(s)) else f"{REACTION}{version}"
        for s in waiting
        if s in reacting
    }
    waiting = [s for s in waiting if s not in reacting]
    turns = {s: mark for s, mark in before.items() if not _is_reaction(mark)}
    turn = engine.interrupted_turn(state) if reacting else None
    kept = {turn: turns[turn]} if turn in turns else {}
    stretch = engine.notice_stretch(state)
    if stretch is None:
        return {**kept, **{s: turns.get(s, f"v{version}") for s in waiting}, **reactions}
    # A seat that had finished its part of a stretch others were still playing (it was told to wait for them) is
    # told again when the game needs it once more: a wait of its own within the stretch.
    running = any(stretch_of(mark) == stretch for mark in turns.values())
    fresh = {s: f"{stretch}{AGAIN}{version}" if running and s not in turns else stretch for s in waiting}
    marks = {s: turns[s] if stretch_of(turns.get(s)) == stretch else fresh[s] for s in waiting}
    return {**kept, **marks, **reactions}


# What a reaction's mark starts with (a turn's is "v…" or a stretch, which starts with its round).
REACTION = "r"


def _is_reaction(mark: str | None) -> bool:
    return mark is not None and mark.startswith(REACTION)


AGAIN = "/v"  # in a mark, what follows the stretch when a seat is needed again within it


def stretch_of(mark: str | None) -> str | None:
    """The stretch of play a wait's mark belongs to (the mark itself where it has none)."""
    return mark.split(AGAIN)[0] if mark is not None else None


@dataclass
class MoveResult:
    table: Table
    seat: int
    action: Action
    events: list[Event]


class GameService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], datetime] = utcnow,
        new_seed: Callable[[], int] = lambda: secrets.randbits(48),
        think: Think | None = None,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.new_seed = new_seed
        self.think = think or think_here
        self._locks: dict[int, asyncio.Lock] = {}
        self._settings: dict[int | None, GuildSettings] = {}
        self._locales: OrderedDict[int, str] = OrderedDict()  # user -> stored language (see remember_locale)
        self.recent = RecentGames()  # every game read or committed, for autocomplete (bot/recent.py)
        self.tails = MoveTails()  # the board's recent moves, from this process's commits

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    # --- reading --------------------------------------------------------------------------------------------------

    async def get(self, game_id: int) -> Table:
        if not 0 < game_id <= MAX_GAME_ID:  # a typed or forged id no database column could hold
            raise ServiceError("game_not_found", game=game_id)
        found = await self._tables(_GAME_BY_ID, {"game_id": game_id})
        if not found:
            raise ServiceError("game_not_found", game=game_id)
        return found[0]

    async def games_in_channel(self, channel_id: int, statuses: tuple[str, ...] = OPEN) -> list[Table]:
        """Games whose lobby is in this channel or whose thread this is, newest first."""
        return await self._listing(("channel", channel_id), _GAMES_IN_CHANNEL, statuses)

    async def games_of_user(self, user_id: int, statuses: tuple[str, ...] = OPEN) -> list[Table]:
        return await self._listing(("user", user_id), _GAMES_OF_USER, statuses)

    async def _listing(self, place: Place, query: Any, statuses: tuple[str, ...]) -> list[Table]:
        """The games at `place` in one of `statuses`. Open games are read all at once, whichever of them were
        asked for, so the recent games learn the place's whole list."""
        if not set(statuses) <= set(OPEN):
            return await self._tables(query, {"place": place[1], "statuses": list(statuses)})
        return _of(await self._tables(query, {"place": place[1], "statuses": list(OPEN)}, place), statuses)

    # --- reading for autocomplete: suggestions from the recent games (bot/recent.py), which may be out of date;
    # each falls back to one database read, which fills them. Commands read with the methods above.

    async def recent_game(self, game_id: int) -> Table:
        return self.recent.game(game_id) or await self.get(game_id)

    def kept_game_to_choose(self, game_id: int, user_id: int) -> Table | None:
        """The recent game if the user has choices there. A copy another process has moved on from only opens or
        narrows a picker: the move it leads to is refused as stale by its commit's version guard, and the picker
        starts again from the game read afresh."""
        kept = self.recent.game(game_id)
        if kept is not None and kept.status == ACTIVE:
            seat = kept.seat_of(user_id)
            if seat is not None and choices(kept, seat):
                return kept
        return None

    async def recent_games_in_channel(self, channel_id: int, statuses: tuple[str, ...] = OPEN) -> list[Table]:
        kept = self.recent.games_at(("channel", channel_id))
        return _of(kept, statuses) if kept is not None else await self.games_in_channel(channel_id, statuses)

    async def recent_games_of_user(self, user_id: int, statuses: tuple[str, ...] = OPEN) -> list[Table]:
        kept = self.recent.games_at(("user", user_id))
        return _of(kept, statuses) if kept is not None else await self.games_of_user(user_id, statuses)

    async def _tables(
        self, query: Any, params: dict[str, Any] | None = None, place: Place | None = None
    ) -> list[Table]:
        """The games a `_games_query` finds, newest first, each with its seats: one query, into plain rows
        (building ORM objects for every read cost more than the query itself). Each is noted in the recent games;
        `place`: these are all the open games there."""
        mark = self.recent.mark()
        tables = await read(
            self.sessions, lambda connection: self._tables_of(connection.execute(query, params))
        )
        if place is not None:
            self.recent.listed(place, tables, mark)
        for table in tables:
            self.recent.saw(table, table.status in OPEN)
        return tables

    def _tables_of(self, rows: Iterable[Any]) -> list[Table]:
        by_game: dict[int, list[Any]] = {}
        for row in rows:
            by_game.setdefault(row._mapping[_GAMES.c.id], []).append(row)
        return [self._table(GameRow.of(game_rows)) for game_rows in by_game.values()]

    async def moves(self, game_id: int, limit: int | None = None) -> list[Move]:
        async with self.sessions() as session:
            query = select(Move).where(Move.game_id == game_id).order_by(Move.version.desc())
            if limit:
                query = query.limit(limit)
            return list(reversed(list(await session.scalars(query))))

    def _table(self, record: Game) -> Table:
        engine = get_engine(record.engine)
        state = engine.load(record.state) if record.state else None
        return Table(record, engine, state)

    # --- the lobby ------------------------------------------------------------------------------------------------

    async def create_lobby(
        self,
        *,
        engine_name: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        locale: str,
        raw_options: dict[str, Any],
    ) -> Table:
        engine = _known_engine(engine_name)
        options = engine.validate_options(raw_options)
        now = self.clock()
        async with self.sessions() as session, session.begin():
            record = Game(
                engine=engine.name,
                status=LOBBY,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                locale=locale,
                options=options,
                seed=self.new_seed(),
                version=0,
                created_at=now,
                updated_at=now,
                due_at=now + timedelta(hours=(await self.settings_for(guild_id)).lobby_expiry_hours),
            )
            record.seats = [Seat(seat=0, user_id=host_id, display_name=host_name)]
            session.add(record)
        return await self.get(record.id)

    async def create_demo(
        self,
        *,
        engine_name: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        locale: str,
        bot_names: list[str],
        raw_options: dict[str, Any],
        pace: timedelta,
        level: str = "easy",
    ) -> Table:
        """A game started at once with the built-in player in every seat; its first move is due in `pace`."""
        engine = _known_engine(engine_name)
        try:
            engine.check_players(len(bot_names))
        except IllegalAction as refusal:
            refusal.engine = engine.name  # the message names the game
            raise
        options = engine.validate_options(raw_options)
        seed = self.new_seed()
        state = engine.new_game(len(bot_names), options, seed)
        now = self.clock()
        async with self.sessions() as session, session.begin():
            record = Game(
                engine=engine.name,
                status=ACTIVE,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                locale=locale,
                options=options,
                seed=seed,
                state=engine.dump(state),
                first_state=engine.dump(state),
                version=1,
                created_at=now,
                updated_at=now,
                waiting_since=now,
                demo_move_at=now + pace,
                due_at=now + pace,
                acting=_stored(acting_after(engine, state, {}, 1)),
                publish_at=now,
            )
            record.seats = [
                Seat(seat=n, user_id=None, display_name=name, bot_level=_level(level))
                for n, name in enumerate(bot_names)
            ]
            session.add(record)
        return await self.get(record.id)

    async def join(self, game_id: int, user_id: int, name: str) -> Table:
        async with self._lock(game_id):
            async with self.sessions() as session, session.begin():
                record = await self._lobby(session, game_id)
                if any(seat.user_id == user_id for seat in record.seats):
                    raise ServiceError("already_joined")
                engine = get_engine(record.engine)
                if len(record.seats) >= engine.max_players:
                    bots = any(seat.user_id is None for seat in record.seats)  # which the host can take back
                    raise ServiceError("lobby_full_of_bots" if bots else "lobby_full", max=engine.max_players)
                record.seats.append(Seat(seat=len(record.seats), user_id=user_id, display_name=name))
                await self._touch(session, record)
            return await self.get(game_id)

    async def leave(self, game_id: int, user_id: int) -> Table:
        async with self._lock(game_id):
            async with self.sessions() as session, session.begin():
                record = await self._lobby(session, game_id)
                if record.host_id == user_id:
                    raise ServiceError("host_cannot_leave")
                seat = next((s for s in record.seats if s.user_id == user_id), None)
                if seat is None:
                    raise ServiceError("not_in_lobby")
                await self._unseat(session, record, seat)
            return await self.get(game_id)

    async def start(self, game_id: int, user_id: int) -> Table:
        async with self._lock(game_id):
            async with self.sessions() as session, session.begin():
                record = await self._lobby(session, game_id)
                if record.host_id != user_id:
                    raise ServiceError("only_host_starts")
                engine = get_engine(record.engine)
                players = len(record.seats)
                if players < engine.min_players:
                    refusal = ServiceError("not_enough_players", min=engine.min_players, have=players)
                    refusal.engine = engine.name  # the message names the game
                    raise refusal
                state = engine.new_game(players, engine.validate_options(record.options), record.seed)
                record.state = record.first_state = engine.dump(state)
                record.status = ACTIVE
                record.version = 1
                record.waiting_since = self.clock()
                record.acting = _stored(acting_after(engine, state, {}, 1))
                names = ", ".join(
                    f"{s.seat + 1}. {s.display_name}" for s in sorted(record.seats, key=lambda s: s.seat)
                )
                # Only a game with private views sends them by DM and has a "My hand" button to mention.
                welcome = "game.welcome" if presenter(engine.name).has_private else "game.welcome_open"
                await self._touch(session, record, publish=True, note=(welcome, {"names": names}))
            return await self.get(game_id)

    async def abandon(self, game_id: int, user_id: int, is_manager: bool, by: str = "") -> Table:
        async with self._lock(game_id):
            async with self.sessions() as session, session.begin():
                record = await self._lock_game(session, game_id)
                if record is None:
                    raise ServiceError("game_not_found", game=game_id)
                if record.status not in OPEN:
                    raise ServiceError("game_not_running")
                if record.host_id != user_id and not is_manager:
                    raise ServiceError("only_host_abandons")
                record.status = ABANDONED
                record.finished_at = self.clock()
                record.version += 1
                note = ("game.abandoned", {"user": by, "by_id": user_id})  # who abandoned it is not pinged
                await self._touch(session, record, publish=True, note=note)
            return await self.get(game_id)

    async def set_messages(self, game_id: int, **message_ids: int | None) -> None:
        """Remember where the game lives in Discord (lobby message, thread, board message and the version the
        board before it last showed)."""
        allowed = {"lobby_message_id", "thread_id", "board_message_id", "board_from"}
        assert set(message_ids) <= allowed
        await write(
            self.sessions,
            lambda connection: connection.execute(
                update(_GAMES).where(_GAMES.c.id == game_id).values(**message_ids)
            ),
        )
        if thread_id := message_ids.get("thread_id"):
            # The game is now listed in its thread too: read both again, here in the publisher's time, so that
            # the first autocomplete in the new thread answers from memory, as autocomplete cannot be deferred.
            self.recent.forget(game_id, ("channel", thread_id))
            await self.games_in_channel(thread_id)

    async def set_dms_closed(self, game_id: int, user_id: int, closed: bool) -> None:
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(Seat).where(Seat.game_id == game_id, Seat.user_id == user_id).values(dms_closed=closed)
            )

    async def _running(self, session: AsyncSession, game_id: int) -> Game:
        record = await self._lock_game(session, game_id)
        if record is None or record.status != ACTIVE:
            raise ServiceError("game_not_running")
        return record

    async def _lobby(self, session: AsyncSession, game_id: int) -> Game:
        record = await self._lock_game(session, game_id)
        if record is None:
            raise ServiceError("game_not_found", game=game_id)
        if record.status != LOBBY:
            raise ServiceError("lobby_closed")
        return record

    async def _touch(
        self,
        session: AsyncSession,
        record: Game,
        *,
        publish: bool = False,
        note: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        """Every change but a move: the game's clock starts again, and what Discord must show (`publish`, with a
        `note` of what happened for the board) is recorded in the same transaction."""
        now = self.clock()
        record.updated_at = now
        if note is not None:
            record.notes = _with_note(record.notes, note, record.version, record.board_from)
        if publish:
            record.publish_at = now
        record.due_at = next_due(self._table(record), await self.settings_for(record.guild_id))
        await session.flush()

    # --- moves ----------------------------------------------------------------------------------------------------

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: Action,
        expected_version: int | None = None,
        read: Table | None = None,
        chained: bool = False,
    ) -> MoveResult:
        """Apply one player's action; raises ServiceError or IllegalAction with the game unchanged. `read`: the
        game as the caller just read it at `expected_version`, which spares reading it again (the commit is
        guarded by that version all the same, so a change in between makes the move "stale", as a new read
        would). `chained`: picked in one choice with the player's move before it (undone with it)."""
        async with self._lock(game_id):
            if read is not None and read.id == game_id and read.version == expected_version:
                table = read
            else:
                table = await self.get(game_id)
            if table.status != ACTIVE or table.state is None:
                raise ServiceError("game_not_running")
            if expected_version is not None and expected_version != table.version:
                raise ServiceError("stale")
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_a_player")
            return await self._apply_and_commit(table, seat, user_id, action, chained=chained)

    async def _commit_move(
        self,
        table: Table,
        seat: int,
        user_id: int,
        action: Action,
        events: list[Event],
        state: State,
        extra: dict[str, Any] | None = None,
        note: tuple[str, dict[str, Any]] | None = None,
        chained: bool = False,
        note_at: int | None = None,
    ) -> Table:
        """Write the new state, guarded by the version we read, and its move-log entry, in one transaction, with
        what Discord must come to show (the outbox) and when the clock must next look at the game; return the
        table as it now stands (built in memory: no second read). `note_at`: the version the note is told at, if
        not this move's."""
        now = self.clock()
        outcome = table.engine.outcome(state)
        version = table.version + 1
        values: dict[str, Any] = {
            "state": table.engine.dump(state),
            "version": version,
            "updated_at": now,
            "undo_request": None,  # any move ends a pending undo request
            "acting": _stored(acting_after(table.engine, state, table.acting, version)),
            "publish_at": now,
            **(extra or {}),
        }
        waiting_before = set(table.to_act())
        waiting_after = set(table.engine.to_act(state))
        new_wait = waiting_after != waiting_before
        if new_wait:
            values["waiting_since"] = now
        if outcome is not None:
            values.update(status=FINISHED, finished_at=now)
        # votes to replace a player lapse once the game no longer waits on them (they moved)
        lapsed = sorted(
            row.seat for row in table.record.seats if row.kick_votes and row.seat not in waiting_after
        )
        notes, board_from = table.record.notes, table.record.board_from
        if note is not None:
            notes = values["notes"] = _with_note(notes, note, note_at or version, board_from)
        if lapsed:  # told on the board, as each vote was told in the thread
            names = [table.names[seat] for seat in lapsed]
            values["notes"] = _with_note(notes, ("game.vote_lapsed", {"names": names}), version, board_from)
        seats_after = []
        for row in table.record.seats:
            changes: dict[str, Any] = {"reminders_sent": 0} if new_wait and row.seat in waiting_after else {}
            if row.seat in lapsed:
                changes["kick_votes"] = []
            if outcome is not None:
                changes.update(final_score=outcome.scores[row.seat], won=row.seat in outcome.winners)
            seats_after.append(row.changed(**changes))
        after = Table(table.record.changed(seats_after, **values), table.engine, state)
        # When the clock must next look at the game, written by the same statement as the move.
        values["due_at"] = after.record.due_at = next_due(
            after, await self.settings_for(table.record.guild_id)
        )
        moved = (
            update(_GAMES).where(_GAMES.c.id == table.id, _GAMES.c.version == table.version).values(**values)
        )
        logged = {
            "game_id": table.id,
            "version": version,
            "seat": seat,
            "user_id": user_id,
            "action": action,
            "events": events,
            "state_after": values["state"],
            "created_at": now,
            "chained": chained,
        }

        def commit(connection: Connection) -> None:
            if connection.execute(moved).rowcount != 1:  # another process moved first
                raise ServiceError("stale")  # and nothing of ours is written
            connection.execute(_LOG_MOVE, logged)
            if new_wait:  # a new wait starts: reminders count again from zero
                connection.execute(_RESET_REMINDERS, {"game": table.id, "seats": sorted(waiting_after)})
            if lapsed:
                connection.execute(_LAPSE_VOTES, {"game": table.id, "seats": lapsed})
            if outcome is not None:  # every seat's result, in seat order, in one statement (executemany)
                connection.execute(
                    update(_SEATS)
                    .where(_SEATS.c.game_id == table.id, _SEATS.c.seat == bindparam("at_seat"))
                    .values(final_score=bindparam("score"), won=bindparam("winner")),
                    [
                        {"at_seat": row.seat, "score": row.final_score, "winner": row.won}
                        for row in after.record.seats
                    ],
                )

        try:
            await write(self.sessions, commit)
        except ServiceError:
            self.recent.forget(table.id)
            raise
        self.recent.saw(after, after.status in OPEN)
        self.tails.committed(table.id, version, json.loads(json.dumps(events)))  # as the log gives them back
        return after

    # --- the built-in player, substitutes and leavers -------------------------------------------------------------

    async def act_for_bot(self, game_id: int, seat: int, read: Table | None = None) -> MoveResult:
        """The built-in player moves for a seat nobody holds (or whose deadline passed). `read`: the game as the
        caller last read it (see `act`); the commit is guarded by its version."""
        async with self._lock(game_id):
            table = read if read is not None and read.id == game_id else await self.get(game_id)
            if table.status != ACTIVE or table.state is None or seat not in table.to_act():
                raise ServiceError("stale")
            action = await self._bot_choice(table, seat, table.seat_row(seat).bot_level)
            return await self._apply_and_commit(table, seat, SYSTEM_USER, action)

    async def act_on_deadline(self, game_id: int, seat: int) -> MoveResult:
        """A missed deadline: the seat's part of this wait played out, each step its own move (passed where the
        rules allow it, otherwise the built-in player's), up to when the game waits on others; all of it before
        anything is shown, so one board and one note tell the whole turn (played a step a tick, a review's board
        repeated the note over every step, and the next board, from the last step, lost it)."""
        async with self._lock(game_id):
            table = await self.get(game_id)
            if table.status != ACTIVE or table.state is None or seat not in table.to_act():
                raise ServiceError("stale")
            level = (await self.settings_for(table.record.guild_id)).deadline_level
            name, waiting, first = table.names[seat], table.to_act(), table.version + 1
            # A reaction nobody took, or a moment with nothing to do but let it pass, is simply passed; a missed
            # turn is told on the board, by one note over its first move.
            silent = seat in table.engine.reaction_seats(table.state) or only_passing(
                table.engine, table.state, seat
            )
            public: list[Event] = []  # what the others saw of the turn so far: the note tells it from these

            def told(events: list[Event]) -> tuple[str, dict[str, Any]] | None:
                public.extend(e for e in events if "private" not in e)
                return (
                    None
                    if silent
                    else ("game.deadline", {"name": name, "seat": seat, "events": list(public)})
                )

            for _ in range(MOST_DEADLINE_STEPS):
                assert table.state is not None
                action = table.engine.pass_action(table.state, seat) or await self._bot_choice(
                    table, seat, level
                )
                result = await self._apply_and_commit(
                    table, seat, SYSTEM_USER, action, note=told, note_at=first
                )
                table = result.table
                if table.status != ACTIVE or table.to_act() != waiting:
                    break
            return result

    async def act_for_demo(self, game_id: int, pace: timedelta) -> MoveResult:
        """A demo's next move, if it is due by now; the one after it is due `pace` later."""
        async with self._lock(game_id):
            table = await self.get(game_id)
            now = self.clock()
            due_at = table.record.demo_move_at
            seats = table.bots_to_act()
            if table.status != ACTIVE or due_at is None or as_utc(due_at) > now or not seats:
                raise ServiceError("stale")  # not due yet, over, or another process moved it first
            assert table.state is not None
            action = await self._bot_choice(table, seats[0], table.seat_row(seats[0]).bot_level)
            return await self._apply_and_commit(
                table, seats[0], SYSTEM_USER, action, {"demo_move_at": now + pace}
            )

    async def _bot_choice(self, table: Table, seat: int, level: str) -> Action:
        """The built-in player's move at `level`; a hard player thinks for a second or two, so `think` may run it
        in a worker process."""
        assert table.state is not None
        seed = table.record.seed ^ table.version
        return await self.think(table.engine.name, table.state, seat, seed, level)

    async def _apply_and_commit(
        self,
        table: Table,
        seat: int,
        user_id: int,
        action: Action,
        extra: dict[str, Any] | None = None,
        note: Callable[[list[Event]], tuple[str, dict[str, Any]] | None] | None = None,
        chained: bool = False,
        note_at: int | None = None,
    ) -> MoveResult:
        """Apply and commit one action; `note` makes, from the move's events, what the board should tell of it
        (recorded in the same commit, told at version `note_at` if not this move's)."""
        assert table.state is not None
        try:
            state, events = table.engine.apply(table.state, seat, action)
        except IllegalAction as refusal:
            refusal.engine = table.engine.name
            raise
        told = note(events) if note else None
        after = await self._commit_move(
            table, seat, user_id, action, events, state, extra, told, chained, note_at
        )
        return MoveResult(after, seat, action, events)

    async def add_bot(self, game_id: int, user_id: int, name: str, level: str = "easy") -> Table:
        async with self._lock(game_id):
            async with self.sessions() as session, session.begin():
                record = await self._lobby(session, game_id)
                if record.host_id != user_id:
                    raise ServiceError("only_host_adds_bots")
                engine = get_engine(record.engine)
                if len(record.seats) >= engine.max_players:
                    raise ServiceError("lobby_full", max=engine.max_players)
                record.seats.append(
                    Seat(seat=len(record.seats), user_id=None, display_name=name, bot_level=_level(level))
                )
                await self._touch(session, record)
            return await self.get(game_id)

    async def remove_bot(self, game_id: int, user_id: int) -> Table:
        """The host takes back the built-in player seated last: a lobby filled with them was a dead end."""
        async with self._lock(game_id):
            async with self.sessions() as session, session.begin():
                record = await self._lobby(session, game_id)
                if record.host_id != user_id:
                    raise ServiceError("only_host_removes_bots")
                bots = [s for s in record.seats if s.user_id is None]
                if not bots:
                    raise ServiceError("no_bot_to_remove")
                await self._unseat(session, record, max(bots, key=lambda s: s.seat))
            return await self.get(game_id)

    async def _unseat(self, session: AsyncSession, record: Game, seat: Seat) -> None:
        """A lobby's seat given up; the seats after it move up, so seats stay numbered from 0 without gaps."""
        record.seats.remove(seat)
        await session.flush()
        for number, remaining in enumerate(sorted(record.seats, key=lambda s: s.seat)):
            remaining.seat = number
        await self._touch(session, record)

    async def hand_to_bot(self, game_id: int, seat: int, name: str, voted_out: bool = False) -> Table:
        """A player leaves a running game (or is voted out): the built-in player takes the seat and all it owns."""
        async with self._lock(game_id):
            async with self.sessions() as session, session.begin():
                record = await self._running(session, game_id)
                target = next(s for s in record.seats if s.seat == seat)
                note = ("game.voted_out" if voted_out else "game.left", {"name": target.display_name})
                _hand_over(target, record.version, voted_out)
                target.user_id = None
                target.display_name = name
                target.bot_level = (await self.settings_for(record.guild_id)).deadline_level
                target.kick_votes = []
                _forget_private_message(target)
                record.version += 1  # buttons drawn for the old owner are now out of date
                await self._touch(session, record, publish=True, note=note)
            return await self.get(game_id)

    async def vote_out(self, game_id: int, voter_id: int, seat: int) -> tuple[Table, bool]:
        """Record a vote to replace `seat`; a majority of the other human players replaces it by the bot. Only a
        player the game has waited on for its first reminder's time can be voted on, and the votes lapse once the
        game no longer waits on them (see `_commit`), so nobody is voted out for being slow for a moment."""
        async with self._lock(game_id):
            async with self.sessions() as session, session.begin():
                record = await self._running(session, game_id)
                voter = next((s for s in record.seats if s.user_id == voter_id), None)
                if voter is None:
                    raise ServiceError("not_a_player")
                target = next((s for s in record.seats if s.seat == seat), None)
                if target is None or target.is_bot:
                    raise ServiceError("no_such_player")
                if target.seat == voter.seat:
                    raise ServiceError("use_leave")
                table = self._table(record)
                if seat not in table.to_act():
                    raise ServiceError("kick_not_waiting", name=target.display_name)
                settings = await self.settings_for(record.guild_id)
                waited = self.clock() - as_utc(record.waiting_since or record.updated_at)
                opens = timedelta(hours=_pick(record.remind_after_hours, settings.remind_after_hours))
                if waited < opens:
                    raise ServiceError("kick_too_soon", name=target.display_name, waited=waited, opens=opens)
                votes = sorted({*target.kick_votes, voter.seat})
                target.kick_votes = votes
                voters = [s for s in record.seats if not s.is_bot and s.seat != seat]
                passed = len(votes) * 2 > len(voters)
                await self._touch(session, record)
        table = await self.get(game_id)
        return table, passed

    async def substitute(self, game_id: int, user_id: int, name: str, seat: int | None) -> Table:
        """A new person takes over a seat the built-in player holds."""
        async with self._lock(game_id):
            async with self.sessions() as session, session.begin():
                record = await self._running(session, game_id)
                if record.demo_move_at is not None:
                    raise ServiceError("demo_no_seats")
                if any(s.user_id == user_id for s in record.seats):
                    raise ServiceError("already_joined")
                if any(held[3:] == [user_id] for s in record.seats for held in s.holders or []):
                    raise ServiceError("voted_out_no_sub")  # the others chose to play on without them
                bots = [s for s in record.seats if s.is_bot and (seat is None or s.seat == seat)]
                # a seat a person left; the built-in players the host seated are theirs to keep (a seat from before
                # holders were kept, None, may have been left: as before, it can be taken)
                free = [s for s in bots if s.holders is None or any(held[2] for held in s.holders)]
                if not free:
                    raise ServiceError("hosts_bot_seat" if bots else "no_free_seat")
                taken = free[0]
                note = (
                    "game.substituted",
                    {"mention": name, "seat": taken.seat + 1, "old": taken.display_name},
                )
                _hand_over(taken, record.version)
                taken.user_id = user_id
                taken.display_name = name
                taken.dms_closed = False
                _forget_private_message(taken)
                record.version += 1
                # The newcomer is told what the seat must do, whatever its previous holder was told.
                record.shown_acting = {
                    k: v for k, v in (record.shown_acting or {}).items() if k != str(taken.seat)
                }
                await self._touch(session, record, publish=True, note=note)
            return await self.get(game_id)

    # --- undo -----------------------------------------------------------------------------------------------------

    @staticmethod
    def _effective(moves: list[Any]) -> list[Any]:
        """The moves (or rows with their `action`) still in effect: an undo removes the moves it undid."""
        effective: list[Any] = []
        for move in moves:
            if move.action.get("type") == UNDO:
                del effective[-move.action.get("moves", 1) :]
            else:
                effective.append(move)
        return effective

    @staticmethod
    def _last_choice(effective: list[Move]) -> list[Move]:
        """The moves of the last choice in effect: the last move, with the moves of the same seat it was picked
        with in one choice (a chain in the move picker; another seat's move in between breaks it)."""
        start = len(effective) - 1
        while start > 0 and effective[start].chained and effective[start - 1].seat == effective[start].seat:
            start -= 1
        return effective[start:]

    async def state_before(self, table: Table, moves: list[Move], first: Move) -> State:
        """The state the move `first` was played on: the stored state after the entry of the log just before it
        (a move, or an undo, whose state may have been given a fresh source of chance), or as dealt. Games from
        before snapshots were kept are rebuilt from the seed instead."""
        index = next(i for i, move in enumerate(moves) if move.version == first.version)
        earlier = moves[index - 1].state_after if index else table.record.first_state
        if earlier is not None:
            return table.engine.load(earlier)
        before, _ = await self.replay(table, upto=first.version - 1)
        return before

    async def state_history(self, table: Table) -> list[str]:
        """The stored state as dealt and after every move still in effect (replayed for games from before
        snapshots were kept): what a score chart over the game is drawn from, decoded by the picture worker."""
        moves = _MOVES.c
        async with self.sessions() as session:  # hundreds of moves: plain rows of the two columns needed
            log = (
                await session.execute(
                    select(moves.seat, moves.action, moves.state_after)
                    .where(moves.game_id == table.id)
                    .order_by(moves.version)
                )
            ).all()
        effective = self._effective(log)
        states = [table.record.first_state, *(m.state_after for m in effective)]
        if all(text is not None for text in states):
            return states  # type: ignore[return-value]
        engine = table.engine
        state = engine.new_game(
            len(table.seats), engine.validate_options(table.record.options), table.record.seed
        )
        replayed = [engine.dump(state)]
        for move in effective:
            state, _ = engine.apply(state, move.seat, move.action)
            replayed.append(engine.dump(state))
        return replayed

    async def replay(self, table: Table, upto: int | None = None) -> tuple[State, list[Move]]:
        """Rebuild the state from the seed and the move log (undos remove the moves they undid); returns the
        state and the moves still in effect. Only a check (export) and games without snapshots rely on it."""
        moves = [m for m in await self.moves(table.id) if upto is None or m.version <= upto]
        engine = table.engine
        dealt = engine.new_game(
            len(table.seats), engine.validate_options(table.record.options), table.record.seed
        )
        states, effective = [dealt], []  # the state after each move in effect, and those moves
        for move in moves:
            if move.action.get("type") == UNDO:
                undone = move.action.get("moves", 1)
                del states[-undone:], effective[-undone:]
                if "reseed" in move.action:
                    states[-1] = engine.reseeded(states[-1], move.action["reseed"])
            else:
                states.append(engine.apply(states[-1], move.seat, move.action)[0])
                effective.append(move)
        return states[-1], effective

    async def request_undo(self, game_id: int, user_id: int) -> tuple[Table, str]:
        """Take back the asker's last move: at once if it revealed nothing and nobody acted since; otherwise it
        waits for every other player's approval. Returns the table and "undone" or "asked"."""
        async with self._lock(game_id):
            table = await self.get(game_id)
            if table.status != ACTIVE:
                raise ServiceError("game_not_running")
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_a_player")
            previous = table.state
            moves = await self.moves(game_id)
            effective = self._effective(moves)
            if not effective:
                raise ServiceError("nothing_to_undo")
            choice = self._last_choice(effective)
            last = choice[-1]
            if last.seat != seat:
                raise ServiceError("undo_only_own_last_move")
            before = await self.state_before(table, moves, choice[0])
            events = [event for move in choice for event in move.events]
            free = not table.engine.reveals(before, previous, seat, events)
            others = [s.seat for s in table.seats if s.seat != seat and not s.is_bot]
            if free or not others:
                await self._undo(table, seat, user_id, choice, before, revealed=not free)
                return await self.get(game_id), "undone"
            async with self.sessions() as session, session.begin():
                await session.execute(
                    update(Game)
                    .where(Game.id == game_id, Game.version == table.version)
                    .values(
                        undo_request={
                            "version": last.version,
                            "seat": seat,
                            "approvals": [],
                            # what the others are asked to take back, as they saw it
                            "events": [event for event in events if visible_to(event, None)],
                        }
                    )
                )
            return await self.get(game_id), "asked"

    async def answer_undo(self, game_id: int, user_id: int, approve: bool) -> tuple[Table, str]:
        """Another player approves or refuses a pending undo; returns "undone", "waiting" or "refused"."""
        async with self._lock(game_id):
            table = await self.get(game_id)
            request = table.record.undo_request
            if table.status != ACTIVE or not request:
                raise ServiceError("no_undo_pending")
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_a_player")
            if seat == request["seat"]:
                raise ServiceError("cannot_approve_own_undo")
            if not approve:
                await self._set_undo_request(table, None)
                return await self.get(game_id), "refused"
            approvals = sorted({*request["approvals"], seat})
            others = {s.seat for s in table.seats if s.seat != request["seat"] and not s.is_bot}
            if others <= set(approvals):
                moves = await self.moves(game_id)
                choice = self._last_choice(self._effective(moves))
                # the game moved on: the request no longer applies
                if choice[-1].version != request["version"]:
                    await self._set_undo_request(table, None)
                    raise ServiceError("stale")
                before = await self.state_before(table, moves, choice[0])
                seat = request["seat"]
                # asked for because it revealed something; approved, so the mover is told
                await self._undo(
                    table, seat, table.user_at(seat) or 0, choice, before, revealed=True, tell_mover=True
                )
                return await self.get(game_id), "undone"
            await self._set_undo_request(table, {**request, "approvals": approvals})
            return await self.get(game_id), "waiting"

    async def _set_undo_request(self, table: Table, request: dict[str, Any] | None) -> None:
        async with self.sessions() as session, session.begin():
            await session.execute(update(Game).where(Game.id == table.id).values(undo_request=request))

    async def _undo(
        self,
        table: Table,
        seat: int,
        user_id: int,
        choice: list[Move],
        before: State,
        revealed: bool,
        tell_mover: bool = False,
    ) -> None:
        """Go back to the state `before` the moves of the last choice, all of them: a choice that chained
        several moves is taken back as it was clicked. A choice that `revealed` something (drew on chance or
        showed anything hidden) is taken back with a fresh source of chance, kept in the log: rolled again, a die
        need not show what the undone move showed (a review saw the same 6 come up again). `tell_mover`: the
        others approved it, so the mover, who may have stopped looking, is told it is their move again."""
        last = choice[-1]
        public = [event for move in choice for event in move.events if visible_to(event, None)]
        event = {"type": "MoveUndone", "seat": seat, "version": last.version}
        undo: dict[str, Any] = {"type": UNDO, "version": last.version}
        if len(choice) > 1:
            undo["moves"] = len(choice)
        if revealed:
            undo["reseed"] = self.new_seed()
            before = table.engine.reseeded(before, undo["reseed"])
        extra: dict[str, Any] = {"undo_request": None}
        if tell_mover:
            waits = {s: mark for s, mark in table.acting.items() if s != seat}
            extra["acting"] = _stored(acting_after(table.engine, before, waits, table.version + 1))
        await self._commit_move(
            table,
            seat,
            user_id,
            undo,
            [event],
            before,
            extra=extra,
            # what was taken back, from the moves' public events
            note=("game.undone_what", {"name": table.names[seat], "seat": seat, "events": public}),
        )

    # --- timers: reminders, deadlines, housekeeping ---------------------------------------------------------------

    async def settings_for(self, guild_id: int | None) -> GuildSettings:
        """A server's settings; kept in memory (every move needs them to set the game's next due time) and
        dropped when they change."""
        if guild_id in self._settings:
            return self._settings[guild_id]
        async with self.sessions() as session:
            found = await session.get(GuildSettings, guild_id) if guild_id is not None else None
        self._settings[guild_id] = found or self._default_settings(guild_id)
        return self._settings[guild_id]

    @staticmethod
    def _default_settings(guild_id: int | None) -> GuildSettings:
        return GuildSettings(
            guild_id=guild_id or 0,
            locale=None,
            use_threads=True,
            host_role_id=None,
            game_channel_ids=[],
            remind_after_hours=24.0,
            remind_every_hours=24.0,
            remind_max=3,
            deadline_hours=None,
            idle_archive_days=30.0,
            lobby_expiry_hours=72.0,
            reaction_window_minutes=10.0,
            deadline_level="easy",
        )

    async def update_settings(self, guild_id: int, **values: Any) -> GuildSettings:
        async with self.sessions() as session, session.begin():
            found = await session.get(GuildSettings, guild_id)
            if found is None:
                defaults = await self.settings_for(None)
                found = GuildSettings(
                    **{c: getattr(defaults, c) for c in SETTINGS_COLUMNS}, guild_id=guild_id
                )
                session.add(found)
            for name, value in values.items():
                assert name in SETTINGS_COLUMNS, name
                setattr(found, name, value)
            # The server's timers changed: its running games are looked at again on the next tick, and the boards
            # of those that follow the server's deadline are shown again (they tell when it falls).
            await self._look_again(session, (Game.guild_id == guild_id) & Game.status.in_(OPEN))
            if "deadline_hours" in values:
                following = (
                    (Game.guild_id == guild_id) & (Game.status == ACTIVE) & Game.deadline_hours.is_(None)
                )
                await session.execute(update(Game).where(following).values(publish_at=self.clock()))
        self._settings.pop(guild_id, None)
        return await self.settings_for(guild_id)

    async def set_game_timers(self, game_id: int, **values: Any) -> Table:
        """A game's own timers; its board is shown again (it tells when the deadline falls)."""
        allowed = {"remind_after_hours", "remind_every_hours", "remind_max", "deadline_hours"}
        assert set(values) <= allowed
        async with self.sessions() as session, session.begin():
            await session.execute(update(Game).where(Game.id == game_id).values(**values))
            # a running game's board tells when its deadline falls (a lobby's message is no board: left alone)
            running = (Game.id == game_id) & (Game.status == ACTIVE)
            await session.execute(update(Game).where(running).values(publish_at=self.clock()))
        await self.refresh_due(game_id)
        return await self.get(game_id)

    async def set_vacation(self, user_id: int, on: bool) -> list[int]:
        """Away or back; returns the games waiting on the user, whose boards are to be shown again (they say who
        is away and when the deadline falls). A vacation pauses those waits: back, each goes on from where it
        stood when they left, reminders counted afresh (a review's player came back to a deadline that had run
        out meanwhile and lost the turn 5 s later; a later one found that starting each wait over let anyone
        put a deadline off for ever). A wait is the game's, so others waited on with them get the time too."""
        now = self.clock()
        async with self.sessions() as session, session.begin():
            prefs = await session.get(UserPrefs, user_id)
            if prefs is None:
                prefs = UserPrefs(user_id=user_id, vacation=False)
                session.add(prefs)
            returning = prefs.vacation and not on
            # when they left (a vacation from before this was kept: each wait starts again)
            left = as_utc(prefs.vacation_since) if prefs.vacation_since else None
            if on != prefs.vacation:
                prefs.vacation_since = now if on else None
            prefs.vacation = on
            # Their games' reminders and deadlines start or stop: look at those games on the next tick.
            games = select(Seat.game_id).where(Seat.user_id == user_id)
            await self._look_again(session, Game.id.in_(games) & (Game.status == ACTIVE))
            seats = await session.execute(
                select(Game.id, Seat.seat, Game.acting, Game.waiting_since, Game.updated_at)
                .join(Seat, Seat.game_id == Game.id)
                .where(Seat.user_id == user_id, Game.status == ACTIVE)
            )
            waiting = {
                game_id: as_utc(since or updated)
                for game_id, seat, acting, since, updated in seats
                if str(seat) in (acting or {})
            }
            if waiting:  # their rows are locked already (_look_again)
                await session.execute(update(Game).where(Game.id.in_(waiting)).values(publish_at=now))
            if waiting and returning:
                # each wait goes on from where it stood when they left (or began, if later): one statement
                resumed = [
                    {"game": game_id, "since": since + (now - (since if left is None else max(since, left)))}
                    for game_id, since in waiting.items()
                ]
                await session.execute(
                    update(_GAMES)
                    .where(_GAMES.c.id == bindparam("game"))
                    .values(waiting_since=bindparam("since")),
                    resumed,
                )
                await session.execute(
                    update(Seat)
                    .where(Seat.game_id.in_(waiting), Seat.user_id == user_id)
                    .values(reminders_sent=0)
                )
        return sorted(waiting)

    async def _look_again(self, session: AsyncSession, where: Any) -> None:
        """The clock looks at these games on its next tick. Their rows are locked in the order of their ids
        first: an UPDATE of many rows locks them in whatever order it finds them, and two such at once could
        each hold a game the other waits for."""
        found = select(Game.id).where(where).order_by(Game.id).with_for_update(key_share=True)
        if ids := list(await session.scalars(found)):
            await session.execute(update(Game).where(Game.id.in_(ids)).values(due_at=self.clock()))

    async def on_vacation(self, user_ids: list[int]) -> set[int]:
        if not user_ids:
            return set()
        async with self.sessions() as session:
            rows = await session.scalars(
                select(UserPrefs.user_id).where(UserPrefs.user_id.in_(user_ids), UserPrefs.vacation.is_(True))
            )
            return set(rows)

    async def remember_locale(self, user_id: int, locale: str) -> None:
        """The language a user's interaction came in; written only when it changed. Every interaction asks, so
        the language this process last read or wrote for each recent user is kept and not read again."""
        if self._locales.get(user_id) == locale:
            self._locales.move_to_end(user_id)
            return
        async with self.sessions() as session:  # a read, so no write turn is taken
            if await session.scalar(select(UserPrefs.locale).where(UserPrefs.user_id == user_id)) == locale:
                self._known_locale(user_id, locale)
                return
        try:
            async with self.sessions() as session, session.begin():
                prefs = await session.get(UserPrefs, user_id)
                if prefs is None:
                    session.add(UserPrefs(user_id=user_id, locale=locale))
                elif prefs.locale != locale:
                    prefs.locale = locale
        except IntegrityError:  # the user's row was created meanwhile (two interactions at once): update that
            await self.remember_locale(user_id, locale)
            return
        self._known_locale(user_id, locale)

    def _known_locale(self, user_id: int, locale: str) -> None:
        self._locales[user_id] = locale
        self._locales.move_to_end(user_id)
        if len(self._locales) > LOCALES_KEPT:
            self._locales.popitem(last=False)

    async def user_locales(self, user_ids: list[int]) -> dict[int, str]:
        """The last seen language of each of these users who has interacted with us: as this process last read
        or wrote it (see remember_locale), the others read."""
        known = {user_id: self._locales[user_id] for user_id in user_ids if user_id in self._locales}
        unknown = [user_id for user_id in user_ids if user_id not in known]
        if not unknown:
            return known
        async with self.sessions() as session:
            rows = await session.execute(
                select(UserPrefs.user_id, UserPrefs.locale).where(
                    UserPrefs.user_id.in_(unknown), UserPrefs.locale.is_not(None)
                )
            )
            for user_id, locale in rows:
                known[user_id] = locale
                self._known_locale(user_id, locale)
        return known

    async def set_pings(self, game_id: int, user_id: int, on: bool) -> None:
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(Seat).where(Seat.game_id == game_id, Seat.user_id == user_id).values(pings=on)
            )
            if result.rowcount != 1:
                raise ServiceError("not_a_player")
        await self.refresh_due(game_id)

    async def set_ping_preference(self, user_id: int, level: str) -> None:
        """Which pings a user wants everywhere: "all", "turns" (only their moves) or "none"."""
        assert level in PING_LEVELS
        async with self.sessions() as session, session.begin():
            prefs = await session.get(UserPrefs, user_id)
            if prefs is None:
                session.add(UserPrefs(user_id=user_id, pings=level))
            else:
                prefs.pings = level

    async def ping_preferences(self, user_ids: list[int]) -> dict[int, str]:
        """Each user's ping preference ("all" when they never chose)."""
        if not user_ids:
            return {}
        chosen = dict(
            await read(
                self.sessions,
                lambda connection: connection.execute(_PING_PREFERENCES, {"users": user_ids}).all(),
            )
        )
        return {user_id: chosen.get(user_id, "all") for user_id in user_ids}

    async def pingable(self, table: Table, user_ids: Iterable[int | None]) -> list[int]:
        """Those of `user_ids` who may be pinged about their own part in `table`: not muted there (`/play pings`),
        nor turned every ping off."""
        muted = {s.user_id for s in table.seats if not s.pings}
        users = [u for u in user_ids if u is not None and u not in muted]
        prefs = await self.ping_preferences(users)
        return [u for u in users if prefs[u] != "none"]

    async def note_reminder(self, game_id: int, seat: int) -> None:
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(Seat)
                .where(Seat.game_id == game_id, Seat.seat == seat)
                .values(reminders_sent=Seat.reminders_sent + 1)
            )

    async def due(self, now: datetime) -> Due:
        """What the clock says must happen now. Only games whose stored due time has come are read (an indexed
        query), so thousands of games waiting for their players cost nothing."""
        due = Due()
        async with self.sessions() as session:
            ids = list(
                await session.scalars(
                    select(Game.id).where(Game.due_at <= now, Game.status.in_(OPEN)).order_by(Game.due_at)
                )
            )
        for game_id in ids:
            table = await self.get(game_id)
            settings = await self.settings_for(table.record.guild_id)
            away = await self.on_vacation([s.user_id for s in table.seats if s.user_id])
            kinds = {(t.kind, t.seat) for t in timers(table, settings, away) if t.at <= now}
            due.games.append(table)
            if ("expire", None) in kinds:
                due.expired_lobbies.append(table)
            elif ("archive", None) in kinds:
                due.idle_games.append(table)
            elif ("demo", None) in kinds:
                due.demos.append(table)
            else:
                for kind, seat in sorted(kinds, key=lambda k: (k[1] or 0, k[0])):
                    if kind == "bot":
                        due.bot_turns.append((table, seat))
                    elif kind in ("deadline", "pass"):
                        due.deadlines.append((table, seat))
                    elif kind == "remind" and ("deadline", seat) not in kinds:
                        due.reminders.append((table, seat))
        return due

    async def refresh_due(self, game_id: int) -> None:
        """Store when the clock must next look at this game (after a reminder, or a time that found nothing)."""
        table = await self.get(game_id)
        away = await self.on_vacation([s.user_id for s in table.seats if s.user_id])
        await self._set_due(table, away)

    async def _set_due(self, table: Table, away: set[int] | frozenset[int] = frozenset()) -> None:
        when = next_due(table, await self.settings_for(table.record.guild_id), away)
        async with self.sessions() as session, session.begin():
            await session.execute(update(Game).where(Game.id == table.id).values(due_at=when))
        table.record.due_at = when

    async def demos_due(self, now: datetime) -> list[int]:
        """The running demos whose next move is due."""
        return [table.id for table in (await self.due(now)).demos]

    async def close(self, game_id: int, status: str) -> Table:
        """End a game without a result (an idle game archived, a lobby that nobody started)."""
        note = ("game.archived", {}) if status == ARCHIVED else ("game.lobby_expired", {})
        async with self._lock(game_id):
            async with self.sessions() as session, session.begin():
                record = await self._lock_game(session, game_id)
                if record is None:
                    raise ServiceError("game_not_found", game=game_id)
                record.status = status
                record.finished_at = self.clock()
                record.version += 1
                await self._touch(session, record, publish=True, note=note)
            return await self.get(game_id)

    # --- publishing: what Discord shows of each game ----------------------------------------------------------

    async def to_publish(self, now: datetime | None) -> list[int]:
        """Games with committed changes Discord does not show yet whose (next) attempt is due by `now`; all of
        them when `now` is None."""
        due = Game.publish_at.is_not(None) if now is None else Game.publish_at <= now
        async with self.sessions() as session:
            return list(await session.scalars(select(Game.id).where(due).order_by(Game.publish_at)))

    async def shown(self, table: Table, private_messages: Sequence[PrivateMessage] = ()) -> None:
        """Discord now shows `table`'s version: the outbox entry is done unless a newer change came meanwhile;
        the private messages sent or edited for it are noted in the same transaction."""
        told = _stored({**table.told, **table.acting})

        def note_shown(connection: Connection) -> None:
            connection.execute(_SHOWN, {"game": table.id, "at_version": table.version, "told": told})
            if private_messages:
                connection.execute(*_private_message_notes(table.id, private_messages))

        await write(self.sessions, note_shown)

    async def publish_later(self, game_id: int, attempts: int, problem: str | None = None) -> datetime | None:
        """A failed attempt: retry with backoff (2 s, 4 s, … 5 min); after a permanent `problem` (explained once)
        every 10 minutes, so a permission granted later brings the game back by itself."""
        wait = 600 if problem else min(2 ** (attempts + 1), 300)
        when = self.clock() + timedelta(seconds=wait)
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(Game)
                .where(Game.id == game_id)
                .values(publish_at=when, publish_attempts=attempts + 1, publish_problem=problem)
            )
        return when

    async def remember_private_messages(self, game_id: int, messages: list[PrivateMessage]) -> None:
        """Where each seat's private message is and what it shows, all in one transaction."""
        async with self.sessions() as session, session.begin():
            await self._lock_game(session, game_id)
            if messages:
                await session.execute(*_private_message_notes(game_id, messages))

    @staticmethod
    async def _lock_game(session: AsyncSession, game_id: int) -> Game | None:
        """The game, its row locked before any of its seats: every transaction that changes several of a game's
        rows takes the game's row first (a move by its guarded UPDATE), so two of them wait for each other
        instead of each holding a row the other needs (PostgreSQL's "deadlock detected"). SQLite writes one
        transaction at a time and has no row locks: there this is a plain read."""
        return await session.get(Game, game_id, with_for_update={"key_share": True})

    async def recent_events(self, table: Table, limit: int) -> list[MoveEvents]:
        """The game's last `limit` moves up to `table`'s version, oldest first, each with the version it made:
        kept from this process's own commits (bot/recent.py), else read (only those columns: the stored states
        beside them are large)."""
        kept = self.tails.tail(table.id, table.version, limit)
        if kept is not None:
            return kept
        async with self.sessions() as session:
            moves = _MOVES.c
            rows = await session.execute(
                select(moves.version, moves.events)
                .where(moves.game_id == table.id, moves.version <= table.version)
                .order_by(moves.version.desc())
                .limit(limit)
            )
            told = [(version, events) for version, events in reversed(rows.all())]
        self.tails.read(table.id, table.version, limit, told)
        return told

    # --- spectators and stats -------------------------------------------------------------------------------------

    async def follow(self, game_id: int, user_id: int, on: bool) -> None:
        async with self.sessions() as session, session.begin():
            found = await session.scalar(
                select(Spectator).where(Spectator.game_id == game_id, Spectator.user_id == user_id)
            )
            if on and found is None:
                session.add(Spectator(game_id=game_id, user_id=user_id))
            elif not on and found is not None:
                await session.delete(found)

    async def spectators(self, game_id: int) -> list[int]:
        async with self.sessions() as session:
            return list(await session.scalars(select(Spectator.user_id).where(Spectator.game_id == game_id)))

    async def leaderboard(self, guild_id: int, engine_name: str) -> list[tuple[int, str, int, int, float]]:
        """(user id, latest name, games, wins, average score) for finished games in one server, best first."""
        async with self.sessions() as session:
            rows = await session.execute(
                select(
                    Seat.user_id,
                    func.max(Seat.display_name),
                    func.count(Seat.id),
                    func.sum(case((Seat.won.is_(True), 1), else_=0)),
                    func.avg(Seat.final_score),
                )
                .join(Game)
                .where(
                    Game.guild_id == guild_id,
                    Game.engine == engine_name,
                    Game.status == FINISHED,
                    Seat.user_id.is_not(None),
                )
                .group_by(Seat.user_id)
            )
            table = [
                (uid, name, games, int(wins or 0), float(avg or 0)) for uid, name, games, wins, avg in rows
            ]
        return sorted(table, key=lambda r: (-r[3], -r[4], r[1]))

    async def history(self, user_id: int, guild_id: int | None, limit: int = 10) -> list[Table]:
        async with self.sessions() as session:
            query = (
                select(Game)
                .join(Seat)
                .where(Seat.user_id == user_id, Game.status == FINISHED)
                .order_by(Game.finished_at.desc())
                .limit(limit)
            )
            if guild_id is not None:
                query = query.where(Game.guild_id == guild_id)
            return [self._table(record) for record in await session.scalars(query)]


# Where a seat's private message is: seat, DM channel, message (None: no longer ours), digest of what it shows.
PrivateMessage = tuple[int, int, int | None, str | None]


@dataclass
class Due:
    games: list[Table] = field(default_factory=list)  # every game looked at (its due time is stored again)
    demos: list[Table] = field(default_factory=list)
    reminders: list[tuple[Table, int]] = field(default_factory=list)
    deadlines: list[tuple[Table, int]] = field(default_factory=list)
    bot_turns: list[tuple[Table, int]] = field(default_factory=list)
    idle_games: list[Table] = field(default_factory=list)
    expired_lobbies: list[Table] = field(default_factory=list)


PING_LEVELS = ("all", "turns", "none")
BOT_LEVELS = ("easy", "hard")
Think = Callable[[str, State, int, int, str], Awaitable[Action]]


async def think_here(engine_name: str, state: State, seat: int, seed: int, level: str) -> Action:
    """The built-in player's move, computed in this process (tests; the bot passes a worker-process version)."""
    return get_engine(engine_name).bot_action(state, seat, seed, level=level)


def _level(level: str) -> str:
    if level not in BOT_LEVELS:
        raise ServiceError("unknown_level", level=level[:20])
    return level


MAX_GAME_ID = 2**31 - 1
LOCALES_KEPT = 50_000  # users whose stored language this process remembers
MOST_DEADLINE_STEPS = 100  # a missed turn's moves played at once; a turn has never come near it
SYSTEM_USER = 0  # the user id logged for moves the host made itself (bots, deadlines)
UNDO = "undo"
SETTINGS_COLUMNS = (
    "locale",
    "use_threads",
    "host_role_id",
    "game_channel_ids",
    "remind_after_hours",
    "remind_every_hours",
    "remind_max",
    "deadline_hours",
    "idle_archive_days",
    "lobby_expiry_hours",
    "reaction_window_minutes",
    "deadline_level",
)


@dataclass(frozen=True)
class Timer:
    at: datetime
    kind: str  # expire, archive, demo, bot, pass, deadline, remind
    seat: int | None = None


def timers(
    table: Table, settings: GuildSettings, away: set[int] | frozenset[int] = frozenset()
) -> list[Timer]:
    """Everything the clock will have to do for this game, each with its time: one source for both the stored
    due time and what a tick does."""
    record = table.record
    touched = as_utc(record.updated_at)
    if record.status == LOBBY:
        return [Timer(touched + timedelta(hours=settings.lobby_expiry_hours), "expire")]
    if record.status != ACTIVE or table.state is None:
        return []
    out = [Timer(touched + timedelta(days=settings.idle_archive_days), "archive")]
    if record.demo_move_at is not None:  # a demo keeps its own pace
        return [*out, Timer(as_utc(record.demo_move_at), "demo")]
    since = as_utc(record.waiting_since or record.updated_at)
    engine, state = table.engine, table.state
    reacting = set(engine.reaction_seats(state))
    remind_after = _pick(record.remind_after_hours, settings.remind_after_hours)
    remind_every = _pick(record.remind_every_hours, settings.remind_every_hours)
    remind_max = _pick(record.remind_max, settings.remind_max)
    deadline = _pick(record.deadline_hours, settings.deadline_hours)
    for seat in table.to_act():
        row = next(s for s in record.seats if s.seat == seat)
        if row.user_id is None:
            out.append(Timer(since, "bot", seat))
        elif only_passing(engine, state, seat):  # passed soon, after a delay that says nothing
            out.append(
                Timer(
                    since + timedelta(seconds=auto_pass_seconds(record.seed, record.version, seat)),
                    "pass",
                    seat,
                )
            )
        elif seat in reacting:
            out.append(Timer(since + timedelta(minutes=settings.reaction_window_minutes), "pass", seat))
        elif row.user_id not in away:
            if deadline is not None:
                out.append(Timer(since + timedelta(hours=deadline), "deadline", seat))
            if row.pings and row.reminders_sent < remind_max:
                wait_hours = remind_after + row.reminders_sent * remind_every
                out.append(Timer(since + timedelta(hours=wait_hours), "remind", seat))
    return out


def deadline_at(table: Table, settings: GuildSettings) -> datetime | None:
    """When the built-in player moves for the people this wait is on, if the game has a deadline (unless they are
    on vacation, which the caller checks)."""
    if _pick(table.record.deadline_hours, settings.deadline_hours) is None:
        return None  # most games: spared working out the timers
    return min((t.at for t in timers(table, settings) if t.kind == "deadline"), default=None)


def next_due(
    table: Table, settings: GuildSettings, away: set[int] | frozenset[int] = frozenset()
) -> datetime | None:
    return min((t.at for t in timers(table, settings, away)), default=None)


def auto_pass_seconds(seed: int, version: int, seat: int) -> int:
    """4–20 s, fixed for a game, version and seat but unknown to the players: a seat with nothing to cast is passed
    after a delay that looks like someone deciding."""
    digest = hashlib.blake2b(f"{seed}:{version}:{seat}".encode(), digest_size=2).digest()
    return 4 + int.from_bytes(digest, "big") % 17


def _stored(marks: dict[int, str]) -> dict[str, str]:
    return {str(seat): mark for seat, mark in sorted(marks.items())}  # JSON keys are strings


def _hand_over(seat: Seat, version: int, voted_out: bool = False) -> None:
    """Note who held `seat` up to `version` (the moves so far are theirs) before it changes hands: their name,
    whether a person, and the user id of one the others voted out (who may not take a seat back)."""
    held = [version, seat.display_name, seat.user_id is not None]
    seat.holders = [*(seat.holders or []), held + [seat.user_id] if voted_out else held]


def _forget_private_message(seat: Seat) -> None:
    """A seat changing hands: its next private message goes to the new holder, from scratch."""
    seat.dm_channel_id = seat.dm_message_id = None
    seat.dm_view = None


def _known_engine(name: str) -> Engine:
    try:
        return get_engine(name)
    except KeyError:
        raise ServiceError("unknown_game", game=name) from None


def as_utc(moment: datetime) -> datetime:
    """SQLite returns naive datetimes; every time we store is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _pick(own: Any, default: Any) -> Any:
    return default if own is None else own


__all__ = ["GameService", "IllegalAction", "MoveResult", "ServiceError", "Table"]
