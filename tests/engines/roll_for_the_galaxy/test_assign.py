"""Rolling and assigning behind screens: wild faces, the chosen phase, Dictate and every Reassign power,
revising, and the reveal (with the 2-player extra die)."""

from __future__ import annotations

import pytest

from engines.base import IllegalAction
from engines.roll_for_the_galaxy import ENGINE

from .helpers import act, blank, legal, own, roll


def _assigning(dice, *powers, players=2):
    state = blank(players)
    own(state, 0, *powers)
    roll(state, 0, dice)
    return state


def _choose(state, color, at, phase):
    state, _ = act(state, 0, {"type": "choose_phase", "color": color, "from": at, "phase": phase})
    return state


def test_dice_go_to_their_faces_and_wild_dice_wait_for_a_phase():
    state = _assigning([("white", "explore"), ("red", "wild")])
    dice = state["seats"][0]["dice"]
    assert [d["at"] for d in dice] == ["explore", None]
    assert {"type": "ready"} not in legal(state, 0)
    state, _ = act(state, 0, {"type": "assign_die", "color": "red", "phase": "ship"})
    assert state["seats"][0]["dice"][1]["at"] == "ship"


def test_a_phase_must_be_chosen_before_reassigning_or_getting_ready():
    state = _assigning([("white", "explore"), ("white", "develop")], "galactic_influence")
    kinds = {a["type"] for a in legal(state, 0)}
    assert "reassign" not in kinds and "dictate" not in kinds and "ready" not in kinds
    with pytest.raises(IllegalAction) as refused:
        act(
            state,
            0,
            {
                "type": "reassign",
                "power": "galactic_influence",
                "color": "white",
                "from": "explore",
                "to": "ship",
            },
        )
    assert refused.value.code == "choose_phase_first"
    state = _choose(state, "white", "explore", "produce")
    assert state["seats"][0]["dice"][0]["at"] == "produce" and state["seats"][0]["sel"] == 0
    assert {"type": "ready"} in legal(state, 0)


def test_the_phase_selector_cannot_be_reassigned_and_dictate_moves_one_other_worker():
    state = _assigning([("white", "explore"), ("white", "develop"), ("white", "settle")])
    state = _choose(state, "white", "explore", "explore")
    state, _ = act(state, 0, {"type": "dictate", "color": "white", "from": "develop"})
    moves = [a for a in legal(state, 0) if a["type"] == "reassign"]
    assert moves and all(a["power"] == "dictate" and a["from"] == "settle" for a in moves)
    state, _ = act(
        state, 0, {"type": "reassign", "power": "dictate", "color": "white", "from": "settle", "to": "ship"}
    )
    assert not [a for a in legal(state, 0) if a["type"] in ("reassign", "dictate")], "Dictate once per round"
    state, events = act(state, 0, {"type": "ready"})
    revealed = state["seats"][0]["revealed"]
    assert revealed["chosen"] == "explore" and revealed["dictate"] == ["white"]
    assert revealed["rows"]["ship"] == ["white"]


def test_backup_planning_dictates_more_than_once_and_galactic_mandate_moves_three():
    state = _assigning([("white", "explore")] * 6, "backup_planning", "galactic_mandate")
    state = _choose(state, "white", "explore", "explore")
    state, _ = act(state, 0, {"type": "dictate", "color": "white", "from": "explore"})
    for to in ("develop", "settle", "ship"):
        state, _ = act(
            state, 0, {"type": "reassign", "power": "dictate", "color": "white", "from": "explore", "to": to}
        )
    assert not any(a.get("power") == "dictate" for a in legal(state, 0))
    assert {"type": "dictate", "color": "white", "from": "develop"} in legal(state, 0)


def _reassign(power, color, at, to, color2=None):
    action = {"type": "reassign", "power": power, "color": color, "from": at, "to": to}
    if color2:
        action["color2"] = color2
    return action


DICE = [
    ("white", "produce"),
    ("white", "explore"),
    ("white", "explore"),
    ("red", "develop"),
    ("brown", "develop"),
    ("blue", "ship"),
    ("green", "settle"),
]
# power, (legal moves in order), a move that is then (or from the start) not allowed
REASSIGN_CASES = [
    ("colonial_affinity", [("red", "develop", "settle")], ("white", "explore", "settle")),
    ("colonial_affinity", [], ("red", "develop", "ship")),
    ("diversification", [("white", "explore", "ship")], ("white", "explore", "develop")),
    ("diversification", [], ("red", "develop", "ship")),
    ("galactic_influence", [("green", "settle", "ship")], ("red", "develop", "ship")),
    ("homeworld_patriotism", [("white", "explore", "ship"), ("white", "explore", "ship")], None),
    ("homeworld_patriotism", [("white", "explore", "ship")], ("white", "explore", "develop")),
    ("homeworld_patriotism", [], ("red", "develop", "ship")),
    ("hydroponics_guild", [("blue", "ship", "develop")], ("green", "settle", "develop")),
    ("hydroponics_guild", [("green", "settle", "develop")], None),
    ("hydroponics_guild", [], ("red", "develop", "ship")),
    ("isolation_policy", [("white", "explore", "ship"), ("white", "explore", "develop")], None),
    ("isolation_policy", [], ("red", "develop", "ship")),
    ("local_subsidies", [("white", "explore", "settle")], ("white", "explore", "settle")),
    ("local_subsidies", [], ("blue", "ship", "settle")),
    (
        "nanotechnology",
        [("red", "develop", "ship"), ("green", "settle", "explore")],
        ("blue", "ship", "settle"),
    ),
    ("operation_affinity", [("red", "develop", "explore")], ("blue", "ship", "produce")),
    ("operation_affinity", [("blue", "ship", "produce")], None),
    ("operation_affinity", [], ("red", "develop", "ship")),
    (
        "propaganda_campaign",
        [("red", "develop", "ship"), ("green", "settle", "ship")],
        ("blue", "ship", "settle"),
    ),
    ("propaganda_campaign", [("red", "develop", "ship")], ("green", "settle", "explore")),
    ("shipping_affinity", [("red", "develop", "ship")], ("green", "settle", "ship")),
    ("shipping_affinity", [], ("red", "develop", "settle")),
    ("space_mercenaries", [("brown", "develop", "ship")], ("red", "develop", "ship")),
    ("space_mercenaries", [("red", "develop", "ship")], None),
    ("space_mercenaries", [], ("white", "explore", "ship")),
    (
        "system_diversification",
        [("red", "develop", "ship"), ("blue", "ship", "explore")],
        ("green", "settle", "ship"),
    ),
    ("system_diversification", [], ("white", "explore", "ship")),
    ("technology_affinity", [("green", "settle", "develop")], ("blue", "ship", "develop")),
    ("technology_affinity", [], ("green", "settle", "ship")),
]


@pytest.mark.parametrize(("power", "moves", "refused"), REASSIGN_CASES)
def test_reassign_powers(power, moves, refused):
    state = _assigning(DICE, power)
    state = _choose(state, "white", "produce", "produce")
    for color, at, to in moves:
        state, _ = act(state, 0, _reassign(power, color, at, to))
    if refused:
        assert _reassign(power, *refused) not in legal(state, 0)
        with pytest.raises(IllegalAction):
            act(state, 0, _reassign(power, *refused))


def test_executive_powers_moves_exactly_two_workers_of_one_row_to_one_phase():
    state = _assigning(DICE, "executive_powers")
    state = _choose(state, "white", "produce", "produce")
    options = [a for a in legal(state, 0) if a.get("power") == "executive_powers"]
    assert options and all("color2" in a for a in options)
    assert _reassign("executive_powers", "red", "develop", "ship", "brown") in options
    assert _reassign("executive_powers", "white", "explore", "ship", "white") in options
    assert not any(a["from"] == "ship" for a in options), "a row with one worker cannot give two"
    state, _ = act(state, 0, _reassign("executive_powers", "red", "develop", "ship", "brown"))
    rows = sorted(d["c"] for d in state["seats"][0]["dice"] if d["at"] == "ship")
    assert rows == ["blue", "brown", "red"]
    assert not any(a.get("power") == "executive_powers" for a in legal(state, 0))


@pytest.mark.parametrize(("mine", "theirs", "moves"), [(2, 1, 2), (1, 1, 1), (0, 0, 1), (0, 1, 0)])
def test_mad_scientists_depends_on_having_the_most_novelty_worlds(mine, theirs, moves):
    state = _assigning(DICE, "mad_scientists")
    own(state, 0, *["information_hub", "galactic_resort"][:mine])
    own(state, 1, *["prosperous_world"][:theirs])
    state = _choose(state, "white", "produce", "produce")
    made = 0
    for color, at in (("red", "develop"), ("green", "settle"), ("blue", "ship")):
        move = _reassign("mad_scientists", color, at, "explore")
        if move not in legal(state, 0):
            break
        state, _ = act(state, 0, move)
        made += 1
    assert made == moves


def test_reset_undoes_the_assignment_and_unready_reopens_it_until_the_last_seat_is_ready():
    state = blank()
    own(state, 0, "galactic_influence")
    roll(state, 0, [("white", "explore"), ("white", "develop")])
    state["seats"][1]["ready"] = False
    state["seats"][1]["dice"] = [{"c": "white", "f": "ship", "at": "ship"}]
    state = _choose(state, "white", "explore", "settle")
    state, _ = act(state, 0, _reassign("galactic_influence", "white", "develop", "ship"))
    state, _ = act(state, 0, {"type": "reset_assignment"})
    assert [d["at"] for d in state["seats"][0]["dice"]] == ["explore", "develop"]
    assert state["seats"][0]["sel"] is None and state["seats"][0]["used"] == {}
    state, _ = act(state, 0, {"type": "auto_assign"})
    assert ENGINE.to_act(state) == [1]
    assert ENGINE.side_actions(state, 0) == [{"type": "unready"}]
    state, events = ENGINE.apply(state, 0, {"type": "unready"})
    assert events == [{"type": "PlayerUnready", "seat": 0}] and ENGINE.to_act(state) == [0, 1]
    state, _ = act(state, 0, {"type": "ready"})
    state, events = act(state, 1, {"type": "auto_assign"})
    assert any(e["type"] == "AssignmentsRevealed" for e in events)
    assert ENGINE.side_actions(state, 0) == []


def test_assignments_stay_hidden_until_the_reveal():
    state = blank()
    roll(state, 0, [("white", "explore"), ("red", "wild")])
    state["seats"][1]["ready"] = False
    state["seats"][1]["dice"] = [{"c": "white", "f": "ship", "at": "ship"}]
    state = _choose(state, "white", "explore", "develop")
    for viewer in (None, 1):
        seat_view = ENGINE.view(state, viewer)["seats"][0]
        assert "dice" not in seat_view and seat_view["revealed"] is None and seat_view["rows"] is None
        assert seat_view["rolled"] == ["white", "red"] and seat_view["ready"] is False
        assert "develop" not in str(ENGINE.view(state, viewer)["seats"][0])
    assert ENGINE.view(state, 0)["seats"][0]["dice"][0]["at"] == "develop"
    state, events = act(state, 0, {"type": "assign_die", "color": "red", "phase": "ship"})
    assert all(e.get("private") == [0] for e in events if e["type"] == "AssignmentChanged")


def test_two_player_extra_die_adds_its_phase():
    seen = set()
    for seed in range(12):
        state = blank(seed=seed)
        roll(state, 0, [("white", "explore")])
        state = _choose(state, "white", "explore", "explore")
        state["seats"][0]["ready"] = False
        state, events = act(state, 0, {"type": "ready"})
        reveal = next(e for e in events if e["type"] == "AssignmentsRevealed")
        assert reveal["extra_die"] in ("explore", "develop", "settle", "produce", "ship")
        assert set(reveal["phases"]) == {"explore", reveal["extra_die"]}
        seen.add(reveal["extra_die"])
    assert len(seen) > 1


def test_three_players_roll_no_extra_die():
    state = blank(players=3)
    roll(state, 0, [("white", "produce")])
    state = _choose(state, "white", "produce", "produce")
    state, events = act(state, 0, {"type": "ready"})
    reveal = next(e for e in events if e["type"] == "AssignmentsRevealed")
    assert reveal["extra_die"] is None and reveal["phases"] == ["produce"]


def test_workers_of_phases_nobody_chose_and_dictating_dice_go_back_to_the_cup():
    state = _assigning([("white", "explore"), ("white", "develop"), ("white", "settle")], players=3)
    state = _choose(state, "white", "explore", "explore")
    state, _ = act(state, 0, {"type": "dictate", "color": "white", "from": "settle"})
    state, events = act(state, 0, {"type": "ready"})
    p = state["seats"][0]
    assert state["phases"] == ["explore"]
    assert sorted(p["cup"]) == ["white", "white"]
