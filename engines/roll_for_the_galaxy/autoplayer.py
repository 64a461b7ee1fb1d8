"""The built-in Roll for the Galaxy player. It reads only its seat's view: it scouts for new tiles while its
construction zones run low and otherwise takes the routine "auto" step wherever there is one (assign by the dice,
stock, produce, consume, recruit); `evaluate` judges a position by the points each empire would score now."""

from __future__ import annotations

from typing import Any

from engines.base import Action, View
from engines.rng import Rng
from engines.roll_for_the_galaxy import data as D

ROUTINE = (
    "auto_assign",
    "auto_explore",
    "auto_produce",
    "auto_ship",
    "auto_manage",
    "draw",
    "finish_explore",
)
TILES_WANTED = 3  # scout while fewer tiles than this wait in the construction zones
POINT_SCALE = 6.0  # a lead this many points is judged about three wins in four


def choose(view: View, actions: list[Action], rng: Rng) -> Action:
    me = view["seats"][view["viewer"]]
    if me["dev_size"] + me["world_size"] < TILES_WANTED:
        scout = next((a for a in actions if a["type"] == "scout"), None)
        if scout is not None:
            return scout
    for preferred in ROUTINE:
        for action in actions:
            if action["type"] == preferred:
                return action
    return actions[0]


def _points(seat: dict[str, Any]) -> float:
    """VP chips, tile costs on the tableau, and a little for goods waiting to be shipped and credits."""
    tiles = sum(D.side(entry["id"])["cost"] for entry in seat["tableau"])
    goods = sum(len(entry.get("goods", [])) for entry in seat["tableau"])
    return seat["vp"] + tiles + 0.5 * goods + 0.1 * seat["credits"]


def evaluate(view: View) -> float:
    points = [_points(seat) for seat in view["seats"]]
    mine = points.pop(view["viewer"])
    return (mine - max(points, default=0.0)) / POINT_SCALE
