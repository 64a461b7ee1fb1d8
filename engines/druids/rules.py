"""Druids components and card helpers shared by the engine and its built-in player."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

COMPONENTS: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("data/components.json").read_text()
)
GEM_KINDS: list[str] = [kind["id"] for kind in COMPONENTS["gem_kinds"]]
GEM_VALUES: list[int] = COMPONENTS["gem_values"]
FOLLOWER_NUMBERS: list[int] = COMPONENTS["follower_numbers"]
HAND_SIZE: int = COMPONENTS["hand_size"]
TRACK_CARDS: int = COMPONENTS["score_cards"]
TRACK_STEPS: int = COMPONENTS["steps_per_score_card"]
TRACK_LENGTH = TRACK_CARDS * TRACK_STEPS
PLACE_CARDS = len(GEM_KINDS) * COMPONENTS["places_per_kind"]
PLAYS_PER_TURN = 2
MIN_CARDS_TO_SCORE = 3
# How often a face-down gem someone put on a place is of the place's kind, as the built-in players judge it: players
# put matching gems there far more often than a uniform deal would (the built-in players' gems on places match 88–90 %
# of the time; a uniform deal, about one in six).
MATCHING_GEM_PERCENT = 85


def gem_card(kind: str, value: int) -> str:
    return f"{kind}-{value}"


def follower_card(number: int) -> str:
    return f"f-{number}"


# Cards are a few dozen strings, read apart millions of times in a hard player's look-ahead: each once (bounded,
# whatever strings come along).
@lru_cache(maxsize=1024)
def is_follower(card: str) -> bool:
    return card.startswith("f-")


@lru_cache(maxsize=1024)
def card_number(card: str) -> int:
    """A follower's number or a gem's value."""
    return int(card.rsplit("-", 1)[1])


@lru_cache(maxsize=1024)
def gem_kind(card: str) -> str:
    return card.rsplit("-", 1)[0]


def distribute(amulets: int, numbers: list[int]) -> list[int]:
    """Amulets per follower, followers in distribution order: each takes its number while amulets last, and the
    last follower takes whatever is left, more or less than its number."""
    shares = []
    left = amulets
    for position, number in enumerate(numbers):
        share = left if position == len(numbers) - 1 else min(number, left)
        shares.append(share)
        left -= share
    return shares
