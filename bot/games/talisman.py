"""Words and pictures for Talisman.

Card, space and character names and Spell texts come from the engine's data (English, Korean and Spanish);
all else the bot says about the game lives in talisman.json. Cards in actions are instance ids ("uid"s); the view
tells which card each one is (on the board or carried by a character).
"""

from __future__ import annotations

import string
from typing import Any

from bot import i18n
from bot.chooser import JOIN, joint_values
from bot.games.base import ARROW, GamePresenter
from engines.base import Action, Event, View
from engines.talisman.data import (
    ADVENTURE,
    CHARACTERS,
    COMMAND,
    PLAIN_OF_PERIL,
    PORTAL,
    PURCHASE,
    SENTINEL,
    SPACES,
    SPELLS,
    TALISMAN,
    TOAD,
)
from engines.talisman.rules import MERCENARY_FEE
from render import talisman as talisman_render
from render.common import SEAT_MARKS

SPACE_KINDS = {space["kind"]: space for space in SPACES}
BUTTON_LIMIT = 80


# The shop's services a picker's move type buys (their prices are in the shop's prompt).
SHOP_SERVICES = {"heal": "heal", "buy_fate": "fate", "buy_spell": "spell", "train": "train"}
# The move whose label names each shop service that may be closed to a character (see rules.shop_closed): the
# priced ones' moves above, and those named as their moves are.
SERVICE_MOVES = {service: move for move, service in SHOP_SERVICES.items()} | {
    "buy": "buy",
    "royal_heal": "royal_heal",
}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


# What may open a turn's line ("Turn 5: Ana rolls 4 and moves …"), and a battle's steps up to who won.
TURN_OPENINGS = frozenset({"TurnMissed", "Moved", "RolledToMove"})
SCORE_BASES = (
    ("score", "base"),
    ("foe_score", "foe_base"),
    ("attacker_score", "attacker_base"),
    ("defender_score", "defender_base"),
)
FIGHT_STEPS = frozenset({"FoeRolled", "FateSpent", "BattleResolved", "FoeDefeated", "BattleLost", "StandOff"})
FIGHT_ENDS = frozenset({"FoeDefeated", "BattleLost", "StandOff"})


def _rolled_to_move(event: Event) -> bool:
    return event["type"] == "DiceRolled" and event["reason"] == "move"


class TalismanPresenter(GamePresenter):
    engine_name = "talisman"
    said_by = {"type": "die"}  # "Re-roll the die (5) · 1 fate" says the move's kind itself
    render_table_fn = talisman_render.render_table
    render_private_fn = talisman_render.render_private
    private_shows_fn = talisman_render.private_shows

    def label_text(
        self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str, with_types: bool
    ) -> str:
        # A move keeps the roll it uses: "Keep the roll → " on every move of a step (a review's phone wrapped
        # each button in lines) said nothing the re-roll beside them does not.
        label = super().label_text(key, value, chosen, view, locale, with_types)
        return label.removeprefix(self.t("type.accept_roll", locale) + ARROW)

    # --- names of things ------------------------------------------------------------------------------------

    def _data_text(self, texts: dict[str, str], locale: str) -> str:
        return texts.get(i18n.norm(locale)) or texts["en"]

    def spell_text(self, spell: str, locale: str) -> str:
        return self._data_text(SPELLS[spell]["text"], locale)

    def thing_name(self, code: str | None, locale: str) -> str:
        """The name of a card, spell, character, space kind or other source, in the reader's language."""
        if code is None or code == "":
            return self.t("nothing", locale)
        code = str(code)
        for table in (ADVENTURE, PURCHASE, SPELLS, CHARACTERS):
            if code in table:
                return self._data_text(table[code]["name"], locale)
        for entry in (TALISMAN, COMMAND, TOAD):
            if code == entry["id"]:
                return self._data_text(entry["name"], locale)
        if code in SPACE_KINDS:
            return self._data_text(SPACE_KINDS[code]["name"], locale)
        if self.has(f"thing.{code}"):
            return self.t(f"thing.{code}", locale)
        return self.t("something", locale)

    def space_name(self, index: int, locale: str) -> str:
        if not isinstance(index, int) or not 0 <= index < len(SPACES):
            return self.t("nothing", locale)
        space = SPACES[index]
        return self.t("space", locale, name=self._data_text(space["name"], locale), number=index + 1)

    def seat_name(self, seat: int, view: View, locale: str) -> str:
        """A seat without the players' names (the picker has only the view): its character and the letter its
        token and panel carry on the board."""
        chars = view.get("chars") or []
        ch = chars[seat] if isinstance(seat, int) and 0 <= seat < len(chars) else None
        who = self.thing_name(ch["id"], locale) if ch else self.t("nobody", locale)
        return self.t("seat", locale, character=who, mark=SEAT_MARKS[seat % len(SEAT_MARKS)])

    def card_of_uid(self, uid: Any, view: View) -> str | None:
        """Which card an instance id in an action is: carried, on the board, or set aside for an heir."""
        piles = [ch["items"] + ch["followers"] for ch in view.get("chars") or [] if ch]
        piles += list((view.get("board") or {}).values())
        piles.append((view.get("inheritance") or {}).get("cards", []))
        for cards in piles:
            for card in cards:
                if card["uid"] == uid:
                    return card["card"]
        return None

    def card_label(self, uid: Any, view: View, locale: str) -> str:
        card = self.card_of_uid(uid, view)
        if card is None:
            return self.t("hidden_card", locale, number=uid)
        return self.thing_name(card, locale)

    def quest_text(self, quest: str, locale: str) -> str:
        if quest.startswith("deliver_gold_"):
            return self.t("quest.deliver_gold", locale, n=quest.rsplit("_", 1)[1])
        return self.t(f"quest.{quest}", locale) if self.has(f"quest.{quest}") else self.t("something", locale)

    def dice_text(self, dice: Any) -> str:
        if isinstance(dice, list):
            return ", ".join(str(d) for d in dice)
        return str(dice)

    # --- choosing actions -----------------------------------------------------------------------------------

    def part_label(self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str) -> str:
        return i18n.clip(self._value_label(key, value, chosen, view, locale), BUTTON_LIMIT)

    def _value_label(self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str) -> str:
        if key == "type":
            label = self._priced(self.t(f"type.{value}", locale), SHOP_SERVICES.get(value), view, locale)
            return self._with_terms(label, value, view, locale)
        if key == "option":
            return self._option_label(value, view, locale)
        if key == "card":
            return self.card_label(value, view, locale)
        if key == "item" and chosen.get("type") == "buy":
            return self._priced(self.thing_name(value, locale), "buy", view, locale, value)
        if key in ("spell", "item", "character"):
            return self.thing_name(value, locale)
        if key == "to":
            if _to_portal(value, chosen):  # the move stops at the Portal: the Plain of Peril is only its aim
                return self.t("portal_move", locale, space=self.space_name(PORTAL, locale))
            return self.destination(value, view, locale)
        if key == "space":
            return self.space_name(value, locale)
        if key in ("target", "seat"):
            return self.seat_name(value, view, locale)
        if key == "route":
            to = chosen.get("to")
            inward = to is not None and (_to_portal(to, chosen) or SPACES[to]["region"] == "middle")
            mine = (view.get("prompt") or {}).get("sentinel_mine")
            return self.route_text(value, locale, inward, mine)
        if key == "die":
            dice = (view.get("prompt") or {}).get("dice") or []
            shown = dice[value] if isinstance(value, int) and value < len(dice) else "?"
            if len(dice) == 1:
                return self.t("die_only", locale, value=shown)
            return self.t("die", locale, number=value + 1, value=shown)
        # at the Portal, each stat with the value the dice must not exceed
        if key == "stat" and (view.get("prompt") or {}).get("kind") == "portal":
            me = view["chars"][view["prompt"]["seat"]]
            return self.t("stat_at", locale, stat=self.t(f"stat.{value}", locale), value=me[value])
        if key in ("stat", "mode", "region", "who"):
            return self.t(f"{key}.{value}", locale)
        return self.t("something", locale)

    def destination(self, index: int, view: View, locale: str) -> str:
        """A space to move to, with what waits there: its face-up cards and the characters standing on it."""
        there = [
            self.thing_name(card["card"], locale) for card in (view.get("board") or {}).get(str(index), [])
        ]
        there += [
            self.thing_name(ch["id"], locale)
            for ch in view.get("chars") or []
            if ch
            and ch["space"] == index
            and not ch["dead"]
            and ch["seat"] != (view.get("prompt") or {}).get("seat")
        ]
        name = self.space_name(index, locale)
        return self.t("space_with", locale, space=name, there=", ".join(there)) if there else name

    def _with_terms(self, label: str, kind: str, view: View, locale: str) -> str:
        """A move whose choice turns on numbers the view holds, with them: a fight with both sides' values, paying
        a foe off with its price, the Vampire's toll with the lives it takes, a Follower's hire."""
        prompt = view.get("prompt") or {}
        if prompt.get("kind") == "combat" and kind == "fight" and "battle" in prompt:
            battle = prompt["battle"]
            stat = self.t(f"stat.{battle['stat']}", locale)
            return self.t(
                "fight_terms", locale, label=label, stat=stat, foe=battle["foe"], mine=battle["mine"]
            )
        if prompt.get("kind") == "combat" and kind == "pay_off" and (prompt.get("foe") or {}).get("bribe"):
            return self.t("priced", locale, offer=label, gold=prompt["foe"]["bribe"])
        if prompt.get("kind") == "combat" and kind == "pay_mercenary":
            bonus = ADVENTURE["mercenary"]["passive"]["battle_bonus"]
            return self.t("hired_help", locale, offer=label, gold=MERCENARY_FEE, strength=bonus)
        if prompt.get("kind") == "combat" and kind == "drink_potion":
            bonus = ADVENTURE["potion_of_strength"]["passive"]["potion"]
            return self.t("strength_help", locale, offer=label, strength=bonus)
        if kind == "train":  # the Instructor's lesson takes the next turn too
            return self.t("costs_turn", locale, offer=label)
        if prompt.get("kind") == "vampire" and kind == "accept_loss" and prompt.get("n"):
            return self.t("lose_lives", locale, n=prompt["n"])
        if prompt.get("kind") == "take" and kind == "take" and prompt.get("price"):
            return self.t("priced", locale, offer=label, gold=prompt["price"])
        return label

    def _option_label(self, option: str, view: View, locale: str) -> str:
        """A choice of a card's or space's options: paying or not with what each costs, and an option that would
        do nothing now (a Spell wished for at the Spell limit) saying so."""
        prompt = view.get("prompt") or {}
        label = self.t(f"option.{option}", locale)
        effects = (prompt.get("effects") or {}).get(option)
        if option in ("pay", "suffer") and effects:
            label = self.t("option_does", locale, option=label, effect=self.effects_text(effects, locale))
        why = (prompt.get("no_effect") or {}).get(option)
        if why:
            label = self.t("does_nothing", locale, label=label, why=self.t(f"why.{why}", locale))
        return label

    def _priced(
        self, label: str, service: str | None, view: View, locale: str, item: str | None = None
    ) -> str:
        """A shop's offer with its price, as the shop in the prompt asks it."""
        for offer in (view.get("prompt") or {}).get("services") or []:
            if offer["service"] == service:
                price = offer["prices"].get(item) if item is not None else offer.get("price")
                return label if price is None else self.t("priced", locale, offer=label, gold=price)
        return label

    def choice_facts(
        self, key: str, values: list[Any], chosen: dict[str, Any], view: View, locale: str
    ) -> list[str]:
        """At the Portal of Power: how the roll against the chosen stat goes, and what failing it costs. In a
        fight: whom against, at what values. In a shop: what it offers that is not open to the character, and
        why. At the end of a missed turn: that it is missed, and what is left to do in it."""
        prompt = view.get("prompt") or {}
        kind = prompt.get("kind")
        if kind == "portal":
            dice = prompt["stat_dice"]
            return [self.t("portal_fact", locale, strength_dice=dice["strength"], craft_dice=dice["craft"])]
        if kind == "end" and "missed" in prompt:
            return [self._missed_line(prompt, self._left_in_turn(key, values, chosen), locale)]
        return self._situation_facts(prompt, view, locale)

    def lone_choice_facts(self, action: Action, view: View, locale: str) -> list[str]:
        prompt = view.get("prompt") or {}
        # Everyone holding Spells is asked at each chance to cast one, so that asking tells nobody whose Spells
        # fit: the one whose do not is told why "Do nothing" is all there is.
        if action["type"] == "decline" and prompt.get("kind") == "window":
            return [self.t("window.nothing_fits", locale, button=self.t("type.decline", locale))]
        # A missed turn's end is asked of a player holding Spells, although none of them fits.
        if action["type"] == "end_turn" and prompt.get("kind") == "end" and "missed" in prompt:
            return [self._missed_line(prompt, "nothing_fits", locale)]
        return self._situation_facts(prompt, view, locale)

    def _situation_facts(self, prompt: dict[str, Any], view: View, locale: str) -> list[str]:
        if prompt.get("kind") == "start" and view.get("blizzard"):  # why the move is one space, no die
            return [self.t("blizzard_fact", locale, count=view["blizzard"])]
        if prompt.get("kind") == "take":  # what the card found does, to weigh taking it
            card = self.card_of_uid(prompt["card"], view)
            entry = ADVENTURE.get(card) or PURCHASE.get(card)
            details = self._card_details(entry, locale) if entry else []
            if details:
                return [
                    self.t("take_fact", locale, card=self.thing_name(card, locale), text=" ".join(details))
                ]
        if prompt.get("kind") == "combat" and "battle" in prompt:
            battle = prompt["battle"]
            foe = self.thing_name(prompt["foe"]["name"], locale)
            # the dice each side adds: the better of two for some characters, none for a foe an Assassin fights
            dice = ("two" if battle["dice"] > 1 else "one") + ("" if battle["foe_rolls"] else "_alone")
            fact = self.t(
                "battle_fact",
                locale,
                foe=foe,
                stat=self.t(f"stat.{battle['stat']}", locale),
                value=battle["foe"],
                mine=battle["mine"],
                dice=self.t(f"battle_dice.{dice}", locale),
            )
            if battle.get("bonus"):
                fact += " " + self.t("battle_bonus", locale, n=battle["bonus"], value=battle["foe"])
            return [fact]
        if prompt.get("kind") == "pre_draw":
            space = self.space_name(prompt["sp"], locale)
            return [self.t("pre_draw_fact", locale, space=space, count=prompt["to_draw"])]
        if prompt.get("kind") == "shop" and prompt.get("closed"):
            closed = [
                self.t(
                    "closed_service",
                    locale,
                    service=self.t(f"type.{SERVICE_MOVES[service]}", locale),
                    why=self.t(f"why.{why}", locale),
                )
                for service, why in prompt["closed"].items()
            ]
            return [self.t("shop_closed", locale, services="; ".join(closed))]
        return []

    def _left_in_turn(self, key: str, values: list[Any], chosen: dict[str, Any]) -> str:
        """What a missed turn's end offers besides ending it, as a picker step shows it: its moves' types; or, when
        the step does not ask the type, nothing besides its end, on which the player's next turn follows at once
        (its first move chained on, which the step asks); or unsaid once the type is chosen."""
        if "type" in key.split(JOIN):
            types = {joint_values(key, value)["type"] for value in values}
            may = [move for move in ("cast_spell", "trade_trophies") if move in types]
            return "both" if len(may) == 2 else may[0] if may else "other"
        return "other" if "type" in chosen else "next_turn"

    def _missed_line(self, prompt: dict[str, Any], may: str, locale: str) -> str:
        """The end of a missed turn: it is missed (and why, where known), and what may still be done in it."""
        source = prompt.get("missed")
        missed = (
            self.t("missed_turn.by", locale, source=self.thing_name(source, locale))
            if source
            else self.t("missed_turn.unknown", locale)
        )
        return self.t(f"missed_turn.{may}", locale, missed=missed)

    def route_text(self, route: str, locale: str, inward: bool = False, mine: int | None = None) -> str:
        """A way to move; crossing the bridge inward says it is through a fight with the Sentinel, who stops
        (and may kill) a character that loses, whatever the destination it was bound for, and at what battle
        Strength the mover fights it (`mine`, where known). A way to the Portal of Power ends at it ("p"), which
        its destination says."""
        strength = SPACES[SENTINEL]["sentinel"]["strength"]
        route = route.removesuffix("-p") if route != "p" else "stay"
        sentinel = (
            self.t("route.x_sentinel_against", locale, strength=strength, mine=mine)
            if mine is not None
            else self.t("route.x_sentinel", locale, strength=strength)
        )
        parts = [
            sentinel if part == "x" and inward else self.t(f"route.{part}", locale)
            for part in route.split("-")
        ]
        return " → ".join(parts)

    def single_action_text(self, action: Action, view: View, locale: str) -> str:
        params = {k: self._value_label(k, v, action, view, locale) for k, v in action.items() if k != "type"}
        key = f"action.{action['type']}"
        if _to_portal(action.get("to"), action):
            params["to"] = self.space_name(PORTAL, locale)
            key = "action.move_portal"
        if self.has(key):
            return i18n.clip(
                self._with_terms(self.t(key, locale, **params), action["type"], view, locale), 100
            )
        return i18n.clip(" · ".join([self.t(f"type.{action['type']}", locale), *params.values()]), 100)

    # --- telling what happened ------------------------------------------------------------------------------

    def joined(self, before: Event, event: Event) -> Event | None:
        """One line for a turn's start with what opened it (a roll to move and the move it made, or a missed
        turn), for a card drawn and then met where it was drawn, and for a battle from the first roll to who won."""
        kind, was, seat = event["type"], before["type"], event.get("seat")
        if before.get("seat") != seat:
            return None
        if was == "TurnOf":
            then = self.joined(before["then"], event)
            return {**before, "then": then} if then else None
        if was == "TurnStarted" and (kind in TURN_OPENINGS or _rolled_to_move(event)):
            return {**before, "type": "TurnOf", "then": event}
        if kind == "Moved" and _rolled_to_move(before) and event["how"] == "move":
            return {**event, "type": "RolledToMove", "dice": before["dice"]}
        if kind == "CardEncountered" and was == "CardDrawn" and event["cards"] == [before["card"]]:
            return {**before, "type": "CardMet"} if event["space"] == before["space"] else None
        if kind == "FoeRolled" and was == "DiceRolled" and before["reason"] == "battle":
            return {"type": "Fight", "seat": seat, "parts": [before, event]}
        if was == "Fight" and before["parts"][-1]["type"] not in FIGHT_ENDS and kind in FIGHT_STEPS:
            return {**before, "parts": [*before["parts"], event]}
        return None

    def event_text(self, event: Event, names: list[str], view: View, locale: str) -> str | None:
        if event["type"] == "Fight":
            return " ".join(t for part in event["parts"] if (t := self.event_text(part, names, view, locale)))
        if event["type"] == "TurnOf":
            then = self.event_text(event["then"], names, view, locale)
            return self.t("turn_line", locale, turn=event["turn"], then=then)
        base = f"event.{event['type']}"
        variant = self._variant(event)
        params = {k: v for k, v in event.items() if k not in ("type", "private")}
        if "seat" in params:
            params["player"] = self._player(params["seat"], names)
        params = self.event_params(event, params, names, view, locale)
        # The most specific text whose blanks this event fills: events of one type carry different fields.
        for key in ([f"{base}.{variant}"] if variant else []) + [base, f"{base}.plain"]:
            if self.has(key) and _fields(self.t(key, "en")) <= set(params):
                return self._with_card_effect(event, self.t(key, locale, **params), locale)
        return None

    def _with_card_effect(self, event: Event, text: str, locale: str) -> str:
        """An event card met is told with what it does (a Blizzard's one space a turn lasts two rounds, and a
        review's players met it with no word of it)."""
        card = ADVENTURE.get(event.get("card")) if event["type"] == "CardMet" else None
        if not card or card["type"] != "event" or not (effect := self.effects_text(card["effects"], locale)):
            return text
        return self.t("card_met_does", locale, met=text.rstrip("."), effect=effect)

    def _variant(self, event: Event) -> str | None:
        kind = event["type"]
        if kind == "ArmourRolled":
            return "saved" if event.get("saved") else "failed"
        if kind == "CommandSpellResolved":
            return "hit" if event.get("hit") else "miss"
        if kind == "CharacterDied":
            return "final" if event.get("final") else "replaced"
        if kind in ("BattleResolved", "DuelResolved"):
            return "psychic" if event.get("psychic") else "physical"
        if kind == "StatChanged":
            return "up" if event.get("by", 0) >= 0 else "down"
        if kind in ("Moved", "RolledToMove"):  # a crossing fought from the Sentinel's own space starts there
            return "stay" if event.get("from") == event.get("to") else None
        if kind == "Evaded":
            return "foe" if "foe" in event else "card" if "card" in event else "character"
        if kind == "StandOff":
            return "character" if "target" in event else None
        if kind == "DuelRolled":
            return None if event["defender_dice"] else "unanswered"
        if kind == "FollowerLost":
            return "die" if "die" in event else "plain"
        if kind == "SpellCast":
            for field in ("target", "card", "space"):
                if field in event:
                    return field
            return "plain"
        if kind == "FoeRolled":
            return "none" if event.get("die") == 0 else None
        if kind == "GameEnded":
            return str(event.get("reason"))
        if kind == "TurnLost":  # the rest of this turn, or the next one
            return "now" if event.get("now") else None
        if kind == "NoEffect":  # which limit left an effect with nothing to do
            return str(event.get("why"))
        return None

    def _player(self, seat: Any, names: list[str]) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    def event_params(
        self, event: Event, params: dict[str, Any], names: list[str], view: View, locale: str
    ) -> dict[str, Any]:
        kind = event["type"]
        for field in ("target", "by", "attacker", "defender", "loser", "victim"):
            if field in params and not (field == "by" and kind == "StatChanged"):
                params[field] = self._player(params[field], names)
        if "from" in params:
            if kind in ("Moved", "RolledToMove"):
                params["from"] = self.space_name(params["from"], locale)
            else:
                params["from"] = self._player(params["from"], names)
        for field in ("space", "to"):
            if field in params:
                params[field] = self.space_name(params[field], locale)
        for field in ("foe", "character", "spell", "source"):
            if field in params:
                params[field] = self.thing_name(params[field], locale)
        if "quest" in params:
            params["quest"] = self.quest_text(params["quest"], locale)
        if "card" in params:
            params["card"] = (
                self.card_label(params["card"], view, locale)
                if isinstance(params["card"], int)
                else self.thing_name(params["card"], locale)
            )
        if "cards" in params:
            params["cards"] = ", ".join(self.thing_name(c, locale) for c in params["cards"]) or self.t(
                "nothing", locale
            )
        if "spells" in params:
            params["spells"] = ", ".join(self.thing_name(s, locale) for s in params["spells"]) or self.t(
                "nothing", locale
            )
        for score, base in SCORE_BASES:  # "7 (4 + 3)": what the stat and items gave, and what the die added
            if score in params and base in event and event[score] != event[base]:
                params[score] = f"{event[score]} ({event[base]} + {event[score] - event[base]})"
        for field in ("dice", "death", "attacker_dice", "defender_dice"):
            if field in params:
                params[field] = self.dice_text(params[field])
        for field in ("reason", "how"):
            if field in params:
                key = f"{field}.{params[field]}"
                params[field] = self.t(key, locale) if self.has(key) else self.t("something", locale)
        for field in ("stat", "kind"):
            if field in params:
                params[field] = self.t(f"stat.{params[field]}", locale)
        if "alignment" in params:
            params["alignment"] = self.t(f"alignment.{params['alignment']}", locale)
        if kind == "StatChanged":
            params["by"] = abs(event["by"])
        if "winners" in params:
            params["winners"] = ", ".join(self._player(s, names) for s in params["winners"])
        return params

    def error_text(self, code: str, params: dict[str, Any], locale: str) -> str:
        if not self.has(f"error.{code}"):
            return super().error_text(code, params, locale)
        shown = {k: self._error_param(k, v, locale) for k, v in params.items()}
        return self.t(f"error.{code}", locale, **shown)

    def _error_param(self, key: str, value: Any, locale: str) -> Any:
        if key in ("spell", "item"):
            return self.thing_name(value, locale)
        if key == "space":
            return self.space_name(value, locale)
        if key == "action":
            return self.t(f"type.{value}" if self.has(f"type.{value}") else "something", locale)
        if key == "prompt":
            return self.t(f"step.{value}" if self.has(f"step.{value}") else "step.other", locale)
        if key == "expected":
            kinds = [self.t(f"type.{e}", locale) for e in str(value).split(",") if self.has(f"type.{e}")]
            return ", ".join(kinds) or self.t("nothing", locale)
        return value

    def status_text(self, view: View, names: list[str], locale: str) -> str:
        result = view.get("result")
        if result:
            winners = ", ".join(self._player(s, names) for s in result["winners"])
            return self.t(f"end.{result['reason']}", locale, winners=winners)
        if view.get("phase") == "setup":
            return self.t("step.setup", locale)
        prompt = view.get("prompt")
        if not prompt:
            return ""
        step_key = "step.end_missed" if "missed" in prompt else f"step.{prompt['kind']}"
        step = self.t(step_key, locale) if self.has(step_key) else self.t("step.other", locale)
        if prompt["kind"] == "route" and prompt.get("rolled"):  # where to go depends on the roll
            step += f" ({self.t('rolled', locale, dice=prompt['rolled'])})"
        if prompt.get("dice"):  # a roll waiting to be kept or re-rolled: the choice depends on it
            dice = ", ".join(str(d) for d in prompt["dice"])
            reason = prompt.get("reason", "other")  # which roll it is: the move's, a fight's, a space's
            rolled = (
                self.t("rolled", locale, dice=dice)
                if reason == "other" or not self.has(f"reason.{reason}")
                else self.t("rolled_for", locale, dice=dice, reason=self.t(f"reason.{reason}", locale))
            )
            if prompt.get("score") is not None:  # a fight: what the roll gives as it stands
                score, foe_score = prompt["score"], prompt["foe_score"]
                outcome = "win" if score > foe_score else "loss" if score < foe_score else "standoff"
                if outcome == "loss" and score + 6 - min(prompt["dice"]) < foe_score:
                    outcome = "sure_loss"  # a re-roll of any one die makes 6 at best: fate cannot change it
                rolled += "; " + self.t(
                    "as_rolled",
                    locale,
                    score=score,
                    foe_score=foe_score,
                    outcome=self.t(f"outcome.{outcome}", locale),
                )
            elif "as_rolled" in prompt:  # a space's or card's roll: what this roll does
                rolled += "; " + self.t(
                    "as_rolled_does", locale, effect=self.effects_text(prompt["as_rolled"], locale)
                )
            step += f" ({rolled})"
        player, limit = self._player(view["seat"], names), view.get("round_limit")
        turn = (
            self.t("turn_of_timed", locale, player=player, round=view["round"], limit=limit)
            if limit
            else self.t("turn_of", locale, player=player, round=view["round"])
        )
        if prompt["seat"] == view["seat"]:  # the turn's own player, named once already
            return f"{turn} — {step}"
        return f"{turn} — {self.t('step_by', locale, player=self._player(prompt['seat'], names), step=step)}"

    # --- pictures -------------------------------------------------------------------------------------------

    def render_private(self, view: View, locale: str) -> bytes | None:
        locale = i18n.norm(locale)
        return talisman_render.render_private(view, locale, self.private_words(view, locale))

    def private_words(self, view: View, locale: str) -> dict[str, tuple[str, str]]:
        """Names and texts, in the reader's language, of what the private image shows: the characters dealt
        (with their start spaces, by "space.<index>") and the Spells in hand."""
        setup = view.get("setup") or {}
        words: dict[str, tuple[str, str]] = {}
        for cid in setup.get("offers") or [c for c in [setup.get("mine")] if c]:
            start = CHARACTERS[cid]["start"]
            words[cid] = (self.thing_name(cid, locale), self.t(f"text.{cid}", locale))
            words[f"space.{start}"] = (self.space_name(start, locale), "")
        for spell in view.get("my_spells") or []:
            words[spell] = (self.thing_name(spell, locale), self.spell_text(spell, locale))
        return words

    # --- card lookup for /rules -----------------------------------------------------------------------------

    def cards(self, locale: str) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for cid, ch in CHARACTERS.items():
            text = self.t(
                "card.character",
                locale,
                strength=ch["strength"],
                craft=ch["craft"],
                life=ch["life"],
                fate=ch["fate"],
                gold=ch["gold"],
                alignment=self.t(f"alignment.{ch['alignment']}", locale),
                start=self.space_name(ch["start"], locale),
            )
            lines = [text, self.t(f"text.{cid}", locale)]
            out.append((self.thing_name(cid, locale), self._with_text(lines, ch, locale)))
        for sid, spell in SPELLS.items():
            lines = [self.t("card.spell", locale, count=spell["count"]), self.spell_text(sid, locale)]
            out.append((self.thing_name(sid, locale), self._with_text(lines, spell, locale)))
        command = self._with_text([self.t("text.command", locale)], COMMAND, locale, "eased")
        out.append((self.thing_name(COMMAND["id"], locale), command))
        for aid, card in ADVENTURE.items():
            kind = self.t(f"kind.{card['type']}", locale)
            facts = [self.t("card.adventure", locale, kind=kind, number=card["number"], count=card["count"])]
            if "strength" in card and not card.get("mirror"):
                facts.append(self.t("card.strength", locale, n=card["strength"]))
            if "craft" in card:
                facts.append(self.t("card.craft", locale, n=card["craft"]))
            lines = [" · ".join(facts), *self._card_details(card, locale)]
            out.append((self.thing_name(aid, locale), self._with_text(lines, card, locale)))
        for pid, item in PURCHASE.items():
            if pid in ADVENTURE:
                continue  # the shop's copies are the same cards as the Adventure deck's
            facts = self.t(
                "card.purchase", locale, kind=self.t(f"kind.{item['kind']}", locale), count=item["count"]
            )
            out.append((self.thing_name(pid, locale), self._with_text([facts], item, locale)))
        for kind, space in SPACE_KINDS.items():
            regions = list(dict.fromkeys(s["region"] for s in SPACES if s["kind"] == kind))
            region = ", ".join(self.t(f"region.{r}", locale) for r in regions)
            numbers = ", ".join(str(s["index"] + 1) for s in SPACES if s["kind"] == kind)
            lines = [
                self.t("card.space", locale, region=region, numbers=numbers),
                *self._card_details(space, locale),
            ]
            name = self.thing_name(kind, locale)
            if any(name == existing for existing, _ in out):
                name = self.t("space_card", locale, name=name)
            out.append((name, self._with_text(lines, space, locale)))
        return out

    def _with_text(self, lines: list[str], entry: dict[str, Any], locale: str, flag: str = "") -> str:
        parts = [line for line in lines if line]
        if entry.get("provisional") or (flag and entry.get(f"{flag}_provisional")):
            parts.append(self.t("provisional", locale))
        return "\n".join(parts)

    # --- card texts from the engine's effect vocabulary -----------------------------------------------------

    def _card_details(self, entry: dict[str, Any], locale: str) -> list[str]:
        """What a card or space does, worded from its data: effects, lasting powers and extras."""
        lines: list[str] = []
        extras = []
        if entry.get("subtype"):
            extras.append(self.t("extra.subtype", locale, v=self.t(f"subtype.{entry['subtype']}", locale)))
        for key in ("gold", "bribe", "pool", "draw"):
            if key in entry:
                extras.append(self.t(f"extra.{key}", locale, v=entry[key]))
        if entry.get("mirror"):
            extras.append(self.t("extra.mirror", locale, v=""))
        if entry.get("no_trophy"):
            extras.append(self.t("extra.no_trophy", locale, v=""))
        if entry.get("kill_reward"):
            extras.append(
                self.t("extra.kill_reward", locale, v=self.effects_text(entry["kill_reward"], locale))
            )
        if entry.get("after") and self.has(f"extra.after_{entry['after']}"):
            extras.append(self.t(f"extra.after_{entry['after']}", locale, v=""))
        if isinstance(entry.get("sentinel"), dict):
            extras.append(self.t("extra.sentinel", locale, v=entry["sentinel"].get("strength", "?")))
        if isinstance(entry.get("portal"), dict):
            extras.append(self.t("extra.portal", locale, v=entry["portal"].get("dice", 2)))
        if extras:
            lines.append(" · ".join(extras))
        if entry.get("effects"):
            lines.append(self._sentence(self.effects_text(entry["effects"], locale)))
        if entry.get("services"):
            services = [self._service_text(svc, locale) for svc in entry["services"]]
            lines.append(self.t("extra.services", locale, v="; ".join(x for x in services if x)))
        powers = [self._passive_text(key, value, locale) for key, value in entry.get("passive", {}).items()]
        powers = [p for p in powers if p]
        if powers:
            lines.append(self._sentence("; ".join(powers)))
        return lines

    def _sentence(self, text: str) -> str:
        return text[:1].upper() + text[1:] + ("" if not text or text.endswith((".", "!", "?")) else ".")

    def effects_text(self, ops: list[dict[str, Any]], locale: str) -> str:
        parts = [self.op_text(op, locale) for op in ops]
        return "; ".join(p for p in parts if p) or self.t("fx.nothing", locale)

    def op_text(self, op: dict[str, Any], locale: str) -> str:
        name = op.get("op")
        key = f"fx.{name}"
        if name == "by_alignment":
            rows = [
                self.t(
                    "fx.if",
                    locale,
                    alignment=self.t(f"alignment.{a}", locale),
                    then=self.effects_text(op[a], locale),
                )
                for a in ("good", "neutral", "evil")
                if a in op
            ]
            return " / ".join(rows)
        if name in ("roll", "vampire") and isinstance(op.get("results"), list) and name == "roll":
            rows = [
                self.t("fx.row", locale, on=_on(row["on"]), then=self.effects_text(row["do"], locale))
                for row in op["results"]
            ]
            return self.t(key, locale, count=op.get("dice", 1), results="; ".join(rows))
        if name == "either":
            options = ", ".join(
                self.t(f"option.{k}", locale) if self.has(f"option.{k}") else self.effects_text(v, locale)
                for k, v in op["options"].items()
            )
            return self.t(key, locale, options=options)
        if name == "wish":
            return self.t(
                key, locale, options=", ".join(self.t(f"option.{k}", locale) for k in op["options"])
            )
        if name == "pay_or":
            return self.t(key, locale, gold=op["gold"], **{"else": self.effects_text(op["else"], locale)})
        if not self.has(key):
            return ""
        params: dict[str, Any] = {k: v for k, v in op.items() if k != "op"}
        if "n" in params and params["n"] is None:
            params["n"] = self.t("fx.all", locale)
        if "name" in params:
            params["name"] = self.thing_name(params["name"], locale)
        if "stat" in params:
            params["stat"] = self.t(f"stat.{params['stat']}", locale)
        if "fail" in params:
            params["fail"] = _on(params["fail"])
        if "follower" in params:
            params["follower"] = self.thing_name(params["follower"], locale)
        if "except_alignment" in params:
            params["alignment"] = self.t(f"alignment.{params['except_alignment']}", locale)
        if "to" in params:
            params["to"] = self._place_text(params["to"], locale)
        text = self.t(key, locale, **params)
        if op.get("unless"):
            text = self.t("fx.unless", locale, effect=text)
        return text

    def _place_text(self, to: Any, locale: str) -> str:
        if isinstance(to, list):
            return ", ".join(self._place_text(t, locale) for t in to)
        if isinstance(to, dict):
            return ", ".join(f"{k}: {self._place_text(v, locale)}" for k, v in to.items())
        if to in ("good", "evil", "neutral"):
            return self.t(f"alignment.{to}", locale)
        if to == "region":
            return self.t("fx.any_space", locale)
        return self.thing_name(to, locale)

    def _service_text(self, svc: dict[str, Any], locale: str) -> str:
        kind = svc.get("service")
        if kind == "buy":
            items = ", ".join(f"{self.thing_name(i, locale)} {p}" for i, p in svc.get("prices", {}).items())
            return self.t("service.buy", locale, v=items)
        if kind == "roll":
            who = self.t(f"who.{svc.get('name')}", locale) if self.has(f"who.{svc.get('name')}") else ""
            table = svc.get("table", {})
            rows = "; ".join(
                self.t("fx.row", locale, on=_on(r["on"]), then=self.effects_text(r["do"], locale))
                for r in table.get("results", [])
            )
            return f"{self.t('service.roll', locale, v=who)} ({rows})"
        if self.has(f"service.{kind}"):
            return self.t(f"service.{kind}", locale, v=svc.get("price", svc.get("gold", "")))
        return ""

    def _passive_text(self, key: str, value: Any, locale: str) -> str:
        if not self.has(f"pass.{key}"):
            return ""
        if isinstance(value, list):
            value = ", ".join(self._place_text(v, locale) if isinstance(v, str) else str(v) for v in value)
        elif isinstance(value, str):
            value = self._place_text(value, locale)
        return self.t(f"pass.{key}", locale, v=value)


def _to_portal(to: Any, action: dict[str, Any]) -> bool:
    """Whether `to`, in a move on the roll (the only action a picker step may show without its type), is the Plain
    of Peril: such a move stops at the Portal of Power and tries to open it, as no roll reaches the Plain otherwise
    (a step of the inner region onto it is another kind of action)."""
    return to == PLAIN_OF_PERIL and action.get("type", "move") == "move"


def _on(values: list[int]) -> str:
    """Die faces as a short range: [2, 3] -> "2-3"."""
    values = sorted(values)
    if len(values) > 1 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ", ".join(str(v) for v in values)
