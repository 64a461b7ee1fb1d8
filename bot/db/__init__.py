"""Persistence: SQLAlchemy 2 async models, the session factory, and migrations applied on start."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import event, make_url
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    AsyncSessionTransaction,
    async_sessionmaker,
    create_async_engine,
)

ROOT = Path(__file__).resolve().parents[2]


def make_engine(url: str) -> AsyncEngine:
    if not url.startswith("sqlite"):
        return create_async_engine(url, pool_pre_ping=True)
    # Writes take turns (see _TakingTurns), so a write must never also queue for a connection behind the reads
    # of a busy moment: enough connections (each one an aiosqlite thread) for every read in flight.
    # An in-memory database is one shared connection (SQLAlchemy's StaticPool), which takes no pool sizes.
    in_memory = make_url(url).database in (None, "", ":memory:")
    engine = create_async_engine(url, **({} if in_memory else {"pool_size": 20, "max_overflow": 20}))

    @event.listens_for(engine.sync_engine, "connect")
    def _sqlite_pragmas(connection, _record) -> None:  # WAL lets readers go on while a move commits
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across crashes of the bot
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")  # only another process's write can make ours wait
        cursor.close()

    return engine


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    if engine.dialect.name == "sqlite":
        return async_sessionmaker(engine, expire_on_commit=False, class_=_TakingTurns, turns=asyncio.Lock())
    return async_sessionmaker(engine, expire_on_commit=False)


def reading(sessions: async_sessionmaker) -> AsyncConnection:
    """A bare connection for Core reads (`async with reading(sessions) as connection`): no Session around it,
    which adds about half again to each statement's event-loop CPU (the README's Performance has figures)."""
    return sessions.kw["bind"].connect()


@asynccontextmanager
async def writing(sessions: async_sessionmaker) -> AsyncIterator[AsyncConnection]:
    """A write transaction on a bare connection, taking its turn with the sessions' writes on SQLite."""
    async with sessions.kw.get("turns") or nullcontext(), sessions.kw["bind"].begin() as connection:
        yield connection


class _TakingTurns(AsyncSession):
    """SQLite runs one write transaction at a time. Our own transactions (`session.begin()`) take turns on an
    asyncio lock instead of queueing in SQLite's file lock, where a busy moment used to outlast busy_timeout and
    reach the user as "database is locked". Reads need no turn: in WAL mode they never wait for a writer."""

    def __init__(self, *args, turns: asyncio.Lock, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._turns = turns

    def begin(self) -> AbstractAsyncContextManager[AsyncSessionTransaction]:  # type: ignore[override]
        return _in_turn(self._turns, super().begin())


@asynccontextmanager
async def _in_turn(
    turns: asyncio.Lock, transaction: AsyncSessionTransaction
) -> AsyncIterator[AsyncSessionTransaction]:
    async with turns, transaction as begun:
        yield begun


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


async def migrate(url: str) -> None:
    """Bring the database schema up to date (Alembic's own commands are synchronous, so run them in a thread)."""
    await asyncio.to_thread(command.upgrade, alembic_config(url), "head")
