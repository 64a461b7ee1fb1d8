"""Presenters for every hosted game, by engine name: each module here defines one GamePresenter subclass."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import cache

from bot.games.base import GamePresenter


@cache
def presenters() -> dict[str, GamePresenter]:
    import bot.games

    found: dict[str, GamePresenter] = {}
    for info in pkgutil.iter_modules(bot.games.__path__):
        if info.name == "base":
            continue
        module = importlib.import_module(f"bot.games.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, GamePresenter)
                and cls is not GamePresenter
                and cls.__module__ == module.__name__
            ):
                found[cls.engine_name] = cls()
    return found


def presenter(engine_name: str) -> GamePresenter:
    return presenters()[engine_name]
