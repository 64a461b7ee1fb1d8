"""The one write path: load a game, let its engine decide, commit with a version check, then hand back the result.

Nothing here knows Discord. Every change to a game is committed in one transaction (game row + move log) before
the caller sends anything, so a crash after the commit loses no move and a crash before it loses nothing visible.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game, Move, Seat
from engines import get_engine
from engines.base import Action, Engine, Event, IllegalAction, State, View

LOBBY, ACTIVE, FINISHED, ABANDONED = "lobby", "active", "finished", "abandoned"


class ServiceError(Exception):
    """A request the host refuses (not a rules question): unknown game, wrong user, stale button, full lobby…"""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class Table:
    """A game as loaded from the database, with its engine and decoded state."""

    record: Game
    engine: Engine
    state: State | None

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

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.record.seats if s.user_id == user_id), None)

    def user_at(self, seat: int) -> int:
        return next(s.user_id for s in self.record.seats if s.seat == seat)

    def view(self, viewer: int | None) -> View:
        assert self.state is not None
        return self.engine.view(self.state, viewer)

    def to_act(self) -> list[int]:
        return [] if self.state is None else self.engine.to_act(self.state)

    def users_to_act(self) -> list[int]:
        return [self.user_at(seat) for seat in self.to_act()]


@dataclass
class MoveResult:
    table: Table
    seat: int
    action: Action
    events: list[Event]
    acted_before: list[int] = field(default_factory=list)  # seats that were to act before this move

    @property
    def turn_changed(self) -> bool:
        return sorted(self.acted_before) != sorted(self.table.to_act())


class GameService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], datetime] = utcnow,
        new_seed: Callable[[], int] = lambda: secrets.randbits(48),
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.new_seed = new_seed
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    # --- reading --------------------------------------------------------------------------------------------------

    async def get(self, game_id: int) -> Table:
        async with self.sessions() as session:
            record = await session.get(Game, game_id)
            if record is None:
                raise ServiceError("game_not_found", game=game_id)
            return self._table(record)

    async def games_in_channel(self, channel_id: int, statuses: tuple[str, ...] = (LOBBY, ACTIVE)) -> list[Table]:
        """Games whose lobby is in this channel or whose thread this is, newest first."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(Game)
                .where((Game.channel_id == channel_id) | (Game.thread_id == channel_id), Game.status.in_(statuses))
                .order_by(Game.id.desc())
            )
            return [self._table(record) for record in rows]

    async def games_of_user(self, user_id: int, statuses: tuple[str, ...] = (LOBBY, ACTIVE)) -> list[Table]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(Game)
                .join(Seat)
                .where(Seat.user_id == user_id, Game.status.in_(statuses))
                .order_by(Game.id.desc())
            )
            return [self._table(record) for record in rows]

    async def active_games(self) -> list[Table]:
        async with self.sessions() as session:
            rows = await session.scalars(select(Game).where(Game.status.in_((LOBBY, ACTIVE))))
            return [self._table(record) for record in rows]

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
        try:
            engine = get_engine(engine_name)
        except KeyError:
            raise ServiceError("unknown_game", game=engine_name) from None
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
            )
            record.seats = [Seat(seat=0, user_id=host_id, display_name=host_name)]
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
                    raise ServiceError("lobby_full", max=engine.max_players)
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
                record.seats.remove(seat)
                await session.flush()
                for number, remaining in enumerate(sorted(record.seats, key=lambda s: s.seat)):
                    remaining.seat = number
                await self._touch(session, record)
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
                    raise ServiceError("not_enough_players", min=engine.min_players, have=players)
                state = engine.new_game(players, engine.validate_options(record.options), record.seed)
                record.state = engine.dump(state)
                record.status = ACTIVE
                record.version = 1
                await self._touch(session, record)
            return await self.get(game_id)

    async def abandon(self, game_id: int, user_id: int, is_manager: bool) -> Table:
        async with self._lock(game_id):
            async with self.sessions() as session, session.begin():
                record = await session.get(Game, game_id)
                if record is None:
                    raise ServiceError("game_not_found", game=game_id)
                if record.status not in (LOBBY, ACTIVE):
                    raise ServiceError("game_not_running")
                if record.host_id != user_id and not is_manager:
                    raise ServiceError("only_host_abandons")
                record.status = ABANDONED
                record.finished_at = self.clock()
                record.version += 1
                await self._touch(session, record)
            return await self.get(game_id)

    async def set_messages(self, game_id: int, **message_ids: int | None) -> None:
        """Remember where the game lives in Discord (lobby message, thread, board message)."""
        allowed = {"lobby_message_id", "thread_id", "board_message_id"}
        assert set(message_ids) <= allowed
        async with self.sessions() as session, session.begin():
            await session.execute(update(Game).where(Game.id == game_id).values(**message_ids))

    async def set_dms_closed(self, game_id: int, user_id: int, closed: bool) -> None:
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(Seat).where(Seat.game_id == game_id, Seat.user_id == user_id).values(dms_closed=closed)
            )

    async def _lobby(self, session: AsyncSession, game_id: int) -> Game:
        record = await session.get(Game, game_id)
        if record is None:
            raise ServiceError("game_not_found", game=game_id)
        if record.status != LOBBY:
            raise ServiceError("lobby_closed")
        return record

    async def _touch(self, session: AsyncSession, record: Game) -> None:
        record.updated_at = self.clock()
        await session.flush()

    # --- moves ----------------------------------------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, action: Action, expected_version: int | None = None) -> MoveResult:
        """Apply one player's action; raises ServiceError or IllegalAction with the game unchanged."""
        async with self._lock(game_id):
            table = await self.get(game_id)
            if table.status != ACTIVE or table.state is None:
                raise ServiceError("game_not_running")
            if expected_version is not None and expected_version != table.version:
                raise ServiceError("stale")
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_a_player")
            before = table.engine.to_act(table.state)
            state, events = table.engine.apply(table.state, seat, action)
            await self._commit_move(table, seat, user_id, action, events, state)
            return MoveResult(await self.get(game_id), seat, action, events, before)

    async def _commit_move(
        self, table: Table, seat: int, user_id: int, action: Action, events: list[Event], state: State
    ) -> None:
        now = self.clock()
        finished = table.engine.outcome(state) is not None
        values: dict[str, Any] = {"state": table.engine.dump(state), "version": table.version + 1, "updated_at": now}
        if finished:
            values.update(status=FINISHED, finished_at=now)
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(Game).where(Game.id == table.id, Game.version == table.version).values(**values)
            )
            if result.rowcount != 1:  # another process moved first: nothing of ours is written
                raise ServiceError("stale")
            session.add(
                Move(
                    game_id=table.id,
                    version=table.version + 1,
                    seat=seat,
                    user_id=user_id,
                    action=action,
                    events=events,
                    created_at=now,
                )
            )


__all__ = ["GameService", "IllegalAction", "MoveResult", "ServiceError", "Table"]
