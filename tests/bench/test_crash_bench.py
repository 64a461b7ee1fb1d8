"""The crash bench in small: the real bot killed 5 times under load loses, half-applies, hides and repeats nothing."""

from __future__ import annotations

import pytest

from bench import crash_bench

pytestmark = pytest.mark.e2e


def test_five_kills_under_load_lose_and_repeat_nothing():
    figures = crash_bench.run(kills=5, seed=7)
    assert figures.kills == 5 and figures.committed > 0 and figures.confirmed > 0
    assert figures.lost == [] and figures.half_applied == []
    assert figures.unannounced == [] and figures.duplicated == []
