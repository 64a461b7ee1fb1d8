from engines import get_engine
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
