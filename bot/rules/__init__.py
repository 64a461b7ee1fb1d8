"""Rules text the project writes in its own words, by game and section, in every supported language."""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from rapidfuzz import fuzz, process, utils

from bot import i18n

OPTIONS = "options"  # the topic every game answers with its options, generated from the engine's
WORD_MATCH = 75  # how alike two words must be (rapidfuzz ratio, 0-100) to count as the same word
PART_MATCH = 80  # a Korean word found inside a compound (점수 in 점수계산): nearly the same word
SHORT_WORD = 4  # letters: a word this short only matches itself with an ending added or taken off
INFLECTED = 90  # how alike such a pair is ("tie", "ties")
BODY_SHARE = 0.8  # a word found in a section's text counts this much of one found in what it is about
UNKNOWN_WEIGHT = 0.25  # a question word no section has weighs this (a common word about 1, a rare one 2.8)
ANSWER_SCORE = 55  # how well a section must match a question to be offered as the answer
CARD_SCORE = 86  # how well a card's name must match to be the answer


@dataclass(frozen=True)
class Section:
    id: str
    title: dict[str, str]
    body: dict[str, str]
    asks: dict[str, list[str]]  # how players ask for it, by language: searched like the title

    def title_in(self, locale: str) -> str:
        return self.title.get(i18n.norm(locale), self.title["en"])

    def body_in(self, locale: str) -> str:
        return self.body.get(i18n.norm(locale), self.body["en"])

    def asks_in(self, locale: str) -> list[str]:
        return self.asks.get(i18n.norm(locale), self.asks.get("en", []))


@cache
def sections(game: str) -> list[Section]:
    path = resources.files("bot.rules").joinpath(f"{game}.json")
    if not path.is_file():
        return []
    data = json.loads(path.read_text("utf-8"))
    return [Section(s["id"], s["title"], s["body"], s.get("asks", {})) for s in data["sections"]]


def find(game: str, topic: str, locale: str, partial: bool = True) -> Section | None:
    """A section by id, or by a title in any language, or (if partial) the only one whose title contains the
    words."""
    wanted = topic.casefold().strip()
    entries = sections(game)
    for section in entries:
        if wanted == section.id or wanted in (t.casefold() for t in section.title.values()):
            return section
    if not partial:
        return None
    containing = [s for s in entries if any(wanted in t.casefold() for t in s.title.values())]
    return containing[0] if len(containing) == 1 else None


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
    # Roll for the Galaxy's and Talisman's options sections have the options topic's id: offered once, not twice
    listed: dict[str, str] = {}
    for label, value in out + [(section.title_in(locale), section.id) for section in mentions]:
        listed.setdefault(value, label)
    return [(label, value) for value, label in listed.items()][:25]


def is_options_topic(topic: str) -> bool:
    wanted = topic.casefold().strip()
    return wanted == OPTIONS or any(wanted == i18n.t("rules.options", loc).casefold() for loc in i18n.LOCALES)


def _words(text: str) -> list[str]:
    """Lower-case words without accents, so "como" typed on a phone finds "cómo"."""
    plain = unicodedata.normalize("NFD", utils.default_process(text))
    plain = unicodedata.normalize("NFC", "".join(c for c in plain if not unicodedata.combining(c)))
    return [w for w in re.split(r"\W+", plain) if w]


def _terms(text: str) -> list[str]:
    """The words of a text as they are compared: Korean words without their particles and endings."""
    return [_stem(w) if _HANGUL.search(w) else w for w in _words(text)]


def _question_words(question: str, locale: str) -> list[list[str]]:
    """The words of a question that carry its meaning, each with the reader's language's synonyms when it is
    one of what people often ask about (winning, dying, fighting, the end…)."""
    stop = set(_terms(i18n.t("rules.stopwords", locale)))
    said = _terms(question)
    words = [w for w in said if w not in stop] or said
    families = [_terms(group) for group in i18n.t("rules.synonyms", locale).split("|")]
    out = []
    for word in dict.fromkeys(words):
        family = next((f for f in families if word in f), [])  # the families list the forms people type
        out.append([word, *(f for f in family if f != word)])
    return out


_HANGUL = re.compile(r"[가-힣]")
# Korean writes a particle onto the word it follows ("추종자는", "점수를"): the word is what is asked about.
_PARTICLE = re.compile(
    r"(은|는|이|가|을|를|에|의|도|로|으로|와|과|에서|에게|이란|란|이랑|랑|까지|부터|만|이나|나)$"
)
# ... and a verb or adjective its ending ("죽으면", "끝나요", "이기나요"): the stem is what is asked about. Endings of
# one syllable are only taken from words of three or more, so nouns such as 무기 or 필요 stay whole.
_ENDING = re.compile(
    r"(?:었|았|였|했)?(?:습니까|습니다|어요|아요|여요|나요|까요|세요|으면|으려면|려면|이면|이에요|예요|인가요|는데|는지|"
    r"어도|아도|어야|아야|지요|죠|요|면|다)$"
)
# 하다 verbs are a noun and 하 ("공격해요", "승리하면"): the noun is the word.
_HADA = re.compile(
    r"(하다|하는|하고|하기|하면|하려면|하나요|해요|해야|했어요|했나요|할|한|합니다|합니까|하세요|함|하)$"
)


def _stem(word: str) -> str:
    word = _drop_b(word)
    particle = _PARTICLE.search(word)
    if particle and particle.start() >= (1 if len(particle.group()) >= 2 else 2):  # 누가 is who, not 누 + 가
        word = word[: particle.start()]
    hada = _HADA.search(word)
    if hada and hada.start() >= 2:
        return word[: hada.start()]
    ending = _ENDING.search(word)
    if ending and (len(ending.group()) >= 2 or len(word) >= 3) and ending.start() >= 1:
        word = word[: ending.start()]
    return word


def _drop_b(word: str) -> str:
    """A word without the ending ㅂ니다 (or ㅂ니까), whose ㅂ is written into the syllable before: 끝납니다 is 끝나."""
    if len(word) >= 3 and word[-2:] in ("니다", "니까"):
        code = ord(word[-3]) - 0xAC00
        if 0 <= code < 11172 and code % 28 == 17:  # the syllable's final consonant is ㅂ
            return word[:-3] + chr(0xAC00 + code - 17)
    return word


def _alike(word: str, vocabulary: frozenset[str]) -> float:
    """How well a word is found among others: the same word; a short one only with an ending added or taken off
    ("tie", "ties"), since a typo in a short word is often another word ("hand", "and"); a longer one fuzzily; a
    Korean word also as part of a compound."""
    if word in vocabulary:
        return 100.0
    if len(word) <= SHORT_WORD and not _HANGUL.search(word):
        inflected = any(
            (other.startswith(word) or word.startswith(other))
            and min(len(other), len(word)) >= 3
            and abs(len(other) - len(word)) <= 2
            for other in vocabulary
        )
        return INFLECTED if inflected else 0.0
    found = process.extractOne(word, vocabulary, scorer=fuzz.ratio, score_cutoff=WORD_MATCH)
    best = found[1] if found else 0.0
    if best < PART_MATCH and len(word) >= 2 and _HANGUL.search(word):
        if any(len(other) >= 2 and (word in other or other in word) for other in vocabulary):
            return PART_MATCH
    return best


@cache
def _vocabulary(game: str, locale: str) -> list[tuple[frozenset[str], frozenset[str]]]:
    """For each section, the terms naming what it is about (title, id, how players ask for it) and those of its
    text."""
    out = []
    for section in sections(game):
        about = " ".join(
            [section.title_in(locale), re.sub(r"[_-]", " ", section.id), *section.asks_in(locale)]
        )
        out.append((frozenset(_terms(about)), frozenset(_terms(section.body_in(locale)))))
    return out


@lru_cache(maxsize=4096)
def _found(word: str, game: str, locale: str) -> tuple[float, ...]:
    """How well a word is found in each section: in what it is about, or, counting less, in its text."""
    return tuple(
        max(_alike(word, about), BODY_SHARE * _alike(word, body)) for about, body in _vocabulary(game, locale)
    )


def search(game: str, question: str, locale: str) -> list[tuple[float, Section]]:
    """Sections answering a free-text question, best first, by fuzzy word matching in the reader's language:
    a word found in what a section is about counts more than one in its text, and words found in every section
    count little."""
    entries = sections(game)
    groups = _question_words(question, locale)
    if not entries or not groups:
        return []
    locale = i18n.norm(locale)
    # each word of a group (the word and its synonyms) found in each section; the group counts its best
    matches = [
        [max(found) for found in zip(*(_found(w, game, locale) for w in group), strict=True)]
        for group in groups
    ]
    # A word found in every section tells them apart poorly (inverse document frequency); one found in none may
    # be a way of saying something we do not know, so it only lowers the score a little.
    weights = [
        math.log((len(entries) + 1) / (1 + sum(1 for m in found if m))) + 0.1
        if any(found)
        else UNKNOWN_WEIGHT
        for found in matches
    ]
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
    return lookup(game, topic, locale) or not_found(game, topic or "", locale)


def not_found(game: str, topic: str, locale: str) -> str:
    from bot.games import presenter

    return i18n.t("rules.not_found", locale, topic=i18n.echo(topic), game=presenter(game).title(locale))


def lookup(game: str, topic: str | None, locale: str) -> str | None:
    """`answer`, or None where nothing matched."""
    from bot.games import presenter

    shown = presenter(game)
    title = shown.title(locale)
    if not topic or not topic.strip():
        listing = [f"• **{s.title_in(locale)}**" for s in sections(game)]
        listing.append(f"• **{i18n.t('rules.options', locale)}**")
        return "\n".join([f"**{title} — {i18n.t('rules.sections', locale)}**", *listing])
    if is_options_topic(topic):
        return f"**{title} — {i18n.t('rules.options', locale)}**\n{shown.options_text(locale)}"
    # A card named exactly comes before a section whose title only contains its name: the autocomplete offers
    # Talisman's 성 (the Castle) and 죽음 (Death) as spaces, which opened 성향과 두꺼비 and the section on dying.
    section = find(game, topic, locale, partial=False)
    card = shown.lookup_card(topic, locale) if section is None else None
    if section is None and card is None:
        section = find(game, topic, locale)
    if section is not None:
        return f"**{title} — {section.title_in(locale)}**\n{section.body_in(locale)}"
    hits = search(game, topic, locale)
    if card is None and (not hits or hits[0][0] < CARD_SCORE):  # a clear section match beats a near card name
        card = search_cards(shown.cards(locale), topic)
    if card is not None:
        return f"**{title} — {card[0]}**\n{card[1]}"
    if not hits:
        return None
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
