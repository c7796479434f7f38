"""The photo generator the reader's tests and benchmarks use (tests/support/synth.py):
deterministic, its options checked, ink only where the marks go."""

from __future__ import annotations


import cv2
import numpy as np
import pytest

from rnwprint.core.entries import Guarded
from rnwprint.games import GAMES
from rnwprint.photo import locate as L
from rnwprint.photo.load import decode_photo
from support import synth



@pytest.fixture(scope="module")
def sheets():
    return {name: g.build(g.default_variant, "en", "a4") for name, g in GAMES.items()}


def test_generator_is_deterministic_and_checks_its_options(sheets):
    sheet = sheets["roll-to-the-top"]
    marks = {"A1": 12, "A2": "X", "B1": Guarded(3)}
    first = synth.make_photo(sheet, marks, 21, 1.0)
    assert first == synth.make_photo(sheet, marks, 21, 1.0)
    assert first != synth.make_photo(sheet, marks, 22, 1.0)
    assert synth.frame_size(12.0) == (4000, 3000)
    with pytest.raises(TypeError, match="unknown photo option"):
        synth.make_photo(sheet, {}, 1, 1.0, tilts=3)
    with pytest.raises(KeyError, match="no cell 'Z9'"):
        synth.make_photo(sheet, {"Z9": 1}, 1, 1.0)


def test_generator_writes_into_the_cells(sheets):
    """Ink lands in the marked cells and nowhere else."""
    sheet = sheets["twenty-one"]
    marks = {"R1C1": 4, "R2C3": "X", "R3C5": 35}
    clean = synth.synthesize(sheet, {}, 5, 2.0, blur=0, noise=0, light=0, shadow=0, curl=0, jpeg_quality=95)
    filled = synth.synthesize(sheet, marks, 5, 2.0, blur=0, noise=0, light=0, shadow=0, curl=0, jpeg_quality=95)
    a, b = (decode_photo(p.jpeg).astype(int) for p in (clean, filled))
    fix = L.locate(b.astype(np.uint8))
    for cell_id, cell in sheet.cells.items():
        x0, y0, x1, y1 = cell.bounds
        inner = np.array([(x0 + 2, y0 + 2), (x1 - 2, y0 + 2), (x1 - 2, y1 - 2), (x0 + 2, y1 - 2)])
        mask = np.zeros(a.shape, np.uint8)
        cv2.fillConvexPoly(mask, fix.to_image(inner).astype(np.int32), 1)
        darker = ((a - b) > 40)[mask > 0].mean()
        assert (darker > 0.02) == (cell_id in marks), cell_id
