"""Options people can discover (autocomplete, refusals listing the real ones, a /rules topic) and /rules answering
free-text questions in the reader's language."""

from __future__ import annotations

import pytest

from bot import i18n, rules
from bot.games import presenter, presenters
from engines.base import IllegalAction

GAMES = sorted(presenters())


@pytest.mark.parametrize("game", GAMES)
def test_every_option_has_a_meaning_in_every_language(game):
    shown = presenter(game)
    for option in shown.engine.options:
        for locale in i18n.LOCALES:
            assert shown.has(f"option.{option.name}")
            line = shown.option_line(option, locale)
            assert option.name in line and str(option.default).lower() in line.lower()


@pytest.mark.parametrize("game", GAMES)
def test_autocomplete_offers_each_option_with_its_meaning_and_default(game):
    shown = presenter(game)
    for locale in i18n.LOCALES:
        offered = shown.option_suggestions("", locale)
        assert len(offered) <= 25
        for label, value in offered:
            assert len(label) <= 100 and len(value) <= 100
        names = {value.partition("=")[0] for _, value in offered}
        assert names == {o.name for o in shown.engine.options} or (not shown.engine.options and offered)
        for option in shown.engine.options[:3]:
            label = next(label for label, value in offered if value.startswith(f"{option.name}="))
            assert shown.t(f"option.{option.name}", locale)[:20] in label


def test_autocomplete_finishes_the_option_being_typed_after_those_written():
    shown = presenter("roll_player")
    offered = shown.option_suggestions("shor", "en")
    assert [value for _, value in offered] == ["short_game=true", "short_game=false"]
    offered = shown.option_suggestions("short_game=true, fair", "en")
    assert [value for _, value in offered][0] == "short_game=true, fair_start=true"
    assert all(
        "short_game=true, short_game" not in value
        for _, value in shown.option_suggestions("short_game=true, ", "en")
    )
    talisman = presenter("talisman")
    assert [v for _, v in talisman.option_suggestions("trophy_rate=", "ko")] == [
        "trophy_rate=7",
        "trophy_rate=6",
        "trophy_rate=5",
    ]


def test_a_switch_turned_off_says_off_and_options_are_found_in_the_readers_words():
    shown = presenter("roll_player")
    meaning = shown.t("option.short_game", "ko")
    on, off = shown.option_suggestions("short_game=", "ko")
    assert meaning in on[0] and meaning not in off[0] and "short_game=false — 끔" in off[0]
    # the default marked in words, not as "(기본값 false)" in the middle of Korean (a review saw it)
    assert off[0] == "short_game=false — 끔 (기본값)" and "기본값" not in on[0]
    word = max(meaning.split(), key=len)  # a word of the Korean meaning finds the option
    assert "short_game=true" in [value for _, value in shown.option_suggestions(word, "ko")]


def test_a_lobby_names_its_options_with_their_meanings():
    shown = presenter("roll_player")
    assert shown.chosen_options({"short_game": True, "fair_start": False}, "en") == [
        f"`short_game=true`: {shown.t('option.short_game', 'en')}"
    ]


def test_an_unknown_option_is_refused_with_the_valid_ones_and_the_typed_text_clipped():
    shown = presenter("roll_player")
    with pytest.raises(IllegalAction) as caught:
        shown.check_options({"variant": "banana"})
    refusal = caught.value
    assert refusal.engine == "roll_player" and refusal.code == "unknown_option"
    text = shown.error_text(refusal.code, dict(refusal.params), "en")
    assert "variant" in text and "Roll Player" in text
    for option in shown.engine.options:
        assert option.name in text
    long = "**" + "x" * 200 + "@everyone"
    text = shown.error_text("unknown_option", {"option": long}, "ko")
    assert "x" * 51 not in text and "@everyone" not in text and "\\*\\*" in text
    with pytest.raises(IllegalAction) as caught:
        presenter("talisman").check_options({"trophy_rate": "4"})
    text = presenter("talisman").error_text(caught.value.code, dict(caught.value.params), "es")
    assert "trophy_rate" in text and "7, 6, 5" in text


@pytest.mark.parametrize("game", GAMES)
def test_rules_have_an_options_topic(game):
    shown = presenter(game)
    for locale in i18n.LOCALES:
        for topic in ("options", i18n.t("rules.options", locale)):
            text = rules.answer(game, topic, locale)
            assert shown.title(locale) in text
            for option in shown.engine.options:
                assert option.name in text
            if not shown.engine.options:
                assert i18n.t("options.none", locale, game=shown.title(locale)) in text
        assert i18n.t("rules.options", locale) in rules.answer(game, None, locale)


QUESTIONS = {"en": "how do I win", "ko": "어떻게 이기나요", "es": "cómo gano"}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_rules_answer_how_to_win_in_every_language(game, locale):
    text = rules.answer(game, QUESTIONS[locale], locale)
    assert text.startswith(i18n.t("rules.best_match", locale, topic=QUESTIONS[locale]))
    hits = rules.search(game, QUESTIONS[locale], locale)
    assert hits
    ids = [section.id for _, section in hits[:3]]
    assert {"end", "goal", "overview"} & set(ids), ids


def test_rules_answer_scoring_questions_and_misspelt_cards():
    text = rules.answer("druids", "점수 계산", "ko")
    scoring = next(s for s in rules.sections("druids") if s.id == "scoring")
    assert scoring.body_in("ko") in text
    text = rules.answer("roll_player", "heavy crosbow", "en")
    assert "Heavy Crossbow" in text
    assert rules.answer("druids", "zzzz qqqq", "en").startswith("Nothing in the Druids rules")


def test_a_korean_question_is_read_through_its_particles_and_sections_named_by_the_words_come_first():
    """'추종자는 뭐예요' is a question about 추종자 (the particle 는 written onto it, 뭐예요 asking what): it is
    answered from a section about followers; typing 점수 offers the section titled 점수계산 first."""
    answered = rules.answer("druids", "추종자는 뭐예요", "ko")
    assert "찾지 못했습니다" not in answered and "추종자" in answered
    assert rules.suggest("druids", "점수", "ko")[0] == ("점수계산", "scoring")
    # typed as a question, the topic list offers the sections that answer it; ranked by how well they do
    assert rules.suggest("druids", "추종자는 뭐예요", "ko")
    assert rules.suggest("druids", "score", "en")[0] == ("Scoring a place", "scoring")
