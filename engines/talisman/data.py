"""Talisman component data, loaded once from the JSON files in data/ and indexed for the rules."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def _load(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(f"data/{name}").read_text(encoding="utf-8"))


SPACES_FILE: dict[str, Any] = _load("spaces.json")
CHARACTERS_FILE: dict[str, Any] = _load("characters.json")
SPELLS_FILE: dict[str, Any] = _load("spells.json")
PURCHASE_FILE: dict[str, Any] = _load("purchase.json")
TALISMAN_FILE: dict[str, Any] = _load("talisman.json")
ADVENTURE_FILE: dict[str, Any] = _load("adventure.json")

SPACES: list[dict[str, Any]] = SPACES_FILE["spaces"]
CHARACTERS: dict[str, dict[str, Any]] = {c["id"]: c for c in CHARACTERS_FILE["characters"]}
CHARACTER_IDS: list[str] = [c["id"] for c in CHARACTERS_FILE["characters"]]
TOAD: dict[str, Any] = CHARACTERS_FILE["toad"]
SPELL_LIMITS: list[dict[str, int]] = CHARACTERS_FILE["spell_limit"]
SPELLS: dict[str, dict[str, Any]] = {s["id"]: s for s in SPELLS_FILE["spells"]}
COMMAND: dict[str, Any] = SPELLS_FILE["command_spell"]
PURCHASE: dict[str, dict[str, Any]] = {p["id"]: p for p in PURCHASE_FILE["purchase"]}
MARKET_PRICES: dict[str, int] = PURCHASE_FILE["market_prices"]
TALISMAN: dict[str, Any] = TALISMAN_FILE["talisman"]
ADVENTURE: dict[str, dict[str, Any]] = {a["id"]: a for a in ADVENTURE_FILE["adventure"]}

# Board geometry: outer ring 0-23, middle ring 24-39, inner ring 40-47, the Crown 48.
OUTER = range(0, 24)
MIDDLE = range(24, 40)
INNER = range(40, 48)
CROWN = 48
SENTINEL, BRIDGE_HILLS = SPACES_FILE["links"]["bridge"]
PORTAL, PLAIN_OF_PERIL = SPACES_FILE["links"]["portal"]
VALLEY = SPACES_FILE["links"]["valley_to_crown"][0]
KIND_INDEX: dict[str, int] = {}
for _space in SPACES:
    KIND_INDEX.setdefault(_space["kind"], _space["index"])
TEMPLE = KIND_INDEX["temple"]
WARLOCK = KIND_INDEX["warlocks_cave"]


def region(space: int) -> str:
    return SPACES[space]["region"]


def ring_step(space: int, direction: int) -> int:
    """The neighbour of an outer, middle or inner space in a direction (+1 clockwise, -1 anticlockwise)."""
    if space in OUTER:
        return (space + direction) % 24
    if space in MIDDLE:
        return 24 + (space - 24 + direction) % 16
    return 40 + (space - 40 + direction) % 8


def _facing_middle(outer: int) -> int:
    # Both rings are squares with the same corners' orientation: outer sides have 5 spaces between corners,
    # middle sides 3, so an outer position is scaled onto its side of the middle ring.
    side, pos = divmod(outer, 6)
    return 24 + (side * 4 + round(pos * 4 / 6)) % 16


RAFT_TARGETS: dict[int, list[int]] = {o: [_facing_middle(o)] for o in OUTER}
for _m in MIDDLE:
    RAFT_TARGETS[_m] = [o for o in OUTER if _facing_middle(o) == _m]


def spell_limit(craft: int) -> int:
    limit = 0
    for row in SPELL_LIMITS:
        if craft >= row["craft_min"]:
            limit = row["spells"]
    return limit


def card_def(inst: dict[str, Any]) -> dict[str, Any]:
    """The data entry behind a card instance lying on the board or held by a character."""
    origin = inst["o"]
    if origin == "a":
        return ADVENTURE[inst["c"]]
    if origin == "p":
        return PURCHASE[inst["c"]]
    return TALISMAN


def card_kind(inst: dict[str, Any]) -> str:
    """event, enemy, stranger, follower, object, magic_object or place."""
    entry = card_def(inst)
    return entry.get("type") or entry["kind"]


def passive(inst: dict[str, Any]) -> dict[str, Any]:
    return card_def(inst).get("passive", {})
