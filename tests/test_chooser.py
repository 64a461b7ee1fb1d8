import pickle
import random

import pytest

from bot.chooser import (
    ENDING,
    Chosen,
    PathError,
    Prompt,
    chain,
    clicks,
    decode_path,
    encode_path,
    narrow,
    path_to,
    picker_actions,
    split,
)
from engines import get_engine
from tests.playouts import bot_played

ACTIONS = [
    {"type": "play_card", "card": "ruby-3", "place": 0},
    {"type": "play_card", "card": "ruby-3", "place": 1},
    {"type": "play_card", "card": "f-2", "place": 0},
    {"type": "request_scoring", "place": 1},
]


def test_first_step_asks_for_the_action_type():
    step = narrow(ACTIONS, [], limit=1)
    assert isinstance(step, Prompt)
    assert step.key == "type" and step.values == ["play_card", "request_scoring"]


def test_parameters_are_asked_one_at_a_time():
    step = narrow(ACTIONS, [0], limit=1)
    assert isinstance(step, Prompt) and step.key == "card" and step.values == ["ruby-3", "f-2"]
    step = narrow(ACTIONS, [0, 0], limit=1)
    assert isinstance(step, Prompt) and step.key == "place" and step.values == [0, 1]
    assert step.chosen == {"type": "play_card", "card": "ruby-3"}
    assert narrow(ACTIONS, [0, 0, 1], limit=1) == Chosen(ACTIONS[1])


def test_parameters_with_one_possible_value_are_filled_in():
    assert narrow(ACTIONS, [0, 1], limit=1) == Chosen(ACTIONS[2])  # the follower fits only place 0
    assert narrow(ACTIONS, [1], limit=1) == Chosen(ACTIONS[3])


def test_a_single_action_needs_no_choice():
    assert narrow([{"type": "pass"}], []) == Chosen({"type": "pass"})


def test_paths_that_no_longer_fit_are_refused():
    with pytest.raises(PathError):
        narrow(ACTIONS, [5])
    with pytest.raises(PathError):
        narrow(ACTIONS, [1, 0], limit=1)
    with pytest.raises(PathError):
        narrow([], [])
    with pytest.raises(PathError):
        decode_path("1.x")


def test_paths_round_trip_through_text():
    assert decode_path(encode_path([3, 0, 12])) == [3, 0, 12]
    assert decode_path("") == []


def test_parameters_that_fit_one_menu_are_asked_together():
    step = narrow(ACTIONS, [])
    assert (
        isinstance(step, Prompt) and step.key == "type+card+place" and step.keys == ["type", "card", "place"]
    )
    assert step.values == [
        ("play_card", "ruby-3", 0),
        ("play_card", "ruby-3", 1),
        ("play_card", "f-2", 0),
        ("request_scoring", None, 1),
    ]
    assert narrow(ACTIONS, [3]) == Chosen(ACTIONS[3])
    assert [path_to(ACTIONS, a) for a in ACTIONS] == [[0], [1], [2], [3]]


def test_a_step_too_big_for_one_menu_asks_the_first_parameter_alone():
    actions = [{"type": "play", "card": c, "place": p} for c in range(6) for p in range(6)]
    step = narrow(actions, [])
    assert isinstance(step, Prompt) and step.key == "card" and len(step.values) == 6
    step = narrow(actions, [2])
    assert isinstance(step, Prompt) and step.key == "place" and step.chosen == {"card": 2}
    assert narrow(actions, [2, 5]) == Chosen({"type": "play", "card": 2, "place": 5})
    assert clicks(actions, actions[7]) == 2
    assert clicks([{"type": "pass"}], {"type": "pass"}) == 1


def test_chains_split_back_into_the_engine_actions():
    first, then = {"type": "pick_card", "card": 3}, {"type": "place_die", "row": "wis"}
    assert split(chain(first, chain(then, {"type": "end"}))) == [first, then, {"type": "end"}]
    assert split(first) == [first]


def test_picker_chains_only_what_the_rules_allow_in_turn():
    """Roll Player: taking an initiative card (no chance, nothing hidden) and placing its die is one choice, and
    every chained step is a legal action in the state the one before it leaves."""
    engine = get_engine("roll_player")
    state = engine.new_game(2, engine.validate_options({}), 11)
    for _ in range(400):
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        offered = picker_actions(engine, state, seat)
        assert {repr(split(a)[0]) for a in offered} == {repr(a) for a in legal}  # nothing added, nothing lost
        for action in offered[:3]:
            after = state
            for part in split(action):
                after, _ = engine.apply(after, engine.to_act(after)[0], part)
        if any(len(split(a)) > 1 and a["type"] == "pick_card" for a in offered):
            break
        state, _ = engine.apply(state, seat, legal[0])
    else:
        raise AssertionError("no initiative card was ever offered with its placement")


def _druids_turn_start(seed: int = 1):
    engine = get_engine("druids")
    state = engine.new_game(3, engine.validate_options({}), seed)
    return engine, state, engine.to_act(state)[0]


def _outcome(engine, state, seat, parts):
    for part in parts:
        assert part in engine.legal_actions(state, seat), part  # every part is a legal move in its turn
        state, _ = engine.apply(state, seat, part)
    return state


def test_druids_two_plays_are_one_pair_then_a_place_for_each():
    """A Druids turn's two plays: which two cards (one menu), where the first goes, where the second goes — and
    every pair of plays the rules allow is offered exactly once."""
    engine, state, seat = _druids_turn_start()
    offered = picker_actions(engine, state, seat, suggest=False)
    step = narrow(offered, [])
    assert isinstance(step, Prompt) and step.keys == ["card", "then.card"] and len(step.values) <= 25
    assert narrow(offered, [0]).keys == ["place"]
    assert narrow(offered, [0, 0]).keys == ["then.place"]
    pairs = {frozenset((p["card"], p["place"]) for p in split(a)) for a in offered if len(split(a)) == 2}
    expected = set()
    for first in engine.legal_actions(state, seat):
        after, _ = engine.apply(state, seat, first)
        for second in engine.legal_actions(after, seat):
            expected.add(frozenset({(first["card"], first["place"]), (second["card"], second["place"])}))
    assert pairs == expected
    assert len(pairs) == len([a for a in offered if len(split(a)) == 2])  # no pair twice


def _druids_turn_that_may_ask_for_a_scoring():
    engine = get_engine("druids")
    state = engine.new_game(3, engine.validate_options({}), 5)
    for _ in range(200):
        seat = engine.to_act(state)[0]
        kinds = {a["type"] for a in engine.legal_actions(state, seat)}
        if {"request_scoring", "play_card"} <= kinds:
            return engine, state, seat
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, 0))
    raise AssertionError("no turn offered a scoring")


def test_a_druids_place_is_asked_once_its_card_is_chosen_even_beside_a_scoring():
    """Where a scoring may be asked (its own place asked with it), a card's place is still asked only once the
    card is chosen: asked before, the place picked for "Play a card" went to whichever card came first."""
    engine, state, seat = _druids_turn_that_may_ask_for_a_scoring()
    offered = picker_actions(engine, state, seat, suggest=False)
    plays = [a for a in offered if a["type"] == "play_card"]
    assert plays and len(plays) < len(offered)
    for action in plays[:: max(1, len(plays) // 40)]:
        path = path_to(offered, action)
        chosen: set[str] = set()
        for depth in range(len(path)):
            step = narrow(offered, path[:depth])
            assert isinstance(step, Prompt)
            for key in step.keys:
                if key.endswith("place"):
                    card = key.removesuffix("place") + "card"
                    assert card in chosen or card in step.keys, (key, step.keys, chosen)
            chosen.update(step.keys)
    scorings = [a for a in offered if a["type"] == "request_scoring"]
    assert {a["place"] for a in scorings} == {
        a["place"] for a in engine.legal_actions(state, seat) if a["type"] == "request_scoring"
    }


def test_a_druids_turns_chained_keys_are_one_string_each_however_many_runs():
    """The picker keeps some 1,500 runs a Druids turn and gets them back from a worker: each chained key is one
    shared string (pickle then writes it once), not a copy in every run."""
    engine, state, seat = _druids_turn_start()
    offered = pickle.loads(pickle.dumps(picker_actions(engine, state, seat)))
    keys = [key for action in offered for key in action]
    assert len(offered) > 100 and any(key.startswith("then.") for key in keys)
    assert len({id(key) for key in keys}) == len(set(keys))


def test_a_druids_turn_can_end_in_its_third_click_the_way_the_built_in_player_would():
    """The last place comes with the rest of the turn (discard or keep, refill) as the built-in player would end
    it, or without it; that ending is what the engine's own moves one by one would do."""
    engine, state, seat = _druids_turn_start()
    offered = picker_actions(engine, state, seat)
    ended = [a for a in offered if ENDING in a]
    assert ended
    action = ended[0]
    assert clicks(offered, action) == 3
    stopped = {k: v for k, v in action.items() if k != ENDING}
    assert stopped in offered and clicks(offered, stopped) == 3  # stopping before the ending costs nothing
    after = _outcome(engine, state, seat, split(action))
    assert engine.to_act(after) != [seat]  # the whole turn is done
    ending = list(action[ENDING])
    mid = _outcome(engine, state, seat, split(stopped))
    one_by_one = mid
    for _ in ending:
        move = engine.bot_action(one_by_one, seat, 0)
        one_by_one, _ = engine.apply(one_by_one, seat, move)
    assert after == one_by_one


def test_druids_refills_drawn_blind_until_full_or_one_at_a_time():
    engine, state, seat = _druids_turn_start()
    while state["phase"] != "refill" or not state["followers_home"][seat]:
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, 0))
    missing = 7 - len(state["hands"][seat])
    offered = picker_actions(engine, state, seat, suggest=False)
    draws = [[p["type"] for p in split(a)] for a in offered if split(a)[0]["type"] == "draw_gem"]
    assert sorted(draws, key=len) == [["draw_gem"], ["draw_gem"] * missing] if missing > 1 else [["draw_gem"]]


def test_any_follower_taken_may_be_followed_by_one_gem_drawn_to_look_at():
    """A review's player could take Follower 2 or 4 and then draw one gem to look at it, but not Follower 5: the
    runs after the largest leave out the smaller ones (taken first, they cover the same pairs), so drawing looked
    like the only move left and was offered only until the hand is full."""
    engine = get_engine("druids")
    checked = 0
    for seed in (2, 3, 6, 7):
        state = engine.new_game(3, engine.validate_options({}), seed)
        while True:
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            takes = [a for a in legal if a["type"] == "take_follower"]
            if len(takes) > 1 and {"type": "draw_gem"} in legal and len(state["hands"][seat]) < 6:
                break
            state, _ = engine.apply(state, seat, engine.bot_action(state, seat, seed))
        runs = [split(a) for a in picker_actions(engine, state, seat, suggest=False)]
        for take in takes:
            assert [take, {"type": "draw_gem"}] in runs, take
            checked += 1
    assert checked >= 8


def test_the_druids_picker_learns_nothing_hidden_before_the_mover_commits():
    """What the picker offers (runs, endings and their labels) is the same whatever the hidden cards are: the
    gem deck's order, the other hands, the faces others played."""
    from bot.games import presenter

    game = presenter("druids")
    engine, state, seat = _druids_turn_start(3)
    for move in range(60):
        seat = engine.to_act(state)[0]
        if engine.outcome(state) is not None:
            break
        if move % 4 == 0:
            offered = picker_actions(engine, state, seat)
            other = picker_actions(engine, engine.shuffle_hidden(state, seat, move), seat)
            assert offered == other
            view = engine.view(state, seat)
            assert [game.action_text(a, view, "en") for a in offered[:50]] == [
                game.action_text(a, view, "en") for a in other[:50]
            ]
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, move))


def test_an_ending_is_asked_with_the_last_choice_not_on_its_own():
    actions = [{"type": "play", "card": c, "place": p} for c in range(5) for p in range(3)]
    actions += [{**a, ENDING: ({"type": "draw"},)} for a in actions]
    step = narrow(actions, [])
    assert isinstance(step, Prompt) and step.keys == ["card"]  # card+place would leave the ending alone
    step = narrow(actions, [1])
    assert isinstance(step, Prompt) and step.keys == ["place", ENDING] and len(step.values) == 6
    assert split(narrow(actions, [1, 3]).action) == [
        {"type": "play", "card": 1, "place": 0},
        {"type": "draw"},
    ]
    assert split(narrow(actions, [1, 0]).action) == [{"type": "play", "card": 1, "place": 0}]


def test_every_druids_run_the_picker_offers_is_legal_move_by_move():
    import random

    engine = get_engine("druids")
    rng = random.Random(7)
    for seed in (2, 5):
        state = engine.new_game(3, engine.validate_options({}), seed)
        for move in range(120):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            if move % 3 == 0:
                offered = picker_actions(engine, state, seat)
                for action in rng.sample(offered, min(15, len(offered))):
                    _outcome(engine, state, seat, split(action))
            state, _ = engine.apply(state, seat, engine.bot_action(state, seat, move))


def test_a_side_action_out_of_turn_is_offered_on_its_own():
    """A Roll for the Galaxy seat that is ready may take it back, and nothing more: chained with what would follow,
    the picker offered "Ready" again, which took the ready back and gave it again, telling the table twice."""
    engine = get_engine("roll_for_the_galaxy")
    state = engine.new_game(2, {}, 3)
    while not (state["stage"] == "assign" and state["seats"][0]["dice"]):
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, 0))
    state, _ = engine.apply(state, 0, {"type": "auto_assign"})
    assert engine.to_act(state) == [1] and engine.legal_actions(state, 0) == []
    side = engine.side_actions(state, 0)
    assert picker_actions(engine, state, 0, side) == side == [{"type": "unready"}]
    assert isinstance(narrow(side, []), Chosen)


async def test_options_too_long_for_a_button_are_offered_in_a_menu():
    """A button shows 80 characters, a menu option 100: long labels alike in their first 80 went on buttons that
    read the same, or differed only in the letters before the cut."""
    from types import SimpleNamespace

    import discord

    from bot.ui import chooser_view

    table = SimpleNamespace(id=7)
    alike = [
        "Development: Galactic Recycling · bottom → Place a drawn tile · Development: Mining " + end
        for end in ("World", "League")
    ]
    menu = chooser_view(table, 1, [], alike, "en")
    assert [type(item.item) for item in menu.children] == [discord.ui.Select]
    assert [option.label for option in menu.children[0].item.options] == alike
    short = chooser_view(table, 1, [], ["Keep the roll", "Re-roll die 1 (3)"], "en")
    assert [type(item.item) for item in short.children] == [discord.ui.Button, discord.ui.Button]


async def test_a_pickers_view_is_freed_without_the_cycle_collector():
    """Each item pointed back at its view, a reference cycle per picker sent that only Python's full collections
    (which pause the event loop for 100-200 ms under load) could free. A sent view is now freed at once."""
    import gc
    import weakref
    from types import SimpleNamespace

    from bot.ui import chooser_view

    table = SimpleNamespace(id=7)
    gc.disable()
    try:
        view = chooser_view(table, 1, [0], ["Keep the roll", "Re-roll die 1 (3)"], "en")
        assert view.to_components()  # what sending it asks of it still works
        gone = weakref.ref(view)
        del view
        assert gone() is None
    finally:
        gc.enable()


def _quiet_ends(engine, state, seat, offered):
    """Each offered chain that draws on no chance, as (the chain, where it leaves the game)."""
    out = []
    for action in offered:
        parts = split(action)
        if len(parts) < 2 or "suggested" in action:
            continue
        after, chance = state, False
        for part in parts:
            before = after
            after, _ = engine.apply(before, seat, part)
            chance = chance or after.get("rng") != before.get("rng")
        if not chance:
            out.append((action, after))
    return out


def _random_states(name, players, seeds, moves):
    engine = get_engine(name)
    for seed in seeds:
        state = engine.new_game(players, engine.validate_options({}), seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if engine.outcome(state) is not None or not engine.to_act(state):
                break
            seat = rng.choice(engine.to_act(state))
            yield engine, state, seat
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


@pytest.mark.parametrize("name", ["roll_for_the_galaxy", "roll_player"])
def test_no_two_choices_without_chance_end_alike(name):
    """Roll for the Galaxy offered "recruit, then end managing" beside "recruit, then manage the rest" with
    nothing left to manage, and two reclaims in both orders: two options that do the very same. Now no two
    chains that draw on no chance leave the game alike, none leaves it as it was, and no move is lost: every
    legal move still starts an offer."""
    compared = 0
    for engine, state, seat in _random_states(name, 3, range(3), 700):
        legal = engine.legal_actions(state, seat)
        offered = picker_actions(engine, state, seat, legal, suggest=False)
        ends = _quiet_ends(engine, state, seat, offered)
        for i, (action, end) in enumerate(ends):
            assert end != state, action
            assert all(end != other for _, other in ends[i + 1 :]), action
        # a swap of two dice is offered both ways round (Engine.mirrored_moves), each a legal move
        firsts = [split(a)[0] for a in offered]
        assert {repr(f if f in legal else engine.mirror(f)) for f in firsts} == {repr(a) for a in legal}
        compared += len(ends) > 1
    assert compared > 50  # the check met many offers to compare


def test_chains_with_chance_are_offered_even_where_they_end_alike():
    """Two Talisman moves into a fight can end alike (the character loses both fights and dies); both stay on
    offer, as the picker may not tell the mover how the dice will fall."""
    for engine, state, seat in _random_states("talisman", 3, range(3), 1500):
        legal = engine.legal_actions(state, seat)
        offered = picker_actions(engine, state, seat, legal, suggest=False)
        fights = [a for a in offered if a["type"] == "move" and a.get("then.type") == "fight"]
        ends = [engine.dump(_outcome_any(engine, state, seat, split(a))) for a in fights]
        if len(set(ends)) < len(ends):
            return
    raise AssertionError("no two moves into a fight that end alike were met")


def _outcome_any(engine, state, seat, parts):
    for part in parts:
        state, _ = engine.apply(state, seat, part)
    return state


def test_either_die_of_a_swap_may_be_picked_first():
    """Roll Player lists each swap of two dice once, the earlier die first: a review's player picked Charisma's
    die and was offered only the dice after it, so swapping it with Constitution's took picking that one first.
    The picker offers both orders; either is legal and swaps the same two dice."""
    engine = get_engine("roll_player")
    state = engine.new_game(2, engine.validate_options({}), 0)
    seat = engine.to_act(state)[0]
    for move in range(400):
        seat = engine.to_act(state)[0]
        swaps = [a for a in engine.legal_actions(state, seat) if a["type"] == "swap_dice"]
        if len({a["die"] for a in swaps} | {a["other"] for a in swaps}) >= 4:
            break
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, move))
    dice = sorted({a["die"] for a in swaps} | {a["other"] for a in swaps})
    offered = [a for a in picker_actions(engine, state, seat) if a["type"] == "swap_dice"]
    for die in dice:  # every die, the last one listed too, has every other die as a partner
        assert sorted(a["other"] for a in offered if a["die"] == die) == [d for d in dice if d != die]
    canonical = swaps[0]
    mirrored = engine.mirror(canonical)
    assert mirrored not in engine.legal_actions(state, seat) and engine.is_legal(state, seat, mirrored)
    swapped, _ = engine.apply(state, seat, canonical)
    assert engine.apply(state, seat, mirrored)[0] == swapped


def test_two_tiles_discarded_scouting_are_offered_in_one_order():
    """'Discard A → discard B' stood beside 'discard B → discard A' in a review's menu: the discarded tiles go
    back into the bag sorted, so the order is no rule's (Engine.settled), and one of the two is offered."""
    engine = get_engine("roll_for_the_galaxy")
    checked = 0
    for state, seat in bot_played(engine, 2, range(20), 200):
        if sum(a["type"] == "discard_tile" for a in engine.legal_actions(state, seat)) >= 2:
            pairs = [
                tuple(p["tile"] for p in split(a))
                for a in picker_actions(engine, state, seat, suggest=False)
                if [p["type"] for p in split(a)] == ["discard_tile", "discard_tile"]
            ]
            assert pairs and len({frozenset(p) for p in pairs}) == len(pairs), pairs
            checked += 1
    assert checked >= 3


def test_two_explorers_of_different_colours_are_stocked_in_one_order():
    """'Stock red → stock green' stood beside 'stock green → stock red' (a review): both put the same two dice
    among the citizens for the same credits, so one order is offered. (With two explorers left, the second
    stock ends the phase and other players draw tiles unseen: chains with hidden draws in them are always
    offered, and "Stock with every explorer left" is the one click there.)"""
    engine = get_engine("roll_for_the_galaxy")
    checked = 0
    for state, seat in bot_played(engine, 2, range(10), 200):
        colours = {a["color"] for a in engine.legal_actions(state, seat) if a["type"] == "stock"}
        task = state["seats"][seat]["task"] or {}
        if len(colours) >= 2 and len(task.get("explorers", [])) >= 3:
            pairs = [
                (a["color"], a["then.color"])
                for a in picker_actions(engine, state, seat, suggest=False)
                if a["type"] == "stock" and a.get("then.type") == "stock" and a["color"] != a["then.color"]
            ]
            assert len({frozenset(p) for p in pairs}) == len(pairs), pairs
            checked += bool(pairs)
    assert checked >= 3


@pytest.mark.parametrize("name", ["roll_for_the_galaxy", "roll_player"])
def test_no_chain_is_offered_that_ends_like_a_move_offered_alone(name):
    """'Stock → stock' stood beside 'Stock with every explorer left' with two explorers, a review saw: the same
    end. A chain that draws on no chance and ends like a move that nothing can follow (so it is always offered
    on its own) is left out."""
    compared = 0
    for engine, state, seat in _random_states(name, 3, range(3), 500):
        legal = engine.legal_actions(state, seat)
        offered = picker_actions(engine, state, seat, legal, suggest=False)
        alone = []
        for action in offered:
            if len(split(action)) == 1:
                after, _ = engine.apply(state, seat, action)
                if after.get("rng") == state.get("rng") and seat not in engine.to_act(after):
                    alone.append(engine.settled(after))
        for action, end in _quiet_ends(engine, state, seat, offered):
            assert engine.settled(end) not in alone, action
            compared += bool(alone)
    assert compared > 10


@pytest.mark.parametrize(("name", "players"), [("druids", 3), ("roll_player", 3), ("talisman", 2)])
def test_narrowing_on_from_a_step_gives_the_step_narrowing_from_the_start_gives(name, players):
    """A click narrows on from the step it was made on (a Druids turn's 1,500 runs were narrowed from the first
    step again at every click): every step reached that way, down every path, is the one the whole path gives."""
    compared = 0
    for engine, state, seat in _random_states(name, players, range(2), 40):
        offered = picker_actions(engine, state, seat)
        rng = random.Random(compared)
        for _ in range(6):
            path: list[int] = []
            step = narrow(offered, path)
            while isinstance(step, Prompt):
                path.append(rng.randrange(len(step.values)))
                resumed, whole = narrow(offered, path[-1:], start=step), narrow(offered, path)
                assert resumed == whole
                if isinstance(whole, Prompt):
                    assert resumed.narrowing[0] == whole.narrowing[0]
                step = resumed
                compared += 1
        first = narrow(offered, [])
        if isinstance(first, Prompt):  # a choice the step does not have is refused from it as from the start
            with pytest.raises(PathError):
                narrow(offered, [len(first.values)], start=first)
    assert compared > 100


def test_a_mirrored_swap_is_offered_beside_its_move_not_after_every_other_move():
    """The mirrored swaps went after all other moves, so "No attribute action" stood between Charisma's box 2 and
    box 3 swaps in a review's menu: each mirror comes right after its own move, and the moves keep their order."""
    engine = get_engine("roll_player")
    checked = 0
    for state, seat in bot_played(engine, 3, range(10), 300):
        kinds = [a["type"] for a in picker_actions(engine, state, seat, suggest=False)]
        if "swap_dice" in kinds and "skip_action" in kinds:
            assert "swap_dice" not in kinds[kinds.index("skip_action") :], kinds
            checked += 1
    assert checked >= 5
