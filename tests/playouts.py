"""Seeded games played by the built-in player, position by position, for tests that look for a kind of moment."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from engines.base import Engine, State


def bot_played(engine: Engine, players: int, seeds: Iterable[int], moves: int) -> Iterator[tuple[State, Any]]:
    """Each position of seeded games the built-in player plays (each move seeded by its number), as (state, seat
    to act); a game is left when it ends or after `moves` moves, and the caller stops when it has seen enough."""
    for seed in seeds:
        state = engine.new_game(players, engine.validate_options({}), seed)
        for number in range(moves):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            yield state, seat
            state, _ = engine.apply(state, seat, engine.bot_action(state, seat, number))
