"""Every string exists in every language, with the same placeholders, and the shipped font draws every character."""

from __future__ import annotations

import json
import re
import unicodedata
from importlib import resources
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from bot import i18n, rules
from bot.games import presenters
from render import text as picture_text
from render.common import font

ROOT = Path(__file__).resolve().parents[1]
HANGUL = re.compile("[\uac00-\ud7a3]")


def _catalog(locale: str) -> dict[str, str]:
    presenters()  # games add their strings on load
    return i18n._CATALOG[locale]


@pytest.mark.parametrize("path", sorted((ROOT / "bot").glob("**/*.json")), ids=lambda p: p.name)
def test_no_string_file_says_a_key_twice(path):
    """JSON keeps the last of two equal keys without a word, so a second string would silently replace the first."""

    def unique(pairs):
        keys = [key for key, _ in pairs]
        assert len(keys) == len(set(keys)), sorted(k for k in set(keys) if keys.count(k) > 1)
        return dict(pairs)

    json.loads(path.read_text("utf-8"), object_pairs_hook=unique)


@pytest.mark.parametrize("locale", [loc for loc in i18n.LOCALES if loc != "en"])
def test_every_string_is_translated_with_the_same_placeholders(locale):
    english, other = _catalog("en"), _catalog(locale)
    assert set(other) == set(english)
    for key, text in english.items():
        assert i18n.placeholders(other[key]) == i18n.placeholders(text), key


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_plural_strings_have_the_forms_their_language_tells_apart(locale):
    """A counted string is plural in every language or in none; each has "other" and only its language's
    categories, and English and Spanish say "one" apart where English does (Korean has no plural)."""
    english = _catalog("en")
    plural = {key for key, entry in english.items() if isinstance(entry, dict)}
    assert len(plural) >= 6
    for key, entry in _catalog(locale).items():
        assert isinstance(entry, dict) == (key in plural), key
        if isinstance(entry, dict):
            assert "other" in entry and set(entry) <= i18n.plural_categories(locale), (key, set(entry))
            if "one" in i18n.plural_categories(locale):
                assert "one" in entry, key


def test_counted_strings_agree_with_the_number():
    presenters()
    one = i18n.t("roll_for_the_galaxy.event.TilesScouted", "en", player="Ana", count=1)
    two = i18n.t("roll_for_the_galaxy.event.TilesScouted", "en", player="Ana", count=2)
    assert one == "Ana draws a tile." and two == "Ana draws 2 tiles."
    assert i18n.t("druids.event.AmuletsDistributed", "es", amulets=1, count=1, shares="-").startswith(
        "1 amuleto:"
    )
    assert i18n.t("druids.event.AmuletsDistributed", "en", amulets=3, count=3, shares="-").startswith(
        "3 amulets"
    )
    korean = i18n.t("roll_for_the_galaxy.event.TilesScouted", "ko", player="Ana", count=1)
    assert "1" in korean  # Korean counts with a number and no plural form


def test_every_game_names_itself_in_every_language():
    for game, presenter in presenters().items():
        for locale in i18n.LOCALES:
            assert presenter.has("title") and presenter.title(locale), (game, locale)


def _flat(labels: dict, prefix: str) -> dict[str, i18n.Entry]:
    flat: dict[str, i18n.Entry] = {}
    for key, value in labels.items():
        if isinstance(value, dict) and not set(value) & {"one", "other"}:
            flat |= _flat(value, f"{prefix}{key}.")
        else:
            flat[prefix + key] = value
    return flat


@pytest.mark.parametrize("game", [None, *presenters()])
def test_the_pictures_words_are_the_bots_strings(game):
    """The renderers read their labels from the same string files as the bot (render/ may not import it), so
    the test above covers every word drawn into a picture; here, that they read exactly those strings."""
    prefix = f"{game}.picture." if game else "picture."
    for locale in i18n.LOCALES:
        drawn = _flat(picture_text.labels(game, locale), prefix)
        catalog = {key: entry for key, entry in _catalog(locale).items() if key.startswith(prefix)}
        assert drawn == catalog and len(drawn) >= 4, (game, locale)


def test_renderers_and_engines_hold_no_words_of_their_own():
    """Text in one place: no label table or title in another language inside the code that draws or rules."""
    sources = [*(ROOT / "render").glob("*.py"), *(ROOT / "engines").rglob("*.py")]
    assert len(sources) > 10
    for source in sources:
        assert not HANGUL.search(source.read_text("utf-8")), source.relative_to(ROOT)


def test_rules_sections_exist_in_every_language():
    for game in presenters():
        for section in rules.sections(game):
            for locale in i18n.LOCALES:
                assert section.title.get(locale) and section.body.get(locale), (game, section.id, locale)


def _all_text() -> set[str]:
    chars: set[str] = set()
    for locale in i18n.LOCALES:
        for entry in _catalog(locale).values():
            for text in i18n.forms(entry):
                chars |= set(text)
    for game in presenters():
        for section in rules.sections(game):
            for text in [*section.title.values(), *section.body.values()]:
                chars |= set(text)
    for path in resources.files("engines").iterdir():
        data = path.joinpath("data")
        if data.is_dir():
            for file in data.iterdir():
                if file.name.endswith(".json"):
                    chars |= set(json.dumps(json.loads(file.read_text("utf-8")), ensure_ascii=False))
    for source in (ROOT / "render").glob("*.py"):
        chars |= set(source.read_text("utf-8"))  # symbols drawn into images (arrows, stars)
    return {c for c in chars if c.isprintable() and not c.isspace()}


def _mask(char: str) -> bytes:
    image = Image.new("L", (48, 48))
    ImageDraw.Draw(image).text((4, 4), char, fill=255, font=font(32))
    return image.tobytes()


def test_the_font_draws_every_character_we_show():
    missing_glyph = _mask("\U000f0000")  # a private-use code point: the font's "missing" box
    # Symbols such as emoji appear only in message text, where Discord draws them.
    checked = {c for c in _all_text() if unicodedata.category(c) != "So"}
    missing = sorted(c for c in checked if _mask(c) == missing_glyph)
    assert not missing, f"no glyph for {missing[:20]}"
    assert _mask("한") != missing_glyph and _mask("ñ") != missing_glyph


def test_korean_particles_follow_the_word_before_them_in_every_string():
    """Strings write a particle both ways ("을(를)"); the one the word before it takes is kept, in any game's
    strings and the host's, a Latin name's as Korean says it, and both stay where the word cannot tell ("Bob"
    is 밥 but "Mark" 마크)."""
    assert i18n.t("game.following", "ko", game="드루이드", id=3).startswith("드루이드 #3을 관전합니다")
    assert i18n.t("game.following", "ko", game="드루이드", id=2).startswith("드루이드 #2를 관전합니다")
    assert (
        i18n.korean_particles("봇 2이(가) 루비 7을(를) 숲(으)로 Emma이(가) 룬(13)은(는)")
        == "봇 2가 루비 7을 숲으로 Emma가 룬(13)은"
    )
    assert i18n.korean_particles("**진행**을(를) “하지 않기”을(를) `봇 1`이(가) **봇**(쉬움)을(를)") == (
        "**진행**을 “하지 않기”를 `봇 1`이 **봇**(쉬움)을"
    )
    # a gloss after a space: the word before it decides, as with "(13)" (a review read "(와일드)을(를)")
    assert i18n.korean_particles("특산품 주사위 (와일드)을(를) 군사 (붉은색)을(를)") == (
        "특산품 주사위 (와일드)를 군사 (붉은색)를"
    )
    latin = "Emma이(가) James을(를) Carol(으)로 Sam(으)로 Young와(과) Michelle은(는) Jane이(가) Bob을(를)"
    assert (
        i18n.korean_particles(latin) == "Emma가 James를 Carol로 Sam으로 Young과 Michelle은 Jane이 Bob을(를)"
    )


def test_a_players_own_move_told_to_them_in_korean_does_not_honour_them():
    told = "완료: 지영님이 물병을 뽑습니다. 박지영님이 웃습니다. 봇 1님이 지영님을 공격합니다. 지영님의 차례."
    assert (
        i18n.korean_self(told, "지영")
        == "완료: 물병을 뽑습니다. 박지영님이 웃습니다. 봇 1님이 나를 공격합니다. 내 차례."
    )


def test_a_list_of_names_takes_the_honorific_on_each_name_in_korean():
    """Korean honours every name ("Tom님, Lee님을"), not only the last; other languages join with commas."""
    assert (
        i18n.t("game.waiting_for", "ko", names=["Tom", "Lee", "봇 2"])
        == "Tom님, Lee님, 봇 2님을 기다리는 중입니다."
    )
    assert i18n.t("game.waiting_for", "ko", names=["Tom"]) == "Tom님을 기다리는 중입니다."
    assert "Tom, Lee" in i18n.t("game.waiting_for", "en", names=["Tom", "Lee"])
    assert "(Tom, Lee)" in i18n.t(
        "demo.started", "ko", game="드루이드", id=1, names=("Tom", "Lee"), count=2, seconds=5
    )


def test_english_takes_an_before_a_vowel_whatever_fills_the_string():
    """'a {color}' filled with 'Alien Tech' reads 'an Alien Tech' (a reviewer found 'a Alien Tech explorer')."""
    from bot.games import presenter

    game = presenter("roll_for_the_galaxy")
    alien = game.t("event.ScoutStarted", "en", player="Tom", color="Alien Tech")
    assert alien == "Tom scouts with an Alien Tech explorer."
    assert (
        game.t("event.ScoutStarted", "en", player="Tom", color="Novelty")
        == "Tom scouts with a Novelty explorer."
    )
    assert i18n.english_articles("a one-off, a Imp, A Elf") == "a one-off, an Imp, An Elf"
    # at the start of a sentence too (a review read "A Alien Tech good is put on it.")
    assert game.t("effect.gain_good", "en", color="Alien Tech") == "An Alien Tech good is put on it."


def test_a_wait_is_told_in_minutes_under_an_hour_and_in_hours_after():
    # A reminder a quarter of an hour in used to say "0 h" (a review); a vote refused at once says so.
    assert i18n.waited(15 * 60, "en") == "15 min"
    assert i18n.waited(15 * 60, "ko") == "15분"
    assert i18n.waited(20, "es") == "menos de un minuto"
    assert i18n.waited(26.5 * 3600, "en") == "26 h"
    assert i18n.waited(3 * 3600, "ko") == "3시간"
