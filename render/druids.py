"""Druids table and hand images, drawn from views only."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engines.base import View
from engines.druids.engine import COMPONENTS
from render.common import (
    ACCENT,
    BACKGROUND,
    GOLD,
    MUTED,
    PANEL,
    PANEL_LIGHT,
    SEAT_MARKS,
    TEXT,
    canvas,
    fitted,
    font,
    paste_text,
    readable_on,
    to_png_flat,
)
from render.text import counted
from render.text import labels as picture_labels

KINDS = {kind["id"]: kind for kind in COMPONENTS["gem_kinds"]}
# The components' colours, drawn in shades that colour-blind players still tell apart (Okabe and Ito's set where
# it has the hue); tests/render/test_palettes.py checks them under simulated deuteranopia and protanopia.
FOLLOWER_RGB = {"red": (213, 94, 0), "blue": (86, 180, 233), "black": (28, 28, 30), "green": (0, 158, 115)}
GEM_RGB = {
    "ruby": (200, 30, 70),
    "sapphire": (10, 79, 181),
    "emerald": (0, 150, 110),
    "topaz": (240, 200, 40),
    "amethyst": (160, 104, 240),
    "onyx": (28, 28, 30),
}
FOLLOWER_COLOURS = [FOLLOWER_RGB[c["id"]] for c in COMPONENTS["follower_colours"]]


def _labels(locale: str) -> dict[str, Any]:
    return picture_labels("druids", locale)


def kind_name(kind: str, locale: str) -> str:
    names = KINDS[kind]["name"]
    return names.get(locale[:2], names["en"])


def _kind_colour(kind: str) -> tuple[int, int, int]:
    return GEM_RGB[kind]


def _seat_colour(seat: int) -> tuple[int, int, int]:
    return FOLLOWER_COLOURS[seat % len(FOLLOWER_COLOURS)]


TABLE_W = 1000
SMALL = 17  # a follower token's letter, inside its 26 px circle
LABEL = 22  # the smallest words on the table: 22 × 550 / 1000 = 12 px in the chat (at 17 a review could not read them)
COL_W = (TABLE_W - 48 - 5 * 12) // 6
CARD_H = 96
TOKEN_R = 13


def _follower(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, seat: int) -> None:
    """A follower: a round token with its seat's letter, never a card shape, so it cannot pass for a gem."""
    colour = _seat_colour(seat)
    draw.ellipse((x - TOKEN_R, y - TOKEN_R, x + TOKEN_R, y + TOKEN_R), fill=colour, outline=TEXT, width=2)
    paste_text(image, (x, y + 1), SEAT_MARKS[seat], SMALL, readable_on(colour), True, "mm")


@lru_cache(maxsize=32)
def _place_tile(kind: str | None, locale: str) -> Image.Image:
    """A place card on the table: the gem's diamond and name on the gem's colour."""
    image, draw = canvas(COL_W, CARD_H, PANEL if kind is None else _kind_colour(kind))
    if kind is None:
        draw.rounded_rectangle((1, 1, COL_W - 2, CARD_H - 2), 10, outline=PANEL_LIGHT, width=2)
        draw.text((COL_W // 2, CARD_H // 2), "—", fill=MUTED, font=font(24), anchor="mm")
        return image
    ink = readable_on(_kind_colour(kind))
    draw.rounded_rectangle((1, 1, COL_W - 2, CARD_H - 2), 10, outline=ink, width=3)
    mid = COL_W // 2
    draw.polygon([(mid, 12), (mid + 22, 34), (mid, 56), (mid - 22, 34)], outline=ink, width=3)
    name = fitted(kind_name(kind, locale), 22, COL_W - 12, True)
    draw.text((mid, 76), name, fill=ink, font=font(22, True), anchor="mm")
    return image


def render_table(view: View, names: list[str], locale: str) -> bytes:
    labels = _labels(locale)
    players = view["players"]
    track = view["track"]
    places_top = 86
    track_top = places_top + 32 + CARD_H + 32 + 2 * 30 + 8
    lanes_top = track_top + 30
    rows_top = lanes_top + players * 28 + 18
    height = max(rows_top + players * 36 + 12, TABLE_W // 2 + 1)
    image, draw = canvas(TABLE_W, height)

    def name_of(seat: int) -> str:
        return names[seat] if seat < len(names) else SEAT_MARKS[seat]

    # header: turn and whose it is, then the decks
    if view["finished"]:
        title = labels["over"]
    else:
        title = labels["to_play"].format(name=name_of(view["current"]))
    head = fitted(f"{labels['turn'].format(turn=view['turn'])} · {title}", 30, TABLE_W - 48, True)
    paste_text(image, (24, 14), head, 30, TEXT, True)
    info = labels["scored"].format(
        scored=view["places_scored"],
        total=view["places_total"],
        deck=view["place_deck"],
        gems=view["gem_deck"],
        discard=view["gem_discard"],
    )
    paste_text(image, (24, 52), fitted(info, LABEL, TABLE_W - 48), LABEL, MUTED)
    # places: number and face-down gems above, the card, followers (tokens) below in play order
    for entry in view["places"]:
        x = 24 + entry["place"] * (COL_W + 12)
        paste_text(image, (x, places_top), str(entry["place"] + 1), 20, MUTED, True)
        if entry["gems"]:  # beside its own place's number: at the column's right it read as the next place's
            text = fitted("· " + counted(labels["gems"], locale, entry["gems"]), LABEL, COL_W - 24)
            paste_text(image, (x + 20, places_top), text, LABEL, TEXT)
        card_y = places_top + 32
        image.paste(_place_tile(entry["kind"], locale[:2]), (x, card_y))
        if entry["scorable"]:
            draw.rounded_rectangle(
                (x - 4, card_y - 4, x + COL_W + 3, card_y + CARD_H + 3), 12, outline=GOLD, width=4
            )
            text = fitted(labels["scorable"], LABEL, COL_W + 8, True)
            paste_text(image, (x + COL_W // 2, card_y + CARD_H + 17), text, LABEL, GOLD, True, "mm")
        per_row = COL_W // (2 * TOKEN_R + 3)
        for i, seat in enumerate(entry["followers"][: 2 * per_row]):
            fx = x + TOKEN_R + 1 + (i % per_row) * (2 * TOKEN_R + 3)
            fy = card_y + CARD_H + 32 + TOKEN_R + (i // per_row) * 30
            _follower(image, draw, fx, fy, seat)
    # score track: the column of score cards laid out left to right, a numbered tick every five steps, and
    # one lane per mover so movers on one step stay visible
    length = track["cards"] * track["steps"]
    left, right = 24 + 2 * TOKEN_R + 8, TABLE_W - 24
    step_w = (right - left) / length
    draw.rounded_rectangle((24, lanes_top - 6, TABLE_W - 24, lanes_top + players * 28 - 2), 8, fill=PANEL)
    for step in range(0, length + 1, 5):
        x = left + step * step_w
        major = step % track["steps"] == 0
        draw.line(
            (x, lanes_top - 6, x, lanes_top + players * 28 - 2), fill=PANEL_LIGHT, width=3 if major else 1
        )
        paste_text(
            image,
            (x, track_top + 20),
            str(track["base"] + step),
            LABEL,
            TEXT if major else MUTED,
            major,
            "ms",
        )
    for seat, score in enumerate(view["scores"]):
        offset = min(max(score - track["base"], 0), length)
        cy = lanes_top + 11 + seat * 28
        end = left + offset * step_w
        # a light edge under each line, so the black follower's reads on the dark panel too
        draw.line((left, cy, end, cy), fill=MUTED, width=8)
        draw.line((left, cy, end, cy), fill=_seat_colour(seat), width=4)
        _follower(image, draw, end, cy, seat)
    # players: token, name, score, cards in hand
    y = rows_top
    for seat in range(players):
        acting = seat in view["to_act"]
        if acting:
            draw.rounded_rectangle((16, y - 4, TABLE_W - 16, y + 30), 8, fill=PANEL, outline=ACCENT, width=2)
        _follower(image, draw, 24 + TOKEN_R, y + 13, seat)
        head = ("▶ " if acting else "") + name_of(seat)
        paste_text(image, (60, y), fitted(head, 22, 520, True), 22, ACCENT if acting else TEXT, True)
        paste_text(image, (720, y + 13), str(view["scores"][seat]), 24, GOLD, True, "rm")
        paste_text(
            image,
            (760, y + 13),
            counted(labels["cards"], locale, view["hand_sizes"][seat]),
            20,
            MUTED,
            anchor="lm",
        )
        y += 36
    return to_png_flat(image)


def _card_tile(card: str, label: str, seat: int, locale: str, w: int, h: int) -> Image.Image:
    """A card of the private picture on the table's background, drawn once and then only pasted: the same few
    dozen cards come back picture after picture. A gem card looks the same in every seat's hand."""
    if card.startswith("f-"):
        return _follower_tile(int(card[2:]), seat, label, w, h)
    return _gem_tile(card, locale, w, h)


@lru_cache(maxsize=128)
def _gem_tile(card: str, locale: str, w: int, h: int) -> Image.Image:
    tile, draw = canvas(w + 1, h + 1, BACKGROUND)
    _gem_face(draw, 0, 0, card, locale, w, h)
    return tile


@lru_cache(maxsize=128)
def _follower_tile(number: int, seat: int, label: str, w: int, h: int) -> Image.Image:
    tile, draw = canvas(w + 1, h + 1, BACKGROUND)
    _follower_face(draw, 0, 0, number, seat, label, w, h)
    return tile


def _symbol(x: int, y: int, w: int, h: int) -> tuple[int, int, int]:
    """Where a card's diamond or token goes (its middle, and its radius): in the card's upper part, clear of the
    name under it. A face-down card is square, and a symbol as wide as a hand card's ran into its name."""
    name_top = h - h // 7 - PRIVATE_SMALL * 3 // 5
    cy = h * 2 // 5
    return x + w // 2, y + cy, min(w * 2 // 5, name_top - 4 - cy)


def _gem_face(
    draw: ImageDraw.ImageDraw, x: int, y: int, card: str, locale: str, w: int = 110, h: int = 150
) -> None:
    """A gem card: its value over a diamond, the gem's name."""
    kind, value = card.rsplit("-", 1)
    colour = _kind_colour(kind)
    ink = readable_on(colour)
    draw.rounded_rectangle((x, y, x + w, y + h), 10, fill=colour, outline=TEXT, width=2)
    mid, cy, r = _symbol(x, y, w, h)
    draw.polygon([(mid, cy - r), (mid + r, cy), (mid, cy + r), (mid - r, cy)], outline=ink, width=3)
    draw.text((mid, cy), value, fill=ink, font=font(h * 3 // 10, True), anchor="mm")
    label = fitted(kind_name(kind, locale), PRIVATE_SMALL, w - 8, True)
    draw.text((mid, y + h - h // 7), label, fill=ink, font=font(PRIVATE_SMALL, True), anchor="mm")


def _follower_face(
    draw: ImageDraw.ImageDraw, x: int, y: int, number: int, seat: int, label: str, w: int = 110, h: int = 150
) -> None:
    """A follower card: its number in a round token (as followers are drawn on the table), gold-edged."""
    colour = _seat_colour(seat)
    ink = readable_on(colour)
    draw.rounded_rectangle((x, y, x + w, y + h), 10, fill=colour, outline=GOLD, width=3)
    mid, cy, r = _symbol(x, y, w, h)
    draw.ellipse((mid - r, cy - r, mid + r, cy + r), outline=ink, width=3)
    draw.text((mid, cy), str(number), fill=ink, font=font(h * 3 // 10, True), anchor="mm")
    label = fitted(label, PRIVATE_SMALL, w - 8, True)
    draw.text((mid, y + h - h // 7), label, fill=ink, font=font(PRIVATE_SMALL, True), anchor="mm")


PRIVATE_W = 920
PRIVATE_SMALL = 19  # 19 × 550 / 920 ≥ 11 px in the chat (at 16 a review misread a card's name)
PLAYED_W = 100  # a face-down card: room for the longest gem name at PRIVATE_SMALL ("Esmeralda", 90 px)
PLAYED_STEP = PLAYED_W + 10  # from one face-down card to the next


def private_shows(view: View) -> Any:
    """What render_private draws of the view: the viewer's hand, followers at home and own face-down cards."""
    mine = [(entry["place"], entry["mine"]) for entry in view["places"]]
    return view["viewer"], view["hand"], view["followers_home"], mine


def render_private(view: View, locale: str) -> bytes:
    """The viewer's hand, the followers it can still take, and its face-down cards by place."""
    labels = _labels(locale)
    seat = view["viewer"]
    hand = view["hand"]
    played = [(entry["place"], card) for entry in view["places"] for card in entry["mine"]]
    per_hand = (PRIVATE_W - 24) // 124
    hand_rows = max(1, (len(hand) + per_hand - 1) // per_hand)
    per_played = (PRIVATE_W - 24) // PLAYED_STEP
    played_rows = (len(played) + per_played - 1) // per_played
    home_y = 56 + hand_rows * 160 + 6
    played_y = home_y + 90
    height = played_y + (36 + played_rows * 130 if played else 0)
    image, draw = canvas(PRIVATE_W, height, BACKGROUND)
    draw.text((24, 14), labels["hand"], fill=TEXT, font=font(26, True))
    for i, card in enumerate(hand):
        x = 24 + (i % per_hand) * 124
        y = 56 + (i // per_hand) * 160
        image.paste(_card_tile(card, labels["follower"], seat, locale, 110, 150), (x, y))
    draw.text((24, home_y), labels["home"], fill=TEXT, font=font(22))  # muted, a review found it faint
    if not view["followers_home"]:
        draw.text((24, home_y + 38), "—", fill=MUTED, font=font(22))
    for i, number in enumerate(view["followers_home"]):
        cx, cy = 24 + 21 + i * 52, home_y + 58
        colour = _seat_colour(seat)
        draw.ellipse((cx - 21, cy - 21, cx + 21, cy + 21), fill=colour, outline=TEXT, width=2)
        draw.text((cx, cy), str(number), fill=readable_on(colour), font=font(22, True), anchor="mm")
    if played:
        draw.text((24, played_y), labels["played"], fill=TEXT, font=font(22))
        for i, (place, card) in enumerate(played):  # each under the place it lies at
            x = 24 + (i % per_played) * PLAYED_STEP
            y = played_y + 36 + (i // per_played) * 130
            where = fitted(labels["at_place"].format(number=place + 1), PRIVATE_SMALL, PLAYED_W + 4)
            draw.text((x + PLAYED_W // 2, y + 10), where, fill=TEXT, font=font(PRIVATE_SMALL), anchor="mm")
            image.paste(_card_tile(card, labels["follower"], seat, locale, PLAYED_W, 100), (x, y + 22))
    return to_png_flat(image)
