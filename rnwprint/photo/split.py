"""A two-digit cell's ink split into the crops to classify (split out of read.py)."""

from __future__ import annotations

import cv2
import numpy as np

from rnwprint.core.sheet import Cell
from rnwprint.photo.decide import flagged_where_other

#: ink narrower than this (width / height) is one digit; wider ink is also tried cut in two.
#: Two digits that touch or overlap a little, as joined hands write them, can be as narrow as
#: 0.7 (a 1 leaning on a 4); at 0.85 such a 14 was read as a sure 4 (bench_photo.py --joined)
MAYBE_TWO = 0.7
#: two blobs side by side are two digits when each is this share of the ink's height and
#: they overlap by at most this share of the narrower one's width
TWO_PIECES_HEIGHT, TWO_PIECES_OVERLAP = 0.5, 0.3
SPECK = 0.04  # in a two-digit cell, a blob with less than this share of the ink is a speck
#: touching digits are also tried cut at up to MAX_CUTS columns emptier than their neighbours,
#: this share of the ink's width in from either end and this share of it apart
MAX_CUTS, CUT_RANGE, CUT_APART = 3, 0.2, 0.1
#: two pieces side by side are flagged when the shorter is less than this share of the ink's
#: height: one hand writes both digits about as tall, so a short piece is more likely part of
#: a broken digit (a 4's bar) than a digit (tuned on font writers, photo seeds 5000-5399)
SHORT_PIECE = 0.7
#: in a two-digit cell, ink lying within EDGE_LINE_MM of the crop's edges all along (pieces of
#: SPECK of the ink or more) may be the print's leftover (a big box's outline bowed in the photo,
#: inside the crop along its side, read as the 1 of a 13) or a digit written against the box's
#: edge: the number is read without it too, and flagged where that reads otherwise
EDGE_LINE_MM = 1.0
EDGE_LINE_WHY = "a line along the box's edge (the print's leftover?); without it, the number reads {}"


def _aspect(ink: np.ndarray) -> float:
    """Width over height of the ink."""
    cols, rows = np.flatnonzero(ink.any(axis=0)), np.flatnonzero(ink.any(axis=1))
    return (cols[-1] - cols[0] + 1) / (rows[-1] - rows[0] + 1) if len(cols) else 0.0


def _split_digits(ink: np.ndarray, cell: Cell) -> tuple[list[np.ndarray], bool]:
    """The crops to classify, and whether they are surely two digits.

    One crop for a one-digit cell or ink no wider than a digit; else the whole (an X, or one
    wide digit?) followed by a (tens, units) pair for each way to cut it in two, likeliest
    first. Ink in two tall pieces side by side is surely two digits, split piece by piece
    (they may overlap a little); ink that touches is cut where few ink columns are."""
    if cell.high < 10:
        return [ink], False
    count, labels, stats, centroids = _blobs((ink > 0).astype(np.uint8))
    areas = stats[:, cv2.CC_STAT_AREA]
    speck = SPECK * areas[1:].sum()  # specks (dust, a bit of print) would throw the ink's extent off
    blobs = [i for i in range(1, count) if areas[i] >= speck]
    ink = np.where(_among(labels, count, blobs), ink, 0.0).astype(np.float32)
    pieces = _two_pieces(ink, labels, stats, centroids, blobs)
    apart = bool(pieces)
    if not apart:
        if _aspect(ink) < MAYBE_TWO:
            return [ink], False
        pieces = [(ink[:, :cut], ink[:, cut:]) for cut in _cuts(ink)]
    return [ink, *[half for pair in pieces for half in pair]], apart


def without_edge_lines(ink: np.ndarray, px_per_mm: float) -> np.ndarray | None:
    """A two-digit cell's `ink` without its pieces along the crop's edges (see EDGE_LINE_MM),
    or None where there are none, or nothing else."""
    band = round(EDGE_LINE_MM * px_per_mm)
    mask = ink > 0
    count, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    inner = np.bincount(labels[band:-band, band:-band].ravel(), minlength=count) > 0
    lines = mask & ~inner[labels]
    kept = np.count_nonzero(mask & ~lines)
    if np.count_nonzero(lines) < SPECK * np.count_nonzero(mask) or kept == 0:
        return None
    return np.where(lines, 0.0, ink).astype(np.float32)


#: a two-digit cell read with its ink along the crop's edges and without it: flagged where the
#: two differ
edge_line = flagged_where_other(EDGE_LINE_WHY)


def _short_ways(crops: list[np.ndarray]) -> tuple[bool, ...]:
    """For each (tens, units) pair after the whole: whether one of the two is less than
    SHORT_PIECE of the whole ink's height."""
    def height(crop):
        rows = np.flatnonzero(crop.any(axis=1))
        return rows[-1] - rows[0] + 1 if len(rows) else 0

    whole = height(crops[0])
    return tuple(min(height(a), height(b)) < SHORT_PIECE * whole for a, b in zip(crops[1::2], crops[2::2]))


def _cuts(ink: np.ndarray) -> list[int]:
    """Columns to cut touching digits at: the emptiest column in the middle of the ink, then
    the other columns emptier than their neighbours a little further out."""
    columns = ink.sum(axis=0)
    xs = np.flatnonzero(columns)
    width = xs[-1] - xs[0] + 1
    lo, hi = xs[0] + int(0.3 * width), xs[0] + int(0.7 * width)
    cuts = [lo + int(np.argmin(columns[lo:hi + 1]))]
    smooth = np.convolve(columns, np.ones(3) / 3, mode="same")
    lo = max(xs[0] + int(CUT_RANGE * width), 1)
    hi = min(xs[0] + int((1 - CUT_RANGE) * width), len(columns) - 2)
    minima = [x for x in range(lo, hi + 1) if smooth[x] <= smooth[x - 1] and smooth[x] < smooth[x + 1]]
    for x in sorted(minima, key=lambda x: smooth[x]):
        if len(cuts) < MAX_CUTS and all(abs(x - c) > CUT_APART * width for c in cuts):
            cuts.append(x)
    return cuts


def _two_pieces(ink: np.ndarray, labels: np.ndarray, stats: np.ndarray, centroids: np.ndarray,
                blobs: list[int]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The ink as two digits side by side, each way its blobs (connected components, as
    OpenCV labels them) fall into a left and a right group that are each at least half as
    tall as all the ink and barely overlap, least overlap first (a 5 whose bar stands apart
    is one digit: the bar is flat)."""
    if len(blobs) < 2:
        return []
    blobs = sorted(blobs, key=lambda i: centroids[i][0])

    def extent(group):  # left, right, top, bottom
        s = stats[group]
        return s[:, 0].min(), (s[:, 0] + s[:, 2]).max(), s[:, 1].min(), (s[:, 1] + s[:, 3]).max()

    _, _, top, bottom = extent(blobs)
    height = bottom - top

    ways = []
    for k in range(1, len(blobs)):
        (l0, l1, lt, lb), (r0, r1, rt, rb) = extent(blobs[:k]), extent(blobs[k:])
        overlap = l1 - r0
        tall = min(lb - lt, rb - rt) >= TWO_PIECES_HEIGHT * height
        if tall and overlap <= TWO_PIECES_OVERLAP * min(l1 - l0, r1 - r0):
            ways.append((overlap, k))
    pairs = []
    for _, k in sorted(ways)[:MAX_CUTS]:
        left = _among(labels, len(stats), blobs[:k])
        pairs.append((np.where(left, ink, 0.0).astype(np.float32), np.where(left, 0.0, ink).astype(np.float32)))
    return pairs


def _blobs(mask: np.ndarray):
    """cv2.connectedComponentsWithStats(mask, connectivity=8): the same labels, in 16 bits
    (three times faster than in 32: a cell has far fewer than 65,536 blobs)."""
    return cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=cv2.CV_16U)


def _among(labels: np.ndarray, count: int, chosen: list[int]) -> np.ndarray:
    """np.isin(labels, chosen) for labels 0..count-1, by a lookup table (much faster)."""
    table = np.zeros(count, bool)
    table[chosen] = True
    return table[labels]
