"""The pair reader: a two-digit cell's ink read as a whole, tens and units at once.

The digit networks read a two-digit number one cut half at a time; where the digits touch,
a cut leaves each half with a bit of its neighbour, and a misread half is read surely. This
network sees the whole ink (``normalise``: cropped to the ink, fitted into 22 x 52 keeping its
aspect, centred in 28 x 56) and gives the tens (0-9, or none: a one-digit number) and the
units. The reader asks it about two-digit cells only, as an independent opinion
(rnwprint.photo.read). The weights (``rnwprint/assets/pairs-convnet*.npz``, three networks with
the layers of rnwprint.photo.convnet on a wider image) are trained by ``tools/train_pairs.py``.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from rnwprint.photo import convnet
from rnwprint.photo.digits import INK_LEVEL, PRESCALE, float_weights, shrunk, softmax

ROWS, COLUMNS = 28, 56  # the image the network reads
BOX_ROWS, BOX_COLUMNS = 22, 52  # the ink is fitted into this, keeping its aspect
NO_TENS = 10  # the tens class of a one-digit number
TENS = 11  # tens classes: 0-9 and none


def normalise(ink: np.ndarray) -> np.ndarray | None:
    """One cell's whole ink (ink bright, paper 0) -> (28, 56) float32 in [0, 1], the ink's
    box centred; None without ink."""
    a = np.nan_to_num(np.asarray(ink, np.float32))
    if a.ndim != 2 or a.size == 0:
        return None
    a = shrunk(np.maximum(a, 0), 2 * PRESCALE)
    peak = float(a.max())
    if not peak > 0:
        return None
    rows, cols = np.flatnonzero((a > INK_LEVEL * peak).any(axis=1)), np.flatnonzero((a > INK_LEVEL * peak).any(axis=0))
    crop = a[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    h, w = crop.shape
    scale = min(BOX_ROWS / h, BOX_COLUMNS / w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    small = np.maximum(small.reshape(nh, nw), 0)
    out = np.zeros((ROWS, COLUMNS), np.float32)
    y, x = (ROWS - nh) // 2, (COLUMNS - nw) // 2
    out[y:y + nh, x:x + nw] = small / small.max()  # the crop holds ink above a quarter of its peak
    return out


#: three networks trained alike on the same images with other seeds (tools/train_pairs.py
#: --seed): their probabilities averaged read more right and fewer wrong unflagged for every
#: writer set than one (BENCHMARKS.md, "Three pair readers")
NETS = ("pairs-convnet.npz", "pairs-convnet2.npz", "pairs-convnet3.npz")


@lru_cache(maxsize=1)
def _weights() -> tuple[dict[str, np.ndarray], ...]:
    return tuple(float_weights(file) for file in NETS)


def probabilities(images: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, 28, 56) normalised images -> the tens (n, 11: 0-9, none) and units (n, 10)
    probabilities, averaged over the networks."""
    each = [(softmax(z[:, :TENS]), softmax(z[:, TENS:])) for z in convnet.logits_of_each(_weights(), images)]
    tens, units = (sum(odds) / len(each) for odds in zip(*each))
    return tens, units


def numbers(tens: np.ndarray, units: np.ndarray, low: int, high: int) -> tuple[np.ndarray, np.ndarray]:
    """The numbers low..high a cell may hold and how likely each is, from one image's tens
    and units probabilities (renormalised over those numbers)."""
    values = np.arange(low, high + 1)
    tens_class = np.where(values < 10, NO_TENS, values // 10)
    p = tens[tens_class] * units[values % 10]
    return values, p / p.sum()
