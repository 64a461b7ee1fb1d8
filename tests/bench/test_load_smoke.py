"""A few games for a few seconds through the real bot process: every interaction answered, nothing refused.

Timings (how many answers came past Discord's 3 s deadline) are printed by `make bench` (bench/load_bench.py);
this test never asserts one, since a busy machine would make it fail for reasons the code does not control.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bench import load_bench

pytestmark = pytest.mark.e2e


async def test_a_few_games_under_load_are_all_answered(tmp_path):
    result = await load_bench.smoke(tmp_path, games=3, seconds=3.0)
    completed = result.rec.ok()
    assert completed, "no interaction completed"
    assert result.rec.moves > 0, "no move was played"
    assert len(completed) == len(result.rec.samples), [s.op for s in result.rec.samples if s.done is None]
    assert result.never_acked == 0, f"{result.never_acked} interactions never acknowledged"
    assert result.bot_violations == []


def test_latency_by_third_of_a_phase_places_each_answer_by_when_it_was_asked():
    rec = load_bench.Recorder("steady")
    # a phase from 100 s to 130 s: answers asked early take 1 s, in the middle 2 s, late 4 s; one failed
    rec.samples = [load_bench.Sample("move", 100 + i, 1.0) for i in range(10)]
    rec.samples += [load_bench.Sample("move", 110 + i, 2.0) for i in range(10)]
    rec.samples += [load_bench.Sample("move", 120 + i, 4.0) for i in range(10)]
    rec.samples.append(load_bench.Sample("move", 125, None))
    # acknowledgements: 10 ms early, one of 500 ms in the middle, nothing sent late, one never acknowledged
    sent = [SimpleNamespace(created=100 + i, ack_at=100.01 + i) for i in range(10)]
    sent += [SimpleNamespace(created=112, ack_at=112.02), SimpleNamespace(created=115, ack_at=115.5)]
    sent += [SimpleNamespace(created=121, ack_at=None), SimpleNamespace(created=131, ack_at=131.1)]
    by_third = load_bench.acks_by_third(sent, 100.0, 30.0)
    phase = load_bench.PhaseResult(rec, 30.0, 130.0, 3, 0.0, [], by_third, 0, 0, {}, {}, [], [], 0)
    assert load_bench._thirds(phase) == "1.0 / 2.0 / 4.0 s"
    assert load_bench._ack_thirds(phase) == "10 / 500 / — ms"
