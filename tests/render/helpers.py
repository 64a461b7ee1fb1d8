"""Games played a little way in, and what a picture shows, for the render tests."""

from __future__ import annotations

import io

from PIL import Image

from bot.games import presenters
from engines.rng import Rng


def played(name: str, players: int, seed: int, moves: int):
    """A seeded new game after up to `moves` random legal moves, and the public view after each move."""
    engine = presenters()[name].engine
    state = engine.new_game(players, engine.validate_options({}), seed)
    rng = Rng.from_seed(seed)
    views = [engine.view(state, None)]
    for _ in range(moves):
        if engine.outcome(state) is not None:
            break
        seat = rng.choice(engine.to_act(state))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        views.append(engine.view(state, None))
    return engine, state, views


def picture(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    return {rgb for _, rgb in image.crop(box).getcolors(maxcolors=1 << 20)}


def has_colour(image: Image.Image, box: tuple[int, int, int, int], rgb, tolerance: int = 12) -> bool:
    """Some pixel in `box` is within `tolerance` of `rgb` on every channel (palette mapping shifts colours)."""
    return any(
        all(abs(a - b) <= tolerance for a, b in zip(c, rgb, strict=True)) for c in colours_in(image, box)
    )
