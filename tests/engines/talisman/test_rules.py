"""Talisman rules beyond the worked examples: turns, fate, the Portal, the inner region, death, the Crown,
spells offered in other players' turns, hidden information and the alternative rules."""

from __future__ import annotations

import json

import pytest

from engines.base import IllegalAction
from engines.rng import Rng
from engines.talisman import autoplayer, rules
from engines.talisman.data import CHARACTERS, CROWN, KIND_INDEX, PLAIN_OF_PERIL, PORTAL, VALLEY

from .helpers import act, give, kinds, on_top, place, rig, start_turn, table, talisman

FIELDS = 1


def test_movement_must_use_the_whole_roll_in_one_direction():
    state = table(["warrior", "troll"])
    state["chars"][0]["space"], state["chars"][0]["fate"] = 10, 0
    start_turn(state)
    rig(state, [3])
    state, _ = act(state, {"type": "roll_move"})
    assert {a["to"] for a in rules.legal(state, 0)} == {13, 7}


def test_fate_reroll_once_and_the_new_result_stands():
    state = table(["warrior", "troll"])
    state["chars"][0]["space"] = 10
    start_turn(state)
    rig(state, [1, 5])
    state, _ = act(state, {"type": "roll_move"})
    assert state["p"]["k"] == "reroll"
    state, events = act(state, {"type": "reroll", "die": 0})
    assert state["chars"][0]["fate"] == 0
    assert state["p"]["k"] == "route"
    assert {a["to"] for a in rules.legal(state, 0)} == {15, 5}


def test_enemy_victory_gives_a_trophy_and_a_standoff_ends_the_turn():
    state = table(["warrior", "troll"])
    warrior = state["chars"][0]
    warrior["space"], warrior["fate"] = FIELDS - 1, 0
    place(state, FIELDS, "ogre")
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": FIELDS})
    rig(state, [3, 4, 4])  # Ogre 5 + 3 = 8; Warrior rolls two dice and keeps the higher: 4 + 4 = 8
    state, events = act(state, {"type": "fight"})
    assert "StandOff" in kinds(events)
    assert state["seat"] == 1 and state["chars"][0]["life"] == 5


def test_enemies_with_the_same_number_fight_as_one():
    state = table(["warrior", "troll"])
    warrior = state["chars"][0]
    warrior["space"], warrior["fate"] = 20 - 1, 0
    place(state, 20, "goblin")
    place(state, 20, "wolf")
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": 20})
    assert state["p"]["c"]["foe"]["strength"] == 2 + 2
    rig(state, [1, 6, 6])
    state, _ = act(state, {"type": "fight"})
    assert sorted(t["v"] for t in state["chars"][0]["tro"]) == [2, 2]


def test_portal_opens_on_a_total_at_most_the_ability_else_the_ability_drops():
    state = table(["troll", "warrior"])
    troll = state["chars"][0]
    troll["space"], troll["fate"] = PORTAL + 1, 0
    start_turn(state)
    rig(state, [2])
    state, _ = act(state, {"type": "roll_move"})
    assert any(a["route"] == "ccw-p" for a in rules.legal(state, 0))
    state, _ = act(state, {"type": "move", "route": "ccw-p", "to": PLAIN_OF_PERIL})
    rig(state, [3, 3])
    state, events = act(state, {"type": "open_portal", "stat": "strength"})
    assert state["chars"][0]["space"] == PLAIN_OF_PERIL

    state = table(["wizard", "warrior"])
    wizard = state["chars"][0]
    wizard["space"], wizard["fate"], wizard["craft"] = PORTAL + 1, 0, 2
    start_turn(state)
    rig(state, [2])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "ccw-p", "to": PLAIN_OF_PERIL})
    rig(state, [6, 5])
    state, _ = act(state, {"type": "open_portal", "stat": "craft"})
    assert state["chars"][0]["space"] == PORTAL and state["chars"][0]["craft"] == 1


def test_a_warlock_quest_keeps_the_portal_shut_until_done():
    state = table(["troll", "warrior"])
    troll = state["chars"][0]
    troll["space"], troll["fate"], troll["quest"] = PORTAL + 1, 0, "kill_enemy"
    start_turn(state)
    rig(state, [2])
    state, _ = act(state, {"type": "roll_move"})
    assert not any(a["route"].endswith("p") for a in rules.legal(state, 0))


def test_quest_for_gold_completes_at_once_with_a_talisman():
    state = table(["troll", "warrior"])
    troll = state["chars"][0]
    troll["quest"], troll["gold"] = "deliver_gold_2", 3
    start_turn(state)
    assert troll is not state["chars"][0] or True
    troll = state["chars"][0]
    assert troll["quest"] is None and troll["gold"] == 1
    assert troll["space"] == KIND_INDEX["warlocks_cave"]
    assert any(i["c"] == "talisman" for i in troll["items"])


def test_inner_region_one_space_and_turning_back_ignores_instructions():
    state = table(["troll", "warrior"])
    troll = state["chars"][0]
    troll["space"] = PLAIN_OF_PERIL
    start_turn(state)
    assert {a["to"] for a in rules.legal(state, 0)} == {41, 47, PORTAL}
    troll["space"] = 42
    start_turn(state)
    assert {(a["type"], a["to"]) for a in rules.legal(state, 0)} == {("step", 43), ("turn_back", 41)}
    state, events = act(state, {"type": "turn_back", "to": 41})
    assert state["chars"][0]["space"] == 41 and "DiceRolled" not in kinds(events)
    start_turn(state)
    assert [a for a in rules.legal(state, 0) if a["type"] in ("step", "turn_back")] == [
        {"type": "step", "to": 40}
    ]


def test_valley_of_fire_needs_a_talisman():
    state = table(["troll", "warrior"])
    state["chars"][0]["space"] = VALLEY - 1
    start_turn(state)
    assert not any(a.get("to") == VALLEY for a in rules.legal(state, 0))
    give(state, 0, "talisman")
    start_turn(state)
    assert {"type": "step", "to": VALLEY} in rules.legal(state, 0)


def test_death_costs_a_life_on_a_lower_total():
    state = table(["troll", "warrior"])
    troll = state["chars"][0]
    troll["space"], troll["fate"] = KIND_INDEX["death"] + 1, 0
    start_turn(state)
    rig(state, [1, 2, 6, 6])
    state, events = act(state, {"type": "step", "to": KIND_INDEX["death"]})
    assert state["chars"][0]["life"] == 5 and state["chars"][0]["hold"] == {"k": "death"}


def test_crypt_moves_by_three_dice_less_strength():
    state = table(["wizard", "warrior"])
    wizard = state["chars"][0]
    wizard["space"], wizard["fate"] = PLAIN_OF_PERIL, 0
    start_turn(state)
    rig(state, [6, 6, 2])  # 14 - Strength 2 = 12, capped at 6+: the City
    state, events = act(state, {"type": "step", "to": KIND_INDEX["crypt"]})
    assert state["chars"][0]["space"] == KIND_INDEX["city"]


def test_a_dead_character_drops_its_cards_and_the_player_draws_a_new_one():
    state = table(["warrior", "troll"])
    warrior = state["chars"][0]
    warrior["life"], warrior["fate"] = 1, 0
    warrior["space"] = FIELDS - 1
    give(state, 0, "sword", "p")
    warrior["gold"] = 2
    place(state, FIELDS, "demon")
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": FIELDS})
    rig(state, [6, 1, 1])
    state, events = act(state, {"type": "fight"})
    assert "CharacterDied" in kinds(events)
    assert state["chars"][0]["dead"]
    assert state["gold"][str(FIELDS)] == 2
    assert any(i["c"] == "sword" for i in state["board"][str(FIELDS)])
    start_turn(state, 0)
    assert not state["chars"][0]["dead"] and state["chars"][0]["id"] not in ("warrior", "troll")


def test_after_the_crown_is_reached_death_is_final():
    state = table(["warrior", "troll", "wizard"])
    state["crown"] = True
    state["chars"][1]["life"] = 1
    events: list = []
    rules.die(state, 1, events)
    assert state["out"][1]


def test_command_spell_on_four_to_six_takes_a_life_from_everyone_else():
    state = table(["warrior", "troll", "wizard"])
    state["crown"] = True
    state["chars"][0]["space"] = CROWN
    state["chars"][0]["fate"] = 0
    state["chars"][2]["life"] = 1
    start_turn(state)
    assert rules.legal(state, 0) == [{"type": "cast_command"}]
    rig(state, [4])
    state, events = act(state, {"type": "cast_command"})
    assert state["chars"][1]["life"] == 5
    assert state["out"][2]
    assert talisman.outcome(state) is None


def test_command_spell_misses_on_three():
    state = table(["warrior", "troll"])
    state["chars"][0]["space"], state["chars"][0]["fate"] = CROWN, 0
    start_turn(state)
    rig(state, [3])
    state, events = act(state, {"type": "cast_command"})
    assert state["chars"][1]["life"] == 6


def test_last_character_standing_wins():
    state = table(["warrior", "troll"])
    state["crown"] = True
    state["chars"][0]["space"], state["chars"][0]["fate"] = CROWN, 0
    state["chars"][1]["life"] = 1
    start_turn(state)
    rig(state, [6])
    state, events = act(state, {"type": "cast_command"})
    outcome = talisman.outcome(state)
    assert outcome is not None and outcome.winners == [0]
    assert talisman.to_act(state) == []


def test_sudden_death_first_at_the_crown_wins():
    state = table(["warrior", "troll"], {"sudden_death": True})
    state["chars"][0]["space"] = VALLEY
    give(state, 0, "talisman")
    start_turn(state)
    state, _ = act(state, {"type": "step", "to": CROWN})
    assert talisman.outcome(state).winners == [0]


def test_bloodbath_one_talisman_and_death_is_final():
    state = talisman.new_game(3, talisman.validate_options({"bloodbath": True}), 1)
    assert state["tal"] == 1
    state["chars"][1]["life"] = 1
    rules.die(state, 1, [])
    assert state["out"][1]


def test_timed_game_counts_counters_gold_spells_followers_and_objects():
    state = table(["warrior", "troll"], {"round_limit": 1})
    state["chars"][1]["gold"] = 5
    state["chars"][0]["miss"] = 1
    state["chars"][1]["miss"] = 1
    start_turn(state, 1)
    result = talisman.outcome(state)
    assert result is not None and result.winners == [1] and result.scores == [1, 5]


def test_missed_turn_is_skipped():
    state = table(["warrior", "troll"])
    state["chars"][0]["miss"] = 1
    events = start_turn(state)
    assert "TurnMissed" in kinds(events) and state["seat"] == 1


def test_event_that_loses_a_turn_with_no_cards_left_skips_the_next_turn():
    state = table(["warrior", "troll"])
    warrior = state["chars"][0]
    warrior["space"], warrior["fate"] = FIELDS - 1, 0
    on_top(state, "evil_darkness")
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, events = act(state, {"type": "move", "route": "cw", "to": FIELDS})
    missed = [e["seat"] for e in events if e["type"] == "TurnMissed"]
    assert missed == [1, 0] and state["seat"] == 1 and state["p"]["k"] == "start"


def test_other_players_are_offered_spells_at_the_start_of_a_turn_and_may_decline():
    state = table(["warrior", "wizard"])
    state["chars"][1]["spells"] = ["immobility"]
    start_turn(state)
    assert talisman.to_act(state) == [1]
    assert rules.legal(state, 1) == [{"type": "cast_spell", "spell": "immobility"}, {"type": "decline"}]
    state, events = act(state, {"type": "cast_spell", "spell": "immobility"})
    assert state["p"]["k"] == "immobile" and state["p"]["seat"] == 0
    state, events = act(state, {"type": "pass"})
    assert state["seat"] == 1
    # the turn done nothing in is told (a review's log went from the cast straight to the next turn)
    assert {"type": "TurnMissed", "seat": 0, "source": "immobility"} in events


def test_healing_is_offered_in_another_s_turn_only_where_someone_has_a_life_to_heal():
    """Healing never goes above a character's printed life: with everyone unhurt, a review's player was asked at
    every other player's turn start whether to cast it (about three pointless windows a round). The window still
    opens, since whether a Spell fits is private, but only to let it pass; a hurt character, anyone's, opens it.
    In one's own turn it may be cast all the same: casting is the only way to be rid of a Spell (rulebook)."""
    state = table(["warrior", "wizard", "troll"])
    state["chars"][1]["spells"] = ["healing"]
    start_turn(state)
    assert talisman.to_act(state) == [1] and rules.legal(state, 1) == [{"type": "decline"}]
    # only passing: the clock lets it pass and nobody is told (bot.service.only_passing)
    assert talisman.reaction_seats(state) == [1] and talisman.pass_action(state, 1) == {"type": "decline"}
    for hurt in (0, 1, 2):
        state = table(["warrior", "wizard", "troll"])
        state["chars"][1]["spells"] = ["healing"]
        state["chars"][hurt]["life"] -= 1
        start_turn(state)
        assert rules.legal(state, 1) == [{"type": "cast_spell", "spell": "healing"}, {"type": "decline"}]
    state = table(["wizard", "warrior"])
    state["chars"][0]["spells"] = ["healing"]
    start_turn(state)
    assert {"type": "cast_spell", "spell": "healing"} in rules.legal(state, 0)


def test_counterspell_negates_a_spell():
    state = table(["warrior", "wizard"])
    state["chars"][0]["spells"] = ["temporal_warp"]
    state["chars"][0]["craft"] = 1
    state["chars"][1]["spells"] = ["counterspell"]
    start_turn(state)
    state, _ = act(state, {"type": "decline"})
    state, _ = act(state, {"type": "cast_spell", "spell": "temporal_warp"})
    assert talisman.to_act(state) == [1]
    state, events = act(state, {"type": "cast_spell", "spell": "counterspell"})
    assert "SpellCountered" in kinds(events) and state["warp"] == 0
    assert state["p"] == {"seat": 0, "k": "start"}  # the caster's turn goes on


def test_preservation_prevents_a_life_loss():
    state = table(["warrior", "wizard"])
    warrior = state["chars"][0]
    warrior["space"], warrior["fate"] = FIELDS - 1, 0
    state["chars"][1]["spells"] = ["preservation"]
    place(state, FIELDS, "demon")
    state["chars"][1]["ocast"] = -1
    start_turn(state)
    state, _ = act(state, {"type": "decline"})
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": FIELDS})
    rig(state, [6, 1, 1])
    state, _ = act(state, {"type": "fight"})
    assert state["p"]["k"] == "window" and state["p"]["seat"] == 1
    state, events = act(state, {"type": "cast_spell", "spell": "preservation"})
    assert "LifeLossPrevented" in kinds(events) and state["chars"][0]["life"] == 5


def test_armour_saves_a_life_on_four_to_six():
    state = table(["troll", "wizard"])
    troll = state["chars"][0]
    troll["space"], troll["fate"] = FIELDS - 1, 0
    give(state, 0, "armour", "p")
    place(state, FIELDS, "dragon")
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": FIELDS})
    rig(state, [6, 1, 5])  # Dragon 13, Troll 7, Armour roll 5
    state, events = act(state, {"type": "fight"})
    assert "BattleLost" in kinds(events) and state["chars"][0]["life"] == 6


def test_character_battle_winner_takes_a_life_or_an_object():
    state = table(["warrior", "wizard"])
    warrior, wizard = state["chars"]
    wizard["space"] = warrior["space"] = 9
    warrior["space"] = 8
    warrior["fate"] = wizard["fate"] = 0
    give(state, 1, "sword", "p")
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": 9})
    assert state["p"]["k"] == "meet"
    rig(state, [6, 6, 1])
    state, events = act(state, {"type": "attack", "target": 1, "mode": "physical"})
    assert state["p"]["k"] == "spoils" and state["p"]["seat"] == 0
    sword = state["chars"][1]["items"][0]["u"]
    state, _ = act(state, {"type": "take_card", "card": sword})
    assert [i["c"] for i in state["chars"][0]["items"]] == ["sword"] and state["chars"][1]["life"] == 4


def test_alignment_changes_once_per_turn():
    state = table(["warrior", "troll"])
    rules.set_alignment(state, 0, "evil", [])
    rules.set_alignment(state, 0, "good", [])
    assert state["chars"][0]["align"] == "evil"


def test_holy_grail_is_put_down_when_its_bearer_turns_evil():
    state = table(["monk", "troll"])
    give(state, 0, "holy_grail")
    rules.set_alignment(state, 0, "evil", [])
    start_turn(state, 1)
    assert not state["chars"][0]["items"]
    assert any(i["c"] == "holy_grail" for i in state["board"][str(state["chars"][0]["space"])])


def test_toad_has_strength_and_craft_one_and_moves_one_space():
    state = table(["troll", "warrior"])
    rules.become_toad(state, 0, [])
    start_turn(state)
    assert rules.strength(state, state["chars"][0]) == 1
    assert {"type": "move_one"} in rules.legal(state, 0)


def test_spells_in_hand_are_private():
    state = table(["wizard", "warrior"])
    state["chars"][0]["spells"] = ["hex", "teleport"]
    start_turn(state, 1)
    assert talisman.view(state, 0)["my_spells"] == ["hex", "teleport"]
    assert talisman.view(state, 1)["chars"][0]["spells"] == 2
    assert "my_spells" not in talisman.view(state, None)
    shuffled = talisman.shuffle_hidden(state, 1, 5)
    assert talisman.view(shuffled, 1) == talisman.view(state, 1)


def test_illegal_actions_are_refused_with_specific_codes():
    state = table(["wizard", "warrior"])
    state["chars"][0]["spells"] = ["preservation"]
    start_turn(state)
    with pytest.raises(IllegalAction) as refused:
        talisman.apply(state, 0, {"type": "cast_spell", "spell": "hex"})
    assert refused.value.code == "spell_not_in_hand"
    with pytest.raises(IllegalAction) as refused:
        talisman.apply(state, 0, {"type": "cast_spell", "spell": "preservation"})
    assert refused.value.code == "spell_not_castable_now"
    with pytest.raises(IllegalAction) as refused:
        talisman.apply(state, 0, {"type": "buy", "item": "sword"})
    assert refused.value.code == "action_not_expected"


def test_choose_character_and_starting_bonus_set_up():
    state = talisman.new_game(
        3, talisman.validate_options({"choose_character": True, "starting_bonus": True}), 4
    )
    assert state["phase"] == "setup" and talisman.to_act(state) == [0, 1, 2]
    offer = talisman.view(state, 0)["setup"]["offers"]
    assert len(offer) == 3 and "offers" not in talisman.view(state, None)["setup"]
    for seat in range(3):
        choice = talisman.legal_actions(state, seat)[0]
        state, _ = talisman.apply(state, seat, choice)
        state, _ = talisman.apply(state, seat, {"type": "choose_bonus", "stat": "craft"})
    assert state["phase"] == "play"
    assert all(ch["craft"] == 1 for ch in state["chars"])
    assert len(state["unused"]) == 14 - 3


def test_inheritance_keeps_cards_for_the_next_character():
    state = table(["warrior", "troll"], {"inheritance": True})
    give(state, 0, "sword", "p")
    state["chars"][0]["gold"] = 3
    rules.die(state, 0, [])
    assert str(FIELDS) not in state["board"]
    start_turn(state, 0)
    assert state["p"]["k"] == "inherit"
    uid = state["stash_pick"]["cards"][0]["u"]
    state, _ = act(state, {"type": "keep", "card": uid})
    assert state["p"]["k"] == "start"
    assert [i["c"] for i in state["chars"][0]["items"]] == ["sword"] and state["chars"][0]["gold"] == 4


def test_thief_steals_instead_of_attacking():
    state = table(["thief", "wizard"])
    thief, wizard = state["chars"]
    thief["space"], thief["fate"], wizard["space"] = 8, 0, 9
    wizard["gold"] = 3
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": 9})
    state, _ = act(state, {"type": "steal", "target": 1})
    state, _ = act(state, {"type": "take_gold"})
    assert state["chars"][0]["gold"] == 2 and state["chars"][1]["gold"] == 2


def test_a_defender_out_of_turn_can_always_decline():
    state = table(["warrior", "wizard"])
    warrior, wizard = state["chars"]
    warrior["space"], warrior["fate"], wizard["space"] = 8, 0, 9
    wizard["spells"] = ["psionic_blast"]
    start_turn(state)
    state, _ = act(state, {"type": "decline"})  # the turn-start window
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": 9})
    state, _ = act(state, {"type": "attack", "target": 1, "mode": "physical"})
    assert talisman.to_act(state) == [1] and {"type": "decline"} in rules.legal(state, 1)
    rig(state, [1, 1, 6])  # the Warrior's two dice 1 and 1 (4 + 1), the Wizard 2 + 6: the defender wins
    state, _ = act(state, {"type": "decline"})
    assert state["p"]["k"] == "duel_reroll" and state["p"]["seat"] == 1
    # the re-roll is weighed against both scores, the asker's first (as a fight with a foe is)
    assert (state["p"]["score"], state["p"]["foe_score"]) == (2 + 6, 4 + 1)
    assert talisman.view(state, 0)["prompt"]["score"] == 8  # public: both sides' dice are on the table
    state, _ = act(state, {"type": "decline"})
    assert state["p"]["k"] == "spoils" and {"type": "decline"} in rules.legal(state, 1)
    lives = [c["life"] for c in state["chars"]]
    state, events = act(state, {"type": "decline"})
    # the fight's end is told even when the winner takes nothing (a review's log stopped at the scores)
    assert {"type": "SpoilsDeclined", "seat": 1, "target": 0} in events
    assert [c["life"] for c in state["chars"]] == lives


def test_a_raft_found_on_a_turn_is_used_at_the_start_of_the_next():
    state = table(["troll", "wizard"])
    on_top(state, "raft")
    state["chars"][0]["space"], state["chars"][0]["fate"] = 0, 0
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": FIELDS})
    state, _ = act(state, {"type": "take", "card": state["p"]["card"]})
    assert [i["c"] for i in state["chars"][0]["items"]] == ["raft"]
    start_turn(state)
    assert {"type": "use_raft", "to": 25} in rules.legal(state, 0)
    rig(state, [2])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": 3})
    assert state["chars"][0]["items"] == []  # not used: the Raft is gone all the same


def test_rounds_count_once_per_pass_of_the_table_even_with_players_out():
    state = table(["warrior", "troll", "wizard", "monk"])
    state["out"][0] = True
    state["chars"][3]["miss"] = 1
    before = state["round"]
    start_turn(state, 3)
    assert state["seat"] == 1 and state["round"] == before + 1


def test_eased_command_spell_hits_on_three_with_five_characters():
    state = table(["warrior", "troll", "wizard", "monk", "elf"], {"command_eased": True})
    state["chars"][0]["space"], state["chars"][0]["fate"] = CROWN, 0
    start_turn(state)
    rig(state, [3])
    state, events = act(state, {"type": "cast_command"})
    assert next(e for e in events if e["type"] == "CommandSpellResolved")["hit"]


def test_hostile_black_knight_can_be_evaded_under_the_alternative_rule():
    state = table(["troll", "wizard"], {"evade_hostile": True})
    troll = state["chars"][0]
    troll["space"], troll["fate"] = 24, 0
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": 25})
    assert {a["option"] for a in rules.legal(state, 0)} == {"suffer", "pay", "evade"}


def test_the_built_in_player_makes_legal_progress():
    state = talisman.new_game(3, talisman.validate_options({}), 8)
    for step in range(400):
        seat = talisman.to_act(state)[0]
        action = talisman.bot_action(state, seat, step)
        assert action in talisman.legal_actions(state, seat)
        state, _ = talisman.apply(state, seat, action)
    assert state["turn"] > 40


def test_other_players_windows_are_passed_on_a_missed_deadline():
    state = table(["warrior", "wizard"])
    state["chars"][1]["spells"] = ["random"]
    start_turn(state)
    assert talisman.pass_action(state, 1) == {"type": "decline"}


def test_the_built_in_player_heals_itself_with_a_spell_when_hurt():
    state = table(["wizard", "warrior"])
    wizard = state["chars"][0]
    wizard["spells"], wizard["life"] = ["healing"], 1
    start_turn(state)
    action = talisman.bot_action(state, 0, 1)
    assert action == {"type": "cast_spell", "spell": "healing"}
    state, _ = act(state, action)
    assert talisman.view(state, 1)["prompt"]["spell"] == "healing"  # the cast is public
    state, _ = act(state, talisman.bot_action(state, 0, 2))
    assert state["chars"][0]["life"] == CHARACTERS["wizard"]["life"]


def test_the_built_in_player_keeps_its_healing_while_unhurt_and_casts_for_its_own_battles():
    state = table(["wizard", "warrior"])
    state["chars"][0]["spells"] = ["healing"]
    start_turn(state)
    assert talisman.bot_action(state, 0, 1)["type"] != "cast_spell"
    view = {
        "viewer": 0,
        "chars": [talisman.view(state, 0)["chars"][0]],
        "prompt": {"seat": 0, "kind": "combat"},
    }
    actions = [{"type": "fight"}, {"type": "cast_spell", "spell": "psionic_blast"}]
    assert autoplayer.choose(view, actions, Rng.from_seed(1)) == actions[1]


@pytest.mark.parametrize(("card", "prompt"), [("hag", "hostile_event"), ("witch", "hostile")])
def test_a_game_saved_at_an_evade_prompt_by_the_previous_version_loads(card, prompt):
    state = table(["troll", "wizard"], {"evade_hostile": True})
    state["chars"][0]["space"], state["chars"][0]["fate"] = 8, 0
    state["chars"][1]["space"] = 20
    place(state, 9, card)
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": 9})
    assert state["p"]["k"] == prompt
    old = json.loads(talisman.dump(state))
    old["schema"] = 1
    if prompt == "hostile_event":  # schema 1 kept the encounter task where the card's id is now
        old["state"]["p"]["card"] = old["state"]["p"].pop("task")
    else:  # and did not name the card at all
        del old["state"]["p"]["card"]
    assert talisman.load(json.dumps(old)) == state
    with pytest.raises(ValueError):
        talisman.load(json.dumps({**old, "schema": 0}))


def test_a_roll_that_does_nothing_says_so():
    """A review's log read "Bot 1 rolls 2 for what the card or space says." and nothing more."""
    state = table(["warrior", "wizard"])
    village = KIND_INDEX["village"]
    roll = {"op": "roll", "dice": 1, "results": [{"on": [6], "do": [{"op": "gain_gold", "n": 1}]}]}
    events: list = []
    rules.t_fx_roll(
        state, {"t": "fx_roll", "o": roll, "ft": {"t": "fx", "s": 0, "sp": village}, "dice": [2]}, events
    )
    assert events == [{"type": "NoEffect", "seat": 0, "why": "nothing_rolled", "source": "village"}]
    rules.t_fx_roll(
        state, {"t": "fx_roll", "o": roll, "ft": {"t": "fx", "s": 0, "sp": village}, "dice": [6]}, events
    )
    assert len(events) == 1 and state["q"][0]["ops"] == [
        {"op": "gain_gold", "n": 1}
    ]  # the row's effect follows
