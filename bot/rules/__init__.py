"""Rules text the project writes in its own words, by game and section, in every supported language."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from bot import i18n


@dataclass(frozen=True)
class Section:
    id: str
    title: dict[str, str]
    body: dict[str, str]

    def title_in(self, locale: str) -> str:
        return self.title.get(i18n.norm(locale), self.title["en"])

    def body_in(self, locale: str) -> str:
        return self.body.get(i18n.norm(locale), self.body["en"])


@cache
def sections(game: str) -> list[Section]:
    path = resources.files("bot.rules").joinpath(f"{game}.json")
    if not path.is_file():
        return []
    data = json.loads(path.read_text("utf-8"))
    return [Section(s["id"], s["title"], s["body"]) for s in data["sections"]]


def find(game: str, topic: str, locale: str) -> Section | None:
    """A section by id, or by a title in any language, or the only one whose title contains the words."""
    wanted = topic.casefold().strip()
    entries = sections(game)
    for section in entries:
        if wanted == section.id or wanted in (t.casefold() for t in section.title.values()):
            return section
    partial = [s for s in entries if any(wanted in t.casefold() for t in s.title.values())]
    return partial[0] if len(partial) == 1 else None


def suggest(game: str, typed: str, locale: str) -> list[tuple[str, str]]:
    """(title in the reader's language, id) for the sections whose title or text mentions what was typed."""
    wanted = typed.casefold().strip()
    out = []
    for section in sections(game):
        haystack = " ".join([*section.title.values(), section.body_in(locale)]).casefold()
        if wanted in haystack:
            out.append((section.title_in(locale), section.id))
    return out[:25]
