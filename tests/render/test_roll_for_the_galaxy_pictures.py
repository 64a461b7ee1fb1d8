"""The renderer draws table and screen images from views of a seeded mid-game state."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw

import render.roll_for_the_galaxy as rftg
from engines.rng import Rng
from engines.roll_for_the_galaxy import ENGINE
from render.common import BACKGROUND, CHAT_WIDTH, GOLD, fitted_to_content
from render.roll_for_the_galaxy import render_private, render_table
from tests.pictures import assert_drawn, assert_follows_the_view


def _mid_game(players: int, stop_stage: str, seed: int = 7):
    """Built-in players play until the given stage of round 4 or later."""
    state = ENGINE.new_game(players, {}, seed)
    chooser = Rng.from_seed(seed)
    while not (state["round"] >= 4 and state["stage"] == stop_stage):
        seat = chooser.choice(ENGINE.to_act(state))
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, chooser.next_u64() % 1000))
        assert ENGINE.outcome(state) is None
    return state


@pytest.mark.parametrize(
    ("players", "stage", "locale"),
    [(4, "assign", "ko"), (5, "manage", "en"), (2, "explore", "es"), (3, "ship", "ko")],
)
def test_table_and_screen_render_as_png(players, stage, locale, artifacts_dir):
    state = _mid_game(players, stage)
    names = ["Ana", "민준", "Bea", "서연", "Chris"][:players]
    table = render_table(ENGINE.view(state, None), names, locale)
    screen = render_private(ENGINE.view(state, 0), locale)
    assert_drawn(table, 600, 200)
    assert_drawn(screen, 550, 150)  # fitted to what is on it: the chat shows it larger
    assert render_private(ENGINE.view(state, None), locale) is None

    def richer(view):
        view["seats"][0]["credits"] += 3

    assert_follows_the_view(lambda v: render_table(v, names, locale), ENGINE.view(state, None), richer)
    (artifacts_dir / f"roll_for_the_galaxy-table-{players}p-{stage}.png").write_bytes(table)
    (artifacts_dir / f"roll_for_the_galaxy-screen-{players}p-{stage}.png").write_bytes(screen)


def test_private_screen_shows_the_roll_only_to_its_owner():
    state = _mid_game(3, "assign")
    assert ENGINE.view(state, 1)["seats"][0].get("dice") is None
    assert ENGINE.view(state, 0)["seats"][0]["dice"]
    assert render_private(ENGINE.view(state, 1), "en") != render_private(ENGINE.view(state, 0), "en")


@pytest.mark.parametrize(("players", "stage", "locale"), [(4, "assign", "ko"), (3, "ship", "en")])
def test_the_fixed_palette_keeps_every_pixel_close_to_what_was_drawn(players, stage, locale, monkeypatch):
    """The pictures go out through one palette made of the colours drawn and the letters' edges: no pixel of the
    decoded picture, thin die edges and letters on every ground included, moves far from the drawing."""
    drawn = []
    encode = rftg._png
    monkeypatch.setattr(rftg, "_png", lambda image: drawn.append(image) or encode(image))
    state = _mid_game(players, stage)
    pictures = [render_table(ENGINE.view(state, None), ["Ana", "민준", "Bea", "서연"][:players], locale)]
    pictures += [render_private(ENGINE.view(state, seat), locale) for seat in range(players)]
    assert len(drawn) == len(pictures)
    for image, png in zip(drawn, pictures, strict=True):
        decoded = Image.open(io.BytesIO(png)).convert("RGB")
        worst = max(high for _, high in ImageChops.difference(image, decoded).getextrema())
        assert worst <= 16


def test_a_screen_with_little_on_it_is_as_narrow_as_the_chat_so_it_shows_at_full_size():
    """A screen with no dice behind it drew a few lines on the left of an 1100-pixel picture, which the chat
    shrank to half; fitted to what is on it (never narrower than the chat), it is shown at its own size, and a
    screen full of dice keeps its width."""
    quiet = render_private(ENGINE.view(_mid_game(3, "explore"), 0), "en")
    busy = render_private(ENGINE.view(_mid_game(3, "assign"), 0), "en")
    assert Image.open(io.BytesIO(quiet)).width == CHAT_WIDTH
    assert Image.open(io.BytesIO(busy)).width > 1000
    image = Image.new("RGB", (1100, 300), BACKGROUND)
    ImageDraw.Draw(image).rectangle((600, 40, 700, 250), fill=GOLD)
    fitted = fitted_to_content(image)
    assert fitted.size == (717, 267)  # the drawing (to 700 and 250 inclusive) and a margin of 16
    assert ImageChops.difference(fitted, image.crop((0, 0, 717, 267))).getbbox() is None
