"""The hot-path bench (`make bench`) runs the real handlers, service and publisher against stand-ins for Discord: a
few interactions here keep those stand-ins in step with what the bot asks of Discord. No timing is asserted."""

from __future__ import annotations

import logging

from bench import hotpath_bench
from bot import drawing


async def test_the_hot_path_bench_plays_moves_through_the_real_handlers(monkeypatch, caplog):
    monkeypatch.setattr(drawing, "draw", drawing.draw)  # the bench replaces drawing: put it back afterwards
    with caplog.at_level(logging.ERROR):
        bench = await hotpath_bench.measure(100)
    # a stand-in lacking what the bot now asks of Discord fails its publishing (every DM failed for a round)
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert bench.moves > 0
    assert sum(len(times) for times in bench.cpu.values()) >= 100
    assert bench.executed > 0  # the statements are counted on every engine the service uses
