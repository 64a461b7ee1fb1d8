"""Roll Player table image, drawn from views only.

Everything in Roll Player is on the table for all to see (sheets, backstories, alignments, gold, the market);
only the market deck's order is hidden, and no view carries it. So there is no private screen: render_private
is None.

The table is redrawn after every move, so it is built for speed: whatever looks the same from image to image
(card faces, dice, alignment grids, card chips, labels) is drawn once into a small picture, kept in a
module-level cache keyed by what it shows, and pasted; the finished picture is mapped onto a fixed palette of
the colours we draw instead of choosing a palette for each image.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engines.base import View
from engines.roll_player.data import (
    ALIGNMENTS,
    ATTRIBUTES,
    BACKSTORIES,
    CARDS,
    CLASSES,
    DICE,
    RACES,
    SLOTS,
    SOLO,
)
from engines.roll_player.scoring import final_attribute, score_seat
from render.common import (
    ACCENT,
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
    fixed_palette,
    font,
    paste_text,
    readable_on,
    to_png_fixed,
)
from render.text import labels as picture_labels

WIDTH = 1240
MARGIN = 16
DIE_RGB: dict[str, tuple[int, int, int]] = {c["id"]: tuple(c["rgb"]) for c in DICE["colours"]}  # type: ignore[misc]
# Where a card moves the alignment token: solid triangles, since the thin arrows read as "|" and "—" in the chat.
ARROWS = {"up": "▲", "down": "▼", "left": "◀", "right": "▶"}
TYPE_RGB = {
    "weapon": (190, 90, 70),
    "armor": (110, 130, 150),
    "trait": (170, 120, 60),
    "skill": (80, 140, 110),
}
GOOD_RGB = (90, 200, 120)
BAD_RGB = (230, 100, 100)
OUTLINE = (200, 200, 200)  # edge of the black and white dice, which would vanish on a dark or light panel
WHITE = (250, 250, 250)
COIN_INK = (40, 30, 0)
CELL_RGB = {1: (70, 110, 80), -1: (110, 60, 60), 0: PANEL_LIGHT}  # alignment cells by the sign of their stars

# Every colour drawn, and the grounds each text colour is drawn on (for the blends at letters' edges).
PALETTE = fixed_palette(
    [
        BACKGROUND,
        PANEL,
        PANEL_LIGHT,
        TEXT,
        MUTED,
        ACCENT,
        GOLD,
        OUTLINE,
        WHITE,
        COIN_INK,
        GOOD_RGB,
        BAD_RGB,
        *SEAT_COLOURS,
        *DIE_RGB.values(),
        *TYPE_RGB.values(),
        *CELL_RGB.values(),
    ],
    {
        BACKGROUND: [TEXT, MUTED, ACCENT, GOLD],
        PANEL: [TEXT, MUTED, GOLD, GOOD_RGB, BAD_RGB, *TYPE_RGB.values()],
        GOLD: [COIN_INK],
        **{rgb: [readable_on(rgb)] for rgb in DIE_RGB.values()},
        **{rgb: [WHITE] for rgb in TYPE_RGB.values()},
        **{rgb: [TEXT] for rgb in CELL_RGB.values()},
    },
)


def _labels(lang: str) -> dict[str, Any]:
    return picture_labels("roll_player", lang)


def _name(entry: dict[str, Any], lang: str) -> str:
    names = entry["name"]
    return names.get(lang) or names["en"]


def _text(entry: dict[str, Any], lang: str) -> str:
    texts = entry.get("text") or {}
    return texts.get(lang) or texts.get("en", "")


# --- pictures drawn once and pasted -------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _die(colour: str | None, value: int | None, size: int, hint: str | None) -> tuple[Image.Image, int]:
    """A die (or an empty box) on a panel, and the margin around it: a box the backstory wants a colour in is
    ringed with that colour."""
    pad = 4 if hint else 0
    tile, draw = canvas(size + 2 * pad + 1, size + 2 * pad + 1, PANEL)
    box = (pad, pad, pad + size, pad + size)
    if colour is None:
        outline = DIE_RGB[hint] if hint else PANEL_LIGHT
        draw.rounded_rectangle(box, radius=7, fill=PANEL, outline=outline, width=3 if hint else 2)
        return tile, pad
    rgb = DIE_RGB[colour]
    draw.rounded_rectangle(box, radius=7, fill=rgb, outline=OUTLINE if colour == "black" else None, width=2)
    if hint:
        draw.rounded_rectangle((1, 1, size + 7, size + 7), radius=9, outline=DIE_RGB[hint], width=2)
    draw.text(
        (pad + size / 2, pad + size / 2 + 1),
        str(value),
        font=font(int(size * 0.6), True),
        anchor="mm",
        fill=readable_on(rgb),
    )
    return tile, pad


def _paste_die(
    image: Image.Image, x: int, y: int, size: int, die: list[Any] | None, hint: str | None = None
) -> None:
    tile, pad = _die(die[0] if die else None, die[1] if die else None, size, hint)
    image.paste(tile, (x - pad, y - pad))


def _wrap(text: str, size: int, width: int) -> list[str]:
    """Words in lines of at most `width` pixels (a single longer word gets a line of its own)."""
    face = font(size)
    out: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if not line or face.getlength(trial) <= width:
            line = trial
        else:
            out.append(line)
            line = word
    out.append(line)
    return out


@lru_cache(maxsize=512)
def _chip(card_id: str, lang: str, exhausted: bool) -> Image.Image:
    """A bought card's name in its sheet area; a used (exhausted) skill is dimmed."""
    card = CARDS[card_id]
    name = _name(card, lang)
    width = int(font(17).getlength(name)) + 14
    tile, draw = canvas(width + 1, 25, PANEL)
    draw.rounded_rectangle(
        (0, 0, width, 24),
        radius=6,
        fill=BACKGROUND if exhausted else PANEL_LIGHT,
        outline=TYPE_RGB[card["type"]],
    )
    draw.text((7, 2), name, font=font(17), fill=MUTED if exhausted else TEXT)
    return tile


ALIGN_CELL = 46


@lru_cache(maxsize=256)
def _alignment(card_id: str, token: int, lang: str) -> Image.Image:
    """An alignment card: its name over the 3×3 grid of stars, the token's cell ringed in gold."""
    card = ALIGNMENTS[card_id]
    cell = ALIGN_CELL
    tile, draw = canvas(3 * cell + 9, 3 * (cell + 4) + 22, PANEL)
    draw.text((0, 0), fitted(_name(card, lang), 17, 3 * cell + 8), font=font(17), fill=MUTED)
    for i, value in enumerate(card["grid"]):
        cx = (i % 3) * (cell + 4)
        cy = 22 + (i // 3) * (cell + 4)
        mine = token == i
        fill = CELL_RGB[(value > 0) - (value < 0)]
        ring = GOLD if mine else None
        draw.rounded_rectangle((cx, cy, cx + cell, cy + cell), radius=6, fill=fill, outline=ring, width=4)
        draw.text(
            (cx + cell / 2, cy + cell / 2),
            f"{value:+d}" if value else "0",
            font=font(18, mine),
            fill=TEXT,
            anchor="mm",
        )
    return tile


# --- the table ----------------------------------------------------------------------------------------------


def _target_text(target: dict[str, Any]) -> str:
    if target["kind"] == "exact":
        text = str(target["value"])
    elif target["kind"] == "range":
        text = f"{target['min']}-{target['max']}"
    else:
        text = f"{target['min']}+"
    return f"{text} ★{target['stars']}"


def _hits(target: dict[str, Any], value: int) -> bool:
    if target["kind"] == "exact":
        return value == target["value"]
    if target["kind"] == "range":
        return target["min"] <= value <= target["max"]
    return value >= target["min"]


SHEET_W = (WIDTH - 2 * MARGIN - 12) // 2
AREA_X = 120  # room for the longest area name ("Habilidades")
ROW_SIZE = 44
SHEET_TOP = 76  # header height above the attribute rows


def _area_lines(me: dict[str, Any], lang: str) -> list[tuple[str, list[list[tuple[int, str]]]]]:
    """Each card area's chips as lines of (x offset, card); an empty area still takes one line."""
    room = SHEET_W - AREA_X - 12
    out = []
    for area in ("weapon", "armor", "trait", "skill"):
        lines: list[list[tuple[int, str]]] = [[]]
        offset = 0
        for card_id in me["cards"][area]:
            width = _chip(card_id, lang, False).width - 1
            if offset and offset + width > room:
                lines.append([])
                offset = 0
            lines[-1].append((offset, card_id))
            offset += width + 6
        out.append((area, lines))
    return out


def _sheet_height(me: dict[str, Any], lang: str) -> int:
    lines = sum(len(lines) for _, lines in _area_lines(me, lang))
    start = 36 if me["start_dice"] else 0
    return SHEET_TOP + 6 * (ROW_SIZE + 10) + 4 + start + lines * 28 + 40


def _sheet(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: int,
    name: str,
    labels: dict[str, Any],
    lang: str,
    x: int,
    y: int,
    height: int,
) -> None:
    me = view["seats"][seat]
    acting = seat in view["to_act"]
    draw.rounded_rectangle(
        (x, y, x + SHEET_W, y + height),
        radius=14,
        fill=PANEL,
        outline=ACCENT if acting else PANEL_LIGHT,
        width=4 if acting else 2,
    )
    draw.rounded_rectangle((x, y, x + 12, y + height), radius=6, fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    cls = CLASSES.get(me["class"]) if me["class"] else None
    race = RACES.get(me["race"]) if me["race"] else None
    # header: name, race and class, gold
    paste_text(image, (x + 24, y + 10), fitted(name, 24, 250, True), 24, TEXT, True)
    draw.ellipse((x + SHEET_W - 190, y + 10, x + SHEET_W - 162, y + 38), fill=GOLD)
    paste_text(image, (x + SHEET_W - 154, y + 24), str(me["gold"]), 24, GOLD, True, "lm")
    if me["discounts"]:
        paste_text(
            image,
            (x + SHEET_W - 16, y + 24),
            labels["tokens"].format(n=me["discounts"]),
            16,
            TEXT,
            anchor="rm",
        )
    sub = f"{_name(race, lang) if race else labels['no_race']} · "
    sub += f"{_name(cls, lang)} ({_name(cls['ability'], lang)})" if cls else labels["no_class"]
    paste_text(image, (x + 24, y + 42), fitted(sub, 19, SHEET_W - 70), 19, MUTED)
    if cls:
        draw.rounded_rectangle(
            (x + SHEET_W - 40, y + 44, x + SHEET_W - 18, y + 66),
            radius=5,
            fill=DIE_RGB[cls["colour"]],
            outline=OUTLINE,
        )
    # attribute rows: label, race modifier, three boxes, total, the class's target
    backstory = BACKSTORIES[me["backstory"]]
    row_y = y + SHEET_TOP
    size = ROW_SIZE
    for attr in ATTRIBUTES:
        middle = row_y + size / 2
        dice = me["rows"][attr]
        paste_text(image, (x + 24, middle), labels["rows"][attr], 20, TEXT, True, "lm")
        mod = race["modifiers"][attr] if race else 0
        if mod:
            paste_text(image, (x + 86, middle), f"{mod:+d}", 18, GOOD_RGB if mod > 0 else BAD_RGB, True, "lm")
        want = backstory["dice"][attr]
        for slot in range(SLOTS):
            die = dice[slot] if slot < len(dice) else None
            hint = want["colour"] if want["slot"] == slot + 1 else None
            _paste_die(image, x + 120 + slot * (size + 10), row_y, size, die, hint)
        total = final_attribute(me, attr)
        target = cls["targets"][attr] if cls else None
        hit = target is not None and len(dice) == SLOTS and _hits(target, total)
        shown = str(total) if dice else "–"
        paste_text(image, (x + 300, middle), shown, 24, GOOD_RGB if hit else TEXT, True, "lm")
        if target:
            paste_text(image, (x + 340, middle), _target_text(target), 17, MUTED, anchor="lm")
        row_y += size + 10
    # alignment grid and backstory on the right
    image.paste(_alignment(me["alignment"], me["token"], lang), (x + SHEET_W - 170, y + 78))
    # which way is which, as the picker's "up (towards Good)" says it
    for line, key in enumerate(("axis_good", "axis_law")):
        legend = fitted(labels[key], 14, 160)
        paste_text(image, (x + SHEET_W - 170, y + 254 + 18 * line), legend, 14, MUTED)
    paste_text(image, (x + SHEET_W - 170, y + 296), labels["backstory"], 15, MUTED)
    story = fitted(_name(backstory, lang), 18, 160, True)
    paste_text(image, (x + SHEET_W - 170, y + 316), story, 18, TEXT, True)
    # start dice still to place (set-up)
    card_y = row_y + 4
    if me["start_dice"]:
        paste_text(image, (x + 24, card_y + 12), labels["start_dice"], 17, MUTED, anchor="lm")
        for i, die in enumerate(me["start_dice"]):
            _paste_die(image, x + 150 + i * 34, card_y, 28, die)
        card_y += 36
    if me["held"]:
        _paste_die(image, x + SHEET_W - 60, card_y - 4, 40, me["held"])
    # cards by area, wrapping onto more lines when an area fills up
    for area, lines in _area_lines(me, lang):
        paste_text(image, (x + 24, card_y), labels["areas"][area], 17, TYPE_RGB[area], True)
        for line in lines:
            for offset, card_id in line:
                chip = _chip(card_id, lang, card_id in me["exhausted"])
                image.paste(chip, (x + AREA_X + offset, card_y - 2))
            card_y += 28
    result = view.get("result")
    if result:
        text = labels["stars"].format(n=result["scores"][seat])
        if seat in result["winners"]:
            text = f"{labels['winner']} · {text}"
        paste_text(image, (x + SHEET_W - 16, y + height - 12), text, 24, GOLD, True, "rs")


def render_sheet(view: View, seat: int, names: list[str], locale: str) -> bytes:
    """One player's full sheet (dice, alignment, backstory, cards), the picture one click away from the table."""
    lang = locale[:2]
    labels = _labels(lang)
    me = view["seats"][seat]
    height = _sheet_height(me, lang)
    extra = 36 if view["solo"] and view.get("result") else 0
    image, draw = canvas(SHEET_W + 2 * MARGIN, height + 2 * MARGIN + extra, BACKGROUND)
    _sheet(image, draw, view, seat, names[seat], labels, lang, MARGIN, MARGIN, height)
    if extra:
        rating = next(r for r in SOLO["ratings"] if r["id"] == view["result"]["details"]["rating"])
        text = labels["rating"].format(rating=_name(rating, lang))
        paste_text(image, (MARGIN, height + MARGIN + 6), text, 24, GOLD, True)
    return to_png_fixed(image, PALETTE)


# --- the table overview: every player at a glance, sized for the chat -----------------------------------------

TABLE_W = 1000
SMALL = 20  # the smallest letters on the overview: 20 × 550 / 1000 = 11 px in the chat
NAME = 26  # a player's name, a card's name at 22: 12–14 px in the chat
ROW_H = 100  # four players and the market within 4:3
TILE_H = 120


def _stars_so_far(view: dict[str, Any], seat: int) -> int | None:
    """The stars the sheet would score if the game ended now (None before the class is chosen)."""
    result = view.get("result")
    if result:
        return result["scores"][seat]
    me = view["seats"][seat]
    if not me["class"]:
        return None
    others = [s["gold"] for i, s in enumerate(view["seats"]) if i != seat]
    return score_seat(me, others, view["solo"])["total"]


@lru_cache(maxsize=256)
def _market_tile(card_id: str, lang: str, w: int) -> Image.Image:
    """A market card in brief: type letter and level on its coloured edge, name, cost, the start of its text."""
    card = CARDS[card_id]
    kind = card["type"]
    tint = TYPE_RGB[kind]
    tile, draw = canvas(w + 1, TILE_H + 1, BACKGROUND)
    draw.rounded_rectangle((0, 0, w, TILE_H), radius=8, fill=PANEL, outline=tint, width=3)
    draw.rounded_rectangle((0, 0, 28, TILE_H), radius=8, fill=tint)
    draw.text((14, 18), _labels(lang)["tags"][kind], font=font(22, True), fill=WHITE, anchor="mm")
    for i in range(card["level"]):
        cy = TILE_H - 14 - i * 14
        draw.ellipse((8, cy - 6, 20, cy + 6), fill=WHITE)
    draw.ellipse((w - 38, 6, w - 6, 38), fill=GOLD)
    draw.text((w - 22, 22), str(card["cost"]), font=font(22, True), fill=COIN_INK, anchor="mm")
    name = (ARROWS[card["arrow"]] + " " if card.get("arrow") else "") + _name(card, lang)
    lines = _wrap(name, 22, w - 80)
    if len(lines) > 2:
        lines = [lines[0], fitted(" ".join(lines[1:]), 22, w - 44, True)]
    for i, line in enumerate(lines):
        draw.text((36, 6 + i * 27), line, font=font(22, True), fill=TEXT)
    if kind == "armor":  # the armour's colour scores a bonus when it is the class colour
        draw.ellipse((w - 31, 44, w - 13, 62), fill=DIE_RGB[card["colour"]], outline=OUTLINE)
    room = 4 - len(lines)  # the card's text takes the lines its name leaves free
    text = _wrap(_text(card, lang), SMALL, w - 44)
    if len(text) > room:
        text = [*text[: room - 1], fitted(" ".join(text[room - 1 :]), SMALL, w - 44)]
    for i, line in enumerate(text):
        draw.text((36, 10 + len(lines) * 27 + i * 24), line, font=font(SMALL), fill=MUTED)
    return tile


def _overview_top(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    names: list[str],
    labels: dict[str, Any],
) -> int:
    """Header (round, phase, who acts), initiative cards and the bag; returns where the market starts."""
    y = 12
    phase = labels["phase"].get(view["phase"], view["phase"])
    parts = [labels["round"].format(n=view["round"]) if view["round"] else "", phase]
    if view["solo"] and view["adventurer"]:
        parts.append(labels["adventurer"].format(n=view["adventurer"]))
    room = TABLE_W - 2 * MARGIN
    if view["to_act"]:
        acting = ", ".join(names[s] for s in view["to_act"])
        text = fitted(labels["to_act"].format(names=acting), 24, 470, True)
        paste_text(image, (TABLE_W - MARGIN, y + 2), text, 24, ACCENT, True, anchor="ra")
        room -= int(font(24, True).getlength(text)) + 24
    elif view.get("result"):
        paste_text(image, (TABLE_W - MARGIN, y + 2), labels["over"], 24, GOLD, True, anchor="ra")
        room -= int(font(24, True).getlength(labels["over"])) + 24
    paste_text(image, (MARGIN, y), fitted(" · ".join(p for p in parts if p), 26, room, True), 26, TEXT, True)
    y += 44
    # initiative: number, die on it, gold on it, and the seat that took it (its colour and letter)
    x = MARGIN
    box_w, box_h = 112, 62
    for card in view["initiative"]:
        owner = card["owner"]
        outline = SEAT_COLOURS[owner % len(SEAT_COLOURS)] if owner is not None else PANEL_LIGHT
        draw.rounded_rectangle((x, y, x + box_w, y + box_h), radius=8, fill=PANEL, outline=outline, width=3)
        paste_text(image, (x + 10, y + 4), str(card["number"]), 24, TEXT, True)
        if owner is not None:
            paste_text(image, (x + 30, y + 4), SEAT_MARKS[owner], 20, outline, True)
        if card["die"]:
            _paste_die(image, x + box_w - 50, y + 11, 40, card["die"])
        if card["gold"]:
            draw.ellipse((x + 6, y + 32, x + 34, y + 60), fill=GOLD)
            paste_text(image, (x + 20, y + 46), str(card["gold"]), SMALL, COIN_INK, True, "mm")
        x += box_w + 8
    paste_text(image, (x + 8, y + 31), labels["bag"], 22, MUTED, True, "lm")
    bx = x + 8 + int(font(22, True).getlength(labels["bag"])) + 12
    step = max((TABLE_W - MARGIN - bx) // 4, 56)
    for i, colour in enumerate(DIE_RGB):
        cx = bx + (i % 4) * step
        cy = y + 2 + (i // 4) * 32
        draw.rounded_rectangle(
            (cx, cy, cx + 26, cy + 26),
            radius=5,
            fill=DIE_RGB[colour],
            outline=OUTLINE if colour == "black" else None,
        )
        paste_text(image, (cx + 32, cy + 13), str(view["bag"][colour]), 22, TEXT, anchor="lm")
    return y + box_h + 12


def _overview_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: int,
    name: str,
    labels: dict[str, Any],
    lang: str,
    y: int,
) -> None:
    me = view["seats"][seat]
    x0, x1 = MARGIN, TABLE_W - MARGIN
    acting = seat in view["to_act"]
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    draw.rounded_rectangle(
        (x0, y, x1, y + ROW_H),
        radius=12,
        fill=PANEL,
        outline=ACCENT if acting else PANEL_LIGHT,
        width=4 if acting else 2,
    )
    draw.rounded_rectangle((x0, y, x0 + 34, y + ROW_H), radius=10, fill=colour)
    paste_text(image, (x0 + 17, y + ROW_H / 2), SEAT_MARKS[seat], 24, readable_on(colour), True, "mm")
    cls = CLASSES.get(me["class"]) if me["class"] else None
    race = RACES.get(me["race"]) if me["race"] else None
    head = ("▶ " if acting else "") + name
    paste_text(image, (x0 + 46, y + 6), fitted(head, NAME, 200, True), NAME, ACCENT if acting else TEXT, True)
    race_name = _name(race, lang) if race else labels["no_race"]
    class_name = _name(cls, lang) if cls else labels["no_class"]
    paste_text(image, (x0 + 46, y + 44), fitted(race_name, SMALL, 200), SMALL, MUTED)
    paste_text(image, (x0 + 46, y + 70), fitted(class_name, SMALL, 200), SMALL, MUTED)
    # attributes: name, total (green with its stars when it meets the class's target), the target
    ax = x0 + 252
    col = 74
    for i, attr in enumerate(ATTRIBUTES):
        cx = ax + i * col + col // 2
        dice = me["rows"][attr]
        paste_text(image, (cx, y + 5), labels["rows"][attr], SMALL, MUTED, True, "ma")
        total = final_attribute(me, attr)
        target = cls["targets"][attr] if cls else None
        hit = target is not None and len(dice) == SLOTS and _hits(target, total)
        if hit:
            draw.rounded_rectangle((cx - 33, y + 32, cx + 33, y + 68), radius=6, fill=CELL_RGB[1])
        shown = (f"{total}★" if hit else str(total)) if dice else "–"
        paste_text(image, (cx, y + 50), shown, 30, TEXT, True, "mm")
        for slot in range(SLOTS):  # how many of the row's three boxes are filled, in the dice's colours
            sx = cx - 31 + slot * 22
            die = dice[slot] if slot < len(dice) else None
            fill = DIE_RGB[die[0]] if die else PANEL
            draw.rectangle((sx, y + 74, sx + 18, y + 92), fill=fill, outline=OUTLINE if die else PANEL_LIGHT)
    # right: gold, stars so far, cards by area
    rx = ax + 6 * col + 14
    draw.ellipse((rx, y + 8, rx + 28, y + 36), fill=GOLD)
    paste_text(image, (rx + 34, y + 22), str(me["gold"]), NAME, GOLD, True, "lm")
    stars = _stars_so_far(view, seat)
    result = view.get("result")
    text = "–" if stars is None else f"{stars}★"
    paste_text(image, (x1 - 14, y + 4), text, 34, GOLD, True, "ra")
    label = (
        labels["so_far"] if not result else labels["winner"] if seat in result["winners"] else labels["final"]
    )
    paste_text(image, (x1 - 14, y + 46), fitted(label, SMALL, 140), SMALL, MUTED, anchor="ra")
    cx = rx
    for area in ("weapon", "armor", "trait", "skill"):
        tag = f"{labels['tags'][area]}{len(me['cards'][area])}"
        paste_text(image, (cx, y + 82), tag, 22, TYPE_RGB[area], True, "lm")
        cx += 46


def render_table(view: View, names: list[str], locale: str) -> bytes:
    """The table at a glance: round, who acts, initiative and bag, the market, one row per player. Each
    player's full sheet is render_sheet."""
    lang = locale[:2]
    labels = _labels(lang)
    players = view["players"]
    cards = view["market"]
    top = 12 + 44 + 62 + 12
    market_h = TILE_H + 12 if cards else 0
    content = top + market_h + players * (ROW_H + 8) + MARGIN
    solo_result = view["solo"] and view.get("result")
    if solo_result:
        content += 40
    height = max(content, TABLE_W // 2)  # never wider than 2:1
    image, draw = canvas(TABLE_W, height, BACKGROUND)
    y = _overview_top(image, draw, view, names, labels)
    if cards:
        per = max(len(cards), 4)
        w = (TABLE_W - 2 * MARGIN - (per - 1) * 10) // per
        for i, card_id in enumerate(cards):
            image.paste(_market_tile(card_id, lang, w), (MARGIN + i * (w + 10), y))
        y += market_h
    for seat in range(players):
        _overview_row(image, draw, view, seat, names[seat], labels, lang, y)
        y += ROW_H + 8
    if solo_result:
        rating = next(r for r in SOLO["ratings"] if r["id"] == view["result"]["details"]["rating"])
        text = labels["rating"].format(rating=_name(rating, lang))
        paste_text(image, (MARGIN, y + 4), text, 24, GOLD, True)
    return to_png_fixed(image, PALETTE)


def render_private(view: View, locale: str) -> bytes | None:
    """Nothing in Roll Player is hidden from one seat but shown to another, so there is no private image."""
    return None
