"""Roll for the Galaxy table and screen images, drawn from views only.

render_table: the phase strip (which phases run this round), the VP pool and bag, and for every seat its
tableau (worlds with their goods, developments, faction), construction zones (top tile, workers, stack size),
cup and Citizenry dice by colour, credits and chips, and its revealed assignment. render_private: one seat's
roll and assignment behind its screen, its full construction stacks and the tiles it is scouting.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from engines.base import View
from engines.roll_for_the_galaxy import data as D
from render.common import (
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
    text_width,
    to_png,
)

WIDTH = 1280
TILE_W, TILE_H, TILE_GAP = 116, 58, 6
DIE = 20
DIE_RGB = {d["id"]: tuple(d["rgb"]) for d in D.DICE}
WORLD_RGB = {
    "grey": (120, 122, 130),
    "blue": (60, 120, 210),
    "brown": (140, 95, 55),
    "green": (55, 150, 75),
    "yellow": (215, 185, 40),
}
DEV_RGB = (92, 70, 140)

LABELS = {
    "en": {
        "round": "Round {n}",
        "pool": "VP pool {n}",
        "bag": "Bag {n}",
        "discards": "Discarded {n}",
        "extra": "Extra die: {phase}",
        "credits": "${n}",
        "vp": "{n} VP",
        "spaces": "{n}/12 tiles",
        "cup": "Cup",
        "citizenry": "Citizenry",
        "dev": "Develop",
        "world": "Settle",
        "empty": "(empty)",
        "ready": "ready",
        "assigning": "assigning…",
        "acting": "to act",
        "done": "done",
        "over": "Game over",
        "score": "Score {n}",
        "rolled": "Rolled {n}",
        "screen": "Behind your screen",
        "chosen": "chosen",
        "dictate": "Dictate",
        "unassigned": "Wild, not placed",
        "stack": "Your construction zone",
        "drawn": "Scouted tiles",
        "my_discards": "Your discards",
        "waiting": "Waiting for the others",
        "setup": "Choose your starting development",
        "nothing": "Nothing behind the screen right now",
        "stage": {"setup": "Set-up", "assign": "Assign", "manage": "Manage empire", "over": "Game over"},
    },
    "ko": {
        "round": "{n}라운드",
        "pool": "승점 풀 {n}",
        "bag": "주머니 {n}",
        "discards": "버린 타일 {n}",
        "extra": "추가 주사위: {phase}",
        "credits": "${n}",
        "vp": "승점 {n}",
        "spaces": "타일 {n}/12",
        "cup": "컵",
        "citizenry": "시민 집단",
        "dev": "개발",
        "world": "정착",
        "empty": "(없음)",
        "ready": "준비 완료",
        "assigning": "배정 중…",
        "acting": "진행 중",
        "done": "완료",
        "over": "게임 종료",
        "score": "총점 {n}",
        "rolled": "굴린 주사위 {n}",
        "screen": "내 가림막 뒤",
        "chosen": "선택",
        "dictate": "명령",
        "unassigned": "배정 안 한 와일드",
        "stack": "내 건설 구역",
        "drawn": "정찰한 타일",
        "my_discards": "내가 버린 타일",
        "waiting": "다른 플레이어를 기다리는 중",
        "setup": "시작 개발 타일을 고르세요",
        "nothing": "지금은 가림막 뒤에 아무것도 없습니다",
        "stage": {"setup": "게임 준비", "assign": "배정", "manage": "제국 관리", "over": "게임 종료"},
    },
    "es": {
        "round": "Ronda {n}",
        "pool": "Reserva de PV {n}",
        "bag": "Bolsa {n}",
        "discards": "Descartadas {n}",
        "extra": "Dado extra: {phase}",
        "credits": "${n}",
        "vp": "{n} PV",
        "spaces": "{n}/12 losetas",
        "cup": "Cubilete",
        "citizenry": "Ciudadanía",
        "dev": "Desarrollar",
        "world": "Colonizar",
        "empty": "(vacío)",
        "ready": "listo",
        "assigning": "asignando…",
        "acting": "actúa",
        "done": "hecho",
        "over": "Fin de la partida",
        "score": "Puntos {n}",
        "rolled": "Dados tirados {n}",
        "screen": "Tras tu pantalla",
        "chosen": "elegida",
        "dictate": "Dictar",
        "unassigned": "Comodín sin colocar",
        "stack": "Tu zona de construcción",
        "drawn": "Losetas exploradas",
        "my_discards": "Tus descartes",
        "waiting": "Esperando a los demás",
        "setup": "Elige tu desarrollo inicial",
        "nothing": "Nada tras la pantalla ahora mismo",
        "stage": {
            "setup": "Preparación",
            "assign": "Asignar",
            "manage": "Gestionar el imperio",
            "over": "Fin de la partida",
        },
    },
}
FACE_MARK = {"explore": "E", "develop": "D", "settle": "S", "produce": "P", "ship": "$", "wild": "★"}


def _labels(locale: str) -> dict[str, Any]:
    return LABELS.get(locale[:2], LABELS["en"])


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
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    color: str,
    mark: str = "",
    size: int = DIE,
    ghost: bool = False,
) -> None:
    fill = DIE_RGB[color]
    outline = GOLD if ghost else (20, 20, 24)
    draw.rounded_rectangle((x, y, x + size, y + size), 4, fill=fill, outline=outline, width=2 if ghost else 1)
    if mark:
        draw.text(
            (x + size / 2, y + size / 2),
            mark,
            fill=readable_on(fill),
            font=font(int(size * 0.6), True),
            anchor="mm",
        )


def _dice_row(
    draw: ImageDraw.ImageDraw, x: int, y: int, colors: list[str], max_width: int, size: int = DIE
) -> int:
    """Dice side by side; when they do not fit, the rest is summarised as +n. Returns the x after the row."""
    step = size + 3
    fit = max(1, max_width // step)
    shown = colors if len(colors) <= fit else colors[: fit - 1]
    for i, color in enumerate(shown):
        _die(draw, x + i * step, y, color, size=size)
    end = x + len(shown) * step
    if len(shown) < len(colors):
        draw.text(
            (end + 2, y + size / 2),
            f"+{len(colors) - len(shown)}",
            fill=TEXT,
            font=font(14, True),
            anchor="lm",
        )
        end += 34
    return end


def _wrap(draw: ImageDraw.ImageDraw, text: str, size: int, width: int, lines: int = 2) -> list[str]:
    """Word-wrap `text` into at most `lines` lines, the last one shortened with an ellipsis if needed."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines - 1:
        line = words.pop(0)
        while words and text_width(draw, f"{line} {words[0]}", size, True) <= width:
            line = f"{line} {words.pop(0)}"
        out.append(fit_text(draw, line, size, width, bold=True))
    if words:
        out.append(fit_text(draw, " ".join(words), size, width, bold=True))
    return out


def _tile(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    side_id: str,
    locale: str,
    goods: list[str] | None = None,
    faction: bool = False,
) -> None:
    data = D.side(side_id)
    world = data["kind"] == "world"
    fill = WORLD_RGB[data["color"]] if world else DEV_RGB
    ink = readable_on(fill)
    draw.rounded_rectangle(
        (x, y, x + TILE_W, y + TILE_H), 7, fill=fill, outline=GOLD if faction else (25, 25, 30), width=2
    )
    # Cost: a circle for worlds, a diamond for developments, as on the tiles.
    cx, cy, r = x + 14, y + 14, 10
    if world:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(245, 245, 245), outline=(20, 20, 20))
    else:
        draw.polygon(
            [(cx, cy - r - 1), (cx + r + 1, cy), (cx, cy + r + 1), (cx - r - 1, cy)],
            fill=(245, 245, 245),
            outline=(20, 20, 20),
        )
    draw.text((cx, cy), str(data["cost"]), fill=(20, 20, 20), font=font(13, True), anchor="mm")
    name = _side_name(side_id, locale)
    size, lines = 12, _wrap(draw, name, 12, TILE_W - 32)
    if " ".join(lines) != " ".join(name.split()):  # too long for two lines: a smaller font on three
        size, lines = 10, _wrap(draw, name, 10, TILE_W - 32, lines=3)
    for i, line in enumerate(lines):
        draw.text((x + 28, y + 5 + i * (size + 3)), line, fill=ink, font=font(size, True))
    for i, good in enumerate(goods or []):
        _die(draw, x + TILE_W - 20 - i * 18, y + TILE_H - 20, good, size=16)


def _phase_strip(draw: ImageDraw.ImageDraw, x: int, y: int, view: View, locale: str) -> None:
    width = 150
    for i, phase in enumerate(D.PHASES):
        running = phase in view["phases"]
        current = view["stage"] == phase
        x0 = x + i * (width + 6)
        fill = (70, 110, 80) if running else PANEL
        draw.rounded_rectangle(
            (x0, y, x0 + width, y + 34),
            8,
            fill=fill,
            outline=GOLD if current else PANEL_LIGHT,
            width=3 if current else 1,
        )
        label = f"{i + 1}. {_phase_name(phase, locale)}"
        draw.text(
            (x0 + width / 2, y + 17), label, fill=TEXT if running else MUTED, font=font(16, True), anchor="mm"
        )
        if view.get("extra_die") == phase:
            _die(draw, x0 + width - 22, y + 8, "white", FACE_MARK[phase], size=18)


def _status(view: View, seat: int, labels: dict[str, Any]) -> str:
    if view["stage"] == "over":
        return labels["score"].format(n=view["seats"][seat]["score"])
    if view["stage"] == "assign":
        return labels["ready"] if view["seats"][seat]["ready"] else labels["assigning"]
    return labels["acting"] if seat in view["to_act"] else labels["done"]


SEAT_H = 214


def _seat_panel(draw: ImageDraw.ImageDraw, y: int, view: View, seat: int, name: str, locale: str) -> None:
    labels = _labels(locale)
    s = view["seats"][seat]
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    draw.rounded_rectangle((12, y, WIDTH - 12, y + SEAT_H - 8), 10, fill=PANEL, outline=colour, width=3)
    draw.ellipse((26, y + 12, 44, y + 30), fill=colour, outline=TEXT)
    draw.text((52, y + 9), fit_text(draw, name, 22, 300, bold=True), fill=TEXT, font=font(22, True))
    summary = "   ".join(
        [
            labels["credits"].format(n=s["credits"]),
            labels["vp"].format(n=s["vp"]),
            labels["spaces"].format(n=s["spaces"]),
        ]
    )
    draw.text((370, y + 11), summary, fill=GOLD, font=font(20, True))
    status = _status(view, seat, labels)
    draw.text(
        (WIDTH - 30, y + 11),
        status,
        fill=TEXT if seat in view["to_act"] else MUTED,
        font=font(18, True),
        anchor="ra",
    )
    # Tableau: faction halves first (gold edge), two rows of tiles.
    faction_sides = set(D.FACTION_SIDES[s["faction"]])
    tx, ty = 24, y + 42
    per_row = 7
    for i, entry in enumerate(s["tableau"][: per_row * 2]):
        col, row = i % per_row, i // per_row
        _tile(
            draw,
            tx + col * (TILE_W + TILE_GAP),
            ty + row * (TILE_H + TILE_GAP),
            entry["id"],
            locale,
            entry["goods"],
            faction=entry["id"] in faction_sides,
        )
    if len(s["tableau"]) > per_row * 2:
        draw.text(
            (tx, ty + 2 * (TILE_H + TILE_GAP) + 2),
            f"+{len(s['tableau']) - per_row * 2}",
            fill=TEXT,
            font=font(14, True),
        )
    # Right column: construction zones, cup, Citizenry, this round's assignment.
    rx = tx + per_row * (TILE_W + TILE_GAP) + 14
    right = WIDTH - 28
    for row, (key, label) in enumerate((("dev", labels["dev"]), ("world", labels["world"]))):
        ry = y + 42 + row * 36
        draw.text((rx, ry + 2), label, fill=MUTED, font=font(14, True))
        top = s[f"{key}_top"]
        if top is None:
            draw.text((rx + 78, ry + 2), labels["empty"], fill=MUTED, font=font(14))
            continue
        side_id = D.TILE_SIDES[top]["development" if key == "dev" else "world"]
        # The worker count stays whole; a long name gives way.
        count = f" ({len(s[f'{key}_workers'])}/{s[f'{key}_cost']})"
        room = right - rx - 150 - text_width(draw, count, 14, True)
        name = fit_text(draw, _side_name(side_id, locale), 14, room, bold=True)
        draw.text((rx + 78, ry + 2), name + count, fill=TEXT, font=font(14, True))
        draw.text((right, ry + 2), f"×{s[f'{key}_size']}", fill=MUTED, font=font(14, True), anchor="ra")
        _dice_row(draw, rx + 78, ry + 19, s[f"{key}_workers"], right - rx - 80, size=12)
    cup = s["cup"] if view["stage"] != "assign" else s["rolled"] + s["cup"]
    draw.text((rx, y + 118), labels["cup"], fill=MUTED, font=font(14, True))
    _dice_row(draw, rx + 78, y + 114, cup, right - rx - 80, size=18)
    draw.text((rx, y + 144), labels["citizenry"], fill=MUTED, font=font(14, True))
    _dice_row(draw, rx + 78, y + 140, s["citizenry"], right - rx - 80, size=18)
    revealed = s["revealed"]
    if revealed:
        x = rx
        for phase in D.PHASES:
            workers = revealed["rows"][phase]
            mark = FACE_MARK[phase]
            chosen = revealed["chosen"] == phase
            draw.text((x, y + 172), mark, fill=GOLD if chosen else MUTED, font=font(15, True))
            x = _dice_row(draw, x + 14, y + 170, workers, 70, size=14) + 8 if workers else x + 26
        if revealed["dictate"]:
            _dice_row(draw, x + 4, y + 170, revealed["dictate"], 40, size=14)


def _png(image: Image.Image) -> bytes:
    # A 256-colour palette is invisible on these flat panels and makes the PNG about twice as fast to encode.
    return to_png(image.quantize(colors=256, method=Image.Quantize.FASTOCTREE))


def render_table(view: View, names: list[str], locale: str) -> bytes:
    labels = _labels(locale)
    players = view["players"]
    height = 118 + SEAT_H * players + 10
    image, draw = canvas(WIDTH, height)
    title = labels["round"].format(n=view["round"]) + " · " + _stage_name(view["stage"], locale)
    draw.text((20, 14), title, fill=TEXT, font=font(28, True))
    info = [labels["pool"].format(n=view["vp_pool"]), labels["bag"].format(n=view["bag_size"])]
    if view["discard_count"]:
        info.append(labels["discards"].format(n=view["discard_count"]))
    draw.text((WIDTH - 20, 20), "   ".join(info), fill=MUTED, font=font(18, True), anchor="ra")
    _phase_strip(draw, 20, 62, view, locale)
    for seat in range(players):
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        _seat_panel(draw, 110 + seat * SEAT_H, view, seat, name, locale)
    return _png(image)


def render_private(view: View, locale: str) -> bytes | None:
    """The viewer's screen: its roll and assignment, its construction stacks, tiles being scouted."""
    seat = view["viewer"]
    if seat is None:
        return None
    labels = _labels(locale)
    s = view["seats"][seat]
    image, draw = canvas(WIDTH, 470)
    draw.text(
        (20, 14),
        labels["screen"] + " · " + _stage_name(view["stage"], locale),
        fill=TEXT,
        font=font(26, True),
    )
    y = 60
    dice = s.get("dice")
    if dice:
        sel = s.get("sel")
        columns = [*D.PHASES, "dictate", None]
        col_w = (WIDTH - 40) // len(columns)
        for i, column in enumerate(columns):
            x = 20 + i * col_w
            chosen = sel is not None and dice[sel]["at"] == column
            title = {None: labels["unassigned"], "dictate": labels["dictate"]}.get(column) or _phase_name(
                column, locale
            )
            draw.rounded_rectangle(
                (x, y, x + col_w - 8, y + 200),
                8,
                fill=PANEL,
                outline=GOLD if chosen else PANEL_LIGHT,
                width=3 if chosen else 1,
            )
            draw.text(
                (x + 10, y + 8),
                fit_text(draw, title, 16, col_w - 24, bold=True),
                fill=TEXT,
                font=font(16, True),
            )
            placed = [(i2, d) for i2, d in enumerate(dice) if d["at"] == column]
            for k, (index, die) in enumerate(placed):
                _die(
                    draw,
                    x + 10 + (k % 4) * 36,
                    y + 38 + (k // 4) * 36,
                    die["c"],
                    FACE_MARK[die["f"]],
                    size=30,
                    ghost=index == sel,
                )
        status = labels["ready"] if s["ready"] else labels["assigning"]
        draw.text(
            (20, y + 212),
            f"{labels['rolled'].format(n=len(dice))} · {status}",
            fill=MUTED,
            font=font(16, True),
        )
        y += 246
    elif view["stage"] == "setup" and s["start_tiles"]:
        draw.text((20, y), labels["setup"], fill=TEXT, font=font(18, True))
        for i, tile in enumerate(s["start_tiles"]):
            _tile(draw, 20 + i * (2 * TILE_W + 20), y + 30, D.TILE_SIDES[tile]["development"], locale)
            _tile(draw, 20 + i * (2 * TILE_W + 20) + TILE_W + 4, y + 30, D.TILE_SIDES[tile]["world"], locale)
        y += 110
    else:
        message = labels["waiting"] if view["stage"] == "assign" else labels["nothing"]
        draw.text((20, y), message, fill=MUTED, font=font(18))
        y += 40
    draw.text((20, y), labels["stack"], fill=TEXT, font=font(18, True))
    for row, key in enumerate(("dev_stack", "world_stack")):
        kind = "development" if key == "dev_stack" else "world"
        tiles = s.get(key, [])
        yy = y + 28 + row * (TILE_H + 8)
        draw.text(
            (20, yy + 20),
            labels["dev" if kind == "development" else "world"],
            fill=MUTED,
            font=font(15, True),
        )
        for i, tile in enumerate(tiles[:9]):
            _tile(draw, 120 + i * (TILE_W + TILE_GAP), yy, D.TILE_SIDES[tile][kind], locale)
        if not tiles:
            draw.text((120, yy + 20), labels["empty"], fill=MUTED, font=font(14))
    y += 28 + 2 * (TILE_H + 8)
    scout = (s.get("task") or {}).get("scout") or {}
    extras = [(labels["drawn"], scout.get("drawn", [])), (labels["my_discards"], view.get("my_discards", []))]
    x = 20
    for label, tiles in extras:
        if not tiles:
            continue
        draw.text((x, y), label, fill=TEXT, font=font(16, True))
        for i, tile in enumerate(tiles[:4]):
            _tile(draw, x + i * (TILE_W + TILE_GAP), y + 24, D.TILE_SIDES[tile]["development"], locale)
            _tile(draw, x + i * (TILE_W + TILE_GAP), y + 24 + TILE_H + 4, D.TILE_SIDES[tile]["world"], locale)
        x += 4 * (TILE_W + TILE_GAP) + 20
    return _png(image.crop((0, 0, WIDTH, max(y + 10 if x == 20 else y + 24 + 2 * TILE_H + 16, 200))))
