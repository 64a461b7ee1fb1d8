"""What the boards show: the acting player marked, figures where they stand, movers on the score track, every
label in every language; pictures the same whether the renderers' caches are warm or cold."""

from __future__ import annotations

import pytest
from PIL import Image

import render.common as common
from bot import i18n
from bot.games import presenter
from engines.talisman.data import SPACES
from render import druids, roll_player, talisman
from render.common import ACCENT, SEAT_COLOURS, font
from render.text import counted
from tests.render.helpers import colours_in, has_colour, picture, played

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank"]


# --- Roll Player ---------------------------------------------------------------------------------------------


def _row_box(view, seat):
    top = 12 + 44 + 62 + 12 + (roll_player.TILE_H + 12 if view["market"] else 0)
    y = top + seat * (roll_player.ROW_H + 10)
    return (roll_player.MARGIN, y, roll_player.TABLE_W - roll_player.MARGIN, y + roll_player.ROW_H)


def test_roll_player_overview_marks_who_acts_and_each_seat():
    _, _, views = played("roll_player", 4, seed=3, moves=40)
    view = views[-1]
    image = picture(roll_player.render_table(view, NAMES[:4], "en"))
    assert image.size == (roll_player.TABLE_W, image.height) and image.width / image.height >= 4 / 3
    for seat in range(4):
        box = _row_box(view, seat)
        stripe = colours_in(image, (box[0] + 4, box[1] + 20, box[0] + 30, box[3] - 20))
        assert SEAT_COLOURS[seat] in stripe, seat
        edge = colours_in(image, (box[2] - 3, box[1] + 20, box[2], box[3] - 20))
        assert (ACCENT in edge) == (seat in view["to_act"]), (seat, view["to_act"])


def test_roll_player_overview_reads_at_chat_size_with_every_player():
    """A review read the market's text at 7-8 px on a phone (17 px letters on a 1000 px picture): the overview's
    smallest letters are now 11 px in a 550 px chat and its names 12 px or more, with four players still 4:3."""
    for players in (1, 2, 4):
        _, _, views = played("roll_player", players, seed=players, moves=120)
        for locale in ("en", "ko"):
            with common.font_sizes() as sizes:
                image = picture(roll_player.render_table(views[-1], NAMES[:players], locale))
            assert min(sizes) * 550 / image.width >= 11, (players, locale, min(sizes))
            assert image.width / image.height >= 4 / 3, (players, image.size)
    assert roll_player.NAME * 550 / roll_player.TABLE_W >= 14


def test_roll_player_sheet_shows_one_seat_in_its_colour():
    _, _, views = played("roll_player", 3, seed=4, moves=60)
    for seat in range(3):
        image = picture(roll_player.render_sheet(views[-1], seat, NAMES[:3], "ko"))
        stripe = colours_in(image, (roll_player.MARGIN + 2, 60, roll_player.MARGIN + 10, 200))
        assert stripe == {SEAT_COLOURS[seat]}, seat
        assert image.width * 9 / 550 <= 15  # its smallest letters (15 px) stay legible at 550 px


@pytest.mark.parametrize("locale", ["en", "ko", "es"])
def test_roll_player_sheet_says_which_way_the_alignment_grid_runs(monkeypatch, locale):
    """A review's player read "up (towards Good)" in the picker and found no Good, Evil, Lawful or Chaotic on the
    grid: the sheet says under it which way each runs, in the reader's language, whole."""
    written: list[str] = []
    real = roll_player.paste_text

    def paste_text(image, xy, text, *rest, **kw):
        written.append(text)
        return real(image, xy, text, *rest, **kw)

    monkeypatch.setattr(roll_player, "paste_text", paste_text)
    _, _, views = played("roll_player", 3, seed=4, moves=60)
    roll_player.render_sheet(views[-1], 0, NAMES[:3], locale)
    labels = roll_player._labels(locale)
    assert labels["axis_good"] in written and labels["axis_law"] in written


def test_roll_player_picture_does_not_depend_on_what_was_drawn_before():
    """Drawn pieces are cached; a picture comes out the same with warm or cold caches, and every colour drawn
    survives the fixed palette exactly."""
    _, _, views = played("roll_player", 4, seed=6, moves=200)
    views = views[::25]
    warm = [roll_player.render_table(view, NAMES[:4], "ko") for view in views]
    with common.font_sizes():  # empties every renderer cache
        pass
    assert [roll_player.render_table(view, NAMES[:4], "ko") for view in reversed(views)] == warm[::-1]
    image = picture(warm[-1])
    assert image.getpixel((0, 0)) == common.BACKGROUND
    for rgb in [*roll_player.DIE_RGB.values(), *roll_player.TYPE_RGB.values(), *SEAT_COLOURS, common.GOLD]:
        swatch = Image.new("RGB", (2, 2), rgb).quantize(palette=roll_player.PALETTE, dither=Image.Dither.NONE)
        assert swatch.convert("RGB").getpixel((0, 0)) == rgb


# --- Talisman ------------------------------------------------------------------------------------------------


def test_talisman_figures_stand_on_their_spaces():
    _, _, views = played("talisman", 4, seed=8, moves=80)
    view = views[-1]
    image = picture(talisman.render_table(view, NAMES[:4], "en"))
    assert image.size == (talisman.WIDTH, talisman.HEIGHT)
    for ch in view["chars"]:
        if ch is None or ch["dead"]:
            continue
        x, y = talisman._figures_at(ch["space"])  # its first row of figures, or the one above
        box = (int(x) - 110, int(y - talisman.ROW_STEP) - 6, int(x) + 110, int(y) + 6)
        assert has_colour(image, box, SEAT_COLOURS[ch["seat"]]), ch["seat"]
    crown = image.getpixel((talisman.CX, talisman.CY - talisman.CROWN_R + 6))
    assert all(abs(a - b) <= 12 for a, b in zip(crown, talisman.REGION_FILL["crown"], strict=True))


def test_talisman_regions_are_rings_around_the_crown():
    """Going out from the Crown along any direction: crown, inner, middle, outer region colours in that order."""
    image = picture(talisman.render_table(played("talisman", 2, seed=1, moves=0)[2][-1], NAMES[:2], "en"))
    for angle in (0, 45, 90, 180, 270):  # sector middles: a ray along an edge line sees only the line
        seen = []
        for r in range(0, 394, 3):
            import math

            x = talisman.CX + r * math.cos(math.radians(angle))
            y = talisman.CY + r * math.sin(math.radians(angle))
            rgb = image.getpixel((int(x), int(y)))
            region = next(
                (
                    k
                    for k, v in talisman.REGION_FILL.items()
                    if all(abs(a - b) <= 12 for a, b in zip(rgb, v, strict=True))
                ),
                None,
            )
            if region and (not seen or seen[-1] != region):
                seen.append(region)
        assert seen == ["crown", "inner", "middle", "outer"], (angle, seen)


def test_every_space_name_fits_its_sector_in_every_language():
    for locale in i18n.LOCALES:
        for space in SPACES:
            lines = talisman._space_title(space["name"][locale], talisman._title_width(space["index"]))
            assert not any(line.endswith("…") for line in lines), (space["id"], locale, lines)
            assert all(
                font(talisman.SMALL, True).getlength(line) <= talisman._title_width(space["index"])
                for line in lines
            )


# --- Druids --------------------------------------------------------------------------------------------------


def test_druids_movers_sit_on_the_score_track_in_their_lanes():
    _, _, views = played("druids", 4, seed=2, moves=300)
    view = views[-1]
    assert any(view["scores"])
    image = picture(druids.render_table(view, NAMES[:4], "en"))
    track_top = 86 + 28 + druids.CARD_H + 28 + 2 * 30 + 8
    lanes_top = track_top + 30
    length = view["track"]["cards"] * view["track"]["steps"]
    left, right = 24 + 2 * druids.TOKEN_R + 8, druids.TABLE_W - 24
    for seat, score in enumerate(view["scores"]):
        x = left + min(max(score - view["track"]["base"], 0), length) * (right - left) / length
        y = lanes_top + 11 + seat * 28
        assert has_colour(image, (int(x) - 8, y - 8, int(x) + 8, y + 8), druids._seat_colour(seat)), seat


def test_druids_counts_words_in_the_right_number():
    cards = druids._labels("en")["cards"]
    assert counted(cards, "en", 1) == "1 card"
    assert counted(cards, "en", 2) == "2 cards"
    assert counted(druids._labels("es")["gems"], "es", 1) == "1 gema"
    assert counted(druids._labels("ko")["gems"], "ko", 1) == "보석 1장"


def test_the_table_pictures_are_what_the_presenters_draw():
    for name in ("druids", "roll_player", "talisman"):
        _, _, views = played(name, 2, seed=5, moves=10)
        assert presenter(name).render_table(views[-1], NAMES[:2], "en")[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_market_card_s_alignment_arrow_is_a_solid_mark_at_chat_size():
    """A review read a card's "↓ Intimidate" and "← Weak" as "| Intimidate" and "— Weak" in the chat: each
    direction is drawn as a solid mark that fills much of its box, so it still reads at half size."""
    from PIL import Image, ImageDraw

    from render.common import font
    from render.roll_player import ARROWS

    for direction, mark in ARROWS.items():
        face = font(22, True)
        left, top, right, bottom = face.getbbox(mark)
        image = Image.new("L", (right + 2, bottom + 2))
        ImageDraw.Draw(image).text((0, 0), mark, font=face, fill=255)
        inked = sum(1 for value in image.crop((left, top, right, bottom)).getdata() if value > 128)
        # as wide as it is tall, near enough, and a quarter of it inked (a thin arrow is a line and its tip)
        assert min(right - left, bottom - top) >= 14, (direction, mark, face.getbbox(mark))
        assert inked >= 0.25 * (right - left) * (bottom - top), (direction, mark, inked)
