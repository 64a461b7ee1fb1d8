"""Every Talisman data file is well formed, complete against the rulebook's component counts, and uses only
effects and abilities the engine interprets."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engines.talisman import data, rules

ABILITIES = {
    "assassinate",
    "start_spells",
    "forest_spells",
    "guide",
    "mines_dice",
    "evade_in",
    "psychic_attack",
    "feast",
    "evade_types",
    "no_weapons",
    "unarmed_bonus",
    "spirit_bonus",
    "chapel_spell",
    "card_swap",
    "beguile",
    "steal",
    "regenerate",
    "two_dice_battle",
    "two_weapons",
}
PASSIVES = {
    "carry",
    "armour",
    "weapon",
    "raft_builder",
    "desert_safe",
    "raft",
    "talisman",
    "hag",
    "slow",
    "alchemist",
    "portal_craft_dice",
    "mines_dice",
    "guide",
    "evade_in",
    "craft",
    "strength",
    "hire",
    "battle_bonus",
    "royal",
    "amulet",
    "cross",
    "chapel_safe_evil",
    "graveyard_safe_good",
    "forbid",
    "card_swap",
    "potion",
    "wand",
    "dragon_bonus",
    "life_steal",
    "creature_bonus",
    "no_object_bonus",
    "no_magic",
    "stop",
    "requires",
}
SERVICES = {"buy", "heal", "roll", "sell_objects", "royal_heal", "exchange_royal"}


def _ops(node: Any) -> list[str]:
    """Every effect op named anywhere inside a data entry."""
    found = []
    if isinstance(node, dict):
        if "op" in node:
            found.append(node["op"])
        for value in node.values():
            found += _ops(value)
    elif isinstance(node, list):
        for value in node:
            found += _ops(value)
    return found


def _entries() -> list[dict[str, Any]]:
    return (
        list(data.ADVENTURE.values())
        + list(data.SPELLS.values())
        + list(data.PURCHASE.values())
        + list(data.CHARACTERS.values())
        + data.SPACES
        + [data.TALISMAN]
    )


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: e["id"])
def test_entry_has_names_in_every_language_and_provisional_notes(entry):
    assert entry["name"]["en"] and entry["name"]["ko"] and entry["name"]["es"]
    if entry.get("provisional"):
        assert entry.get("note")


def _worded(node: Any, key: str = "") -> list[tuple[str, dict[str, str]]]:
    """Every name or text anywhere in a data file, as (its field, the dict keyed by language)."""
    if isinstance(node, dict):
        if "en" in node:
            return [(key, node)]
        return [found for field, value in node.items() for found in _worded(value, field)]
    if isinstance(node, list):
        return [found for value in node for found in _worded(value, key)]
    return []


WORDED = [
    found
    for file in (
        data.ADVENTURE_FILE,
        data.SPELLS_FILE,
        data.PURCHASE_FILE,
        data.CHARACTERS_FILE,
        data.SPACES_FILE,
        data.TALISMAN_FILE,
    )
    for found in _worded(file)
]


def _numbers(text: str) -> list[str]:
    return sorted(re.findall(r"\d+", text))


def test_every_name_and_text_is_in_english_korean_and_spanish_with_the_same_numbers():
    names = [words for field, words in WORDED if field == "name"]
    texts = [words for field, words in WORDED if field == "text"]
    # every entry, the Toad, the Command Spell and the alignment card; every Spell's text
    assert len(names) == len(_entries()) + 3 and len(texts) == len(data.SPELLS)
    for _, words in WORDED:
        assert set(words) == {"en", "ko", "es"}, words
        assert all(text.strip() for text in words.values()), words
        english = _numbers(words["en"])
        assert _numbers(words["es"]) == english, words
        # Korean counts things with numerals ("1개") where English writes "one", so it may show more of them.
        assert all(_numbers(words["ko"]).count(n) >= english.count(n) for n in english), words


def test_one_spanish_name_means_one_thing():
    """Two components share a Spanish name only when they share the English one (spaces of one kind)."""
    english_of: dict[str, set[str]] = {}
    for field, words in WORDED:
        if field == "name":
            english_of.setdefault(words["es"], set()).add(words["en"])
    assert {es: en for es, en in english_of.items() if len(en) > 1} == {}
    assert english_of["Hechicero"] == {"Sorcerer"} and english_of["Cueva del Brujo"] == {"Warlock's Cave"}


def test_ids_are_unique_within_each_file():
    for family in (
        data.ADVENTURE_FILE["adventure"],
        data.SPELLS_FILE["spells"],
        data.PURCHASE_FILE["purchase"],
        data.CHARACTERS_FILE["characters"],
        data.SPACES,
    ):
        ids = [e["id"] for e in family]
        assert len(ids) == len(set(ids))


def test_component_counts_match_the_rulebook():
    assert sum(e["count"] for e in data.ADVENTURE.values()) == 104
    assert sum(e["count"] for e in data.SPELLS.values()) == 24
    assert sum(e["count"] for e in data.PURCHASE.values()) == 28
    assert data.TALISMAN["count"] == 4
    assert len(data.CHARACTERS) == 14
    assert data.TOAD["count"] == 4
    assert data.CHARACTERS_FILE["alignment_cards"]["count"] == 4


def test_board_has_24_16_8_spaces_and_the_crown():
    regions = [s["region"] for s in data.SPACES]
    assert (
        regions.count("outer"),
        regions.count("middle"),
        regions.count("inner"),
        regions.count("crown"),
    ) == (24, 16, 8, 1)
    assert [s["index"] for s in data.SPACES] == list(range(49))
    assert (
        data.SPACES[data.SENTINEL]["kind"] == "sentinel" and data.SPACES[data.BRIDGE_HILLS]["kind"] == "hills"
    )
    assert data.SPACES[data.PORTAL]["kind"] == "portal"


def test_characters_start_on_their_named_spaces_with_reference_stats():
    wizard = data.CHARACTERS["wizard"]
    assert (wizard["strength"], wizard["craft"], wizard["life"], wizard["fate"]) == (2, 5, 4, 3)
    for ch in data.CHARACTERS.values():
        assert data.SPACES[ch["start"]]["kind"] == ch["start_kind"]
        assert ch["alignment"] in ("good", "neutral", "evil")
        assert {a["code"] for a in ch["abilities"]} <= ABILITIES


def test_every_effect_op_is_interpreted():
    for entry in _entries():
        for name in _ops(entry):
            assert name in rules.OPS or name in rules.DRAW_OPS, f"{entry['id']}: unknown op {name}"


def test_every_passive_and_service_is_known():
    for entry in _entries():
        assert set(entry.get("passive", {})) <= PASSIVES, entry["id"]
        for svc in entry.get("services", []):
            assert svc["service"] in SERVICES


def test_enemies_have_a_strength_or_a_craft_and_adventure_types_are_known():
    for entry in data.ADVENTURE.values():
        assert entry["type"] in ("event", "enemy", "stranger", "follower", "object", "magic_object", "place")
        assert 1 <= entry["number"] <= 6
        if entry["type"] == "enemy":
            assert ("strength" in entry) != ("craft" in entry)


def test_spell_windows_are_known_and_limits_match_the_rulebook_example():
    windows = {
        "own_start",
        "own_after_move",
        "own_end",
        "other_turn_start",
        "combat",
        "defend",
        "life_loss",
        "spell_cast",
    }
    for spell in data.SPELLS.values():
        assert spell["windows"] and set(spell["windows"]) <= windows
        assert spell["text"]["en"] and spell["text"]["ko"] and spell["text"]["es"]
    assert [data.spell_limit(c) for c in range(1, 9)] == [0, 0, 1, 2, 2, 3, 3, 3]


def test_raft_crossings_face_each_other():
    for outer in data.OUTER:
        (middle,) = data.RAFT_TARGETS[outer]
        assert outer in data.RAFT_TARGETS[middle]
    assert data.RAFT_TARGETS[data.SENTINEL] == [data.BRIDGE_HILLS]
