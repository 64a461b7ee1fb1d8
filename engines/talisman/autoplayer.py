"""The built-in Talisman player (empty seats, leavers, missed deadlines): it races for the Crown. It reads only
the seat's own view and the legal actions.

In the outer region it gathers strength and craft, fighting what it can likely beat, buying an Axe at the Village
and training where it can; until it holds the Axe it spends gold on nothing else but a life on the brink. Once
its best stat is high enough it crosses the Storm River: over the Sentinel's bridge when its battle strength
makes that fight a fair one, otherwise on a Raft it builds with the Axe in a Woods or the Forest (the Sentinel's
Strength 9 beats a Strength 7 character five times in six), and with neither an Axe nor its price it tries the
Sentinel a point short rather than wait for gold. It casts Temporal Warp at once and Teleport to reach a space
it heads for in its region. In the middle region it takes a quest at the Warlock's Cave unless it holds a
Talisman, and with one heads for the Portal of Power as soon as its best stat gives it a fair roll; in the inner
region it walks on to the Crown by the Mines or the Crypt, whichever its stats suit, turning back only on its
last life, and there casts the Command Spell every turn. Once someone holds the Crown the others stop hiding at
the healers: their only way to win is to get there too. Fate re-rolls the dice that matter (the Portal, the Mines
and the Crypt, Death, a missed Command Spell, a bad battle die while fate is plentiful). It declines other
players' windows, casts Spells to win its own fights or to heal itself, keeps what it finds and heals when hurt.
`evaluate` gives a seat's chance to win, weighing facts about every character by weights fitted to who won games
between easy players."""

from __future__ import annotations

import math
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
    TEMPLE,
    VALLEY,
    WARLOCK,
)

Action = dict[str, Any]
Char = dict[str, Any]

# Best stat (cards included) at which it leaves the outer region for the Warlock and the Portal.
CROSS_READY = 6
# Battle strength to fight the Sentinel (Strength 9) rather than sail: 28 % a try at 8, more with fate.
BRIDGE_READY = 8
# Best stat to try the Portal of Power: two dice at or under it, 58 % at 7 and about 75 % with a fate re-roll.
PORTAL_READY = 7
INNER_LIFE = 4  # lives to set off through the inner region
TURN_BACK_LIFE = 1  # turning back costs the whole walk again: it does so only on its last life
LOW_LIFE = 2  # at or below this it looks for healing
FATE_RESERVE = 2  # fate kept for the Portal and the inner region: battle dice are re-rolled only above it
# Where a character heals for gold: the Village and the City (outer), the Castle (middle).
VILLAGE = 0
CASTLE = 39
TAVERN = 18  # a 6 there ferries a character to the Temple, in the middle region
MINES = 41  # the inner region's first space by Craft; the Crypt is the first by Strength
CRYPT = 47
HEALERS = (VILLAGE, 12, CASTLE)
# Outer spaces where a character holding an Axe may build a Raft instead of moving.
RAFT_YARDS = tuple(s["index"] for s in SPACES if s["region"] == "outer" and s["kind"] in ("woods", "forest"))
AXE_PRICE = next(s for s in SPACES[VILLAGE]["services"] if s["service"] == "buy")["prices"]["axe"]
# Spaces not worth stopping on for their own sake (a loss of life or a turn more often than a gain).
AVOID = {"tavern", "graveyard", "chapel", "desert", "black_knight", "chasm", "cursed_glade", "temple"}

# Spells that help in one's own battle, best first.
BATTLE_SPELLS = ("psionic_blast", "invisibility", "immobility")
# Spells cast on oneself.
SELF_SPELLS = ("healing", "preservation")

# The preferred answer of each kind of "either" choice, best first (a quest and a wish are decided apart).
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
# The Warlock's quest rolled on a die (1: take a life from another character) and the quests worth a re-roll.
BAD_QUESTS = (1,)
# Inner-region rolls where a lower total is better, and how high a die must be to be worth a fate re-roll.
LOW_IS_GOOD = {"vampire": 3, "pits": 4, "werewolf": 4}


def _first(actions: list[Action], *types: str) -> Action | None:
    for kind in types:
        for action in actions:
            if action["type"] == kind:
                return action
    return None


def choose(view: dict[str, Any], actions: list[Action], rng: Rng) -> Action:
    seat = view["viewer"]
    me = view["chars"][seat] if seat is not None else None
    prompt = view.get("prompt") or {}
    kind = prompt.get("kind")
    if kind == "either":
        return _either(me, {a["option"]: a for a in actions})
    if kind == "reroll" and me is not None:
        return _reroll(view, me, prompt, actions)
    if me is not None:
        spell = _spell_to_cast(me, kind, {a["spell"]: a for a in actions if a["type"] == "cast_spell"})
        if spell is not None:
            return spell
    if kind == "spell_target":
        targets = [a for a in actions if a["type"] == "target"]
        own = [a for a in targets if a["seat"] == seat]
        if prompt.get("spell") in SELF_SPELLS and own:
            return own[0]
        others = [a for a in targets if a["seat"] != seat]
        if others:
            return rng.choice(others)
    if kind == "route" and me is not None:
        return _route(view, me, actions, rng)
    if kind == "portal" and me is not None:
        return {"type": "open_portal", "stat": "strength" if me["strength"] >= me["craft"] else "craft"}
    if kind == "combat" and me is not None:
        pick = _combat(view, me, actions)
        if pick is not None:
            return pick
    if kind == "start" and me is not None:
        pick = _time_spell(view, me, actions) or _inner_step(me, actions) or _crossing(view, me, actions)
        if pick is not None:
            return pick
    if kind in ("pick_space", "go_space") and me is not None:
        spaces = {a["space"]: a for a in actions if a["type"] == "pick_space"}
        pick = next((spaces[t] for t in goals(me, view) if t in spaces), None)
        if pick is not None:
            return pick
    if kind == "shop" and me is not None:
        pick = _shop(view, me, actions)
        if pick:
            return pick
    if kind == "drop" and me is not None:
        return min(actions, key=lambda a: _item_worth(me, a["card"]))
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


def _either(me: Char | None, options: dict[str, Action]) -> Action:
    if "accept" in options:  # the Warlock's quest: a second Talisman is no use, and a quest shuts the Portal
        return options["decline" if me is not None and has_talisman(me) else "accept"]
    if me is not None and "strength" in options and "craft" in options:  # a wish: the stat it races on
        return options[_main_stat(me)]
    for option in CHOICES:
        if option in options:
            return options[option]
    return next(iter(options.values()))


def _reroll(view: dict[str, Any], me: Char, prompt: dict[str, Any], actions: list[Action]) -> Action:
    """Spend a fate re-roll on the die that most changes a roll that matters; keep the roll otherwise."""
    dice = prompt.get("dice") or []
    reason = prompt.get("reason")
    keep = _first(actions, "accept_roll") or actions[0]
    rerolls = {a["die"]: a for a in actions if a["type"] == "reroll"}
    if not dice or not rerolls:
        return keep
    high = max(range(len(dice)), key=lambda i: dice[i])
    low = min(range(len(dice)), key=lambda i: dice[i])
    total = sum(dice)
    if reason == "portal":
        need = max(me["strength"], me["craft"])
        # Worth it only when a new die can still bring the total down to the stat.
        if total > need and total - dice[high] + 1 <= need:
            return rerolls.get(high, keep)
    elif reason == "escape":
        stat = me["craft"] if me["space"] == MINES else me["strength"]
        if total > stat:
            return rerolls.get(high, keep)
    elif reason == "death":
        if total <= 6:
            return rerolls.get(low, keep)
    elif reason == "command":
        if dice[0] < 4:
            return rerolls.get(0, keep)
    elif reason in LOW_IS_GOOD:
        if dice[high] >= LOW_IS_GOOD[reason] and (reason != "werewolf" or total >= battle_strength(me)):
            return rerolls.get(high, keep)
    elif reason == "battle":
        if dice[high] <= 2 and (me["fate"] > FATE_RESERVE or me["space"] in INNER):
            return rerolls.get(high, keep)
    elif reason == "quest":
        if dice[0] in BAD_QUESTS:
            return rerolls.get(0, keep)
    return keep


def _spell_to_cast(me: dict[str, Any], kind: str | None, casts: dict[str, Action]) -> Action | None:
    if kind == "combat":
        for spell in BATTLE_SPELLS:
            if spell in casts:
                return casts[spell]
    if "healing" in casts and not me["toad"] and me["life"] < CHARACTERS[me["id"]]["life"]:
        return casts["healing"]
    return None


def has_talisman(me: Char) -> bool:
    """A Talisman from the Talisman deck or the Adventure deck's own."""
    return any(item["origin"] == "t" or _passive(item).get("talisman") for item in me["items"])


def _main_stat(me: Char) -> str:
    return "strength" if me["strength"] >= me["craft"] else "craft"


def _abilities(me: Char) -> set[str]:
    if me["toad"]:
        return set()  # toads have no special abilities
    return {a["code"] for a in CHARACTERS[me["id"]]["abilities"]}


def battle_strength(me: Char) -> int:
    """Strength in a battle: the best Weapon (two for the Warrior; none for the Monk, who fights unarmed)."""
    abilities = _abilities(me)
    if me["toad"] or "no_weapons" in abilities:
        bonus = next((a["n"] for a in CHARACTERS[me["id"]]["abilities"] if a["code"] == "unarmed_bonus"), 0)
        return me["strength"] + (0 if me["toad"] else bonus)
    weapons = sorted((_passive(i).get("weapon", 0) for i in me["items"]), reverse=True)
    return me["strength"] + sum(weapons[: 2 if "two_weapons" in abilities else 1])


def _has_axe(me: Char) -> bool:
    return any(_passive(i).get("raft_builder") for i in me["items"])


def _has_raft(me: Char) -> bool:
    return any(_passive(i).get("raft") for i in me["items"])


def _crown_taken_by_other(view: dict[str, Any], me: Char) -> bool:
    return any(
        ch is not None and ch is not me and not ch["dead"] and ch["space"] == CROWN for ch in view["chars"]
    )


def wants_middle(me: Char) -> bool:
    return max(me["strength"], me["craft"]) >= CROSS_READY and me["life"] > LOW_LIFE


def goals(me: Char, view: dict[str, Any] | None = None) -> tuple[int, ...]:
    """The spaces the character is heading for (any one will do), or none while it gathers strength where it
    is. Several when any of them serves: a landing must be exact, so more targets mean fewer wasted turns."""
    space = me["space"]
    power = max(me["strength"], me["craft"])
    racing = view is not None and _crown_taken_by_other(view, me)
    if me["life"] <= LOW_LIFE and me["gold"] > 0 and not racing:
        return tuple(h for h in HEALERS if _same_ring(space, h))
    if space in OUTER:
        if not (wants_middle(me) or racing):
            return ()
        if battle_strength(me) >= BRIDGE_READY:
            return (SENTINEL,)
        if _has_axe(me):
            return RAFT_YARDS
        if me["gold"] >= AXE_PRICE and (view is None or view.get("purchase", {}).get("axe", 1) > 0):
            return (VILLAGE,)
        # Without an Axe or the gold for one, a Sentinel fight a point short beats waiting for gold.
        return (SENTINEL,) if racing or battle_strength(me) >= BRIDGE_READY - 1 else (TAVERN,)
    if space in MIDDLE:
        if has_talisman(me):
            if power < PORTAL_READY and not racing:
                return ()
            if me["life"] < INNER_LIFE and me["gold"] > 0 and not racing:
                return (CASTLE,)  # heal before the inner region
            return (PORTAL,) if me["life"] > LOW_LIFE or racing else ()
        if me["quest"] is None:
            return (WARLOCK,)
        # A quest under way shuts the Portal; once the Crown is taken the Temple's 10 is the quicker Talisman.
        return (TEMPLE,) if racing else ()
    return ()


def _same_ring(a: int, b: int) -> bool:
    return (a in OUTER) == (b in OUTER) and (a in MIDDLE) == (b in MIDDLE)


def _distance(a: int, b: int) -> int:
    size = 24 if a in OUTER else 16
    d = abs(a - b) % size
    return min(d, size - d)


def _crossing(view: dict[str, Any], me: Char, actions: list[Action]) -> Action | None:
    """At the start of a turn in the outer region: sail a Raft it holds, or build one in a Woods or the Forest,
    when it is ready for the middle region and the bridge is not its way over."""
    if me["space"] not in OUTER or not (wants_middle(me) or _crown_taken_by_other(view, me)):
        return None
    ferry = _first(actions, "take_ferry")
    if ferry is not None:
        return ferry
    sail = [a for a in actions if a["type"] == "use_raft"]
    if sail:
        return min(sail, key=lambda a: _distance(a["to"], WARLOCK if not has_talisman(me) else PORTAL))
    if battle_strength(me) < BRIDGE_READY and not _has_raft(me):
        return _first(actions, "build_raft")
    return None


def _time_spell(view: dict[str, Any], me: Char, actions: list[Action]) -> Action | None:
    """Spells that save turns: Temporal Warp (three turns in a row, three Command Spells at the Crown) at once,
    Teleport when a space it heads for is in its region and a roll would need luck to land there."""
    casts = {a["spell"]: a for a in actions if a["type"] == "cast_spell"}
    if "temporal_warp" in casts:
        return casts["temporal_warp"]
    if me["space"] not in goals(me, view) and any(_same_ring(me["space"], t) for t in goals(me, view)):
        # The Tavern's wizard offers the same for this move only.
        return _first(actions, "take_teleport") or casts.get("teleport")
    return None


def _route(view: dict[str, Any], me: Char, actions: list[Action], rng: Rng) -> Action:
    targets = goals(me, view)
    racing = _crown_taken_by_other(view, me)
    bridge_ok = (
        SENTINEL in targets
        or (battle_strength(me) >= BRIDGE_READY and wants_middle(me))
        or (racing and not _has_axe(me))
    )
    ready_portal = has_talisman(me) and (
        racing or (max(me["strength"], me["craft"]) >= PORTAL_READY and me["life"] > LOW_LIFE)
    )

    def score(action: Action) -> float:
        legs = action["route"].split("-")
        to = action["to"]
        if "x" in legs and to not in OUTER and not bridge_ok:
            return -100.0
        if legs[-1] == "p":
            return 100.0 if ready_portal else -100.0
        if "x" in legs:
            if to in MIDDLE:
                inner_target = WARLOCK if not has_talisman(me) else PORTAL
                return 50.0 - _distance(to, inner_target)
            return -50.0  # back out to the outer region: nothing there it still needs
        near = [_distance(to, t) for t in targets if _same_ring(to, t)]
        if near:
            return 20.0 - min(near)
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
        edge = battle_strength(me) - foe.get("strength", 0)
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
        prefer = MINES if _mines_stat(me) > me["strength"] else CRYPT
        return next((a for a in inward if a["to"] == prefer), inward[0] if inward else steps[0])
    crown = [a for a in steps if a["to"] == CROWN]
    if crown:
        return crown[0]
    return None


def _mines_stat(me: Char) -> float:
    """Craft as worth in the Mines: a character that rolls two dice there instead of three counts it higher."""
    two_dice = "mines_dice" in _abilities(me) or any(_passive(f).get("mines_dice") for f in me["followers"])
    return me["craft"] + (3.5 if two_dice else 0.0)


def evaluate(view: dict[str, Any]) -> float:
    """The viewer's chance to win as a logit: its worth against every other character still in the game, so that
    the search's squashing of it gives exp(mine) / (the sum of exp(worth) over the characters in the game)."""
    me = view["chars"][view["viewer"]]
    if me is None or me["out"]:
        return -10.0
    others = [
        _worth(ch) for i, ch in enumerate(view["chars"]) if i != view["viewer"] and ch and not ch["out"]
    ]
    if not others:
        return 10.0
    top = max(others)
    return _worth(me) - top - math.log(sum(math.exp(w - top) for w in others))


# How much each fact about a character weighs in its chance to win, fitted by maximum likelihood (a conditional
# logit over the characters in the game) to who won 3,500 games between easy players (2,500 with four, 1,000 with
# two; a position at the start of every round; `bench/talisman_worth.py`). Life counts about twice a point of
# Strength or Craft, and a Quest under way counts against (it shuts the Portal). A dead character's weight is that
# of a fresh one, whose own facts are not known yet.
WORTH = {
    "middle": 0.20,
    "inner": 0.65,
    "inner_step": 0.51,  # each space of the inner region behind it
    "crown": 2.71,
    "best_stat": 0.13,
    "other_stat": 0.13,
    "weapon": 0.11,
    "life": 0.27,  # up to 8
    "last_life": -0.11,
    "talisman": 0.44,
    "quest": -0.80,
    "gold": 0.05,  # up to 10
    "fate": 0.08,  # up to 8; held, not fitted (below)
    "spell": 0.10,  # held, not fitted (below)
    "toad": 0.66,  # a toad's Strength and Craft are 1 for three turns only
    "dead": 0.94,
}
# Not fitted: Fate and Spells held. In those games they come out slightly against (-0.03 and -0.07), because the
# easy player keeps them when it meets nothing worth spending them on; valued at that, the search spends them on
# the first roll it can (as it did when they were worth nothing) and has none for the Portal and the inner region.
# So each keeps about what it saves: a third of a life.
HELD_WORTH = ("fate", "spell")
# Spaces of the inner region already behind a character on each of its spaces: the region is a ring of eight
# from the Plain of Peril, round either way to the Valley of Fire before the Crown.
INNER_STEPS = {s: min(s - PLAIN_OF_PERIL, PLAIN_OF_PERIL + len(INNER) - s) for s in INNER}


def _worth(ch: Char) -> float:
    return sum(WORTH[fact] * value for fact, value in worth_facts(ch).items())


def worth_facts(ch: Char) -> dict[str, float]:
    """The facts `WORTH` weighs, as numbers (`bench/talisman_worth.py` fits the weights to them)."""
    if ch["dead"]:
        return {"dead": 1.0}
    space = ch["space"]
    return {
        "middle": float(space in MIDDLE),
        "inner": float(space in INNER),
        "inner_step": float(INNER_STEPS.get(space, 0)),
        "crown": float(space == CROWN),
        "best_stat": max(ch["strength"], ch["craft"]),
        "other_stat": min(ch["strength"], ch["craft"]),
        "weapon": battle_strength(ch) - ch["strength"],
        "life": min(ch["life"], 8),
        "last_life": float(ch["life"] <= 1),
        "talisman": float(has_talisman(ch)),
        "quest": float(ch["quest"] is not None),
        "gold": min(ch["gold"], 10),
        "fate": min(ch["fate"], 8),
        "spell": ch["spells"],
        "toad": float(bool(ch["toad"])),
    }


def _passive(item: dict[str, Any]) -> dict[str, Any]:
    entry = ADVENTURE.get(item["card"]) if item["origin"] == "a" else PURCHASE.get(item["card"])
    return (entry or {}).get("passive", {})


def _item_worth(me: Char, uid: int) -> float:
    """What an item is worth keeping when one must go: the Talisman most, then the Raft (held, it goes back to
    the Purchase deck after a turn) and the Axe while it still must cross, then stats, weapons and armour."""
    item = next((i for i in me["items"] if i["uid"] == uid), None)
    if item is None:
        return 0.0
    p = _passive(item)
    if item["origin"] == "t" or p.get("talisman"):
        return 100.0
    if p.get("raft"):
        return 60.0  # dropped, it would lie on the board and keep the only Raft card from the next builder
    if p.get("raft_builder") and me["space"] in OUTER and battle_strength(me) < BRIDGE_READY:
        return 50.0
    return (
        3.0 * (p.get("strength", 0) + p.get("craft", 0)) + 2.0 * p.get("weapon", 0) + len(p.get("armour", ()))
    )


# Fortune tellers worth a visit: the Village Mystic never takes anything away (the Enchantress may make a toad).
SAFE_VISITS = ("mystic",)
ARMOUR_BUYS = ("armour", "shield", "helmet")
HEALED_ENOUGH = 4  # lives it heals up to before spending gold on anything else


def _shop(view: dict[str, Any], me: Char, actions: list[Action]) -> Action | None:
    """Heal to a safe level, buy the Axe it crosses the river with, train the stat the race needs, see the
    Mystic, heal the rest of the way, then arm: a weapon first, then armour."""
    by_type: dict[str, list[Action]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    buys = {a["item"]: a for a in by_type.get("buy", [])}
    needs_axe = me["space"] in OUTER and not _has_axe(me) and battle_strength(me) < BRIDGE_READY
    # Gold is scarce in the outer region and the Axe is most characters' way over the river: until it is bought
    # the gold goes on nothing else but a life on the brink.
    axe_left = view.get("purchase", {}).get("axe", 1) > 0
    saving = needs_axe and axe_left and "axe" not in buys and not _has_raft(me)
    heal = _first(actions, "royal_heal", "heal")
    if heal and me["life"] <= (LOW_LIFE if saving else HEALED_ENOUGH - 1):  # LOW_LIFE: what `goals` heals at
        return heal
    if needs_axe and "axe" in buys:
        return buys["axe"]
    mystic = next((a for a in by_type.get("visit", []) if a["who"] in SAFE_VISITS), None)
    if saving:
        return mystic
    if "train" in by_type:
        want = "strength" if me["space"] in OUTER else _main_stat(me)
        return next((a for a in by_type["train"] if a["stat"] == want), by_type["train"][0])
    if mystic:
        return mystic
    if heal:
        return heal
    if not any("weapon" in _passive(i) for i in me["items"]):
        for item in ("axe", "sword"):
            if item in buys:
                return buys[item]
    if not any("armour" in _passive(i) for i in me["items"]):
        for item in ARMOUR_BUYS:
            if item in buys:
                return buys[item]
    return None
