"""Sheet -> PNG (pillow), drawn at twice the size and scaled down for smooth edges."""

from __future__ import annotations

import functools
import io

from PIL import Image, ImageDraw, ImageFont

from rnwprint.fonts import PT, font_path
from rnwprint.render import dark_runs
from rnwprint.core.sheet import Circle, Matrix, Path, Rect, Sheet, Text

DEFAULT_DPI = 150
SUPERSAMPLE = 2


@functools.cache
def _font(bold: bool, pixels: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_path(bold), pixels)


def render_image(sheet: Sheet, dpi: int = DEFAULT_DPI, resample: int | None = None) -> Image.Image:
    """The sheet drawn at SUPERSAMPLE times the size and scaled down: each pixel the mean of
    those drawn, or by the Pillow filter `resample` (the photo generator's Lanczos, 9 times
    slower, with which every photo figure in BENCHMARKS was measured)."""
    scale = dpi / 25.4 * SUPERSAMPLE  # pixels per mm while drawing
    size = (round(sheet.width * scale), round(sheet.height * scale))
    image = Image.new("RGB", size, "#ffffff")
    draw = ImageDraw.Draw(image)
    for item in sheet.items:
        draw_item(draw, item, scale)
    final = (round(sheet.width * dpi / 25.4), round(sheet.height * dpi / 25.4))
    if resample is not None:
        return image.resize(final, resample)
    small = image.reduce(SUPERSAMPLE)
    return small if small.size == final else small.resize(final, Image.LANCZOS)


def render_png(sheet: Sheet, dpi: int = DEFAULT_DPI) -> bytes:
    out = io.BytesIO()
    image = render_image(sheet, dpi)
    image.save(out, format="PNG", optimize=False, dpi=(dpi, dpi))
    return out.getvalue()


def _width(w: float, s: float) -> int:
    return max(1, round(w * s))


def draw_item(draw: ImageDraw.ImageDraw, item, s: float) -> None:
    """Draw one Sheet item at `s` pixels per millimetre."""
    if isinstance(item, Path):
        st = item.style
        for ring in item.rings:
            pts = [(x * s, y * s) for x, y in ring]
            if item.closed:
                if st.fill:
                    draw.polygon(pts, fill=st.fill)
                if st.stroke:
                    draw.line(pts + [pts[0]], fill=st.stroke, width=_width(st.width, s), joint="curve")
            elif st.stroke:
                draw.line(pts, fill=st.stroke, width=_width(st.width, s), joint="curve")
    elif isinstance(item, Rect):
        st = item.style
        box = (item.x * s, item.y * s, (item.x + item.w) * s, (item.y + item.h) * s)
        outline = st.stroke if st.stroke else None
        draw.rounded_rectangle(box, radius=item.radius * s, fill=st.fill, outline=outline,
                               width=_width(st.width, s) if outline else 0)
    elif isinstance(item, Circle):
        st = item.style
        box = ((item.cx - item.r) * s, (item.cy - item.r) * s, (item.cx + item.r) * s, (item.cy + item.r) * s)
        draw.ellipse(box, fill=st.fill, outline=st.stroke, width=_width(st.width, s) if st.stroke else 0)
    elif isinstance(item, Text):
        font = _font(item.bold, max(1, round(item.size * PT * s)))
        anchor = {"start": "ls", "middle": "ms", "end": "rs"}[item.anchor]
        draw.text((item.x * s, item.y * s), item.text, font=font, fill=item.colour, anchor=anchor)
    elif isinstance(item, Matrix):
        m = item.module * s
        for r, row in enumerate(item.rows):
            for start, length in dark_runs(row):
                x0, y0 = item.x * s + start * m, item.y * s + r * m
                draw.rectangle((x0, y0, x0 + length * m - 1, y0 + m - 1), fill=item.colour)
    else:
        raise TypeError(f"cannot draw {item!r}")
