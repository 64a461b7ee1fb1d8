"""The results picture of a finished game: each player's score by category as a stacked bar, and the scores over
the game as a line chart.

render_results draws from plain data (names, category labels, numbers), so any game can use it;
game_results builds that data from public views: the final view for the categories, and the public view after
every move for the series (score_series). Everything is drawn with Pillow on a fixed layout, so the same data
always gives the same picture, and nothing is imported that would slow the bot's start.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from PIL import ImageDraw

from render.common import (
    BACKGROUND,
    GOLD,
    MUTED,
    PANEL,
    PANEL_LIGHT,
    SEAT_COLOURS,
    SEAT_MARKS,
    TEXT,
    canvas,
    fitted,
    font,
    paste_text,
    readable_on,
    to_png_flat,
)
from render.text import labels as picture_labels

WIDTH, HEIGHT = 1100, 660
SMALL = 22  # 22 × 550 / 1100 = 11 px in the chat (at 18 a review could not read the axes and legend)
# Okabe and Ito's colour-blind-safe set, for categories; each segment also carries its value and the legend
# lists the categories in the order they stack, so no category depends on its colour alone.
CATEGORY_COLOURS = [
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (240, 228, 66),
    (0, 114, 178),
    (213, 94, 0),
    (204, 121, 167),
    (235, 235, 235),
]
MARKERS = ["circle", "square", "triangle", "diamond", "down", "cross"]

# Each game's categories as its rulebook scores them, in the order they stack; their names are the games'
# "picture.category.*" strings.
CATEGORIES: dict[str, tuple[str, ...]] = {
    "roll_player": ("targets", "class_dice", "alignment", "backstory", "armor", "weapons", "traits", "gold"),
    "roll_for_the_galaxy": ("chips", "tiles", "bonuses"),
    "druids": ("track",),
    # Talisman has no points (the first to the Crown wins); its picture compares what the characters became, and
    # its "picture.chart_title" says what the lines count. A timed game (round_limit) is won by what the rulebook
    # counts then: Strength and Craft counters, gold, Spells, Followers and Objects.
    "talisman": ("strength", "craft", "life"),
    "talisman_timed": ("counters", "gold", "spells", "followers", "objects"),
}


def _scoring(view: dict[str, Any]) -> str:
    """Which of CATEGORIES a view is scored by."""
    return "talisman_timed" if view["game"] == "talisman" and view.get("round_limit") else view["game"]


def _labels(locale: str) -> dict[str, Any]:
    return picture_labels(None, locale)["results"]


# --- numbers from public views ------------------------------------------------------------------------------


def score_parts(view: dict[str, Any]) -> list[dict[str, int]]:
    """Each seat's score by category (CATEGORIES' ids) in a public view: the final scoring once the game is
    over, and what the rulebook's scoring would give if it ended now before that."""
    game = view["game"]
    if game == "roll_player":
        from engines.roll_player.scoring import score_seat

        result = view.get("result")
        if result:
            return [dict(seat["parts"]) for seat in result["details"]["seats"]]
        out = []
        for i, seat in enumerate(view["seats"]):
            others = [s["gold"] for j, s in enumerate(view["seats"]) if j != i]
            out.append(dict(score_seat(seat, others, view["solo"])["parts"]) if seat["class"] else {})
        return out
    if game == "roll_for_the_galaxy":
        from engines.roll_for_the_galaxy.scoring import score_in_view

        finals = view.get("final") or [score_in_view(seat) for seat in view["seats"]]
        return [
            {"chips": f["chips"], "tiles": f["tiles"], "bonuses": sum(f["bonuses"].values())} for f in finals
        ]
    if game == "druids":
        return [{"track": score} for score in view["scores"]]
    if _scoring(view) == "talisman_timed":
        return [
            {
                "counters": ch["counters"]["strength"] + ch["counters"]["craft"],
                "gold": ch["gold"],
                "spells": ch["spells"],
                "followers": len(ch["followers"]),
                "objects": len(ch["items"]),
            }
            if ch and not ch["dead"] and not ch["out"]  # as the game counts them: nothing for the dead
            else {}
            for ch in view["chars"]
        ]
    if game == "talisman":
        return [
            {"strength": ch["strength"], "craft": ch["craft"], "life": ch["life"]} if ch else {}
            for ch in view["chars"]
        ]
    raise ValueError(f"no scoring for {game!r}")


def current_scores(view: dict[str, Any]) -> list[int]:
    """Each seat's total in a public view (see score_parts)."""
    return [sum(parts.values()) for parts in score_parts(view)]


def score_series(views: Iterable[dict[str, Any]]) -> list[list[int]]:
    """The scores after each move, from the public views of a replayed game (the first is the new game)."""
    return [current_scores(view) for view in views]


def game_results(
    final_view: dict[str, Any],
    series: list[list[int]],
    names: list[str],
    winners: list[int],
    locale: str,
    title: str,
) -> bytes:
    """The results picture of a finished game from its last public view and its score series."""
    game = final_view["game"]
    words = picture_labels(game, locale)
    scoring = _scoring(final_view)
    order = CATEGORIES[scoring]
    parts = score_parts(final_view)
    used = [key for key in order if any(seat.get(key) for seat in parts)] or list(order[:1])
    categories = [words["category"][key] for key in used]
    values = [[seat.get(key, 0) for key in used] for seat in parts]
    chart_title = words.get("chart_title_timed" if scoring == "talisman_timed" else "chart_title")
    return render_results(names, categories, values, series, winners, title, locale, chart_title)


# --- drawing ------------------------------------------------------------------------------------------------


def _nice_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round tick values covering low..high, at most `most` of them (steps of 1, 2 or 5 times a power of 10)."""
    span = max(high - low, 1)
    for power in range(0, 10):
        for base in (1, 2, 5):
            step = base * 10**power
            first = math.floor(low / step) * step
            last = math.ceil(high / step) * step
            if (last - first) / step + 1 <= most:
                return [first + i * step for i in range(int((last - first) / step) + 1)]
    return [low, low + span]


def _marker(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, colour: tuple[int, int, int]) -> None:
    r = 7
    edge = BACKGROUND
    if kind == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=edge, width=2)
    elif kind == "square":
        draw.rectangle((x - r + 1, y - r + 1, x + r - 1, y + r - 1), fill=colour, outline=edge, width=2)
    elif kind == "triangle":
        draw.polygon([(x, y - r - 1), (x + r, y + r - 1), (x - r, y + r - 1)], fill=colour, outline=edge)
    elif kind == "down":
        draw.polygon([(x, y + r + 1), (x + r, y - r + 1), (x - r, y - r + 1)], fill=colour, outline=edge)
    elif kind == "diamond":
        draw.polygon(
            [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)], fill=colour, outline=edge
        )
    else:
        draw.line((x - r, y - r, x + r, y + r), fill=colour, width=4)
        draw.line((x - r, y + r, x + r, y - r), fill=colour, width=4)


def render_results(
    names: list[str],
    categories: list[str],
    values: list[list[int]],
    series: list[list[int]],
    winners: list[int],
    title: str,
    locale: str,
    chart_title: str | None = None,
) -> bytes:
    """A landscape picture: left, one stacked bar per player (`values[seat][category]`, negatives stacked below
    zero); right, each player's score after every move (`series[move][seat]`) as a line with the seat's colour,
    marker shape and name. `title` heads the picture; `chart_title` (if given) names what the lines count;
    winners are marked."""
    labels = _labels(locale)
    image, draw = canvas(WIDTH, HEIGHT)
    paste_text(image, (24, 14), fitted(title, 28, WIDTH - 48, True), 28, TEXT, True)
    players = len(names)
    colours = [SEAT_COLOURS[s % len(SEAT_COLOURS)] for s in range(players)]

    # --- stacked bars
    left, right, top, bottom = 70, 520, 100, HEIGHT - 150
    paste_text(image, (24, 60), labels["by_category"], 22, MUTED, True)
    pos = [sum(v for v in seat if v > 0) for seat in values] or [0]
    neg = [sum(v for v in seat if v < 0) for seat in values] or [0]
    ticks = _nice_ticks(min(0, *neg), max(1, *pos))
    low, high = ticks[0], ticks[-1]

    def y_of(v: float) -> float:
        return bottom - (v - low) / (high - low) * (bottom - top)

    for t in ticks:
        y = y_of(t)
        draw.line((left, y, right, y), fill=PANEL_LIGHT if t else MUTED, width=1 if t else 2)
        paste_text(image, (left - 8, y), f"{t:g}", SMALL, MUTED, anchor="rm")
    slot = (right - left) / max(players, 1)
    bar_w = min(70, slot * 0.6)
    for seat, seat_values in enumerate(values):
        cx = left + slot * (seat + 0.5)
        up = down = 0.0
        for k, v in enumerate(seat_values):
            if not v:
                continue
            start = up if v > 0 else down
            end = start + v
            if v > 0:
                up = end
            else:
                down = end
            fill = CATEGORY_COLOURS[k % len(CATEGORY_COLOURS)]
            y0, y1 = sorted((y_of(start), y_of(end)))
            draw.rectangle((cx - bar_w / 2, y0, cx + bar_w / 2, y1), fill=fill, outline=BACKGROUND, width=2)
            if y1 - y0 >= SMALL + 2:
                paste_text(image, (cx, (y0 + y1) / 2), f"{v:g}", SMALL, readable_on(fill), True, "mm")
        total = sum(seat_values)
        paste_text(image, (cx, y_of(up) - 6), f"{total:g}", 22, GOLD if seat in winners else TEXT, True, "ms")
        name = fitted(names[seat], SMALL, int(slot) - 4, seat in winners)
        paste_text(image, (cx, bottom + 10), SEAT_MARKS[seat], SMALL, colours[seat], True, "ma")
        paste_text(
            image, (cx, bottom + 32), name, SMALL, GOLD if seat in winners else TEXT, seat in winners, "ma"
        )
    # legend: swatch and name of each category, in stacking order (one category needs none: the bar is the score)
    lx, ly = 24, HEIGHT - 86
    for k, category in enumerate(categories if len(categories) > 1 else []):
        width = 26 + int(font(SMALL).getlength(category)) + 18
        if lx + width > right + 20:
            lx, ly = 24, ly + 30
        draw.rectangle((lx, ly + 3, lx + 20, ly + 23), fill=CATEGORY_COLOURS[k % len(CATEGORY_COLOURS)])
        paste_text(image, (lx + 26, ly), category, SMALL, TEXT)
        lx += width

    # --- line chart
    cl, cr, ct, cb = 620, WIDTH - 40, 100, HEIGHT - 150
    paste_text(
        image,
        (cl - 40, 60),
        fitted(chart_title or labels["over_game"], 22, cr - cl + 40, True),
        22,
        MUTED,
        True,
    )
    draw.rectangle((cl, ct, cr, cb), fill=PANEL)
    flat = [v for snap in series for v in snap] or [0]
    yt = _nice_ticks(min(0, *flat), max(1, *flat))
    steps = max(len(series) - 1, 1)
    xt = [t for t in _nice_ticks(0, steps, 6) if t <= steps]  # the axis ends at the last move

    def cy_of(v: float) -> float:
        return cb - (v - yt[0]) / (yt[-1] - yt[0]) * (cb - ct)

    def cx_of(i: float) -> float:
        return cl + i / steps * (cr - cl)

    for t in yt:
        draw.line((cl, cy_of(t), cr, cy_of(t)), fill=PANEL_LIGHT)
        paste_text(image, (cl - 8, cy_of(t)), f"{t:g}", SMALL, MUTED, anchor="rm")
    for t in xt:
        paste_text(image, (cx_of(t), cb + 8), f"{t:g}", SMALL, MUTED, anchor="ma")
    paste_text(image, ((cl + cr) / 2, cb + 34), labels["move"], SMALL, MUTED, anchor="ma")
    every = max(
        1, len(series) // 12 // max(1, math.ceil(len(series) / (cr - cl)))
    )  # about a dozen markers a line
    ends = []
    for seat in range(players):
        # no more points than the chart has pixels across: a long game's thousands of moves draw no better
        keep = max(1, math.ceil(len(series) / (cr - cl)))
        picked = [i for i in range(len(series)) if i % keep == 0 or i == len(series) - 1]
        # lines of equal scores are drawn side by side, a line's width apart, instead of one over the other
        lift = (seat - (players - 1) / 2) * 3
        points = [(cx_of(i), cy_of(series[i][seat]) - lift) for i in picked if seat < len(series[i])]
        if not points:
            continue
        if len(points) > 1:
            draw.line(points, fill=colours[seat], width=3, joint="curve")
        for i, (x, y) in enumerate(points):
            if i % every == 0 or i == len(points) - 1:
                _marker(draw, MARKERS[seat % len(MARKERS)], x, y, colours[seat])
        ends.append((points[-1][1], seat))
    # each line's end labelled with the seat's letter, nudged apart where ends meet
    placed: list[float] = []
    for y, seat in sorted(ends):
        y = max([y, *[p + SMALL + 2 for p in placed if abs(p - y) < SMALL + 2]])
        placed.append(y)
        paste_text(image, (cr + 10, y), SEAT_MARKS[seat], SMALL, colours[seat], True, "lm")
    # who won, under the chart
    won = ", ".join(names[s] for s in winners if s < len(names))
    if won:
        text = fitted(f"{won} — {labels['won']}", 22, cr - cl + 40, True)
        paste_text(image, (cl - 40, HEIGHT - 60), text, 22, GOLD, True)
    # a palette from every pixel: thin lines keep their seat's colour (from pixels averaged 4 by 4, an orange
    # line came out 44 darker); a game draws one results picture
    return to_png_flat(image, sample=1, colours=256)
