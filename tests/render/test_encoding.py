"""The pictures' PNG writer: what a reader decodes is exactly the picture drawn."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from render.common import to_png, to_png_flat


def _drawn() -> Image.Image:
    image = Image.new("RGB", (123, 45), (43, 45, 49))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((5, 5, 60, 40), 8, fill=(228, 108, 30), outline=(235, 236, 240), width=2)
    draw.text((70, 12), "가 Ñ 7", fill=(240, 190, 60))
    return image


def test_a_palette_picture_decodes_to_the_same_indices_and_colours() -> None:
    picture = _drawn().quantize(colors=64)
    decoded = Image.open(io.BytesIO(to_png(picture)))
    assert decoded.format == "PNG" and decoded.mode == "P" and decoded.size == picture.size
    assert decoded.tobytes() == picture.tobytes()
    assert decoded.convert("RGB").tobytes() == picture.convert("RGB").tobytes()


def test_a_colour_picture_is_written_losslessly() -> None:
    picture = _drawn()
    assert Image.open(io.BytesIO(to_png(picture))).convert("RGB").tobytes() == picture.tobytes()


def test_a_flat_picture_keeps_its_colours_through_the_palette() -> None:
    picture = _drawn()
    decoded = Image.open(io.BytesIO(to_png_flat(picture))).convert("RGB")
    assert decoded.getpixel((30, 22)) == (228, 108, 30)
    assert decoded.getpixel((120, 44)) == (43, 45, 49)
