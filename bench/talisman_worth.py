"""Fit the Talisman player's `WORTH` weights: who wins games between easy players, from where each stood.

Plays seeded games between easy players with the default options, takes every character still in the game at the
start of every round, and fits a conditional logit by maximum likelihood (Newton's method, a little L2): a
character's chance to win is exp(worth) over the sum of exp(worth) of every character in the game, its worth the
weighted sum of `worth_facts`; the weights named in `HELD_WORTH` are kept as they are (the module says why).
Prints the weights and how well they and the weights in use predict the winner (mean log-likelihood per position;
guessing uniformly scores -log(characters)). Games with no single winner within the round cap are left out.

`python -m bench.talisman_worth` reproduces the weights in `engines/talisman/autoplayer.py` (2,500 four-player
and 1,000 two-player games, about 20 minutes on one core).
"""

from __future__ import annotations

import argparse
import math

from bench.strength_bench import TALISMAN_ROUND_CAP, play
from engines import get_engine
from engines.base import Engine, State
from engines.talisman import autoplayer

L2 = 1e-3  # keeps weights of facts that barely vary from running off
FITTED = tuple(name for name in autoplayer.WORTH if name not in autoplayer.HELD_WORTH)

# One position: for every character, its FITTED facts and the worth of its held ones; then the index of the
# character who went on to win.
Position = tuple[list[tuple[list[float], float]], int]


def positions(players: int, games: int, first_seed: int) -> list[Position]:
    engine = get_engine("talisman")
    return [found for seed in range(first_seed, first_seed + games) for found in _game(engine, players, seed)]


def _game(engine: Engine, players: int, seed: int) -> list[Position]:
    """One game's positions, each round's as it starts, if the game has a single winner."""
    standings: dict[int, tuple[list[int], list[tuple[list[float], float]]]] = {}  # by round

    def note(state: State) -> None:
        if state["round"] not in standings:
            chars = engine.view(state, 0)["chars"]
            seats = [i for i, ch in enumerate(chars) if ch is not None and not ch["out"]]
            standings[state["round"]] = (seats, [_row(chars[i]) for i in seats])

    state = play(engine, players, ["easy"] * players, seed, None, [], TALISMAN_ROUND_CAP, note)
    outcome = engine.outcome(state)
    if outcome is None or len(outcome.winners) != 1:
        return []
    (winner,) = outcome.winners
    return [(rows, seats.index(winner)) for seats, rows in standings.values() if winner in seats]


def _row(ch: dict) -> tuple[list[float], float]:
    facts = autoplayer.worth_facts(ch)
    held = sum(autoplayer.WORTH[name] * facts.get(name, 0.0) for name in autoplayer.HELD_WORTH)
    return [float(facts.get(name, 0.0)) for name in FITTED], held


def _worths(weights: list[float], rows: list[tuple[list[float], float]]) -> list[float]:
    return [held + sum(w * x for w, x in zip(weights, facts, strict=True)) for facts, held in rows]


def log_likelihood(weights: list[float], data: list[Position]) -> float:
    total = 0.0
    for rows, winner in data:
        worths = _worths(weights, rows)
        top = max(worths)
        total += worths[winner] - top - math.log(sum(math.exp(u - top) for u in worths))
    return total / len(data)


def fit(data: list[Position], steps: int = 30) -> list[float]:
    """Newton's method on the penalised log-likelihood (concave, so it converges from zero)."""
    d = len(FITTED)
    n = len(data)
    weights = [0.0] * d
    for _ in range(steps):
        grad = [-2 * L2 * n * w for w in weights]
        hess = [[-2 * L2 * n * (i == j) for j in range(d)] for i in range(d)]
        for rows, winner in data:
            worths = _worths(weights, rows)
            top = max(worths)
            exps = [math.exp(u - top) for u in worths]
            total = sum(exps)
            probs = [e / total for e in exps]
            mean = [sum(p * facts[i] for p, (facts, _) in zip(probs, rows, strict=True)) for i in range(d)]
            won = rows[winner][0]
            for i in range(d):
                grad[i] += won[i] - mean[i]
            # The Hessian is minus the facts' covariance under the model's probabilities.
            for p, (facts, _) in zip(probs, rows, strict=True):
                for i in range(d):
                    if facts[i]:
                        line, pfi = hess[i], p * facts[i]
                        for j in range(d):
                            line[j] -= pfi * facts[j]
            for i in range(d):
                if mean[i]:
                    line = hess[i]
                    for j in range(d):
                        line[j] += mean[i] * mean[j]
        step = _solve(hess, grad)
        weights = [w - s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return weights


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the system is small and well conditioned)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            if factor:
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    out = [0.0] * n
    for i in range(n - 1, -1, -1):
        out[i] = (rows[i][n] - sum(rows[i][j] * out[j] for j in range(i + 1, n))) / rows[i][i]
    return out


def run(four_player_games: int = 2_500, two_player_games: int = 1_000) -> None:
    data = positions(4, four_player_games, 70_000) + positions(2, two_player_games, 80_000)
    weights = fit(data)
    in_use = [autoplayer.WORTH[name] for name in FITTED]
    uniform = sum(-math.log(len(rows)) for rows, _ in data) / len(data)
    print(f"talisman worth: {len(data)} positions from {four_player_games} + {two_player_games} games")
    print(
        f"  mean log-likelihood: fitted {log_likelihood(weights, data):.4f}, in use "
        f"{log_likelihood(in_use, data):.4f}, uniform {uniform:.4f}"
    )
    for name, fitted, used in zip(FITTED, weights, in_use, strict=True):
        print(f"  {name:12s} fitted {fitted:+.3f}  in use {used:+.2f}")
    print(
        "  held, not fitted: "
        + ", ".join(f"{name} {autoplayer.WORTH[name]:+.2f}" for name in autoplayer.HELD_WORTH)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--four", type=int, default=2_500, help="four-player games")
    parser.add_argument("--two", type=int, default=1_000, help="two-player games")
    args = parser.parse_args()
    run(args.four, args.two)


if __name__ == "__main__":
    main()
