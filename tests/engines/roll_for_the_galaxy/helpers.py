"""Hand-made Roll for the Galaxy states for rule tests: blank seats, chosen tiles, one phase at a time."""

from __future__ import annotations

from typing import Any

from engines.base import Action, Event, State
from engines.roll_for_the_galaxy import ENGINE
from engines.roll_for_the_galaxy import engine as E
from engines.roll_for_the_galaxy.data import PHASES, TILE_SIDES


def blank(players: int = 2, seed: int = 3) -> State:
    """A game whose seats own nothing: empty tableaus, stacks, cups; $1 each. Tests add what they need."""
    state = ENGINE.new_game(players, {"first_game": True}, seed)
    for p in state["seats"]:
        p.update(
            tableau=[],
            dev_stack=[],
            world_stack=[],
            dev_workers=[],
            world_workers=[],
            cup=[],
            citizenry=[],
            credits=1,
            vp=0,
            dice=[],
            ready=True,
            rows={ph: [] for ph in PHASES},
            task=None,
        )
    return state


def own(state: State, seat: int, *sides: str, goods: dict[str, list[str]] | None = None) -> None:
    for side_id in sides:
        state["seats"][seat]["tableau"].append({"id": side_id, "goods": list((goods or {}).get(side_id, []))})


def tile_of(side_id: str) -> str:
    return next(t for t, sides in TILE_SIDES.items() if side_id in sides.values())


def begin(state: State, phase: str, rows: dict[int, list[str]] | None = None) -> list[Event]:
    """Start `phase` as the only phase this round, with the given workers in each seat's row."""
    for seat, workers in (rows or {}).items():
        state["seats"][seat]["rows"][phase] = list(workers)
    state["phases"] = [phase]
    events: list[Event] = []
    E._begin_stage(state, phase, events)
    return events


def finish(state: State) -> list[Event]:
    """Let the engine move on as far as it can (end-of-phase powers, then manage)."""
    events: list[Event] = []
    E._progress(state, events)
    return events


def act(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    return ENGINE.apply(state, seat, action)


def credits_from(events: list[Event], seat: int, reason: str) -> int:
    return sum(
        e["amount"]
        for e in events
        if e["type"] == "CreditsGained" and e["seat"] == seat and e["reason"] == reason
    )


def vp_from(events: list[Event], seat: int, reason: str) -> int:
    return sum(
        e["amount"] for e in events if e["type"] == "VpGained" and e["seat"] == seat and e["reason"] == reason
    )


def roll(state: State, seat: int, dice: list[tuple[str, str]]) -> None:
    """Put seat `seat` in assignment with exactly these (colour, face) dice; everybody else is ready."""
    state["stage"] = "assign"
    for other, p in enumerate(state["seats"]):
        p["ready"] = other != seat
        p["dice"] = []
        p["task"] = None
    p = state["seats"][seat]
    p["dice"] = [{"c": c, "f": f, "at": None} for c, f in dice]
    E._reset_assignment(p)


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    return ENGINE.legal_actions(state, seat)
