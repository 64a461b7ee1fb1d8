"""Persistence: SQLAlchemy 2 async models, the session factory, and migrations applied on start."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from pathlib import Path
from typing import TypeVar

from sqlalchemy import URL, Connection, Engine, create_engine, event, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    AsyncSessionTransaction,
    async_sessionmaker,
    create_async_engine,
)

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
READ_THREADS = 2  # so one slow read (a long listing) does not hold up every game's


def make_engine(url: str) -> AsyncEngine:
    if not url.startswith("sqlite"):
        return create_async_engine(url, pool_pre_ping=True)
    # Session writes take turns (see _SQLite), so one must never also queue for a connection behind the sessions'
    # reads of a busy moment: enough connections (each one an aiosqlite thread) for every such read in flight.
    # An in-memory database is one shared connection (SQLAlchemy's StaticPool), which takes no pool sizes.
    engine = create_async_engine(url, **({} if _in_memory(url) else {"pool_size": 20, "max_overflow": 20}))
    event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def _in_memory(url: str | URL) -> bool:
    return make_url(url).database in (None, "", ":memory:")


def _sqlite_pragmas(connection, _record) -> None:  # WAL lets readers go on while a move commits
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across crashes of the bot
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")  # only another process's write can make ours wait
    cursor.close()


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    if engine.dialect.name == "sqlite":
        return async_sessionmaker(engine, expire_on_commit=False, class_=_TakingTurns, sqlite=_SQLite(engine))
    return async_sessionmaker(engine, expire_on_commit=False)


async def read(sessions: async_sessionmaker, work: Callable[[Connection], T]) -> T:
    """Core reads on a bare connection (no Session around them, which adds about half again to each statement's
    event-loop CPU): `work` runs its statements synchronously and its result is returned. On SQLite it runs in
    one trip to a thread of the reads' own (see _SQLite); elsewhere in the event loop's greenlet."""
    if (threads := _threaded(sessions)) is not None:
        return await threads.read(work)
    async with sessions.kw["bind"].connect() as connection:
        return await connection.run_sync(work)


async def write(sessions: async_sessionmaker, work: Callable[[Connection], T]) -> T:
    """One write transaction on a bare connection: `work` runs its statements synchronously and its result is
    returned. On SQLite it takes its turn with the sessions' writes and runs, commit included, in one trip to a
    thread of its own (see _SQLite); elsewhere (PostgreSQL, SQLite in memory) in the event loop's greenlet,
    statement by statement."""
    if (threads := _threaded(sessions)) is not None:
        return await threads.write(work)
    sqlite: _SQLite | None = sessions.kw.get("sqlite")
    async with (
        sqlite.turn() if sqlite is not None else nullcontext(),
        sessions.kw["bind"].begin() as connection,
    ):
        return await connection.run_sync(work)


def engines(sessions: async_sessionmaker) -> list[Engine]:
    """Every engine the factory's statements go through (on SQLite, `read`'s and `write`'s own too): for counting
    them."""
    threads = _threaded(sessions)
    return [sessions.kw["bind"].sync_engine, *([threads.engine] if threads is not None else [])]


def _threaded(sessions: async_sessionmaker) -> _SQLite | None:
    """The factory's SQLite threads, when `read` and `write` run there (a database file, not one in memory)."""
    sqlite: _SQLite | None = sessions.kw.get("sqlite")
    return sqlite if sqlite is not None and sqlite.engine is not None else None


class _SQLite:
    """SQLite runs one write transaction at a time; ours take turns instead of queueing in SQLite's file lock,
    where a busy moment used to outlast busy_timeout and reach the user as "database is locked".

    `write`'s transactions (the moves and the publishing: nearly every write under load) run one after another in
    a thread of their own, each whole, with the synchronous driver. Through aiosqlite each statement was three or
    four trips between the event loop and the driver's thread, and under load each trip waits for the busy loop,
    so every other write waited for those trips too. A session's write transaction takes its turn by having that
    thread wait while it runs; sessions' writes are rare (lobbies, settings) and take turns among themselves on an
    asyncio lock. `read`'s statements run the same way in threads of their own, which in WAL mode never wait for a
    writer. An in-memory database is one shared connection, so there `write` and `read` go through it, `write` in
    turn with the sessions."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._sessions_turns = asyncio.Lock()
        self.engine: Engine | None = None
        self._writes: ThreadPoolExecutor | None = None  # started with the first write, again after a dispose
        self._reads: ThreadPoolExecutor | None = None  # `read`'s, which never wait for the writes (WAL)
        self._pauses: set[threading.Event] = set()  # the sessions' turns under way
        if not _in_memory(engine.url):
            self.engine = create_engine(engine.url.set(drivername="sqlite"))
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(engine.sync_engine, "engine_disposed", self._close)

    def _writes_thread(self) -> ThreadPoolExecutor:
        if self._writes is None:
            self._writes = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writes")
        return self._writes

    async def write(self, work: Callable[[Connection], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(
            self._writes_thread(), self._transaction, work
        )

    def _transaction(self, work: Callable[[Connection], T]) -> T:
        assert self.engine is not None
        with self.engine.begin() as connection:
            return work(connection)

    async def read(self, work: Callable[[Connection], T]) -> T:
        if self._reads is None:
            self._reads = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="sqlite-reads")
        return await asyncio.get_running_loop().run_in_executor(self._reads, self._reading, work)

    def _reading(self, work: Callable[[Connection], T]) -> T:
        assert self.engine is not None
        with self.engine.connect() as connection:
            return work(connection)

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """A session's write transaction: the writes thread waits from when it gets there until this ends."""
        async with self._sessions_turns:
            if self.engine is None:
                yield
                return
            loop = asyncio.get_running_loop()
            paused, resume = loop.create_future(), threading.Event()

            def pause() -> None:
                loop.call_soon_threadsafe(lambda: paused.done() or paused.set_result(None))
                resume.wait()

            self._pauses.add(resume)
            self._writes_thread().submit(pause)
            try:
                await paused
                yield
            finally:
                resume.set()
                self._pauses.discard(resume)

    def _close(self, _engine: Engine) -> None:
        """On the engine's dispose: the reads' threads end, and the writes thread finishes the writes it has, closes
        the connections and ends, not waiting for a session's write still under way (the event loop it would need
        is the one disposing)."""
        assert self.engine is not None  # listened for only when there is one
        for resume in self._pauses:
            resume.set()
        if self._reads is not None:
            self._reads.shutdown(wait=False)
            self._reads = None
        if self._writes is None:
            self.engine.dispose()
            return
        self._writes.submit(self.engine.dispose)
        self._writes.shutdown(wait=False)
        self._writes = None


class _TakingTurns(AsyncSession):
    """A session whose write transactions (`session.begin()`) take their turn with every other write on
    SQLite (see _SQLite). Reads need no turn: in WAL mode they never wait for a writer."""

    def __init__(self, *args, sqlite: _SQLite, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._sqlite = sqlite

    def begin(self) -> AbstractAsyncContextManager[AsyncSessionTransaction]:  # type: ignore[override]
        return _in_turn(self._sqlite, super().begin())


@asynccontextmanager
async def _in_turn(
    sqlite: _SQLite, transaction: AsyncSessionTransaction
) -> AsyncIterator[AsyncSessionTransaction]:
    async with sqlite.turn(), transaction as begun:
        yield begun


async def migrate(url: str) -> None:
    """Bring the database schema up to date. Alembic runs in a process of its own (`bot.db.upgrade`): what it
    imports (Alembic, Mako, Pygments: some 11 MB) would otherwise stay in the bot's memory for good. A database in
    this process's memory can only be reached from here, so that one is migrated here."""
    if _in_memory(url):
        from bot.db.upgrade import upgrade

        await asyncio.to_thread(upgrade, url)
        return
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.db.upgrade", env={**os.environ, "DATABASE_URL": url}
    )
    if await child.wait():
        raise RuntimeError(
            f"migrating the database failed (exit status {child.returncode}; its error is above)"
        )
