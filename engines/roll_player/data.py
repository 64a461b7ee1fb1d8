"""Roll Player's components, loaded once from data/*.json and indexed by id.

Every card, race, class, backstory and alignment is a data entry; the engine interprets their "effect" dicts. Entries
that no rulebook confirms carry "provisional": true and a note, so an owner of the game can correct them in the JSON.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def _load(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(f"data/{name}.json").read_text(encoding="utf-8"))


DICE: dict[str, Any] = _load("dice")
RACES: dict[str, dict[str, Any]] = {race["id"]: race for race in _load("races")}
CLASSES: dict[str, dict[str, Any]] = {cls["id"]: cls for cls in _load("classes")}
_BACKSTORY_FILE: dict[str, Any] = _load("backstories")
BACKSTORIES: dict[str, dict[str, Any]] = {card["id"]: card for card in _BACKSTORY_FILE["cards"]}
BACKSTORY_SCORING: list[dict[str, int]] = _BACKSTORY_FILE["scoring"]
_ALIGNMENT_FILE: dict[str, Any] = _load("alignments")
ALIGNMENTS: dict[str, dict[str, Any]] = {card["id"]: card for card in _ALIGNMENT_FILE["cards"]}
ALIGNMENT_START: int = _ALIGNMENT_FILE["start"]
INITIATIVE: list[dict[str, Any]] = _load("initiative")
_MARKET_FILE: dict[str, Any] = _load("market")
CARDS: dict[str, dict[str, Any]] = {card["id"]: card for card in _MARKET_FILE["cards"]}
ARMOR_SETS: dict[str, dict[str, Any]] = {entry["id"]: entry for entry in _MARKET_FILE["armor_sets"]}
SOLO: dict[str, Any] = _load("solo")

ATTRIBUTES: list[str] = [attr["id"] for attr in DICE["attributes"]]
ROW_ACTION: dict[str, str] = {attr["id"]: attr["action"] for attr in DICE["attributes"]}
COLOURS: list[str] = [colour["id"] for colour in DICE["colours"]]
CLASS_COLOURS: list[str] = [c for c in COLOURS if c != "gold"]
COLOUR_COUNTS: dict[str, int] = {colour["id"]: colour["count"] for colour in DICE["colours"]}
SLOTS: int = DICE["slots_per_row"]
CARD_TYPES: tuple[str, ...] = ("weapon", "armor", "trait", "skill")
# Die positions on a sheet, as one scalar each ("str1".."cha3"), so a choice of die is a single button.
POSITIONS: list[str] = [f"{attr}{slot + 1}" for attr in ATTRIBUTES for slot in range(SLOTS)]
# Alignment grid cells are row-major: rows good/neutral/evil, columns lawful/neutral/chaotic.
DIRECTIONS: dict[str, tuple[int, int]] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
ALIGNMENT_ROWS: tuple[str, ...] = ("good", "neutral", "evil")
ALIGNMENT_COLUMNS: tuple[str, ...] = ("lawful", "neutral", "chaotic")


def class_ability(class_id: str | None) -> dict[str, Any]:
    return CLASSES[class_id]["ability"]["effect"] if class_id else {}
