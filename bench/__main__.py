"""`make bench`: every figure, with the machine it ran on."""

from __future__ import annotations

import sys

from bench import engines_bench, render_bench, storage_bench, strength_bench
from bench.common import machine


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"# Benchmarks on {machine()}")
    engines_bench.run(games=3 if quick else 10)
    render_bench.run(repeat=5 if quick else 20)
    storage_bench.run(count=60 if quick else 400)
    if quick:
        strength_bench.run(games=2, budget=40, round_cap=60)
    else:  # the 200 seeded games per setting at the default budget: many hours on 2 cores
        strength_bench.run()
    try:
        from bench import load_bench
    except ImportError:
        return
    load_bench.run(quick=quick)


if __name__ == "__main__":
    main()
