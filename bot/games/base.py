"""What the bot needs from each game beyond its engine: words for its actions and events, and its pictures."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

from bot import i18n
from engines import get_engine
from engines.base import Action, Event, View, visible_to


class GamePresenter:
    """Turns one engine's codes into words and its views into images. Subclasses fill in the game's specifics."""

    engine_name: str
    render_table_fn: Callable[[View, list[str], str], bytes]
    render_private_fn: Callable[[View, str], bytes | None] | None = None

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
        return self.engine.title(i18n.norm(locale))

    # --- choosing actions -----------------------------------------------------------------------------------------

    def prompt_text(self, key: str, locale: str) -> str:
        return (
            self.t(f"prompt.{key}", locale) if self.has(f"prompt.{key}") else i18n.t("chooser.choose", locale)
        )

    def value_label(self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str) -> str:
        if key == "type":
            return self.t(f"type.{value}", locale)
        return str(value)

    def action_text(self, action: Action, view: View, locale: str) -> str:
        """One line naming the whole action, for autocomplete and confirmations."""
        params = {k: self.value_label(k, v, action, view, locale) for k, v in action.items() if k != "type"}
        key = f"action.{action['type']}"
        if self.has(key):
            return self.t(key, locale, **params)
        return " · ".join([self.t(f"type.{action['type']}", locale), *params.values()])

    # --- telling what happened ------------------------------------------------------------------------------------

    def confirmation(
        self, action: Action, events: list[Event], names: list[str], view: View, locale: str, seat: int
    ) -> str:
        """The mover's "Done: …", told from the events the committed move caused (what the dice and places
        really were), not from the picker's own labels."""
        texts = [t for e in events if visible_to(e, seat) and (t := self.event_text(e, names, view, locale))]
        return i18n.t(
            "chooser.done", locale, action=" ".join(texts) or self.action_text(action, view, locale)
        )

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
        if self.has(f"error.{code}"):
            return self.t(f"error.{code}", locale, **params)
        if i18n.has(f"error.{code}"):
            return i18n.t(f"error.{code}", locale, game=self.title(locale), **params)
        return i18n.t("error.illegal_action", locale)

    def status_text(self, view: View, names: list[str], locale: str) -> str:
        """A short line on what is happening now (whose turn and which step)."""
        return ""

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

    @property
    def has_private(self) -> bool:
        return type(self).render_private_fn is not None
