"""The clock reads only games whose stored due time has come (the bench prints how long a tick takes)."""

from __future__ import annotations

from bench import clock_bench
from bot.service import GameService


async def test_a_tick_with_nothing_due_loads_no_game(tmp_path, monkeypatch):
    loaded: list[int] = []
    original = GameService.get

    async def counting_get(self, game_id):
        loaded.append(game_id)
        return await original(self, game_id)

    monkeypatch.setattr(GameService, "get", counting_get)
    durations, _ = await clock_bench.measure(tmp_path, games=300, ticks=3)
    assert len(durations) == 3
    assert loaded == []  # 300 games waiting, none due: not one was read or decoded
