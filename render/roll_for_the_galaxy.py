"""Roll for the Galaxy table and screen images, drawn from views only.

render_table (landscape, legible at the chat's 550 px): the phase strip (which phases run this round), the VP
pool and bag, and for every seat a panel with its tableau as named lines (worlds with their goods,
developments, faction tiles edged in gold), construction zones (top tile, workers, stack size), cup and
Citizenry dice by colour, credits and chips, and its revealed assignment. render_private: one seat's
roll and assignment behind its screen, its full construction stacks and the tiles it is scouting.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engines.base import View
from engines.roll_for_the_galaxy import data as D
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
) -> None:
    """A die on a plain `ground`: drawn once per look, then only pasted (a board shows dozens)."""
    image.paste(_die_tile(color, mark, size, ghost, ground), (x, y))


@lru_cache(maxsize=512)
def _die_tile(color: str, mark: str, size: int, ghost: bool, ground: RGB) -> Image.Image:
    tile, draw = canvas(size + 1, size + 1, ground)
    fill = DIE_RGB[color]
    outline = GOLD if ghost else DIE_EDGE
    draw.rounded_rectangle((0, 0, size, size), 4, fill=fill, outline=outline, width=2 if ghost else 1)
    if mark:
        draw.text(
            (size / 2, size / 2), mark, fill=readable_on(fill), font=font(int(size * 0.6), True), anchor="mm"
        )
    return tile


def _dice_row(image: Image.Image, x: int, y: int, colors: list[str], max_width: int, size: int = DIE) -> int:
    """Dice side by side; when they do not fit, the rest is summarised as +n. Returns the x after the row."""
    step = size + 3
    fit = max(1, max_width // step)
    shown = colors if len(colors) <= fit else colors[: fit - 1]
    for i, color in enumerate(shown):
        _die(image, x + i * step, y, color, size=size)
    end = x + len(shown) * step
    if len(shown) < len(colors):
        ImageDraw.Draw(image).text(
            (end + 2, y + size / 2),
            f"+{len(colors) - len(shown)}",
            fill=TEXT,
            font=font(SMALL, True),
            anchor="lm",
        )
        end += 40
    return end


def _phase_strip(
    image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, view: dict[str, Any], locale: str
) -> None:
    width = (TABLE_W - 2 * x - 4 * 8) // 5
    for i, phase in enumerate(D.PHASES):
        running = phase in view["phases"]
        current = view["stage"] == phase
        x0 = x + i * (width + 8)
        fill = PHASE_RUNNING if running else PANEL
        draw.rounded_rectangle(
            (x0, y, x0 + width, y + 40),
            8,
            fill=fill,
            outline=GOLD if current else PANEL_LIGHT,
            width=3 if current else 1,
        )
        label = fitted(f"{i + 1}. {_phase_name(phase, locale)}", 20, width - 36, True)
        paste_text(image, (x0 + 10, y + 20), label, 20, TEXT if running else MUTED, True, "lm")
        if view.get("extra_die") == phase:
            _die(image, x0 + width - 34, y + 5, "white", _face_mark(phase, locale), size=30, ground=fill)


def _status(view: dict[str, Any], seat: int, labels: dict[str, Any]) -> str:
    if view["stage"] == "over":
        return labels["score"].format(n=view["seats"][seat]["score"])
    if view["stage"] == "assign":
        return labels["ready"] if view["seats"][seat]["ready"] else labels["assigning"]
    return labels["acting"] if seat in view["to_act"] else labels["done"]


# The grounds that carry black or white letters.
_LETTERED = [*SEAT_COLOURS, *DIE_RGB.values(), *WORLD_RGB.values(), DEV_RGB]
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


# --- the table, sized for the chat: seats in a grid of panels, tiles as named lines -------------------------

TABLE_W = 1100
SMALL = 18  # the smallest letters on the table: 18 × 550 / 1100 = 9 px in the chat
LINE = 26


def _columns(players: int) -> int:
    return 3 if players >= 5 else 2 if players >= 2 else 1


def _tableau_rows(view: dict[str, Any]) -> int:
    per = 2  # tiles side by side in a panel
    return max(2, max((len(s["tableau"]) + per - 1) // per for s in view["seats"]))


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
    """A tableau tile on one line: its cost in a circle (world, in the world's colour) or diamond
    (development), its name, and the goods on it as small dice."""
    data = D.side(entry["id"])
    world = data["kind"] == "world"
    fill = WORLD_RGB[data["color"]] if world else DEV_RGB
    cx, cy, r = x + 12, y + LINE // 2, 11
    if world:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=GOLD if faction else TEXT, width=2)
    else:
        draw.polygon(
            [(cx, cy - r - 1), (cx + r + 1, cy), (cx, cy + r + 1), (cx - r - 1, cy)],
            fill=fill,
            outline=GOLD if faction else TEXT,
        )
    paste_text(image, (cx, cy + 1), str(data["cost"]), SMALL, readable_on(fill), True, "mm")
    goods = entry["goods"] or []
    room = w - 30 - len(goods) * 17
    name = fitted(_side_name(entry["id"], locale), SMALL, room)
    paste_text(image, (x + 28, cy), name, SMALL, TEXT, anchor="lm")
    for i, good in enumerate(goods):
        _die(
            image, x + w - 16 - i * 17, cy - 7, good, size=14
        )  # goods lie only on tableaux, in a seat's panel


def _seat_box(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    view: dict[str, Any],
    seat: int,
    name: str,
    locale: str,
) -> None:
    labels = _labels(locale)
    s = view["seats"][seat]
    x0, y0, x1, y1 = box
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    acting = seat in view["to_act"] and view["stage"] != "over"
    draw.rounded_rectangle(box, 10, fill=PANEL, outline=colour, width=4 if acting else 2)
    draw.ellipse((x0 + 10, y0 + 8, x0 + 36, y0 + 34), fill=colour)
    paste_text(image, (x0 + 23, y0 + 22), SEAT_MARKS[seat], SMALL, readable_on(colour), True, "mm")
    status = _status(view, seat, labels)
    status_w = int(font(SMALL, True).getlength(status))
    numbers = "  ".join(
        [
            labels["credits"].format(n=s["credits"]),
            labels["vp"].format(n=s["vp"]),
            labels["spaces"].format(n=s["spaces"]),
        ]
    )
    head = ("▶ " if acting else "") + name
    room = x1 - x0 - 60 - status_w - 16
    paste_text(image, (x0 + 44, y0 + 8), fitted(head, 22, max(room, 60), True), 22, TEXT, True)
    paste_text(image, (x1 - 12, y0 + 10), status, SMALL, TEXT if acting else MUTED, True, "ra")
    paste_text(image, (x0 + 14, y0 + 40), fitted(numbers, 20, x1 - x0 - 28, True), 20, GOLD, True)
    # tableau, two tiles a line, faction tiles (gold edge) first
    faction_sides = set(D.FACTION_SIDES[s["faction"]])
    col_w = (x1 - x0 - 28) // 2
    ty = y0 + 68
    for i, entry in enumerate(s["tableau"]):
        _tile_line(
            image,
            draw,
            x0 + 10 + (i % 2) * (col_w + 8),
            ty + (i // 2) * LINE,
            col_w,
            entry,
            entry["id"] in faction_sides,
            locale,
        )
    y = ty + _tableau_rows(view) * LINE + 6
    draw.line((x0 + 10, y - 3, x1 - 10, y - 3), fill=PANEL_LIGHT)
    # construction zones: top tile, its workers out of the cost, stack size
    for key, label in (("dev", labels["dev"]), ("world", labels["world"])):
        top = s[f"{key}_top"]
        label_w = int(font(SMALL, True).getlength(label)) + 10
        paste_text(image, (x0 + 12, y + 2), label, SMALL, MUTED, True)
        if top is None:
            paste_text(image, (x0 + 12 + label_w, y + 2), labels["empty"], SMALL, MUTED)
        else:
            side_id = D.TILE_SIDES[top]["development" if key == "dev" else "world"]
            tail = f" {len(s[f'{key}_workers'])}/{s[f'{key}_cost']} ×{s[f'{key}_size']}"
            tail_w = int(font(SMALL, True).getlength(tail))
            name_room = x1 - x0 - 24 - label_w - tail_w
            text = fitted(_side_name(side_id, locale), SMALL, name_room)
            paste_text(image, (x0 + 12 + label_w, y + 2), text, SMALL, TEXT)
            paste_text(image, (x1 - 12, y + 2), tail, SMALL, TEXT, True, "ra")
        y += LINE
    # cup and Citizenry dice, and the revealed assignment
    cup = s["cup"] if view["stage"] != "assign" else s["rolled"] + s["cup"]
    half = (x1 - x0) // 2
    for i, (label, dice) in enumerate(((labels["cup"], cup), (labels["citizenry"], s["citizenry"]))):
        lx = x0 + 12 + i * half
        paste_text(image, (lx, y + 2), label, SMALL, MUTED, True)
        dx = lx + int(font(SMALL, True).getlength(label)) + 8
        _dice_row(image, dx, y + 4, dice, half - (dx - lx) - 14, size=18)
    y += LINE
    revealed = s["revealed"]
    if revealed:
        x = x0 + 12
        for phase in D.PHASES:
            workers = revealed["rows"][phase]
            chosen = revealed["chosen"] == phase
            paste_text(image, (x, y + 2), _face_mark(phase, locale), SMALL, GOLD if chosen else MUTED, True)
            x = _dice_row(image, x + 18, y + 5, workers, 80, size=16) + 8 if workers else x + 30
        if revealed["dictate"]:
            _dice_row(image, x + 4, y + 5, revealed["dictate"], 50, size=16)


def _panel_height(view: dict[str, Any]) -> int:
    return 68 + _tableau_rows(view) * LINE + 6 + 4 * LINE + 8


def render_table(view: View, names: list[str], locale: str) -> bytes:
    labels = _labels(locale)
    players = view["players"]
    cols = _columns(players)
    rows = (players + cols - 1) // cols
    top = 112
    panel_h = _panel_height(view)
    height = max(top + rows * (panel_h + 10) + 4, TABLE_W // 2 + 1)
    panel_h = (height - top - 4) // rows - 10  # panels share whatever height the 2:1 floor adds
    image, draw = canvas(TABLE_W, height)
    title = labels["round"].format(n=view["round"]) + " · " + _stage_name(view["stage"], locale)
    paste_text(image, (16, 12), fitted(title, 28, 600, True), 28, TEXT, True)
    info = [labels["pool"].format(n=view["vp_pool"]), labels["bag"].format(n=view["bag_size"])]
    if view["discard_count"]:
        info.append(labels["discards"].format(n=view["discard_count"]))
    paste_text(image, (TABLE_W - 16, 18), fitted("   ".join(info), 20, 460, True), 20, MUTED, True, "ra")
    _phase_strip(image, draw, 16, 60, view, locale)
    panel_w = (TABLE_W - 32 - (cols - 1) * 10) // cols
    for seat in range(players):
        x = 16 + (seat % cols) * (panel_w + 10)
        y = top + (seat // cols) * (panel_h + 10)
        name = names[seat] if seat < len(names) else SEAT_MARKS[seat]
        _seat_box(image, draw, (x, y, x + panel_w, y + panel_h), view, seat, name, locale)
    return _png(image)


def private_shows(view: View) -> Any:
    """What render_private draws of the view: the stage, the viewer's own seat and discards."""
    seat = view["viewer"]
    if seat is None:
        return None
    return seat, view["stage"], view["seats"][seat], view.get("my_discards", [])


def render_private(view: View, locale: str) -> bytes | None:
    """The viewer's screen: its roll and assignment, its construction stacks, tiles being scouted; as legible
    in the chat as the table (the same width and letters)."""
    seat = view["viewer"]
    if seat is None:
        return None
    labels = _labels(locale)
    s = view["seats"][seat]
    image, draw = canvas(TABLE_W, 1000)
    title = labels["screen"] + " · " + _stage_name(view["stage"], locale)
    paste_text(image, (16, 12), fitted(title, 26, TABLE_W - 32, True), 26, TEXT, True)
    y = 56
    dice = s.get("dice")
    if dice:
        sel = s.get("sel")
        columns = [*D.PHASES, "dictate", None]
        col_w = (TABLE_W - 32) // len(columns)
        rows = max(1, max((sum(1 for d in dice if d["at"] == c) + 3) // 4 for c in columns))
        box_h = 40 + rows * 36
        for i, column in enumerate(columns):
            x = 16 + i * col_w
            chosen = sel is not None and dice[sel]["at"] == column
            name = {None: labels["unassigned"], "dictate": labels["dictate"]}.get(column) or _phase_name(
                column, locale
            )
            draw.rounded_rectangle(
                (x, y, x + col_w - 8, y + box_h),
                8,
                fill=PANEL,
                outline=GOLD if chosen else PANEL_LIGHT,
                width=3 if chosen else 1,
            )
            paste_text(image, (x + 8, y + 8), fitted(name, SMALL, col_w - 24, True), SMALL, TEXT, True)
            placed = [(index, d) for index, d in enumerate(dice) if d["at"] == column]
            for k, (index, die) in enumerate(placed):
                _die(
                    image,
                    x + 6 + (k % 4) * 34,
                    y + 36 + (k // 4) * 36,
                    die["c"],
                    _face_mark(die["f"], locale),
                    size=30,
                    ghost=index == sel,
                )
        status = labels["ready"] if s["ready"] else labels["assigning"]
        paste_text(
            image,
            (16, y + box_h + 8),
            f"{labels['rolled'].format(n=len(dice))} · {status}",
            SMALL,
            MUTED,
            True,
        )
        y += box_h + 40
    elif view["stage"] == "setup" and s["start_tiles"]:
        paste_text(image, (16, y), labels["setup"], 20, TEXT, True)
        y += 30
        half = (TABLE_W - 48) // 2
        for tile in s["start_tiles"]:
            for j, kind in enumerate(("development", "world")):
                entry = {"id": D.TILE_SIDES[tile][kind], "goods": []}
                _tile_line(image, draw, 16 + j * (half + 16), y, half, entry, False, locale)
            y += LINE
        y += 10
    else:
        message = labels["waiting"] if view["stage"] == "assign" else labels["nothing"]
        paste_text(image, (16, y), message, 20, MUTED)
        y += 36
    # construction stacks, top first, three tiles a line
    paste_text(image, (16, y), labels["stack"], 20, TEXT, True)
    y += 30
    col_w = (TABLE_W - 32 - 140) // 3
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
        paste_text(image, (16, y + 4), label, 20, TEXT, True)
        y += 32
        half = (TABLE_W - 48) // 2
        for tile in tiles:
            for j, kind in enumerate(("development", "world")):
                entry = {"id": D.TILE_SIDES[tile][kind], "goods": []}
                _tile_line(image, draw, 16 + j * (half + 16), y, half, entry, False, locale)
            y += LINE
        y += 8
    return _png(fitted_to_content(image.crop((0, 0, TABLE_W, max(y + 12, 200)))))
