"""The built-in Druids player: it reasons only from what its own seat can see (its view), never the full state."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from engines.base import Action, View
from engines.druids.rules import MATCHING_GEM_PERCENT, card_number, distribute, gem_kind, is_follower
from engines.rng import Rng

UNKNOWN_FOLLOWER = 3.5  # the average number of a face-down follower
MATCH_CHANCE = MATCHING_GEM_PERCENT / 100  # how often a face-down gem on a place is of its kind
AVERAGE_GEM = 5


def _place_outlook(
    view: View, place: int, seat: int, extra_follower: int | None = None, extra_gem: int = 0
) -> tuple[float, float]:
    """(my expected amulets, the best other seat's) if the place were scored now, with an optional extra card."""
    entry = view["places"][place]
    kind = entry["kind"]
    mine = entry["mine"]
    known = sum(card_number(c) for c in mine if not is_follower(c) and gem_kind(c) == kind) + extra_gem
    unknown_gems = entry["gems"] - sum(1 for c in mine if not is_follower(c))
    pot = round(known + unknown_gems * MATCH_CHANCE * AVERAGE_GEM)
    my_followers = iter(sorted(card_number(c) for c in mine if is_follower(c)))
    order: list[tuple[float, int]] = []
    for owner in entry["followers"]:  # in play order; numbers of others are unknown
        order.append((next(my_followers, UNKNOWN_FOLLOWER) if owner == seat else UNKNOWN_FOLLOWER, owner))
    if extra_follower is not None:
        order.append((extra_follower, seat))
    ranked = sorted(order, key=lambda pair: pair[0])  # stable: ties keep play order
    shares = distribute(pot, [max(1, round(number)) for number, _ in ranked])
    totals: dict[int, float] = {}
    for (_, owner), share in zip(ranked, shares, strict=True):
        totals[owner] = totals.get(owner, 0) + share
    mine_total = totals.pop(seat, 0)
    return mine_total, max(totals.values(), default=0)


SCORE_SCALE = 8.0  # a lead this many steps on the track is judged about three wins in four


def ranked(view: View, actions: list[Action], rng: Rng) -> list[Action]:
    """The legal actions, best first; the seed breaks ties."""
    seat = view["viewer"]
    # Many actions ask about the same place (every follower in hand weighs it without one first): once each.
    outlook = cache(lambda place, follower=None, gem=0: _place_outlook(view, place, seat, follower, gem))
    scored = [(_value(view, seat, action, outlook), rng.below(1000), action) for action in actions]
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [action for _, _, action in scored]


def choose(view: View, actions: list[Action], rng: Rng) -> Action:
    return ranked(view, actions, rng)[0]


def evaluate(view: View) -> float:
    """Where the viewer stands: its score against the best other's, with the open places as if scored now."""
    seat = view["viewer"]
    scores = list(view["scores"])
    mine = scores.pop(seat)
    # Amulets not yet scored count at half: each open place as if it were scored now.
    pending = 0.0
    for place, entry in enumerate(view["places"]):
        if entry["kind"] and (entry["gems"] or entry["followers"]):
            my_share, best_other = _place_outlook(view, place, seat)
            pending += my_share - best_other
    return (mine - max(scores, default=0) + 0.5 * pending) / SCORE_SCALE


def _value(view: View, seat: int, action: Action, outlook: Callable[..., tuple[float, float]]) -> float:
    kind = action["type"]
    if kind == "request_scoring":
        mine, best_other = outlook(action["place"])
        return mine - best_other - 0.5
    if kind == "play_card":
        card, place = action["card"], action["place"]
        entry = view["places"][place]
        if is_follower(card):
            mine_before, _ = outlook(place)
            mine_after, other = outlook(place, card_number(card))
            return (
                (mine_after - mine_before) * 0.8
                - card_number(card) * 0.15
                - max(0.0, other - mine_after) * 0.1
            )
        value = card_number(card)
        if gem_kind(card) != entry["kind"]:
            return -0.5 + (0.3 if seat not in entry["followers"] and entry["followers"] else 0)  # a decoy
        mine, other = outlook(place, None, value)
        pot = max(1.0, mine + other)
        return (
            value * (mine / pot) * 1.2 - value * (other / pot) * 0.6 + (0.4 if not entry["followers"] else 0)
        )
    if kind == "discard_gem":
        open_kinds = {p["kind"] for p in view["places"] if p["kind"]}
        return 0.5 if gem_kind(action["card"]) not in open_kinds else -card_number(action["card"]) / 10
    if kind == "skip_discard":
        return 0.0
    if kind == "take_follower":
        followers_in_hand = sum(1 for c in view["hand"] if is_follower(c))
        return (1.0 if followers_in_hand < 2 else -1.0) - action["number"] * 0.05
    if kind == "draw_gem":
        return 0.5
    return 0.0
