"""The words drawn into pictures. They live with every other text of the host: a game's in its string file
(bot/games/<game>.json), the shared ones in bot/locales/<locale>.json, all under keys starting with "picture.".
They are read here as plain data, so render/ imports nothing from the bot.

A label that counts something is a table of plural forms by CLDR category, chosen by Babel, as the bot's own
strings are."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale

BOT_DIR = Path(__file__).resolve().parent.parent / "bot"
LOCALES = ("en", "ko", "es")
PREFIX = "picture."


def language(locale: str | None) -> str:
    """One of our languages for any locale ("es-ES" → "es"); English for the rest."""
    short = (locale or "en")[:2].lower()
    return short if short in LOCALES else "en"


def plural_category(locale: str | None, n: Any) -> str:
    """The CLDR plural category ("one", "other", …) the language uses for `n`."""
    return Locale.parse(language(locale)).plural_form(n)


@cache
def _entries(game: str | None, locale: str) -> dict[str, Any]:
    if game is None:
        path = BOT_DIR / "locales" / f"{locale}.json"
        return json.loads(path.read_text("utf-8"))
    path = BOT_DIR / "games" / f"{game}.json"
    return json.loads(path.read_text("utf-8"))[locale]


@cache
def labels(game: str | None, locale: str) -> dict[str, Any]:
    """The picture labels of a game (None: those every game shares) in a language, nested by the dots of their
    keys: "picture.phase.roll" is labels(...)["phase"]["roll"]. A plural label stays a table of its forms."""
    nested: dict[str, Any] = {}
    for key, entry in _entries(game, language(locale)).items():
        if not key.startswith(PREFIX):
            continue
        *path, last = key[len(PREFIX) :].split(".")
        level = nested
        for part in path:
            level = level.setdefault(part, {})
        level[last] = entry
    return nested


def counted(forms: dict[str, str], locale: str, n: int) -> str:
    """A plural label for `n` ("1 card", "2 cards"), in the form the language uses for that number."""
    return (forms.get(plural_category(locale, n)) or forms["other"]).format(n=n)
