"""Every public picture is landscape (between 4:3 and 2:1) and its smallest letters stay at least 9 px tall when
Discord shows it 550 px wide."""

from __future__ import annotations

import pytest

from bot.games import presenters
from render.common import CHAT_MIN_PX, CHAT_WIDTH, font_sizes
from tests.render.helpers import picture, played

CASES = [
    (name, players, moves)
    for name in ("druids", "roll_player", "talisman", "roll_for_the_galaxy")
    for players in range(presenters()[name].engine.min_players, presenters()[name].engine.max_players + 1)
    for moves in (0, 40, 3000)  # a new game, one under way, one finished (or far along)
]


@pytest.mark.parametrize(("name", "players", "moves"), CASES)
def test_public_picture_is_landscape_and_legible_in_the_chat(name, players, moves):
    game = presenters()[name]
    _, _, views = played(name, players, seed=players * 100 + moves, moves=moves)
    names = [f"Player {i + 1}" for i in range(players)]
    for locale in ("en", "ko", "es"):
        with font_sizes() as sizes:
            image = picture(game.render_table(views[-1], names, locale))
        width, height = image.size
        assert 4 / 3 <= width / height <= 2, (locale, image.size)
        assert sizes, "the renderer reported no letters"
        assert min(sizes) * CHAT_WIDTH / width >= CHAT_MIN_PX, (locale, min(sizes), width)


def test_the_check_sees_small_letters():
    """The recorder does notice a renderer asking for small letters (so the test above can fail)."""
    from render.common import font

    with font_sizes() as sizes:
        font(11)
    assert sizes == [11] and 11 * CHAT_WIDTH / 1000 < CHAT_MIN_PX


PRIVATE = [
    (name, players, moves)
    for name in ("druids", "talisman", "roll_for_the_galaxy")
    for players in (presenters()[name].engine.min_players, presenters()[name].engine.max_players)
    for moves in (0, 40, 400)
]


@pytest.mark.parametrize(("name", "players", "moves"), PRIVATE)
def test_private_picture_is_legible_in_the_chat(name, players, moves):
    """A seat's own picture (hand, screen, Spells, characters dealt) keeps the same letter size rule."""
    game = presenters()[name]
    engine, state, _ = played(name, players, seed=players * 10 + moves, moves=moves)
    for seat in range(players):
        with font_sizes() as sizes:
            png = game.render_private(engine.view(state, seat), "es")
        if png is None:
            continue
        width = picture(png).width
        assert min(sizes) * CHAT_WIDTH / width >= CHAT_MIN_PX, (seat, min(sizes), width)


def test_roll_player_sheet_is_legible_in_the_chat():
    from render.roll_player import render_sheet

    _, _, views = played("roll_player", 4, seed=9, moves=3000)
    for seat in range(4):
        with font_sizes() as sizes:
            width = picture(render_sheet(views[-1], seat, ["A", "B", "C", "D"], "ko")).width
        assert min(sizes) * CHAT_WIDTH / width >= CHAT_MIN_PX, (seat, min(sizes), width)
