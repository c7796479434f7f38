"""A stroke that fades (a pencil pressed lightly along part of a digit): followed on into its
paler stretch and the cell read again with it, flagged where that reads another value
(rnwprint/photo/faded.py)."""

from __future__ import annotations

import pathlib

import cv2
import numpy as np
import pytest
from support import synth, synth_ink

from rnwprint.core.sheet import Cell
from rnwprint.games import GAMES
from rnwprint.photo import read as photo_read
from rnwprint.photo.decide import CellRead
from rnwprint.photo.faded import (
    FADED_BLANK_WHY,
    FADED_WITH_WHY,
    FADED_WITHOUT_WHY,
    faded_ink,
    judged,
)
from rnwprint.photo.ink import INK_DARKNESS, _ink
from rnwprint.photo.pipeline import read_photo

FLOOR = INK_DARKNESS
PX = 8.0  # px/mm of the page the reader cuts cells from
STEM = 0.6  # a pencil's stroke: its ink threshold is max(FLOOR, 0.25 * 0.6) = 0.15
DATA = pathlib.Path(__file__).resolve().parent.parent / "data"


def stem_and_foot(foot_shade: float, foot_px: int = 30, gap: int = 0, left: bool = False) -> np.ndarray:
    """A 56 px cell: an upright stroke 3 px wide, 4 mm tall, STEM dark, and from its foot a
    stroke 3 px wide `foot_px` long to the right (or `left`), `foot_shade` dark, `gap` px from
    the stem."""
    dark = np.zeros((56, 56), np.float32)
    dark[12:44, 14:17] = STEM
    dark[41:44, 17 + gap:17 + gap + foot_px] = foot_shade
    return dark[:, ::-1].copy() if left else dark


def test_a_paler_foot_joined_to_the_stroke_is_followed():
    dark = stem_and_foot(0.1)
    ink = _ink(dark, FLOOR)
    assert not ink[42, 30]  # 0.1 is under the ink threshold: the foot is no ink
    fuller = faded_ink(dark, ink, FLOOR, PX)
    assert fuller is not None and fuller[42, 17:47].all() and fuller[20, 15] == pytest.approx(STEM)
    assert not fuller[:, 48:].any()


@pytest.mark.parametrize("shade, followed", [(0.062, True), (0.058, False)])
def test_a_stretch_is_followed_down_to_two_fifths_of_the_ink_threshold(shade, followed):
    """FADED_SHARE: 0.4 of 0.15 is 0.06."""
    dark = stem_and_foot(shade)
    assert (faded_ink(dark, _ink(dark, FLOOR), FLOOR, PX) is not None) == followed


def test_a_pale_stroke_apart_from_the_ink_is_not_followed():
    """A paler stroke 3 px away (grain, a shadow's edge, a smudge) is not a stretch of the pen's."""
    dark = stem_and_foot(0.1, gap=3)
    assert faded_ink(dark, _ink(dark, FLOOR), FLOOR, PX) is None


@pytest.mark.parametrize("left", [False, True])
@pytest.mark.parametrize("foot_px, found", [(18, True), (17, False)])
def test_a_stretch_counts_from_half_a_square_mm_beyond_the_strokes(foot_px, found, left):
    """FADED_MM2 (32 px at 8 px/mm) beyond the strokes grown by FADED_GROW_PX: an 18 px foot
    adds 16 x 2 = 32 px beyond them, a 17 px foot 30 (OpenCV's 2 x 2 opening, as ink._ink's,
    keeps two of a 3 px stroke's rows, the stem two of its columns)."""
    dark = stem_and_foot(0.1, foot_px, left=left)
    assert (faded_ink(dark, _ink(dark, FLOOR), FLOOR, PX) is not None) == found


def test_a_stroke_s_own_blurred_edge_is_no_stretch():
    """A photo blurs every stroke: its edges are paler than the ink, joined to it, within
    FADED_GROW_PX of it."""
    dark = np.zeros((56, 56), np.float32)
    cv2.line(dark, (20, 10), (20, 46), STEM, 3)
    cv2.line(dark, (20, 46), (40, 46), STEM, 3)
    dark = cv2.GaussianBlur(dark, (0, 0), 1.0)
    assert faded_ink(dark, _ink(dark, FLOOR), FLOOR, PX) is None


def test_a_blank_crop_has_nothing_to_follow():
    dark = np.zeros((56, 56), np.float32)
    assert faded_ink(dark, _ink(dark, FLOOR), FLOOR, PX) is None


def read(value, confidence: float) -> CellRead:
    return CellRead("NM", value, confidence, confidence < 0.7, "")


def test_the_same_value_read_with_the_paler_stretch_changes_nothing():
    assert judged(read(3, 0.95), read(3, 0.6)) == read(3, 0.95)


def test_another_value_read_surer_with_the_stretch_stands_flagged_naming_the_first():
    out = judged(read(1, 0.73), read(6, 0.9))
    assert (out.value, out.unsure, out.why) == (6, True, FADED_WITHOUT_WHY.format(1))


def test_another_value_read_less_sure_with_the_stretch_flags_the_first():
    out = judged(read(1, 0.73), read(6, 0.67))
    assert (out.value, out.unsure, out.why) == (1, True, FADED_WITH_WHY.format(6))


def test_on_a_tie_the_first_read_stands():
    assert judged(read(1, 0.8), read(7, 0.8)).value == 1


def test_a_box_read_blank_for_a_few_stray_marks_is_a_number_with_its_paler_stretch():
    out = judged(read(None, 0.4), read(3, 0.8))
    assert (out.value, out.unsure, out.why) == (3, True, FADED_BLANK_WHY)
    assert judged(read(None, 0.9), read(3, 0.8)).value is None


def test_nothing_read_with_the_paler_stretch_changes_nothing():
    assert judged(read(4, 0.6), read(None, 0.9)) == read(4, 0.6)


def test_a_stranger_s_six_whose_loop_fades_reads_six_with_its_pale_stretch():
    """A helper's hand (a child's soft pencil, a stretch of 40 % of strokes faded to 30 %):
    the 6 in NM of its Rolling America photo. Its loop is under the ink threshold: read from
    the stem alone it is a sure 1."""
    data = np.load(DATA / "faded-six.npz")
    dark, ink = data["NM_dark"].astype(np.float32), data["NM_ink"].astype(np.float32)
    cell = Cell("NM", ((0, 0), (7, 0), (7, 7), (0, 7)), low=1, high=6)

    def read_ink(crop):
        written = photo_read.Written(cell, *photo_read._split_digits(crop, cell), False, float((crop > 0).mean()),
                                     (0.0, 0.0))
        return photo_read._read_all([written])[0]

    alone = read_ink(ink)
    assert (alone.value, alone.unsure) == (1, False)
    fuller = faded_ink(dark, ink, FLOOR, PX)
    assert fuller is not None and np.count_nonzero(fuller) > 1.5 * np.count_nonzero(ink)
    assert read_ink(fuller).value == 6
    assert judged(alone, read_ink(fuller)).unsure


def test_numbers_written_with_a_fading_pencil_on_a_tower_photo(monkeypatch, tmp_path):
    """bench_photo.py's tuning photo 5015 written in a soft pencil fading along a stretch of
    each number (`--ink pencil --fade`): a Roll to the Top tower, mostly two-digit numbers.
    Read with the paler stretches, fewer cells are read wrong without a flag (two of them: 23
    read 25, 29 read 24), more are read right, and no cell read right before is read wrong
    without a flag."""
    monkeypatch.setattr(synth_ink, "FADE", synth_ink.FADED_STRETCH)
    seed = 5015
    game = GAMES["roll-to-the-top"]
    rng = np.random.default_rng(seed)
    sheet = game.build(game.variants[int(rng.integers(len(game.variants)))], "en", "letter")
    marks = synth.random_marks(sheet, seed, circled=0.0)
    megapixels = float(rng.choice((1.0, 2.0, 4.0, 8.0, 12.0, 12.0)))
    photo = tmp_path / "fading.jpg"
    photo.write_bytes(synth.make_photo(sheet, marks, seed=seed, megapixels=megapixels, ink="pencil"))

    def verdicts():
        reads = read_photo(photo).reads
        return {cid: (reads[cid].value == value, reads[cid].unsure) for cid, value in marks.items()}

    now = verdicts()
    monkeypatch.setattr(photo_read, "faded_ink", lambda *args: None)
    before = verdicts()

    def silent(v):
        return {cid for cid, (ok, unsure) in v.items() if not ok and not unsure}

    def right(v):
        return {cid for cid, (ok, _) in v.items() if ok}

    assert len(silent(before)) >= 2 and silent(now) < silent(before)
    assert len(right(now)) > len(right(before))
    assert not right(before) & silent(now)
