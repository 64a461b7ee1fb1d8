"""Cards and spaces of Talisman doing what their text says, each from a hand-made state."""

from __future__ import annotations

from engines.talisman import rules
from engines.talisman.data import KIND_INDEX, TEMPLE

from .helpers import act, give, kinds, on_top, place, rig, start_turn, table, talisman

VILLAGE = KIND_INDEX["village"]
TAVERN = KIND_INDEX["tavern"]
FIELDS = 1


def _arrive(state, space: int, die: int = 1):
    """Seat 0 rolls `die` and moves onto `space`, which lies that far clockwise."""
    ch = state["chars"][0]
    ch["space"], ch["fate"] = (space - die) % 24 if space < 24 else 24 + (space - 24 - die) % 16, 0
    start_turn(state)
    rig(state, [die])
    state, _ = act(state, {"type": "roll_move"})
    return act(state, {"type": "move", "route": "cw", "to": space})


def test_village_blacksmith_sells_from_the_purchase_deck():
    state = table(["warrior", "troll"])
    state["chars"][0]["gold"] = 5
    state, _ = _arrive(state, VILLAGE)
    assert state["p"]["k"] == "shop"
    assert {"type": "buy", "item": "armour"} in rules.legal(state, 0)
    before = state["shop"]["armour"]
    state, _ = act(state, {"type": "buy", "item": "armour"})
    assert state["chars"][0]["gold"] == 1 and state["shop"]["armour"] == before - 1
    assert [i["c"] for i in state["chars"][0]["items"]] == ["armour"]


def test_tavern_boatman_ferries_to_the_temple_as_the_next_move():
    state = table(["wizard", "troll"])
    ch = state["chars"][0]
    ch["space"], ch["fate"] = TAVERN - 1, 0
    start_turn(state)
    rig(state, [1, 6])  # move onto the Tavern, then the Tavern's die: the boatman
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": TAVERN})
    assert state["chars"][0]["next"] == "temple"
    start_turn(state)
    state, events = act(state, {"type": "take_ferry"})
    assert state["chars"][0]["space"] == TEMPLE and state["chars"][0]["next"] is None


def test_bandit_can_be_paid_off_and_stays():
    state = table(["wizard", "troll"])
    state["chars"][0]["gold"] = 2
    bandit = place(state, FIELDS, "bandit")
    state, _ = _arrive(state, FIELDS)
    state, _ = act(state, {"type": "pay_off"})
    assert state["chars"][0]["gold"] == 1
    assert [i["u"] for i in state["board"][str(FIELDS)]] == [bandit["u"]]


def test_cross_destroys_a_spirit_without_a_trophy():
    state = table(["troll", "wizard"])
    give(state, 0, "cross")
    place(state, FIELDS, "demon")
    state, _ = _arrive(state, FIELDS)
    state, events = act(state, {"type": "use_cross"})
    assert "SpiritBanished" in kinds(events)
    assert str(FIELDS) not in state["board"] and state["chars"][0]["tro"] == []


def test_doppelganger_matches_strength_and_gives_strength_not_a_trophy():
    state = table(["troll", "wizard"])
    place(state, FIELDS, "doppelganger")
    state, _ = _arrive(state, FIELDS)
    rig(state, [1, 2])
    state, events = act(state, {"type": "fight"})
    battle = next(e for e in events if e["type"] == "BattleResolved")
    assert battle["foe_score"] == 6 + 1 and battle["score"] == 6 + 2
    assert state["chars"][0]["str"] == 1 and state["chars"][0]["tro"] == []


def test_potion_of_strength_adds_two_then_is_gone():
    state = table(["wizard", "troll"])
    give(state, 0, "potion_of_strength")
    place(state, FIELDS, "goblin")
    state, _ = _arrive(state, FIELDS)
    state, _ = act(state, {"type": "drink_potion"})
    rig(state, [3, 1])
    state, events = act(state, {"type": "fight"})
    battle = next(e for e in events if e["type"] == "BattleResolved")
    assert battle["score"] == 2 + 2 + 1 and state["chars"][0]["items"] == []


def test_taking_a_fifth_object_asks_which_to_leave_unless_a_mule_carries_it():
    state = table(["troll", "wizard"])
    for card in ("sword", "helmet", "shield", "axe"):
        give(state, 0, card, "p")
    place(state, FIELDS, "armour")
    state, _ = _arrive(state, FIELDS)
    assert state["p"]["k"] == "take"
    state, _ = act(state, {"type": "take", "card": state["p"]["card"]})
    assert state["p"]["k"] == "drop"
    give(state, 0, "mule")
    assert talisman.legal_actions(state, 0)  # still asked; with the Mule nothing need go
    state["p"] = None
    state["q"] = []
    assert not rules.sweep(state, [])


def test_hag_drives_away_followers_and_the_village_mystic_removes_her():
    state = table(["troll", "wizard"])
    give(state, 0, "maiden")
    on_top(state, "hag")
    state, _ = _arrive(state, FIELDS)
    state, _ = act(state, {"type": "draw_cards"})
    assert [f["c"] for f in state["chars"][0]["fol"]] == ["hag"]
    state = table(["troll", "wizard"])
    give(state, 0, "hag")
    state["chars"][0]["gold"] = 0
    state, _ = _arrive(state, VILLAGE)
    rig(state, [2])
    state, _ = act(state, {"type": "visit", "who": "mystic"})
    assert state["chars"][0]["fol"] == []


def test_poltergeist_leaves_when_crossing_the_river_by_raft():
    state = table(["troll", "wizard"])
    give(state, 0, "poltergeist")
    give(state, 0, "raft", "p")
    state["chars"][0]["raft_ready"] = True
    start_turn(state)
    assert {"type": "move_one"} in rules.legal(state, 0)
    target = next(a["to"] for a in rules.legal(state, 0) if a["type"] == "use_raft")
    state, _ = act(state, {"type": "use_raft", "to": target})
    assert state["chars"][0]["fol"] == [] and state["chars"][0]["space"] == target


def test_temple_enslaves_until_a_four_or_more_is_rolled():
    state = table(["troll", "wizard"])
    troll = state["chars"][0]
    troll["space"], troll["enslaved"], troll["fate"] = TEMPLE, True, 0
    start_turn(state)
    rig(state, [3])
    state, events = act(state, {"type": "roll_move"})
    assert state["chars"][0]["space"] == TEMPLE and "StillEnslaved" in kinds(events)
    start_turn(state)
    rig(state, [5])
    state, _ = act(state, {"type": "roll_move"})
    assert state["p"]["k"] == "route" and not state["chars"][0]["enslaved"]


def test_vampire_takes_lives_unless_followers_are_given_up():
    state = table(["troll", "wizard"])
    troll = state["chars"][0]
    troll["space"], troll["fate"] = KIND_INDEX["mines"], 0
    give(state, 0, "maiden")
    start_turn(state)
    rig(state, [6])
    state, _ = act(state, {"type": "step", "to": KIND_INDEX["vampires_tower"]})
    assert state["p"]["k"] == "vampire" and state["p"]["n"] == 3
    state, _ = act(state, {"type": "sacrifice", "card": state["chars"][0]["fol"][0]["u"]})
    assert state["chars"][0]["life"] == 6 - 2 and state["chars"][0]["fol"] == []


def test_pits_fight_pitfiends_one_by_one_and_hold_after_a_loss():
    state = table(["wizard", "troll"])
    wizard = state["chars"][0]
    wizard["space"], wizard["fate"] = KIND_INDEX["vampires_tower"], 0
    start_turn(state)
    rig(state, [3])
    state, _ = act(state, {"type": "step", "to": KIND_INDEX["pits"]})
    assert state["chars"][0]["hold"] == {"k": "pits", "left": 3}
    rig(state, [1, 6])  # pitfiend 4 + 1 = 5 < 2 + 6
    state, _ = act(state, {"type": "fight"})
    assert state["chars"][0]["hold"] == {"k": "pits", "left": 2}
    rig(state, [6, 1])
    state, events = act(state, {"type": "fight"})
    assert "BattleLost" in kinds(events) and state["chars"][0]["hold"] == {"k": "pits", "left": 2}


def test_book_of_spells_fills_the_hand_to_the_limit():
    state = table(["wizard", "troll"])
    on_top(state, "book_of_spells")
    state, _ = _arrive(state, FIELDS)
    assert len(state["chars"][0]["spells"]) == 2


def test_raiders_take_all_gold_to_the_oasis():
    state = table(["troll", "wizard"])
    state["chars"][0]["gold"] = 4
    on_top(state, "raiders")
    state, _ = _arrive(state, FIELDS)
    assert state["chars"][0]["gold"] == 0 and state["gold"][str(KIND_INDEX["oasis"])] == 4


def test_ghost_is_placed_where_the_die_says_and_spares_the_drawer():
    state = table(["troll", "wizard"])
    on_top(state, "ghost")
    ch = state["chars"][0]
    ch["space"], ch["fate"] = 0, 0
    start_turn(state)
    rig(state, [1, 1])  # move 1 to the Fields, then the Ghost's die: 1, the City
    state, _ = act(state, {"type": "roll_move"})
    state, events = act(state, {"type": "move", "route": "cw", "to": FIELDS})
    assert [i["c"] for i in state["board"][str(KIND_INDEX["city"])]] == ["ghost"]
    assert "CardEncountered" not in kinds(events)


def test_orb_of_knowledge_swaps_a_drawn_card():
    state = table(["troll", "wizard"])
    give(state, 0, "orb_of_knowledge")
    on_top(state, "dragon", "bag_of_gold")
    state, _ = _arrive(state, FIELDS)
    state, _ = act(state, {"type": "draw_cards"})
    assert state["p"]["k"] == "swap"
    state, events = act(state, {"type": "redraw", "card": state["p"]["drawn"][0]})
    assert state["chars"][0]["gold"] == 2


def test_market_day_lets_everyone_buy_in_turn():
    state = table(["troll", "wizard"])
    state["chars"][0]["gold"] = state["chars"][1]["gold"] = 2
    on_top(state, "market_day")
    state, _ = _arrive(state, FIELDS)
    assert state["p"]["k"] == "shop" and state["p"]["seat"] == 0
    state, _ = act(state, {"type": "buy", "item": "sword"})
    state, _ = act(state, {"type": "done"})
    assert state["p"]["k"] == "shop" and state["p"]["seat"] == 1
    state, _ = act(state, {"type": "buy", "item": "mule"})
    assert [f["c"] for f in state["chars"][1]["fol"]] == ["mule"]


def test_warlock_quest_is_optional_and_rolled():
    state = table(["troll", "wizard"])
    state, _ = _arrive(state, KIND_INDEX["warlocks_cave"])
    assert {a["option"] for a in rules.legal(state, 0)} == {"accept", "decline"}
    rig(state, [2])
    state, _ = act(state, {"type": "choose", "option": "accept"})
    assert state["chars"][0]["quest"] == "kill_enemy"


def test_teleport_spell_moves_within_the_region_instead_of_rolling():
    state = table(["wizard", "troll"])
    state["chars"][0]["spells"] = ["teleport"]
    start_turn(state)
    state, _ = act(state, {"type": "cast_spell", "spell": "teleport"})
    assert state["p"]["k"] == "pick_space" and len(state["p"]["spaces"]) == 23
    state, events = act(state, {"type": "pick_space", "space": VILLAGE})
    assert state["chars"][0]["space"] == VILLAGE and "DiceRolled" not in kinds(events)


def test_divination_shows_the_top_five_to_the_caster_only():
    state = table(["wizard", "troll"])
    state["chars"][0]["spells"] = ["divination"]
    start_turn(state)
    state, events = act(state, {"type": "cast_spell", "spell": "divination"})
    peek = next(e for e in events if e["type"] == "DeckPeeked")
    assert peek["private"] == [0] and peek["cards"] == list(reversed(state["adv"][-5:]))
    assert talisman.view(state, 0)["known_top"] == peek["cards"]
    assert talisman.view(talisman.shuffle_hidden(state, 0, 9), 0) == talisman.view(state, 0)


def test_temporal_warp_gives_three_turns_in_a_row():
    state = table(["wizard", "troll"])
    state["chars"][0]["spells"] = ["temporal_warp"]
    start_turn(state)
    state, _ = act(state, {"type": "cast_spell", "spell": "temporal_warp"})
    assert state["warp"] == 2


def test_hex_placed_by_a_spell_lasts_three_rounds():
    state = table(["wizard", "troll"])
    state["chars"][0]["spells"] = ["hex"]
    start_turn(state)
    state, _ = act(state, {"type": "cast_spell", "spell": "hex"})
    state, _ = act(state, {"type": "pick_region", "region": "middle"})
    state, _ = act(state, {"type": "pick_space", "space": TEMPLE})
    assert state["hexes"] == [{"space": TEMPLE, "by": 0, "left": 6}]


def test_nullify_in_another_players_turn_discards_all_their_spells():
    state = table(["wizard", "sorceress"])
    state["chars"][0]["spells"] = ["hex", "teleport"]
    state["chars"][1]["spells"] = ["nullify"]
    start_turn(state)
    state, _ = act(state, {"type": "cast_spell", "spell": "nullify"})
    state, _ = act(state, {"type": "target", "seat": 0})
    assert state["p"] == {"seat": 0, "k": "window", "w": state["p"]["w"]}  # the target may counter it
    state, _ = act(state, {"type": "decline"})
    assert state["chars"][0]["spells"] == []


def test_immobility_on_a_creature_lets_it_be_evaded():
    state = table(["wizard", "troll"])
    state["chars"][0]["spells"] = ["immobility"]
    place(state, FIELDS, "dragon")
    state, _ = _arrive(state, FIELDS)
    assert state["p"]["k"] == "after_move"  # a Spell holder may cast Destruction before encountering
    state, _ = act(state, {"type": "encounter"})
    assert {"type": "evade"} not in rules.legal(state, 0)
    state, _ = act(state, {"type": "cast_spell", "spell": "immobility"})
    state = talisman.load(talisman.dump(state))  # the table may be saved and reloaded in between
    assert {"type": "evade"} in rules.legal(state, 0)
    state, events = act(state, {"type": "evade"})
    assert "Evaded" in kinds(events)


def test_magic_stream_gives_one_strength_per_visit_and_vanishes_after_four():
    state = table(["troll", "wizard"])
    stream = place(state, FIELDS, "magic_stream")
    stream["pool"] = 2
    state, _ = _arrive(state, FIELDS)
    assert state["chars"][0]["str"] == 1 and state["board"][str(FIELDS)][0]["pool"] == 1
    state, _ = _arrive(state, FIELDS)
    assert state["chars"][0]["str"] == 2 and str(FIELDS) not in state["board"]
