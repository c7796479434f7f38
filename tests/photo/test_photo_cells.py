"""One written cell, crafted: its ink cut into digits (overlapping, touching, reaching the box's
edge), told from a guard circle and from the print, coarse strokes kept whole, and an unsure
read given a second opinion."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support import synth

from rnwprint.core.entries import CROSSED
from rnwprint.core.sheet import Cell
from rnwprint.photo import digits
from rnwprint.photo import read as photo_read

TOWER_SQUARE = Cell("A1", ((0, 0), (9, 0), (9, 9), (0, 9)), low=1, high=50)


def heldout_digit(label: int) -> np.ndarray:
    images, labels = digits.heldout_digits()
    return images[np.flatnonzero(labels == label)[0]].astype(np.float32) / 255


def side_by_side(left: np.ndarray, right: np.ndarray, overlap: int) -> tuple[np.ndarray, int]:
    """The two 28x28 digits on one canvas, the right one's ink starting `overlap` columns
    before the left one's ink ends; and the right one's column offset."""
    last = np.flatnonzero(left.any(axis=0))[-1]
    first = np.flatnonzero(right.any(axis=0))[0]
    offset = last - overlap + 1 - first
    ink = np.zeros((28, offset + 28), np.float32)
    ink[:, :28] = left
    ink[:, offset:] = np.maximum(ink[:, offset:], right)
    return ink, offset


def test_two_digits_whose_columns_overlap_are_cut_blob_by_blob():
    """A 1 reaching under the 6 beside it: no empty column between them, yet each digit goes
    whole to its own crop, and the cell reads 16."""
    one, six = heldout_digit(1), heldout_digit(6)
    ink, offset = side_by_side(one, six, overlap=1)
    assert (ink.sum(axis=0)[np.flatnonzero(ink.any(axis=0))] > 0).all()  # no empty column
    crops, apart = photo_read._split_digits(ink, TOWER_SQUARE)
    assert apart and len(crops) == 3
    assert np.array_equal(crops[1][:, :28], one) and not crops[1][:, 28:].any()
    assert np.array_equal(crops[2][:, offset:], six) and not crops[2][:, :offset].any()
    read = photo_read._decide(TOWER_SQUARE, digits.probabilities(crops), False, apart)
    assert read.value == 16 and not read.unsure


def test_touching_digits_are_also_cut_where_they_meet():
    """A wide 3 touching a narrow 1: the emptiest column in the middle of the ink runs
    through the 3, so the reader also tries the columns where the two meet, and reads 31."""
    three, one = heldout_digit(3), heldout_digit(1)
    ink, offset = side_by_side(three, one, overlap=1)
    columns = np.flatnonzero(ink.any(axis=0))
    assert np.array_equal(columns, np.arange(columns[0], columns[-1] + 1))  # no empty column between
    crops, apart = photo_read._split_digits(ink, TOWER_SQUARE)
    assert not apart and len(crops) > 3 and len(crops) % 2 == 1
    first_cut = crops[1].shape[1]
    assert first_cut < offset  # the likeliest cut alone is inside the 3
    read = photo_read._decide(TOWER_SQUARE, digits.probabilities(crops), False, apart)
    assert read.value == 31


@pytest.mark.parametrize("width", [4, 5, 8, 30])
def test_ink_reaching_the_box_edge_is_cut_inside_it(width):
    """Wide ink running to the edge of the box, however small: every cut lies inside it."""
    ink = np.zeros((20, 40), np.float32)
    ink[5:5 + max(3, width // 2), 40 - width:] = 1.0
    crops, _ = photo_read._split_digits(ink, TOWER_SQUARE)
    assert len(crops) % 2 == 1
    for tens, units in zip(crops[1::2], crops[2::2]):
        assert tens.any() and units.any()


def test_the_cut_whose_digits_read_likelier_wins_and_on_a_tie_the_first():
    """Touching digits are cut several ways; the way whose two digits are likelier wins, even
    when it is not the emptiest column (a slanted pair is often cut best off the middle)."""
    def row(d, p):
        return np.eye(len(digits.CLASSES))[d] * p + (1 - p) / len(digits.CLASSES)
    whole = np.full(len(digits.CLASSES), 1 / len(digits.CLASSES))
    first = [row(2, 0.6), row(1, 0.6)]  # 21
    same = [row(2, 0.6), row(7, 0.6)]  # 27, as sure
    surer = [row(2, 0.65), row(7, 0.65)]  # 27, a little surer
    assert photo_read._decide(TOWER_SQUARE, np.stack([whole, *first, *same]), False, False).value == 21
    assert photo_read._decide(TOWER_SQUARE, np.stack([whole, *first, *surer]), False, False).value == 27


def test_a_five_whose_bar_stands_apart_is_one_digit():
    """A wide 5 (its long bar apart from the rest) is cut in two for a look, but is no 50."""
    five = np.zeros((40, 44), np.float32)
    cv2.line(five, (14, 4), (40, 4), 1.0, 3)  # the bar, apart from the rest
    cv2.line(five, (8, 4), (6, 18), 1.0, 3)
    cv2.ellipse(five, (16, 26), (11, 10), 0, -120, 150, 1.0, 3)
    crops, apart = photo_read._split_digits(five, TOWER_SQUARE)
    assert not apart and len(crops) >= 3
    read = photo_read._decide(TOWER_SQUARE, digits.probabilities(crops), False, apart)
    assert read.value != 50 and (read.value == 5 or read.unsure)


def test_two_pieces_side_by_side_are_a_number_even_when_the_whole_looks_crossed():
    """A 2 and an 8 written apart can look like a cross as a whole; the two pieces, each read
    surely, win: the cell holds 28. An X the whole is surer of than the pieces stays an X."""
    whole_x = np.eye(len(digits.CLASSES))[digits.CLASSES.index("X")] * 0.5 + 0.05
    two, eight = (np.eye(len(digits.CLASSES))[d] * 0.9 + 0.01 for d in (2, 8))
    read = photo_read._decide(TOWER_SQUARE, np.stack([whole_x, two, eight]), False, True)
    assert read.value == 28 and not read.unsure
    sure_x = np.eye(len(digits.CLASSES))[digits.CLASSES.index("X")] * 0.98 + 0.002
    read = photo_read._decide(TOWER_SQUARE, np.stack([sure_x, two, eight]), False, True)
    assert read.value == CROSSED


@pytest.mark.parametrize("ring", [True, False])
def test_a_guard_circle_is_told_from_a_big_digit(ring):
    """A guard circle runs round the box; a big 2 touching the box edge is no circle."""
    drawn = np.zeros((60, 60), np.uint8)
    if ring:
        cv2.circle(drawn, (30, 30), 28, 255, 3)
        cv2.putText(drawn, "2", (19, 42), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 255, 3)
    else:
        cv2.putText(drawn, "2", (4, 56), cv2.FONT_HERSHEY_SIMPLEX, 2.2, 255, 5)
    ink = drawn.astype(np.float32) / 255
    _, circled, _ = photo_read._remove_circle(ink, ink, photo_read.INK_DARKNESS)
    assert circled == ring


def test_a_pen_stroke_crossing_a_printed_id_is_kept_where_it_is_darker():
    """A cell id printed in grey, a pen stroke drawn across it: the id goes, the stroke stays
    whole, also where it runs over the print. A pen no darker than the print loses the crossing."""
    raw = np.zeros((40, 40), np.uint8)
    cv2.putText(raw, "AZ", (2, 14), cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1, 1)
    printed = cv2.dilate(raw, np.ones((3, 3), np.uint8))
    stroke = np.zeros_like(raw)
    cv2.line(stroke, (8, 2), (30, 36), 1, 2)
    for pen, kept in ((0.7, True), (0.35, False)):
        dark = np.where(printed > 0, 0.3, 0.0).astype(np.float32)
        dark[stroke > 0] = pen
        photo_read._take_print_away(dark, raw, printed)
        assert not dark[(printed > 0) & (stroke == 0)].any()  # all of the id goes
        assert (dark[stroke > 0] > 0).all() == kept  # the stroke, crossing included (or not)
        assert (dark[(stroke > 0) & (printed == 0)] == pen).all()


@pytest.mark.parametrize("seed", range(6))
def test_the_pens_darkness_is_ranked_among_the_dark_pixels_only(seed):
    """How dark the pen is (the darkness 0.5 % of a cell's pixels exceed) is the same when
    only the pixels darker than a level are ranked; a pen no darker than the level is given
    as the level itself, which is all the callers need to know."""
    from rnwprint.photo.ink import _darkest

    rng = np.random.default_rng(seed)
    dark = (rng.random((int(rng.integers(20, 90)), int(rng.integers(20, 90)))) ** 8).astype(np.float32)
    if seed % 2:  # a written cell: a stroke of pen ink
        dark[5:9, 3:18] = rng.uniform(0.5, 0.8, (4, 15)).astype(np.float32)
    whole = _darkest(dark)
    assert whole == float(np.sort(dark.ravel())[int(0.995 * (dark.size - 1))])
    for level in (0.05, 0.15, 0.56, whole, np.nextafter(whole, 0, dtype=np.float32)):
        assert _darkest(dark, float(level)) == (whole if whole > level else float(level))
    assert _darkest(np.zeros((0, 5), np.float32), 0.15) == 0.0


def test_strokes_of_a_coarse_photo_are_kept_whole():
    """A photo that sees the page coarsely blurs a stroke into a fainter one: its written
    cells take ink from a lower darkness, so the stroke is not cut into dots (a blank cell is
    still told by the usual floor)."""
    dark = np.zeros((60, 40), np.float32)
    cv2.line(dark, (20, 8), (20, 52), 1.0, 3)
    dark *= np.where(np.arange(60)[:, None] % 12 < 6, 0.4, 0.12).astype(np.float32)  # fading
    assert photo_read.COARSE_INK_DARKNESS < 0.12 < photo_read.INK_DARKNESS
    fine = photo_read._ink(dark)
    coarse = photo_read._ink(dark, photo_read.COARSE_INK_DARKNESS)
    assert cv2.connectedComponents((fine > 0).astype(np.uint8))[0] - 1 > 1  # dots
    assert cv2.connectedComponents((coarse > 0).astype(np.uint8))[0] - 1 == 1  # one stroke


def test_a_blank_tick_box_of_a_coarse_photo_is_not_ticked_by_its_blurred_outline():
    """A photo seeing the page at 2 px/mm blurs the printed outline a photo pixel into the box
    (past the border every cell leaves out): that edge is not a tick; a tick is."""
    box = Cell("rounds:1", ((0, 0), (5, 0), (5, 5), (0, 5)), kind="tick")
    edge = np.zeros((40, 40), np.float32)
    edge[:2, :] = edge[:, -2:] = 0.3  # the outline's blur along two sides
    tick = edge.copy()
    cv2.line(tick, (8, 22), (16, 32), 0.6, 3)
    cv2.line(tick, (16, 32), (32, 8), 0.6, 3)
    page_px_per_photo_px = 8 / 2
    assert (edge > 0).mean() > photo_read.BLANK_INK  # counted whole, the edge reads as a tick
    for ink, ticked in ((edge, False), (tick, True)):
        share = photo_read._share_inside(ink, page_px_per_photo_px)
        read = photo_read._tick(box, share)
        assert read.value is ticked and not read.unsure


def test_unsure_reads_get_a_second_opinion_that_reads_more_of_them_right(monkeypatch):
    """Held-out digits 1-9 written with the photo generator's pen, each alone in a Roll to the
    Top box: the reads the feature network is not sure of are read again with the
    convolutional network, and that reads more of them right; a sure read is asked once."""
    images, labels = digits.heldout_digits()
    keep = labels > 0
    rng = np.random.default_rng(8)
    crops = [synth.pen_glyph(synth.crop_glyph(im.astype(np.float32) / 255), 30, 2.0, rng) for im in images[keep]]
    truth = labels[keep].astype(int)
    probs = digits.probabilities(crops)
    asked = []
    second = digits.convnet_probabilities
    monkeypatch.setattr(digits, "convnet_probabilities", lambda images: asked.append(len(images)) or second(images))
    box = TOWER_SQUARE
    alone = [photo_read._decide(box, probs[i:i + 1], False, False) for i in range(len(crops))]
    both = [photo_read.read_written(photo_read.Written(box, [crop], False, False, 0.1, (0.0, 0.0)), probs[i:i + 1])
            for i, crop in enumerate(crops)]
    unsure = [r.confidence < photo_read.SECOND_OPINION_BELOW for r in alone]
    assert len(asked) == sum(unsure) > 0
    assert all(b == a for a, b, u in zip(alone, both, unsure) if not u)
    right_alone = sum(r.value == t for r, t in zip(alone, truth))
    right_both = sum(r.value == t for r, t in zip(both, truth))
    assert right_both > right_alone
