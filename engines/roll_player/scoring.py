"""Final scoring, in the order printed on the character sheet: targets, class-colour dice, alignment, backstory,
armour, weapons, traits (and, in the solo game, gold)."""

from __future__ import annotations

from typing import Any

from engines.roll_player.data import (
    ALIGNMENT_COLUMNS,
    ALIGNMENT_ROWS,
    ALIGNMENTS,
    ARMOR_SETS,
    ATTRIBUTES,
    BACKSTORIES,
    BACKSTORY_SCORING,
    CARDS,
    CLASSES,
    RACES,
    SOLO,
)

Seat = dict[str, Any]


def class_colour(seat: Seat) -> str | None:
    return CLASSES[seat["class"]]["colour"] if seat.get("class") else None


def weapon_bonus(seat: Seat, attr: str, colour: str) -> int:
    """What the seat's weapons add to one die of `colour` in row `attr` (this may lift a die above 6)."""
    bonus = 0
    for card_id in seat["cards"]["weapon"]:
        effect = CARDS[card_id]["effect"]
        if effect["kind"] != "die_bonus" or effect["row"] != attr:
            continue
        wanted = class_colour(seat) if effect["colour"] == "class" else effect["colour"]
        if colour == wanted:
            bonus += effect["amount"]
    return bonus


def base_attribute(seat: Seat, attr: str) -> int:
    """Dice plus the race modifier: what trait conditions check (weapon modifiers never count for traits)."""
    race = RACES[seat["race"]]["modifiers"][attr] if seat.get("race") else 0
    return sum(value for _, value in seat["rows"][attr]) + race


def final_attribute(seat: Seat, attr: str) -> int:
    return base_attribute(seat, attr) + sum(
        weapon_bonus(seat, attr, colour) for colour, _ in seat["rows"][attr]
    )


def target_stars(target: dict[str, Any], value: int) -> int:
    kind = target["kind"]
    if kind == "exact":
        hit = value == target["value"]
    elif kind == "range":
        hit = target["min"] <= value <= target["max"]
    else:
        hit = value >= target["min"]
    return target["stars"] if hit else 0


def class_dice(seat: Seat) -> int:
    colour = class_colour(seat)
    return sum(1 for attr in ATTRIBUTES for c, _ in seat["rows"][attr] if c == colour)


def backstory_match(seat: Seat, attr: str) -> bool:
    """Whether row `attr` holds the die the seat's backstory asks for there: its colour in its box."""
    want = BACKSTORIES[seat["backstory"]]["dice"][attr]
    row = seat["rows"][attr]
    return len(row) >= want["slot"] and row[want["slot"] - 1][0] == want["colour"]


def backstory_matches(seat: Seat) -> int:
    return sum(backstory_match(seat, attr) for attr in ATTRIBUTES)


def backstory_stars(matches: int) -> int:
    return max(step["stars"] for step in BACKSTORY_SCORING if matches >= step["matches"])


def armor_counts(seat: Seat) -> dict[str, list[str]]:
    sets: dict[str, list[str]] = {set_id: [] for set_id in ARMOR_SETS}
    for card_id in seat["cards"]["armor"]:
        sets[CARDS[card_id]["set"]].append(card_id)
    return sets


def armor_stars(seat: Seat) -> int:
    """Each set scores its best reached step, plus 1 per set holding a card of the class colour."""
    colour = class_colour(seat)
    total = 0
    for set_id, owned in armor_counts(seat).items():
        if not owned:
            continue
        steps = [step["stars"] for step in ARMOR_SETS[set_id]["stars"] if len(owned) >= step["cards"]]
        total += max(steps, default=0)
        if any(CARDS[card_id]["colour"] == colour for card_id in owned):
            total += 1
    return total


def weapon_stars(seat: Seat) -> int:
    incomplete = sum(
        1 for set_id, owned in armor_counts(seat).items() if 0 < len(owned) < ARMOR_SETS[set_id]["size"]
    )
    return sum(
        CARDS[card_id]["effect"]["stars"] * incomplete
        for card_id in seat["cards"]["weapon"]
        if CARDS[card_id]["effect"]["kind"] == "incomplete_armor_stars"
    )


def trait_stars(seat: Seat, others_gold: list[int]) -> int:
    return sum(trait_card_stars(seat, card_id, others_gold) for card_id in seat["cards"]["trait"])


def trait_card_stars(seat: Seat, card_id: str, others_gold: list[int]) -> int:
    cond = CARDS[card_id]["effect"]
    kind = cond["kind"]
    token = seat["token"]
    if kind == "attr_at_most":
        hit = base_attribute(seat, cond["attr"]) <= cond["value"]
    elif kind == "attr_at_least":
        hit = base_attribute(seat, cond["attr"]) >= cond["value"]
    elif kind == "alignment_row":
        hit = ALIGNMENT_ROWS[token // 3] == cond["row"]
    elif kind == "alignment_column":
        hit = ALIGNMENT_COLUMNS[token % 3] == cond["column"]
    elif kind == "alignment_cell":
        hit = token == cond["cell"]
    elif kind == "class_dice_at_least":
        hit = class_dice(seat) >= cond["count"]
    elif kind == "cards_at_least":
        hit = len(seat["cards"][cond["card_type"]]) >= cond["count"]
    elif kind == "row_same_colour":
        hit = any(len(row) == 3 and len({c for c, _ in row}) == 1 for row in seat["rows"].values())
    elif kind == "row_same_value":
        hit = any(len(row) == 3 and len({v for _, v in row}) == 1 for row in seat["rows"].values())
    elif kind == "gold_per_star":
        return seat["gold"] // cond["gold"]
    elif kind == "per_richer_player":
        return cond["stars"] * sum(1 for gold in others_gold if gold > seat["gold"])
    else:
        raise ValueError(f"unknown trait condition {kind}")
    return cond["stars"] if hit else cond.get("otherwise", 0)


def score_seat(seat: Seat, others_gold: list[int], solo: bool) -> dict[str, Any]:
    cls = CLASSES[seat["class"]]
    attributes = {attr: final_attribute(seat, attr) for attr in ATTRIBUTES}
    targets = {attr: target_stars(cls["targets"][attr], attributes[attr]) for attr in ATTRIBUTES}
    matches = backstory_matches(seat)
    parts = {
        "targets": sum(targets.values()),
        "class_dice": class_dice(seat),
        "alignment": ALIGNMENTS[seat["alignment"]]["grid"][seat["token"]],
        "backstory": backstory_stars(matches),
        "armor": armor_stars(seat),
        "weapons": weapon_stars(seat),
        "traits": trait_stars(seat, others_gold),
    }
    if solo:
        parts["gold"] = seat["gold"] // SOLO["stars_per_gold"]
    return {
        "attributes": attributes,
        "target_stars": targets,
        "backstory_matches": matches,
        "parts": parts,
        "total": sum(parts.values()),
    }


def solo_rating(total: int) -> str:
    """The best rating the total reaches; a total below every threshold (penalties can make it negative) gets
    the lowest one."""
    reached = [r for r in SOLO["ratings"] if total >= r["min"]] or [
        min(SOLO["ratings"], key=lambda r: r["min"])
    ]
    return max(reached, key=lambda r: r["min"])["id"]
