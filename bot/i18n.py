"""Every user-facing string, in English, Korean and Spanish; engines speak in codes and these turn them into words.

A string that depends on a number is a table of plural forms keyed by CLDR category ("one", "other", …: Babel
knows which a language has; Korean has only "other"), chosen by the `count` parameter."""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any

from babel import Locale

from render.text import LOCALES, plural_category
from render.text import language as norm  # a Discord locale ('ko', 'en-US', 'es-ES', …) as one of ours

DEFAULT = "en"

Entry = str | dict[str, str]  # a string, or its plural forms by category

_CATALOG: dict[str, dict[str, Entry]] = {
    locale: json.loads(resources.files("bot").joinpath(f"locales/{locale}.json").read_text(encoding="utf-8"))
    for locale in LOCALES
}


def has(key: str) -> bool:
    return key in _CATALOG[DEFAULT]


@cache
def plural_categories(locale: str) -> frozenset[str]:
    """The plural categories a language tells apart for whole numbers ("other" always among them)."""
    return Locale.parse(norm(locale)).plural_form.tags | {"other"}


def forms(entry: Entry) -> list[str]:
    """Every text of an entry: the string, or each of its plural forms."""
    return list(entry.values()) if isinstance(entry, dict) else [entry]


def placeholders(entry: Entry) -> set[str]:
    """The parameters a string uses; for plural forms, those of "other" (a "one" form may say "a" for {count})."""
    text = entry["other"] if isinstance(entry, dict) else entry
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def entries(locale: str) -> dict[str, Entry]:
    return _CATALOG[norm(locale)]


def t(key: str, locale: str | None, **params: Any) -> str:
    locale = norm(locale)
    entry = _CATALOG[locale].get(key) or _CATALOG[DEFAULT][key]
    if isinstance(entry, dict):
        count = params.get("count")
        if count is None:
            raise KeyError(f"{key} has plural forms but no count")
        entry = entry.get(plural_category(locale, count)) or entry["other"]
    return entry.format(**params) if params else entry


def add_catalog(locale: str, entries: dict[str, Entry]) -> None:
    """Games add their own strings (event texts, labels) under their own key prefix."""
    clash = set(entries) & set(_CATALOG[locale])
    assert not clash, f"duplicate strings: {sorted(clash)[:3]}"
    _CATALOG[locale].update(entries)


ECHO_LIMIT = 50
_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\*_~`|>#[]()"})


def echo(text: Any) -> str:
    """Something a user typed, safe to repeat back: at most ECHO_LIMIT characters, markdown and mentions inert."""
    text = " ".join(str(text).split())
    if len(text) > ECHO_LIMIT:
        text = text[: ECHO_LIMIT - 1] + "…"
    return text.translate(_MARKDOWN).replace("@", "@\u200b")
