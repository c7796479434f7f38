"""The photo generator's pen (tests/support/synth_ink.py): what it writes is what a hand would."""

import cv2
import numpy as np
import pytest

from support.synth_ink import pen_glyph, pieces


def _thin_two() -> np.ndarray:
    """A '2' one source pixel wide, its curve and slope drawn in diagonal steps (as a thin
    handwriting font's digit is, binarised at 28 px)."""
    mask = np.zeros((20, 14), np.uint8)
    points = np.array([[2, 5], [4, 2], [8, 1], [11, 3], [11, 7], [2, 18], [12, 18]], np.int32)
    cv2.polylines(mask, [points], False, 1, 1, cv2.LINE_8)
    return mask.astype(np.float32)


@pytest.mark.parametrize("height, pen", [(24, 1.4), (48, 2.8), (60, 3.0)])
def test_a_thin_glyph_stays_one_stroke(height, pen):
    glyph = _thin_two()
    assert pieces(glyph > 0.5) == 1
    for seed in range(10):
        alpha = pen_glyph(glyph, height, pen, np.random.default_rng(seed))
        assert pieces(alpha > 0.5) == 1, seed


def test_a_pen_lift_is_kept():
    """Two strokes apart in the glyph (a 4 written in two) stay two."""
    glyph = np.zeros((20, 14), np.float32)
    glyph[2:18, 2:5] = 1
    glyph[2:18, 9:12] = 1
    alpha = pen_glyph(glyph, 48, 3.0, np.random.default_rng(0))
    assert pieces(alpha > 0.5) == 2


def test_tight_and_big_circles_are_drawn_inside_the_box_and_out_over_it(monkeypatch):
    """bench_photo.py --circles tight: the guard circle is drawn well inside the box (its ink
    within the middle three quarters), where by default it runs near the box's edge (beyond
    the middle 85 %, inside the box); --circles big draws it out over the box's edges."""
    from rnwprint.core.entries import Guarded
    from support import synth_ink

    def extent() -> float:
        ink = synth_ink._Ink(-20, -20, 140, 140)  # the page round the box too, as fill_page draws
        synth_ink._write_mark(ink, Guarded(3), (0, 0, 100, 100), 4.0, 2.0, synth_ink.digit_source(),
                              np.random.default_rng(1))
        ys, xs = np.nonzero(ink.alpha > 0.5)
        return max(np.ptp(ys), np.ptp(xs)) / 100

    assert 0.85 < extent() < 1.0
    monkeypatch.setattr(synth_ink, "CIRCLE_SIZE", synth_ink.TIGHT_CIRCLE)
    assert extent() < 0.75
    monkeypatch.setattr(synth_ink, "CIRCLE_SIZE", synth_ink.BIG_CIRCLE)
    assert extent() > 1.0  # --circles big: out over the box's edges
