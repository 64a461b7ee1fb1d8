"""`make bench`: every figure, with the machine it ran on."""

from __future__ import annotations

import os
import sys

from bench import (
    clicks_bench,
    clock_bench,
    crash_bench,
    engines_bench,
    fuzz_bench,
    hotpath_bench,
    notify_bench,
    render_bench,
    rules_bench,
    storage_bench,
    strength_bench,
)
from bench.common import machine


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"# Benchmarks on {machine()}")
    engines_bench.run(games=3 if quick else 10)
    clicks_bench.run(games=2 if quick else 4)
    render_bench.run(repeat=5 if quick else 20)
    storage_bench.run(count=60 if quick else 400)
    clock_bench.run(games=1_000 if quick else clock_bench.GAMES)
    notify_bench.run(moves=60 if quick else 300)
    rules_bench.run()
    hotpath_bench.run(interactions=300 if quick else 1_200)
    if quick:
        strength_bench.run(games=2, budget=40, round_cap=60)
    else:  # the issue asks 200 games per setting at the default budget: many hours on 2 cores, so opt in
        strength_bench.run(games=int(os.environ.get("STRENGTH_GAMES", "4")))
    fuzz_bench.run(cases_wanted=100_000, seconds=60 if quick else 2_400)  # 10⁵ cases: about 35 min here
    crash_bench.run(kills=5 if quick else 100)
    try:
        from bench import load_bench
    except ImportError:
        return
    load_bench.run(quick=quick)


if __name__ == "__main__":
    main()
