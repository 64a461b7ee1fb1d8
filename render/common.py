"""Drawing helpers shared by every game's renderer: fonts that cover Hangul and Latin, colours, PNG encoding.

Renderers are pure: a view in, PNG bytes out. They never see a full game state, only what one viewer may see.
"""

from __future__ import annotations

import io
import struct
import sys
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont
from zlib_ng import zlib_ng

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

# Okabe and Ito's colour-blind-safe hues (lightened where they would sink into the dark table), in the order
# seats take them; tests/render/test_palettes.py checks they stay apart under simulated deuteranopia
# and protanopia.
SEAT_COLOURS = [
    (228, 108, 30),  # red (vermilion)
    (86, 180, 233),  # blue (sky blue)
    (235, 236, 240),  # white: black would vanish on the dark background
    (0, 158, 115),  # green (bluish green)
    (240, 228, 66),  # yellow
    (204, 121, 167),  # purple (reddish purple)
]
# Letters on seat tokens, so a seat never depends on its colour alone.
SEAT_MARKS = "ABCDEF"

# Legibility in the chat: Discord shows an attachment about 550 px wide, and a letter must stay at least 9 px
# tall there, so no picture uses letters smaller than width × 9 / 550.
CHAT_WIDTH = 550
CHAT_MIN_PX = 9


_sizes_asked: list[list[int]] = []


@contextmanager
def font_sizes() -> Iterator[list[int]]:
    """Every letter size a renderer asks for inside the block. The renderers' caches of drawn pieces are emptied
    first, so a piece drawn earlier still reports its letters."""
    for name, module in list(sys.modules.items()):
        if name == "render" or name.startswith("render."):
            for value in list(vars(module).values()):
                if hasattr(value, "cache_clear") and getattr(value, "__module__", "") == name:
                    value.cache_clear()
    sizes: list[int] = []
    _sizes_asked.append(sizes)
    try:
        yield sizes
    finally:
        _sizes_asked.remove(sizes)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    for sizes in _sizes_asked:
        sizes.append(size)
    return _font(size, bold)


@lru_cache(maxsize=64)
def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_FONT_FILES[bold]), size)


def canvas(width: int, height: int, colour=BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def fitted_to_content(image: Image.Image, margin: int = 16, min_width: int = CHAT_WIDTH) -> Image.Image:
    """The picture without the empty background right of and below what is drawn: the chat shows a narrower
    picture larger (up to its own size), so a screen with little on it reads at full size instead of shrunk to
    half. Never narrower than the chat's width, so it is never shown smaller than drawn."""
    ground = Image.new("RGB", image.size, image.getpixel((0, 0)))
    box = ImageChops.difference(image, ground).getbbox()
    if box is None:
        return image
    width = min(image.width, max(box[2] + margin, min_width))
    return image.crop((0, 0, width, min(image.height, box[3] + margin)))


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
    if image.mode == "P" and "transparency" not in image.info:
        return _palette_png(image)
    buffer = io.BytesIO()
    # Level 1 encodes about twice as fast as the default for ~25% more bytes; images stay far below Discord's limits.
    image.save(buffer, format="PNG", optimize=False, compress_level=1)
    return buffer.getvalue()


def _palette_png(image: Image.Image) -> bytes:
    """A palette picture written as PNG with zlib-ng: at its level 2 it deflates in half the CPU of zlib's fastest
    level (Pillow's level 1), into smaller files. Rows are stored unfiltered, as Pillow stores palette rows."""
    width, height = image.size
    # Each row starts with its filter byte (0): the picture one column to the right of a column of zeros.
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(image, (1, 0))
    rows = framed.tobytes()
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette indices, no interlacing
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(image.getpalette() or [])),
            _chunk(b"IDAT", zlib_ng.compress(rows, 2)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def to_png_flat(image: Image.Image, sample: int = 4, colours: int = 128) -> bytes:
    """Encode a flat-coloured picture through a palette: it loses nothing visible and encodes about twice as fast;
    the palette is picked from the pixels averaged `sample` by `sample` (a sixteenth of them by default)."""
    palette = image.reduce(sample).quantize(colors=colours, method=Image.Quantize.FASTOCTREE)
    return to_png(image.quantize(palette=palette, dither=Image.Dither.NONE))


def readable_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = colour[:3]
    return (20, 20, 20) if (r * 299 + g * 587 + b * 114) / 1000 > 150 else (250, 250, 250)


# --- for images drawn often: rasterise once, then only composite --------------------------------------------


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage as an "L" image, and where its top-left sits relative to the anchor point."""
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(right - left, 1), max(bottom - top, 1)))
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, left, top


def paste_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    bold: bool = False,
    anchor: str = "la",
) -> None:
    """ImageDraw.text for labels that come back image after image: rasterised once, then only blended in."""
    mask, left, top = _text_mask(text, size, bold, anchor)
    image.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)


@lru_cache(maxsize=4096)
def fitted(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """fit_text without a drawing, remembered: the same names are shortened on every image."""
    face = font(size, bold)
    if face.getlength(text) <= max_width:
        return text
    while text and face.getlength(text + "…") > max_width:
        text = text[:-1]
    return text + "…"


RGB = tuple[int, int, int]


def _blend(ground: RGB, ink: RGB, share: float) -> RGB:
    """`share` of `ink` over `ground`."""
    return tuple(round(g + (i - g) * share) for g, i in zip(ground, ink, strict=True))  # type: ignore[return-value]


def fixed_palette(colours: Iterable[RGB], text_on: dict[RGB, list[RGB]], steps: int = 5) -> Image.Image:
    """A palette for quantize(palette=…): every colour drawn, plus `steps` blends of each text colour
    over each ground it is drawn on (anti-aliased letter edges; Pillow draws shapes without anti-aliasing)."""
    entries = dict.fromkeys(tuple(c) for c in colours)
    for ground, inks in text_on.items():
        for ink in inks:
            for k in range(steps + 2):
                entries[_blend(ground, ink, k / (steps + 1))] = None
    if len(entries) > 256:
        raise ValueError(f"{len(entries)} colours do not fit a palette")
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in entries for channel in colour])
    return palette


def to_png_fixed(image: Image.Image, palette: Image.Image) -> bytes:
    """Encode a flat-coloured picture through a fixed palette: mapping to known colours is several times
    faster than choosing a palette per image, and the PNG is as small."""
    return to_png(image.quantize(palette=palette, dither=Image.Dither.NONE))
