"""What the bot needs from each game beyond its engine: words for its actions and events, and its pictures."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from bot import i18n
from bot.chooser import ENDING, JOIN, SUGGESTED, THEN, chain_depth, joint_values, split
from engines import get_engine
from engines.base import Action, Event, IllegalAction, Option, View, visible_to

OPTION_ERRORS = ("unknown_option", "bad_option_value", "option_out_of_span")
END_OF_TURN = " ⏭ "  # before a run's ending (the rest of the turn as the built-in player would play it): an
# arrow there read as one more step, like the arrows between a chain's moves
LABEL_LIMIT = 100  # a select option's label
ARROW = " → "  # between the moves of a chain, in its label
DOT = " · "  # between the things a move names


class GamePresenter:
    """Turns one engine's codes into words and its views into images. Subclasses fill in the game's specifics."""

    engine_name: str
    render_table_fn: Callable[[View, list[str], str], bytes]
    render_private_fn: Callable[[View, str], bytes | None] | None = None
    # What the private picture draws of a seat's view (which holds the whole public table too): the picture is
    # drawn again, and the seat's DM edited, only when this changes. None: the whole view.
    private_shows_fn: Callable[[View], Any] | None = None
    # One player's whole sheet from the public view, for games whose table shows only a summary of each.
    render_sheet_fn: Callable[[View, int, list[str], str], bytes] | None = None
    # Parameters whose label another parameter's label already contains, in a step that asks both at once.
    said_by: dict[str, str] = {}
    # Whether a chained move's kind is named where every choice of a step shares it and so nothing asks it: for
    # games whose later values alone could belong to several kinds of move (a die recruited or produced with).
    names_shared_kinds = False
    # Public events that a private event of the same move tells its mover in full ("Ana plays a gem face down"
    # beside "You played Onyx 2"): the mover's confirmation gives only the private one.
    private_twins: dict[str, str] = {}

    def __init__(self) -> None:
        self.engine = get_engine(self.engine_name)
        strings = json.loads(
            resources.files("bot.games").joinpath(f"{self.engine_name}.json").read_text("utf-8")
        )
        for locale, entries in strings.items():
            i18n.add_catalog(locale, {f"{self.engine_name}.{key}": text for key, text in entries.items()})

    def t(self, key: str, locale: str, **params: Any) -> str:
        return i18n.t(f"{self.engine_name}.{key}", locale, **params)

    def has(self, key: str) -> bool:
        return i18n.has(f"{self.engine_name}.{key}")

    def title(self, locale: str) -> str:
        """The game's name, from its string file."""
        return self.t("title", locale)

    def move_kind_named(self, typed: str, locale: str) -> str | None:
        """The kind of move whose own name (a button's word, "Ready") is `typed` (casefolded); None if none is."""
        prefixes = (f"{self.engine_name}.type.", f"{self.engine_name}.action.")
        for key, text in i18n.entries(locale).items():
            if key.startswith(prefixes) and isinstance(text, str) and text.casefold() == typed:
                return key.rpartition(".")[2]
        return None

    # --- choosing actions -----------------------------------------------------------------------------------------

    def prompt_text(
        self, key: str, locale: str, chosen: dict[str, Any] | None = None, view: View | None = None
    ) -> str:
        """The question of one picker step. A joint step (each option a whole move: "Attack · Elf (D) · Strength")
        asks only its first part's question, which its options' labels lead with: stacked, its questions read as a
        form ("Which space? / What do you do? / Whom? / How do you attack?"). Games may name in it what was chosen
        before (`chosen`, in `view`)."""
        for part in key.split(JOIN):
            if part == ENDING:
                return i18n.t("chooser.ending", locale)
            part = bare_key(part)
            if self.has(f"prompt.{part}"):
                return self.t(f"prompt.{part}", locale)
        return i18n.t("chooser.choose", locale)

    def value_label(self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str) -> str:
        """The label of one choice of a picker step: a single parameter's value, or for a joint step (key
        "a+b", value a tuple) each parameter's, with a chained action's parts joined by an arrow."""
        return self.value_labels(key, [value], chosen, view, locale)[0]

    def value_labels(
        self, key: str, values: list[Any], chosen: dict[str, Any], view: View, locale: str
    ) -> list[str]:
        """Every choice of a step, all in one form where that can be: with the kinds of moves where every label
        has room for them, else all without where they still tell every choice apart (a menu mixing "Take a
        card · 4 → Place the die" with "4 → Strength" reads as two kinds of choice), else each as it fits."""
        labels = [self.label_text(key, value, chosen, view, locale, with_types=True) for value in values]
        if all(len(label) <= LABEL_LIMIT for label in labels):
            return [self._fitted(label, locale) for label in labels]
        # the other parameters mostly say what kind of move it is
        bare = [self.label_text(key, value, chosen, view, locale, with_types=False) for value in values]
        fitted = [self._fitted(label, locale) for label in bare]
        if all(bare) and len(set(fitted)) == len(fitted):
            return fitted
        mixed = [
            self._fitted(full, locale) if len(full) <= LABEL_LIMIT else short
            for full, short in zip(labels, fitted, strict=True)
        ]
        # Where two still read alike (a Trade and a Consume of the same good, without their kinds), each keeps
        # its kinds and every move in it gives up letters at its end instead.
        twice = {label for label in mixed if mixed.count(label) > 1}
        return [
            _squeezed(full) if label in twice else label for full, label in zip(labels, mixed, strict=True)
        ]

    def _fitted(self, label: str, locale: str) -> str:
        # A run stopped before its offered ending has nothing more to say.
        return i18n.clip(label, LABEL_LIMIT) or i18n.t("chooser.step_by_step", locale)

    def label_text(
        self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str, with_types: bool
    ) -> str:
        """A choice's label before it is cut to fit, with or without the kinds of its moves where it has other
        parameters to tell it by."""
        params = joint_values(key, value)
        context = {**chosen, **params}
        if context.get(SUGGESTED):  # the whole run, said at once
            return self.suggestion_label(context[SUGGESTED], locale)
        return self._joint_label(list(params), list(params.values()), context, view, locale, with_types)

    def _joint_label(
        self,
        keys: list[str],
        values: Any,
        context: dict[str, Any],
        view: View,
        locale: str,
        with_types: bool,
    ) -> str:
        parts: dict[int, list[str]] = {}
        ending = ""  # the run's last moves, told after everything else
        for part, part_value in zip(keys, values, strict=True):
            if part_value is None:  # a parameter this choice's action does not have
                continue
            if part == ENDING:
                ending = " → ".join(collapse([self.short_text(m, view, locale) for m in part_value]))
                continue
            depth, bare = chain_depth(part), bare_key(part)
            level = _level(context, depth)
            sayer = self.said_by.get(bare)
            if (sayer is not None and level.get(sayer) is not None) or (
                bare == "type" and not with_types and len(level) > 1
            ):
                continue
            parts.setdefault(depth, []).append(self.part_label(bare, part_value, level, view, locale))
        for depth, labels in parts.items():
            # a later move's kind every choice shares is not asked, yet says what the move is
            implied = THEN * depth + "type"
            if (
                self.names_shared_kinds
                and depth
                and with_types
                and implied in context
                and implied not in keys
            ):
                labels.insert(
                    0, self.part_label("type", context[implied], _level(context, depth), view, locale)
                )
        told = " → ".join(collapse([" · ".join(labels) for _, labels in sorted(parts.items())]))
        return f"{told}{END_OF_TURN}{ending}" if told and ending else told or ending

    def choice_facts(
        self, key: str, values: list[Any], chosen: dict[str, Any], view: View, locale: str
    ) -> list[str]:
        """Lines under a picker step's question with what its options do, where a label can only name them (a
        starting tile's powers). None by default."""
        return []

    def lone_choice_facts(self, action: Action, view: View, locale: str) -> list[str]:
        """Lines over the one button of a step with a single thing to do, where that button alone would puzzle
        (why the only choice is to do nothing). None by default."""
        return []

    def part_label(self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str) -> str:
        """One parameter's value in words; `chosen` holds the rest of the same action. Games override."""
        if key == "type":
            return self.t(f"type.{value}", locale)
        return str(value)

    def suggestion_label(self, events: list[Event], locale: str) -> str:
        """The built-in player's suggested run of moves (see bot.chooser.suggestion), from what it would do."""
        return i18n.t("chooser.suggested", locale, count=len(events))

    def suggestion_facts(
        self, key: str, values: list[Any], names: list[str], view: View, locale: str
    ) -> list[str]:
        """What a suggestion on offer would do, move by move, where its label only counts the moves ("Suggested:
        3 moves at once" was a blind commit to a review's player): from the events it would show the mover."""
        if SUGGESTED not in key.split(JOIN):
            return []
        for value in values:
            seen = joint_values(key, value)[SUGGESTED]
            counted = i18n.t("chooser.suggested", locale, count=len(seen or ()))
            if not seen or self.suggestion_label(seen, locale) != counted:
                continue
            texts = [self.event_text(event, names, view, locale) for event in self.condensed(list(seen))]
            return [i18n.t("chooser.suggested_fact", locale, moves=" ".join(text for text in texts if text))]
        return []

    def action_text(self, action: Action, view: View, locale: str) -> str:
        """One line naming the whole action (a chain: each of its actions), for autocomplete and buttons."""
        if action.get(SUGGESTED):
            return self.suggestion_label(action[SUGGESTED], locale)
        return " → ".join(collapse([self.single_action_text(part, view, locale) for part in split(action)]))

    def short_text(self, action: Action, view: View, locale: str) -> str:
        """An action in few words, for a run's ending: a move with nothing to choose by its type's name."""
        if len(action) == 1:
            return self.part_label("type", action["type"], action, view, locale)
        return self.single_action_text(action, view, locale)

    def single_action_text(self, action: Action, view: View, locale: str) -> str:
        params = {k: self.part_label(k, v, action, view, locale) for k, v in action.items() if k != "type"}
        key = f"action.{action['type']}"
        if self.has(key):
            return self.t(key, locale, **params)
        return " · ".join([self.t(f"type.{action['type']}", locale), *params.values()])

    def confirmation(
        self,
        events: list[Event],
        names: list[str],
        seat_view: View,
        locale: str,
        seat: int,
        actions: Sequence[Action] = (),
    ) -> str:
        """What the picker says once a move is committed, written from the events the engine returned for it
        (the dice, places and values as they were), never from the picker's own state: "Done: …" with what the
        mover did, then anything the move showed only to them, one line each. A move that shows nothing (a roll
        kept, a chance declined) is told by the committed `actions` themselves, as the picker labelled them."""
        own, followed, private = self._told(events, names, seat_view, locale, seat)
        prefix = i18n.t("chooser.done", locale, action="")
        labels = [self.action_text(action, seat_view, locale).removeprefix(prefix) for action in actions]
        chosen = " → ".join(label for label in labels if f"{label}: " != prefix)  # "Done: Done" not said
        if own:
            done = own
        elif followed:  # what was chosen, then what followed it (the next player's turn, a blow dealt)
            done = [f"{chosen.rstrip('.')}.", *followed] if chosen else followed
        else:  # what the move showed the mover alone, or else what was chosen (a roll kept shows nothing)
            done = private[:1] or [chosen]
        told = " ".join(text for text in done if text)
        text = "\n".join(
            [
                prefix + (told or i18n.t("chooser.done_quietly", locale)),
                *(t for t in private if t not in done),
            ]
        )
        return i18n.korean_self(text, names[seat]) if i18n.norm(locale) == "ko" else text

    def move_summary(self, events: list[Event], names: list[str], view: View, locale: str, seat: int) -> str:
        """The same, for others (a move played on a deadline, by the built-in player): what the seat did, from
        the events anyone may see, without a closing full stop (it goes inside a sentence). Only the seat's own
        lines, which name the seat: what followed for others is on the board. Empty for a move behind a screen."""
        own, _, _ = self._told([e for e in events if visible_to(e, None)], names, view, locale, seat)
        return " ".join(own).rstrip(".")

    def _told(
        self, events: list[Event], names: list[str], view: View, locale: str, seat: int
    ) -> tuple[list[str], list[str], list[str]]:
        """The lines of `events` the mover may see: the public ones up to the last about the mover (what they did,
        with what it did to others on the way: "Sam loses 1 life. Turn 19: Tom rolls 6"), empty when none is
        about the mover; the public ones about others; the private ones."""
        public: list[str] = []
        own_upto = 0
        others: list[str] = []
        private: list[str] = []
        told_privately = {e["type"] for e in events if e.get("private") and visible_to(e, seat)}
        for event in self.condensed(events):
            if not visible_to(event, seat) or self.private_twins.get(event["type"]) in told_privately:
                continue
            text = self.event_text(event, names, view, locale)
            if not text:
                continue
            if event.get("private"):
                private.append(text)
                continue
            public.append(text)
            if self.is_own_event(event, seat):
                own_upto = len(public)
            else:
                others.append(text)
        return public[:own_upto], others, private

    def is_own_event(self, event: Event, seat: int) -> bool:
        """Whether an event tells what the mover did (not what followed: a new round, the next player's roll)."""
        return event.get("seat") == seat

    # --- telling what happened ------------------------------------------------------------------------------------

    def condensed(self, events: list[Event]) -> list[Event]:
        """`events` as they are told: a run of like public happenings (a player's dice recruited one by one)
        folded into one, so that a board or a log says it in one line. The engine's record stays as it is."""
        told: list[Event] = []
        for event in events:
            told.append(event)
            while len(told) > 1 and not (told[-2].get("private") or told[-1].get("private")):
                if (one := self.joined(told[-2], told[-1])) is None:
                    break
                told[-2:] = [one] if one else []
        return told

    def joined(self, before: Event, event: Event) -> Event | None:
        """The public happenings `before` and then `event` told as one, {} when `event` undid `before`, or None
        when they are told apart."""
        return None

    def event_text(self, event: Event, names: list[str], view: View, locale: str) -> str | None:
        key = f"event.{event['type']}"
        if not self.has(key):
            return None
        params = {k: v for k, v in event.items() if k not in ("type", "private")}
        if "seat" in params:
            params["player"] = names[params["seat"]]
        return self.t(key, locale, **self.event_params(event, params, names, view, locale))

    def event_params(
        self, event: Event, params: dict[str, Any], names: list[str], view: View, locale: str
    ) -> dict[str, Any]:
        """Format event parameters for the text; games override to name cards, places, …"""
        return params

    def error_text(self, code: str, params: dict[str, Any], locale: str) -> str:
        if code in OPTION_ERRORS:  # the user's own words come back clipped, and the real options with them
            shown = {k: i18n.echo(v) for k, v in params.items()}
            refusal = i18n.t(f"error.{code}", locale, game=self.title(locale), **shown)
            return f"{refusal}\n{self.options_text(locale)}"
        if self.has(f"error.{code}"):
            return self.t(f"error.{code}", locale, **params)
        if i18n.has(f"error.{code}"):
            return i18n.t(f"error.{code}", locale, game=self.title(locale), **params)
        return i18n.t("error.illegal_action", locale)

    def status_text(self, view: View, names: list[str], locale: str) -> str:
        """A short line on what is happening now (whose turn and which step)."""
        return ""

    # --- options --------------------------------------------------------------------------------------------------

    def option_values(self, option: Option) -> list[Any]:
        """The values worth offering for an option: its choices, both sides of a switch, else its default."""
        if option.choices:
            return list(option.choices)
        if isinstance(option.default, bool):
            return [not option.default, option.default]
        return [option.default]

    def chosen_options(self, options: dict[str, Any], locale: str) -> list[str]:
        """The options a table set away from their defaults, each with what it means: '`sudden_death=true`: …'."""
        return [
            i18n.t(
                "options.chosen",
                locale,
                name=option.name,
                value=_option_word(options[option.name]),
                meaning=self.t(f"option.{option.name}", locale),
            )
            for option in self.engine.options
            if option.name in options and options[option.name] != option.default
        ]

    def option_line(self, option: Option, locale: str) -> str:
        meaning = self.t(f"option.{option.name}", locale)
        values = ", ".join(_option_word(v) for v in self.option_values(option))
        if isinstance(option.default, bool) or option.choices:
            return i18n.t(
                "options.line_values",
                locale,
                name=option.name,
                values=values,
                default=_option_word(option.default),
                meaning=meaning,
            )
        return i18n.t(
            "options.line", locale, name=option.name, default=_option_word(option.default), meaning=meaning
        )

    def options_text(self, locale: str) -> str:
        """Every option of the game with its meaning and default (for /rules options and refusals)."""
        game = self.title(locale)
        if not self.engine.options:
            return i18n.t("options.none", locale, game=game)
        lines = [f"• {self.option_line(option, locale)}" for option in self.engine.options]
        return "\n".join([i18n.t("options.header", locale, game=game), *lines])

    def option_suggestions(self, typed: str, locale: str) -> list[tuple[str, str]]:
        """Autocomplete for `options:`: (label, value) pairs that finish the option being typed after those
        already written, each label saying what the option means and its default."""
        done, _, current = typed.rpartition(",")
        prefix = f"{done.strip()}, " if done.strip() else ""
        written = {part.partition("=")[0].strip().lower() for part in done.split(",") if part.strip()}
        name_typed, has_value, value_typed = current.strip().partition("=")
        name_typed = name_typed.strip().lower()
        out: list[tuple[str, str]] = []
        for option in self.engine.options:
            if option.name in written:
                continue
            if has_value and option.name != name_typed:
                continue
            meaning = self.t(f"option.{option.name}", locale)
            # typed in the reader's words ("변형") or as the option's name
            if (
                not has_value
                and name_typed
                and name_typed not in option.name
                and name_typed not in meaning.lower()
            ):
                continue
            for value in self.option_values(option):
                word = _option_word(value)
                if has_value and value_typed.strip() and not word.startswith(value_typed.strip().lower()):
                    continue
                label = i18n.t(
                    "options.suggestion_default" if value == option.default else "options.suggestion",
                    locale,
                    name=option.name,
                    value=word,
                    # a switch's meaning is what turning it on does: "off" says only that
                    meaning=i18n.t("options.off", locale) if value is False else meaning,
                )
                out.append((i18n.clip(label, 100), i18n.clip(f"{prefix}{option.name}={word}", 100)))
        if not out and not self.engine.options:
            out.append((i18n.clip(i18n.t("options.none", locale, game=self.title(locale)), 100), ""))
        return out[:25]

    def check_options(self, raw: dict[str, Any]) -> None:
        """Refuse unknown options or values before a lobby opens, in this game's words (see error_text)."""
        try:
            self.engine.validate_options(raw)
        except IllegalAction as refusal:
            refusal.engine = self.engine_name
            raise

    # --- card lookup for /rules ---------------------------------------------------------------------------------

    def cards(self, locale: str) -> list[tuple[str, str]]:
        """(name, text) of every card or tile players may want to look up; games with card texts override."""
        return []

    def lookup_card(self, name: str, locale: str) -> tuple[str, str] | None:
        wanted = name.casefold().strip()
        for card_name, text in self.cards(locale):
            if card_name.casefold() == wanted:
                return card_name, text
        return None

    def suggest_cards(self, typed: str, locale: str) -> list[tuple[str, str]]:
        wanted = typed.casefold().strip()
        return [(name, name) for name, _ in self.cards(locale) if wanted in name.casefold()][:25]

    # --- pictures -------------------------------------------------------------------------------------------------

    def render_table(self, view: View, names: list[str], locale: str) -> bytes:
        return type(self).render_table_fn(view, names, i18n.norm(locale))

    def render_private(self, view: View, locale: str) -> bytes | None:
        fn = type(self).render_private_fn
        return None if fn is None else fn(view, i18n.norm(locale))

    def render_sheet(self, view: View, seat: int, names: list[str], locale: str) -> bytes:
        fn = type(self).render_sheet_fn
        assert fn is not None, f"{self.engine_name} has no sheets"
        return fn(view, seat, names, i18n.norm(locale))

    def private_shows(self, view: View) -> Any:
        fn = type(self).private_shows_fn
        return view if fn is None else fn(view)

    @property
    def has_private(self) -> bool:
        return type(self).render_private_fn is not None

    @property
    def has_sheets(self) -> bool:
        return type(self).render_sheet_fn is not None


def bare_key(key: str) -> str:
    return key[len(THEN) * chain_depth(key) :]


def _level(context: dict[str, Any], depth: int) -> dict[str, Any]:
    """The parameters of the `depth`-th action of a chain, without their prefix."""
    return {bare_key(k): v for k, v in context.items() if chain_depth(k) == depth}


def collapse(steps: list[str]) -> list[str]:
    """Repeated steps of a chain said once with their count ("Draw a gem ×3")."""
    out: list[tuple[str, int]] = []
    for step in steps:
        if out and out[-1][0] == step:
            out[-1] = (step, out[-1][1] + 1)
        else:
            out.append((step, 1))
    return [step if count == 1 else f"{step} ×{count}" for step, count in out]


def _option_word(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _squeezed(label: str, limit: int = LABEL_LIMIT) -> str:
    """A chain's label cut to `limit` by shortening its longest names in their middles, so every move keeps its
    kind and each name its start and end, where names alike differ: "Trade · Home die · Alien Up…ploration"."""
    moves = [move.split(DOT) for move in label.split(ARROW)]
    parts = [part for move in moves for part in move]
    room = limit - len(ARROW) * (len(moves) - 1) - len(DOT) * (len(parts) - len(moves))
    shares: dict[int, int] = {}
    for done, index in enumerate(sorted(range(len(parts)), key=lambda i: len(parts[i]))):
        shares[index] = min(len(parts[index]), (room - sum(shares.values())) // (len(parts) - done))
    cut = iter(_middle_cut(part, shares[index]) for index, part in enumerate(parts))
    return ARROW.join(DOT.join(next(cut) for _ in move) for move in moves)


def _middle_cut(text: str, size: int) -> str:
    if len(text) <= size:
        return text
    tail = (size - 1) // 2
    return text[: size - 1 - tail] + "…" + (text[-tail:] if tail else "")
