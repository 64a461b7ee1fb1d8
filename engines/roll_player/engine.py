"""Roll Player (Keith Matejka, 2016) for 1-4 players, from the Korean rulebook (the Spanish one agrees where it goes).

Set-up runs as steps: each seat chooses a race (character sheet), then a class (by a drawn die, or freely with the
class_choice option), then places its rolled starting dice. Each round: the start player rolls and sorts dice onto the
initiative cards; in the dice phase each seat in turn takes a card, places its die leftmost in a row, collects gold
and may take that row's attribute action; in the market phase, in initiative order, each seat buys a card or discards
one for 2 gold; cleanup refreshes one skill per seat, deals a new market and passes the bag.

Skills may be used whenever they apply, so the engine offers them at explicit decision points: alongside a seat's
own choices (pick, place, attribute action, market turn), and, for the skills that change the initiative dice
(Climb, Intimidate, Negotiate, and Diplomacy copying them), in a window before every other seat's pick, where the
holders are asked to use a skill or decline. Ties while sorting initiative dice are chosen by the sorting player, one
die at a time, only when the tied dice differ in colour.

Interpretations where the rulebook is silent:
- everything on the table is public (sheets, backstories, alignments, gold, the discard and sold-out piles); only the
  market deck's order is hidden, so there is nothing private to show a seat alone;
- trait conditions use dice plus race modifiers (the rulebook excludes only weapon modifiers);
- a revealed top card (Open Lock, Move Silently) that is not bought stays face up on the deck until drawn;
- when the market is empty a seat that has not bought takes 2 gold without discarding.
"""

from __future__ import annotations

from typing import Any

from engines.base import Action, Engine, Event, IllegalAction, Option, Outcome, Secret, State, View, clone
from engines.rng import Rng
from engines.roll_player import autoplayer
from engines.roll_player.data import (
    ALIGNMENT_START,
    ALIGNMENTS,
    ATTRIBUTES,
    BACKSTORIES,
    CARD_TYPES,
    CARDS,
    CLASS_COLOURS,
    CLASSES,
    COLOUR_COUNTS,
    COLOURS,
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
    MAX_HANDS,
    PLACE_GOLD_DIE,
    START_GOLD,
    can_move,
    card_price,
    filled_positions,
    hands_used,
    initiative_gold,
    market_gold,
    moved,
    parse_position,
    row_gold,
    sheet_full,
    sort_onto,
    turn_order,
)
from engines.roll_player.scoring import class_colour, score_seat, solo_rating

# Each level's cards: what a card still face down in the deck could be (the secrets the conformance suite varies).
LEVEL_CARDS = {
    level: sorted(c for c, card in CARDS.items() if card["level"] == level)
    for level in {card["level"] for card in CARDS.values()}
}
ACTION_TYPES = {
    "choose_race",
    "choose_class",
    "place_start_die",
    "order_die",
    "pick_card",
    "place_die",
    "flip_die",
    "swap_dice",
    "adjust_die",
    "reroll_die",
    "keep_roll",
    "move_token",
    "take_discount",
    "skip_action",
    "use_skill",
    "decline_skill",
    "skip_effect",
    "move_die",
    "reroll_initiative",
    "swap_with_initiative",
    "take_from_bag",
    "buy_revealed",
    "decline_revealed",
    "recall_card",
    "skip_recall",
    "buy_card",
    "discard_card",
    "take_gold",
    "end_market_turn",
    "discard_weapon",
    "refresh_skill",
}
# The decision points of a seat's own turn (the others are windows opened during another seat's turn).
OWN_TURN = ("pick", "place", "action", "market")


class RollPlayer(Engine):
    name = "roll_player"
    min_players = 1
    max_players = 4
    autoplayer = autoplayer
    search_budget = 400  # per 2-player decision: ~0.6 s on one idle core, p99 ~1.4 s
    mirrored_moves = {"swap_dice": ("die", "other")}  # two dice swapped, named in either order
    options = (
        Option("class_choice", False),
        Option("fair_start", False),
        Option("random_market", False),
        Option("short_game", False),
        Option("peaceful_market", False),
    )

    # --- set-up ---------------------------------------------------------------------------------------------------

    def new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        self.check_players(players)
        options = {opt.name: options.get(opt.name, opt.default) for opt in self.options}
        rng = Rng.from_seed(seed)
        solo = players == 1
        basis = max(players, 2)  # the solo game is set up as for two players
        start = rng.below(players)
        order = turn_order(start, players)
        backstories = rng.shuffled(sorted(BACKSTORIES))
        alignments = rng.shuffled(sorted(ALIGNMENTS))
        seats = []
        for seat in range(players):
            extra = 0 if options["short_game"] else {2: 1, 3: 2}.get(order.index(seat), 0)
            seats.append(
                {
                    "race": None,
                    "class": None,
                    "backstory": backstories[seat],
                    "alignment": alignments[seat],
                    "token": ALIGNMENT_START,
                    "gold": START_GOLD + extra,
                    "rows": {attr: [] for attr in ATTRIBUTES},
                    "cards": {kind: [] for kind in CARD_TYPES},
                    "exhausted": [],
                    "discounts": 0,
                    "start_dice": [],
                    "initiative": None,
                    "held": None,
                    "refresh_left": 0,
                }
            )
        bag = dict(COLOUR_COUNTS)
        if solo:
            bag["gold"] -= 1  # the adventurer die stays out of the bag all game
        deck, discard = self._build_deck(rng, basis, solo, options["random_market"])
        market = [deck.pop(0) for _ in range(basis + 1)]
        sold_out = [deck.pop(0)] if solo else []
        cards = basis + 1
        initiative = [
            {"number": k, "die": None, "gold": 1 if 1 < k < cards else 0, "owner": None}
            for k in range(1, cards + 1)
        ]
        return {
            "players": players,
            "rng": rng.state,
            "options": options,
            "solo": solo,
            "phase": "choose_race",
            "round": 0,
            "start": start,
            "queue": order,
            "class_offer": None,
            "seats": seats,
            "bag": bag,
            "deck": deck,
            "revealed": False,
            "discard": discard,
            "market": market,
            "sold_out": sold_out,
            "initiative": initiative,
            "adventurer": None,
            "turn_index": 0,
            "step": "pick",
            "window_checked": False,
            "action_row": None,
            "window": None,
            "pending": [],
            "market_order": [],
            "market_index": 0,
            "mturn": self._fresh_mturn(),
            "druid_pending": [],
            "cleanup_started": False,
            "finished": False,
            "result": None,
        }

    @staticmethod
    def _build_deck(rng: Rng, basis: int, solo: bool, mixed: bool) -> tuple[list[str], list[str]]:
        ids = [cid for cid in sorted(CARDS) if not (solo and cid in SOLO["removed_cards"])]
        removal = {2: 7, 3: 3}.get(basis, 0)
        if mixed:
            pile = rng.shuffled(ids)
            return pile[2 * removal :], pile[: 2 * removal]
        deck: list[str] = []
        discard: list[str] = []
        for level in (1, 2):  # level 1 sits on top of level 2
            pile = rng.shuffled([cid for cid in ids if CARDS[cid]["level"] == level])
            discard += pile[:removal]
            deck += pile[removal:]
        return deck, discard

    @staticmethod
    def _fresh_mturn() -> dict[str, Any]:
        return {"bought": 0, "no_discard": False, "lock_used": False}

    def _order(self, state: State) -> list[int]:
        return turn_order(state["start"], state["players"])

    # --- randomness -------------------------------------------------------------------------------------------------

    @staticmethod
    def _below(state: State, n: int) -> int:
        rng = Rng(state["rng"])
        value = rng.below(n)
        state["rng"] = rng.state
        return value

    def _roll(self, state: State) -> int:
        return self._below(state, 6) + 1

    def _draw_die(self, state: State) -> str | None:
        bag = state["bag"]
        total = sum(bag.values())
        if total == 0:
            return None
        pick = self._below(state, total)
        for colour in COLOURS:
            if pick < bag[colour]:
                bag[colour] -= 1
                return colour
            pick -= bag[colour]
        raise AssertionError("bag count mismatch")

    def _take_colour(self, state: State, colour: str) -> str | None:
        if state["bag"][colour] == 0:
            return self._draw_die(state)
        state["bag"][colour] -= 1
        return colour

    # --- who acts ---------------------------------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        if state["finished"]:
            return []
        if state["pending"]:
            return [state["pending"][-1]["seat"]]
        if state["window"]:
            return sorted(state["window"]["seats"])
        phase = state["phase"]
        if phase in ("choose_race", "choose_class"):
            return [state["queue"][0]]
        if phase == "place_start":
            return [i for i, seat in enumerate(state["seats"]) if seat["start_dice"]]
        if phase == "dice":
            return [self._order(state)[state["turn_index"]]]
        if phase == "market":
            if state["druid_pending"]:
                return [state["druid_pending"][0]]
            return [state["market_order"][state["market_index"]]]
        if phase == "cleanup":
            return [i for i, seat in enumerate(state["seats"]) if seat["refresh_left"]]
        raise AssertionError(f"no decision in phase {phase}")

    def reaction_seats(self, state: State) -> list[int]:
        """A skill window before another seat's pick is a chance to react: its holders are asked by DM, and the
        host lets it pass for them when the server's reaction window ends."""
        return sorted(state["window"]["seats"]) if state["window"] and not state["finished"] else []

    def interrupted_turn(self, state: State) -> int | None:
        """The seat whose pick the skill window comes before."""
        return state["window"]["before"] if self.reaction_seats(state) else None

    def pass_action(self, state: State, seat: int) -> Action | None:
        if state["window"] and seat in state["window"]["seats"]:
            return {"type": "decline_skill"}
        return super().pass_action(state, seat)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state["pending"]:
            return self._pending_actions(state, state["pending"][-1])
        if state["window"]:
            return self._skill_actions(state, seat, "window") + [{"type": "decline_skill"}]
        phase = state["phase"]
        me = state["seats"][seat]
        if phase == "choose_race":
            taken = {s["race"] for s in state["seats"]}
            return [{"type": "choose_race", "race": race} for race in RACES if race not in taken]
        if phase == "choose_class":
            return [{"type": "choose_class", "class": cid} for cid in self._class_options(state)]
        if phase == "place_start":
            return self._start_die_actions(me)
        if phase == "dice":
            return self._dice_actions(state, seat)
        if phase == "market":
            if state["druid_pending"]:
                actions: list[Action] = [
                    {"type": "recall_card", "card_type": CARDS[card]["type"], "card": card}
                    for card in sorted(
                        state["discard"], key=lambda c: (CARD_TYPES.index(CARDS[c]["type"]), c)
                    )
                ]
                return actions + [{"type": "skip_recall"}]
            return self._market_actions(state, seat)
        if phase == "cleanup":
            return [{"type": "refresh_skill", "skill": skill} for skill in sorted(me["exhausted"])]
        return []

    def _class_options(self, state: State) -> list[str]:
        taken_cards = {CLASSES[s["class"]]["card"] for s in state["seats"] if s["class"]}
        if state["options"]["class_choice"]:
            return [cid for cid, cls in CLASSES.items() if cls["card"] not in taken_cards]
        offer = state["class_offer"]
        return [cid for cid, cls in CLASSES.items() if cls["colour"] == offer]

    @staticmethod
    def _start_die_actions(me: dict[str, Any]) -> list[Action]:
        actions: list[Action] = []
        seen: set[tuple[str, int]] = set()
        for index, die in enumerate(me["start_dice"]):
            if tuple(die) in seen:  # identical dice are one choice
                continue
            seen.add(tuple(die))
            for attr in ATTRIBUTES:
                if len(me["rows"][attr]) < SLOTS:
                    actions.append({"type": "place_start_die", "die": index, "row": attr})
        return actions

    def _dice_actions(self, state: State, seat: int) -> list[Action]:
        me = state["seats"][seat]
        step = state["step"]
        if step == "pick":
            actions: list[Action] = [
                {"type": "pick_card", "card": card["number"]}
                for card in state["initiative"]
                if card["owner"] is None and card["die"] is not None
            ]
            return actions + self._skill_actions(state, seat, "pick")
        if step == "place":
            actions = [
                {"type": "place_die", "row": attr} for attr in ATTRIBUTES if len(me["rows"][attr]) < SLOTS
            ]
            return actions + self._skill_actions(state, seat, "place")
        kinds = (
            set(ROW_ACTION.values())
            if class_ability(me["class"]).get("kind") == "any_row_action"
            else {ROW_ACTION[state["action_row"]]}
        )
        actions = []
        for kind in sorted(kinds, key=lambda k: ATTRIBUTES.index(ACTION_ROW[k])):
            actions += self._attribute_actions(me, kind)
        return actions + [{"type": "skip_action"}] + self._skill_actions(state, seat, "action")

    @staticmethod
    def _attribute_actions(me: dict[str, Any], kind: str) -> list[Action]:
        filled = filled_positions(me)
        if kind in ("flip", "reroll"):
            return [{"type": DIE_ACTION_TYPE[kind], "die": pos} for pos in filled]
        if kind == "swap":
            return [
                {"type": "swap_dice", "die": a, "other": b}
                for i, a in enumerate(filled)
                for b in filled[i + 1 :]
            ]
        if kind == "adjust":
            actions: list[Action] = []
            for pos in filled:
                attr, slot = parse_position(pos)  # type: ignore[misc]
                value = me["rows"][attr][slot][1]
                actions += [
                    {"type": "adjust_die", "die": pos, "delta": d} for d in (-1, 1) if 1 <= value + d <= 6
                ]
            return actions
        if kind == "move":
            actions = []
            for pos in filled:
                attr = pos[:3]
                actions += [
                    {"type": "move_die", "die": pos, "row": row}
                    for row in ATTRIBUTES
                    if row != attr and len(me["rows"][row]) < SLOTS
                ]
            return actions
        if kind == "alignment":
            return [{"type": "move_token", "direction": d} for d in DIRECTIONS if can_move(me["token"], d)]
        return [{"type": "take_discount"}]

    def _market_actions(self, state: State, seat: int) -> list[Action]:
        me = state["seats"][seat]
        turn = state["mturn"]
        actions: list[Action] = []
        if turn["bought"] < self._buy_limit(me):
            for card in state["market"]:
                actions += self._buy_options(state, seat, card, "buy_card", discounts=True)
        if turn["bought"] == 0 and not turn["no_discard"]:
            if state["market"] and not state["options"]["peaceful_market"]:
                actions += [{"type": "discard_card", "card": card} for card in state["market"]]
            else:
                actions.append({"type": "take_gold"})
        if turn["bought"] or turn["no_discard"]:
            actions.append({"type": "end_market_turn"})
        return actions + self._skill_actions(state, seat, "market")

    @staticmethod
    def _buy_limit(me: dict[str, Any]) -> int:
        return 2 if class_ability(me["class"]).get("kind") == "extra_buy" else 1

    def _buy_options(self, state: State, seat: int, card: str, kind: str, discounts: bool) -> list[Action]:
        me = state["seats"][seat]
        cost = card_price(state["seats"][seat], card, discounts)
        most = min(me["discounts"], cost) if discounts else 0
        fewest = max(0, cost - me["gold"])
        key = {"card": card} if kind == "buy_card" else {}
        return [{"type": kind, **key, "tokens": t} for t in range(fewest, most + 1)]

    # --- skills -----------------------------------------------------------------------------------------------------

    def _skill_actions(self, state: State, seat: int, context: str) -> list[Action]:
        me = state["seats"][seat]
        actions: list[Action] = []
        for skill in me["cards"]["skill"]:
            if skill in me["exhausted"]:
                continue
            if CARDS[skill]["effect"]["kind"] == "copy_skill":
                others = sorted(
                    {
                        card
                        for i, other in enumerate(state["seats"])
                        if i != seat
                        for card in other["cards"]["skill"]
                        if CARDS[card]["effect"]["kind"] != "copy_skill"
                    }
                )
                # Diplomacy may be used only to move the token, so on its own turn a seat may copy any skill.
                actions += [
                    {"type": "use_skill", "skill": skill, "copy": card}
                    for card in others
                    if can_move(me["token"], CARDS[card].get("arrow"))
                    and (context in OWN_TURN or self._skill_applies(state, seat, card, context))
                ]
            elif can_move(me["token"], CARDS[skill].get("arrow")) and self._skill_applies(
                state, seat, skill, context
            ):
                actions.append({"type": "use_skill", "skill": skill, "copy": None})
        return actions

    def _skill_applies(self, state: State, seat: int, skill: str, context: str) -> bool:
        card = CARDS[skill]
        me = state["seats"][seat]
        kind = card["effect"]["kind"]
        timing = card["timing"]
        if timing == "own_turn":
            return context in OWN_TURN and self._effect_possible(state, me, kind)
        if timing == "dice_phase":
            return context in ("pick", "window") and self._effect_possible(state, me, kind)
        if timing == "holding_die":
            return context == "place" and me["held"] is not None and sum(state["bag"].values()) > 0
        if timing == "market_turn":
            turn = state["mturn"]
            if context != "market" or not (state["deck"] or state["discard"]):
                return False
            if card["effect"]["extra"]:
                return not turn["lock_used"]
            return turn["bought"] == 0 and not turn["no_discard"]
        return False

    @staticmethod
    def _context(state: State, seat: int) -> str:
        """The decision point at which `seat` is using a skill."""
        if state["window"] and seat in state["window"]["seats"]:
            return "window"
        return state["step"] if state["phase"] == "dice" else "market"

    def _effect_possible(self, state: State, me: dict[str, Any], kind: str) -> bool:
        dice = len(filled_positions(me))
        unchosen = [c for c in state["initiative"] if c["owner"] is None and c["die"] is not None]
        if kind == "gain_gold":
            return True
        if kind == "swap_dice":
            return dice >= 2
        if kind in ("adjust_die", "flip_die", "reroll_die"):
            return dice >= 1
        if kind == "move_die":
            return bool(self._attribute_actions(me, "move"))
        if kind in ("reroll_initiative_all", "reroll_initiative_one"):
            return bool(unchosen)
        if kind == "swap_with_initiative":
            return bool(unchosen) and dice >= 1
        return False

    # --- pending decisions ------------------------------------------------------------------------------------------

    def _pending_actions(self, state: State, top: dict[str, Any]) -> list[Action]:
        kind = top["kind"]
        me = state["seats"][top["seat"]]
        if kind == "sort":
            low = min(v for _, v in top["dice"])
            colours = sorted({c for c, v in top["dice"] if v == low}, key=COLOURS.index)
            return [{"type": "order_die", "colour": c} for c in colours]
        if kind == "keep_roll":
            return [{"type": "keep_roll", "keep_new": True}, {"type": "keep_roll", "keep_new": False}]
        if kind == "discard_weapon":
            return [{"type": "discard_weapon", "card": card} for card in me["cards"]["weapon"]]
        if kind == "revealed":
            card = state["deck"][0]
            return self._buy_options(state, top["seat"], card, "buy_revealed", top["discounts"]) + [
                {"type": "decline_revealed"}
            ]
        effect = top["effect"]
        actions: list[Action]
        if effect in EFFECT_DIE_KIND:
            actions = self._attribute_actions(me, EFFECT_DIE_KIND[effect])
        elif effect == "reroll_initiative_one":
            actions = [{"type": "reroll_initiative", "card": c["number"]} for c in self._unchosen(state)]
        elif effect == "swap_with_initiative":
            actions = [
                {"type": "swap_with_initiative", "die": pos, "card": c["number"]}
                for pos in filled_positions(me)
                for c in self._unchosen(state)
            ]
        else:  # take_from_bag
            actions = [{"type": "take_from_bag", "colour": c} for c in COLOURS if state["bag"][c] > 0]
        return actions + [{"type": "skip_effect"}]

    @staticmethod
    def _unchosen(state: State) -> list[dict[str, Any]]:
        return [c for c in state["initiative"] if c["owner"] is None and c["die"] is not None]

    # --- applying actions -------------------------------------------------------------------------------------------

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        kind = action["type"]
        me = state["seats"][seat]
        top = state["pending"][-1] if state["pending"] else None
        if top is not None:
            self._apply_pending(state, seat, action, top, events)
        elif kind == "use_skill":
            self._use_skill(state, seat, action, events)
        elif kind == "decline_skill":
            state["window"]["seats"].remove(seat)
            if not state["window"]["seats"]:
                state["window"] = None
            events.append({"type": "SkillDeclined", "seat": seat})
        elif kind == "choose_race":
            me["race"] = action["race"]
            state["queue"].pop(0)
            events.append({"type": "RaceChosen", "seat": seat, "race": action["race"]})
        elif kind == "choose_class":
            me["class"] = action["class"]
            state["queue"].pop(0)
            state["class_offer"] = None
            events.append({"type": "ClassChosen", "seat": seat, "class": action["class"]})
        elif kind == "place_start_die":
            die = me["start_dice"].pop(action["die"])
            gold = self._place(me, action["row"], die, setup=True)
            events.append(
                {
                    "type": "StartDiePlaced",
                    "seat": seat,
                    "row": action["row"],
                    "colour": die[0],
                    "value": die[1],
                    "gold": gold,
                }
            )
        elif kind == "pick_card":
            self._pick_card(state, seat, action["card"], events)
        elif kind == "place_die":
            die = me["held"]
            me["held"] = None
            gold = self._place(me, action["row"], die, setup=False)
            state["step"] = "action"
            state["action_row"] = action["row"]
            events.append(
                {
                    "type": "DiePlaced",
                    "seat": seat,
                    "row": action["row"],
                    "colour": die[0],
                    "value": die[1],
                    "gold": gold,
                }
            )
        elif kind in ("flip_die", "swap_dice", "adjust_die", "reroll_die", "move_token", "take_discount"):
            row = ACTION_ROW[
                {"move_token": "alignment", "take_discount": "discount"}.get(kind) or EFFECT_DIE_KIND[kind]
            ]
            gold = self._action_gold(me, row)
            events.append({"type": "AttributeActionTaken", "seat": seat, "row": row, "gold": gold})
            if kind == "move_token":
                self._move_token(me, seat, action["direction"], events)
            elif kind == "take_discount":
                me["discounts"] += 1
                events.append({"type": "DiscountTaken", "seat": seat})
            else:
                self._die_op(state, seat, action, events, then_end_turn=True)
            if kind != "reroll_die":
                self._end_dice_turn(state, seat, events)
        elif kind == "skip_action":
            events.append({"type": "ActionSkipped", "seat": seat})
            self._end_dice_turn(state, seat, events)
        elif kind == "recall_card":
            state["discard"].remove(action["card"])
            state["market"].append(action["card"])
            state["druid_pending"].pop(0)
            events.append({"type": "CardRecalled", "seat": seat, "card": action["card"]})
        elif kind == "skip_recall":
            state["druid_pending"].pop(0)
            events.append({"type": "RecallSkipped", "seat": seat})
        elif kind == "buy_card":
            price = card_price(state["seats"][seat], action["card"], discounts=True)
            state["market"].remove(action["card"])
            self._pay(me, price, action["tokens"])
            events.append(
                {
                    "type": "CardBought",
                    "seat": seat,
                    "card": action["card"],
                    "gold": price - action["tokens"],
                    "tokens": action["tokens"],
                    "source": "market",
                }
            )
            self._gain_card(state, seat, action["card"], events)
            self._count_purchase(state, seat, events)
        elif kind in ("discard_card", "take_gold"):
            if kind == "discard_card":
                state["market"].remove(action["card"])
                state["discard"].append(action["card"])
            gold = market_gold(me)
            me["gold"] += gold
            events.append(
                {
                    "type": "CardDiscarded" if kind == "discard_card" else "GoldTaken",
                    "seat": seat,
                    "card": action.get("card"),
                    "gold": gold,
                }
            )
            self._end_market_turn(state, seat, events)
        elif kind == "end_market_turn":
            self._end_market_turn(state, seat, events)
        elif kind == "refresh_skill":
            me["exhausted"].remove(action["skill"])
            me["refresh_left"] = 0 if not me["exhausted"] else me["refresh_left"] - 1
            events.append({"type": "SkillRefreshed", "seat": seat, "skill": action["skill"]})
        else:
            raise AssertionError(f"unhandled action {kind}")
        self._advance(state, events)
        return events

    def _apply_pending(
        self, state: State, seat: int, action: Action, top: dict[str, Any], events: list[Event]
    ) -> None:
        kind = action["type"]
        me = state["seats"][seat]
        if kind == "order_die":
            state["pending"].pop()
            self._sort_onto(state, top["dice"], top["cards"], top["seat"], events, first=action["colour"])
        elif kind == "keep_roll":
            state["pending"].pop()
            attr, slot = parse_position(top["die"])  # type: ignore[misc]
            value = top["new"] if action["keep_new"] else top["old"]
            me["rows"][attr][slot][1] = value
            events.append({"type": "RollKept", "seat": seat, "die": top["die"], "value": value})
            if top["then_end_turn"]:
                self._end_dice_turn(state, seat, events)
        elif kind == "discard_weapon":
            me["cards"]["weapon"].remove(action["card"])
            state["discard"].append(action["card"])
            events.append({"type": "WeaponDiscarded", "seat": seat, "card": action["card"]})
            if hands_used(me) <= MAX_HANDS:
                state["pending"].pop()
        elif kind == "buy_revealed":
            state["pending"].pop()
            card = state["deck"].pop(0)
            state["revealed"] = False
            price = card_price(state["seats"][seat], card, top["discounts"])
            self._pay(me, price, action["tokens"])
            events.append(
                {
                    "type": "CardBought",
                    "seat": seat,
                    "card": card,
                    "gold": price - action["tokens"],
                    "tokens": action["tokens"],
                    "source": "deck",
                }
            )
            self._gain_card(state, seat, card, events)
            if not top["extra"]:
                self._count_purchase(state, seat, events)
        elif kind == "decline_revealed":
            state["pending"].pop()
            events.append({"type": "RevealedDeclined", "seat": seat})
        elif kind == "skip_effect":
            state["pending"].pop()
            events.append({"type": "EffectSkipped", "seat": seat})
        elif kind in ("flip_die", "swap_dice", "adjust_die", "reroll_die", "move_die"):
            state["pending"].pop()
            self._die_op(state, seat, action, events, then_end_turn=False)
        elif kind == "reroll_initiative":
            state["pending"].pop()
            self._reroll_initiative(state, seat, self._card(state, action["card"]), events)
            self._resort(state, seat, events)
        elif kind == "swap_with_initiative":
            state["pending"].pop()
            attr, slot = parse_position(action["die"])  # type: ignore[misc]
            card = self._card(state, action["card"])
            mine = me["rows"][attr][slot]
            me["rows"][attr][slot] = card["die"]
            card["die"] = mine
            gold = PLACE_GOLD_DIE if me["rows"][attr][slot][0] == "gold" else 0
            me["gold"] += gold
            events.append(
                {
                    "type": "DieExchanged",
                    "seat": seat,
                    "die": action["die"],
                    "card": action["card"],
                    "taken": me["rows"][attr][slot],
                    "given": mine,
                    "gold": gold,
                }
            )
            self._resort(state, seat, events)
        elif kind == "take_from_bag":
            state["pending"].pop()
            old = me["held"]
            state["bag"][old[0]] += 1
            state["bag"][action["colour"]] -= 1
            me["held"] = [action["colour"], old[1]]
            events.append(
                {"type": "DieTakenFromBag", "seat": seat, "colour": action["colour"], "returned": old[0]}
            )
        else:
            raise AssertionError(f"unhandled pending action {kind}")

    # --- helpers for actions ----------------------------------------------------------------------------------------

    @staticmethod
    def _card(state: State, number: int) -> dict[str, Any]:
        return state["initiative"][number - 1]

    @staticmethod
    def _pay(me: dict[str, Any], price: int, tokens: int) -> None:
        me["discounts"] -= tokens
        me["gold"] -= price - tokens

    @staticmethod
    def _place(me: dict[str, Any], row: str, die: list[Any], setup: bool) -> int:
        """Put `die` leftmost in `row`; return the gold this earns."""
        gold = row_gold(me, row, setup)
        me["rows"][row].append(die)
        ability = class_ability(me["class"])
        if die[0] == "gold":
            gold += ability["gold"] if setup and ability.get("kind") == "setup_gold_die" else PLACE_GOLD_DIE
        me["gold"] += gold
        return gold

    @staticmethod
    def _action_gold(me: dict[str, Any], row: str) -> int:
        gold = sum(
            CARDS[w]["effect"]["gold"]
            for w in me["cards"]["weapon"]
            if CARDS[w]["effect"]["kind"] == "action_gold" and CARDS[w]["effect"]["row"] == row
        )
        me["gold"] += gold
        return gold

    def _move_token(self, me: dict[str, Any], seat: int, direction: str, events: list[Event]) -> None:
        me["token"] = moved(me["token"], direction)
        events.append({"type": "TokenMoved", "seat": seat, "direction": direction, "cell": me["token"]})

    def _die_op(
        self, state: State, seat: int, action: Action, events: list[Event], then_end_turn: bool
    ) -> None:
        me = state["seats"][seat]
        kind = action["type"]
        attr, slot = parse_position(action["die"])  # type: ignore[misc]
        die = me["rows"][attr][slot]
        if kind == "flip_die":
            die[1] = 7 - die[1]
            events.append({"type": "DieFlipped", "seat": seat, "die": action["die"], "value": die[1]})
        elif kind == "adjust_die":
            die[1] += action["delta"]
            events.append({"type": "DieAdjusted", "seat": seat, "die": action["die"], "value": die[1]})
        elif kind == "swap_dice":
            other_attr, other_slot = parse_position(action["other"])  # type: ignore[misc]
            me["rows"][attr][slot], me["rows"][other_attr][other_slot] = (
                me["rows"][other_attr][other_slot],
                die,
            )
            events.append(
                {"type": "DiceSwapped", "seat": seat, "die": action["die"], "other": action["other"]}
            )
        elif kind == "move_die":
            # Sleight of Hand: no attribute action and no third-box gold for the new row; dice slide left.
            me["rows"][attr].pop(slot)
            me["rows"][action["row"]].append(die)
            events.append({"type": "DieMoved", "seat": seat, "die": action["die"], "row": action["row"]})
        else:
            new = self._roll(state)
            events.append(
                {"type": "DieRerolled", "seat": seat, "die": action["die"], "old": die[1], "new": new}
            )
            if new != die[1]:
                state["pending"].append(
                    {
                        "kind": "keep_roll",
                        "seat": seat,
                        "die": action["die"],
                        "old": die[1],
                        "new": new,
                        "then_end_turn": then_end_turn,
                    }
                )
            elif then_end_turn:
                self._end_dice_turn(state, seat, events)

    def _pick_card(self, state: State, seat: int, number: int, events: list[Event]) -> None:
        me = state["seats"][seat]
        card = self._card(state, number)
        gold = initiative_gold(me, card["gold"])
        me["gold"] += gold
        card["gold"] = 0
        card["owner"] = seat
        me["initiative"] = number
        me["held"] = card["die"]
        card["die"] = None
        state["step"] = "place"
        events.append(
            {
                "type": "InitiativeCardTaken",
                "seat": seat,
                "card": number,
                "colour": me["held"][0],
                "value": me["held"][1],
                "gold": gold,
            }
        )

    def _use_skill(self, state: State, seat: int, action: Action, events: list[Event]) -> None:
        me = state["seats"][seat]
        skill = action["skill"]
        used = action["copy"] or skill
        card = CARDS[used]
        direction = card.get("arrow")
        token_only = action["copy"] and not self._skill_applies(state, seat, used, self._context(state, seat))
        me["exhausted"].append(skill)
        events.append({"type": "SkillUsed", "seat": seat, "skill": skill, "copy": action["copy"]})
        if direction:
            self._move_token(me, seat, direction, events)
        if state["window"] and seat in state["window"]["seats"]:
            state["window"]["seats"].remove(seat)
            if not state["window"]["seats"]:
                state["window"] = None
        if token_only:
            return
        effect = card["effect"]
        kind = effect["kind"]
        if kind == "gain_gold":
            me["gold"] += effect["gold"]
            events.append({"type": "GoldGained", "seat": seat, "gold": effect["gold"]})
        elif kind == "reroll_initiative_all":
            for card in self._unchosen(state):
                self._reroll_initiative(state, seat, card, events)
            self._resort(state, seat, events)
        elif kind == "buy_from_deck":
            if not state["deck"]:
                self._reshuffle(state, events)
            state["revealed"] = True
            events.append({"type": "DeckTopRevealed", "seat": seat, "card": state["deck"][0]})
            if effect["extra"]:
                state["mturn"]["lock_used"] = True
            else:
                state["mturn"]["no_discard"] = True
            state["pending"].append(
                {"kind": "revealed", "seat": seat, "discounts": effect["discounts"], "extra": effect["extra"]}
            )
        else:
            state["pending"].append({"kind": "effect", "seat": seat, "effect": kind})

    def _gain_card(self, state: State, seat: int, card: str, events: list[Event]) -> None:
        me = state["seats"][seat]
        data = CARDS[card]
        me["cards"][data["type"]].append(card)
        if data["type"] == "trait" and can_move(me["token"], data.get("arrow")):
            self._move_token(me, seat, data["arrow"], events)
        if data["type"] == "weapon" and hands_used(me) > MAX_HANDS:
            state["pending"].append({"kind": "discard_weapon", "seat": seat})

    def _count_purchase(self, state: State, seat: int, events: list[Event]) -> None:
        state["mturn"]["bought"] += 1
        if state["mturn"]["bought"] >= self._buy_limit(state["seats"][seat]):
            self._end_market_turn(state, seat, events)

    # --- sorting initiative dice -------------------------------------------------------------------------------------

    def _sort_onto(
        self,
        state: State,
        dice: list[list[Any]],
        numbers: list[int],
        chooser: int,
        events: list[Event],
        first: str | None = None,
    ) -> None:
        """Lowest die onto the lowest card; the chooser breaks ties only where the tied dice differ in colour."""
        for number, die in sort_onto(dice, numbers, first):
            self._card(state, number)["die"] = die
            events.append({"type": "DieSorted", "card": number, "colour": die[0], "value": die[1]})
        if numbers and dice:
            state["pending"].append({"kind": "sort", "seat": chooser, "dice": dice, "cards": numbers})

    def _reroll_initiative(self, state: State, seat: int, card: dict, events: list[Event]) -> None:
        card["die"] = [card["die"][0], self._roll(state)]
        events.append(
            {
                "type": "InitiativeDieRerolled",
                "seat": seat,
                "card": card["number"],
                "colour": card["die"][0],
                "value": card["die"][1],
            }
        )

    def _resort(self, state: State, chooser: int, events: list[Event]) -> None:
        cards = self._unchosen(state)
        dice = [c["die"] for c in cards]
        for c in cards:
            c["die"] = None
        self._sort_onto(state, dice, [c["number"] for c in cards], chooser, events)

    # --- the flow of the game ---------------------------------------------------------------------------------------

    def _advance(self, state: State, events: list[Event]) -> None:
        """Carry out everything automatic until someone must decide."""
        while not (state["finished"] or state["pending"] or state["window"]):
            phase = state["phase"]
            if phase == "choose_race":
                if state["queue"]:
                    return
                state["phase"] = "choose_class"
                state["queue"] = self._order(state)
            elif phase == "choose_class":
                if not state["queue"]:
                    state["phase"] = "place_start"
                    self._deal_start_dice(state, events)
                    continue
                if not state["options"]["class_choice"] and state["class_offer"] is None:
                    taken = {class_colour(s) for s in state["seats"]}
                    free = [c for c in CLASS_COLOURS if c not in taken]
                    state["class_offer"] = free[self._below(state, len(free))]
                    events.append(
                        {"type": "ClassDieDrawn", "seat": state["queue"][0], "colour": state["class_offer"]}
                    )
                return
            elif phase == "place_start":
                if any(s["start_dice"] for s in state["seats"]):
                    return
                state["phase"] = "roll"
                state["round"] = 1
                events.append({"type": "RoundStarted", "round": 1, "start": state["start"]})
            elif phase == "roll":
                self._roll_initiative(state, events)
            elif phase == "dice":
                order = self._order(state)
                if state["turn_index"] >= len(order):
                    self._start_market(state, events)
                    continue
                seat = order[state["turn_index"]]
                if state["step"] == "pick" and sheet_full(state["seats"][seat]):
                    state["turn_index"] += 1
                    continue
                if state["step"] == "pick" and not state["window_checked"]:
                    state["window_checked"] = True
                    waiting = [s for s in order if s != seat and self._skill_actions(state, s, "window")]
                    if waiting:
                        state["window"] = {"seats": waiting, "before": seat}
                        events.append({"type": "SkillWindowOpened", "seats": waiting, "before": seat})
                return
            elif phase == "market":
                if state["druid_pending"] or state["market_index"] < len(state["market_order"]):
                    return
                if all(sheet_full(s) for s in state["seats"]):
                    self._finish(state, events)
                    return
                state["phase"] = "cleanup"
                state["cleanup_started"] = False
            elif phase == "cleanup":
                if not state["cleanup_started"]:
                    state["cleanup_started"] = True
                    self._start_cleanup(state, events)
                if any(s["refresh_left"] for s in state["seats"]):
                    return
                self._new_round(state, events)
            else:
                raise AssertionError(f"unknown phase {phase}")

    def _deal_start_dice(self, state: State, events: list[Event]) -> None:
        options = state["options"]
        basis = max(state["players"], 2)
        for seat in self._order(state):
            colours: list[str | None]
            if options["fair_start"]:
                colours = [self._take_colour(state, c) for c in CLASS_COLOURS]
                colours += [self._take_colour(state, "gold") for _ in range({3: 1, 4: 2}.get(basis, 0))]
                colours += [self._draw_die(state) for _ in range(2 if options["short_game"] else 0)]
            else:
                count = basis + (6 if options["short_game"] else 4)
                colours = [self._draw_die(state) for _ in range(count)]
            dice = [[c, self._roll(state)] for c in colours if c is not None]
            state["seats"][seat]["start_dice"] = dice
            events.append({"type": "StartDiceRolled", "seat": seat, "dice": clone(dice)})

    def _roll_initiative(self, state: State, events: list[Event]) -> None:
        dice = []
        for _ in state["initiative"]:
            colour = self._draw_die(state)
            if colour is not None:
                dice.append([colour, self._roll(state)])
        events.append({"type": "InitiativeRolled", "seat": state["start"], "dice": clone(dice)})
        state["phase"] = "dice"
        state["turn_index"] = 0
        state["step"] = "pick"
        state["window_checked"] = False
        self._sort_onto(state, dice, [c["number"] for c in state["initiative"]], state["start"], events)

    def _end_dice_turn(self, state: State, seat: int, events: list[Event]) -> None:
        if state["solo"]:
            self._adventurer(state, state["seats"][seat]["initiative"], events)
        state["turn_index"] += 1
        state["step"] = "pick"
        state["window_checked"] = False
        state["action_row"] = None

    def _adventurer(self, state: State, number: int, events: list[Event]) -> None:
        """Solo: the adventurer die may send a market card to the sold-out pile, by the chosen initiative card."""
        table = SOLO["adventurer"][number - 1]["rolls"]
        if not table:
            return
        roll = self._roll(state)
        state["adventurer"] = roll
        where = table.get(str(roll))
        events.append({"type": "AdventurerRolled", "value": roll, "target": where})
        market = state["market"]
        if where and market:
            index = {"left": 0, "middle": len(market) // 2, "right": len(market) - 1}[where]
            card = market.pop(index)
            state["sold_out"].append(card)
            events.append({"type": "CardSoldOut", "card": card})

    def _start_market(self, state: State, events: list[Event]) -> None:
        state["phase"] = "market"
        seats = [i for i, s in enumerate(state["seats"]) if s["initiative"] is not None]
        state["market_order"] = sorted(seats, key=lambda i: state["seats"][i]["initiative"])
        state["market_index"] = 0
        state["mturn"] = self._fresh_mturn()
        state["druid_pending"] = [
            i
            for i in state["market_order"]
            if class_ability(state["seats"][i]["class"]).get("kind") == "recall_discard" and state["discard"]
        ]
        events.append({"type": "MarketPhaseStarted", "order": list(state["market_order"])})

    def _end_market_turn(self, state: State, seat: int, events: list[Event]) -> None:
        if state["solo"] and state["market"]:
            # Solo: the leftmost card is discarded and whatever is left is sold out.
            left = state["market"].pop(0)
            state["discard"].append(left)
            events.append({"type": "CardDiscarded", "seat": None, "card": left, "gold": 0})
            for card in state["market"]:
                events.append({"type": "CardSoldOut", "card": card})
            state["sold_out"] += state["market"]
            state["market"] = []
        events.append({"type": "MarketTurnEnded", "seat": seat})
        state["market_index"] += 1
        state["mturn"] = self._fresh_mturn()

    def _start_cleanup(self, state: State, events: list[Event]) -> None:
        for seat, me in enumerate(state["seats"]):
            me["discounts"] = 0
            ability = class_ability(me["class"])
            allowed = ability["count"] if ability.get("kind") == "refresh_skills" else 1
            if len(me["exhausted"]) <= allowed:
                for skill in me["exhausted"]:
                    events.append({"type": "SkillRefreshed", "seat": seat, "skill": skill})
                me["exhausted"] = []
            else:
                me["refresh_left"] = allowed

    def _reshuffle(self, state: State, events: list[Event]) -> None:
        deck = state["discard"]
        state["discard"] = []
        for i in range(len(deck) - 1, 0, -1):
            j = self._below(state, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        state["deck"] += deck
        state["revealed"] = False
        events.append({"type": "DeckReshuffled", "cards": len(state["deck"])})

    def _new_round(self, state: State, events: list[Event]) -> None:
        for card in state["initiative"]:
            if card["die"] is not None:
                state["bag"][card["die"][0]] += 1
                card["die"] = None
            card["owner"] = None
        last = len(state["initiative"])
        for card in state["initiative"]:
            if 1 < card["number"] < last:
                card["gold"] = 1
        for me in state["seats"]:
            me["initiative"] = None
        state["discard"] += state["market"]
        state["market"] = []
        for _ in state["initiative"]:
            if not state["deck"]:
                if not state["discard"]:
                    break
                self._reshuffle(state, events)
            state["market"].append(state["deck"].pop(0))
            state["revealed"] = False
        events.append({"type": "MarketDealt", "cards": list(state["market"])})
        state["start"] = (state["start"] + 1) % state["players"]
        state["round"] += 1
        state["phase"] = "roll"
        events.append({"type": "RoundStarted", "round": state["round"], "start": state["start"]})

    def _finish(self, state: State, events: list[Event]) -> None:
        seats = state["seats"]
        golds = [s["gold"] for s in seats]
        details = [
            score_seat(s, [g for j, g in enumerate(golds) if j != i], state["solo"])
            for i, s in enumerate(seats)
        ]
        totals = [d["total"] for d in details]
        keys = [(totals[i], golds[i], -details[i]["parts"]["class_dice"]) for i in range(len(seats))]
        best = max(keys)
        winners = [i for i, key in enumerate(keys) if key == best]
        result: dict[str, Any] = {"scores": totals, "winners": winners, "details": {"seats": details}}
        if state["solo"]:
            result["details"]["rating"] = solo_rating(totals[0])
        state["result"] = result
        state["finished"] = True
        events.append({"type": "GameEnded", "scores": totals, "winners": winners})

    # --- views and results ------------------------------------------------------------------------------------------

    def view(self, state: State, viewer: int | None) -> View:
        top = state["pending"][-1] if state["pending"] else None
        return View(
            {
                "game": self.name,
                "players": state["players"],
                "viewer": viewer,
                "to_act": self.to_act(state),
                "phase": "over" if state["finished"] else state["phase"],
                "step": state["step"],
                "round": state["round"],
                "start": state["start"],
                "solo": state["solo"],
                "options": dict(state["options"]),
                "class_offer": state["class_offer"],
                "seats": clone(state["seats"]),
                "initiative": clone(state["initiative"]),
                "market": list(state["market"]),
                "deck_count": len(state["deck"]),
                "deck_top": state["deck"][0] if state["revealed"] and state["deck"] else None,
                "discard": list(state["discard"]),
                "sold_out": list(state["sold_out"]),
                "bag": dict(state["bag"]),
                "adventurer": state["adventurer"],
                "pending": clone(top),
                "window": clone(state["window"]),
                "market_order": list(state["market_order"]),
                "market_index": state["market_index"],
                "result": clone(state["result"]),
            }
        )

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(
            scores=list(result["scores"]), winners=list(result["winners"]), details=result["details"]
        )

    def secrets(self, state: State) -> list[Secret]:
        """Nobody sees the market deck below a revealed top card (each level is a known set of cards) or the
        dice yet to be drawn; everything a player holds is on the table."""
        deck = state["deck"]
        first = 1 if state["revealed"] else 0
        return [Secret(None, ("rng",), (1, 2, 3))] + [
            Secret(None, ("deck", i), LEVEL_CARDS[CARDS[deck[i]]["level"]]) for i in range(first, len(deck))
        ]

    def reseeded(self, state: State, seed: int) -> State:
        # nothing hidden is anyone's own: the market deck's order and the dice to come, shuffled afresh
        return self.shuffle_hidden(state, 0, seed)

    def shuffle_hidden(self, state: State, seat: int, seed: int) -> State:
        """Only the market deck's order (and the dice yet to be rolled) is hidden; re-deal it within each level."""
        other = clone(state)
        rng = Rng.from_seed(seed)
        deck = other["deck"]
        first = 1 if other["revealed"] else 0
        for level in (1, 2):
            spots = [i for i in range(first, len(deck)) if CARDS[deck[i]]["level"] == level]
            cards = rng.shuffled([deck[i] for i in spots])
            for i, card in zip(spots, cards, strict=True):
                deck[i] = card
        other["rng"] = rng.next_u64()
        return other

    # --- refusals -----------------------------------------------------------------------------------------------------

    def explain_illegal(self, state: State, seat: int, action: Action) -> IllegalAction:
        kind = action.get("type")
        if kind not in ACTION_TYPES:
            return IllegalAction("unknown_action", type=kind)
        me = state["seats"][seat]
        if kind == "use_skill":
            return self._explain_skill(me, action)
        legal = self.legal_actions(state, seat)
        if kind not in {a["type"] for a in legal}:
            return IllegalAction("not_now", action=kind, phase=state["phase"])
        if kind == "choose_race":
            return IllegalAction("race_not_available", race=action.get("race"))
        if kind == "choose_class":
            return IllegalAction("class_not_available", **{"class": action.get("class")})
        if kind == "pick_card":
            return IllegalAction("initiative_card_not_available", card=action.get("card"))
        if kind in ("place_die", "place_start_die", "move_die"):
            return IllegalAction("row_full", row=action.get("row"))
        if kind in ("buy_card", "buy_revealed"):
            card = action.get("card")
            if kind == "buy_card" and card not in state["market"]:
                return IllegalAction("card_not_in_market", card=card)
            return IllegalAction("cannot_afford", card=card, gold=me["gold"], tokens=me["discounts"])
        if kind in ("discard_card", "recall_card"):
            return IllegalAction("card_not_available", card=action.get("card"))
        if kind == "move_token":
            return IllegalAction("alignment_blocked", direction=action.get("direction"))
        if kind == "adjust_die":
            return IllegalAction("die_cannot_wrap", die=action.get("die"), delta=action.get("delta"))
        if kind in ("flip_die", "swap_dice", "reroll_die", "swap_with_initiative"):
            return IllegalAction("no_die_there", die=action.get("die"))
        if kind in ("refresh_skill", "discard_weapon"):
            return IllegalAction("card_not_yours", card=action.get("skill") or action.get("card"))
        return IllegalAction("bad_parameters", action=kind)

    @staticmethod
    def _explain_skill(me: dict[str, Any], action: Action) -> IllegalAction:
        # Checked before "not_now": a spent or blocked skill says why even when no other skill is usable.
        skill = action.get("skill")
        if skill not in me["cards"]["skill"]:
            return IllegalAction("skill_not_owned", skill=skill)
        if skill in me["exhausted"]:
            return IllegalAction("skill_exhausted", skill=skill)
        arrow = CARDS.get(action.get("copy") or skill, {}).get("arrow")
        if not can_move(me["token"], arrow):
            return IllegalAction("alignment_blocked", skill=skill, direction=arrow)
        return IllegalAction("skill_not_usable_now", skill=skill)
