"""The rulebook's worked examples (seeds/004), one behaviour per test, from hand-made states, rigged dice."""

from __future__ import annotations

from engines.talisman import rules
from engines.talisman.data import ADVENTURE, KIND_INDEX, PORTAL, SENTINEL, TEMPLE, VALLEY
from engines.talisman.model import craft, max_spells, new_inst

from .helpers import act, give, kinds, on_top, place, rig, start_turn, table

OASIS = KIND_INDEX["oasis"]
RUNES_NEAR_TEMPLE = 38
GRAVEYARD = KIND_INDEX["graveyard"]
GLADE = KIND_INDEX["cursed_glade"]
WEREWOLF = KIND_INDEX["werewolf_den"]


def _moves(state) -> dict[int, str]:
    return {a["to"]: a["route"] for a in rules.legal(state, state["p"]["seat"])}


def test_sorceress_at_the_temple_with_a_two_reaches_the_runes_or_the_oasis():
    state = table(["sorceress", "warrior"])
    state["chars"][0]["space"] = TEMPLE
    state["chars"][0]["fate"] = 0
    start_turn(state)
    rig(state, [2])
    state, _ = act(state, {"type": "roll_move"})
    assert state["p"]["k"] == "route"
    assert set(_moves(state)) == {RUNES_NEAR_TEMPLE, OASIS}


def test_the_dragon_at_the_runes_fights_with_strength_nine():
    state = table(["sorceress", "warrior"])
    sorceress = state["chars"][0]
    sorceress["space"], sorceress["fate"] = TEMPLE, 0
    place(state, RUNES_NEAR_TEMPLE, "dragon")
    start_turn(state)
    rig(state, [2])
    state, _ = act(state, {"type": "roll_move"})
    deck = len(state["adv"])
    state, _ = act(
        state, {"type": "move", "route": _moves(state)[RUNES_NEAR_TEMPLE], "to": RUNES_NEAR_TEMPLE}
    )
    assert len(state["adv"]) == deck  # a card already lies there: nothing is drawn
    assert state["p"]["k"] == "combat" and state["p"]["c"]["foe"]["name"] == "dragon"
    rig(state, [4, 1])  # the Dragon's die first, then the Sorceress's
    state, events = act(state, {"type": "fight"})
    battle = next(e for e in events if e["type"] == "BattleResolved")
    assert battle["foe_score"] == 7 + 2 + 4
    assert battle["score"] == 2 + 1
    assert state["chars"][0]["life"] == 3


def test_sorceress_lands_on_the_hexed_oasis_loses_a_life_and_draws_only_one_card():
    state = table(["sorceress", "warrior"])
    sorceress = state["chars"][0]
    sorceress["space"], sorceress["fate"] = TEMPLE, 0
    state["hexes"].append({"space": OASIS, "by": 1, "left": 6})
    on_top(state, "dragon", "bag_of_gold")
    start_turn(state)
    rig(state, [2])
    state, _ = act(state, {"type": "roll_move"})
    state, events = act(state, {"type": "move", "route": _moves(state)[OASIS], "to": OASIS})
    assert "HexStruck" in kinds(events)
    assert state["chars"][0]["life"] == 3
    drawn = [e["card"] for e in events if e["type"] == "CardDrawn"]
    assert drawn == ["dragon"]  # the Hex counts as one of the Oasis's two cards
    assert state["p"]["k"] == "combat" and state["p"]["c"]["foe"]["name"] == "dragon"


def test_spell_limit_falls_in_the_cursed_glade_and_a_spell_must_go():
    state = table(["wizard", "warrior"])
    wizard = state["chars"][0]
    give(state, 0, "solomons_crown")
    wizard["spells"] = ["healing", "teleport", "hex"]
    assert craft(state, wizard) == 7 and max_spells(state, wizard) == 3
    wizard["space"] = GLADE - 1
    wizard["fate"] = 0
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": _moves(state)[GLADE], "to": GLADE})
    wizard = state["chars"][0]
    assert craft(state, wizard) == 5 and max_spells(state, wizard) == 2
    assert state["p"]["k"] == "discard_spell" and state["p"]["seat"] == 0
    state, _ = act(state, {"type": "discard_spell", "spell": "hex"})
    assert sorted(state["chars"][0]["spells"]) == ["healing", "teleport"]
    # Next turn he leaves the Glade: Craft 7 again, and room for a third Spell.
    on_top(state, "bag_of_gold")
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": _moves(state)[GLADE + 1], "to": GLADE + 1})
    wizard = state["chars"][0]
    assert wizard["space"] == GLADE + 1
    assert craft(state, wizard) == 7 and max_spells(state, wizard) == 3
    rules.gain_spells(state, 0, 1, [])
    assert len(wizard["spells"]) == 3


def test_werewolf_strength_is_two_dice_and_it_fights_again_next_turn():
    state = table(["dwarf", "warrior"])
    dwarf = state["chars"][0]
    dwarf["space"], dwarf["fate"], dwarf["str"] = WEREWOLF + 1, 0, 2  # Strength 5
    give(state, 0, "talisman")  # so that, once the Werewolf is beaten, the way on is open
    start_turn(state)
    rig(state, [3, 5])  # the Werewolf's Strength: 3 + 5
    state, events = act(state, {"type": "step", "to": WEREWOLF})
    assert next(e for e in events if e["type"] == "WerewolfAppeared")["strength"] == 8
    rig(state, [5, 5])  # Werewolf 8 + 5 = 13, Dwarf 5 + 5 = 10
    state, events = act(state, {"type": "fight"})
    assert "BattleLost" in kinds(events)
    assert state["chars"][0]["life"] == 4
    assert state["chars"][0]["hold"] == {"k": "werewolf", "str": 8}
    state["chars"][0]["miss"] = 0
    start_turn(state)
    assert {a["type"] for a in rules.legal(state, 0)} >= {"fight_on", "turn_back"}
    assert not any(a["type"] == "step" for a in rules.legal(state, 0))  # no advancing past it
    state, _ = act(state, {"type": "fight_on"})
    rig(state, [1, 5])  # Werewolf 8 + 1 = 9, Dwarf 5 + 5 = 10
    state, events = act(state, {"type": "fight"})
    battle = next(e for e in events if e["type"] == "BattleResolved")
    assert battle["foe_score"] == 9 and battle["score"] == 10
    assert state["chars"][0]["hold"] is None
    start_turn(state)
    assert {"type": "step", "to": VALLEY} in rules.legal(state, 0)  # it may advance next turn
    assert not any(a["type"] == "fight_on" for a in rules.legal(state, 0))


def test_sentinel_crossing_with_invisibility_then_anticlockwise_to_the_portal():
    state = table(["sorceress", "warrior"])
    sorceress = state["chars"][0]
    sorceress["space"], sorceress["fate"] = GRAVEYARD, 0
    sorceress["spells"] = ["invisibility"]
    state["chars"][1]["spells"] = []
    start_turn(state)
    rig(state, [6])
    state, _ = act(state, {"type": "roll_move"})
    routes = {a["route"]: a["to"] for a in rules.legal(state, 0)}
    assert routes["cw-x-ccw"] == PORTAL
    state, _ = act(state, {"type": "move", "route": "cw-x-ccw", "to": PORTAL})
    assert state["chars"][0]["space"] == SENTINEL
    assert state["p"]["k"] == "combat" and state["p"]["c"]["foe"]["name"] == "sentinel"
    assert {"type": "evade"} not in rules.legal(state, 0)
    state, _ = act(state, {"type": "cast_spell", "spell": "invisibility"})
    state, _ = act(state, {"type": "evade"})
    assert state["chars"][0]["space"] == PORTAL


def test_losing_to_the_sentinel_ends_the_turn_on_the_sentinel():
    state = table(["sorceress", "warrior"])
    sorceress = state["chars"][0]
    sorceress["space"], sorceress["fate"] = GRAVEYARD, 0
    start_turn(state)
    rig(state, [6])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw-x-ccw", "to": PORTAL})
    rig(state, [6, 1])  # Sentinel 9 + 6, Sorceress 2 + 1
    state, events = act(state, {"type": "fight"})
    assert state["chars"][0]["space"] == SENTINEL
    assert state["chars"][0]["life"] == 3
    assert state["seat"] == 1  # the turn passed


def test_mule_taken_by_mesmerism_leaves_the_wizard_to_choose_four_objects():
    state = table(["thief", "wizard"])
    thief, wizard = state["chars"]
    give(state, 1, "mule", "p")
    for card in ("sword", "helmet", "shield", "armour", "axe", "water_bottle", "sword", "helmet"):
        give(state, 1, card, "p")
    assert len(wizard["items"]) == 8
    thief["spells"] = ["mesmerism"]
    start_turn(state)
    state, _ = act(state, {"type": "cast_spell", "spell": "mesmerism"})
    state, _ = act(state, {"type": "target", "seat": 1})
    mule = next(f for f in state["chars"][1]["fol"] if f["c"] == "mule")
    state, _ = act(state, {"type": "take_card", "card": mule["u"]})
    assert [f["c"] for f in state["chars"][0]["fol"]] == ["mule"]
    for _ in range(4):
        assert state["p"]["k"] == "drop" and state["p"]["seat"] == 1
        state, _ = act(state, {"type": "drop", "card": state["chars"][1]["items"][0]["u"]})
    assert len(state["chars"][1]["items"]) == 4
    assert len(state["board"][str(state["chars"][1]["space"])]) == 4
    assert state["p"]["seat"] == 0


def test_troll_regenerates_on_a_natural_six():
    state = table(["troll", "warrior"])
    troll = state["chars"][0]
    troll["life"], troll["fate"] = 4, 0
    start_turn(state)
    rig(state, [6])
    state, events = act(state, {"type": "roll_move"})
    assert state["chars"][0]["life"] == 5


def test_troll_regenerates_when_a_fate_reroll_shows_a_six():
    """A re-rolled die is still the die's own number (only bonuses and penalties do not count)."""
    state = table(["troll", "warrior"])
    state["chars"][0]["life"], state["chars"][0]["fate"] = 4, 1
    start_turn(state)
    rig(state, [4, 6])
    state, _ = act(state, {"type": "roll_move"})
    assert state["chars"][0]["life"] == 4 and state["p"]["k"] == "reroll"
    state, _ = act(state, {"type": "reroll", "die": 0})
    assert state["chars"][0]["life"] == 5 and state["chars"][0]["fate"] == 0


def test_troll_does_not_regenerate_on_another_number():
    state = table(["troll", "warrior"])
    troll = state["chars"][0]
    troll["life"], troll["fate"] = 4, 0
    start_turn(state)
    rig(state, [4])
    state, _ = act(state, {"type": "roll_move"})
    assert state["chars"][0]["life"] == 4


def _trade(points: list[int]) -> int:
    state = table(["warrior", "troll"])
    warrior = state["chars"][0]
    warrior["tro"] = [{"k": "strength", "v": v, "inst": None} for v in points]
    rules.trade_trophies(state, 0, "strength", [])
    assert warrior["tro"] == []
    return warrior["str"]


def test_trophies_of_nine_strength_give_one_counter():
    assert _trade([4, 5]) == 1


def test_trophies_of_fifteen_strength_give_two_counters():
    assert _trade([7, 3, 5]) == 2


def test_trophies_traded_at_the_end_of_a_turn_go_to_the_discard_pile():
    """Nine Strength of Enemies (an Ogre and a Bandit) give one Strength counter; the cards are discarded."""
    state = table(["warrior", "troll"])
    warrior = state["chars"][0]
    for card in ("ogre", "bandit"):
        trophy = {"k": "strength", "v": ADVENTURE[card]["strength"], "inst": new_inst(state, card, "a")}
        warrior["tro"].append(trophy)
    state["q"] = [{"t": "end_turn"}, {"t": "next_turn"}]
    rules.run(state, [])
    assert {"type": "trade_trophies", "stat": "strength"} in rules.legal(state, 0)
    discards = len(state["adv_disc"])
    state, events = act(state, {"type": "trade_trophies", "stat": "strength"})
    traded = next(e for e in events if e["type"] == "TrophiesTraded")
    assert (traded["points"], traded["gained"]) == (9, 1)
    assert state["chars"][0]["str"] == 1 and state["chars"][0]["tro"] == []
    assert sorted(state["adv_disc"][discards:]) == ["bandit", "ogre"]


def test_trophy_rate_option_five():
    state = table(["warrior", "troll"], {"trophy_rate": 5})
    state["chars"][0]["tro"] = [{"k": "craft", "v": 10, "inst": None}]
    rules.trade_trophies(state, 0, "craft", [])
    assert state["chars"][0]["craft"] == 2
