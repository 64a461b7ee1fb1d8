import pytest

from bot.chooser import Chosen, PathError, Prompt, decode_path, encode_path, narrow

ACTIONS = [
    {"type": "play_card", "card": "ruby-3", "place": 0},
    {"type": "play_card", "card": "ruby-3", "place": 1},
    {"type": "play_card", "card": "f-2", "place": 0},
    {"type": "request_scoring", "place": 1},
]


def test_first_step_asks_for_the_action_type():
    step = narrow(ACTIONS, [])
    assert isinstance(step, Prompt)
    assert step.key == "type" and step.values == ["play_card", "request_scoring"]


def test_parameters_are_asked_one_at_a_time():
    step = narrow(ACTIONS, [0])
    assert isinstance(step, Prompt) and step.key == "card" and step.values == ["ruby-3", "f-2"]
    step = narrow(ACTIONS, [0, 0])
    assert isinstance(step, Prompt) and step.key == "place" and step.values == [0, 1]
    assert step.chosen == {"type": "play_card", "card": "ruby-3"}
    assert narrow(ACTIONS, [0, 0, 1]) == Chosen(ACTIONS[1])


def test_parameters_with_one_possible_value_are_filled_in():
    assert narrow(ACTIONS, [0, 1]) == Chosen(ACTIONS[2])  # the follower fits only place 0
    assert narrow(ACTIONS, [1]) == Chosen(ACTIONS[3])


def test_a_single_action_needs_no_choice():
    assert narrow([{"type": "pass"}], []) == Chosen({"type": "pass"})


def test_paths_that_no_longer_fit_are_refused():
    with pytest.raises(PathError):
        narrow(ACTIONS, [5])
    with pytest.raises(PathError):
        narrow(ACTIONS, [1, 0])
    with pytest.raises(PathError):
        narrow([], [])
    with pytest.raises(PathError):
        decode_path("1.x")


def test_paths_round_trip_through_text():
    assert decode_path(encode_path([3, 0, 12])) == [3, 0, 12]
    assert decode_path("") == []
