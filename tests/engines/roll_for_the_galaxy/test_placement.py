"""Every world's placement effect, every development's on-completion effect, and the set-up gains of
factions and home worlds, checked against the component list (written out here independently of the data
files)."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.roll_for_the_galaxy import ENGINE
from engines.roll_for_the_galaxy import data as D

from .helpers import act, begin, blank, tile_of

# "$n" credits, "good:C" a good on the world, "cup:C" / "cit:C" a die into cup / Citizenry, "remove" remove a
# die first.
WORLD_EFFECTS = {
    "designer_species": "$1 good:green",
    "spice_world": "cup:blue",
    "rebel_warrior_race": "remove cit:red cit:green",
    "information_hub": "good:blue",
    "galactic_trendsetters": "$2 cit:purple cit:purple",
    "gem_world": "cup:blue",
    "malevolent_lifeforms": "good:green",
    "lost_species_ark_world": "$1 good:green",
    "trading_world": "cit:purple",
    "silicon_world": "$1 good:brown",
    "sentient_robots": "cup:red",
    "galactic_resort": "good:blue",
    "former_penal_colony": "remove cup:red",
    "deserted_alien_outpost": "good:yellow",
    "star_nomad_lair": "cit:blue",
    "artist_colony": "cit:blue",
    "blaster_gem_mines": "cit:red cit:brown",
    "new_vinland": "cup:blue",
    "mining_world": "good:brown",
    "alien_robot_scout_ship": "$1 cup:yellow",
    "fifth_column": "cup:red",
    "rebel_hideout": "cit:red cit:red",
    "runaway_robots": "cup:red",
    "plague_world": "cup:green",
    "alien_sentinels": "$3 cup:yellow",
    "pirate_world": "cit:red",
    "galactic_survey_hq": "cup:blue",
    "planetary_nebula": "good:brown",
    "deserted_alien_library": "$2 good:yellow",
    "distant_world": "$1 cup:green",
    "gateway_station": "cit:purple",
    "galactic_fuel_depot": "good:brown",
    "jumpdrive_fuel_refinery": "good:brown",
    "new_survivalists": "cit:blue",
    "transport_hub": "$1 cit:purple",
    "radioactive_world": "cup:brown",
    "high_gravity_world": "cup:red",
    "secluded_world": "cit:blue",
    "tourist_world": "$1 cit:purple",
    "outlaw_world": "cup:red",
    "ore_rich_world": "cup:brown",
    "lost_alien_warship": "$2 cup:yellow",
    "space_port": "cup:blue",
    "asteroid_belt": "cup:brown",
    "deep_space_symbionts": "$1 cup:green",
    "armaments_world": "$1 good:brown",
    "prosperous_world": "good:blue",
    "lost_alien_battle_fleet": "$3 cup:yellow",
    "uplift_overseers": "cup:green",
    "universal_exports": "good:blue",
    "rebel_miners": "remove cit:red cit:red",
    "jungle_world": "good:green",
    "deserted_alien_colony": "$1 good:yellow",
    "terraformed_world": "$2 cit:purple",
    "comet_zone": "good:brown",
}
COMPLETION_EFFECTS = {
    "conscription": "remove cup:red cup:red",
    "information_tech": "remove cup:blue cup:blue",
    "space_marines": "remove $1 cup:red",
}
START_EFFECTS = {
    "hidden_fortress": "cit:red",
    "alien_rosetta_stone_world": "cit:yellow",
    "space_mall": "cup:blue",
    "wormhole_station": "cup:brown",
    "last_of_the_gnarssh": "cit:green",
    "pilgrimage_world": "good:blue",
    "aquatic_uplift_world": "cup:green",
    "meteorite_planet": "cit:brown",
    "destroyed_colony": "cup:purple",
    "awakened_alien_outpost": "cit:red",
    "new_sparta": "cit:red cit:red",
    "doomed_world": "",
    "alpha_centauri": "good:brown",
    "earths_lost_colony": "good:blue",
    "ancient_race": "good:green",
    "damaged_alien_factory": "cit:yellow",
    "old_earth": "cit:purple",
    "separatist_colony": "cup:red",
    "epsilon_eridani": "cit:blue cit:red",
}


def _expected(spec: str) -> tuple[int, Counter, Counter, Counter, bool]:
    credits, cup, cit, goods, remove = 0, Counter(), Counter(), Counter(), False
    for token in spec.split():
        if token == "remove":
            remove = True
        elif token.startswith("$"):
            credits += int(token[1:])
        else:
            where, color = token.split(":")
            {"cup": cup, "cit": cit, "good": goods}[where][color] += 1
    return credits, cup, cit, goods, remove


def _observed(events, seat=0):
    cup, cit, goods = Counter(), Counter(), Counter()
    for e in events:
        if e.get("seat") != seat:
            continue
        if e["type"] == "DiceGained":
            (cup if e["to"] == "cup" else cit)[e["color"]] += e["count"]
        if e["type"] == "GoodGained":
            goods[e["color"]] += 1
    return cup, cit, goods


def _build_and_check(side_id: str, spec: str, kind: str) -> None:
    state = blank()
    p = state["seats"][0]
    p["dev_stack" if kind == "development" else "world_stack"] = [tile_of(side_id)]
    p["cup"] = ["white"]
    cost = D.side(side_id)["cost"]
    supply_white = state["supply"]["white"]
    phase = "develop" if kind == "development" else "settle"
    events = begin(state, phase, {0: ["white"] * cost})
    credits, cup, cit, goods, remove = _expected(spec)
    if remove:
        assert state["seats"][0]["task"]["pending"][0]["effect"] == "remove_die"
        assert 0 in ENGINE.to_act(state), "the removal is the player's choice"
        state, more = act(state, 0, {"type": "remove_die", "where": "cup", "color": "white"})
        events += more
        assert state["supply"]["white"] == supply_white + 1, "a removed die goes back to the supply"
        assert any(e["type"] == "DieRemoved" for e in more)
    assert side_id in [e["side"] for e in events if e["type"] == "TileCompleted"]
    assert (
        sum(e["amount"] for e in events if e["type"] == "CreditsGained" and e["reason"] == side_id) == credits
    )
    assert _observed(events) == (cup, cit, goods)


@pytest.mark.parametrize(("world_id", "spec"), sorted(WORLD_EFFECTS.items()))
def test_every_world_placement_effect(world_id, spec):
    _build_and_check(world_id, spec, "world")


@pytest.mark.parametrize(("dev_id", "spec"), sorted(COMPLETION_EFFECTS.items()))
def test_developments_with_an_on_completion_effect(dev_id, spec):
    _build_and_check(dev_id, spec, "development")


def test_every_tile_world_is_covered():
    assert set(WORLD_EFFECTS) == {t["world"]["id"] for t in D.TILES}


def test_set_up_gains_of_every_faction_and_home_world():
    seen = set()
    for seed in range(40):
        state = ENGINE.new_game(5, {}, seed)
        for p in state["seats"]:
            cup, cit, goods = Counter(p["cup"]), Counter(p["citizenry"]), Counter()
            cup["white"] -= 3
            cit["white"] -= 2
            expected_cup, expected_cit, expected_goods = Counter(), Counter(), Counter()
            for entry in p["tableau"]:
                goods.update(entry["goods"])
                if D.side(entry["id"])["kind"] == "world":
                    seen.add(entry["id"])
                    _, c1, c2, c3, _ = _expected(START_EFFECTS[entry["id"]])
                    expected_cup += c1
                    expected_cit += c2
                    expected_goods += c3
                    if entry["goods"]:
                        assert entry["goods"] == [D.side(entry["id"])["color"]]
            assert +cup == expected_cup and +cit == expected_cit and goods == expected_goods
            assert p["credits"] == (8 if p["home"] == "doomed_world" else 1)
    assert seen == set(START_EFFECTS)
