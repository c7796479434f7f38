"""Each box registered to its own print in the rectified page: paper curl moves boxes a
little off the plane fitted through the markers, and each is found where it is, looked for
first near the shift of the closest box already found."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rnwprint.games import GAMES
from rnwprint.photo import printed
from rnwprint.photo import read as photo_read


@pytest.mark.parametrize("name", ["twenty-one", "rolling-espana", "roll-to-the-top"])
@pytest.mark.parametrize("off", [(2, -3), (-4, 1), (0, 0)])
def test_a_box_the_homography_put_off_is_found_where_it_is(name, off):
    """Paper curl moves boxes a little off the plane fitted through the markers: each box is
    matched to its print, and the ink is taken from where the box really is."""
    game = GAMES[name]
    sheet = game.build(game.variants[0], "en", "a4")
    raw, _ = photo_read._printed(sheet, 8.0)
    page = cv2.GaussianBlur((255 - 200 * raw).astype(np.uint8), (0, 0), 1.0)
    page = np.roll(page, off, axis=(0, 1))
    shifts = [photo_read._shift(page, raw, cell, 8.0) for cell in sheet.cells.values()]
    assert sum(s == off for s in shifts) >= 0.95 * len(shifts)
    # the reads carry where each box was found (--annotate draws it there), and all read blank
    reads = photo_read.read_cells(page, sheet, 8.0, game.allows_guarded, 8.0)
    found = (off[1] / 8.0, off[0] / 8.0)
    assert sum(r.offset_mm == found for r in reads.values()) >= 0.95 * len(reads)
    assert all(r.value in (None, False) for r in reads.values())


@pytest.mark.parametrize("near", [(-10, 10), (12, 12), (3, -3), (2, -1), (0, 0),
                                  (5, -3), (-1, -3), (2, 0), (2, -6)])  # the box just past each edge
def test_a_box_looked_for_near_another_ones_shift_is_found_where_it_is(near):
    """Registration looks for a box first within NEAR_PX of the shift of a box close by: a
    guess one pixel off still finds the box where it is, and a guess far off (a neighbour
    matched wrongly) falls back to the whole search instead of settling on its small window."""
    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    raw, _ = photo_read._printed(sheet, 8.0)
    page = np.roll(cv2.GaussianBlur((255 - 200 * raw).astype(np.uint8), (0, 0), 1.0), (2, -3), axis=(0, 1))
    cells = list(sheet.cells.values())
    shifts = [photo_read._shift(page, raw, cell, 8.0, near=near) for cell in cells]
    assert shifts.count((2, -3)) >= 0.95 * len(cells)
    assert shifts == [photo_read._shift(page, raw, cell, 8.0) for cell in cells]


def test_registering_a_curled_page_box_by_box_finds_each_box_where_it_is():
    """Boxes move by different amounts across a curled page: each is found where it is,
    guided by its neighbours or not."""
    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    raw, _ = photo_read._printed(sheet, 8.0)
    page = cv2.GaussianBlur((255 - 200 * raw).astype(np.uint8), (0, 0), 1.0)
    rows = np.arange(page.shape[0], dtype=np.float32)[:, None]
    cols = np.arange(page.shape[1], dtype=np.float32)[None, :]
    dx = np.broadcast_to(-8 + 16 * cols / page.shape[1], page.shape)  # -8 px on the left to +8 on the right
    curled = cv2.remap(page, (cols - dx).astype(np.float32), np.broadcast_to(rows, page.shape).astype(np.float32),
                       cv2.INTER_LINEAR, borderValue=255)
    registration = photo_read.Registration(curled, raw, 8.0)
    for cell in sheet.cells.values():
        x0, _, x1, _ = cell.bounds
        expected = -8 + 16 * ((x0 + x1) / 2 * 8.0) / page.shape[1]
        got = registration.shift(cell)
        assert got == photo_read._shift(curled, raw, cell, 8.0)
        assert abs(got[1] - expected) <= 1.5 and got[0] == 0, cell.id


def test_a_box_with_nothing_to_match_or_too_near_the_edge_stays_where_the_fit_put_it():
    """No print to match (a blank page) or a search window running off the page: the box
    is not moved; a window that just fits is searched."""
    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    raw, _ = photo_read._printed(sheet, 8.0)
    blank = np.full(raw.shape, 255, np.uint8)
    assert {photo_read._shift(blank, raw, cell, 8.0, near=(1, 1)) for cell in sheet.cells.values()} == {(0, 0)}
    page = np.roll(cv2.GaussianBlur((255 - 200 * raw).astype(np.uint8), (0, 0), 1.0), (2, -3), axis=(0, 1))
    cell = sheet.cells["R1C1"]
    x0, y0, x1, y1 = cell.bounds
    s = round(printed.REGISTER_SEARCH_MM * 8)
    right, bottom = round((x1 + printed.REGISTER_PAD_MM) * 8) + s, round((y1 + printed.REGISTER_PAD_MM) * 8) + s
    assert photo_read._shift(page[:bottom, :right], raw, cell, 8.0) == (2, -3)
    assert photo_read._shift(page[:bottom - 1, :right], raw, cell, 8.0) == (0, 0)
    assert photo_read._shift(page[:bottom, :right - 1], raw, cell, 8.0) == (0, 0)


def test_each_box_is_looked_for_near_the_closest_box_found_before(monkeypatch):
    """The guess is the shift of the closest box already found within NEAR_MM; where the fit
    put the box (no shift) when no box found so far is that close (the first box, or one far
    from the others)."""
    sheet = GAMES["rolling-espana"].build("classic", "en", "a4")
    asked = []

    def recording(page, raw, cell, px_per_mm, near=None):  # each box found at a shift of its own
        asked.append(near)
        return (len(asked), -len(asked)), 1.0

    monkeypatch.setattr(printed, "_register", recording)
    registration = printed.Registration(None, None, 8.0)
    found, alone = [], 0
    for cell in sheet.cells.values():
        x0, y0, x1, y1 = cell.bounds
        centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
        shift = registration.shift(cell)
        distances = [np.linalg.norm(centre - c) for c, _ in found]
        closest = int(np.argmin(distances)) if found else None
        near = bool(found) and distances[closest] <= printed.NEAR_MM
        alone += not near
        assert asked[-1] == (found[closest][1] if near else (0, 0)), cell.id
        found.append((centre, shift))
    assert asked[0] == (0, 0) and 0 < alone < len(asked) / 4
