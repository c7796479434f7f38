"""Page sizes and the furniture every sheet carries: corner fiducials, identity QR
code, title, "print at 100 %" note with a 5 cm scale bar."""

from __future__ import annotations

import functools
import json
import pathlib
from dataclasses import dataclass

from rnwprint.errors import RnwError
from rnwprint.fonts import text_width
from rnwprint.locale import t
from rnwprint.sheet import Identity, Matrix, Path, Rect, Sheet, Style, Text

PAGE_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # portrait, mm
MARGIN = 10.0  # paper edge to the outer edge of the fiducials (printers need >= 5)
MARKER_MODULE = 2.0  # a 6x6-module ArUco marker is 12 mm wide
QR_MODULE = 0.9  # decodes from a 72 dpi rendering
GAP = 3.0
GREY = "#808080"
_ASSETS = pathlib.Path(__file__).resolve().parent.parent / "assets"


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@functools.cache
def marker_rows() -> dict[str, tuple[str, ...]]:
    data = json.loads((_ASSETS / "markers.json").read_text())
    return {corner: tuple(m["rows"]) for corner, m in data["markers"].items()}


def page_size(page: str, landscape: bool) -> tuple[float, float]:
    try:
        w, h = PAGE_SIZES[page]
    except KeyError:
        raise RnwError(f"unknown page size {page!r}; choose one of: {', '.join(PAGE_SIZES)}", "--page")
    return (h, w) if landscape else (w, h)


def qr_rows(payload: str) -> tuple[str, ...]:
    import segno

    # A fixed mask skips segno's search for the best of eight (most of a sheet's build
    # time); every mask is valid QR and decodes (tests decode every sheet at 100 dpi).
    qr = segno.make(payload, error="m", micro=False, boost_error=False, mask=4)
    return tuple("".join("1" if v else "0" for v in row) for row in qr.matrix)


def new_sheet(identity: Identity, title: str, landscape: bool = False, credit: str = "") -> tuple[Sheet, Box]:
    """A Sheet with its furniture drawn; returns it with the box left for the game."""
    width, height = page_size(identity.page, landscape)
    sheet = Sheet(identity, width, height, title)
    marker = 6 * MARKER_MODULE
    rows = marker_rows()
    far_x, far_y = width - MARGIN - marker, height - MARGIN - marker
    corners = {"top-left": (MARGIN, MARGIN), "top-right": (far_x, MARGIN),
               "bottom-right": (far_x, far_y), "bottom-left": (MARGIN, far_y)}
    for corner, (x, y) in corners.items():
        sheet.add(Matrix(x, y, MARKER_MODULE, rows[corner]))

    sheet.add(Text(MARGIN + marker + GAP, MARGIN + 8.5, title, 16, bold=True))

    qr = qr_rows(identity.encode())
    qr_size = len(qr) * QR_MODULE
    qr_x = MARGIN + marker + GAP + 1
    qr_y = height - MARGIN - qr_size
    sheet.add(Matrix(qr_x, qr_y, QR_MODULE, qr))
    _scale_bar(sheet, qr_x + qr_size + 4, height - MARGIN - 1, identity.lang, credit)

    top = MARGIN + marker + GAP
    content = Box(MARGIN, top, width - 2 * MARGIN, qr_y - GAP - top)
    return sheet, content


def _scale_bar(sheet: Sheet, x: float, baseline: float, lang: str, credit: str) -> None:
    """A 5 cm bar with centimetre ticks, under the note to print at 100 %."""
    y = baseline - 4
    thin = Style(stroke="#000000", width=0.25)
    sheet.add(Path((((x, y), (x + 50, y)),), thin, closed=False))
    for cm in range(6):
        tick = 2.0 if cm in (0, 5) else 1.2
        sheet.add(Path((((x + 10 * cm, y - tick), (x + 10 * cm, y)),), thin, closed=False))
    sheet.add(Text(x + 52, y + 0.8, "5 cm", 6.5))
    note = t(lang, "page.print_note")
    sheet.add(Text(x, y - 4.5, note, 7))
    version = f"rnwprint · {sheet.identity.game} {sheet.identity.variant} · v{sheet.identity.layout}"
    sheet.add(Text(x, baseline, version, 5.5, colour=GREY))
    if credit:
        right = sheet.width - MARGIN - 6 * MARKER_MODULE - GAP
        sheet.add(Text(right, baseline, credit, 5.5, colour=GREY, anchor="end"))


def boxed_label(sheet: Sheet, box: Box, text: str, size: float, style: Style, bold: bool = False) -> None:
    """A rectangle with `text` centred in it."""
    sheet.add(Rect(box.x, box.y, box.w, box.h, style, radius=1.0))
    baseline = box.y + box.h / 2 + size * 0.35 * 25.4 / 72
    sheet.add(Text(box.x + box.w / 2, baseline, text, size, anchor="middle", bold=bold))


def fits(text: str, size: float, width: float, bold: bool = False) -> bool:
    return text_width(text, size, bold) <= width
