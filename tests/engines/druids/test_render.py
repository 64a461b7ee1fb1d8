"""The Druids renderer draws the table and a player's hand from views of a seeded mid-game state."""

from __future__ import annotations

from engines.druids import ENGINE
from engines.rng import Rng
from render.druids import render_private, render_table
from tests.pictures import assert_drawn, assert_follows_the_view


def _mid_game(players: int, steps: int = 120):
    state = ENGINE.new_game(players, {}, 5)
    chooser = Rng.from_seed(5)
    for _ in range(steps):
        seat = chooser.choice(sorted(ENGINE.to_act(state)))
        state, _ = ENGINE.apply(state, seat, chooser.choice(ENGINE.legal_actions(state, seat)))
    assert ENGINE.outcome(state) is None
    return state


def test_table_and_hand_are_drawn_from_their_views(artifacts_dir):
    state = _mid_game(3)
    names = ["Ana", "민준", "Bea"]
    table = render_table(ENGINE.view(state, None), names, "ko")
    assert_drawn(table, 600, 300)
    (artifacts_dir / "druids-table-ko.png").write_bytes(table)

    def scored(view):
        view["scores"][1] += 7

    assert_follows_the_view(lambda v: render_table(v, names, "en"), ENGINE.view(state, None), scored)
    hand = render_private(ENGINE.view(state, 0), "en")
    assert_drawn(hand, 300, 100)

    def other_hand(view):
        view["hand"] = view["hand"][1:]

    assert_follows_the_view(lambda v: render_private(v, "en"), ENGINE.view(state, 0), other_hand)
    # Another seat's hand is another picture.
    assert render_private(ENGINE.view(state, 1), "en") != hand


def test_every_gem_name_fits_a_face_down_card_in_every_language():
    """A face-down Amethyst in the private picture read "Amet…": the small cards now fit every gem's name."""
    from render.common import font
    from render.druids import KINDS, PLAYED_W, PRIVATE_SMALL, kind_name

    letters = font(PRIVATE_SMALL, True)
    assert PRIVATE_SMALL * 550 / 920 >= 11  # a card's name read at chat width (at 16, 추종자 read as 수종자)
    for locale in ("en", "ko", "es"):
        for kind in KINDS:
            assert letters.getlength(kind_name(kind, locale)) <= PLAYED_W - 8, (locale, kind)


def test_the_tables_smallest_words_are_readable_at_chat_width():
    """At 17 px of 1,000 the subtitle, each place's gem count and "can be scored" were about 9 px in the chat,
    too small for a review's player (its line measured 8.8 px from cap to descender); now 22 px, 11.6 in the chat."""
    import io

    from PIL import Image

    from render.common import BACKGROUND

    table = Image.open(io.BytesIO(render_table(ENGINE.view(_mid_game(3), None), ["Ana", "Bo", "Cy"], "en")))
    chat = 550 / table.width
    # the subtitle's band: under the 30 px title, above the places' numbers
    band = table.convert("RGB").crop((24, 48, table.width - 24, 86))
    inked = [
        y
        for y in range(band.height)
        if any(band.getpixel((x, y)) != BACKGROUND for x in range(0, band.width, 2))
    ]
    assert (max(inked) - min(inked) + 1) * chat >= 11  # "Places scored" from its cap to its descender
