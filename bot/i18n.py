"""Every user-facing string, in English, Korean and Spanish; engines speak in codes and these turn them into words.

A string that depends on a number is a table of plural forms keyed by CLDR category ("one", "other", …: Babel
knows which a language has; Korean has only "other"), chosen by the `count` parameter."""

from __future__ import annotations

import json
import re
import string
from datetime import datetime
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
    if params:
        lists = {k: _joined(v, k, entry, locale) for k, v in params.items() if isinstance(v, list | tuple)}
        # "24 h", never "24.0 h"
        numbers = {
            k: int(v) if v.is_integer() else round(v, 2) for k, v in params.items() if isinstance(v, float)
        }
        text = entry.format(**{**params, **lists, **numbers})
    else:
        text = entry
    if locale == "ko" and "(" in text:
        return korean_particles(text)
    if locale == "en" and ("a " in text or "A " in text):
        return english_articles(text)
    return text


# "a" before a word that starts with a vowel sound; "one"/"once" and "u" words ("a unique") start with a consonant
_A_BEFORE_VOWEL = re.compile(r"\b([Aa]) (?=(?!one\b|once\b)[AEIOaeio])")


def waited(seconds: float, locale: str) -> str:
    """A wait in words: minutes under an hour ("0 h" after a quarter of an hour said nothing), else hours."""
    if seconds < 60:
        return t("time.under_a_minute", locale)
    if seconds < 3600:
        return t("time.minutes", locale, minutes=int(seconds // 60))
    return t("game.hours", locale, hours=int(seconds // 3600))


def deadline(moment: datetime, locale: str) -> str:
    """When a deadline falls, as Discord's timestamp markup: each reader sees it counting down in their own words."""
    return t("game.deadline_at", locale, when=f"<t:{int(moment.timestamp())}:R>")


def clip(text: str, limit: int) -> str:
    """`text` cut to Discord's `limit` for where it goes (a label, a message), its cut marked with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def english_articles(text: str) -> str:
    """'a {color} die' filled with 'Alien Tech' reads 'an Alien Tech die'."""
    return _A_BEFORE_VOWEL.sub(r"\1n ", text)


def _joined(names: list[Any] | tuple[Any, ...], key: str, entry: str, locale: str) -> str:
    """A list of names in a sentence: Korean puts the honorific the sentence gives the last name after each one
    ("Tom님, Lee님이", not "Tom, Lee님이")."""
    honorific = "님"
    separator = f"{honorific}, " if locale == "ko" and f"{{{key}}}{honorific}" in entry else ", "
    return separator.join(str(name) for name in names)


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


# Korean particles depend on whether the word before them ends in a consonant; texts write both ("을(를)") and
# the right one is kept once the word is known.
_JOSA = re.compile(r"(을\(를\)|이\(가\)|은\(는\)|와\(과\)|\(으\)로)")
_PAIRS = {
    "을(를)": ("을", "를"),
    "이(가)": ("이", "가"),
    "은(는)": ("은", "는"),
    "와(과)": ("과", "와"),
    "(으)로": ("으로", "로"),
}
_DIGIT_FINAL = {"0": 21, "1": 8, "2": 0, "3": 16, "4": 0, "5": 0, "6": 1, "7": 8, "8": 8, "9": 0}
# A Latin word (a player's name, mostly) as Korean says it: a vowel, or s, z, f, v, d, h, r, w or x at the end
# gives no final (Emma 에마, James 제임스, Peter 피터); l, m, n and ng give one (Carol 캐럴, Sam 샘, Erin 에린,
# Young 영), and so does a silent e after them (Michelle 미셸, Jane 제인). Others (Bob 밥 but Mark 마크) can't
# be told, so both forms stay.
_LATIN_FINAL = dict.fromkeys("aeiouyszfvdhrwx", 0) | {"l": 8, "m": 16, "n": 4}
_QUOTES = "*`”’\"'"  # bold, code and quotes around a word
_AFTERWORD = re.compile(rf"\s*\([^()]*\)[{re.escape(_QUOTES)}]*$")  # a "(13)" or " (와일드)" after it


def _final(text: str) -> int | None:
    """The final consonant of the word just before a particle (0: none); None when it can't be told."""
    # The word read is the one inside bold, code or quotes (**시작**을, “시작”을) and before a trailing "(13)".
    word = _AFTERWORD.sub("", text.rstrip(_QUOTES)).rstrip(_QUOTES)[-3:].lower()
    if not word:
        return None
    ch = word[-1]
    if "가" <= ch <= "힣":
        return (ord(ch) - 0xAC00) % 28
    if ch in _DIGIT_FINAL:
        return _DIGIT_FINAL[ch]
    if word.endswith("ng"):
        return 21
    if word[-2:] in ("le", "me", "ne"):
        return _LATIN_FINAL[word[-2]]
    return _LATIN_FINAL.get(ch)


def korean_self(text: str, name: str) -> str:
    """A player's own move told to them in Korean: "지영님이 이동합니다" read to 지영 honours herself, so the
    subject goes (Korean leaves it out) and the rest of her name becomes "나": 내, 나를, 나에게, 나와."""
    own = rf"(?<!\w){re.escape(name)}님"
    text = re.sub(own + r"[이은] ", "", text)
    for particle, me in (("의 ", "내 "), (" ", "내 "), ("을", "나를"), ("에게", "나에게"), ("과", "나와")):
        text = re.sub(own + particle, me, text)
    return text


def korean_particles(text: str) -> str:
    """'봇 1을(를)' -> '봇 1을': each particle written both ways keeps the one the word before it takes."""
    out: list[str] = []
    pos = 0
    for match in _JOSA.finditer(text):
        out.append(text[pos : match.start()])
        final = _final("".join(out))
        particle = match.group(0)
        if final is None:
            out.append(particle)
        elif particle == "(으)로":
            out.append("로" if final in (0, 8) else "으로")
        else:
            with_final, without = _PAIRS[particle]
            out.append(with_final if final else without)
        pos = match.end()
    out.append(text[pos:])
    return "".join(out)
