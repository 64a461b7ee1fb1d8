"""Publishing takes turns: at most PUBLISHING_AT_ONCE games are being shown at a time, so past capacity the event loop
answers interactions first; and a show that hangs gives its turn up and is retried like any Discord failure."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bot import publisher as publishing
from bot.publisher import PUBLISHING_AT_ONCE, Publisher


class Service:
    """Every game read is behind Discord (something to publish); failures are noted as retries."""

    def __init__(self) -> None:
        self.retried: list[int] = []

    async def get(self, game_id: int) -> SimpleNamespace:
        return SimpleNamespace(id=game_id, record=SimpleNamespace(publish_at=1, publish_attempts=0))

    async def publish_later(self, game_id: int, attempts: int) -> int:
        self.retried.append(game_id)
        return 0


class Shows:
    """Stands in for showing a game on Discord: each show waits until the test lets it finish."""

    def __init__(self) -> None:
        self.inside: set[int] = set()
        self.most_at_once = 0
        self.finished: list[int] = []
        self.entered = asyncio.Event()
        self.release = asyncio.Event()

    async def __call__(self, table: SimpleNamespace) -> None:
        self.inside.add(table.id)
        self.most_at_once = max(self.most_at_once, len(self.inside))
        self.entered.set()
        await self.release.wait()
        self.inside.discard(table.id)
        self.finished.append(table.id)


def _publisher(service: Service, shows: Shows) -> Publisher:
    client = SimpleNamespace(closed=False)
    client.is_closed = lambda: client.closed
    publisher = Publisher(client=client, service=service, private=None, pictures=None)  # type: ignore[arg-type]
    publisher._show = shows  # type: ignore[method-assign]
    return publisher


async def _settle() -> None:
    """Let every task that can run do so (no timing: only turns of the event loop)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_only_a_few_games_are_shown_at_once_and_every_one_is_shown_in_the_end() -> None:
    shows = Shows()
    publisher = _publisher(Service(), shows)
    games = range(1, 3 * PUBLISHING_AT_ONCE + 1)
    publishing_all = asyncio.gather(*(publisher.publish(game) for game in games))
    await shows.entered.wait()
    await _settle()
    assert len(shows.inside) == PUBLISHING_AT_ONCE  # the rest wait for a turn
    shows.release.set()
    await publishing_all
    assert sorted(shows.finished) == list(games)
    assert shows.most_at_once == PUBLISHING_AT_ONCE


async def test_a_show_that_hangs_gives_its_turn_up_and_is_retried(monkeypatch) -> None:
    monkeypatch.setattr(publishing, "SHOW_WITHIN", 0.01)
    service = Service()
    hung = Shows()  # never released
    publisher = _publisher(service, hung)
    hanging = asyncio.gather(*(publisher.publish(game) for game in range(1, PUBLISHING_AT_ONCE + 1)))
    assert all(
        table is not None for table in await asyncio.wait_for(hanging, 10)
    )  # the guard: fail, not hang
    assert sorted(service.retried) == list(range(1, PUBLISHING_AT_ONCE + 1))
    assert publisher.unsure == set(range(1, PUBLISHING_AT_ONCE + 1))  # their posts may have gone through
    # every turn was given back: the next game is shown
    shows = Shows()
    shows.release.set()
    publisher._show = shows  # type: ignore[method-assign]
    await publisher.publish(99)
    assert shows.finished == [99]


async def test_publishes_still_waiting_their_turn_at_shutdown_are_left_for_the_next_start() -> None:
    shows = Shows()
    publisher = _publisher(Service(), shows)
    games = range(1, PUBLISHING_AT_ONCE + 3)
    publishing_all = asyncio.gather(*(publisher.publish(game) for game in games))
    await shows.entered.wait()
    await _settle()
    publisher.client.closed = True  # the bot closes while two publishes wait for a turn
    shows.release.set()
    await publishing_all
    assert sorted(shows.finished) == list(
        range(1, PUBLISHING_AT_ONCE + 1)
    )  # the waiting two never touch Discord


async def test_a_show_cut_short_by_shutdown_is_no_error(caplog) -> None:
    service = Service()
    publisher = _publisher(service, Shows())

    async def closing_show(_table: SimpleNamespace) -> None:
        publisher.client.closed = True
        raise RuntimeError("Session is closed")  # what discord.py's HTTP client raises once closed

    publisher._show = closing_show  # type: ignore[method-assign]
    await publisher.publish(1)
    assert service.retried == []  # still pending in the database: the next start shows it
    assert not [record for record in caplog.records if record.levelname == "ERROR"]
