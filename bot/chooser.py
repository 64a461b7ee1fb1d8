"""Choose one legal action a parameter at a time, so any engine's actions become buttons and select menus.

The legal actions are flat dicts; at each step we look at the actions still possible, skip parameters on which they
all agree, and ask for the first one on which they differ. The choices made so far are a list of small integers (an
index into each step's distinct values), short enough to live in a Discord custom_id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.base import Action


@dataclass(frozen=True)
class Prompt:
    key: str
    values: list[Any]
    chosen: dict[str, Any]  # the parameters settled so far, for labels that depend on them


@dataclass(frozen=True)
class Chosen:
    action: Action


class PathError(ValueError):
    """The path does not fit the legal actions (they changed since the buttons were drawn)."""


def _keys(actions: list[Action]) -> list[str]:
    keys: list[str] = []
    for action in actions:
        keys += [key for key in action if key not in keys]
    return keys


def narrow(actions: list[Action], path: list[int]) -> Prompt | Chosen:
    if not actions:
        raise PathError("no legal action")
    remaining = list(actions)
    chosen: dict[str, Any] = {}
    steps = iter(path)
    while True:
        key = next(
            (k for k in _keys(remaining) if k not in chosen and len({repr(a.get(k)) for a in remaining}) > 1),
            None,
        )
        if key is None:  # every remaining action is the same one
            if next(steps, None) is not None:
                raise PathError("path longer than the choice")
            return Chosen(remaining[0])
        values: list[Any] = []
        for action in remaining:
            if action.get(key) not in values:
                values.append(action.get(key))
        index = next(steps, None)
        if index is None:
            return Prompt(key, values, chosen)
        if not 0 <= index < len(values):
            raise PathError("choice out of range")
        chosen[key] = values[index]
        remaining = [a for a in remaining if a.get(key) == values[index]]


def encode_path(path: list[int]) -> str:
    return ".".join(str(i) for i in path)


def decode_path(text: str) -> list[int]:
    if not text:
        return []
    try:
        return [int(part) for part in text.split(".")]
    except ValueError:
        raise PathError("malformed path") from None
