"""What the render tests look at in a picture: that it decodes, has a sensible size, is really drawn (many
colours, not a blank canvas) and follows the view it was drawn from."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from PIL import Image

from engines.base import View, clone


def assert_drawn(png: bytes, min_width: int = 400, min_height: int = 150) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    image = image.convert("RGB")
    assert image.width >= min_width and image.height >= min_height, image.size
    assert len(image.getcolors(maxcolors=1 << 22)) > 40, "hardly any colours: nothing drawn"
    assert len(png) < 1_500_000
    return image


def assert_follows_the_view(draw: Callable[[View], bytes], view: View, change: Callable[[Any], None]) -> None:
    """Drawing the same view twice gives the same picture; changing one shown fact changes the picture."""
    first = draw(view)
    assert draw(clone(view)) == first
    changed = clone(view)
    change(changed)
    assert changed != view, "the change changed nothing"
    assert draw(View(changed)) != first, "the picture ignores a fact the view shows"
