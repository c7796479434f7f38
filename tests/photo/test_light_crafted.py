"""The light decisions on crafted pages and cells (issue 15, part 3): paper clipped or too dark,
print faded, photo grain; the paper's rank counted as it is ranked."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rnwprint.core.entries import Guarded
from rnwprint.core.sheet import Cell
from rnwprint.photo import ink
from rnwprint.photo import read as photo_read
from rnwprint.photo.read import CellRead

# --------------------------------------------------------------------------- the decision, on crafted pages

R = 8.0  # px per mm
BOX = Cell("A", ((5.0, 5.0), (15.0, 5.0), (15.0, 15.0), (5.0, 15.0)))


def crafted(paper: int, print_level: int, drawn: int = 51):
    """A 20 x 20 mm page of paper at grey `paper` with the 10 mm box's 2-px outline seen at
    `print_level`, and the drawing it was printed from (outline at grey `drawn`)."""
    page = np.full((160, 160), paper, np.uint8)
    raw = np.zeros((160, 160), np.uint8)
    cv2.rectangle(raw, (40, 40), (119, 119), 1, 2)
    page[raw > 0] = print_level
    grey = np.where(raw > 0, drawn, 255).astype(np.uint8)
    return page, raw, grey


def exposure(paper: int, print_level: int, drawn: int = 51):
    page, raw, grey = crafted(paper, print_level, drawn)
    return photo_read._exposure(page, raw, grey, BOX, R, (0, 0))


def test_paper_not_clipped_is_read_as_it_is_however_faint_the_print():
    assert exposure(200, 60) == ("", 1.0)
    assert exposure(200, 190) == ("", 1.0)  # glare or blur, not exposure: left as it was


def test_paper_darker_than_40_grey_levels_is_too_dark():
    assert exposure(39, 10) == ("dark", 1.0)
    assert exposure(41, 10) == ("", 1.0)


def test_clipped_paper_with_the_print_as_dark_as_drawn_is_left_alone():
    assert exposure(255, 51) == ("", 1.0)  # seen 0.8 dark, drawn 0.8 dark


def test_clipped_paper_with_the_print_faded_a_little_scales_the_ink_back():
    """Print drawn at grey 51 (0.8 dark) seen at 61 on white: the light was
    (61/255) / 0.2 = 1.196 times too strong; a 0.55 pen then looks 1 - 1.196 * 0.45 = 0.462
    dark, so darkness is scaled by 0.55 / 0.462 = 1.19."""
    light, gain = exposure(255, 61)
    assert light == "faded"
    assert gain == pytest.approx(1.19, abs=0.01)


def test_clipped_paper_with_the_print_faded_past_a_third_again_is_washed_out():
    assert exposure(255, 65)[0] == "faded"  # (65/255) / 0.2 = 1.27
    assert exposure(255, 70)[0] == "bright"  # 1.37: a pen keeps too little to trust


def test_a_faded_cell_keeps_what_is_written_surely_but_flags_a_blank():
    written = CellRead("A", 4, 0.91, False)
    assert photo_read._in_light(written, "faded") == written
    unsure = photo_read._in_light(CellRead("A", 1, 0.89, False), "faded")  # surer than the usual 0.7
    assert unsure.unsure and "washed out" in unsure.why
    blank = photo_read._in_light(CellRead("A", None, 1.0, False), "faded")
    assert blank.unsure and blank.light == "bright" and "washed out" in blank.why
    unticked = photo_read._in_light(CellRead("t", False, 0.9, False), "faded")
    assert unticked.unsure
    assert photo_read._in_light(written, "bright").unsure


@pytest.mark.parametrize("below, level", [(90, 40), (89, 40), (90, 250), (89, 250), (100, 40), (0, 250)])
def test_the_paper_is_judged_by_counting_the_same_rank(below, level):
    """Whether the paper (the 90th percentile, nearest rank) is darker than a level is told
    by counting the pixels below it: the same answer as ranking them, at the very edge."""
    from rnwprint.photo.light import _nearest_rank, _rank_below

    window = np.full((10, 10), level, np.uint8)  # a 100-pixel window: the rank is the 90th value
    window.flat[:below] = level - 1
    assert _rank_below(window, 0.9, level) == (_nearest_rank(window, 0.9) < level) == (below >= 90)
    rng = np.random.default_rng(below)
    for _ in range(50):
        window = rng.integers(0, 256, (int(rng.integers(1, 40)), int(rng.integers(1, 40))), dtype=np.uint8)
        cut = int(rng.integers(1, 256))
        assert _rank_below(window, 0.9, cut) == (_nearest_rank(window, 0.9) < cut)


# --------------------------------------------------------------------------- grain, on crafted cells

def noisy_paper(sigma: float, seed: int = 0) -> np.ndarray:
    """The darkness against its local white (as ink._darkness takes it: a closing wider than a
    stroke) of 20 x 20 mm of paper at grey 200 with photo noise of `sigma` grey levels, seen
    by a photo of half the page's pixels per mm."""
    noise = np.random.default_rng(seed).normal(0.0, sigma, (80, 80))
    page = np.clip(200 + cv2.resize(noise, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST), 0, 255)
    page = page.astype(np.uint8)
    closed = cv2.morphologyEx(page, cv2.MORPH_CLOSE, ink._brush(R)).astype(np.float32)
    return (closed - page) / closed


def share_of_ink(dark: np.ndarray, floor: float) -> float:
    return cv2.countNonZero(photo_read._ink(dark, floor)) / dark.size


def test_grain_alone_is_no_ink_but_passes_the_plain_floor():
    dark = noisy_paper(18)
    assert share_of_ink(dark, photo_read.INK_DARKNESS) > photo_read.BLANK_INK  # read as a tick before
    assert share_of_ink(dark, max(photo_read.INK_DARKNESS, photo_read._grain(dark))) < photo_read.UNSURE_BLANK[0]


def test_a_pen_stroke_in_grain_is_still_ink():
    dark = noisy_paper(18)
    dark[70:90, 20:140] = 0.6  # a tick's stroke, 2.5 mm wide
    ink = photo_read._ink(dark, max(photo_read.INK_DARKNESS, photo_read._grain(dark))) > 0
    assert ink[70:90, 20:140].mean() > 0.9
    ink[70:90, 20:140] = False
    assert ink.mean() < photo_read.UNSURE_BLANK[0]


def test_grain_is_ranked_at_a_quarter_and_taken_four_times():
    dark = np.zeros((40, 40), np.float32)
    dark[:, 8:] = 0.05  # a fifth of the cell at 0, the rest at 0.05 (the sample keeps every other pixel)
    assert photo_read._grain(dark) == pytest.approx(4 * 0.05)
    dark[:, :12] = 0.0  # more than a quarter at 0
    assert photo_read._grain(dark) == 0.0
    assert photo_read._grain(np.zeros((0, 5), np.float32)) == 0.0


def test_a_big_cells_grain_is_ranked_among_fewer_pixels_to_the_same_figure():
    dark = np.tile(noisy_paper(18), (2, 2))  # 40 x 40 mm: sampled every 13th pixel, not every other
    assert photo_read._grain(dark) == pytest.approx(photo_read._grain(noisy_paper(18)), rel=0.1)


def test_a_clean_cell_keeps_the_plain_floor():
    dark = noisy_paper(2)
    assert photo_read._grain(dark) < photo_read.INK_DARKNESS


@pytest.mark.parametrize("value, confidence, flagged", [(None, 1.0, True), (False, 1.0, True), (4, 0.95, False),
                                                        (4, 0.85, True), (True, 0.99, False),
                                                        (Guarded(4), 0.99, True)])  # grain can draw a ring
def test_a_grainy_cell_is_flagged_unless_read_surely_as_written(value, confidence, flagged):
    read = photo_read._in_light(CellRead("A", value, confidence, False), "grainy")
    assert read.unsure is flagged
    assert (read.why == photo_read.LIGHT_WHY["grainy"]) is flagged
    assert read.light == ("grainy" if flagged else "")
