"""The printed map sheets: every cell has a write box big enough for a digit, inside its own
region or in a callout on no region at all, and nothing printed overlaps a box."""

from __future__ import annotations

import itertools

import pypdf
import pytest
from shapely.geometry import Polygon, box

from rnwprint.fonts import PT, text_span
from rnwprint.games import GAMES
from rnwprint.games.rolling import sheet as rolling_sheet
from rnwprint.games.rolling.rules import load_board
from rnwprint.core.sheet import Text

from conftest import LANGS, PAGES

MAP_GAMES = ("rolling-america", "rolling-espana")


def text_box(item: Text):
    (x0, x1), h = text_span(item), item.size * PT * 0.75
    return box(x0, item.y - h, x1, item.y)


@pytest.fixture(scope="module", params=list(itertools.product(MAP_GAMES, PAGES, LANGS)))
def built(request):
    game, page, lang = request.param
    sheet = GAMES[game].build(GAMES[game].default_variant, lang, page)
    fitted = rolling_sheet._fitted(game, page)
    return game, sheet, fitted.regions, fitted.placements


def numbers(sheet) -> dict:
    return {code: cell for code, cell in sheet.cells.items() if cell.kind == "number"}


def test_one_write_box_per_cell(built):
    game, sheet, _, _ = built
    assert set(numbers(sheet)) == set(load_board(game).region_of)
    assert len(numbers(sheet)) == {"rolling-america": 50, "rolling-espana": 52}[game]
    for cell in numbers(sheet).values():
        x0, y0, x1, y1 = cell.bounds
        assert x1 - x0 >= 7 - 1e-9 and y1 - y0 >= 7 - 1e-9, cell.id
        assert (cell.low, cell.high) == (1, 6)


def test_boxes_in_their_own_region_or_off_the_map(built):
    _, sheet, regions, placements = built
    for code, cell in numbers(sheet).items():
        square = Polygon(cell.polygon)
        for other, region in regions.items():
            if other != code:
                assert not square.intersects(region), f"{code} box on {other}"
        if placements[code].leader is None:
            assert regions[code].contains(square), code
        else:
            assert not square.intersects(regions[code]), code


def test_no_box_overlaps_another_box_or_a_label(built):
    _, sheet, _, _ = built
    squares = {code: Polygon(cell.polygon) for code, cell in sheet.cells.items()}  # ticks too
    for (a, pa), (b, pb) in itertools.combinations(squares.items(), 2):
        assert not pa.intersects(pb), (a, b)
    for item in sheet.items:
        if isinstance(item, Text):
            label = text_box(item)
            for code, square in squares.items():
                if square.intersects(label):  # only a box's own id (or tick number), wholly inside
                    assert square.contains(label), (code, item.text)
                    assert item.text == code or sheet.cells[code].kind == "tick", (code, item.text)


def test_leaders_never_cross_a_write_box(built):
    _, sheet, _, placements = built
    from shapely.geometry import LineString

    for code, p in placements.items():
        if p.leader:
            line = LineString(p.leader)
            for other, cell in numbers(sheet).items():
                if other != code:
                    assert not line.intersects(Polygon(cell.polygon)), (code, other)


def test_small_places_get_callouts():
    america = rolling_sheet._fitted("rolling-america", "a4").placements
    espana = rolling_sheet._fitted("rolling-espana", "a4").placements
    for code in ("RI", "DE", "CT", "NJ"):
        assert america[code].leader is not None
    for code in ("CE", "ML"):
        assert espana[code].leader is not None
    for code in ("TX", "CA", "MT"):
        assert america[code].leader is None
    for code in ("BA", "CC", "Z", "M"):
        assert espana[code].leader is None


@pytest.mark.parametrize("game", MAP_GAMES)
def test_pdf_text_in_both_languages(game, tmp_path):
    words = {"es": ["Ronda", "Cambio de color", "Resguardar", "Engaño", "Total de X", "Morado"],
             "en": ["Round", "Colour change", "Guard", "Dupe", "Xs in all", "Purple"]}
    for lang in LANGS:
        out = tmp_path / f"{lang}.pdf"
        sheet = GAMES[game].build(GAMES[game].default_variant, lang, "a4")
        from rnwprint.render import render

        out.write_bytes(render([sheet], "pdf")[0])
        text = pypdf.PdfReader(out).pages[0].extract_text()
        for word in words[lang]:
            assert word in text
    if game == "rolling-espana":
        assert "Instituto Geográfico Nacional" in text


def test_tick_boxes_for_the_round_track_and_powers(built):
    _, sheet, _, _ = built
    ticks = [cell for cell in sheet.cells.values() if cell.kind == "tick"]
    counts = {}
    for cell in ticks:
        counts[cell.counter] = counts.get(cell.counter, 0) + 1
    assert counts == {"rounds": 8, "colour_change": 3, "guard": 3, "dupe": 3}
