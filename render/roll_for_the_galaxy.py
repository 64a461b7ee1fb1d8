"""Roll for the Galaxy table and screen images, drawn from views only.

render_table (landscape, 1280 px wide, legible at the chat's 550 px): the phase strip (which phases run this
round, each with the tag its workers carry), the VP pool and bag, and for every seat a strip with its name, its
score as the game would count it now (VP chips beside it), credits and tiles; its tableau as named lines (worlds
with their goods, developments, faction tiles edged in gold); its construction zones (top tile, a box per worker
it costs, filled with the dice on it, and the tiles under it); its cup and Citizenry (a die per colour, their
number on it); and while the phases run, the workers it still has at work, by phase. Every die a seat owns is
drawn once. render_private: one seat's roll and assignment behind its screen, its full construction stacks and
the tiles it is scouting.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engines.base import View
from engines.roll_for_the_galaxy import data as D
from engines.roll_for_the_galaxy import rules as R
from render.common import (
    BACKGROUND,
    GOLD,
    MUTED,
    PANEL,
    PANEL_LIGHT,
    RGB,
    SEAT_COLOURS,
    SEAT_MARKS,
    TEXT,
    canvas,
    fitted,
    fitted_to_content,
    fixed_palette,
    font,
    paste_text,
    readable_on,
    to_png_fixed,
)
from render.results import current_scores
from render.text import labels as picture_labels

DIE = 20
# Dice in the cup, Citizenry and on worlds are told apart by colour alone, so their shades stay apart for
# colour-blind players (tests/render/test_palettes.py); a world is drawn in the colour of the goods it makes.
DIE_RGB = {d["id"]: tuple(d["rgb"]) for d in D.DICE}
WORLD_RGB = {"grey": (120, 122, 130), **{c: DIE_RGB[c] for c in ("blue", "brown", "green", "yellow")}}
DEV_RGB = (92, 70, 140)
PHASE_RUNNING = (70, 110, 80)
DIE_EDGE = (20, 20, 24)


def _labels(locale: str) -> dict[str, Any]:
    return picture_labels("roll_for_the_galaxy", locale)


def _face_mark(face: str, locale: str) -> str:
    """A die face's mark, in the reader's words (the string files' picture.face.*): the first letter or syllable
    of its phase's name, "$" for shipping and a star for the wild face."""
    return _labels(locale)["face"][face]


def _phase_name(phase: str, locale: str) -> str:
    names = D.RULES["phase_names"][phase]
    return names.get(locale[:2], names["en"])


def _side_name(side_id: str, locale: str) -> str:
    names = D.side(side_id)["name"]
    return names.get(locale[:2], names["en"])


def _stage_name(stage: str, locale: str) -> str:
    if stage in D.PHASES:
        return _phase_name(stage, locale)
    return _labels(locale)["stage"][stage]


def _die(
    image: Image.Image,
    x: int,
    y: int,
    color: str,
    mark: str = "",
    size: int = DIE,
    ghost: bool = False,
    ground: RGB = PANEL,
    text: int = 0,
) -> None:
    """A die on a plain `ground`, its mark `text` px tall (0: 0.6 of the die): drawn once per look, then only
    pasted (a board shows dozens)."""
    image.paste(_die_tile(color, mark, size, ghost, ground, text or int(size * 0.6)), (x, y))


@lru_cache(maxsize=512)
def _die_tile(color: str, mark: str, size: int, ghost: bool, ground: RGB, text: int) -> Image.Image:
    tile, draw = canvas(size + 1, size + 1, ground)
    fill = DIE_RGB[color]
    outline = GOLD if ghost else DIE_EDGE
    draw.rounded_rectangle((0, 0, size, size), 4, fill=fill, outline=outline, width=2 if ghost else 1)
    if mark:
        draw.text((size / 2, size / 2 + 1), mark, fill=readable_on(fill), font=font(text, True), anchor="mm")
    return tile


# The grounds that carry black or white letters.
_LETTERED = [*SEAT_COLOURS, *DIE_RGB.values(), *WORLD_RGB.values(), DEV_RGB, GOLD]
# Every colour the pictures draw, and the edges of letters on each ground: mapping to it keeps every pixel within
# 16 of 255 of what was drawn (a palette chosen per picture from its pixels moved thin edges by up to 36), in a
# third of the CPU.
PALETTE = fixed_palette(
    [BACKGROUND, PANEL, PANEL_LIGHT, TEXT, MUTED, GOLD, PHASE_RUNNING, DIE_EDGE, *_LETTERED],
    {
        BACKGROUND: [TEXT, MUTED],
        PANEL: [TEXT, MUTED, GOLD],
        PHASE_RUNNING: [TEXT],
        **{ground: [readable_on(ground)] for ground in _LETTERED},
    },
    steps=8,
)


def _png(image: Image.Image) -> bytes:
    return to_png_fixed(image, PALETTE)


# --- the table, sized for the chat: a strip across the picture for every seat ------------------------------
#
# The chat shows the picture about 550 px wide, so every size is chosen for what it becomes there
# (× CHAT_WIDTH / WIDTH). A seat's strip has its name, score and money on its first line; below, its tableau on
# the left and, on the right, its construction zones, its cup and Citizenry and the workers it still has at
# work this round.

WIDTH = 1280
MARGIN = 16
MIN_TEXT = 22  # the smallest letters (counts on dice, a seat's letter): 22 × 550 / 1280 = 9.5 px in the chat
LABEL = 24  # labels (Cup, Develop, status) and the cost on a tile: 10 px in the chat
NAME = 26  # tile names, money and counts: 11 px in the chat
HEAD = 30  # the title, player names and scores: 13 px in the chat
ROW = 32  # a line of a seat's strip, at the least (fewer seats space their lines out, up to ROW_MAX)
ROW_MAX = 42
TOP = 94  # the title and the phase strip
GAP = 6  # between strips
SIDE_W = 490  # the right-hand part of a strip: construction zones, dice, workers
BODY_DIE = 28  # dice in the cup, in the Citizenry and at work: their counts at MIN_TEXT
GOOD_DIE = 22  # goods on worlds (colour only)
SLOT = 20  # a worker's place on a construction, filled with its die (colour only)
TAG = 30  # a phase's tag (its die-face mark), in the phase strip and before the workers of that phase


def _height(players: int) -> int:
    """Between 2:1 and 4:3: five seats of five lines fill 960 px."""
    return min(WIDTH * 3 // 4, max(WIDTH // 2, TOP + players * 270))


def current_score(view: dict[str, Any], seat: int) -> int:
    """What the game would score the seat now (its final score once over): tiles, VP chips and bonuses, as the
    results picture counts them."""
    return current_scores(view)[seat]


def _at_work(view: dict[str, Any], s: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The workers a seat still has at a phase this round, phase by phase from the one running: those of the
    running phase are in its task (a power's extra, dieless workers left out), the later ones wait in their
    rows. Workers that have done their work are back in the cup, the Citizenry or on a construction, and no
    longer here; so are dictating dice."""
    if view["stage"] not in D.PHASES:
        return []
    task = s["task"] or {}
    out = []
    for phase in D.PHASES[D.PHASES.index(view["stage"]) :]:
        if phase == view["stage"]:
            dice = [*task.get("queue", []), *task.get("producers", [])]
            dice += [
                c for key in ("explorers", "shippers") for c, virtual in task.get(key, []) if not virtual
            ]
        else:
            dice = (s["rows"] or {}).get(phase, [])
        if dice:
            out.append((phase, R.sort_colors(dice)))
    return out


def _groups(colors: list[str]) -> list[tuple[str, int]]:
    return list(Counter(R.sort_colors(colors)).items())


def _dice_groups(image: Image.Image, x: int, cy: int, colors: list[str], room: int) -> int:
    """One die of each colour, the number of such dice on it; closer together when short of `room`. Returns the
    x after them."""
    groups = _groups(colors)
    if not groups:
        return x
    step = min(BODY_DIE + 4, max(12, (room - BODY_DIE) // (len(groups) - 1) if len(groups) > 1 else room))
    for i, (color, n) in enumerate(groups):
        _die(image, x + i * step, cy - BODY_DIE // 2, color, str(n), BODY_DIE, text=MIN_TEXT)
    return x + (len(groups) - 1) * step + BODY_DIE


def _phase_tag(
    image: Image.Image, x: int, cy: int, phase: str, locale: str, current: bool, ground: RGB
) -> None:
    image.paste(_tag_tile(_face_mark(phase, locale), current, ground), (x, cy - TAG // 2))


@lru_cache(maxsize=64)
def _tag_tile(mark: str, current: bool, ground: RGB) -> Image.Image:
    tile, draw = canvas(TAG + 1, TAG + 1, ground)
    draw.rounded_rectangle(
        (0, 0, TAG, TAG), 6, fill=PHASE_RUNNING, outline=GOLD if current else TEXT, width=3 if current else 1
    )
    draw.text((TAG / 2, TAG / 2 + 1), mark, fill=TEXT, font=font(MIN_TEXT + 2, True), anchor="mm")
    return tile


def _phase_strip(
    image: Image.Image, draw: ImageDraw.ImageDraw, y: int, view: dict[str, Any], locale: str
) -> None:
    """The five phases, those running this round in green, the one under way edged in gold; each with the tag
    its workers carry below. With two players, the extra Home die shows which phase it added."""
    width = (WIDTH - 2 * MARGIN - 4 * 8) // 5
    for i, phase in enumerate(D.PHASES):
        running = phase in view["phases"]
        current = view["stage"] == phase
        x0 = MARGIN + i * (width + 8)
        fill = PHASE_RUNNING if running else PANEL
        draw.rounded_rectangle(
            (x0, y, x0 + width, y + 40),
            8,
            fill=fill,
            outline=GOLD if current else PANEL_LIGHT,
            width=3 if current else 1,
        )
        _phase_tag(image, x0 + 6, y + 20, phase, locale, current, fill)
        extra = view.get("extra_die") == phase
        room = width - TAG - 18 - (36 if extra else 0)
        name = fitted(_phase_name(phase, locale), NAME, room, True)
        paste_text(image, (x0 + TAG + 14, y + 21), name, NAME, TEXT if running else MUTED, True, "lm")
        if extra:
            _die(
                image,
                x0 + width - 35,
                y + 5,
                "white",
                _face_mark(phase, locale),
                30,
                ground=fill,
                text=MIN_TEXT,
            )


def _status(view: dict[str, Any], seat: int, labels: dict[str, Any]) -> str:
    if view["stage"] == "over":
        return ""
    if view["stage"] == "assign":
        return labels["ready"] if view["seats"][seat]["ready"] else labels["assigning"]
    return labels["acting"] if seat in view["to_act"] else labels["done"]


def _tile_shape(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int, side_id: str, edge: RGB) -> RGB:
    """A world as a disc in the colour of its goods, a development as a purple diamond. Returns the fill."""
    data = D.side(side_id)
    if data["kind"] == "world":
        fill = WORLD_RGB[data["color"]]
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=edge, width=2)
    else:
        fill = DEV_RGB
        draw.polygon(
            [(cx, cy - r - 1), (cx + r + 1, cy), (cx, cy + r + 1), (cx - r - 1, cy)], fill=fill, outline=edge
        )
    return fill


def _table_tile(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    cy: int,
    w: int,
    entry: dict[str, Any],
    faction: bool,
    locale: str,
) -> None:
    """A tableau tile on one line: its cost (its VP) in its shape, its name, the goods on it as dice."""
    fill = _tile_shape(draw, x + 15, cy, 15, entry["id"], GOLD if faction else TEXT)
    paste_text(
        image, (x + 15, cy + 1), str(D.side(entry["id"])["cost"]), MIN_TEXT, readable_on(fill), True, "mm"
    )
    goods = entry["goods"] or []
    step = GOOD_DIE + 3
    room = w - 38 - len(goods) * step
    paste_text(
        image, (x + 36, cy), fitted(_side_name(entry["id"], locale), NAME, room), NAME, TEXT, anchor="lm"
    )
    for i, good in enumerate(goods):
        _die(image, x + w - (i + 1) * step, cy - GOOD_DIE // 2, good, size=GOOD_DIE)


def _zone(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    cy: int,
    w: int,
    s: dict[str, Any],
    key: str,
    locale: str,
) -> None:
    """A construction zone: the tile on top of its stack, a box for each worker it costs (filled with the dice
    already on it), and how many tiles wait under it."""
    labels = _labels(locale)
    top = s[f"{key}_top"]
    if top is None:
        paste_text(image, (x, cy), labels["empty"], LABEL, MUTED, anchor="lm")
        return
    side_id = D.TILE_SIDES[top]["development" if key == "dev" else "world"]
    workers = s[f"{key}_workers"]
    slots = max(s[f"{key}_cost"] or 0, len(workers))
    step = SLOT + 3
    under = s[f"{key}_size"] - 1
    more = f"+{under}" if under > 0 else ""
    more_w = int(font(LABEL, True).getlength(more)) + 6 if more else 0
    # the stack: the top tile's shape over the edges of those under it
    for k in range(min(under, 2), 0, -1):
        _tile_shape(draw, x + 15 + 5 * k, cy - 3 * k, 14, side_id, MUTED)
    _tile_shape(draw, x + 15, cy, 14, side_id, TEXT)
    paste_text(image, (x + 36, cy), more, LABEL, MUTED, True, "lm")
    name_x = x + 36 + more_w + (6 if more else 0)
    room = x + w - slots * step - 8 - name_x
    paste_text(image, (name_x, cy), fitted(_side_name(side_id, locale), NAME, room), NAME, TEXT, anchor="lm")
    for i in range(slots):
        sx = x + w - (slots - i) * step
        if i < len(workers):
            _die(image, sx, cy - SLOT // 2, workers[i], size=SLOT)
        else:
            draw.rounded_rectangle((sx, cy - SLOT // 2, sx + SLOT, cy + SLOT // 2), 4, outline=MUTED, width=2)


def _seat_strip(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    view: dict[str, Any],
    seat: int,
    name: str,
    layout: tuple[int, int],
    locale: str,
) -> None:
    """`layout`: the height of a line, and how many of the tableau's tiles a column may hold."""
    row, lines = layout
    labels = _labels(locale)
    s = view["seats"][seat]
    x0, y0, x1, y1 = box
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    acting = seat in view["to_act"] and view["stage"] != "over"
    draw.rounded_rectangle(box, 10, fill=PANEL, outline=colour, width=5 if acting else 2)
    # first line: who, the score as the game would count it now, money, tiles, and whether they are to act
    cy = y0 + 3 + row // 2
    draw.ellipse((x0 + 10, cy - 15, x0 + 40, cy + 15), fill=colour)
    paste_text(image, (x0 + 25, cy + 1), SEAT_MARKS[seat], MIN_TEXT, readable_on(colour), True, "mm")
    paste_text(image, (x0 + 50, cy), fitted(name, HEAD, 280, True), HEAD, TEXT, True, "lm")
    x = x0 + 350
    total = labels["vp"].format(n=current_score(view, seat))
    paste_text(image, (x, cy), total, HEAD, GOLD, True, "lm")
    x += int(font(HEAD, True).getlength(total)) + 10
    chips = f"({labels['category']['chips']} {s['vp']})"
    paste_text(image, (x, cy), chips, LABEL, MUTED, anchor="lm")
    x = max(x + int(font(LABEL).getlength(chips)) + 28, x0 + 680)
    credits = labels["credits"].format(n=s["credits"])
    paste_text(image, (x, cy), credits, NAME, TEXT, True, "lm")
    x += max(int(font(NAME, True).getlength(credits)), 50) + 24
    paste_text(image, (x, cy), labels["spaces"].format(n=s["spaces"]), NAME, TEXT, anchor="lm")
    status = _status(view, seat, labels)
    if status:
        status_w = int(font(LABEL, True).getlength(status))
        if acting:
            draw.rounded_rectangle((x1 - status_w - 26, cy - 15, x1 - 10, cy + 15), 8, fill=GOLD)
            paste_text(image, (x1 - 18, cy), status, LABEL, readable_on(GOLD), True, "rm")
        else:
            paste_text(image, (x1 - 18, cy), status, LABEL, MUTED, True, "rm")
    # the tableau, in columns, faction tiles (gold edge) first
    body = y0 + 3 + row
    side_x = x1 - 12 - SIDE_W
    columns = max(2, R.ceil_div(len(s["tableau"]), lines))
    per_column = max(1, R.ceil_div(len(s["tableau"]), columns))
    col_w = (side_x - 20 - (x0 + 10)) // columns
    faction_sides = set(D.FACTION_SIDES[s["faction"]])
    for i, entry in enumerate(s["tableau"]):
        col, line = divmod(i, per_column)
        _table_tile(
            image,
            draw,
            x0 + 10 + col * col_w,
            body + line * row + row // 2,
            col_w - 10,
            entry,
            entry["id"] in faction_sides,
            locale,
        )
    draw.line((side_x - 10, body + 4, side_x - 10, y1 - 8), fill=PANEL_LIGHT, width=2)
    # the right-hand side: construction zones, cup and Citizenry, the workers still at work this round
    label_w = min(150, max(int(font(LABEL, True).getlength(labels[k])) + 1 for k in ("dev", "world"))) + 10
    for i, key in enumerate(("dev", "world")):
        cy = body + i * row + row // 2
        paste_text(
            image, (side_x, cy), fitted(labels[key], LABEL, label_w - 8, True), LABEL, MUTED, True, "lm"
        )
        _zone(image, draw, side_x + label_w, cy, SIDE_W - label_w, s, key, locale)
    cy = body + 2 * row + row // 2
    x = side_x
    cup_room = SIDE_W // 2
    # the cup in the first half; the Citizenry after it, from the half at the earliest, to the strip's edge
    for label, dice, end in (
        (labels["cup"], s["cup"], side_x + cup_room - 20),
        (labels["citizenry"], s["citizenry"], x1 - 12),
    ):
        paste_text(image, (x, cy), label, LABEL, MUTED, True, "lm")
        start = x + int(font(LABEL, True).getlength(label)) + 8
        x = max(_dice_groups(image, start, cy, dice, end - start) + 24, side_x + cup_room)
    cy = body + 3 * row + row // 2
    if view["stage"] == "assign" and s["rolled"]:
        rolled = labels["rolled"].format(n=len(s["rolled"]))
        paste_text(image, (side_x, cy), rolled, LABEL, MUTED, True, "lm")
        start = side_x + int(font(LABEL, True).getlength(rolled)) + 8
        _dice_groups(image, start, cy, s["rolled"], x1 - 12 - start)
    x = side_x
    for phase, dice in _at_work(view, s):
        _phase_tag(image, x, cy, phase, locale, phase == view["stage"], PANEL)
        x = _dice_groups(image, x + TAG + 6, cy, dice, x1 - 12 - x - TAG - 6) + 16


def render_table(view: View, names: list[str], locale: str) -> bytes:
    labels = _labels(locale)
    players = view["players"]
    height = _height(players)
    image, draw = canvas(WIDTH, height)
    title = labels["round"].format(n=view["round"]) + " · " + _stage_name(view["stage"], locale)
    paste_text(image, (MARGIN, 8), fitted(title, HEAD, 640, True), HEAD, TEXT, True)
    info = [labels["pool"].format(n=view["vp_pool"]), labels["bag"].format(n=view["bag_size"])]
    if view["discard_count"]:
        info.append(labels["discards"].format(n=view["discard_count"]))
    paste_text(
        image, (WIDTH - MARGIN, 10), fitted("   ".join(info), NAME, 560, True), NAME, MUTED, True, "ra"
    )
    _phase_strip(image, draw, 50, view, locale)
    strip_h = (height - TOP - (players - 1) * GAP - 4) // players
    # the tableau in as few columns (at least two) as the strip's lines allow, its tiles spread evenly over them;
    # the right-hand side needs four lines
    body_lines = max(4, (strip_h - 6) // ROW - 1)
    most = max(len(s["tableau"]) for s in view["seats"])
    lines = max(1, R.ceil_div(most, max(2, R.ceil_div(most, body_lines))))
    row = min(ROW_MAX, (strip_h - 6) // (1 + max(4, lines)))
    for seat in range(players):
        y = TOP + seat * (strip_h + GAP)
        name = names[seat] if seat < len(names) else SEAT_MARKS[seat]
        _seat_strip(
            image,
            draw,
            (MARGIN, y, WIDTH - MARGIN, y + strip_h),
            view,
            seat,
            name,
            (row, lines),
            locale,
        )
    return _png(image)


# --- the screen (render_private): one seat's own picture, as wide as the table was -------------------------

SCREEN_W = 1100
SMALL = 22  # the smallest letters on the screen: 22 × 550 / 1100 = 11 px in the chat
HEADING = 24
LINE = 32


def _tile_line(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    entry: dict[str, Any],
    faction: bool,
    locale: str,
) -> None:
    """A tile on one line of the screen: its cost in a circle (world, in the world's colour) or diamond
    (development), its name."""
    cx, cy = x + 15, y + LINE // 2
    fill = _tile_shape(draw, cx, cy, 14, entry["id"], GOLD if faction else TEXT)
    paste_text(image, (cx, cy + 1), str(D.side(entry["id"])["cost"]), SMALL, readable_on(fill), True, "mm")
    name = fitted(_side_name(entry["id"], locale), SMALL, w - 38)
    paste_text(image, (x + 34, cy), name, SMALL, TEXT, anchor="lm")


# Where the rolled dice are assigned: four boxes a row, the unassigned dice in a double box at the end, so the
# dice are large enough to read in the chat (seven boxes in a row left their letters 8 px tall there).
SCREEN_BOXES: list[tuple[str | None, int]] = [*((phase, 1) for phase in D.PHASES), ("dictate", 1), (None, 2)]
BOX_COLUMNS = 4
SCREEN_DIE = 44  # 22 px in the chat, its letter 13 px


def _assignment(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    y: int,
    dice: list[dict[str, Any]],
    sel: int | None,
    labels: dict[str, str],
    locale: str,
) -> int:
    """The boxes of the phases, Dictate and the unassigned dice, with each die where it is; the y below them."""
    unit = (SCREEN_W - 32) // BOX_COLUMNS
    step = SCREEN_DIE + 6
    rows: list[list[tuple[str | None, int]]] = [[]]
    for column, span in SCREEN_BOXES:
        if sum(s for _, s in rows[-1]) + span > BOX_COLUMNS:
            rows.append([])
        rows[-1].append((column, span))
    for row in rows:
        fits = [(span * unit - 20) // step for _, span in row]
        counts = [sum(1 for d in dice if d["at"] == column) for column, _ in row]
        lines = max(1, *(-(-n // fit) for n, fit in zip(counts, fits, strict=True)))
        box_h = 44 + lines * step
        x = 16
        for column, span in row:
            w = span * unit
            chosen = sel is not None and dice[sel]["at"] == column
            name = {None: labels["unassigned"], "dictate": labels["dictate"]}.get(column) or _phase_name(
                column, locale
            )
            draw.rounded_rectangle(
                (x, y, x + w - 8, y + box_h),
                8,
                fill=PANEL,
                outline=GOLD if chosen else PANEL_LIGHT,
                width=3 if chosen else 1,
            )
            paste_text(image, (x + 10, y + 8), fitted(name, SMALL, w - 28, True), SMALL, TEXT, True)
            fit = (w - 20) // step
            placed = [(index, d) for index, d in enumerate(dice) if d["at"] == column]
            for k, (index, die) in enumerate(placed):
                mark = _face_mark(die["f"], locale)
                dx, dy = x + 8 + (k % fit) * step, y + 38 + (k // fit) * step
                _die(image, dx, dy, die["c"], mark, size=SCREEN_DIE, ghost=index == sel)
            x += w
        y += box_h + 10
    return y


def private_shows(view: View) -> Any:
    """What render_private draws of the view: the stage, the viewer's own seat and discards."""
    seat = view["viewer"]
    if seat is None:
        return None
    return seat, view["stage"], view["seats"][seat], view.get("my_discards", [])


def render_private(view: View, locale: str) -> bytes | None:
    """The viewer's screen: its roll and assignment, its construction stacks, tiles being scouted; as legible
    in the chat as the table (no word under 11 px there)."""
    seat = view["viewer"]
    if seat is None:
        return None
    labels = _labels(locale)
    s = view["seats"][seat]
    image, draw = canvas(SCREEN_W, 1000)
    title = labels["screen"] + " · " + _stage_name(view["stage"], locale)
    paste_text(image, (16, 12), fitted(title, 28, SCREEN_W - 32, True), 28, TEXT, True)
    y = 58
    dice = s.get("dice")
    if dice:
        y = _assignment(image, draw, y, dice, s.get("sel"), labels, locale)
        status = labels["ready"] if s["ready"] else labels["assigning"]
        paste_text(image, (16, y), f"{labels['rolled'].format(n=len(dice))} · {status}", SMALL, MUTED, True)
        y += 32
    elif view["stage"] == "setup" and s["start_tiles"]:
        paste_text(image, (16, y), labels["setup"], HEADING, TEXT, True)
        y += 36
        half = (SCREEN_W - 48) // 2
        for tile in s["start_tiles"]:
            for j, kind in enumerate(("development", "world")):
                entry = {"id": D.TILE_SIDES[tile][kind], "goods": []}
                _tile_line(image, draw, 16 + j * (half + 16), y, half, entry, False, locale)
            y += LINE
        y += 10
    else:
        message = labels["waiting"] if view["stage"] == "assign" else labels["nothing"]
        paste_text(image, (16, y), message, SMALL, MUTED)
        y += 40
    # construction stacks, top first, three tiles a line
    paste_text(image, (16, y), labels["stack"], HEADING, TEXT, True)
    y += 36
    col_w = (SCREEN_W - 32 - 140) // 3
    for key in ("dev_stack", "world_stack"):
        kind = "development" if key == "dev_stack" else "world"
        tiles = s.get(key, [])
        paste_text(
            image, (16, y + 2), labels["dev" if kind == "development" else "world"], SMALL, MUTED, True
        )
        if not tiles:
            paste_text(image, (156, y + 2), labels["empty"], SMALL, MUTED)
            y += LINE
        for i, tile in enumerate(tiles):
            entry = {"id": D.TILE_SIDES[tile][kind], "goods": []}
            _tile_line(
                image, draw, 156 + (i % 3) * col_w, y + (i // 3) * LINE, col_w - 8, entry, False, locale
            )
        y += ((len(tiles) + 2) // 3) * LINE + 8
    # tiles drawn while scouting and one's own discards: both sides of each
    scout = (s.get("task") or {}).get("scout") or {}
    for label, tiles in (
        (labels["drawn"], scout.get("drawn", [])),
        (labels["my_discards"], view.get("my_discards", [])),
    ):
        if not tiles:
            continue
        paste_text(image, (16, y + 4), label, HEADING, TEXT, True)
        y += 38
        half = (SCREEN_W - 48) // 2
        for tile in tiles:
            for j, kind in enumerate(("development", "world")):
                entry = {"id": D.TILE_SIDES[tile][kind], "goods": []}
                _tile_line(image, draw, 16 + j * (half + 16), y, half, entry, False, locale)
            y += LINE
        y += 8
    return _png(fitted_to_content(image.crop((0, 0, SCREEN_W, max(y + 12, 200)))))
