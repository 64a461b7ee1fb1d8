"""The hard built-in player: determinized Monte Carlo search over what the seat cannot see.

A decision samples positions consistent with the seat's view (`Engine.shuffle_hidden` re-deals every hidden card,
die and deck order, and reseeds the future), plays each candidate action in it, continues with the game's easy
player for every seat for a bounded number of moves, and judges where the seat stands: 1 for a win, 0 for a loss,
otherwise the game's `evaluate` of the seat's view squashed into (0, 1). Every candidate is tried on the same
sampled positions with the same future (common random numbers), so the comparison between candidates is paired
rather than drowned in the noise of the dice; sequential halving spends the budget on the candidates still in
contention, always keeping the easy choice, which another candidate must beat by a margin to replace. The budget counts simulated moves, not seconds, so a decision is the same for the same seed on any
machine; the search reads the true state only through `shuffle_hidden`.
"""

from __future__ import annotations

import math
from typing import Any

from engines.base import Action, Engine, IllegalAction, State
from engines.rng import Rng

MAX_CANDIDATES = 6  # the easy player's best few; more would split a small budget too thinly
MIN_DEPTH = 2
MARGIN = (
    0.01  # an alternative must beat the easy choice by this much (in win-probability terms) to replace it
)


def search(engine: Engine, state: State, seat: int, seed: int, budget: int) -> Action:
    actions = engine.legal_actions(state, seat)
    rng = Rng.from_seed(seed)
    candidates = _candidates(engine, state, seat, actions, Rng(rng.next_u64()))
    if len(candidates) == 1 or budget <= 0:
        return candidates[0]
    # results[i][w]: how candidate i fared in sampled world w; candidate 0 (the easy choice) is never dropped, so
    # every other candidate is judged against it on exactly the worlds both were tried in.
    results: list[dict[int, float]] = [{} for _ in candidates]
    alive = list(range(len(candidates)))
    rounds = max(1, math.ceil(math.log2(len(candidates))))
    # Each round tries every live candidate at least once, so a small budget buys shorter look-aheads.
    depth = max(MIN_DEPTH, min(engine.search_depth, budget // (2 * rounds * len(candidates))))
    spent = 0
    worlds = 0
    for round_index in range(rounds):
        round_end = budget * (round_index + 1) // rounds
        while True:
            # One sampled world and one future, shared by every candidate still alive.
            world = engine.shuffle_hidden(state, seat, rng.next_u64())
            future = rng.next_u64()
            for i in alive:
                value, moves = _playout(engine, world, seat, candidates[i], future, depth)
                results[i][worlds] = value
                spent += moves
            worlds += 1
            if spent >= round_end:
                break
        if len(alive) > 2 and round_index < rounds - 1:
            rivals = sorted(alive[1:], key=lambda i: (-_edge(results, i), i))
            alive = [0, *sorted(rivals[: max(1, len(rivals) // 2)])]
    best = max(alive, key=lambda i: (_edge(results, i) - (MARGIN if i else 0.0), -i))
    return candidates[best]


def _edge(results: list[dict[int, float]], i: int) -> float:
    """Candidate i's mean gain over the easy choice on the worlds both were tried in (0 for the easy choice)."""
    shared = [w for w in results[i] if w in results[0]]
    return sum(results[i][w] - results[0][w] for w in shared) / len(shared) if shared else 0.0


def _candidates(engine: Engine, state: State, seat: int, actions: list[Action], rng: Rng) -> list[Action]:
    """The actions worth comparing, the easy player's choice first (it wins ties)."""
    auto = engine.autoplayer
    if auto is None:
        return rng.shuffled(actions)[:MAX_CANDIDATES]
    view = engine.view(state, seat)
    ranked = getattr(auto, "ranked", None)
    if ranked is not None:
        return ranked(view, actions, rng)[:MAX_CANDIDATES]
    easy = auto.choose(view, actions, Rng(rng.next_u64()))
    rest = [a for a in actions if a != easy]
    return [easy, *rng.shuffled(rest)[: MAX_CANDIDATES - 1]]


def _playout(
    engine: Engine, world: State, seat: int, action: Action, future: int, depth: int
) -> tuple[float, int]:
    """Play `action` in `world`, then every seat's easy choice for up to `depth` moves: (how well
    `seat` stands in [0, 1], moves simulated)."""
    try:
        state, _ = engine.apply(world, seat, action)
    except (
        IllegalAction
    ):  # the sampled world does not allow it (it hinged on something unseen): count as a loss
        return 0.0, 1
    rng = Rng(future)
    auto = engine.autoplayer
    moves = 1
    for _ in range(depth):
        if engine.outcome(state) is not None:
            break
        acting = engine.to_act(state)
        if not acting:
            break
        mover = acting[0]
        legal = engine.legal_actions(state, mover)
        if not legal:
            break
        if len(legal) == 1:
            choice = legal[0]
        elif auto is None:
            choice = rng.choice(legal)
        else:
            choice = auto.choose(engine.view(state, mover), legal, Rng(rng.next_u64()))
        engine.advance(state, mover, choice)  # this playout's own state since its first move
        moves += 1
    return judge(engine, state, seat), moves


def judge(engine: Engine, state: State, seat: int) -> float:
    """How well `seat` stands in `state`: its share of the win once the game is over, else its evaluation."""
    outcome = engine.outcome(state)
    if outcome is not None and len(outcome.scores) > 1:  # solo: the final score is judged, not the win
        return 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    evaluate: Any = getattr(engine.autoplayer, "evaluate", None)
    if evaluate is None:
        return 0.5
    return 1 / (1 + math.exp(-evaluate(engine.view(state, seat))))
