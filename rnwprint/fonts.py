"""The one typeface every renderer uses (Bitstream Vera, shipped with reportlab),
and text measurement for layout."""

from __future__ import annotations

import functools
import os

PT = 25.4 / 72  # one typographic point in mm


def font_path(bold: bool = False) -> str:
    import reportlab

    name = "VeraBd.ttf" if bold else "Vera.ttf"
    return os.path.join(os.path.dirname(reportlab.__file__), "fonts", name)


def pdf_font_name(bold: bool = False) -> str:
    """Register the font with reportlab once and return its name."""
    return _register(bold)


@functools.cache
def _register(bold: bool) -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    name = "Vera-Bold" if bold else "Vera"
    pdfmetrics.registerFont(TTFont(name, font_path(bold)))
    return name


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width in mm of `text` set at `size` points."""
    from reportlab.pdfbase import pdfmetrics

    return pdfmetrics.stringWidth(text, _register(bold), size) * PT


def text_span(item) -> tuple[float, float]:
    """Left and right edge in mm of a Sheet Text item, as its anchor places it."""
    w = text_width(item.text, item.size, item.bold)
    left = {"start": item.x, "middle": item.x - w / 2, "end": item.x - w}[item.anchor]
    return left, left + w


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Break `text` into lines no wider than `width` mm."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if line and text_width(candidate, size, bold) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines
