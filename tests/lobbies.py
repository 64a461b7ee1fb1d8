"""A lobby or a started game through the service, with the details a test does not care about filled in; and the
SQL statements a block of a test runs."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import async_sessionmaker

from bot.db import engines, make_engine, make_sessionmaker
from bot.service import GameService, Table


async def open_lobby(
    service: GameService,
    engine_name: str = "druids",
    *,
    host_id: int = 100,
    host_name: str = "Host",
    guild_id: int = 1,
    channel_id: int = 10,
    raw_options: dict[str, Any] | None = None,
) -> Table:
    return await service.create_lobby(
        engine_name=engine_name,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        host_name=host_name,
        locale="en",
        raw_options=raw_options or {},
    )


async def started_druids(service: GameService, players: int = 3) -> Table:
    """A Druids game started by user 100 with users 101, 102, … seated."""
    table = await open_lobby(service, host_name="Alice")
    for user in range(1, players):
        await service.join(table.id, 100 + user, f"P{user}")
    return await service.start(table.id, 100)


@contextlib.contextmanager
def statements(sessions: async_sessionmaker) -> Iterator[list[str]]:
    """The SQL statements a service on `sessions` runs inside the block, whichever of its engines runs them."""
    run: list[str] = []

    def note(_conn, _cursor, statement, *_):
        run.append(statement)

    for engine in engines(sessions):
        event.listen(engine, "before_cursor_execute", note)
    try:
        yield run
    finally:
        for engine in engines(sessions):
            event.remove(engine, "before_cursor_execute", note)


@contextlib.asynccontextmanager
async def another_process(database_url: str) -> AsyncIterator[GameService]:
    """A service of its own on the same database, as another process (a shard) has: nothing this one reads or
    commits reaches the test's service's memory."""
    engine = make_engine(database_url)
    try:
        yield GameService(make_sessionmaker(engine))
    finally:
        await engine.dispose()
