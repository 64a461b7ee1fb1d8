"""Derived character values and small state helpers shared by the Talisman rules: strength and craft with
their sources, carrying limits, decks, card instances and the board."""

from __future__ import annotations

from typing import Any

from engines.rng import Rng
from engines.talisman.data import (
    ADVENTURE,
    CHARACTERS,
    INNER,
    SPACES,
    TOAD,
    card_def,
    card_kind,
    passive,
    spell_limit,
)

State = dict[str, Any]
Char = dict[str, Any]
Event = dict[str, Any]


# --- dice ---------------------------------------------------------------------------------------------------


def roll(state: State, count: int = 1) -> list[int]:
    rng = Rng(state["rng"])
    dice = [rng.die() for _ in range(count)]
    state["rng"] = rng.state
    return dice


def rng_below(state: State, n: int) -> int:
    rng = Rng(state["rng"])
    value = rng.below(n)
    state["rng"] = rng.state
    return value


# --- characters ---------------------------------------------------------------------------------------------


def card_of(ch: Char) -> dict[str, Any]:
    return CHARACTERS[ch["id"]]


def is_toad(ch: Char) -> bool:
    return ch["toad"] > 0


def has_ability(ch: Char, code: str) -> dict[str, Any] | None:
    """A character-card ability, unless the character is a toad (toads have no special abilities)."""
    if is_toad(ch):
        return None
    for ability in card_of(ch)["abilities"]:
        if ability["code"] == code:
            return ability
    return None


def at_glade(ch: Char) -> bool:
    return SPACES[ch["space"]]["kind"] == "cursed_glade"


def holdings(ch: Char) -> list[dict[str, Any]]:
    return ch["items"] + ch["fol"]


def has_passive(state: State, ch: Char, key: str) -> dict[str, Any] | None:
    """The first held card (object, magic object or follower) that grants `key`, honouring the Cursed Glade
    and Destroy Magic, which switch off Magic Objects."""
    magic_off = at_glade(ch) or state["dmagic"] is not None
    for inst in holdings(ch):
        if key in passive(inst):
            if magic_off and card_kind(inst) == "magic_object":
                continue
            return inst
    return None


def base_strength(ch: Char) -> int:
    if is_toad(ch):
        return TOAD["strength"] + ch["tstr"]
    return card_of(ch)["strength"] + ch["str"]


def base_craft(ch: Char) -> int:
    if is_toad(ch):
        return TOAD["craft"] + ch["tcraft"]
    return card_of(ch)["craft"] + ch["craft"]


def _card_bonus(state: State, ch: Char, stat: str) -> int:
    if is_toad(ch):
        return 0
    total = 0
    glade = at_glade(ch)
    magic_off = glade or state["dmagic"] is not None
    for inst in ch["fol"]:
        total += passive(inst).get(stat, 0)
    if glade:
        return total  # Strength and Craft from Objects and Magic Objects do not count in the Cursed Glade
    for inst in ch["items"]:
        if magic_off and card_kind(inst) == "magic_object":
            continue
        total += passive(inst).get(stat, 0)
    return total


def strength(state: State, ch: Char) -> int:
    return base_strength(ch) + _card_bonus(state, ch, "strength")


def craft(state: State, ch: Char) -> int:
    return base_craft(ch) + _card_bonus(state, ch, "craft")


def weapons(state: State, ch: Char, foe: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The Weapons this character fights with: the best (two for the Warrior); none for a Monk or a toad."""
    if is_toad(ch) or has_ability(ch, "no_weapons") or at_glade(ch):
        return []
    magic_off = state["dmagic"] is not None
    usable = [
        inst
        for inst in ch["items"]
        if "weapon" in passive(inst) and not (magic_off and card_kind(inst) == "magic_object")
    ]

    def value(inst: dict[str, Any]) -> int:
        p = passive(inst)
        bonus = p["weapon"]
        if foe is not None and foe.get("subtype") == "dragon":
            bonus += p.get("dragon_bonus", 0)
        return bonus

    usable.sort(key=value, reverse=True)
    return usable[: 2 if has_ability(ch, "two_weapons") else 1]


def battle_strength(state: State, ch: Char, foe: dict[str, Any] | None = None) -> int:
    total = strength(state, ch) + ch["boost"] + ch["tboost"]
    for inst in weapons(state, ch, foe):
        p = passive(inst)
        total += p["weapon"]
        if foe is not None and foe.get("subtype") == "dragon":
            total += p.get("dragon_bonus", 0)
    unarmed = has_ability(ch, "unarmed_bonus")
    if unarmed:
        total += unarmed["n"]
    return total


def battle_craft(state: State, ch: Char, foe: dict[str, Any] | None = None) -> int:
    total = craft(state, ch)
    bonus = has_ability(ch, "spirit_bonus")
    if bonus and foe is not None and foe.get("subtype") == "spirit":
        total += bonus["n"]
    return total


def max_spells(state: State, ch: Char) -> int:
    return spell_limit(craft(state, ch))


def capacity(ch: Char) -> int:
    return 4 + sum(passive(inst).get("carry", 0) for inst in ch["fol"])


def object_count(ch: Char) -> int:
    return len(ch["items"])


def alive_at(state: State, space: int, exclude: int | None = None) -> list[int]:
    return [
        seat
        for seat, ch in enumerate(state["chars"])
        if ch is not None and not ch["dead"] and ch["space"] == space and seat != exclude
    ]


def in_inner(ch: Char) -> bool:
    return ch["space"] in INNER or ch["space"] == 48


def can_hold(ch: Char, inst: dict[str, Any]) -> bool:
    """Alignment-bound cards (Holy Grail, Holy Lance, Runesword) and the Hag's ban on other Followers."""
    p = passive(inst)
    if p.get("forbid") == ch["align"]:
        return False
    if card_kind(inst) == "follower" and any(passive(f).get("hag") for f in ch["fol"]):
        return False
    return True


def has_talisman(state: State, ch: Char) -> bool:
    return any(passive(inst).get("talisman") for inst in ch["items"])


# --- cards and decks ----------------------------------------------------------------------------------------


def new_inst(state: State, card: str, origin: str) -> dict[str, Any]:
    state["uid"] += 1
    inst: dict[str, Any] = {"u": state["uid"], "c": card, "o": origin}
    pool = ADVENTURE[card].get("pool") if origin == "a" else None
    if pool:
        inst["pool"] = pool
    return inst


def draw_adventure(state: State) -> dict[str, Any] | None:
    if not state["adv"]:
        if not state["adv_disc"]:
            return None
        rng = Rng(state["rng"])
        state["adv"] = rng.shuffled(state["adv_disc"])
        state["rng"] = rng.state
        state["adv_disc"] = []
        state["peek"] = {}
    card = state["adv"].pop()
    for seat, known in list(state["peek"].items()):
        if known and known[0] == card:
            known.pop(0)
        else:
            del state["peek"][seat]
    return new_inst(state, card, "a")


def spells_left(state: State) -> bool:
    """Whether a Spell can still be drawn: from the Spell deck, or its discards shuffled."""
    return bool(state["spl"] or state["spl_disc"])


def draw_spell(state: State) -> str | None:
    if not state["spl"]:
        if not state["spl_disc"]:
            return None
        rng = Rng(state["rng"])
        state["spl"] = rng.shuffled(state["spl_disc"])
        state["rng"] = rng.state
        state["spl_disc"] = []
    return state["spl"].pop()


def discard(state: State, inst: dict[str, Any]) -> None:
    """Adventure cards go to the discard pile; Purchase cards and Talismans go back to their own decks."""
    if inst["o"] == "a":
        state["adv_disc"].append(inst["c"])
    elif inst["o"] == "p":
        state["shop"][inst["c"]] += 1
    else:
        state["tal"] += 1


def take_purchase(state: State, card: str) -> dict[str, Any] | None:
    if state["shop"].get(card, 0) <= 0:
        return None
    state["shop"][card] -= 1
    return new_inst(state, card, "p")


def take_talisman(state: State) -> dict[str, Any] | None:
    if state["tal"] <= 0:
        return None
    state["tal"] -= 1
    return new_inst(state, "talisman", "t")


def board_cards(state: State, space: int) -> list[dict[str, Any]]:
    return state["board"].setdefault(str(space), [])


def remove_from_board(state: State, space: int, uid: int) -> dict[str, Any] | None:
    cards = state["board"].get(str(space), [])
    for i, inst in enumerate(cards):
        if inst["u"] == uid:
            cards.pop(i)
            if not cards:
                del state["board"][str(space)]
            return inst
    return None


def put_on_board(state: State, space: int, inst: dict[str, Any]) -> None:
    board_cards(state, space).append(inst)


def find_on_board(state: State, uid: int) -> tuple[int, dict[str, Any]] | None:
    for key, cards in state["board"].items():
        for inst in cards:
            if inst["u"] == uid:
                return int(key), inst
    return None


def find_instance(state: State, uid: int) -> dict[str, Any]:
    """A card instance carried by a character or lying on the board."""
    carried = [inst for ch in state["chars"] if ch for inst in holdings(ch)]
    for inst in carried + [i for cards in state["board"].values() for i in cards]:
        if inst["u"] == uid:
            return inst
    raise KeyError(uid)


def encounter_number(inst: dict[str, Any]) -> int:
    return card_def(inst).get("number", 5)
