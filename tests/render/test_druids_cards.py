"""Druids' private picture: a card's symbol stays clear of the name under it, on hand cards and on the smaller
square face-down ones (a review found "Ruby" and "Follower" written across the diamond and the token)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from render.common import fitted, font
from render.druids import KINDS, PLAYED_W, PRIVATE_SMALL, _labels, _symbol, kind_name


@pytest.mark.parametrize("size", [(110, 150), (PLAYED_W, 100)])  # a hand card, a face-down card
@pytest.mark.parametrize("locale", ["en", "ko", "es"])
def test_a_cards_symbol_ends_above_its_name(size, locale):
    w, h = size
    _, cy, r = _symbol(0, 0, w, h)
    draw = ImageDraw.Draw(Image.new("RGB", (w, h)))
    names = [kind_name(kind, locale) for kind in KINDS] + [_labels(locale)["follower"]]
    for name in names:
        label = fitted(name, PRIVATE_SMALL, w - 8, True)
        top = draw.textbbox((w // 2, h - h // 7), label, font=font(PRIVATE_SMALL, True), anchor="mm")[1]
        assert cy + r + 2 <= top, (name, cy + r, top)
    assert r >= w // 4  # and still large enough to read its number in
