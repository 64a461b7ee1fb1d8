"""Druids (Leo Colovini, 2004) for 2-4 players, from the Korean rulebook.

A turn: optionally ask for one mystic place to be scored, play two cards face down (never two followers), optionally
discard one gem face down, then refill the hand to seven, one card at a time, from the gem deck or one's own
followers. Each step is its own action, because what a player learns (a scoring, a drawn gem) may change the next
choice.

Where the rulebook is silent we chose, and say so in the rules text the bot shows:
- scored followers go back to their owner's set, so they can be taken again;
- an empty gem deck is rebuilt by shuffling the gem discard pile;
- who played a card is public (it is played in front of everyone; followers have their owner's colour), its face
  is not;
- a turn in which a player can do nothing passes, and a game in which nobody can do anything for a whole round ends.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engines.base import Action, Engine, Event, IllegalAction, Outcome, Secret, State, View, clone
from engines.druids import autoplayer
from engines.druids.rules import (  # noqa: F401 (re-exported for the presenter, renderer and tests)
    COMPONENTS,
    FOLLOWER_NUMBERS,
    GEM_KINDS,
    GEM_VALUES,
    HAND_SIZE,
    MATCHING_GEM_PERCENT,
    MIN_CARDS_TO_SCORE,
    PLACE_CARDS,
    PLAYS_PER_TURN,
    TRACK_CARDS,
    TRACK_LENGTH,
    TRACK_STEPS,
    card_number,
    distribute,
    follower_card,
    gem_card,
    gem_kind,
    is_follower,
)
from engines.rng import Rng

ALL_GEMS = [gem_card(kind, value) for kind in GEM_KINDS for value in GEM_VALUES]


class Druids(Engine):
    name = "druids"
    min_players = 2
    max_players = 4
    autoplayer = autoplayer
    search_budget = 4000  # per 2-player decision: ~1.3 s on one idle core (4 players: 2000, ~0.8 s)
    revealing_events = frozenset({"PlaceRevealed", "PlaceReplaced", "GemDeckReshuffled", "OwnGemDrawn"})
    # Plays (only one follower per turn, so their order never breaks a tie) and followers taken back into the
    # hand end the same way in any order.
    unordered_moves = frozenset({"play_card", "take_follower"})
    blind_repeats = frozenset({"draw_gem"})  # how many refills a turn needs depends on the hand's size alone

    # --- set-up ---------------------------------------------------------------------------------------------------

    def new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        self.check_players(players)
        rng = Rng.from_seed(seed)
        places = rng.shuffled([kind for kind in GEM_KINDS for _ in range(COMPONENTS["places_per_kind"])])
        gems = rng.shuffled(ALL_GEMS)
        hands: list[list[str]] = []
        home: list[list[int]] = []
        for _ in range(players):
            followers = rng.shuffled(FOLLOWER_NUMBERS)
            taken = followers[: COMPONENTS["starting_followers"]]
            hand = [gems.pop() for _ in range(COMPONENTS["starting_gems"])] + [
                follower_card(n) for n in taken
            ]
            hands.append(hand)
            home.append(sorted(followers[COMPONENTS["starting_followers"] :]))
        face_up = COMPONENTS["face_up_places"]
        return {
            "players": players,
            "rng": rng.state,
            "gem_deck": gems,
            "gem_discard": [],
            "place_deck": places[face_up:],
            "places": [{"kind": kind, "cards": []} for kind in places[:face_up]],
            "scored": 0,
            "hands": hands,
            "followers_home": home,
            "scores": [0] * players,
            "track_base": 0,
            "current": 0,
            "phase": "start",
            "plays_left": PLAYS_PER_TURN,
            "played_follower": False,
            "play_counter": 0,
            "idle_turns": 0,
            "turn": 1,
            "finished": None,
        }

    # --- who acts and how -----------------------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return [] if state["finished"] else [state["current"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["finished"] or seat != state["current"]:
            return []
        phase = state["phase"]
        if phase in ("start", "play"):
            actions: list[Action] = []
            if phase == "start":
                actions += [{"type": "request_scoring", "place": i} for i in self._scorable(state)]
            actions += self._plays(state, seat)
            return actions
        if phase == "discard":
            gems = [card for card in state["hands"][seat] if not is_follower(card)]
            return [{"type": "discard_gem", "card": card} for card in sorted(gems)] + [
                {"type": "skip_discard"}
            ]
        if phase == "refill":
            actions = []
            if state["gem_deck"] or state["gem_discard"]:
                actions.append({"type": "draw_gem"})
            actions += [{"type": "take_follower", "number": n} for n in state["followers_home"][seat]]
            return actions
        raise AssertionError(f"unknown phase {phase}")

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        kind = action.get("type")
        phase = state["phase"]
        if kind == "play_card" and phase in ("start", "play") and set(action) == {"type", "card", "place"}:
            card, place = action["card"], action["place"]
            return (
                card in state["hands"][seat]
                and type(place) is int
                and 0 <= place < len(state["places"])
                and state["places"][place]["kind"] is not None
                and not (is_follower(card) and state["played_follower"])
            )
        return action in self.legal_actions(state, seat)

    def _scorable(self, state: State) -> list[int]:
        return [
            i
            for i, place in enumerate(state["places"])
            if place["kind"] is not None
            and len(place["cards"]) >= MIN_CARDS_TO_SCORE
            and any(is_follower(c["card"]) for c in place["cards"])
        ]

    def _plays(self, state: State, seat: int) -> list[Action]:
        open_places = [i for i, place in enumerate(state["places"]) if place["kind"] is not None]
        cards = sorted(state["hands"][seat])
        if state["played_follower"]:
            cards = [card for card in cards if not is_follower(card)]
        return [{"type": "play_card", "card": card, "place": i} for card in cards for i in open_places]

    def explain_illegal(self, state: State, seat: int, action: Action) -> IllegalAction:
        kind = action.get("type")
        phase = state["phase"]
        hand = state["hands"][seat]
        places = state["places"]
        if kind == "request_scoring":
            if phase != "start":
                return IllegalAction("scoring_only_at_turn_start")
            place = action.get("place")
            if not isinstance(place, int) or not 0 <= place < len(places) or places[place]["kind"] is None:
                return IllegalAction("no_such_place", place=place)
            return IllegalAction("place_not_scorable", place=place, needed=MIN_CARDS_TO_SCORE)
        if kind == "play_card":
            if phase not in ("start", "play"):
                return IllegalAction("no_plays_left")
            card, place = action.get("card"), action.get("place")
            if card not in hand:
                return IllegalAction("card_not_in_hand", card=card)
            if not isinstance(place, int) or not 0 <= place < len(places) or places[place]["kind"] is None:
                return IllegalAction("no_such_place", place=place)
            if is_follower(card) and state["played_follower"]:
                return IllegalAction("two_followers")
        if kind == "discard_gem":
            if phase != "discard":
                return IllegalAction("not_discard_step")
            card = action.get("card")
            if card not in hand:
                return IllegalAction("card_not_in_hand", card=card)
            if is_follower(card):
                return IllegalAction("only_gems_discarded")
        if kind in ("draw_gem", "take_follower"):
            if phase != "refill":
                return IllegalAction("not_refill_step")
            if kind == "draw_gem":
                return IllegalAction("gem_deck_empty")
            return IllegalAction("follower_not_available", number=action.get("number"))
        if kind == "skip_discard":
            return IllegalAction("not_discard_step")
        return IllegalAction("unknown_action", type=kind)

    # --- applying actions -----------------------------------------------------------------------------------------

    def copy_state(self, state: State) -> State:
        # Several times faster than `clone`: the picker applies thousands of moves for one turn's offers. A played
        # card's entry is never changed (a scoring empties the place), so the copy shares it; the rest is new.
        out = dict(state)
        for key in ("gem_deck", "gem_discard", "place_deck", "scores"):
            out[key] = list(state[key])
        out["hands"] = [list(hand) for hand in state["hands"]]
        out["followers_home"] = [list(home) for home in state["followers_home"]]
        out["places"] = [{**place, "cards": list(place["cards"])} for place in state["places"]]
        out["finished"] = clone(state["finished"])
        return out

    def repeat_count(self, state: State, seat: int, action: Action, limit: int) -> int:
        if action == {"type": "draw_gem"} and state["phase"] == "refill" and seat in self.to_act(state):
            # Each draw adds a card until the hand is full or the gems (deck and discard pile) run out.
            gems = len(state["gem_deck"]) + len(state["gem_discard"])
            return min(limit, HAND_SIZE - len(state["hands"][seat]), gems)
        return super().repeat_count(state, seat, action, limit)

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        events: list[Event] = []
        if kind == "request_scoring":
            events += self._score_place(state, seat, action["place"])
            if state["finished"] is None:
                state["phase"] = "play"
        elif kind == "play_card":
            events += self._play(state, seat, action["card"], action["place"])
        elif kind == "discard_gem":
            state["hands"][seat].remove(action["card"])
            state["gem_discard"].append(action["card"])
            events.append({"type": "GemDiscarded", "seat": seat})
            events.append(
                {"type": "OwnGemDiscarded", "seat": seat, "card": action["card"], "private": [seat]}
            )
            state["phase"] = "refill"
        elif kind == "skip_discard":
            state["phase"] = "refill"
        elif kind == "draw_gem":
            events += self._draw_gem(state, seat)
        elif kind == "take_follower":
            state["followers_home"][seat].remove(action["number"])
            state["hands"][seat].append(follower_card(action["number"]))
            events.append({"type": "FollowerTaken", "seat": seat})
            events.append(
                {"type": "OwnFollowerTaken", "seat": seat, "number": action["number"], "private": [seat]}
            )
        if state["finished"] is None:
            events += self._advance(state)
        return events

    def _play(self, state: State, seat: int, card: str, place: int) -> list[Event]:
        state["hands"][seat].remove(card)
        state["play_counter"] += 1
        state["places"][place]["cards"].append({"card": card, "seat": seat, "order": state["play_counter"]})
        state["plays_left"] -= 1
        state["played_follower"] = state["played_follower"] or is_follower(card)
        state["phase"] = "play"
        card_kind = "follower" if is_follower(card) else "gem"
        kind = state["places"][place]["kind"]
        return [
            {"type": "CardPlayed", "seat": seat, "place": place, "kind": kind, "card_kind": card_kind},
            {
                "type": "OwnCardPlayed",
                "seat": seat,
                "place": place,
                "kind": kind,
                "card": card,
                "private": [seat],
            },
        ]

    def _draw_gem(self, state: State, seat: int) -> list[Event]:
        events: list[Event] = []
        if not state["gem_deck"]:
            rng = Rng(state["rng"])
            state["gem_deck"] = rng.shuffled(state["gem_discard"])
            state["gem_discard"] = []
            state["rng"] = rng.state
            events.append({"type": "GemDeckReshuffled", "size": len(state["gem_deck"])})
        card = state["gem_deck"].pop()
        state["hands"][seat].append(card)
        events.append({"type": "GemDrawn", "seat": seat})
        events.append({"type": "OwnGemDrawn", "seat": seat, "card": card, "private": [seat]})
        return events

    def _advance(self, state: State) -> list[Event]:
        """Move past steps that are over or offer no choice; start the next player's turn when this one ends."""
        events: list[Event] = []
        while state["finished"] is None:
            seat = state["current"]
            phase = state["phase"]
            if phase == "play" and (state["plays_left"] == 0 or not self._plays(state, seat)):
                has_gem = any(not is_follower(card) for card in state["hands"][seat])
                state["phase"] = "discard" if has_gem else "refill"
            elif phase == "start" and not self.legal_actions(state, seat):
                state["phase"] = "refill"
                if self._hand_is_full_or_stuck(state, seat):
                    events += self._end_turn(state, idle=True)
            elif phase == "refill" and self._hand_is_full_or_stuck(state, seat):
                events += self._end_turn(state, idle=False)
            else:
                break
        return events

    def _hand_is_full_or_stuck(self, state: State, seat: int) -> bool:
        return len(state["hands"][seat]) >= HAND_SIZE or not self.legal_actions(state, seat)

    def _end_turn(self, state: State, idle: bool) -> list[Event]:
        """Pass the turn on; a whole round of players who could do nothing at all ends the game."""
        seat = state["current"]
        events: list[Event] = [{"type": "TurnEnded", "seat": seat}]
        state["idle_turns"] = state["idle_turns"] + 1 if idle else 0
        if state["idle_turns"] >= state["players"]:
            return events + self._finish(state, "stalled")
        state["current"] = (seat + 1) % state["players"]
        state["phase"] = "start"
        state["plays_left"] = PLAYS_PER_TURN
        state["played_follower"] = False
        state["turn"] += 1
        events.append({"type": "TurnStarted", "seat": state["current"]})
        return events

    # --- scoring --------------------------------------------------------------------------------------------------

    def _score_place(self, state: State, seat: int, index: int) -> list[Event]:
        place = state["places"][index]
        kind = place["kind"]
        cards = place["cards"]
        events: list[Event] = [
            {"type": "ScoringRequested", "seat": seat, "place": index, "kind": kind},
            {"type": "PlaceRevealed", "place": index, "kind": kind, "cards": cards},
        ]
        amulets = sum(
            card_number(c["card"])
            for c in cards
            if not is_follower(c["card"]) and gem_kind(c["card"]) == kind
        )
        followers = sorted(
            (c for c in cards if is_follower(c["card"])), key=lambda c: (card_number(c["card"]), c["order"])
        )
        shares = distribute(amulets, [card_number(c["card"]) for c in followers])
        events.append(
            {
                "type": "AmuletsDistributed",
                "place": index,
                "kind": kind,
                "amulets": amulets,
                "shares": [
                    {"seat": c["seat"], "follower": card_number(c["card"]), "amulets": share}
                    for c, share in zip(followers, shares, strict=True)
                ],
            }
        )
        # Clear the place before moving markers: a track wrap may end the game mid-distribution.
        for c in cards:
            if is_follower(c["card"]):
                state["followers_home"][c["seat"]].append(card_number(c["card"]))
                state["followers_home"][c["seat"]].sort()
            else:
                state["gem_discard"].append(c["card"])
        place["cards"] = []
        state["scored"] += 1
        if state["place_deck"]:
            place["kind"] = state["place_deck"].pop()
            events.append({"type": "PlaceReplaced", "place": index, "kind": place["kind"]})
        else:
            place["kind"] = None
            events.append({"type": "PlaceRemoved", "place": index})
        for c, share in zip(followers, shares, strict=True):
            events += self._advance_marker(state, c["seat"], share)
            if state["finished"] is not None:
                return events
        if state["scored"] >= PLACE_CARDS - 1:
            events += self._finish(state, "places_scored")
        return events

    def _advance_marker(self, state: State, seat: int, steps: int) -> list[Event]:
        """Move a mover along the score track, applying the wrap rule whenever it would pass the top card."""
        events: list[Event] = []
        if steps <= 0:
            return events
        target = state["scores"][seat] + steps
        while target >= state["track_base"] + TRACK_LENGTH:
            bottom = range(state["track_base"], state["track_base"] + TRACK_STEPS)
            if any(score in bottom for other, score in enumerate(state["scores"]) if other != seat):
                state["scores"][seat] = target
                events.append({"type": "ScoreMoved", "seat": seat, "steps": steps, "score": target})
                return events + self._finish(state, "track_wrapped_onto_mover")
            state["track_base"] += TRACK_STEPS
            events.append({"type": "ScoreTrackWrapped", "base": state["track_base"]})
        state["scores"][seat] = target
        events.append({"type": "ScoreMoved", "seat": seat, "steps": steps, "score": target})
        return events

    def _finish(self, state: State, reason: str) -> list[Event]:
        best = max(state["scores"])
        winners = [seat for seat, score in enumerate(state["scores"]) if score == best]
        state["finished"] = {"reason": reason, "winners": winners}
        return [{"type": "GameEnded", "reason": reason, "scores": list(state["scores"]), "winners": winners}]

    # --- what each seat sees --------------------------------------------------------------------------------------

    def view(self, state: State, viewer: int | None) -> View:
        scorable = [] if state.get("finished") else self._scorable(state)  # nothing is scored once it is over
        places = []
        for i, place in enumerate(state["places"]):
            followers: list[int] = []
            gems_by_seat = [0] * state["players"]
            for c in place["cards"]:
                if is_follower(c["card"]):
                    followers.append(c["seat"])
                else:
                    gems_by_seat[c["seat"]] += 1
            entry: dict[str, Any] = {
                "place": i,
                "kind": place["kind"],
                "gems": sum(gems_by_seat),
                "followers": followers,
                "gems_by_seat": gems_by_seat,
                "scorable": i in scorable,
            }
            if viewer is not None:
                entry["mine"] = [c["card"] for c in place["cards"] if c["seat"] == viewer]
            places.append(entry)
        view = View(
            {
                "game": self.name,
                "players": state["players"],
                "to_act": self.to_act(state),
                "current": state["current"],
                "phase": state["phase"],
                "plays_left": state["plays_left"],
                "played_follower": state["played_follower"],
                "turn": state["turn"],
                "places": places,
                "place_deck": len(state["place_deck"]),
                "places_scored": state["scored"],
                "places_total": PLACE_CARDS,
                "gem_deck": len(state["gem_deck"]),
                "gem_discard": len(state["gem_discard"]),
                "scores": list(state["scores"]),
                "track": {"base": state["track_base"], "cards": TRACK_CARDS, "steps": TRACK_STEPS},
                "hand_sizes": [len(hand) for hand in state["hands"]],
                "finished": state["finished"],
                "viewer": viewer,
            }
        )
        if viewer is not None:
            view["hand"] = self.viewed_hand(state, viewer)
            view["followers_home"] = list(state["followers_home"][viewer])
        return view

    def viewed_hand(self, state: State, seat: int) -> list[str]:
        return sorted(state["hands"][seat], key=_hand_order)

    def outcome(self, state: State) -> Outcome | None:
        if state["finished"] is None:
            return None
        return Outcome(
            scores=list(state["scores"]),
            winners=list(state["finished"]["winners"]),
            details={"reason": state["finished"]["reason"]},
        )

    def secrets(self, state: State) -> list[Secret]:
        """A hand's cards, the faces played in front of a player and the followers kept at home are that player's;
        the decks and the gem discard pile nobody sees. Whether a card is a gem or a follower is public."""
        followers = [follower_card(n) for n in FOLLOWER_NUMBERS]

        def faces(card: str) -> list[str]:
            return followers if is_follower(card) else ALL_GEMS

        out = [Secret(None, ("rng",), (1, 2, 3))]
        for seat, hand in enumerate(state["hands"]):
            out += [Secret(seat, ("hands", seat, i), faces(card)) for i, card in enumerate(hand)]
        for seat, home in enumerate(state["followers_home"]):
            out += [Secret(seat, ("followers_home", seat, i), FOLLOWER_NUMBERS) for i in range(len(home))]
        for p, place in enumerate(state["places"]):
            out += [
                Secret(c["seat"], ("places", p, "cards", i, "card"), faces(c["card"]))
                for i, c in enumerate(place["cards"])
            ]
        for pile in ("gem_deck", "gem_discard"):
            out += [Secret(None, (pile, i), ALL_GEMS) for i in range(len(state[pile]))]
        out += [Secret(None, ("place_deck", i), GEM_KINDS) for i in range(len(state["place_deck"]))]
        return out

    def reseeded(self, state: State, seed: int) -> State:
        """A fresh source of chance, and the two decks (whose order nobody has seen) shuffled with it: a gem drawn
        and taken back is not the next one drawn again."""
        rng = Rng.from_seed(seed)
        return {
            **state,
            "gem_deck": rng.shuffled(state["gem_deck"]),
            "place_deck": rng.shuffled(state["place_deck"]),
            "rng": rng.next_u64(),
        }

    def shuffle_hidden(self, state: State, seat: int, seed: int) -> State:
        """Re-deal the faces `seat` cannot see: others' gems (hands, face-down plays), the decks, the discard pile,
        and which of their own followers each other player holds, keeps at home or has played. A gem another
        player put on a place is dealt of the place's kind as often as players put matching gems there
        (MATCHING_GEM_PERCENT), not one time in six as a uniform deal would: the search samples likely worlds."""
        out = clone(state)
        rng = Rng.from_seed(seed)
        # (container, index, the place's kind for a table entry else None); table entries first, so a gem played
        # to a place can be drawn of the place's kind before the hands take them all.
        gem_slots: list[tuple[list[Any], int, str | None]] = [
            (place["cards"], i, place["kind"])
            for place in out["places"]
            for i, c in enumerate(place["cards"])
            if c["seat"] != seat and not is_follower(c["card"])
        ]
        for other in range(out["players"]):
            if other != seat:
                hand = out["hands"][other]
                gem_slots += [(hand, i, None) for i, card in enumerate(hand) if not is_follower(card)]
        gems = [c[i] if kind is None else c[i]["card"] for c, i, kind in gem_slots]
        gems += out["gem_deck"] + out["gem_discard"]
        rng.shuffle(gems)
        for container, i, kind in gem_slots:
            pick = 0
            if kind is not None and rng.below(100) < MATCHING_GEM_PERCENT:
                pick = next((j for j, card in enumerate(gems) if gem_kind(card) == kind), 0)
            if kind is None:
                container[i] = gems.pop(pick)
            else:
                container[i]["card"] = gems.pop(pick)
        out["gem_deck"], out["gem_discard"] = gems[: len(out["gem_deck"])], gems[len(out["gem_deck"]) :]
        for other in range(out["players"]):
            if other == seat:
                continue
            hand = out["hands"][other]
            hand_slots = [i for i, card in enumerate(hand) if is_follower(card)]
            table_slots = [
                (place, i)
                for place in out["places"]
                for i, c in enumerate(place["cards"])
                if c["seat"] == other and is_follower(c["card"])
            ]
            numbers = (
                [card_number(hand[i]) for i in hand_slots]
                + [card_number(place["cards"][i]["card"]) for place, i in table_slots]
                + out["followers_home"][other]
            )
            rng.shuffle(numbers)
            for i in hand_slots:
                hand[i] = follower_card(numbers.pop())
            for place, i in table_slots:
                place["cards"][i]["card"] = follower_card(numbers.pop())
            out["followers_home"][other] = sorted(numbers)
        out["place_deck"] = rng.shuffled(out["place_deck"])
        out["rng"] = rng.next_u64()
        return out


@cache  # a hand is sorted at every look-ahead step of the picker
def _hand_order(card: str) -> tuple[int, str, int]:
    if is_follower(card):
        return (1, "", card_number(card))
    return (0, gem_kind(card), card_number(card))
