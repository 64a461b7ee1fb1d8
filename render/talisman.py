"""Talisman pictures: the board as its three regions, rings around the Crown of Command, with every character or
toad and what lies on the spaces, and beside it each character's numbers; privately, one's own Spells."""

from __future__ import annotations

import math
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


# --- the board: three rings around the Crown, sized for the chat ---------------------------------------------

WIDTH, HEIGHT = 1100, 800
SMALL = 18  # the smallest letters: 18 × 550 / 1100 = 9 px in the chat
CX, CY = HEIGHT // 2, HEIGHT // 2
# (outer radius, inner radius, first index, spaces) of each region, outside in; a gap between regions stands
# for the Storm River (outer/middle) and the wall of the Inner Region (middle/inner).
RINGS = {"outer": (394, 268, 0, 24), "middle": (258, 160, 24, 16), "inner": (150, 78, 40, 8)}
CROWN_R = 70
START = -135.0  # every ring's first space sits up and to the left, so linked spaces face each other
SIDE_X = HEIGHT + 4
TOKEN_R = 15
CARD_INK = (250, 250, 250)


def _ring_of(index: int) -> str:
    return next(name for name, (_, _, first, n) in RINGS.items() if first <= index < first + n)


def _angle(index: int) -> float:
    """The middle of a space's sector, in degrees clockwise from three o'clock."""
    _, _, first, n = RINGS[_ring_of(index)]
    return START + 360 * (index - first) / n


def _point(index: int, share: float) -> tuple[float, float]:
    """A point in a space's sector, `share` of the way from its ring's inner edge to its outer edge."""
    if index == CROWN:
        return CX, CY
    outer, inner, _, _ = RINGS[_ring_of(index)]
    r = inner + (outer - inner) * share
    a = math.radians(_angle(index))
    return CX + r * math.cos(a), CY + r * math.sin(a)


@lru_cache(maxsize=512)
def _space_title(name: str, width: int) -> tuple[str, ...]:
    """A space's name in lines of at most `width` px (a word too long for a line is cut with an ellipsis)."""
    face = font(SMALL, True)
    lines: list[str] = []
    for word in name.split():
        if lines and face.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    if len(lines) > 3:
        lines = [lines[0], lines[1], " ".join(lines[2:])]
    return tuple(fitted(line, SMALL, width, True) for line in lines)


def _title_width(index: int) -> int:
    """Room for a space's name: its sector's width at the name's height."""
    if index == CROWN:
        return 2 * CROWN_R - 8
    outer, inner, _, n = RINGS[_ring_of(index)]
    return int(2 * math.pi * (inner + (outer - inner) * 0.72) / n) + 8  # may cross the thin edge lines


def _card_label(card: dict[str, Any], locale: str) -> tuple[str, tuple[int, int, int]]:
    entry = card_def({"c": card["card"], "o": card["origin"]})
    kind = entry.get("type") or entry.get("kind", "object")
    label = _name(entry, locale)
    if "pool" in card:
        label += f" ({card['pool']})"
    return label, KIND_FILL.get(kind, PANEL_LIGHT)


def _token(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, seat: int, toad: bool) -> None:
    """A character: a disc in the seat's colour with the seat's letter (a toad: a square)."""
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    box = (x - TOKEN_R, y - TOKEN_R, x + TOKEN_R, y + TOKEN_R)
    if toad:
        draw.rectangle(box, fill=colour, outline=(20, 20, 20), width=2)
    else:
        draw.ellipse(box, fill=colour, outline=(20, 20, 20), width=2)
    paste_text(image, (x, y + 1), SEAT_MARKS[seat], SMALL, readable_on(colour), True, "mm")


@lru_cache(maxsize=4)
def _empty_board(locale: str) -> Image.Image:
    """The board with nothing on it, the same in every picture of one language: drawn once."""
    image, draw = canvas(WIDTH, HEIGHT)
    draw.ellipse((CX - 398, CY - 398, CX + 398, CY + 398), fill=RIVER)
    for region, (outer, inner, first, n) in RINGS.items():
        box = (CX - outer, CY - outer, CX + outer, CY + outer)
        for index in range(first, first + n):
            a = _angle(index)
            half = 180 / n
            draw.pieslice(box, a - half, a + half, fill=REGION_FILL[region], outline=EDGE, width=2)
        gap = inner - (10 if region != "inner" else 8)
        draw.ellipse((CX - inner, CY - inner, CX + inner, CY + inner), fill=EDGE)
        draw.ellipse((CX - gap, CY - gap, CX + gap, CY + gap), fill=RIVER if region == "outer" else EDGE)
    for a, b in ((SENTINEL, BRIDGE_HILLS), (PORTAL, PLAIN_OF_PERIL), (VALLEY, CROWN)):
        draw.line((*_point(a, 0.0), *_point(b, 1.0 if b != CROWN else 0.0)), fill=GOLD, width=10)
    draw.ellipse((CX - CROWN_R, CY - CROWN_R, CX + CROWN_R, CY + CROWN_R), fill=REGION_FILL["crown"])
    for space in SPACES:
        index = space["index"]
        lines = _space_title(_name(space, locale), _title_width(index))
        x, y = _point(index, 0.72 if index != CROWN else 0.0)
        y -= 11 * (len(lines) - 1) + (0 if index != CROWN else 0)
        for i, line in enumerate(lines):
            draw.text((x, y + 22 * i), line, font=font(SMALL, True), fill=TEXT, anchor="mm")
    return image


def _draw_board(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: str) -> None:
    """Figures, cards, gold and hexes on the spaces: a badge with the number of cards lying there, in the
    colour of the first one's kind; gold and hexes as marked badges."""
    hexed = {h["space"] for h in view["hexes"]}
    by_space: dict[int, list[dict[str, Any]]] = {}
    for ch in view["chars"]:
        if ch and not ch["dead"]:
            by_space.setdefault(ch["space"], []).append(ch)
    image.paste(_empty_board(locale))
    for space in SPACES:
        index = space["index"]
        x, y = _point(index, 0.3 if index != CROWN else 0.0)
        if index == CROWN:
            y += 34
        badges = []
        cards = view["board"].get(str(index), [])
        if cards:
            badges.append((str(len(cards)), _card_label(cards[0], locale)[1], CARD_INK))
        gold = view["gold"].get(str(index))
        if gold:
            badges.append((f"${gold}", GOLD, (40, 30, 0)))
        if index in hexed:
            badges.append(("✶", (255, 120, 120), (40, 0, 0)))
        tokens = by_space.get(index, [])
        items = len(badges) + len(tokens)
        left = x - (items * (2 * TOKEN_R + 3)) / 2 + TOKEN_R
        for text, fill, ink in badges:  # cards as an upright card, gold and hexes as a wide tile
            if ink is CARD_INK:
                draw.rounded_rectangle(
                    (left - 12, y - 16, left + 12, y + 16), radius=4, fill=fill, outline=TEXT
                )
            else:
                draw.rounded_rectangle((left - TOKEN_R, y - 12, left + TOKEN_R, y + 12), radius=5, fill=fill)
            paste_text(image, (left, y + 1), text, SMALL, ink, True, "mm")
            left += 2 * TOKEN_R + 3
        for ch in tokens:
            _token(image, draw, left, y, ch["seat"], bool(ch["toad"]))
            left += 2 * TOKEN_R + 3


def _draw_side(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], locale: str
) -> None:
    """Turn, who acts, decks, then each character: name, character, strength, craft, life, fate, gold, and
    what stands out (alignment, toad, dead, out, misses a turn, cards carried)."""
    labels = _labels(locale)
    x, right = SIDE_X, WIDTH - 12
    w = right - x
    y = 12

    def line(text: str, colour: tuple[int, int, int], size: int = SMALL, bold: bool = False) -> None:
        nonlocal y
        paste_text(image, (x, y), fitted(text, size, w, bold), size, colour, bold)
        y += size + 8

    def seat_name(seat: int) -> str:
        return names[seat] if seat < len(names) else SEAT_MARKS[seat]

    line(f"{labels['turn']} {view['turn']} · {labels['round']} {view['round']}", TEXT, 24, True)
    if view["result"]:
        line(
            f"{labels['winner']}: " + ", ".join(seat_name(s) for s in view["result"]["winners"]),
            GOLD,
            22,
            True,
        )
    elif view["to_act"]:
        line(f"{labels['to_act']}: " + ", ".join(seat_name(s) for s in view["to_act"]), ACCENT, 22, True)
    decks = [
        f"{labels['adventure']} {view['decks']['adventure']}",
        f"{labels['spell_deck']} {view['decks']['spells']}",
    ]
    together = " · ".join(decks)
    for text in [together] if font(SMALL).getlength(together) <= w else decks:  # a line each, not cut short
        line(text, MUTED)
    line(f"{labels['talismans']} {view['talismans']}", MUTED)
    if view["crown_reached"]:
        line(labels["crown"], GOLD, SMALL, True)
    if view["blizzard"]:
        line(labels["blizzard"], (180, 210, 255), SMALL, True)
    chars = [ch for ch in view["chars"] if ch is not None]
    room = (HEIGHT - 8 - y) // max(len(chars), 1)
    for ch in chars:
        top = y
        acting = ch["seat"] in view["to_act"]
        if acting:
            box = (x - 6, top - 4, right + 4, top + min(room, 104) - 4)
            draw.rounded_rectangle(box, radius=8, outline=ACCENT, width=3)
        _token(image, draw, x + TOKEN_R, y + 12, ch["seat"], bool(ch["toad"]))
        head = f"{seat_name(ch['seat'])} · {_name(CHARACTERS[ch['id']], locale)}"
        paste_text(
            image, (x + 2 * TOKEN_R + 8, y + 1), fitted(head, 20, w - 2 * TOKEN_R - 12, True), 20, TEXT, True
        )
        y += 30
        stats = [
            (labels["str"], ch["strength"], (240, 110, 90)),
            (labels["craft"], ch["craft"], (120, 170, 250)),
            (labels["life"], ch["life"], (110, 210, 130)),
            (labels["fate"], ch["fate"], (220, 210, 130)),
            (labels["gold"], ch["gold"], GOLD),
        ]
        sx = x
        for label, value, tint in stats:
            text = f"{label} {value}"
            width = font(SMALL).getlength(text)
            if sx + width > right:
                sx, y = x, y + SMALL + 6
            paste_text(image, (sx, y), text, SMALL, tint)
            sx += width + 12
        y += SMALL + 6
        status = [labels[ch["alignment"]]]
        if ch["toad"]:
            status.append(f"{_name(TOAD, locale)} {ch['toad']}")
        if ch["out"]:
            status.append(labels["out"])
        elif ch["dead"]:
            status.append(labels["dead"])
        if ch["miss"]:
            status.append(labels["miss"])
        carried = [_card_label(card, locale)[0] for card in ch["items"] + ch["followers"]]
        if carried:  # what it carries is public: the names, as far as the line goes
            status.append(labels["carries_what"].format(n=len(carried), things=", ".join(carried)))
        else:
            status.append(labels["carries"].format(n=0))
        paste_text(image, (x, y), fitted(" · ".join(status), SMALL, w), SMALL, MUTED)
        y = max(y + SMALL + 12, top + min(room, 104))


def render_table(view: View, names: list[str], locale: str) -> bytes:
    image, draw = canvas(WIDTH, HEIGHT)
    _draw_board(image, draw, view, locale)
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
    """A titled list of named boxes of wrapped text; the `chosen` box framed, the others dimmed."""
    width = 900
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
