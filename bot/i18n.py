"""Every user-facing string, in English, Korean and Spanish; engines speak in codes and these turn them into words."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

LOCALES = ("en", "ko", "es")
DEFAULT = "en"

_CATALOG: dict[str, dict[str, str]] = {
    locale: json.loads(resources.files("bot").joinpath(f"locales/{locale}.json").read_text(encoding="utf-8"))
    for locale in LOCALES
}


def norm(locale: str | None) -> str:
    """A Discord locale ('ko', 'en-US', 'es-ES', …) as one of ours."""
    short = (locale or DEFAULT)[:2].lower()
    return short if short in LOCALES else DEFAULT


def has(key: str) -> bool:
    return key in _CATALOG[DEFAULT]


def t(key: str, locale: str | None, **params: Any) -> str:
    text = _CATALOG[norm(locale)].get(key) or _CATALOG[DEFAULT][key]
    return text.format(**params) if params else text


def add_catalog(locale: str, entries: dict[str, str]) -> None:
    """Games add their own strings (event texts, labels) under their own key prefix."""
    clash = set(entries) & set(_CATALOG[locale])
    assert not clash, f"duplicate strings: {sorted(clash)[:3]}"
    _CATALOG[locale].update(entries)
