"""Sheets -> one PDF (reportlab). Byte-identical for the same Sheets."""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from rnwprint.fonts import PT, pdf_font_name
from rnwprint.render import dark_runs
from rnwprint.core.sheet import Circle, Matrix, Path, Rect, Sheet, Style, Text


@functools.cache
def _colour(hex_colour: str) -> HexColor:
    return HexColor(hex_colour)


def render_pdf(sheets: Sequence[Sheet]) -> bytes:
    out = io.BytesIO()
    first = sheets[0]
    c = rl_canvas.Canvas(out, pagesize=(first.width * mm, first.height * mm), invariant=1, pageCompression=1)
    c.setTitle(first.title)
    c.setCreator("rnwprint")
    for sheet in sheets:
        c.setPageSize((sheet.width * mm, sheet.height * mm))
        _Page(c, sheet.height).draw(sheet.items)
        c.showPage()
    c.save()
    return out.getvalue()


def _path_code(path: Path) -> list[str]:
    """The path's operators as reportlab's moveTo/lineTo/close write them, with the numbers
    of a ring formatted in one call (a map's 13,000 points: a third of its rendering time)."""
    code = ["n"]
    for ring in path.rings:
        numbers = fp_str(*(v for point in ring for v in point)).split(" ")
        code.append(f"{numbers[0]} {numbers[1]} m")
        code.extend(f"{x} {y} l" for x, y in zip(numbers[2::2], numbers[3::2]))
        if path.closed:
            code.append("h")
    return code


class _Page:
    """Draws one page in mm with y down, skipping graphics-state changes that change nothing."""

    def __init__(self, c, height: float):
        self.c = c
        c.translate(0, height * mm)
        c.scale(mm, -mm)
        self.fill = self.stroke = self.width = self.dash = None

    def draw(self, items) -> None:
        run: list[Text] = []
        for item in items:
            if isinstance(item, Text):
                run.append(item)
                continue
            if run:
                self.texts(run)
                run = []
            self.shape(item)
        if run:
            self.texts(run)

    def paint(self, style: Style) -> tuple[int, int]:
        c = self.c
        if style.fill and style.fill != self.fill:
            c.setFillColor(_colour(style.fill))
            self.fill = style.fill
        if style.stroke:
            if style.stroke != self.stroke:
                c.setStrokeColor(_colour(style.stroke))
                self.stroke = style.stroke
            if style.width != self.width:
                c.setLineWidth(style.width)
                self.width = style.width
            if style.dash != self.dash:
                c.setDash(list(style.dash) if style.dash else [])
                self.dash = style.dash
        return int(bool(style.stroke)), int(bool(style.fill))

    def shape(self, item) -> None:
        c = self.c
        if isinstance(item, Path):
            stroke, fill = self.paint(item.style)
            c.drawPath(PDFPathObject(_path_code(item)), stroke=stroke, fill=fill if item.closed else 0, fillMode=0)
        elif isinstance(item, Rect):
            stroke, fill = self.paint(item.style)
            if item.radius:
                c.roundRect(item.x, item.y, item.w, item.h, item.radius, stroke=stroke, fill=fill)
            else:
                c.rect(item.x, item.y, item.w, item.h, stroke=stroke, fill=fill)
        elif isinstance(item, Circle):
            stroke, fill = self.paint(item.style)
            c.circle(item.cx, item.cy, item.r, stroke=stroke, fill=fill)
        elif isinstance(item, Matrix):
            self.paint(Style(fill=item.colour, stroke=None))
            p = c.beginPath()
            for r, row in enumerate(item.rows):
                for start, length in dark_runs(row):
                    p.rect(item.x + start * item.module, item.y + r * item.module, length * item.module, item.module)
            c.drawPath(p, stroke=0, fill=1)
        else:
            raise TypeError(f"cannot draw {item!r}")

    def texts(self, items: list[Text]) -> None:
        """Consecutive texts share one text object; the text matrix flips glyphs upright."""
        text = self.c.beginText()
        font = colour = None
        for item in items:
            name, size = pdf_font_name(item.bold), item.size * PT
            if (name, size) != font:
                text.setFont(name, size)
                font = (name, size)
            if item.colour != colour:
                text.setFillColor(_colour(item.colour))
                colour = item.colour
            x = item.x
            if item.anchor != "start":
                width = stringWidth(item.text, name, size)
                x -= width / 2 if item.anchor == "middle" else width
            text.setTextTransform(1, 0, 0, -1, x, item.y)
            text.textOut(item.text)
        self.c.drawText(text)
        self.fill = None  # the text colour may have changed the fill colour
