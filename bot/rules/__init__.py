"""Rules text the project writes in its own words, by game and section, in every supported language."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from rapidfuzz import fuzz, process, utils

from bot import i18n

OPTIONS = "options"  # the topic every game answers with its options, generated from the engine's
WORD_MATCH = 75  # how alike two words must be (rapidfuzz ratio, 0-100) to count as the same word
ANSWER_SCORE = 55  # how well a section must match a question to be offered as the answer
CARD_SCORE = 86  # how well a card's name must match to be the answer


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
    """(title in the reader's language, id) for the sections whose title or text mentions what was typed, and
    the options topic."""
    wanted = typed.casefold().strip()
    options = i18n.t("rules.options", locale)
    out = [(options, OPTIONS)] if wanted in options.casefold() or wanted in OPTIONS else []
    mentions = [
        section
        for section in sections(game)
        if wanted in " ".join([*section.title.values(), section.body_in(locale)]).casefold()
    ]
    answers = {section.id: score for score, section in search(game, typed, locale)} if wanted else {}
    if not mentions:  # a question rather than a word ("추종자는 뭐예요"): the sections that answer it
        mentions = [section for section in sections(game) if section.id in answers]
    # a section named by what was typed first, then those that answer it best
    mentions.sort(
        key=lambda s: (not any(wanted in t.casefold() for t in s.title.values()), -answers.get(s.id, 0.0))
    )
    return (out + [(section.title_in(locale), section.id) for section in mentions])[:25]


def is_options_topic(topic: str) -> bool:
    wanted = topic.casefold().strip()
    return wanted == OPTIONS or any(wanted == i18n.t("rules.options", loc).casefold() for loc in i18n.LOCALES)


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"\W+", utils.default_process(text)) if w]


def _question_words(question: str, locale: str) -> list[list[str]]:
    """The words of a question that carry its meaning, each with the reader's language's synonyms when it is
    one of what people most often ask about (winning, scoring, the end)."""
    stop = set(_words(i18n.t("rules.stopwords", locale)))
    said = [_stem(w) for w in _words(question)] if i18n.norm(locale) == "ko" else _words(question)
    words = [w for w in said if w not in stop] or said
    families = [_words(group) for group in i18n.t("rules.synonyms", locale).split("|")]
    out = []
    for word in dict.fromkeys(words):
        family = next((f for f in families if _best(word, f)), [])
        out.append([word, *(f for f in family if f != word)])
    return out


# Korean writes a particle onto the word it follows ("추종자는", "점수를"): the word is what is asked about.
_PARTICLE = re.compile(r"(은|는|이|가|을|를|에|의|도|로|으로|와|과|에서|에게|이란|란|이랑|랑)$")


def _stem(word: str) -> str:
    stem = _PARTICLE.sub("", word)
    return stem if len(stem) >= 2 else word


def _best(word: str, vocabulary: Iterable[str]) -> float:
    found = process.extractOne(word, list(vocabulary), scorer=fuzz.ratio, score_cutoff=WORD_MATCH)
    return found[1] if found else 0.0


def search(game: str, question: str, locale: str) -> list[tuple[float, Section]]:
    """Sections answering a free-text question, best first, by fuzzy word matching in the reader's language:
    a word found in a title counts more than one in the text, and words found in every section count little."""
    entries = sections(game)
    groups = _question_words(question, locale)
    if not entries or not groups:
        return []
    titles = [set(_words(s.title_in(locale))) | set(_words(s.id.replace("_", " "))) for s in entries]
    bodies = [set(_words(s.body_in(locale))) for s in entries]
    matches = [
        [max(max(_best(w, t), 0.8 * _best(w, b)) for w in group) for t, b in zip(titles, bodies, strict=True)]
        for group in groups
    ]
    # A word found in every section tells them apart poorly (inverse document frequency).
    weights = [math.log((len(entries) + 1) / (1 + sum(1 for m in found if m))) + 0.1 for found in matches]
    total = sum(weights)
    ranked = []
    for index, section in enumerate(entries):
        score = sum(weight * found[index] for weight, found in zip(weights, matches, strict=True)) / total
        if score >= ANSWER_SCORE:
            ranked.append((score, section))
    ranked.sort(key=lambda pair: -pair[0])
    return ranked


def search_cards(cards: list[tuple[str, str]], question: str) -> tuple[str, str] | None:
    """The card whose name the question names, allowing for typos."""
    if not cards:
        return None
    names = [name for name, _ in cards]
    found = process.extractOne(question, names, scorer=fuzz.WRatio, processor=utils.default_process)
    return cards[found[2]] if found and found[1] >= CARD_SCORE else None


def answer(game: str, topic: str | None, locale: str) -> str:
    """What /rules says: the list of sections, the game's options, a section or card by name, else the
    sections (or card) that best match the question, else that nothing matched."""
    from bot.games import presenter

    shown = presenter(game)
    title = shown.title(locale)
    if not topic or not topic.strip():
        listing = [f"• **{s.title_in(locale)}**" for s in sections(game)]
        listing.append(f"• **{i18n.t('rules.options', locale)}**")
        return "\n".join([f"**{title} — {i18n.t('rules.sections', locale)}**", *listing])
    if is_options_topic(topic):
        return f"**{title} — {i18n.t('rules.options', locale)}**\n{shown.options_text(locale)}"
    section = find(game, topic, locale)
    if section is not None:
        return f"**{title} — {section.title_in(locale)}**\n{section.body_in(locale)}"
    card = shown.lookup_card(topic, locale)
    hits = search(game, topic, locale)
    if card is None and (not hits or hits[0][0] < CARD_SCORE):  # a clear section match beats a near card name
        card = search_cards(shown.cards(locale), topic)
    if card is not None:
        return f"**{title} — {card[0]}**\n{card[1]}"
    if not hits:
        return i18n.t("rules.not_found", locale, topic=i18n.echo(topic), game=title)
    best = hits[0][1]
    lines = [
        i18n.t("rules.best_match", locale, topic=i18n.echo(topic)),
        f"**{title} — {best.title_in(locale)}**",
        best.body_in(locale),
    ]
    others = [s.title_in(locale) for _, s in hits[1:4]]
    if others:
        lines.append(i18n.t("rules.also", locale, titles=", ".join(others)))
    return "\n".join(lines)
