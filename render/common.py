"""Drawing helpers shared by every game's renderer: fonts that cover Hangul and Latin, colours, PNG encoding.

Renderers are pure: a view in, PNG bytes out. They never see a full game state, only what one viewer may see.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
# NanumGothic (SIL OFL 1.1, shipped in render/fonts) covers Hangul, Latin and the Spanish accents.
_FONT_FILES = {False: FONT_DIR / "NanumGothic.ttf", True: FONT_DIR / "NanumGothicBold.ttf"}

BACKGROUND = (43, 45, 49)  # Discord's dark theme, so images sit well in the channel
PANEL = (56, 58, 64)
PANEL_LIGHT = (78, 80, 88)
TEXT = (235, 236, 240)
MUTED = (160, 163, 172)
ACCENT = (88, 101, 242)
GOLD = (240, 190, 60)

SEAT_COLOURS = [
    (220, 60, 60),  # red
    (60, 120, 230),  # blue
    (40, 40, 40),  # black
    (50, 170, 80),  # green
    (235, 200, 40),  # yellow
    (170, 90, 200),  # purple
]


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_FONT_FILES[bold]), size)


def canvas(width: int, height: int, colour=BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def text_width(draw: ImageDraw.ImageDraw, text: str, size: int, bold: bool = False) -> int:
    return int(draw.textlength(text, font=font(size, bold)))


def fit_text(draw: ImageDraw.ImageDraw, text: str, size: int, max_width: int, bold: bool = False) -> str:
    """Shorten `text` with an ellipsis until it fits `max_width` pixels."""
    if text_width(draw, text, size, bold) <= max_width:
        return text
    while text and text_width(draw, text + "…", size, bold) > max_width:
        text = text[:-1]
    return text + "…"


def to_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    # Level 1 encodes about twice as fast as the default for ~25% more bytes; images stay far below Discord's limits.
    image.save(buffer, format="PNG", optimize=False, compress_level=1)
    return buffer.getvalue()


def readable_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = colour[:3]
    return (20, 20, 20) if (r * 299 + g * 587 + b * 114) / 1000 > 150 else (250, 250, 250)
