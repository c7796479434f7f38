"""How the photo's light left each cell, and reads flagged where it left too little (split
out of read.py)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from rnwprint.core.entries import Guarded
from rnwprint.photo.decide import CellRead
from rnwprint.core.sheet import Cell

#: Light. Darkness against the paper around a cell (its local white) does not change with
#: exposure until the paper is clipped to white; then the pen fades, and so does the print.
#: The print around each cell says by how much: in normal light its darkest tenth is about
#: PRINT_SEEN times as dark as drawn and blurred by PRINT_BLUR_MM (thin lines look fainter
#: than thick ones), so with the paper clipped, a print that looks fainter means the light
#: was A = (1 - seen) / (1 - expected) times too strong there. Up to A =
#: MAX_OVER a pen of PEN_DARK darkness keeps enough to read, and darkness is scaled back to
#: it (a sharp photo's print can look a third darker than expected, so A may be that much
#: more than measured: MAX_OVER leaves room for it); but from FADED_OVER on a lighter pen
#: may be gone, so a cell read blank is flagged, and a written one read less than FADED_SURE
#: sure (a faded 6 that lost its loop read 78 % sure as a 1).
#: Beyond MAX_OVER, and where the paper is darker than DARK_PAPER grey levels (the pen is
#: then a few levels of noise), every cell is read (darkness scaled at most MAX_GAIN times)
#: but flagged, and the reason said.
PRINT_SEEN, PRINT_BLUR_MM, PEN_DARK, FADED_OVER, MAX_OVER, MAX_GAIN = 1.0, 0.125, 0.55, 1.05, 1.3, 4.0
FADED_SURE = 0.9
LIGHT_MARGIN_MM = 2.0  # the print and paper judged around a cell reach this far out of its box
BRIGHT_PAPER, DARK_PAPER = 250, 40  # paper grey levels (of 255): clipped white; too dark to read
#: where the photo's grain (ink._grain) leaves only what is this dark as ink (half a pen's
#: darkness), a light stroke may be lost in it: the cell is "grainy", flagged as a faded one is
GRAINY = 0.25
#: Something over the page (a finger holding it): the reader judges ink against the paper
#: around it, so an even blob wider than a stroke is taken for paper and the cell under it
#: reads blank. Its box's print is hidden too: where a box's print was not found round it
#: (printed.Registration.match under REGISTER_MATCH) and more than COVERED of its outline (the print within
#: OUTLINE_PAD_MM of the box's edges) stands out from the paper beside it by less than half
#: the contrast it is drawn with, the cell is "covered": read, but flagged (unless the light
#: already explains a print not seen: washed out or too dark). Tuning photos
#: without a finger (bench_photo's generator, seeds 7040-7139, 4,912 boxes): at most 0.74 of
#: an outline so hidden (1-2 MP photos blur it), 2 boxes both missed and over COVERED; with a
#: fingertip laid over one box (bench/bench_finger.py), numbers hidden silently 34 -> 10 on
#: 23 tuning photos, 48 -> 11 on 40 held out.
COVERED, OUTLINE_PAD_MM = 0.5, 0.4
#: A fingertip over part of a box leaves the rest of its outline to be found (printed.
#: _register), but weakly, and the number under it reads blank or in part (46 read 6): a
#: number box matched under WEAK_MATCH, with more than COVERED_FOUND of its outline hidden, is
#: "covered" too, in a photo seeing the page at FINGER_SHARP px/mm or more (coarser ones blur
#: outlines as much).
#: Tuning photos without a finger (seeds 7040-7139, 2-12 MP, 3,625 number boxes): the most
#: outline hidden 0.58 under 3 px/mm, 0.43 at 3.02 (bench_finger --clear), 0.27 from 3.25 on,
#: 0.22 from 3.5; the numbers fingertips hid silently (bench_finger's seeds 100-123, and
#: 200-239 of another draw): matched 0.30-0.65, 0.45-0.91 of the outline hidden.
WEAK_MATCH, COVERED_FOUND, FINGER_SHARP = 0.7, 0.4, 3.25
#: A blurred photo (a shaken hand at 3-6 px/mm) hides the outlines of many boxes, a finger
#: those of a few: where more than COVERED_FEW of a sheet's boxes seem covered, a box is
#: covered only if its outline is hidden by more than COVERED_ABOVE over the page's typical box:
#: the median of the boxes not judged covered, or of all where those are under COVERED_CLEAR of
#: them. A stranger's 380 photos, blurred by 0.4-1.4 px: 29 had boxes judged covered (up to 49
#: of 52), none had a finger; bench_finger.py's fingertips: every catch kept (BENCHMARKS.md,
#: "A finger over the page")
COVERED_FEW, COVERED_ABOVE, COVERED_CLEAR = 0.1, 0.2, 0.3


LIGHT_WHY = {"dark": "the photo is too dark here to tell what is written from the paper",
             "bright": "the photo is too bright here: what is written is washed out",
             "faded": "the photo is too bright here: a light stroke may be washed out",
             "grainy": "the photo is grainy here (too little light?): a light stroke may be lost in the noise",
             "covered": "the box's print cannot be seen: is something over it (a finger)?"}


def _in_light(read: CellRead, light: str) -> CellRead:
    """The read, flagged with the reason where the light left too little to read (unless it
    stands: _stands)."""
    if not light or _stands(read, light):
        return read
    return replace(read, unsure=True, why=LIGHT_WHY[light], light="bright" if light == "faded" else light)


def _stands(read: CellRead, light: str) -> bool:
    """Where the light only faded the pen or hid a light one in grain, a cell read as written
    at least FADED_SURE sure stands; but not a guarded number in grain, whose ring the grain
    may have drawn."""
    if light not in ("faded", "grainy") or read.value in (None, False) or read.confidence < FADED_SURE:
        return False
    return not (light == "grainy" and isinstance(read.value, Guarded))


def _exposure(page: np.ndarray, raw: np.ndarray, grey: np.ndarray, cell: Cell, px_per_mm: float,
              shift: tuple[int, int]) -> tuple[str, float]:
    """How the photo's light left one cell: "dark", "bright", "faded" (a pen is read, a blank
    is not sure) or "" (readable), and the gain that brings its darkness back to normal light
    (1 but in clipped paper). The paper is the
    90th percentile of the box and a margin of LIGHT_MARGIN_MM; the print, the 10th
    percentile of the printed pixels there (grey: the sheet as drawn, 255 = white)."""
    (r0, r1, c0, c1), window = _around(page, raw, cell, px_per_mm, shift)
    if window.size == 0:
        return "", 1.0
    if _rank_below(window, 0.9, BRIGHT_PAPER):  # paper not clipped (most photos: no need to rank it)
        return ("dark" if _rank_below(window, 0.9, DARK_PAPER) else ""), 1.0
    paper = _nearest_rank(window, 0.9)
    where = raw[r0:r1, c0:c1] > 0
    if not where.any():  # nothing to judge it by
        return "", 1.0
    seen = 1 - _nearest_rank(window[where], 0.1) / paper
    expected = PRINT_SEEN * (1 - _nearest_rank(grey[r0:r1, c0:c1][where], 0.1) / 255)
    over = (1 - seen) / max(1 - expected, 1e-3)
    if over <= FADED_OVER:
        return "", 1.0
    gain = PEN_DARK / max(1 - over * (1 - PEN_DARK), PEN_DARK / MAX_GAIN)
    return "bright" if over > MAX_OVER else "faded", gain


def _around(page: np.ndarray, raw: np.ndarray, cell: Cell, px_per_mm: float,
            shift: tuple[int, int]) -> tuple[tuple[int, int, int, int], np.ndarray]:
    """The box and a margin of LIGHT_MARGIN_MM round it, as rows and columns (r0, r1, c0, c1) of
    the print (`raw`), and that part of the page where the box was found (`shift` from there)."""
    x0, y0, x1, y1 = cell.bounds
    m, (dy, dx) = LIGHT_MARGIN_MM, shift
    c0, r0 = max(int(round((x0 - m) * px_per_mm)), 0, -dx), max(int(round((y0 - m) * px_per_mm)), 0, -dy)
    c1 = min(int(round((x1 + m) * px_per_mm)), raw.shape[1], page.shape[1] - dx)
    r1 = min(int(round((y1 + m) * px_per_mm)), raw.shape[0], page.shape[0] - dy)
    return (r0, r1, c0, c1), page[r0 + dy:r1 + dy, c0 + dx:c1 + dx]


def _outline_hidden(page: np.ndarray, raw: np.ndarray, grey: np.ndarray, cell: Cell, px_per_mm: float,
                    shift: tuple[int, int]) -> float:
    """The share of the box's outline (see COVERED) that does not stand out from the paper
    beside it (the lightest pixel within OUTLINE_PAD_MM) by half the contrast it is drawn with:
    a shadow dims line and paper alike, a blob over both leaves no contrast."""
    from rnwprint.photo.printed import of_print  # (printed imports this module)

    rows_cols, window = _around(page, raw, cell, px_per_mm, shift)
    if window.size == 0:
        return 0.0
    outline, half_drawn = of_print(raw, ("outline", cell.id, px_per_mm, rows_cols),
                                   lambda: _outline_drawn(raw, grey, cell, px_per_mm, rows_cols))
    if outline is None:
        return 0.0
    return float(np.mean(_contrast(window, outline, px_per_mm) < half_drawn))


def _outline_drawn(raw: np.ndarray, grey: np.ndarray, cell: Cell, px_per_mm: float,
                   rows_cols: tuple[int, int, int, int]) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The box's outline in its window (the print within OUTLINE_PAD_MM of its edges), and half
    the contrast each of its pixels is drawn with; (None, None) where it has no print. The same
    for every photo of the sheet: worked out once."""
    r0, r1, c0, c1 = rows_cols
    pad = OUTLINE_PAD_MM * px_per_mm
    x0, y0, x1, y1 = cell.bounds
    left, top, right, bottom = x0 * px_per_mm - c0, y0 * px_per_mm - r0, x1 * px_per_mm - c0, y1 * px_per_mm - r0
    band = np.zeros((r1 - r0, c1 - c0), bool)  # within pad of the box's edges
    band[max(int(top - pad), 0):int(bottom + pad) + 1, max(int(left - pad), 0):int(right + pad) + 1] = True
    band[int(top + pad) + 1:int(bottom - pad), int(left + pad) + 1:int(right - pad)] = False
    outline = band & (raw[r0:r1, c0:c1] > 0)
    if not outline.any():
        return None, None
    return outline, PRINT_SEEN * _contrast(grey[r0:r1, c0:c1], outline, px_per_mm) / 2


def _contrast(image: np.ndarray, outline: np.ndarray, px_per_mm: float) -> np.ndarray:
    """Each outline pixel's darkness against the lightest pixel within OUTLINE_PAD_MM of it."""
    reach = 2 * int(np.ceil(OUTLINE_PAD_MM * px_per_mm)) + 1
    beside = cv2.dilate(image, np.ones((reach, reach), np.uint8))[outline].astype(np.float32)
    return 1 - image[outline] / np.maximum(beside, 1)


def _rank_below(grey: np.ndarray, q: float, level: int) -> bool:
    """Whether _nearest_rank(grey, q) < level (grey levels, uint8): counted, not ranked."""
    below = cv2.countNonZero(cv2.threshold(grey, level - 1, 1, cv2.THRESH_BINARY_INV)[1])
    return below >= int(q * (grey.size - 1)) + 1


def _nearest_rank(values: np.ndarray, q: float) -> float:
    """The value at rank q (0 to 1) of `values`, nearest rank; grey levels (uint8) counted in
    a histogram (the same value, several times faster than sorting a big cell's window)."""
    k = int(q * (values.size - 1))
    if values.dtype == np.uint8 and values.ndim <= 2:
        counts = cv2.calcHist([values], [0], None, [256], [0, 256]).ravel()
        return float(np.searchsorted(np.cumsum(counts), k + 1))
    return float(np.partition(values.ravel(), k)[k])
