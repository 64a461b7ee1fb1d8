"""Every picker step shows what its choice depends on, and chance results are shown as soon as they happen."""

from __future__ import annotations

import re

import pytest

from bot import chooser, i18n
from bot.chooser import SUGGESTED, Chosen, Prompt, clicks, narrow, path_to, picker_actions, split
from bot.games import presenter
from tests.playouts import bot_played


def _rolled_talisman():
    game = presenter("talisman")
    engine = game.engine
    state = engine.new_game(2, engine.validate_options({}), 3)
    seat = engine.to_act(state)[0]
    state, events = engine.apply(state, seat, {"type": "roll_move"})
    return game, engine, state, seat, events[0]["dice"][0]


def test_talisman_shows_the_movement_roll_and_moves_in_one_more_click():
    game, engine, state, seat, roll = _rolled_talisman()
    view = engine.view(state, seat)
    for locale in i18n.LOCALES:
        assert game.t("rolled", locale, dice=roll) in game.status_text(view, ["Ana", "Bo"], locale)
    offered = picker_actions(engine, state, seat)
    moves = [a for a in offered if [p["type"] for p in split(a)] == ["accept_roll", "move"]]
    assert moves, offered  # keeping the roll and moving are one choice
    assert all(clicks(offered, a) == 1 for a in moves)
    step = narrow(offered, [])
    assert isinstance(step, Prompt)
    labels = [game.value_label(step.key, v, step.chosen, view, "en") for v in step.values]
    assert any(label.startswith("Move · ") for label in labels), labels  # the roll it keeps goes unsaid


def test_roll_for_the_galaxy_dice_are_offered_with_the_faces_they_show():
    game = presenter("roll_for_the_galaxy")
    engine = game.engine
    state = engine.new_game(2, engine.validate_options({"first_game": True}), 3)
    seat = 0
    view = engine.view(state, seat)
    faces = {d["c"]: d["f"] for d in view["seats"][seat]["dice"]}
    actions = engine.legal_actions(state, seat)
    path: list[int] = []
    seen = False
    while isinstance(step := narrow(actions, path, limit=1), Prompt):
        if step.key == "color":
            for colour in step.values:
                label = game.value_label("color", colour, step.chosen, view, "en")
                assert game.t(f"face.{faces[colour]}", "en") in label, label
            seen = True
        path.append(0)
    assert isinstance(step, Chosen) and seen


def test_roll_player_starting_dice_go_in_one_click_as_suggested():
    """The suggestion is the built-in player's placement of every starting die, labelled with the dice and rows
    its events show, and applying its parts places exactly those dice."""
    game = presenter("roll_player")
    engine = game.engine
    state = engine.new_game(3, engine.validate_options({}), 5)
    while state["phase"] != "place_start":
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, 1))
    seat = engine.to_act(state)[0]
    dice = len(engine.view(state, seat)["seats"][seat]["start_dice"])
    offered = picker_actions(engine, state, seat)
    plan = offered[0]
    assert plan.get(SUGGESTED) and len(split(plan)) == dice >= 3
    assert clicks(offered, plan) == 1
    step = narrow(offered, [])
    label = game.value_label(step.key, step.values[0], step.chosen, engine.view(state, seat), "en")
    placed = []
    for part in split(plan):
        state, events = engine.apply(state, seat, part)
        placed += [e for e in events if e["type"] == "StartDiePlaced"]
    assert placed == [e for e in plan[SUGGESTED] if e["type"] == "StartDiePlaced"]
    for event in placed:
        assert game.die_label([event["colour"], event["value"]], "en") in label
        assert game.t(f"attr_short.{event['row']}", "en") in label
    assert not engine.view(state, seat)["seats"][seat]["start_dice"]


def _roll_player_at(phase: str, seed: int = 5):
    game = presenter("roll_player")
    engine = game.engine
    state = engine.new_game(3, engine.validate_options({}), seed)
    while state["phase"] != phase:
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, 1))
    return game, engine, state, engine.to_act(state)[0]


def test_roll_player_chained_starting_dice_are_named_as_they_will_be_placed():
    """A chain of two starting-die placements names its second die among the dice left after the first: with
    Red 2 and White 1 left, "Red 2 · Strength → … White 1 · Dexterity", never a second Red 2."""
    game, engine, state, seat = _roll_player_at("place_start")
    while len(engine.view(state, seat)["seats"][seat]["start_dice"]) > 2:
        state, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    view = engine.view(state, seat)
    first, second = view["seats"][seat]["start_dice"]
    assert first != second, "the seed should leave two different dice"
    offered = picker_actions(engine, state, seat, suggest=False)
    pairs = [a for a in offered if len(split(a)) == 2]
    assert pairs
    for action in pairs:
        parts = split(action)
        placed = []
        after = state
        for part in parts:
            after, events = engine.apply(after, seat, part)
            placed += [[e["colour"], e["value"]] for e in events if e["type"] == "StartDiePlaced"]
        text = game.action_text(action, view, "en")
        labels = [game.die_label(die, "en") for die in placed]
        assert text.index(labels[0]) < text.rindex(labels[1]), (text, labels)
        assert sorted(map(tuple, placed)) == sorted(map(tuple, (first, second)))
        path = chooser.path_to(offered, action)
        step_label = " ".join(
            game.value_label(step.key, step.values[path[depth]], step.chosen, view, "en")
            for depth, step in enumerate(narrow(offered, path[:depth]) for depth in range(len(path)))
        )
        assert all(label in step_label for label in labels), (step_label, labels)


def test_roll_player_rows_show_their_dice_total_and_goal_where_a_die_goes():
    game, engine, state, seat = _roll_player_at("place_start")
    state, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    view = engine.view(state, seat)
    me = view["seats"][seat]
    offered = engine.legal_actions(state, seat)
    path = []
    while isinstance(step := narrow(offered, path, limit=1), Prompt) and "row" not in step.keys:
        path.append(0)
    assert isinstance(step, Prompt)
    facts = "\n".join(game.choice_facts(step.key, step.values, step.chosen, view, "en"))
    from engines.roll_player.data import CLASSES
    from engines.roll_player.scoring import final_attribute

    for row in step.values:
        line = next(line for line in facts.splitlines() if game.attr_name(row, "en") in line)
        assert f"= {final_attribute(me, row)}" in line, line
        assert f"({CLASSES[me['class']]['targets'][row]['stars']}★)" in line, line
        for die in me["rows"][row]:
            assert game.die_label(die, "en") in line, line
    placed_row = next(row for row in me["rows"] if me["rows"][row])
    assert placed_row in step.values or all(len(me["rows"][r]) < 3 for r in step.values)


def test_roll_player_an_attribute_action_shows_the_rows_whose_dice_it_may_change():
    """A review's player choosing "Raise or lower a die · Wisdom box 3: White 4 · +1 (to 5)" no longer saw the
    row's total and goal that the step before had shown: every row with a die on offer is told."""
    from engines.roll_player.rules import parse_position

    game = presenter("roll_player")
    engine = game.engine
    seen = 0
    for state, seat in bot_played(engine, 3, range(6), 300):
        actions = engine.legal_actions(state, seat)
        if not {a["type"] for a in actions} & {"adjust_die", "flip_die", "swap_dice", "reroll_die"}:
            continue
        view = engine.view(state, seat)
        offers = picker_actions(engine, state, seat, actions)
        for path in ([], [0]):
            step = narrow(offers, path)
            if not isinstance(step, Prompt):
                continue
            facts = game.choice_facts(step.key, step.values, step.chosen, view, "en")
            rows = {
                box[0]
                for value in step.values
                for item in (value if isinstance(value, tuple) else (value,))
                if (box := parse_position(item)) is not None
            }
            told = {
                row
                for row in rows
                if any(line.startswith(f"**{game.attr_name(row, 'en')}**") for line in facts)
            }
            assert told == rows, (step.key, facts)
            seen += bool(rows)
    assert seen > 20


def test_roll_player_taking_an_initiative_card_shows_the_market_it_decides_the_order_for():
    """The card taken decides when its holder buys, and a review's player took one without seeing the market."""
    from engines.roll_player.rules import card_price

    game = presenter("roll_player")
    engine = game.engine
    seen = 0
    for state, seat in bot_played(engine, 3, range(3), 300):
        view = engine.view(state, seat)
        if not (view["phase"] == "dice" and view["step"] == "pick" and not view["pending"]):
            continue
        step = narrow(picker_actions(engine, state, seat), [])
        assert isinstance(step, Prompt)
        line = next(
            f for f in game.choice_facts(step.key, step.values, step.chosen, view, "en") if "Market" in f
        )
        me = view["seats"][seat]
        assert line.startswith(f"Market this round (you have {me['gold']} gold): ")
        for card in view["market"]:
            assert f"{game.card_name(card, 'en')} — {card_price(me, card)} gold" in line, line
        seen += 1
    assert seen > 10


@pytest.mark.parametrize(("name", "told"), [("talisman", True), ("roll_player", False)])
def test_a_suggestion_whose_label_only_counts_its_moves_is_told_move_by_move(name, told):
    """A Talisman review's player was offered "Suggested: 4 moves at once" with nothing of what they were, and the
    click resolved Pestilence for everyone: the step says what the run does, from the events it would show. Roll
    Player's suggestion names its dice in the label already, so it says nothing more."""
    game = presenter(name)
    engine = game.engine
    names = ["Ann", "Bo", "Cy"]
    for state, seat in bot_played(engine, 3, range(40), 400):
        offers = picker_actions(engine, state, seat)
        suggested = next((a for a in offers if a.get(SUGGESTED)), None)
        if suggested is None:
            continue
        step = narrow(offers, [])
        view = engine.view(state, seat)
        facts = game.suggestion_facts(step.key, step.values, names, view, "en")
        if not told:
            assert facts == []
            return
        [line] = facts
        assert line.startswith("The suggestion does this: ")
        # the run's moves, as the mover would then read them
        assert game.event_text(suggested[SUGGESTED][0], names, view, "en") in line
        return
    raise AssertionError("no suggestion offered")


def test_roll_player_rows_say_what_the_backstory_wants_in_them_and_whether_it_is_there():
    """A review found the class's goal beside each row but not the backstory's die, which only the sheet (a
    click away) showed. Each row now names it, ticked where the engine's scoring counts it."""
    from engines.roll_player.data import ATTRIBUTES, BACKSTORIES
    from engines.roll_player.scoring import backstory_matches

    game = presenter("roll_player")
    engine = game.engine
    seen = {"✓": 0, "✗": 0}
    for state, seat in bot_played(engine, 3, range(1, 6), 400):
        rows = {a["row"] for a in engine.legal_actions(state, seat) if a.get("type") == "place_die"}
        if not rows:
            continue
        view = engine.view(state, seat)
        me = view["seats"][seat]
        facts = game.choice_facts("row", sorted(rows), {"type": "place_die"}, view, "en")
        for row in rows:
            line = next(line for line in facts if f"**{game.attr_name(row, 'en')}**" in line)
            want = BACKSTORIES[me["backstory"]]["dice"][row]
            assert f"backstory: {game.colour_name(want['colour'], 'en')} in box {want['slot']}" in line
            alone = {**me, "rows": {a: me["rows"][a] if a == row else [] for a in ATTRIBUTES}}
            counted = backstory_matches(alone) == 1
            assert line.endswith("✓") == counted, line
            seen["✓"] += counted
            seen["✗"] += line.endswith("✗")
    assert all(seen.values()), seen


def test_roll_player_market_cards_and_classes_on_offer_say_what_they_do():
    game, engine, state, seat = _roll_player_at("choose_class")
    view = engine.view(state, seat)
    step = narrow(engine.legal_actions(state, seat), [])
    assert isinstance(step, Prompt) and step.keys == ["class"]
    facts = game.choice_facts(step.key, step.values, step.chosen, view, "ko")
    for cls in step.values:
        assert any(
            game.class_name(cls, "ko") in line and game.ability_name(cls, "ko") in line for line in facts
        )
    game, engine, state, seat = _roll_player_at("market")
    view = engine.view(state, seat)
    offered = picker_actions(engine, state, seat)
    buyable = {a["card"] for a in engine.legal_actions(state, seat) if a["type"] == "buy_card"}
    assert buyable
    step = narrow(offered, [])
    assert isinstance(step, Prompt) and any(key.endswith("card") for key in step.keys), step.key
    facts = "\n".join(game.choice_facts(step.key, step.values, step.chosen, view, "en"))
    for card in buyable:
        assert game.card_name(card, "en") in facts
        assert game._card_effect(card, "en") in facts
    me = view["seats"][seat]
    tokens = "1 discount token" if me["discounts"] == 1 else f"{me['discounts']} discount tokens"
    assert f"You have {me['gold']} gold and {tokens}." in facts


def test_roll_player_cards_on_offer_say_where_they_move_the_token_and_how_many_hands_they_take():
    """A review bought Obnoxious and learnt only afterwards that it moved the token to Chaotic Evil; a weapon
    that made another go did not say it took two hands. The facts now say both, as buying it does."""
    from engines.roll_player.data import CARDS

    checked = {"moved": 0, "stuck": 0, "hands": 0}
    for seed in range(5, 25):
        game, engine, state, seat = _roll_player_at("market", seed)
        view = engine.view(state, seat)
        step = narrow(picker_actions(engine, state, seat), [])
        facts = "\n".join(game.choice_facts(step.key, step.values, step.chosen, view, "en"))
        token = state["seats"][seat]["token"]
        for action in engine.legal_actions(state, seat):
            card = action.get("card")
            if (
                action["type"] != "buy_card"
                or action.get("tokens", 0)
                or game.card_name(card, "en") not in facts
            ):
                continue
            data = CARDS[card]
            if data.get("hands"):
                assert f"{game.card_name(card, 'en')}, {('one', 'two')[data['hands'] - 1]}-handed" in facts
                checked["hands"] += 1
            if data["type"] != "trait" or not data.get("arrow"):
                continue
            _, events = engine.apply(state, seat, action)
            moves = [e for e in events if e["type"] == "TokenMoved"]
            start = game.cell_name(token, "en")
            if moves:
                end = game.cell_name(moves[0]["cell"], "en")
                assert (
                    f"alignment token {game.direction_name(data['arrow'], 'en')}: {start} → {end}." in facts
                )
                checked["moved"] += 1
            else:
                assert (
                    f"cannot go {game.direction_name(data['arrow'], 'en')} from {start}, so it stays" in facts
                )
                checked["stuck"] += 1
    assert checked["moved"] and checked["hands"], checked


def test_every_picker_step_of_every_game_can_be_told_apart():
    """Through seeded playouts with the picker as offered (joint steps, chains, suggestions): every step has a
    question (one: a joint step's options are whole moves, and its questions stacked read as a form), and its
    options have distinct labels short enough for a select menu, in every language."""
    import random

    for name in ("druids", "roll_player", "roll_for_the_galaxy", "talisman"):
        game = presenter(name)
        engine = game.engine
        rng = random.Random(4)
        state = engine.new_game(3, engine.validate_options({}), 4)
        for _ in range(150):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            offered = picker_actions(engine, state, seat)
            view = engine.view(state, seat)
            path: list[int] = []
            while isinstance(step := narrow(offered, path), Prompt):
                for locale in i18n.LOCALES:
                    question = game.prompt_text(step.key, locale, step.chosen, view)
                    assert question and " / " not in question, (name, step.key, question)
                    labels = game.value_labels(step.key, step.values, step.chosen, view, locale)
                    assert all(0 < len(label) <= 100 for label in labels), (name, locale, labels)
                    assert len(set(labels)) == len(labels), (name, locale, step.key, labels)
                path.append(rng.randrange(len(step.values)))
            for part in split(step.action):
                state, _ = engine.apply(state, seat, part)


def test_move_suggestions_match_what_is_typed_whatever_was_typed_before():
    """/play move's autocomplete keeps a version's labels between keystrokes, made only as far as needed: the
    answers are those of labelling every choice afresh, in any order of asking."""
    import random

    from bot.picker import Picker
    from bot.service import ACTIVE, GameRow, SeatRow, Table, choices

    game = presenter("roll_player")
    engine = game.engine
    state, rng = engine.new_game(2, engine.validate_options({}), 5), random.Random(5)
    while len(engine.legal_actions(state, seat := engine.to_act(state)[0])) <= 60:
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))

    def table() -> Table:
        seats = [SeatRow(seat=n, user_id=10 + n) for n in range(2)]
        return Table(GameRow(seats, id=1, version=7, status=ACTIVE), engine, state)

    def afresh(typed: str) -> list[tuple[str, str]]:
        fresh = table()
        token = fresh.choice_token(seat)
        labels = [game.action_text(a, fresh.view(seat), "en")[:100] for a in choices(fresh, seat)]
        found = [
            (label, f"{token}:{n}") for n, label in enumerate(labels) if typed.casefold() in label.casefold()
        ]
        return found[:25]

    asks = ["", "a", "", "Zz-nothing", "A", "e", ""]
    for order in (asks, asks[::-1]):
        kept = table()
        for typed in order:
            assert Picker.action_choices(kept, 10 + seat, typed, "en") == afresh(typed), typed
    assert len(afresh("")) == 25 and afresh("Zz-nothing") == []


def test_the_picker_offers_a_suggestion_exactly_when_the_built_in_player_has_one(monkeypatch):
    """Everywhere, the picker's first offer is the suggestion exactly when the built-in player makes one; where
    no move can be followed by another of its kind, the built-in player is not even asked for a run of them."""
    suggested = not_asked = 0
    for name, players in (
        ("roll_player", 2),
        ("roll_player", 4),
        ("talisman", 3),
        ("roll_for_the_galaxy", 2),
    ):
        engine = presenter(name).engine
        state = engine.new_game(players, engine.validate_options({}), 11)
        for move in range(120):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            made = chooser.suggestion(engine, state, seat)
            asked: list[int] = []

            def ask(*args, made=made, asked=asked):
                asked.append(1)
                return made

            monkeypatch.setattr(chooser, "suggestion", ask)
            offered = picker_actions(engine, state, seat)
            monkeypatch.undo()
            assert (made is not None) == bool(offered[0].get(SUGGESTED)), (name, move)
            suggested += made is not None
            not_asked += not asked
            state, _ = engine.apply(state, seat, engine.bot_action(state, seat, move))
    assert suggested and not_asked > 200, (suggested, not_asked)


def test_druids_offers_its_two_plays_as_a_pair_joined_by_a_plus():
    """Playing two cards in either order ends the same way, so the pair is one choice: 'Ruby 8 + Onyx 1', not an
    arrow that reads as the first card turning into the second."""
    game = presenter("druids")
    engine = game.engine
    state = engine.new_game(3, engine.validate_options({}), 4)
    seat = engine.to_act(state)[0]
    step = narrow(picker_actions(engine, state, seat), [])
    view = engine.view(state, seat)
    assert isinstance(step, Prompt) and step.key.count("card") == 2
    labels = [game.value_label(step.key, v, step.chosen, view, "en") for v in step.values]
    assert labels and all(" + " in label and "→" not in label for label in labels), labels
    assert all(
        label == f"{game.card_name(first, 'en')} + {game.card_name(second, 'en')}"
        for label, (first, second) in zip(labels, step.values, strict=True)
    )


def test_roll_player_labels_say_what_a_flip_and_a_gold_die_give():
    """A flip names the face it turns to (opposite faces add up to 7), an initiative card holding a gold die
    says the 2 gold placing it pays, and discarding a market card (or taking gold) says how much it pays."""
    game = presenter("roll_player")
    engine = game.engine
    flips = gold_dice = market_gold = 0
    for state, seat in bot_played(engine, 2, [3], 400):
        view = engine.view(state, seat)
        for card in view.get("initiative", []):
            if card.get("die") and card["die"][0] == "gold" and not card["gold"]:
                label = game.value_label("card", card["number"], {"type": "pick_card"}, view, "en")
                assert "(+2 gold when placed)" in label, label
                gold_dice += 1
        for action in engine.legal_actions(state, seat):
            if action["type"] == "flip_die":
                die = game._die_at(action["die"], view)
                after, _ = engine.apply(state, seat, action)
                flipped = game._die_at(action["die"], engine.view(after, seat))
                label = game.value_label("die", action["die"], {"type": "flip_die"}, view, "en")
                assert f"(to {flipped[1]})" in label and die[1] + flipped[1] == 7, label
                flips += 1
            if action["type"] in ("discard_card", "take_gold"):
                _, events = engine.apply(state, seat, action)
                paid = next(e["gold"] for e in events if e["type"] in ("CardDiscarded", "GoldTaken"))
                assert f" {paid} gold" in game.action_text(action, view, "en")
                market_gold += 1
    assert flips and gold_dice and market_gold


def _druids_picker_steps(seeds: range):
    """Every step of the move picker along its first choices, in seeded 3-player Druids games: the state, the
    seat, the step and the seat's view."""
    engine = presenter("druids").engine
    for state, seat in bot_played(engine, 3, seeds, 60):
        offers = picker_actions(engine, state, seat)
        path: list[int] = []
        while isinstance(step := narrow(offers, path), Prompt):
            yield state, seat, step, engine.view(state, seat)
            path.append(0)


def test_druids_says_what_a_lone_blind_draw_does_beside_a_full_refill():
    """Where a refill can be one blind draw or several at once, the step says the lone draw shows its card before
    any more; where only one card is needed, it says nothing."""
    game = presenter("druids")
    engine = game.engine
    state = engine.new_game(3, engine.validate_options({}), 5)
    said = quiet = 0
    for _ in range(200):
        seat = engine.to_act(state)[0]
        step = narrow(picker_actions(engine, state, seat), [])
        if state["phase"] == "refill" and isinstance(step, Prompt):
            view = engine.view(state, seat)
            facts = game.choice_facts(step.key, step.values, step.chosen, view, "en")
            labels = [game.value_label(step.key, v, step.chosen, view, "en") for v in step.values]
            both = any(label.endswith("Draw a gem") for label in labels) and any(
                "Draw a gem ×" in x for x in labels
            )
            assert (facts == [game.t("draw_one_fact", "en")]) == both, (labels, facts)
            said += both
            quiet += not both
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, 0))
    assert said and quiet


def test_druids_says_what_the_rest_of_the_turn_after_an_arrow_is_where_a_place_comes_both_ways():
    """A review took "Place 1 (Emerald) → Discard Onyx 6 → Draw a gem ×3" beside "Place 1 (Emerald)" for a
    duplicate with a discard slipped in: where a step offers a place both alone and with the rest of the turn,
    a line says what the arrow's part is and that without it the mover chooses it."""
    from bot.chooser import ENDING, joint_values

    game = presenter("druids")
    said = quiet = refill_only = marked = 0
    for _, _, step, view in _druids_picker_steps(range(1, 4)):
        facts = game.choice_facts(step.key, step.values, step.chosen, view, "ko")
        endings = {joint_values(step.key, v).get(ENDING) is not None for v in step.values}
        ended = {m["type"] for v in step.values for m in joint_values(step.key, v).get(ENDING) or ()}
        # the discard chosen already, the arrow's part is the refill alone and the line says no more
        fact = "ending_fact" if ended & {"discard_gem", "skip_discard"} else "ending_fact_refill"
        assert (game.t(fact, "ko") in facts) == (endings == {True, False}), (ended, facts)
        # the ending is marked apart from the arrows between the run's moves, as the line says
        labels = game.value_labels(step.key, step.values, step.chosen, view, "en")
        for value, label in zip(step.values, labels, strict=True):
            params = joint_values(step.key, value)
            more = any(v is not None for k, v in params.items() if k != ENDING)
            assert ("⏭" in label) == (params.get(ENDING) is not None and more), label
            marked += "⏭" in label
        refill_only += endings == {True, False} and fact == "ending_fact_refill"
        said += endings == {True, False}
        quiet += endings != {True, False}
    assert said and quiet and refill_only and marked


def test_a_steps_choices_are_labelled_in_one_form():
    """Where some choices' labels are too long to name their kinds of move, a step names none of them (where that
    still tells them apart): before, one menu mixed "initiative card 1 → Strength" with "Take an initiative card ·
    initiative card 4 → Place the die · Strength", which read as different kinds of choice."""
    game = presenter("roll_player")
    engine = game.engine
    kind = game.t("type.pick_card", "en") + " · "
    mixed = 0
    for state, seat in bot_played(engine, 3, range(3, 6), 300):
        step = narrow(picker_actions(engine, state, seat), [])
        if isinstance(step, Prompt) and "card" in step.keys:
            view = engine.view(state, seat)
            each = [game.value_label(step.key, v, step.chosen, view, "en") for v in step.values]
            picks = [label for label in each if "initiative card" in label and "→" in label]
            if any(label.startswith(kind) for label in picks) and not all(x.startswith(kind) for x in picks):
                mixed += 1
                labels = game.value_labels(step.key, step.values, step.chosen, view, "en")
                assert not any(label.startswith(kind) for label in labels), labels
                assert len(set(labels)) == len(labels)
    assert mixed, "no step mixed the two forms"


def test_roll_player_tied_dice_say_which_card_the_first_goes_on():
    """Putting tied initiative dice in order: the question asks which goes first, a line names the tied dice and
    the card the first goes on (as the engine then sorts it), and a card taken after it reads as taken."""
    game = presenter("roll_player")
    engine = game.engine
    for state, seat in bot_played(engine, 3, range(1, 40), 300):
        orders = [a for a in engine.legal_actions(state, seat) if a["type"] == "order_die"]
        if orders:
            view = engine.view(state, seat)
            step = narrow(picker_actions(engine, state, seat), [])
            assert isinstance(step, Prompt)
            assert game.prompt_text(step.key, "en", step.chosen, view) == game.t("prompt.tie", "en")
            _, events = engine.apply(state, seat, orders[0])
            sorted_first = next(e for e in events if e["type"] == "DieSorted")
            card = game.initiative_name(sorted_first["card"], "en")
            facts = game.choice_facts(step.key, step.values, step.chosen, view, "en")
            assert any(
                f"goes on {card}," in line and f"Tied at {sorted_first['value']}" in line for line in facts
            )
            labels = game.value_labels(step.key, step.values, step.chosen, view, "en")
            assert all("→ initiative card" not in label for label in labels), labels
            return
    raise AssertionError("no tie to order")


def test_roll_player_a_card_taken_after_a_tie_names_the_die_it_will_hold_and_its_gold():
    """A review saw "Red → take initiative card 3" beside "take initiative card 2: Purple 4 (+1 gold)": the card
    taken after putting a tied die first named neither the die the sort puts on it nor its gold."""
    from engines.roll_player.rules import initiative_gold

    game = presenter("roll_player")
    engine = game.engine
    checked = 0
    for state, seat in bot_played(engine, 3, range(1, 60), 300):
        view = engine.view(state, seat)
        if not any(a["type"] == "order_die" for a in engine.legal_actions(state, seat)):
            continue
        step = narrow(picker_actions(engine, state, seat), [])
        if step.keys != ["colour", "then.card"]:
            continue
        labels = game.value_labels(step.key, step.values, step.chosen, view, "en")
        for (colour, number), label in zip(step.values, labels, strict=True):
            after, _ = engine.apply(state, seat, {"type": "order_die", "colour": colour})
            card = next(c for c in engine.view(after, seat)["initiative"] if c["number"] == number)
            if card["die"] is None:  # still tied: nothing to name yet
                continue
            assert f"initiative card {number}: {game.die_label(card['die'], 'en')}" in label, label
            gold = initiative_gold(view["seats"][seat], card["gold"])
            assert (f"(+{gold} gold" in label) == bool(gold), label
            checked += 1
    assert checked > 20, checked


def test_roll_player_a_lowered_price_says_what_lowered_it():
    """A card offered below its printed price names what took the gold off (a class, a weapon), and the price it
    names is what buying it without tokens costs."""
    from engines.roll_player.data import CARDS
    from engines.roll_player.rules import price_cuts

    game = presenter("roll_player")
    engine = game.engine
    for state, seat in bot_played(engine, 3, range(1, 20), 500):
        me = state["seats"][seat]
        for action in engine.legal_actions(state, seat):
            if action["type"] != "buy_card" or action["tokens"] or not price_cuts(me, action["card"]):
                continue
            view = engine.view(state, seat)
            label = game.value_label("card", action["card"], {"type": "buy_card"}, view, "en")
            _, events = engine.apply(state, seat, action)
            paid = next(e["gold"] for e in events if "gold" in e)
            assert f"— {paid} gold (" in label and paid < CARDS[action["card"]]["cost"], label
            assert game.class_name(me["class"], "en") in label or any(
                game.card_name(w, "en") in label for w in me["cards"]["weapon"]
            ), label
            # in Korean the source comes first: "(소서러 할인 -1)", not "(−1 소서러)" (a review)
            korean = game.value_label("card", action["card"], {"type": "buy_card"}, view, "ko")
            assert re.search(r"\(\S[^()]* 할인 -\d\)", korean), korean
            return
    raise AssertionError("no card was offered below its price")


def test_roll_player_facts_leave_room_in_the_message():
    """A long list of cards on offer (bringing one back from the discard pile) is told while it fits, and the
    rest are counted, so a picker message stays within Discord's 2,000 characters."""
    from bot.games.roll_player import FACTS_ROOM

    game = presenter("roll_player")
    engine = game.engine
    cut = 0
    for state, seat in bot_played(engine, 3, range(1, 4), 400):
        step = narrow(picker_actions(engine, state, seat), [])
        if isinstance(step, Prompt):
            view = engine.view(state, seat)
            for locale in i18n.LOCALES:
                facts = game.choice_facts(step.key, step.values, step.chosen, view, locale)
                tail = [line for line in facts if line.startswith(("…", "-#"))]
                assert sum(len(line) + 1 for line in facts if line not in tail) <= FACTS_ROOM, facts
                cut += any(line.startswith("…") for line in tail)
    assert cut, "no list was long enough to cut"


def test_roll_player_a_gold_die_is_told_where_taking_a_card_is_the_only_kind_of_move():
    """With nothing but initiative cards to take, the move's kind is never asked: the card's label still says what
    its gold die pays."""
    game = presenter("roll_player")
    engine = game.engine
    for state, seat in bot_played(engine, 2, range(1, 30), 300):
        view = engine.view(state, seat)
        actions = engine.legal_actions(state, seat)
        gold = {c["number"] for c in view["initiative"] if c.get("die") and c["die"][0] == "gold"}
        if gold and actions and all(a["type"] == "pick_card" for a in actions):
            step = narrow(actions, [])
            assert isinstance(step, Prompt) and "type" not in step.keys
            labels = game.value_labels(step.key, step.values, step.chosen, view, "en")
            told = [label for value, label in zip(step.values, labels, strict=True) if value in gold]
            assert told and all("+2" in label and "when placed" in label for label in told), labels
            return
    raise AssertionError("no pick of a gold die with nothing else to do")


def test_roll_player_a_market_that_can_only_be_discarded_from_says_so_with_its_prices():
    """A review's player with 2 gold was asked "Which card?" with bare names, and her click discarded the card: a
    market step whose every choice discards asks so, its labels say "Discard", and every market card and every
    card that can be brought back from the discard pile says what it costs the mover."""
    from engines.roll_player.data import CARDS
    from engines.roll_player.rules import card_price

    game = presenter("roll_player")
    engine = game.engine
    seen = {"discard only": 0, "buying": 0, "bringing back": 0}
    for state, seat in bot_played(engine, 3, range(30), 400):
        actions = engine.legal_actions(state, seat)
        kinds = {a["type"] for a in actions}
        if state["phase"] != "market" or not kinds & {"buy_card", "discard_card", "recall_card"}:
            continue
        view = engine.view(state, seat)
        me = view["seats"][seat]
        offers = picker_actions(engine, state, seat, actions)
        to_card = path_to(offers, next(a for a in offers if a.get("card") in CARDS))
        steps = [narrow(offers, to_card[:n]) for n in range(len(to_card))]
        # the first that names cards
        step = next((s for s in steps if any(k.split(".")[-1] == "card" for k in s.keys)), None)
        if step is None:  # one card only, told by the kind of move ("Buy Cure Wounds")
            continue
        question = game.prompt_text(step.key, "en", step.chosen, view)
        labels = game.value_labels(step.key, step.values, step.chosen, view, "en")
        facts = "\n".join(game.choice_facts(step.key, step.values, step.chosen, view, "en"))
        only_discards = kinds == {"discard_card"}
        assert (
            question == "You can afford none of the cards: which do you discard for gold?"
        ) == only_discards
        if only_discards:
            assert all(label.startswith("Discard ") and label.endswith(" for 2 gold") for label in labels)
            seen["discard only"] += 1
        seen["bringing back" if "recall_card" in kinds else "buying"] += not only_discards
        lines = facts.split("\n")
        priced = 0
        for card in {a["card"] for a in actions if "card" in a}:
            for line in (line for line in lines if line.startswith(f"• **{game.card_name(card, 'en')}")):
                assert f"— {card_price(me, card)} gold" in line, line
                priced += 1
        assert priced, facts
        if all(seen.values()):
            return
    raise AssertionError(seen)


def test_druids_scoring_and_refill_steps_read_as_what_they_are():
    """Asking for a scoring asks which place is to be scored (not where to put something); a move chosen part
    way is told as one move, each card with its place; two followers taken back are offered once, not in both
    orders."""
    from bot.chooser import joint_choice

    game = presenter("druids")
    engine = game.engine
    state = engine.new_game(3, engine.validate_options({}), 5)
    checked = set()
    for number in range(300):
        if engine.outcome(state) is not None or checked == {"scoring", "so_far", "followers"}:
            break
        seat = engine.to_act(state)[0]
        view = engine.view(state, seat)
        offered = picker_actions(engine, state, seat, suggest=False)
        scorings = [a for a in offered if a["type"] == "request_scoring"]
        if len(scorings) > 1:
            step = narrow(offered, [path_to(offered, scorings[0])[0]])
            assert game.prompt_text(step.key, "en", step.chosen, view) == game.t("prompt.score_place", "en")
            checked.add("scoring")
        plays = [a for a in offered if a["type"] == "play_card" and len(split(a)) >= 2]
        if plays:
            path = path_to(offered, plays[0])
            step = narrow(offered, path[:-1])
            told = game.label_text(*joint_choice(step.chosen), {}, view, "en", True)
            first = split(plays[0])[0]
            assert game.card_name(first["card"], "en") in told
            checked.add("so_far")
        takes = [split(a) for a in offered if a["type"] == "take_follower"]
        if any(len(parts) > 1 and parts[1]["type"] == "take_follower" for parts in takes):
            runs = [tuple(sorted(map(repr, parts))) for parts in takes]  # a run and its reordering alike
            assert len(set(runs)) == len(runs), takes
            checked.add("followers")
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, number))
    assert checked == {"scoring", "so_far", "followers"}, checked


@pytest.mark.parametrize(("seed", "moves"), [(1, 36), (2, 207)])
def test_labels_too_long_for_their_kinds_still_tell_trading_from_consuming(seed, moves):
    """Roll for the Galaxy's shipping chains run past a select menu's 100 letters in Spanish; without their
    kinds, a Trade and a Consume of the same good read alike. Such labels keep their kinds and shorten their
    names instead, so every option differs from the others."""
    game = presenter("roll_for_the_galaxy")
    engine = game.engine
    state = engine.new_game(2, engine.validate_options({}), seed)
    for number in range(moves):
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, number))
    seat = engine.to_act(state)[0]
    step = narrow(picker_actions(engine, state, seat), [])
    assert isinstance(step, Prompt)
    labels = game.value_labels(step.key, step.values, step.chosen, engine.view(state, seat), "es")
    assert all(0 < len(label) <= 100 for label in labels)
    assert len(set(labels)) == len(labels), labels
    assert any("Comerciar" in label for label in labels)


@pytest.mark.parametrize("name", ["druids", "roll_player", "roll_for_the_galaxy", "talisman"])
def test_every_step_of_seeded_games_has_its_facts_in_every_language(name):
    """Along the built-in player's games, every picker step's facts (a chain that reaches shipping from Produce,
    a lone choice) are told in every language within a message, or not at all: never an error that leaves the
    mover without a picker."""
    import random

    game = presenter(name)
    engine = game.engine
    for seed in (1, 2):
        state, rng = engine.new_game(2, engine.validate_options({}), seed), random.Random(seed)
        for number in range(60):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            offered, view, path = picker_actions(engine, state, seat), engine.view(state, seat), []
            while isinstance(step := narrow(offered, path), Prompt):
                for locale in i18n.LOCALES:
                    facts = game.choice_facts(step.key, step.values, step.chosen, view, locale)
                    assert sum(len(line) + 1 for line in facts) <= 1500, (name, seed, number, facts)
                path.append(rng.randrange(len(step.values)))
            for locale in i18n.LOCALES:
                game.lone_choice_facts(step.action, view, locale)
            state, _ = engine.apply(state, seat, engine.bot_action(state, seat, number))


def test_druids_asking_for_the_one_scoring_there_is_names_its_place():
    """With one place to score, nothing asks which, and a review's player saw only "Ask for a scoring": the
    choice names the place the engine scores."""
    game = presenter("druids")
    engine = game.engine
    checked = 0
    for state, seat in bot_played(engine, 3, range(0, 6), 300):
        scorings = [a for a in engine.legal_actions(state, seat) if a["type"] == "request_scoring"]
        if len(scorings) != 1:
            continue
        view = engine.view(state, seat)
        place = game.place_name(scorings[0]["place"], view, "en")
        assert game.part_label("type", "request_scoring", {}, view, "en") == f"Score {place}"
        checked += 1
    assert checked >= 5


def test_druids_steps_that_ask_for_a_place_say_how_many_cards_lie_at_each_and_how_many_are_yours():
    """A review's player had to read the board and their own picture to choose a place: the step says it."""
    from bot.chooser import joint_values

    game = presenter("druids")
    asked = 0
    for state, seat, step, view in _druids_picker_steps(range(1, 3)):
        facts = game.choice_facts(step.key, step.values, step.chosen, view, "en")
        told = [f for f in facts if f.startswith("At the places now: ")]
        if "place" not in {part.rsplit(".", 1)[-1] for part in joint_values(step.key, step.values[0])}:
            assert not told
        else:
            asked += 1
            expected = []
            for index, place in enumerate(state["places"]):
                if place is None:
                    continue
                cards = len(place["cards"])
                mine = sum(card["seat"] == seat for card in place["cards"])
                named = game.place_name(index, view, "en")
                text = f"{named} {cards} card{'' if cards == 1 else 's'}"
                expected.append(f"{text} (yours: {mine})" if mine else text)
            assert told == [f"At the places now: {' · '.join(expected)}."]
    assert asked
