"""The built-in Talisman player (empty seats, leavers, missed deadlines): it races for the Crown. It reads only
the seat's own view and the legal actions. In the outer region it gathers strength and craft, fighting what it
can likely beat; once strong enough it crosses the Sentinel's bridge; in the middle region it takes a quest at the
Warlock's Cave unless it holds a Talisman, and with one heads for the Portal of Power as soon as its best stat
gives it a fair roll; in the inner region it walks on to the Crown, turning back only when nearly dead, and there
casts the Command Spell every turn. It declines other players' windows, casts Spells to win its own fights or to
heal itself, keeps what it finds and heals when hurt. `evaluate` judges how far along that race a seat is."""

from __future__ import annotations

from typing import Any

from engines.rng import Rng
from engines.talisman.data import (
    ADVENTURE,
    CHARACTERS,
    CROWN,
    INNER,
    MIDDLE,
    OUTER,
    PLAIN_OF_PERIL,
    PORTAL,
    PURCHASE,
    SENTINEL,
    SPACES,
    VALLEY,
    WARLOCK,
)

Action = dict[str, Any]
Char = dict[str, Any]

SENTINEL_READY = 7  # Strength to cross the bridge against the Sentinel's 9 (with a Talisman race to win)
PORTAL_READY = (
    8  # best stat to try the Portal of Power (two dice at or under it: 72 % at 8; a miss costs a point)
)
INNER_LIFE = 4  # lives to set off through the inner region; below TURN_BACK_LIFE it turns back
TURN_BACK_LIFE = 2
LOW_LIFE = 2  # at or below this it looks for healing
# Where a character heals for gold: the Village and the City (outer), the Castle (middle).
CASTLE = 39
HEALERS = (0, 12, CASTLE)
# Spaces not worth stopping on for their own sake (a loss of life or a turn more often than a gain).
AVOID = {"tavern", "graveyard", "chapel", "desert", "black_knight", "chasm", "cursed_glade", "temple"}

# Spells that help in one's own battle, best first.
BATTLE_SPELLS = ("psionic_blast", "invisibility", "immobility")
# Spells cast on oneself.
SELF_SPELLS = ("healing", "preservation")

# The preferred answer of each kind of "either" choice, best first.
CHOICES = (
    "accept",
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
        return _route(me, actions, rng)
    if kind == "portal" and me is not None:
        return {"type": "open_portal", "stat": "strength" if me["strength"] >= me["craft"] else "craft"}
    if kind == "combat" and me is not None:
        pick = _combat(view, me, actions)
        if pick is not None:
            return pick
    if kind == "start" and me is not None:
        pick = _inner_step(me, actions)
        if pick is not None:
            return pick
    if kind == "shop" and me is not None:
        pick = _shop(me, actions)
        if pick:
            return pick
    pick = _first(
        actions,
        "decline",
        "accept_roll",
        "cast_command",
        "fight_on",
        "face_death",
        "roll_move",
        "step",
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


def has_talisman(me: Char) -> bool:
    return any(item["origin"] == "t" for item in me["items"])


def goal(me: Char) -> int | None:
    """The space the character is heading for, or None while it gathers strength where it is."""
    space = me["space"]
    power = max(me["strength"], me["craft"])
    if me["life"] <= LOW_LIFE and me["gold"] > 0:
        return min(HEALERS, key=lambda h: _distance(space, h) if _same_ring(space, h) else 99)
    if space in OUTER:
        return SENTINEL if me["strength"] >= SENTINEL_READY and me["life"] > LOW_LIFE else None
    if space in MIDDLE:
        if has_talisman(me):
            if power < PORTAL_READY:
                return None
            if me["life"] < INNER_LIFE and me["gold"] > 0:
                return CASTLE  # heal before the inner region
            return PORTAL if me["life"] > LOW_LIFE else None
        return WARLOCK if me["quest"] is None else None
    return None


def _same_ring(a: int, b: int) -> bool:
    return (a in OUTER) == (b in OUTER) and (a in MIDDLE) == (b in MIDDLE)


def _distance(a: int, b: int) -> int:
    size = 24 if a in OUTER else 16
    d = abs(a - b) % size
    return min(d, size - d)


def _route(me: Char, actions: list[Action], rng: Rng) -> Action:
    target = goal(me)
    ready_in = me["strength"] >= SENTINEL_READY and me["life"] > LOW_LIFE
    ready_portal = (
        has_talisman(me) and max(me["strength"], me["craft"]) >= PORTAL_READY and me["life"] > LOW_LIFE
    )

    def score(action: Action) -> float:
        legs = action["route"].split("-")
        to = action["to"]
        if legs[-1] == "p":
            return 100.0 if ready_portal else -100.0
        if "x" in legs:
            inward = to in MIDDLE
            if inward:
                return (
                    50.0 - _distance(to, target)
                    if ready_in and target is not None and to in MIDDLE
                    else (40.0 if ready_in else -100.0)
                )
            return -50.0  # back out to the outer region: nothing there it still needs
        if target is not None and _same_ring(to, target):
            return 20.0 - _distance(to, target)
        kind = SPACES[to]["kind"]
        if kind in AVOID:
            return -1.0
        return float(SPACES[to].get("draw", 0))

    best = max(score(a) for a in actions)
    return rng.choice([a for a in actions if score(a) == best])


def _combat(view: dict[str, Any], me: Char, actions: list[Action]) -> Action | None:
    """Fight what it likely beats (one die each plus the stat), evade the rest where it can."""
    foe = view["prompt"].get("foe") or {}
    types = {a["type"] for a in actions}
    if "evade" not in types:
        return None
    if foe.get("craft"):
        edge = me["craft"] - foe["craft"]
    else:
        edge = me["strength"] - foe.get("strength", 0)
    if edge >= 0 or (edge >= -1 and me["life"] > LOW_LIFE + 1):
        return next(a for a in actions if a["type"] == "fight")
    return next(a for a in actions if a["type"] == "evade")


def _inner_step(me: Char, actions: list[Action]) -> Action | None:
    """In the inner region: press on towards the Crown while alive enough, choosing the Mines (Craft) or the
    Crypt (Strength) by the better stat; otherwise turn back."""
    steps = [a for a in actions if a["type"] == "step"]
    backs = [a for a in actions if a["type"] == "turn_back"]
    if me["life"] <= TURN_BACK_LIFE and backs and me["space"] != VALLEY:
        return backs[0]
    if me["space"] == PLAIN_OF_PERIL and steps:
        inward = [a for a in steps if a["to"] in INNER]
        if not has_talisman(me) or me["life"] <= LOW_LIFE:
            out = [a for a in steps if a["to"] == PORTAL]
            if out:
                return out[0]
        prefer = 41 if me["craft"] > me["strength"] else 47
        return next((a for a in inward if a["to"] == prefer), inward[0] if inward else steps[0])
    crown = [a for a in steps if a["to"] == CROWN]
    if crown:
        return crown[0]
    return None


def evaluate(view: dict[str, Any]) -> float:
    """How far the viewer is along the race to the Crown, against the furthest other character."""
    progress = [_progress(ch) for ch in view["chars"]]
    mine = progress[view["viewer"]]
    others = [p for i, p in enumerate(progress) if i != view["viewer"]]
    return (mine - max(others, default=0.0)) / 4.0


def _progress(ch: Char | None) -> float:
    if ch is None or ch["dead"]:
        return -10.0
    space = ch["space"]
    region = 0.0 if space in OUTER else 3.0 if space in MIDDLE else 8.0 if space in INNER else 20.0
    return (
        region
        + 0.6 * (ch["strength"] + ch["craft"])
        + 0.4 * min(ch["life"], 8)
        + (3.0 if has_talisman(ch) else 0.0)
        + 0.1 * ch["gold"]
    )


def _passive(item: dict[str, Any]) -> dict[str, Any]:
    entry = ADVENTURE.get(item["card"]) if item["origin"] == "a" else PURCHASE.get(item["card"])
    return (entry or {}).get("passive", {})


# What a shop's gold is best spent on once healed: a first weapon, then the best armour it has none of.
ARMOUR_BUYS = ("armour", "shield", "helmet")
# Fortune tellers worth a visit: the Village Mystic never takes anything away (the Enchantress may make a toad).
SAFE_VISITS = ("mystic",)


def _shop(me: Char, actions: list[Action]) -> Action | None:
    """Heal, then train the stat the race needs next, see the Mystic, then arm: a weapon first, then armour."""
    by_type: dict[str, list[Action]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    heal = _first(actions, "royal_heal", "heal")
    if heal:
        return heal
    if "train" in by_type:
        want = "strength" if me["space"] in OUTER or me["strength"] >= me["craft"] else "craft"
        return next((a for a in by_type["train"] if a["stat"] == want), by_type["train"][0])
    mystic = next((a for a in by_type.get("visit", []) if a["who"] in SAFE_VISITS), None)
    if mystic:
        return mystic
    buys = {a["item"]: a for a in by_type.get("buy", [])}
    if not any("weapon" in _passive(i) for i in me["items"]):
        for item in ("sword", "axe"):
            if item in buys:
                return buys[item]
    if not any("armour" in _passive(i) for i in me["items"]):
        for item in ARMOUR_BUYS:
            if item in buys:
                return buys[item]
    return None
