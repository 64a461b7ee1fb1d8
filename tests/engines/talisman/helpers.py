"""Hand-made Talisman states for rule tests: a quiet table, characters placed at will, and rigged dice."""

from __future__ import annotations

from typing import Any

from engines import get_engine
from engines.rng import Rng
from engines.talisman import rules
from engines.talisman.data import CHARACTER_IDS
from engines.talisman.model import new_inst

talisman = get_engine("talisman")


def rig(state: dict[str, Any], dice: list[int]) -> None:
    """Set the state's PRNG so that its next dice are exactly `dice` (found by search: the PRNG is a plain
    integer, so some starting value yields any short sequence)."""
    for start in range(1, 2_000_000):
        rng = Rng(start)
        if all(rng.die() == want for want in dice):
            state["rng"] = start
            return
    raise AssertionError(f"no PRNG state gives {dice}")


def table(characters: list[str], options: dict[str, Any] | None = None, seed: int = 3) -> dict[str, Any]:
    """A game with the given characters, no Spells in hand, nothing on the board, seat 0 about to start."""
    state = talisman.new_game(len(characters), talisman.validate_options(options or {}), seed)
    state["p"] = None
    state["q"] = []
    state["board"] = {}
    state["unused"] = [c for c in CHARACTER_IDS if c not in characters]
    for seat, cid in enumerate(characters):
        ch = rules.new_character(state, seat, cid, [])
        state["spl"] += ch["spells"]
        ch["spells"] = []
    state["seat"] = 0
    return state


def start_turn(state: dict[str, Any], seat: int = 0) -> list[dict[str, Any]]:
    """Begin `seat`'s turn and run until the first prompt."""
    state["seat"] = seat
    state["p"] = None
    state["q"] = []
    events: list[dict[str, Any]] = []
    rules.begin_turn(state, events)
    rules.run(state, events)
    return events


def act(state: dict[str, Any], action: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    seat = talisman.to_act(state)[0]
    return talisman.apply(state, seat, action)


def arrive(state: dict[str, Any], space: int, die: int = 1) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Seat 0 rolls `die` and moves onto `space`, which lies that far clockwise in its ring, and encounters it
    (holding Spells, it is first asked whether to cast one)."""
    ch = state["chars"][0]
    ch["space"], ch["fate"] = (space - die) % 24 if space < 24 else 24 + (space - 24 - die) % 16, 0
    start_turn(state)
    rig(state, [die])
    state, _ = act(state, {"type": "roll_move"})
    state, events = act(state, {"type": "move", "route": "cw", "to": space})
    if state["p"] and state["p"]["k"] == "after_move":
        state, events = act(state, {"type": "encounter"})
    return state, events


def give(state: dict[str, Any], seat: int, card: str, origin: str = "a") -> dict[str, Any]:
    inst = new_inst(state, card, origin)
    ch = state["chars"][seat]
    kind = rules.card_kind(inst)
    attached = rules.passive(inst).get("hag") or rules.passive(inst).get("slow")  # events kept as Followers
    (ch["fol"] if kind == "follower" or attached else ch["items"]).append(inst)
    return inst


def place(state: dict[str, Any], space: int, card: str) -> dict[str, Any]:
    inst = new_inst(state, card, "a")
    rules.put_on_board(state, space, inst)
    return inst


def on_top(state: dict[str, Any], *cards: str) -> None:
    """Put adventure cards on top of the deck, the first named drawn first."""
    for card in reversed(cards):
        state["adv"].append(card)


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]
