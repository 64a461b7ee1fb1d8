"""The database layer's own promises: on SQLite, writes on a bare connection take turns with the sessions'."""

import asyncio

from bot.db import make_engine, make_sessionmaker, migrate, writing


async def test_a_bare_connection_write_waits_for_a_session_write_on_sqlite(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'turns.db'}"
    await migrate(url)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    order: list[str] = []
    inside, release = asyncio.Event(), asyncio.Event()

    async def session_write() -> None:
        async with sessions() as session, session.begin():
            order.append("session in")
            inside.set()
            await release.wait()
            order.append("session out")

    async def connection_write() -> None:
        async with writing(sessions):
            order.append("connection in")

    first = asyncio.create_task(session_write())
    await inside.wait()
    second = asyncio.create_task(connection_write())
    # Without its turn the bare write would be in and out in a few milliseconds (nothing else holds SQLite).
    done, _ = await asyncio.wait({second}, timeout=0.5)
    assert not done and order == ["session in"]
    release.set()
    await asyncio.gather(first, second)
    assert order == ["session in", "session out", "connection in"]
    await engine.dispose()
