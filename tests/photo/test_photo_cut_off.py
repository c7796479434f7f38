"""A page that runs out of the photo (one corner left out, three markers found): the cells
beyond the photo's edge are flagged for what they are, never read silently, never blamed on
the light."""

from __future__ import annotations

import io
import types

import numpy as np
import pytest
from PIL import Image
from support import synth

from rnwprint.core.report import light_text
from rnwprint.core.sheet import Cell
from rnwprint.games import GAMES
from rnwprint.photo.pipeline import OUTSIDE, _outside_flagged, read_photo, typed_in_text
from rnwprint.photo.read import CellRead


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    """A tilted 6 MP photo of a Twenty One sheet, whole and with its bottom cut off through
    the last two rows' right-hand cells (the bottom-right marker lost with them)."""
    folder = tmp_path_factory.mktemp("cut")
    sheet = GAMES["twenty-one"].build("C", "en", "letter")
    whole = synth.make_photo(sheet, synth.random_marks(sheet, 11), seed=11, megapixels=6.0)
    (folder / "whole.jpg").write_bytes(whole)
    image = Image.open(io.BytesIO(whole))
    image.crop((0, 0, image.width, 1250)).save(folder / "cut.jpg", quality=92)
    return read_photo(folder / "whole.jpg"), read_photo(folder / "cut.jpg")


def box_in_photo(result, cid: str, margin_mm: float) -> bool:
    x0, y0, x1, y1 = result.sheet.cells[cid].bounds
    corners = result.fix.to_image([(x0 - margin_mm, y0 - margin_mm), (x1 + margin_mm, y1 + margin_mm),
                                   (x0 - margin_mm, y1 + margin_mm), (x1 + margin_mm, y0 - margin_mm)])
    w, h = result.fix.image_size
    return bool((corners >= 0).all() and (corners[:, 0] < w).all() and (corners[:, 1] < h).all())


def test_cells_beyond_the_photo_s_edge_are_flagged_and_the_rest_read_as_in_the_whole_photo(photos):
    whole, cut = photos
    assert len(cut.fix.markers) == 3
    flagged = sorted(cid for cid, r in cut.reads.items() if r.why == OUTSIDE)
    assert {"R4C6", "R5C5", "R5C6"} <= set(flagged)
    assert all(r.unsure and r.light == "outside" for cid, r in cut.reads.items() if cid in flagged)
    assert all(not box_in_photo(cut, cid, 0.5) for cid in flagged)
    assert not any(r.light == "bright" for r in cut.reads.values())  # the white beyond the edge is no light
    for cid in cut.sheet.cells:
        if box_in_photo(cut, cid, 3.0):
            assert cut.reads[cid].value == whole.reads[cid].value, cid
    assert not any(r.why == OUTSIDE for r in whole.reads.values())


def test_the_typed_in_file_and_the_notes_say_the_page_runs_out_of_the_photo(photos):
    _, cut = photos
    cells = sum(r.why == OUTSIDE for r in cut.reads.values())
    assert cut.light == {"outside": cells}
    assert f"The page runs out of the photo: {cells} cell(s) lie partly outside it" in cut.advice()
    assert "La hoja se sale de la foto" in cut.advice("es")
    text = typed_in_text(cut)
    assert text.count("# UNSURE: part of the box is outside the photo") == cells


def fix_of(scale: float, size: tuple[int, int]):
    """A photo seeing the page straight on, `scale` px a mm, page (0, 0) at pixel (0, 0)."""
    return types.SimpleNamespace(image_size=size, to_image=lambda pts: np.asarray(pts, float) * scale)


@pytest.mark.parametrize("gap_mm, flagged", [(0.3, True), (0.7, False), (-2.0, True)])
def test_a_box_nearer_the_photo_s_edge_than_half_a_millimetre_is_flagged(gap_mm, flagged):
    """A 100 x 50 mm photo at 10 px/mm; a 10 mm box `gap_mm` from its right edge."""
    x1 = 100 - gap_mm
    cell = Cell("A1", ((x1 - 10, 20), (x1, 20), (x1, 30), (x1 - 10, 30)))
    sheet = types.SimpleNamespace(cells={"A1": cell})
    read = {"A1": CellRead("A1", 4, 0.99, False)}
    out = _outside_flagged(read, sheet, fix_of(10.0, (1001, 501)))
    assert (out["A1"].why == OUTSIDE and out["A1"].unsure and out["A1"].value == 4) == flagged
    assert (out["A1"] == read["A1"]) == (not flagged)


def test_the_report_names_cells_outside_the_photo_in_either_language():
    assert light_text({"outside": 3}, 60, "en").startswith("The page runs out of the photo: 3 cell(s)")
    assert light_text({"outside": 3, "dark": 2}, 60, "es").count("casilla(s)") == 2
