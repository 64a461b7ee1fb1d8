"""SQLite write transactions of one process take turns, so a busy moment never surfaces as "database is locked"."""

from __future__ import annotations

import asyncio
import threading

import pytest
from sqlalchemy import select, update

from bot.db import make_engine, make_sessionmaker, migrate, read, write
from bot.db.models import Game
from bot.service import GameService
from tests.lobbies import open_lobby


@pytest.fixture
async def sqlite(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'turns.db'}"
    await migrate(url)
    engine = make_engine(url)
    yield engine
    await engine.dispose()


async def test_a_second_write_transaction_waits_for_the_first(sqlite):
    sessions = make_sessionmaker(sqlite)
    service = GameService(sessions, new_seed=lambda: 3)
    lobby = await open_lobby(service)
    order: list[str] = []
    second = sessions()

    async def second_write() -> None:
        await second.begin().__aenter__()
        order.append("second began")

    async with sessions() as first:
        async with first.begin():
            await first.execute(update(Game).where(Game.id == lobby.id).values(locale="ko"))
            waiting = asyncio.ensure_future(second_write())
            # Reads go on meanwhile (and their awaits let the second write try to begin).
            async with sessions() as reader:
                assert (await reader.get(Game, lobby.id)).locale == "en"
            order.append("first still open")
        order.append("first committed")
    await asyncio.wait_for(waiting, 5)
    # Its turn came only after the first committed (SQLAlchemy's begin alone would not have waited at all).
    assert order == ["first still open", "first committed", "second began"]
    await second.rollback()
    await second.close()
    assert (await service.get(lobby.id)).record.locale == "ko"


async def test_a_bare_connection_write_waits_for_a_session_write(sqlite):
    sessions = make_sessionmaker(sqlite)
    order: list[str] = []
    inside, release = asyncio.Event(), asyncio.Event()

    async def session_write() -> None:
        async with sessions() as session, session.begin():
            order.append("session in")
            inside.set()
            await release.wait()
            order.append("session out")

    async def connection_write() -> None:
        await write(sessions, lambda _connection: order.append("connection in"))

    first = asyncio.create_task(session_write())
    await inside.wait()
    second = asyncio.create_task(connection_write())
    # Without its turn the bare write would be in and out in a few milliseconds (nothing else holds SQLite).
    done, _ = await asyncio.wait({second}, timeout=0.5)
    assert not done and order == ["session in"]
    release.set()
    await asyncio.gather(first, second)
    assert order == ["session in", "session out", "connection in"]


async def test_a_session_write_waits_for_a_bare_write_under_way(sqlite):
    sessions = make_sessionmaker(sqlite)
    order: list[str] = []
    inside, release = threading.Event(), threading.Event()

    def bare_work(_connection) -> None:  # runs in the writes thread
        order.append("write in")
        inside.set()
        release.wait()
        order.append("write out")

    async def session_write() -> None:
        async with sessions() as session, session.begin():
            order.append("session in")

    first = asyncio.create_task(write(sessions, bare_work))
    await asyncio.to_thread(inside.wait)
    second = asyncio.create_task(session_write())
    try:
        done, _ = await asyncio.wait({second}, timeout=0.5)
    finally:
        release.set()
    await asyncio.gather(first, second)
    assert not done
    assert order == ["write in", "write out", "session in"]


async def test_a_read_goes_on_while_a_bare_write_is_under_way(sqlite):
    """Reads have threads of their own: they never queue behind the writes thread, and in WAL mode they see what
    was committed before the write under way."""
    sessions = make_sessionmaker(sqlite)
    lobby = await open_lobby(GameService(sessions, new_seed=lambda: 3))
    inside, release = threading.Event(), threading.Event()

    def bare_work(connection) -> None:  # runs in the writes thread, its change not yet committed
        connection.execute(update(Game).where(Game.id == lobby.id).values(locale="ko"))
        inside.set()
        release.wait()

    def locale(connection) -> str:
        return connection.execute(select(Game.locale).where(Game.id == lobby.id)).scalar_one()

    writing = asyncio.create_task(write(sessions, bare_work))
    await asyncio.to_thread(inside.wait)
    try:  # guarded so that a read queued behind the write fails here instead of hanging
        assert await asyncio.wait_for(read(sessions, locale), 5) == "en"
    finally:
        release.set()
    await writing
    assert await read(sessions, locale) == "ko"


async def test_disposing_the_engine_does_not_wait_for_a_session_write_under_way(sqlite):
    """A bot closing while an interaction's session write is still open must not wait for it: that write needs
    the event loop, which (in `AsyncEngine.dispose`) is the one waiting."""
    sessions = make_sessionmaker(sqlite)
    inside, release = asyncio.Event(), asyncio.Event()
    await write(sessions, lambda _connection: None)  # the writes thread is running

    async def session_write() -> None:
        async with sessions() as session, session.begin():
            inside.set()
            await release.wait()

    open_write = asyncio.create_task(session_write())
    await inside.wait()
    try:  # the dispose's own part, in a thread so that a dispose that waits fails here instead of hanging
        await asyncio.wait_for(asyncio.to_thread(sqlite.sync_engine.dispose, close=False), 5)
    finally:
        release.set()
        await open_write
    assert await write(sessions, lambda connection: connection.exec_driver_sql("select 1").scalar()) == 1


async def test_many_games_moving_at_once_all_commit(sqlite):
    service = GameService(make_sessionmaker(sqlite), new_seed=lambda: 5)

    async def play(host: int) -> int:
        lobby = await open_lobby(service, host_id=host, channel_id=host)
        await service.join(lobby.id, host + 1, "b")
        table = await service.start(lobby.id, host)
        for _ in range(8):
            seat = table.to_act()[0]
            action = table.engine.bot_action(table.state, seat, table.version)
            table = (await service.act(table.id, host + seat, action)).table
        return table.version

    assert await asyncio.gather(*(play(100 * n) for n in range(1, 31))) == [9] * 30
