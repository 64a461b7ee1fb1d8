"""Rule helpers shared by the engine, its scoring and its tests: powers, costs, credits, chips and dice.

Every function works on the plain game state; `p` is one seat's part of it (state["seats"][seat]).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from engines.base import Event, State
from engines.rng import Rng
from engines.roll_for_the_galaxy import data as D

Seat = dict[str, Any]
WILD = "wild"
COLOR_RANK = {color: i for i, color in enumerate(D.COLORS)}
# When a power lets some used workers skip the Citizenry, send the most flexible dice (most wild faces) to the
# cup.
CUP_PREFERENCE = ["yellow", "green", "purple", "brown", "blue", "red", "white"]


def sort_colors(colors: Iterable[str]) -> list[str]:
    return sorted(colors, key=COLOR_RANK.__getitem__)


def rand_below(state: State, n: int) -> int:
    rng = Rng(state["rng"])
    value = rng.below(n)
    state["rng"] = rng.state
    return value


def roll_face(state: State, color: str) -> str:
    return D.FACES[color][rand_below(state, 6)]


# --- powers -------------------------------------------------------------------------------------------------


def developments(p: Seat) -> list[str]:
    return [e["id"] for e in p["tableau"] if D.KIND[e["id"]] == "development"]


def worlds(p: Seat) -> list[dict[str, Any]]:
    return [e for e in p["tableau"] if D.KIND[e["id"]] == "world"]


def powers_of(p: Seat, when: str, effect: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(side id, power) for every power in `p`'s tableau that works at `when` (and has `effect`, if given)."""
    index = D.POWER_INDEX
    return [
        (e["id"], power)
        for e in p["tableau"]
        if e["id"] in index
        for power in index[e["id"]].get(when, ())
        if effect is None or power["effect"] == effect
    ]


def consume_vp(shipper: str, good: str, world_color: str) -> int:
    """1 chip, +1 if the good matches the world, +1 if the shipper does; purple matches every colour."""
    return 1 + (good in (world_color, "purple")) + (shipper in (world_color, "purple"))


def dictate_count(p: Seat) -> int:
    """Workers one on Dictate may move: one, or as a power says (Galactic Mandate)."""
    return max([power["max"] for _, power in powers_of(p, "assign", "dictate_count")], default=1)


def trade_price(p: Seat, world_color: str) -> int:
    """What trading a good from a world of this colour pays `p`: the price table and its trade bonuses."""
    return D.TRADE_PRICE[world_color] + sum(
        power["credits"]
        for _, power in powers_of(p, "ship", "trade_bonus")
        if world_color in power.get("world_colors", [world_color])
    )


def consume_gain(p: Seat, shipper: str, good: str, world_color: str) -> tuple[int, int]:
    """The VP and credits consuming a good pays `p`: its chips and its consume bonuses."""
    bonus = [
        power
        for _, power in powers_of(p, "ship", "consume_bonus")
        if world_color in power.get("world_colors", [world_color])
    ]
    vp = consume_vp(shipper, good, world_color) + sum(power.get("vp", 0) for power in bonus)
    return vp, sum(power.get("credits", 0) for power in bonus)


def has_power(p: Seat, when: str, effect: str) -> bool:
    return bool(powers_of(p, when, effect))


def owns(p: Seat, side_id: str) -> bool:
    return any(e["id"] == side_id for e in p["tableau"])


def good_capacity(p: Seat, world_id: str) -> int:
    if D.side(world_id)["color"] == "grey":
        return 0
    capacity = 1
    for _, power in powers_of(p, "always", "good_capacity"):
        capacity = max(capacity, power["amount"])
    return capacity


def free_slots(p: Seat) -> dict[str, int]:
    """The worlds with room for a good, in tableau order, and how many more each holds."""
    return {e["id"]: room for e in worlds(p) if (room := good_capacity(p, e["id"]) - len(e["goods"])) > 0}


def spaces(p: Seat) -> int:
    """Tableau spaces for the game end: every tile is one, a faction tile (two halves) two."""
    return len(p["tableau"])


# --- costs --------------------------------------------------------------------------------------------------


def _reduction_applies(power: dict[str, Any], side_id: str) -> bool:
    data = D.side(side_id)
    target = power["target"]
    if target == "reassign_development":
        return D.is_reassign_development(side_id)
    if target != data["kind"]:
        return False
    return "colors" not in power or data.get("color") in power["colors"]


def build_cost(p: Seat, side_id: str) -> int:
    """Workers needed to complete `side_id` now. Reductions with a higher floor go first, so Free Trade
    Zone then Replicant Robots take a 3- or 4-cost grey world to 1, as the rulebook's example says; never
    below one worker."""
    cost = D.side(side_id)["cost"]
    phase = "develop" if D.side(side_id)["kind"] == "development" else "settle"
    reductions = [
        power for _, power in powers_of(p, phase, "cost_reduction") if _reduction_applies(power, side_id)
    ]
    for power in sorted(reductions, key=lambda pw: -pw["floor"]):
        cost = max(cost - power["amount"], min(cost, power["floor"]))
    return max(1, cost)


# --- credits, chips, dice -----------------------------------------------------------------------------------


def gain_credits(state: State, seat: int, amount: int, events: list[Event], reason: str) -> None:
    if amount <= 0:
        return
    p = state["seats"][seat]
    before = p["credits"]
    p["credits"] = min(D.RULES["credit_cap"], before + amount)
    events.append(
        {"type": "CreditsGained", "seat": seat, "amount": amount, "credits": p["credits"], "reason": reason}
    )


def gain_vp(state: State, seat: int, amount: int, events: list[Event], reason: str) -> None:
    """Chips come from the pool while it lasts; after that the 10-point chips keep paying (and the game
    will end)."""
    if amount <= 0:
        return
    from_pool = min(amount, state["vp_pool"])
    state["vp_pool"] -= from_pool
    state["seats"][seat]["vp"] += amount
    events.append(
        {
            "type": "VpGained",
            "seat": seat,
            "amount": amount,
            "vp": state["seats"][seat]["vp"],
            "reason": reason,
            "pool": state["vp_pool"],
        }
    )


def take_from_supply(state: State, color: str, count: int) -> int:
    given = min(count, state["supply"][color])
    state["supply"][color] -= given
    return given


def owned_dice(p: Seat) -> list[str]:
    dice = p["cup"] + p["citizenry"] + p["dev_workers"] + p["world_workers"]
    for entry in p["tableau"]:
        dice += entry["goods"]
    for row in p.get("rows", {}).values():
        dice += row
    dice += [d["c"] for d in p.get("dice", [])]
    task = p.get("task") or {}
    for key in ("queue", "producers"):
        dice += task.get(key, [])
    for key in ("explorers", "shippers"):
        dice += [w["c"] for w in task.get(key, []) if not w["v"]]
    return dice


def blue_worlds(p: Seat) -> int:
    return sum(1 for e in worlds(p) if D.side(e["id"])["color"] == "blue")


def ceil_div(a: int, b: int) -> int:
    return math.ceil(a / b)
