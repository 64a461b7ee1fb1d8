from engines import get_engine
from engines.druids.rules import gem_kind, is_follower
from engines.rng import Rng

druids = get_engine("druids")


def test_the_built_in_player_beats_random_players():
    wins = 0
    for game in range(12):
        state = druids.new_game(3, {}, game)
        chooser = Rng(game)
        bot_seat = game % 3
        step = 0
        while druids.outcome(state) is None:
            seat = druids.to_act(state)[0]
            if seat == bot_seat:
                action = druids.bot_action(state, seat, step)
            else:
                action = chooser.choice(druids.legal_actions(state, seat))
            state, _ = druids.apply(state, seat, action)
            step += 1
        wins += bot_seat in druids.outcome(state).winners
    assert wins >= 9


def test_the_built_in_player_decides_from_its_own_view_only():
    state = druids.new_game(4, {}, 8)
    for seat_seed in range(5):
        hidden_changed = druids.shuffle_hidden(state, 0, seat_seed)
        assert druids.bot_action(hidden_changed, 0, 1) == druids.bot_action(state, 0, 1)


def _gems(state):
    cards = [c for hand in state["hands"] for c in hand] + state["gem_deck"] + state["gem_discard"]
    cards += [c["card"] for place in state["places"] for c in place["cards"]]
    return sorted(c for c in cards if not is_follower(c))


def test_sampled_worlds_put_mostly_matching_gems_on_places_and_keep_every_card():
    """Players put gems of a place's kind on it; a uniform re-deal would make about one in six match, and the
    search would misjudge every pot. (That the seat's view stays as it was is checked for every engine by the
    conformance suite.)"""
    state = druids.new_game(4, {}, 3)
    for step in range(60):  # the built-in players put cards on the places for a while
        seat = druids.to_act(state)[0]
        state, _ = druids.apply(state, seat, druids.bot_action(state, seat, step))
    others_gems = [
        (place_index, i)
        for place_index, place in enumerate(state["places"])
        for i, c in enumerate(place["cards"])
        if c["seat"] != 0 and not is_follower(c["card"])
    ]
    assert len(others_gems) >= 5
    matching = 0
    for seed in range(40):
        world = druids.shuffle_hidden(state, 0, seed)
        assert _gems(world) == _gems(state)
        for place_index, i in others_gems:
            place = world["places"][place_index]
            matching += gem_kind(place["cards"][i]["card"]) == place["kind"]
    assert matching / (40 * len(others_gems)) > 0.7
