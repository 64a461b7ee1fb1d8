"""Engines: random full-game playouts per second, per-move costs and stored-state size, per game and player count."""

from __future__ import annotations

import statistics
import time

from bench.common import ms
from engines import all_engines
from engines.base import Engine
from engines.rng import Rng

BUDGET_MS = {"druids": 50, "roll_player": 50, "roll_for_the_galaxy": 250, "talisman": 250}
TALISMAN_TURNS = 200


def playout(engine: Engine, players: int, seed: int) -> tuple[int, float, float, float, float, int]:
    """One seeded random game: (actions, total s, apply s, view s, dump+load s, max state bytes)."""
    state = engine.new_game(players, engine.validate_options({}), seed)
    rng = Rng.from_seed(seed)
    actions = 0
    t_apply = t_view = t_dump = 0.0
    biggest = 0
    cap = TALISMAN_TURNS * players * 20 if engine.name == "talisman" else 100_000
    start = time.perf_counter()
    while engine.outcome(state) is None and actions < cap:
        if engine.name == "talisman" and state.get("turn", 0) >= TALISMAN_TURNS:
            break
        seat = rng.choice(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        t0 = time.perf_counter()
        state, _ = engine.apply(state, seat, action)
        t1 = time.perf_counter()
        engine.view(state, seat)
        t2 = time.perf_counter()
        text = engine.dump(state)
        engine.load(text)
        t3 = time.perf_counter()
        t_apply += t1 - t0
        t_view += t2 - t1
        t_dump += t3 - t2
        biggest = max(biggest, len(text.encode()))
        actions += 1
    return actions, time.perf_counter() - start - t_view - t_dump, t_apply, t_view, t_dump, biggest


def run(games: int = 10) -> None:
    print("\n## Engines: seeded random playouts")
    print(
        f"{'game':22} {'seats':>5} {'playout p50':>12} {'games/s':>8} {'actions':>8} {'apply/move':>11} "
        f"{'view/move':>10} {'dump+load':>10} {'state':>9}  budget (4 seats)"
    )
    for engine in all_engines():
        for players in range(engine.min_players, engine.max_players + 1):
            results = [playout(engine, players, seed) for seed in range(games)]
            totals = [r[1] for r in results]
            moves = sum(r[0] for r in results)
            p50 = statistics.median(totals)
            budget = ""
            if players == 4 and engine.name in BUDGET_MS:
                verdict = "meets" if p50 * 1000 < BUDGET_MS[engine.name] else "MISSES"
                budget = f"{verdict} {BUDGET_MS[engine.name]} ms"
            print(
                f"{engine.name:22} {players:>5} {ms(p50):>12} {1 / p50:>8.1f} {moves / games:>8.0f} "
                f"{ms(sum(r[2] for r in results) / moves):>11} {ms(sum(r[3] for r in results) / moves):>10} "
                f"{ms(sum(r[4] for r in results) / moves):>10} {max(r[5] for r in results) / 1024:>7.1f}kB  {budget}"
            )
