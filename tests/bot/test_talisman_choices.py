"""From a player's seat (a review through the bot): a choice or an encounter that a limit leaves with nothing to
do says so, a fight or a toll shows its numbers on its buttons, a missed turn says it is missed and what is left
to do in it, and a move to the Portal of Power names the Portal, where it stops."""

from __future__ import annotations

import inspect
import random
import re

from bot import i18n
from bot.chooser import Chosen, Prompt, narrow, picker_actions
from bot.games import presenter
from engines.talisman import rules
from engines.talisman.data import KIND_INDEX, SENTINEL
from tests.engines.talisman.helpers import act, arrive, give, on_top, place, rig, start_turn, table

GAME = presenter("talisman")
ENGINE = GAME.engine
NAMES = ["Tom", "Ana"]
FIELDS = 1
CASTLE = KIND_INDEX["castle"]
# A text never shows a blank, a code or a missing value.
UNCLEAN = re.compile(r"\{|\}|None|[a-z]+_[a-z_]+")


def _meets(characters: list[str], card: str, **first):
    """Tom (the first character, with `first` set) lands on the Fields, where `card` waits: the game and what
    arriving told."""
    state = table(characters)
    state["chars"][0].update(first)
    place(state, FIELDS, card)
    return arrive(state, FIELDS)


def _labels(state, seat: int, locale: str = "en") -> list[str]:
    view = ENGINE.view(state, seat)
    step = narrow(ENGINE.legal_actions(state, seat), [])
    assert isinstance(step, Prompt)
    return GAME.value_labels(step.key, step.values, step.chosen, view, locale)


def _facts(state, seat: int, locale: str = "en") -> list[str]:
    view = ENGINE.view(state, seat)
    step = narrow(ENGINE.legal_actions(state, seat), [])
    if isinstance(step, Chosen):
        return GAME.lone_choice_facts(step.action, view, locale)
    return GAME.choice_facts(step.key, step.values, step.chosen, view, locale)


def _said(events, state, locale: str) -> list[str]:
    view = ENGINE.view(state, None)
    return [text for e in events if (text := GAME.event_text(e, NAMES, view, locale))]


def test_every_reason_for_nothing_happening_reads_cleanly_in_every_language():
    """Every reason the rules give for an effect or encounter doing nothing (futile_op's, those told from an
    encounter) is told as an event line; those a button or a shop's line gives (futile_op's, shop_closed's) also
    as a short reason addressed to the player."""
    offered = set(re.findall(r'return "(\w+)"', inspect.getsource(rules.futile_op)))
    told = offered | set(re.findall(r'no_effect\(events, \w+, "(\w+)"', inspect.getsource(rules)))
    told |= set(re.findall(r'return "(\w+)", ', inspect.getsource(rules.unmet_requirement)))
    offered |= set(re.findall(r'closed\[kind\] = "(\w+)"', inspect.getsource(rules.shop_closed)))
    assert {"spell_limit", "full_life", "needs_alignment", "cannot_hire"} <= told
    assert {"spell_limit", "full_life", "full_fate", "short_of_gold"} <= offered
    facts = {"stat": "strength", "alignment": "good", "n": 4}
    for locale in i18n.LOCALES:
        for why in offered:
            reason = GAME.t(f"why.{why}", locale)
            assert GAME.has(f"why.{why}") and not UNCLEAN.search(reason), (why, locale)
        for why in told:
            event = {"type": "NoEffect", "seat": 0, "why": why, "source": "fairy", **facts}
            text = GAME.event_text(event, NAMES, {}, locale)
            assert text and GAME.has(f"event.NoEffect.{why}") and not UNCLEAN.search(text), (why, locale)
            assert GAME.thing_name("fairy", locale) in text and "Tom" in text


def test_the_fairys_spell_at_the_spell_limit_says_on_its_button_and_afterwards_that_it_does_nothing():
    state, _ = _meets(["elf", "troll"], "fairy", spells=["healing", "teleport"])
    assert "A Spell — no effect: you are at your Spell limit" in _labels(state, 0)
    assert "주문 1장 — 효과 없음: 주문 한도에 참" in _labels(state, 0, "ko")
    assert "+1 Strength" in _labels(state, 0)  # the others as they were
    state, events = act(state, {"type": "choose", "option": "spell"})
    assert "Tom is already at their Spell limit: no Spell is taken (Fairy)." in _said(events, state, "en")
    assert "Tom님은 이미 주문 한도만큼 가지고 있어 주문을 받지 못합니다(요정)." in _said(events, state, "ko")


def test_the_healer_at_full_life_says_there_is_nothing_to_heal():
    state, events = _meets(["troll", "wizard"], "healer")
    assert "Tom is at full life: there is nothing to heal (Healer)." in _said(events, state, "en")
    assert "Tom님은 생명력이 가득 차 있어 회복할 것이 없습니다(치유사)." in _said(events, state, "ko")


def test_the_sorcerer_at_the_spell_limit_says_why_done_is_the_only_button():
    state, _ = _meets(["wizard", "troll"], "sorcerer", spells=["healing", "hex"], gold=3)
    assert _facts(state, 0) == ["Not open to you here now: Buy a Spell (you are at your Spell limit)."]
    assert _facts(state, 0, "ko") == ["지금 여기서 할 수 없는 것: 주문 사기(주문 한도에 참)."]


def test_the_sorcerer_with_no_spell_left_to_draw_sells_none_and_says_why():
    """With the Spell deck and its discards empty (every Spell held), buying one took the gold and gave nothing."""
    state = table(["wizard", "troll"])
    state["spl"], state["spl_disc"] = [], []
    state["chars"][0].update(gold=3)
    place(state, FIELDS, "sorcerer")
    state, _ = arrive(state, FIELDS)
    assert {"type": "buy_spell"} not in ENGINE.legal_actions(state, 0)
    assert _facts(state, 0) == ["Not open to you here now: Buy a Spell (no Spell is left to draw)."]


def test_a_bandits_buttons_show_its_strength_against_yours_and_its_price():
    state, _ = _meets(["warrior", "troll"], "bandit", gold=2)
    labels = _labels(state, 0)
    assert "Fight (Strength 4 against your 4)" in labels and "Pay it off (1 gold)" in labels
    assert "싸우기 (상대 힘 4, 내 힘 4)" in _labels(state, 0, "ko") and "돈으로 무마 (금화 1)" in _labels(
        state, 0, "ko"
    )
    assert _facts(state, 0)[0].startswith("The Bandit: Strength 4; yours in this battle: 4.")
    assert _facts(state, 0, "ko")[0].startswith("산적: 힘 4, 이번 전투에서 내 힘: 4.")
    view = ENGINE.view(state, 0)
    assert GAME.action_text({"type": "pay_off"}, view, "en") == "Pay the foe off (1 gold)"


def test_a_lone_fight_button_comes_with_the_fight_s_numbers():
    state = table(["wizard", "troll"])
    place(state, KIND_INDEX["runes"], "ghost")
    state, _ = arrive(state, KIND_INDEX["runes"])
    assert ENGINE.legal_actions(state, 0) == [{"type": "fight"}]
    view = ENGINE.view(state, 0)
    assert GAME.action_text({"type": "fight"}, view, "en") == "Fight (Craft 6 against your 5)"
    (fact,) = _facts(state, 0)
    assert fact.startswith("The Ghost: Craft 6; yours in this battle: 5.")
    assert fact.endswith("(Its 6 includes 2 that this space adds to its roll.)")


def test_the_black_knight_s_choice_says_what_paying_and_not_paying_cost():
    state = table(["warrior", "troll"])
    state["chars"][0]["gold"] = 2
    state, _ = arrive(state, KIND_INDEX["black_knight"])
    assert sorted(_labels(state, 0)) == ["Don't pay: lose 1 life", "Pay the gold: lose 1 gold"]
    assert sorted(_labels(state, 0, "ko")) == ["금화 내기: 금화 1개 잃음", "내지 않기: 생명력 1 잃음"]


def test_a_stranger_who_grants_nothing_to_this_character_says_why():
    state, events = _meets(["warrior", "troll"], "fairy")  # neutral: the Fairy meets only good characters
    assert "Tom is not good: nothing comes of it (Fairy)." in _said(events, state, "en")
    assert "Tom님은 선 성향이 아니어서 아무 일도 일어나지 않습니다(요정)." in _said(events, state, "ko")


def test_a_mercenary_found_says_what_hiring_it_costs():
    state, _ = _meets(["warrior", "troll"], "mercenary", gold=2)
    assert _labels(state, 0) == ["Take it (1 gold)", "Leave it"]
    take = ENGINE.legal_actions(state, 0)[0]
    assert GAME.action_text(take, ENGINE.view(state, 0), "ko") == "용병 가져가기 (금화 1)"


def test_the_mercenary_s_fee_and_the_potion_s_strength_are_on_their_buttons_as_the_fight_takes_them():
    state = table(["warrior", "troll"])
    state["chars"][0]["gold"] = 2
    give(state, 0, "mercenary")
    give(state, 0, "potion_of_strength")
    place(state, FIELDS, "bandit")
    state, _ = arrive(state, FIELDS)
    labels = _labels(state, 0)
    assert "Pay the Mercenary (1 gold: Strength +3 in this battle)" in labels
    assert "Drink the Potion (Strength +2 in this battle)" in labels
    assert "용병에게 돈 주기 (금화 1: 이번 전투에서 힘 +3)" in _labels(state, 0, "ko")
    view = ENGINE.view(state, 0)
    assert GAME.action_text({"type": "pay_mercenary"}, view, "en") == (
        "Pay the Mercenary to fight with you (1 gold: Strength +3 in this battle)"
    )
    before = ENGINE.view(state, 0)["prompt"]["battle"]["mine"]
    hired, _ = act(state, {"type": "pay_mercenary"})
    assert hired["chars"][0]["gold"] == 1
    assert ENGINE.view(hired, 0)["prompt"]["battle"]["mine"] == before + 3
    drunk, _ = act(hired, {"type": "drink_potion"})
    assert ENGINE.view(drunk, 0)["prompt"]["battle"]["mine"] == before + 5


def test_the_instructor_s_lesson_says_it_costs_the_next_turn_as_it_does():
    state, _ = _meets(["warrior", "troll"], "instructor", gold=4)
    assert "Train (3 gold), and miss your next turn · Strength" in _labels(state, 0)
    assert "훈련 (금화 3), 다음 차례 쉼 · 힘" in _labels(state, 0, "ko")
    trained, events = act(state, {"type": "train", "stat": "strength"})
    assert trained["chars"][0]["miss"] == 1 and trained["chars"][0]["gold"] == 1
    assert "Tom will miss their next turn." in _said(events, trained, "en")


def test_the_vampire_s_toll_names_the_lives_it_takes():
    state = table(["warrior", "troll"])
    state["chars"][0]["fol"] = [{"u": 900, "c": "maiden", "o": "a"}]
    rules.ask(state, 0, "vampire", n=2)
    assert "Lose 2 life" in _labels(state, 0) and "생명력 2 잃기" in _labels(state, 0, "ko")


def _evil_darkness_leaves_the_elf_at_the_end_of_her_missed_turn(characters=("warrior", "elf", "wizard")):
    """The Warrior draws Evil Darkness: the Elf (good) misses her next turn; the Wizard (evil) does not."""
    state = table(list(characters))
    state["chars"][0].update(space=FIELDS - 1, fate=0)
    on_top(state, "evil_darkness")
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state["chars"][1]["spells"] = ["teleport"]  # held, but cast at no end of a turn
    state, events = act(state, {"type": "move", "route": "cw", "to": FIELDS})
    assert state["p"]["k"] == "end" and state["p"]["seat"] == 1
    return state, events


def test_a_missed_turn_says_it_is_missed_and_why_in_its_log_its_status_and_its_picker():
    state, events = _evil_darkness_leaves_the_elf_at_the_end_of_her_missed_turn()
    assert "Ana misses this turn (Evil Darkness)." in " ".join(_said(events, state, "en"))
    view = ENGINE.view(state, 1)
    # the turn's own player named once (a review read "Alice's turn, round 1 — Alice: starts the turn")
    assert GAME.status_text(view, NAMES + ["Bo"], "en") == "Ana's turn, round 1 — misses this turn"
    assert _facts(state, 1) == [
        "You miss this turn (Evil Darkness): none of your Spells can be cast now, so all that is left is to end it."
    ]
    assert _facts(state, 1, "ko") == [
        "이번 차례는 쉽니다(사악한 어둠). 지금 쓸 수 있는 주문이 없으니 차례를 마치면 됩니다."
    ]


def test_a_missed_turn_with_a_spell_to_cast_says_it_may_still_be_cast():
    state = table(["warrior", "wizard"])
    state["chars"][1].update(spells=["destroy_magic"], lost=["tavern"], miss=1)
    start_turn(state, 1)
    assert _facts(state, 1) == [
        "You miss this turn (Tavern): you may still cast a Spell, then end your turn."
    ]
    assert _facts(state, 1, "es") == [
        "Pierdes este turno (Taberna): aún puedes lanzar un hechizo y luego acabar tu turno."
    ]


async def _picker(state, seat: int, players: int, locale: str):
    from bot.picker import Picker
    from bot.service import ACTIVE, GameRow, SeatRow, Table

    row = GameRow(
        [SeatRow(seat=n, user_id=10 + n, display_name=f"P{n}") for n in range(players)],
        id=1,
        version=7,
        status=ACTIVE,
        state=ENGINE.dump(state),
    )

    class Host:
        service = None

    return await Picker(Host()).message(Table(row, ENGINE, state), seat, [], locale, [])  # type: ignore[arg-type]


async def test_the_picker_of_a_missed_turn_shows_the_line_over_its_one_button():
    state, _ = _evil_darkness_leaves_the_elf_at_the_end_of_her_missed_turn()
    for locale in i18n.LOCALES:
        text, view = await _picker(state, 1, 3, locale)
        assert _facts(state, 1, locale)[0] in text
        assert len(view.children) == 1  # type: ignore[union-attr]


async def test_a_missed_turn_whose_next_turn_follows_at_once_says_the_choice_is_for_that_turn():
    """Two players, both missing a turn: the picker offers the end of this one with her next turn's first move."""
    state, _ = _evil_darkness_leaves_the_elf_at_the_end_of_her_missed_turn(("warrior", "elf"))
    text, view = await _picker(state, 1, 2, "en")
    assert (
        "You miss this turn (Evil Darkness): none of your Spells can be cast in it. What you choose below"
        in text
    )
    assert len(view.children) == 2  # type: ignore[union-attr]  # her next turn: roll, or cast Teleport


def _rolled(space: int, die: int, fate: int = 0):
    state = table(["warrior", "troll"])
    state["chars"][0].update(space=space, fate=fate)
    start_turn(state)
    rig(state, [die])
    state, _ = act(state, {"type": "roll_move"})
    return state


def test_a_move_to_the_portal_names_the_portal_where_it_stops_not_the_plain_beyond():
    state = _rolled(CASTLE, 2)  # clockwise onto the Portal with a step to spare
    assert {"type": "move", "to": 40, "route": "cw-p"} in ENGINE.legal_actions(state, 0)
    labels = _labels(state, 0)
    assert "Portal of Power (25), to open it · clockwise" in labels, labels
    assert not any("Plain of Peril" in label or "stop at" in label for label in labels)
    view = ENGINE.view(state, 0)
    move = {"type": "move", "to": 40, "route": "cw-p"}
    assert GAME.action_text(move, view, "en") == "Move clockwise to Portal of Power (25) and try to open it"
    assert GAME.action_text(move, view, "ko") == "시계 방향으로 힘의 차원문(25)까지 가서 열기 시도"
    assert "힘의 차원문(25)에서 열기 시도 · 시계 방향" in _labels(state, 0, "ko")


def test_a_move_to_the_portal_kept_with_the_roll_names_the_portal_too():
    """With fate, keeping the roll and moving are one choice: its label is drawn before the move is asked."""
    state = _rolled(CASTLE, 2, fate=1)
    offered = picker_actions(ENGINE, state, 0)
    step = narrow(offered, [])
    assert isinstance(step, Prompt)
    labels = GAME.value_labels(step.key, step.values, step.chosen, ENGINE.view(state, 0), "en")
    assert any("Portal of Power (25), to open it" in label for label in labels), labels
    assert not any("Plain of Peril" in label for label in labels), labels
    # A move keeps the roll it uses, beside the re-roll: not "Keep the roll → " on every move (a review's
    # phone wrapped each button in lines).
    assert any(label.startswith("Move · ") for label in labels) and any(
        "Re-roll" in label for label in labels
    )
    assert not any("Keep the roll" in label for label in labels), labels
    korean = GAME.value_labels(step.key, step.values, step.chosen, ENGINE.view(state, 0), "ko")
    assert not any("받아들이기" in label for label in korean), korean


def test_a_move_over_the_bridge_to_the_portal_says_the_sentinel_is_fought_on_the_way():
    """With the mover's battle Strength beside the Sentinel's: a review's player walked into four fights with it
    that she could not win, told only "Sentinel fight, 9"."""
    state = _rolled(SENTINEL, 5)
    assert {"type": "move", "to": 40, "route": "x-ccw-p"} in ENGINE.legal_actions(state, 0)
    labels = _labels(state, 0)
    mine = rules.battle_strength(state, state["chars"][0], rules.SENTINEL_FOE)
    crossing = f"over the bridge (Sentinel fight, 9 vs your {mine}) → anticlockwise"
    assert f"Portal of Power (25), to open it · {crossing}" in labels
    state["chars"][0]["str"] += 2  # the figure is the character's own, as it stands
    assert f"vs your {mine + 2})" in " ".join(_labels(state, 0))
    # and where the move is chained to keeping a roll fate could re-roll (the review found it missing there)
    state = _rolled(SENTINEL, 5, fate=1)
    step = narrow(picker_actions(ENGINE, state, 0), [])
    labels = GAME.value_labels(step.key, step.values, step.chosen, ENGINE.view(state, 0), "en")
    assert any(f"(Sentinel fight, 9 vs your {mine})" in label for label in labels), labels


def test_every_new_label_and_line_fits_and_reads_cleanly_in_bot_games():
    """Bot games through every situation this touches: labels within Discord's limits, no blank or code."""
    rng = random.Random(1)
    seen: set[str] = set()
    for seed in range(12):
        state = ENGINE.new_game(3, ENGINE.validate_options({}), seed)
        for _ in range(1500):
            if ENGINE.outcome(state) is not None:
                break
            seat = ENGINE.to_act(state)[0]
            prompt = state["p"] or {}
            if prompt.get("k") in ("either", "combat", "shop", "end", "route", "vampire"):
                seen.add(prompt["k"])
                for locale in i18n.LOCALES:
                    for line in [*_labels_or_lone(state, seat, locale), *_facts(state, seat, locale)]:
                        assert line and not UNCLEAN.search(line) and len(line) <= 400, (line, locale)
            state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng.randrange(1 << 20)))
    assert {"either", "combat", "shop", "end", "route"} <= seen


def _labels_or_lone(state, seat: int, locale: str) -> list[str]:
    view = ENGINE.view(state, seat)
    step = narrow(ENGINE.legal_actions(state, seat), [])
    if isinstance(step, Chosen):
        return [GAME.action_text(step.action, view, locale)]
    return GAME.value_labels(step.key, step.values, step.chosen, view, locale)


def test_a_fight_s_fact_says_which_dice_each_side_adds():
    """Each side adds a die, but the Warrior adds the better of two, and an Enemy rolls none against the
    Assassin outside the Inner Region; the fact said "each side adds a die" for all of them."""
    facts = {}
    for hero in ("troll", "warrior", "assassin"):
        state = table([hero, "wizard"])
        place(state, FIELDS, "bandit")
        state, _ = arrive(state, FIELDS)
        view = ENGINE.view(state, 0)
        facts[hero] = " ".join(GAME.lone_choice_facts({"type": "fight"}, view, "en"))
        if hero == "assassin":  # and so it goes: the Bandit's die is no part of its score
            _, events = act(state, {"type": "fight"})
            assert next(e for e in events if e["type"] == "FoeRolled")["die"] == 0
            assert " ".join(GAME.lone_choice_facts({"type": "fight"}, view, "ko")).count("암살자에게") == 1
    assert "Each side adds a die; the higher total wins" in facts["troll"]
    assert "You add the better of two dice and your foe one die" in facts["warrior"]
    assert "You add a die; your foe adds none against an Assassin" in facts["assassin"]


def test_putting_an_item_down_before_drawing_says_it_takes_a_card_s_place():
    """A review's player put the Holy Grail down at the Plains and drew no card: an item left on the space counts
    towards the cards drawn there, as the rulebook has it, which the choice did not say."""
    state = table(["warrior", "troll"])
    give(state, 0, "holy_grail")
    plains = KIND_INDEX["plains"]
    state, _ = arrive(state, plains)
    assert state["p"]["k"] == "pre_draw"
    view = ENGINE.view(state, 0)
    fact = f"Plains ({plains + 1}): cards to draw here: 1. An Object or Follower you put down first lies on"
    assert fact in " ".join(GAME.lone_choice_facts({"type": "draw_cards"}, view, "en"))
    # a Follower is put down too, and is named as one (a review read '물건 내려놓기 · 공주')
    assert GAME.part_label("type", "abandon", {}, view, "ko") == "물품이나 동료 내려놓기"
    assert "뽑을 카드 1장" in " ".join(GAME.lone_choice_facts({"type": "draw_cards"}, view, "ko"))
    _, events = act(state, {"type": "abandon", "card": state["chars"][0]["items"][0]["u"]})
    assert not any(e["type"] == "CardDrawn" for e in events)  # and so it is: nothing is drawn


def test_a_spell_cast_is_never_offered_chained_with_calling_it_off():
    """ "Cast a Spell · Teleport → Cancel the Spell" was offered beside every space to teleport to (a review saw
    "Cast a Spell · Destruction → Cancel the Spell" every turn): a choice that does nothing."""
    state = table(["wizard", "troll"])
    state["chars"][0]["spells"] = ["destruction", "hex"]  # called off, Destruction goes back behind the Hex
    place(state, FIELDS, "bandit")  # a face-up card for Destruction to remove
    start_turn(state)
    offers = picker_actions(ENGINE, state, 0, ENGINE.legal_actions(state, 0))
    casts = [a for a in offers if a.get("spell") == "destruction"]
    assert casts and all(a.get("then.type") == "pick_region" for a in casts)
    cast, _ = act(state, {"type": "cast_spell", "spell": "destruction"})
    assert {"type": "cancel"} in ENGINE.legal_actions(cast, 0)  # once cast, it may still be called off


def test_a_fate_re_roll_says_which_roll_it_is_and_a_lone_die_is_not_numbered():
    """A review's player saw "re-roll die 1 (5)" with nothing saying which roll it was: the step names the roll
    (the move's here), and with one die the choice is the die, not die 1."""
    state = _rolled(CASTLE, 2, fate=1)
    view = ENGINE.view(state, 0)
    assert "may re-roll with fate (rolled 2 for moving)" in GAME.status_text(view, ["Ann", "Ben"], "en")
    assert "(이동: 굴린 눈 2)" in GAME.status_text(view, ["Ann", "Ben"], "ko")
    reroll = {"type": "reroll", "die": 0}
    assert reroll in ENGINE.legal_actions(state, 0)
    assert GAME.action_text(reroll, view, "en") == "Re-roll the die (2) · 1 fate"
    assert GAME.action_text(reroll, view, "ko") == "운명 1: 주사위(2) 다시 굴리기"


def test_a_blizzard_is_told_when_met_and_while_it_lasts():
    """A review's players met the Blizzard with no word of what it does, and for the next turns were offered
    one-space moves with no die and no reason. The card met is told with its effect, and each turn it lasts
    says why the move is one space."""
    state = table(["warrior", "troll"])
    on_top(state, "blizzard")
    state, events = arrive(state, 1)  # the Fields: one card drawn
    [met] = [e for e in GAME.condensed(events) if e["type"] == "CardMet"]
    assert met["card"] == "blizzard" and state["blizzard"]
    line = GAME.event_text(met, ["Ann", "Ben"], ENGINE.view(state, None), "en")
    assert line.endswith("Blizzard at Fields (2): everyone moves one space a turn for 2 rounds."), line
    while not (state["p"] and state["p"]["k"] == "start"):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, 0))
    seat = ENGINE.to_act(state)[0]
    assert [a["type"] for a in ENGINE.legal_actions(state, seat)][:1] == ["move_one"]
    left = state["blizzard"]
    assert _facts(state, seat) == [
        f"Blizzard: everyone moves one space a turn, without a die, for {left} turns including this one."
    ]


def test_a_re_roll_reads_as_one_in_a_menu_too():
    """A review's dropdown, whose labels were too long to name their kinds, offered just 'the die (6)': the die's
    label says the re-roll and its fate itself, and a move without a die keeps its kind."""
    state = _rolled(CASTLE, 2, fate=1)
    view = ENGINE.view(state, 0)
    offered = picker_actions(ENGINE, state, 0)
    step = narrow(offered, [])
    assert isinstance(step, Prompt)
    for with_types in (True, False):
        labels = [GAME.label_text(step.key, v, step.chosen, view, "en", with_types) for v in step.values]
        assert "Re-roll the die (2) · 1 fate" in labels, labels
    labels = GAME.value_labels(step.key, step.values, step.chosen, view, "en")
    assert any(label.startswith("Move · ") for label in labels), labels


def test_a_card_found_says_what_it_does_before_it_is_taken():
    """A review's player was offered the Maiden with 'Take it / Leave it' and nothing of what she does: the
    choice says the card's text, as /rules has it."""
    from tests.playouts import bot_played

    checked = 0
    for state, seat in bot_played(ENGINE, 2, range(10), 3000):
        if not (state["p"] and state["p"]["k"] == "take"):
            continue
        view = ENGINE.view(state, seat)
        card = GAME.card_of_uid(view["prompt"]["card"], view)
        facts = _facts(state, seat, "en")
        assert len(facts) == 1 and facts[0].startswith(f"{GAME.thing_name(card, 'en')}: "), facts
        text = dict(GAME.cards("en"))[GAME.thing_name(card, "en")]
        assert facts[0].split(": ", 1)[1].rstrip(".").split(".")[0] in text, (facts, text)
        checked += 1
    assert checked >= 5


def test_a_fate_re_roll_in_a_fight_between_characters_shows_both_scores():
    """A review's player was asked to re-roll against another character with only "(rolled 4)"; a fight with a
    foe showed "as rolled: 5 against 15"."""
    state = table(["warrior", "wizard"])
    warrior, wizard = state["chars"]
    warrior["space"], warrior["fate"], wizard["space"] = 8, 0, 9
    start_turn(state)
    rig(state, [1])
    state, _ = act(state, {"type": "roll_move"})
    state, _ = act(state, {"type": "move", "route": "cw", "to": 9})
    rig(state, [1, 1, 6])  # the Warrior 4 + 1, the Wizard 2 + 6
    state, _ = act(state, {"type": "attack", "target": 1, "mode": "physical"})
    assert state["p"]["k"] == "duel_reroll" and state["p"]["seat"] == 1
    for viewer in (0, 1):
        status = GAME.status_text(ENGINE.view(state, viewer), NAMES, "en")
        assert "as rolled: 8 against 5, " + GAME.t("outcome.win", "en") in status, status
    # the seat asked, not the turn's, is named as any name is in Korean (a review read "— Carol: …")
    assert f" — {NAMES[1]}님: " in GAME.status_text(ENGINE.view(state, 0), NAMES, "ko")
