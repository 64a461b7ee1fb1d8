"""Boards and logs tell a run of like happenings in one line (`condensed`): fewer lines, the same facts.

Roll for the Galaxy's runs are checked in its presenter's tests; these cover Druids' refill, Roll Player's
initiative roll and Talisman's turns."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bot import i18n
from bot.games import presenter
from engines.base import visible_to

NAMES = ["Ana", "Bo", "Cy", "Di"]
LEFTOVER = re.compile(r"[{}]")


def _public_events(name: str, players: int, seed: int) -> tuple[list[dict], dict]:
    """A seeded game of built-in players: its public happenings, and the public view at its end."""
    engine = presenter(name).engine
    state = engine.new_game(players, engine.validate_options({}), seed)
    public: list[dict] = []
    for move in range(3000):
        if engine.outcome(state) is not None:
            break
        seat = engine.to_act(state)[0]
        state, events = engine.apply(state, seat, engine.bot_action(state, seat, move))
        public += [e for e in events if visible_to(e, None)]
    return public, engine.view(state, None)


def _facts(name: str, events: list[dict]) -> Counter:
    """What the folded happenings say, per seat: gems drawn and followers taken (Druids), the die on each
    initiative card (Roll Player), each move, card met and turn missed (Talisman)."""
    facts: Counter = Counter()
    for e in events:
        kind, seat = e["type"], e.get("seat")
        if name == "druids":
            facts["gem", seat] += e.get("gems", kind == "GemDrawn")
            facts["follower", seat] += e.get("followers", kind == "FollowerTaken")
        if name == "roll_player":
            if kind == "DieSorted":
                facts[e["card"], e["colour"], e["value"]] += 1
            if kind in ("InitiativeSorted", "DiceSorted"):
                cards = range(e["first"], e["last"] + 1)
                facts.update(
                    (card, colour, value) for card, (colour, value) in zip(cards, e["sorted"], strict=True)
                )
        if name == "talisman":
            facts.update(repr(sorted(part.items())) for part in _talisman_parts(e))
    return facts


def _talisman_parts(event: dict) -> list[dict]:
    """The engine's events a Talisman line was folded from (written apart from the presenter, as its inverse)."""
    kind = event["type"]
    if kind == "TurnOf":
        start = {"type": "TurnStarted", "seat": event["seat"], "turn": event["turn"]}
        return [start, *_talisman_parts(event["then"])]
    if kind == "Fight":
        return [p for part in event["parts"] for p in _talisman_parts(part)]
    if kind == "RolledToMove":
        roll = {"type": "DiceRolled", "seat": event["seat"], "dice": event["dice"], "reason": "move"}
        return [roll, {k: v for k, v in event.items() if k != "dice"} | {"type": "Moved"}]
    if kind == "CardMet":
        met = {
            "type": "CardEncountered",
            "seat": event["seat"],
            "cards": [event["card"]],
            "space": event["space"],
        }
        return [event | {"type": "CardDrawn"}, met]
    return [event]


def test_talisman_lines_unfold_into_exactly_the_engines_events():
    for players, seed in ((2, 8), (4, 9)):
        public, _ = _public_events("talisman", players, seed)
        told = presenter("talisman").condensed(public)
        assert [part for e in told for part in _talisman_parts(e)] == public
        assert len(told) < 0.75 * len(public)


@pytest.mark.parametrize(
    "name,players,seed,fewer",
    [("druids", 2, 3, 0.82), ("druids", 4, 4, 0.82), ("roll_player", 3, 5, 0.9), ("talisman", 3, 6, 0.7)],
)
def test_folded_lines_keep_every_fact_in_fewer_lines(name, players, seed, fewer):
    game = presenter(name)
    public, view = _public_events(name, players, seed)
    told = game.condensed(public)
    assert _facts(name, told) == _facts(name, public) and sum(_facts(name, public).values()) > 30

    def lines(events):
        return [text for e in events if (text := game.event_text(e, NAMES[:players], view, "en"))]

    assert len(lines(told)) < fewer * len(lines(public)), (len(lines(told)), len(lines(public)))
    for event in told:
        if event not in public:
            for locale in i18n.LOCALES:
                text = game.event_text(event, NAMES[:players], view, locale)
                assert text and not LEFTOVER.search(text), (event, locale, text)


def test_druids_refill_is_one_line():
    game = presenter("druids")
    events = [
        {"type": "FollowerTaken", "seat": 1},
        {"type": "GemDrawn", "seat": 1},
        {"type": "FollowerTaken", "seat": 1},
        {"type": "GemDrawn", "seat": 0},
        {"type": "GemDrawn", "seat": 0},
        {"type": "FollowerTaken", "seat": 2},
        {"type": "FollowerTaken", "seat": 2},
        {"type": "GemDrawn", "seat": 3},
    ]
    told = [game.event_text(e, NAMES, {}, locale) for locale in ("en", "ko") for e in game.condensed(events)]
    assert told == [
        "Bo takes 2 followers and draws a gem.",
        "Ana draws 2 gems.",
        "Cy takes 2 followers.",
        "Di draws a gem.",
        "Bo님이 추종자 2장을 가져오고 보석 카드 1장을 뽑습니다.",
        "Ana님이 보석 카드 2장을 뽑습니다.",
        "Cy님이 추종자 2장을 가져옵니다.",
        "Di님이 보석 카드를 뽑습니다.",
    ]


def test_roll_player_initiative_roll_names_the_die_on_each_card():
    game = presenter("roll_player")
    dice = [["white", 1], ["gold", 3], ["blue", 6]]
    events = [
        {"type": "InitiativeRolled", "seat": 2, "dice": dice},
        *({"type": "DieSorted", "card": n, "colour": c, "value": v} for n, (c, v) in enumerate(dice, 1)),
    ]
    told = [game.event_text(e, NAMES, {}, "en") for e in game.condensed(events)]
    assert told == ["Cy rolls the initiative dice; on initiative cards 1–3: White 1, Gold 3, Blue 6."]
    # Dice sorted again after a tie is settled, or after a reroll (cards 1, 3 and 4: a gap is told apart).
    again = [{"type": "DieSorted", "card": n, "colour": "red", "value": n} for n in (1, 3, 4)]
    told = [game.event_text(e, NAMES, {}, "en") for e in game.condensed(again)]
    assert told == ["Red 1 goes on initiative card 1.", "On initiative cards 3–4: Red 3, Red 4."]


def test_talisman_turns_are_told_in_fewer_lines():
    game = presenter("talisman")
    events = [
        {"type": "TurnStarted", "seat": 0, "turn": 7},
        {"type": "TurnMissed", "seat": 0},
        {"type": "TurnStarted", "seat": 1, "turn": 8},
        {"type": "DiceRolled", "seat": 1, "dice": [4], "reason": "move"},
        {"type": "Moved", "seat": 1, "from": 1, "to": 5, "how": "move"},
        {"type": "CardDrawn", "seat": 1, "card": "mercenary", "space": 5},
        {"type": "CardEncountered", "seat": 1, "cards": ["mercenary"], "space": 5},
        {"type": "DiceRolled", "seat": 1, "dice": [3], "reason": "battle"},
        {"type": "Moved", "seat": 1, "from": 5, "to": 6, "how": "teleport"},
    ]
    told = [game.event_text(e, NAMES, {}, "en") for e in game.condensed(events)]
    assert told == [
        "Turn 7: Ana misses this turn.",
        "Turn 8: Bo rolls 4 and moves from Fields (2) to Hills (6).",
        "Bo draws and encounters Mercenary at Hills (6).",
        "Bo rolls 3 for battle.",  # a roll with no foe rolling after it, and a move by magic, are told apart
        "Bo is moved from Hills (6) to Chapel (7).",
    ]


def test_talisman_battle_is_one_line_up_to_who_won():
    game = presenter("talisman")
    events = [
        {"type": "DiceRolled", "seat": 0, "dice": [2], "reason": "battle"},
        {"type": "FoeRolled", "seat": 0, "foe": "wolf", "die": 5},
        {"type": "FateSpent", "seat": 0, "dice": [6], "reason": "battle"},
        {"type": "BattleResolved", "seat": 0, "foe": "wolf", "score": 10, "foe_score": 9, "psychic": False},
        {"type": "FoeDefeated", "seat": 0, "foe": "wolf"},
        {"type": "FoeDefeated", "seat": 0, "foe": "wolf"},
    ]
    told = [game.event_text(e, NAMES, {}, "en") for e in game.condensed(events)]
    assert told == [
        "Ana rolls 2 for battle. The Wolf rolls 5. Ana spends a Fate point to reroll for battle: 6. Battle: Ana 10, Wolf 9. "
        "Ana defeats the Wolf.",
        "Ana defeats the Wolf.",  # the line ends with who won
    ]


def test_roll_player_starting_dice_placed_are_one_line_per_player():
    """A review's board showed a built-in player's starting dice as nine lines, one a die: a player's run of
    placements is one line, by row, with every die and the gold they paid."""
    game = presenter("roll_player")
    public, view = _public_events("roll_player", 3, 5)
    placed = [e for e in public if e["type"] == "StartDiePlaced"]
    told = [e for e in game.condensed(public) if e["type"] in ("StartDiePlaced", "StartDicePlaced")]
    assert len(told) == 3 and all(e["type"] == "StartDicePlaced" for e in told)
    for event in told:
        mine = [e for e in placed if e["seat"] == event["seat"]]
        assert sorted(map(tuple, event["placed"])) == sorted(
            (e["row"], e["colour"], e["value"]) for e in mine
        )
        assert event["gold"] == sum(e["gold"] or 0 for e in mine)
        text = game.event_text(event, NAMES[:3], view, "en")
        assert text.startswith(f"{NAMES[event['seat']]} places starting dice: ") and len(mine) >= 5
        assert text.count(",") + text.count("·") == len(mine) - 1  # every die, once
