"""Presenters for every hosted game, by engine name."""

from __future__ import annotations

from functools import cache

from bot.games.base import GamePresenter


@cache
def presenters() -> dict[str, GamePresenter]:
    from bot.games.druids import DruidsPresenter

    found: list[GamePresenter] = [DruidsPresenter()]
    return {p.engine_name: p for p in found}


def presenter(engine_name: str) -> GamePresenter:
    return presenters()[engine_name]
