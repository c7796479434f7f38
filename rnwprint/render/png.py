"""Sheet -> PNG (pillow), drawn at twice the size and scaled down for smooth edges."""

from __future__ import annotations

import functools
import io
import math

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


def _dashes(pts: list[tuple[float, float]], pattern: tuple[float, ...]) -> list[list[tuple[float, float]]]:
    """The dashes of the polyline `pts` (on, off, on, ... lengths in its own units, repeated),
    each a polyline, as PDF and SVG draw a dashed stroke."""
    out, run, k, left, on = [], [pts[0]], 0, pattern[0], True
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        length, done = math.hypot(x1 - x0, y1 - y0), 0.0
        while length - done > left:
            done += left
            point = (x0 + (x1 - x0) * done / length, y0 + (y1 - y0) * done / length)
            if on:
                out.append(run + [point])
            run, k = [point], (k + 1) % len(pattern)
            left, on = pattern[k], not on
        left -= length - done
        run.append((x1, y1))
    if on and len(run) > 1:
        out.append(run)
    return out


def _stroke(draw: ImageDraw.ImageDraw, pts: list[tuple[float, float]], st, s: float) -> None:
    """The outline through `pts` in the style `st` (dashed if it says so)."""
    width = _width(st.width, s)
    for run in _dashes(pts, tuple(d * s for d in st.dash)) if st.dash else [pts]:
        draw.line(run, fill=st.stroke, width=width, joint="curve")


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
                    _stroke(draw, pts + [pts[0]], st, s)
            elif st.stroke:
                _stroke(draw, pts, st, s)
    elif isinstance(item, Rect):
        st = item.style
        box = x0, y0, x1, y1 = (item.x * s, item.y * s, (item.x + item.w) * s, (item.y + item.h) * s)
        if st.dash and not item.radius:  # (no dashed rounded rectangle is drawn)
            if st.fill:
                draw.rectangle(box, fill=st.fill)
            if st.stroke:
                _stroke(draw, [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], st, s)
            return
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
