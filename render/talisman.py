"""Talisman pictures: the board (three rings on a 7x7 grid, the Crown in the middle), every character or toad
and the cards lying on the spaces, then each character's sheet; privately, one's own Spells."""

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
    SEAT_COLOURS,
    TEXT,
    canvas,
    fit_text,
    fitted,
    font,
    paste_text,
    readable_on,
    text_width,
    to_png,
)

CELL = 142
BOARD = CELL * 7
MARGIN = 16
WIDTH = BOARD + 2 * MARGIN + 300
SHEET_W = (WIDTH - 3 * MARGIN) // 2
SHEET_H = 232
REGION_FILL = {"outer": (70, 96, 62), "middle": (104, 86, 60), "inner": (96, 52, 56), "crown": (150, 120, 40)}
KIND_FILL = {
    "enemy": (170, 60, 60),
    "event": (120, 90, 170),
    "stranger": (60, 120, 170),
    "place": (60, 140, 120),
    "follower": (150, 130, 60),
    "object": (110, 110, 120),
    "magic_object": (150, 90, 160),
}
LABELS = {
    "en": {
        "str": "Str",
        "craft": "Craft",
        "life": "Life",
        "fate": "Fate",
        "gold": "Gold",
        "spells": "Spells",
        "items": "Objects",
        "followers": "Followers",
        "trophies": "Trophies",
        "turn": "Turn",
        "round": "Round",
        "to_act": "To act",
        "adventure": "Adventure deck",
        "spell_deck": "Spell deck",
        "talismans": "Talismans",
        "good": "Good",
        "neutral": "Neutral",
        "evil": "Evil",
        "toad": "Toad",
        "dead": "Dead",
        "out": "Out",
        "miss": "Misses a turn",
        "quest": "Quest",
        "none": "—",
        "your_spells": "Your Spells",
        "crown": "Crown reached",
        "blizzard": "Blizzard",
        "winner": "Winner",
        "hex": "Hex",
        "start": "Starts at",
        "characters_dealt": "Characters dealt to you",
        "your_character": "Your character",
        "choose_character": "Choose one of them to play.",
        "choose_bonus": "Choose your starting bonus: +1 Strength or +1 Craft.",
    },
    "ko": {
        "str": "힘",
        "craft": "기술",
        "life": "생명력",
        "fate": "운명",
        "gold": "금화",
        "spells": "주문",
        "items": "물품",
        "followers": "동료",
        "trophies": "전리품",
        "turn": "차례",
        "round": "라운드",
        "to_act": "행동할 차례",
        "adventure": "모험 카드",
        "spell_deck": "주문 카드",
        "talismans": "탈리스만",
        "good": "선",
        "neutral": "중립",
        "evil": "악",
        "toad": "두꺼비",
        "dead": "사망",
        "out": "탈락",
        "miss": "차례 건너뜀",
        "quest": "퀘스트",
        "none": "—",
        "your_spells": "내 주문",
        "crown": "왕관 도달",
        "blizzard": "눈보라",
        "winner": "승자",
        "hex": "저주",
        "start": "시작 위치",
        "characters_dealt": "받은 캐릭터",
        "your_character": "내 캐릭터",
        "choose_character": "이 중에서 플레이할 캐릭터 하나를 고르세요.",
        "choose_bonus": "시작 보너스를 고르세요: 힘 +1 또는 기술 +1.",
    },
    "es": {
        "str": "Fue",
        "craft": "Hab",
        "life": "Vida",
        "fate": "Destino",
        "gold": "Oro",
        "spells": "Hechizos",
        "items": "Objetos",
        "followers": "Seguidores",
        "trophies": "Trofeos",
        "turn": "Turno",
        "round": "Ronda",
        "to_act": "Actúa",
        "adventure": "Mazo de aventura",
        "spell_deck": "Mazo de hechizos",
        "talismans": "Talismanes",
        "good": "Bueno",
        "neutral": "Neutral",
        "evil": "Malvado",
        "toad": "Sapo",
        "dead": "Muerto",
        "out": "Eliminado",
        "miss": "Pierde turno",
        "quest": "Misión",
        "none": "—",
        "your_spells": "Tus hechizos",
        "crown": "Corona alcanzada",
        "blizzard": "Ventisca",
        "winner": "Ganador",
        "hex": "Maleficio",
        "start": "Empieza en",
        "characters_dealt": "Personajes que te han tocado",
        "your_character": "Tu personaje",
        "choose_character": "Elige uno de ellos para jugar.",
        "choose_bonus": "Elige tu bonificación inicial: +1 de Fuerza o +1 de Habilidad.",
    },
}


def _labels(locale: str) -> dict[str, str]:
    return LABELS.get(locale[:2], LABELS["en"])


def _name(entry: dict[str, Any], locale: str) -> str:
    return entry["name"].get(locale[:2], entry["name"]["en"])


def _ring_cell(index: int) -> tuple[int, int]:
    """(row, column) on the 7x7 grid: each ring is the border of a centred square, walked clockwise."""
    if index == 48:
        return 3, 3
    if index >= 40:
        offset, side, pos = 2, 2, index - 40
    elif index >= 24:
        offset, side, pos = 1, 4, index - 24
    else:
        offset, side, pos = 0, 6, index
    if pos < side:
        return offset, offset + pos
    if pos < 2 * side:
        return offset + pos - side, offset + side
    if pos < 3 * side:
        return offset + side, offset + side - (pos - 2 * side)
    return offset + side - (pos - 3 * side), offset


@lru_cache(maxsize=512)
def _fit_size(text: str, size: int, smallest: int, width: int, bold: bool = False) -> int:
    """The largest font size from `size` down to `smallest` at which `text` fits `width` pixels."""
    while size > smallest and font(size, bold).getlength(text) > width:
        size -= 1
    return size


@lru_cache(maxsize=512)
def _space_title(name: str) -> tuple[int, tuple[str, ...]]:
    """A space's name in its cell: smaller type for a long name, and two lines (split where they come out
    most even) for one that is too long even then."""
    width = CELL - 14
    size = _fit_size(name, 16, 13, width, True)
    face = font(size, True)
    words = name.split()
    if face.getlength(name) <= width or len(words) < 2:
        return size, (fitted(name, size, width, True),)
    cuts = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    first, second = min(cuts, key=lambda cut: max(face.getlength(cut[0]), face.getlength(cut[1])))
    return size, (fitted(first, size, width, True), fitted(second, size, width, True))


def _card_label(card: dict[str, Any], locale: str) -> tuple[str, tuple[int, int, int]]:
    entry = card_def({"c": card["card"], "o": card["origin"]})
    kind = entry.get("type") or entry.get("kind", "object")
    label = _name(entry, locale)
    if "pool" in card:
        label += f" ({card['pool']})"
    return label, KIND_FILL.get(kind, PANEL_LIGHT)


def _token(draw: ImageDraw.ImageDraw, x: int, y: int, seat: int, text: str, radius: int = 17) -> None:
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius), fill=colour, outline=(240, 240, 240), width=2
    )
    f = font(15, True)
    w = draw.textlength(text, font=f)
    draw.text((x - w / 2, y - 9), text, font=f, fill=readable_on(colour))


def _centre(index: int) -> tuple[int, int]:
    row, col = _ring_cell(index)
    return MARGIN + col * CELL + CELL // 2, MARGIN + row * CELL + CELL // 2


def _draw_links(draw: ImageDraw.ImageDraw) -> None:
    """The Sentinel's bridge over the Storm River and the Portal of Power's way in, drawn under the spaces."""
    for a, b in ((SENTINEL, BRIDGE_HILLS), (PORTAL, PLAIN_OF_PERIL), (VALLEY, CROWN)):
        draw.line((*_centre(a), *_centre(b)), fill=GOLD, width=14)


@lru_cache(maxsize=4)
def _empty_board(locale: str) -> Image.Image:
    """The board with nothing on it, the same in every picture of one language: drawn once."""
    image, draw = canvas(BOARD + 2 * MARGIN, BOARD + 2 * MARGIN)
    _draw_links(draw)
    for space in SPACES:
        row, col = _ring_cell(space["index"])
        x0, y0 = MARGIN + col * CELL, MARGIN + row * CELL
        fill = REGION_FILL[space["region"]]
        draw.rectangle(
            (x0 + 2, y0 + 2, x0 + CELL - 2, y0 + CELL - 2), fill=fill, outline=(25, 25, 25), width=2
        )
        size, lines = _space_title(_name(space, locale))
        for i, line in enumerate(lines):
            draw.text((x0 + 7, y0 + 5 + i * 15), line, font=font(size, True), fill=TEXT)
    return image


def _draw_board(image: Image.Image, draw: ImageDraw.ImageDraw, view: View, locale: str) -> None:
    labels = _labels(locale)
    hexed = {h["space"] for h in view["hexes"]}
    by_space: dict[int, list[dict[str, Any]]] = {}
    for ch in view["chars"]:
        if ch and not ch["dead"]:
            by_space.setdefault(ch["space"], []).append(ch)
    image.paste(_empty_board(locale))
    for space in SPACES:
        index = space["index"]
        row, col = _ring_cell(index)
        x0, y0 = MARGIN + col * CELL, MARGIN + row * CELL
        y = y0 + 27 + 15 * (len(_space_title(_name(space, locale))[1]) - 1)
        if index in hexed:
            draw.text((x0 + 7, y), labels["hex"], font=font(14, True), fill=(255, 120, 120))
            y += 18
        gold = view["gold"].get(str(index))
        if gold:
            draw.text((x0 + 7, y), f"{labels['gold']} {gold}", font=font(14, True), fill=GOLD)
            y += 18
        tokens = by_space.get(index, [])
        shown = 3 if tokens else 4  # leave the bottom row to the figures standing here
        for card in view["board"].get(str(index), [])[:shown]:
            label, colour = _card_label(card, locale)
            draw.rounded_rectangle((x0 + 6, y, x0 + CELL - 6, y + 19), radius=4, fill=colour)
            size = _fit_size(label, 14, 12, CELL - 20)
            paste_text(image, (x0 + 10, y + 15 - size), fitted(label, size, CELL - 20), size, (250, 250, 250))
            y += 21
        extra = len(view["board"].get(str(index), [])) - shown
        if extra > 0:
            draw.text((x0 + 8, y), f"+{extra}", font=font(14, True), fill=TEXT)
        for i, ch in enumerate(tokens):
            tx = x0 + CELL - 22 - (i % 4) * 32
            ty = y0 + CELL - 22 - (i // 4) * 32
            _token(draw, tx, ty, ch["seat"], "T" if ch["toad"] else str(ch["seat"] + 1))


def _draw_status(draw: ImageDraw.ImageDraw, view: View, names: list[str], locale: str) -> None:
    labels = _labels(locale)
    x = MARGIN * 2 + BOARD
    w = WIDTH - x - MARGIN
    draw.rounded_rectangle((x, MARGIN, x + w, MARGIN + BOARD), radius=10, fill=PANEL)
    y = MARGIN + 12
    lines: list[tuple[str, tuple[int, int, int], int, bool]] = [
        (f"{labels['turn']} {view['turn']} · {labels['round']} {view['round']}", TEXT, 20, True),
    ]
    if view["result"]:
        winners = ", ".join(names[s] if s < len(names) else str(s + 1) for s in view["result"]["winners"])
        lines.append((f"{labels['winner']}: {winners}", GOLD, 20, True))
    elif view["to_act"]:
        acting = ", ".join(names[s] if s < len(names) else str(s + 1) for s in view["to_act"])
        lines.append((f"{labels['to_act']}: {acting}", ACCENT, 18, True))
    lines += [
        (f"{labels['adventure']}: {view['decks']['adventure']}", TEXT, 17, False),
        (f"{labels['spell_deck']}: {view['decks']['spells']}", TEXT, 17, False),
        (f"{labels['talismans']}: {view['talismans']}", TEXT, 17, False),
    ]
    if view["crown_reached"]:
        lines.append((labels["crown"], GOLD, 17, True))
    if view["blizzard"]:
        lines.append((labels["blizzard"], (180, 210, 255), 17, True))
    for text, colour, size, bold in lines:
        draw.text((x + 12, y), fit_text(draw, text, size, w - 24, bold), font=font(size, bold), fill=colour)
        y += size + 10
    y += 8
    for ch in view["chars"]:
        if ch is None:
            continue
        _token(draw, x + 26, y + 14, ch["seat"], str(ch["seat"] + 1), 14)
        name = names[ch["seat"]] if ch["seat"] < len(names) else str(ch["seat"] + 1)
        text = f"{name} · {_name(CHARACTERS[ch['id']], locale)}"
        draw.text((x + 48, y + 4), fit_text(draw, text, 16, w - 60), font=font(16), fill=TEXT)
        y += 34


def _draw_sheet(
    draw: ImageDraw.ImageDraw, x: int, y: int, ch: dict[str, Any], name: str, locale: str
) -> None:
    labels = _labels(locale)
    colour = SEAT_COLOURS[ch["seat"] % len(SEAT_COLOURS)]
    draw.rounded_rectangle((x, y, x + SHEET_W, y + SHEET_H), radius=10, fill=PANEL)
    draw.rounded_rectangle((x, y, x + SHEET_W, y + 34), radius=10, fill=colour)
    title = f"{ch['seat'] + 1}. {name} — {_name(CHARACTERS[ch['id']], locale)}"
    if ch["toad"]:
        title += f" ({_name(TOAD, locale)} {ch['toad']})"
    draw.text(
        (x + 10, y + 6),
        fit_text(draw, title, 19, SHEET_W - 20, True),
        font=font(19, True),
        fill=readable_on(colour),
    )
    stats = [
        (labels["str"], f"{ch['strength']}", (230, 90, 90)),
        (labels["craft"], f"{ch['craft']}", (110, 150, 240)),
        (labels["life"], f"{ch['life']}", (90, 200, 110)),
        (labels["fate"], f"{ch['fate']}", (200, 200, 120)),
        (labels["gold"], f"{ch['gold']}", GOLD),
        (labels["spells"], f"{ch['spells']}", (190, 140, 230)),
    ]
    sx = x + 10
    step = (SHEET_W - 20) // len(stats)
    for label, value, tint in stats:
        draw.text((sx, y + 42), fit_text(draw, label, 14, step - 4), font=font(14), fill=MUTED)
        draw.text((sx, y + 60), value, font=font(24, True), fill=tint)
        sx += step
    status = [labels[ch["alignment"]]]
    if ch["out"]:
        status.append(labels["out"])
    elif ch["dead"]:
        status.append(labels["dead"])
    if ch["miss"]:
        status.append(f"{labels['miss']} ×{ch['miss']}")
    if ch["quest"]:
        status.append(f"{labels['quest']}: {ch['quest'].replace('_', ' ')}")
    draw.text(
        (x + 10, y + 94), fit_text(draw, " · ".join(status), 15, SHEET_W - 20), font=font(15), fill=TEXT
    )
    rows = [
        (labels["items"], [_card_label(c, locale)[0] for c in ch["items"]]),
        (labels["followers"], [_card_label(c, locale)[0] for c in ch["followers"]]),
        (
            labels["trophies"],
            [
                f"{labels['str'] if t['kind'] == 'strength' else labels['craft']} {t['value']}"
                for t in ch["trophies"]
            ],
        ),
    ]
    ry = y + 120
    for label, values in rows:
        draw.text((x + 10, ry), label, font=font(15, True), fill=MUTED)
        text = ", ".join(values) if values else labels["none"]
        lw = text_width(draw, label, 15, True) + 18
        draw.text((x + 10 + lw, ry), fit_text(draw, text, 15, SHEET_W - 20 - lw), font=font(15), fill=TEXT)
        ry += 34


def render_table(view: View, names: list[str], locale: str) -> bytes:
    chars = [ch for ch in view["chars"] if ch is not None]
    sheet_rows = (len(chars) + 1) // 2
    height = MARGIN * 2 + BOARD + sheet_rows * (SHEET_H + MARGIN) + MARGIN
    image, draw = canvas(WIDTH, height)
    _draw_board(image, draw, view, locale)
    _draw_status(draw, view, names, locale)
    for i, ch in enumerate(chars):
        x = MARGIN + (i % 2) * (SHEET_W + MARGIN)
        y = MARGIN * 2 + BOARD + (i // 2) * (SHEET_H + MARGIN)
        name = names[ch["seat"]] if ch["seat"] < len(names) else str(ch["seat"] + 1)
        _draw_sheet(draw, x, y, ch, name, locale)
    # A flat-coloured picture loses nothing visible in a 128-colour palette, and encodes about twice as fast;
    # the palette is picked from a sixteenth of the pixels (averaged four by four), many times faster.
    palette = image.reduce(4).quantize(colors=128, method=Image.Quantize.FASTOCTREE)
    return to_png(image.quantize(palette=palette, dither=Image.Dither.NONE))


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
    return to_png(image)
