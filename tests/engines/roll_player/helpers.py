"""Hand-made Roll Player states for rule tests: tables in the dice or market phase, sheets filled at will, and
chance steered by searching for a PRNG state that gives the wanted result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engines import get_engine
from engines.base import IllegalAction
from engines.roll_player.data import ALIGNMENT_START, ATTRIBUTES, CARD_TYPES, CARDS

ENGINE = get_engine("roll_player")

State = dict[str, Any]


def game(players: int, seed: int = 1, **options: Any) -> State:
    return ENGINE.new_game(players, ENGINE.validate_options(options), seed)


def act(state: State, action: dict[str, Any], seat: int | None = None) -> tuple[State, list[dict[str, Any]]]:
    """Apply an action that must be among the legal ones."""
    seat = ENGINE.to_act(state)[0] if seat is None else seat
    assert action in ENGINE.legal_actions(state, seat), (action, ENGINE.legal_actions(state, seat))
    return ENGINE.apply(state, seat, action)


def refused(state: State, action: dict[str, Any], code: str, seat: int | None = None) -> IllegalAction:
    """The action is refused with `code` and the state is left as it was."""
    seat = ENGINE.to_act(state)[0] if seat is None else seat
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, seat, action)
    assert error.value.code == code, error.value
    assert ENGINE.dump(state) == before
    return error.value


def rigged(
    state: State,
    action: dict[str, Any],
    check: Callable[[State, list[dict[str, Any]]], bool],
    seat: int | None = None,
) -> tuple[State, list[dict[str, Any]]]:
    """Apply `action` from the first PRNG state whose result passes `check` (the PRNG is one integer in the
    state, so a short search steers any die roll)."""
    for start in range(1, 50_000):
        state["rng"] = start
        after, events = act(state, action, seat)
        if check(after, events):
            return after, events
    raise AssertionError("no PRNG state gives the wanted result")


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def sheet(**rows: list[list[Any]]) -> dict[str, list[list[Any]]]:
    """Rows of [colour, value] dice; rows not given are empty."""
    return {attr: [list(die) for die in rows.get(attr, [])] for attr in ATTRIBUTES}


def full_sheet(colour: str = "gold", value: int = 1, **rows: list[list[Any]]) -> dict[str, list[list[Any]]]:
    """Every row full of `colour` dice showing `value`, except the rows given."""
    return sheet(**{attr: rows.get(attr, [[colour, value]] * 3) for attr in ATTRIBUTES})


def table(classes: list[str], dice: list[list[Any]] | None = None, seed: int = 1, **options: Any) -> State:
    """A game past set-up, at the first pick of the dice phase with seat 0 as start player: human characters
    of the given classes, empty sheets, 5 gold each, no cards, and `dice` on the initiative cards (lowest
    first)."""
    state = game(len(classes), seed, **options)
    for seat, me in enumerate(state["seats"]):
        me.update(race="human", gold=5, token=ALIGNMENT_START, rows=sheet(), exhausted=[], discounts=0)
        me["class"] = classes[seat]
        me["cards"] = {kind: [] for kind in CARD_TYPES}
    state.update(phase="dice", round=1, start=0, queue=[], step="pick", turn_index=0, window_checked=True)
    for card, die in zip(state["initiative"], dice or [], strict=False):
        card["die"] = list(die)
        state["bag"][die[0]] -= 1
    return state


def market_table(
    classes: list[str], market: list[str], order: list[int] | None = None, **options: Any
) -> State:
    """A table in the market phase: `market` face up, seats visiting in `order` (by default seat order)."""
    state = table(classes, **options)
    order = list(range(len(classes))) if order is None else order
    for card in market:
        take_out(state, card)
    state["market"] = list(market)
    for rank, seat in enumerate(order):
        state["seats"][seat]["initiative"] = rank + 1
        state["initiative"][rank]["owner"] = seat
    state.update(phase="market", market_order=order, market_index=0, turn_index=len(classes))
    return state


def take_out(state: State, card: str) -> None:
    for pile in (state["deck"], state["discard"], state["market"], state["sold_out"]):
        if card in pile:
            pile.remove(card)


def give(state: State, seat: int, *cards: str) -> None:
    """Put market cards straight into a seat's areas (taking them out of every pile)."""
    for card in cards:
        take_out(state, card)
        state["seats"][seat]["cards"][CARDS[card]["type"]].append(card)
