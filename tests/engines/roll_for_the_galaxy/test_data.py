"""Every data file is complete and well-formed, and every effect in it is one the engine interprets."""

from __future__ import annotations

import json

from engines.roll_for_the_galaxy import data as D

KNOWN_PLACEMENT = {"gain_die", "gain_good", "gain_credits", "remove_die", "start_credits"}
KNOWN_POWERS = {
    "assign": {"reassign", "dictate_repeat", "dictate_count"},
    "explore": {
        "rearrange_construction",
        "extra_workers",
        "draw_extra_tile",
        "credits_if_scouted_with",
        "stock_bonus",
        "scout_on_top",
        "credits_if_most",
    },
    "develop": {
        "credits_per_citizenry_die",
        "credits",
        "credits_per_completion",
        "cost_reduction",
        "workers_to_cup",
    },
    "settle": {"credits_per_completion", "cost_reduction", "workers_to_cup", "credits"},
    "produce": {"credits_per_good", "credits", "credits_if_most"},
    "ship": {
        "credits_per_citizenry_die",
        "trade_bonus",
        "consume_bonus",
        "credits",
        "vp",
        "buy_vp_on_trade",
        "credits_if_highest_world",
        "extra_workers",
    },
    "always": {"good_capacity"},
    "end_game": {"vp_fraction", "vp_per", "vp_per_set", "vp_triangular_chips"},
}
WORLD_COLORS = {"grey", "blue", "brown", "green", "yellow"}
LANGUAGES = ("en", "ko", "es")


def _check_name(entry):
    assert set(entry["name"]) == set(LANGUAGES), entry["id"]
    assert all(entry["name"][lang].strip() for lang in LANGUAGES), entry["id"]
    assert entry.get("ko_translated", True) is True, "only marks Korean names the rulebook does not print"


def _check_side(side):
    _check_name(side)
    assert 0 <= side["cost"] <= 6
    if side["kind"] == "world":
        assert side["color"] in WORLD_COLORS
        effects = [e["effect"] for e in side["on_place"]]
        assert set(effects) <= KNOWN_PLACEMENT, side["id"]
        if "remove_die" in effects:
            assert effects[0] == "remove_die", "removal comes before the gains"
        for effect in side["on_place"]:
            if effect["effect"] in ("gain_die", "gain_good"):
                assert effect["color"] in D.COLORS
            if effect["effect"] == "gain_good":
                assert effect["color"] == side["color"], "a world's starting good is its own colour"
    else:
        for power in side["powers"]:
            assert power["effect"] in KNOWN_POWERS[power["when"]], (side["id"], power)
        for effect in side.get("on_complete", []):
            assert effect["effect"] in KNOWN_PLACEMENT


def test_dice_total_111_in_seven_colours_with_the_published_faces():
    assert len(D.DICE) == 7
    assert sum(d["count"] for d in D.DICE) == 111
    expected = {"white": 25, "red": 22, "purple": 9, "blue": 20, "brown": 14, "green": 12, "yellow": 9}
    assert {d["id"]: d["count"] for d in D.DICE} == expected
    wilds = {d["id"]: d["faces"].count("wild") for d in D.DICE}
    assert wilds == {"white": 0, "red": 1, "purple": 1, "blue": 1, "brown": 1, "green": 2, "yellow": 3}
    for die in D.DICE:
        _check_name(die)
        assert len(die["faces"]) == 6 and set(die["faces"]) <= set(D.PHASES) | {"wild"}
    assert "explore" not in D.FACES["yellow"], "Alien Technology dice have no explore face"


def test_fifty_five_double_sided_tiles():
    assert len(D.TILES) == 55
    ids = [t["id"] for t in D.TILES]
    assert len(set(ids)) == 55
    for tile in D.TILES:
        assert D.side(tile["development"]["id"])["kind"] == "development"
        assert D.side(tile["world"]["id"])["kind"] == "world"
        _check_side(D.side(tile["development"]["id"]))
        _check_side(D.side(tile["world"]["id"]))
    six_cost = sorted(t["development"]["id"] for t in D.TILES if t["development"]["cost"] == 6)
    assert six_cost == sorted(
        [
            "free_trade_association",
            "galactic_bankers",
            "galactic_exchange",
            "galactic_federation",
            "galactic_renaissance",
            "galactic_reserves",
            "mining_league",
            "new_economy",
            "new_galactic_order",
            "system_diversification",
        ]
    )
    for dev_id in six_cost:
        assert any(p["when"] == "end_game" for p in D.powers(dev_id)), dev_id


def test_side_ids_are_unique_across_every_component():
    sides = [t[k]["id"] for t in D.TILES for k in ("development", "world")]
    sides += [h["id"] for f in D.FACTIONS for h in f["halves"]] + [h["id"] for h in D.HOME_WORLDS]
    assert len(sides) == len(set(sides)) == len(D.SIDES)


def test_nine_factions_and_faction_nine_is_two_worlds():
    assert [f["number"] for f in D.FACTIONS] == list(range(1, 10))
    for faction in D.FACTIONS:
        assert len(faction["halves"]) == 2
        for half in faction["halves"]:
            _check_side(D.side(half["id"]))
    kinds = [[h["kind"] for h in f["halves"]] for f in D.FACTIONS]
    assert kinds[:8] == [["development", "world"]] * 8
    assert kinds[8] == ["world", "world"]


def test_nine_home_worlds_and_doomed_world_starts_with_8():
    assert len(D.HOME_WORLDS) == 9
    for home in D.HOME_WORLDS:
        _check_side(D.side(home["id"]))
    doomed = D.side("doomed_world")
    assert doomed["on_place"] == [{"effect": "start_credits", "amount": 8}]


def test_rules_numbers():
    rules = D.RULES
    assert rules["trade_price"] == {"blue": 3, "brown": 4, "green": 5, "yellow": 6}
    assert rules["vp_per_player"] == 12 and rules["credit_cap"] == 10 and rules["stock_credits"] == 2
    assert rules["start_cup"] == {"white": 3} and rules["start_citizenry"] == {"white": 2}
    assert rules["phases"] == ["explore", "develop", "settle", "produce", "ship"]


def test_korean_names_printed_in_the_rulebook_are_not_marked_as_translations():
    for side_id in (
        "public_works",
        "galactic_federation",
        "space_piracy",
        "doomed_world",
        "destroyed_colony",
    ):
        assert "ko_translated" not in D.side(side_id)
    assert D.side("public_works")["name"]["ko"] == "공공 사업"
    assert D.side("comet_zone")["ko_translated"] is True


def test_provisional_entries_carry_a_note():
    for name in ("dice.json", "tiles.json", "factions.json", "home_worlds.json"):
        for entry in json.loads((D.DATA_DIR / name).read_text(encoding="utf-8")):
            if entry.get("provisional"):
                assert entry.get("note"), entry["id"]


def test_rules_name_every_phase_and_world_colour_in_every_language():
    assert set(D.RULES["phase_names"]) == set(D.PHASES)
    assert set(D.RULES["world_colors"]) == WORLD_COLORS
    for names in [*D.RULES["phase_names"].values(), *D.RULES["world_colors"].values()]:
        assert set(names) == set(LANGUAGES) and all(names.values()), names


def test_names_tell_sides_apart_in_every_language():
    for lang in LANGUAGES:
        names = [side["name"][lang].casefold() for side in D.SIDES.values()]
        assert len(set(names)) == len(names), lang


def test_spanish_names_are_translations_and_match_the_dice_words():
    for side_id, side in D.SIDES.items():
        assert side["name"]["es"] != side["name"]["en"], side_id
    assert D.side("public_works")["name"]["es"] == "Obras públicas"
    # A world's colour is named like the die of that colour, so the two read as one concept.
    dice = {d["id"]: d["name"]["es"] for d in D.DICE}
    for color, names in D.RULES["world_colors"].items():
        if color != "grey":
            assert names["es"] == dice[color], color
