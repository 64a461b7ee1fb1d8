"""Druids table and hand images, drawn from views only."""

from __future__ import annotations

from functools import lru_cache

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
    TEXT,
    canvas,
    fit_text,
    font,
    readable_on,
    to_png,
)

KINDS = {kind["id"]: kind for kind in COMPONENTS["gem_kinds"]}
FOLLOWER_COLOURS = [tuple(c["colour"]) for c in COMPONENTS["follower_colours"]]

LABELS = {
    "en": {
        "turn": "Turn {turn}",
        "to_play": "{name} to play",
        "gems": "gems",
        "scorable": "can be scored",
        "scored": "Places scored {scored}/{total} · place deck {deck} · gem deck {gems} · discard {discard}",
        "hand": "Your hand",
        "home": "Followers you can take",
        "played": "Your face-down cards",
        "follower": "Follower",
        "empty": "(scored, no card left)",
        "over": "Game over",
        "cards": "{n} cards",
    },
    "ko": {
        "turn": "{turn}번째 차례",
        "to_play": "{name}님 차례",
        "gems": "보석",
        "scorable": "점수계산 가능",
        "scored": "점수계산한 장소 {scored}/{total} · 장소 덱 {deck} · 보석 덱 {gems} · 버린 카드 {discard}",
        "hand": "내 손패",
        "home": "가져올 수 있는 추종자",
        "played": "내가 엎어 둔 카드",
        "follower": "추종자",
        "empty": "(점수계산 끝, 남은 장소 없음)",
        "over": "게임 종료",
        "cards": "{n}장",
    },
    "es": {
        "turn": "Turno {turn}",
        "to_play": "Juega {name}",
        "gems": "gemas",
        "scorable": "puntuable",
        "scored": "Lugares puntuados {scored}/{total} · mazo de lugares {deck} · mazo de gemas {gems} · descarte {discard}",
        "hand": "Tu mano",
        "home": "Seguidores que puedes tomar",
        "played": "Tus cartas boca abajo",
        "follower": "Seguidor",
        "empty": "(puntuado, sin carta nueva)",
        "over": "Fin de la partida",
        "cards": "{n} cartas",
    },
}

WIDTH = 1200
PLACE_W, PLACE_H, GAP = 180, 120, 16


def _labels(locale: str) -> dict[str, str]:
    return LABELS.get(locale[:2], LABELS["en"])


def kind_name(kind: str, locale: str) -> str:
    names = KINDS[kind]["name"]
    return names.get(locale[:2], names["en"])


def _kind_colour(kind: str) -> tuple[int, int, int]:
    r, g, b = KINDS[kind]["colour"]
    return (r, g, b)


def _seat_colour(seat: int) -> tuple[int, int, int]:
    return FOLLOWER_COLOURS[seat % len(FOLLOWER_COLOURS)]


@lru_cache(maxsize=32)
def _place_card(kind: str | None, locale: str) -> Image.Image:
    """A place card face, drawn once and reused."""
    image, draw = canvas(PLACE_W, PLACE_H, PANEL if kind is None else _kind_colour(kind))
    if kind is None:
        draw.rounded_rectangle((2, 2, PLACE_W - 3, PLACE_H - 3), 12, outline=PANEL_LIGHT, width=2)
        draw.text(
            (PLACE_W // 2, PLACE_H // 2), _labels(locale)["empty"], fill=MUTED, font=font(14), anchor="mm"
        )
        return image
    ink = readable_on(_kind_colour(kind))
    draw.rounded_rectangle((2, 2, PLACE_W - 3, PLACE_H - 3), 12, outline=ink, width=3)
    draw.polygon(
        [(PLACE_W // 2, 22), (PLACE_W // 2 + 26, 48), (PLACE_W // 2, 74), (PLACE_W // 2 - 26, 48)],
        outline=ink,
        width=3,
    )
    draw.text((PLACE_W // 2, 96), kind_name(kind, locale), fill=ink, font=font(24, True), anchor="mm")
    return image


def _card_back(
    draw: ImageDraw.ImageDraw, x: int, y: int, colour: tuple[int, int, int], w: int = 22, h: int = 30
) -> None:
    draw.rounded_rectangle((x, y, x + w, y + h), 4, fill=colour, outline=TEXT, width=1)


def render_table(view: View, names: list[str], locale: str) -> bytes:
    labels = _labels(locale)
    players = view["players"]
    height = 560 + 34 * players
    image, draw = canvas(WIDTH, height)
    # Header
    if view["finished"]:
        title = labels["over"]
    else:
        title = labels["to_play"].format(name=names[view["current"]] if view["current"] < len(names) else "?")
    draw.text(
        (24, 20), f"{labels['turn'].format(turn=view['turn'])} · {title}", fill=TEXT, font=font(30, True)
    )
    draw.text(
        (24, 62),
        labels["scored"].format(
            scored=view["places_scored"],
            total=view["places_total"],
            deck=view["place_deck"],
            gems=view["gem_deck"],
            discard=view["gem_discard"],
        ),
        fill=MUTED,
        font=font(18),
    )
    # Places: face-down gems above, followers below in play order
    top = 110
    for entry in view["places"]:
        x = 24 + entry["place"] * (PLACE_W + GAP)
        draw.text((x, top), f"{entry['place'] + 1}", fill=MUTED, font=font(20, True))
        gem_count = entry["gems"]
        gem_y = top + 28
        for i in range(min(gem_count, 12)):
            _card_back(draw, x + 4 + (i % 6) * 28, gem_y + (i // 6) * 34, PANEL_LIGHT)
        if gem_count:
            draw.text(
                (x + PLACE_W - 4, gem_y + 74),
                labels["cards"].format(n=gem_count) + f" ({labels['gems']})",
                fill=TEXT,
                font=font(15),
                anchor="rb",
            )
        card_y = top + 110
        image.paste(_place_card(entry["kind"], locale[:2]), (x, card_y))
        if entry["scorable"]:
            draw.rounded_rectangle(
                (x - 3, card_y - 3, x + PLACE_W + 2, card_y + PLACE_H + 2), 14, outline=GOLD, width=3
            )
            draw.text(
                (x + PLACE_W // 2, card_y + PLACE_H + 14),
                labels["scorable"],
                fill=GOLD,
                font=font(15, True),
                anchor="mm",
            )
        follower_y = card_y + PLACE_H + 30
        for i, seat in enumerate(entry["followers"][:12]):
            _card_back(draw, x + 4 + (i % 6) * 28, follower_y + (i // 6) * 34, _seat_colour(seat))
    # Score track: the six cards of the column, laid out left to right
    track = view["track"]
    track_top = 470
    length = track["cards"] * track["steps"]
    step_w = (WIDTH - 48) / length
    for card in range(track["cards"]):
        x0 = 24 + card * track["steps"] * step_w
        draw.rounded_rectangle(
            (x0 + 1, track_top, x0 + track["steps"] * step_w - 2, track_top + 56),
            8,
            fill=PANEL,
            outline=PANEL_LIGHT,
        )
        low = track["base"] + card * track["steps"]
        draw.text((x0 + 8, track_top + 4), str(low), fill=MUTED, font=font(13))
    for seat, score in enumerate(view["scores"]):
        offset = min(max(score - track["base"], 0), length - 1)
        cx = 24 + (offset + 0.5) * step_w
        cy = track_top + 22 + seat * 9  # one lane per mover, so movers on one step stay visible
        draw.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=_seat_colour(seat), outline=TEXT, width=2)
    # Players
    y = track_top + 76
    for seat in range(players):
        colour = _seat_colour(seat)
        is_current = seat in view["to_act"]
        if is_current:
            draw.rounded_rectangle((16, y - 4, WIDTH - 16, y + 28), 8, fill=PANEL)
        draw.ellipse((24, y, 48, y + 24), fill=colour, outline=TEXT, width=2)
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        draw.text(
            (60, y),
            fit_text(draw, name, 22, 520, bold=is_current),
            fill=ACCENT if is_current else TEXT,
            font=font(22, is_current),
        )
        draw.text((760, y), f"{view['scores'][seat]}", fill=GOLD, font=font(22, True))
        draw.text((860, y), labels["cards"].format(n=view["hand_sizes"][seat]), fill=MUTED, font=font(20))
        y += 34
    return to_png(image)


def _gem_face(
    draw: ImageDraw.ImageDraw, x: int, y: int, card: str, locale: str, w: int = 110, h: int = 150
) -> None:
    kind, value = card.rsplit("-", 1)
    colour = _kind_colour(kind)
    ink = readable_on(colour)
    draw.rounded_rectangle((x, y, x + w, y + h), 10, fill=colour, outline=TEXT, width=2)
    draw.text((x + w // 2, y + 60), value, fill=ink, font=font(56, True), anchor="mm")
    draw.text(
        (x + w // 2, y + h - 22),
        fit_text(draw, kind_name(kind, locale), 17, w - 8),
        fill=ink,
        font=font(17, True),
        anchor="mm",
    )


def _follower_face(
    draw: ImageDraw.ImageDraw, x: int, y: int, number: int, seat: int, label: str, w: int = 110, h: int = 150
) -> None:
    colour = _seat_colour(seat)
    ink = readable_on(colour)
    big = h * 3 // 8
    draw.rounded_rectangle((x, y, x + w, y + h), 10, fill=colour, outline=GOLD, width=3)
    draw.text((x + w // 2, y + h * 2 // 5), str(number), fill=ink, font=font(big, True), anchor="mm")
    draw.text((x + w // 2, y + h - h // 7), label, fill=ink, font=font(max(15, h // 9), True), anchor="mm")


def render_private(view: View, locale: str) -> bytes:
    labels = _labels(locale)
    seat = view["viewer"]
    hand = view["hand"]
    played = [(entry["place"], entry["kind"], card) for entry in view["places"] for card in entry["mine"]]
    height = 300 + (150 if played else 0)
    image, draw = canvas(WIDTH, height, BACKGROUND)
    draw.text((24, 16), labels["hand"], fill=TEXT, font=font(26, True))
    for i, card in enumerate(hand):
        x = 24 + i * 124
        if card.startswith("f-"):
            _follower_face(draw, x, 56, int(card[2:]), seat, labels["follower"])
        else:
            _gem_face(draw, x, 56, card, locale)
    draw.text((24, 222), labels["home"], fill=MUTED, font=font(18))
    if not view["followers_home"]:
        draw.text((24, 256), "—", fill=MUTED, font=font(22))
    for i, number in enumerate(view["followers_home"]):
        x = 24 + i * 52
        draw.rounded_rectangle((x, 250, x + 42, 290), 6, fill=_seat_colour(seat), outline=TEXT)
        draw.text(
            (x + 21, 270), str(number), fill=readable_on(_seat_colour(seat)), font=font(22, True), anchor="mm"
        )
    if played:
        draw.text((24, 306), labels["played"], fill=MUTED, font=font(18))
        for i, (place, _kind, card) in enumerate(played[:14]):
            x = 24 + i * 82
            label = f"{place + 1}"
            if card.startswith("f-"):
                _follower_face(draw, x, 334, int(card[2:]), seat, label, w=72, h=100)
            else:
                kind_of, value = card.rsplit("-", 1)
                colour = _kind_colour(kind_of)
                draw.rounded_rectangle((x, 334, x + 72, 434), 8, fill=colour, outline=TEXT, width=2)
                draw.text((x + 36, 374), value, fill=readable_on(colour), font=font(36, True), anchor="mm")
                draw.text((x + 36, 420), label, fill=readable_on(colour), font=font(15, True), anchor="mm")
    return to_png(image)
