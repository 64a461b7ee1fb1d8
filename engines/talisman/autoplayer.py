"""The built-in Talisman player (empty seats, leavers, missed deadlines): cautious and simple. It reads only
the seat's own view and the legal actions, declines other players' windows, casts Spells only to win its own
fights or to heal itself, fights what it cannot evade, keeps what it finds and heals when it can."""

from __future__ import annotations

from typing import Any

from engines.rng import Rng
from engines.talisman.data import CHARACTERS

Action = dict[str, Any]

# Spells that help in one's own battle, best first.
BATTLE_SPELLS = ("psionic_blast", "invisibility", "immobility")
# Spells cast on oneself.
SELF_SPELLS = ("healing", "preservation")

# The preferred answer of each kind of "either" choice, best first.
CHOICES = (
    "pay",
    "evade",
    "skip",
    "heal",
    "replenish",
    "commune",
    "pray",
    "decline",
    "stay",
    "strength",
    "craft",
    "life",
    "spell",
    "fate",
    "gold",
)


def _first(actions: list[Action], *types: str) -> Action | None:
    for kind in types:
        for action in actions:
            if action["type"] == kind:
                return action
    return None


def choose(view: dict[str, Any], actions: list[Action], rng: Rng) -> Action:
    seat = view["viewer"]
    me = view["chars"][seat] if seat is not None else None
    kind = (view.get("prompt") or {}).get("kind")
    if kind == "either":
        options = {a["option"]: a for a in actions}
        for option in CHOICES:
            if option in options:
                return options[option]
    if me is not None:
        spell = _spell_to_cast(me, kind, {a["spell"]: a for a in actions if a["type"] == "cast_spell"})
        if spell is not None:
            return spell
    if kind == "spell_target":
        targets = [a for a in actions if a["type"] == "target"]
        own = [a for a in targets if a["seat"] == seat]
        if view["prompt"].get("spell") in SELF_SPELLS and own:
            return own[0]
        others = [a for a in targets if a["seat"] != seat]
        if others:
            return rng.choice(others)
    if kind == "route" and me is not None:
        # Only cross the Sentinel's bridge with a fair chance against Strength 9.
        safe = [
            a for a in actions if "x" not in a["route"].split("-") or me["space"] >= 24 or me["strength"] >= 7
        ]
        portal = [a for a in safe if a["route"].endswith("p")]
        if portal and max(me["strength"], me["craft"]) >= 9:
            return portal[0]
        return rng.choice([a for a in safe if not a["route"].endswith("p")] or actions)
    if kind == "portal" and me is not None:
        return {"type": "open_portal", "stat": "strength" if me["strength"] >= me["craft"] else "craft"}
    if kind == "start" and me is not None and me["life"] <= 2:
        pick = _first(actions, "turn_back")
        if pick:
            return pick
    if kind == "shop" and me is not None:
        pick = _first(actions, "royal_heal", "heal")
        if pick:
            return pick
    pick = _first(
        actions,
        "decline",
        "accept_roll",
        "cast_command",
        "fight_on",
        "face_death",
        "step",
        "roll_move",
        "move_one",
        "encounter",
        "encounter_space",
        "evade",
        "pay_off",
        "use_cross",
        "fight",
        "draw_cards",
        "keep_cards",
        "take",
        "take_life",
        "trade_trophies",
        "end_turn",
        "sacrifice",
        "accept_loss",
        "take_gold",
        "take_card",
        "keep",
        "done",
        "cancel",
        "pass",
        "choose_bonus",
        "choose_character",
        "drop",
        "discard_spell",
        "discard_follower",
        "stand",
    )
    return pick if pick is not None else rng.choice(actions)


def _spell_to_cast(me: dict[str, Any], kind: str | None, casts: dict[str, Action]) -> Action | None:
    if kind == "combat":
        for spell in BATTLE_SPELLS:
            if spell in casts:
                return casts[spell]
    if "healing" in casts and not me["toad"] and me["life"] < CHARACTERS[me["id"]]["life"]:
        return casts["healing"]
    return None
