"""A number written over its box's edge (rnwprint.photo.overflow): its ink is followed out of
the box and the number read whole; ink that only seems to carry on out of the box (another
box's number reaching in, the print's residue along the box, the print itself) is left out."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support import synth, synth_ink

from rnwprint.core.entries import CROSSED
from rnwprint.core.sheet import Cell
from rnwprint.games import GAMES
from rnwprint.photo import overflow
from rnwprint.photo.decide import CellRead
from rnwprint.photo.pipeline import read_photo

R = 8.0  # px per mm
BOX = Cell("A", ((10.0, 10.0), (20.0, 10.0), (20.0, 20.0), (10.0, 20.0)), low=1, high=6)
FLOOR = 0.14  # the reader's ink floor (ink.INK_DARKNESS)


def page_with(*strokes, print_too=()) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A 30 x 30 mm page (grey 230 paper, the 10 mm box's outline printed at grey 60) with
    pen `strokes` (mm polylines, 0.5 mm wide, grey 40) and more print (`print_too`, mm
    polylines) near the box: the page, the print as drawn, widened, and drawn round the box."""
    page = np.full((240, 240), 230, np.uint8)
    raw = np.zeros((240, 240), np.uint8)
    cv2.rectangle(raw, (80, 80), (159, 159), 1, 2)
    around = raw.copy()
    for line in print_too:
        cv2.polylines(around, [(np.array(line) * R).astype(np.int32)], False, 1, 3)
    page[around > 0] = 60
    for line in strokes:
        cv2.polylines(page, [(np.array(line) * R).astype(np.int32)], False, 40, 4)
    widened = cv2.dilate(raw, np.ones((3, 3), np.uint8))
    return page, raw, widened, cv2.dilate(around, np.ones((3, 3), np.uint8))


def whole_number(*strokes, print_too=()) -> np.ndarray | None:
    page, raw, printed, around = page_with(*strokes, print_too=print_too)
    return overflow.outside(page, raw, printed, around, BOX, R, (0, 0), FLOOR)[0]


def test_a_stroke_run_out_through_the_bottom_is_followed_out():
    """A 1 written low: its foot runs 1.5 mm past the box's bottom edge. The number read whole
    (over the box grown by OVER_MM) holds the foot, and the stroke across the outline (taken
    away with the print) is closed."""
    number = whole_number([(15.0, 13.0), (15.0, 21.5)])
    assert number is not None and number.shape == (112, 112)  # (10 + 2 x 2) mm at 8 px/mm
    rows = np.flatnonzero(number[:, 56] > 0)
    # the crop starts 8 mm down: 13 mm down to 21.5 mm (rows 40 to 108), a 0.5 mm pen
    assert 38 <= rows.min() <= 41 and 107 <= rows.max() <= 111
    assert np.all(np.diff(rows) == 1)  # one unbroken stroke across the outline
    assert not number[:, :50].any() and not number[:, 63:].any()  # nothing else


def test_a_stroke_run_out_through_the_left_side_is_followed_out():
    number = whole_number([(18.0, 15.0), (8.6, 15.0)])
    assert number is not None
    columns = np.flatnonzero(number[56] > 0)  # the crop starts 8 mm in: 8.6 mm to 18 mm, columns 5 to 80
    assert 3 <= columns.min() <= 6 and 79 <= columns.max() <= 82 and np.all(np.diff(columns) == 1)
    assert not number[:50].any() and not number[63:].any()


def test_a_number_inside_its_box_is_not_followed_out():
    assert whole_number([(15.0, 12.0), (15.0, 18.0)]) is None
    assert whole_number([(15.0, 12.0), (15.0, 19.1)]) is None  # down to the crop's edge, no further


def test_a_little_ink_out_of_the_box_is_not_a_number_run_over():
    """Out of the box by under OVER_SHARE of the ink inside: a tail of the pen, read as it is."""
    assert whole_number([(15.0, 12.0), (15.0, 20.9)]) is None
    assert whole_number([(15.0, 12.0), (15.0, 21.5)]) is not None


def test_another_box_s_number_reaching_into_this_one_is_left_out():
    """A stroke that comes in from beyond OVER_MM (the box below's number run up into this
    one) is no part of this box's number, though what it joins inside is bigger."""
    assert whole_number([(15.0, 12.0), (15.0, 25.0)]) is None
    assert whole_number([(15.0, 12.0), (15.0, 21.6)]) is not None  # ending within OVER_MM: followed


def tails_of(*strokes) -> np.ndarray | None:
    page, raw, printed, around = page_with(*strokes)
    return overflow.outside(page, raw, printed, around, BOX, R, (0, 0), FLOOR)[1]


def test_the_tail_of_another_box_s_number_reaching_in_is_told():
    """A 5-like number in the box and, on its right, the loop of the next box's 8 bulging 1.5
    mm in over the edge (it goes on 3 mm beyond): that piece inside is the 8's tail, marked in
    the cell's own crop (the box less BORDER_MM each side: pixels 86-153); the 5 is not."""
    five = [(13.0, 12.0), (13.0, 15.0), (16.0, 15.0), (16.0, 18.0), (12.5, 18.0)]
    loop = [(23.0, 13.0), (18.5, 14.5), (23.0, 16.0)]
    tails = tails_of(five, loop)
    assert tails is not None and tails.shape == (68, 68)
    cols = np.flatnonzero(tails.any(axis=0))
    assert 60 <= cols.min() <= 63 and cols.max() == 67  # from the loop's tip (18.5 mm) to the crop's edge
    assert not tails[:, :50].any()  # nothing of the 5
    assert tails_of(five) is None  # a number alone has no tail
    assert tails_of(five, [(23.0, 13.0), (19.6, 14.5), (23.0, 16.0)]) is None  # reaching only the border


def test_a_tail_half_the_ink_inside_is_this_box_s_own():
    """A stroke from beyond the box joined to as much ink inside as the box's whole number is
    the number's own long stroke (a 7's tail run far out), not another's: no tail."""
    assert tails_of([(13.0, 12.0), (17.0, 12.0), (15.0, 25.0)]) is None


def test_a_stroke_bigger_out_of_the_box_than_in_it_is_another_box_s():
    assert whole_number([(15.0, 18.5), (15.0, 21.6), (12.0, 21.6)]) is None


def test_ink_along_the_box_s_edge_is_print_residue_not_a_stroke():
    """A line running along the box just outside its bottom edge (a map border, misprinted,
    left by the print's removal) touches the number's foot: it runs along the edge, not across."""
    assert whole_number([(15.0, 12.0), (15.0, 19.5)], [(12.5, 21.0), (17.5, 21.0)]) is None
    assert whole_number([(15.0, 12.0), (15.0, 19.5)], [(14.0, 21.0), (15.5, 21.0)]) is not None  # a short stroke


def test_ink_out_of_the_box_over_other_print_is_left_out():
    """Out of the box, over another item of the sheet (a leader line from the box), what looks
    like the pen may be that print."""
    assert whole_number([(15.0, 12.0), (15.0, 19.5)], print_too=[[(15.0, 20.7), (15.0, 21.5)]]) is None
    assert whole_number([(15.0, 12.0), (15.0, 19.5)], [(15.0, 20.7), (15.0, 21.5)]) is not None  # the same, in pen


@pytest.mark.parametrize("rows, columns, crosses", [
    ((30, 50), (0, 3), True), ((30, 50), (77, 80), True), ((0, 3), (30, 50), True), ((77, 80), (30, 50), True),
    ((30, 50), (1, 4), False), ((30, 50), (76, 79), False),  # up to a pixel from the edge
    ((1, 4), (30, 50), False), ((76, 79), (30, 50), False),
    ((40, 41), (0, 3), False),  # one pixel on it: a speck
    ((79, 80), (79, 80), False),  # the corner pixel, once
    ((78, 80), (79, 80), True),
])
def test_ink_crossing_the_crop_s_edge_is_two_pixels_on_it(rows, columns, crosses):
    ink = np.zeros((80, 80), np.float32)
    ink[rows[0]:rows[1], columns[0]:columns[1]] = 1.0
    assert overflow.reaches_crop_edge(ink) == crosses


SURE_4, SURE_2, UNSURE_1 = CellRead("A", 4, 0.97, False), CellRead("A", 2, 0.95, False), CellRead("A", 1, 0.5, True, "best guess 50% sure")


@pytest.mark.parametrize("inside, whole, coarse, read, flagged", [
    (UNSURE_1, SURE_4, False, 4, False),  # unsure from the box alone: the whole number is read
    (UNSURE_1, SURE_4, True, 4, True),  # ... but flagged in a coarse photo
    (SURE_4, SURE_4, False, 4, False),  # sure, and the whole number reads the same
    (SURE_2, SURE_4, False, 2, True),  # sure, but the whole number reads otherwise: flagged
    (CellRead("A", CROSSED, 0.99, False), SURE_4, False, CROSSED, True),
])
def test_a_number_over_the_edge_is_read_from_the_box_and_whole(inside, whole, coarse, read, flagged):
    judged = overflow.judged(inside, whole, coarse)
    assert (judged.value, judged.unsure) == (read, flagged)
    if flagged:
        assert judged.why == overflow.OVER_WHY.format(4)


@pytest.fixture
def over_the_edge(monkeypatch):
    """Numbers written 0.3 of their box up or down past their place (bench_photo --over-edge)."""
    monkeypatch.setattr(synth_ink, "OVER_EDGE", 0.3)


def counts(sheet, marks, reads) -> tuple[int, int]:
    right = sum(1 for cid, v in marks.items() if reads[cid].value == v and not reads[cid].unsure)
    silent = sum(1 for cid, v in marks.items() if reads[cid].value != v and not reads[cid].unsure)
    return right, silent


@pytest.mark.parametrize("game, variant, seed", [("rolling-america", "us", 3), ("rolling-espana", "es", 4)])
def test_map_photos_of_numbers_written_over_their_boxes_read_more_right_and_fewer_wrong_unflagged(
        over_the_edge, tmp_path, monkeypatch, game, variant, seed):
    """Every state written, each number 0.3 of its box up or down past its place: read with
    the ink out of the box, 4 more right and no more wrong without a flag; with the strokes
    drawn on the outline drawn back (overflow.pen_on_outline), fewer wrong without a flag (a
    3's foot on a map box's thick outline read as 5 or 2 without it: 2 of them, 4 on España)."""
    sheet = GAMES[game].build(variant, "en", "a4")
    marks = {cid: v for cid, v in synth.random_marks(sheet, seed, share=1.0, crosses=0, circled=0).items()
             if sheet.cells[cid].kind == "number"}
    path = tmp_path / "over.jpg"
    path.write_bytes(synth.make_photo(sheet, marks, seed, 12.0, fill=0.85, tilt=10.0))
    right, silent = counts(sheet, marks, read_photo(path).reads)
    with monkeypatch.context() as patched:
        patched.setattr(overflow, "PEN_ON_OUTLINE", np.inf)
        silent_without_the_outline = counts(sheet, marks, read_photo(path).reads)[1]
    monkeypatch.setattr(overflow, "outside", lambda *args, **kwargs: (None, None))
    right_in_the_box, silent_in_the_box = counts(sheet, marks, read_photo(path).reads)
    assert right >= right_in_the_box + 3 and silent <= silent_in_the_box, (right, silent, right_in_the_box, silent_in_the_box)
    assert silent < silent_without_the_outline, (silent, silent_without_the_outline)


@pytest.mark.parametrize("alone, flagged", [(15, False), (5, True)])
def test_a_number_another_reaches_into_is_flagged_where_it_reads_otherwise_without_it(alone, flagged):
    read = CellRead("G3", 15, 0.95, False)
    judged = overflow.untouched(read, CellRead("G3", alone, 0.9, False))
    assert judged.value == 15 and judged.unsure is flagged
    assert judged.why == ("ink reaches into the box from beyond its edge (the next box's number?); without it, "
                          "the number reads 5" if flagged else "")

