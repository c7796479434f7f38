"""Strokes that fade: a pencil pressed lightly along part of a digit (the loop of a 6, the
foot of a 2) leaves that stretch paler than the ink's floor, and the number is read from
what is left, often surely and wrongly (a 6 without its loop is a 1). The stroke is followed
on into its paler stretches, as far as they stay joined to it above FADED_SHARE of the floor
(hysteresis); where that adds a stretch of stroke, the cell is read again with it."""

from __future__ import annotations

import cv2
import numpy as np

from rnwprint.photo.decide import CellRead, flagged
from rnwprint.photo.ink import ink_threshold, without_specks

#: a pale stretch is followed down to this share of the cell's ink threshold (ink.ink_threshold)
FADED_SHARE = 0.4
#: and counts where it adds this many mm² beyond the strokes already read (grown by
#: FADED_GROW_PX each way: the strokes' own blurred edges are no stretch). At first 0.5 and
#: 0.75 mm², set a priori: a 4 mm map digit's faded stretch (a 6's loop, a quarter as dark as
#: the rest) stayed under both. At 0.4 and 0.5 mm², the fading pencil's tuning photos
#: (bench_photo.py --ink pencil --fade, seeds 5000-5049) read 3 more cells right and 2 fewer
#: wrong without a flag, three strangers' hands (H, I, J) 13 more right and 5 fewer silent;
#: plain MNIST and UCI writers the same but for 3 flagged cells
FADED_MM2, FADED_GROW_PX = 0.5, 2
_GROW = np.ones((2 * FADED_GROW_PX + 1,) * 2, np.uint8)
FADED_WITH_WHY = "a paler stretch of stroke: read with it, it is {}"
FADED_WITHOUT_WHY = "a paler stretch of stroke: read without it, it is {}"
FADED_BLANK_WHY = "a paler stretch of stroke: read without it, the box is blank"


def faded_ink(dark: np.ndarray, ink: np.ndarray, floor: float, px_per_mm: float) -> np.ndarray | None:
    """The cell's ink (`ink`, its darkness `dark` above the ink `floor` and ink._ink's share
    of its darkest) with the paler stretches joined to its strokes; None where that adds no
    stretch of stroke."""
    least = FADED_MM2 * px_per_mm ** 2
    strong = ink > 0
    near = cv2.dilate(strong.view(np.uint8), _GROW) > 0
    # most cells have no pale stroke beyond their strokes at all (the threshold is the floor or
    # more; grain, in specks, does not outlast the opening)
    beyond = (dark > FADED_SHARE * floor) & ~near
    if np.count_nonzero(beyond) < least or np.count_nonzero(_opened(beyond)) < least:
        return None
    pale = dark > FADED_SHARE * ink_threshold(dark, floor)
    count, labels = cv2.connectedComponents(pale.view(np.uint8), connectivity=8)
    joined = np.zeros(count, bool)
    joined[labels[strong]] = True
    joined[0] = False
    grown = joined[labels]
    grown &= _opened(grown)
    if np.count_nonzero(grown & ~near) < least:
        return None
    return np.where(grown | strong, dark, 0).astype(ink.dtype)


def _opened(mask: np.ndarray) -> np.ndarray:
    """`mask` (boolean) without specks, as ink._ink leaves them out of the ink."""
    return without_specks(mask.view(np.uint8)) > 0


def judged(read: CellRead, other: CellRead) -> CellRead:
    """A cell read with its paler stretches too (`other`): where that reads another value, the
    surer of the two stands, flagged."""
    if other.value == read.value or other.value is None:
        return read
    if other.confidence > read.confidence:
        return flagged(other, FADED_BLANK_WHY if read.value is None else FADED_WITHOUT_WHY.format(read.value))
    return flagged(read, FADED_WITH_WHY.format(other.value))
