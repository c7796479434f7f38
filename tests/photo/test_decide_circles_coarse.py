"""A circled number in a photo coarser than the reader advises: written half as big as a
plain one, it is sure only from 85 %."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support.crafted import PEN, PX, blank_page, sure_of

from rnwprint.core.entries import Guarded
from rnwprint.core.sheet import Cell
from rnwprint.games import GAMES
from rnwprint.photo import ink as photo_ink
from rnwprint.photo import read as photo_read



def circled_three_page(sheet):
    """A clean page of `sheet` with a 3 in a guard circle, drawn well inside its first box."""
    page = blank_page(sheet)
    cell = next(iter(sheet.cells.values()))
    r0, r1, c0, c1 = photo_ink._cell_crop(cell, PX)
    middle = ((c0 + c1) // 2, (r0 + r1) // 2)
    half = min(r1 - r0, c1 - c0) // 2
    cv2.ellipse(page, middle, (int(half * 0.8),) * 2, 0, 0, 360, PEN, 3)
    cv2.putText(page, "3", (middle[0] - half // 4, middle[1] + half // 4), cv2.FONT_HERSHEY_SIMPLEX,
                half / 40, PEN, 3)
    return page, cell


@pytest.mark.parametrize("photo_px_per_mm, small", [(3.9, True), (4.0, False), (8.0, False)])
def test_a_circled_number_is_small_in_a_photo_coarser_than_advised(photo_px_per_mm, small):
    """A circled number is drawn half as big as a plain one: in a photo under the 4 px/mm the
    reader advises it is marked small (see the next test)."""
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    page, cell = circled_three_page(sheet)
    _, written = photo_read.separate(page, sheet, PX, True, photo_px_per_mm)
    (w,) = written
    assert w.cell.id == cell.id and w.circled and w.small == small


@pytest.mark.parametrize("sure, small, flagged", [(0.84, True, True), (0.85, True, False), (0.86, True, False),
                                                  (0.84, False, False), (0.69, False, True)])
def test_a_small_circled_number_is_sure_only_from_85_percent(sure, small, flagged):
    """A circled number read from a coarse photo below 85 % sure is flagged with its best
    guess; elsewhere the usual 70 %. Its guard stays either way."""
    map_box = Cell("WA", ((0, 0), (7, 0), (7, 7), (0, 7)), low=1, high=6)
    probs = sure_of("3", sure, "5")
    w = photo_read.Written(map_box, [np.zeros((40, 40), np.float32)], False, True, 0.1, (0.0, 0.0), small=small)
    read = photo_read.read_written(w, probs, second=probs)
    assert read.value == Guarded(3) and read.unsure == flagged
    assert read.why == (f"best guess {sure:.0%} sure" if flagged else "")
