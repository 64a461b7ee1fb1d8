"""Druids rules, one behaviour per test, from the rulebook (seeds/003)."""

from __future__ import annotations

import pytest

from engines import get_engine
from engines.base import Engine, IllegalAction, clone
from engines.druids.engine import PLACE_CARDS, TRACK_LENGTH, TRACK_STEPS, distribute

druids = get_engine("druids")


def fresh(players: int = 3, seed: int = 5):
    return druids.new_game(players, {}, seed)


def put(state, place: int, *cards: tuple[str, int]) -> None:
    """Lay cards face down at a place, in the given play order: (card, seat)."""
    for card, seat in cards:
        state["play_counter"] += 1
        state["places"][place]["cards"].append({"card": card, "seat": seat, "order": state["play_counter"]})


def test_set_up_deals_four_gems_and_three_followers_and_six_places():
    state = fresh(4)
    for seat in range(4):
        hand = state["hands"][seat]
        assert len(hand) == 7
        assert sum(card.startswith("f-") for card in hand) == 3
        assert len(state["followers_home"][seat]) == 3
    assert len(state["places"]) == 6 and all(p["kind"] and p["cards"] == [] for p in state["places"])
    assert len(state["place_deck"]) == 6
    assert len(state["gem_deck"]) == 54 - 16
    assert state["scores"] == [0, 0, 0, 0]


def test_distribution_in_ascending_follower_order_last_takes_the_rest():
    # 2 takes 2, 3 takes 3, the last (5) takes all 9 that remain.
    assert distribute(14, [2, 3, 5]) == [2, 3, 9]


def test_last_follower_takes_less_than_its_number_when_short():
    assert distribute(4, [1, 2, 6]) == [1, 2, 1]


def test_when_amulets_run_out_the_rest_get_nothing():
    assert distribute(3, [2, 4, 5]) == [2, 1, 0]
    assert distribute(0, [1, 6]) == [0, 0]


def test_a_single_follower_takes_everything():
    assert distribute(17, [1]) == [17]


def test_scoring_converts_matching_gems_and_discards_the_rest():
    state = fresh(3)
    kind = state["places"][0]["kind"]
    other = next(k for k in ("ruby", "sapphire", "emerald", "topaz", "amethyst", "onyx") if k != kind)
    for seat in range(3):
        state["hands"][seat] = [c for c in state["hands"][seat] if c.startswith("f-")]
    state["gem_deck"] = [c for c in state["gem_deck"] if c not in (f"{kind}-7", f"{kind}-4", f"{other}-9")]
    put(state, 0, (f"{kind}-7", 1), (f"{other}-9", 2), ("f-2", 1), (f"{kind}-4", 0), ("f-5", 2))
    state["followers_home"][1] = [n for n in state["followers_home"][1] if n != 2]
    state["followers_home"][2] = [n for n in state["followers_home"][2] if n != 5]
    after, events = druids.apply(state, 0, {"type": "request_scoring", "place": 0})
    shares = next(e for e in events if e["type"] == "AmuletsDistributed")
    assert shares["amulets"] == 11  # 7 + 4; the other kind's 9 is discarded
    assert [(s["seat"], s["follower"], s["amulets"]) for s in shares["shares"]] == [(1, 2, 2), (2, 5, 9)]
    assert after["scores"] == [0, 2, 9]
    assert {f"{kind}-7", f"{kind}-4", f"{other}-9"} <= set(after["gem_discard"])
    assert 2 in after["followers_home"][1] and 5 in after["followers_home"][2]
    assert after["places"][0]["cards"] == []
    assert after["places"][0]["kind"] == state["place_deck"][-1]
    assert after["scored"] == 1
    assert after["phase"] == "play"  # the turn goes on as usual


def test_equal_followers_rank_by_play_order():
    state = fresh(3)
    kind = state["places"][2]["kind"]
    put(state, 2, ("f-3", 2), (f"{kind}-9", 0), ("f-3", 1))
    after, events = druids.apply(state, 0, {"type": "request_scoring", "place": 2})
    shares = next(e for e in events if e["type"] == "AmuletsDistributed")["shares"]
    assert [(s["seat"], s["amulets"]) for s in shares] == [(2, 3), (1, 6)]
    assert after["scores"] == [0, 6, 3]


def test_scoring_needs_three_cards_including_a_follower():
    state = fresh(2)
    kind = state["places"][1]["kind"]
    put(state, 1, (f"{kind}-1", 0), (f"{kind}-2", 1), (f"{kind}-3", 0))
    assert {"type": "request_scoring", "place": 1} not in druids.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as refused:
        druids.apply(state, 0, {"type": "request_scoring", "place": 1})
    assert refused.value.code == "place_not_scorable"
    state2 = fresh(2)
    put(state2, 1, ("f-1", 1), (f"{kind}-2", 1))
    assert {"type": "request_scoring", "place": 1} not in druids.legal_actions(state2, 0)
    put(state2, 1, (f"{kind}-3", 0))
    assert {"type": "request_scoring", "place": 1} in druids.legal_actions(state2, 0)


def test_scoring_only_before_playing_cards():
    state = fresh(2)
    kind = state["places"][1]["kind"]
    put(state, 1, ("f-1", 1), (f"{kind}-2", 1), (f"{kind}-3", 0))
    gem = next(c for c in state["hands"][0] if not c.startswith("f-"))
    state, _ = druids.apply(state, 0, {"type": "play_card", "card": gem, "place": 0})
    with pytest.raises(IllegalAction) as refused:
        druids.apply(state, 0, {"type": "request_scoring", "place": 1})
    assert refused.value.code == "scoring_only_at_turn_start"


def test_two_followers_may_not_be_played_in_one_turn():
    state = fresh(2)
    followers = [c for c in state["hands"][0] if c.startswith("f-")]
    state, _ = druids.apply(state, 0, {"type": "play_card", "card": followers[0], "place": 0})
    with pytest.raises(IllegalAction) as refused:
        druids.apply(state, 0, {"type": "play_card", "card": followers[1], "place": 3})
    assert refused.value.code == "two_followers"
    gems = [c for c in state["hands"][0] if not c.startswith("f-")]
    state, _ = druids.apply(state, 0, {"type": "play_card", "card": gems[0], "place": 0})
    assert state["phase"] == "discard"


def test_turn_discards_a_gem_then_refills_to_seven_card_by_card():
    state = fresh(2)
    gems = sorted(c for c in state["hands"][0] if not c.startswith("f-"))
    state, _ = druids.apply(state, 0, {"type": "play_card", "card": gems[0], "place": 0})
    state, _ = druids.apply(state, 0, {"type": "play_card", "card": gems[1], "place": 5})
    state, _ = druids.apply(state, 0, {"type": "discard_gem", "card": gems[2]})
    assert state["phase"] == "refill" and len(state["hands"][0]) == 4
    home = state["followers_home"][0][0]
    state, events = druids.apply(state, 0, {"type": "take_follower", "number": home})
    assert f"f-{home}" in state["hands"][0]
    assert {"type": "FollowerTaken", "seat": 0} in events
    state, events = druids.apply(state, 0, {"type": "draw_gem"})
    drawn = next(e for e in events if e["type"] == "OwnGemDrawn")
    assert drawn["private"] == [0]
    state, _ = druids.apply(state, 0, {"type": "draw_gem"})
    assert len(state["hands"][0]) == 7
    assert state["current"] == 1 and state["phase"] == "start"


def test_empty_gem_deck_is_rebuilt_from_the_discard_pile():
    state = fresh(2)
    state["gem_discard"], state["gem_deck"] = state["gem_deck"], []
    state["phase"], state["plays_left"] = "refill", 0
    state["hands"][0] = state["hands"][0][:5]
    state, events = druids.apply(state, 0, {"type": "draw_gem"})
    assert events[0]["type"] == "GemDeckReshuffled"
    assert state["gem_discard"] == []


def test_game_ends_when_all_places_but_one_are_scored():
    state = fresh(2)
    state["scored"] = PLACE_CARDS - 2
    state["place_deck"] = []
    kind = state["places"][4]["kind"]
    put(state, 4, ("f-6", 1), (f"{kind}-5", 1), (f"{kind}-8", 0))
    state, events = druids.apply(state, 0, {"type": "request_scoring", "place": 4})
    assert events[-1]["type"] == "GameEnded" and events[-1]["reason"] == "places_scored"
    assert state["places"][4]["kind"] is None
    assert druids.outcome(state).winners == [1]
    assert druids.to_act(state) == []


def test_passing_the_top_card_moves_the_bottom_card_up():
    state = fresh(2)
    state["scores"] = [TRACK_LENGTH - 2, TRACK_STEPS + 3]  # seat 1 is above the bottom card
    events = druids._advance_marker(state, 0, 5)
    assert {"type": "ScoreTrackWrapped", "base": TRACK_STEPS} in events
    assert state["scores"][0] == TRACK_LENGTH + 3 and state["finished"] is None


def test_wrap_onto_a_mover_on_the_bottom_card_ends_the_game_at_once():
    state = fresh(3)
    state["scores"] = [TRACK_LENGTH - 1, 4, 30]  # seat 1 stands on the bottom card
    kind = state["places"][0]["kind"]
    put(state, 0, ("f-1", 0), (f"{kind}-9", 2), ("f-2", 1), (f"{kind}-3", 1))
    after, events = druids.apply(state, 0, {"type": "request_scoring", "place": 0})
    ended = events[-1]
    assert ended["type"] == "GameEnded" and ended["reason"] == "track_wrapped_onto_mover"
    assert after["scores"][0] == TRACK_LENGTH  # the mover that went past the top is highest
    assert ended["winners"] == [0]
    assert after["scores"][1] == 4  # the game ended before the second follower scored


def test_apply_never_changes_its_input():
    state = fresh(4)
    before = clone(state)
    druids.apply(state, 0, druids.legal_actions(state, 0)[0])
    assert state == before


def _played_states():
    """Every state of seeded games for 2-4 players, played by the built-in player to the end."""
    for players in (2, 3, 4):
        state = fresh(players, seed=players)
        yield state
        while druids.outcome(state) is None:
            seat = druids.to_act(state)[0]
            state, _ = druids.apply(state, seat, druids.bot_action(state, seat, state["turn"]))
            yield state


def _containers(data, found):
    if isinstance(data, (dict, list)):
        found.append(data)
        for item in data.values() if isinstance(data, dict) else data:
            _containers(item, found)
    return found


def test_the_fast_state_copy_shares_only_the_played_cards():
    """Moves never change a played card's entry (the conformance suite checks that apply leaves its input as it
    was), so copies may share those entries, and nothing else."""
    for state in _played_states():
        copy = druids.copy_state(state)
        assert copy == clone(state)
        shared = {id(c) for c in _containers(state, [])} & {id(c) for c in _containers(copy, [])}
        assert shared == {id(c) for place in state["places"] for c in place["cards"]}


def test_the_hand_alone_is_the_hand_of_the_view():
    for state in _played_states():
        for seat in range(state["players"]):
            assert druids.viewed_hand(state, seat) == druids.view(state, seat)["hand"]


def test_refills_counted_without_drawing_are_the_refills_drawn():
    draw = {"type": "draw_gem"}
    checked = 0
    for state in _played_states():
        for seat in range(state["players"]):
            drawn = Engine.repeat_count(druids, state, seat, draw, 12)
            assert druids.repeat_count(state, seat, draw, 12) == drawn
            checked += drawn > 0
    assert checked > 100
    state = fresh(2)
    state.update(phase="refill", gem_deck=[], gem_discard=["ruby-3"])
    state["hands"][0] = state["hands"][0][:4]
    assert druids.repeat_count(state, 0, draw, 12) == Engine.repeat_count(druids, state, 0, draw, 12) == 1


def test_views_hide_hands_and_faces_of_played_cards():
    state = fresh(3)
    gem = next(c for c in state["hands"][0] if not c.startswith("f-"))
    state, _ = druids.apply(state, 0, {"type": "play_card", "card": gem, "place": 2})
    public = druids.view(state, None)
    other = druids.view(state, 1)
    own = druids.view(state, 0)
    assert "hand" not in public and gem not in str(public)
    assert gem not in str(other) and other["places"][2]["gems"] == 1
    assert own["places"][2]["mine"] == [gem]
    assert set(state["hands"][1]) == set(other["hand"])


def test_a_finished_game_shows_no_place_as_scorable():
    """The final board said "can be scored" under places that met the rule when the game ended."""
    engine = get_engine("druids")
    left_scorable = 0
    for seed in range(6):
        state = engine.new_game(3, engine.validate_options({}), seed)
        while engine.outcome(state) is None:
            seat = engine.to_act(state)[0]
            state, _ = engine.apply(state, seat, engine.bot_action(state, seat, 0))
        left_scorable += bool(engine._scorable(state))
        assert not any(place["scorable"] for place in engine.view(state, None)["places"])
    assert left_scorable  # games that ended with a place meeting the rule were among them
