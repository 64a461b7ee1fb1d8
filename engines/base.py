"""The engine contract every hosted game implements.

A game state is plain JSON-compatible data (dicts, lists, str, int, bool, None) that includes its own PRNG state,
so engines are pure and deterministic: the same seed and the same actions always give the same game. Engines speak
in seats (0..n-1) and in codes; the bot turns seats into people and codes into words.

A view is what one viewer may see of a state; it has its own type (View), so that handing a renderer or a
presenter the whole state, hidden cards included, is a type error. Each engine declares where its state holds
what not everyone may see (`secrets`), and the conformance suite changes exactly those values to check the views.

Actions and events are flat dicts with a "type" key. Action parameters are scalars, so any action can be chosen one
parameter at a time from the legal list (that is how the bot builds its buttons). An event may carry
"private": [seats] when only those seats may see it; every other event is public.
"""

from __future__ import annotations

import marshal
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar, NamedTuple, NewType

import orjson

from engines.rng import Rng

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
View = NewType("View", dict[str, Any])  # engines wrap what `view` returns: View({...})
Path = tuple[str | int, ...]  # keys and list indexes from the top of a state down to one value


class Secret(NamedTuple):
    """One value of a state that not everyone may see."""

    owner: int | None  # the one seat that may see it; None: nobody (deck order, what is yet to be dealt)
    path: Path
    values: Sequence[Any]  # what it could be as far as the others know (the conformance suite swaps these in)


class IllegalAction(Exception):
    """An action the rules do not allow. `code` is stable and language-free; `params` fill in the message."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params
        self.engine: str | None = None  # which game refused; filled in by the host for its messages

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.params!r})"


@dataclass(frozen=True)
class Option:
    """A game option chosen when a game is created (a variant, a rule switch)."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()  # empty: any value of the default's type
    provisional: bool = False
    span: tuple[int, int] | None = None  # a number's least and greatest values

    def parse(self, raw: Any) -> Any:
        kind = type(self.default)
        if kind is bool and isinstance(raw, str):
            lowered = raw.strip().lower()
            if lowered not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                raise IllegalAction("bad_option_value", option=self.name, value=raw)
            value: Any = lowered in ("true", "yes", "on", "1")
        else:
            try:
                value = kind(raw)
            except (TypeError, ValueError):
                raise IllegalAction("bad_option_value", option=self.name, value=raw) from None
        if self.choices and value not in self.choices:
            raise IllegalAction("bad_option_value", option=self.name, value=raw)
        if self.span and not self.span[0] <= value <= self.span[1]:
            low, high = self.span
            raise IllegalAction("option_out_of_span", option=self.name, value=raw, low=low, high=high)
        return value


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: final scores (higher is better) and the winning seats (several on a tie)."""

    scores: list[int | float]
    winners: list[int]
    details: dict[str, Any] = field(default_factory=dict)


PASS_TYPES = frozenset({"pass", "decline", "skip", "end_turn"})


def clone(data: Any) -> Any:
    """A deep copy of plain data, much faster than copy.deepcopy."""
    return marshal.loads(marshal.dumps(data))


class Engine(ABC):
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    schema_version: ClassVar[int] = 1
    # How a game stored under an older schema is brought up to date: upgrades[n] turns schema n into n + 1.
    upgrades: ClassVar[dict[int, Callable[[State], State]]] = {}
    options: ClassVar[tuple[Option, ...]] = ()
    # Whether a seat's own turn may come to a moment whose only choice is to let it pass, offered because what
    # could be done there is private (Talisman: Spells held, none of which fits); reactions always may.
    passing_moments: ClassVar[bool] = False

    # --- what each game implements -------------------------------------------------------------------------------

    @abstractmethod
    def new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        """Set up a game for `players` seats; `options` are already validated."""

    @abstractmethod
    def to_act(self, state: State) -> list[int]:
        """The seats that may act now (several in simultaneous phases); empty when the game is over."""

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action `seat` may take now; empty when it may not act."""

    @abstractmethod
    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Carry out a legal action on `state` (a private copy, to mutate) and return the events it caused."""

    @abstractmethod
    def view(self, state: State, viewer: int | None) -> View:
        """What `viewer` may see (None: a spectator or the public channel). Must include "to_act"."""

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def shuffle_hidden(self, state: State, seat: int, seed: int) -> State:
        """A copy of `state` in which what `seat` cannot see is re-dealt at random (hands, deck orders, hidden
        cards), consistent with everything `seat` can see. The conformance suite checks the view is unchanged."""

    def reseeded(self, state: State, seed: int) -> State:
        """`state` with a fresh source of chance (every engine keeps its generator's state at "rng"), for a move
        taken back after it drew on chance: the rolls and draws to come are not the ones it showed. An engine
        with decks dealt in advance shuffles with it what nobody has seen of them."""
        return {**state, "rng": Rng.from_seed(seed).state}

    @abstractmethod
    def secrets(self, state: State) -> list[Secret]:
        """Every value of `state` that not everyone may see, with its owner: changing a secret must leave the
        view of every other seat and the public view unchanged. Counts and whether something is there at all
        are public; only the hidden values are secrets."""

    def player_count(self, state: State) -> int:
        """Every state stores its number of seats under "players"."""
        return int(state["players"])

    # Events that show someone something they could not see before, including new facts only the mover learns.
    revealing_events: ClassVar[frozenset[str]] = frozenset()
    # Move types that one seat may make one after another, with nothing shown between them, to the same effect in
    # either order (Druids' two plays of a turn): a move picker may ask for such a run as a set of moves.
    unordered_moves: ClassVar[frozenset[str]] = frozenset()
    # Move types that show only their mover what they drew, and whose repetition until the mover's turn moves on
    # is legal, and as long, whatever was drawn (Druids' refills from the gem deck): a move picker may offer "draw
    # until full" as one choice, besides drawing one at a time.
    blind_repeats: ClassVar[frozenset[str]] = frozenset()
    # Move types that take back the move before them (Talisman's "cancel" of a Spell being cast): a move picker
    # never offers one chained after that move, a choice that would do nothing.
    undoing_moves: ClassVar[frozenset[str]] = frozenset()
    # Move types with two parameters that may be given in either order to the same effect (Roll Player's swap of
    # two dice): `legal_actions` lists each pair once, `is_legal` takes either order, and a move picker offers
    # both, so that a player may pick either die first.
    mirrored_moves: ClassVar[dict[str, tuple[str, str]]] = {}

    # The game's built-in player: a module with `choose(view, actions, rng) -> Action` that reads only the seat's
    # view, and optionally `evaluate(view) -> float` (how well the viewer stands, for the search player) and
    # `ranked(view, actions, rng) -> list[Action]` (best first, to narrow the search). None: random play.
    autoplayer: ClassVar[ModuleType | None] = None
    # Simulated moves the hard player spends on one 2-player decision (bounds its thinking time; with more seats
    # each move costs more, so the default budget shrinks in proportion), and the longest look-ahead before the
    # position is judged by `evaluate`.
    search_budget: ClassVar[int] = 2000
    search_depth: ClassVar[int] = 40

    def bot_action(
        self, state: State, seat: int, seed: int, level: str = "easy", budget: int | None = None
    ) -> Action:
        """The built-in player's choice for `seat` (empty seats, leavers, missed deadlines, demos).

        level "easy" asks the game's autoplayer for its heuristic choice from the seat's view; "hard" searches
        (engines.search) over positions consistent with that view, spending `budget` simulated moves (default
        `search_budget`, scaled by 2 / seats). Both are pure and give the same action for the same state, seat
        and seed."""
        from engines.rng import Rng

        actions = self.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        if level == "hard":
            from engines.search import search

            if budget is None:
                budget = self.search_budget * 2 // max(2, self.player_count(state))
            return search(self, state, seat, seed, budget)
        if level != "easy":
            raise ValueError(f"unknown bot level {level!r}")
        if self.autoplayer is None:
            return Rng.from_seed(seed).choice(actions)
        return self.autoplayer.choose(self.view(state, seat), actions, Rng.from_seed(seed))

    def side_actions(self, state: State, seat: int) -> list[Action]:
        """Actions open to a seat that is not among those to act (e.g. taking back a "ready" in a simultaneous
        phase). Empty for most games."""
        return []

    def reaction_seats(self, state: State) -> list[int]:
        """Seats being offered a chance to react during someone else's turn (e.g. a spell to cast). The host
        answers for them with `pass_action` once a short window passes, so a game never waits forever."""
        return []

    def interrupted_turn(self, state: State) -> int | None:
        """While a chance to react is open (`reaction_seats`): the seat whose turn it interrupts, which acts again
        once it closes. None where no turn waits on it."""
        return None

    def notice_stretch(self, state: State) -> str | None:
        """A name for the stretch of play the game is in, for games where one wait follows another within a
        round (Roll for the Galaxy's phases): the host tells each player once per stretch that they must act,
        instead of at every new wait. None: every new wait is told."""
        return None

    def pass_action(self, state: State, seat: int) -> Action | None:
        """The action that does nothing, where the rules allow one (what a missed deadline plays first)."""
        return next((a for a in self.legal_actions(state, seat) if a["type"] in PASS_TYPES), None)

    def reveals(self, before: State, after: State, seat: int, events: list[Event]) -> bool:
        """Whether `seat`'s move drew on chance or showed anyone hidden information (a private event for another
        seat, or one of `revealing_events`): such a move is not taken back without the other players' consent."""
        if before.get("rng") != after.get("rng"):
            return True
        return any(
            e["type"] in self.revealing_events or set(e.get("private", [seat])) - {seat} for e in events
        )

    def copy_state(self, state: State) -> State:
        """A deep copy of `state` for `apply` to change. Engines whose moves are looked ahead by the thousand (the
        Druids picker) override it with a faster copy of their own state's shape."""
        return clone(state)

    def repeat_count(self, state: State, seat: int, action: Action, limit: int) -> int:
        """How many times in a row `seat` can make `action` before its turn moves on (at most `limit`): for the
        moves of `blind_repeats`, which an engine may count without making them."""
        count = 0
        while count < limit and seat in self.to_act(state) and action in self.legal_actions(state, seat):
            state, _ = self.apply(state, seat, action)
            count += 1
        return count

    def viewed_hand(self, state: State, seat: int) -> Any:
        """What `view(state, seat)` shows under "hand" (None: no hand), which an engine may work out without
        the rest of the view."""
        return self.view(state, seat).get("hand")

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        """Whether `seat` may take `action` now (`seat` is known to be one that may act): one of legal_actions, or
        the mirror of one (see `mirrored_moves`). Engines with many legal actions override this with a direct
        check; it must agree with legal_actions."""
        legal = self.legal_actions(state, seat)
        return action in legal or self.mirror(action) in legal

    def settled(self, state: State) -> Any:
        """`state` as far as the game is concerned, for telling whether two ways of playing end alike: an engine
        whose state keeps an order that no rule reads (a discard pile shuffled before reuse) drops it here."""
        return state

    def mirror(self, action: Action) -> Action | None:
        """`action` with its two parameters the other way round, if it is one of `mirrored_moves`."""
        keys = self.mirrored_moves.get(action.get("type"))  # type: ignore[arg-type]
        if keys is None:
            return None
        first, second = keys
        return {**action, first: action[second], second: action[first]}

    def explain_illegal(self, state: State, seat: int, action: Action) -> IllegalAction:
        """Why `action` is not legal, as specifically as the engine can say. Engines override for clearer codes."""
        return IllegalAction("illegal_action")

    # --- shared behaviour ----------------------------------------------------------------------------------------

    def validate_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        known = {opt.name: opt for opt in self.options}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise IllegalAction("unknown_option", option=unknown[0])
        return {name: (opt.parse(raw[name]) if name in raw else opt.default) for name, opt in known.items()}

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction(
                "bad_player_count", players=players, min=self.min_players, max=self.max_players
            )

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Return the next state and its events; the input state is never changed."""
        if self.outcome(state) is not None:
            raise IllegalAction("game_over")
        if seat not in self.to_act(state):
            if isinstance(action, dict) and action in self.side_actions(state, seat):
                after = self.copy_state(state)
                return after, self._apply(after, seat, action)
            raise IllegalAction("not_your_turn")
        if not isinstance(action, dict) or not self.is_legal(state, seat, action):
            raise self.explain_illegal(state, seat, action if isinstance(action, dict) else {})
        after = self.copy_state(state)
        events = self._apply(after, seat, action)
        return after, events

    def advance(self, state: State, seat: int, action: Action) -> list[Event]:
        """`apply` for a caller that owns `state` and took `action` from `legal_actions(state, seat)` for a seat
        that may act (a search's look-ahead): `state` itself becomes the next state, with neither a copy nor the
        checks `apply` makes, which would cost as much as the move itself. Returns the move's events."""
        return self._apply(state, seat, action)

    def dump(self, state: State) -> str:
        # orjson: a fifth of the standard library's CPU on every commit; integer keys become strings as there
        return orjson.dumps(
            {"engine": self.name, "schema": self.schema_version, "state": state},
            option=orjson.OPT_NON_STR_KEYS,
        ).decode()

    def load(self, text: str) -> State:
        data = orjson.loads(text)
        if data.get("engine") != self.name:
            raise ValueError(f"state belongs to {data.get('engine')!r}, not {self.name!r}")
        schema, state = data.get("schema"), data["state"]
        while schema != self.schema_version:
            if schema not in self.upgrades:
                raise ValueError(f"{self.name} state schema {schema} cannot become {self.schema_version}")
            state, schema = self.upgrades[schema](state), schema + 1
        return state


def visible_to(event: Event, viewer: int | None) -> bool:
    """Whether `viewer` (None: the public) may see `event`."""
    private = event.get("private")
    return private is None or (viewer is not None and viewer in private)
