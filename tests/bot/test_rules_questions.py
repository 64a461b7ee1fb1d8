"""/rules answers the questions players type, in Korean, English and Spanish: the question set in
bench/rules_questions.json (bench/rules_bench.py prints the same figures), its held-out third checked against a
stated minimum rather than one by one."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.rules_bench import Tally, questions, shown
from bot import i18n, rules
from bot.games import presenter, presenters

HELD_OUT_MINIMUM = 0.8  # of held-out questions answered by a right section in the top three, over all games
HELD_OUT_FLOOR = 2 / 3  # ... and in each game and language

TUNING = [q for q in questions() if not q.held_out]


@pytest.mark.parametrize("question", TUNING, ids=[f"{q.game}-{q.locale}-{q.text}" for q in TUNING])
def test_every_tuning_question_is_answered_by_a_right_section_in_the_top_three(question):
    ids = shown(question.game, question.text, question.locale)
    assert ids is not None, "nothing found"
    assert question.ids & set(ids[:3]), ids[:3]


def test_held_out_questions_are_answered_well_enough():
    tallies: dict[tuple[str, str], Tally] = {}
    for question in questions():
        if question.held_out:
            tallies.setdefault((question.game, question.locale), Tally()).add(question)
    assert len(tallies) == 12 and all(t.asked >= 5 for t in tallies.values())
    total = sum(tallies.values(), Tally())
    assert total.top3 >= HELD_OUT_MINIMUM * total.asked, total.line()
    for key, tally in tallies.items():
        assert tally.top3 >= HELD_OUT_FLOOR * tally.asked, (key, tally.line())


def test_the_question_set_has_fifteen_questions_a_third_held_out_for_every_game_and_language():
    count = Counter((q.game, q.locale) for q in questions())
    held = Counter((q.game, q.locale) for q in questions() if q.held_out)
    assert set(count) == {(game, locale) for game in presenters() for locale in i18n.LOCALES}
    for key, asked in count.items():
        assert asked >= 15 and held[key] * 3 >= asked, key
    for q in questions():
        assert q.ids <= {s.id for s in rules.sections(q.game)}, q


@pytest.mark.parametrize("locale", i18n.LOCALES)
@pytest.mark.parametrize("game", sorted(presenters()))
def test_the_topic_list_offers_each_section_once(game, locale):
    """Roll for the Galaxy and Talisman have a section whose id is the options topic: listed once, not twice."""
    for typed in ("", "옵", "규칙", "게임", "op", "o", "e", "승리 조건"):
        offered = [value for _, value in rules.suggest(game, typed, locale)]
        assert len(offered) == len(set(offered)), (typed, offered)


@pytest.mark.parametrize("game", sorted(presenters()))
def test_gibberish_finds_nothing(game):
    title = presenter(game).title
    for locale in i18n.LOCALES:
        for typed in ("ㅁㄴㅇㄹ", "xyzzy"):
            expected = i18n.t("rules.not_found", locale, topic=typed, game=title(locale))
            assert rules.answer(game, typed, locale) == expected


def test_a_korean_word_is_read_without_its_particle_or_ending():
    stems = {
        "죽으면": "죽",
        "끝납니다": "끝나",
        "이기나요": "이기",
        "공격해요": "공격",
        "승리하면": "승리",
        "동점이면": "동점",
        "컵으로": "컵",
        "캐릭터가": "캐릭터",
        "누가": "누가",  # who, not 누 and a particle
        "무기": "무기",  # a noun that ends as a verb ending might
        "제한": "제한",
    }
    assert {word: rules._stem(word) for word in stems} == stems


def test_a_card_named_exactly_is_shown_rather_than_a_section_whose_title_contains_its_name():
    """Talisman's Castle (성) opened 성향과 두꺼비 and the Death space the section on dying."""
    assert rules.answer("talisman", "성", "ko").startswith("**탈리스만 — 성**\n")
    assert rules.answer("talisman", "Death", "en").startswith("**Talisman — Death**\n")
    assert rules.answer("talisman", "두꺼비", "ko").startswith("**탈리스만 — 성향과 두꺼비**\n")
