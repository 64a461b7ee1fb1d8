"""Words and pictures for Roll Player.

Names of races, classes, cards, backstories and alignments come from the engine's data, which has them in every
language we speak (English where a language is missing). Card texts are written from each card's effect
primitives, so they follow the data when an owner of the game corrects a provisional card.
"""

from __future__ import annotations

from typing import Any

from bot import i18n
from bot.chooser import JOIN, THEN, chain_depth, joint_choice, joint_values
from bot.games.base import GamePresenter, bare_key
from engines.base import Action, Event, View
from engines.roll_player.data import (
    ALIGNMENTS,
    ARMOR_SETS,
    ATTRIBUTES,
    BACKSTORIES,
    BACKSTORY_SCORING,
    CARDS,
    CLASSES,
    DICE,
    RACES,
    ROW_ACTION,
    SOLO,
)
from engines.roll_player.rules import (
    MARKET_DISCARD_GOLD,
    PLACE_GOLD_DIE,
    START_GOLD,
    can_move,
    card_price,
    initiative_gold,
    market_gold,
    moved,
    parse_position,
    price_cuts,
    row_gold,
    sort_onto,
    turn_order,
)
from engines.roll_player.scoring import backstory_match, final_attribute
from render import roll_player as roll_player_render

_ATTRIBUTE_NAMES = {attr["id"]: attr["name"] for attr in DICE["attributes"]}
_COLOUR_NAMES = {colour["id"]: colour["name"] for colour in DICE["colours"]}
_ABILITY_OF_CLASS = {cid: cls["ability"] for cid, cls in CLASSES.items()}
_RATINGS = {rating["id"]: rating for rating in SOLO["ratings"]}


def _local(words: dict[str, str] | None, locale: str, fallback: str) -> str:
    """The data's words in the reader's language, else in English."""
    words = words or {}
    return words.get(locale[:2]) or words.get("en") or fallback


# How a provisional entry is marked where several are told together: all of it not in the rulebook (True), or a
# class whose ability the rulebook has but not its targets and stars ("targets").
PROVISIONAL_MARKS: dict[Any, str] = {True: "†", "targets": "‡"}


def _provisional_key(provisional: Any) -> str:
    return "provisional" if provisional is True else f"provisional.{provisional}"


class RollPlayerPresenter(GamePresenter):
    engine_name = "roll_player"
    render_table_fn = roll_player_render.render_table
    # Everything in Roll Player is on the table (the engine's view is the same for every seat), so there is no
    # private picture: no "My hand" button, and DMs only say that it is your turn.
    render_private_fn = None
    render_sheet_fn = roll_player_render.render_sheet

    # --- names ----------------------------------------------------------------------------------------------

    def race_name(self, race: str, locale: str) -> str:
        return _local(RACES.get(race, {}).get("name"), locale, race)

    def class_name(self, cls: str, locale: str) -> str:
        return _local(CLASSES.get(cls, {}).get("name"), locale, cls)

    def ability_name(self, cls: str, locale: str) -> str:
        return _local(_ABILITY_OF_CLASS.get(cls, {}).get("name"), locale, cls)

    def card_name(self, card: str, locale: str) -> str:
        return _local(CARDS.get(card, {}).get("name"), locale, card)

    def backstory_name(self, ident: str, locale: str) -> str:
        return _local(BACKSTORIES.get(ident, {}).get("name"), locale, ident)

    def alignment_name(self, ident: str, locale: str) -> str:
        return _local(ALIGNMENTS.get(ident, {}).get("name"), locale, ident)

    def set_name(self, ident: str, locale: str) -> str:
        return _local(ARMOR_SETS.get(ident, {}).get("name"), locale, ident)

    def rating_name(self, ident: str, locale: str) -> str:
        return _local(_RATINGS.get(ident, {}).get("name"), locale, ident)

    @staticmethod
    def attr_name(attr: str, locale: str) -> str:
        return _local(_ATTRIBUTE_NAMES.get(attr), locale, str(attr))

    @staticmethod
    def colour_name(colour: str, locale: str) -> str:
        return _local(_COLOUR_NAMES.get(colour), locale, str(colour))

    def die_label(self, die: list[Any] | None, locale: str) -> str:
        if not die:
            return "—"
        return self.t("die", locale, colour=self.colour_name(die[0], locale), value=die[1])

    def dice_label(self, dice: list[list[Any]], locale: str) -> str:
        return ", ".join(self.die_label(die, locale) for die in dice) or "—"

    def position_name(self, pos: str, locale: str) -> str:
        if not isinstance(pos, str) or len(pos) != 4 or pos[:3] not in ATTRIBUTES:
            return str(pos)
        return self.t("position", locale, row=self.attr_name(pos[:3], locale), slot=pos[3])

    def position_label(self, pos: str, view: View, locale: str) -> str:
        """A box on the viewer's sheet and the die in it: 'Strength box 1: Blue 5'."""
        die = self._die_at(pos, view)
        name = self.position_name(pos, locale)
        return self.t("die_at", locale, position=name, die=self.die_label(die, locale)) if die else name

    def initiative_name(self, number: int, locale: str) -> str:
        return self.t("initiative", locale, number=number)

    def initiative_label(self, number: int, view: View, locale: str, taking: bool = False) -> str:
        card = next((c for c in view.get("initiative", []) if c["number"] == number), None)
        if card is None or card.get("die") is None:
            return self.initiative_name(number, locale)
        text = self.t("initiative_die", locale, number=number, die=self.die_label(card["die"], locale))
        seat = view.get("viewer")
        # What taking it pays the reader (a Rogue gets more); anyone else reads the gold on the card.
        gold = initiative_gold(view["seats"][seat], card["gold"]) if seat is not None else card["gold"]
        # Taking a card with a gold die means placing it, which pays too.
        die_gold = PLACE_GOLD_DIE if taking and card["die"][0] == "gold" else 0
        if die_gold:
            key = "initiative_gold_both" if gold else "initiative_gold_die"
            return self.t(key, locale, card=text, gold=gold, die_gold=die_gold)
        return self.t("initiative_gold", locale, card=text, gold=gold) if gold else text

    def names_of(self, seats: list[int], names: list[str], locale: str) -> str:
        return ", ".join(names[s] for s in seats if s is not None and 0 <= s < len(names)) or self.t(
            "nobody", locale
        )

    def direction_name(self, direction: str | None, locale: str) -> str:
        return (
            self.t(f"direction.{direction}", locale)
            if direction and self.has(f"direction.{direction}")
            else "—"
        )

    def cell_name(self, cell: int, locale: str) -> str:
        return self.t(f"cell.{cell}", locale) if self.has(f"cell.{cell}") else str(cell)

    def card_type_name(self, kind: str, locale: str) -> str:
        return self.t(f"card_type.{kind}", locale) if self.has(f"card_type.{kind}") else str(kind)

    def modifiers_text(self, race: str, locale: str) -> str:
        mods = RACES.get(race, {}).get("modifiers", {})
        parts = [
            f"{self.t(f'attr_short.{attr}', locale)} {value:+d}" for attr, value in mods.items() if value
        ]
        return ", ".join(parts) or self.t("no_modifiers", locale)

    # --- prices ---------------------------------------------------------------------------------------------

    def price(self, view: View, card: str, discounts: bool) -> int:
        """What `card` costs the viewer before discount tokens (the engine's own rule)."""
        seat = view.get("viewer")
        if seat is None:
            return CARDS[card]["cost"]
        return card_price(view["seats"][seat], card, discounts)

    def _price_label(self, name: str, card: str, view: View, locale: str) -> str:
        """A card and what it costs the viewer, with what took gold off its printed price ("−1 Warrior")."""
        seat = view.get("viewer")
        cuts = price_cuts(view["seats"][seat], card) if seat is not None else []
        gold = self.price(view, card, True)
        if not cuts:
            return self.t("card_price", locale, card=name, gold=gold)
        me = view["seats"][seat]
        sources = [
            self.t(
                "price_cut",
                locale,
                amount=amount,
                source=self.card_name(weapon, locale) if weapon else self.class_name(me["class"], locale),
            )
            for weapon, amount in cuts
        ]
        return self.t("card_price_cut", locale, card=name, gold=gold, cuts=", ".join(sources))

    def _buying(self, chosen: dict[str, Any], view: View) -> tuple[str | None, bool]:
        """The card a tokens choice is about, and whether discounts apply to it."""
        if chosen.get("type") == "buy_card":
            return chosen.get("card"), True
        pending = view.get("pending") or {}
        return view.get("deck_top"), bool(pending.get("discounts", True))

    # --- choosing actions -----------------------------------------------------------------------------------

    def part_label(self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str) -> str:
        kind = chosen.get("type")
        if key == "type":
            if value in ("discard_card", "take_gold"):  # the gold it pays the reader (a Cleric gets more)
                return self.t(f"type_gold.{value}", locale, gold=self._market_gold(view))
            return self.t(f"type.{value}", locale) if self.has(f"type.{value}") else str(value)
        if key == "race":
            return self.t(
                "race_label",
                locale,
                race=self.race_name(value, locale),
                modifiers=self.modifiers_text(value, locale),
            )
        if key == "class":
            cls = CLASSES.get(value, {})
            return self.t(
                "class_label",
                locale,
                **{
                    "class": self.class_name(value, locale),
                    "colour": self.colour_name(cls.get("colour", ""), locale),
                    "ability": self.ability_name(value, locale),
                },
            )
        if key == "die":
            if isinstance(value, list):  # a starting die, named by _named_dice
                return self.die_label(value, locale)
            if isinstance(value, int):  # an index into the starting dice still to place
                seat = view.get("viewer")
                dice = view["seats"][seat]["start_dice"] if seat is not None else []
                return self.die_label(dice[value] if 0 <= value < len(dice) else None, locale)
            label = self.position_label(value, view, locale)
            die = self._die_at(value, view)
            if kind == "flip_die" and die:  # opposite faces of a die add up to 7
                return self.t("flip_to", locale, die=label, value=7 - die[1])
            return label
        if key == "other":
            return self.position_label(value, view, locale)
        if key == "row":
            name = self.attr_name(value, locale)
            if kind == "place_die":
                name = self.t(
                    "row_with_action",
                    locale,
                    row=name,
                    action=self.t(f"row_action.{ROW_ACTION[value]}", locale),
                )
            seat = view.get("viewer")
            # What placing there pays the reader: a third box filled, the Barbarian's Strength. Said in the dice
            # phase only, where a turn places one die: a chain of starting dice fills rows as it goes.
            gold = (
                row_gold(view["seats"][seat], value, setup=False)
                if kind == "place_die" and seat is not None
                else 0
            )
            return self.t("row_gold", locale, row=name, gold=gold) if gold else name
        if key == "card":
            if isinstance(value, int) and _sorting(view):  # the card the sorting player then takes
                return self.t(
                    "tie_take", locale, card=self.initiative_label(value, view, locale, taking=True)
                )
            if isinstance(value, int):
                # where taking a card is the only kind of move, its kind is never asked
                taking = kind == "pick_card" or (kind is None and _picking(view))
                return self.initiative_label(value, view, locale, taking=taking)
            name = self.card_name(value, locale)
            if kind == "buy_card" and "tokens" not in chosen:  # else the tokens' label tells the price
                return self._price_label(name, value, view, locale)
            if kind is None and _discarding_only(view):  # its kind is never asked: the label says it
                return self.t("action.discard_card", locale, card=name, gold=self._market_gold(view))
            return name
        if key == "card_type":
            return self.card_type_name(value, locale)
        if key == "tokens":
            card, discounts = self._buying(chosen, view)
            cost = self.price(view, card, discounts) if card in CARDS else value
            if value:
                return self.t("tokens.some", locale, tokens=value, count=value, gold=max(cost - value, 0))
            return self.t("tokens.none", locale, gold=cost)
        if key == "delta":
            die = self._die_at(chosen.get("die"), view)
            after = die[1] + value if die else value
            return self.t("delta.up" if value > 0 else "delta.down", locale, value=after)
        if key == "keep_new":
            pending = view.get("pending") or {}
            number = pending.get("new") if value else pending.get("old")
            return self.t(
                "keep.new" if value else "keep.old", locale, value=number if number is not None else "?"
            )
        if key == "direction":
            direction = self.direction_name(value, locale)
            seat = view.get("viewer")
            me = view["seats"][seat] if seat is not None else None
            # what the alignment card scores where the token would stand; not told where the token cannot go
            # that way from where this view has it (a committed move labelled from the view after it)
            if (
                kind == "move_token"
                and me
                and me.get("alignment") in ALIGNMENTS
                and me.get("token") is not None
                and can_move(me["token"], value)
            ):
                stars = ALIGNMENTS[me["alignment"]]["grid"][moved(me["token"], value)]
                return self.t(
                    "direction_stars", locale, direction=direction, stars=f"{stars:+d}" if stars else 0
                )
            return direction
        if key == "colour":
            return self.colour_name(value, locale)
        if key in ("skill", "copy"):
            return self.card_name(value, locale) if value else self.t("copy.none", locale)
        return str(value)

    def label_text(
        self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str, with_types: bool
    ) -> str:
        """Chained starting dice named as they will be placed, and a tied die put first, chained with the card
        then taken, naming the die that card will hold by then."""
        context = {**chosen, **joint_values(key, value)}
        if _sorting(view) and context.get("colour") and isinstance(context.get(THEN + "card"), int):
            view = _after_sorting(view, context["colour"])
        named = self._named_dice(context, view)
        _, value = joint_choice({k: named[k] for k in key.split(JOIN)})
        view = _token_for_move(context, view)
        return super().label_text(key, value, {k: named[k] for k in chosen}, view, locale, with_types)

    def action_text(self, action: Action, view: View, locale: str) -> str:
        return super().action_text(self._named_dice(action, view), _token_for_move(action, view), locale)

    @staticmethod
    def _named_dice(action: dict[str, Any], view: View) -> dict[str, Any]:
        """A chain of starting-die placements names each die by its place among the dice left when its turn
        comes: here each is the die itself, so the second of "Red 2, then White 1" is not read off the dice
        as they are before the first."""
        seat = view.get("viewer")
        if seat is None or not isinstance(action.get("die"), int):
            return action
        left = list(view["seats"][seat]["start_dice"])
        named = dict(action)
        depth = 0
        while (kind := action.get(THEN * depth + "type")) is not None or depth == 0:
            key = THEN * depth + "die"
            if (
                kind in (None, "place_start_die")
                and isinstance(action.get(key), int)
                and 0 <= action[key] < len(left)
            ):
                named[key] = left.pop(action[key])
            depth += 1
        return named

    def prompt_text(
        self, key: str, locale: str, chosen: dict[str, Any] | None = None, view: View | None = None
    ) -> str:
        if key.split(JOIN)[0] == "colour" and view is not None and _sorting(view):
            return self.t("prompt.tie", locale)
        if key == "card" and not (chosen or {}).get("type") and view is not None and _discarding_only(view):
            return self.t("prompt.discard_only", locale)
        return super().prompt_text(key, locale, chosen, view)

    def choice_facts(
        self, key: str, values: list[Any], chosen: dict[str, Any], view: View, locale: str
    ) -> list[str]:
        """What the choice depends on where the labels can only name things: the tied dice being put in order,
        the mover's rows (dice, total, the class's goal) where a die goes into one or an action changes one,
        their gold and tokens where they buy, and what each card, skill or class on offer does."""
        offered = _offered(key, values)
        lines: list[str] = []
        if "colour" in offered and _sorting(view):
            lines.append(self._tie_fact(view["pending"], locale))
        seat, token = view.get("viewer"), None
        if seat is not None:
            me = view["seats"][seat]
            token = me["token"]
            # rows a die goes into, and rows whose dice an attribute action changes ("Wisdom box 3: White 4")
            boxes = [parse_position(pos) for pos in [*offered.get("die", ()), *offered.get("other", ())]]
            rows = {*offered.get("row", ()), *(box[0] for box in boxes if box is not None)}
            lines += [self._row_fact(me, row, locale) for row in ATTRIBUTES if row in rows]
            if any(isinstance(card, str) and card in CARDS for card in offered.get("card", ())):
                tokens = me["discounts"]
                lines.append(self.t("purse_fact", locale, count=tokens, gold=me["gold"], tokens=tokens))
            elif _picking(view) and view["market"]:  # the card taken decides when its holder buys
                priced = [
                    self._price_label(self.card_name(c, locale), c, view, locale) for c in view["market"]
                ]
                lines.append(self.t("market_fact", locale, cards=" · ".join(priced), gold=me["gold"]))
        room = FACTS_ROOM - sum(len(line) + 1 for line in lines)
        return lines + self._offer_facts(offered, room, view, locale, token)

    def _tie_fact(self, pending: dict[str, Any], locale: str) -> str:
        value = min(die[1] for die in pending["dice"])
        tied = [die for die in pending["dice"] if die[1] == value]
        card = self.initiative_name(pending["cards"][0], locale)
        return self.t("tie_fact", locale, value=value, dice=self.dice_label(tied, locale), card=card)

    def _offer_facts(
        self, offered: dict[str, list[Any]], room: int, view: View, locale: str, token: int | None
    ) -> list[str]:
        """What each card, skill or class on offer does, while the lines fit in `room`; the rest counted (a long
        list, the discard pile, is left to /rules). A card in the market or its discard pile says what it costs
        the viewer (a review's player brought one back and was not told its price, another could afford none and
        saw no prices); a weapon how many hands it takes, and a card with an arrow where it moves the viewer's
        alignment token (at `token`)."""
        on_sale = {*view.get("market", ()), *view.get("discard", ())}
        cards = [*offered.get("card", []), *offered.get("skill", []), *offered.get("copy", [])]
        lines: list[str] = []
        untold = 0
        marked: set[Any] = set()  # the kinds of provisional entry among those told
        for kind, idents in (("card", dict.fromkeys(cards)), ("class", offered.get("class", []))):
            texts = CARDS if kind == "card" else CLASSES
            for ident in idents:
                if not isinstance(ident, str) or ident not in texts:
                    continue  # an initiative card, by its number
                name = self.card_name(ident, locale) if kind == "card" else self.class_name(ident, locale)
                text = self._card_effect(ident, locale) if kind == "card" else self._class_body(ident, locale)
                if kind == "card":
                    name, text = self._with_hands_and_arrow(ident, name, text, token, locale)
                provisional = texts[ident].get("provisional")
                mark = f" {PROVISIONAL_MARKS[provisional]}" if provisional else ""
                name += mark
                if kind == "card" and ident in on_sale and ident in offered.get("card", ()):
                    name = self._price_label(name, ident, view, locale)
                line = self.t("offered_fact", locale, name=name, text=text)
                if len(line) + 1 > room:
                    untold += 1
                    continue
                room -= len(line) + 1
                lines.append(line)
                if provisional:
                    marked.add(provisional)
        if untold:
            lines.append(self.t("more_facts", locale, count=untold))
        for provisional, mark in PROVISIONAL_MARKS.items():
            if provisional in marked:
                lines.append(f"-# {mark} {self.t(_provisional_key(provisional), locale)}")
        return lines

    def _with_hands_and_arrow(
        self, card: str, name: str, text: str, token: int | None, locale: str
    ) -> tuple[str, str]:
        data = CARDS[card]
        if data.get("hands"):
            name += self.t(f"lookup.hands.{data['hands']}", locale)
        arrow = data.get("arrow")
        if arrow and token is not None:
            direction = self.direction_name(arrow, locale)
            start = self.cell_name(token, locale)
            when = "bought" if data["type"] == "trait" else "used"  # a skill's arrow moves it at each use
            if can_move(token, arrow):
                end = self.cell_name(moved(token, arrow), locale)
                text += " " + self.t(f"arrow_{when}", locale, direction=direction, start=start, end=end)
            else:  # a trait is bought all the same; a skill cannot be used
                text += " " + self.t(f"arrow_stuck_{when}", locale, direction=direction, start=start)
        return name, text

    def _row_fact(self, me: dict[str, Any], row: str, locale: str) -> str:
        race = RACES[me["race"]]["modifiers"][row] if me.get("race") else 0
        dice = [self.die_label(die, locale) for die in me["rows"][row]]
        dice += [f"{self.race_name(me['race'], locale)} {race:+d}"] if race else []
        dice_text, total = ", ".join(dice) or "—", final_attribute(me, row)
        cls = CLASSES.get(me.get("class") or "")
        if cls is None:
            fact = self.t("row_fact", locale, row=self.attr_name(row, locale), dice=dice_text, total=total)
        else:
            target = cls["targets"][row]
            goal = self.t(
                f"goal.{target['kind']}", locale, **{k: v for k, v in target.items() if k != "kind"}
            )
            fact = self.t(
                "row_fact_goal",
                locale,
                row=self.attr_name(row, locale),
                dice=dice_text,
                total=total,
                goal=goal,
            )
        return fact + self._backstory_fact(me, row, locale)

    def _backstory_fact(self, me: dict[str, Any], row: str, locale: str) -> str:
        """The die the seat's backstory wants in this row, and whether it is there, missed or the next one in."""
        story = BACKSTORIES.get(me.get("backstory") or "")
        if story is None:
            return ""
        want = story["dice"][row]
        placed = me["rows"][row]
        if len(placed) >= want["slot"]:
            state = "met" if backstory_match(me, row) else "missed"
        else:
            state = "next" if len(placed) + 1 == want["slot"] else "open"
        colour = self.colour_name(want["colour"], locale)
        return self.t(f"backstory_fact.{state}", locale, colour=colour, slot=want["slot"])

    def suggestion_label(self, events: list[Event], locale: str) -> str:
        rows: dict[str, list[str]] = {attr: [] for attr in ATTRIBUTES}
        for e in events:
            if e["type"] in ("StartDiePlaced", "DiePlaced"):
                rows[e["row"]].append(self.die_label([e["colour"], e["value"]], locale))
        placed = [
            self.t("placed_short", locale, row=self.t(f"attr_short.{attr}", locale), die=", ".join(dice))
            for attr, dice in rows.items()
            if dice
        ]
        if not placed:
            return super().suggestion_label(events, locale)
        return self.t("suggested_dice", locale, dice=" · ".join(placed))

    @staticmethod
    def _die_at(pos: Any, view: View) -> list[Any] | None:
        seat = view.get("viewer")
        if seat is None or not isinstance(pos, str) or len(pos) != 4 or pos[:3] not in ATTRIBUTES:
            return None
        me = view["seats"][seat]
        row = me["rows"][pos[:3]]
        slot = int(pos[3]) - 1
        if slot == len(row) and me.get("held"):
            # the next box of a row: the die in hand, as a chain places it there before acting on it
            return me["held"]
        return row[slot] if 0 <= slot < len(row) else None

    @staticmethod
    def _market_gold(view: View) -> int:
        """What discarding a market card, or taking gold instead, pays the reader."""
        seat = view.get("viewer")
        return market_gold(view["seats"][seat]) if seat is not None else MARKET_DISCARD_GOLD

    def single_action_text(self, action: dict[str, Any], view: View, locale: str) -> str:
        kind = action["type"]
        params = {k: self.value_label(k, v, action, view, locale) for k, v in action.items() if k != "type"}
        if kind == "buy_card":  # the price is in the tokens part already
            params["card"] = self.card_name(action["card"], locale)
        if "row" in action:
            params["row"] = self.attr_name(action["row"], locale)
        if kind in ("discard_card", "take_gold"):
            params["gold"] = self._market_gold(view)
        key = "action.use_skill_copy" if kind == "use_skill" and action.get("copy") else f"action.{kind}"
        if self.has(key):
            return self.t(key, locale, **params)
        return " · ".join([self.value_label("type", kind, action, view, locale), *params.values()])

    # --- telling what happened ------------------------------------------------------------------------------

    def joined(self, before: Event, event: Event) -> Event | None:
        """Initiative dice put on cards one after another in one line ("on initiative cards 1–4: …"), with the
        roll that gave them if it came just before; a player's starting dice placed one after another, too."""
        if event["type"] == "StartDiePlaced":  # a player's starting dice, one line however many
            if before["type"] not in ("StartDiePlaced", "StartDicePlaced") or before["seat"] != event["seat"]:
                return None
            placed = before.get("placed") or [_start_die(before)]
            gold = (before.get("gold") or 0) + (event.get("gold") or 0)
            return {
                "type": "StartDicePlaced",
                "seat": event["seat"],
                "placed": [*placed, _start_die(event)],
                "gold": gold,
            }
        if event["type"] != "DieSorted":
            return None
        card = event["card"]
        if before["type"] == "DieSorted":
            run = {
                "type": "DiceSorted",
                "sorted": [_die(before)],
                "first": before["card"],
                "last": before["card"],
            }
        elif before["type"] == "InitiativeRolled":
            run = {**before, "type": "InitiativeSorted", "sorted": [], "first": card, "last": card - 1}
        elif before["type"] in ("InitiativeSorted", "DiceSorted"):
            run = before
        else:
            return None
        if run["last"] != card - 1:
            return None  # the cards named "first–last" must follow one another
        return {**run, "sorted": [*run["sorted"], _die(event)], "last": card}

    def event_text(self, event: Event, names: list[str], view: View, locale: str) -> str | None:
        kind = event["type"]
        key = kind
        if kind == "SkillUsed" and event.get("copy"):
            key = "SkillUsedCopy"
        elif kind == "CardBought" and event.get("source") == "deck":
            key = "CardBoughtFromDeck"
        elif kind == "CardDiscarded" and event.get("seat") is None:
            key = "CardDiscardedSolo"
        if not self.has(f"event.{key}"):
            return None
        return self.t(f"event.{key}", locale, **self.event_params(event, {}, names, view, locale))

    def event_params(
        self, event: Event, params: dict[str, Any], names: list[str], view: View, locale: str
    ) -> dict[str, Any]:
        kind = event["type"]
        params = {k: v for k, v in event.items() if k not in ("type", "private")}
        seat = event.get("seat")
        if kind == "RoundStarted":
            seat = event.get("start")
        elif kind == "SkillWindowOpened":
            seat = event.get("before")
        params["player"] = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "—"
        gold = event.get("gold")
        params["gold"] = self.t("gold_suffix", locale, gold=gold) if gold else ""
        if kind in ("CardBought", "CardDiscarded", "GoldTaken", "GoldGained"):
            params["gold"] = gold or 0
        tokens = event.get("tokens")
        params["tokens"] = self.t("tokens_suffix", locale, tokens=tokens, count=tokens) if tokens else ""
        if "row" in event:
            params["row"] = self.attr_name(event["row"], locale)
            params["action"] = self.t(f"row_action.{ROW_ACTION.get(event['row'], 'flip')}", locale)
        if "colour" in event and "value" in event and kind != "ClassDieDrawn":
            params["die"] = self.die_label([event["colour"], event["value"]], locale)
        if "colour" in event:
            params["colour"] = self.colour_name(event["colour"], locale)
        if "returned" in event:
            params["returned"] = self.colour_name(event["returned"], locale)
        if kind in (
            "DieFlipped",
            "DieAdjusted",
            "DiceSwapped",
            "DieMoved",
            "DieRerolled",
            "RollKept",
            "DieExchanged",
        ):
            params["die"] = self.position_name(event["die"], locale)
        if "other" in event:
            params["other"] = self.position_name(event["other"], locale)
        if "card" in event:
            card = event["card"]
            params["card"] = (
                self.initiative_name(card, locale) if isinstance(card, int) else self.card_name(card, locale)
            )
        for key in ("taken", "given"):
            if key in event:
                params[key] = self.die_label(event[key], locale)
        if "dice" in event:
            params["dice"] = self.dice_label(event["dice"], locale)
        if "sorted" in event:
            params["sorted"] = self.dice_label(event["sorted"], locale)
        if "placed" in event:  # by row, in the sheet's order: "Strength Red 3, White 2 · Dexterity Blue 5"
            params["placed"] = " · ".join(
                self.t(
                    "placed_short",
                    locale,
                    row=self.attr_name(attr, locale),
                    die=", ".join(
                        self.die_label([c, v], locale) for row, c, v in event["placed"] if row == attr
                    ),
                )
                for attr in ATTRIBUTES
                if any(row == attr for row, _, _ in event["placed"])
            )
        if "race" in event:
            params["race"] = self.race_name(event["race"], locale)
        if "class" in event:
            params["class"] = self.class_name(event["class"], locale)
        if "skill" in event:
            params["skill"] = self.card_name(event["skill"], locale)
        if event.get("copy"):
            params["copy"] = self.card_name(event["copy"], locale)
        if "direction" in event:
            params["direction"] = self.direction_name(event["direction"], locale)
        if "cell" in event:
            params["cell"] = self.cell_name(event["cell"], locale)
        if kind == "AdventurerRolled":
            params["target"] = self.t(f"adventurer.{event.get('target') or 'none'}", locale)
        if "seats" in event:
            params["players"] = self.names_of(event["seats"], names, locale)
        if "order" in event:
            params["players"] = self.names_of(event["order"], names, locale)
        if kind == "MarketDealt":
            params["cards"] = ", ".join(self.card_name(c, locale) for c in event["cards"]) or "—"
        if kind == "GameEnded":
            params["scores"] = ", ".join(f"{names[i]} {score}" for i, score in enumerate(event["scores"]))
            params["winners"] = self.names_of(event["winners"], names, locale)
        return params

    def error_text(self, code: str, params: dict[str, Any], locale: str) -> str:
        words = dict(params)
        if isinstance(words.get("direction"), str):
            words["direction"] = self.direction_name(words["direction"], locale)
        if self.has(f"error.{code}"):
            try:
                return self.t(f"error.{code}", locale, **words)
            except (KeyError, IndexError):  # a refusal raised with fewer details than usual
                return self.t(
                    f"error.{code}", locale, **{"gold": "?", "tokens": "?", "direction": "—", **words}
                )
        return super().error_text(code, params, locale)

    def status_text(self, view: View, names: list[str], locale: str) -> str:
        def name(seat: int | None) -> str:
            return names[seat] if seat is not None and 0 <= seat < len(names) else "—"

        phase = view["phase"]
        to_act = view.get("to_act", [])
        current = to_act[0] if to_act else None
        if phase == "over":
            result = view.get("result") or {}
            rating = (result.get("details") or {}).get("rating")
            if rating:
                return self.t("status.rating", locale, rating=self.rating_name(rating, locale))
            return self.t("status.over", locale)
        pending = view.get("pending")
        if pending:
            return self.t(f"status.pending.{pending['kind']}", locale, player=name(pending.get("seat")))
        window = view.get("window")
        if window:
            return self.t(
                "status.window",
                locale,
                players=self.names_of(window["seats"], names, locale),
                player=name(window.get("before")),
            )
        round_no = view.get("round", 0)
        if phase == "choose_race" and view["solo"]:
            return self.t("status.choose_race", locale, player=name(current))
        if phase == "choose_race":
            # who goes first, and the gold that the later seats start with to make up for it
            order = turn_order(view["start"], view["players"])
            told = [
                self.t("later_gold", locale, player=name(s), gold=gold - START_GOLD)
                if (gold := view["seats"][s]["gold"]) > START_GOLD
                else name(s)
                for s in order
            ]
            return self.t("status.choose_race_order", locale, player=name(current), order=", ".join(told))
        if phase == "choose_class":
            if view.get("class_offer"):
                return self.t(
                    "status.choose_class_offer",
                    locale,
                    player=name(current),
                    colour=self.colour_name(view["class_offer"], locale),
                )
            return self.t("status.choose_class", locale, player=name(current))
        if phase == "place_start":
            players = self.names_of(to_act, names, locale)
            return self.t("status.place_start", locale, players=players, count=len(to_act))
        if phase == "dice":
            step = view.get("step") if view.get("step") in ("pick", "place", "action") else "pick"
            return self.t(f"status.{step}", locale, round=round_no, player=name(current))
        if phase == "market":
            seat = current
            recalling = bool(
                seat is not None
                and view.get("market_order")
                and view["market_index"] < len(view["market_order"])
                and view["market_order"][view["market_index"]] != seat
            )
            key = "status.recall" if recalling else "status.market"
            return self.t(key, locale, round=round_no, player=name(seat))
        if phase == "cleanup":
            return self.t(
                "status.cleanup", locale, round=round_no, players=self.names_of(to_act, names, locale)
            )
        return ""

    # --- card lookup for /rules -----------------------------------------------------------------------------

    def card_text(self, card: str, locale: str) -> str:
        data = CARDS[card]
        extra = ""
        if data.get("arrow"):
            extra += self.t("lookup.arrow", locale, direction=self.direction_name(data["arrow"], locale))
        if data.get("hands"):
            extra += self.t(f"lookup.hands.{data['hands']}", locale)
        body = self.t(
            "lookup.card",
            locale,
            card_type=self.card_type_name(data["type"], locale),
            level=data["level"],
            cost=data["cost"],
            extra=extra,
            text=self._card_effect(card, locale),
        )
        return self._provisional(body, data, locale)

    def _card_effect(self, card: str, locale: str) -> str:
        """What a card does, with its armour set's scoring and a skill's timing."""
        data = CARDS[card]
        text = self.effect_text(data["effect"], locale, card=data)
        if data["type"] == "armor" and data.get("set") in ARMOR_SETS:
            armour = ARMOR_SETS[data["set"]]
            steps = ", ".join(self.t("lookup.set_step", locale, **step) for step in armour["stars"])
            text += " " + self.t(
                "lookup.set_steps",
                locale,
                set=self.set_name(data["set"], locale),
                size=armour["size"],
                steps=steps,
            )
        if data["type"] == "skill" and self.has(f"timing.{data.get('timing')}"):
            text = self.t(f"timing.{data['timing']}", locale) + text
        return text

    def effect_text(self, effect: dict[str, Any], locale: str, card: dict[str, Any] | None = None) -> str:
        """One effect primitive in words (the data's English text if we have no words for a new primitive)."""
        kind = effect["kind"]
        words: dict[str, Any] = {k: v for k, v in effect.items() if k != "kind"}
        if "row" in effect and kind in ("alignment_row",):
            words["row"] = self.t(f"alignment_row.{effect['row']}", locale)
        elif "row" in effect:
            words["row"] = self.attr_name(effect["row"], locale)
        if "attr" in effect:
            words["attr"] = self.attr_name(effect["attr"], locale)
        if "column" in effect:
            words["column"] = self.t(f"alignment_column.{effect['column']}", locale)
        if "cell" in effect:
            words["cell"] = self.cell_name(effect["cell"], locale)
        if "card_type" in effect:
            words["card_type"] = self.card_type_name(effect["card_type"], locale)
        if kind == "die_bonus":
            colour = effect["colour"]
            words["colour"] = (
                self.t("class_colour", locale) if colour == "class" else self.colour_name(colour, locale)
            )
        if kind == "armor_piece" and card is not None:
            words["set"] = self.set_name(card.get("set", ""), locale)
            words["colour"] = self.colour_name(card.get("colour", ""), locale)
        if kind == "buy_from_deck":
            text = self.t(
                "effect.buy_from_deck_extra" if effect.get("extra") else "effect.buy_from_deck_instead",
                locale,
            )
            return (
                text if effect.get("discounts", True) else f"{text} {self.t('effect.no_discounts', locale)}"
            )
        if not self.has(f"effect.{kind}"):  # a primitive new to the data: the card's own text
            return _local((card or {}).get("text"), locale, kind)
        text = self.t(f"effect.{kind}", locale, **words)
        if effect.get("otherwise"):
            text += " " + self.t("effect.otherwise", locale, stars=abs(effect["otherwise"]))
        return text

    def _provisional(self, text: str, data: dict[str, Any], locale: str) -> str:
        """`text` with a note of what the rulebook does not print, where that is only part of it (a class whose
        ability the rulebook has, but not its targets) or all of it."""
        marked = data.get("provisional")
        if not marked:
            return text
        return f"{text}\n*{self.t(_provisional_key(marked), locale)}*"

    def class_text(self, cid: str, locale: str) -> str:
        return self._provisional(self._class_body(cid, locale), CLASSES[cid], locale)

    def _class_body(self, cid: str, locale: str) -> str:
        cls = CLASSES[cid]
        targets = []
        for attr in ATTRIBUTES:
            target = cls["targets"][attr]
            short = self.t(f"attr_short.{attr}", locale)
            targets.append(
                self.t(
                    f"lookup.target_{target['kind']}",
                    locale,
                    attr=short,
                    **{k: v for k, v in target.items() if k != "kind"},
                )
            )
        ability = cls["ability"]
        return self.t(
            "lookup.class",
            locale,
            colour=self.colour_name(cls["colour"], locale),
            targets="; ".join(targets),
            ability=self.ability_name(cid, locale),
            text=self.effect_text(ability["effect"], locale, card=ability),
        )

    def _backstory_steps(self, locale: str) -> str:
        steps = [step for step in BACKSTORY_SCORING if step["stars"]]
        return ", ".join(self.t("lookup.backstory_step", locale, **step) for step in steps)

    def _components(self) -> list[tuple[str, str]]:
        """(kind, id) of everything /rules can look up, in the order cards() lists them."""
        return [
            *(("race", ident) for ident in RACES),
            *(("class", ident) for ident in CLASSES),
            *(("backstory", ident) for ident in BACKSTORIES),
            *(("alignment", ident) for ident in ALIGNMENTS),
            *(("card", ident) for ident in CARDS),
        ]

    def component_name(self, kind: str, ident: str, locale: str) -> str:
        namer = {
            "race": self.race_name,
            "class": self.class_name,
            "backstory": self.backstory_name,
            "alignment": self.alignment_name,
            "card": self.card_name,
        }[kind]
        return namer(ident, locale)

    def _aliases(self, kind: str, ident: str, locale: str) -> list[str]:
        """What a reader of `locale` may type to find a component: its name, and for a class its ability's."""
        names = [self.component_name(kind, ident, locale)]
        if kind == "class":
            names.append(self.ability_name(ident, locale))
        return names

    def _entry(self, kind: str, ident: str, locale: str) -> str:
        """The lookup text of one component, without its names."""
        if kind == "race":
            return self.t("lookup.race", locale, modifiers=self.modifiers_text(ident, locale))
        if kind == "class":
            return self.class_text(ident, locale)
        if kind == "card":
            return self.card_text(ident, locale)
        if kind == "backstory":
            story = BACKSTORIES[ident]
            dice = "; ".join(
                self.t(
                    "lookup.backstory_die",
                    locale,
                    attr=self.t(f"attr_short.{attr}", locale),
                    slot=story["dice"][attr]["slot"],
                    colour=self.colour_name(story["dice"][attr]["colour"], locale),
                )
                for attr in ATTRIBUTES
            )
            body = self.t("lookup.backstory", locale, dice=dice, steps=self._backstory_steps(locale))
            return self._provisional(self._with_flavour(body, story, locale), story, locale)
        card = ALIGNMENTS[ident]
        grid = ", ".join(
            f"{self.cell_name(i, locale)} {value:+d}" if value else f"{self.cell_name(i, locale)} 0"
            for i, value in enumerate(card["grid"])
        )
        body = self.t("lookup.alignment", locale, grid=grid)
        return self._provisional(self._with_flavour(body, card, locale), card, locale)

    @staticmethod
    def _with_flavour(body: str, data: dict[str, Any], locale: str) -> str:
        """The card's own words (a story, a character sketch) in italics, where the data has the language."""
        flavour = (data.get("text") or {}).get(locale[:2])
        return f"*{flavour}*\n{body}" if flavour else body

    def _other_names(self, kind: str, ident: str, locale: str) -> str:
        """The component's names in the other languages, so a Korean reader can match an English card."""
        own = self.component_name(kind, ident, locale)
        others = dict.fromkeys(
            self.component_name(kind, ident, other) for other in i18n.LOCALES if other != i18n.norm(locale)
        )
        return " · ".join(name for name in others if name != own)

    def _lookup_entry(self, kind: str, ident: str, locale: str) -> tuple[str, str]:
        body = self._entry(kind, ident, locale)
        others = self._other_names(kind, ident, locale)
        if others:
            body = self.t("lookup.names", locale, names=others) + "\n" + body
        return self.component_name(kind, ident, locale), body

    def cards(self, locale: str) -> list[tuple[str, str]]:
        return [self._lookup_entry(kind, ident, locale) for kind, ident in self._components()]

    def lookup_card(self, name: str, locale: str) -> tuple[str, str] | None:
        """A component by its name (or a class by its ability) in any language, told in the reader's."""
        wanted = name.casefold().strip()
        for lang in dict.fromkeys((i18n.norm(locale), *i18n.LOCALES)):  # the reader's language first
            for kind, ident in self._components():
                if wanted in (alias.casefold() for alias in self._aliases(kind, ident, lang)):
                    return self._lookup_entry(kind, ident, locale)
        return None

    def suggest_cards(self, typed: str, locale: str) -> list[tuple[str, str]]:
        """Names containing what was typed, in any language; the label adds the name the reader typed if it
        is another language's."""
        wanted = typed.casefold().strip()
        out = []
        for kind, ident in self._components():
            own = self.component_name(kind, ident, locale)
            typed_as = next(
                (
                    alias
                    for lang in dict.fromkeys((i18n.norm(locale), *i18n.LOCALES))
                    for alias in self._aliases(kind, ident, lang)
                    if wanted in alias.casefold()
                ),
                None,
            )
            if typed_as is not None:
                out.append((own if typed_as == own else f"{own} ({typed_as})", own))
        return out[:25]


def _start_die(placed: Event) -> list[Any]:
    return [placed["row"], placed["colour"], placed["value"]]


def _die(sorted_event: Event) -> list[Any]:
    return [sorted_event["colour"], sorted_event["value"]]


def _offered(key: str, values: list[Any]) -> dict[str, list[Any]]:
    """Each parameter of a step (its chain prefix dropped) with the values its choices hold, each once."""
    offered: dict[str, list[Any]] = {}
    for value in values:
        for part, item in joint_values(key, value).items():
            column = offered.setdefault(bare_key(part), [])
            if item is not None and item not in column:
                column.append(item)
    return offered


FACTS_ROOM = 1400  # of a picker message's 2,000 characters, what the lines under its question may take


def _discarding_only(view: View) -> bool:
    """Whether the viewer is at the market and can afford none of its cards, discount tokens and all: every card
    they may choose there is discarded for gold."""
    seat = view.get("viewer")
    if view.get("phase") != "market" or seat is None or seat not in view["to_act"] or not view["market"]:
        return False
    me = view["seats"][seat]
    if (view.get("pending") or {}).get("kind") is not None:
        return False  # something else is asked first (a weapon to put down, a Druid's card to bring back)
    return all(card_price(me, card) - me["discounts"] > me["gold"] for card in view["market"])


def _picking(view: View) -> bool:
    """Whether the viewer is taking an initiative card, with nothing else pending."""
    return (
        view.get("phase") == "dice"
        and view.get("step") == "pick"
        and not view.get("pending")
        and not view.get("window")
    )


def _token_for_move(chain: dict[str, Any], view: View) -> View:
    """The view with the viewer's alignment token where it stands when the chain's move of it comes: a skill's
    or a bought trait's arrow earlier in the chain moves it first ("Use Pickpocket → move the token up" scores
    where the token is after Pickpocket's arrow). Unknown where the chain moves it twice or buys the deck's
    top card: then no stars are told (token None)."""
    seat = view.get("viewer")
    kinds = [chain.get(THEN * depth + "type") for depth in range(1 + max(map(chain_depth, chain), default=0))]
    if seat is None or "move_token" not in kinds[1:]:
        return view
    token: int | None = view["seats"][seat]["token"]
    for depth, kind in enumerate(kinds[: kinds.index("move_token", 1)]):
        part = {bare_key(k): v for k, v in chain.items() if chain_depth(k) == depth}
        if kind == "use_skill":
            arrow = CARDS[part.get("copy") or part["skill"]].get("arrow")
        elif kind == "buy_card":
            arrow = CARDS[part["card"]].get("arrow") if CARDS[part["card"]]["type"] == "trait" else None
        elif kind in ("move_token", "buy_revealed"):
            token = None
            break
        else:
            continue
        if token is not None and arrow is not None and can_move(token, arrow):
            token = moved(token, arrow)
    seats = list(view["seats"])
    seats[seat] = {**seats[seat], "token": token}
    return {**view, "seats": seats}


def _sorting(view: View) -> bool:
    """Whether the viewer is putting tied initiative dice in order."""
    return (view.get("pending") or {}).get("kind") == "sort"


def _after_sorting(view: View, first: str) -> View:
    """The view with the initiative dice on their cards as putting the tied die of colour `first` first leaves
    them (the engine's order_die, then its sort onto the cards); dice still tied after that stay off."""
    pending = view["pending"]
    dice, numbers = [list(d) for d in pending["dice"]], list(pending["cards"])
    placed = dict(sort_onto(dice, numbers, first))
    cards = [{**c, "die": placed.get(c["number"], c["die"])} for c in view["initiative"]]
    return {**view, "initiative": cards}
