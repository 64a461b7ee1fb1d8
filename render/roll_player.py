"""Roll Player table image, drawn from views only.

Everything in Roll Player is on the table for all to see (sheets, backstories, alignments, gold, the market); only
the market deck's order is hidden, and no view carries it. So there is no private screen: render_private is None.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

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
from engines.roll_player.scoring import final_attribute
from render.common import (
    ACCENT,
    BACKGROUND,
    GOLD,
    MUTED,
    PANEL,
    PANEL_LIGHT,
    SEAT_COLOURS,
    TEXT,
    canvas,
    fit_text,
    font,
    readable_on,
    to_png,
)

WIDTH = 1240
MARGIN = 16
DIE_RGB: dict[str, tuple[int, int, int]] = {c["id"]: tuple(c["rgb"]) for c in DICE["colours"]}  # type: ignore[misc]
ATTR_NAMES = {a["id"]: a["name"] for a in DICE["attributes"]}
ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}
TYPE_TAG = {"weapon": "W", "armor": "A", "trait": "T", "skill": "S"}
TYPE_RGB = {"weapon": (190, 90, 70), "armor": (110, 130, 150), "trait": (170, 120, 60), "skill": (80, 140, 110)}
GOOD_RGB = (90, 200, 120)
BAD_RGB = (230, 100, 100)

LABELS = {
    "en": {
        "round": "Round {n}", "start": "start: {name}", "to_act": "to act: {names}", "over": "Game over",
        "initiative": "Initiative", "market": "Market", "deck": "Deck {deck} · discard {discard} · sold out {sold}",
        "bag": "Bag", "gold": "{n} gold", "tokens": "+{n} discount", "winner": "Winner", "stars": "{n} ★",
        "phase": {"choose_race": "choosing races", "choose_class": "choosing classes", "place_start": "placing starting dice",
                  "roll": "rolling", "dice": "dice phase", "market": "market phase", "cleanup": "cleanup",
                  "over": "game over"},
        "areas": {"weapon": "Weapons", "armor": "Armour", "trait": "Traits", "skill": "Skills"},
        "no_class": "no class yet", "backstory": "Backstory", "no_race": "no race yet", "start_dice": "to place:", "top": "top: {card}",
        "adventurer": "Adventurer die: {n}", "rating": "Rating: {rating}",
    },
    "ko": {
        "round": "{n}라운드", "start": "시작: {name}", "to_act": "차례: {names}", "over": "게임 종료",
        "initiative": "순서 카드", "market": "상점", "deck": "상점 더미 {deck} · 버린 카드 {discard} · 매진 {sold}",
        "bag": "주머니", "gold": "금화 {n}", "tokens": "할인 +{n}", "winner": "승리", "stars": "{n} ★",
        "phase": {"choose_race": "종족 선택", "choose_class": "직업 선택", "place_start": "시작 주사위 배치",
                  "roll": "주사위 굴림", "dice": "주사위 배치 단계", "market": "카드 구매 단계", "cleanup": "정리 단계",
                  "over": "게임 종료"},
        "areas": {"weapon": "무기", "armor": "방어구", "trait": "특성", "skill": "기술"},
        "no_class": "직업 없음", "backstory": "배경", "no_race": "종족 없음", "start_dice": "배치할 주사위:", "top": "맨 위: {card}",
        "adventurer": "모험가 주사위: {n}", "rating": "평가: {rating}",
    },
}


def _labels(locale: str) -> dict[str, Any]:
    return LABELS.get(locale[:2], LABELS["en"])


def _name(entry: dict[str, Any], locale: str) -> str:
    names = entry["name"]
    return names.get(locale[:2]) or names["en"]


def _draw_die(draw: ImageDraw.ImageDraw, x: int, y: int, size: int, die: list[Any] | None,
              hint: str | None = None) -> None:
    """A die as a coloured rounded square with its number; an empty box shows the backstory colour it wants."""
    if die is None:
        outline = DIE_RGB[hint] if hint else PANEL_LIGHT
        draw.rounded_rectangle((x, y, x + size, y + size), radius=7, fill=PANEL, outline=outline, width=3 if hint else 2)
        return
    colour = DIE_RGB[die[0]]
    draw.rounded_rectangle((x, y, x + size, y + size), radius=7, fill=colour,
                           outline=(200, 200, 200) if die[0] == "black" else None, width=2)
    if hint:
        draw.rounded_rectangle((x - 3, y - 3, x + size + 3, y + size + 3), radius=9, outline=DIE_RGB[hint], width=2)
    draw.text((x + size / 2, y + size / 2 + 1), str(die[1]), font=font(int(size * 0.6), True), anchor="mm",
              fill=readable_on(colour))


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


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], labels: dict[str, Any]) -> int:
    y = MARGIN
    phase = labels["phase"].get(view["phase"], view["phase"])
    parts = [labels["round"].format(n=view["round"]) if view["round"] else "", phase,
             labels["start"].format(name=names[view["start"]])]
    if view["solo"] and view["adventurer"]:
        parts.append(labels["adventurer"].format(n=view["adventurer"]))
    draw.text((MARGIN, y), " · ".join(p for p in parts if p), font=font(26, True), fill=TEXT)
    if view["to_act"]:
        acting = ", ".join(names[s] for s in view["to_act"])
        text = fit_text(draw, labels["to_act"].format(names=acting), 22, 520)
        draw.text((WIDTH - MARGIN, y + 4), text, font=font(22), fill=ACCENT, anchor="ra")
    return y + 40


def _initiative(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], labels: dict[str, Any],
                y: int) -> int:
    draw.text((MARGIN, y), labels["initiative"], font=font(20, True), fill=MUTED)
    x = MARGIN
    y += 28
    box_w, box_h = 118, 96
    for card in view["initiative"]:
        owner = card["owner"]
        outline = SEAT_COLOURS[owner % len(SEAT_COLOURS)] if owner is not None else PANEL_LIGHT
        draw.rounded_rectangle((x, y, x + box_w, y + box_h), radius=10, fill=PANEL, outline=outline, width=3)
        draw.text((x + 10, y + 6), str(card["number"]), font=font(28, True), fill=TEXT)
        _draw_die(draw, x + box_w - 58, y + 8, 48, card["die"])
        if card["gold"]:
            draw.ellipse((x + 10, y + 44, x + 34, y + 68), fill=GOLD)
            draw.text((x + 22, y + 56), str(card["gold"]), font=font(16, True), anchor="mm", fill=(40, 30, 0))
        if owner is not None:
            draw.text((x + box_w / 2, y + box_h - 8), fit_text(draw, names[owner], 16, box_w - 12), font=font(16),
                      fill=TEXT, anchor="ms")
        x += box_w + 10
    return y + box_h + 10


def _bag(draw: ImageDraw.ImageDraw, view: dict[str, Any], labels: dict[str, Any], x: int, y: int) -> None:
    draw.text((x, y), labels["bag"], font=font(20, True), fill=MUTED)
    y += 30
    for i, colour in enumerate(c["id"] for c in DICE["colours"]):
        cx = x + (i % 4) * 78
        cy = y + (i // 4) * 40
        draw.rounded_rectangle((cx, cy, cx + 30, cy + 30), radius=6, fill=DIE_RGB[colour],
                               outline=(200, 200, 200) if colour == "black" else None)
        draw.text((cx + 36, cy + 15), str(view["bag"][colour]), font=font(20), fill=TEXT, anchor="lm")


def _market(draw: ImageDraw.ImageDraw, view: dict[str, Any], labels: dict[str, Any], locale: str, y: int) -> int:
    draw.text((MARGIN, y), labels["market"], font=font(20, True), fill=MUTED)
    info = labels["deck"].format(deck=view["deck_count"], discard=len(view["discard"]), sold=len(view["sold_out"]))
    if view["deck_top"]:
        info += " · " + labels["top"].format(card=_name(CARDS[view["deck_top"]], locale))
    draw.text((WIDTH - MARGIN, y + 2), fit_text(draw, info, 18, 800), font=font(18), fill=MUTED, anchor="ra")
    y += 28
    cards = view["market"]
    if not cards:
        return y + 10
    per_row = 3
    card_w = (WIDTH - 2 * MARGIN - (per_row - 1) * 10) // per_row
    card_h = 84
    for i, card_id in enumerate(cards):
        x = MARGIN + (i % per_row) * (card_w + 10)
        cy = y + (i // per_row) * (card_h + 8)
        _card_box(draw, card_id, locale, x, cy, card_w, card_h)
    rows = (len(cards) + per_row - 1) // per_row
    return y + rows * (card_h + 8) + 4


def _card_box(draw: ImageDraw.ImageDraw, card_id: str, locale: str, x: int, y: int, w: int, h: int) -> None:
    card = CARDS[card_id]
    tint = TYPE_RGB[card["type"]]
    draw.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=PANEL, outline=tint, width=3)
    draw.rounded_rectangle((x, y, x + 34, y + h), radius=10, fill=tint)
    draw.text((x + 17, y + 22), TYPE_TAG[card["type"]], font=font(20, True), fill=(250, 250, 250), anchor="mm")
    draw.text((x + 17, y + h - 18), "•" * card["level"], font=font(18, True), fill=(250, 250, 250), anchor="mm")
    draw.ellipse((x + w - 46, y + 8, x + w - 10, y + 44), fill=GOLD)
    draw.text((x + w - 28, y + 26), str(card["cost"]), font=font(20, True), fill=(40, 30, 0), anchor="mm")
    title = _name(card, locale)
    extra = []
    if card.get("arrow"):
        extra.append(ARROWS[card["arrow"]])
    if card["type"] == "weapon":
        extra.append(labels_hands(card["hands"], locale))
    head = fit_text(draw, title + ("  " + " ".join(extra) if extra else ""), 21, w - 100, True)
    draw.text((x + 44, y + 8), head, font=font(21, True), fill=TEXT)
    if card["type"] == "armor":
        draw.ellipse((x + w - 74, y + 14, x + w - 54, y + 34), fill=DIE_RGB[card["colour"]], outline=(200, 200, 200))
    _wrap(draw, card["text"]["en"] if locale[:2] != "ko" or "ko" not in card["text"] else card["text"]["ko"],
          x + 44, y + 38, w - 54, 16, 2)


def labels_hands(hands: int, locale: str) -> str:
    if locale[:2] == "ko":
        return "한손" if hands == 1 else "양손"
    return "1-hand" if hands == 1 else "2-hand"


def _wrap(draw: ImageDraw.ImageDraw, text: str, x: int, y: int, width: int, size: int, lines: int) -> None:
    words = text.split()
    line = ""
    out: list[str] = []
    for word in words:
        trial = f"{line} {word}".strip()
        if draw.textlength(trial, font=font(size)) <= width:
            line = trial
        else:
            out.append(line)
            line = word
    out.append(line)
    if len(out) > lines:
        out = out[: lines - 1] + [fit_text(draw, " ".join(out[lines - 1 :]), size, width)]
    for i, text_line in enumerate(out):
        draw.text((x, y + i * (size + 4)), text_line, font=font(size), fill=MUTED)


SHEET_W = (WIDTH - 2 * MARGIN - 12) // 2
AREA_X = 110
ROW_SIZE = 44
SHEET_TOP = 76  # header height above the attribute rows


def _area_lines(me: dict[str, Any], locale: str) -> list[tuple[str, list[list[tuple[int, str, int]]]]]:
    """Each card area's chips as lines of (x offset, card, width); an empty area still takes one line."""
    room = SHEET_W - AREA_X - 12
    out = []
    for area in ("weapon", "armor", "trait", "skill"):
        lines: list[list[tuple[int, str, int]]] = [[]]
        offset = 0
        for card_id in me["cards"][area]:
            width = int(font(17).getlength(_name(CARDS[card_id], locale))) + 14
            if offset and offset + width > room:
                lines.append([])
                offset = 0
            lines[-1].append((offset, card_id, width))
            offset += width + 6
        out.append((area, lines))
    return out


def _sheet_height(me: dict[str, Any], locale: str) -> int:
    lines = sum(len(lines) for _, lines in _area_lines(me, locale))
    start = 36 if me["start_dice"] else 0
    return SHEET_TOP + 6 * (ROW_SIZE + 10) + 4 + start + lines * 28 + 40


def _sheet(draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, name: str, labels: dict[str, Any],
           locale: str, x: int, y: int, height: int) -> None:
    me = view["seats"][seat]
    acting = seat in view["to_act"]
    seat_rgb = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    draw.rounded_rectangle((x, y, x + SHEET_W, y + height), radius=14, fill=PANEL,
                           outline=ACCENT if acting else PANEL_LIGHT, width=4 if acting else 2)
    draw.rounded_rectangle((x, y, x + 12, y + height), radius=6, fill=seat_rgb)
    cls = CLASSES.get(me["class"]) if me["class"] else None
    race = RACES.get(me["race"]) if me["race"] else None
    # header: name, race and class, gold
    draw.text((x + 24, y + 10), fit_text(draw, name, 24, 250, True), font=font(24, True), fill=TEXT)
    draw.ellipse((x + SHEET_W - 140, y + 10, x + SHEET_W - 112, y + 38), fill=GOLD)
    draw.text((x + SHEET_W - 104, y + 24), str(me["gold"]), font=font(24, True), fill=GOLD, anchor="lm")
    if me["discounts"]:
        draw.text((x + SHEET_W - 16, y + 24), labels["tokens"].format(n=me["discounts"]), font=font(16), fill=TEXT,
                  anchor="rm")
    sub = f"{_name(race, locale) if race else labels['no_race']} · "
    sub += f"{_name(cls, locale)} ({_name(cls['ability'], locale)})" if cls else labels["no_class"]
    draw.text((x + 24, y + 42), fit_text(draw, sub, 19, SHEET_W - 40), font=font(19), fill=MUTED)
    if cls:
        draw.rounded_rectangle((x + SHEET_W - 40, y + 44, x + SHEET_W - 18, y + 66), radius=5,
                               fill=DIE_RGB[cls["colour"]], outline=(200, 200, 200))
    # attribute rows
    backstory = BACKSTORIES[me["backstory"]]
    row_y = y + SHEET_TOP
    size = ROW_SIZE
    for attr in ATTRIBUTES:
        dice = me["rows"][attr]
        label = ATTR_NAMES[attr]["ko"] if locale[:2] == "ko" else attr.upper()
        draw.text((x + 24, row_y + size / 2), label, font=font(20, True), fill=TEXT, anchor="lm")
        mod = RACES[me["race"]]["modifiers"][attr] if me["race"] else 0
        if mod:
            draw.text((x + 86, row_y + size / 2), f"{mod:+d}", font=font(18, True),
                      fill=GOOD_RGB if mod > 0 else BAD_RGB, anchor="lm")
        want = backstory["dice"][attr]
        for slot in range(SLOTS):
            die = dice[slot] if slot < len(dice) else None
            hint = want["colour"] if want["slot"] == slot + 1 else None
            _draw_die(draw, x + 120 + slot * (size + 10), row_y, size, die, hint)
        total = final_attribute(me, attr)
        target = cls["targets"][attr] if cls else None
        hit = target is not None and len(dice) == SLOTS and _hits(target, total)
        draw.text((x + 300, row_y + size / 2), str(total) if dice else "–", font=font(24, True),
                  fill=GOOD_RGB if hit else TEXT, anchor="lm")
        if target:
            draw.text((x + 340, row_y + size / 2), _target_text(target), font=font(17), fill=MUTED, anchor="lm")
        row_y += size + 10
    # alignment grid and backstory on the right
    _alignment(draw, me, locale, x + SHEET_W - 170, y + 80)
    draw.text((x + SHEET_W - 170, y + 258), labels["backstory"], font=font(15), fill=MUTED)
    draw.text((x + SHEET_W - 170, y + 278), fit_text(draw, _name(backstory, locale), 18, 160, True),
              font=font(18, True), fill=TEXT)
    # start dice still to place (set-up)
    card_y = row_y + 4
    if me["start_dice"]:
        draw.text((x + 24, card_y + 12), labels["start_dice"], font=font(17), fill=MUTED, anchor="lm")
        for i, die in enumerate(me["start_dice"]):
            _draw_die(draw, x + 150 + i * 34, card_y, 28, die)
        card_y += 36
    if me["held"]:
        _draw_die(draw, x + SHEET_W - 60, card_y - 4, 40, me["held"])
    # cards by area, wrapping onto more lines when an area fills up
    for area, lines in _area_lines(me, locale):
        draw.text((x + 24, card_y), labels["areas"][area], font=font(17, True), fill=TYPE_RGB[area])
        for line in lines:
            for offset, card_id, width in line:
                cx = x + AREA_X + offset
                exhausted = card_id in me["exhausted"]
                draw.rounded_rectangle((cx, card_y - 2, cx + width, card_y + 22), radius=6,
                                       fill=BACKGROUND if exhausted else PANEL_LIGHT, outline=TYPE_RGB[area])
                draw.text((cx + 7, card_y), _name(CARDS[card_id], locale), font=font(17),
                          fill=MUTED if exhausted else TEXT)
            card_y += 28
    result = view.get("result")
    if result:
        total = result["scores"][seat]
        text = labels["stars"].format(n=total)
        if seat in result["winners"]:
            text = f"{labels['winner']} · {text}"
        draw.text((x + SHEET_W - 16, y + height - 12), text, font=font(24, True), fill=GOLD, anchor="rs")


def _alignment(draw: ImageDraw.ImageDraw, me: dict[str, Any], locale: str, x: int, y: int) -> None:
    card = ALIGNMENTS[me["alignment"]]
    cell = 46
    draw.text((x, y - 2), fit_text(draw, _name(card, locale), 17, 3 * cell + 10), font=font(17), fill=MUTED)
    y += 22
    for i, value in enumerate(card["grid"]):
        cx = x + (i % 3) * (cell + 4)
        cy = y + (i // 3) * (cell + 4)
        token = me["token"] == i
        fill = (70, 110, 80) if value > 0 else (110, 60, 60) if value < 0 else PANEL_LIGHT
        draw.rounded_rectangle((cx, cy, cx + cell, cy + cell), radius=6, fill=fill,
                               outline=GOLD if token else None, width=4)
        draw.text((cx + cell / 2, cy + cell / 2), f"{value:+d}" if value else "0", font=font(18, token),
                  fill=TEXT, anchor="mm")


def render_table(view: dict[str, Any], names: list[str], locale: str) -> bytes:
    labels = _labels(locale)
    players = view["players"]
    heights = [_sheet_height(seat, locale) for seat in view["seats"]]
    row_heights = [max(heights[i : i + 2]) for i in range(0, players, 2)]
    market_rows = (len(view["market"]) + 2) // 3
    height = MARGIN + 40 + 28 + 106 + 28 + max(market_rows, 1) * 92 + 14 + sum(h + 12 for h in row_heights) + MARGIN
    if view["solo"] and view.get("result"):
        height += 36
    image, draw = canvas(WIDTH, height, BACKGROUND)
    y = _header(draw, view, names, labels)
    top = y
    y = _initiative(draw, view, names, labels, y)
    _bag(draw, view, labels, WIDTH - MARGIN - 310, top)
    y = _market(draw, view, labels, locale, y) + 6
    for seat in range(players):
        sx = MARGIN + (seat % 2) * (SHEET_W + 12)
        sy = y + sum(h + 12 for h in row_heights[: seat // 2])
        _sheet(draw, view, seat, names[seat], labels, locale, sx, sy, row_heights[seat // 2])
    if view["solo"] and view.get("result"):
        rating = next(r for r in SOLO["ratings"] if r["id"] == view["result"]["details"]["rating"])
        draw.text((MARGIN, height - MARGIN - 28), labels["rating"].format(rating=_name(rating, locale)), font=font(24, True), fill=GOLD)
    # A flat-coloured picture loses nothing in 128 colours and encodes about twice as fast.
    return to_png(image.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))


def render_private(view: dict[str, Any], locale: str) -> bytes | None:
    """Nothing in Roll Player is hidden from one seat but shown to another, so there is no private image."""
    return None
