"""Roll Player rule constants and seat helpers shared by the engine and its built-in player."""

from __future__ import annotations

from typing import Any

from engines.roll_player.data import ATTRIBUTES, CARDS, DIRECTIONS, SLOTS, class_ability

START_GOLD = 5
PLACE_GOLD_DIE = 2
THIRD_BOX_GOLD = 1
MARKET_DISCARD_GOLD = 2
MAX_HANDS = 2
# Which row's action each attribute-action type is (for weapons that pay out on a row's action, and for Wizard).
ACTION_ROW = {
    "flip": "str",
    "swap": "dex",
    "adjust": "con",
    "reroll": "int",
    "alignment": "wis",
    "discount": "cha",
}
DIE_ACTION_TYPE = {"flip": "flip_die", "swap": "swap_dice", "adjust": "adjust_die", "reroll": "reroll_die"}
EFFECT_DIE_KIND = {
    "flip_die": "flip",
    "swap_dice": "swap",
    "adjust_die": "adjust",
    "reroll_die": "reroll",
    "move_die": "move",
}


def position(attr: str, slot: int) -> str:
    return f"{attr}{slot + 1}"


def parse_position(pos: Any) -> tuple[str, int] | None:
    if not isinstance(pos, str) or len(pos) != 4 or pos[:3] not in ATTRIBUTES or not pos[3].isdigit():
        return None
    return pos[:3], int(pos[3]) - 1


def can_move(token: int, direction: str | None) -> bool:
    if direction is None:
        return True
    dr, dc = DIRECTIONS[direction]
    return 0 <= token // 3 + dr < 3 and 0 <= token % 3 + dc < 3


def moved(token: int, direction: str) -> int:
    dr, dc = DIRECTIONS[direction]
    return token + 3 * dr + dc


def turn_order(start: int, players: int) -> list[int]:
    """The seats in turn order, from the start player."""
    return [(start + i) % players for i in range(players)]


def sort_onto(
    dice: list[list[Any]], numbers: list[int], first: str | None = None
) -> list[tuple[int, list[Any]]]:
    """Initiative dice onto cards, lowest die onto the lowest card, while no tie of dice of different colours
    needs the chooser (who puts the die of colour `first` first among the lowest): the (card, die) pairs placed,
    taken out of `dice` and `numbers`."""
    placed = []
    if first is not None:
        low = min(v for _, v in dice)
        die = next(d for d in dice if d[0] == first and d[1] == low)
        dice.remove(die)
        placed.append((numbers.pop(0), die))
    while numbers and dice:
        low = min(v for _, v in dice)
        if len({c for c, v in dice if v == low}) > 1:
            break
        die = next(d for d in dice if d[1] == low)
        dice.remove(die)
        placed.append((numbers.pop(0), die))
    return placed


def sheet_full(seat: dict[str, Any]) -> bool:
    return all(len(seat["rows"][attr]) == SLOTS for attr in ATTRIBUTES)


def filled_positions(seat: dict[str, Any]) -> list[str]:
    return [position(attr, i) for attr in ATTRIBUTES for i in range(len(seat["rows"][attr]))]


def hands_used(seat: dict[str, Any]) -> int:
    return sum(CARDS[card]["hands"] for card in seat["cards"]["weapon"])


def initiative_gold(me: dict[str, Any], card_gold: int) -> int:
    """What taking an initiative card that holds `card_gold` pays this seat: a class with the gold bonus (Rogue)
    adds to it, but only where the card holds any."""
    ability = class_ability(me["class"])
    return (
        card_gold + ability["gold"]
        if card_gold and ability.get("kind") == "initiative_gold_bonus"
        else card_gold
    )


def row_gold(me: dict[str, Any], row: str, setup: bool) -> int:
    """What placing a die in `row` pays this seat whatever the die: filling the row's third box, and in the dice
    phase a class's bonus for the row (the Barbarian's Strength). A gold die pays on top."""
    ability = class_ability(me["class"])
    gold = THIRD_BOX_GOLD if len(me["rows"][row]) == SLOTS - 1 else 0
    if not setup and ability.get("kind") == "row_place_gold" and ability["row"] == row:
        gold += ability["gold"]
    return gold


def market_gold(me: dict[str, Any]) -> int:
    """What discarding a market card, or taking gold instead, pays this seat: a class with the bonus gets more."""
    ability = class_ability(me["class"])
    return MARKET_DISCARD_GOLD + (ability["gold"] if ability.get("kind") == "discard_gold_bonus" else 0)


def card_price(me: dict[str, Any], card: str, discounts: bool = True) -> int:
    """What `card` costs this seat before discount tokens; Open Lock buys with no discount at all."""
    return max(CARDS[card]["cost"] - sum(amount for _, amount in price_cuts(me, card, discounts)), 0)


def price_cuts(me: dict[str, Any], card: str, discounts: bool = True) -> list[tuple[str | None, int]]:
    """What takes gold off `card`'s price for this seat, before discount tokens: (the weapon that does, or None
    for the class's ability, and how much)."""
    if not discounts:
        return []
    cuts: list[tuple[str | None, int]] = []
    ability = class_ability(me["class"])
    if ability.get("kind") == "type_discount" and ability["card_type"] == CARDS[card]["type"]:
        cuts.append((None, ability["amount"]))
    for weapon in me["cards"]["weapon"]:
        effect = CARDS[weapon]["effect"]
        if effect["kind"] == "purchase_discount":
            cuts.append((weapon, effect["amount"]))
    return cuts
