"""Persistence: one move's load + apply + commit through the service, and the publisher's "shown" of it (the
version marked shown with four private messages noted), on SQLite (WAL) and PostgreSQL."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from bench.common import percentile, summary
from bot.db import make_engine, make_sessionmaker, migrate
from bot.service import GameService
from tests.lobbies import open_lobby


async def _moves(url: str, count: int) -> tuple[list[float], list[float]]:
    await migrate(url)
    engine = make_engine(url)
    service = GameService(make_sessionmaker(engine), new_seed=lambda: 11)
    times: list[float] = []
    shown: list[float] = []
    table = None
    while len(times) < count:
        if table is None or table.status != "active":
            lobby = await open_lobby(service, host_id=1)
            for user in (2, 3, 4):
                await service.join(lobby.id, user, str(user))
            table = await service.start(lobby.id, 1)
        seat = table.to_act()[0]
        action = table.engine.bot_action(table.state, seat, table.version)
        start = time.perf_counter()
        table = (await service.act(table.id, seat + 1, action)).table
        times.append(time.perf_counter() - start)
        notes = [(s.seat, 1, 100 + s.seat, "digest") for s in table.seats]
        start = time.perf_counter()
        await service.shown(table, notes)
        shown.append(time.perf_counter() - start)
    await engine.dispose()
    return times, shown


def run(count: int = 400) -> None:
    print("\n## Persistence: load + apply + commit of one move (4-player Druids)")
    with tempfile.TemporaryDirectory() as folder:
        times, shown = asyncio.run(_moves(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}", count))
        print(
            f"sqlite (WAL)  {summary(times)}  {'meets' if percentile(times, 99) < 0.015 else 'MISSES'} p99 15 ms"
        )
        print(f"  its shown   {summary(shown)}")
    from tests import pg

    if not pg.available():
        print("postgresql    not installed here; skipped")
        return
    with pg.server() as admin:

        async def on_fresh() -> tuple[list[float], list[float]]:
            async with pg.fresh_database(admin) as url:
                return await _moves(url, count)

        times, shown = asyncio.run(on_fresh())
        print(
            f"postgresql    {summary(times)}  {'meets' if percentile(times, 99) < 0.015 else 'MISSES'} p99 15 ms"
        )
        print(f"  its shown   {summary(shown)}")
