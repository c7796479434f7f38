"""A number written so pale (a hard pencil, a pen running dry) that next to none of it is
dark enough to be ink: the cell would read blank, sure, and the number be lost without a word.
Its strokes still stand out of the paper together, softened a little: a piece of them as long
as a digit, away from the crop's edges (where the box's printed outline leaves its blur), is
no grain, which stays in specks."""

from __future__ import annotations

import cv2
import numpy as np

from rnwprint.photo.ink import without_frame

#: pale strokes: the darkness, the outline's blur taken away and softened by a Gaussian of
#: PALE_BLUR_MM, above PALE_SHARE of the ink floor (and see PALE_OVER_PAPER), in one piece
#: PALE_STROKE_MM long or tall or more, not along an edge of the crop it touches (see
#: _long_pieces). Of the numbers read blank, sure, in photos written in a pale pencil
#: (bench_photo.py --ink pale, seeds 5000-5039: most of them map numbers 3-4 mm tall) 83 in
#: 106 are found so (with pieces touching an edge left out whatever their direction: 73; and
#: at 3 mm 52, at 2.25 mm 76), and 8 of a stranger's 10 (hand H); of the blank boxes, 1 of
#: 1,228 in generated photos (seeds 5000-5099, UCI writers), none of 492 in the pale photos,
#: of hand H's 508 or of hand I's 500
PALE_BLUR_MM, PALE_SHARE, PALE_STROKE_MM = 0.19, 0.5, 2.5
#: and PALE_OVER_PAPER times the softened darkness's median or more: in a grainy photo of paper
#: with a texture, softened grain runs together into long pieces in a big box (a second
#: stranger's hand I, at 3 mm: 7 of 500 blank boxes without this bar, none with it; the pale
#: numbers found fell from 49 to 47, hand H's from 7 to 6; without it, at 2.5 mm, 16 of hand
#: H's blank boxes)
PALE_OVER_PAPER = 3.0
#: in a tick box (5.5 x 3.5 mm), a piece PALE_TICK_MM long: 37 of the 63 pale ticks read unticked
#: in the pale photos, none of 596 empty tick boxes there and in the UCI writers' photos
PALE_TICK_MM = 2.0
PALE_WHY = "pale strokes, below the ink's darkness: a number written faintly?"


def pale_strokes(dark: np.ndarray, floor: float, px_per_mm: float, long_mm: float = PALE_STROKE_MM) -> bool:
    """Whether a cell read blank holds pale strokes (see PALE_STROKE_MM; `long_mm` long):
    `dark`, its darkness (the print taken away); `floor`, its ink floor."""
    long, sigma = long_mm * px_per_mm, PALE_BLUR_MM * px_per_mm
    pale = np.minimum(dark, floor)
    # a first look, softened as it is: taking the outline's blur away and a higher bar only
    # shrink the pieces, so where none is that long, none will be (most blank boxes)
    if not _long_pieces(cv2.GaussianBlur(pale, (0, 0), sigma) > PALE_SHARE * floor, long, clear=False):
        return False
    soft = cv2.GaussianBlur(without_frame(pale), (0, 0), sigma)
    return _long_pieces(soft > max(PALE_SHARE * floor, PALE_OVER_PAPER * float(np.median(soft))), long, clear=True)


def _long_pieces(mask: np.ndarray, long: float, clear: bool) -> bool:
    """Whether a piece of `mask` is `long` px long or tall (with `clear`: leaving out a piece
    that touches an edge of the crop it runs along, the print's leftover along the outline; a
    stroke across the box, a dash in a tick box, touches the edges it crosses)."""
    # a piece spans a run of columns (and of rows) without a gap: where the mask's shadow on
    # either side has no run that long, no piece is (most blank boxes; labelling costs more)
    if _longest_run(mask.any(axis=0)) < long and _longest_run(mask.any(axis=1)) < long:
        return False
    pieces = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)[2][1:]
    x, y, w, h = pieces[:, 0], pieces[:, 1], pieces[:, 2], pieces[:, 3]
    long_enough = np.maximum(w, h) >= long
    if clear:
        along_top_or_bottom = (w >= h) & ((y == 0) | (y + h == mask.shape[0]))
        along_a_side = (h >= w) & ((x == 0) | (x + w == mask.shape[1]))
        long_enough &= ~along_top_or_bottom & ~along_a_side
    return bool(long_enough.any())


def _longest_run(line: np.ndarray) -> int:
    """The length of the longest run of True in `line` (boolean, 1-D)."""
    edges = np.flatnonzero(np.diff(line.astype(np.int8), prepend=0, append=0))
    return int((edges[1::2] - edges[::2]).max()) if edges.size else 0
