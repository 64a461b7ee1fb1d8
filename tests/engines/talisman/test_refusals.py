"""Refused actions come back with a specific reason: the wrong phase, someone else's turn, fate or gold that
is not there, the Spell and carrying limits, a space the die does not reach, the Valley of Fire without a
Talisman, ..."""

from __future__ import annotations

import random

import pytest

from engines.base import IllegalAction
from engines.talisman import refusals
from engines.talisman.data import KIND_INDEX, VALLEY

from .helpers import act, give, rig, start_turn, table, talisman

GLADE = KIND_INDEX["cursed_glade"]


def refused(state, seat, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as error:
        talisman.apply(state, seat, action)
    assert error.value.code in refusals.CODES
    assert set(error.value.params) <= set(refusals.CODES[error.value.code])
    return error.value


def at_shop(state, services, gold: int) -> None:
    """Seat 0 stands at a shop offering `services`, with `gold` to spend."""
    state["chars"][0]["gold"] = gold
    state["p"] = {"seat": 0, "k": "shop", "services": services, "used": [], "healed": 0}


def test_setup_refusals():
    options = talisman.validate_options({"choose_character": True, "starting_bonus": True})
    state = talisman.new_game(2, options, 4)
    assert refused(state, 0, {"type": "roll_move"}).code == "setup_in_progress"
    assert refused(state, 0, {"type": "choose_bonus", "stat": "craft"}).code == "choose_character_first"
    wrong = refused(state, 0, {"type": "choose_character", "character": "nobody"})
    assert wrong.code == "character_not_offered" and wrong.params == {"value": "nobody"}
    offered = talisman.legal_actions(state, 0)[0]
    state, _ = talisman.apply(state, 0, offered)
    assert refused(state, 0, offered).code == "character_already_chosen"
    assert refused(state, 0, {"type": "choose_bonus", "stat": "luck"}).code == "bad_choice"


def test_choosing_a_character_in_play_is_refused():
    state = table(["warrior", "troll"])
    start_turn(state)
    assert refused(state, 0, {"type": "choose_character", "character": "elf"}).code == "setup_over"


def test_someone_answering_in_another_players_turn_cannot_take_that_turn():
    state = table(["warrior", "wizard"])
    state["chars"][1]["spells"] = ["immobility"]
    start_turn(state)
    assert talisman.to_act(state) == [1]
    answer = refused(state, 1, {"type": "roll_move"})
    assert answer.code == "not_your_turn_to_move" and answer.params == {"prompt": "window"}
    with pytest.raises(IllegalAction) as error:  # the player waiting for that answer: the platform's refusal
        talisman.apply(state, 0, {"type": "roll_move"})
    assert error.value.code == "not_your_turn"


def test_moving_needs_a_roll_and_exactly_the_roll():
    state = table(["warrior", "troll"])
    state["chars"][0]["fate"] = 0
    start_turn(state)
    here = state["chars"][0]["space"]
    assert refused(state, 0, {"type": "move", "route": "cw", "to": here + 2}).code == "roll_first"
    rig(state, [2])
    state, _ = act(state, {"type": "roll_move"})
    assert refused(state, 0, {"type": "roll_move"}).code == "already_rolled"
    far = refused(state, 0, {"type": "move", "route": "cw", "to": here + 3})
    assert far.code == "cannot_reach" and far.params == {"space": here + 3, "steps": 2}
    assert refused(state, 0, {"type": "move", "route": "ccw", "to": here + 2}).code == "no_such_route"


def test_a_fate_reroll_needs_fate_and_a_die():
    state = table(["warrior", "troll"])
    state["chars"][0]["fate"] = 0
    start_turn(state)
    assert refused(state, 0, {"type": "reroll", "die": 0}).code == "no_fate"
    state["chars"][0]["fate"] = 1
    state, _ = act(state, {"type": "roll_move"})
    assert state["p"]["k"] == "reroll"
    assert refused(state, 0, {"type": "reroll", "die": 3}).code == "no_such_die"


def test_the_inner_region_refusals():
    state = table(["troll", "warrior"])
    state["chars"][0]["space"] = VALLEY - 1
    start_turn(state)
    assert refused(state, 0, {"type": "step", "to": VALLEY}).code == "talisman_needed"
    state["chars"][0]["space"] = 41
    start_turn(state)
    assert refused(state, 0, {"type": "step", "to": 47}).code == "cannot_step_there"
    state["chars"][0]["space"] = KIND_INDEX["werewolf_den"]
    state["chars"][0]["hold"] = {"k": "werewolf", "str": 8}
    start_turn(state)
    assert refused(state, 0, {"type": "step", "to": VALLEY}).code == "held_here"


@pytest.mark.parametrize(
    ("setting", "code"),
    [
        ({"spells": ["hex"]}, "spell_not_in_hand"),
        ({"dmagic": 1}, "magic_destroyed"),
        ({"space": GLADE}, "no_spells_in_glade"),
        ({"amulet": True}, "amulet_no_spells"),
        ({"casts_left": 0}, "spell_cast_limit"),
    ],
)
def test_spells_that_cannot_be_cast_say_why(setting, code):
    state = table(["wizard", "warrior"])
    wizard = state["chars"][0]
    wizard["spells"] = setting.get("spells", ["teleport"])
    wizard["space"] = setting.get("space", wizard["space"])
    if setting.get("amulet"):
        give(state, 0, "amulet")
    start_turn(state)
    state["dmagic"] = setting.get("dmagic")
    wizard = state["chars"][0]
    wizard["casts_left"] = setting.get("casts_left", wizard["casts_left"])
    assert refused(state, 0, {"type": "cast_spell", "spell": "teleport"}).code == code


def test_one_spell_in_another_players_turn_and_none_out_of_its_moment():
    state = table(["warrior", "wizard"])
    state["chars"][1]["spells"] = ["immobility", "immobility", "healing"]
    start_turn(state)
    error = refused(state, 1, {"type": "cast_spell", "spell": "healing"})
    assert error.code == "spell_not_castable_now" and error.params == {"spell": "healing"}
    state["chars"][1]["ocast"] = state["turn"]  # one has been cast this turn already
    assert refused(state, 1, {"type": "cast_spell", "spell": "immobility"}).code == "one_spell_out_of_turn"


def test_spells_and_objects_are_put_down_only_over_the_limit():
    state = table(["wizard", "warrior"])
    state["chars"][0]["spells"] = ["healing"]
    give(state, 0, "sword", "p")
    start_turn(state)
    error = refused(state, 0, {"type": "discard_spell", "spell": "healing"})
    assert error.code == "not_over_spell_limit" and error.params == {"limit": 2}
    sword = state["chars"][0]["items"][0]["u"]
    error = refused(state, 0, {"type": "drop", "card": sword})
    assert error.code == "not_over_item_limit" and error.params == {"limit": 4}


def test_shops_say_what_is_missing():
    state = table(["warrior", "troll"])
    start_turn(state)
    at_shop(state, [{"service": "buy", "prices": {"sword": 2, "helmet": 2}}], gold=1)
    assert refused(state, 0, {"type": "buy", "item": "castle"}).code == "not_for_sale"
    poor = refused(state, 0, {"type": "buy", "item": "sword"})
    assert poor.code == "not_enough_gold" and poor.params == {"price": 2, "gold": 1}
    state["chars"][0]["gold"] = 5
    state["shop"]["helmet"] = 0
    assert refused(state, 0, {"type": "buy", "item": "helmet"}).code == "sold_out"
    at_shop(state, [{"service": "fate", "price": 1}], gold=5)
    assert refused(state, 0, {"type": "buy_fate"}).code == "fate_full"
    at_shop(state, [{"service": "heal", "price": 1, "max": None}], gold=5)
    assert refused(state, 0, {"type": "heal"}).code == "life_full"
    state["chars"][0]["life"] -= 1
    at_shop(state, [{"service": "heal", "price": 1, "max": None}], gold=0)
    assert refused(state, 0, {"type": "heal"}).code == "not_enough_gold"


def test_buying_spells_is_bounded_by_craft_and_once_a_visit():
    state = table(["wizard", "warrior"])
    start_turn(state)
    state["chars"][0]["spells"] = ["healing", "hex"]
    at_shop(state, [{"service": "spell", "price": 1}], gold=3)
    error = refused(state, 0, {"type": "buy_spell"})
    assert error.code == "spell_limit" and error.params == {"limit": 2}
    state["chars"][0]["spells"] = []
    state["p"]["used"] = ["spell"]
    assert refused(state, 0, {"type": "buy_spell"}).code == "already_bought"
    # with the Spell deck and its discards empty the gold would buy nothing, and the refusal says so
    state["p"]["used"] = []
    state["spl"], state["spl_disc"] = [], []
    assert refused(state, 0, {"type": "buy_spell"}).code == "no_spells_left"


def test_combat_and_encounter_refusals():
    state = table(["warrior", "troll"])
    start_turn(state)
    state["p"] = {"seat": 0, "k": "combat", "c": rules_combat({"name": "ogre", "strength": 5, "bribe": 2})}
    state["chars"][0]["gold"] = 1
    assert refused(state, 0, {"type": "evade"}).code == "cannot_evade"
    assert refused(state, 0, {"type": "pay_off"}).params == {"price": 2, "gold": 1}
    state["chars"][1]["space"] = state["chars"][0]["space"]
    state["p"] = {"seat": 0, "k": "meet", "sp": state["chars"][0]["space"], "others": [1]}
    assert refused(state, 0, {"type": "attack", "target": 1, "mode": "psychic"}).code == "no_psychic_attack"
    assert refused(state, 0, {"type": "attack", "target": 5, "mode": "physical"}).code == "cannot_attack"
    state["p"] = {"seat": 0, "k": "end"}
    error = refused(state, 0, {"type": "trade_trophies", "stat": "strength"})
    assert error.code == "not_enough_trophies" and error.params == {"rate": 7}
    state["p"] = {"seat": 0, "k": "either", "options": {"roll": [], "skip": []}, "t": {}}
    assert refused(state, 0, {"type": "choose", "option": "fly"}).code == "bad_choice"
    assert refused(state, 0, {"type": "buy", "item": "sword"}).code == "action_not_expected"


def rules_combat(foe):
    from engines.talisman.rules import combat_task

    return combat_task(0, foe, "card", sp=None)


def test_random_nonsense_is_always_refused_with_a_known_code():
    """Whatever is sent at whatever moment, the refusal is one of the codes the bot has words for."""
    rng = random.Random(8)
    state = talisman.new_game(3, talisman.validate_options({"choose_character": True}), 8)
    samples = [
        {"type": t, **extra}
        for t in ("move", "step", "buy", "reroll", "cast_spell", "take_card", "attack", "choose", "fly")
        for extra in ({}, {"to": 99, "route": "up", "item": "castle", "die": 7, "spell": "hex", "card": -1})
    ]
    for _ in range(300):
        if talisman.outcome(state) is not None:
            break
        seat = talisman.to_act(state)[0]
        for action in samples:
            if action not in talisman.legal_actions(state, seat):
                refused(state, seat, action)
        state, _ = talisman.apply(state, seat, talisman.bot_action(state, seat, rng.randrange(1 << 30)))
