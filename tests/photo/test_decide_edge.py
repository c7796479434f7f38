"""A number whose strokes run along its box's outline (rnwprint.photo.overflow.in_border,
along_edge): a Z-like 2 whose top and foot lie on the outline, a 3 or a 5 whose flat top does,
loses those strokes with the border left out of every cell and reads as another digit, surely
(a 2 as 1). The border's ink joined to the number is read too, and the two reads judged."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support import crafted
from test_photo_overflow import BOX, FLOOR, R, page_with

from rnwprint.games import GAMES
from rnwprint.photo import overflow
from rnwprint.photo import read as photo_read
from rnwprint.photo.decide import CellRead
from rnwprint.photo.ink import BORDER_MM, _darkness, _ink


def read_in_border(*strokes) -> tuple[np.ndarray, np.ndarray | None]:
    """The ink of the 10 mm box's crop and what in_border makes of it."""
    page, raw, printed, _ = page_with(*strokes)
    ink = _ink(_darkness(page, raw, printed, BOX, R, (0, 0)), FLOOR)
    return ink, overflow.in_border(page, raw, printed, BOX, R, (0, 0), FLOOR, ink)


Z_TWO = [(11.0, 10.4), (19.0, 10.4), (11.0, 19.6), (19.0, 19.6)]  # its top and foot 0.4 mm inside the outline


def test_a_z_like_two_s_top_and_foot_on_the_outline_are_read_back_from_the_border():
    ink, number = read_in_border(Z_TWO)
    rows = np.flatnonzero((ink > 0).any(axis=1))
    assert ink.shape == (68, 68) and number is not None and number.shape == (80, 80)  # the whole box
    # the crop holds only the diagonal, 0.7 mm in from the outline: no row of a bar in it
    assert (ink[rows[0]] > 0).sum() < 10 and (ink[rows[-1]] > 0).sum() < 10
    bars = (number > 0).sum(axis=1)
    assert bars[:8].max() > 40 and bars[-8:].max() > 40  # the top and the foot, 0.4 mm in
    assert (number[6:74, 6:74] > 0).sum() == pytest.approx((ink > 0).sum(), rel=0.1)


def test_a_number_kept_off_the_border_is_read_from_the_box_alone():
    assert read_in_border([(15.0, 12.0), (15.0, 18.0)])[1] is None


def test_print_residue_in_the_border_apart_from_the_number_is_left_out():
    """A line along the top of the box that the number does not touch: the print's leftovers."""
    assert read_in_border([(15.0, 12.0), (15.0, 18.0)], [(11.0, 10.4), (19.0, 10.4)])[1] is None


@pytest.mark.parametrize("length, added", [(2.0, False), (3.0, True)])
def test_the_border_s_ink_counts_from_a_seventh_of_the_number_s(length, added, monkeypatch):
    """A 1 with a flag along the top of the box: 2 mm of flag adds 14 % of the number's ink (its
    tip in the border, not a stroke), 3 mm adds 20 % (EDGE_SHARE: 15 %); the border's own ink,
    the outline not drawn back (the flag lies 0.4 mm from it: see the tests below)."""
    monkeypatch.setattr(overflow, "PEN_ON_OUTLINE", np.inf)
    _, number = read_in_border([(15.0 + length, 10.4), (15.0, 10.4), (15.0, 19.0)])
    assert (number is not None) is added


#: a Z-like 2 whose top and foot are drawn on the outline itself: taken away with the print
Z_ON_OUTLINE = [(11.5, 10.0), (18.5, 10.0), (11.5, 20.0), (18.5, 20.0)]


def pen_on_outline(*strokes, pen: int = 4, print_too=(), shift=(0, 0), page_grey=None) -> np.ndarray:
    """What pen_on_outline finds on page_with's page with pen `strokes` (mm, `pen` px wide) and
    more print (`print_too`, drawn as the sheet's too), the photo `shift`ed (rows, columns)."""
    page, raw, _, _ = page_with(print_too=print_too)
    for line in strokes:
        cv2.polylines(page, [(np.array(line) * R).astype(np.int32)], False, 40, pen)
    for line in print_too:
        cv2.polylines(raw, [(np.array(line) * R).astype(np.int32)], False, 1, 3)
    if page_grey is not None:
        page[:] = page_grey
    page = np.roll(page, shift, axis=(0, 1))
    return overflow.placed(overflow.pen_on_outline(page, raw, BOX, R, shift), BOX, R, BORDER_MM)


def test_a_stroke_on_the_outline_is_drawn_back_where_it_lies():
    """The 2's top and foot, 7 mm each along the outline (1 mm in from the corners, CORNER_MM:
    columns 8-72 of the 80 px crop): drawn back as wide as the band across the outline (its
    inner half, 5 px, in in_border's crop, out to the outline's middle), there and nowhere else."""
    redrawn = pen_on_outline(Z_ON_OUTLINE)
    assert redrawn.shape == (80, 80)
    top, foot = np.flatnonzero(redrawn[0]), np.flatnonzero(redrawn[-1])
    assert 10 <= top.min() <= 14 and 66 <= top.max() <= 70 and 10 <= foot.min() <= 14 and 66 <= foot.max() <= 70
    assert redrawn[:5].any(axis=0).sum() == redrawn[:5].all(axis=0).sum() == len(top)
    assert not redrawn[5:-5].any()  # not the sides, nor the middle


@pytest.mark.parametrize("x, columns", [(10.0, slice(0, 5)), (20.0, slice(75, 80))])
def test_a_stroke_on_a_side_of_the_outline_is_drawn_back_down_it(x, columns):
    """A 1 drawn down the left (or right) outline from 12 to 18 mm: drawn back down that side
    (rows 16-64 of the 80 px crop, about), as on the top and the bottom."""
    redrawn = pen_on_outline([(x, 12.0), (x, 18.0)])
    rows = np.flatnonzero(redrawn[:, columns].all(axis=1))
    assert 10 <= rows.min() <= 18 and 56 <= rows.max() <= 66
    assert redrawn.sum() == redrawn[:, columns].sum()


def test_a_z_like_two_on_the_outline_is_read_back_with_its_top_and_foot():
    page, raw, printed, _ = page_with(Z_ON_OUTLINE)
    ink = _ink(_darkness(page, raw, printed, BOX, R, (0, 0)), FLOOR)
    number = overflow.in_border(page, raw, printed, BOX, R, (0, 0), FLOOR, ink)
    assert number is not None
    bars = (number > 0).sum(axis=1)
    assert bars[:2].min() > 40 and bars[-2:].min() > 40  # 2-3 px of each, as the crops round


@pytest.mark.parametrize("on_outline, foot", [(1.5, True), (np.inf, False)])
def test_a_number_over_the_box_s_edge_is_read_whole_with_its_stroke_on_the_outline(on_outline, foot, monkeypatch):
    """A 2 whose top runs 1.2 mm above the box and whose foot lies on the bottom outline: read
    whole (overflow.outside, the box grown by 2 mm: 112 px, the outline at row 96), the foot is
    drawn back too; without (PEN_ON_OUTLINE never reached), it is lost with the print."""
    monkeypatch.setattr(overflow, "PEN_ON_OUTLINE", on_outline)
    page, raw, printed, around = page_with([(11.5, 8.8), (18.5, 8.8), (11.5, 20.0), (18.5, 20.0)])
    number = overflow.outside(page, raw, printed, around, BOX, R, (0, 0), FLOOR)[0]
    assert number is not None and number.shape == (112, 112)
    assert ((number[93:99] > 0).sum(axis=1) > 40).any() == foot


def test_a_stroke_on_the_outline_apart_from_the_number_is_left_out_of_it():
    """The same 2 read whole, and a stroke down the left outline (13-17 mm) that touches it
    nowhere: found on the outline, but not the number's (column 16 of the crop, rows 40-72)."""
    page, raw, printed, around = page_with([(11.5, 8.8), (18.5, 8.8), (11.5, 20.0), (18.5, 20.0)],
                                           [(10.0, 13.0), (10.0, 17.0)])
    assert overflow.placed(overflow.pen_on_outline(page, raw, BOX, R, (0, 0)), BOX, R, 2.7)[40:72, 12:21].any()
    number = overflow.outside(page, raw, printed, around, BOX, R, (0, 0), FLOOR)[0]
    assert number is not None and not number[40:72, 10:22].any()
    assert ((number[93:99] > 0).sum(axis=1) > 40).any()  # the foot, joined to the diagonal


@pytest.mark.parametrize("foot, drawn", [(0.0, False), (1.0, True)])
def test_a_stroke_on_the_outline_counts_from_a_millimetre(foot, drawn):
    """ON_OUTLINE_RUN_MM: a 1 crossing the outline overdraws its pen's width of it (0.5 mm);
    with a foot 1 mm along it, 1.5 mm."""
    stroke = [(15.0, 15.0), (15.0, 20.0), (15.0 + foot, 20.0)] if foot else [(15.0, 15.0), (15.0, 20.5)]
    assert pen_on_outline(stroke).any() == drawn


@pytest.mark.parametrize("hot, run, kept", [
    ([0, 1, 1, 1, 0, 1, 1, 0], 3, [0, 1, 1, 1, 0, 0, 0, 0]),
    ([1, 1, 1, 0, 0, 1, 1, 1], 3, [1, 1, 1, 0, 0, 1, 1, 1]),  # runs at either end
    ([1, 1, 0, 1, 1, 1, 1, 0], 4, [0, 0, 0, 1, 1, 1, 1, 0]),
])
def test_runs_are_kept_whole_from_their_length_on(hot, run, kept):
    assert overflow._runs(np.array(hot, bool), run).tolist() == [bool(k) for k in kept]


@pytest.mark.parametrize("pen, drawn", [(2, False), (4, True)])
def test_only_a_stroke_wider_than_the_outline_is_the_pen(pen, drawn):
    """PEN_ON_OUTLINE: a 2 px line where the outline is 2 px wide leaves what the outline alone
    does (a sheet printed slightly bolder); a 4 px pen over it, 1.5 times that or more."""
    assert pen_on_outline([(12.0, 20.0), (18.0, 20.0)], pen=pen).any() == drawn


def test_a_photo_off_the_print_by_a_few_pixels_is_looked_at_where_the_box_is():
    """The reader's registration `shift`: the page 3 px down and 2 px left of the print."""
    assert np.array_equal(pen_on_outline(Z_ON_OUTLINE, shift=(3, -2)), pen_on_outline(Z_ON_OUTLINE))


def test_a_box_whose_band_runs_off_the_photo_or_whose_outline_does_not_show_draws_nothing():
    assert not pen_on_outline(Z_ON_OUTLINE, shift=(-80, 0)).any()  # the band starts 76 px down: 4 px off the page
    assert not pen_on_outline(page_grey=230).any()  # paper only: no outline's ink to weigh the pen against


def test_an_edge_printed_thicker_is_no_pen():
    """A tower's inner edges are two boxes' outlines, twice as thick as the outer ones: as
    much more ink across them as print drawn there."""
    page, raw, _, _ = page_with()
    cv2.line(raw, (80, 160), (160, 160), 1, 4)
    page[raw > 0] = 60
    assert not overflow.pen_on_outline(page, raw, BOX, R, (0, 0)).any()


@pytest.mark.parametrize("x0, drawn", [(9.6, False), (14.0, True)])
def test_the_corners_are_not_looked_at(x0, drawn):
    """A 1.2 mm stroke on the bottom outline: from the corner (CORNER_MM, where the sides'
    outlines cross the band) nothing is drawn back; in the middle it is."""
    assert pen_on_outline([(x0, 20.0), (x0 + 1.2, 20.0)]).any() == drawn


def test_other_print_crossing_the_outline_is_not_the_pen():
    """A map's border printed across the box's foot, the ink across the outline there twice the
    outline's: more print there than the outline's own."""
    assert not pen_on_outline(print_too=[[(14.0, 18.0), (14.0, 22.0)], [(16.0, 18.0), (16.0, 22.0)]]).any()


def read(value, confidence: float, unsure: bool = False) -> CellRead:
    return CellRead("IL", value, confidence, unsure, "some reason" if unsure else "")


@pytest.mark.parametrize("inside, whole, value, flagged", [
    (read(1, 0.97), read(1, 0.9), 1, False),  # the same number: the box's read stands
    (read(1, 0.97), read(2, 0.99), 1, True),  # another: the sure read stands, flagged
    (read(1, 0.6, True), read(2, 0.9), 2, True),  # unsure without the border: the surer, flagged
    (read(1, 0.6, True), read(2, 0.5, True), 1, True),
    (read(1, 0.5, True), read(2, 0.6, True), 2, True),
])
def test_the_two_reads_are_judged(inside, whole, value, flagged):
    judged = overflow.along_edge(inside, whole)
    assert (judged.value, judged.unsure) == (value, flagged)
    if flagged:
        assert judged.why == "the number's strokes run along the box's outline; read with them, it is 2"


def map_page_with_z_two(cell_id: str) -> tuple[object, np.ndarray]:
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    page = crafted.blank_page(sheet)
    x0, y0, x1, y1 = sheet.cells[cell_id].bounds
    z = [(x0 + 1.2, y0 + 0.35), (x1 - 0.8, y0 + 0.35), (x0 + 1.4, y1 - 0.35), (x1 - 1.0, y1 - 0.35)]
    cv2.polylines(page, [(np.array(z) * crafted.PX).astype(np.int32)], False, crafted.PEN, 5)
    return sheet, cv2.GaussianBlur(page, (0, 0), 0.7)


@pytest.mark.parametrize("cell_id", ["IL", "KS", "TX"])
def test_a_z_like_two_on_a_map_is_no_sure_one(cell_id):
    sheet, page = map_page_with_z_two(cell_id)
    got = photo_read.read_cells(page, sheet, crafted.PX, True, crafted.PX)[cell_id]
    assert got.value == 1 and got.unsure
    assert got.why == "the number's strokes run along the box's outline; read with them, it is 2"


def test_a_coarse_photo_s_border_is_not_read():
    """Below COARSE_BELOW px/mm the outline's blur fills the border: its ink is not the pen's."""
    sheet, page = map_page_with_z_two("IL")
    got = photo_read.read_cells(page, sheet, crafted.PX, True, photo_read.COARSE_BELOW - 0.1)["IL"]
    assert "outline" not in got.why


def whole_with_strokes_along(*strokes) -> np.ndarray | None:
    page, raw, printed, around = page_with(*strokes)
    return overflow.outside(page, raw, printed, around, BOX, R, (0, 0), FLOOR, along=True)[0]


#: a Z-like 2 bigger than its box: its top bar inside the box, its foot 0.9 mm below the box's
#: bottom edge, along it
Z_TWO_OVER = [(12.0, 12.0), (18.0, 12.0), (12.0, 20.9), (18.0, 20.9)]


def test_a_foot_along_the_outside_of_the_box_s_edge_is_read_with_the_number():
    """Followed out of the box, a stroke along the box's edge is the print's residue
    (test_photo_overflow); read again with such strokes kept, the foot is there: 4.5 mm of
    bar 0.9 mm below the box (the crop starts 8 mm down and in: row 103, columns 32-80)."""
    page, raw, printed, around = page_with(Z_TWO_OVER)
    assert overflow.outside(page, raw, printed, around, BOX, R, (0, 0), FLOOR)[0] is None
    number = whole_with_strokes_along(Z_TWO_OVER)
    assert number is not None
    foot = (number[100:107] > 0).any(axis=0)
    assert 30 <= np.flatnonzero(foot).min() <= 36 and np.flatnonzero(foot).max() >= 78
    assert (number[30:34] > 0).sum(axis=1).max() > 40  # the top bar, inside the box (row 32)


def test_a_number_inside_its_box_has_no_strokes_along_its_edge():
    assert whole_with_strokes_along([(15.0, 12.0), (15.0, 18.0)]) is None
    assert whole_with_strokes_along([(15.0, 12.0), (15.0, 19.5)], [(18.0, 22.5), (23.0, 22.5)]) is None  # apart


@pytest.mark.parametrize("apart, kept", [(1.2, False), (1.6, True)])
def test_a_line_along_the_box_near_other_print_is_that_print_s_trace(apart, kept):
    """A map border printed below the box, parallel to the foot `apart` mm from it: within
    ALONG_PRINT_MM of the foot's edge (a 0.5 mm pen, the print widened to 0.6 mm: 1.2 mm apart
    leaves 0.65 mm between them) the foot may be the border's trace; 1.6 mm apart (1.05 mm between) the pen's."""
    page, raw, printed, around = page_with(Z_TWO_OVER, print_too=[[(11.0, 20.9 + apart), (19.0, 20.9 + apart)]])
    number = overflow.outside(page, raw, printed, around, BOX, R, (0, 0), FLOOR, along=True)[0]
    assert (number is not None and bool((number[100:107] > 0).any())) is kept


@pytest.mark.parametrize("first, again, value, flagged", [
    (read(1, 0.97), read(1, 0.9), 1, False),  # the same number: the box's read stands
    (read(1, 0.97), read(2, 0.99), 1, True),  # another: flagged, naming it
    (read(1, 0.6, True), read(2, 0.9), 1, True),  # unsure already: its reason kept, this one added
])
def test_a_read_with_the_strokes_along_the_edge_is_judged(first, again, value, flagged):
    judged = overflow.along_outside(first, again)
    assert (judged.value, judged.unsure) == (value, flagged)
    if flagged:
        assert judged.why.endswith("the number's strokes run along the box's edge outside it; read with them, it is 2")
        assert judged.why.startswith("some reason") == first.unsure


def test_a_z_like_two_over_a_map_box_s_foot_is_no_sure_one():
    """A Z-like 2 written bigger than its map box, its foot along the outside of the box's
    bottom edge (a big hand's 2, read from the box alone as a sure 1): flagged."""
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    page = crafted.blank_page(sheet)
    x0, y0, x1, y1 = sheet.cells["KS"].bounds
    z = [(x0 + 1.5, y0 + 1.5), (x1 - 1.5, y0 + 1.5), (x0 + 1.5, y1 + 0.9), (x1 - 1.0, y1 + 0.9)]
    cv2.polylines(page, [(np.array(z) * crafted.PX).astype(np.int32)], False, crafted.PEN, 5)
    got = photo_read.read_cells(cv2.GaussianBlur(page, (0, 0), 0.7), sheet, crafted.PX, True, crafted.PX)["KS"]
    assert got.unsure and "along the box's edge outside it" in got.why
