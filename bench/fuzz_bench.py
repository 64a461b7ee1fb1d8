"""Random input through the real bot and the loopback server, for as long as a time budget allows (or a number of
cases): prints the cases tried, those the Discord client itself would not send, and those harmed (any property of
tests/e2e/fuzzing.py broken: no answer in time, a reply over 2,000 characters or repeating the user's text, a
refusal shown to everyone or changing a game, a request of the bot's rejected)."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings

from tests.e2e.fuzzing import Case, FuzzWorld, cases
from tests.e2e.harness import harness


class _Enough(Exception):
    """The time budget is spent."""


def run(cases_wanted: int = 100_000, seconds: float = 600.0) -> dict[str, int]:
    loop = asyncio.new_event_loop()
    stack = contextlib.AsyncExitStack()
    tried: Counter[str] = Counter()
    unsent: Counter[str] = Counter()
    harmed: list[tuple[Case, list[str]]] = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            h = loop.run_until_complete(stack.enter_async_context(harness(Path(folder))))
            world = FuzzWorld(h)
            loop.run_until_complete(world.prepare())
            start = time.perf_counter()

            @settings(
                max_examples=cases_wanted,
                deadline=None,
                database=None,
                phases=(Phase.generate,),
                suppress_health_check=list(HealthCheck),
            )
            @given(cases())
            def fuzz(case: Case) -> None:
                if time.perf_counter() - start > seconds:
                    raise _Enough
                outcome = loop.run_until_complete(world.run(case))
                tried[case.kind] += 1
                if not outcome.sent:
                    unsent[case.kind] += 1
                if outcome.harms:
                    harmed.append((case, outcome.harms))

            with contextlib.suppress(_Enough):
                fuzz()
            elapsed = time.perf_counter() - start
            loop.run_until_complete(stack.aclose())
    finally:
        loop.close()
    total = sum(tried.values())
    print(
        f"\n## Fuzz through the loopback server ({elapsed:.0f} s, budget {cases_wanted:,} cases or {seconds:.0f} s)"
    )
    print(
        f"cases tried: {total:,} ({total / elapsed:.0f}/s); not sendable by a client: {sum(unsent.values()):,}"
    )
    print("by kind: " + ", ".join(f"{kind} {count:,}" for kind, count in sorted(tried.items())))
    print(f"cases harmed: {len(harmed)}")
    for case, harms in harmed[:10]:
        print(f"  {case}: {'; '.join(harms)[:300]}")
    return {"tried": total, "harmed": len(harmed)}


if __name__ == "__main__":
    run(cases_wanted=2_000, seconds=60)
