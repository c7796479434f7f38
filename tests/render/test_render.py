"""Every game x renderer x language x page size: files that open, hold the right text,
carry a decodable identity and four findable fiducials, and are byte-identical twice."""

from __future__ import annotations

import dataclasses
import io
import xml.etree.ElementTree as ET

import cv2
import numpy as np
import pypdf
import pytest
from PIL import Image

from rnwprint.games import GAMES
from rnwprint.layout.page import MARGIN, PAGE_SIZES
from rnwprint.render import render
from rnwprint.render.png import render_image
from rnwprint.core.sheet import IDENTITY, MARKER, Identity, Rect, Style, Text

from conftest import FORMATS, LANGS, PAGES, pdf_limit

ARUCO = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))


def read_identity_and_markers(sheet) -> tuple[Identity, list[int]]:
    """Find the four markers on the whole page and decode the QR code where they say it is,
    as the photo reader does. OpenCV's two QR detectors each miss about one code in fifty at
    some resolution, so a code counts as readable when one of them reads it at 100, 150 or
    200 dpi."""
    (qr,) = sheet.having(IDENTITY)
    ids = None
    for dpi in (100, 150, 200):
        pixels = cv2.cvtColor(np.asarray(render_image(sheet, dpi=dpi)), cv2.COLOR_RGB2GRAY)
        if ids is None:
            _, ids, _ = ARUCO.detectMarkers(pixels)
        scale, quiet = dpi / 25.4, 4 * qr.module
        x0, y0 = int((qr.x - quiet) * scale), int((qr.y - quiet) * scale)
        size = int((len(qr.rows) * qr.module + 2 * quiet) * scale)
        crop = pixels[y0:y0 + size, x0:x0 + size]
        for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
            text = detector.detectAndDecode(crop)[0]
            if text:
                return Identity.decode(text), sorted(ids.ravel().tolist()) if ids is not None else []
    raise AssertionError(f"QR code of {sheet.identity.encode()} unreadable")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", PAGES)
def test_png_carries_identity_qr_and_four_markers(game, lang, page):
    g = GAMES[game]
    for variant in g.variants:
        sheet = g.build(variant, lang, page)
        identity, markers = read_identity_and_markers(sheet)
        assert identity == Identity(game, variant, lang, page, g.layout_version)
        assert markers == [0, 1, 2, 3]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("page", PAGES)
def test_furniture_inside_printable_area(game, page):
    g = GAMES[game]
    sheet = g.build(g.default_variant, "es", page)
    assert {round(sheet.width, 1), round(sheet.height, 1)} == {round(v, 1) for v in PAGE_SIZES[page]}
    markers = sheet.having(MARKER)
    assert len(markers) == 4
    for m in markers:
        size = 6 * m.module
        assert min(m.x, m.y, sheet.width - m.x - size, sheet.height - m.y - size) >= 8
    for cell in sheet.cells.values():
        x0, y0, x1, y1 = cell.bounds
        assert MARGIN <= x0 and x1 <= sheet.width - MARGIN and MARGIN <= y0 and y1 <= sheet.height - MARGIN


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("lang", LANGS)
def test_same_sheet_gives_same_bytes(game, fmt, lang):
    g = GAMES[game]
    first = render([g.build(g.default_variant, lang, "a4")], fmt)
    second = render([g.build(g.default_variant, lang, "a4")], fmt)
    assert first == second


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", PAGES)
def test_pdf_pages_text_and_size(game, lang, page):
    g = GAMES[game]
    sheets = [g.build(v, lang, page) for v in g.variants]
    (pdf,) = render(sheets, "pdf")
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == len(g.variants)
    assert len(pdf) <= pdf_limit(game) * len(sheets)
    for sheet, pdf_page in zip(sheets, reader.pages):
        width_mm = float(pdf_page.mediabox.width) * 25.4 / 72
        assert width_mm == pytest.approx(sheet.width, abs=0.1)
        text = pdf_page.extract_text()
        assert sheet.title in text
        for cell in sheet.cells.values():
            if cell.kind == "number":
                assert cell.id in text


@pytest.mark.parametrize("game", GAMES)
def test_svg_is_valid_xml_in_millimetres(game):
    g = GAMES[game]
    sheet = g.build(g.default_variant, "es", "letter")
    (svg,) = render([sheet], "svg")
    root = ET.fromstring(svg)
    assert {root.get("width"), root.get("height")} == {"215.9mm", "279.4mm"}
    assert root.get("width") == f"{sheet.width:g}mm"
    texts = "".join(root.itertext())
    assert sheet.identity.encode() in texts
    for cell in sheet.cells.values():
        if cell.kind == "number":
            assert cell.id in texts


@pytest.mark.parametrize("game", GAMES)
def test_svg_is_what_svgwrite_and_elementtree_write(game):
    """render_svg writes svgwrite's elements itself: character for character what
    ElementTree writes of svgwrite's get_xml(), here for every sheet of each game (both
    languages and page sizes) and for texts holding what XML must escape."""
    from rnwprint.render.svg import _drawing, render_svg

    g = GAMES[game]
    sheets = [g.build(v, lang, page) for v in g.variants[:3] for lang in LANGS for page in PAGES]
    odd = dataclasses.replace(sheets[0], items=[*sheets[0].items, Text(20, 30, "", 9, bold=True, anchor=""),
                                                Rect(5, 5, 9, 9, Style(fill='url("#a")&<b>', stroke="\t#000")),
                                                Text(20, 20, 'a & b < c > d "e" \\t\tf\r\ng ñ €', 9, "#123456", anchor="middle")])
    for sheet in [*sheets, odd]:
        expected = ET.tostring(_drawing(sheet).get_xml(), encoding="unicode")
        assert render_svg(sheet).decode("utf-8") == f'<?xml version="1.0" encoding="utf-8" ?>\n{expected}\n'


def _svg_items(root):
    """The drawn elements of an SVG page in document order, texts out of their groups;
    the title, description, definitions and white background left out."""
    ns = "{http://www.w3.org/2000/svg}"
    out = []
    for el in list(root)[4:]:
        out.extend(list(el) if el.tag == ns + "g" else [el])
    return [(el.tag.removeprefix(ns), el) for el in out]


def _modules(d: str, x0: float, y0: float, module: float) -> set[tuple[int, int]]:
    """The (row, column) of every module a code's path fills ("Mx yhLv1h-LZ" a run)."""
    cells = set()
    for run in d.split("Z")[:-1]:
        move, rest = run[1:].split("h", 1)
        x, y = (float(v) for v in move.split(" "))
        length = float(rest.split("v")[0])
        row, start = round((y - y0) / module), round((x - x0) / module)
        cells.update((row, start + k) for k in range(round(length / module)))
    return cells


@pytest.mark.parametrize("game", GAMES)
def test_svg_draws_each_text_and_code_as_the_sheet_says(game):
    """Each text at its place, size, colour, anchor and weight; each code's dark modules, and
    only those, at their row and column; each box at its place and size."""
    from rnwprint.core.sheet import Matrix
    from rnwprint.fonts import PT

    g = GAMES[game]
    sheet = g.build(g.default_variant, "en", "a4")
    (svg,) = render([sheet], "svg")
    drawn = _svg_items(ET.fromstring(svg))
    assert len(drawn) == len(sheet.items)
    for item, (tag, el) in zip(sheet.items, drawn):
        if isinstance(item, Text):
            assert tag == "text" and el.text == item.text
            assert (float(el.get("x")), float(el.get("y"))) == pytest.approx((item.x, item.y), abs=0.006)
            assert float(el.get("font-size")) == pytest.approx(item.size * PT, abs=0.006)
            assert el.get("fill", "#000000") == item.colour
            assert el.get("text-anchor", "start") == item.anchor
            assert el.get("font-weight", "normal") == ("bold" if item.bold else "normal")
        elif isinstance(item, Matrix):
            dark = {(r, c) for r, row in enumerate(item.rows) for c, v in enumerate(row) if v == "1"}
            assert tag == "path" and el.get("fill") == item.colour
            assert _modules(el.get("d"), item.x, item.y, item.module) == dark
        elif isinstance(item, Rect):
            box = tuple(float(el.get(k)) for k in ("x", "y", "width", "height"))
            assert tag == "rect" and box == pytest.approx((item.x, item.y, item.w, item.h), abs=0.006)
            assert float(el.get("rx", 0)) == pytest.approx(item.radius, abs=0.006)
            assert el.get("fill") == (item.style.fill or "none")
            assert el.get("stroke") == item.style.stroke


def test_png_pixels_are_the_mean_of_those_drawn():
    """Drawn at twice the size, each pixel is the mean of the four drawn; the photo
    generator's Lanczos is kept apart; a size that does not halve exactly is fitted."""
    g = GAMES["rolling-america"]
    sheet = g.build(g.default_variant, "en", "a4")
    fast, box, lanczos = (np.asarray(render_image(sheet, 150, f), np.int16) for f in (None, Image.BOX, Image.LANCZOS))
    assert fast.shape == box.shape == lanczos.shape == (1240, 1754, 3)
    assert np.abs(fast - box).max() <= 1  # 2480 x 3508 drawn: the mean of each 2 x 2, to the rounding
    assert np.abs(fast - lanczos).max() > 10  # not the photo generator's
    assert render_image(sheet, 97.3).size == (1138, 804)  # 2275 x 1609 drawn: 1138 x 805 halved, fitted to 1138 x 804


def test_png_draws_dashed_lines_dashed_as_pdf_and_svg_do():
    """A dashed line (Catan's cut line, the maps' inset frames) is dashed in the PNG too: along
    a 2 mm on, 1 mm off line, ink and paper alternate every 2 and 1 mm; an open path and a
    rectangle alike; a solid line is ink all along."""
    from rnwprint.core.sheet import Path, Sheet

    sheet = Sheet(Identity("x", "y", "en", "a4", "1"), 40, 50)
    sheet.add(Path((((5.0, 5.0), (35.0, 5.0)),), Style(width=0.5, dash=(2.0, 1.0)), closed=False),
              Rect(5, 15, 30, 20, Style(width=0.5, dash=(2.0, 1.0))),
              Path((((5.0, 10.0), (35.0, 10.0)),), Style(width=0.5), closed=False),
              Path((((5.0, 42.0), (35.0, 42.0)),), Style(width=0.5, dash=(3.0, 1.0, 1.0, 2.0)), closed=False))
    grey = np.asarray(render_image(sheet, 254).convert("L"))  # 10 px/mm

    def runs(ink):
        edges = np.flatnonzero(np.diff(ink.astype(int)))
        return [(bool(ink[a + 1]), int(b - a)) for a, b in zip(edges, edges[1:])]

    for ink in (grey[50, 50:350] < 128, grey[150, 50:350] < 128, grey[350, 50:350] < 128,  # line, top, bottom
                grey[150:350, 50] < 128, grey[150:350, 350] < 128):  # the rectangle's sides
        found = runs(ink)
        assert len(found) >= 10
        assert all(18 <= n <= 22 if on else 8 <= n <= 12 for on, n in found)  # 2 mm on, 1 mm off
    assert (grey[50, 50:68] < 128).all()  # the line starts with a whole dash
    assert [round(n / 10) for _, n in runs(grey[420, 50:350] < 128)][:8] == [1, 1, 2, 3, 1, 1, 2, 3]  # on 3, off 1, on 1, off 2
    assert (grey[100, 50:350] < 128).all()


def test_png_has_requested_resolution():
    g = GAMES["twenty-one"]
    (png,) = render([g.build("A", "en", "a4")], "png")
    image = Image.open(io.BytesIO(png))
    assert image.size == (1240, 1754)  # A4 at 150 dpi


def test_pdf_paths_are_written_ring_by_ring_closed_or_open():
    # every map region and border goes through this: rings in order, each closed ("h") when
    # the path is, filled even-odd ("f*") or only stroked ("S")
    from rnwprint.core.sheet import Path, Sheet, Style
    from rnwprint.render.pdf import render_pdf

    sheet = Sheet(Identity("twenty-one", "A", "en", "a4", 2), 210.0, 297.0, "paths")
    sheet.add(Path((((10, 20), (30, 20), (30, 40)), ((50, 50), (60, 50.5), (60, 60))),
                   style=Style(fill="#ff0000", stroke=None)))
    sheet.add(Path((((1, 2), (3, 4.25), (7.125, 9)),), style=Style(fill=None, stroke="#000000", width=0.5), closed=False))
    content = pypdf.PdfReader(io.BytesIO(render_pdf([sheet]))).pages[0].get_contents().get_data().decode()
    assert "n 10 20 m 30 20 l 30 40 l h 50 50 m 60 50.5 l 60 60 l h\nf*" in content
    assert "n 1 2 m 3 4.25 l 7.125 9 l\nS" in content
