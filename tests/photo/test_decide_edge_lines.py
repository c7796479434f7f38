"""A line along a two-digit cell's edge (rnwprint.photo.split.without_edge_lines, edge_line):
the outline of a big box bowed in the photo leaves a line inside the crop along its side, read
as the 1 of an 11 or a 13, surely. The number is read without such ink too, and flagged where
that reads otherwise."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support import crafted

from rnwprint.games import GAMES
from rnwprint.photo import read as photo_read
from rnwprint.photo.decide import CellRead
from rnwprint.photo.split import EDGE_LINE_WHY, edge_line, without_edge_lines

R = 8.0  # px per mm: a 10 mm crop is 80 px, EDGE_LINE_MM 8 px


def crop_with(*lines) -> np.ndarray:
    """An 80 x 80 px crop: a 5 mm stroke in the middle (a digit, 160 px) and `lines` ((x0, y0,
    x1, y1) in px, 2 px wide)."""
    ink = np.zeros((80, 80), np.float32)
    ink[20:60, 38:42] = 1.0
    for x0, y0, x1, y1 in lines:
        cv2.line(ink, (x0, y0), (x1, y1), 1.0, 2)
    return ink


@pytest.mark.parametrize("x, left_out", [(5, True), (9, False)])
def test_a_line_along_the_side_within_a_millimetre_is_left_out(x, left_out):
    """A line down the crop 5 px in (its pixels 5-6: within 1 mm) is left out; 9 px in, kept."""
    ink = crop_with((x, 10, x, 70))
    bare = without_edge_lines(ink, R)
    assert (bare is not None) is left_out
    if left_out:
        assert not bare[:, :10].any() and np.array_equal(bare[:, 30:], ink[:, 30:])


def test_a_line_round_a_corner_is_left_out():
    """The outline's leftover along the left side and the bottom, in one piece."""
    bare = without_edge_lines(crop_with((3, 20, 3, 76), (3, 76, 60, 76)), R)
    assert bare is not None and not bare[:, :8].any() and not bare[72:].any() and bare[20:60, 38:42].all()


def test_a_speck_at_the_edge_or_ink_only_along_it_changes_nothing():
    """A 2 x 2 speck (2.4 % of the ink, under SPECK) is left to the splitter; ink only along the
    edge (a line, nothing else) is all there is to read."""
    speck = crop_with()
    speck[0:2, 0:2] = 1.0
    assert without_edge_lines(speck, R) is None
    only = np.zeros((80, 80), np.float32)
    cv2.line(only, (3, 10), (3, 70), 1.0, 2)
    assert without_edge_lines(only, R) is None


def test_a_crop_no_wider_than_two_bands_is_left_as_it_is():
    assert without_edge_lines(np.ones((16, 40), np.float32), R) is None


@pytest.mark.parametrize("line_px, left_out", [(7, False), (8, True)])
def test_ink_along_the_edge_counts_from_a_speck_s_share(line_px, left_out):
    """A 192 px digit and a line of 8 px along the edge: 4 % of the ink, SPECK's share, so it
    counts; 7 px (3.5 %) is a speck."""
    ink = np.zeros((80, 80), np.float32)
    ink[16:64, 38:42] = 1.0
    ink[10:10 + line_px, 2] = 1.0
    assert (without_edge_lines(ink, R) is not None) is left_out


@pytest.mark.parametrize("bare, flagged", [(13, False), (3, True)])
def test_the_two_reads_are_judged(bare, flagged):
    read = CellRead("A1", 13, 0.95, False)
    judged = edge_line(read, CellRead("A1", bare, 0.9, False))
    assert judged.value == 13 and judged.unsure is flagged
    assert judged.why == (EDGE_LINE_WHY.format(3) if flagged else "")


def tower_page(sheet, cell_id: str, line_mm: float | None) -> np.ndarray:
    """A tower page as printed, a 3 written in the middle of `cell_id`, and a pen line down the
    box `line_mm` in from its left outline (the crop starts 0.7 mm in)."""
    raw, _ = photo_read._printed(sheet, crafted.PX)
    page = (crafted.PAPER - (crafted.PAPER - crafted.PRINT) * raw.astype(np.float32)).astype(np.uint8)
    x0, y0, x1, y1 = sheet.cells[cell_id].bounds
    cx, cy = round((x0 + x1) / 2 * crafted.PX), round((y0 + y1) / 2 * crafted.PX)
    cv2.putText(page, "3", (cx - 18, cy + 24), cv2.FONT_HERSHEY_SIMPLEX, 1.8, crafted.PEN, 4)
    if line_mm is not None:
        x = round((x0 + line_mm) * crafted.PX)
        cv2.line(page, (x, round((y0 + 1.0) * crafted.PX)), (x, round((y1 - 1.0) * crafted.PX)), crafted.PEN, 2)
    return cv2.GaussianBlur(page, (0, 0), 0.7)


@pytest.mark.parametrize("line_mm, named", [(None, False), (1.0, True), (2.2, False)])
def test_a_tower_square_with_a_line_along_its_side_names_what_it_reads_without_it(line_mm, named, monkeypatch):
    """A 3 in a 19 mm square of the Leaning Tower: a line 1.0 mm in from the outline (0.3 mm
    into the crop) throws the read off (a 6, 63 % sure); read without it, the 3, named in
    the reason. 2.2 mm in (1.5 mm into the crop) the line is ink like any other."""
    sheet = GAMES["roll-to-the-top"].build("pisa", "en", "a4")
    page = tower_page(sheet, "C2", line_mm)
    got = photo_read.read_cells(page, sheet, crafted.PX, False, crafted.PX)["C2"]
    assert (EDGE_LINE_WHY.format(3) in got.why) is named
    if line_mm is None:
        assert (got.value, got.unsure) == (3, False)
    if named:
        assert got.unsure
        monkeypatch.setattr(photo_read, "without_edge_lines", lambda ink, px_per_mm: None)
        assert photo_read.read_cells(page, sheet, crafted.PX, False, crafted.PX)["C2"].value != 3
