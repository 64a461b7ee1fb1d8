"""The game's components, loaded once from data/*.json and indexed for the engine.

Every development or world half (game tiles, faction halves, home worlds) is a "side" with a unique id; the
engine stores side ids in tableaus and tile ids ("t01".."t55") in construction stacks and the bag.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"


def _load(name: str) -> Any:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


DICE: list[dict[str, Any]] = _load("dice.json")
TILES: list[dict[str, Any]] = _load("tiles.json")
FACTIONS: list[dict[str, Any]] = _load("factions.json")
HOME_WORLDS: list[dict[str, Any]] = _load("home_worlds.json")
RULES: dict[str, Any] = _load("rules.json")

PHASES: list[str] = RULES["phases"]
COLORS: list[str] = [d["id"] for d in DICE]
FACES: dict[str, list[str]] = {d["id"]: d["faces"] for d in DICE}
DIE_COUNTS: dict[str, int] = {d["id"]: d["count"] for d in DICE}
TRADE_PRICE: dict[str, int] = RULES["trade_price"]

# side id -> the side's data plus "kind" ("development" / "world") and where it comes from.
SIDES: dict[str, dict[str, Any]] = {}
# tile id -> {"development": side id, "world": side id}
TILE_SIDES: dict[str, dict[str, str]] = {}
FACTION_SIDES: dict[str, list[str]] = {}
HOME_IDS: list[str] = [h["id"] for h in HOME_WORLDS]


def _index() -> None:
    for tile in TILES:
        TILE_SIDES[tile["id"]] = {}
        for kind in ("development", "world"):
            side = dict(tile[kind], kind=kind, tile=tile["id"])
            SIDES[side["id"]] = side
            TILE_SIDES[tile["id"]][kind] = side["id"]
    for faction in FACTIONS:
        FACTION_SIDES[faction["id"]] = []
        for half in faction["halves"]:
            SIDES[half["id"]] = dict(half, faction=faction["id"])
            FACTION_SIDES[faction["id"]].append(half["id"])
    for home in HOME_WORLDS:
        SIDES[home["id"]] = dict(home, kind="world", home=True)


_index()

# side id -> when -> powers, so the engine's frequent "which powers work now" questions are dictionary
# look-ups.
POWER_INDEX: dict[str, dict[str, list[dict[str, Any]]]] = {}
for _side_id, _data in SIDES.items():
    for _power in _data.get("powers", []):
        POWER_INDEX.setdefault(_side_id, {}).setdefault(_power["when"], []).append(_power)
KIND: dict[str, str] = {side_id: data["kind"] for side_id, data in SIDES.items()}

TILE_IDS: list[str] = sorted(TILE_SIDES)
FACTION_IDS: list[str] = [f["id"] for f in FACTIONS]


def side(side_id: str) -> dict[str, Any]:
    return SIDES[side_id]


def powers(side_id: str) -> list[dict[str, Any]]:
    return SIDES[side_id].get("powers", [])


def is_reassign_development(side_id: str) -> bool:
    """A development whose power is used while assigning (the rulebook's "Reassign powers")."""
    data = SIDES[side_id]
    return data["kind"] == "development" and any(p["when"] == "assign" for p in data.get("powers", []))
