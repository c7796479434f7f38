"""The pen ink in a cell: darkness against the paper around it, the sheet's print taken
away (split out of read.py)."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from rnwprint.photo.printed import of_print
from rnwprint.core.sheet import Cell

BORDER_MM = 0.7  # the printed box outline, left out of every cell
INK_RELATIVE = 0.25  # and at least this share of the cell's darkest ink (faint, blurred strokes too)
INK_DARKNESS = 0.14  # how much darker than the paper around it a pixel must be to be ink
PEN_OVER_PRINT = 0.15  # pen this much darker than a printed mark is kept where it crosses it
STROKE_MM = 3.5  # wider than any pen stroke (a felt pen blot too), narrower than a shadow
TICK_EDGE = 1.5  # photo pixels along a tick box's edges left out (see _share_inside)
#: Grain. In a photo taken in dim light the phone amplifies its sensor's noise: against the
#: paper around it (its brightest, after the closing) every paper pixel looks a little dark.
#: The darkness a quarter of a cell's pixels exceed is paper (no pen covers three quarters of
#: a cell: at most 0.04 dark without noise; but see GRAIN_SPREAD), and the noise's darkest
#: 0.5 % are at most 3.6 times as dark (measured, noise of 8-25 grey levels, 3.5-10 px/mm),
#: so ink is only what is GRAIN_TIMES times darker than that.
GRAIN_RANK, GRAIN_TIMES = 0.25, 4.0
GRAIN_SAMPLE = 600
PRINT_EDGE_MM = 0.25  # see _off_print
GRAIN_SPREAD = 2.0  # a cell's grain is within this many times the median cell's (read.separate)
#: the blur of the box's printed outline, left along the crop's edges, is taken away this far in:
#: at each distance from the edge, the FRAME_SHARE percentile of the darkness along each edge
#: that far in, the median of the four (the frame runs all round the crop; a ring near the
#: edge, or a stroke, along a part of it)
FRAME_PX, FRAME_SHARE = 12, 25
_SPECK = np.ones((2, 2), np.uint8)


def _darkness(page: np.ndarray, raw: np.ndarray, printed: np.ndarray, cell: Cell, px_per_mm: float,
              shift: tuple[int, int]) -> np.ndarray:
    """How much darker than the paper around it each pixel inside the cell is, 0 to 1, with
    the sheet's own print left out.

    Pen strokes are thin and dark; shadows and light gradients are broad. A closing with a
    brush wider than a stroke paints the strokes over with the paper around them and keeps
    the edges of shadows, so (closed - photo) / closed is the ink alone, in any light."""
    r0, r1, c0, c1 = _cell_crop(cell, px_per_mm)
    margin = int(2 * px_per_mm)
    dy, dx = shift
    b0, a0 = max(r0 + dy - margin, 0), max(c0 + dx - margin, 0)
    around = page[b0:r1 + dy + margin, a0:c1 + dx + margin]
    if around.size == 0 or r1 <= r0 or c1 <= c0:
        return np.zeros((max(r1 - r0, 0), max(c1 - c0, 0)), np.float32)
    brush = _brush(px_per_mm)
    closed = cv2.morphologyEx(around, cv2.MORPH_CLOSE, brush)
    inside = (slice(r0 + dy - b0, r1 + dy - b0), slice(c0 + dx - a0, c1 + dx - a0))
    closed = closed[inside].astype(np.float32)  # only the cell itself is needed from here on
    dark = (closed - around[inside]) / np.maximum(closed, 1.0)
    parts = of_print(raw, ("parts", r0, r1, c0, c1), lambda: _print_parts(raw[r0:r1, c0:c1], printed[r0:r1, c0:c1]))
    _take_print_away(dark, raw[r0:r1, c0:c1], printed[r0:r1, c0:c1], parts)
    return dark


def _cell_crop(cell: Cell, px_per_mm: float) -> tuple[int, int, int, int]:
    """The rows and columns (r0, r1, c0, c1; ends excluded) of the page a cell's crop takes:
    its box, BORDER_MM in from the printed outline."""
    return _crop_of(cell.bounds, px_per_mm)


@functools.lru_cache(maxsize=4096)
def _crop_of(bounds: tuple[float, float, float, float], px_per_mm: float) -> tuple[int, int, int, int]:
    """_cell_crop of a box's bounds (asked hundreds of times a photo)."""
    x0, y0, x1, y1 = bounds
    c0, r0 = int(round((x0 + BORDER_MM) * px_per_mm)), int(round((y0 + BORDER_MM) * px_per_mm))
    c1, r1 = int(round((x1 - BORDER_MM) * px_per_mm)), int(round((y1 - BORDER_MM) * px_per_mm))
    c0, r0 = max(c0, 0), max(r0, 0)
    return r0, max(r1, r0), c0, max(c1, c0)


def _off_print(ink: np.ndarray, printed: np.ndarray, cell: Cell, px_per_mm: float) -> np.ndarray:
    """`ink` of a cell less what lies within PRINT_EDGE_MM of its print (a cell id's edges, blurred
    past the print taken away, leave specks there in a blank cell)."""
    r0, r1, c0, c1 = _cell_crop(cell, px_per_mm)
    near = printed[r0:r1, c0:c1]
    if not near.any():
        return ink
    reach = 2 * int(round(PRINT_EDGE_MM * px_per_mm)) + 1
    near = cv2.dilate(near, np.ones((reach, reach), np.uint8))
    return np.where(near > 0, 0, ink)


@functools.cache
def _brush(px_per_mm: float) -> np.ndarray:
    return np.ones((int(STROKE_MM * px_per_mm) | 1,) * 2, np.uint8)


def _print_parts(raw: np.ndarray, printed: np.ndarray):
    """What _take_print_away needs of a cell's print (the same on every photo of the sheet):
    where it is not printed (widened), the printed pixels (flat indices) and the mark each
    belongs to, each mark's own pixels (not its widened edge: flat indices, their marks) and
    pixel count; None where nothing is printed."""
    where = printed > 0
    if not where.any():
        return None
    count, labels = cv2.connectedComponents(printed, connectivity=8)
    core = np.flatnonzero(raw > 0)
    sizes = np.maximum(np.bincount(labels.ravel()[core], minlength=count), 1)
    spots = np.flatnonzero(where)
    return ~where, spots, labels.ravel()[spots], core, labels.ravel()[core], count, sizes


def _take_print_away(dark: np.ndarray, raw: np.ndarray, printed: np.ndarray, parts=False) -> None:
    """Zero the sheet's own print in `dark`, but keep pen strokes that cross it: where a
    printed mark (a cell id, a dot) is lighter than the pen, ink over it is darker than the
    rest of the mark (halfway between the mark's mean darkness and the pen's is the line).
    `parts`: _print_parts(raw, printed), when kept from before."""
    if parts is False:
        parts = _print_parts(raw, printed)
    if parts is None:
        return
    outside, spots, spot_marks, core, core_marks, count, sizes = parts
    pen = _darkest(dark[outside], PEN_OVER_PRINT)
    if pen > PEN_OVER_PRINT:  # (a blank cell has no pen to keep)
        level = np.bincount(core_marks, weights=np.take(dark, core), minlength=count) / sizes
        line = np.where(pen - level > PEN_OVER_PRINT, (level + pen) / 2, np.inf)
        spots = spots[np.take(dark, spots) <= line[spot_marks]]
    np.put(dark, spots, 0)


def _darkest(dark: np.ndarray, at_least: float = -np.inf) -> float:
    """How dark the pen is: the darkness only 0.5 % of the pixels exceed (the darkest few are
    often a stray speck), or `at_least` if that is no more: then only the pixels above it are
    ranked (most of a cell is paper). Nearest rank: np.percentile's overhead costs more than
    the cell."""
    if dark.size == 0:
        return 0.0
    values = dark.ravel()
    k = int(0.995 * (values.size - 1))
    if at_least > -np.inf:
        above = values[values > at_least]
        if above.size < values.size - k:  # the rank k falls at or below at_least
            return at_least
        values, k = above, k - (values.size - above.size)
    return float(np.partition(values, k)[k])


def _grain(dark: np.ndarray) -> float:
    """The darkness below which a pixel of this cell may be the photo's noise (see GRAIN_TIMES);
    ranked among every other pixel of every other row, or fewer where that leaves over
    GRAIN_SAMPLE of them (as good, and a big cell's many times faster)."""
    step = max(round((dark.size / GRAIN_SAMPLE) ** 0.5), 2)
    sample = dark[::step, ::step]
    if sample.size == 0:
        return 0.0
    k = int(GRAIN_RANK * (sample.size - 1))
    return GRAIN_TIMES * float(np.partition(sample.ravel(), k)[k])


def _ink(dark: np.ndarray, floor: float = INK_DARKNESS) -> np.ndarray:
    """The pen ink: pixels dark enough, for this cell's pen and light; 0 elsewhere."""
    if dark.size == 0:
        return dark
    ink = cv2.threshold(dark, ink_threshold(dark, floor), 0, cv2.THRESH_TOZERO)[1]  # 0 where not darker
    return ink * without_specks((ink > 0).astype(np.uint8))


def ink_threshold(dark: np.ndarray, floor: float) -> float:
    """How dark a pixel of this cell must be to be ink: the `floor`, or INK_RELATIVE of the
    cell's darkest ink where that is more."""
    core = _darkest(dark, floor / INK_RELATIVE)  # a pen no darker than this leaves the floor as the line
    return max(floor, INK_RELATIVE * core)


def without_specks(mask: np.ndarray) -> np.ndarray:
    """`mask` (uint8, 0 and 1) less what is narrower than 2 px: JPEG noise and paper texture
    leave isolated specks; pen strokes are wider."""
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, _SPECK)


def _share_inside(ink: np.ndarray, page_px_per_photo_px: float) -> float:
    """The share of the box in ink, leaving out TICK_EDGE photo pixels along its edges: a
    coarse photo blurs the printed outline past the border left out of every cell."""
    m = int(round(TICK_EDGE * page_px_per_photo_px))
    inner = ink[m:ink.shape[0] - m, m:ink.shape[1] - m] if m else ink
    return float((inner > 0).mean()) if inner.size else 0.0


def without_frame(dark: np.ndarray) -> np.ndarray:
    """`dark` (a crop, or a stack of crops of one shape) less, at each distance from the
    crop's edge up to FRAME_PX, the frame's darkness there: the blur of the box's printed
    outline, all round the crop, where a ring or a stroke only passes. Along each of the four
    edges, the FRAME_SHARE percentile of the row (or column) that far in; of the four, the
    median."""
    h, w = dark.shape[-2:]
    depth = min(FRAME_PX, h // 2, w // 2)
    if depth == 0:
        return dark.copy()
    across = np.swapaxes(dark, -1, -2)
    sides = (dark, dark[..., ::-1, :], across, across[..., ::-1, :])  # each edge turned to the top
    four = np.sort([_rows_percentile(side[..., :depth, :]) for side in sides], axis=0)
    frame = (four[1] + four[2]) / 2  # the median of the four edges
    frame = np.concatenate([frame, np.zeros(frame.shape[:-1] + (1,), frame.dtype)], axis=-1).astype(dark.dtype)
    return np.maximum(dark - np.take(frame, _edge_distance(h, w, depth), axis=-1), 0)


def _rows_percentile(rows: np.ndarray) -> np.ndarray:
    """The FRAME_SHARE percentile (the lower one of the two nearest) of each row of `rows`."""
    k = (rows.shape[-1] - 1) * FRAME_SHARE // 100
    return np.partition(rows, k, axis=-1)[..., k]


@functools.lru_cache(maxsize=32)
def _edge_distance(h: int, w: int, depth: int) -> np.ndarray:
    """Each pixel's distance from the edge of an h x w crop, `depth` where `depth` or more."""
    ys, xs = np.mgrid[0:h, 0:w]
    return np.minimum(np.minimum(np.minimum(ys, xs), np.minimum(h - 1 - ys, w - 1 - xs)), depth)
