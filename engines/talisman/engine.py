"""Talisman (revised 4th edition) for 2-6 players, from the Korean rulebook (seeds/004) and the reference's
component facts.

The rules live in rules.py as a task queue with prompts; this module is the engine contract around it: set-up
(with the rulebook's alternative of choosing one of three characters and the faster game's starting counter),
who acts, the legal actions of the open prompt, views that hide Spells in hand and the decks' order, and
re-dealing what a seat cannot see.
"""

from __future__ import annotations

from typing import Any

from engines.base import Action, Engine, Event, IllegalAction, Option, Outcome, Secret, State, View, clone
from engines.rng import Rng
from engines.talisman import autoplayer, refusals, rules
from engines.talisman.data import ADVENTURE, CHARACTER_IDS, PURCHASE, SPACES, SPELLS, TALISMAN, card_def
from engines.talisman.model import base_craft, base_strength, craft, strength

OFFERED = 3  # the alternative set-up deals three characters to each player
# Prompt details everyone may see (a spell being targeted is announced only once it is cast).
PUBLIC_PROMPT_KEYS = (
    "dice",
    "reason",
    "sp",
    "others",
    "card",
    "loser",
    "n",
    "drawn",
    "score",  # a fight's battle scores with the roll as it stands (a fate re-roll weighs them)
    "foe_score",
    "as_rolled",  # what an instruction to roll does with the roll as it stands
    "rolled",  # the roll a move is made with (a move of one space without a roll has none)
    "services",  # what a shop offers, at what prices
    "missed",  # the end of a missed turn, with what cost the turn
)


def _name_the_evaded_card(state: State) -> State:
    """Schema 2: the prompts to evade a hostile card name that card (and the encounter task to resume is kept
    apart from it)."""
    p = state["p"] or {}
    if p.get("k") == "hostile_event" and "task" not in p:
        p["task"] = p.pop("card")
        wanted = set(p["task"]["u"])
        p["card"] = next(i["c"] for i in state["board"][str(p["task"]["sp"])] if i["u"] in wanted)
    elif p.get("k") == "hostile" and "card" not in p:
        p["card"] = next(i["c"] for i in state["board"][str(p["sp"])] if card_def(i).get("hostile"))
    return state


def _keep_what_cost_a_turn(state: State) -> State:
    """Schema 3: each character keeps what cost the turns it owes (none known for those owed before)."""
    for ch in state["chars"]:
        if ch is not None:
            ch.setdefault("lost", [])
    return state


class Talisman(Engine):
    name = "talisman"
    schema_version = 3
    upgrades = {1: _name_the_evaded_card, 2: _keep_what_cost_a_turn}
    min_players = 2
    max_players = 6
    autoplayer = autoplayer
    search_budget = 6000  # per 2-player decision; 4 players: 3000, ~0.75 s on one core (p99 ~1.5 s)
    # Public events that show what was hidden: a drawn card, a Spell leaving a hand.
    revealing_events = frozenset(
        {"CardDrawn", "CardRedrawn", "SpellCast", "SpellDiscarded", "SpellsDiscarded"}
    )
    undoing_moves = frozenset({"cancel"})  # a Spell's cast called off before anything is spent
    passing_moments = True  # a turn's end or a missed turn, with Spells held that fit neither
    options = (
        Option("evade_hostile", False),
        Option("inheritance", False),
        Option("trophy_rate", 7, (7, 6, 5)),
        Option("starting_bonus", False),
        Option("bloodbath", False),
        Option("command_eased", False, provisional=True),
        Option("sudden_death", False),
        Option("round_limit", 0, span=(0, 500)),
        Option("choose_character", False),
    )

    # --- set-up ---------------------------------------------------------------------------------------------

    def new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        self.check_players(players)
        opts = {opt.name: options.get(opt.name, opt.default) for opt in self.options}
        rng = Rng.from_seed(seed)
        state: State = {
            "players": players,
            "opts": opts,
            "rng": 0,
            "phase": "setup",
            "seat": 0,
            "turn": 1,
            "round": 1,
            "warp": 0,
            "chars": [None] * players,
            "unused": [],
            "adv": rng.shuffled(rules.adventure_deck()),
            "adv_disc": [],
            "spl": rng.shuffled(rules.spell_deck()),
            "spl_disc": [],
            "shop": {pid: entry["count"] for pid, entry in PURCHASE.items()},
            "tal": 1 if opts["bloodbath"] else TALISMAN["count"],
            "board": {},
            "gold": {},
            "hexes": [],
            "blizzard": 0,
            "dmagic": None,
            "crown": False,
            "out": [False] * players,
            "result": None,
            "uid": 0,
            "q": [],
            "p": None,
            "peek": {},
            "stash": {},
            "stash_pick": None,
            "dropped": None,
            "setup": {"offers": None, "chosen": [None] * players, "bonus": [None] * players},
        }
        state["rng"] = rng.state
        if opts["choose_character"]:
            pool = rng.shuffled(CHARACTER_IDS)
            each = min(OFFERED, len(pool) // players)
            state["setup"]["offers"] = [pool[i * each : (i + 1) * each] for i in range(players)]
            state["unused"] = pool[players * each :]
            state["rng"] = rng.state
        else:
            picks = rules.initial_characters(players, state)
            state["setup"]["chosen"] = picks
        self._maybe_start(state, [])
        return state

    def _setup_pending(self, state: State) -> list[int]:
        setup = state["setup"]
        pending = []
        for seat in range(state["players"]):
            if setup["chosen"][seat] is None:
                pending.append(seat)
            elif state["opts"]["starting_bonus"] and setup["bonus"][seat] is None:
                pending.append(seat)
        return pending

    def _maybe_start(self, state: State, events: list[Event]) -> None:
        if self._setup_pending(state):
            return
        setup = state["setup"]
        if setup["offers"]:
            state["unused"] += [
                c for seat, offer in enumerate(setup["offers"]) for c in offer if c != setup["chosen"][seat]
            ]
        for seat, cid in enumerate(setup["chosen"]):
            rules.new_character(state, seat, cid, events)
            bonus = setup["bonus"][seat]
            if bonus:
                rules.add_stat(state, seat, bonus, 1, events, "starting_bonus")
        state["phase"] = "play"
        state["setup"] = None
        rules.run(state, events)

    # --- who acts and how -----------------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        if state["result"] is not None:
            return []
        if state["phase"] == "setup":
            return self._setup_pending(state)
        p = state["p"]
        return [p["seat"]] if p else []

    def reaction_seats(self, state: State) -> list[int]:
        """A prompt to someone other than the player whose turn it is (a spell to cast, a loss to prevent)."""
        p = state["p"]
        if state["result"] is not None or state["phase"] != "play" or not p or p["seat"] == state["seat"]:
            return []
        return [p["seat"]]

    def interrupted_turn(self, state: State) -> int | None:
        return state["seat"] if self.reaction_seats(state) else None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["result"] is not None:
            return []
        if state["phase"] == "setup":
            if seat not in self._setup_pending(state):
                return []
            setup = state["setup"]
            if setup["chosen"][seat] is None:
                return [{"type": "choose_character", "character": c} for c in setup["offers"][seat]]
            return [{"type": "choose_bonus", "stat": k} for k in ("strength", "craft")]
        return rules.legal(state, seat)

    def explain_illegal(self, state: State, seat: int, action: Action) -> IllegalAction:
        return refusals.explain(state, seat, action)

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        if state["phase"] == "setup":
            setup = state["setup"]
            if action["type"] == "choose_character":
                setup["chosen"][seat] = action["character"]
            else:
                setup["bonus"][seat] = action["stat"]
            events.append({"type": "SetupChoiceMade", "seat": seat})
            self._maybe_start(state, events)
            return events
        rules.answer(state, seat, action, events)
        return events

    # --- what each seat sees --------------------------------------------------------------------------------

    def view(self, state: State, viewer: int | None) -> View:
        chars = []
        for seat, ch in enumerate(state["chars"]):
            if ch is None:
                chars.append(None)
                continue
            chars.append(
                {
                    "seat": seat,
                    "id": ch["id"],
                    "space": ch["space"],
                    "strength": strength(state, ch),
                    "craft": craft(state, ch),
                    "base_strength": base_strength(ch),
                    "base_craft": base_craft(ch),
                    "counters": {
                        "strength": ch["str"],
                        "craft": ch["craft"],
                    },  # gained: a timed game counts them
                    "life": ch["life"],
                    "fate": ch["fate"],
                    "gold": ch["gold"],
                    "alignment": ch["align"],
                    "items": [_card(i) for i in ch["items"]],
                    "followers": [_card(i) for i in ch["fol"]],
                    "trophies": [
                        {
                            "kind": tr["k"],
                            "value": tr["v"],
                            "card": tr["inst"]["c"] if tr.get("inst") else None,
                        }
                        for tr in ch["tro"]
                    ],
                    "spells": len(ch["spells"]),
                    "toad": ch["toad"],
                    "miss": ch["miss"],
                    "quest": ch["quest"],
                    "dead": ch["dead"],
                    "out": state["out"][seat],
                    "hold": ch["hold"],
                    "enslaved": ch["enslaved"],
                    "turning_back": ch["back"],
                    "next_move": ch["next"],
                }
            )
        p = state["p"]
        prompt = None
        if p is not None:
            prompt = {"seat": p["seat"], "kind": p["k"]}
            prompt.update({key: clone(p[key]) for key in PUBLIC_PROMPT_KEYS if key in p})
            if p["k"] == "pre_draw":  # what an item put down first takes the place of
                prompt["to_draw"] = rules.cards_to_draw(state, p["sp"])
            if p["k"] == "spell_target":  # a cast is public: everyone sees what is being cast
                prompt["spell"] = p["cast"]["spell"]
            if p["k"] == "portal":  # the dice each stat would roll against it
                ch = state["chars"][p["seat"]]
                prompt["stat_dice"] = {
                    stat: rules.portal_dice(state, ch, stat) for stat in ("strength", "craft")
                }
            mover = state["chars"][p["seat"]]
            if p["seat"] == state["seat"] and mover is not None and mover["space"] in rules.OUTER:
                # a move over the bridge inward, whichever step offers it, is a fight with the Sentinel: the
                # character's side of it
                prompt["sentinel_mine"] = rules.battle_strength(state, mover, rules.SENTINEL_FOE)
            if p["k"] == "combat":
                foe = p["c"]["foe"]
                prompt["foe"] = {
                    k: foe[k] for k in ("name", "strength", "craft", "subtype", "bribe") if k in foe
                }
                # what the fight weighs before the dice (a Doppelganger's Strength is the character's own)
                mine, theirs = rules.combat_values(state, p["c"])
                stat = "craft" if rules.psychic_foe(foe) else "strength"
                ch = state["chars"][p["seat"]]
                prompt["battle"] = {
                    "stat": stat,
                    "mine": mine,
                    "foe": theirs,
                    "bonus": rules.creature_bonus(p["c"]),  # in "foe": the space's, not the card's
                    "dice": rules.attack_dice(ch),  # the best of them counts
                    "foe_rolls": rules.foe_rolls(ch, foe),
                }
            # each option's effects (the card's or space's), and those that would do nothing now
            if p["k"] == "either":
                prompt["effects"] = clone(p["options"])
                prompt["no_effect"] = {
                    option: why
                    for option, ops in p["options"].items()
                    if (why := rules.futile(state, p["seat"], ops))
                }
            if p["k"] == "shop":  # the services that offer nothing now, and why
                prompt["closed"] = rules.shop_closed(state, p)
            if p["k"] == "take" and (price := rules.hire_price(state, p)):  # a Follower that must be hired
                prompt["price"] = price
        view = View(
            {
                "game": self.name,
                "players": state["players"],
                "viewer": viewer,
                "to_act": self.to_act(state),
                "phase": state["phase"],
                "seat": state["seat"],
                "turn": state["turn"],
                "round": state["round"],
                "round_limit": state["opts"]["round_limit"],  # a timed game: it ends after this round
                "prompt": prompt,
                "chars": chars,
                "spaces": len(SPACES),
                "board": {k: [_card(i) for i in v] for k, v in state["board"].items()},
                # A dead character's cards set aside for its heir, face up until the heir has picked.
                "inheritance": (
                    {"seat": pick["seat"], "cards": [_card(i) for i in pick["cards"]]}
                    if (pick := state["stash_pick"])
                    else None
                ),
                "gold": dict(state["gold"]),
                "hexes": [dict(h) for h in state["hexes"]],
                "decks": {
                    "adventure": len(state["adv"]),
                    "adventure_discard": len(state["adv_disc"]),
                    "spells": len(state["spl"]),
                    "spell_discard": len(state["spl_disc"]),
                },
                "purchase": dict(state["shop"]),
                "talismans": state["tal"],
                "blizzard": state["blizzard"],
                "destroy_magic": state["dmagic"],
                "crown_reached": state["crown"],
                "out": list(state["out"]),
                "result": state["result"],
                "options": dict(state["opts"]),
            }
        )
        if state["phase"] == "setup":
            setup = state["setup"]
            view["setup"] = {"chosen": [c is not None for c in setup["chosen"]]}
            if viewer is not None:
                view["setup"]["offers"] = list(setup["offers"][viewer]) if setup["offers"] else []
                view["setup"]["mine"] = setup["chosen"][viewer]
                view["setup"]["bonus"] = setup["bonus"][viewer]
        if viewer is not None and state["chars"][viewer] is not None:
            view["my_spells"] = sorted(state["chars"][viewer]["spells"])
            view["known_top"] = list(state["peek"].get(str(viewer), []))
        return view

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(
            scores=list(result["scores"]),
            winners=list(result["winners"]),
            details={"reason": result["reason"]},
        )

    def secrets(self, state: State) -> list[Secret]:
        """A player's own: its Spells, the Adventure cards it has divined on top of the deck, and during set-up
        the characters it was offered, the one it chose and its starting bonus. Nobody's: the order of both
        decks and the characters not in play. (The divined cards are also in the deck, whose order is nobody's:
        their owner sees them through what it divined.)"""
        spells = sorted(SPELLS)
        adventures = sorted(ADVENTURE)
        out = [Secret(None, ("rng",), (1, 2, 3))]
        out += [Secret(None, ("spl", i), spells) for i in range(len(state["spl"]))]
        out += [Secret(None, ("adv", i), adventures) for i in range(len(state["adv"]))]
        out += [Secret(None, ("unused", i), CHARACTER_IDS) for i in range(len(state["unused"]))]
        for seat, ch in enumerate(state["chars"]):
            if ch is not None:
                out += [Secret(seat, ("chars", seat, "spells", i), spells) for i in range(len(ch["spells"]))]
        for key, known in state["peek"].items():
            out += [Secret(int(key), ("peek", key, i), adventures) for i in range(len(known))]
        setup = state["setup"]
        if setup:
            for seat in range(state["players"]):
                if setup["offers"]:
                    offer = setup["offers"][seat]
                    out += [
                        Secret(seat, ("setup", "offers", seat, i), CHARACTER_IDS) for i in range(len(offer))
                    ]
                if setup["chosen"][seat] is not None:
                    out.append(Secret(seat, ("setup", "chosen", seat), CHARACTER_IDS))
                if setup["bonus"][seat] is not None:
                    out.append(Secret(seat, ("setup", "bonus", seat), ("strength", "craft")))
        return out

    def reseeded(self, state: State, seed: int) -> State:
        """A fresh source of chance, and the Spell deck and the Adventure deck shuffled with it, but for the cards
        on top that someone has divined: a card drawn and taken back is not the next one drawn again."""
        rng = Rng.from_seed(seed)
        known = max((len(cards) for cards in state["peek"].values()), default=0)
        deck = state["adv"]
        rest, top = deck[: len(deck) - known], deck[len(deck) - known :]
        return {
            **state,
            "adv": rng.shuffled(rest) + top,
            "spl": rng.shuffled(state["spl"]),
            "rng": rng.next_u64(),
        }

    def shuffle_hidden(self, state: State, seat: int, seed: int) -> State:
        """Re-deal others' Spells with the Spell deck, the Adventure deck below what `seat` has divined, the
        other players' character offers, and the future dice."""
        out = clone(state)
        rng = Rng.from_seed(seed)
        others = [s for s in range(out["players"]) if s != seat and out["chars"][s] is not None]
        pool = list(out["spl"]) + [sp for s in others for sp in out["chars"][s]["spells"]]
        rng.shuffle(pool)
        for s in others:
            n = len(out["chars"][s]["spells"])
            out["chars"][s]["spells"], pool = pool[:n], pool[n:]
        out["spl"] = pool
        known = len(out["peek"].get(str(seat), []))
        deck = out["adv"]
        top = deck[len(deck) - known :] if known else []
        rest = deck[: len(deck) - known]
        rng.shuffle(rest)
        out["adv"] = rest + top
        out["peek"] = {k: v for k, v in out["peek"].items() if k == str(seat)}
        setup = out.get("setup")
        if setup and setup["offers"]:
            hidden = [s for s in range(out["players"]) if s != seat and setup["chosen"][s] is None]
            chars = out["unused"] + [c for s in hidden for c in setup["offers"][s]]
            rng.shuffle(chars)
            for s in hidden:
                n = len(setup["offers"][s])
                setup["offers"][s], chars = chars[:n], chars[n:]
            out["unused"] = chars
        out["rng"] = rng.next_u64()
        return out


def _card(inst: dict[str, Any]) -> dict[str, Any]:
    out = {"uid": inst["u"], "card": inst["c"], "origin": inst["o"]}
    if "pool" in inst:
        out["pool"] = inst["pool"]
    return out
