"""On PostgreSQL, transactions that change the same game at once must wait for each other, never deadlock: each
takes the game's row first and its seats after it. Two services (two processes' connections) run the two
transactions on many games, one paused after its first write (its locks held) until the other is waiting for a
lock or done; in the old order (the publisher's "shown" noted the seats' private messages before the game row, a
move updates the game row before its seats) every such pair deadlocked."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

import asyncpg
import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import await_only

from bot.db import make_engine, make_sessionmaker, migrate
from bot.service import GameService, Table
from tests.lobbies import open_lobby
from tests.pg import fresh_database

GAMES = 6  # per order: the publisher first, the move first

_step: contextvars.ContextVar[Step | None] = contextvars.ContextVar("step", default=None)


class Step:
    """One transaction under the test's control: it notes its server process and, if `pause`, stops after its
    first write (the locks it took held) until `go` is set."""

    def __init__(self, pause: bool) -> None:
        self.pause = pause
        self.paused = asyncio.Event()
        self.go = asyncio.Event()
        self.pid: int | None = None
        self.wrote = False

    async def run(self, work: Awaitable[Any]) -> Any:
        _step.set(self)
        return await work


def _control(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def _before(connection, _cursor, _statement, _parameters, _context, _many) -> None:
        step = _step.get()
        if step is not None:
            step.pid = connection.connection.driver_connection.get_server_pid()

    @event.listens_for(engine.sync_engine, "after_cursor_execute")
    def _after(_connection, _cursor, statement, _parameters, _context, _many) -> None:
        step = _step.get()
        if step is None or step.wrote or not statement.lstrip().upper().startswith(("UPDATE", "INSERT")):
            return
        step.wrote = True
        if step.pause:
            step.paused.set()
            await_only(step.go.wait())  # runs in SQLAlchemy's greenlet: waits on the event loop


async def _waiting_or_done(task: asyncio.Task, step: Step, admin: asyncpg.Pool) -> bool:
    """Until the transaction waits for a lock another holds (True), or is over (PostgreSQL tells no one when a
    transaction starts waiting, so its lock table is looked at until it does)."""
    while not task.done():
        if step.pid is not None and await admin.fetchval(
            "SELECT count(*) FROM pg_locks WHERE pid = $1 AND NOT granted", step.pid
        ):
            return True
        await asyncio.sleep(0.01)
    return False


async def _turn_changing_game(service: GameService, index: int) -> tuple[Table, int, dict[str, Any]]:
    """A started game (three people) and a move that hands the turn to another seat."""
    table = await open_lobby(service, "roll_player", host_id=1000 * index, host_name="Host")
    for extra in (1, 2):
        await service.join(table.id, 1000 * index + extra, f"P{extra}")
    table = await service.start(table.id, 1000 * index)
    assert table.state is not None
    seat = table.to_act()[0]
    action = table.engine.legal_actions(table.state, seat)[0]
    after, _ = table.engine.apply(table.state, seat, action)
    assert table.engine.to_act(after) != table.to_act()  # a new wait: the move resets the new seat's row too
    return table, seat, action


@dataclass
class TwoProcesses:
    """Two services on one PostgreSQL database, as two bot processes (shards) would be, and a connection that
    looks at the server's lock table."""

    mover: GameService
    other: GameService
    admin: asyncpg.Pool

    async def overlap(self, first: Awaitable[Any], second: Awaitable[Any]) -> tuple[Any, Any, bool]:
        """`first` runs to its first write and stays there, its locks held, until `second` waits for a lock
        or is done; returns what each gave (an exception as such) and whether `second` waited."""
        first_step, second_step = Step(pause=True), Step(pause=False)
        first_task = asyncio.create_task(first_step.run(first))
        await first_step.paused.wait()
        second_task = asyncio.create_task(second_step.run(second))
        waited = await _waiting_or_done(second_task, second_step, self.admin)
        first_step.go.set()
        first_done, second_done = await asyncio.gather(first_task, second_task, return_exceptions=True)
        return first_done, second_done, waited


@pytest.fixture
async def two(postgres_server):
    async with fresh_database(postgres_server) as url:
        await migrate(url)
        engines = [make_engine(url) for _ in range(2)]
        for engine in engines:
            _control(engine)
        admin = await asyncpg.create_pool(
            url.replace("postgresql+asyncpg://", "postgresql://"), min_size=1, max_size=2
        )
        try:
            yield TwoProcesses(
                *(GameService(make_sessionmaker(e), new_seed=lambda: 1234) for e in engines), admin
            )
        finally:
            await admin.close()
            for engine in engines:
                await engine.dispose()


async def test_a_move_and_its_publishing_at_once_wait_for_each_other(two):
    games = [await _turn_changing_game(two.mover, index + 1) for index in range(2 * GAMES)]

    async def race(table: Table, seat: int, action: dict[str, Any], publisher_first: bool) -> list[Any]:
        """(what "shown" gave, what the move gave, whether the second waited for the first's locks)"""
        notes = [(s.seat, 7000 + s.seat, 8000 + table.id * 10 + s.seat, "seen") for s in table.seats]
        move = two.mover.act(table.id, table.user_at(seat), action, expected_version=1, read=table)
        shown = two.other.shown(await two.other.get(table.id), notes)  # Discord shows version 1
        if publisher_first:
            return list(await two.overlap(shown, move))
        moved, shown_done, waited = await two.overlap(move, shown)
        return [shown_done, moved, waited]

    outcomes = await asyncio.gather(
        *(race(table, seat, action, n < GAMES) for n, (table, seat, action) in enumerate(games))
    )
    failed = [repr(o) for *pair, _ in outcomes for o in pair if isinstance(o, BaseException)]
    assert failed == []
    assert all(waited for *_, waited in outcomes)  # they did overlap: the second waited for the first
    for table, _, _ in games:  # both committed: the move, and the older version marked shown
        now = await two.mover.get(table.id)
        assert now.version == 2 and len(await two.mover.moves(table.id)) == 1
        assert now.record.shown_version == 1
        assert now.record.publish_at is not None  # the move is still to be shown
        assert [s.dm_message_id for s in now.seats] == [8000 + table.id * 10 + s for s in range(3)]
        assert all(now.seat_row(s).reminders_sent == 0 for s in now.to_act())


async def test_a_player_leaving_in_one_process_while_a_move_commits_in_another_is_a_change_of_its_own(two):
    """The leave reads the game with its row locked, so it waits for the move and counts from its version: a
    picker drawn before the leave is out of date after it (an unlocked read wrote the move's version again)."""
    games = [await _turn_changing_game(two.mover, index + 1) for index in range(GAMES)]
    outcomes = await asyncio.gather(
        *(
            two.overlap(
                two.mover.act(table.id, table.user_at(seat), action, expected_version=1, read=table),
                two.other.hand_to_bot(table.id, (seat + 1) % 3, "Bot"),
            )
            for table, seat, action in games
        )
    )
    assert [repr(o) for *pair, _ in outcomes for o in pair if isinstance(o, BaseException)] == []
    assert all(waited for *_, waited in outcomes)
    for table, seat, _ in games:
        now = await two.mover.get(table.id)
        assert now.version == 3 and len(await two.mover.moves(table.id)) == 1
        assert now.seat_row((seat + 1) % 3).is_bot
