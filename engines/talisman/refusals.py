"""Why a Talisman action is refused: a specific code for the common mistakes (the wrong phase, someone else's
turn, fate or gold that is not there, the Spell and carrying limits, a space out of reach), checked from the
broadest to the narrowest; the generic "action_not_expected" lists what may be done instead."""

from __future__ import annotations

from typing import Any

from engines.base import Action, IllegalAction, State
from engines.talisman import rules
from engines.talisman.data import PURCHASE, VALLEY
from engines.talisman.model import (
    at_glade,
    capacity,
    has_ability,
    has_talisman,
    in_inner,
    max_spells,
)

# Every code this module gives, with the parameters its message may use.
CODES: dict[str, tuple[str, ...]] = {
    "setup_in_progress": (),
    "setup_over": (),
    "character_not_offered": ("value",),
    "character_already_chosen": (),
    "choose_character_first": (),
    "not_your_turn_to_move": ("prompt",),
    "action_not_expected": ("action", "prompt", "expected"),
    "roll_first": (),
    "already_rolled": (),
    "cannot_reach": ("space", "steps"),
    "no_such_route": ("value",),
    "talisman_needed": (),
    "held_here": (),
    "cannot_step_there": ("value",),
    "spell_not_in_hand": ("spell",),
    "magic_destroyed": (),
    "no_spells_in_glade": (),
    "amulet_no_spells": (),
    "spell_cast_limit": (),
    "one_spell_out_of_turn": (),
    "spell_not_castable_now": ("spell",),
    "not_over_spell_limit": ("limit",),
    "spell_limit": ("limit",),
    "no_fate": (),
    "no_such_die": ("value",),
    "not_enough_gold": ("price", "gold"),
    "sold_out": ("item",),
    "not_for_sale": ("value",),
    "fate_full": (),
    "life_full": (),
    "already_bought": (),
    "no_spells_left": (),
    "not_over_item_limit": ("limit",),
    "cannot_evade": (),
    "cannot_attack": ("value",),
    "no_psychic_attack": (),
    "bad_target": ("value",),
    "bad_space": ("value",),
    "bad_choice": ("value",),
    "not_enough_trophies": ("rate",),
    "card_not_available": ("value",),
}
# What only the player whose turn it is may do; in another's turn a player only answers a prompt.
TURN_ACTIONS = frozenset(
    {
        "roll_move",
        "move_one",
        "move",
        "step",
        "turn_back",
        "fight_on",
        "face_death",
        "use_raft",
        "take_ferry",
        "take_teleport",
        "build_raft",
        "cast_command",
        "encounter",
        "draw_cards",
        "trade_trophies",
        "end_turn",
    }
)


def explain(state: State, seat: int, action: Action) -> IllegalAction:
    kind = action.get("type")
    if state["phase"] == "setup":
        return _setup(state, seat, action)
    if kind in ("choose_character", "choose_bonus"):
        return IllegalAction("setup_over")
    p = state["p"]
    ch = state["chars"][seat]
    legal = rules.legal(state, seat)
    offered = {a["type"] for a in legal}
    if kind == "cast_spell":
        return _spell(state, seat, action.get("spell"))
    if kind in offered:
        return _parameters(state, ch, p, action)
    if seat != state["seat"] and kind in TURN_ACTIONS:
        return IllegalAction("not_your_turn_to_move", prompt=p["k"])
    return _out_of_step(state, ch, p, action, offered) or IllegalAction(
        "action_not_expected", action=kind, prompt=p["k"], expected=",".join(sorted(offered))
    )


def _setup(state: State, seat: int, action: Action) -> IllegalAction:
    chosen = state["setup"]["chosen"][seat]
    kind = action.get("type")
    if kind == "choose_character":
        if chosen is not None:
            return IllegalAction("character_already_chosen")
        return IllegalAction("character_not_offered", value=action.get("character"))
    if kind == "choose_bonus":
        if chosen is None:
            return IllegalAction("choose_character_first")
        return IllegalAction("bad_choice", value=action.get("stat"))
    return IllegalAction("setup_in_progress")


def _spell(state: State, seat: int, spell: Any) -> IllegalAction:
    ch = state["chars"][seat]
    if spell not in ch["spells"]:
        return IllegalAction("spell_not_in_hand", spell=spell)
    if state["dmagic"] is not None:
        return IllegalAction("magic_destroyed")
    if at_glade(ch):
        return IllegalAction("no_spells_in_glade")
    if any(rules.passive(i).get("amulet") for i in ch["items"]):
        return IllegalAction("amulet_no_spells")
    if seat == state["seat"] and ch["casts_left"] <= 0:
        return IllegalAction("spell_cast_limit")
    if seat != state["seat"] and ch["ocast"] == state["turn"]:
        return IllegalAction("one_spell_out_of_turn")
    return IllegalAction("spell_not_castable_now", spell=spell)


def _out_of_step(
    state: State, ch: dict[str, Any], p: dict[str, Any], action: Action, offered: set[str]
) -> IllegalAction | None:
    """An action this prompt does not offer at all, for a reason worth telling."""
    kind = action.get("type")
    if kind == "reroll" and ch["fate"] <= 0:
        return IllegalAction("no_fate")
    if kind == "move" and "roll_move" in offered:
        return IllegalAction("roll_first")
    if kind == "roll_move" and p["k"] == "route":
        return IllegalAction("already_rolled")
    if kind == "step" and in_inner(ch):
        if ch["hold"] and not ch["back"]:
            return IllegalAction("held_here")
        if action.get("to") == VALLEY and not has_talisman(state, ch):
            return IllegalAction("talisman_needed")
    if kind == "discard_spell":
        return IllegalAction("not_over_spell_limit", limit=max_spells(state, ch))
    if kind == "drop":
        return IllegalAction("not_over_item_limit", limit=capacity(ch))
    if kind == "evade" and p["k"] == "combat":
        return IllegalAction("cannot_evade")
    if kind == "trade_trophies" and p["k"] == "end":
        return IllegalAction("not_enough_trophies", rate=state["opts"]["trophy_rate"])
    if kind == "pay_off" and p["k"] == "combat" and p["c"]["foe"].get("bribe"):
        return IllegalAction("not_enough_gold", price=p["c"]["foe"]["bribe"], gold=ch["gold"])
    if p["k"] == "shop":
        return _shop(state, ch, p, action)
    return None


def _shop(state: State, ch: dict[str, Any], p: dict[str, Any], action: Action) -> IllegalAction | None:
    kind = action.get("type")
    services = {svc["service"]: svc for svc in p["services"]}
    if kind == "buy" and "buy" in services:
        return _buy(state, ch, p, action.get("item"))
    wanted = {"buy_fate": "fate", "heal": "heal", "buy_spell": "spell", "train": "train"}.get(kind)
    if wanted not in services:
        return None
    svc = services[wanted]
    why = rules.service_closed(state, ch, p, svc)
    if why == "full_fate":
        return IllegalAction("fate_full")
    if why == "full_life":
        return IllegalAction("life_full")
    if why == rules.USED and kind == "buy_spell":
        return IllegalAction("already_bought")
    if why == "spell_limit":
        return IllegalAction("spell_limit", limit=max_spells(state, ch))
    if why == "no_spells":
        return IllegalAction("no_spells_left")
    if why == "short_of_gold":
        return IllegalAction("not_enough_gold", price=svc["price"], gold=ch["gold"])
    return IllegalAction("bad_choice", value=kind)  # e.g. healing beyond what this healer offers


def _parameters(state: State, ch: dict[str, Any], p: dict[str, Any], action: Action) -> IllegalAction:
    """An action this prompt offers, but not with these parameters."""
    kind = action["type"]
    if kind == "move":
        to = action.get("to")
        if any(option["to"] == to for option in p["options"]):
            return IllegalAction("no_such_route", value=action.get("route"))
        return IllegalAction("cannot_reach", space=to, steps=p["steps"])
    if kind == "step":
        if action.get("to") == VALLEY and not has_talisman(state, ch):
            return IllegalAction("talisman_needed")
        return IllegalAction("cannot_step_there", value=action.get("to"))
    if kind in ("turn_back", "use_raft"):
        return IllegalAction("cannot_step_there", value=action.get("to"))
    if kind == "buy":
        return _buy(state, ch, p, action.get("item"))
    if kind == "reroll":
        return IllegalAction("no_such_die", value=action.get("die"))
    if kind == "attack":
        if action.get("mode") == "psychic" and not has_ability(ch, "psychic_attack"):
            return IllegalAction("no_psychic_attack")
        return IllegalAction("cannot_attack", value=action.get("target"))
    if kind in ("target", "steal", "beguile"):
        return IllegalAction("bad_target", value=action.get("seat", action.get("target")))
    if kind == "pick_space":
        return IllegalAction("bad_space", value=action.get("space"))
    if kind == "trade_trophies":
        return IllegalAction("not_enough_trophies", rate=state["opts"]["trophy_rate"])
    if kind == "discard_spell":
        return IllegalAction("spell_not_in_hand", spell=action.get("spell"))
    if kind in ("choose", "open_portal", "train", "visit", "pick_region"):
        key = next((k for k in ("option", "stat", "who", "region") if k in action), "type")
        return IllegalAction("bad_choice", value=action.get(key))
    if "card" in action:
        return IllegalAction("card_not_available", value=action["card"])
    return IllegalAction("bad_choice", value=kind)


def _buy(state: State, ch: dict[str, Any], p: dict[str, Any], item: Any) -> IllegalAction:
    prices = {k: v for svc in p["services"] if svc["service"] == "buy" for k, v in svc["prices"].items()}
    if item not in prices or item not in PURCHASE:
        return IllegalAction("not_for_sale", value=item)
    if state["shop"].get(item, 0) <= 0:
        return IllegalAction("sold_out", item=item)
    return IllegalAction("not_enough_gold", price=prices[item], gold=ch["gold"])
