"""Colours that tell things apart stay apart for colour-blind players: each palette is run through simulations
of deuteranopia and protanopia (Machado, Oliveira and Fernandes 2009, severity 1) and every pair must still differ
by at least MIN_DELTA_E (CIE76 ΔE in CIELAB), the difference between two clearly different colours."""

from __future__ import annotations

import itertools

import pytest

from render import druids, results, roll_for_the_galaxy, roll_player
from render.common import SEAT_COLOURS

MIN_DELTA_E = 12
DEUTERANOPIA = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
PROTANOPIA = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def seen_with(matrix, rgb):
    """How `rgb` looks through a simulation matrix (as sRGB 0..1)."""
    lin = [_linear(c) for c in rgb]
    return tuple(_gamma(sum(m * c for m, c in zip(row, lin, strict=True))) for row in matrix)


def deuteranope(rgb):
    return seen_with(DEUTERANOPIA, rgb)


def lab(srgb01):
    r, g, b = (_linear(c * 255) for c in srgb01)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a, b) -> float:
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5


PALETTES = {
    "seats (every game)": SEAT_COLOURS,
    "Druids followers": druids.FOLLOWER_COLOURS,
    "Druids gems": list(druids.GEM_RGB.values()),
    "Roll Player dice": list(roll_player.DIE_RGB.values()),
    "results categories": results.CATEGORY_COLOURS,
    "Roll for the Galaxy dice": list(roll_for_the_galaxy.DIE_RGB.values()),
    # worlds on a seat's panel, and the panel itself (a grey world must not sink into it)
    "Roll for the Galaxy worlds": [*roll_for_the_galaxy.WORLD_RGB.values(), roll_for_the_galaxy.PANEL],
}


@pytest.mark.parametrize("vision", [DEUTERANOPIA, PROTANOPIA], ids=["deuteranopia", "protanopia"])
@pytest.mark.parametrize("name", PALETTES)
def test_palette_stays_apart_for_colour_blind_eyes(name, vision):
    colours = PALETTES[name]
    worst = min(
        (delta_e(seen_with(vision, a), seen_with(vision, b)), a, b)
        for a, b in itertools.combinations(colours, 2)
    )
    assert worst[0] >= MIN_DELTA_E, worst


def test_the_simulation_merges_what_deuteranopes_confuse():
    """Plain red and green, far apart for most eyes, come out close (so the check above can fail)."""
    red, green = (200, 60, 40), (90, 140, 40)
    assert delta_e(tuple(c / 255 for c in red), tuple(c / 255 for c in green)) > 30
    assert delta_e(deuteranope(red), deuteranope(green)) < MIN_DELTA_E
