"""Roll Player's final scoring (rulebook section 5), checked through the engine's outcome after a last round
and, for each rule, on hand-made sheets: targets, class-colour dice, alignment, backstory, armour, weapons,
traits and the tie-breaks."""

from __future__ import annotations

import pytest

from engines.roll_player.data import BACKSTORIES, CARDS
from engines.roll_player.scoring import (
    armor_stars,
    backstory_matches,
    backstory_stars,
    final_attribute,
    target_stars,
    trait_card_stars,
)

from .helpers import ENGINE, act, full_sheet, market_table, sheet, table


def _finish(state):
    """Every seat left discards a market card; the game is over once the last one has."""
    while ENGINE.outcome(state) is None:
        state, _ = act(state, {"type": "discard_card", "card": state["market"][0]})
    return ENGINE.outcome(state)


def _final_table(classes):
    return market_table(
        classes, ["weak", "foolish", "chain_helm", "mystic_cloak", "leather_boots"][: len(classes) + 1]
    )


def test_jeweled_dagger_and_reckless_example_at_the_end_of_a_game():
    """Evan's STR row blue 5, gold 6, gold 5 with the Jeweled Dagger is 5+(6+1)+(5+1) = 18; his INT row white
    2, black 2, gold 1 is 2+2+1 = 5, so Reckless scores its 2 stars (weapons never count for traits)."""
    state = table(["paladin", "ranger"], [["red", 1], ["blue", 3], ["green", 5]])
    evan = state["seats"][0]
    evan["rows"] = full_sheet(
        "white",
        3,
        str=[["blue", 5], ["gold", 6], ["gold", 5]],
        int=[["white", 2], ["black", 2], ["gold", 1]],
        cha=[["white", 3]] * 2,
    )
    evan["cards"]["weapon"] = ["jeweled_dagger"]
    evan["cards"]["trait"] = ["reckless"]
    state["seats"][1]["rows"] = full_sheet(cha=[["gold", 1]] * 2)
    for _ in range(2):
        state, _ = act(state, ENGINE.legal_actions(state, ENGINE.to_act(state)[0])[0])
        state, _ = act(state, {"type": "place_die", "row": "cha"})
        state, _ = act(state, {"type": "skip_action"})
    details = _finish(state).details["seats"][0]
    assert details["attributes"]["str"] == 18
    assert details["attributes"]["int"] == 5
    assert details["parts"]["traits"] == 2


def _hero(me):
    """A dragonkin warrior (red) whose every score part is known: see the sums below."""
    me["race"] = "dragonkin"  # +2 STR, -2 DEX
    me["rows"] = sheet(
        str=[["red", 6], ["red", 5], ["red", 5]],  # 16 + 2 = 18: exactly the warrior's 18, 4 stars
        dex=[["gold", 6], ["gold", 6], ["gold", 6]],  # 18 - 2 = 16: in 16-17, 2 stars
        con=[["blue", 6], ["blue", 6], ["blue", 5]],  # 17: exactly 17, 3 stars
        int=[["white", 1], ["white", 1], ["white", 1]],  # 3: not 14+, no stars
        wis=[["black", 5], ["black", 5], ["black", 4]],  # 14: 14+, 1 star
        cha=[["green", 6], ["green", 6], ["green", 6]],  # 18: 14+, 1 star
    )
    me["backstory"] = "brawler"  # blue second in CON and black third in WIS match: 2 dice, 1 star
    me["alignment"], me["token"] = "sentinel", 0  # lawful good: 3 stars
    me["cards"]["armor"] = [
        "chain_helm",
        "chain_leggings",
        "chain_gorget",
        "chain_vambraces",
    ]  # 7 + 1 (red helm)
    me["cards"]["weapon"] = ["tower_shield"]  # the chain set is incomplete: 1 star
    me["cards"]["trait"] = ["honorable", "loyal", "reckless", "courageous"]  # 4 + 2 + 2 + 2


def test_final_score_of_a_hand_made_hero():
    state = _final_table(["warrior", "rogue"])
    _hero(state["seats"][0])
    state["seats"][1]["rows"] = full_sheet()
    details = _finish(state).details["seats"][0]
    assert details["target_stars"] == {"str": 4, "dex": 2, "con": 3, "int": 0, "wis": 1, "cha": 1}
    assert details["backstory_matches"] == 2
    assert details["parts"] == {
        "targets": 11,
        "class_dice": 3,
        "alignment": 3,
        "backstory": 1,
        "armor": 8,
        "weapons": 1,
        "traits": 10,
    }
    assert details["total"] == 37


def test_weapon_modifiers_count_for_targets_but_not_for_traits():
    state = _final_table(["warrior", "rogue"])
    _hero(state["seats"][0])
    state["seats"][0]["cards"]["weapon"].append(
        "longsword"
    )  # +1 per red die in STR: 21, no longer exactly 18
    state["seats"][1]["rows"] = full_sheet()
    details = _finish(state).details["seats"][0]
    assert details["attributes"]["str"] == 21 and details["target_stars"]["str"] == 0
    assert details["parts"]["traits"] == 10  # Courageous still sees 16 + 2 = 18
    assert details["total"] == 37 - 4


@pytest.mark.parametrize(
    ("target", "hits", "misses"),
    [
        ({"kind": "exact", "value": 17, "stars": 3}, [17], [16, 18]),
        ({"kind": "range", "min": 16, "max": 17, "stars": 2}, [16, 17], [15, 18]),
        ({"kind": "at_least", "min": 14, "stars": 1}, [14, 15, 30], [13]),
    ],
)
def test_target_kinds(target, hits, misses):
    assert [target_stars(target, v) for v in hits] == [target["stars"]] * len(hits)
    assert [target_stars(target, v) for v in misses] == [0] * len(misses)


def test_race_modifiers_apply_to_final_attributes():
    state = table(["warrior", "rogue"])
    me = state["seats"][0]
    me["rows"] = full_sheet("red", 5)
    expected = {"human": [15] * 6, "orc": [17, 15, 15, 13, 15, 15], "halfling": [13, 15, 15, 15, 15, 17]}
    for race, values in expected.items():
        me["race"] = race
        assert [final_attribute(me, a) for a in ("str", "dex", "con", "int", "wis", "cha")] == values


@pytest.mark.parametrize("matches", range(7))
def test_backstory_matches_and_stars(matches):
    card = BACKSTORIES["savant"]
    rows = {}
    for n, (attr, want) in enumerate(card["dice"].items()):
        colour = want["colour"] if n < matches else "gold"
        row = [["gold", 3]] * 3
        row[want["slot"] - 1] = [colour, 3]
        rows[attr] = row
    me = table(["warrior", "rogue"])["seats"][0]
    me["rows"], me["backstory"] = sheet(**rows), "savant"
    assert backstory_matches(me) == matches
    assert backstory_stars(matches) == {0: 0, 1: 0, 2: 1, 3: 1, 4: 3, 5: 3, 6: 6}[matches]


def test_a_die_of_the_right_colour_in_the_wrong_box_does_not_match():
    me = table(["warrior", "rogue"])["seats"][0]
    me["backstory"] = "savant"  # wants red second in STR
    me["rows"] = full_sheet(str=[["red", 1], ["gold", 1], ["gold", 1]])
    assert backstory_matches(me) == 0


def test_armour_sets_and_the_class_colour_bonus():
    me = table(["warrior", "rogue"])["seats"][0]  # red
    me["cards"]["armor"] = ["chain_leggings", "chain_gorget", "chain_vambraces", "chain_tunic"]  # no red card
    assert armor_stars(me) == 7
    me["cards"]["armor"].append("chain_helm")  # red, and the set is complete
    assert armor_stars(me) == 10 + 1
    me["cards"]["armor"] = ["chain_helm", "leather_greaves"]  # two sets, each with a red card: +1 each
    assert armor_stars(me) == 0 + 1 + 0 + 1


def _trait_seat():
    me = table(["warrior", "rogue"])["seats"][0]
    me["rows"] = full_sheet("gold", 2)  # every attribute 6
    return me


TRAIT_CASES = [
    ("weak", {}, 2),
    ("weak", {"rows": full_sheet("gold", 3)}, 0),
    ("reckless", {}, 2),
    ("cunning", {}, 0),
    ("cunning", {"rows": full_sheet("gold", 6)}, 2),
    ("honest", {"token": 6}, 2),
    ("honest", {"token": 4}, 0),
    ("loyal", {"token": 2}, 2),
    ("loyal", {"token": 5}, 0),
    ("honorable", {"token": 0}, 4),
    ("honorable", {"token": 1}, 0),
    ("dedicated", {"rows": full_sheet("red", 2)}, 2),
    ("dedicated", {}, 0),
    ("proud", {"cards": {"armor": ["chain_helm", "mystic_cloak", "leather_boots"]}}, 3),
    ("proud", {}, 0),
    ("focused", {"rows": full_sheet("gold", 2)}, 3),
    (
        "focused",
        {
            "rows": full_sheet(
                "gold",
                2,
                **{
                    a: [["red", 2], ["gold", 2], ["gold", 2]]
                    for a in ("str", "dex", "con", "int", "wis", "cha")
                },
            )
        },
        0,
    ),
    ("obsessed", {"rows": full_sheet("gold", 2, str=[["red", 2], ["blue", 1], ["gold", 2]])}, 3),
    (
        "obsessed",
        {
            "rows": full_sheet(
                "gold",
                2,
                **{
                    a: [["red", 2], ["blue", 1], ["gold", 2]]
                    for a in ("str", "dex", "con", "int", "wis", "cha")
                },
            )
        },
        0,
    ),
    ("greedy", {"gold": 14}, 2),
    ("greedy", {"gold": 4}, 0),
    ("cursed_ring", {"token": 8}, 3),
    ("cursed_ring", {"token": 4}, -2),
]


@pytest.mark.parametrize(("card", "change", "stars"), TRAIT_CASES)
def test_trait_conditions(card, change, stars):
    me = _trait_seat()
    for key, value in change.items():
        if key == "cards":
            me["cards"].update(value)
        else:
            me[key] = value
    assert trait_card_stars(me, card, []) == stars


def test_envious_counts_richer_players():
    me = _trait_seat()
    me["gold"] = 5
    assert trait_card_stars(me, "envious", [4, 6, 9]) == 2 * CARDS["envious"]["effect"]["stars"]


def test_every_trait_has_a_condition_case():
    tested = {card for card, _, _ in TRAIT_CASES} | {"envious"}
    kinds = {CARDS[c]["effect"]["kind"] for c in tested}
    assert kinds == {d["effect"]["kind"] for d in CARDS.values() if d["type"] == "trait"}


# --- tie-breaks ---------------------------------------------------------------------------------------------


def _tied(me, red_dice, token):
    """A sheet worth only its red (class colour) dice and the Arbiter alignment at `token`."""
    rows = full_sheet()
    rows["str"] = [["red", 1]] * red_dice + [["gold", 1]] * (3 - red_dice)
    me.update(rows=rows, backstory="aristocrat", alignment="arbiter", token=token, gold=3)


@pytest.mark.parametrize(
    ("setups", "winners"),
    [
        (((2, 0, 3), (3, 4, 3)), [0]),  # 3 stars each, same gold: fewer class-colour dice wins
        (((2, 0, 3), (3, 4, 4)), [1]),  # 3 stars each: more gold wins
        (((3, 4, 3), (3, 4, 3)), [0, 1]),  # nothing tells them apart: both win
        (((3, 0, 9), (3, 4, 3)), [0]),  # more stars wins whatever the gold
    ],
)
def test_tie_breaks(setups, winners):
    state = _final_table(["warrior", "barbarian"])  # both red
    for me, (red, token, gold) in zip(state["seats"], setups, strict=True):
        _tied(me, red, token)
        me["gold"] = gold
    outcome = _finish(state)
    assert outcome.winners == winners


def test_a_solo_total_below_every_rating_gets_the_lowest():
    """Penalties can take a solo total below zero (found by the property tests): it still gets a rating."""
    from engines.roll_player.data import SOLO
    from engines.roll_player.scoring import solo_rating

    lowest = min(SOLO["ratings"], key=lambda r: r["min"])
    assert solo_rating(lowest["min"] - 5) == lowest["id"]
    assert solo_rating(lowest["min"]) == lowest["id"]
