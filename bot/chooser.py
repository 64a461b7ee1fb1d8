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

An engine may say that some of its moves end the same way in any order, or may be drawn blind until the turn moves
on (Druids: the two plays, the refills). Then whole runs of the mover's moves are offered (`turn_runs`): both plays
asked as a pair of cards and then a place for each, and the last choice may carry an "ending", the rest of the turn
as the built-in player would play it (a discard or not, the refill), so an ordinary turn is three clicks.
"""

from __future__ import annotations

import functools
import itertools
import marshal
import sys
from dataclasses import dataclass, field
from typing import Any

from engines.base import Action, Engine, Event, IllegalAction, State, visible_to

COMBINE_LIMIT = 25  # the options of one Discord select menu
JOIN = "+"
THEN = "then."
SUGGESTED = "suggested"
ENDING = "ending"  # a run's optional last moves, as one parameter: stop here, or end the turn this way
SUGGEST_MIN = 3  # a suggestion is offered when it saves at least two clicks
MAX_SUGGESTED = 12


@dataclass(frozen=True)
class Prompt:
    key: str  # one parameter, or several joined by JOIN and asked at once
    values: list[Any]  # for a joint key, tuples of the parameters' values
    chosen: dict[str, Any]  # the parameters settled so far, for labels that depend on them
    # where the narrowing stands (the actions left, what they settled, the step's parameters and their distinct
    # values), so the next choice narrows on from here instead of from every action again
    narrowing: tuple[list[Action], dict[str, Any], list[str], list[tuple[Any, ...]]] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def keys(self) -> list[str]:
        return self.key.split(JOIN)


@dataclass(frozen=True)
class Chosen:
    action: Action


class PathError(ValueError):
    """The path does not fit the legal actions (they changed since the buttons were drawn)."""


def _keys(actions: list[Action]) -> list[str]:
    return list(dict.fromkeys(itertools.chain.from_iterable(actions)))


def _varies(actions: list[Action], key: str) -> bool:
    """Whether `key` takes more than one value in `actions`, values told apart by their repr."""
    first = actions[0].get(key)
    shown = repr(first)
    return any(value is not first and repr(value) != shown for value in (a.get(key) for a in actions))


_PLAIN = frozenset({str, int, type(None)})


def _column(actions: list[Action], key: str) -> list[Any]:
    """`key`'s value in each action, as values are told apart: by repr (1 and True differ), which strings, whole
    numbers and None need not go through."""
    values = [a.get(key) for a in actions]
    return values if _PLAIN.issuperset(map(type, values)) else list(map(repr, values))


def _distinct(actions: list[Action], keys: list[str], limit: int | None = None) -> list[tuple[Any, ...]]:
    """The combinations of `keys`' values in `actions`, each once, in order; stopped once there are more than
    `limit`."""
    rows: dict[tuple[Any, ...], int] = {}  # each combination's first action
    for row, shown in enumerate(zip(*(_column(actions, k) for k in keys), strict=True)):
        rows.setdefault(shown, row)
        if limit is not None and len(rows) > limit:
            break
    return [tuple(actions[row].get(k) for k in keys) for row in rows.values()]


@functools.cache  # a few dozen distinct keys, asked about at every step and label
def chain_depth(key: str) -> int:
    """Which move of a chain a key belongs to: 0 for the first, 1 for "then.…"."""
    depth = 0
    while key.startswith(THEN, depth * len(THEN)):
        depth += 1
    return depth


def _asked_first(shape: list[str], key: str, joint: list[str]) -> bool:
    """Whether an action with these open keys asks, before `key`, a later move's key not in the step yet."""
    depth = chain_depth(key)
    return any(k not in joint and chain_depth(k) > depth for k in shape[: shape.index(key)])


def _next_to_join(waiting: list[str], shapes: list[list[str]], joint: list[str]) -> str | None:
    return next(
        (
            key
            for key in waiting
            if not any(key in shape and _asked_first(shape, key, joint) for shape in shapes)
        ),
        None,
    )


def _step(
    remaining: list[Action], chosen: dict[str, Any], limit: int
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The parameters asked next (several, while their combinations fit one menu) and their distinct values;
    no parameters once every remaining action is the same one."""
    open_keys = [k for k in _keys(remaining) if k not in chosen and _varies(remaining, k)]
    if not open_keys:
        return [], []
    joint, combos = open_keys[:1], None
    # A key joins the step only where no kind of action holding it asks a later move's key before it: a run of
    # Druids plays asks both cards before either place, so a place is not asked beside "Ask for a scoring"'s.
    shapes = [[k for k in shape if k in open_keys] for shape in dict.fromkeys(map(tuple, remaining))]
    waiting = open_keys[1:]
    while (key := _next_to_join(waiting, shapes, joint)) is not None:
        wider = _distinct(remaining, [*joint, key], limit)
        if len(wider) > limit:
            break
        joint, combos = [*joint, key], wider
        waiting.remove(key)
    if len(joint) > 1 and [k for k in open_keys if k not in joint] == [ENDING]:
        joint, combos = joint[:-1], None  # an ending is asked with the run's last choice, never on its own
    return joint, _distinct(remaining, joint) if combos is None else combos


def _pick(
    remaining: list[Action], chosen: dict[str, Any], joint: list[str], picked: tuple[Any, ...]
) -> list[Action]:
    """The actions left once `picked` is chosen for `joint`; `chosen` is updated."""
    # A parameter the picked actions lack is not "chosen" (labels would have nothing to name).
    chosen.update((k, v) for k, v in zip(joint, picked, strict=True) if v is not None)
    return [a for a in remaining if tuple(map(a.get, joint)) == picked]


def narrow(
    actions: list[Action], path: list[int], limit: int = COMBINE_LIMIT, start: Prompt | None = None
) -> Prompt | Chosen:
    """The step after the choices in `path`, from the first step or from `start`, a step this narrowing of
    `actions` reached before (the choices in `path` are then the ones made after it)."""
    if start is not None and start.narrowing is not None:
        remaining, settled, joint, combos = start.narrowing
        chosen = dict(settled)
    elif not actions:
        raise PathError("no legal action")
    else:
        remaining, chosen = list(actions), {}
        joint, combos = _step(remaining, chosen, limit)
    for index in path:
        if not joint:
            raise PathError("path longer than the choice")
        if not 0 <= index < len(combos):
            raise PathError("choice out of range")
        remaining = _pick(remaining, chosen, joint, combos[index])
        joint, combos = _step(remaining, chosen, limit)
    if not joint:  # every remaining action is the same one
        return Chosen(remaining[0])
    values: list[Any] = combos if len(joint) > 1 else [combo[0] for combo in combos]
    shown = {**chosen, **_implied_kinds(remaining, joint)}
    return Prompt(JOIN.join(joint), values, shown, (remaining, dict(chosen), joint, combos))


def _implied_kinds(remaining: list[Action], joint: list[str]) -> dict[str, Any]:
    """The kind of a later move of a chain where every remaining choice makes the same kind there, so nothing
    asks it: its labels name the kind all the same ("Develop … → Recruit · Genes die", not "→ Genes die")."""
    first = remaining[0]
    return {
        key: first[key]
        for key in first
        if key not in joint and chain_depth(key) > 0 and key.endswith(".type") and not _varies(remaining, key)
    }


def path_to(actions: list[Action], action: Action, limit: int = COMBINE_LIMIT) -> list[int]:
    """The choices that lead to `action` (one of `actions`)."""
    if not actions:
        raise PathError("no legal action")
    remaining = list(actions)
    chosen: dict[str, Any] = {}
    path: list[int] = []
    while (step := _step(remaining, chosen, limit))[0]:
        joint, combos = step
        wanted = tuple(action.get(k) for k in joint)
        index = next(i for i, combo in enumerate(combos) if combo == wanted)
        path.append(index)
        remaining = _pick(remaining, chosen, joint, combos[index])
    if remaining[0] != action:
        raise PathError("not one of the actions")
    return path


def clicks(actions: list[Action], action: Action, limit: int = COMBINE_LIMIT) -> int:
    """How many clicks the picker takes to play `action`: one per step, or the one button of a forced action."""
    return max(1, len(path_to(actions, action, limit)))


# --- chains of actions ------------------------------------------------------------------------------------------


def joint_values(key: str, value: Any) -> dict[str, Any]:
    """A step's choice as its parameters: a joint key's value is a tuple, one parameter's the value itself."""
    keys = key.split(JOIN)
    return dict(zip(keys, value if len(keys) > 1 else (value,), strict=True))


def joint_choice(params: dict[str, Any]) -> tuple[str, Any]:
    """Parameters as a step's key and choice (the inverse of joint_values)."""
    values = tuple(params.values())
    return JOIN.join(params), values if len(values) > 1 else values[0]


def split(action: Action) -> list[Action]:
    """A picked (possibly chained) action as the engine's actions, in the order to apply them."""
    parts: list[Action] = []
    rest = {k: v for k, v in action.items() if k not in (SUGGESTED, ENDING)}
    while rest:
        parts.append({k: v for k, v in rest.items() if not k.startswith(THEN)})
        rest = {k[len(THEN) :]: v for k, v in rest.items() if k.startswith(THEN)}
    return parts + [dict(part) for part in action.get(ENDING, ())]


def playable(engine: Engine, state: State, seat: int, action: Action) -> bool:
    """Whether the engine allows every part of a picked action now, one after the other."""
    try:
        for part in split(action):
            state, _ = engine.apply(state, seat, part)
    except IllegalAction:
        return False
    return True


def _chained_key(depth: int, key: str) -> str:
    # Interned: a Druids turn offers some 1,500 runs with the same few chained keys, kept by the picker and sent
    # back from the worker; one string per key (pickle writes a repeated object once) keeps both small.
    return sys.intern(THEN * depth + key)


def chain(first: Action, then: Action) -> Action:
    return {**first, **{_chained_key(1, k): v for k, v in then.items()}}


def _chainable(
    engine: Engine, before: State, after: State, seat: int, action: Action, events: list[Event]
) -> bool:
    """Whether the mover's next choice after `action` can be offered with it: the move draws on no chance,
    tells nobody anything new (no revealing event, no private event beyond an echo of the move), does not end
    the game, and leaves the mover among those to act with no one else given a chance to react."""
    return _quiet(before, after, seat, action, events, engine) and _leads_on(engine, after, seat)


def _leads_on(engine: Engine, after: State, seat: int) -> bool:
    """Whether the game goes on with the mover to act and no one else given a chance to react."""
    return engine.outcome(after) is None and seat in engine.to_act(after) and not engine.reaction_seats(after)


def _quiet(
    before: State, after: State, seat: int, action: Action, events: list[Event], engine: Engine
) -> bool:
    """Whether `action` draws on no chance and tells nobody anything new: no revealing event, no private event
    beyond an echo of the move."""
    if after.get("rng") != before.get("rng"):
        return False
    known = list(action.values())  # what the mover's choice and the public events show
    echoed: list[Any] = []  # what the private events tell the mover
    for event in events:
        if event["type"] in engine.revealing_events:
            return False
        if "private" not in event:
            known += event.values()
        elif event["private"] != [seat]:
            return False
        else:
            echoed += [v for k, v in event.items() if k not in ("type", "seat", "private")]
    return all(_known(value, known) for value in echoed)


def _known(value: Any, known: list[Any]) -> bool:
    """Whether `value` is one of `known` as shown to players, by repr (the same object needs no repr)."""
    return any(value is k for k in known) or repr(value) in map(repr, known)


def _follow_ups(engine: Engine, state: State, seat: int, action: Action) -> tuple[State, list[Action], bool]:
    """The game after `action` (one of the legal actions of a seat that may act), the moves that may follow it
    in one chain, and whether the move draws on no chance and shows nothing new (`_quiet`)."""
    after = engine.copy_state(state)
    events = engine.advance(after, seat, action)  # apply's checks would work out the legal actions again
    quiet = _quiet(state, after, seat, action, events, engine)
    if not quiet or not _leads_on(engine, after, seat):
        return after, [], quiet
    return (
        after,
        [then for then in engine.legal_actions(after, seat) if then["type"] not in engine.undoing_moves],
        quiet,
    )


class _Ends:
    """Where the chains offered so far leave the game, for leaving out a chain that ends like the game as it is
    or like an earlier chain: Roll for the Galaxy's "recruit, then end managing" beside "recruit, then manage
    the rest" with nothing left to manage, two reclaims in either order. A chain with chance in it, or showing
    anything, is offered even where it happens to end alike (both moves lose the fight): telling such chains
    apart by their end would show the dice."""

    def __init__(self, engine: Engine, start: State, seat: int) -> None:
        self.engine, self.seat, self.seen = engine, seat, [engine.settled(start)]

    def reached(self, end: State) -> None:
        """A move offered alone ends here (one that draws on no chance and shows nothing)."""
        self.seen.append(self.engine.settled(end))

    def new(self, after: State, then: Action) -> bool:
        end = self.engine.copy_state(after)
        events = self.engine.advance(end, self.seat, then)  # a legal move, on a state of our own
        if not _quiet(after, end, self.seat, then, events, self.engine):
            return True
        settled = self.engine.settled(end)
        if any(settled == seen for seen in self.seen):
            return False
        self.seen.append(settled)
        return True


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


def offers_whole_turns(engine: Engine) -> bool:
    """Whether the picker offers whole runs of the mover's moves: up to half a second to work out (Druids)."""
    return bool(engine.unordered_moves or engine.blind_repeats)


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
    only combine actions the engine allows one after the other. For an engine that says which of its moves may
    be asked as a set or drawn blind, whole runs of the mover's moves are offered instead (`turn_runs`)."""
    if actions is None:
        actions = engine.legal_actions(state, seat)
    if seat not in engine.to_act(state):  # side actions out of turn ("take back my ready"): each on its own
        return actions
    if engine.mirrored_moves:  # each pair both ways, so either of the two may be picked first; each mirror
        # beside its move, so a menu keeps the moves' order ("No attribute action" stays last)
        actions = [part for a in actions for part in (a, engine.mirror(a)) if part is not None]
    if offers_whole_turns(engine):
        plan = suggestion(engine, state, seat) if suggest and actions else None
        runs, ended = turn_runs(engine, state, seat, actions)
        offered = [_as_chain(run, engine.unordered_moves) for run in runs]
        if suggest and ended:
            full = offered + [{**offered[index], ENDING: tuple(ending)} for index, ending in ended]
            # An ending rides along with a run's last choice; where that choice leaves it no room, the run
            # stopped before it would cost one click more, so no ending is offered.
            stopped = offered[ended[0][0]]
            if len(path_to(full, stopped, limit)) <= len(path_to(offered, stopped, limit)):
                offered = full
        return [plan, *offered] if plan is not None else offered
    ahead = [_follow_ups(engine, state, seat, a) for a in actions] if len(actions) < limit else []
    follow = [then for _, then, _ in ahead]
    # A suggestion is a run of moves of one kind, so it needs a move that another of its kind can follow: where
    # the follow-ups are known and none is, the built-in player is not asked (a millisecond in Roll Player).
    of_a_kind = not follow or any(
        any(then["type"] == action["type"] for then in after)
        for action, after in zip(actions, follow, strict=True)
    )
    plan = suggestion(engine, state, seat) if suggest and actions and of_a_kind else None
    # Chain the moves with the fewest next choices first, as far as one select menu allows.
    chained: set[int] = set()
    total = len(actions)
    for index in sorted(range(len(follow)), key=lambda i: len(follow[i])):
        if follow[index] and total - 1 + len(follow[index]) <= limit:
            total += len(follow[index]) - 1
            chained.add(index)
    offered: list[Action] = []
    ends = _Ends(engine, state, seat)
    for after, then, quiet in ahead:
        # nothing can follow such a move, so it is offered alone: a chain that ends alike adds nothing
        if quiet and not then:
            ends.reached(after)
    for index, action in enumerate(actions):
        if index in chained:
            chains = [chain(action, then) for then in follow[index] if ends.new(ahead[index][0], then)]
            offered += chains or [action]  # each chain ends like another: the move alone still leads on
        else:
            offered.append(action)
    return [plan, *offered] if plan is not None else offered


# --- whole runs of a turn ---------------------------------------------------------------------------------------

MAX_RUNS = 1000  # the most runs offered at once: the picker narrows them again on every click


@dataclass
class _Run:
    parts: list[Action]
    before: State  # the state its last part is applied to
    open: bool = True  # whether the mover's next move may still be added to it


def turn_runs(
    engine: Engine, state: State, seat: int, actions: list[Action], cap: int = MAX_RUNS
) -> tuple[list[list[Action]], list[tuple[int, list[Action]]]]:
    """Runs of the mover's own moves to offer as one choice each, grown one move at a time while every run so far
    leaves nothing to chance or newly shown (`_chainable`) and the runs number at most `cap`:

    - a run of `engine.unordered_moves` is offered in one order only (each move no smaller than the one before),
      since any order ends the same way, so two plays from seven cards are 21 pairs rather than 42 sequences;
    - a move of `engine.blind_repeats` ends a run: offered once ("draw one, then look"), and where it is the
      mover's only move or they could do something else, also repeated until the turn moves on ("draw until
      full"). Its repetitions are found on the real state but only their number, which the rules make public,
      goes into the run, so nothing drawn is shown before the mover commits.

    Also returned: for runs the cap stopped, the moves that would end them the way the built-in player would
    (as (index of the stopped run, its ending)), so that an ordinary turn can be one choice. Runs with the same
    next moves and the same hand (they differ only in where earlier cards went) share one ending, worked out
    once."""
    runs = _then(engine, state, seat, [], actions, len(actions) > 1)
    stopped: list[tuple[_Run, State, list[Action]]] = []
    while any(run.open for run in runs):
        grown: list[_Run] = []
        stopped = []
        for run in runs:
            if not run.open:
                grown.append(run)
                continue
            after, moves, choice = _next_moves(engine, run, seat)
            if after is None:
                grown.append(_Run(run.parts, run.before, open=False))
            else:
                if len(grown) <= cap:  # past the cap, this round is dropped but for the runs it stopped
                    grown += _then(engine, after, seat, run.parts, moves, choice)
                stopped.append((run, after, moves))
        if len(grown) > cap:
            break
        runs, stopped = grown, []
    index = {id(run): i for i, run in enumerate(runs)}
    endings: dict[bytes, list[Action]] = {}
    ended: list[tuple[int, list[Action]]] = []
    for run, after, moves in stopped:
        # Equal exactly when the reprs are (plain data, marshal's version 0 has no back-references), and cheaper.
        key = marshal.dumps((moves, engine.viewed_hand(after, seat)), 0)
        if key not in endings:
            endings[key] = _ending(engine, after, seat)
        if endings[key]:
            ended.append((index[id(run)], endings[key]))
    return [run.parts for run in runs], ended


def _ending(engine: Engine, state: State, seat: int) -> list[Action]:
    """The built-in player's moves from `state` while they show nothing new, ending with its last such move or
    with a blind repeat made until the turn moves on."""
    parts: list[Action] = []
    while len(parts) < MAX_SUGGESTED:
        move = engine.bot_action(state, seat, 0)
        if move["type"] in engine.blind_repeats:
            return parts + [move] * engine.repeat_count(state, seat, move, MAX_SUGGESTED)
        after, events = engine.apply(state, seat, move)
        parts.append(move)
        if not _chainable(engine, state, after, seat, move, events):
            break
        state = after
    return parts


def _next_moves(engine: Engine, run: _Run, seat: int) -> tuple[State | None, list[Action], bool]:
    """The state after `run`, the moves that may follow it within the run, and whether the mover has other moves
    than one; no state if the run must end here, and no moves if it need not be offered at all."""
    last = run.parts[-1]
    after, events = engine.apply(run.before, seat, last)
    if not _chainable(engine, run.before, after, seat, last, events):
        return None, [], False
    moves = engine.legal_actions(after, seat)
    if not moves:
        return None, [], False
    choice = len(moves) > 1
    if last["type"] in engine.unordered_moves and any(m["type"] == last["type"] for m in moves):
        # A smaller partner of `last` comes before it, in that partner's runs, which cover this one.
        order = _order(last)
        moves = [m for m in moves if m["type"] != last["type"] or _order(m) >= order]
    return after, moves, choice


def _then(
    engine: Engine, state: State, seat: int, parts: list[Action], moves: list[Action], choice: bool
) -> list[_Run]:
    """The runs `parts` grows into with each of `moves`; `choice`: whether the mover has more than one move
    (some may be left out of `moves` as covered by other runs), so that a blind repeat made once leaves them
    something to choose after looking (draw one gem, then take the smaller Follower as well)."""
    out: list[_Run] = []
    for move in moves:
        if move["type"] not in engine.blind_repeats:
            out.append(_Run([*parts, move], state))
            continue
        repeats = engine.repeat_count(state, seat, move, MAX_SUGGESTED)
        if repeats > 1:
            out.append(_Run([*parts] + [move] * repeats, state, open=False))
        if repeats == 1 or choice:
            out.append(_Run([*parts, move], state, open=False))
    return out


def _order(action: Action) -> list[tuple[str, str]]:
    return sorted(zip(action, map(repr, action.values()), strict=True))


def _as_chain(parts: list[Action], unordered: frozenset[str]) -> Action:
    """A run as one flat action, its leading run of unordered moves asked parameter by parameter (both cards,
    then where each goes) rather than move by move."""
    flat: dict[str, Any] = {}
    lead = 1
    if parts[0]["type"] in unordered:
        while lead < len(parts) and parts[lead]["type"] == parts[0]["type"]:
            lead += 1
    for key in parts[0]:
        for depth in range(lead):
            flat[_chained_key(depth, key)] = parts[depth][key]
    for depth in range(lead, len(parts)):
        flat.update((_chained_key(depth, key), value) for key, value in parts[depth].items())
    return flat


def encode_path(path: list[int]) -> str:
    return ".".join(str(i) for i in path)


def decode_path(text: str) -> list[int]:
    if not text:
        return []
    try:
        return [int(part) for part in text.split(".")]
    except ValueError:
        raise PathError("malformed path") from None
