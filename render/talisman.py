"""Talisman pictures: the board as its three regions, square rings around the Crown of Command as on the printed
board, with every character or toad and what lies on the spaces, and beside it whose turn it is and each
character's numbers and belongings; privately, one's own Spells."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engines.base import View
from engines.talisman.data import (
    BRIDGE_HILLS,
    CHARACTERS,
    CROWN,
    PLAIN_OF_PERIL,
    PORTAL,
    SENTINEL,
    SPACES,
    SPELLS,
    TOAD,
    VALLEY,
    card_def,
)
from render.common import (
    ACCENT,
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
    font,
    paste_text,
    readable_on,
    text_width,
    to_png,
    to_png_flat,
)
from render.text import labels as picture_labels

MARGIN = 16
REGION_FILL = {
    "outer": (70, 96, 62),
    "middle": (112, 88, 56),
    "inner": (104, 52, 60),
    "crown": (150, 120, 40),
}
RIVER = (52, 84, 120)
EDGE = (25, 25, 25)
KIND_FILL = {
    "enemy": (170, 60, 60),
    "event": (120, 90, 170),
    "stranger": (60, 120, 170),
    "place": (60, 140, 120),
    "follower": (150, 130, 60),
    "object": (110, 110, 120),
    "magic_object": (150, 90, 160),
}


def _labels(locale: str) -> dict[str, Any]:
    return picture_labels("talisman", locale)


def _name(entry: dict[str, Any], locale: str) -> str:
    return entry["name"].get(locale[:2], entry["name"]["en"])


# --- the board: three square rings around the Crown, as on the real board, sized for the chat ----------------
#
# The chat shows the picture 550 px wide, so every size below is chosen for what it becomes there (× 550 / WIDTH).
# The board is the square on the left; the side panel takes the rest of the width.

WIDTH, HEIGHT = 1280, 800
PRIVATE_WIDTH = 700  # one's Spells or the characters dealt
SMALL = 21  # the smallest letters (only the longest space names): 21 × 550 / 1280 = 9 px in the chat
NAME_MAX = 30  # a short space name is drawn up to this size: 13 px in the chat
PANEL_TEXT = 28  # the side panel's letters, never smaller: 28 × 550 / 1280 = 12 px in the chat
BOARD = HEIGHT
CX, CY = BOARD // 2, HEIGHT // 2
# Each region is a square band: (half-side of its outer edge, of its inner edge, first index, spaces, width of
# its corner spaces or 0 for as wide as the others), outside in. A band's top and bottom rows run the whole
# width; its left and right columns fill in between. The outer corners hold short names, so they give width
# to the long ones beside them. The gaps between bands are the Storm River (outer/middle) and the wall of the
# Inner Region (middle/inner). The outer band starts within 272 px of the centre, so a ray from the Crown
# crosses every region within 394 px in every direction, diagonals too.
RINGS = {
    "outer": (394, 270, 0, 24, 94),
    "middle": (258, 162, 24, 16, 108),
    "inner": (152, 60, 40, 8, 0),
}
CROWN_R = 56  # half the Crown's side
TOKEN_R = 18
CARD_INK = (250, 250, 250)
SPACE_PAD = 2  # letters of a space's name keep this far from its sides
NAME_TOP = 3  # and this far below its top
TOKEN_BAND = 2 * TOKEN_R + 6  # the strip at the bottom of a space where figures and cards stand
NUMBER_INK = (205, 205, 195)  # a space's number, in its bottom corner: quieter than its name
NUMBER_PAD = 5  # from the number to its space's right edge
ROW_STEP = 2 * TOKEN_R + 4  # from one row of figures to the one above it, in a crowded space


def _ring_of(index: int) -> str:
    return next(name for name, (_, _, first, n, _) in RINGS.items() if first <= index < first + n)


@lru_cache(maxsize=64)
def _cell(index: int) -> tuple[int, int, int, int]:
    """A space's rectangle (left, top, right, bottom) on the picture. Spaces run clockwise from the top-left
    corner of their band, so the Sentinel faces the Hills across the river as on the real board."""
    if index == CROWN:
        return CX - CROWN_R, CY - CROWN_R, CX + CROWN_R, CY + CROWN_R
    outer, inner, first, n, corner = RINGS[_ring_of(index)]
    per_side = n // 4
    corner = corner or 2 * outer / (per_side + 1)
    along = (2 * outer - 2 * corner) / (per_side - 1)  # a top or bottom row space's width
    high = 2 * inner / (per_side - 1)  # a left or right column space's height
    side, k = divmod(index - first, per_side)
    if k == 0:  # a corner: top-left, top-right, bottom-right, bottom-left
        sx, sy = ((-1, -1), (1, -1), (1, 1), (-1, 1))[side]
        xs, ys = (sx * outer, sx * (outer - corner)), (sy * outer, sy * inner)
    elif side in (0, 2):  # the top row left to right, the bottom row right to left
        t = -outer + corner + (k - 1) * along
        sign = 1 if side == 0 else -1
        xs, ys = (sign * t, sign * (t + along)), (sign * -outer, sign * -inner)
    else:  # the right column downwards, the left column upwards
        t = -inner + (k - 1) * high
        sign = 1 if side == 1 else -1
        xs, ys = (sign * inner, sign * outer), (sign * t, sign * (t + high))
    return round(CX + min(xs)), round(CY + min(ys)), round(CX + max(xs)), round(CY + max(ys))


def _figures_at(index: int) -> tuple[float, float]:
    """The middle of a space's first row of figures, cards and tiles, along its bottom (a second row goes above
    it, ROW_STEP higher)."""
    left, _, right, bottom = _cell(index)
    return (left + right) / 2, bottom - TOKEN_R - 5


@lru_cache(maxsize=512)
def _space_title(name: str, width: int, size: int = SMALL) -> tuple[str, ...]:
    """A space's name in lines of at most `width` px at `size`, word by word (a word too long for a line is cut
    with an ellipsis). Every name fits whole at SMALL (tested), so a space can always fall back to it."""
    face = font(size, True)
    lines: list[str] = []
    for word in name.split():
        if lines and face.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return tuple(fitted(line, size, width, True) for line in lines)


def _title_width(index: int) -> int:
    """Room for a space's name across: its width less a little margin."""
    left, _, right, _ = _cell(index)
    return int(right - left) - 2 * SPACE_PAD


def _line_height(size: int) -> int:
    return size + size // 8


@lru_cache(maxsize=256)
def _space_label(index: int, name: str) -> tuple[int, tuple[str, ...]]:
    """The largest size (SMALL up to NAME_MAX) at which a space's name fits above the strip its figures stand
    on, whole words only, and its lines. A name that fits nowhere above the strip is drawn at SMALL and may
    reach into it."""
    _, top, _, bottom = _cell(index)
    room = bottom - top - TOKEN_BAND - NAME_TOP
    width = _title_width(index)
    for size in range(NAME_MAX, SMALL, -1):
        lines = _space_title(name, width, size)
        tall = (len(lines) - 1) * _line_height(size) + size * 9 // 8  # the last line down to its descenders
        if not any(line.endswith("…") for line in lines) and tall <= room:
            return size, lines
    return SMALL, _space_title(name, width, SMALL)


def _card_label(card: dict[str, Any], locale: str) -> tuple[str, tuple[int, int, int]]:
    entry = card_def({"c": card["card"], "o": card["origin"]})
    kind = entry.get("type") or entry.get("kind", "object")
    label = _name(entry, locale)
    if "pool" in card:
        label += f" ({card['pool']})"
    return label, KIND_FILL.get(kind, PANEL_LIGHT)


@lru_cache(maxsize=256)
def _stamp(
    shape: str, text: str, fill: RGB, ink: RGB, radius: int, size: int
) -> tuple[Image.Image, Image.Image]:
    """A figure, card or tile drawn once, then only pasted: its picture and its outline as a mask. `shape` is
    "disc" or "square" (a figure or toad `radius` px out), "card" (upright) or "tile" (as wide as its text)."""
    half_w, half_h = radius, radius
    if shape == "card":
        half_w, half_h = radius - 5, radius
    elif shape == "tile":
        half_w, half_h = max(radius, int(font(size, True).getlength(text) / 2) + 4), radius - 4
    box = (0, 0, 2 * half_w, 2 * half_h)
    picture = Image.new("RGB", (2 * half_w + 1, 2 * half_h + 1), fill)
    mask = Image.new("L", picture.size, 0)
    shaped = ImageDraw.Draw(mask)
    drawn = ImageDraw.Draw(picture)
    edge = (20, 20, 20)
    if shape == "disc":
        shaped.ellipse(box, fill=255)
        drawn.ellipse(box, fill=fill, outline=edge, width=2)
    elif shape == "square":
        shaped.rectangle(box, fill=255)
        drawn.rectangle(box, fill=fill, outline=edge, width=2)
    else:
        corner = 4 if shape == "card" else 5
        shaped.rounded_rectangle(box, radius=corner, fill=255)
        drawn.rounded_rectangle(box, radius=corner, fill=fill, outline=TEXT if shape == "card" else fill)
    paste_text(picture, (half_w, half_h + 1), text, size, ink, True, "mm")
    return picture, mask


def _paste_stamp(image: Image.Image, x: float, y: float, stamp: tuple[Image.Image, Image.Image]) -> None:
    picture, mask = stamp
    image.paste(picture, (round(x - picture.width // 2), round(y - picture.height // 2)), mask)


def _token(
    image: Image.Image, x: float, y: float, seat: int, toad: bool, radius: int = TOKEN_R, size: int = 22
) -> None:
    """A character: a disc in the seat's colour with the seat's letter (a toad: a square)."""
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    stamp = _stamp("square" if toad else "disc", SEAT_MARKS[seat], colour, readable_on(colour), radius, size)
    _paste_stamp(image, x, y, stamp)


def _link_ends(a: int, b: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where the path between two facing spaces starts in each: the point halfway between their middles, moved
    just inside each space."""
    boxes = _cell(a), _cell(b)
    mx = sum(left + right for left, _, right, _ in boxes) / 4
    my = sum(top + bottom for _, top, _, bottom in boxes) / 4
    start, end = (
        (min(max(mx, left + 8), right - 8), min(max(my, top + 8), bottom - 8))
        for left, top, right, bottom in boxes
    )
    return start, end


def _square(draw: ImageDraw.ImageDraw, half: float, fill: tuple[int, int, int]) -> None:
    draw.rectangle((CX - half, CY - half, CX + half - 1, CY + half - 1), fill=fill)


@lru_cache(maxsize=4)
def _empty_board(locale: str) -> Image.Image:
    """The board with nothing on it, the same in every picture of one language: drawn once. Spaces are filled
    a pixel inside their rectangles, so the dark ground between them draws their edges."""
    image, draw = canvas(WIDTH, HEIGHT)
    _square(draw, RINGS["outer"][0] + 4, RIVER)  # the river also rims the board
    for region, (outer, inner, first, n, _) in RINGS.items():
        _square(draw, outer, EDGE)
        for index in range(first, first + n):
            left, top, right, bottom = _cell(index)
            draw.rectangle((left + 1, top + 1, right - 2, bottom - 2), fill=REGION_FILL[region])
        _square(draw, inner, RIVER if region == "outer" else EDGE)
    _square(draw, CROWN_R, REGION_FILL["crown"])
    for a, b in ((SENTINEL, BRIDGE_HILLS), (PORTAL, PLAIN_OF_PERIL), (VALLEY, CROWN)):
        start, end = _link_ends(a, b)
        draw.line((*start, *end), fill=GOLD, width=10)
    for space in SPACES:
        index = space["index"]
        size, lines = _space_label(index, _name(space, locale))
        left, top, right, bottom = _cell(index)
        y = top + NAME_TOP + (8 if index == CROWN else 0)  # the Crown's first pixels stay its colour
        for line in lines:
            paste_text(image, ((left + right) / 2, y), line, size, TEXT, True, "ma")
            y += _line_height(size)
        # the number the choices and the story give it ("Hills (28)"): several spaces share a name
        if index != CROWN:
            paste_text(
                image, (right - NUMBER_PAD, bottom - 4), str(index + 1), SMALL, NUMBER_INK, False, "rd"
            )
    return image


def _number_width(index: int) -> int:
    """How far a space's number reaches in from its right edge (none for the Crown)."""
    return 0 if index == CROWN else NUMBER_PAD + int(font(SMALL).getlength(str(index + 1)))


def _draw_board(image: Image.Image, view: dict[str, Any], locale: str) -> None:
    """Onto the empty board: figures, cards, gold and hexes, in a row along the bottom of each space. Cards as
    one card with their number, in the colour of the first one's kind; gold and hexes as marked tiles. A row
    too long for its space closes up, then takes a second row above."""
    hexed = {h["space"] for h in view["hexes"]}
    by_space: dict[int, list[dict[str, Any]]] = {}
    for ch in view["chars"]:
        if ch and not ch["dead"]:
            by_space.setdefault(ch["space"], []).append(ch)
    for space in SPACES:
        index = space["index"]
        items: list[tuple[str, Any]] = []
        cards = view["board"].get(str(index), [])
        if cards:
            items.append(("card", (str(len(cards)), _card_label(cards[0], locale)[1], CARD_INK)))
        gold = view["gold"].get(str(index))
        if gold:
            items.append(("tile", (f"${gold}", GOLD, (40, 30, 0))))
        if index in hexed:
            items.append(("tile", ("✶", (255, 120, 120), (40, 0, 0))))
        items += [("char", ch) for ch in by_space.get(index, [])]
        if not items:
            continue
        left, _, right, _ = _cell(index)
        # The row keeps clear of the space's number, which the choices name (a review's board showed 33 as "3"
        # under a token): a crowded space takes its second row sooner, over its name, which the number tells too.
        right -= _number_width(index)
        room = right - left - 8
        rows = [items] if len(items) <= 1 or (room - 2 * TOKEN_R) / (len(items) - 1) >= 22 else None
        if rows is None:  # two rows, the second above the first
            half = (len(items) + 1) // 2
            rows = [items[:half], items[half:]]
        _, y = _figures_at(index)
        for row in rows:
            step = min(2 * TOKEN_R + 3, (room - 2 * TOKEN_R) / max(len(row) - 1, 1))
            x = (left + right) / 2 - step * (len(row) - 1) / 2
            for kind, item in row:
                if kind == "char":
                    _token(image, x, y, item["seat"], bool(item["toad"]))
                else:
                    text, fill, ink = item
                    _paste_stamp(image, x, y, _stamp(kind, text, fill, ink, TOKEN_R, 22))
                x += step
            y -= ROW_STEP


# --- the side panel: whose turn, the decks, and each character ----------------------------------------------

SIDE_X = BOARD + 14
TITLE = 30  # the turn and round
LINE = PANEL_TEXT + 5  # a panel line: the letters reach 29 of these 33 px
# (a character's first line, with its figure; each of its other lines; the margin inside its frame, above and
# below): roomy, then as tight as the letters allow, for six players and long words
SPACINGS = ((38, LINE, 4), (34, PANEL_TEXT + 4, 2))
# (label, the view's field, colour) of each number a character has
STATS = (
    ("str", "strength", (240, 110, 90)),
    ("craft", "craft", (120, 170, 250)),
    ("life", "life", (110, 210, 130)),
    ("fate", "fate", (220, 210, 130)),
    ("gold", "gold", GOLD),
)
WARN = (240, 110, 90)
ACCENT_LIGHT = (150, 160, 255)  # the accent as letters: plain ACCENT is too dark to read on the table

# A chunk of a line: the mark drawn between it and the chunk before it on the same line ("" for a plain gap),
# and its pieces of text (words, colour, bold), which stay together; lines break between chunks.
Piece = tuple[str, tuple[int, int, int], bool]
Chunk = tuple[str, tuple[Piece, ...]]
Flowed = list[list[tuple[float, Chunk]]]
ELLIPSIS: Chunk = ("", (("…", MUTED, True),))
PIECE_GAP = 5  # between a label and its number: narrower than a space, so five numbers share a line


@lru_cache(maxsize=2048)
def _advance(text: str, bold: bool) -> float:
    """How far a panel text reaches: remembered, as the same words come back picture after picture."""
    return font(PANEL_TEXT, bold).getlength(text)


def _width(pieces: tuple[Piece, ...]) -> float:
    return sum(_advance(text, bold) for text, _, bold in pieces) + PIECE_GAP * (len(pieces) - 1)


def _gap(chunk: Chunk) -> int:
    return 28 if chunk[0] else 13


def _flow(chunks: list[Chunk], width: int, most: int = 99) -> Flowed:
    """Chunks laid out left to right in lines of at most `width` px: each line as (x, chunk). Beyond `most`
    lines, the chunks left are dropped for an ellipsis."""
    lines: Flowed = []
    x = 0.0
    for chunk in chunks:
        w = _width(chunk[1])
        if not lines or x + _gap(chunk) + w > width:
            if len(lines) == most:
                last = lines[-1]
                while (
                    last
                    and last[-1][0] + _width(last[-1][1][1]) + _gap(ELLIPSIS) + _width(ELLIPSIS[1]) > width
                ):
                    last.pop()
                last.append(
                    (last[-1][0] + _width(last[-1][1][1]) + _gap(ELLIPSIS) if last else 0.0, ELLIPSIS)
                )
                return lines
            lines.append([])
            x = 0.0
        else:
            x += _gap(chunk)
        if w > width:  # a chunk wider than a whole line: its last piece cut short
            *first, (text, colour, bold) = chunk[1]
            cut = fitted(text, PANEL_TEXT, int(width - _width(tuple(first))), bold)
            chunk, w = (chunk[0], (*first, (cut, colour, bold))), width
        lines[-1].append((x, chunk))
        x += w
    return lines


def _paste_flow(image: Image.Image, lines: Flowed, x: int, y: int, line_height: int = LINE) -> int:
    """Draws flowed lines from (x, y); returns the y below them."""
    for line in lines:
        for i, (dx, (mark, pieces)) in enumerate(line):
            if i and mark:
                paste_text(image, (x + dx - _gap((mark, ())) / 2, y), mark, PANEL_TEXT, MUTED, False, "ma")
            for text, colour, bold in pieces:
                paste_text(image, (x + dx, y), text, PANEL_TEXT, colour, bold)
                dx += _advance(text, bold) + PIECE_GAP
        y += line_height
    return y


def _carried_lines(things: str, width: int, most: int) -> list[str]:
    """What a character carries in at most `most` lines of `width` px, broken between words; the last line cut
    with an ellipsis if it does not all fit."""
    lines: list[str] = []
    for word in things.split(" "):
        if lines and _advance(f"{lines[-1]} {word}", False) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    if len(lines) > most:
        lines = [*lines[: most - 1], " ".join(lines[most - 1 :])]
    return [fitted(line, PANEL_TEXT, width) for line in lines]


def _character_chunks(ch: dict[str, Any], labels: dict[str, Any], locale: str, counted: bool) -> list[Chunk]:
    """A character's numbers, each in its own colour, then what stands out about it and how many Objects,
    Followers and Spells it has (those it has any of; Objects and Followers only if `counted`, else they are
    named on lines of their own)."""
    chunks: list[Chunk] = []
    for key, field, tint in STATS:
        chunks.append(("", ((labels[key], tint, False), (str(ch[field]), tint, True))))
    if ch["out"]:
        chunks.append(("·", ((labels["out"], WARN, True),)))
    elif ch["dead"]:
        chunks.append(("·", ((labels["dead"], WARN, True),)))
    if ch["toad"]:
        chunks.append(("·", ((f"{_name(TOAD, locale)} {ch['toad']}", (110, 210, 130), True),)))
    if ch["miss"]:
        chunks.append(("·", ((labels["miss"], WARN, True),)))
    chunks.append(("·", ((labels[ch["alignment"]], TEXT, False),)))
    counts = labels["category"]
    for key, n in (
        ("objects", len(ch["items"]) if counted else 0),
        ("followers", len(ch["followers"]) if counted else 0),
        ("spells", ch["spells"]),
    ):
        if n:
            chunks.append(("·", ((counts[key], MUTED, False), (str(n), TEXT, True))))
    # trophies by what they trade for: the values of the Enemies (Strength) and Spirits (Craft) killed
    worth = {
        kind: sum(t["value"] for t in ch["trophies"] if t["kind"] == kind) for kind in ("strength", "craft")
    }
    if any(worth.values()):
        pieces: list[Piece] = [(counts["trophies"], MUTED, False)]
        for key, kind, tint in STATS[:2]:  # Strength's and Craft's label and colour
            if worth[kind]:
                pieces += [(labels[key], tint, False), (str(worth[kind]), tint, True)]
        chunks.append(("·", tuple(pieces)))
    return chunks


def _draw_side(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], locale: str
) -> None:
    """Turn and round, who acts (or who won), the decks and Talismans left; then each character: player and
    character, Strength, Craft, Life, Fate and gold, what stands out (dead, out, toad, misses a turn,
    alignment) and how many Objects, Followers and Spells it has. Whoever acts has its Objects and Followers
    named rather than counted; the others' are named too where there is room, in seat order."""
    labels = _labels(locale)
    x, right = SIDE_X, WIDTH - 12
    w = right - x
    inner = w - 8  # a character's lines, inside its frame
    y = 8

    def seat_name(seat: int) -> str:
        return names[seat] if seat < len(names) else SEAT_MARKS[seat]

    title = f"{labels['turn']} {view['turn']} · {labels['round']} {view['round']}"
    paste_text(image, (x, y), fitted(title, TITLE, w, True), TITLE, TEXT, True)
    y += TITLE + 8
    winners = view["result"]["winners"] if view["result"] else []
    acting = set(view["to_act"])
    if view["result"]:
        who = f"{labels['winner']}: " + ", ".join(seat_name(s) for s in winners)
        paste_text(image, (x, y), fitted(who, PANEL_TEXT, w, True), PANEL_TEXT, GOLD, True)
        y += LINE
    elif acting:
        who = f"{labels['to_act']}: " + ", ".join(seat_name(s) for s in view["to_act"])
        paste_text(image, (x, y), fitted(who, PANEL_TEXT, w, True), PANEL_TEXT, ACCENT_LIGHT, True)
        y += LINE
    table: list[Chunk] = [
        ("·", ((f"{labels['adventure']} {view['decks']['adventure']}", MUTED, False),)),
        ("·", ((f"{labels['spell_deck']} {view['decks']['spells']}", MUTED, False),)),
        ("·", ((f"{labels['talismans']} {view['talismans']}", MUTED, False),)),
    ]
    if view["crown_reached"]:
        table.append(("·", ((labels["crown"], GOLD, True),)))
    if view["blizzard"]:
        table.append(("·", ((labels["blizzard"], (180, 210, 255), True),)))
    y = _paste_flow(image, _flow(table, w), x, y) + 2

    chars = [ch for ch in view["chars"] if ch is not None]
    room = HEIGHT - 4 - y
    carried = [[_card_label(card, locale)[0] for card in ch["items"] + ch["followers"]] for ch in chars]
    named = [
        labels["carries_what"].format(n=len(things), things=", ".join(things)) if things else ""
        for things in carried
    ]
    wanted = [len(_carried_lines(text, inner, 99)) if text else 0 for text in named]
    # Whoever acts has its belongings named (the line starts with how many), the others have them counted.
    chunks = [
        _character_chunks(ch, labels, locale, counted=not (ch["seat"] in acting and text))
        for ch, text in zip(chars, named, strict=True)
    ]
    flows = [_flow(c, inner) for c in chunks]
    lines = sum(len(f) for f in flows) + sum(
        min(n, 1) for ch, n in zip(chars, wanted, strict=True) if ch["seat"] in acting
    )
    spacing = next(
        (sp for sp in SPACINGS if len(chars) * (sp[0] + 2 * sp[2]) + sp[1] * lines <= room), SPACINGS[-1]
    )
    head_h, line_h, pad = spacing
    # Every character gets its first line and its numbers; the lines left go, in this order, to the rest of
    # the acting character's lines and the first naming what it carries, the others' second lines, the rest
    # of the others, the rest of the acting character's belongings, the others' belongings.
    shown = [1] * len(chars)
    extra = [0] * len(chars)
    spare = (room - len(chars) * (head_h + 2 * pad + line_h)) // line_h
    first = [i for i, ch in enumerate(chars) if ch["seat"] in acting]
    others = [i for i, ch in enumerate(chars) if ch["seat"] not in acting]
    for group, granted, most in (
        (first, shown, lambda i: len(flows[i])),
        (first, extra, lambda i: min(wanted[i], 1)),
        (others, shown, lambda i: min(len(flows[i]), 2)),
        (others, shown, lambda i: len(flows[i])),
        (first, extra, lambda i: wanted[i]),
        (others, extra, lambda i: wanted[i]),
    ):
        for i in group:
            more = max(0, min(most(i) - granted[i], spare))
            granted[i] += more
            spare -= more
    flows = [f if len(f) <= n else _flow(c, inner, n) for f, c, n in zip(flows, chunks, shown, strict=True)]
    left_over = room - sum(
        head_h + 2 * pad + line_h * (len(f) + e) for f, e in zip(flows, extra, strict=True)
    )
    gap = max(0, min(16, left_over // max(len(chars) - 1, 1)))
    for i, ch in enumerate(chars):
        height = head_h + line_h * (len(flows[i]) + extra[i]) + 2 * pad
        if ch["seat"] in acting or ch["seat"] in winners:
            draw.rounded_rectangle(
                (x - 8, y, right + 4, y + height - 1),
                radius=10,
                fill=PANEL,
                outline=GOLD if ch["seat"] in winners else ACCENT,
                width=3,
            )
        top = y + pad
        _token(image, x + 17, top + head_h // 2 - 1, ch["seat"], bool(ch["toad"]), 17, PANEL_TEXT)
        head = f"{seat_name(ch['seat'])} · {_name(CHARACTERS[ch['id']], locale)}"
        ink = MUTED if ch["dead"] or ch["out"] else TEXT
        paste_text(image, (x + 44, top + 1), fitted(head, PANEL_TEXT, w - 44, True), PANEL_TEXT, ink, True)
        line_y = _paste_flow(image, flows[i], x + 2, top + head_h, line_h)
        for line in _carried_lines(named[i], inner, extra[i]) if extra[i] else []:
            paste_text(image, (x + 2, line_y), line, PANEL_TEXT, MUTED)
            line_y += line_h
        y += height + gap


def render_table(view: View, names: list[str], locale: str) -> bytes:
    image = _empty_board(locale).copy()
    draw = ImageDraw.Draw(image)
    _draw_board(image, view, locale)
    _draw_side(image, draw, view, names, locale)
    return to_png_flat(image)


def _wrap(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if text_width(draw, trial, size) <= width:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


def private_shows(view: View) -> Any:
    """What render_private draws of the view: the characters dealt while setting up, then one's Spells."""
    if view.get("phase") == "setup" and view.get("viewer") is not None:
        return "setup", view["setup"]
    return "spells", view.get("my_spells")


def render_private(view: View, locale: str, words: dict[str, tuple[str, str]] | None = None) -> bytes | None:
    """What only the viewer sees: the characters dealt to choose from while setting up, then one's Spells.
    `words` gives names and texts in the reader's language by id (the presenter has them); the data's
    English or Korean stands in where it has none. None for a spectator's view."""
    words = words or {}
    if view.get("phase") == "setup" and view.get("viewer") is not None:
        return _render_characters(view["setup"], locale, words)
    spells = view.get("my_spells")
    if spells is None:
        return None
    blocks = []
    for spell in spells:
        entry = SPELLS[spell]
        own = (_name(entry, locale), entry["text"].get(locale[:2], entry["text"]["en"]))
        blocks.append(words.get(spell) or own)
    return _render_blocks(f"{_labels(locale)['your_spells']} ({len(spells)})", [], blocks, None)


def _render_characters(setup: dict[str, Any], locale: str, words: dict[str, tuple[str, str]]) -> bytes:
    """The characters dealt to the viewer (or the one given), each with its stats, start and ability; the
    chosen one framed, and what is still to choose written under the title."""
    labels = _labels(locale)
    mine = setup.get("mine")
    offers = setup.get("offers") or [mine]
    notes = []
    if mine is None:
        notes.append(labels["choose_character"])
    elif setup.get("bonus") is None:
        notes.append(labels["choose_bonus"])
    blocks = []
    for cid in offers:
        card = CHARACTERS[cid]
        name, ability = words.get(cid) or (_name(card, locale), card["ability_text"])
        start = words.get(f"space.{card['start']}", (_name(SPACES[card["start"]], locale), ""))[0]
        stats = [
            labels[card["alignment"]],
            f"{labels['str']} {card['strength']}",
            f"{labels['craft']} {card['craft']}",
            f"{labels['life']} {card['life']}",
            f"{labels['fate']} {card['fate']}",
            f"{labels['gold']} {card['gold']}",
            f"{labels['start']}: {start}",
        ]
        blocks.append((name, " · ".join(stats) + "\n" + ability))
    title = labels["your_character"] if mine is not None else labels["characters_dealt"]
    chosen = offers.index(mine) if mine in offers else None
    return _render_blocks(title, notes, blocks, chosen)


def _render_blocks(title: str, notes: list[str], blocks: list[tuple[str, str]], chosen: int | None) -> bytes:
    """A titled list of named boxes of wrapped text; the `chosen` box framed, the others dimmed. Drawn 700 px
    wide, so the chat (550 px) shrinks its text a little (17 px letters read at 13); at 900 a review read 9."""
    width = PRIVATE_WIDTH
    _, probe = canvas(10, 10)
    wrapped = [
        (name, [line for part in text.split("\n") for line in _wrap(probe, part, 17, width - 60)])
        for name, text in blocks
    ]
    top = 70 + 28 * len(notes)
    height = top + sum(50 + 24 * len(lines) for _, lines in wrapped) + (40 if not blocks else 0)
    image, draw = canvas(width, height)
    draw.text((MARGIN + 4, 20), title, font=font(26, True), fill=TEXT)
    for i, note in enumerate(notes):
        draw.text((MARGIN + 4, 62 + 28 * i), note, font=font(19, True), fill=ACCENT)
    y = top
    if not blocks:
        draw.text((MARGIN + 4, y), "—", font=font(20), fill=MUTED)
    for i, (name, lines) in enumerate(wrapped):
        box_h = 40 + 24 * len(lines)
        framed = chosen == i
        dimmed = chosen is not None and not framed
        draw.rounded_rectangle(
            (MARGIN, y, width - MARGIN, y + box_h),
            radius=8,
            fill=PANEL,
            outline=ACCENT if framed else None,
            width=4 if framed else 1,
        )
        draw.text((MARGIN + 14, y + 8), name, font=font(20, True), fill=MUTED if dimmed else (200, 160, 240))
        ty = y + 36
        for line in lines:
            draw.text((MARGIN + 14, ty), line, font=font(17), fill=MUTED if dimmed else TEXT)
            ty += 24
        y += box_h + 10
    return to_png(fitted_to_content(image))
