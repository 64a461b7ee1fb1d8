"""Roll for the Galaxy for 2-5 players: every step of a round is simultaneous.

Flow of a round (state["stage"]): "assign" (each seat rolls behind its screen, then builds its assignment in
small steps and says "ready"; the last ready seat triggers the reveal) -> the selected phases in order
("explore", "develop", "settle", "produce", "ship"), each seat working through its own workers -> "manage"
(recruit, reclaim) -> the next round or "over". A game without the first-game option starts with a "setup"
stage in which every seat decides which of its two starting tiles is the development.

Dice are colour strings; where they are (cup, Citizenry, phase rows, construction zones, goods on worlds) is
their state. During assignment each rolled die is {"c": colour, "f": face, "at": phase | None | "dictate"}.
"""

from __future__ import annotations

from typing import Any

from engines.base import Action, Engine, Event, IllegalAction, Option, Outcome, Secret, State, View, clone
from engines.rng import Rng
from engines.roll_for_the_galaxy import autoplayer
from engines.roll_for_the_galaxy import data as D
from engines.roll_for_the_galaxy import rules as R
from engines.roll_for_the_galaxy.scoring import score

PHASES = D.PHASES
WILD = R.WILD
POSITIONS_BOTTOM = ("bottom",)
POSITIONS_ANY = ("bottom", "top")
STACKS = {"development": ("dev_stack", "dev_workers"), "world": ("world_stack", "world_workers")}
DICE_FILTERS = {
    "any": lambda c: True,
    "white": lambda c: c == "white",
    "non_white": lambda c: c != "white",
    "blue_or_green": lambda c: c in ("blue", "green"),
    "red_or_brown": lambda c: c in ("red", "brown"),
}


class RollForTheGalaxy(Engine):
    name = "roll_for_the_galaxy"
    min_players = 2
    max_players = 5
    autoplayer = autoplayer
    search_budget = 3000  # per 2-player decision: ~0.7 s on one core (4 players: 1500, ~0.5 s, p99 ~1.9 s)
    options = (Option("first_game", False),)

    # --- set-up ---------------------------------------------------------------------------------------------

    def new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        self.check_players(players)
        rng = Rng.from_seed(seed)
        factions = rng.shuffled(D.FACTION_IDS)[:players]
        homes = rng.shuffled(D.HOME_IDS)[:players]
        state: State = {
            "players": players,
            "rng": rng.state,
            "options": dict(options),
            "round": 0,
            "stage": "setup",
            "bag": list(D.TILE_IDS),
            "discards": [],
            "supply": dict(D.DIE_COUNTS),
            "vp_pool": D.RULES["vp_per_player"] * players,
            "phases": [],
            "extra_die": None,
            "shortage": None,
            "explore_extra": False,
            "seats": [],
            "final": None,
        }
        for seat in range(players):
            p: R.Seat = {
                "faction": factions[seat],
                "home": homes[seat],
                "tableau": [{"id": s, "goods": []} for s in [*D.FACTION_SIDES[factions[seat]], homes[seat]]],
                "dev_stack": [],
                "world_stack": [],
                "dev_workers": [],
                "world_workers": [],
                "cup": [],
                "citizenry": [],
                "credits": D.RULES["start_credits"],
                "vp": 0,
                "start_tiles": [_draw_one(state) for _ in range(2)],
                "dice": [],
                "sel": None,
                "ready": False,
                "used": {},
                "dictates": 0,
                "dictate_left": 0,
                "rows": {ph: [] for ph in PHASES},
                "revealed": None,
                "task": None,
            }
            state["seats"].append(p)
            for color, count in D.RULES["start_cup"].items():
                p["cup"] += [color] * R.take_from_supply(state, color, count)
            for color, count in D.RULES["start_citizenry"].items():
                p["citizenry"] += [color] * R.take_from_supply(state, color, count)
            for entry in list(p["tableau"]):
                if D.side(entry["id"])["kind"] == "world":
                    for effect in D.side(entry["id"])["on_place"]:
                        _apply_simple_effect(state, seat, effect, entry["id"], [])
        if options.get("first_game"):
            for p in state["seats"]:
                # The cheaper development goes to the development zone (first-game set-up).
                a, b = p["start_tiles"]
                dev_cost = {t: D.side(D.TILE_SIDES[t]["development"])["cost"] for t in (a, b)}
                world_cost = {t: D.side(D.TILE_SIDES[t]["world"])["cost"] for t in (a, b)}
                first = min((a, b), key=lambda t: (dev_cost[t], world_cost[b if t == a else a]))
                _place_start_tiles(p, first)
            _start_round(state, [])
        return state

    # --- who acts and what they may do ----------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        stage = state["stage"]
        seats = range(state["players"])
        if stage == "over":
            return []
        if stage == "setup":
            return [s for s in seats if state["seats"][s]["start_tiles"]]
        if stage == "assign":
            return [s for s in seats if not state["seats"][s]["ready"]]
        if state["shortage"] is not None:
            return list(state["shortage"]["waiting"])
        return [s for s in seats if not state["seats"][s]["task"]["done"]]

    def notice_stretch(self, state: State) -> str | None:
        """A round's assignment is one stretch and its phases another: players are told once for each, not
        again at every phase."""
        if state["stage"] in ("setup", "over"):
            return None
        return f"{state['round']}:{'assign' if state['stage'] == 'assign' else 'phases'}"

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        stage = state["stage"]
        p = state["seats"][seat]
        if stage == "setup":
            return [{"type": "place_start_tiles", "development": t} for t in p["start_tiles"]]
        if stage == "assign":
            return _assign_actions(state, seat)
        if state["shortage"] is not None:
            return [{"type": "return_tile", "tile": t} for t in p["dev_stack"] + p["world_stack"]]
        if stage == "explore":
            return _explore_actions(state, seat)
        if stage in ("develop", "settle"):
            return [{"type": "remove_die", "where": w, "color": c} for w, c in _removal_options(state, seat)]
        if stage == "produce":
            return _produce_actions(state, seat)
        if stage == "ship":
            return _ship_actions(state, seat)
        return _manage_actions(state, seat)

    def side_actions(self, state: State, seat: int) -> list[Action]:
        """A seat that said "ready" may take it back until the last seat is ready."""
        if state["stage"] == "assign" and state["seats"][seat]["ready"] and state["seats"][seat]["dice"]:
            return [{"type": "unready"}]
        return []

    def pass_action(self, state: State, seat: int) -> Action | None:
        """Doing nothing more: not reclaiming in manage empire, not rearranging with Advanced Logistics."""
        return next(
            (a for a in self.legal_actions(state, seat) if a["type"] in ("end_manage", "finish_explore")),
            None,
        )

    def explain_illegal(self, state: State, seat: int, action: Action) -> IllegalAction:
        kind = action.get("type")
        stage = state["stage"]
        p = state["seats"][seat]
        known = {
            "setup": {"place_start_tiles"},
            "assign": {
                "assign_die",
                "choose_phase",
                "reassign",
                "dictate",
                "reset_assignment",
                "ready",
                "auto_assign",
            },
            "explore": {
                "stock",
                "scout",
                "discard_tile",
                "draw",
                "place_tile",
                "move_tile",
                "finish_explore",
                "auto_explore",
                "return_tile",
            },
            "develop": {"remove_die", "return_tile"},
            "settle": {"remove_die", "return_tile"},
            "produce": {"produce", "auto_produce"},
            "ship": {"trade", "consume", "auto_ship"},
            "manage": {"recruit", "reclaim", "end_manage", "auto_manage"},
        }
        everything = set().union(*known.values()) | {"unready"}
        if kind not in everything:
            return IllegalAction("unknown_action", action=str(kind))
        if kind not in known.get(stage, set()) and not (kind == "unready" and stage == "assign"):
            return IllegalAction("wrong_stage", action=kind, stage=stage)
        if stage == "assign":
            if kind == "unready":
                return IllegalAction("not_ready")
            if kind in ("reassign", "dictate") and p["sel"] is None:
                return IllegalAction("choose_phase_first")
            if kind == "choose_phase" and p["sel"] is not None:
                return IllegalAction("phase_already_chosen")
            if kind == "ready":
                if p["sel"] is None:
                    return IllegalAction("choose_phase_first")
                return IllegalAction("unassigned_dice")
            if kind == "reassign":
                power = action.get("power")
                if power == "dictate" and p["dictate_left"] <= 0:
                    return IllegalAction("dictate_first")
                if power != "dictate" and not R.owns(p, str(power)):
                    return IllegalAction("power_not_owned", power=power)
                if power != "dictate" and p["used"].get(power):
                    return IllegalAction("power_used", power=power)
                return IllegalAction("reassign_not_allowed", power=power)
            if kind == "dictate" and p["dictates"] and not R.has_power(p, "assign", "dictate_repeat"):
                return IllegalAction("dictate_used")
            return IllegalAction("no_such_die")
        if kind in ("discard_tile", "place_tile", "move_tile", "return_tile"):
            return IllegalAction("tile_not_available", tile=action.get("tile"))
        if kind == "end_manage" and not p["cup"]:
            return IllegalAction("cup_empty_reclaim_one")
        if kind in ("trade", "consume", "produce"):
            return IllegalAction("no_such_good_or_worker")
        return IllegalAction("illegal_action", action=kind)

    # --- carrying out actions -------------------------------------------------------------------------------

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        kind = action["type"]
        p = state["seats"][seat]
        if kind == "unready":  # a side action: the seat takes back its "ready" before the reveal
            p["ready"] = False
            return [{"type": "PlayerUnready", "seat": seat}]
        if kind == "place_start_tiles":
            _place_start_tiles(p, action["development"])
            events.append({"type": "StartTilesPlaced", "seat": seat, "development": action["development"]})
        elif state["stage"] == "assign":
            _apply_assign(state, seat, action, events)
        elif kind == "return_tile":
            _return_tile(state, seat, action["tile"], events)
        elif state["stage"] == "explore":
            _apply_explore(state, seat, action, events)
        elif kind == "remove_die":
            _remove_die(state, seat, action["where"], action["color"], events)
            p["task"]["pending"].pop(0)
            _build(state, seat, events)
        elif state["stage"] == "produce":
            _apply_produce(state, seat, action, events)
        elif state["stage"] == "ship":
            _apply_ship(state, seat, action, events)
        else:
            _apply_manage(state, seat, action, events)
        _progress(state, events)
        return events

    # --- what each viewer sees ------------------------------------------------------------------------------

    def settled(self, state: State) -> Any:
        # Tiles discarded while exploring go back into the bag sorted, and a citizenry is a pool of dice: the
        # order either was filled in is no rule's ("stock red → stock green" ends like the other way round).
        seats = [{**p, "citizenry": sorted(p["citizenry"])} for p in state["seats"]]
        return {**state, "discards": sorted(state["discards"]), "seats": seats}

    def view(self, state: State, viewer: int | None) -> View:
        return View(
            {
                "game": self.name,
                "players": state["players"],
                "viewer": viewer,
                "round": state["round"],
                "stage": state["stage"],
                "to_act": self.to_act(state),
                "first_game": bool(state["options"].get("first_game")),
                "vp_pool": state["vp_pool"],
                "bag_size": len(state["bag"]),
                "discard_count": len(state["discards"]),
                "my_discards": sorted(t for t, owner in state["discards"] if owner == viewer),
                "supply": dict(state["supply"]),
                "phases": list(state["phases"]),
                "extra_die": state["extra_die"],
                "shortage": clone(state["shortage"]),
                "seats": [_seat_view(state, s, viewer) for s in range(state["players"])],
                "final": clone(state["final"]),
            }
        )

    def outcome(self, state: State) -> Outcome | None:
        final = state["final"]
        if final is None:
            return None
        scores = [f["total"] for f in final]
        best = max(scores)
        leaders = [s for s, f in enumerate(final) if f["total"] == best]
        top_break = max(final[s]["tiebreak"] for s in leaders)
        winners = [s for s in leaders if final[s]["tiebreak"] == top_break]
        return Outcome(scores=scores, winners=winners, details={"breakdown": clone(final)})

    def secrets(self, state: State) -> list[Secret]:
        """A seat's own: the tiles under the top of its two stacks, the tiles it discarded and drew while
        scouting, and during assignment its dice's faces and where it put them. Nobody's: the bag."""
        out = [Secret(None, ("rng",), (1, 2, 3))]
        out += [Secret(None, ("bag", i), D.TILE_IDS) for i in range(len(state["bag"]))]
        out += [
            Secret(owner, ("discards", i, 0), D.TILE_IDS) for i, (_, owner) in enumerate(state["discards"])
        ]
        for seat, p in enumerate(state["seats"]):
            for key in ("dev_stack", "world_stack"):
                out += [Secret(seat, ("seats", seat, key, i), D.TILE_IDS) for i in range(1, len(p[key]))]
            scout = (p["task"] or {}).get("scout")
            if scout:
                out += [
                    Secret(seat, ("seats", seat, "task", "scout", "drawn", i), D.TILE_IDS)
                    for i in range(len(scout["drawn"]))
                ]
            if state["stage"] == "assign":
                for i, die in enumerate(p["dice"]):
                    out.append(Secret(seat, ("seats", seat, "dice", i, "f"), D.FACES[die["c"]]))
                    out.append(Secret(seat, ("seats", seat, "dice", i, "at"), [None, *PHASES]))
        return out

    def shuffle_hidden(self, state: State, seat: int, seed: int) -> State:
        """Re-deal the bag, other seats' hidden stack tiles, drawn and discarded tiles; re-roll other
        seats' hidden dice during assignment; and reseed the future."""
        out = clone(state)
        rng = Rng.from_seed(seed)
        slots: list[tuple[list[Any], int]] = []
        for i in range(len(out["bag"])):
            slots.append((out["bag"], i))
        for pair in out["discards"]:
            if pair[1] != seat:
                slots.append((pair, 0))
        for other, p in enumerate(out["seats"]):
            if other == seat:
                continue
            for key in ("dev_stack", "world_stack"):
                for i in range(1, len(p[key])):
                    slots.append((p[key], i))
            scout = (p["task"] or {}).get("scout")
            if scout:
                for i in range(len(scout["drawn"])):
                    slots.append((scout["drawn"], i))
        tiles = rng.shuffled([holder[i] for holder, i in slots])
        for (holder, i), tile in zip(slots, tiles, strict=True):
            holder[i] = tile
        out["bag"].sort()
        if out["stage"] == "assign":
            for other, p in enumerate(out["seats"]):
                if other != seat and p["dice"]:
                    sub = Rng(rng.next_u64())
                    for die in p["dice"]:
                        die["f"] = D.FACES[die["c"]][sub.below(6)]
                    ready = p["ready"]
                    _reset_assignment(p)
                    if ready:
                        _auto_assign(out, other)
                    p["ready"] = ready
        out["rng"] = rng.next_u64()
        return out


# --- set-up and rounds --------------------------------------------------------------------------------------


def _draw_one(state: State) -> str:
    return state["bag"].pop(R.rand_below(state, len(state["bag"])))


def _place_start_tiles(p: R.Seat, development_tile: str) -> None:
    other = next(t for t in p["start_tiles"] if t != development_tile)
    p["dev_stack"] = [development_tile]
    p["world_stack"] = [other]
    p["start_tiles"] = []


def _start_round(state: State, events: list[Event]) -> None:
    state["round"] += 1
    state["stage"] = "assign"
    state["phases"] = []
    state["extra_die"] = None
    events.append({"type": "RoundStarted", "round": state["round"]})
    for seat, p in enumerate(state["seats"]):
        p["dice"] = []
        for color in R.sort_colors(p["cup"]):
            p["dice"].append({"c": color, "f": R.roll_face(state, color), "at": None})
        p["cup"] = []
        _reset_assignment(p)
        p["revealed"] = None
        p["task"] = None
        p["ready"] = not p["dice"]
        events.append(
            {
                "type": "DiceRolled",
                "seat": seat,
                "faces": [[d["c"], d["f"]] for d in p["dice"]],
                "private": [seat],
            }
        )


def _end_round(state: State, events: list[Event]) -> None:
    for p in state["seats"]:
        p["task"] = None
    pool_empty = state["vp_pool"] <= 0
    full = [s for s, p in enumerate(state["seats"]) if R.spaces(p) >= D.RULES["end_tableau_spaces"]]
    # No worker left in any cup would mean no round can ever run again; the rules never get here, so end the
    # game.
    stalled = not any(p["cup"] for p in state["seats"])
    if pool_empty or full or stalled:
        state["stage"] = "over"
        state["final"] = [score(p) for p in state["seats"]]
        events.append(
            {
                "type": "GameEnded",
                "vp_pool_empty": pool_empty,
                "full_tableaus": full,
                "scores": [f["total"] for f in state["final"]],
            }
        )
        return
    _start_round(state, events)


def _progress(state: State, events: list[Event]) -> None:
    """Move the game on as far as it goes without a decision."""
    while True:
        stage = state["stage"]
        if stage == "over":
            return
        if stage == "setup":
            if any(p["start_tiles"] for p in state["seats"]):
                return
            _start_round(state, events)
            continue
        if stage == "assign":
            if not all(p["ready"] for p in state["seats"]):
                return
            _reveal(state, events)
            continue
        if state["shortage"] is not None or not all(p["task"]["done"] for p in state["seats"]):
            return
        if stage == "manage":
            _end_round(state, events)
            continue
        if stage == "explore" and not state["explore_extra"]:
            state["explore_extra"] = True
            if _draw_extra_tiles(state, events):
                continue
        _end_phase(state, stage, events)
        later = [ph for ph in state["phases"] if PHASES.index(ph) > PHASES.index(stage)]
        _begin_stage(state, later[0] if later else "manage", events)


def _begin_stage(state: State, stage: str, events: list[Event]) -> None:
    state["stage"] = stage
    events.append({"type": "PhaseStarted", "phase": stage})
    for seat, p in enumerate(state["seats"]):
        workers = p["rows"][stage] if stage in PHASES else []
        if stage in PHASES:
            p["rows"][stage] = []
        if stage == "explore":
            state["explore_extra"] = False
            extra = [c for _, pw in R.powers_of(p, "explore", "extra_workers") for c in pw["colors"]]
            p["task"] = {
                "done": False,
                "explorers": [{"c": c, "v": False} for c in workers] + [{"c": c, "v": True} for c in extra],
                "scout": None,
                "yellow_scout": False,
                "finished": not R.has_power(p, "explore", "rearrange_construction"),
            }
            _advance_explore(p)
        elif stage in ("develop", "settle"):
            p["task"] = {"done": False, "queue": list(workers), "pending": []}
            _build(state, seat, events)
        elif stage == "produce":
            p["task"] = {"done": False, "producers": list(workers)}
            _advance_produce(state, seat, events)
        elif stage == "ship":
            extra = [c for _, pw in R.powers_of(p, "ship", "extra_workers") for c in pw["colors"]]
            p["task"] = {
                "done": False,
                "shippers": [{"c": c, "v": True} for c in extra] + [{"c": c, "v": False} for c in workers],
            }
            _advance_ship(state, seat, events)
        else:
            p["task"] = {"done": False, "recruiting": True}
            _advance_manage(state, seat, events)


def _most(state: State, seat: int, count) -> bool:
    """Whether `seat` strictly leads everybody in `count` (ties give nothing)."""
    mine = count(state["seats"][seat])
    return all(mine > count(p) for s, p in enumerate(state["seats"]) if s != seat)


def _end_phase(state: State, phase: str, events: list[Event]) -> None:
    """Powers that pay at the end of a phase (a development built during the phase already counts)."""
    if phase == "explore":
        returned = [t for t, _ in state["discards"]]
        state["bag"] = sorted(state["bag"] + returned)
        state["discards"] = []
    for seat, p in enumerate(state["seats"]):
        for side_id, power in R.powers_of(p, phase):
            effect = power["effect"]
            if effect == "credits":
                R.gain_credits(state, seat, power["amount"], events, side_id)
            elif effect == "vp":
                R.gain_vp(state, seat, power["amount"], events, side_id)
            elif effect == "credits_if_most":
                if _most(state, seat, lambda q: len(R.developments(q))):
                    R.gain_credits(state, seat, power["amount"], events, side_id)
            elif effect == "credits_if_scouted_with":
                if p["task"]["yellow_scout"]:
                    R.gain_credits(state, seat, power["amount"], events, side_id)
            elif effect == "credits_per_citizenry_die":
                dice = sum(1 for c in p["citizenry"] if c == power["color"])
                R.gain_credits(state, seat, R.ceil_div(dice, power["per"]) * power["amount"], events, side_id)
            elif effect == "credits_per_good":
                goods = 0
                for entry in R.worlds(p):
                    color = D.side(entry["id"])["color"]
                    if "world_colors" in power and color not in power["world_colors"]:
                        continue
                    goods += sum(
                        1 for g in entry["goods"] if "good_colors" not in power or g in power["good_colors"]
                    )
                R.gain_credits(state, seat, goods * power["amount"], events, side_id)
            elif effect == "credits_if_highest_world":
                if _holds_highest_worlds(state, seat):
                    R.gain_credits(state, seat, power["amount"], events, side_id)


def _holds_highest_worlds(state: State, seat: int) -> bool:
    """Space Tourism: the highest printed world cost across all tableaus, and every world at that cost is
    ours."""
    every = [(s, D.side(e["id"])["cost"]) for s, p in enumerate(state["seats"]) for e in R.worlds(p)]
    top = max(cost for _, cost in every)
    return all(s == seat for s, cost in every if cost == top)


# --- assignment ---------------------------------------------------------------------------------------------


def _reset_assignment(p: R.Seat) -> None:
    for die in p["dice"]:
        die["at"] = None if die["f"] == WILD else die["f"]
    p["sel"] = None
    p["used"] = {}
    p["dictates"] = 0
    p["dictate_left"] = 0


def _groups(p: R.Seat) -> list[tuple[str, str]]:
    """Distinct (colour, row) of the workers that may be moved: placed, not the phase selector, not
    dictating."""
    found = {(d["c"], d["at"]) for i, d in enumerate(p["dice"]) if d["at"] in PHASES and i != p["sel"]}
    return sorted(found, key=lambda g: (R.COLOR_RANK[g[0]], PHASES.index(g[1])))


def _find_die(p: R.Seat, color: str, at: str | None, skip: int | None = None) -> int:
    for i, d in enumerate(p["dice"]):
        if d["c"] == color and d["at"] == at and i != p["sel"] and i != skip:
            return i
    raise IllegalAction("no_such_die", color=color)


def _reassign_limit(state: State, seat: int, power: dict[str, Any]) -> int:
    if power.get("condition") == "most_blue_worlds":
        # Mad Scientists: two when strictly most Novelty worlds, one when tied (nobody having any is a tie).
        mine = R.blue_worlds(state["seats"][seat])
        others = max(R.blue_worlds(p) for s, p in enumerate(state["seats"]) if s != seat)
        return 2 if mine > others else 1 if mine == others else 0
    return power["max"]


def _reassign_powers(state: State, seat: int) -> list[tuple[str, dict[str, Any]]]:
    return R.powers_of(state["seats"][seat], "assign", "reassign")


def _assign_actions(state: State, seat: int) -> list[Action]:
    p = state["seats"][seat]
    actions: list[Action] = []
    unassigned = R.sort_colors({d["c"] for d in p["dice"] if d["at"] is None})
    for color in unassigned:
        actions += [{"type": "assign_die", "color": color, "phase": ph} for ph in PHASES]
    groups = _groups(p)
    if p["sel"] is None:
        for color, at in groups + [(c, "unassigned") for c in unassigned]:
            actions += [{"type": "choose_phase", "color": color, "from": at, "phase": ph} for ph in PHASES]
    else:
        actions += _reassign_actions(state, seat, groups)
        movable = sum(1 for i, d in enumerate(p["dice"]) if d["at"] in PHASES and i != p["sel"])
        may_dictate = p["dictates"] == 0 or R.has_power(p, "assign", "dictate_repeat")
        if may_dictate and movable >= 2:
            actions += [{"type": "dictate", "color": c, "from": at} for c, at in groups]
    if p["sel"] is not None and not unassigned:
        actions.append({"type": "ready"})
    if p["sel"] is not None or p["used"] or any(d["f"] == WILD and d["at"] is not None for d in p["dice"]):
        actions.append({"type": "reset_assignment"})
    actions.append({"type": "auto_assign"})
    return actions


def _reassign_actions(state: State, seat: int, groups: list[tuple[str, str]]) -> list[Action]:
    p = state["seats"][seat]
    actions: list[Action] = []
    if p["dictate_left"] > 0:
        for color, at in groups:
            actions += [
                {"type": "reassign", "power": "dictate", "color": color, "from": at, "to": to}
                for to in PHASES
                if to != at
            ]
    for side_id, power in _reassign_powers(state, seat):
        moves = p["used"].get(side_id, [])
        if len(moves) >= _reassign_limit(state, seat, power):
            continue
        allowed = DICE_FILTERS[power["dice"]]
        fits = [(c, at) for c, at in groups if allowed(c) and power["from"] in ("any", at)]
        targets = PHASES if power["to"] == "any" else power["to"]
        if power.get("same_target") and moves:
            targets = [moves[0]["to"]]
        if power.get("exact"):
            if moves:
                continue
            # Exactly two workers from one row, both to the chosen phase.
            for at in PHASES:
                row = R.sort_colors(
                    d["c"]
                    for i, d in enumerate(p["dice"])
                    if d["at"] == at and i != p["sel"] and allowed(d["c"])
                )
                pairs = sorted({(row[i], row[j]) for i in range(len(row)) for j in range(i + 1, len(row))})
                for c1, c2 in pairs:
                    actions += [
                        {
                            "type": "reassign",
                            "power": side_id,
                            "color": c1,
                            "color2": c2,
                            "from": at,
                            "to": to,
                        }
                        for to in targets
                        if to != at
                    ]
            continue
        for color, at in fits:
            actions += [
                {"type": "reassign", "power": side_id, "color": color, "from": at, "to": to}
                for to in targets
                if to != at
            ]
    return actions


def _auto_assign(state: State, seat: int) -> None:
    """Wild dice join the busiest row; with no phase chosen yet, a worker of the busiest row chooses it."""
    p = state["seats"][seat]

    def busiest() -> str:
        counts = {ph: sum(1 for d in p["dice"] if d["at"] == ph) for ph in PHASES}
        return max(PHASES, key=lambda ph: (counts[ph], -PHASES.index(ph)))

    for die in p["dice"]:
        if die["at"] is None:
            die["at"] = busiest()
    if p["sel"] is None and p["dice"]:
        target = busiest()
        p["sel"] = next(i for i, d in enumerate(p["dice"]) if d["at"] == target)
    p["ready"] = True


def _apply_assign(state: State, seat: int, action: Action, events: list[Event]) -> None:
    p = state["seats"][seat]
    kind = action["type"]
    if kind == "assign_die":
        i = next(i for i, d in enumerate(p["dice"]) if d["c"] == action["color"] and d["at"] is None)
        p["dice"][i]["at"] = action["phase"]
    elif kind == "choose_phase":
        at = None if action["from"] == "unassigned" else action["from"]
        i = _find_die(p, action["color"], at)
        p["dice"][i]["at"] = action["phase"]
        p["sel"] = i
    elif kind == "dictate":
        i = _find_die(p, action["color"], action["from"])
        p["dice"][i]["at"] = "dictate"
        p["dictates"] += 1
        p["dictate_left"] += R.dictate_count(p)
    elif kind == "reassign":
        i = _find_die(p, action["color"], action["from"])
        p["dice"][i]["at"] = action["to"]
        if "color2" in action:
            j = _find_die(p, action["color2"], action["from"], skip=i)
            p["dice"][j]["at"] = action["to"]
        if action["power"] == "dictate":
            p["dictate_left"] -= 1
        else:
            p["used"].setdefault(action["power"], []).append({"from": action["from"], "to": action["to"]})
    elif kind == "reset_assignment":
        _reset_assignment(p)
    elif kind == "ready":
        p["ready"] = True
    elif kind == "auto_assign":
        _auto_assign(state, seat)
    # The assignment stays behind the screen: only "who is ready" is public until the reveal.
    events.append({"type": "AssignmentChanged", "seat": seat, "action": dict(action), "private": [seat]})
    if p["ready"]:
        events.append({"type": "PlayerReady", "seat": seat})


def _reveal(state: State, events: list[Event]) -> None:
    running: set[str] = set()
    for p in state["seats"]:
        rows: dict[str, list[str]] = {ph: [] for ph in PHASES}
        dictate: list[str] = []
        for die in p["dice"]:
            (dictate if die["at"] == "dictate" else rows[die["at"]]).append(die["c"])
        chosen = p["dice"][p["sel"]]["at"] if p["sel"] is not None else None
        if chosen:
            running.add(chosen)
        p["rows"] = {ph: R.sort_colors(row) for ph, row in rows.items()}
        p["revealed"] = {"rows": clone(p["rows"]), "chosen": chosen, "dictate": R.sort_colors(dictate)}
        p["cup"] += dictate
        p["dice"] = []
        p["sel"] = None
    if state["players"] == 2:
        # Two players roll one extra Home die; the phase it shows runs too.
        state["extra_die"] = R.roll_face(state, "white")
        running.add(state["extra_die"])
    state["phases"] = [ph for ph in PHASES if ph in running]
    for p in state["seats"]:
        for ph in PHASES:
            if ph not in running:
                p["cup"] += p["rows"][ph]
                p["rows"][ph] = []
    events.append(
        {
            "type": "AssignmentsRevealed",
            "phases": list(state["phases"]),
            "extra_die": state["extra_die"],
            "seats": [clone(p["revealed"]) for p in state["seats"]],
        }
    )
    later = state["phases"]
    _begin_stage(state, later[0] if later else "manage", events)


# --- explore ------------------------------------------------------------------------------------------------


def _advance_explore(p: R.Seat) -> None:
    task = p["task"]
    task["done"] = task["scout"] is None and not task["explorers"] and task["finished"]


def _explore_actions(state: State, seat: int) -> list[Action]:
    p = state["seats"][seat]
    task = p["task"]
    scout = task["scout"]
    if scout is not None:
        if not scout["drew"]:
            tiles = p["dev_stack"] + p["world_stack"]
            return [{"type": "discard_tile", "tile": t} for t in tiles] + [{"type": "draw"}]
        positions = (
            POSITIONS_ANY
            if R.has_power(p, "explore", "scout_on_top") and not scout["extra"]
            else POSITIONS_BOTTOM
        )
        return [
            {"type": "place_tile", "tile": t, "side": side, "position": pos}
            for t in scout["drawn"]
            for side in ("development", "world")
            for pos in positions
        ]
    actions: list[Action] = []
    for color in R.sort_colors({w["c"] for w in task["explorers"]}):
        actions += [{"type": "scout", "color": color}, {"type": "stock", "color": color}]
    if not task["finished"]:
        for side in ("development", "world"):
            stack = p[STACKS[side][0]]
            for t in p["dev_stack"] + p["world_stack"]:
                # Moving a tile to where it already is changes nothing, so it is not offered.
                ends = {"top": stack[:1] == [t], "bottom": stack[-1:] == [t]}
                actions += [
                    {"type": "move_tile", "tile": t, "side": side, "position": pos}
                    for pos in POSITIONS_ANY
                    if not ends[pos]
                ]
        if not task["explorers"]:
            actions.append({"type": "finish_explore"})
    if task["explorers"]:
        actions.append({"type": "auto_explore"})
    return actions


def _use_explorer(p: R.Seat, color: str) -> None:
    task = p["task"]
    i = next(i for i, w in enumerate(task["explorers"]) if w["c"] == color)
    worker = task["explorers"].pop(i)
    if not worker["v"]:
        p["citizenry"].append(color)


def _stock(state: State, seat: int, color: str, events: list[Event]) -> None:
    p = state["seats"][seat]
    _use_explorer(p, color)
    amount = D.RULES["stock_credits"]
    for _, power in R.powers_of(p, "explore", "stock_bonus"):
        if color == power["color"]:
            amount += power["amount"]
    events.append({"type": "Stocked", "seat": seat, "color": color})
    R.gain_credits(state, seat, amount, events, "stock")


def _take_from_stacks(p: R.Seat, tile: str) -> None:
    for key in ("dev_stack", "world_stack"):
        if tile in p[key]:
            p[key].remove(tile)
            return
    raise IllegalAction("tile_not_available", tile=tile)


def _put_on_stack(p: R.Seat, action: Action) -> None:
    """The tile goes on top of, or under, the construction stack of the side it is built as."""
    stack = p[STACKS[action["side"]][0]]
    if action["position"] == "top":
        stack.insert(0, action["tile"])
    else:
        stack.append(action["tile"])


def _draw_tiles(state: State, count: int) -> list[str]:
    """Draw from the bag; when it runs dry, this phase's discards go back in and drawing goes on."""
    drawn = []
    for _ in range(count):
        if not state["bag"] and state["discards"]:
            state["bag"] = sorted(t for t, _ in state["discards"])
            state["discards"] = []
        if not state["bag"]:
            break
        drawn.append(_draw_one(state))
    return drawn


def _apply_explore(state: State, seat: int, action: Action, events: list[Event]) -> None:
    p = state["seats"][seat]
    task = p["task"]
    kind = action["type"]
    if kind == "stock":
        _stock(state, seat, action["color"], events)
    elif kind == "auto_explore":
        while task["explorers"]:
            _stock(state, seat, task["explorers"][0]["c"], events)
        task["finished"] = True
    elif kind == "scout":
        _use_explorer(p, action["color"])
        task["yellow_scout"] = task["yellow_scout"] or action["color"] == "yellow"
        task["scout"] = {"drew": False, "drawn": [], "discarded": 0, "owed": 0, "extra": False}
        events.append({"type": "ScoutStarted", "seat": seat, "color": action["color"]})
    elif kind == "discard_tile":
        _take_from_stacks(p, action["tile"])
        state["discards"].append([action["tile"], seat])
        task["scout"]["discarded"] += 1
        events.append({"type": "TileDiscarded", "seat": seat, "tile": action["tile"], "private": [seat]})
        events.append({"type": "TilesDiscarded", "seat": seat, "count": 1})
    elif kind == "draw":
        scout = task["scout"]
        want = scout["discarded"] + 1
        scout["drawn"] = _draw_tiles(state, want)
        scout["owed"] = want - len(scout["drawn"])
        scout["drew"] = True
        events.append({"type": "TilesDrawn", "seat": seat, "tiles": list(scout["drawn"]), "private": [seat]})
        events.append({"type": "TilesScouted", "seat": seat, "count": len(scout["drawn"])})
        if not scout["drawn"]:
            _start_shortage(state, seat, events)
    elif kind == "place_tile":
        scout = task["scout"]
        scout["drawn"].remove(action["tile"])
        _put_on_stack(p, action)
        events.append(
            {
                "type": "TilePlaced",
                "seat": seat,
                "side": action["side"],
                "position": action["position"],
                "tile": action["tile"],
                "private": [seat],
            }
        )
        if not scout["drawn"]:
            if scout["owed"]:
                _start_shortage(state, seat, events)
            else:
                task["scout"] = None
    elif kind == "move_tile":
        _take_from_stacks(p, action["tile"])
        _put_on_stack(p, action)
        events.append(
            {
                "type": "TileMoved",
                "seat": seat,
                "tile": action["tile"],
                "side": action["side"],
                "position": action["position"],
                "private": [seat],
            }
        )
        events.append({"type": "ConstructionRearranged", "seat": seat})
    elif kind == "finish_explore":
        task["finished"] = True
    _advance_explore(p)


def _start_shortage(state: State, seat: int, events: list[Event]) -> None:
    """The very rare case: bag and discards ran out mid-scout. Everyone with 3+ construction tiles returns
    one."""
    limit = D.RULES["shortage_hand_size"]
    waiting = [
        s for s, q in enumerate(state["seats"]) if len(q["dev_stack"]) + len(q["world_stack"]) >= limit
    ]
    state["shortage"] = {"scout": seat, "waiting": waiting}
    events.append({"type": "TileShortage", "scout": seat, "waiting": list(waiting)})
    if not waiting:
        _finish_shortage(state, events)


def _return_tile(state: State, seat: int, tile: str, events: list[Event]) -> None:
    _take_from_stacks(state["seats"][seat], tile)
    state["bag"] = sorted(state["bag"] + [tile])
    state["shortage"]["waiting"].remove(seat)
    events.append({"type": "TileReturned", "seat": seat, "tile": tile, "private": [seat]})
    events.append({"type": "TilesReturned", "seat": seat, "count": 1})
    if not state["shortage"]["waiting"]:
        _finish_shortage(state, events)


def _finish_shortage(state: State, events: list[Event]) -> None:
    seat = state["shortage"]["scout"]
    state["shortage"] = None
    p = state["seats"][seat]
    scout = p["task"]["scout"]
    scout["drawn"] = _draw_tiles(state, scout["owed"])
    scout["owed"] = 0
    events.append({"type": "TilesDrawn", "seat": seat, "tiles": list(scout["drawn"]), "private": [seat]})
    events.append({"type": "TilesScouted", "seat": seat, "count": len(scout["drawn"])})
    if not scout["drawn"]:
        p["task"]["scout"] = None
    _advance_explore(p)


def _draw_extra_tiles(state: State, events: list[Event]) -> bool:
    """Alien Research Team: after every explorer has worked, before discards go back, draw and keep a tile."""
    drew = False
    for seat, p in enumerate(state["seats"]):
        if R.has_power(p, "explore", "draw_extra_tile"):
            tiles = _draw_tiles(state, 1)
            if tiles:
                p["task"]["scout"] = {"drew": True, "drawn": tiles, "discarded": 0, "owed": 0, "extra": True}
                p["task"]["finished"] = True
                p["task"]["done"] = False
                events.append({"type": "TilesDrawn", "seat": seat, "tiles": tiles, "private": [seat]})
                events.append({"type": "TilesScouted", "seat": seat, "count": len(tiles)})
                drew = True
    return drew


# --- develop and settle -------------------------------------------------------------------------------------


def _build(state: State, seat: int, events: list[Event]) -> None:
    """Place this phase's workers one at a time on the top tile, completing tiles as they fill; stop for
    choices."""
    p = state["seats"][seat]
    task = p["task"]
    kind = "development" if state["stage"] == "develop" else "world"
    stack_key, workers_key = STACKS[kind]
    placed: list[str] = []  # workers put on the top tile since it was last told of
    while True:
        if task["pending"]:
            effect = task["pending"][0]
            if effect["effect"] == "remove_die" and _removal_options(state, seat):
                return
            task["pending"].pop(0)
            if effect["effect"] != "remove_die":
                _apply_simple_effect(state, seat, effect, effect.get("target"), events)
            continue
        stack = p[stack_key]
        if not stack:
            break
        side_id = D.TILE_SIDES[stack[0]][kind]
        cost = R.build_cost(p, side_id)
        if len(p[workers_key]) >= cost:
            placed = []  # the completion tells of them
            _complete(state, seat, kind, events)
            continue
        if not task["queue"]:
            if placed:  # a tile left unfinished: its progress is seen on the board, so it is told
                events.append(
                    {
                        "type": "TileProgressed",
                        "seat": seat,
                        "side": side_id,
                        "kind": kind,
                        "dice": R.sort_colors(placed),
                        "filled": len(p[workers_key]),
                        "cost": cost,
                    }
                )
            break
        worker = task["queue"].pop(0)
        placed.append(worker)
        p[workers_key].append(worker)
    p["cup"] += task["queue"]
    task["queue"] = []
    task["done"] = True


def _complete(state: State, seat: int, kind: str, events: list[Event]) -> None:
    p = state["seats"][seat]
    stack_key, workers_key = STACKS[kind]
    tile = p[stack_key].pop(0)
    side_id = D.TILE_SIDES[tile][kind]
    cost = R.build_cost(p, side_id)
    used, p[workers_key] = p[workers_key][:cost], p[workers_key][cost:]
    to_cup: list[str] = []
    phase = "develop" if kind == "development" else "settle"
    for _, power in R.powers_of(p, phase, "workers_to_cup"):
        if "color" in power:
            to_cup += [c for c in used if c == power["color"]]
            used = [c for c in used if c != power["color"]]
    for _, power in R.powers_of(p, phase, "workers_to_cup"):
        if "max" in power:
            ordered = sorted(used, key=R.CUP_PREFERENCE.index)
            to_cup += ordered[: power["max"]]
            for color in ordered[: power["max"]]:
                used.remove(color)
    p["cup"] += to_cup
    p["citizenry"] += used
    p["tableau"].append({"id": side_id, "goods": []})
    events.append(
        {
            "type": "TileCompleted",
            "seat": seat,
            "tile": tile,
            "side": side_id,
            "kind": kind,
            "to_cup": R.sort_colors(to_cup),
        }
    )
    effects = D.side(side_id).get("on_complete" if kind == "development" else "on_place", [])
    p["task"]["pending"] += [dict(effect, target=side_id) for effect in effects]
    for owner, power in R.powers_of(p, phase, "credits_per_completion"):
        if owner == side_id or kind not in power["kinds"]:
            continue
        amount = power["amount"]
        if D.side(side_id).get("color") in power.get("bonus_colors", []):
            amount += power["bonus"]
        R.gain_credits(state, seat, amount, events, owner)


def _apply_simple_effect(
    state: State, seat: int, effect: dict[str, Any], target: str | None, events: list[Event]
) -> None:
    p = state["seats"][seat]
    kind = effect["effect"]
    if kind == "gain_die":
        given = R.take_from_supply(state, effect["color"], effect["count"])
        p[effect["to"]] += [effect["color"]] * given
        if given:
            events.append(
                {
                    "type": "DiceGained",
                    "seat": seat,
                    "color": effect["color"],
                    "count": given,
                    "to": effect["to"],
                }
            )
    elif kind == "gain_good":
        if R.take_from_supply(state, effect["color"], 1):
            next(e for e in p["tableau"] if e["id"] == target)["goods"].append(effect["color"])
            events.append({"type": "GoodGained", "seat": seat, "world": target, "color": effect["color"]})
    elif kind == "gain_credits":
        R.gain_credits(state, seat, effect["amount"], events, target or "effect")
    elif kind == "start_credits":
        p["credits"] = effect["amount"]
    else:
        raise ValueError(f"unknown effect {kind!r}")


def _die_locations(state: State, seat: int) -> dict[str, list[str]]:
    """Every place a seat's own dice sit, keyed by the "where" code of remove_die / reclaim."""
    p = state["seats"][seat]
    places = {
        "cup": p["cup"],
        "citizenry": p["citizenry"],
        "dev_zone": p["dev_workers"],
        "world_zone": p["world_workers"],
    }
    for entry in p["tableau"]:
        if entry["goods"]:
            places[f"good:{entry['id']}"] = entry["goods"]
    if p["task"] and "queue" in p["task"]:
        places[f"row:{state['stage']}"] = p["task"]["queue"]
    for ph in PHASES:
        if p["rows"].get(ph):
            places[f"row:{ph}"] = p["rows"][ph]
    return places


def _removal_options(state: State, seat: int) -> list[tuple[str, str]]:
    task = state["seats"][seat]["task"]
    if not task or not task.get("pending") or task["pending"][0]["effect"] != "remove_die":
        return []
    return [
        (where, c) for where, dice in _die_locations(state, seat).items() for c in R.sort_colors(set(dice))
    ]


def _remove_die(state: State, seat: int, where: str, color: str, events: list[Event]) -> None:
    _die_locations(state, seat)[where].remove(color)
    state["supply"][color] += 1
    events.append({"type": "DieRemoved", "seat": seat, "where": where, "color": color})


# --- produce ------------------------------------------------------------------------------------------------


def _advance_produce(state: State, seat: int, events: list[Event]) -> None:
    p = state["seats"][seat]
    task = p["task"]
    free = R.free_slots(p)
    producers = task["producers"]
    if producers and free and len(set(producers)) == 1 and len(producers) >= sum(free.values()):
        # Nothing to decide: one colour of producer, enough to fill every space.
        for world_id, room in free.items():
            for _ in range(room):
                _produce(state, seat, producers[0], world_id, events)
        free = {}
    if not producers or not free:
        p["cup"] += producers
        task["producers"] = []
        task["done"] = True


def _produce(state: State, seat: int, color: str, world_id: str, events: list[Event]) -> None:
    p = state["seats"][seat]
    p["task"]["producers"].remove(color)
    next(e for e in p["tableau"] if e["id"] == world_id)["goods"].append(color)
    events.append({"type": "GoodProduced", "seat": seat, "world": world_id, "color": color})


def _produce_actions(state: State, seat: int) -> list[Action]:
    p = state["seats"][seat]
    free = R.free_slots(p)
    actions: list[Action] = [
        {"type": "produce", "color": c, "world": w}
        for c in R.sort_colors(set(p["task"]["producers"]))
        for w in free
    ]
    return actions + [{"type": "auto_produce"}]


def _apply_produce(state: State, seat: int, action: Action, events: list[Event]) -> None:
    p = state["seats"][seat]
    if action["type"] == "produce":
        _produce(state, seat, action["color"], action["world"], events)
    else:
        # Matching colours first, so the goods consume for the most VP later.
        for color in sorted(p["task"]["producers"], key=R.CUP_PREFERENCE.index):
            free = R.free_slots(p)
            if not free:
                break
            world_id = max(free, key=lambda w: (D.side(w)["color"] == color, D.side(w)["cost"]))
            _produce(state, seat, color, world_id, events)
    _advance_produce(state, seat, events)


# --- ship ---------------------------------------------------------------------------------------------------


def _goods(p: R.Seat) -> list[tuple[str, str]]:
    return sorted({(e["id"], g) for e in R.worlds(p) for g in e["goods"]})


def _advance_ship(state: State, seat: int, events: list[Event]) -> None:
    p = state["seats"][seat]
    task = p["task"]
    if not task["shippers"] or not _goods(p):
        p["cup"] += [w["c"] for w in task["shippers"] if not w["v"]]
        task["shippers"] = []
        task["done"] = True


def _ship_actions(state: State, seat: int) -> list[Action]:
    p = state["seats"][seat]
    bankers = R.has_power(p, "ship", "buy_vp_on_trade")
    actions: list[Action] = []
    shippers = R.sort_colors({w["c"] for w in p["task"]["shippers"]})
    for color in shippers:
        for world_id, good in _goods(p):
            if bankers:
                actions += [
                    {"type": "trade", "shipper": color, "world": world_id, "good": good, "buy_vp": b}
                    for b in (True, False)
                ]
            else:
                actions.append({"type": "trade", "shipper": color, "world": world_id, "good": good})
            actions.append({"type": "consume", "shipper": color, "world": world_id, "good": good})
    return actions + [{"type": "auto_ship"}]


def _take_shipper(p: R.Seat, color: str) -> None:
    # A power's extra shipper goes first: unused real shippers return to the cup, which beats the Citizenry.
    shippers = p["task"]["shippers"]
    i = next(i for i, w in enumerate(shippers) if w["c"] == color)
    if not shippers[i]["v"]:
        p["citizenry"].append(color)
    shippers.pop(i)


def _take_good(p: R.Seat, world_id: str, good: str) -> str:
    entry = next(e for e in p["tableau"] if e["id"] == world_id)
    entry["goods"].remove(good)
    p["citizenry"].append(good)
    return D.side(world_id)["color"]


def _trade(
    state: State, seat: int, shipper: str, world_id: str, good: str, buy_vp: bool, events: list[Event]
) -> None:
    p = state["seats"][seat]
    _take_shipper(p, shipper)
    color = _take_good(p, world_id, good)
    price = R.trade_price(p, color)
    events.append({"type": "GoodTraded", "seat": seat, "world": world_id, "good": good, "shipper": shipper})
    R.gain_credits(state, seat, price, events, "trade")
    if buy_vp:
        cost = R.powers_of(p, "ship", "buy_vp_on_trade")[0][1]["cost"]
        if p["credits"] >= cost:
            p["credits"] -= cost
            events.append({"type": "CreditsSpent", "seat": seat, "amount": cost, "credits": p["credits"]})
            R.gain_vp(state, seat, 1, events, "galactic_bankers")


def _consume(state: State, seat: int, shipper: str, world_id: str, good: str, events: list[Event]) -> None:
    p = state["seats"][seat]
    _take_shipper(p, shipper)
    color = _take_good(p, world_id, good)
    vp, credits = R.consume_gain(p, shipper, good, color)
    events.append({"type": "GoodConsumed", "seat": seat, "world": world_id, "good": good, "shipper": shipper})
    R.gain_vp(state, seat, vp, events, "consume")
    R.gain_credits(state, seat, credits, events, "consume")


def _apply_ship(state: State, seat: int, action: Action, events: list[Event]) -> None:
    p = state["seats"][seat]
    kind = action["type"]
    if kind == "trade":
        _trade(
            state,
            seat,
            action["shipper"],
            action["world"],
            action["good"],
            action.get("buy_vp", False),
            events,
        )
    elif kind == "consume":
        _consume(state, seat, action["shipper"], action["world"], action["good"], events)
    else:
        # Greedy: each step consumes the good/shipper pair worth the most chips.
        while p["task"]["shippers"] and _goods(p):
            shippers = {w["c"] for w in p["task"]["shippers"]}
            best = max(
                ((s, w, g) for s in shippers for w, g in _goods(p)),
                key=lambda x: (
                    R.consume_vp(x[0], x[2], D.side(x[1])["color"]),
                    -R.COLOR_RANK[x[0]],
                    x[1],
                    x[2],
                ),
            )
            _consume(state, seat, *best, events)
    _advance_ship(state, seat, events)


# --- manage empire ------------------------------------------------------------------------------------------


def _reclaimable(state: State, seat: int) -> list[tuple[str, str]]:
    places = _die_locations(state, seat)
    return [
        (where, c)
        for where, dice in places.items()
        if where in ("dev_zone", "world_zone") or where.startswith("good:")
        for c in R.sort_colors(set(dice))
    ]


def _recruit(state: State, seat: int, color: str, events: list[Event]) -> None:
    p = state["seats"][seat]
    p["citizenry"].remove(color)
    p["cup"].append(color)
    p["credits"] -= 1
    events.append({"type": "WorkerRecruited", "seat": seat, "color": color, "credits": p["credits"]})


def _advance_manage(state: State, seat: int, events: list[Event]) -> None:
    p = state["seats"][seat]
    task = p["task"]
    if task["recruiting"]:
        citizens = p["citizenry"]
        if p["credits"] >= len(citizens) or len(set(citizens)) <= 1 or p["credits"] <= 0:
            for color in R.sort_colors(citizens)[: max(0, p["credits"])]:
                _recruit(state, seat, color, events)
        if p["credits"] > 0 and p["citizenry"]:
            return
        task["recruiting"] = False
        if p["credits"] < D.RULES["credit_floor"]:
            p["credits"] = D.RULES["credit_floor"]
            events.append({"type": "CreditsFloored", "seat": seat, "credits": p["credits"]})
    if not _reclaimable(state, seat):
        task["done"] = True


def _manage_actions(state: State, seat: int) -> list[Action]:
    p = state["seats"][seat]
    if p["task"]["recruiting"]:
        actions: list[Action] = [{"type": "recruit", "color": c} for c in R.sort_colors(set(p["citizenry"]))]
    else:
        actions = [{"type": "reclaim", "where": w, "color": c} for w, c in _reclaimable(state, seat)]
        if p["cup"]:
            actions.append({"type": "end_manage"})
    return actions + [{"type": "auto_manage"}]


def _apply_manage(state: State, seat: int, action: Action, events: list[Event]) -> None:
    p = state["seats"][seat]
    kind = action["type"]
    if kind == "recruit":
        _recruit(state, seat, action["color"], events)
    elif kind == "reclaim":
        _die_locations(state, seat)[action["where"]].remove(action["color"])
        p["cup"].append(action["color"])
        events.append(
            {"type": "WorkerReclaimed", "seat": seat, "where": action["where"], "color": action["color"]}
        )
    elif kind == "end_manage":
        p["task"]["done"] = True
        return
    else:
        while p["task"]["recruiting"]:
            _recruit(state, seat, sorted(p["citizenry"], key=R.CUP_PREFERENCE.index)[0], events)
            _advance_manage(state, seat, events)
        if not p["cup"] and _reclaimable(state, seat):
            where, color = _reclaimable(state, seat)[0]
            _die_locations(state, seat)[where].remove(color)
            p["cup"].append(color)
            events.append({"type": "WorkerReclaimed", "seat": seat, "where": where, "color": color})
        p["task"]["done"] = True
        return
    _advance_manage(state, seat, events)


# --- views --------------------------------------------------------------------------------------------------


def _seat_view(state: State, seat: int, viewer: int | None) -> dict[str, Any]:
    p = state["seats"][seat]
    own = viewer == seat
    hidden_roll = state["stage"] == "assign" and not own
    view: dict[str, Any] = {
        "faction": p["faction"],
        "home": p["home"],
        "tableau": clone(p["tableau"]),
        "spaces": R.spaces(p),
        "credits": p["credits"],
        "vp": p["vp"],
        "cup": R.sort_colors(p["cup"]),
        "rolled": R.sort_colors(d["c"] for d in p["dice"]),
        "citizenry": R.sort_colors(p["citizenry"]),
        "start_tiles": list(p["start_tiles"]),
        "dev_top": p["dev_stack"][0] if p["dev_stack"] else None,
        "dev_size": len(p["dev_stack"]),
        "world_top": p["world_stack"][0] if p["world_stack"] else None,
        "world_size": len(p["world_stack"]),
        "dev_workers": R.sort_colors(p["dev_workers"]),
        "world_workers": R.sort_colors(p["world_workers"]),
        "dev_cost": R.build_cost(p, D.TILE_SIDES[p["dev_stack"][0]]["development"])
        if p["dev_stack"]
        else None,
        "world_cost": R.build_cost(p, D.TILE_SIDES[p["world_stack"][0]]["world"])
        if p["world_stack"]
        else None,
        "ready": p["ready"] if state["stage"] == "assign" else None,
        "revealed": clone(p["revealed"]),
        "rows": {ph: R.sort_colors(row) for ph, row in p["rows"].items()}
        if state["stage"] != "assign"
        else None,
        "task": _task_view(p["task"], own),
        "score": score(p)["total"] if state["stage"] == "over" else None,
    }
    if own:
        view["dev_stack"] = list(p["dev_stack"])
        view["world_stack"] = list(p["world_stack"])
    if state["stage"] == "assign" and not hidden_roll:
        view["dice"] = clone(p["dice"])
        view["sel"] = p["sel"]
        view["used"] = clone(p["used"])
        view["dictates"] = p["dictates"]
        view["dictate_left"] = p["dictate_left"]
    return view


def _task_view(task: dict[str, Any] | None, own: bool) -> dict[str, Any] | None:
    if task is None:
        return None
    out: dict[str, Any] = {"done": task["done"]}
    for key in ("queue", "producers"):
        if key in task:
            out[key] = R.sort_colors(task[key])
    for key in ("explorers", "shippers"):
        if key in task:
            out[key] = sorted(([w["c"], w["v"]] for w in task[key]), key=lambda w: (R.COLOR_RANK[w[0]], w[1]))
    if "pending" in task:
        out["pending"] = [e["effect"] for e in task["pending"]]
    if "recruiting" in task:
        out["recruiting"] = task["recruiting"]
    if "finished" in task:
        out["finished"] = task["finished"]
    scout = task.get("scout")
    if scout is not None:
        out["scout"] = {
            "drew": scout["drew"],
            "count": len(scout["drawn"]),
            "discarded": scout["discarded"],
            "owed": scout["owed"],
            "extra": scout["extra"],
        }
        if own:
            out["scout"]["drawn"] = list(scout["drawn"])
    elif "scout" in task:
        out["scout"] = None
    return out
