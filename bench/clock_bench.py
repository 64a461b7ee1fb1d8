"""The clock with many games waiting: a tick must cost next to nothing when nothing is due.

10,000 active games (real engine states, three seats each) wait for their players in a SQLite database; each stores
its next due time in the future. We time the host's whole tick (publishing retries + due games) and, alongside,
how long the event loop was held at a stretch (a watcher that asks to wake every millisecond and records how late
it woke).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert

GAMES = 10_000


async def _fill(sessions, now: datetime, games: int) -> None:
    from bot.db.models import Game, Seat
    from engines import get_engine

    engine = get_engine("druids")
    state = engine.dump(engine.new_game(3, engine.validate_options({}), 1))
    rows = [
        dict(
            id=n + 1,
            engine="druids",
            status="active",
            guild_id=1,
            channel_id=1,
            thread_id=2,
            host_id=10,
            locale="en",
            options={},
            seed=n,
            state=state,
            version=1,
            shown_version=1,
            acting={"0": "v1"},
            shown_acting={"0": "v1"},
            notes=[],
            created_at=now,
            updated_at=now,
            waiting_since=now,
            due_at=now + timedelta(hours=20 + n % 10),
        )
        for n in range(games)
    ]
    seats = [
        dict(game_id=n + 1, seat=s, user_id=1000 + s, display_name=f"P{s}")
        for n in range(games)
        for s in range(3)
    ]
    async with sessions() as session, session.begin():
        await session.execute(insert(Game), rows)
        await session.execute(insert(Seat), seats)


async def measure(folder: Path, games: int = GAMES, ticks: int = 30) -> tuple[list[float], float]:
    from bot.db import make_engine, make_sessionmaker, migrate
    from bot.host import GameHost
    from bot.service import GameService

    url = f"sqlite+aiosqlite:///{folder / 'clock.db'}"
    await migrate(url)
    db = make_engine(url)
    now = datetime(2026, 11, 24, 12, tzinfo=UTC)
    sessions = make_sessionmaker(db)
    await _fill(sessions, now, games)
    host = GameHost(None, GameService(sessions, clock=lambda: now))  # nothing is due: Discord is never called
    held = 0.0
    stop = asyncio.Event()

    async def watch() -> None:
        nonlocal held
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            asked = loop.time()
            await asyncio.sleep(0.001)
            held = max(held, loop.time() - asked - 0.001)

    watcher = asyncio.ensure_future(watch())
    await host.tick()  # first use: connections and caches
    held = 0.0
    durations = []
    for _ in range(ticks):
        started = time.perf_counter()
        await host.tick()
        durations.append(time.perf_counter() - started)
        await asyncio.sleep(0.005)
    stop.set()
    await watcher
    await db.dispose()
    return durations, held


def run(games: int = GAMES) -> None:
    with tempfile.TemporaryDirectory() as folder:
        durations, held = asyncio.run(measure(Path(folder), games))
    durations.sort()
    print(f"\n## The clock with {games:,} games waiting and nothing due (SQLite)")
    print(
        f"tick p50 {statistics.median(durations) * 1000:.1f} ms, max {durations[-1] * 1000:.1f} ms (goal < 50 ms); "
        f"event loop held at most {held * 1000:.1f} ms at a stretch (goal ≤ 20 ms)"
    )
