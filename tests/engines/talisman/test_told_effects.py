"""What a player's seat needs told: an effect that a limit leaves with nothing to do says so (found in a
player-seat review: the Fairy's Spell at the Spell limit and the Healer at full life did nothing, silently), a
fight and a toll show their numbers, and a missed turn is marked as missed, with what cost it."""

from __future__ import annotations

import json

from engines.talisman import rules
from engines.talisman.data import KIND_INDEX

from .helpers import act, arrive, on_top, place, rig, start_turn, table, talisman

FIELDS = 1
RUNES = KIND_INDEX["runes"]


def _no_effect(events):
    return [(e["seat"], e["why"], e["source"]) for e in events if e["type"] == "NoEffect"]


def test_the_fairys_spell_at_the_spell_limit_is_still_offered_and_said_to_do_nothing():
    state = table(["elf", "troll"])  # good, Craft 4: two Spells at most
    state["chars"][0]["spells"] = ["healing", "teleport"]
    place(state, FIELDS, "fairy")
    state, _ = arrive(state, FIELDS)
    prompt = talisman.view(state, 0)["prompt"]
    assert prompt["kind"] == "either" and prompt["no_effect"] == {"spell": "spell_limit"}
    # the card offers it, and the rules let it be chosen
    assert {"type": "choose", "option": "spell"} in rules.legal(state, 0)
    state, events = act(state, {"type": "choose", "option": "spell"})
    assert _no_effect(events) == [(0, "spell_limit", "fairy")]
    assert state["chars"][0]["spells"] == ["healing", "teleport"]


def test_a_wish_that_does_something_is_not_marked():
    state = table(["elf", "troll"])
    place(state, FIELDS, "fairy")
    state, _ = arrive(state, FIELDS)
    assert talisman.view(state, 0)["prompt"]["no_effect"] == {}
    state, events = act(state, {"type": "choose", "option": "spell"})
    assert _no_effect(events) == [] and len(state["chars"][0]["spells"]) == 1


def test_the_healer_at_full_life_says_there_is_nothing_to_heal():
    state = table(["troll", "wizard"])
    place(state, FIELDS, "healer")
    state, events = arrive(state, FIELDS)
    assert _no_effect(events) == [(0, "full_life", "healer")]
    hurt = table(["troll", "wizard"])
    hurt["chars"][0]["life"] -= 1
    place(hurt, FIELDS, "healer")
    _, events = arrive(hurt, FIELDS)
    assert _no_effect(events) == [] and "Healed" in [e["type"] for e in events]


def test_the_book_of_spells_at_the_spell_limit_says_no_spell_is_taken():
    state = table(["wizard", "troll"])  # Craft 5: two Spells
    state["chars"][0]["spells"] = ["healing", "hex"]
    on_top(state, "book_of_spells")
    state, events = arrive(state, FIELDS)
    assert _no_effect(events) == [(0, "spell_limit", "book_of_spells")]


def test_a_loss_of_strength_at_the_printed_value_says_nothing_is_lost():
    state = table(["troll", "wizard"])
    events: list = []
    rules.fx(state, 0, [{"op": "lose_strength", "n": 1}], FIELDS, {"u": 1, "c": "witch", "o": "a"})
    rules.run(state, events)
    assert [e for e in events if e["type"] == "NoEffect"] == [
        {"type": "NoEffect", "seat": 0, "why": "printed_value", "source": "witch", "stat": "strength"}
    ]


def test_a_healing_spell_on_a_character_at_full_life_says_so():
    state = table(["wizard", "troll"])
    state["chars"][0]["spells"] = ["healing"]
    state["chars"][0]["casts_left"] = 1
    events: list = []
    rules.start_cast(state, 0, "healing", "own_start", None, events)
    state, events = act(state, {"type": "target", "seat": 0})
    assert _no_effect(events) == [(0, "full_life", "healing")]


def test_the_sorcerer_at_the_spell_limit_says_why_only_done_is_left():
    state = table(["wizard", "troll"])
    state["chars"][0].update(spells=["healing", "hex"], gold=3)
    place(state, FIELDS, "sorcerer")
    state, _ = arrive(state, FIELDS)
    assert rules.legal(state, 0) == [{"type": "done"}]
    assert talisman.view(state, 0)["prompt"]["closed"] == {"spell": "spell_limit"}
    state["chars"][0]["spells"] = []
    state["chars"][0]["gold"] = 0
    assert talisman.view(state, 0)["prompt"]["closed"] == {"spell": "short_of_gold"}


def test_a_bandits_fight_shows_both_values_and_its_price():
    state = table(["warrior", "troll"])  # Strength 4, and no Weapon
    state["chars"][0]["gold"] = 2
    place(state, FIELDS, "bandit")
    state, _ = arrive(state, FIELDS)
    prompt = talisman.view(state, 0)["prompt"]
    assert prompt["foe"]["bribe"] == 1
    # the Warrior adds the better of two dice; the Bandit rolls its own
    assert prompt["battle"] == {
        "stat": "strength",
        "mine": 4,
        "foe": 4,
        "bonus": 0,
        "dice": 2,
        "foe_rolls": True,
    }
    rig(state, [2, 5])  # the Bandit's die, then the Warrior's two
    _, events = act(state, {"type": "fight"})
    fought = next(e for e in events if e["type"] == "BattleResolved")
    assert (fought["score"], fought["foe_score"]) == (4 + 5, 4 + 2)


def test_an_encounter_that_grants_nothing_says_why():
    state = table(["warrior", "troll"])  # neutral, Craft 2
    place(state, FIELDS, "enchanter")
    _, events = arrive(state, FIELDS)
    assert _no_effect(events) == [(0, "needs_craft", "enchanter")]
    assert next(e for e in events if e["type"] == "NoEffect")["n"] == 4
    state = table(["wizard", "troll"])  # evil
    place(state, FIELDS, "holy_grail")
    state, events = arrive(state, FIELDS)
    assert _no_effect(events) == [(0, "forbidden", "holy_grail")] and state["chars"][0]["items"] == []
    state = table(["warrior", "troll"])  # no gold to hire with
    state["chars"][0]["gold"] = 0
    place(state, FIELDS, "mercenary")
    _, events = arrive(state, FIELDS)
    assert _no_effect(events) == [(0, "cannot_hire", "mercenary")]
    state = table(["warrior", "troll"])
    state["chars"][0]["quest"] = "kill_enemy"
    _, events = arrive(state, KIND_INDEX["warlocks_cave"])
    assert _no_effect(events) == [(0, "on_quest", "warlocks_cave")]


def test_a_mercenary_to_take_shows_its_hire_and_a_free_card_none():
    state = table(["warrior", "troll"])
    state["chars"][0]["gold"] = 2
    place(state, FIELDS, "mercenary")
    state, _ = arrive(state, FIELDS)
    assert talisman.view(state, 0)["prompt"]["price"] == 1
    state = table(["warrior", "troll"])
    place(state, FIELDS, "sword")
    state, _ = arrive(state, FIELDS)
    assert state["p"]["k"] == "take" and "price" not in talisman.view(state, 0)["prompt"]


def test_a_doppelganger_shows_the_characters_own_strength_and_the_runes_their_bonus():
    state = table(["troll", "wizard"])
    place(state, FIELDS, "doppelganger")
    state, _ = arrive(state, FIELDS)
    assert talisman.view(state, 0)["prompt"]["battle"] == {
        "stat": "strength",
        "mine": 6,
        "foe": 6,
        "bonus": 0,
        "dice": 1,
        "foe_rolls": True,
    }
    state = table(["wizard", "troll"])
    place(state, RUNES, "ghost")
    state, _ = arrive(state, RUNES)
    battle = talisman.view(state, 0)["prompt"]["battle"]
    assert battle == {"stat": "craft", "mine": 5, "foe": 4 + 2, "bonus": 2, "dice": 1, "foe_rolls": True}


def test_a_turn_lost_to_evil_darkness_is_marked_missed_at_its_end_with_the_card():
    state = table(["warrior", "elf"])
    state["chars"][0].update(space=FIELDS - 1, fate=0)
    on_top(state, "evil_darkness")
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state["chars"][1]["spells"] = ["teleport"]  # cast at no turn's end: the end of hers offers only the end
    state, events = act(state, {"type": "move", "route": "cw", "to": FIELDS})
    assert {"type": "TurnMissed", "seat": 1, "source": "evil_darkness"} in events
    assert state["chars"][0]["lost"] == ["evil_darkness"]  # the Warrior's own next turn, owed
    assert state["p"]["k"] == "end" and state["p"]["seat"] == 1
    assert talisman.view(state, 1)["prompt"]["missed"] == "evil_darkness"
    assert rules.legal(state, 1) == [{"type": "end_turn"}]
    state, events = act(state, {"type": "end_turn"})
    assert {"type": "TurnMissed", "seat": 0, "source": "evil_darkness"} in events


def test_a_missed_turn_stays_marked_after_a_spell_cast_or_trophies_traded_at_its_end():
    state = table(["warrior", "wizard"])
    wizard = state["chars"][1]
    wizard.update(spells=["destroy_magic"], lost=["tavern"], miss=1)
    wizard["tro"] = [{"k": "strength", "v": 7, "inst": None}, {"k": "craft", "v": 7, "inst": None}]
    start_turn(state, 1)
    assert state["p"]["k"] == "end" and state["p"]["missed"] == "tavern"
    state, _ = act(state, {"type": "cast_spell", "spell": "destroy_magic"})
    assert state["p"]["k"] == "end" and talisman.view(state, 1)["prompt"]["missed"] == "tavern"
    state, _ = act(state, {"type": "trade_trophies", "stat": "strength"})
    assert state["p"]["k"] == "end" and talisman.view(state, 1)["prompt"]["missed"] == "tavern"


def test_an_ordinary_end_of_turn_is_not_marked_missed():
    state = table(["wizard", "troll"])
    state["chars"][0]["spells"] = ["teleport"]
    state["chars"][0]["tro"] = [{"k": "craft", "v": 7, "inst": None}]
    state, _ = arrive(state, FIELDS)
    assert state["p"]["k"] == "end" and "missed" not in talisman.view(state, 0)["prompt"]


def test_a_game_saved_before_turns_kept_their_cause_loads_and_misses_the_owed_turn():
    state = table(["warrior", "troll"])
    old = json.loads(talisman.dump(state))
    old["schema"] = 2
    for ch in old["state"]["chars"]:
        del ch["lost"]
    old["state"]["chars"][0]["miss"] = 1
    loaded = talisman.load(json.dumps(old))
    assert [ch["lost"] for ch in loaded["chars"]] == [[], []]
    events = start_turn(loaded)
    assert {"type": "TurnMissed", "seat": 0} in events and loaded["seat"] == 1
