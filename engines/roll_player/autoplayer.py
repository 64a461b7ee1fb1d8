"""The built-in Roll Player: it reads only its own seat's view (all but the deck order is public) and scores
every legal action by how much it raises an estimate of the seat's final stars.

The estimate (`potential`) counts what is already certain and what is still likely: each attribute row's
expected stars (class target and attribute traits) over the dice still to come, backstory slots still open,
the alignment cell and the cells next to it, armour sets that may grow, and gold, skills and weapons as what
they are likely to buy or earn in the rounds left. A choice is the action with the largest gain; the seed
breaks ties.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any

from engines.base import Action, View
from engines.rng import Rng
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
    DIRECTIONS,
    RACES,
    ROW_ACTION,
    SLOTS,
    SOLO,
    class_ability,
)
from engines.roll_player.rules import (
    ACTION_ROW,
    DIE_ACTION_TYPE,
    EFFECT_DIE_KIND,
    MARKET_DISCARD_GOLD,
    MAX_HANDS,
    PLACE_GOLD_DIE,
    THIRD_BOX_GOLD,
    can_move,
    card_price,
    filled_positions,
    hands_used,
    initiative_gold,
    moved,
    parse_position,
)
from engines.roll_player.scoring import target_stars, weapon_bonus

Seat = dict[str, Any]

# Dice still to come are chosen, not taken blindly, so a future die is weighted towards high faces.
FACE_WEIGHTS = (1, 3, 6, 10, 15, 21)
GOLD_VALUE = 0.3  # stars one gold is worth while there are markets left to spend it in
SPEND_PER_ROUND = 4  # gold beyond this much per market left is unlikely to be spent
NUDGE_PER_ROUND, NUDGE_MAX = 0.12, 0.7  # a row a pip off can often be fixed later (Constitution, Cure Wounds)
FLIP_PER_ROUND, FLIP_MAX = 0.08, 0.5  # a row a flip away from a target sometimes can (Strength, Concentrate)
ALIGN_REACH = 0.3  # share of a better neighbouring alignment cell that later moves may reach
BACKSTORY_CHANCE = 0.3  # chance that an open backstory slot still gets its colour
CLASS_DIE_CHANCE = 0.3  # chance that a die still to come is of the class colour
ARMOR_GROWTH = 0.15  # cards a started armour set is expected to gain per round left
ARMOR_GROWTH_MAX = 1.5  # however many rounds are left
SKILL_USE = {  # stars one use of a skill's effect is roughly worth
    "gain_gold": 2 * GOLD_VALUE,
    "swap_dice": 0.5,
    "adjust_die": 0.5,
    "flip_die": 0.6,
    "reroll_die": 0.4,
    "move_die": 0.4,
    "reroll_initiative_all": 0.2,
    "reroll_initiative_one": 0.2,
    "swap_with_initiative": 0.4,
    "take_from_bag": 0.4,
    "buy_from_deck": 0.3,
    "copy_skill": 0.4,
}
SKILL_USES = 0.4  # uses per round left a skill is likely to see
SKILL_KEEP = 0.3  # a used skill is exhausted until cleanup
ACTION_HINT = 0.06  # per die on the sheet, what a flip, swap, adjust or reroll is worth in prospect
ROUGH_PROSPECTS = ("swap", "reroll")  # too many choices to work out for every placement compared
DISCOUNT_USE = 0.8  # a discount token is as good as a gold if it gets spent this round
ORDER_VALUE = 0.15  # per place earlier in the market order
SAME_ROW_CHANCE = 0.2  # chance that a die still to come keeps a row all one colour (or one value)
DENY_WEIGHT = 0.2  # share of a card's worth to a later buyer that discarding it denies


def _sum_distribution(dice: int) -> tuple[tuple[int, float], ...]:
    total = sum(FACE_WEIGHTS)
    dist = {0: 1.0}
    for _ in range(dice):
        nxt: dict[int, float] = {}
        for s, p in dist.items():
            for face, w in enumerate(FACE_WEIGHTS, start=1):
                nxt[s + face] = nxt.get(s + face, 0.0) + p * w / total
        dist = nxt
    return tuple(sorted(dist.items()))


SUM_DIST = [_sum_distribution(k) for k in range(SLOTS + 1)]


def _backstory_table() -> list[list[float]]:
    """Expected backstory stars for m certain matches and o open slots."""

    def stars(matches: int) -> int:
        return max(step["stars"] for step in BACKSTORY_SCORING if matches >= step["matches"])

    q = BACKSTORY_CHANCE
    return [
        [
            sum(comb(o, j) * q**j * (1 - q) ** (o - j) * stars(m + j) for j in range(o + 1))
            for o in range(7 - m)
        ]
        for m in range(7)
    ]


BACKSTORY_EXPECT = _backstory_table()


def _chance_at_least(need: int, tries: int, chance: float) -> float:
    if need <= 0:
        return 1.0
    return sum(comb(tries, j) * chance**j * (1 - chance) ** (tries - j) for j in range(need, tries + 1))


def fix_weights(future: int) -> tuple[float, float]:
    """How likely a row that is off target can still be nudged by a pip, or have a die flipped, in the rounds
    left (each round brings one attribute action, and skills)."""
    return min(NUDGE_MAX, NUDGE_PER_ROUND * future), min(FLIP_MAX, FLIP_PER_ROUND * future)


@lru_cache(maxsize=1 << 13)
def _row_value(
    class_id: str,
    race_mod: int,
    attr: str,
    values: tuple[int, ...],
    bonus: int,
    traits: tuple[str, ...],
    future: int,
) -> float:
    """Expected stars of one attribute row: its class target and the traits that read it."""
    target = CLASSES[class_id]["targets"][attr]
    nudge, flip = fix_weights(future)

    def worth(base: int) -> float:
        stars = target_stars(target, base + bonus)
        for card in traits:
            cond = CARDS[card]["effect"]
            hit = base >= cond["value"] if cond["kind"] == "attr_at_least" else base <= cond["value"]
            stars += cond["stars"] if hit else 0
        return stars

    def settled(base: int) -> float:
        best = worth(base)
        if future:
            best = max(
                best,
                nudge * worth(base - 1),
                nudge * worth(base + 1),
                nudge * nudge * worth(base - 2),
                nudge * nudge * worth(base + 2),
            )
            for v in values:
                best = max(best, flip * worth(base + 7 - 2 * v))
        return best

    base = sum(values) + race_mod
    return sum(p * settled(base + x) for x, p in SUM_DIST[SLOTS - len(values)])


def empty_slots(seat: Seat) -> int:
    return sum(SLOTS - len(seat["rows"][attr]) for attr in ATTRIBUTES)


@lru_cache(maxsize=1 << 10)
def _row_traits(traits: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The traits that read each attribute row."""
    reads = {attr: [t for t in traits if CARDS[t]["effect"].get("attr") == attr] for attr in ATTRIBUTES}
    return {attr: tuple(sorted(cards)) for attr, cards in reads.items()}


def potential(seat: Seat, future: int, solo: bool, others_gold: list[int]) -> float:
    """The seat's expected final stars, `future` being the rounds (and markets) left to improve it."""
    class_id = seat["class"]
    race = seat["race"]
    backstory = seat["backstory"]
    cards = seat["cards"]
    traits = tuple(cards["trait"])
    row_traits = _row_traits(traits)
    bonuses = any(CARDS[w]["effect"]["kind"] == "die_bonus" for w in cards["weapon"])
    fixes = min(future, 8)
    total = 0.0
    class_dice = matches = open_slots = 0
    for attr, row in seat["rows"].items():
        bonus = sum(weapon_bonus(seat, attr, c) for c, _ in row) if bonuses else 0
        value, own, match, still_open = _row(
            class_id, race, backstory, attr, tuple(map(tuple, row)), bonus, row_traits[attr], fixes
        )
        total += value
        class_dice += own
        matches += match
        open_slots += still_open
    total += class_dice + BACKSTORY_EXPECT[matches][open_slots]
    total += _cards_value(
        class_id,
        seat["alignment"],
        seat["token"],
        tuple(cards["weapon"]),
        tuple(cards["armor"]),
        traits,
        tuple(cards["skill"]),
        future,
    )
    if traits:
        total += _other_traits(seat, class_dice, empty_slots(seat), future, others_gold)
    gold = seat["gold"]
    total += GOLD_VALUE * min(gold, SPEND_PER_ROUND * future) + 0.01 * gold
    if solo:
        total += gold // SOLO["stars_per_gold"]
    return total


@lru_cache(maxsize=1 << 13)
def _row(
    class_id: str,
    race: str,
    backstory: str,
    attr: str,
    dice: tuple[tuple[str, int], ...],
    bonus: int,
    traits: tuple[str, ...],
    fixes: int,
) -> tuple[float, int, int, int]:
    """One row's expected stars, its class-colour dice, and whether its backstory slot matches or is open."""
    values = tuple(v for _, v in dice)
    value = _row_value(class_id, RACES[race]["modifiers"][attr], attr, values, bonus, traits, fixes)
    colour = CLASSES[class_id]["colour"]
    own = sum(1 for c, _ in dice if c == colour)
    want = BACKSTORIES[backstory]["dice"][attr]
    still_open = len(dice) < want["slot"]
    match = not still_open and dice[want["slot"] - 1][0] == want["colour"]
    return value, own, int(match), int(still_open)


@lru_cache(maxsize=1 << 10)
def _cells(alignment: str, traits: tuple[str, ...]) -> tuple[float, ...]:
    """What ending on each alignment cell is worth: the alignment card plus the traits that read the cell."""
    values = []
    for cell in range(9):
        value = ALIGNMENTS[alignment]["grid"][cell]
        for card in traits:
            cond = CARDS[card]["effect"]
            kind = cond["kind"]
            if kind == "alignment_row":
                hit = ALIGNMENT_ROWS[cell // 3] == cond["row"]
            elif kind == "alignment_column":
                hit = ALIGNMENT_COLUMNS[cell % 3] == cond["column"]
            elif kind == "alignment_cell":
                hit = cell == cond["cell"]
            else:
                continue
            value += cond["stars"] if hit else cond.get("otherwise", 0)
        values.append(value)
    return tuple(values)


@lru_cache(maxsize=1 << 12)
def _cards_value(
    class_id: str,
    alignment: str,
    token: int,
    weapons: tuple[str, ...],
    armor: tuple[str, ...],
    traits: tuple[str, ...],
    skills: tuple[str, ...],
    future: int,
) -> float:
    """The alignment, armour, weapons and skills: what does not depend on the dice."""
    cells = _cells(alignment, traits)
    total = cells[token]
    if future:
        near = max(cells[moved(token, d)] for d in DIRECTIONS if can_move(token, d))
        total += ALIGN_REACH * max(0.0, near - cells[token])
    colour = CLASSES[class_id]["colour"]
    growth = _armor_growth(future)
    incomplete = 0
    for set_id in ARMOR_SETS:
        owned = [card for card in armor if CARDS[card]["set"] == set_id]
        if owned:
            size = ARMOR_SETS[set_id]["size"]
            incomplete += len(owned) < size
            total += _set_stars(set_id, min(size, len(owned) + growth))
            total += any(CARDS[card]["colour"] == colour for card in owned)
    rounds = min(future, 8)
    for card in weapons:
        effect = CARDS[card]["effect"]
        kind = effect["kind"]
        if kind == "incomplete_armor_stars":
            total += effect["stars"] * incomplete
        elif kind == "die_bonus":  # dice to come may match
            total += 0.05 * rounds
        elif kind == "action_gold":
            total += GOLD_VALUE * effect["gold"] * 0.3 * rounds
        elif kind == "purchase_discount":
            total += GOLD_VALUE * effect["amount"] * 0.5 * rounds
    total += sum(SKILL_USE[CARDS[s]["effect"]["kind"]] * SKILL_USES * rounds for s in skills)
    return total


def _armor_growth(future: int) -> float:
    return min(ARMOR_GROWTH_MAX, ARMOR_GROWTH * future)


def _set_stars(set_id: str, count: float) -> float:
    """A set's stars for `count` cards, between steps in proportion for an expected (fractional) count."""
    steps = [(0, 0), (1, 0)]
    steps += [(step["cards"], step["stars"]) for step in ARMOR_SETS[set_id]["stars"] if step["cards"] > 1]
    for (low, low_stars), (high, high_stars) in zip(steps, steps[1:], strict=False):
        if count <= high:
            return low_stars + (high_stars - low_stars) * (count - low) / (high - low)
    return steps[-1][1]


def _other_traits(seat: Seat, class_dice: int, empty: int, future: int, others_gold: list[int]) -> float:
    """Traits that read neither one attribute row nor the alignment (those are counted with them)."""
    total = 0.0
    for card in seat["cards"]["trait"]:
        cond = CARDS[card]["effect"]
        kind = cond["kind"]
        if kind == "class_dice_at_least":
            total += cond["stars"] * _chance_at_least(cond["count"] - class_dice, empty, CLASS_DIE_CHANCE)
        elif kind == "cards_at_least":
            need = cond["count"] - len(seat["cards"][cond["card_type"]])
            total += cond["stars"] * (1.0 if need <= 0 else 0.7 * min(1.0, _armor_growth(future) / need))
        elif kind in ("row_same_colour", "row_same_value"):
            index = 0 if kind == "row_same_colour" else 1
            best = 0.0
            for row in seat["rows"].values():
                if not row or len({d[index] for d in row}) > 1:
                    continue
                best = max(best, SAME_ROW_CHANCE ** (SLOTS - len(row)))
            total += cond["stars"] * best
        elif kind == "gold_per_star":
            total += seat["gold"] // cond["gold"]
        elif kind == "per_richer_player":
            total += cond["stars"] * sum(1 for gold in others_gold if gold > seat["gold"])
    return total


# --- changing a copy of a seat ----------------------------------------------------------------------------


def with_rows(seat: Seat, **rows: list[list[Any]]) -> Seat:
    return {**seat, "rows": {**seat["rows"], **rows}}


def placed(seat: Seat, attr: str, die: list[Any], setup: bool) -> Seat:
    """The seat after placing `die` leftmost in `attr`, with the gold that earns (as the engine pays it)."""
    row = [*seat["rows"][attr], die]
    gold = THIRD_BOX_GOLD if len(row) == SLOTS else 0
    ability = class_ability(seat["class"])
    if die[0] == "gold":
        gold += ability["gold"] if setup and ability.get("kind") == "setup_gold_die" else PLACE_GOLD_DIE
    if not setup and ability.get("kind") == "row_place_gold" and ability["row"] == attr:
        gold += ability["gold"]
    return {**with_rows(seat, **{attr: row}), "gold": seat["gold"] + gold}


def with_value(seat: Seat, pos: str, value: int) -> Seat:
    attr, slot = parse_position(pos)  # type: ignore[misc]
    row = [list(d) for d in seat["rows"][attr]]
    row[slot][1] = value
    return with_rows(seat, **{attr: row})


def with_die(seat: Seat, pos: str, die: list[Any]) -> Seat:
    attr, slot = parse_position(pos)  # type: ignore[misc]
    row = list(seat["rows"][attr])
    row[slot] = die
    return with_rows(seat, **{attr: row})


def swapped(seat: Seat, a: str, b: str) -> Seat:
    attr_a, slot_a = parse_position(a)  # type: ignore[misc]
    attr_b, slot_b = parse_position(b)  # type: ignore[misc]
    die_a, die_b = seat["rows"][attr_a][slot_a], seat["rows"][attr_b][slot_b]
    return with_die(with_die(seat, a, die_b), b, die_a)


def moved_die(seat: Seat, pos: str, row: str) -> Seat:
    attr, slot = parse_position(pos)  # type: ignore[misc]
    source = list(seat["rows"][attr])
    die = source.pop(slot)
    return with_rows(seat, **{attr: source, row: [*seat["rows"][row], die]})


def with_card(seat: Seat, card: str, gold: int) -> Seat:
    """The seat after gaining `card` for `gold` (a trait moves the token)."""
    kind = CARDS[card]["type"]
    cards = {**seat["cards"], kind: [*seat["cards"][kind], card]}
    out = {**seat, "cards": cards, "gold": seat["gold"] - gold}
    arrow = CARDS[card].get("arrow")
    if kind == "trait" and can_move(seat["token"], arrow):
        out["token"] = moved(seat["token"], arrow)
    return out


# --- the player ---------------------------------------------------------------------------------------------


class Planner:
    """Values the legal actions of one seat at one moment."""

    def __init__(self, view: View, actions: list[Action]) -> None:
        self.view = view
        # Whether this market turn still allows a discard: nothing bought yet and no Move Silently used.
        self.can_discard = any(a["type"] in ("discard_card", "take_gold") for a in actions)
        self.seat = view["viewer"]
        self.me: Seat = view["seats"][self.seat]
        self.solo = view["solo"]
        # Rounds left to improve the sheet; once this seat's die is placed, this round's market is still due.
        placed_now = view["phase"] == "dice" and self.me["initiative"] is not None and self.me["held"] is None
        self.future = empty_slots(self.me) + placed_now if self.me["class"] else 0
        self.pending = view["pending"]
        self._now: float | None = None
        self._place_cache: dict[tuple[str, int], float] = {}

    # potentials

    def others_gold(self, seat: int) -> list[int]:
        return [s["gold"] for i, s in enumerate(self.view["seats"]) if i != seat]

    def value(self, seat: Seat, index: int | None = None) -> float:
        index = self.seat if index is None else index
        future = self.future if index == self.seat else empty_slots(seat)
        return potential(seat, future, self.solo, self.others_gold(index))

    @property
    def now(self) -> float:
        if self._now is None:
            self._now = self.value(self.me)
        return self._now

    def gain(self, seat: Seat) -> float:
        return self.value(seat) - self.now

    def gold_gain(self, gold: int) -> float:
        return self.gain({**self.me, "gold": self.me["gold"] + gold})

    # what the coming steps are worth

    def best_placement(self, die: list[Any]) -> float:
        """The gain of placing `die` in its best row, counting the row's action in prospect."""
        key = (die[0], die[1])
        if key not in self._place_cache:
            rows = [a for a in ATTRIBUTES if len(self.me["rows"][a]) < SLOTS]
            self._place_cache[key] = max(
                (self.gain(placed(self.me, a, die, setup=False)) + self.action_prospect(a) for a in rows),
                default=0.0,
            )
        return self._place_cache[key]

    def action_prospect(self, row: str, after: Seat | None = None) -> float:
        """What the attribute action after placing in `row` is likely to add: worked out on the sheet `after`
        the placement when given, else a rough guess (for the many placements a pick compares)."""
        if class_ability(self.me["class"]).get("kind") == "any_row_action":
            kinds = set(ROW_ACTION.values())
        else:
            kinds = {ROW_ACTION[row]}
        seat = self.me if after is None else after
        base = self.gain(seat)
        best = 0.0
        for kind in kinds:
            if kind == "alignment":
                worth = (
                    max(
                        (
                            self.gain({**seat, "token": moved(seat["token"], d)})
                            for d in DIRECTIONS
                            if can_move(seat["token"], d)
                        ),
                        default=0.0,
                    )
                    - base
                )
            elif kind == "discount":
                worth = DISCOUNT_USE * self.gold_gain(1)
            elif after is None or kind in ROUGH_PROSPECTS:
                worth = ACTION_HINT * (SLOTS * len(ATTRIBUTES) - self.future)
            else:
                options = self.die_options(DIE_ACTION_TYPE[kind], after)
                worth = max((g for _, g in options), default=base) - base
            best = max(best, worth + self.row_gold(ACTION_ROW[kind]))
        return best

    def buy_gain(self, seat: Seat, index: int, card: str, cost: int) -> float:
        """The gain of buying `card` for `cost` gold, discount tokens taken off (0 if it is unaffordable);
        weapons beyond two hands go, the least useful first."""
        if cost > seat["gold"]:
            return 0.0
        after = with_card(seat, card, cost)
        while hands_used(after) > MAX_HANDS:
            weapons = after["cards"]["weapon"]
            after = max(
                (
                    {**after, "cards": {**after["cards"], "weapon": [w for w in weapons if w != drop]}}
                    for drop in weapons
                ),
                key=lambda s: self.value(s, index),
            )
        return self.value(after, index) - self.value(seat, index)

    @staticmethod
    def cost(seat: Seat, card: str, discounts: bool = True) -> int:
        """The gold `card` takes from this seat once its discount tokens are spent on it."""
        return max(0, card_price(seat, card, discounts) - (seat["discounts"] if discounts else 0))

    def unchosen(self) -> list[dict[str, Any]]:
        return [c for c in self.view["initiative"] if c["owner"] is None and c["die"] is not None]

    # die operations, as the best gain each can reach

    def die_options(self, kind: str, seat: Seat | None = None) -> list[tuple[Action, float]]:
        """Every choice of a die action (flip, swap, adjust, reroll, move) on `seat` with its gain."""
        seat = self.me if seat is None else seat
        filled = filled_positions(seat)
        if kind in ("flip_die", "reroll_die"):
            choices = [{"type": kind, "die": pos} for pos in filled]
        elif kind == "adjust_die":
            choices = [
                {"type": kind, "die": pos, "delta": d}
                for pos in filled
                for d in (-1, 1)
                if 1 <= self.die_value(seat, pos) + d <= 6
            ]
        elif kind == "swap_dice":  # swapping two alike dice of one row changes nothing
            choices = [
                {"type": kind, "die": a, "other": b}
                for a, b in combinations(filled, 2)
                if a[:3] != b[:3] or self.die_colour(seat, a) != self.die_colour(seat, b)
            ]
        else:
            choices = [
                {"type": kind, "die": pos, "row": row}
                for pos in filled
                for row in ATTRIBUTES
                if row != pos[:3] and len(seat["rows"][row]) < SLOTS
            ]
        return [(choice, self.die_gain(seat, choice)) for choice in choices]

    def die_gain(self, seat: Seat, action: Action) -> float:
        """The gain of a die action on `seat`; a reroll keeps the better of the old and the new value."""
        kind = action["type"]
        pos = action["die"]
        if kind == "reroll_die":
            keep = self.gain(seat)
            return sum(max(keep, self.gain(with_value(seat, pos, n))) for n in range(1, 7)) / 6
        if kind == "flip_die":
            return self.gain(with_value(seat, pos, 7 - self.die_value(seat, pos)))
        if kind == "adjust_die":
            return self.gain(with_value(seat, pos, self.die_value(seat, pos) + action["delta"]))
        if kind == "swap_dice":
            return self.gain(swapped(seat, pos, action["other"]))
        return self.gain(moved_die(seat, pos, action["row"]))

    @staticmethod
    def die_value(seat: Seat, pos: str) -> int:
        attr, slot = parse_position(pos)  # type: ignore[misc]
        return seat["rows"][attr][slot][1]

    @staticmethod
    def die_colour(seat: Seat, pos: str) -> str:
        attr, slot = parse_position(pos)  # type: ignore[misc]
        return seat["rows"][attr][slot][0]

    def best_die_option(self, kind: str) -> float:
        return max((g for _, g in self.die_options(kind)), default=0.0)

    # skills

    def context(self) -> str:
        if self.view["window"]:
            return "window"
        if self.view["phase"] == "dice":
            return self.view["step"]
        return self.view["phase"]

    def skill_gain(self, action: Action) -> float:
        used = action["copy"] or action["skill"]
        effect = CARDS[used]["effect"]
        kind = effect["kind"]
        arrow = CARDS[used].get("arrow")
        align = self.gain({**self.me, "token": moved(self.me["token"], arrow)}) if arrow else 0.0
        keep = SKILL_KEEP if not self.me["exhausted"] else SKILL_KEEP + 0.5
        return self.effect_gain(kind, effect) + align - keep

    def effect_gain(self, kind: str, effect: dict[str, Any]) -> float:
        """What a skill's effect adds now; 0 where it does not apply (Diplomacy may copy a skill only to move
        the token)."""
        context = self.context()
        if kind == "gain_gold":
            return self.gold_gain(effect["gold"])
        if kind in EFFECT_DIE_KIND:
            return max(0.0, self.best_die_option(kind))
        if kind in ("reroll_initiative_all", "reroll_initiative_one"):
            if context != "pick":  # before another seat's pick it is too uncertain to be worth a skill
                return 0.0
            return max(0.0, self.reroll_gain(kind))
        if kind == "swap_with_initiative":
            if context not in ("pick", "window"):
                return 0.0
            return max(0.0, max((g for _, g in self.initiative_swaps()), default=0.0))
        if kind == "take_from_bag":
            held = self.me["held"]
            if context != "place" or held is None:
                return 0.0
            return max(
                (
                    self.best_placement([c, held[1]]) - self.best_placement(held)
                    for c, n in self.view["bag"].items()
                    if n > 0 and c != held[0]
                ),
                default=0.0,
            )
        if kind == "buy_from_deck":
            if not self.can_discard:  # after buying (or Move Silently) the deck is closed to this seat
                return 0.0
            blind = self.blind_buy_gain(effect["discounts"])
            if effect["extra"]:
                return blind
            market = max(
                (self.buy_gain(self.me, self.seat, c, self.cost(self.me, c)) for c in self.view["market"]),
                default=0.0,
            )
            return blind - max(market, self.gold_gain(self.discard_gold()))
        return 0.0

    def reroll_gain(self, kind: str) -> float:
        """The expected gain to this seat's pick from rerolling one or all of the unchosen initiative dice."""
        cards = self.unchosen()
        tables = [[self.best_placement([c["die"][0], v]) for v in range(1, 7)] for c in cards]
        current = [self.best_placement(c["die"]) for c in cards]
        best_now = max(current)
        if kind == "reroll_initiative_all":
            return _expected_max(tables) - best_now
        return max(self.reroll_one_gain(i, tables, current) for i in range(len(cards))) - best_now

    def reroll_one_gain(self, index: int, tables: list[list[float]], current: list[float]) -> float:
        rest = max((v for i, v in enumerate(current) if i != index), default=0.0)
        return sum(max(rest, v) for v in tables[index]) / 6

    def initiative_swaps(self) -> list[tuple[Action, float]]:
        out = []
        for pos in filled_positions(self.me):
            for card in self.unchosen():
                after = with_die(self.me, pos, card["die"])
                if card["die"][0] == "gold":
                    after = {**after, "gold": after["gold"] + PLACE_GOLD_DIE}
                action = {"type": "swap_with_initiative", "die": pos, "card": card["number"]}
                out.append((action, self.gain(after)))
        return out

    def blind_buy_gain(self, discounts: bool) -> float:
        """The average gain of buying the unknown top card of the deck, from the cards nobody can see."""
        seen = set(self.view["market"]) | set(self.view["discard"]) | set(self.view["sold_out"])
        for seat in self.view["seats"]:
            for cards in seat["cards"].values():
                seen |= set(cards)
        unseen = [c for c in CARDS if c not in seen]
        if not unseen:
            return 0.0
        gains = [self.buy_gain(self.me, self.seat, c, self.cost(self.me, c, discounts)) for c in unseen]
        return sum(max(0.0, g) for g in gains) / len(unseen)

    def discard_gold(self) -> int:
        ability = class_ability(self.me["class"])
        return MARKET_DISCARD_GOLD + (ability["gold"] if ability.get("kind") == "discard_gold_bonus" else 0)

    def deny_value(self, card: str) -> float:
        """How much discarding `card` keeps from the seats still to buy in this market."""
        order = self.view["market_order"]
        later = order[self.view["market_index"] + 1 :]
        seats = self.view["seats"]
        return DENY_WEIGHT * max(
            (self.buy_gain(seats[i], i, card, self.cost(seats[i], card)) for i in later), default=0.0
        )

    def skill_worth(self, skill: str) -> float:
        return SKILL_USE[CARDS[skill]["effect"]["kind"]]

    # the actions

    def score(self, action: Action) -> float:
        kind = action["type"]
        me = self.me
        if kind == "choose_race":
            return race_score(action["race"], self.view["seats"])
        if kind == "choose_class":
            return class_score(action["class"], me["race"])
        if kind == "place_start_die":
            die = me["start_dice"][action["die"]]
            return self.gain(placed(me, action["row"], die, setup=True))
        if kind == "pick_card":
            card = self.view["initiative"][action["card"] - 1]
            gold = initiative_gold(me, card["gold"])
            later = len(self.view["initiative"]) - action["card"]
            return self.best_placement(card["die"]) + self.gold_gain(gold) + ORDER_VALUE * later
        if kind == "place_die":
            after = placed(me, action["row"], me["held"], setup=False)
            return self.gain(after) + self.action_prospect(action["row"], after)
        if kind in EFFECT_DIE_KIND:
            gain = self.die_gain(me, action)
            if self.pending is None:  # an attribute action, not a skill's effect: weapons may pay for it
                gain += self.row_gold(ACTION_ROW[EFFECT_DIE_KIND[kind]])
            return gain
        if kind == "move_token":
            return self.gain({**me, "token": moved(me["token"], action["direction"])}) + self.row_gold("wis")
        if kind == "take_discount":
            return DISCOUNT_USE * self.gold_gain(1) + self.row_gold("cha")
        if kind == "use_skill":
            return self.skill_gain(action)
        if kind == "keep_roll":
            top = self.pending
            return self.gain(with_value(me, top["die"], top["new"] if action["keep_new"] else top["old"]))
        if kind == "order_die":
            low = min(v for _, v in self.pending["dice"])
            return 0.1 * self.best_placement([action["colour"], low])
        if kind == "discard_weapon":
            weapons = list(me["cards"]["weapon"])
            weapons.remove(action["card"])
            return self.gain({**me, "cards": {**me["cards"], "weapon": weapons}})
        if kind == "buy_card":
            cost = card_price(me, action["card"]) - action["tokens"]
            return self.buy_gain(me, self.seat, action["card"], cost)
        if kind == "buy_revealed":
            card = self.view["deck_top"]
            cost = card_price(me, card, self.pending["discounts"]) - action["tokens"]
            return self.buy_gain(me, self.seat, card, cost)
        if kind == "recall_card":
            return max(0.0, self.buy_gain(me, self.seat, action["card"], self.cost(me, action["card"]))) - 0.1
        if kind == "discard_card":
            return self.gold_gain(self.discard_gold()) + self.deny_value(action["card"])
        if kind == "take_gold":
            return self.gold_gain(self.discard_gold())
        if kind == "refresh_skill":
            return self.skill_worth(action["skill"])
        if kind == "reroll_initiative":
            cards = self.unchosen()
            tables = [[self.best_placement([c["die"][0], v]) for v in range(1, 7)] for c in cards]
            current = [self.best_placement(c["die"]) for c in cards]
            index = next(i for i, c in enumerate(cards) if c["number"] == action["card"])
            return self.reroll_one_gain(index, tables, current) - max(current)
        if kind == "swap_with_initiative":
            card = self.view["initiative"][action["card"] - 1]
            after = with_die(me, action["die"], card["die"])
            if card["die"][0] == "gold":
                after = {**after, "gold": after["gold"] + PLACE_GOLD_DIE}
            return self.gain(after)
        if kind == "take_from_bag":
            held = me["held"]
            return self.best_placement([action["colour"], held[1]]) - self.best_placement(held)
        # decline_skill, skip_action, skip_effect, skip_recall, decline_revealed, end_market_turn: no change
        return 0.0

    def row_gold(self, row: str) -> float:
        """What the gold this seat's weapons pay for an attribute action of `row` is worth."""
        gold = sum(
            CARDS[w]["effect"]["gold"]
            for w in self.me["cards"]["weapon"]
            if CARDS[w]["effect"]["kind"] == "action_gold" and CARDS[w]["effect"]["row"] == row
        )
        return self.gold_gain(gold) if gold else 0.0


def _expected_max(tables: list[list[float]]) -> float:
    """E[max] of independent values, each uniform over its six entries."""
    points = sorted({v for table in tables for v in table})
    expected = 0.0
    below = 0.0
    for point in points:
        at_most = 1.0
        for table in tables:
            at_most *= sum(1 for v in table if v <= point) / 6
        expected += point * (at_most - below)
        below = at_most
    return expected


def race_score(race: str, seats: list[Seat]) -> float:
    """A race's worth before the class is known: its rows' expected stars averaged over the classes left."""
    taken = {CLASSES[s["class"]]["card"] for s in seats if s.get("class")}
    classes = [cid for cid, cls in CLASSES.items() if cls["card"] not in taken] or list(CLASSES)
    return sum(class_score(cid, race) for cid in classes) / len(classes)


def class_score(class_id: str, race: str) -> float:
    mods = RACES[race]["modifiers"]
    return sum(_row_value(class_id, mods[attr], attr, (), 0, (), 8) for attr in ATTRIBUTES)


def ranked(view: View, actions: list[Action], rng: Rng) -> list[Action]:
    """The legal actions, best first; the seed breaks ties."""
    planner = Planner(view, actions)
    keys = [(round(planner.score(a), 6), rng.below(1 << 20)) for a in actions]
    return [actions[i] for i in sorted(range(len(actions)), key=lambda i: keys[i], reverse=True)]


def choose(view: View, actions: list[Action], rng: Rng) -> Action:
    planner = Planner(view, actions)
    best = max(range(len(actions)), key=lambda i: (round(planner.score(actions[i]), 6), rng.below(1 << 20)))
    return actions[best]


SOLO_PAR = 30.0  # expected stars of a middling solo character (an Adventurer rates from 28)
STAR_SCALE = 3.0  # an expected lead of this many stars is judged about three wins in four


def evaluate(view: View) -> float:
    """Where the viewer stands: its expected final stars against the best other seat's (solo: against a fair
    result, the expected stars themselves)."""
    seats = view["seats"]
    golds = [s["gold"] for s in seats]

    def expect(index: int) -> float:
        seat = seats[index]
        if not seat["class"]:
            return 0.0
        return potential(seat, empty_slots(seat), view["solo"], golds[:index] + golds[index + 1 :])

    mine = expect(view["viewer"])
    if view["solo"]:
        return (mine - SOLO_PAR) / STAR_SCALE
    return (mine - max(expect(i) for i in range(len(seats)) if i != view["viewer"])) / STAR_SCALE
