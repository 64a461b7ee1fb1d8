"""Choose one legal action a parameter at a time, so any engine's actions become buttons and select menus.

The legal actions are flat dicts; at each step we look at the actions still possible, skip parameters on which they
all agree, and ask for the first one on which they differ, together with the next ones as long as every combination
still fits one select menu (a "joint" step: its key names the parameters joined by "+", its values are tuples).
The choices made so far are a list of small integers (an index into each step's distinct values), short enough to
live in a Discord custom_id.

`picker_actions` also offers, where it costs no extra choice, a legal action followed by the mover's next one (a
"chain"), when nothing in between is left to chance or newly shown: picking an initiative card and the row its die
goes to is one choice. The chained action is one flat dict whose later parts carry the prefix "then."; `split`
turns it back into the engine's actions, which the host applies one after the other. Where the built-in player
would make a run of such moves (placing every starting die), that run is offered first as one "suggested" choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.base import Action, Engine, Event, State, visible_to

COMBINE_LIMIT = 25  # the options of one Discord select menu
JOIN = "+"
THEN = "then."
SUGGESTED = "suggested"
SUGGEST_MIN = 3  # a suggestion is offered when it saves at least two clicks
MAX_SUGGESTED = 12


@dataclass(frozen=True)
class Prompt:
    key: str  # one parameter, or several joined by JOIN and asked at once
    values: list[Any]  # for a joint key, tuples of the parameters' values
    chosen: dict[str, Any]  # the parameters settled so far, for labels that depend on them

    @property
    def keys(self) -> list[str]:
        return self.key.split(JOIN)


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


def _distinct(actions: list[Action], keys: list[str]) -> list[tuple[Any, ...]]:
    seen: dict[str, tuple[Any, ...]] = {}
    for action in actions:
        combo = tuple(action.get(k) for k in keys)
        seen.setdefault(repr(combo), combo)
    return list(seen.values())


def narrow(actions: list[Action], path: list[int], limit: int = COMBINE_LIMIT) -> Prompt | Chosen:
    if not actions:
        raise PathError("no legal action")
    remaining = list(actions)
    chosen: dict[str, Any] = {}
    steps = iter(path)
    while True:
        open_keys = [
            k for k in _keys(remaining) if k not in chosen and len({repr(a.get(k)) for a in remaining}) > 1
        ]
        if not open_keys:  # every remaining action is the same one
            if next(steps, None) is not None:
                raise PathError("path longer than the choice")
            return Chosen(remaining[0])
        joint = open_keys[:1]
        for key in open_keys[1:]:
            if len(_distinct(remaining, [*joint, key])) > limit:
                break
            joint.append(key)
        combos = _distinct(remaining, joint)
        values: list[Any] = combos if len(joint) > 1 else [combo[0] for combo in combos]
        index = next(steps, None)
        if index is None:
            return Prompt(JOIN.join(joint), values, chosen)
        if not 0 <= index < len(values):
            raise PathError("choice out of range")
        picked = combos[index]
        # A parameter the picked actions lack is not "chosen" (labels would have nothing to name).
        chosen.update((k, v) for k, v in zip(joint, picked, strict=True) if v is not None)
        remaining = [a for a in remaining if all(a.get(k) == v for k, v in zip(joint, picked, strict=True))]


def path_to(actions: list[Action], action: Action, limit: int = COMBINE_LIMIT) -> list[int]:
    """The choices that lead to `action` (one of `actions`)."""
    path: list[int] = []
    while isinstance(step := narrow(actions, path, limit), Prompt):
        wanted = tuple(action.get(k) for k in step.keys)
        path.append(
            next(i for i, v in enumerate(step.values) if (v if len(step.keys) > 1 else (v,)) == wanted)
        )
    if step.action != action:
        raise PathError("not one of the actions")
    return path


def clicks(actions: list[Action], action: Action, limit: int = COMBINE_LIMIT) -> int:
    """How many clicks the picker takes to play `action`: one per step, or the one button of a forced action."""
    return max(1, len(path_to(actions, action, limit)))


# --- chains of actions ------------------------------------------------------------------------------------------


def split(action: Action) -> list[Action]:
    """A picked (possibly chained) action as the engine's actions, in the order to apply them."""
    parts: list[Action] = []
    rest = {k: v for k, v in action.items() if k != SUGGESTED}
    while rest:
        parts.append({k: v for k, v in rest.items() if not k.startswith(THEN)})
        rest = {k[len(THEN) :]: v for k, v in rest.items() if k.startswith(THEN)}
    return parts


def chain(first: Action, then: Action) -> Action:
    return {**first, **{THEN + k: v for k, v in then.items()}}


def _chainable(
    engine: Engine, before: State, after: State, seat: int, action: Action, events: list[Event]
) -> bool:
    """Whether the mover's next choice after `action` can be offered with it: the move draws on no chance,
    tells nobody anything new (no revealing event, no private event beyond an echo of the move), does not end
    the game, and leaves the mover among those to act with no one else given a chance to react."""
    if after.get("rng") != before.get("rng") or engine.outcome(after) is not None:
        return False
    if any(e["type"] in engine.revealing_events for e in events):
        return False
    known = {repr(v) for v in action.values()} | {
        repr(v) for e in events if "private" not in e for v in e.values()
    }
    for event in events:
        if "private" in event and (
            event["private"] != [seat]
            or any(repr(v) not in known for k, v in event.items() if k not in ("type", "seat", "private"))
        ):
            return False
    return seat in engine.to_act(after) and not engine.reaction_seats(after)


def _follow_ups(engine: Engine, state: State, seat: int, action: Action) -> list[Action]:
    after, events = engine.apply(state, seat, action)
    return engine.legal_actions(after, seat) if _chainable(engine, state, after, seat, action, events) else []


def suggestion(engine: Engine, state: State, seat: int) -> Action | None:
    """The built-in player's run of moves of one kind (placing every starting die), as one chained choice with
    what it would do in its SUGGESTED key (the events the mover would see), when it saves clicks."""
    if seat not in engine.to_act(state) or engine.outcome(state) is not None:
        return None
    parts: list[Action] = []
    seen: list[Event] = []
    current = state
    while len(parts) < MAX_SUGGESTED:
        action = engine.bot_action(current, seat, 0)
        if parts and action["type"] != parts[0]["type"]:
            break
        after, events = engine.apply(current, seat, action)
        parts.append(action)
        seen += [e for e in events if visible_to(e, seat)]
        if not _chainable(engine, current, after, seat, action, events):
            break
        current = after
    if len(parts) < SUGGEST_MIN:
        return None
    plan = parts[-1]
    for part in reversed(parts[:-1]):
        plan = chain(part, plan)
    return {"type": plan["type"], SUGGESTED: seen, **plan}


def picker_actions(
    engine: Engine,
    state: State,
    seat: int,
    actions: list[Action] | None = None,
    limit: int = COMBINE_LIMIT,
    suggest: bool = True,
) -> list[Action]:
    """What the picker offers `seat`: its legal actions, each followed by the next one where that keeps every
    choice within one select menu, and first, where it saves clicks, the built-in player's suggestion. Chains
    only combine actions the engine allows one after the other."""
    if actions is None:
        actions = engine.legal_actions(state, seat)
    follow = [_follow_ups(engine, state, seat, a) for a in actions] if len(actions) < limit else []
    # Chain the moves with the fewest next choices first, as far as one select menu allows.
    chained: set[int] = set()
    total = len(actions)
    for index in sorted(range(len(follow)), key=lambda i: len(follow[i])):
        if follow[index] and total - 1 + len(follow[index]) <= limit:
            total += len(follow[index]) - 1
            chained.add(index)
    offered: list[Action] = []
    for index, action in enumerate(actions):
        if index in chained:
            offered += [chain(action, then) for then in follow[index]]
        else:
            offered.append(action)
    plan = suggestion(engine, state, seat) if suggest and actions else None
    return [plan, *offered] if plan is not None else offered


def encode_path(path: list[int]) -> str:
    return ".".join(str(i) for i in path)


def decode_path(text: str) -> list[int]:
    if not text:
        return []
    try:
        return [int(part) for part in text.split(".")]
    except ValueError:
        raise PathError("malformed path") from None
