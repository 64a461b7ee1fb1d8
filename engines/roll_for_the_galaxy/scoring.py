"""Final scoring: VP chips, the cost of every tableau tile, and the bonuses of the 6-cost developments."""

from __future__ import annotations

from typing import Any

from engines.roll_for_the_galaxy import data as D
from engines.roll_for_the_galaxy.rules import Seat, ceil_div, developments, owned_dice, worlds


def _fraction_base(p: Seat, power: dict[str, Any]) -> int:
    of = power["of"]
    if of == "development_cost":
        return sum(D.side(s)["cost"] for s in developments(p))
    if of == "reassign_development_cost":
        return sum(D.side(s)["cost"] for s in developments(p) if D.is_reassign_development(s))
    if of == "world_cost":
        colors = power.get("colors")
        return sum(
            D.side(e["id"])["cost"] for e in worlds(p) if colors is None or D.side(e["id"])["color"] in colors
        )
    raise ValueError(f"unknown vp_fraction base {of!r}")


def _count(p: Seat, power: dict[str, Any]) -> int:
    what = power["what"]
    if what == "developments":
        return len(developments(p))
    if what == "non_reassign_developments":
        return sum(1 for s in developments(p) if not D.is_reassign_development(s))
    if what == "worlds":
        colors = power.get("colors")
        return sum(1 for e in worlds(p) if colors is None or D.side(e["id"])["color"] in colors)
    if what == "goods":
        return sum(len(e["goods"]) for e in p["tableau"])
    if what == "die_colors":
        return len(set(owned_dice(p)))
    if what == "dice":
        return sum(1 for c in owned_dice(p) if c == power["color"])
    raise ValueError(f"unknown count {what!r}")


def bonus_vp(p: Seat, power: dict[str, Any]) -> int:
    """One end-game power's bonus; fractions round up (the rulebook: any fraction counts as a whole)."""
    effect = power["effect"]
    if effect == "vp_fraction":
        return ceil_div(_fraction_base(p, power), power["divisor"])
    if effect == "vp_per":
        return _count(p, power) * power["vp"]
    if effect == "vp_per_set":
        return ceil_div(_count(p, power), power["size"]) * power["vp"]
    if effect == "vp_triangular_chips":
        # +1, 2, 3, 4 ... for 1, 3, 6, 10 ... VP in chips: the largest k with k(k+1)/2 <= chips.
        k = 0
        while (k + 1) * (k + 2) // 2 <= p["vp"]:
            k += 1
        return k
    raise ValueError(f"unknown end-game effect {effect!r}")


def score(p: Seat) -> dict[str, Any]:
    tiles = sum(D.side(e["id"])["cost"] for e in p["tableau"])
    bonuses = {}
    for side_id in developments(p):
        for power in D.powers(side_id):
            if power["when"] == "end_game":
                bonuses[side_id] = bonuses.get(side_id, 0) + bonus_vp(p, power)
    total = p["vp"] + tiles + sum(bonuses.values())
    return {
        "chips": p["vp"],
        "tiles": tiles,
        "bonuses": bonuses,
        "total": total,
        "tiebreak": len(p["cup"]) + p["credits"],
    }


def score_in_view(s: dict[str, Any]) -> dict[str, Any]:
    """`score` for a seat as anyone sees it (a public view's seat): the dice rolled behind a screen count as owned
    (their colours are public), and the workers at work come from the task, as the view tells them."""
    task = s["task"] or {}
    return score(
        {
            "vp": s["vp"],
            "credits": s["credits"],
            "tableau": s["tableau"],
            "cup": s["cup"] + s["rolled"],
            "citizenry": s["citizenry"],
            "dev_workers": s["dev_workers"],
            "world_workers": s["world_workers"],
            "rows": s["rows"] or {},
            "dice": [],
            "task": {
                **{key: task[key] for key in ("queue", "producers") if key in task},
                **{
                    key: [{"c": c, "v": v} for c, v in task[key]]
                    for key in ("explorers", "shippers")
                    if key in task
                },
            },
        }
    )
