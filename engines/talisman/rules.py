"""The Talisman rules as a task queue and prompts.

A game state holds a queue of tasks ("q") and at most one open prompt ("p"). `run` pops tasks and carries them
out until one of them needs a decision, which it records as a prompt for one seat; an action answers the
prompt and the queue runs on. A turn is the tasks turn_start, (start prompt, move, arrive, encounters...),
end_turn, next_turn. Ending a turn at once (a lost battle, a stand-off, a missed turn) drops every task up to
end_turn.

Every die is rolled here with the state's Rng; a character with fate may re-roll one die of each roll once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.talisman.data import (
    ADVENTURE,
    BRIDGE_HILLS,
    CHARACTER_IDS,
    CHARACTERS,
    COMMAND,
    CROWN,
    INNER,
    KIND_INDEX,
    MARKET_PRICES,
    MIDDLE,
    OUTER,
    PLAIN_OF_PERIL,
    PORTAL,
    RAFT_TARGETS,
    SENTINEL,
    SPACES,
    SPELLS,
    TEMPLE,
    TOAD,
    VALLEY,
    WARLOCK,
    card_def,
    card_kind,
    passive,
    region,
    ring_step,
)
from engines.talisman.model import (
    Char,
    Event,
    State,
    alive_at,
    at_glade,
    battle_craft,
    battle_strength,
    board_cards,
    can_hold,
    capacity,
    card_of,
    craft,
    discard,
    draw_adventure,
    draw_spell,
    encounter_number,
    find_instance,
    find_on_board,
    has_ability,
    has_passive,
    has_talisman,
    holdings,
    in_inner,
    is_toad,
    max_spells,
    object_count,
    put_on_board,
    remove_from_board,
    rng_below,
    roll,
    spells_left,
    strength,
    take_purchase,
    take_talisman,
    weapons,
)

Task = dict[str, Any]
Prompt = dict[str, Any]
Action = dict[str, Any]

TASKS: dict[str, Callable[[State, Task, list[Event]], None]] = {}
PROMPT_ACTIONS: dict[str, Callable[[State, Prompt], list[Action]]] = {}
PROMPT_APPLY: dict[str, Callable[[State, Prompt, Action, list[Event]], None]] = {}
SEAT_KINDS = ("strength", "craft")
MOVES = ("roll_move", "move_one", "use_raft", "take_ferry", "take_teleport", "build_raft")
DRAW_OPS = ("place_by_roll",)  # effects a card has when drawn, before anyone encounters it
CURSES = {cid for cid, entry in ADVENTURE.items() if entry["type"] == "event" and "passive" in entry}
FORBIDDING = {cid for cid, entry in ADVENTURE.items() if "forbid" in entry.get("passive", {})}
MERCENARY_FEE = 1  # gold a battle for the Mercenary's help
LIMITS = {"gold": 30, "fate": 36, "toads": TOAD["count"]}  # limited components


def task(name: str) -> Callable[[Callable[[State, Task, list[Event]], None]], Callable[..., None]]:
    def register(fn: Callable[[State, Task, list[Event]], None]) -> Callable[..., None]:
        TASKS[name] = fn
        return fn

    return register


def prompt(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the legal-action lister (`<name>`) or the applier (`<name>!`) of a prompt kind."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name.endswith("!"):
            PROMPT_APPLY[name[:-1]] = fn
        else:
            PROMPT_ACTIONS[name] = fn
        return fn

    return register


# --- queue primitives ---------------------------------------------------------------------------------------


def push(state: State, *tasks: Task) -> None:
    state["q"][:0] = list(tasks)


def ask(state: State, seat: int, kind: str, **data: Any) -> None:
    state["p"] = {"seat": seat, "k": kind, **data}


def cut_turn(state: State) -> None:
    """End the current turn at once: drop every queued task up to the turn's end."""
    q = state["q"]
    while q and q[0]["t"] != "end_turn":
        q.pop(0)


def alive(ch: Char | None) -> bool:
    return ch is not None and not ch["dead"]


def run(state: State, events: list[Event]) -> None:
    while state["p"] is None and state["result"] is None:
        if state["phase"] != "play":
            return
        if sweep(state, events):
            continue
        if not state["q"]:
            begin_turn(state, events)
            continue
        item = state["q"].pop(0)
        TASKS[item["t"]](state, item, events)


def sweep(state: State, events: list[Event]) -> bool:
    """Standing checks after every step: quests done, the spell limit, the carrying limit, alignment-bound
    cards. Returns True when it changed something (or opened a prompt), so the loop re-checks."""
    for seat, ch in enumerate(state["chars"]):
        if ch is None or ch["dead"]:
            continue
        if ch["quest"] is not None and quest_complete(state, seat, events):
            return True
        for pile in (ch["items"], ch["fol"]):
            for inst in pile:
                if inst["c"] in FORBIDDING and passive(inst)["forbid"] == ch["align"]:
                    pile.remove(inst)
                    put_on_board(state, ch["space"], inst)
                    events.append({"type": "CardLeft", "seat": seat, "card": inst["c"], "space": ch["space"]})
                    return True
        if ch["spells"] and len(ch["spells"]) > max_spells(state, ch):
            ask(state, seat, "discard_spell")
            return True
        if len(ch["items"]) > 4 and object_count(ch) > capacity(ch):
            ask(state, seat, "drop")
            return True
    return False


# --- turns --------------------------------------------------------------------------------------------------


def begin_turn(state: State, events: list[Event]) -> None:
    push(state, {"t": "turn_start"}, {"t": "end_turn"}, {"t": "next_turn"})


def live_seats(state: State) -> list[int]:
    return [s for s in range(state["players"]) if not state["out"][s]]


def check_over(state: State, events: list[Event]) -> bool:
    if state["result"] is not None:
        return True
    left = live_seats(state)
    if len(left) <= 1 and state["players"] > 1:
        winners = left or [state["seat"]]
        finish(state, winners, "last_standing", events)
        return True
    return False


def finish(
    state: State, winners: list[int], reason: str, events: list[Event], scores: list[int] | None = None
) -> None:
    state["result"] = {
        "winners": sorted(winners),
        "reason": reason,
        "scores": scores
        if scores is not None
        else [1 if s in winners else 0 for s in range(state["players"])],
    }
    state["p"] = None
    state["q"] = []
    events.append({"type": "GameEnded", "reason": reason, "winners": sorted(winners)})


@task("turn_start")
def t_turn_start(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    if state["dmagic"] == seat:
        state["dmagic"] = None
        events.append({"type": "MagicRestored", "seat": seat})
    ch = state["chars"][seat]
    events.append({"type": "TurnStarted", "seat": seat, "turn": state["turn"]})
    if not alive(ch):
        if not replace_character(state, seat, events):
            cut_turn(state)
            return
        ch = state["chars"][seat]
    for key in ("inv", "merc"):
        ch[key] = False
    ch["boost"] = ch["tboost"] = 0
    ch["immob"] = False
    ch["casts_left"] = len(ch["spells"])
    if ch["miss"] > 0:
        source = pay_turn(ch)
        events.append({"type": "TurnMissed", "seat": seat, **({"source": source} if source else {})})
        cut_turn(state)
        # the end of this turn (where Spells may still be cast) says that it is a missed one
        state["q"][0]["missed"] = source
        return
    # A Raft held at the start of a turn may carry its owner across now; either way it goes after this turn.
    ch["raft_ready"] = any(passive(i).get("raft") for i in ch["items"])
    others = [(seat + i) % state["players"] for i in range(1, state["players"])]
    push(state, {"t": "window", "m": "turn_start", "seats": others, "then": {"t": "start_prompt"}})
    if state["stash_pick"]:
        push(state, {"t": "inherit"})


@task("start_prompt")
def t_start_prompt(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    ch = state["chars"][seat]
    if not alive(ch):
        return
    if ch["immob"]:
        ask(state, seat, "immobile")
    else:
        ask(state, seat, "start")


@task("end_turn")
def t_end_turn(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    ch = state["chars"][seat]
    if not alive(ch):
        return
    if tradeable(state, ch) or (ch["spells"] and can_cast(state, seat)):
        ask(state, seat, "end", **missed_turn(t))


def missed_turn(item: dict[str, Any]) -> dict[str, Any]:
    """The mark of a turn's end on a missed turn (with what cost the turn), carried from task to prompt and back."""
    return {"missed": item["missed"]} if "missed" in item else {}


def tradeable(state: State, ch: Char) -> list[str]:
    rate = state["opts"]["trophy_rate"]
    return [k for k in SEAT_KINDS if sum(tr["v"] for tr in ch["tro"] if tr["k"] == k) >= rate]


def trade_trophies(state: State, seat: int, kind: str, events: list[Event]) -> None:
    """Every 7 points (or the chosen rate) of one kind of trophies give a counter; leftovers are discarded."""
    ch = state["chars"][seat]
    used = [tr for tr in ch["tro"] if tr["k"] == kind]
    total = sum(tr["v"] for tr in used)
    gained = total // state["opts"]["trophy_rate"]
    for tr in used:
        ch["tro"].remove(tr)
        if tr.get("inst"):
            discard(state, tr["inst"])
    add_stat(state, seat, kind, gained, events, source="trophies")
    events.append({"type": "TrophiesTraded", "seat": seat, "kind": kind, "points": total, "gained": gained})


@task("next_turn")
def t_next_turn(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    ch = state["chars"][seat]
    if alive(ch):
        if ch["toad"] > 0 and ch["tsince"] != state["turn"]:
            ch["toad"] -= 1
            if ch["toad"] == 0:
                ch["tstr"] = ch["tcraft"] = 0
                events.append({"type": "ToadEnded", "seat": seat})
        ch["boost"] = ch["tboost"] = 0
        ch["inv"] = False
        if ch.get("raft_ready"):
            for inst in [i for i in ch["items"] if passive(i).get("raft")]:
                ch["items"].remove(inst)
                discard(state, inst)
            ch["raft_ready"] = False
    for hex_ in list(state["hexes"]):
        hex_["left"] -= 1
        if hex_["left"] <= 0:
            state["hexes"].remove(hex_)
            state["spl_disc"].append("hex")
    if state["blizzard"] > 0:
        state["blizzard"] -= 1
    if check_over(state, events):
        return
    state["turn"] += 1
    if state["warp"] > 0 and not state["out"][seat]:
        state["warp"] -= 1
    else:
        state["warp"] = 0
        nxt = seat
        for _ in range(state["players"]):
            nxt = (nxt + 1) % state["players"]
            if nxt == 0:
                state["round"] += 1
            if not state["out"][nxt]:
                break
        state["seat"] = nxt
        limit = state["opts"]["round_limit"]
        if limit > 0 and state["round"] > limit:
            timed_end(state, events)


def timed_end(state: State, events: list[Event]) -> None:
    """The timed game: count Strength and Craft counters, gold, Spells, Followers and (Magic) Objects."""
    scores = []
    for seat, ch in enumerate(state["chars"]):
        if state["out"][seat] or not alive(ch):
            scores.append(0)
            continue
        scores.append(
            ch["str"] + ch["craft"] + ch["gold"] + len(ch["spells"]) + len(ch["fol"]) + len(ch["items"])
        )
    best = max(scores)
    finish(state, [s for s, v in enumerate(scores) if v == best], "time_up", events, scores)


def new_character(state: State, seat: int, cid: str, events: list[Event]) -> Char:
    card = CHARACTERS[cid]
    ch: Char = {
        "id": cid,
        "space": card["start"],
        "str": 0,
        "craft": 0,
        "life": card["life"],
        "fate": card["fate"],
        "gold": card["gold"],
        "align": card["alignment"],
        "items": [],
        "fol": [],
        "tro": [],
        "spells": [],
        "toad": 0,
        "tstr": 0,
        "tcraft": 0,
        "tsince": -1,
        "miss": 0,
        "lost": [],  # what cost each turn owed in "miss", in order
        "quest": None,
        "qdone": 0,
        "qflag": False,
        "dead": False,
        "aturn": -1,
        "boost": 0,
        "tboost": 0,
        "cboost": 0,
        "inv": False,
        "merc": False,
        "back": False,
        "hold": None,
        "next": None,
        "enslaved": False,
        "immob": False,
        "casts_left": 0,
        "ocast": -1,
        "raft_ready": False,
    }
    state["chars"][seat] = ch
    starting = has_ability(ch, "start_spells")
    if starting:
        for _ in range(starting["n"]):
            spell = draw_spell(state)
            if spell:
                ch["spells"].append(spell)
                events.append({"type": "SpellGained", "seat": seat, "spell": spell, "private": [seat]})
    events.append({"type": "CharacterChosen", "seat": seat, "character": cid, "space": ch["space"]})
    return ch


def replace_character(state: State, seat: int, events: list[Event]) -> bool:
    if state["out"][seat] or not state["unused"]:
        state["out"][seat] = True
        check_over(state, events)
        return False
    cid = state["unused"].pop(rng_below(state, len(state["unused"])))
    ch = new_character(state, seat, cid, events)
    stash = state["stash"].pop(str(seat), None)
    if stash:
        ch["gold"] += stash["gold"]
        if stash["cards"]:
            state["stash_pick"] = {"seat": seat, "cards": stash["cards"]}
    return True


@task("inherit")
def t_inherit(state: State, t: Task, events: list[Event]) -> None:
    pick = state.get("stash_pick")
    if pick and pick["cards"]:
        ask(state, pick["seat"], "inherit")
    else:
        state["stash_pick"] = None


# --- stats, life, fate, gold, spells ------------------------------------------------------------------------


def add_stat(state: State, seat: int, kind: str, n: int, events: list[Event], source: str) -> None:
    """Gain or lose Strength/Craft counters; losses never go below the printed value. A toad's changes are
    kept apart and vanish when it turns back."""
    ch = state["chars"][seat]
    key = counter_key(ch, kind)
    before = ch[key]
    ch[key] = max(0, ch[key] + n)
    if ch[key] != before:
        events.append(
            {"type": "StatChanged", "seat": seat, "stat": kind, "by": ch[key] - before, "source": source}
        )


def counter_key(ch: Char, kind: str) -> str:
    """Where a character's gained Strength or Craft counters are kept (a toad's apart)."""
    if is_toad(ch):
        return "tstr" if kind == "strength" else "tcraft"
    return "str" if kind == "strength" else "craft"


def gain_life(state: State, seat: int, n: int, events: list[Event]) -> None:
    ch = state["chars"][seat]
    ch["life"] += n
    events.append({"type": "LifeGained", "seat": seat, "n": n, "life": ch["life"]})


def heal(state: State, seat: int, n: int | None, events: list[Event]) -> int:
    """Healing never goes above the life printed on the character card (gaining life may)."""
    ch = state["chars"][seat]
    room = max(0, card_of(ch)["life"] - ch["life"])
    amount = room if n is None else min(n, room)
    if amount:
        ch["life"] += amount
        events.append({"type": "Healed", "seat": seat, "n": amount, "life": ch["life"]})
    return amount


def replenish_fate(state: State, seat: int, events: list[Event]) -> None:
    ch = state["chars"][seat]
    room = min(max(0, card_of(ch)["fate"] - ch["fate"]), supply(state, "fate"))
    if room:
        ch["fate"] += room
        events.append({"type": "FateReplenished", "seat": seat, "fate": ch["fate"]})


def supply(state: State, what: str) -> int:
    """Limited components: what is left of the 30 gold coins, 36 fate tokens or 4 toads."""
    chars = [ch for ch in state["chars"] if alive(ch)]
    if what == "gold":
        held = sum(ch["gold"] for ch in chars) + sum(state["gold"].values())
        held += sum(stash["gold"] for stash in state["stash"].values())
    elif what == "fate":
        held = sum(ch["fate"] for ch in chars)
    else:
        held = sum(1 for ch in chars if ch["toad"] > 0)
    return max(0, LIMITS[what] - held)


def gain_gold(state: State, seat: int, n: int, events: list[Event]) -> None:
    n = min(n, supply(state, "gold"))
    if n <= 0:
        return
    ch = state["chars"][seat]
    ch["gold"] += n
    events.append({"type": "GoldGained", "seat": seat, "n": n, "gold": ch["gold"]})


def gain_fate(state: State, seat: int, n: int, events: list[Event]) -> None:
    n = min(n, supply(state, "fate"))
    if n > 0:
        state["chars"][seat]["fate"] += n
        events.append({"type": "FateGained", "seat": seat, "n": n})


def lose_gold(state: State, seat: int, n: int, events: list[Event]) -> int:
    ch = state["chars"][seat]
    lost = min(n, ch["gold"])
    ch["gold"] -= lost
    if lost:
        events.append({"type": "GoldLost", "seat": seat, "n": lost, "gold": ch["gold"]})
    return lost


def gain_spells(state: State, seat: int, n: int, events: list[Event]) -> None:
    """Spells come from the top of the Spell deck, and only while the character's Craft allows."""
    ch = state["chars"][seat]
    for _ in range(n):
        if len(ch["spells"]) >= max_spells(state, ch):
            return
        spell = draw_spell(state)
        if spell is None:
            return
        ch["spells"].append(spell)
        events.append({"type": "SpellGained", "seat": seat, "spell": spell, "private": [seat]})
        events.append({"type": "SpellDrawn", "seat": seat, "held": len(ch["spells"])})


def set_alignment(state: State, seat: int, to: str, events: list[Event]) -> None:
    ch = state["chars"][seat]
    if ch["align"] == to or ch["aturn"] == state["turn"]:
        return
    ch["align"] = to
    ch["aturn"] = state["turn"]
    events.append({"type": "AlignmentChanged", "seat": seat, "alignment": to})


def become_toad(state: State, seat: int, events: list[Event]) -> None:
    ch = state["chars"][seat]
    if ch["toad"] == 0 and supply(state, "toads") == 0:
        return  # all four toads are in use
    ch["toad"] = TOAD["turns"]
    ch["tstr"] = ch["tcraft"] = 0
    ch["tsince"] = state["turn"] if seat == state["seat"] else -1
    events.append({"type": "BecameToad", "seat": seat})


def lose_life(state: State, seat: int, n: int, src: str, armour: bool = False, by: int | None = None) -> None:
    push(state, {"t": "life_loss", "s": seat, "n": n, "src": src, "arm": armour, "by": by})


def owe_turn(ch: Char, source: str) -> None:
    ch["miss"] += 1
    ch["lost"].append(source)


def pay_turn(ch: Char) -> str | None:
    """An owed turn missed now (owe_turn's other half): what cost it, unknown for a turn owed by a game saved
    before reasons were kept."""
    ch["miss"] -= 1
    return ch["lost"].pop(0) if ch["lost"] else None


def miss_turn(state: State, seat: int, events: list[Event], source: str) -> None:
    """Losing a turn: with cards still to encounter the rest of this turn is the lost turn ("now" in the event);
    otherwise the next turn is skipped. Either way the turn ends now."""
    if seat != state["seat"]:
        events.append({"type": "TurnLost", "seat": seat})
        owe_turn(state["chars"][seat], source)
        return
    pending = False
    for item in state["q"]:
        if item["t"] == "end_turn":
            break
        if item["t"] == "card":
            pending = True
    events.append({"type": "TurnLost", "seat": seat, **({"now": True} if pending else {})})
    if not pending:
        owe_turn(state["chars"][seat], source)
    cut_turn(state)


@task("life_loss")
def t_life_loss(state: State, t: Task, events: list[Event]) -> None:
    seat = t["s"]
    ch = state["chars"][seat]
    if not alive(ch):
        return
    if t["arm"] and not has_ability(ch, "no_weapons") and not is_toad(ch):
        armours = [i for i in ch["items"] if "armour" in passive(i)]
        if armours:
            best = min(armours, key=lambda i: min(passive(i)["armour"]))
            die = roll(state)[0]
            saved = die in passive(best)["armour"]
            events.append(
                {"type": "ArmourRolled", "seat": seat, "card": best["c"], "die": die, "saved": saved}
            )
            if saved:
                return
    apply_task = {"t": "life_apply", "s": seat, "n": t["n"], "src": t["src"], "by": t["by"]}
    if has_passive(state, ch, "amulet"):
        push(state, apply_task)
        return
    push(
        state,
        {"t": "window", "m": "life_loss", "victim": seat, "seats": window_order(state), "then": apply_task},
    )


@task("life_apply")
def t_life_apply(state: State, t: Task, events: list[Event]) -> None:
    seat = t["s"]
    ch = state["chars"][seat]
    if not alive(ch):
        return
    ch["life"] -= t["n"]
    events.append(
        {"type": "LifeLost", "seat": seat, "n": t["n"], "life": max(0, ch["life"]), "source": t["src"]}
    )
    if t["by"] is not None and t["by"] != seat and state["chars"][t["by"]]["quest"] == "take_life":
        state["chars"][t["by"]]["qflag"] = True
    if ch["life"] <= 0:
        die(state, seat, events)


def die(state: State, seat: int, events: list[Event]) -> None:
    """A dead character leaves Objects, Followers and gold on its space (or set aside for inheritance);
    counters, fate, trophies and Spells go back. After someone has reached the Crown, or in a bloodbath, the
    player is out."""
    ch = state["chars"][seat]
    ch["dead"] = True
    ch["life"] = 0
    space = ch["space"]
    for curse in [f for f in ch["fol"] if f["c"] in CURSES]:
        ch["fol"].remove(curse)  # the Hag and the Poltergeist haunt only the living
        discard(state, curse)
    cards = ch["items"] + ch["fol"]
    if state["opts"]["inheritance"]:
        state["stash"][str(seat)] = {"cards": cards, "gold": ch["gold"]}
        dropped: list[int] = []
    else:
        for inst in cards:
            put_on_board(state, space, inst)
        if ch["gold"]:
            state["gold"][str(space)] = state["gold"].get(str(space), 0) + ch["gold"]
        dropped = [i["u"] for i in cards]
    state["dropped"] = {
        "seat": seat,
        "space": space,
        "uids": dropped,
        "gold": 0 if state["opts"]["inheritance"] else ch["gold"],
    }
    ch["items"], ch["fol"], ch["gold"] = [], [], 0
    state["spl_disc"] += ch["spells"]
    ch["spells"] = []
    for tr in ch["tro"]:
        if tr.get("inst"):
            discard(state, tr["inst"])
    ch["tro"] = []
    final = state["crown"] or state["opts"]["bloodbath"]
    events.append(
        {"type": "CharacterDied", "seat": seat, "character": ch["id"], "space": space, "final": final}
    )
    if final:
        state["out"][seat] = True
    if seat == state["seat"]:
        cut_turn(state)
    check_over(state, events)


# --- spells -------------------------------------------------------------------------------------------------


def can_cast(state: State, seat: int) -> bool:
    """Whether `seat` may cast a Spell now (public facts only, so whom we ask never reveals a hand)."""
    if state["out"][seat]:
        return False
    ch = state["chars"][seat]
    if not alive(ch) or not ch["spells"] or state["dmagic"] is not None or at_glade(ch):
        return False
    if any(passive(i).get("amulet") for i in ch["items"]):
        return False
    if seat == state["seat"]:
        return ch["casts_left"] > 0
    return ch["ocast"] != state["turn"]


def window_order(state: State) -> list[int]:
    return [(state["seat"] + i) % state["players"] for i in range(state["players"])]


def spell_targetable(state: State, seat: int) -> bool:
    ch = state["chars"][seat]
    return alive(ch) and not state["out"][seat] and not any(passive(i).get("amulet") for i in ch["items"])


def castable(state: State, seat: int, moment: str, ctx: Task | None = None) -> list[str]:
    """The distinct spells `seat` holds that fit `moment`."""
    if not can_cast(state, seat):
        return []
    ch = state["chars"][seat]
    own = seat == state["seat"]
    out = []
    for spell in sorted(set(ch["spells"])):
        windows = SPELLS[spell]["windows"]
        ok = False
        if moment == "own_start" and own:
            ok = "own_start" in windows and spell_usable(state, seat, spell)
        elif moment == "turn_start" and not own:
            # Casting is the only way to be rid of a Spell (rulebook), so Healing may be cast with nobody to heal,
            # in one's own turn; in another's it is offered only where it heals, or every turn would ask.
            ok = "other_turn_start" in windows and spell_usable(state, seat, spell)
            ok = ok and (spell != "healing" or heals_someone(state, seat))
        elif moment == "combat" and own:
            ok = "combat" in windows
        elif moment in ("own_after_move", "own_end") and own:
            ok = moment in windows and spell_usable(state, seat, spell)
        elif moment == "defend":
            ok = "defend" in windows
        elif moment == "life_loss":
            ok = spell == "preservation" and ctx is not None and spell_targetable(state, ctx["victim"])
        elif moment == "spell_cast":
            ok = spell == "counterspell"
        if ok:
            out.append(spell)
    return out


def spell_usable(state: State, seat: int, spell: str) -> bool:
    """Spells whose target or effect exists right now."""
    ch = state["chars"][seat]
    others = [s for s in range(state["players"]) if s != seat and spell_targetable(state, s)]
    if spell == "acquisition":
        return any(state["chars"][s]["gold"] or state["chars"][s]["items"] for s in others)
    if spell == "alchemy":
        return bool(ch["items"])
    if spell == "mesmerism":
        return any(state["chars"][s]["fol"] for s in others)
    if spell == "teleport":
        return ch["space"] in OUTER or ch["space"] in MIDDLE
    if spell == "destruction":
        return any(card_def(i).get("type") for cards in state["board"].values() for i in cards)
    if spell == "hex":
        return bool(hex_spaces(state))
    if spell == "immobility":
        return spell_targetable(state, state["seat"]) and state["seat"] != seat
    if spell == "nullify":
        return any(state["chars"][s]["spells"] for s in range(state["players"]) if spell_targetable(state, s))
    return True


def heals_someone(state: State, seat: int) -> bool:
    """Whether a Healing `seat` casts would heal anyone: it never heals above the life on a character's card."""
    targets = spell_targets(state, {"seat": seat, "spell": "healing"})
    return any(state["chars"][s]["life"] < card_of(state["chars"][s])["life"] for s in targets)


def hex_spaces(state: State) -> list[int]:
    occupied = {ch["space"] for ch in state["chars"] if alive(ch)}
    hexed = {h["space"] for h in state["hexes"]}
    return [s for s in list(OUTER) + list(MIDDLE) if s not in occupied and s not in hexed]


def start_cast(
    state: State, seat: int, spell: str, moment: str, resume: Task | None, events: list[Event]
) -> None:
    """Take the spell from the hand and collect its targets; `resume` is queued after the spell resolves."""
    state["chars"][seat]["spells"].remove(spell)
    cast = {"spell": spell, "seat": seat, "moment": moment, "resume": resume, "args": {}}
    target = SPELLS[spell].get("target")
    if spell == "immobility" and moment == "combat":
        target = None
    if target in ("character", "character_or_self"):
        ask(state, seat, "spell_target", cast=cast)
    elif target == "space":
        if spell == "teleport":
            ask(state, seat, "pick_space", cast=cast, spaces=teleport_spaces(state, seat))
        else:
            ask(state, seat, "pick_region", cast=cast)
    elif target == "card":
        ask(state, seat, "pick_region", cast=cast)
    elif target == "active_character":
        cast["args"]["target"] = state["seat"]
        finish_cast(state, cast, events)
    else:
        finish_cast(state, cast, events)


def spell_targets(state: State, cast: Task) -> list[int]:
    seat, spell = cast["seat"], cast["spell"]
    out = []
    for s in range(state["players"]):
        if not spell_targetable(state, s) and not (s == seat and spell in ("healing", "random")):
            continue
        other = state["chars"][s]
        if s == seat and SPELLS[spell].get("target") != "character_or_self":
            continue
        if spell == "acquisition" and not (other["gold"] or other["items"]):
            continue
        if spell == "mesmerism" and not other["fol"]:
            continue
        if spell == "nullify" and not other["spells"]:
            continue
        out.append(s)
    return out


def teleport_spaces(state: State, seat: int) -> list[int]:
    here = state["chars"][seat]["space"]
    ring = OUTER if here in OUTER else MIDDLE
    return [s for s in ring if s != here]


def finish_cast(state: State, cast: Task, events: list[Event]) -> None:
    seat, spell = cast["seat"], cast["spell"]
    ch = state["chars"][seat]
    state["spl_disc"].append(spell)
    if seat == state["seat"]:
        ch["casts_left"] -= 1
    else:
        ch["ocast"] = state["turn"]
    events.append({"type": "SpellCast", "seat": seat, "spell": spell, **cast_fields(state, cast["args"])})
    if not ch["spells"] and has_passive(state, ch, "wand"):
        gain_spells(state, seat, 1, events)
    others = [s for s in window_order(state) if s != seat]
    effect = {"t": "spell_fx", "cast": cast}
    then = [effect] + ([cast["resume"]] if cast["resume"] else [])
    push(
        state,
        {
            "t": "window",
            "m": "spell_cast",
            "seats": others,
            "then": {"t": "seq", "tasks": then},
            "spell": spell,
        },
    )


def cast_fields(state: State, args: dict[str, Any]) -> dict[str, Any]:
    """What a cast is aimed at, as the event tells it: a character, a space, and a card by its name (the
    instance may be gone once the spell resolves)."""
    fields = {k: args[k] for k in ("target", "space") if k in args}
    if args.get("card") is not None:
        fields["card"] = find_instance(state, args["card"])["c"]
    return fields


@task("seq")
def t_seq(state: State, t: Task, events: list[Event]) -> None:
    push(state, *t["tasks"])


@task("window")
def t_window(state: State, t: Task, events: list[Event]) -> None:
    """Offer the seats in turn a chance to cast a Spell that fits this moment; everyone may decline."""
    seats = t["seats"]
    while seats:
        seat = seats.pop(0)
        if can_cast(state, seat) and (t["m"] != "turn_start" or seat != state["seat"]):
            ask(state, seat, "window", w=t)
            return
    if t["then"]:
        push(state, t["then"])


@prompt("window")
def p_window(state: State, p: Prompt) -> list[Action]:
    spells = castable(state, p["seat"], p["w"]["m"], p["w"])
    return [{"type": "cast_spell", "spell": s} for s in spells] + [{"type": "decline"}]


@prompt("window!")
def a_window(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    w = p["w"]
    if action["type"] == "decline":
        push(state, w)
        return
    spell = action["spell"]
    if w["m"] == "spell_cast":
        # A Counterspell negates the spell just cast.
        state["chars"][p["seat"]]["spells"].remove(spell)
        after = w["then"]["tasks"] if w["then"] and w["then"]["t"] == "seq" else []
        countered = after[0].get("cast") if after else None
        if countered and countered["args"].get("undo"):
            push(state, countered["args"]["undo"])  # a countered Preservation: the life is lost after all
        finish_cast(
            state,
            {"spell": spell, "seat": p["seat"], "moment": "spell_cast", "resume": None, "args": {}},
            events,
        )
        caster = countered["seat"] if countered else state["seat"]  # no cast record: the Command Spell
        events.append({"type": "SpellCountered", "seat": p["seat"], "spell": w["spell"], "target": caster})
        # Only the effect is lost: play goes on from where the spell was cast (the Command Spell: nothing). A
        # spell whose effect was immediate has nothing left to lose, and play goes on as it would have.
        if countered:
            w["then"] = {"t": "seq", "tasks": after[1:]}
        elif not after:
            w["then"] = None
        push(state, w)
        return
    if w["m"] == "life_loss":
        events.append({"type": "LifeLossPrevented", "seat": w["victim"], "by": p["seat"]})
        state["chars"][p["seat"]]["spells"].remove(spell)
        finish_cast(
            state,
            {
                "spell": spell,
                "seat": p["seat"],
                "moment": "life_loss",
                "resume": None,
                "args": {"target": w["victim"], "undo": w["then"]},
            },
            events,
        )
        return
    start_cast(state, p["seat"], spell, w["m"], w, events)


@prompt("spell_target")
def p_spell_target(state: State, p: Prompt) -> list[Action]:
    return [{"type": "target", "seat": s} for s in spell_targets(state, p["cast"])] + [{"type": "cancel"}]


def cancel_cast(state: State, p: Prompt) -> None:
    """Nothing has been spent yet: the spell goes back to the hand and play returns to where it was chosen."""
    cast = p["cast"]
    state["chars"][cast["seat"]]["spells"].append(cast["spell"])
    if cast["resume"]:
        push(state, cast["resume"])


@prompt("spell_target!")
def a_spell_target(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "cancel":
        cancel_cast(state, p)
        return
    cast = p["cast"]
    cast["args"]["target"] = action["seat"]
    if cast["spell"] == "acquisition":
        ask(state, cast["seat"], "spell_take", cast=cast)
    elif cast["spell"] == "mesmerism":
        ask(state, cast["seat"], "spell_take", cast=cast)
    else:
        finish_cast(state, cast, events)


@prompt("spell_take")
def p_spell_take(state: State, p: Prompt) -> list[Action]:
    cast = p["cast"]
    victim = state["chars"][cast["args"]["target"]]
    me = state["chars"][cast["seat"]]
    if cast["spell"] == "mesmerism":
        return [{"type": "take_card", "card": i["u"]} for i in victim["fol"] if can_hold(me, i)] + [
            {"type": "cancel"}
        ]
    acts = [{"type": "take_gold"}] if victim["gold"] else []
    return (
        acts
        + [{"type": "take_card", "card": i["u"]} for i in victim["items"] if can_hold(me, i)]
        + [{"type": "cancel"}]
    )


@prompt("spell_take!")
def a_spell_take(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "cancel":
        cancel_cast(state, p)
        return
    cast = p["cast"]
    cast["args"]["card"] = action.get("card")
    finish_cast(state, cast, events)


@prompt("pick_region")
def p_pick_region(state: State, p: Prompt) -> list[Action]:
    spell = p["cast"]["spell"]
    regions = []
    for name, ring in (("outer", OUTER), ("middle", MIDDLE), ("inner", INNER)):
        if spell == "hex" and name != "inner" and any(s in ring for s in hex_spaces(state)):
            regions.append(name)
        if spell == "destruction" and any(destructible(state, s) for s in ring):
            regions.append(name)
    return [{"type": "pick_region", "region": r} for r in regions] + [{"type": "cancel"}]


def destructible(state: State, space: int) -> list[dict[str, Any]]:
    return [i for i in state["board"].get(str(space), []) if i["o"] == "a"]


@prompt("pick_region!")
def a_pick_region(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "cancel":
        cancel_cast(state, p)
        return
    ring = {"outer": OUTER, "middle": MIDDLE, "inner": INNER}[action["region"]]
    if p["cast"]["spell"] == "hex":
        spaces = [s for s in hex_spaces(state) if s in ring]
    else:
        spaces = [s for s in ring if destructible(state, s)]
    ask(state, p["seat"], "pick_space", cast=p["cast"], spaces=spaces)


@prompt("pick_space")
def p_pick_space(state: State, p: Prompt) -> list[Action]:
    return [{"type": "pick_space", "space": s} for s in p["spaces"]] + [{"type": "cancel"}]


@prompt("pick_space!")
def a_pick_space(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "cancel":
        cancel_cast(state, p)
        return
    cast = p["cast"]
    cast["args"]["space"] = action["space"]
    if cast["spell"] == "destruction":
        ask(state, p["seat"], "pick_card", cast=cast)
    else:
        finish_cast(state, cast, events)


@prompt("pick_card")
def p_pick_card(state: State, p: Prompt) -> list[Action]:
    space = p["cast"]["args"]["space"]
    return [{"type": "pick_card", "card": i["u"]} for i in destructible(state, space)] + [{"type": "cancel"}]


@prompt("pick_card!")
def a_pick_card(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "cancel":
        cancel_cast(state, p)
        return
    p["cast"]["args"]["card"] = action["card"]
    finish_cast(state, p["cast"], events)


@task("spell_fx")
def t_spell_fx(state: State, t: Task, events: list[Event]) -> None:
    cast = t["cast"]
    seat, spell, args = cast["seat"], cast["spell"], cast["args"]
    ch = state["chars"][seat]
    target = args.get("target")
    if target is not None and not spell_targetable(state, target) and not (target == seat and alive(ch)):
        return
    if spell == "acquisition":
        victim = state["chars"][target]
        if args.get("card") is None:
            if lose_gold(state, target, 1, events):
                gain_gold(state, seat, 1, events)
        else:
            inst = next((i for i in victim["items"] if i["u"] == args["card"]), None)
            if inst:
                victim["items"].remove(inst)
                ch["items"].append(inst)
                events.append({"type": "CardTaken", "seat": seat, "from": target, "card": inst["c"]})
    elif spell == "mesmerism":
        victim = state["chars"][target]
        inst = next((i for i in victim["fol"] if i["u"] == args["card"]), None)
        if inst:
            victim["fol"].remove(inst)
            ch["fol"].append(inst)
            events.append({"type": "CardTaken", "seat": seat, "from": target, "card": inst["c"]})
    elif spell == "alchemy":
        ask(state, seat, "sell", price=1, source="alchemy")
    elif spell == "destroy_magic":
        state["dmagic"] = seat
    elif spell == "destruction":
        found = find_on_board(state, args["card"])
        if found:
            inst = remove_from_board(state, found[0], args["card"])
            if inst:
                discard(state, inst)
                events.append({"type": "CardDestroyed", "seat": seat, "card": inst["c"], "space": found[0]})
    elif spell == "divination":
        top = list(reversed(state["adv"][-5:]))
        state["peek"][str(seat)] = top
        events.append({"type": "DeckPeeked", "seat": seat, "cards": top, "private": [seat]})
    elif spell == "healing":
        if not heal(state, target, None, events):
            no_effect(events, target, "full_life", spell)
    elif spell == "hex":
        state["hexes"].append({"space": args["space"], "by": seat, "left": 3 * len(live_seats(state))})
        state["spl_disc"].remove("hex")
    elif spell == "immobility":
        if cast["moment"] == "combat":
            # The battle about to resume is the first one queued; the creature may now be evaded.
            fight = next(item for item in state["q"] if item["t"] == "combat")
            fight["foe"]["evadable"] = True
        else:
            state["chars"][target]["immob"] = True
    elif spell == "invisibility":
        ch["inv"] = True
    elif spell == "nullify":
        victim = state["chars"][target]
        state["spl_disc"] += victim["spells"]
        events.append({"type": "SpellsDiscarded", "seat": target, "spells": list(victim["spells"])})
        victim["spells"] = []
    elif spell == "psionic_blast":
        ch["boost"] += card_of(ch)["craft"]
    elif spell == "random":
        die_ = roll(state)[0]
        events.append({"type": "DiceRolled", "seat": target, "dice": [die_], "reason": "random"})
        victim = state["chars"][target]
        if die_ == 1:
            become_toad(state, target, events)
        elif die_ == 2:
            lost = victim["tstr"] if is_toad(victim) else victim["str"]
            add_stat(state, target, "strength", -lost, events, spell)
        elif die_ == 3:
            lost = victim["tcraft"] if is_toad(victim) else victim["craft"]
            add_stat(state, target, "craft", -lost, events, spell)
        elif die_ == 4:
            lose_gold(state, target, victim["gold"], events)
        elif die_ == 5:
            add_stat(state, target, "strength", 1, events, spell)
        else:
            gain_life(state, target, 1, events)
    elif spell == "teleport":
        move_to(state, seat, args["space"], events)
        cut_start(state)
        push(state, {"t": "arrive", "sp": args["space"]})
    elif spell == "temporal_warp":
        state["warp"] += 2


def cut_start(state: State) -> None:
    """A teleport replaces the move: the start prompt is not offered again this turn."""
    state["q"] = [item for item in state["q"] if item["t"] != "start_prompt"]


# --- movement -----------------------------------------------------------------------------------------------


def move_to(state: State, seat: int, space: int, events: list[Event], how: str = "teleport") -> None:
    ch = state["chars"][seat]
    before = ch["space"]
    ch["space"] = space
    if how in ("move", "raft", "ferry") and {region(before), region(space)} == {"outer", "middle"}:
        drop_poltergeist(state, seat, events)
    events.append({"type": "Moved", "seat": seat, "from": before, "to": space, "how": how})


def drop_poltergeist(state: State, seat: int, events: list[Event]) -> None:
    ch = state["chars"][seat]
    for inst in [f for f in ch["fol"] if passive(f).get("slow")]:
        ch["fol"].remove(inst)
        discard(state, inst)
        events.append({"type": "FollowerLost", "seat": seat, "card": inst["c"]})


def one_space_only(state: State, ch: Char) -> bool:
    return is_toad(ch) or state["blizzard"] > 0 or any(passive(f).get("slow") for f in ch["fol"])


def routes(state: State, seat: int, steps: int) -> list[dict[str, Any]]:
    """Every way to spend exactly `steps` moving: one direction, at most one river crossing by the Sentinel
    bridge (after which the direction may change), or stopping to open the Portal of Power."""
    ch = state["chars"][seat]
    can_portal = not (ch["quest"] is not None and ch["qdone"] == 0)
    found: dict[str, dict[str, Any]] = {}

    def add(path: list[str], dest: int, cross_in: bool, portal: bool = False) -> None:
        key = "-".join(path) or "stay"
        found.setdefault(key, {"route": key, "to": dest, "cross_in": cross_in, "portal": portal})

    def walk(pos: int, rem: int, d: int, path: list[str], crossed: bool, cross_in: bool) -> None:
        if rem == 0:
            add(path, pos, cross_in)
            return
        if d:
            walk(ring_step(pos, d), rem - 1, d, path, crossed, cross_in)
        else:
            for nd, name in ((1, "cw"), (-1, "ccw")):
                walk(ring_step(pos, nd), rem - 1, nd, path + [name], crossed, cross_in)
        if not crossed and pos in (SENTINEL, BRIDGE_HILLS):
            other = BRIDGE_HILLS if pos == SENTINEL else SENTINEL
            inward = pos == SENTINEL
            if rem == 1:
                add(path + ["x"], other, inward)
            else:
                for nd, name in ((1, "cw"), (-1, "ccw")):
                    walk(ring_step(other, nd), rem - 2, nd, path + ["x", name], True, inward)
        if pos == PORTAL and can_portal:
            add(path + ["p"], PLAIN_OF_PERIL, cross_in, True)

    walk(ch["space"], steps, 0, [], False, False)
    return list(found.values())


@prompt("start")
def p_start(state: State, p: Prompt) -> list[Action]:
    seat = p["seat"]
    ch = state["chars"][seat]
    acts: list[Action] = []
    space = ch["space"]
    if space == CROWN:
        if any(passive(i).get("amulet") for i in ch["items"]):
            return [{"type": "abandon", "card": i["u"]} for i in ch["items"] if passive(i).get("amulet")]
        return [{"type": "cast_command"}]
    if in_inner(ch):
        acts += inner_moves(state, ch)
    else:
        if ch["enslaved"]:
            acts.append({"type": "roll_move"})
        elif one_space_only(state, ch):
            acts.append({"type": "move_one"})
        else:
            acts.append({"type": "roll_move"})
        if not ch["enslaved"]:
            if ch["raft_ready"] and any(passive(i).get("raft") for i in ch["items"]):
                acts += [{"type": "use_raft", "to": s} for s in RAFT_TARGETS[space]]
            if ch["next"] == "region":
                acts.append({"type": "take_teleport"})
            elif ch["next"] == "temple":
                acts.append({"type": "take_ferry"})
            if (
                SPACES[space]["kind"] in ("woods", "forest")
                and state["shop"].get("raft", 0) > 0
                and any(passive(i).get("raft_builder") for i in ch["items"])
            ):
                acts.append({"type": "build_raft"})
    if has_passive(state, ch, "alchemist"):
        acts += [{"type": "sell_object", "card": i["u"]} for i in ch["items"]]
    acts += [{"type": "cast_spell", "spell": s} for s in castable(state, seat, "own_start")]
    return acts


def inner_moves(state: State, ch: Char) -> list[Action]:
    space = ch["space"]
    hold = ch["hold"]
    if hold and not ch["back"]:
        fight = {"werewolf": "fight_on", "pits": "fight_on", "death": "face_death"}[hold["k"]]
        return [{"type": fight}, {"type": "turn_back", "to": toward_plain(space)[0]}]
    if ch["back"]:
        return [{"type": "step", "to": toward_plain(space)[0]}]
    if space == PLAIN_OF_PERIL:
        return [{"type": "step", "to": 41}, {"type": "step", "to": 47}, {"type": "step", "to": PORTAL}]
    if space == VALLEY:
        return [{"type": "step", "to": CROWN}] + [{"type": "turn_back", "to": s} for s in (43, 45)]
    ahead = space + 1 if space < VALLEY else space - 1
    acts = [] if ahead == VALLEY and not has_talisman(state, ch) else [{"type": "step", "to": ahead}]
    return acts + [{"type": "turn_back", "to": toward_plain(space)[0]}]


def toward_plain(space: int) -> list[int]:
    if space == VALLEY:
        return [43, 45]
    return [space - 1] if space < VALLEY else [40 + (space - 40 + 1) % 8]


@prompt("start!")
def a_start(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    seat = p["seat"]
    ch = state["chars"][seat]
    kind = action["type"]
    if kind == "cast_spell":
        start_cast(state, seat, action["spell"], "own_start", {"t": "start_prompt"}, events)
        return
    if kind in MOVES:
        # The Tavern's wizard or boatman offers only the next move.
        next_move, ch["next"] = ch["next"], None
        if kind == "take_teleport" and next_move == "region":
            ask(state, seat, "go_space", spaces=teleport_spaces(state, seat))
            return
    if kind == "sell_object":
        inst = next(i for i in ch["items"] if i["u"] == action["card"])
        ch["items"].remove(inst)
        discard(state, inst)
        gain_gold(state, seat, 1, events)
        push(state, {"t": "start_prompt"})
        return
    if kind == "abandon":
        inst = next(i for i in ch["items"] if i["u"] == action["card"])
        ch["items"].remove(inst)
        put_on_board(state, ch["space"], inst)
        events.append({"type": "CardLeft", "seat": seat, "card": inst["c"], "space": ch["space"]})
        push(state, {"t": "start_prompt"})
        return
    if kind == "cast_command":
        events.append({"type": "CommandSpellCast", "seat": seat})
        others = [s for s in window_order(state) if s != seat]
        push(
            state,
            {
                "t": "window",
                "m": "spell_cast",
                "seats": others,
                "spell": "command",
                "then": {"t": "command_roll"},
            },
        )
        return
    if kind == "build_raft":
        inst = take_purchase(state, "raft")
        if inst:
            ch["items"].append(inst)
            events.append({"type": "RaftBuilt", "seat": seat})
        cut_turn(state)
        return
    if kind == "use_raft":
        move_to(state, seat, action["to"], events, "raft")
        push(state, {"t": "after_move", "sp": action["to"]})
        return
    if kind == "take_ferry":
        move_to(state, seat, TEMPLE, events, "ferry")
        push(state, {"t": "after_move", "sp": TEMPLE})
        return
    if kind == "roll_move":
        roll_for(state, seat, 1, {"t": "moved_roll"}, "move", events)
        return
    if kind == "move_one":
        ask(state, seat, "route", options=routes(state, seat, 1), steps=1)
        return
    if kind in ("fight_on", "face_death"):
        hold = ch["hold"]
        if hold["k"] == "werewolf":
            push(
                state,
                combat_task(seat, {"name": "werewolf", "strength": hold["str"], "inner": True}, "werewolf"),
            )
        elif hold["k"] == "pits":
            push(state, combat_task(seat, {"name": "pitfiend", "strength": 4, "inner": True}, "pits"))
        else:
            roll_for(state, seat, 2, {"t": "death_roll"}, "death", events)
        return
    if kind == "turn_back":
        ch["back"] = True
        ch["hold"] = None
        step_inner(state, seat, action["to"], events)
        return
    if kind == "step":
        step_inner(state, seat, action["to"], events)


def step_inner(state: State, seat: int, to: int, events: list[Event]) -> None:
    ch = state["chars"][seat]
    move_to(state, seat, to, events, "step")
    if to == PLAIN_OF_PERIL:
        ch["back"] = False
    if to == PORTAL:
        push(state, {"t": "arrive", "sp": to})
        return
    if ch["back"]:
        # Turning back ignores every space's instructions; characters meet only on the Plain of Peril.
        return
    if to == CROWN:
        state["crown"] = True
        events.append({"type": "CrownReached", "seat": seat})
        if state["opts"]["sudden_death"]:
            finish(state, [seat], "crown_reached", events)
            return
    push(state, {"t": "arrive", "sp": to})


@prompt("immobile")
def p_immobile(state: State, p: Prompt) -> list[Action]:
    return [{"type": "pass"}]


@prompt("immobile!")
def a_immobile(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    events.append({"type": "TurnMissed", "seat": p["seat"], "source": "immobility"})
    cut_turn(state)


@prompt("go_space")
def p_go_space(state: State, p: Prompt) -> list[Action]:
    return [{"type": "pick_space", "space": s} for s in p["spaces"]] or [{"type": "stay"}]


@prompt("go_space!")
def a_go_space(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "stay":
        return
    move_to(state, p["seat"], action["space"], events)
    push(state, {"t": "arrive", "sp": action["space"]})


def roll_for(state: State, seat: int, count: int, then: Task, reason: str, events: list[Event]) -> None:
    """Roll `count` dice for `seat`; with fate it may re-roll one of them once; then `then` gets the dice."""
    dice = roll(state, count)
    events.append({"type": "DiceRolled", "seat": seat, "dice": dice, "reason": reason})
    then = {**then, "dice": dice}
    ch = state["chars"][seat]
    if alive(ch) and ch["fate"] > 0:
        ask(state, seat, "reroll", dice=dice, then=then, reason=reason)
    else:
        push(state, then)


@prompt("reroll")
def p_reroll(state: State, p: Prompt) -> list[Action]:
    return [{"type": "accept_roll"}] + [{"type": "reroll", "die": i} for i in range(len(p["dice"]))]


@prompt("reroll!")
def a_reroll(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    then = p["then"]
    if action["type"] == "reroll":
        ch = state["chars"][p["seat"]]
        ch["fate"] -= 1
        dice = list(p["dice"])
        dice[action["die"]] = roll(state)[0]
        events.append({"type": "FateSpent", "seat": p["seat"], "dice": dice, "reason": p["reason"]})
        then = {**then, "dice": dice}
    push(state, then)


@task("moved_roll")
def t_moved_roll(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    ch = state["chars"][seat]
    die_ = t["dice"][0]
    if has_ability(ch, "regenerate") and die_ == has_ability(ch, "regenerate")["on"]:
        heal(state, seat, 1, events)
    if ch["enslaved"]:
        if die_ < 4:
            events.append({"type": "StillEnslaved", "seat": seat})
            cut_turn(state)
            return
        ch["enslaved"] = False
    ask(state, seat, "route", options=routes(state, seat, die_), steps=die_, rolled=die_)


SENTINEL_FOE = {"name": "sentinel", "strength": SPACES[SENTINEL]["sentinel"]["strength"]}


@prompt("route")
def p_route(state: State, p: Prompt) -> list[Action]:
    # The destination first: it is what players pick by.
    return [{"type": "move", "to": r["to"], "route": r["route"]} for r in p["options"]]


@prompt("route!")
def a_route(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    seat = p["seat"]
    ch = state["chars"][seat]
    if ch["raft_ready"]:
        ch["raft_ready"] = False
        for inst in [i for i in ch["items"] if passive(i).get("raft")]:
            ch["items"].remove(inst)
            discard(state, inst)
    opt = next(r for r in p["options"] if r["route"] == action["route"])
    if opt["cross_in"]:
        move_to(state, seat, SENTINEL, events, "move")
        after = {"t": "continue_move", "opt": opt}
        push(state, combat_task(seat, dict(SENTINEL_FOE), "sentinel", on_win=[after], on_evade=[after]))
        return
    push(state, {"t": "continue_move", "opt": opt})


@task("continue_move")
def t_continue_move(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    opt = t["opt"]
    if opt["portal"]:
        move_to(state, seat, PORTAL, events, "move")
        ask(state, seat, "portal")
        return
    move_to(state, seat, opt["to"], events, "move")
    push(state, {"t": "after_move", "sp": opt["to"]})


@prompt("portal")
def p_portal(state: State, p: Prompt) -> list[Action]:
    return [{"type": "open_portal", "stat": k} for k in SEAT_KINDS]


def portal_dice(state: State, ch: Char, stat: str) -> int:
    """How many dice opening the Portal with `stat` rolls (fewer with Craft for a follower such as the Gnome)."""
    gnome = has_passive(state, ch, "portal_craft_dice")
    if stat == "craft" and gnome:
        return passive(gnome)["portal_craft_dice"]
    return SPACES[PORTAL]["portal"]["dice"]


@prompt("portal!")
def a_portal(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    dice = portal_dice(state, state["chars"][p["seat"]], action["stat"])
    roll_for(state, p["seat"], dice, {"t": "portal_roll", "stat": action["stat"]}, "portal", events)


@task("portal_roll")
def t_portal_roll(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    ch = state["chars"][seat]
    value = strength(state, ch) if t["stat"] == "strength" else craft(state, ch)
    if sum(t["dice"]) <= value:
        events.append({"type": "PortalOpened", "seat": seat})
        move_to(state, seat, PLAIN_OF_PERIL, events, "portal")
        push(state, {"t": "arrive", "sp": PLAIN_OF_PERIL})
    else:
        events.append({"type": "PortalHeld", "seat": seat})
        add_stat(state, seat, t["stat"], -1, events, SPACES[PORTAL]["kind"])
        cut_turn(state)


@task("after_move")
def t_after_move(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    ch = state["chars"][seat]
    if ch["spells"] and can_cast(state, seat):
        ask(state, seat, "after_move", sp=t["sp"])
    else:
        push(state, {"t": "arrive", "sp": t["sp"]})


@prompt("after_move")
def p_after_move(state: State, p: Prompt) -> list[Action]:
    spells = castable(state, p["seat"], "own_after_move")
    return [{"type": "encounter"}] + [{"type": "cast_spell", "spell": s} for s in spells]


@prompt("after_move!")
def a_after_move(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "encounter":
        push(state, {"t": "arrive", "sp": p["sp"]})
    else:
        start_cast(
            state, p["seat"], action["spell"], "own_after_move", {"t": "arrive", "sp": p["sp"]}, events
        )


# --- arriving and encountering ------------------------------------------------------------------------------


def here(state: State, seat: int, space: int) -> bool:
    ch = state["chars"][seat]
    return alive(ch) and ch["space"] == space and seat == state["seat"]


@task("arrive")
def t_arrive(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    space = t["sp"]
    if not here(state, seat, space):
        return
    for hex_ in state["hexes"]:
        if hex_["space"] == space and spell_targetable(state, seat):
            events.append({"type": "HexStruck", "seat": seat, "space": space})
            push(state, {"t": "arrive_rest", "sp": space})
            lose_life(state, seat, 1, "hex")
            return
    push(state, {"t": "arrive_rest", "sp": space})


@task("arrive_rest")
def t_arrive_rest(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    space = t["sp"]
    if not here(state, seat, space):
        return
    others = [s for s in alive_at(state, space, seat)]
    meet_ok = space not in INNER or space in (PLAIN_OF_PERIL, VALLEY)
    if others and (meet_ok or space == CROWN):
        ask(state, seat, "meet", sp=space, others=others)
        return
    push(state, {"t": "space", "sp": space})


@prompt("meet")
def p_meet(state: State, p: Prompt) -> list[Action]:
    seat = p["seat"]
    ch = state["chars"][seat]
    acts: list[Action] = [] if p["sp"] == CROWN else [{"type": "encounter_space"}]
    for other in p["others"]:
        victim = state["chars"][other]
        if not alive(victim):
            continue
        acts.append({"type": "attack", "target": other, "mode": "physical"})
        if has_ability(ch, "psychic_attack"):
            acts.append({"type": "attack", "target": other, "mode": "psychic"})
        if p["sp"] == CROWN:
            continue
        if has_ability(ch, "steal") and (victim["gold"] or victim["items"]):
            acts.append({"type": "steal", "target": other})
        if has_ability(ch, "beguile") and any(can_hold(ch, f) for f in victim["fol"]):
            acts.append({"type": "beguile", "target": other})
    return acts or [{"type": "encounter_space"}]


@prompt("meet!")
def a_meet(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    seat = p["seat"]
    kind = action["type"]
    if kind == "encounter_space":
        push(state, {"t": "space", "sp": p["sp"]})
        return
    target = action["target"]
    events.append({"type": "CharacterEncountered", "seat": seat, "target": target, "how": kind})
    if kind == "attack":
        push(state, {"t": "duel", "a": seat, "d": target, "mode": action["mode"], "sp": p["sp"]})
    else:
        push(state, {"t": "ability_take", "a": seat, "d": target, "how": kind, "sp": p["sp"]})


@task("ability_take")
def t_ability_take(state: State, t: Task, events: list[Event]) -> None:
    """The Thief's and the Sorceress's encounters: the victim may still evade, as with an attack."""
    victim = state["chars"][t["d"]]
    if can_evade_character(state, t["d"]) or (victim["spells"] and can_cast(state, t["d"])):
        ask(state, t["d"], "defend", duel={**t, "mode": "ability"})
        return
    push(state, {"t": "ability_resolve", **{k: v for k, v in t.items() if k != "t"}})


@task("ability_resolve")
def t_ability_resolve(state: State, t: Task, events: list[Event]) -> None:
    ask(state, t["a"], "steal_pick", d=t["d"], how=t["how"])


@prompt("steal_pick")
def p_steal_pick(state: State, p: Prompt) -> list[Action]:
    victim = state["chars"][p["d"]]
    me = state["chars"][p["seat"]]
    if p["how"] == "beguile":
        acts = [{"type": "take_card", "card": f["u"]} for f in victim["fol"] if can_hold(me, f)]
    else:
        acts = ([{"type": "take_gold"}] if victim["gold"] else []) + [
            {"type": "take_card", "card": i["u"]} for i in victim["items"] if can_hold(me, i)
        ]
    return acts or [{"type": "done"}]


@prompt("steal_pick!")
def a_steal_pick(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    take_from(state, p["seat"], p["d"], action, events)
    cut_turn(state)


def take_from(state: State, seat: int, victim_seat: int, action: Action, events: list[Event]) -> None:
    victim = state["chars"][victim_seat]
    me = state["chars"][seat]
    if action["type"] == "take_gold":
        if lose_gold(state, victim_seat, 1, events):
            gain_gold(state, seat, 1, events)
    elif action["type"] == "take_card":
        for pile, mine in ((victim["items"], me["items"]), (victim["fol"], me["fol"])):
            inst = next((i for i in pile if i["u"] == action["card"]), None)
            if inst:
                pile.remove(inst)
                mine.append(inst)
                events.append({"type": "CardTaken", "seat": seat, "from": victim_seat, "card": inst["c"]})
                return


def can_evade_character(state: State, seat: int) -> bool:
    ch = state["chars"][seat]
    if ch["space"] == CROWN:
        return False
    return ch["inv"] or evade_here(state, ch)


def evade_here(state: State, ch: Char) -> bool:
    kind = SPACES[ch["space"]]["kind"]
    ability = has_ability(ch, "evade_in")
    if ability and kind in ability["kinds"]:
        return True
    return any(kind in passive(f).get("evade_in", []) for f in ch["fol"])


# --- character against character ----------------------------------------------------------------------------


@task("duel")
def t_duel(state: State, t: Task, events: list[Event]) -> None:
    defender = state["chars"][t["d"]]
    if not alive(defender) or defender["space"] != t["sp"]:
        return
    if can_evade_character(state, t["d"]) or (
        defender["spells"] and can_cast(state, t["d"]) and t["sp"] != CROWN
    ):
        ask(state, t["d"], "defend", duel=t)
        return
    push(state, {**t, "t": "duel_ready"})


@prompt("defend")
def p_defend(state: State, p: Prompt) -> list[Action]:
    acts: list[Action] = [{"type": "decline"}]
    if can_evade_character(state, p["seat"]):
        acts.append({"type": "evade"})
    if p["duel"]["sp"] != CROWN:
        acts += [{"type": "cast_spell", "spell": s} for s in castable(state, p["seat"], "defend")]
    return acts


@prompt("defend!")
def a_defend(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    duel = p["duel"]
    if action["type"] == "evade":
        events.append({"type": "Evaded", "seat": p["seat"], "from": duel["a"]})
        cut_turn(state)
        return
    if action["type"] == "cast_spell":
        resume = {**duel, "t": "ability_take" if duel["mode"] == "ability" else "duel"}
        start_cast(state, p["seat"], action["spell"], "defend", resume, events)
        return
    if duel["mode"] == "ability":
        push(state, {**duel, "t": "ability_resolve"})
    else:
        push(state, {**duel, "t": "duel_ready"})


@task("duel_ready")
def t_duel_ready(state: State, t: Task, events: list[Event]) -> None:
    if t["a"] == state["seat"] and state["chars"][t["a"]]["spells"] and can_cast(state, t["a"]):
        ask(state, t["a"], "duel_ready", duel=t)
        return
    push(state, {**t, "t": "duel_roll"})


@prompt("duel_ready")
def p_duel_ready(state: State, p: Prompt) -> list[Action]:
    return [{"type": "fight"}] + [
        {"type": "cast_spell", "spell": s}
        for s in castable(state, p["seat"], "combat")
        if s == "psionic_blast"
    ]


@prompt("duel_ready!")
def a_duel_ready(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "fight":
        push(state, {**p["duel"], "t": "duel_roll"})
    else:
        start_cast(state, p["seat"], action["spell"], "combat", {**p["duel"], "t": "duel_ready"}, events)


def attack_dice(ch: Char) -> int:
    return 2 if has_ability(ch, "two_dice_battle") else 1


def foe_rolls(ch: Char, foe: dict[str, Any]) -> bool:
    """Whether an Enemy fighting `ch` rolls its attack die: not against an Assassin outside the Inner Region."""
    return not (has_ability(ch, "assassinate") and not foe.get("inner"))


@task("duel_roll")
def t_duel_roll(state: State, t: Task, events: list[Event]) -> None:
    att, dfd = state["chars"][t["a"]], state["chars"][t["d"]]
    a_dice = roll(state, attack_dice(att))
    d_dice = [] if has_ability(att, "assassinate") and not in_inner(att) else roll(state, attack_dice(dfd))
    events.append(
        {
            "type": "DuelRolled",
            "attacker": t["a"],
            "defender": t["d"],
            "attacker_dice": a_dice,
            "defender_dice": d_dice,
        }
    )
    push(state, {**t, "t": "duel_fate", "ad": a_dice, "dd": d_dice, "who": "a"})


@task("duel_fate")
def t_duel_fate(state: State, t: Task, events: list[Event]) -> None:
    """The attacker decides on a fate re-roll first, then the defender."""
    seat = t["a"] if t["who"] == "a" else t["d"]
    dice = t["ad"] if t["who"] == "a" else t["dd"]
    if dice and state["chars"][seat]["fate"] > 0:
        a_score, d_score = duel_scores(state, t)  # the re-roll is weighed against both sides' scores
        score, foe_score = (a_score, d_score) if t["who"] == "a" else (d_score, a_score)
        ask(state, seat, "duel_reroll", duel=t, dice=dice, score=score, foe_score=foe_score)
        return
    duel_next(state, t)


def duel_bases(state: State, t: Task) -> tuple[int, int]:
    """The attacker's and the defender's battle Strength (Craft in psychic combat), before the dice."""
    att, dfd = state["chars"][t["a"]], state["chars"][t["d"]]
    if t["mode"] == "psychic":
        return battle_craft(state, att), battle_craft(state, dfd)
    return battle_strength(state, att), battle_strength(state, dfd)


def duel_dice(t: Task) -> tuple[int, int]:
    """What the attacker's and the defender's dice add as they stand: the best of each side's (none unrolled)."""
    return max(t["ad"]), max(t["dd"]) if t["dd"] else 0


def duel_scores(state: State, t: Task) -> tuple[int, int]:
    """The attacker's and the defender's scores with their dice as they stand."""
    (a_val, d_val), (a_die, d_die) = duel_bases(state, t), duel_dice(t)
    return a_val + a_die, d_val + d_die


def duel_next(state: State, t: Task) -> None:
    if t["who"] == "a":
        push(state, {**t, "who": "d"})
    else:
        push(state, {**t, "t": "duel_resolve"})


@prompt("duel_reroll")
def p_duel_reroll(state: State, p: Prompt) -> list[Action]:
    return [{"type": pass_type(state, p, "accept_roll")}] + [
        {"type": "reroll", "die": i} for i in range(len(p["dice"]))
    ]


def pass_type(state: State, p: Prompt, own: str) -> str:
    """Out of turn, the do-nothing answer is always "decline", which the bot gives by itself after a while."""
    return own if p["seat"] == state["seat"] else "decline"


@prompt("duel_reroll!")
def a_duel_reroll(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    t = dict(p["duel"])
    if action["type"] == "reroll":
        state["chars"][p["seat"]]["fate"] -= 1
        key = "ad" if t["who"] == "a" else "dd"
        dice = list(t[key])
        dice[action["die"]] = roll(state)[0]
        t[key] = dice
        events.append({"type": "FateSpent", "seat": p["seat"], "dice": dice, "reason": "battle"})
    duel_next(state, t)


@task("duel_resolve")
def t_duel_resolve(state: State, t: Task, events: list[Event]) -> None:
    att, dfd = state["chars"][t["a"]], state["chars"][t["d"]]
    psychic = t["mode"] == "psychic"
    (a_val, d_val), (a_die, d_die) = duel_bases(state, t), duel_dice(t)
    a_score, d_score = a_val + a_die, d_val + d_die
    att["boost"] = dfd["boost"] = 0
    events.append(
        {
            "type": "DuelResolved",
            "attacker": t["a"],
            "defender": t["d"],
            "attacker_score": a_score,
            "defender_score": d_score,
            "attacker_base": a_val,
            "defender_base": d_val,
            "psychic": psychic,
        }
    )
    cut_turn(state)
    if a_score == d_score:
        events.append({"type": "StandOff", "seat": t["a"], "target": t["d"]})
        return
    winner, loser = (t["a"], t["d"]) if a_score > d_score else (t["d"], t["a"])
    ask(state, winner, "spoils", loser=loser, psychic=psychic)


@prompt("spoils")
def p_spoils(state: State, p: Prompt) -> list[Action]:
    loser = state["chars"][p["loser"]]
    me = state["chars"][p["seat"]]
    acts: list[Action] = [{"type": "take_life"}]
    if p["seat"] != state["seat"]:
        acts.append({"type": "decline"})
    if loser["gold"]:
        acts.append({"type": "take_gold"})
    acts += [{"type": "take_card", "card": i["u"]} for i in loser["items"] if can_hold(me, i)]
    return acts


@prompt("spoils!")
def a_spoils(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    seat, loser = p["seat"], p["loser"]
    if action["type"] == "decline":
        events.append({"type": "SpoilsDeclined", "seat": seat, "target": loser})
        return
    if action["type"] != "take_life":
        take_from(state, seat, loser, action, events)
        return
    me = state["chars"][seat]
    if has_ability(me, "feast"):
        gain_life(state, seat, 1, events)
    if not p["psychic"] and any(passive(w).get("life_steal") for w in weapons(state, me)):
        gain_life(state, seat, 1, events)
    push(state, {"t": "loot_check", "w": seat, "v": loser})
    lose_life(state, loser, 1, "battle", armour=not p["psychic"], by=seat)


@task("loot_check")
def t_loot_check(state: State, t: Task, events: list[Event]) -> None:
    victim = state["chars"][t["v"]]
    drop = state.get("dropped")
    if victim["dead"] and drop and drop["seat"] == t["v"] and alive(state["chars"][t["w"]]):
        ask(state, t["w"], "loot", sp=drop["space"])


@prompt("loot")
def p_loot(state: State, p: Prompt) -> list[Action]:
    drop = state["dropped"]
    me = state["chars"][p["seat"]]
    cards = [i for i in state["board"].get(str(p["sp"]), []) if i["u"] in drop["uids"] and can_hold(me, i)]
    acts: list[Action] = [{"type": pass_type(state, p, "done")}]
    if state["gold"].get(str(p["sp"]), 0) and drop["gold"]:
        acts.append({"type": "take_gold"})
    return acts + [{"type": "take_card", "card": i["u"]} for i in cards]


@prompt("loot!")
def a_loot(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] in ("done", "decline"):
        state["dropped"] = None
        return
    space = p["sp"]
    if action["type"] == "take_gold":
        amount = min(state["dropped"]["gold"], state["gold"].get(str(space), 0))
        state["gold"][str(space)] -= amount
        if not state["gold"][str(space)]:
            del state["gold"][str(space)]
        state["dropped"]["gold"] = 0
        gain_gold(state, p["seat"], amount, events)
    else:
        inst = remove_from_board(state, space, action["card"])
        if inst:
            gain_card(state, p["seat"], inst, events)
    ask(state, p["seat"], "loot", sp=space)


def gain_card(state: State, seat: int, inst: dict[str, Any], events: list[Event]) -> None:
    ch = state["chars"][seat]
    (ch["fol"] if card_kind(inst) == "follower" else ch["items"]).append(inst)
    events.append({"type": "CardGained", "seat": seat, "card": inst["c"]})


# --- the space's instructions -------------------------------------------------------------------------------


@task("space")
def t_space(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    space = t["sp"]
    if not here(state, seat, space):
        return
    info = SPACES[space]
    ch = state["chars"][seat]
    if space == CROWN:
        return
    gold_here = state["gold"].pop(str(space), 0)
    if gold_here:
        gain_gold(state, seat, gold_here, events)
    if "draw" in info:
        tail = [{"t": "draw", "sp": space}]
        if info["kind"] == "desert":
            push(state, *tail)
            fx(state, seat, info["effects"], space)
            return
        if abandonable(ch) and cards_to_draw(state, space) > 0:
            ask(state, seat, "pre_draw", sp=space)
            return
        push(state, *tail)
        return
    steps: list[Task] = [{"t": "cards", "sp": space, "lo": 0, "hi": 3}]
    if "effects" in info:
        steps.append({"t": "fx", "s": seat, "ops": space_effects(state, ch, info), "sp": space})
    if "services" in info:
        steps.append({"t": "services", "sp": space})
    if info["kind"] == "chapel" and has_ability(ch, "chapel_spell"):
        steps.append({"t": "fx", "s": seat, "ops": [{"op": "gain_spell", "n": 1}], "sp": space})
    steps.append({"t": "cards", "sp": space, "lo": 4, "hi": 9})
    push(state, *steps)


def space_effects(state: State, ch: Char, info: dict[str, Any]) -> list[dict[str, Any]]:
    ops = info["effects"]
    if info["kind"] == "forest" and has_ability(ch, "forest_spells"):
        return [{"op": "either", "options": {"roll": ops, "commune": [{"op": "fill_spells"}]}}]
    return ops


@prompt("pre_draw")
def p_pre_draw(state: State, p: Prompt) -> list[Action]:
    ch = state["chars"][p["seat"]]
    return [{"type": "draw_cards"}] + [{"type": "abandon", "card": i["u"]} for i in abandonable(ch)]


def abandonable(ch: Char) -> list[dict[str, Any]]:
    """Objects and Followers one may put down; the Hag and the Poltergeist leave only on their own terms."""
    return [i for i in holdings(ch) if i["c"] not in CURSES]


@prompt("pre_draw!")
def a_pre_draw(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    """Cards abandoned before drawing lie on the space and count towards its number of cards."""
    seat = p["seat"]
    ch = state["chars"][seat]
    if action["type"] == "draw_cards":
        push(state, {"t": "draw", "sp": p["sp"]})
        return
    for pile in (ch["items"], ch["fol"]):
        inst = next((i for i in pile if i["u"] == action["card"]), None)
        if inst:
            pile.remove(inst)
            inst["left_turn"] = state["turn"]
            put_on_board(state, p["sp"], inst)
            events.append({"type": "CardLeft", "seat": seat, "card": inst["c"], "space": p["sp"]})
    if abandonable(ch) and cards_to_draw(state, p["sp"]) > 0:
        ask(state, seat, "pre_draw", sp=p["sp"])
    else:
        push(state, {"t": "draw", "sp": p["sp"]})


@task("draw")
def t_draw(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    space = t["sp"]
    if not here(state, seat, space):
        return
    drawn = []
    for _ in range(cards_to_draw(state, space)):
        inst = draw_adventure(state)
        if inst is None:
            break
        events.append({"type": "CardDrawn", "seat": seat, "card": inst["c"], "space": space})
        placed = place_drawn(state, inst, space, events)
        if placed == space:
            drawn.append(inst["u"])
    if not board_cards(state, space):
        del state["board"][str(space)]
    ch = state["chars"][seat]
    if drawn and (has_ability(ch, "card_swap") or has_passive(state, ch, "card_swap")):
        ask(state, seat, "swap", sp=space, drawn=drawn)
        return
    push(state, {"t": "cards", "sp": space, "lo": 0, "hi": 9})


def cards_to_draw(state: State, space: int) -> int:
    """Draw up to the space's number: every card already there counts, a Hex included (the rulebook's turn
    example at the Oasis)."""
    hexes = sum(1 for h in state["hexes"] if h["space"] == space)
    return max(0, SPACES[space]["draw"] - len(state["board"].get(str(space), [])) - hexes)


def place_drawn(state: State, inst: dict[str, Any], space: int, events: list[Event]) -> int:
    """Cards that belong elsewhere (a Ghost's haunt, the Hermit's home) are placed there first and do not
    affect the drawer; Raiders act at once."""
    on_draw = card_def(inst).get("on_draw")
    if on_draw and on_draw["op"] == DRAW_OPS[0]:
        die_ = roll(state)[0]
        target = KIND_INDEX[on_draw["to"][die_ - 1]]
        events.append(
            {"type": "CardPlaced", "seat": state["seat"], "card": inst["c"], "space": target, "die": die_}
        )
        put_on_board(state, target, inst)
        return target
    put_on_board(state, space, inst)
    return space


@prompt("swap")
def p_swap(state: State, p: Prompt) -> list[Action]:
    on_board = {i["u"] for i in state["board"].get(str(p["sp"]), [])}
    return [{"type": "keep_cards"}] + [{"type": "redraw", "card": u} for u in p["drawn"] if u in on_board]


@prompt("swap!")
def a_swap(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    space = p["sp"]
    if action["type"] == "redraw":
        inst = remove_from_board(state, space, action["card"])
        if inst:
            discard(state, inst)
            events.append({"type": "CardRedrawn", "seat": p["seat"], "card": inst["c"]})
            new = draw_adventure(state)
            if new:
                events.append({"type": "CardDrawn", "seat": p["seat"], "card": new["c"], "space": space})
                place_drawn(state, new, space, events)
    push(state, {"t": "cards", "sp": space, "lo": 0, "hi": 9})


@task("cards")
def t_cards(state: State, t: Task, events: list[Event]) -> None:
    """Encounter the cards on a space by ascending encounter number (draw order breaks ties); Enemies of the
    same number that fight by Strength are fought together as one."""
    seat = state["seat"]
    space = t["sp"]
    if not here(state, seat, space):
        return
    cards = [i for i in state["board"].get(str(space), []) if t["lo"] <= encounter_number(i) <= t["hi"]]
    cards = [i for i in cards if i.get("left_turn") != state["turn"]]
    cards.sort(key=encounter_number)
    tasks: list[Task] = []
    for inst in cards:
        entry = card_def(inst)
        prev = tasks[-1] if tasks else None
        if (
            prev
            and entry.get("type") == "enemy"
            and "strength" in entry
            and prev.get("group")
            and prev["num"] == entry["number"]
        ):
            prev["u"].append(inst["u"])
            continue
        group = entry.get("type") == "enemy" and "strength" in entry
        tasks.append(
            {"t": "card", "sp": space, "u": [inst["u"]], "group": group, "num": encounter_number(inst)}
        )
    push(state, *tasks)


@task("card")
def t_card(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    space = t["sp"]
    if not here(state, seat, space):
        return
    on_board = {i["u"]: i for i in state["board"].get(str(space), [])}
    insts = [on_board[u] for u in t["u"] if u in on_board]
    if not insts:
        return
    inst = insts[0]
    entry = card_def(inst)
    kind = card_kind(inst)
    ch = state["chars"][seat]
    events.append({"type": "CardEncountered", "seat": seat, "cards": [i["c"] for i in insts], "space": space})
    if kind == "event" and entry.get("hostile") and state["opts"]["evade_hostile"] and not t.get("met"):
        ask(state, seat, "hostile_event", task=t, card=inst["c"])
        return
    if kind == "event":
        remove_from_board(state, space, inst["u"])
        if entry["effects"][0]["op"] != "attach_follower":
            discard(state, inst)
        push(state, {"t": "fx", "s": seat, "ops": entry["effects"], "sp": space, "card": inst})
    elif kind == "enemy":
        foe = enemy_foe(insts)
        push(state, combat_task(seat, foe, "card", sp=space))
    elif kind == "stranger":
        unmet = unmet_requirement(state, ch, entry.get("requires"))
        if unmet:
            no_effect(events, seat, unmet[0], inst["c"], **unmet[1])
            return
        ops = entry["effects"]
        if entry.get("after") == "vanish_on_use":
            ops = ops + [{"op": "vanish", "u": inst["u"]}]
        if entry.get("hostile") and state["opts"]["evade_hostile"]:
            ask(state, seat, "hostile", ops=ops, sp=space, card=inst["c"])
            return
        push(state, {"t": "fx", "s": seat, "ops": ops, "sp": space, "card": inst})
    elif kind == "place":
        push(state, {"t": "fx", "s": seat, "ops": entry["effects"], "sp": space, "card": inst})
    elif "gold" in entry:
        remove_from_board(state, space, inst["u"])
        discard(state, inst)
        if not supply(state, "gold"):
            no_effect(events, seat, "no_gold", inst["c"])
        gain_gold(state, seat, entry["gold"], events)
    elif not can_hold(ch, inst):  # bound to another alignment, or a Follower while the Hag drives them off
        forbid = passive(inst).get("forbid")
        if forbid == ch["align"]:
            no_effect(events, seat, "forbidden", inst["c"], alignment=forbid)
        else:
            no_effect(events, seat, "hag", inst["c"])
    elif entry.get("passive", {}).get("hire") and ch["gold"] < 1:
        no_effect(events, seat, "cannot_hire", inst["c"])
    else:
        ask(state, seat, "take", card=inst["u"], sp=space)


def unmet_requirement(
    state: State, ch: Char, req: dict[str, Any] | None
) -> tuple[str, dict[str, Any]] | None:
    """Why a Stranger grants this character nothing (a Craft too low, another alignment), with its figure."""
    if not req:
        return None
    if "craft_min" in req and craft(state, ch) < req["craft_min"]:
        return "needs_craft", {"n": req["craft_min"]}
    if "alignment" in req and ch["align"] != req["alignment"]:
        return "needs_alignment", {"alignment": req["alignment"]}
    return None


@prompt("hostile")
def p_hostile(state: State, p: Prompt) -> list[Action]:
    return [{"type": "meet"}, {"type": "evade"}]


@prompt("hostile!")
def a_hostile(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "meet":
        push(state, {"t": "fx", "s": p["seat"], "ops": p["ops"], "sp": p["sp"]})
    else:
        events.append({"type": "Evaded", "seat": p["seat"], "card": p["card"]})


@prompt("hostile_event")
def p_hostile_event(state: State, p: Prompt) -> list[Action]:
    return [{"type": "meet"}, {"type": "evade"}]


@prompt("hostile_event!")
def a_hostile_event(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    """An evaded hostile event stays where it is for the next visitor."""
    if action["type"] == "meet":
        push(state, {**p["task"], "met": True})
    else:
        events.append({"type": "Evaded", "seat": p["seat"], "card": p["card"]})


@prompt("take")
def p_take(state: State, p: Prompt) -> list[Action]:
    return [{"type": "take", "card": p["card"]}, {"type": "leave", "card": p["card"]}]


def hire_price(state: State, p: Prompt) -> int:
    """What taking the card a "take" prompt offers costs (a Follower hired: the Mercenary); 0 if nothing."""
    inst = next((i for i in state["board"].get(str(p["sp"]), []) if i["u"] == p["card"]), None)
    return passive(inst).get("hire", 0) if inst else 0


@prompt("take!")
def a_take(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "leave":
        return
    seat = p["seat"]
    inst = remove_from_board(state, p["sp"], p["card"])
    if inst is None:
        return
    if passive(inst).get("hire"):
        lose_gold(state, seat, passive(inst)["hire"], events)
    gain_card(state, seat, inst, events)


def enemy_foe(insts: list[dict[str, Any]]) -> dict[str, Any]:
    first = card_def(insts[0])
    foe: dict[str, Any] = {"name": first["id"], "uids": [i["u"] for i in insts], "subtype": first["subtype"]}
    if "strength" in first:
        foe["strength"] = sum(card_def(i)["strength"] for i in insts)
    else:
        foe["craft"] = first["craft"]
    if first.get("mirror"):
        foe["mirror"] = True
    if first.get("bribe"):
        foe["bribe"] = first["bribe"]
    return foe


def combat_task(
    seat: int,
    foe: dict[str, Any],
    ctx: str,
    sp: int | None = None,
    on_win: list[Task] | None = None,
    on_evade: list[Task] | None = None,
) -> Task:
    return {
        "t": "combat",
        "s": seat,
        "foe": foe,
        "ctx": ctx,
        "sp": sp,
        "win": on_win or [],
        "evade": on_evade or [],
    }


# --- combat against creatures -------------------------------------------------------------------------------


def psychic_foe(foe: dict[str, Any]) -> bool:
    return "craft" in foe


def can_evade_foe(state: State, ch: Char, foe: dict[str, Any]) -> bool:
    if foe.get("inner") or in_inner(ch):
        return False
    if ch["inv"] or foe.get("evadable") or evade_here(state, ch):
        return True
    ability = has_ability(ch, "evade_types")
    return bool(ability and foe.get("subtype") in ability["types"])


@task("combat")
def t_combat(state: State, t: Task, events: list[Event]) -> None:
    seat = t["s"]
    ch = state["chars"][seat]
    if not alive(ch) or (t["sp"] is not None and ch["space"] != t["sp"]):
        return
    ask(state, seat, "combat", c=t)


@prompt("combat")
def p_combat(state: State, p: Prompt) -> list[Action]:
    seat = p["seat"]
    ch = state["chars"][seat]
    foe = p["c"]["foe"]
    acts: list[Action] = [{"type": "fight"}]
    if can_evade_foe(state, ch, foe):
        acts.append({"type": "evade"})
    if foe.get("inner"):
        return acts
    if foe.get("bribe") and ch["gold"] >= foe["bribe"]:
        acts.append({"type": "pay_off"})
    if foe.get("subtype") == "spirit" and has_passive(state, ch, "cross"):
        acts.append({"type": "use_cross"})
    if not psychic_foe(foe):
        potion = has_passive(state, ch, "potion")
        if potion:
            acts.append({"type": "drink_potion"})
        if not ch["merc"] and ch["gold"] >= MERCENARY_FEE and has_passive(state, ch, "battle_bonus"):
            acts.append({"type": "pay_mercenary"})
    spells = castable(state, seat, "combat")
    acts += [
        {"type": "cast_spell", "spell": s} for s in spells if s != "psionic_blast" or not psychic_foe(foe)
    ]
    return acts


@prompt("combat!")
def a_combat(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    seat = p["seat"]
    ch = state["chars"][seat]
    t = p["c"]
    foe = t["foe"]
    kind = action["type"]
    if kind == "fight":
        foe_roll = roll(state)[0] if foe_rolls(ch, foe) else 0
        roll_for(
            state, seat, attack_dice(ch), {**t, "t": "combat_resolve", "foe_roll": foe_roll}, "battle", events
        )
        events.append({"type": "FoeRolled", "seat": seat, "foe": foe["name"], "die": foe_roll})
        reroll = state["p"]
        if reroll is not None and reroll["k"] == "reroll":  # a fate re-roll is weighed against the scores
            reroll["score"], reroll["foe_score"] = combat_scores(state, reroll["then"], reroll["dice"])
        return
    if kind == "evade":
        events.append({"type": "Evaded", "seat": seat, "foe": foe["name"]})
        push(state, *t["evade"])
        return
    if kind == "pay_off":
        lose_gold(state, seat, foe["bribe"], events)
        events.append({"type": "PaidOff", "seat": seat, "foe": foe["name"]})
        push(state, *t["evade"])
        return
    if kind == "use_cross":
        events.append({"type": "SpiritBanished", "seat": seat, "foe": foe["name"]})
        for uid in foe.get("uids", []):
            inst = remove_from_board(state, t["sp"], uid)
            if inst:
                discard(state, inst)
        enemy_killed(state, seat)
        push(state, *t["win"])
        return
    if kind == "drink_potion":
        inst = has_passive(state, ch, "potion")
        ch["items"].remove(inst)
        discard(state, inst)
        ch["tboost"] += passive(inst)["potion"]
        events.append({"type": "PotionDrunk", "seat": seat})
    elif kind == "pay_mercenary":
        lose_gold(state, seat, MERCENARY_FEE, events)
        ch["merc"] = True
        ch["tboost"] += passive(has_passive(state, ch, "battle_bonus"))["battle_bonus"]
    elif kind == "cast_spell":
        start_cast(state, seat, action["spell"], "combat", t, events)
        return
    push(state, t)


def enemy_killed(state: State, seat: int) -> None:
    ch = state["chars"][seat]
    if ch["quest"] == "kill_enemy":
        ch["qflag"] = True


def combat_values(state: State, t: Task) -> tuple[int, int]:
    """A fight's values before the dice: the character's battle Strength (Craft against a spirit) and the foe's,
    with what the space adds to the foe's roll (the Runes)."""
    ch = state["chars"][t["s"]]
    foe = t["foe"]
    if psychic_foe(foe):
        mine = battle_craft(state, ch, foe)
        foe_value = foe["craft"]
    else:
        mine = battle_strength(state, ch, foe)
        foe_value = mine if foe.get("mirror") else foe["strength"]
    return mine, foe_value + creature_bonus(t)


def creature_bonus(t: Task) -> int:
    """What the fight's space adds to a creature's attack roll (the Runes: 2)."""
    if t["sp"] is None or t["sp"] == CROWN:
        return 0
    return SPACES[t["sp"]].get("passive", {}).get("creature_bonus", 0)


def combat_scores(state: State, t: Task, dice: list[int]) -> tuple[int, int]:
    """A fight's battle scores with these attack dice: the character's (its best die) and the foe's."""
    mine, foe_value = combat_values(state, t)
    return mine + max(dice), foe_value + t["foe_roll"]


@task("combat_resolve")
def t_combat_resolve(state: State, t: Task, events: list[Event]) -> None:
    seat = t["s"]
    ch = state["chars"][seat]
    foe = t["foe"]
    psychic = psychic_foe(foe)
    my_score, foe_score = combat_scores(state, t, t["dice"])
    used_weapons = [] if psychic else weapons(state, ch, foe)
    ch["boost"] = 0
    events.append(
        {
            "type": "BattleResolved",
            "seat": seat,
            "foe": foe["name"],
            "score": my_score,
            "foe_score": foe_score,
            "base": my_score - max(t["dice"]),
            "foe_base": foe_score - t["foe_roll"],
            "psychic": psychic,
        }
    )
    ctx = t["ctx"]
    if my_score > foe_score:
        events.append({"type": "FoeDefeated", "seat": seat, "foe": foe["name"]})
        if any(passive(w).get("life_steal") for w in used_weapons):
            gain_life(state, seat, 1, events)
        if ctx == "card":
            for uid in foe["uids"]:
                inst = remove_from_board(state, t["sp"], uid)
                if inst is None:
                    continue
                entry = card_def(inst)
                if entry.get("no_trophy"):
                    discard(state, inst)
                    push(state, {"t": "fx", "s": seat, "ops": entry["kill_reward"], "sp": t["sp"]})
                else:
                    value = entry.get("strength", entry.get("craft", 0))
                    ch["tro"].append({"k": "craft" if psychic else "strength", "v": value, "inst": inst})
            enemy_killed(state, seat)
        elif foe.get("trophy"):
            ch["tro"].append(
                {
                    "k": "craft" if psychic else "strength",
                    "v": foe.get("strength", foe.get("craft", 0)),
                    "inst": None,
                }
            )
            enemy_killed(state, seat)
        elif ctx == "werewolf":
            ch["hold"] = None
        elif ctx == "pits":
            hold = ch["hold"] or {"k": "pits", "left": 1}
            hold["left"] -= 1
            ch["hold"] = hold if hold["left"] > 0 else None
            if ch["hold"]:
                push(state, combat_task(seat, {"name": "pitfiend", "strength": 4, "inner": True}, "pits"))
        push(state, *t["win"])
        return
    if ctx == "werewolf":
        ch["hold"] = {"k": "werewolf", "str": foe["strength"]}
    cut_turn(state)
    if my_score == foe_score:
        events.append({"type": "StandOff", "seat": seat, "foe": foe["name"]})
        return
    events.append({"type": "BattleLost", "seat": seat, "foe": foe["name"]})
    lose_life(state, seat, 1, foe["name"], armour=not psychic)


# --- the effect vocabulary ----------------------------------------------------------------------------------


def fx(
    state: State, seat: int, ops: list[dict[str, Any]], space: int | None, card: dict[str, Any] | None = None
) -> None:
    push(state, {"t": "fx", "s": seat, "ops": ops, "sp": space, "card": card})


@task("fx")
def t_fx(state: State, t: Task, events: list[Event]) -> None:
    """Carry out the first effect of a list; the rest follow after whatever that effect queues."""
    ops = t["ops"]
    seat = t["s"]
    if not ops or not alive(state["chars"][seat]):
        return
    if len(ops) > 1:
        push(state, {**t, "ops": ops[1:]})
    op = ops[0]
    why = futile_op(state, seat, op)
    if why:
        stat = {"stat": op["op"].removeprefix("lose_")} if why == "printed_value" else {}
        no_effect(events, seat, why, fx_source(t), **stat)
    OPS[op["op"]](state, seat, op, t, events)


OPS: dict[str, Callable[[State, int, dict[str, Any], Task, list[Event]], None]] = {}


def op(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        OPS[name] = fn
        return fn

    return register


def protected(state: State, ch: Char, unless: str | None) -> bool:
    if unless is None:
        return False
    if unless == "desert_safe":
        return has_passive(state, ch, "desert_safe") is not None
    if unless == "graveyard_safe":
        return ch["align"] == "good" and has_passive(state, ch, "graveyard_safe_good") is not None
    if unless == "chapel_safe":
        return ch["align"] == "evil" and has_passive(state, ch, "chapel_safe_evil") is not None
    return False


def futile_op(state: State, seat: int, o: dict[str, Any]) -> str | None:
    """Why the effect `o` would do nothing for `seat` now: a limit reached (the Spell limit, full life, no Toad
    left, a Strength already at its printed value), nothing to lose (no gold, no Follower) or a quest under way;
    None when it would do something."""
    ch = state["chars"][seat]
    name = o["op"]
    if name in ("gain_spell", "fill_spells"):
        if len(ch["spells"]) >= max_spells(state, ch):
            return "spell_limit"
        if not spells_left(state):
            return "no_spells"
    elif name == "heal" and ch["life"] >= card_of(ch)["life"]:
        return "full_life"
    elif name == "replenish_fate" and ch["fate"] >= card_of(ch)["fate"]:
        return "full_fate"
    elif name in ("replenish_fate", "gain_fate") and not supply(state, "fate"):
        return "no_fate"
    elif name == "gain_gold" and not supply(state, "gold"):
        return "no_gold"
    elif name == "gain_talisman" and state["tal"] <= 0:
        return "no_talismans"
    elif name == "toad" and ch["toad"] == 0 and not supply(state, "toads"):
        return "no_toads"
    elif name in ("lose_strength", "lose_craft") and ch[counter_key(ch, name.removeprefix("lose_"))] == 0:
        return "printed_value"
    elif name in ("lose_gold", "steal_gold_to") and ch["gold"] == 0:
        return "no_gold_held"
    elif name == "lose_follower" and not ch["fol"]:
        return "no_followers"
    elif name == "quest" and ch["quest"] is not None:
        return "on_quest"
    return None


def futile(state: State, seat: int, ops: list[dict[str, Any]]) -> str | None:
    """Why a list of effects would do nothing at all for `seat` now (see futile_op), or None."""
    whys = [futile_op(state, seat, o) for o in ops]
    return whys[0] if whys and all(whys) else None


def no_effect(events: list[Event], seat: int, why: str, source: str, **facts: Any) -> None:
    """Tell that an effect or an encounter did nothing, and why (see futile_op), with the figures that say it (a
    stat, an alignment): a choice or an encounter is never silently void."""
    events.append({"type": "NoEffect", "seat": seat, "why": why, "source": source, **facts})


def fx_source(t: Task) -> str:
    """Where an effect comes from, for the events it causes: its card, else the space's kind."""
    return (t.get("card") or {}).get("c") or SPACES[t["sp"]]["kind"]


@op("lose_life")
def op_lose_life(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    if not protected(state, state["chars"][seat], o.get("unless")):
        lose_life(state, seat, o["n"], fx_source(t))


@op("gain_life")
def op_gain_life(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    gain_life(state, seat, o["n"], events)


@op("heal")
def op_heal(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    heal(state, seat, o["n"], events)


@op("gain_gold")
def op_gain_gold(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    gain_gold(state, seat, o["n"], events)


@op("lose_gold")
def op_lose_gold(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    lose_gold(state, seat, o["n"], events)


for _stat in SEAT_KINDS:

    def _gain(
        state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event], stat: str = _stat
    ) -> None:
        add_stat(state, seat, stat, o["n"], events, fx_source(t))

    def _lose(
        state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event], stat: str = _stat
    ) -> None:
        add_stat(state, seat, stat, -o["n"], events, fx_source(t))

    OPS[f"gain_{_stat}"] = _gain
    OPS[f"lose_{_stat}"] = _lose


@op("gain_fate")
def op_gain_fate(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    gain_fate(state, seat, o["n"], events)


@op("replenish_fate")
def op_replenish(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    replenish_fate(state, seat, events)


@op("gain_spell")
def op_gain_spell(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    gain_spells(state, seat, o["n"], events)


@op("fill_spells")
def op_fill_spells(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    gain_spells(state, seat, 3, events)


@op("toad")
def op_toad(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    become_toad(state, seat, events)


@op("miss_turn")
def op_miss_turn(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    miss_turn(state, seat, events, fx_source(t))


@op("miss_turn_if_below")
def op_miss_if(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    ch = state["chars"][seat]
    value = strength(state, ch) if o["stat"] == "strength" else craft(state, ch)
    if value < o["value"]:
        miss_turn(state, seat, events, fx_source(t))


@op("set_alignment")
def op_set_alignment(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    set_alignment(state, seat, o["to"], events)


@op("by_alignment")
def op_by_alignment(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    push(state, {**t, "ops": o[state["chars"][seat]["align"]]})


@op("roll")
def op_roll(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    ch = state["chars"][seat]
    skip = o.get("skip_with")
    if skip and guided(state, ch, skip):
        ask(state, seat, "either", options={"roll": [{**o, "skip_with": None}], "skip": []}, t=t)
        return
    roll_for(state, seat, o["dice"], {"t": "fx_roll", "o": o, "ft": t}, "instruction", events)
    reroll = state["p"]
    if reroll is not None and reroll["k"] == "reroll":  # a fate re-roll is weighed against what the roll does
        reroll["as_rolled"] = roll_result(o, reroll["dice"])


def roll_result(o: dict[str, Any], dice: list[int]) -> list[dict[str, Any]]:
    """What an instruction to roll does for these dice: the effects of the row their total is on (none: nothing)."""
    total = sum(dice)
    return next((row["do"] for row in o["results"] if total in row["on"]), [])


def guided(state: State, ch: Char, where: list[str]) -> bool:
    ability = has_ability(ch, "guide")
    if ability and set(ability["where"]) & set(where):
        return True
    return any(set(passive(f).get("guide", [])) & set(where) for f in ch["fol"])


@task("fx_roll")
def t_fx_roll(state: State, t: Task, events: list[Event]) -> None:
    ops, effects = roll_result(t["o"], t["dice"]), t["ft"]
    if ops:
        push(state, {**effects, "ops": ops})
    else:  # said, so a roll is never left without its outcome
        seat = effects["s"]
        no_effect(events, seat, "nothing_rolled", fx_source(effects))


@op("either")
def op_either(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    ask(state, seat, "either", options=o["options"], t=t)


@prompt("either")
def p_either(state: State, p: Prompt) -> list[Action]:
    return [{"type": "choose", "option": k} for k in p["options"]]


@prompt("either!")
def a_either(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    push(state, {**p["t"], "ops": p["options"][action["option"]]})


@op("pay_or")
def op_pay_or(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    ch = state["chars"][seat]
    options: dict[str, list[dict[str, Any]]] = {"suffer": o["else"]}
    if ch["gold"] >= o["gold"]:
        options["pay"] = [{"op": "lose_gold", "n": o["gold"]}]
    if o.get("hostile") and state["opts"]["evade_hostile"]:
        options["evade"] = []
    if len(options) == 1:
        push(state, {**t, "ops": o["else"]})
    else:
        ask(state, seat, "either", options=options, t=t)


@op("fight")
def op_fight(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    foe = {"name": o["name"], "strength": o["strength"], "trophy": o.get("trophy", False)}
    push(state, combat_task(seat, foe, "event", sp=t["sp"]))


@op("psychic")
def op_psychic(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    foe = {"name": o["name"], "craft": o["craft"], "subtype": "spirit"}
    push(state, combat_task(seat, foe, "event", sp=t["sp"]))


@op("next_move")
def op_next_move(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    state["chars"][seat]["next"] = o["to"]


@op("move_to")
def op_move_to(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    target = KIND_INDEX[o["to"]]
    move_to(state, seat, target, events)
    if seat == state["seat"]:
        push(state, {"t": "arrive", "sp": target})


@op("teleport_choice")
def op_teleport_choice(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    if in_inner(state["chars"][seat]):
        return
    ask(state, seat, "go_space", spaces=teleport_spaces(state, seat))


@op("wish")
def op_wish(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    wishes = {
        "spell": [{"op": "gain_spell", "n": 1}],
        "gold": [{"op": "gain_gold", "n": 1}],
        "strength": [{"op": "gain_strength", "n": 1}],
        "craft": [{"op": "gain_craft", "n": 1}],
        "life": [{"op": "gain_life", "n": 1}],
        "fate": [{"op": "gain_fate", "n": 1}],
        "teleport": [{"op": "teleport_choice"}],
    }
    ask(state, seat, "either", options={k: wishes[k] for k in o["options"]}, t=t)


@op("vanish")
def op_vanish(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    found = find_on_board(state, o["u"])
    if found:
        inst = remove_from_board(state, found[0], o["u"])
        if inst:
            discard(state, inst)
            events.append({"type": "CardVanished", "seat": seat, "card": inst["c"]})


@op("gain_talisman")
def op_gain_talisman(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    inst = take_talisman(state)
    if inst:
        gain_card(state, seat, inst, events)


@op("lose_follower")
def op_lose_follower(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    if state["chars"][seat]["fol"]:
        ask(state, seat, "lose_follower")


@prompt("lose_follower")
def p_lose_follower(state: State, p: Prompt) -> list[Action]:
    return [{"type": "discard_follower", "card": f["u"]} for f in state["chars"][p["seat"]]["fol"]]


@prompt("lose_follower!")
def a_lose_follower(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    ch = state["chars"][p["seat"]]
    inst = next(f for f in ch["fol"] if f["u"] == action["card"])
    ch["fol"].remove(inst)
    discard(state, inst)
    events.append({"type": "FollowerLost", "seat": p["seat"], "card": inst["c"]})


@op("enslave")
def op_enslave(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    state["chars"][seat]["enslaved"] = True
    events.append({"type": "Enslaved", "seat": seat})


@op("blizzard")
def op_blizzard(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    state["blizzard"] = o["rounds"] * len(live_seats(state))


@op("vortex")
def op_vortex(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    for other, ch in enumerate(state["chars"]):
        if alive(ch) and ch["spells"]:
            state["spl_disc"] += ch["spells"]
            events.append({"type": "SpellsDiscarded", "seat": other, "spells": list(ch["spells"])})
            ch["spells"] = []


@op("all_miss_turn")
def op_all_miss(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    for other in live_seats(state):
        ch = state["chars"][other]
        if alive(ch) and ch["align"] != o["except_alignment"] and other != seat:
            miss_turn(state, other, events, fx_source(t))
    if state["chars"][seat]["align"] != o["except_alignment"]:
        miss_turn(state, seat, events, fx_source(t))


def same_region(state: State, seat: int) -> list[int]:
    mine = region(state["chars"][seat]["space"])
    return [
        s
        for s in live_seats(state)
        if alive(state["chars"][s]) and region(state["chars"][s]["space"]) == mine
    ]


@op("region_miss_turn")
def op_region_miss(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    for other in same_region(state, seat):
        if other != seat:
            miss_turn(state, other, events, fx_source(t))
    miss_turn(state, seat, events, fx_source(t))


@op("region_lose_life")
def op_region_life(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    for other in reversed(same_region(state, seat)):
        lose_life(state, other, o["n"], "pestilence")


@op("steal_gold_to")
def op_steal_gold(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    lost = lose_gold(state, seat, state["chars"][seat]["gold"], events)
    if lost:
        key = str(KIND_INDEX[o["to"]])
        state["gold"][key] = state["gold"].get(key, 0) + lost


@op("attach_follower")
def op_attach(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    ch = state["chars"][seat]
    inst = t["card"]
    if passive(inst).get("hag"):
        for f in list(ch["fol"]):
            ch["fol"].remove(f)
            discard(state, f)
            events.append({"type": "FollowerLost", "seat": seat, "card": f["c"]})
    ch["fol"].append(inst)
    events.append({"type": "CardGained", "seat": seat, "card": inst["c"]})


@op("rid_hag")
def op_rid_hag(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    ch = state["chars"][seat]
    for f in [f for f in ch["fol"] if passive(f).get("hag")]:
        ch["fol"].remove(f)
        discard(state, f)
        events.append({"type": "FollowerLost", "seat": seat, "card": f["c"]})


@op("market_day")
def op_market_day(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    for other in reversed([(seat + i) % state["players"] for i in range(state["players"])]):
        if not state["out"][other] and alive(state["chars"][other]):
            push(
                state,
                {"t": "shop_for", "s": other, "services": [{"service": "buy", "prices": MARKET_PRICES}]},
            )


@op("shop")
def op_shop(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    push(state, {"t": "shop_for", "s": seat, "services": [{"service": "buy", "prices": MARKET_PRICES}]})


@op("buy_fate")
def op_buy_fate(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    push(state, {"t": "shop_for", "s": seat, "services": [{"service": "fate", "price": o["price"]}]})


@op("buy_heal")
def op_buy_heal(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    push(
        state,
        {"t": "shop_for", "s": seat, "services": [{"service": "heal", "price": o["price"], "max": None}]},
    )


@op("buy_spell")
def op_buy_spell(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    push(state, {"t": "shop_for", "s": seat, "services": [{"service": "spell", "price": o["price"]}]})


@op("train")
def op_train(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    push(state, {"t": "shop_for", "s": seat, "services": [{"service": "train", "price": o["price"]}]})


@op("draw_pool")
def op_draw_pool(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    """The Fountain of Wisdom and the Magic Stream: one point per visit until their four are gone."""
    found = find_on_board(state, t["card"]["u"]) if t.get("card") else None
    if found is None or found[1].get("pool", 0) <= 0:
        return
    space, inst = found
    inst["pool"] -= 1
    add_stat(state, seat, o["stat"], 1, events, inst["c"])
    if inst["pool"] == 0:
        remove_from_board(state, space, inst["u"])
        discard(state, inst)
        events.append({"type": "CardVanished", "seat": seat, "card": inst["c"]})


@op("chasm")
def op_chasm(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    ch = state["chars"][seat]
    if guided(state, ch, o["skip_with"]):
        ask(state, seat, "either", options={"roll": [{**o, "skip_with": []}], "skip": []}, t=t)
        return
    roll_for(state, seat, 1, {"t": "chasm_roll", "fail": o["fail"]}, "chasm", events)


@task("chasm_roll")
def t_chasm_roll(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    ch = state["chars"][seat]
    for f in list(ch["fol"]):
        die_ = roll(state)[0]
        if die_ in t["fail"]:
            ch["fol"].remove(f)
            discard(state, f)
            events.append({"type": "FollowerLost", "seat": seat, "card": f["c"], "die": die_})
    if t["dice"][0] in t["fail"]:
        lose_life(state, seat, 1, "chasm")


@op("quest")
def op_quest(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    if state["chars"][seat]["quest"] is None:
        ask(
            state,
            seat,
            "either",
            options={"accept": [{"op": "quest_roll", "table": o["table"]}], "decline": []},
            t=t,
        )


@op("quest_roll")
def op_quest_roll(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    roll_for(state, seat, 1, {"t": "quest_set", "table": o["table"]}, "quest", events)


@task("quest_set")
def t_quest_set(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    row = next(r for r in t["table"] if t["dice"][0] in r["on"])
    ch = state["chars"][seat]
    ch["quest"] = row["quest"] if row["quest"] != "deliver_gold" else f"deliver_gold_{row['n']}"
    ch["qflag"] = False
    events.append({"type": "QuestTaken", "seat": seat, "quest": ch["quest"]})


def quest_complete(state: State, seat: int, events: list[Event]) -> bool:
    """A quest that can be completed is completed at once: deliver, return to the Warlock, take a Talisman."""
    ch = state["chars"][seat]
    quest = ch["quest"]
    done = False
    if quest in ("take_life", "kill_enemy"):
        done = ch["qflag"]
    elif quest == "deliver_follower":
        fol = [f for f in ch["fol"] if not passive(f).get("hag") and not passive(f).get("slow")]
        if fol:
            ch["fol"].remove(fol[0])
            discard(state, fol[0])
            done = True
    elif quest == "deliver_magic_object":
        mo = [i for i in ch["items"] if card_kind(i) == "magic_object"]
        if mo:
            ch["items"].remove(mo[0])
            discard(state, mo[0])
            done = True
    elif quest and quest.startswith("deliver_gold_"):
        need = int(quest.rsplit("_", 1)[1])
        if ch["gold"] >= need:
            ch["gold"] -= need
            done = True
    if not done:
        return False
    ch["quest"] = None
    ch["qflag"] = False
    ch["qdone"] += 1
    events.append({"type": "QuestCompleted", "seat": seat, "quest": quest})
    if ch["space"] != WARLOCK:
        ch["hold"] = None
        ch["back"] = False
        move_to(state, seat, WARLOCK, events)
    inst = take_talisman(state)
    if inst:
        gain_card(state, seat, inst, events)
    else:
        no_effect(events, seat, "no_talismans", SPACES[WARLOCK]["kind"])
    return True


@op("escape")
def op_escape(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    ch = state["chars"][seat]
    dice = o["dice"]
    ability = has_ability(ch, "mines_dice")
    gnome = has_passive(state, ch, "mines_dice")
    if o["stat"] == "craft" and (ability or gnome):
        dice = ability["n"] if ability else passive(gnome)["mines_dice"]
    roll_for(state, seat, dice, {"t": "escape_roll", "o": o}, "escape", events)


@task("escape_roll")
def t_escape_roll(state: State, t: Task, events: list[Event]) -> None:
    """Three dice less Strength (Crypt) or Craft (Mines) send the character on, as an encountered move."""
    seat = state["seat"]
    ch = state["chars"][seat]
    o = t["o"]
    value = strength(state, ch) if o["stat"] == "strength" else craft(state, ch)
    result = max(0, min(6, sum(t["dice"]) - value))
    target = KIND_INDEX[o["to"][str(result)]]
    if target == ch["space"]:
        events.append({"type": "Trapped", "seat": seat})
        return
    move_to(state, seat, target, events, "escape")
    push(state, {"t": "arrive", "sp": target})


@op("vampire")
def op_vampire(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    roll_for(state, seat, 1, {"t": "vampire_roll", "o": o}, "vampire", events)


@task("vampire_roll")
def t_vampire_roll(state: State, t: Task, events: list[Event]) -> None:
    lives = next(r["do"] for r in t["o"]["results"] if t["dice"][0] in r["on"])
    push(state, {"t": "vampire_pay", "n": lives})


@task("vampire_pay")
def t_vampire_pay(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    if t["n"] <= 0:
        return
    if state["chars"][seat]["fol"]:
        ask(state, seat, "vampire", n=t["n"])
    else:
        lose_life(state, seat, t["n"], "vampire")


@prompt("vampire")
def p_vampire(state: State, p: Prompt) -> list[Action]:
    return [{"type": "accept_loss"}] + [
        {"type": "sacrifice", "card": f["u"]} for f in state["chars"][p["seat"]]["fol"]
    ]


@prompt("vampire!")
def a_vampire(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    seat = p["seat"]
    if action["type"] == "accept_loss":
        lose_life(state, seat, p["n"], "vampire")
        return
    ch = state["chars"][seat]
    inst = next(f for f in ch["fol"] if f["u"] == action["card"])
    ch["fol"].remove(inst)
    discard(state, inst)
    events.append({"type": "FollowerLost", "seat": seat, "card": inst["c"]})
    push(state, {"t": "vampire_pay", "n": p["n"] - 1})


@op("pits")
def op_pits(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    roll_for(state, seat, 1, {"t": "pits_roll", "strength": o["strength"]}, "pits", events)


@task("pits_roll")
def t_pits_roll(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    state["chars"][seat]["hold"] = {"k": "pits", "left": t["dice"][0]}
    push(state, combat_task(seat, {"name": "pitfiend", "strength": t["strength"], "inner": True}, "pits"))


@op("werewolf")
def op_werewolf(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    roll_for(state, seat, o["dice"], {"t": "werewolf_roll"}, "werewolf", events)


@task("werewolf_roll")
def t_werewolf_roll(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    power = sum(t["dice"])
    events.append({"type": "WerewolfAppeared", "seat": seat, "strength": power})
    push(state, combat_task(seat, {"name": "werewolf", "strength": power, "inner": True}, "werewolf"))


@op("death")
def op_death(state: State, seat: int, o: dict[str, Any], t: Task, events: list[Event]) -> None:
    roll_for(state, seat, o["dice"], {"t": "death_roll"}, "death", events)


@task("death_roll")
def t_death_roll(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    ch = state["chars"][seat]
    death = roll(state, 2)
    mine, theirs = sum(t["dice"]), sum(death)
    events.append({"type": "DicedWithDeath", "seat": seat, "dice": t["dice"], "death": death})
    if mine > theirs:
        ch["hold"] = None
        return
    ch["hold"] = {"k": "death"}
    if mine < theirs:
        lose_life(state, seat, 1, "death")


@task("command_roll")
def t_command_roll(state: State, t: Task, events: list[Event]) -> None:
    roll_for(state, state["seat"], 1, {"t": "command_fx"}, "command", events)


@task("command_fx")
def t_command_fx(state: State, t: Task, events: list[Event]) -> None:
    """4-6 costs every other character a life (3-6 in the eased variant while five or more remain)."""
    seat = state["seat"]
    hits = COMMAND["hit"]
    remaining = [s for s in live_seats(state) if alive(state["chars"][s])]
    if state["opts"]["command_eased"] and len(remaining) >= COMMAND["eased_min_characters"]:
        hits = COMMAND["eased_hit"]
    hit = t["dice"][0] in hits
    events.append({"type": "CommandSpellResolved", "seat": seat, "die": t["dice"][0], "hit": hit})
    if hit:
        for other in reversed(remaining):
            if other != seat:
                lose_life(state, other, 1, "command", by=seat)


# --- services: shops, healers, trainers ---------------------------------------------------------------------


@task("services")
def t_services(state: State, t: Task, events: list[Event]) -> None:
    seat = state["seat"]
    push(state, {"t": "shop_for", "s": seat, "services": SPACES[t["sp"]]["services"]})


@task("shop_for")
def t_shop_for(state: State, t: Task, events: list[Event]) -> None:
    if alive(state["chars"][t["s"]]):
        ask(state, t["s"], "shop", services=t["services"], used=[], healed=0)


# A shop's services other than its wares, and what each offers while open.
SERVICE_ACTIONS: dict[str, list[Action]] = {
    "heal": [{"type": "heal"}],
    "royal_heal": [{"type": "royal_heal"}],
    "fate": [{"type": "buy_fate"}],
    "spell": [{"type": "buy_spell"}],
    "train": [{"type": "train", "stat": k} for k in SEAT_KINDS],
}
USED = "used"  # a service this visit has had all it offers of, or one this character cannot call on


def service_closed(state: State, ch: Char, p: Prompt, svc: dict[str, Any]) -> str | None:
    """Why one of SERVICE_ACTIONS' services offers the character nothing now: a reason of the why.* words, or
    USED; None while it is open. What the shop offers (p_shop), what it says is closed (shop_closed) and why a
    refused service is refused (refusals) all read it here."""
    kind = svc["service"]
    full_life = ch["life"] >= card_of(ch)["life"]
    if kind == "royal_heal":
        if "royal" in p["used"] or not any(passive(f).get("royal") for f in ch["fol"]):
            return USED
        return "full_life" if full_life else None
    if kind == "spell":
        if "spell" in p["used"]:
            return USED
        if len(ch["spells"]) >= max_spells(state, ch):
            return "spell_limit"
        if not spells_left(state):
            return "no_spells"  # the gold would buy nothing
    if kind == "heal" and full_life:
        return "full_life"
    if kind == "fate" and ch["fate"] >= card_of(ch)["fate"]:
        return "full_fate"
    if ch["gold"] < svc["price"]:
        return "short_of_gold"
    if kind == "heal" and p["healed"] >= (svc["max"] if svc["max"] is not None else 99):
        return USED
    return None


@prompt("shop")
def p_shop(state: State, p: Prompt) -> list[Action]:
    seat = p["seat"]
    ch = state["chars"][seat]
    acts: list[Action] = [{"type": pass_type(state, p, "done")}]
    for svc in p["services"]:
        kind = svc["service"]
        if kind == "buy":
            for item, price in svc["prices"].items():
                if ch["gold"] >= price and state["shop"].get(item, 0) > 0:
                    acts.append({"type": "buy", "item": item})
        elif kind == "exchange_royal":
            acts += [{"type": "exchange", "card": f["u"]} for f in ch["fol"] if passive(f).get("royal")]
        elif kind == "sell_objects":
            acts += [{"type": "sell", "card": i["u"]} for i in ch["items"]]
        elif kind == "roll" and svc["name"] not in p["used"]:
            acts.append({"type": "visit", "who": svc["name"]})
        elif kind in SERVICE_ACTIONS and service_closed(state, ch, p, svc) is None:
            acts += [dict(action) for action in SERVICE_ACTIONS[kind]]
    return acts


def shop_closed(state: State, p: Prompt) -> dict[str, str]:
    """The services of a shop that offer the character nothing now, each with why (what p_shop checks): the
    Sorcerer at the Spell limit leaves only "Done", which must not read as a shop that forgot its wares."""
    ch = state["chars"][p["seat"]]
    closed: dict[str, str] = {}
    for svc in p["services"]:
        kind = svc["service"]
        if kind == "buy" and not any(
            ch["gold"] >= price and state["shop"].get(item, 0) > 0 for item, price in svc["prices"].items()
        ):
            stocked = any(state["shop"].get(item, 0) > 0 for item in svc["prices"])
            closed[kind] = "short_of_gold" if stocked else "sold_out"
        elif kind in SERVICE_ACTIONS and (why := service_closed(state, ch, p, svc)) not in (None, USED):
            closed[kind] = why
    return closed


@prompt("shop!")
def a_shop(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    seat = p["seat"]
    ch = state["chars"][seat]
    kind = action["type"]
    if kind in ("done", "decline"):
        return
    again = {**p}
    again.pop("seat")
    again.pop("k")
    if kind == "buy":
        price = next(s["prices"][action["item"]] for s in p["services"] if s["service"] == "buy")
        inst = take_purchase(state, action["item"])
        if inst:
            lose_gold(state, seat, price, events)
            gain_card(state, seat, inst, events)
    elif kind == "heal":
        price = next(s["price"] for s in p["services"] if s["service"] == "heal")
        lose_gold(state, seat, price, events)
        heal(state, seat, 1, events)
        again["healed"] = p["healed"] + 1
    elif kind == "royal_heal":
        heal(state, seat, 2, events)
        again["used"] = p["used"] + ["royal"]
    elif kind == "exchange":
        inst = next(f for f in ch["fol"] if f["u"] == action["card"])
        ch["fol"].remove(inst)
        discard(state, inst)
        gain_gold(state, seat, 3, events)
    elif kind == "sell":
        inst = next(i for i in ch["items"] if i["u"] == action["card"])
        ch["items"].remove(inst)
        discard(state, inst)
        gain_gold(state, seat, 1, events)
    elif kind == "visit":
        svc = next(s for s in p["services"] if s.get("name") == action["who"])
        again["used"] = p["used"] + [svc["name"]]
        state["p"] = None
        push(state, {"t": "shop_for_again", "s": seat, "p": again})
        ops = [{"op": "roll", **svc["table"]}] + svc.get("also", [])
        fx(state, seat, ops, ch["space"])
        return
    elif kind == "buy_fate":
        lose_gold(state, seat, 1, events)
        gain_fate(state, seat, 1, events)
    elif kind == "buy_spell":
        lose_gold(state, seat, 1, events)
        gain_spells(state, seat, 1, events)
        again["used"] = p["used"] + ["spell"]
    elif kind == "train":
        lose_gold(state, seat, 3, events)
        add_stat(state, seat, action["stat"], 1, events, "instructor")
        owe_turn(ch, "instructor")
        events.append({"type": "TurnLost", "seat": seat})
    ask(state, seat, "shop", **again)


@task("shop_for_again")
def t_shop_again(state: State, t: Task, events: list[Event]) -> None:
    """Back to the same shop after a roll at one of its services (the Mystic, the Enchantress)."""
    if alive(state["chars"][t["s"]]):
        ask(state, t["s"], "shop", **t["p"])


@prompt("sell")
def p_sell(state: State, p: Prompt) -> list[Action]:
    return [{"type": "done"}] + [{"type": "sell", "card": i["u"]} for i in state["chars"][p["seat"]]["items"]]


@prompt("sell!")
def a_sell(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "done":
        return
    ch = state["chars"][p["seat"]]
    inst = next(i for i in ch["items"] if i["u"] == action["card"])
    ch["items"].remove(inst)
    discard(state, inst)
    gain_gold(state, p["seat"], p["price"], events)
    ask(state, p["seat"], "sell", price=p["price"], source=p["source"])


# --- standing prompts: spell limit, carrying limit, inheritance, end of turn --------------------------------


@prompt("discard_spell")
def p_discard_spell(state: State, p: Prompt) -> list[Action]:
    return [{"type": "discard_spell", "spell": s} for s in sorted(set(state["chars"][p["seat"]]["spells"]))]


@prompt("discard_spell!")
def a_discard_spell(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    ch = state["chars"][p["seat"]]
    ch["spells"].remove(action["spell"])
    state["spl_disc"].append(action["spell"])
    events.append({"type": "SpellDiscarded", "seat": p["seat"], "spell": action["spell"]})


@prompt("drop")
def p_drop(state: State, p: Prompt) -> list[Action]:
    return [{"type": "drop", "card": i["u"]} for i in state["chars"][p["seat"]]["items"]]


@prompt("drop!")
def a_drop(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    ch = state["chars"][p["seat"]]
    inst = next(i for i in ch["items"] if i["u"] == action["card"])
    ch["items"].remove(inst)
    put_on_board(state, ch["space"], inst)
    events.append({"type": "CardLeft", "seat": p["seat"], "card": inst["c"], "space": ch["space"]})


@prompt("inherit")
def p_inherit(state: State, p: Prompt) -> list[Action]:
    cards = state["stash_pick"]["cards"]
    return [{"type": "done"}] + [{"type": "keep", "card": i["u"]} for i in cards]


@prompt("inherit!")
def a_inherit(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    """Inherited cards the new character does not keep lie at its start space."""
    pick = state["stash_pick"]
    seat = p["seat"]
    ch = state["chars"][seat]
    if action["type"] == "done":
        for inst in pick["cards"]:
            put_on_board(state, ch["space"], inst)
        state["stash_pick"] = None
        return
    inst = next(i for i in pick["cards"] if i["u"] == action["card"])
    pick["cards"].remove(inst)
    if can_hold(ch, inst):
        gain_card(state, seat, inst, events)
    else:
        put_on_board(state, ch["space"], inst)
    push(state, {"t": "inherit"})


@prompt("end")
def p_end(state: State, p: Prompt) -> list[Action]:
    ch = state["chars"][p["seat"]]
    acts: list[Action] = [{"type": "end_turn"}]
    acts += [{"type": "trade_trophies", "stat": k} for k in tradeable(state, ch)]
    acts += [{"type": "cast_spell", "spell": s} for s in castable(state, p["seat"], "own_end")]
    return acts


@prompt("end!")
def a_end(state: State, p: Prompt, action: Action, events: list[Event]) -> None:
    if action["type"] == "end_turn":
        return
    end = {"t": "end_turn", **missed_turn(p)}
    if action["type"] == "trade_trophies":
        trade_trophies(state, p["seat"], action["stat"], events)
        push(state, end)
    else:
        start_cast(state, p["seat"], action["spell"], "own_end", end, events)


def legal(state: State, seat: int) -> list[Action]:
    p = state["p"]
    if p is None or p["seat"] != seat:
        return []
    return PROMPT_ACTIONS[p["k"]](state, p)


def answer(state: State, seat: int, action: Action, events: list[Event]) -> None:
    p = state["p"]
    state["p"] = None
    PROMPT_APPLY[p["k"]](state, p, action, events)
    run(state, events)


def initial_characters(players: int, state: State) -> list[str]:
    pool = list(CHARACTER_IDS)
    picks = []
    for _ in range(players):
        picks.append(pool.pop(rng_below(state, len(pool))))
    state["unused"] = pool
    return picks


def adventure_deck() -> list[str]:
    return [cid for cid, entry in ADVENTURE.items() for _ in range(entry["count"])]


def spell_deck() -> list[str]:
    return [sid for sid, entry in SPELLS.items() for _ in range(entry["count"])]
