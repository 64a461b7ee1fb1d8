"""Set-up, managing the empire, the game end, scoring with the 6-cost bonuses, tie-breaks and hidden
information."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines.base import IllegalAction
from engines.rng import Rng
from engines.roll_for_the_galaxy import ENGINE
from engines.roll_for_the_galaxy import data as D
from engines.roll_for_the_galaxy import engine as E
from engines.roll_for_the_galaxy import rules as R
from engines.roll_for_the_galaxy.scoring import score

from .helpers import act, begin, blank, legal, own, tile_of

# --- set-up -------------------------------------------------------------------------------------------------


def test_set_up_gives_cups_citizenry_credits_and_two_construction_tiles():
    state = ENGINE.new_game(4, ENGINE.validate_options({}), 11)
    assert state["stage"] == "setup" and ENGINE.to_act(state) == [0, 1, 2, 3]
    assert state["vp_pool"] == 48
    factions = {p["faction"] for p in state["seats"]}
    homes = {p["home"] for p in state["seats"]}
    assert len(factions) == len(homes) == 4
    p = state["seats"][2]
    a, b = p["start_tiles"]
    assert {"type": "place_start_tiles", "development": a} in legal(state, 2)
    state, _ = act(state, 2, {"type": "place_start_tiles", "development": b})
    assert state["seats"][2]["dev_stack"] == [b] and state["seats"][2]["world_stack"] == [a]
    assert len(state["bag"]) == 55 - 8
    for seat in (0, 1, 3):
        state, _ = act(state, seat, legal(state, seat)[0])
    assert state["stage"] == "assign" and state["round"] == 1
    assert all(len(p["dice"]) >= 3 for p in state["seats"])


def test_first_game_option_places_the_cheaper_development_automatically():
    state = ENGINE.new_game(3, ENGINE.validate_options({"first_game": "yes"}), 5)
    assert state["stage"] == "assign"
    for p in state["seats"]:
        dev = D.side(D.TILE_SIDES[p["dev_stack"][0]]["development"])["cost"]
        other = D.side(D.TILE_SIDES[p["world_stack"][0]]["development"])["cost"]
        assert dev <= other


# --- manage empire ------------------------------------------------------------------------------------------


def test_recruit_as_many_as_credits_allow_then_the_credit_floor():
    state = blank()
    p = state["seats"][0]
    p["citizenry"], p["credits"] = ["white", "red", "white"], 2
    own(state, 0, "comet_zone", goods={"comet_zone": ["brown"]})
    begin(state, "manage")
    assert {a["type"] for a in legal(state, 0)} == {"recruit", "auto_manage"}
    state, _ = act(state, 0, {"type": "recruit", "color": "red"})
    p = state["seats"][0]  # with only white dice left there is nothing to choose: the last $1 recruits one
    assert sorted(p["cup"]) == ["red", "white"] and p["citizenry"] == ["white"]
    assert p["credits"] == 1, "a $0 marker moves up to $1 after recruiting"
    state, _ = act(state, 0, {"type": "reclaim", "where": "good:comet_zone", "color": "brown"})
    assert state["stage"] == "assign", "nothing left to reclaim ends the round"
    assert sorted(d["c"] for d in state["seats"][0]["dice"]) == ["brown", "red", "white"]


def test_a_player_with_an_empty_cup_must_reclaim_a_die():
    state = blank()
    p = state["seats"][0]
    p["world_workers"] = ["red"]
    p["world_stack"] = [tile_of("comet_zone")]
    begin(state, "manage")
    assert {"type": "end_manage"} not in legal(state, 0)
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "end_manage"})
    assert refused.value.code == "cup_empty_reclaim_one"
    state, _ = act(state, 0, {"type": "reclaim", "where": "world_zone", "color": "red"})
    assert state["stage"] == "assign" and state["seats"][0]["dice"][0]["c"] == "red"


def test_credits_are_capped_at_10_and_chips_overflow_past_the_pool():
    state = blank()
    state["seats"][0]["credits"] = 9
    events: list = []
    R.gain_credits(state, 0, 4, events, "test")
    assert state["seats"][0]["credits"] == 10
    state["vp_pool"] = 2
    R.gain_vp(state, 0, 3, events, "test")
    assert state["vp_pool"] == 0 and state["seats"][0]["vp"] == 3


# --- game end and scoring -----------------------------------------------------------------------------------


def _end_of_round(state):
    for p in state["seats"]:
        p["cup"] = ["white"]
    begin(state, "manage")
    return state


def test_game_ends_after_the_round_in_which_the_pool_empties():
    state = _end_of_round(blank())
    state["vp_pool"] = 0
    E._progress(state, [])
    assert state["stage"] == "over" and ENGINE.outcome(state) is not None


def test_game_ends_with_twelve_tableau_spaces_counting_a_faction_as_two():
    state = blank()
    own(state, 0, *D.FACTION_SIDES["faction_1"], "new_sparta", *[t["world"]["id"] for t in D.TILES[:8]])
    assert R.spaces(state["seats"][0]) == 11
    _end_of_round(state)
    E._progress(state, [])
    assert state["stage"] == "assign"
    own(state, 0, "comet_zone")
    _end_of_round(state)
    E._progress(state, [])
    assert state["stage"] == "over"


def test_score_adds_chips_tile_costs_and_both_faction_halves():
    state = blank()
    p = state["seats"][0]
    own(state, 0, "space_piracy", "hidden_fortress", "old_earth", "comet_zone")
    p["vp"] = 7
    assert score(p)["total"] == 7 + 0 + 2 + 3 + 3


BONUS_CASES = [
    # New Galactic Order: 4 red dice are 1 1/3 sets, rounded up to 2 sets: 4 VP.
    ("new_galactic_order", {"cup": ["red", "red", "red", "red"]}, [], 4),
    ("new_galactic_order", {"cup": ["red", "red", "red"]}, [], 2),
    ("galactic_federation", {}, ["public_works", "merchant_guild"], 4),  # (6 + 1 + 3) / 3 rounded up
    ("free_trade_association", {}, ["information_hub", "galactic_resort", "comet_zone"], 3),  # (3 + 3) / 2
    ("system_diversification", {}, ["local_subsidies", "merchant_guild"], 4),  # (6 + 2) / 2
    ("galactic_exchange", {"cup": ["white", "red"], "citizenry": ["purple", "red"]}, [], 3),
    ("mining_league", {}, ["comet_zone", "mining_world", "information_hub"], 4),
    ("galactic_renaissance", {"vp": 6}, [], 3),
    ("galactic_renaissance", {"vp": 9}, [], 3),
    ("galactic_renaissance", {"vp": 10}, [], 4),
    ("galactic_reserves", {}, ["comet_zone", "mining_world"], 3),
    ("galactic_bankers", {}, ["public_works", "space_piracy", "comet_zone"], 3),
    ("new_economy", {}, ["public_works", "local_subsidies"], 2),
]


@pytest.mark.parametrize(("dev_id", "seat", "tiles", "bonus"), BONUS_CASES)
def test_six_cost_development_bonuses(dev_id, seat, tiles, bonus):
    state = blank()
    p = state["seats"][0]
    p.update(seat)
    own(state, 0, dev_id, *tiles, goods={"comet_zone": ["brown", "white"], "mining_world": ["red"]})
    assert score(p)["bonuses"] == {dev_id: bonus}


def test_tie_break_by_cup_dice_plus_credits_and_shared_victory():
    state = blank(players=3)
    for p, cup, credits in zip(state["seats"], (2, 3, 1), (4, 3, 5), strict=True):
        p["cup"] = ["white"] * cup
        p["credits"] = credits
        p["vp"] = 10
    state["seats"][2]["vp"] = 9
    state["final"] = [score(p) for p in state["seats"]]
    state["stage"] = "over"
    outcome = ENGINE.outcome(state)
    assert outcome.scores == [10, 10, 9] and outcome.winners == [0, 1]
    state["seats"][1]["credits"] = 4
    state["final"] = [score(p) for p in state["seats"]]
    assert ENGINE.outcome(state).winners == [1]


# --- hidden information -------------------------------------------------------------------------------------


def _mid_game(seed=4):
    state = ENGINE.new_game(3, {"first_game": True}, seed)
    state["seats"][1]["dev_stack"] += [state["bag"].pop(), state["bag"].pop()]
    return state


def test_construction_stacks_show_only_top_tile_and_size_to_others():
    state = _mid_game()
    p = state["seats"][1]
    other = ENGINE.view(state, 0)["seats"][1]
    assert other["dev_top"] == p["dev_stack"][0] and other["dev_size"] == 3 and "dev_stack" not in other
    assert ENGINE.view(state, 1)["seats"][1]["dev_stack"] == p["dev_stack"]
    public = str(ENGINE.view(state, None))
    for tile in p["dev_stack"][1:] + state["bag"]:
        assert f"'{tile}'" not in public


def test_public_view_hides_bag_order_rolls_and_drawn_tiles():
    state = _mid_game()
    public = ENGINE.view(state, None)
    assert "bag" not in public and public["bag_size"] == len(state["bag"])
    assert all("dice" not in s for s in public["seats"])


def test_shuffle_hidden_keeps_the_seat_view_and_changes_what_it_cannot_see():
    state = _mid_game()
    changed = False
    for seed in range(5):
        other = ENGINE.shuffle_hidden(state, 0, seed)
        assert ENGINE.view(other, 0) == ENGINE.view(state, 0)
        changed |= other["seats"][1]["dev_stack"] != state["seats"][1]["dev_stack"]
        changed |= [d["f"] for d in other["seats"][1]["dice"]] != [d["f"] for d in state["seats"][1]["dice"]]
    assert changed


def test_illegal_actions_get_specific_codes():
    state = ENGINE.new_game(2, {"first_game": True}, 2)
    seat = ENGINE.to_act(state)[0]
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, {"type": "consume"})
    assert refused.value.code == "wrong_stage"
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, {"type": "fly_away"})
    assert refused.value.code == "unknown_action"
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, {"type": "ready"})
    assert refused.value.code in ("choose_phase_first", "unassigned_dice")


# --- coverage of the power list -----------------------------------------------------------------------------


def test_every_development_power_is_exercised_by_some_test():
    """Each development with a power must be named in a rule test (not counting this file's data checks)."""
    here = Path(__file__).parent
    text = "".join(
        path.read_text(encoding="utf-8") for path in here.glob("test_*.py") if path.name != "test_data.py"
    )
    named = set(re.findall(r'"([a-z_]+)"', text))
    with_powers = {
        s
        for s, data in D.SIDES.items()
        if data["kind"] == "development" and (data.get("powers") or data.get("on_complete"))
    }
    assert sorted(with_powers - named) == []


def test_built_in_players_finish_a_game_and_public_events_never_name_hidden_tiles_or_faces():
    state = ENGINE.new_game(4, {}, 21)
    chooser = Rng.from_seed(21)
    steps = 0
    while ENGINE.outcome(state) is None:
        seat = chooser.choice(ENGINE.to_act(state))
        action = ENGINE.bot_action(state, seat, steps)
        assert action in legal(state, seat)
        state, events = ENGINE.apply(state, seat, action)
        for event in events:
            if "private" not in event:
                assert not {"faces", "tiles", "action"} & set(event), event
                if event["type"] in ("TileReturned", "TileDiscarded", "TilePlaced", "TileMoved"):
                    raise AssertionError(f"{event['type']} must be private")
        steps += 1
        assert steps < 3000
    outcome = ENGINE.outcome(state)
    assert outcome.winners and len(outcome.scores) == 4
    assert state["vp_pool"] == 0 or any(R.spaces(p) >= 12 for p in state["seats"])


def test_pass_action_ends_managing_without_reclaiming():
    state = blank()
    state["seats"][0]["cup"] = ["white"]
    own(state, 0, "comet_zone", goods={"comet_zone": ["brown"]})
    begin(state, "manage")
    assert ENGINE.pass_action(state, 0) == {"type": "end_manage"}
    assert ENGINE.pass_action(state, 1) is None
