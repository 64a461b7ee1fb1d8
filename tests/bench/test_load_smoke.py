"""A few games for a few seconds through the real bot process: all answered, none late, nothing refused.

Timings are printed by `make bench` (bench/load_bench.py); this test never asserts one.
"""

from __future__ import annotations

import pytest

from bench import load_bench

pytestmark = pytest.mark.e2e


async def test_a_few_games_under_load_are_all_answered_in_time(tmp_path):
    result = await load_bench.smoke(tmp_path, games=3, seconds=3.0)
    completed = result.rec.ok()
    assert completed, "no interaction completed"
    assert result.rec.moves > 0, "no move was played"
    assert len(completed) == len(result.rec.samples), [s.op for s in result.rec.samples if s.done is None]
    assert result.late == 0, (
        f"{result.late} interactions past the 3 s deadline ({result.never_acked} never acked)"
    )
    assert result.bot_violations == []
