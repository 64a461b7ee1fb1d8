"""Explore, develop, settle, produce and ship, with every per-phase power of the developments."""

from __future__ import annotations

import pytest

from engines.roll_for_the_galaxy import ENGINE
from engines.roll_for_the_galaxy import rules as R

from .helpers import act, begin, blank, credits_from, finish, legal, own, roll, tile_of, vp_from

# --- explore ------------------------------------------------------------------------------------------------


def test_stock_gives_2_and_the_explorer_goes_to_the_citizenry():
    state = blank()
    begin(state, "explore", {0: ["white", "red"]})
    state, events = act(state, 0, {"type": "stock", "color": "white"})
    assert credits_from(events, 0, "stock") == 2
    assert state["seats"][0]["citizenry"] == ["white"]
    assert 0 in ENGINE.to_act(state), "every explorer must work"


def test_alien_archaeology_stocks_4_only_with_a_yellow_explorer():
    state = blank()
    own(state, 0, "alien_archaeology")
    begin(state, "explore", {0: ["yellow", "white"]})
    state, events = act(state, 0, {"type": "stock", "color": "yellow"})
    assert credits_from(events, 0, "stock") == 4
    state, events = act(state, 0, {"type": "stock", "color": "white"})
    assert credits_from(events, 0, "stock") == 2


def test_scouting_discards_then_draws_one_more_than_discarded_and_discards_return_at_phase_end():
    state = blank()
    p = state["seats"][0]
    p["dev_stack"], p["world_stack"] = [tile_of("public_works")], [tile_of("comet_zone")]
    bag_before = len(state["bag"])
    begin(state, "explore", {0: ["white"]})
    state, _ = act(state, 0, {"type": "scout", "color": "white"})
    state, _ = act(state, 0, {"type": "discard_tile", "tile": tile_of("public_works")})
    state, _ = act(state, 0, {"type": "discard_tile", "tile": tile_of("comet_zone")})
    state, events = act(state, 0, {"type": "draw"})
    drawn = next(e for e in events if e["type"] == "TilesDrawn")
    assert len(drawn["tiles"]) == 3 and drawn["private"] == [0]
    assert ENGINE.view(state, 1)["seats"][0]["task"]["scout"].get("drawn") is None
    assert len(ENGINE.view(state, 0)["seats"][0]["task"]["scout"]["drawn"]) == 3
    for i, tile in enumerate(drawn["tiles"]):
        side = "development" if i < 2 else "world"
        assert {"type": "place_tile", "tile": tile, "side": side, "position": "top"} not in legal(state, 0)
        state, _ = act(state, 0, {"type": "place_tile", "tile": tile, "side": side, "position": "bottom"})
    assert state["seats"][0]["dev_stack"] == drawn["tiles"][:2]
    assert state["stage"] != "explore"
    assert len(state["bag"]) == bag_before - 3 + 2, "the two discards went back into the bag"


def test_improved_reconnaissance_may_place_scouted_tiles_on_top():
    state = blank()
    own(state, 0, "improved_reconnaissance")
    state["seats"][0]["dev_stack"] = [tile_of("public_works")]
    begin(state, "explore", {0: ["white"]})
    state, _ = act(state, 0, {"type": "scout", "color": "white"})
    state, events = act(state, 0, {"type": "draw"})
    tile = next(e for e in events if e["type"] == "TilesDrawn")["tiles"][0]
    state, _ = act(state, 0, {"type": "place_tile", "tile": tile, "side": "development", "position": "top"})
    assert state["seats"][0]["dev_stack"] == [tile, tile_of("public_works")]


def test_advanced_logistics_rearranges_and_flips_even_without_explorers():
    state = blank()
    own(state, 0, "advanced_logistics")
    p = state["seats"][0]
    p["dev_stack"], p["world_stack"] = (
        [tile_of("public_works"), tile_of("merchant_guild")],
        [tile_of("comet_zone")],
    )
    p["dev_workers"] = ["red"]
    begin(state, "explore")
    assert ENGINE.to_act(state) == [0]
    state, _ = act(
        state, 0, {"type": "move_tile", "tile": tile_of("merchant_guild"), "side": "world", "position": "top"}
    )
    q = state["seats"][0]
    assert q["world_stack"] == [tile_of("merchant_guild"), tile_of("comet_zone")]
    assert q["dev_workers"] == ["red"], "workers stay on top of the stack"
    state, _ = act(state, 0, {"type": "finish_explore"})
    assert state["stage"] == "manage"


def test_alien_research_team_draws_an_extra_tile_after_everyone_and_pays_for_a_yellow_scout():
    state = blank()
    own(state, 0, "alien_research_team")
    begin(state, "explore", {0: ["yellow"], 1: ["white"]})
    state, _ = act(state, 0, {"type": "scout", "color": "yellow"})
    state, events = act(state, 0, {"type": "draw"})
    tile = next(e for e in events if e["type"] == "TilesDrawn")["tiles"][0]
    state, _ = act(state, 0, {"type": "place_tile", "tile": tile, "side": "world", "position": "bottom"})
    assert state["seats"][0]["task"]["done"] and state["seats"][0]["task"]["scout"] is None
    state, events = act(state, 1, {"type": "stock", "color": "white"})
    assert {"type": "TilesScouted", "seat": 0, "count": 1} in events  # public: a tile drawn, not which
    extra = state["seats"][0]["task"]["scout"]
    assert extra["extra"] and len(extra["drawn"]) == 1 and ENGINE.to_act(state) == [0]
    state, events = act(
        state,
        0,
        {"type": "place_tile", "tile": extra["drawn"][0], "side": "development", "position": "bottom"},
    )
    assert credits_from(events, 0, "alien_research_team") == 1
    assert len(state["seats"][0]["dev_stack"]) == 1


@pytest.mark.parametrize(
    ("dev_id", "colors"), [("major_research_labs", ["white"]), ("alien_research_ship", ["white", "yellow"])]
)
def test_extra_explorers(dev_id, colors):
    state = blank()
    own(state, 0, dev_id)
    begin(state, "explore")
    explorers = state["seats"][0]["task"]["explorers"]
    assert sorted(w["c"] for w in explorers) == sorted(colors) and all(w["v"] for w in explorers)
    state, events = act(state, 0, {"type": "auto_explore"})
    assert credits_from(events, 0, "stock") == 2 * len(colors)
    assert state["seats"][0]["citizenry"] == [], "imaginary explorers do not join the Citizenry"


def test_technology_unions_pays_in_explore_and_produce_only_for_strictly_most_developments():
    state = blank()
    own(state, 0, "technology_unions", "merchant_guild")
    own(state, 1, "public_works")
    begin(state, "explore")
    assert credits_from(finish(state), 0, "technology_unions") == 1
    state = blank()
    own(state, 0, "technology_unions", "earths_lost_colony")
    own(state, 1, "public_works")
    begin(state, "produce")
    assert credits_from(finish(state), 0, "technology_unions") == 0, "tied for most gives nothing"


def test_bag_refills_from_this_phases_discards_when_empty():
    state = blank()
    state["bag"] = [tile_of("comet_zone")]
    state["seats"][0]["dev_stack"] = [tile_of("public_works")]
    begin(state, "explore", {0: ["white"]})
    state, _ = act(state, 0, {"type": "scout", "color": "white"})
    state, _ = act(state, 0, {"type": "discard_tile", "tile": tile_of("public_works")})
    state, events = act(state, 0, {"type": "draw"})
    assert sorted(next(e for e in events if e["type"] == "TilesDrawn")["tiles"]) == sorted(
        [tile_of("comet_zone"), tile_of("public_works")]
    )


def test_tile_shortage_makes_players_with_three_tiles_return_one_then_the_scout_draws():
    state = blank(players=3)
    state["bag"] = []
    state["seats"][1]["dev_stack"] = [tile_of("public_works"), tile_of("merchant_guild")]
    state["seats"][1]["world_stack"] = [tile_of("comet_zone")]
    state["seats"][2]["dev_stack"] = [tile_of("space_docks")]
    begin(state, "explore", {0: ["white"]})
    state, _ = act(state, 0, {"type": "scout", "color": "white"})
    state, events = act(state, 0, {"type": "draw"})
    assert state["shortage"] == {"scout": 0, "waiting": [1]}
    assert ENGINE.to_act(state) == [1]
    state, events = act(state, 1, {"type": "return_tile", "tile": tile_of("merchant_guild")})
    assert state["shortage"] is None
    assert state["seats"][0]["task"]["scout"]["drawn"] == [tile_of("merchant_guild")]
    assert {"type": "TilesScouted", "seat": 0, "count": 1} in events  # the others learn how many, not which


# --- develop and settle -------------------------------------------------------------------------------------


def test_developers_work_one_at_a_time_completing_several_tiles_and_extras_return_to_cup():
    state = blank()
    p = state["seats"][0]
    p["dev_stack"] = [tile_of("public_works"), tile_of("export_duties")]  # costs 1 and 2
    begin(state, "develop", {0: ["red", "red", "white", "brown"]})
    p = state["seats"][0]
    assert [e["id"] for e in p["tableau"]] == ["public_works", "export_duties"]
    assert sorted(p["citizenry"]) == ["red", "red", "white"] and p["cup"] == ["brown"]


def test_partly_built_tile_keeps_its_workers_and_pre_completed_tile_waits_for_its_phase():
    state = blank()
    p = state["seats"][0]
    p["dev_stack"] = [tile_of("merchant_guild")]  # cost 3
    begin(state, "develop", {0: ["red", "red"]})
    assert state["seats"][0]["dev_workers"] == ["red", "red"] and state["seats"][0]["tableau"] == []
    p = state["seats"][0]
    p["dev_stack"].insert(
        0, tile_of("export_duties")
    )  # cost 2: complete already, but only in a develop phase
    begin(state, "settle")
    assert state["seats"][0]["tableau"] == []
    begin(state, "develop")
    assert [e["id"] for e in state["seats"][0]["tableau"]] == ["export_duties"]


def test_public_works_pays_for_each_later_development_in_the_same_phase():
    state = blank()
    state["seats"][0]["dev_stack"] = [
        tile_of("public_works"),
        tile_of("export_duties"),
        tile_of("space_docks"),
    ]
    events = begin(state, "develop", {0: ["white"] * 5})
    assert credits_from(events, 0, "public_works") == 2


def test_galactic_recycling_pays_for_each_completion_in_develop_and_settle_but_not_itself():
    state = blank()
    state["seats"][0]["dev_stack"] = [tile_of("galactic_recycling"), tile_of("space_docks")]
    events = begin(state, "develop", {0: ["white"] * 4})
    assert credits_from(events, 0, "galactic_recycling") == 1
    state["seats"][0]["world_stack"] = [tile_of("comet_zone")]
    events = begin(state, "settle", {0: ["white"] * 3})
    assert credits_from(events, 0, "galactic_recycling") == 1


def test_galactic_investors_pays_2_at_the_end_of_develop_including_the_phase_it_is_built():
    state = blank()
    state["seats"][0]["dev_stack"] = [tile_of("galactic_investors")]
    begin(state, "develop", {0: ["white"] * 5})
    assert credits_from(finish(state), 0, "galactic_investors") == 2


def test_galactic_religion_pays_per_blue_die_in_citizenry_after_develop():
    state = blank()
    own(state, 0, "galactic_religion")
    state["seats"][0]["citizenry"] = ["blue", "blue", "red"]
    begin(state, "develop")
    assert credits_from(finish(state), 0, "galactic_religion") == 2


def test_investment_credits_discounts_later_developments_but_not_below_one():
    state = blank()
    p = state["seats"][0]
    assert R.build_cost(p, "investment_credits") == 4
    own(state, 0, "investment_credits")
    assert R.build_cost(p, "galactic_salon") == 3
    assert R.build_cost(p, "public_works") == 1
    assert R.build_cost(p, "comet_zone") == 3, "worlds are not developments"


def test_biological_adaptation_discounts_only_reassign_developments():
    state = blank()
    own(state, 0, "biological_adaptation")
    p = state["seats"][0]
    assert R.build_cost(p, "galactic_influence") == 2
    assert R.build_cost(p, "diversification") == 1
    assert R.build_cost(p, "merchant_guild") == 3


def test_galactic_federation_sends_two_developers_of_later_developments_to_the_cup():
    state = blank()
    state["seats"][0]["dev_stack"] = [tile_of("galactic_federation"), tile_of("merchant_guild")]
    begin(state, "develop", {0: ["white"] * 6 + ["white", "yellow", "red"]})
    p = state["seats"][0]
    assert sorted(p["cup"]) == ["red", "yellow"] and sorted(p["citizenry"]) == ["white"] * 7


@pytest.mark.parametrize(
    ("world_id", "power", "cost"),
    [
        ("deserted_alien_outpost", "alien_uplift_blueprints", 3),
        ("jungle_world", "alien_uplift_blueprints", 3),
        ("mining_world", "alien_uplift_blueprints", 3),
        ("tourist_world", "free_trade_zone", 2),
        ("trading_world", "free_trade_zone", 2),
        ("outlaw_world", "free_trade_zone", 2),
        ("fifth_column", "free_trade_zone", 1),
        ("galactic_trendsetters", "free_trade_zone", 4),
        ("mining_world", "replicant_robots", 2),
        ("fifth_column", "replicant_robots", 1),
    ],
)
def test_settle_cost_reductions(world_id, power, cost):
    state = blank()
    p = state["seats"][0]
    base = R.build_cost(p, world_id)
    own(state, 0, power)
    expected = {"alien_uplift_blueprints": base - 1 if world_id != "mining_world" else base}.get(power, cost)
    assert R.build_cost(p, world_id) == expected


def test_free_trade_zone_with_replicant_robots_makes_3_and_4_cost_grey_worlds_cost_1():
    state = blank()
    own(state, 0, "free_trade_zone", "replicant_robots")
    p = state["seats"][0]
    assert R.build_cost(p, "trading_world") == 1
    assert R.build_cost(p, "tourist_world") == 1
    p["world_stack"] = [tile_of("tourist_world")]
    begin(state, "settle", {0: ["white"]})
    assert [e["id"] for e in state["seats"][0]["tableau"]][-1] == "tourist_world"


def test_robot_surveyors_and_terraforming_robots():
    state = blank()
    own(state, 0, "robot_surveyors", "terraforming_robots")
    state["seats"][0]["world_stack"] = [tile_of("comet_zone"), tile_of("fifth_column")]  # brown 3, grey 1
    events = begin(state, "settle", {0: ["white"] * 4})
    assert credits_from(events, 0, "terraforming_robots") == 2 + 1
    assert credits_from(finish(state), 0, "robot_surveyors") == 2


def test_galactic_exchange_sends_two_settlers_to_the_cup():
    state = blank()
    own(state, 0, "galactic_exchange")
    state["seats"][0]["world_stack"] = [tile_of("comet_zone")]
    begin(state, "settle", {0: ["white", "green", "white"]})
    assert sorted(state["seats"][0]["cup"]) == ["white", "green"] or sorted(state["seats"][0]["cup"]) == [
        "green",
        "white",
    ]
    assert state["seats"][0]["citizenry"] == ["white"]


def test_new_galactic_order_sends_every_red_settler_to_the_cup():
    state = blank()
    own(state, 0, "new_galactic_order")
    state["seats"][0]["world_stack"] = [tile_of("comet_zone")]
    begin(state, "settle", {0: ["red", "white", "red"]})
    assert state["seats"][0]["cup"] == ["red", "red"] and state["seats"][0]["citizenry"] == ["white"]


# --- produce ------------------------------------------------------------------------------------------------


def test_produce_one_good_per_non_grey_world_any_colour_and_leftovers_return():
    state = blank()
    own(state, 0, "comet_zone", "fifth_column", "information_hub")
    begin(state, "produce", {0: ["white", "white", "white"]})
    p = state["seats"][0]
    goods = {e["id"]: e["goods"] for e in p["tableau"]}
    assert goods == {"comet_zone": ["white"], "fifth_column": [], "information_hub": ["white"]}
    assert p["cup"] == ["white"]


def test_producer_choice_when_colours_differ():
    state = blank()
    own(state, 0, "comet_zone", "information_hub")
    begin(state, "produce", {0: ["blue", "brown"]})
    actions = legal(state, 0)
    assert {"type": "produce", "color": "blue", "world": "comet_zone"} in actions
    state, _ = act(state, 0, {"type": "produce", "color": "blue", "world": "comet_zone"})
    goods = {e["id"]: e["goods"] for e in state["seats"][0]["tableau"]}
    assert goods == {"comet_zone": ["blue"], "information_hub": ["brown"]}


def test_galactic_reserves_lets_each_world_hold_two_goods():
    state = blank()
    own(state, 0, "galactic_reserves", "comet_zone")
    begin(state, "produce", {0: ["white", "white", "white"]})
    assert state["seats"][0]["tableau"][1]["goods"] == ["white", "white"]
    assert state["seats"][0]["cup"] == ["white"]


@pytest.mark.parametrize(
    ("dev_id", "expected"),
    [
        ("consumer_markets", 2),  # goods on the two blue worlds
        ("mining_league", 1),  # the good on the brown world
        ("genetics_lab", 4),  # two green dice as goods, wherever they sit
        ("merchant_guild", 2),
    ],
)
def test_produce_phase_powers(dev_id, expected):
    state = blank()
    own(
        state,
        0,
        dev_id,
        "information_hub",
        "galactic_resort",
        "comet_zone",
        goods={"information_hub": ["green"], "galactic_resort": ["blue"], "comet_zone": ["green"]},
    )
    begin(state, "produce")
    assert credits_from(finish(state), 0, dev_id) == expected


# --- ship ---------------------------------------------------------------------------------------------------


def _shipping(*sides, goods, shippers, seat_powers=()):
    state = blank()
    own(state, 0, *seat_powers, *sides, goods=goods)
    begin(state, "ship", {0: shippers})
    return state


def test_trade_price_follows_the_world_colour_not_the_good():
    state = _shipping(
        "information_hub",
        "jungle_world",
        goods={"information_hub": ["green"], "jungle_world": ["blue"]},
        shippers=["white", "white"],
    )
    state, events = act(
        state, 0, {"type": "trade", "shipper": "white", "world": "information_hub", "good": "green"}
    )
    assert credits_from(events, 0, "trade") == 3
    assert sorted(state["seats"][0]["citizenry"]) == ["green", "white"], "shipper and good join the Citizenry"
    state, events = act(
        state, 0, {"type": "trade", "shipper": "white", "world": "jungle_world", "good": "blue"}
    )
    assert credits_from(events, 0, "trade") == 5


@pytest.mark.parametrize(
    ("shipper", "good", "vp"),
    [
        ("white", "white", 1),
        ("brown", "white", 2),
        ("white", "brown", 2),
        ("brown", "brown", 3),
        ("purple", "white", 2),
        ("white", "purple", 2),
        ("purple", "purple", 3),
        ("purple", "brown", 3),
    ],
)
def test_consume_vp_with_matching_colours_and_purple_matching_anything(shipper, good, vp):
    state = _shipping("comet_zone", goods={"comet_zone": [good]}, shippers=[shipper])
    state, events = act(
        state, 0, {"type": "consume", "shipper": shipper, "world": "comet_zone", "good": good}
    )
    assert vp_from(events, 0, "consume") == vp


def test_unused_shippers_return_to_the_cup():
    state = _shipping("comet_zone", goods={"comet_zone": ["brown"]}, shippers=["white", "red"])
    state, _ = act(state, 0, {"type": "consume", "shipper": "white", "world": "comet_zone", "good": "brown"})
    assert state["seats"][0]["cup"] == ["red"]


@pytest.mark.parametrize(
    ("dev_id", "world", "bonus"),
    [
        ("export_duties", "information_hub", 1),
        ("export_duties", "comet_zone", 1),
        ("galactic_demand", "information_hub", 2),
        ("galactic_demand", "comet_zone", 0),
        ("jumpdrive_research", "comet_zone", 1),
        ("jumpdrive_research", "information_hub", 0),
    ],
)
def test_trade_bonuses(dev_id, world, bonus):
    state = _shipping(world, goods={world: ["white"]}, shippers=["white"], seat_powers=[dev_id])
    state["seats"][0]["credits"] = 0
    state, events = act(state, 0, {"type": "trade", "shipper": "white", "world": world, "good": "white"})
    base = {"information_hub": 3, "comet_zone": 4}[world]
    assert credits_from(events, 0, "trade") == base + bonus


def test_galactic_bankers_may_buy_a_chip_for_1_after_each_trade():
    state = _shipping(
        "comet_zone",
        goods={"comet_zone": ["white", "white"]},
        shippers=["white", "white"],
        seat_powers=["galactic_bankers", "galactic_reserves"],
    )
    state["seats"][0]["credits"] = 0
    assert {"type": "trade", "shipper": "white", "world": "comet_zone", "good": "white"} not in legal(
        state, 0
    )
    state, events = act(
        state,
        0,
        {"type": "trade", "shipper": "white", "world": "comet_zone", "good": "white", "buy_vp": True},
    )
    assert state["seats"][0]["credits"] == 3 and vp_from(events, 0, "galactic_bankers") == 1
    state, events = act(
        state,
        0,
        {"type": "trade", "shipper": "white", "world": "comet_zone", "good": "white", "buy_vp": False},
    )
    gained = next(e for e in events if e["type"] == "CreditsGained")
    assert gained["credits"] == 7 and state["seats"][0]["vp"] == 1


@pytest.mark.parametrize(
    ("dev_id", "world", "vp", "credits"),
    [
        ("mining_industry", "comet_zone", 0, 1),
        ("mining_industry", "jungle_world", 0, 0),
        ("trade_levies", "jungle_world", 0, 1),
        ("new_economy", "jungle_world", 0, 2),
        ("galactic_renaissance", "jungle_world", 1, 0),
        ("minor_research_labs", "jungle_world", 1, 0),
        ("minor_research_labs", "deserted_alien_outpost", 1, 0),
        ("minor_research_labs", "comet_zone", 0, 0),
        ("space_refineries", "comet_zone", 1, 0),
        ("space_refineries", "jungle_world", 0, 0),
    ],
)
def test_consume_bonuses(dev_id, world, vp, credits):
    state = _shipping(world, goods={world: ["white"]}, shippers=["white"], seat_powers=[dev_id])
    state, events = act(state, 0, {"type": "consume", "shipper": "white", "world": world, "good": "white"})
    assert vp_from(events, 0, "consume") == 1 + vp
    assert credits_from(events, 0, "consume") == credits


def test_space_piracy_rounds_up_three_red_dice_to_2():
    state = blank()
    own(state, 0, "space_piracy")
    state["seats"][0]["citizenry"] = ["red", "red", "red", "white"]
    begin(state, "ship")
    assert credits_from(finish(state), 0, "space_piracy") == 2


@pytest.mark.parametrize(
    ("dev_id", "credits", "vp"), [("free_trade_association", 2, 0), ("galactic_salon", 0, 1)]
)
def test_end_of_ship_payments(dev_id, credits, vp):
    state = blank()
    own(state, 0, dev_id)
    begin(state, "ship")
    events = finish(state)
    assert credits_from(events, 0, dev_id) == credits and vp_from(events, 0, dev_id) == vp


def test_space_tourism_extra_dollar_only_with_every_highest_cost_world():
    state = blank()
    own(state, 0, "space_tourism", "alien_sentinels")
    own(state, 1, "comet_zone")
    begin(state, "ship")
    assert credits_from(finish(state), 0, "space_tourism") == 2
    state = blank()
    own(state, 0, "space_tourism", "alien_sentinels")
    own(state, 1, "lost_alien_battle_fleet")
    begin(state, "ship")
    assert credits_from(finish(state), 0, "space_tourism") == 1


@pytest.mark.parametrize(
    ("dev_id", "colors"), [("space_docks", ["white"]), ("organic_shipyards", ["green", "white"])]
)
def test_extra_shippers(dev_id, colors):
    state = _shipping(
        "jungle_world",
        "comet_zone",
        goods={"jungle_world": ["green"], "comet_zone": ["brown"]},
        shippers=[],
        seat_powers=[dev_id],
    )
    assert sorted(w["c"] for w in state["seats"][0]["task"]["shippers"]) == colors
    if "green" in colors:
        state, events = act(
            state, 0, {"type": "consume", "shipper": "green", "world": "jungle_world", "good": "green"}
        )
        assert vp_from(events, 0, "consume") == 3
    state, _ = act(state, 0, {"type": "trade", "shipper": "white", "world": "comet_zone", "good": "brown"})
    assert "white" not in state["seats"][0]["citizenry"], "an imaginary shipper does not join the Citizenry"


def test_auto_ship_consumes_for_the_most_chips():
    state = _shipping(
        "comet_zone",
        "jungle_world",
        goods={"comet_zone": ["brown"], "jungle_world": ["white"]},
        shippers=["brown"],
    )
    state, events = act(state, 0, {"type": "auto_ship"})
    assert vp_from(events, 0, "consume") == 3


def test_galactic_reserves_goods_still_need_one_shipper_each():
    state = _shipping(
        "comet_zone",
        goods={"comet_zone": ["brown", "white"]},
        shippers=["white"],
        seat_powers=["galactic_reserves"],
    )
    state, _ = act(state, 0, {"type": "consume", "shipper": "white", "world": "comet_zone", "good": "brown"})
    goods = {e["id"]: e["goods"] for e in state["seats"][0]["tableau"]}
    assert goods["comet_zone"] == ["white"]


def test_a_die_reassigned_to_a_phase_none_of_its_faces_shows_works_there():
    """FAQ: the row, not the face, decides the worker: a yellow (no explore face) explorer stocks for $4."""
    state = blank()
    own(state, 0, "alien_archaeology", "galactic_influence")
    roll(state, 0, [("white", "explore"), ("yellow", "produce")])
    state, _ = act(
        state, 0, {"type": "choose_phase", "color": "white", "from": "explore", "phase": "explore"}
    )
    state, _ = act(
        state,
        0,
        {
            "type": "reassign",
            "power": "galactic_influence",
            "color": "yellow",
            "from": "produce",
            "to": "explore",
        },
    )
    state["seats"][1]["dice"] = []
    state, _ = act(state, 0, {"type": "ready"})
    state, events = act(state, 0, {"type": "stock", "color": "yellow"})
    assert credits_from(events, 0, "stock") == 4


def test_removing_the_die_that_chose_a_phase_leaves_the_phase_running():
    state = blank()
    state["seats"][0]["dev_stack"] = [tile_of("conscription")]
    state["seats"][0]["rows"]["produce"] = ["blue"]
    own(state, 0, "comet_zone")
    begin(state, "develop", {0: ["white"] * 4})
    state["phases"] = ["develop", "produce"]
    state, events = act(state, 0, {"type": "remove_die", "where": "row:produce", "color": "blue"})
    assert {"type": "PhaseStarted", "phase": "produce"} in events
    assert not any(e["type"] == "GoodProduced" for e in events), "the produce row is empty now"
    assert {"type": "DiceGained", "seat": 0, "color": "red", "count": 2, "to": "cup"} in events
