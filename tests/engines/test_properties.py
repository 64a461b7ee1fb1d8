"""Properties every engine keeps in any state random play reaches, under any options (hypothesis, a bounded
number of examples per engine): a state survives dump and load, `apply` never changes its input, and whatever is
not a legal action is refused with IllegalAction and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import all_engines
from engines.base import Engine, IllegalAction, State
from engines.rng import Rng

ENGINES = pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.name)
EXAMPLES = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_STEPS = 200


def option_values(engine: Engine) -> st.SearchStrategy[dict[str, Any]]:
    values = {}
    for option in engine.options:
        if option.choices:
            values[option.name] = st.sampled_from(option.choices)
        elif isinstance(option.default, bool):
            values[option.name] = st.booleans()
        else:
            values[option.name] = st.just(option.default)
    return st.fixed_dictionaries(values)


@st.composite
def game_states(draw: st.DrawFn, engine: Engine) -> State:
    """A state reached by up to MAX_STEPS random legal moves from a random deal."""
    players = draw(st.integers(engine.min_players, engine.max_players), label="players")
    options = engine.validate_options(draw(option_values(engine), label="options"))
    state = engine.new_game(players, options, draw(st.integers(0, 2**48), label="seed"))
    chooser = Rng.from_seed(draw(st.integers(0, 2**48), label="moves"))
    for _ in range(draw(st.integers(0, MAX_STEPS), label="steps")):
        if engine.outcome(state) is not None:
            break
        seat = chooser.choice(sorted(engine.to_act(state)))
        state, _ = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
    return state


scalars = st.one_of(st.integers(-5, 300), st.text(max_size=12), st.none())


@st.composite
def near_actions(draw: st.DrawFn, legal: list[dict[str, Any]]) -> Any:
    """Anything a client could send: a legal action with a parameter changed, added or removed, or junk."""
    kind = draw(st.integers(0, 3))
    if kind == 0 or not legal:
        return draw(
            st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(st.text(max_size=8), scalars))
        )
    action = dict(draw(st.sampled_from(legal)))
    if kind == 1:
        action[draw(st.sampled_from(sorted(action)))] = draw(scalars)
    elif kind == 2:
        action[draw(st.text(max_size=8))] = draw(scalars)
    else:
        action.pop(draw(st.sampled_from(sorted(action))))
    return action


@ENGINES
def test_dump_and_load_give_back_the_same_state(engine: Engine):
    @EXAMPLES
    @given(game_states(engine))
    def check(state: State) -> None:
        text = engine.dump(state)
        assert engine.load(text) == state
        assert engine.dump(engine.load(text)) == text

    check()


@ENGINES
def test_apply_leaves_its_input_alone(engine: Engine):
    @EXAMPLES
    @given(game_states(engine), st.integers(0, 2**32))
    def check(state: State, pick: int) -> None:
        if engine.outcome(state) is not None:
            return
        before = engine.dump(state)
        seat = sorted(engine.to_act(state))[pick % len(engine.to_act(state))]
        actions = engine.legal_actions(state, seat)
        after, events = engine.apply(state, seat, actions[pick % len(actions)])
        assert engine.dump(state) == before
        assert after is not state and all("type" in e for e in events)

    check()


@ENGINES
def test_what_is_not_legal_is_refused_and_changes_nothing(engine: Engine):
    @EXAMPLES
    @given(st.data())
    def check(data: st.DataObject) -> None:
        state = data.draw(game_states(engine), label="state")
        seat = data.draw(st.integers(0, engine.player_count(state) - 1), label="seat")
        legal = engine.legal_actions(state, seat)
        action = data.draw(near_actions(legal), label="action")
        if action in legal or (isinstance(action, dict) and action in engine.side_actions(state, seat)):
            return
        before = engine.dump(state)
        with pytest.raises(IllegalAction) as refused:
            engine.apply(state, seat, action)
        assert isinstance(refused.value.code, str) and refused.value.code
        assert engine.dump(state) == before

    check()
