"""Roll Player rules from the Korean rulebook (000_*.txt), driven through new_game / legal_actions / apply:
set-up, the roll and dice phases with their worked examples, attribute actions, cleanup and the end of the
game."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.roll_player.data import CARDS, CLASS_COLOURS, CLASSES, COLOUR_COUNTS, SOLO

from .helpers import ENGINE, act, full_sheet, game, of_type, refused, rigged, sheet, table, take_out

# --- set-up -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "removed", "extra_gold"), [(2, 7, []), (3, 3, [1]), (4, 0, [1, 2])])
def test_setup_by_player_count(players, removed, extra_gold):
    state = game(players, seed=players)
    order = [(state["start"] + i) % players for i in range(players)]
    # 5 gold each; the third and fourth in turn order take 1 and 2 more.
    assert [state["seats"][seat]["gold"] for seat in order] == [5, 5, *[5 + g for g in extra_gold]]
    # One initiative card more than players, gold on all but the first and last.
    assert [(c["number"], c["gold"]) for c in state["initiative"]] == [
        (n, 0 if n in (1, players + 1) else 1) for n in range(1, players + 2)
    ]
    assert len(state["market"]) == players + 1
    # 7 (2p) or 3 (3p) cards of each level go to the discard pile; level 1 lies on top of level 2.
    levels = Counter(CARDS[c]["level"] for c in state["discard"])
    assert levels == ({1: removed, 2: removed} if removed else Counter())
    pile = [CARDS[c]["level"] for c in state["market"] + state["deck"]]
    assert pile == sorted(pile)
    assert sorted(state["market"] + state["deck"] + state["discard"]) == sorted(CARDS)
    # Backstories and alignments are dealt one each, all different; tokens start in the centre.
    assert len({s["backstory"] for s in state["seats"]}) == players
    assert len({s["alignment"] for s in state["seats"]}) == players
    assert all(s["token"] == 4 for s in state["seats"])
    assert state["bag"] == COLOUR_COUNTS


def _through_classes(state, pick_class=None):
    """Choose races, then classes (the first offered unless `pick_class` names one), returning the events."""
    events = []
    while state["phase"] in ("choose_race", "choose_class"):
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        choice = next((a for a in legal if a.get("class") == pick_class), legal[0])
        state, more = act(state, choice)
        events += more
    return state, events


@pytest.mark.parametrize(("players", "dice"), [(2, 6), (3, 7), (4, 8)])
def test_starting_dice_and_their_gold(players, dice):
    state, events = _through_classes(game(players, seed=11))
    rolled = {e["seat"]: e["dice"] for e in of_type(events, "StartDiceRolled")}
    assert [e["seat"] for e in of_type(events, "StartDiceRolled")] == [
        (state["start"] + i) % players for i in range(players)
    ]
    assert all(len(d) == dice for d in rolled.values())
    drawn = Counter(c for d in rolled.values() for c, _ in d)
    assert all(state["bag"][c] == COLOUR_COUNTS[c] - drawn[c] for c in COLOUR_COUNTS)  # class dice went back
    # Every seat places its dice at once, leftmost in a row, without attribute actions.
    assert sorted(ENGINE.to_act(state)) == list(range(players))
    seat = state["start"]
    gold = state["seats"][seat]["gold"]
    earned = 0
    while state["seats"][seat]["start_dice"]:
        me = state["seats"][seat]
        row = next(a for a in ("str", "dex", "con", "int", "wis", "cha") if len(me["rows"][a]) < 3)
        index = 0
        colour, value = me["start_dice"][index]
        state, events = act(state, {"type": "place_start_die", "die": index, "row": row}, seat)
        placed = of_type(events, "StartDiePlaced")[0]
        thief = state["seats"][seat]["class"] == "thief"
        expected = (1 if len(state["seats"][seat]["rows"][row]) == 3 else 0) + (
            (4 if thief else 2) if colour == "gold" else 0
        )
        assert placed["gold"] == expected and state["seats"][seat]["rows"][row][-1] == [colour, value]
        earned += expected
        assert not of_type(events, "AttributeActionTaken")
    assert state["seats"][seat]["gold"] == gold + earned


@pytest.mark.parametrize(("klass", "gold"), [("thief", 4 + 4 + 1), ("rogue", 2 + 2 + 1)])
def test_thief_takes_four_gold_per_gold_die_at_setup(klass, gold):
    state, _ = _through_classes(game(2, seed=4, class_choice=True))
    seat = state["start"]
    me = state["seats"][seat]
    me["class"] = klass
    me["start_dice"] = [["gold", 3], ["gold", 5], ["red", 2]]
    before = me["gold"]
    for _ in range(3):
        state, _ = act(state, {"type": "place_start_die", "die": 0, "row": "str"}, seat)
    assert state["seats"][seat]["gold"] == before + gold


def test_class_by_die_offers_both_sides_of_an_unused_colour():
    state = game(3, seed=8)
    while state["phase"] == "choose_race":
        state, _ = act(state, ENGINE.legal_actions(state, ENGINE.to_act(state)[0])[0])
    taken = set()
    gold = [me["gold"] for me in state["seats"]]
    while state["phase"] == "choose_class":
        seat = ENGINE.to_act(state)[0]
        colour = state["class_offer"]
        assert colour in CLASS_COLOURS and colour not in taken  # never gold, never a colour already drawn
        offered = [a["class"] for a in ENGINE.legal_actions(state, seat)]
        assert sorted(offered) == sorted(c for c, cls in CLASSES.items() if cls["colour"] == colour)
        assert len(offered) == 2
        taken.add(colour)
        state, _ = act(state, {"type": "choose_class", "class": offered[1]})
    assert len(taken) == 3
    assert [me["gold"] for me in state["seats"]] == gold  # drawing a class die earns nothing


def test_class_by_choice_takes_a_card_out():
    state = game(2, seed=9, class_choice=True)
    while state["phase"] == "choose_race":
        state, _ = act(state, ENGINE.legal_actions(state, ENGINE.to_act(state)[0])[0])
    first = ENGINE.to_act(state)[0]
    assert first == state["start"]
    assert len(ENGINE.legal_actions(state, first)) == 12
    state, _ = act(state, {"type": "choose_class", "class": "bard"})
    offered = {a["class"] for a in ENGINE.legal_actions(state, ENGINE.to_act(state)[0])}
    assert len(offered) == 10 and not offered & {"bard", "monk"}  # the Bard's card has Monk on its back


def test_races_are_chosen_in_turn_order_and_unique():
    state = game(3, seed=2)
    order = [(state["start"] + i) % 3 for i in range(3)]
    assert ENGINE.to_act(state) == [order[0]]
    state, _ = act(state, {"type": "choose_race", "race": "orc"})
    assert ENGINE.to_act(state) == [order[1]]
    refused(state, {"type": "choose_race", "race": "orc"}, "race_not_available")
    assert {"type": "choose_race", "race": "frogkin"} in ENGINE.legal_actions(state, order[1])


@pytest.mark.parametrize(("players", "golds"), [(2, 0), (3, 1), (4, 2)])
def test_fair_start_dice(players, golds):
    state, events = _through_classes(game(players, seed=5, fair_start=True))
    for event in of_type(events, "StartDiceRolled"):
        colours = Counter(c for c, _ in event["dice"])
        assert colours == Counter({c: 1 for c in CLASS_COLOURS} | ({"gold": golds} if golds else {}))


def test_random_market_mixes_the_levels():
    shapes = []
    for seed in range(1, 6):
        state = game(2, seed=seed, random_market=True)
        assert len(state["discard"]) == 14 and len(state["market"]) == 3
        assert sorted(state["market"] + state["deck"] + state["discard"]) == sorted(CARDS)
        levels = [CARDS[c]["level"] for c in state["market"] + state["deck"]]
        shapes.append(levels == sorted(levels))
    assert not all(shapes)


@pytest.mark.parametrize("players", [3, 4])
def test_short_game(players):
    state = game(players, seed=6, short_game=True)
    assert all(s["gold"] == 5 for s in state["seats"])
    state, events = _through_classes(state)
    assert all(len(e["dice"]) == players + 6 for e in of_type(events, "StartDiceRolled"))


def test_peaceful_market_takes_gold_without_discarding():
    state = _market_start(peaceful_market=True)
    seat = ENGINE.to_act(state)[0]
    legal = ENGINE.legal_actions(state, seat)
    assert {"type": "take_gold"} in legal and not [a for a in legal if a["type"] == "discard_card"]
    market = list(state["market"])
    gold = state["seats"][seat]["gold"]
    state, _ = act(state, {"type": "take_gold"})
    assert state["market"] == market and state["seats"][seat]["gold"] == gold + 2


def _market_start(**options):
    """A 2-player table whose dice phase has just been played (both seats picked and skipped the action)."""
    state = table(["warrior", "rogue"], [["red", 1], ["blue", 3], ["green", 5]], **options)
    for _ in range(2):
        state, _ = act(state, ENGINE.legal_actions(state, ENGINE.to_act(state)[0])[0])
        state, _ = act(state, {"type": "place_die", "row": "str"})
        state, _ = act(state, {"type": "skip_action"})
    assert state["phase"] == "market"
    return state


# --- the roll phase -----------------------------------------------------------------------------------------


def test_initiative_example_sorting_low_to_high_with_a_tie():
    """Jerry (start) rolls green 6, red 1, gold 4, purple 6: red 1 on "1", gold 4 on "2", and he decides which
    6 goes on "3"."""
    state = table(["warrior", "rogue", "bard"], [["red", 1], ["blue", 3], ["green", 5], ["white", 6]])
    state = _last_turn_of_round(state)
    state["start"] = 2  # the next round's start player is seat 0 (Jerry)
    state["bag"] = {c: 0 for c in COLOUR_COUNTS} | {"green": 1, "red": 1, "gold": 1, "purple": 1}
    wanted = Counter({("green", 6): 1, ("red", 1): 1, ("gold", 4): 1, ("purple", 6): 1})

    def rolls_example(after, events):
        rolled = of_type(events, "InitiativeRolled")
        return bool(rolled) and Counter(tuple(d) for d in rolled[0]["dice"]) == wanted

    state, events = rigged(state, {"type": "discard_card", "card": state["market"][0]}, rolls_example)
    assert of_type(events, "InitiativeRolled")[0]["seat"] == 0
    assert [c["die"] for c in state["initiative"]] == [["red", 1], ["gold", 4], None, None]
    assert ENGINE.to_act(state) == [0]
    assert sorted(a["colour"] for a in ENGINE.legal_actions(state, 0)) == ["green", "purple"]
    state, _ = act(state, {"type": "order_die", "colour": "purple"})
    assert [c["die"] for c in state["initiative"]] == [["red", 1], ["gold", 4], ["purple", 6], ["green", 6]]
    assert [c["gold"] for c in state["initiative"]] == [0, 1, 1, 0]
    assert state["phase"] == "dice" and ENGINE.to_act(state) == [0]


def test_tied_dice_of_one_colour_need_no_choice():
    state = table(["warrior", "rogue"], [["red", 1], ["blue", 3], ["green", 5]])
    state = _last_turn_of_round(state)
    state["start"] = 1
    state["bag"] = {c: 0 for c in COLOUR_COUNTS} | {"blue": 2, "black": 1}

    def blue_tie(after, events):
        rolled = of_type(events, "InitiativeRolled")
        return bool(rolled) and sorted(tuple(d) for d in rolled[0]["dice"]) == [
            ("black", 1),
            ("blue", 3),
            ("blue", 3),
        ]

    state, _ = rigged(state, {"type": "discard_card", "card": state["market"][0]}, blue_tie)
    assert not state["pending"]
    assert [c["die"] for c in state["initiative"]] == [["black", 1], ["blue", 3], ["blue", 3]]


def _last_turn_of_round(state, row="str"):
    """Play the dice phase (everyone into `row`, no action) and the market up to its last turn."""
    while state["phase"] == "dice":
        state, _ = act(state, ENGINE.legal_actions(state, ENGINE.to_act(state)[0])[0])
        state, _ = act(state, {"type": "place_die", "row": row})
        state, _ = act(state, {"type": "skip_action"})
    while state["market_index"] < len(state["market_order"]) - 1:
        state, _ = act(state, {"type": "discard_card", "card": state["market"][0]})
    return state


# --- the dice phase -----------------------------------------------------------------------------------------


def test_dice_phase_example_gold_die_and_strength_flip():
    """Evan takes initiative card "2" (1 gold), puts its gold die second in his STR row (2 more gold) and uses
    the STR action to turn a blue 1 in CON into a 6."""
    state = table(["paladin", "ranger", "monk"], [["red", 1], ["gold", 4], ["purple", 6], ["green", 6]])
    evan = state["seats"][0]
    evan["rows"] = sheet(str=[["white", 3]], con=[["blue", 1]])
    state, events = act(state, {"type": "pick_card", "card": 2})
    assert of_type(events, "InitiativeCardTaken")[0]["gold"] == 1
    assert state["initiative"][1]["gold"] == 0
    legal = ENGINE.legal_actions(state, 0)
    assert {a["row"] for a in legal if a["type"] == "place_die"} == {"str", "dex", "con", "int", "wis", "cha"}
    state, events = act(state, {"type": "place_die", "row": "str"})
    assert of_type(events, "DiePlaced")[0]["gold"] == 2
    assert state["seats"][0]["rows"]["str"] == [["white", 3], ["gold", 4]]
    legal = ENGINE.legal_actions(state, 0)
    assert {a["type"] for a in legal} == {"flip_die", "skip_action"}  # the STR row's action only
    assert {a["die"] for a in legal if a["type"] == "flip_die"} == {
        "str1",
        "str2",
        "con1",
    }  # any die, old or new
    state, _ = act(state, {"type": "flip_die", "die": "con1"})
    assert state["seats"][0]["rows"]["con"] == [["blue", 6]]
    assert state["seats"][0]["gold"] == 5 + 3
    assert (
        ENGINE.to_act(state) == [1] and state["step"] == "pick"
    )  # one attribute action, then the turn passes


def test_third_box_gold_and_gold_die_gold():
    state = table(["paladin", "ranger"], [["gold", 2], ["red", 3], ["blue", 4]])
    state["seats"][0]["rows"] = sheet(dex=[["red", 1], ["red", 2]])
    state, _ = act(state, {"type": "pick_card", "card": 1})
    state, events = act(state, {"type": "place_die", "row": "dex"})
    assert of_type(events, "DiePlaced")[0]["gold"] == 1 + 2
    refused(state, {"type": "place_die", "row": "dex"}, "not_now")


def test_full_row_refuses_a_die():
    state = table(["paladin", "ranger"], [["gold", 2], ["red", 3], ["blue", 4]])
    state["seats"][0]["rows"] = sheet(dex=[["red", 1], ["red", 2], ["red", 3]])
    state, _ = act(state, {"type": "pick_card", "card": 2})
    assert {"type": "place_die", "row": "dex"} not in ENGINE.legal_actions(state, 0)
    refused(state, {"type": "place_die", "row": "dex"}, "row_full")


def _placed(row, rows, classes=("paladin", "ranger"), die=("blue", 2)):
    """Seat 0 has taken card 1 (showing `die`) and placed it in `row`, over a sheet of `rows`."""
    state = table(list(classes), [list(die), ["red", 3], ["green", 4]])
    state["seats"][0]["rows"] = sheet(**rows)
    state, _ = act(state, {"type": "pick_card", "card": 1})
    state, _ = act(state, {"type": "place_die", "row": row})
    return state


def test_dex_action_swaps_two_dice_keeping_their_numbers():
    state = _placed("dex", {"str": [["red", 6]], "cha": [["white", 1]]})
    legal = ENGINE.legal_actions(state, 0)
    assert {a["type"] for a in legal} == {"swap_dice", "skip_action"}
    assert len([a for a in legal if a["type"] == "swap_dice"]) == 3  # three dice, three pairs; no empty boxes
    state, _ = act(state, {"type": "swap_dice", "die": "str1", "other": "cha1"})
    rows = state["seats"][0]["rows"]
    assert rows["str"] == [["white", 1]] and rows["cha"] == [["red", 6]] and rows["dex"] == [["blue", 2]]
    assert ENGINE.to_act(state) == [1]  # moving dice into STR and CHA triggers no further action


def test_con_action_adjusts_without_wrapping():
    state = _placed("con", {"str": [["red", 6]], "cha": [["white", 1]]})
    adjust = [(a["die"], a["delta"]) for a in ENGINE.legal_actions(state, 0) if a["type"] == "adjust_die"]
    assert sorted(adjust) == [("cha1", 1), ("con1", -1), ("con1", 1), ("str1", -1)]
    refused(state, {"type": "adjust_die", "die": "str1", "delta": 1}, "die_cannot_wrap")
    refused(state, {"type": "adjust_die", "die": "cha1", "delta": -1}, "die_cannot_wrap")
    state, _ = act(state, {"type": "adjust_die", "die": "str1", "delta": -1})
    assert state["seats"][0]["rows"]["str"] == [["red", 5]]


@pytest.mark.parametrize("keep_new", [True, False])
def test_int_action_rerolls_and_keeps_either_number(keep_new):
    state = _placed("int", {"str": [["red", 2]]})

    def new_five(after, events):
        rolled = of_type(events, "DieRerolled")
        return bool(rolled) and rolled[0]["new"] == 5

    state, _ = rigged(state, {"type": "reroll_die", "die": "str1"}, new_five)
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "keep_roll", "keep_new": True},
        {"type": "keep_roll", "keep_new": False},
    ]
    state, _ = act(state, {"type": "keep_roll", "keep_new": keep_new})
    assert state["seats"][0]["rows"]["str"] == [["red", 5 if keep_new else 2]]
    assert ENGINE.to_act(state) == [1]


def test_wis_action_moves_the_token_one_step_orthogonally():
    state = _placed("wis", {})
    moves = {a["direction"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "move_token"}
    assert moves == {"up", "down", "left", "right"}
    state["seats"][0]["token"] = 0  # lawful good corner
    moves = {a["direction"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "move_token"}
    assert moves == {"down", "right"}
    refused(state, {"type": "move_token", "direction": "up"}, "alignment_blocked")
    state, _ = act(state, {"type": "move_token", "direction": "right"})
    assert state["seats"][0]["token"] == 1


def test_cha_action_gives_a_discount_token_for_this_round_only():
    state = _placed("cha", {})
    state, _ = act(state, {"type": "take_discount"})
    assert state["seats"][0]["discounts"] == 1
    state, _ = act(state, {"type": "pick_card", "card": 2})
    state, _ = act(state, {"type": "place_die", "row": "str"})
    state, _ = act(state, {"type": "skip_action"})
    assert state["phase"] == "market"
    while state["phase"] == "market":
        state, _ = act(state, {"type": "discard_card", "card": state["market"][0]})
    assert state["seats"][0]["discounts"] == 0  # unused tokens are discarded in cleanup


def test_skipping_the_attribute_action():
    state = _placed("str", {"str": [["red", 2]]})
    state, events = act(state, {"type": "skip_action"})
    assert state["seats"][0]["rows"]["str"] == [["red", 2], ["blue", 2]]
    assert ENGINE.to_act(state) == [1]


# --- cleanup and the next round -----------------------------------------------------------------------------


def test_cleanup_returns_dice_deals_a_new_market_and_passes_the_bag():
    state = _market_start()
    bag = sum(state["bag"].values())
    deck_top = state["deck"][:3]
    old_market = list(state["market"])
    state, _ = act(state, {"type": "discard_card", "card": old_market[0]})
    state, events = act(state, {"type": "discard_card", "card": old_market[1]})
    assert state["round"] == 2 and state["start"] == 1
    assert state["market"] == deck_top
    assert set(old_market) <= set(state["discard"])
    # The unchosen card's die went back into the bag before the next three dice were drawn.
    assert sum(state["bag"].values()) == bag + 1 - 3
    # The middle card gets its gold back; no card ever holds more than one.
    assert [c["gold"] for c in state["initiative"]] == [0, 1, 0]
    assert of_type(events, "RoundStarted")[0] == {"type": "RoundStarted", "round": 2, "start": 1}


def test_unchosen_card_keeps_its_single_gold():
    state = table(["warrior", "rogue", "bard"], [["red", 1], ["blue", 3], ["green", 5], ["white", 6]])
    for card in (1, 4, 3):
        state, _ = act(state, {"type": "pick_card", "card": card})
        state, _ = act(state, {"type": "place_die", "row": "str"})
        state, _ = act(state, {"type": "skip_action"})
    while state["phase"] == "market":
        state, _ = act(state, {"type": "discard_card", "card": state["market"][0]})
    assert [c["gold"] for c in state["initiative"]] == [0, 1, 1, 0]


def test_deck_reshuffles_the_discard_pile_when_empty():
    state = _market_start()
    state["discard"] += state["deck"][1:]
    state["deck"] = state["deck"][:1]
    state, _ = act(state, {"type": "discard_card", "card": state["market"][0]})
    state, events = act(state, {"type": "discard_card", "card": state["market"][0]})
    assert of_type(events, "DeckReshuffled")
    assert len(state["market"]) == 3 and len(set(state["market"])) == 3


def test_the_game_ends_after_the_round_in_which_every_sheet_is_full():
    state = table(["warrior", "rogue"], [["red", 1], ["blue", 3], ["green", 5]])
    for me in state["seats"]:
        me["rows"] = full_sheet(cha=[["gold", 1]] * 2)
    for _ in range(2):
        state, _ = act(state, ENGINE.legal_actions(state, ENGINE.to_act(state)[0])[0])
        state, _ = act(state, {"type": "place_die", "row": "cha"})
        state, _ = act(state, {"type": "skip_action"})
    assert ENGINE.outcome(state) is None and state["phase"] == "market"  # the round is played to its end
    state, _ = act(state, {"type": "discard_card", "card": state["market"][0]})
    state, events = act(state, {"type": "discard_card", "card": state["market"][0]})
    assert ENGINE.outcome(state) is not None and ENGINE.to_act(state) == []
    assert of_type(events, "GameEnded") and not of_type(events, "RoundStarted")
    refused(state, {"type": "skip_action"}, "game_over", seat=0)


def test_the_game_goes_on_while_a_box_is_empty():
    state = table(["warrior", "rogue"], [["red", 1], ["blue", 3], ["green", 5]])
    for me in state["seats"]:
        me["rows"] = full_sheet(cha=[["gold", 1]])
    state = _last_turn_of_round(state, "cha")
    state, events = act(state, {"type": "discard_card", "card": state["market"][0]})
    assert ENGINE.outcome(state) is None and of_type(events, "RoundStarted")


# --- solo ---------------------------------------------------------------------------------------------------


def test_solo_setup():
    state = game(1, seed=3)
    assert state["solo"] and state["seats"][0]["gold"] == 5
    assert state["bag"]["gold"] == COLOUR_COUNTS["gold"] - 1  # the adventurer die stays out
    assert len(state["initiative"]) == 3 and [c["gold"] for c in state["initiative"]] == [0, 1, 0]
    assert len(state["market"]) == 3 and len(state["sold_out"]) == 1
    assert len(state["discard"]) == 14  # set up as for two players
    everything = state["market"] + state["deck"] + state["discard"] + state["sold_out"]
    assert "diplomacy" not in everything and sorted(everything) == sorted(set(CARDS) - {"diplomacy"})
    state, events = _through_classes(state)
    assert [len(e["dice"]) for e in of_type(events, "StartDiceRolled")] == [6]


def _solo_dice():
    state = table(["warrior"], [["red", 1], ["blue", 3], ["green", 5]])
    state["solo"] = True
    for card in ("weak", "longsword", "chain_helm"):
        take_out(state, card)
    state["market"] = ["weak", "longsword", "chain_helm"]
    return state


@pytest.mark.parametrize(
    ("card", "roll", "sold"),
    [
        (2, 1, "weak"),
        (2, 2, "longsword"),
        (2, 3, "chain_helm"),
        (2, 4, None),
        (2, 6, None),
        (3, 1, "weak"),
        (3, 2, "weak"),
        (3, 3, "longsword"),
        (3, 4, "longsword"),
        (3, 5, "chain_helm"),
        (3, 6, "chain_helm"),
    ],
)
def test_solo_adventurer_die(card, roll, sold):
    state = _solo_dice()
    state, events = act(state, {"type": "pick_card", "card": card})
    assert of_type(events, "InitiativeCardTaken")[0]["gold"] == (1 if card == 2 else 0)
    state, _ = act(state, {"type": "place_die", "row": "str"})

    def rolls(after, events):
        return [e["value"] for e in of_type(events, "AdventurerRolled")] == [roll]

    sold_out = list(state["sold_out"])
    state, _ = rigged(state, {"type": "skip_action"}, rolls)
    assert state["sold_out"] == sold_out + ([sold] if sold else [])
    assert state["market"] == [c for c in ("weak", "longsword", "chain_helm") if c != sold]


def test_solo_initiative_one_rolls_no_adventurer_die():
    state = _solo_dice()
    state, _ = act(state, {"type": "pick_card", "card": 1})
    state, _ = act(state, {"type": "place_die", "row": "str"})
    state, events = act(state, {"type": "skip_action"})
    assert not of_type(events, "AdventurerRolled") and state["market"] == ["weak", "longsword", "chain_helm"]


def test_solo_market_discards_the_leftmost_and_sells_out_the_rest():
    state = _solo_dice()
    state, _ = act(state, {"type": "pick_card", "card": 1})
    state, _ = act(state, {"type": "place_die", "row": "str"})
    state, _ = act(state, {"type": "skip_action"})
    sold_before = list(state["sold_out"])
    state["seats"][0]["gold"] = 10
    state, _ = act(state, {"type": "buy_card", "card": "longsword", "tokens": 0})
    assert state["seats"][0]["cards"]["weapon"] == ["longsword"]
    assert "weak" in state["discard"] and state["sold_out"] == sold_before + ["chain_helm"]
    assert state["round"] == 2 and len(state["market"]) == 3


def test_solo_scores_a_star_per_eight_gold_and_a_rating():
    state = _solo_dice()
    state["seats"][0]["rows"] = full_sheet(cha=[["gold", 1]] * 2)
    state, _ = act(state, {"type": "pick_card", "card": 1})
    state, _ = act(state, {"type": "place_die", "row": "cha"})
    state, _ = act(state, {"type": "skip_action"})
    state["seats"][0]["gold"] = 15
    state, _ = act(state, {"type": "discard_card", "card": state["market"][0]})
    outcome = ENGINE.outcome(state)
    parts = outcome.details["seats"][0]["parts"]
    assert parts["gold"] == 17 // 8 == 2
    assert outcome.winners == [0]
    bands = sorted(SOLO["ratings"], key=lambda r: r["min"])
    expected = [r["id"] for r in bands if r["min"] <= outcome.scores[0]][-1]
    assert outcome.details["rating"] == expected


# --- refusals -----------------------------------------------------------------------------------------------


def test_illegal_moves_are_refused_with_a_code_and_change_nothing():
    state = table(["paladin", "ranger"], [["blue", 2], ["red", 3], ["green", 4]])
    refused(state, {"type": "pick_card", "card": 1}, "not_your_turn", seat=1)
    refused(state, {"type": "fly"}, "unknown_action")
    refused(state, {"type": "buy_card", "card": "weak", "tokens": 0}, "not_now")
    refused(state, {"type": "pick_card", "card": 7}, "initiative_card_not_available")
    state, _ = act(state, {"type": "pick_card", "card": 1})
    refused(state, {"type": "pick_card", "card": 2}, "not_now")
    state, _ = act(state, {"type": "place_die", "row": "str"})
    refused(state, {"type": "flip_die", "die": "cha3"}, "no_die_there")
    refused(state, {"type": "swap_dice", "die": "str1", "other": "dex1"}, "not_now")
