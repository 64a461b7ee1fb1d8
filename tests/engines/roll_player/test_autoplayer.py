"""Roll Player's built-in player: always legal, deterministic, and clearly better than chance."""

from __future__ import annotations

from statistics import mean

import pytest

from engines import get_engine
from engines.rng import Rng
from engines.roll_player import autoplayer
from engines.roll_player.data import SOLO

ENGINE = get_engine("roll_player")


def play(players: int, seed: int, bots: set[int], options: dict | None = None) -> dict:
    """A whole game: seats in `bots` use the built-in player, the others choose uniformly at random. Returns
    the final state."""
    state = ENGINE.new_game(players, ENGINE.validate_options(options or {}), seed)
    chooser = Rng.from_seed(seed + 1000)
    for step in range(1000):
        if ENGINE.outcome(state) is not None:
            return state
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        if seat in bots:
            action = ENGINE.bot_action(state, seat, seed * 1000 + step)
            assert action in legal
        else:
            action = chooser.choice(legal)
        state, _ = ENGINE.apply(state, seat, action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_all_bot_games_play_legally_to_the_end(players):
    for seed in (1, 2):
        state = play(players, seed, set(range(players)))
        assert all(score > 0 for score in ENGINE.outcome(state).scores)


VARIANTS = ["class_choice", "fair_start", "random_market", "short_game", "peaceful_market"]


@pytest.mark.parametrize("option", VARIANTS)
def test_every_variant_plays_to_the_end(option):
    state = play(3, 7, {0, 1, 2}, {option: True})
    assert ENGINE.outcome(state) is not None


def test_it_beats_a_random_player_by_a_clear_margin():
    # A random player places dice anywhere, so it scores a few stars (about 4 on average); the heuristic takes
    # class-colour dice, aims rows at the class targets and buys cards that score, for about 27. Ten stars is
    # well inside that gap and still far beyond what luck alone could give a player that did not plan.
    heuristic, random = [], []
    for game in range(20):
        bot = game % 2
        state = play(2, 100 + game, {bot})
        scores = ENGINE.outcome(state).scores
        heuristic.append(scores[bot])
        random.append(scores[1 - bot])
    assert mean(heuristic) > mean(random) + 10


def test_a_solo_game_reaches_a_sensible_rating():
    ratings = [r["id"] for r in sorted(SOLO["ratings"], key=lambda r: r["min"])]
    scores = []
    for seed in range(6):
        state = play(1, seed, {0})
        outcome = ENGINE.outcome(state)
        assert ratings.index(outcome.details["rating"]) >= ratings.index("squire")
        scores.append(outcome.scores[0])
    assert mean(scores) >= 25


def test_the_choice_is_deterministic_and_ignores_the_hidden_deck_order():
    state = ENGINE.new_game(3, ENGINE.validate_options({}), 11)
    rng = Rng.from_seed(5)
    checked = 0
    while ENGINE.outcome(state) is None:
        seat = ENGINE.to_act(state)[0]
        action = ENGINE.bot_action(state, seat, 9)
        assert ENGINE.bot_action(state, seat, 9) == action
        if state["phase"] == "market":
            hidden = ENGINE.shuffle_hidden(state, seat, rng.below(1000))
            assert ENGINE.bot_action(hidden, seat, 9) == action
            checked += 1
        state, _ = ENGINE.apply(state, seat, action)
    assert checked >= 30  # every market turn of the game


def test_dice_go_where_they_score():
    """A warrior (Strength 18 exactly) holding 6 and 6 in Strength places a third 6 there, then keeps it."""
    state = ENGINE.new_game(2, ENGINE.validate_options({}), 4)
    while state["phase"] != "dice" or state["step"] != "pick" or state["pending"] or state["window"]:
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, 0))
    seat = ENGINE.to_act(state)[0]
    me = state["seats"][seat]
    me["class"], me["race"] = "warrior", "human"
    me["alignment"], me["token"] = "arbiter", 3  # already on its best cell: Wisdom has nothing to offer
    me["rows"] = {attr: [] for attr in me["rows"]} | {"str": [["gold", 6], ["gold", 6]], "con": [["gold", 1]]}
    me["cards"]["skill"] = []
    for card in state["initiative"]:
        if card["die"] is not None:
            card["die"] = ["gold", 2]
    state["initiative"][-1]["die"] = ["gold", 6]
    pick = ENGINE.bot_action(state, seat, 0)
    assert pick == {"type": "pick_card", "card": state["initiative"][-1]["number"]}
    state, _ = ENGINE.apply(state, seat, pick)
    assert ENGINE.bot_action(state, seat, 0) == {"type": "place_die", "row": "str"}


def test_potential_counts_a_finished_sheet_like_the_final_score():
    """With no rounds left the estimate is the real score (bar the gold tie-break), so choices near the end
    aim at the stars that will actually be counted."""
    for players, seed in ((1, 21), (4, 22), (4, 23)):
        state = play(players, seed, set(range(players)))
        outcome = ENGINE.outcome(state)
        for index, seat in enumerate(state["seats"]):
            others = [s["gold"] for i, s in enumerate(state["seats"]) if i != index]
            estimate = autoplayer.potential(seat, 0, state["solo"], others)
            assert estimate - 0.01 * seat["gold"] == pytest.approx(outcome.scores[index])
