"""The results picture: landscape, a bar per player with its categories, a line per player, deterministic;
the score series ends at the game's final scores."""

from __future__ import annotations

import pytest

from render import results
from render.common import CHAT_MIN_PX, CHAT_WIDTH, SEAT_COLOURS, font_sizes
from tests.render.helpers import has_colour, picture, played

NAMES = ["Alice", "Bob", "Carol"]


@pytest.mark.parametrize("name", ["druids", "roll_for_the_galaxy", "roll_player", "talisman"])
def test_results_of_a_finished_game(name):
    players = 1 if name == "roll_player" else 3
    engine, state, views = played(name, players, seed=11, moves=5000)
    outcome = engine.outcome(state)
    assert outcome is not None
    series = results.score_series(views)
    assert len(series) == len(views)
    if name != "talisman":  # Talisman has no points: its series follows Strength + Craft + Life
        assert series[-1] == list(outcome.scores)
    with font_sizes() as sizes:
        png = results.game_results(views[-1], series, NAMES[:players], outcome.winners, "ko", "결과")
    image = picture(png)
    assert image.size == (results.WIDTH, results.HEIGHT) and 4 / 3 <= image.width / image.height <= 2
    assert min(sizes) * CHAT_WIDTH / image.width >= CHAT_MIN_PX
    assert min(sizes) * CHAT_WIDTH / image.width >= 11  # a review could not read the axes and legend at 9 px
    used = [v for v in results.score_parts(views[-1])[0].values() if v]
    assert has_colour(image, (60, 100, 530, results.HEIGHT - 150), results.CATEGORY_COLOURS[0]) or not used
    for seat in range(players):
        assert has_colour(image, (620, 100, results.WIDTH - 40, results.HEIGHT - 150), SEAT_COLOURS[seat]), (
            seat
        )
    assert results.game_results(views[-1], series, NAMES[:players], outcome.winners, "ko", "결과") == png


def test_stacked_bar_heights_follow_the_values():
    """Two players, one category each: the bar of 20 stands twice as tall as the bar of 10."""
    png = results.render_results(["A", "B"], ["Points"], [[10], [20]], [[0, 0], [10, 20]], [1], "t", "en")
    image = picture(png)
    colour = results.CATEGORY_COLOURS[0]
    heights = []
    for seat in range(2):
        cx = int(70 + (520 - 70) / 2 * (seat + 0.5))
        column = [
            all(abs(a - b) <= 12 for a, b in zip(image.getpixel((cx, y)), colour, strict=True))
            for y in range(image.height)
        ]
        heights.append(sum(column))
    assert heights[0] > 0 and abs(heights[1] / heights[0] - 2) < 0.1, heights


def test_nice_ticks_cover_the_range_in_round_steps():
    assert results._nice_ticks(0, 48) == [0, 10, 20, 30, 40, 50]
    assert results._nice_ticks(-3, 7) == [-5, 0, 5, 10]


def test_a_timed_talisman_game_is_pictured_by_what_decided_it():
    """With a round limit the rulebook counts Strength and Craft counters, gold, Spells, Followers and Objects:
    the bars and the series are that count (it charted Strength + Craft + Life, so a winner could have the lowest
    bar), and the winners have the highest totals."""
    from engines import get_engine
    from engines.rng import Rng

    engine = get_engine("talisman")
    state = engine.new_game(3, engine.validate_options({"round_limit": "3"}), 5)
    views, rng = [engine.view(state, None)], Rng.from_seed(5)
    while engine.outcome(state) is None:
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        views.append(engine.view(state, None))
    outcome = engine.outcome(state)
    assert state["result"]["reason"] == "time_up"
    series = results.score_series(views)
    assert series[-1] == list(outcome.scores)
    assert {s for s, total in enumerate(series[-1]) if total == max(series[-1])} == set(outcome.winners)
    assert set(results.score_parts(views[-1])[0]) <= set(results.CATEGORIES["talisman_timed"])
    png = results.game_results(views[-1], series, NAMES, outcome.winners, "en", "Talisman")
    assert picture(png).size == (results.WIDTH, results.HEIGHT)


def test_lines_of_equal_scores_are_all_seen_in_their_seats_colours():
    """Two players level all game long: the second line was drawn over the first, hiding it; lines now sit a
    line's width apart, and each keeps its seat's colour through the picture's palette."""
    png = results.render_results(
        ["A", "B"], ["Points"], [[10], [10]], [[0, 0], [5, 5], [10, 10]], [0, 1], "t", "en"
    )
    chart = picture(png).convert("RGB").crop((620, 100, results.WIDTH - 40, results.HEIGHT - 150))
    for seat in (0, 1):
        near = [
            n
            for n, c in chart.getcolors(1 << 20)
            if all(abs(a - b) <= 12 for a, b in zip(c, SEAT_COLOURS[seat], strict=True))
        ]
        assert sum(near) > 500, seat  # a whole line's length, not a marker's edge


def test_roll_for_the_galaxys_score_series_reads_every_public_view():
    """The series scores each public view as the game would score it then: a seat's rows hidden while dice are
    assigned, and its explorers told as (colour, virtual) pairs, must not stop a finished game's picture (seed 4,
    2 players, had its 6-cost bonus counting a seat's dice by the state's shapes at move 199)."""
    from engines.roll_for_the_galaxy import ENGINE
    from engines.roll_for_the_galaxy.scoring import score_in_view

    state, views = ENGINE.new_game(2, ENGINE.validate_options({}), 4), []
    for number in range(200):
        views.append(ENGINE.view(state, None))
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, number))
    series = results.score_series(views)
    assert series[199] == [score_in_view(seat)["total"] for seat in views[199]["seats"]]
