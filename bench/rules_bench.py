"""How well /rules answers the questions players type, by game and language.

The questions are in bench/rules_questions.json, each with the sections that answer it; a third of them are held
out (written before the matching was tuned, never tuned on) and counted apart. For each question we read what
/rules shows: the section answered first, and the first three the player sees (the answer and its "see also").

`python -m bench.rules_bench` prints, per game and language, how many questions are answered by a right section
first, by one in the top three, and how many get "nothing found".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot import i18n, rules
from bot.games import presenter

QUESTIONS = Path(__file__).with_name("rules_questions.json")


@dataclass(frozen=True)
class Question:
    game: str
    locale: str
    text: str
    ids: frozenset[str]
    held_out: bool


@cache
def questions() -> tuple[Question, ...]:
    data = json.loads(QUESTIONS.read_text("utf-8"))
    return tuple(
        Question(game, locale, row["q"], frozenset(row["ids"]), row.get("held_out", False))
        for game, by_locale in data.items()
        for locale, rows in by_locale.items()
        for row in rows
    )


def shown(game: str, question: str, locale: str) -> list[str] | None:
    """The section ids /rules shows for a question, best first: None for "nothing found", [] for a card or the
    options (no section)."""
    text = rules.answer(game, question, locale)
    title = presenter(game).title(locale)
    if text == i18n.t("rules.not_found", locale, topic=i18n.echo(question), game=title):
        return None
    named = rules.find(game, question, locale)
    if named is not None and text.startswith(f"**{title} — {named.title_in(locale)}**"):
        return [named.id]
    if text.startswith(i18n.t("rules.best_match", locale, topic=i18n.echo(question))):
        return [section.id for _, section in rules.search(game, question, locale)]
    return []


@dataclass
class Tally:
    asked: int = 0
    first: int = 0
    top3: int = 0
    nothing: int = 0

    def add(self, question: Question) -> None:
        ids = shown(question.game, question.text, question.locale)
        self.asked += 1
        self.nothing += ids is None
        self.first += bool(ids) and ids[0] in question.ids
        self.top3 += bool(ids) and bool(question.ids & set(ids[:3]))

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.asked + other.asked,
            self.first + other.first,
            self.top3 + other.top3,
            self.nothing + other.nothing,
        )

    def line(self) -> str:
        return f"{self.first:>2}/{self.asked} first, {self.top3:>2}/{self.asked} top 3, {self.nothing:>2} nothing"


def run() -> dict[tuple[str, str, bool], Tally]:
    """Tallies by (game, locale, held out), printed as a table with the totals."""
    tallies: dict[tuple[str, str, bool], Tally] = {}
    for question in questions():
        tallies.setdefault((question.game, question.locale, question.held_out), Tally()).add(question)
    print("\n## /rules answering players' questions (tuning set | held out)")
    for game, locale, _ in sorted(key for key in tallies if not key[2]):
        tuned, held = tallies[game, locale, False], tallies.get((game, locale, True), Tally())
        print(f"{game:<20} {locale}  {tuned.line()}  |  {held.line()}")
    tuned, held = (
        sum((t for key, t in tallies.items() if key[2] == side), Tally()) for side in (False, True)
    )
    print(f"{'all':<23} {tuned.line()}  |  {held.line()}")
    return tallies


if __name__ == "__main__":
    run()
