import pytest

from bot.chooser import (
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
