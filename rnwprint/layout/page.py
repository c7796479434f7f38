"""Page sizes and the furniture every sheet carries: corner fiducials, identity QR
code, title, "print at 100 %" note with a 5 cm scale bar."""

from __future__ import annotations

import functools
import json

from rnwprint.data import data_path
from rnwprint.core.errors import RnwError
from rnwprint.fonts import wrap
from rnwprint.locale import t
from rnwprint.core.sheet import IDENTITY, MARKER, Identity, Matrix, Path, Rect, Sheet, Style, Text

PAGE_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # portrait, mm
PAGE_NAMES = {"a4": "A4", "letter": "Letter"}  # as a message names them
MARGIN = 10.0  # paper edge to the outer edge of the fiducials (printers need >= 5)
MARKER_MODULE = 2.0  # a 6x6-module ArUco marker is 12 mm wide
QR_MODULE = 0.9  # decodes from a 72 dpi rendering
GAP = 3.0
GREY = "#6b6b6b"  # the footer: light, yet legible printed
FOOTER_PT = 7.0  # every word a player may read is 7 pt or more


Box = Rect  # a region of the page: the Sheet's own rectangle, never drawn


@functools.cache
def marker_rows() -> dict[str, tuple[str, ...]]:
    data = json.loads(data_path("assets", "markers.json").read_text())
    return {corner: tuple(m["rows"]) for corner, m in data["markers"].items()}


def page_size(page: str, landscape: bool) -> tuple[float, float]:
    try:
        w, h = PAGE_SIZES[page]
    except KeyError:
        raise RnwError(f"unknown page size {page!r}; choose one of: {', '.join(PAGE_SIZES)}", "--page")
    return (h, w) if landscape else (w, h)


@functools.lru_cache(maxsize=256)
def qr_rows(payload: str) -> tuple[str, ...]:
    """The identity QR code's modules (made once per payload in a process): version 3 (29
    modules) for every payload it holds, else the smallest version that holds it at error
    level M, up to MAX_QR_VERSION.

    The module stays QR_MODULE wide whatever the version (the reader needs about 2 px per
    module: a 1 MP photo), so a longer payload makes a bigger code, grown upwards from the
    bottom margin; ValueError past QR_MAX_BYTES."""
    from rnwprint.layout.qr_mask import qr_code

    # the mask that reads best, as segno chooses it (a fixed mask saved that time but left
    # some payloads unreadable at low resolution). Version 3 takes error level L past 42 bytes
    # (53 at most), as every sheet printed so far did.
    size = len(payload.encode("utf-8"))
    if size > QR_MAX_BYTES:
        raise ValueError(f"identity too long for the QR code ({size} bytes; at most {QR_MAX_BYTES}): {payload!r}")
    if size <= 53:
        _, matrix = qr_code(payload, error="m" if size <= 42 else "l", micro=False, boost_error=False, version=3)
    else:
        _, matrix = qr_code(payload, error="m", micro=False, boost_error=False)
    return tuple("".join("1" if v else "0" for v in row) for row in matrix)


QR_SIZE = 29 * QR_MODULE  # version 3: every built-in sheet's identity fits
MAX_QR_VERSION = 10  # 57 modules, 51.3 mm: a custom tower's code of 169-178 characters
QR_MAX_BYTES = 213  # what version 10 holds at error level M
MAX_QR_SIZE = (17 + 4 * MAX_QR_VERSION) * QR_MODULE
SIDE_FOOTER_H = QR_SIZE + 17  # a side footer: the note, the scale bar and the QR code


def content_box(page: str, landscape: bool, side_footer: float = 0.0, qr_side: float = QR_SIZE) -> Box:
    """The part of the page the furniture leaves for the game (above a bottom footer whose
    QR code is `qr_side` mm high).

    With a side footer the box reaches down to the paper's margin; the game keeps the
    bottom-left marker and the footer column (the last `side_footer` mm, SIDE_FOOTER_H
    high) free itself."""
    width, height = page_size(page, landscape)
    top = MARGIN + 6 * MARKER_MODULE + GAP
    bottom = height - MARGIN - 3.5 if side_footer else height - MARGIN - max(qr_side, QR_SIZE) - GAP
    return Box(MARGIN, top, width - 2 * MARGIN, bottom - top)


def new_sheet(identity: Identity, title: str, landscape: bool = False, credit: str = "",
              side_footer: float = 0.0) -> tuple[Sheet, Box]:
    """A Sheet with its furniture drawn; returns it with the box left for the game.

    The footer (QR code, print note, 5 cm scale bar) runs along the bottom of the page, or,
    with `side_footer` > 0, fills the bottom of a column that wide at the right."""
    width, height = page_size(identity.page, landscape)
    sheet = Sheet(identity, width, height, title)
    marker = 6 * MARKER_MODULE
    rows = marker_rows()
    far_x, far_y = width - MARGIN - marker, height - MARGIN - marker
    corners = {"top-left": (MARGIN, MARGIN), "top-right": (far_x, MARGIN),
               "bottom-right": (far_x, far_y), "bottom-left": (MARGIN, far_y)}
    for corner, (x, y) in corners.items():
        sheet.add(Matrix(x, y, MARKER_MODULE, rows[corner], role=MARKER))

    sheet.add(Text(MARGIN + marker + GAP, MARGIN + 8.5, title, 16, bold=True))

    qr = qr_rows(identity.encode())
    qr_side = len(qr) * QR_MODULE
    if side_footer and qr_side > QR_SIZE:
        raise ValueError(f"identity too long for a side footer's QR code: {identity.encode()!r}")
    qr_y = height - MARGIN - qr_side  # a bigger code grows up, into the game's box
    baseline = height - MARGIN - 1
    variant = identity.variant if len(identity.variant) <= 24 else identity.variant[:20] + "…"  # a long tower code
    version = f"rnwprint · {identity.game} {variant} · v{identity.layout}"
    if side_footer:
        qr_x = far_x - GAP - QR_SIZE
        left = width - MARGIN - side_footer
        lines = wrap(t(identity.lang, "page.print_note"), 7, side_footer)
        _scale_bar(sheet, left, qr_y - 3)
        for i, line in enumerate(reversed(lines)):
            sheet.add(Text(left, qr_y - 8 - i * 3.1, line, 7))
        credits = f"{version} · {credit}" if credit else version
        sheet.add(Text(MARGIN + marker + GAP, baseline, credits, FOOTER_PT, colour=GREY))
    else:
        qr_x = MARGIN + marker + GAP + 1
        x = qr_x + qr_side + 4
        _scale_bar(sheet, x, baseline - 4)
        sheet.add(Text(x, baseline - 8.5, t(identity.lang, "page.print_note"), 7))
        sheet.add(Text(x, baseline, version, FOOTER_PT, colour=GREY))
        if credit:
            sheet.add(Text(far_x - GAP, baseline, credit, FOOTER_PT, colour=GREY, anchor="end"))
    sheet.add(Matrix(qr_x, qr_y, QR_MODULE, qr, role=IDENTITY))
    return sheet, content_box(identity.page, landscape, side_footer, qr_side)


def _scale_bar(sheet: Sheet, x: float, y: float) -> None:
    """A 5 cm bar with centimetre ticks, its baseline at y."""
    thin = Style(stroke="#000000", width=0.25)
    sheet.add(Path((((x, y), (x + 50, y)),), thin, closed=False))
    for cm in range(6):
        tick = 2.0 if cm in (0, 5) else 1.2
        sheet.add(Path((((x + 10 * cm, y - tick), (x + 10 * cm, y)),), thin, closed=False))
    sheet.add(Text(x + 52, y + 0.8, "5 cm", 7))
