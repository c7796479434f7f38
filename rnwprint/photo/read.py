"""Reading every cell of a rectified page: blank, X, a digit, two digits, a circled digit,
a ticked box. Each read carries a confidence; below the classifier's calibrated threshold
it is "unsure" and must be checked by a person.

The page is a grey image at `px_per_mm` pixels per millimetre, the same geometry as the
Sheet it was printed from, so each cell's box is known exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rnwprint.audit.entries import CROSSED, Guarded, Mark
from rnwprint.fonts import PT, text_width
from rnwprint.photo import digits
from rnwprint.sheet import Cell, Sheet, Text

BORDER_MM = 0.7  # the printed box outline, left out of every cell
INK_DARKNESS = 0.28  # how much darker than the paper a pixel must be to count as ink
BLANK_INK = 0.006  # below this share of a cell's area in ink, the cell is blank
UNSURE_BLANK = (0.003, 0.012)  # ink shares too close to call blank or written
TICK_INK = 0.04  # a tick box with more ink than this share is ticked
UNSURE_TICK = (0.02, 0.07)


@dataclass(frozen=True)
class CellRead:
    id: str
    value: Mark | bool | None  # None: blank; bool: a tick box
    confidence: float
    unsure: bool
    why: str = ""  # what made it unsure


def read_cells(page: np.ndarray, sheet: Sheet, px_per_mm: float, allows_guarded: bool) -> dict[str, CellRead]:
    """Read every cell of `sheet` from the rectified grey `page`."""
    reads: dict[str, CellRead] = {}
    pending = []  # (cell, [ink crops], circled) waiting for the classifier, batched
    labels = _labels_by_cell(sheet)
    for cell in sheet.cells.values():
        ink = _ink(page, cell, labels.get(cell.id, ()), px_per_mm)
        share = float((ink > 0).mean()) if ink.size else 0.0
        if cell.kind == "tick":
            reads[cell.id] = _tick(cell, share)
            continue
        if share < BLANK_INK:
            unsure = share > UNSURE_BLANK[0]
            reads[cell.id] = CellRead(cell.id, None, 1.0 - share / BLANK_INK if unsure else 1.0, unsure,
                                      "faint marks" if unsure else "")
            continue
        circled = False
        if allows_guarded:
            ink, circled = _remove_circle(ink)
        pending.append((cell, _split_digits(ink, cell), circled, share))

    crops = [crop for _, parts, _, _ in pending for crop in parts]
    probs = digits.probabilities(crops) if crops else np.zeros((0, len(digits.CLASSES)))
    row = 0
    for cell, parts, circled, share in pending:
        p = probs[row:row + len(parts)]
        row += len(parts)
        reads[cell.id] = _decide(cell, p, circled, share)
    return reads


def _labels_by_cell(sheet: Sheet) -> dict[str, list[tuple[float, float, float, float]]]:
    """The printed texts inside each cell's box (its id, a track number), as mm rectangles."""
    out: dict[str, list] = {}
    boxes = {cid: c.bounds for cid, c in sheet.cells.items()}
    for item in sheet.items:
        if not isinstance(item, Text):
            continue
        w, h = text_width(item.text, item.size, item.bold), item.size * PT
        x = {"start": item.x, "middle": item.x - w / 2, "end": item.x - w}[item.anchor]
        rect = (x - 0.3, item.y - h * 0.8, x + w + 0.3, item.y + h * 0.25)
        for cid, (x0, y0, x1, y1) in boxes.items():
            if rect[0] < x1 and rect[2] > x0 and rect[1] < y1 and rect[3] > y0:
                out.setdefault(cid, []).append(rect)
    return out


def _ink(page: np.ndarray, cell: Cell, labels, px_per_mm: float) -> np.ndarray:
    """The pen ink inside a cell as a float image: 0 paper, up to 1 for the darkest ink."""
    x0, y0, x1, y1 = cell.bounds
    inset = BORDER_MM
    c0, r0 = int(round((x0 + inset) * px_per_mm)), int(round((y0 + inset) * px_per_mm))
    c1, r1 = int(round((x1 - inset) * px_per_mm)), int(round((y1 - inset) * px_per_mm))
    crop = page[max(r0, 0):max(r1, 0), max(c0, 0):max(c1, 0)].astype(np.float32)
    if crop.size == 0:
        return crop
    paper = float(np.percentile(crop, 90))
    dark = np.clip((paper - crop) / max(paper, 1.0), 0.0, 1.0)
    for lx0, ly0, lx1, ly1 in labels:  # the printed id is not ink
        a0, b0 = int((lx0 - x0 - inset) * px_per_mm), int((ly0 - y0 - inset) * px_per_mm)
        a1, b1 = int(np.ceil((lx1 - x0 - inset) * px_per_mm)), int(np.ceil((ly1 - y0 - inset) * px_per_mm))
        dark[max(b0, 0):max(b1, 0), max(a0, 0):max(a1, 0)] = 0
    ink = np.where(dark > INK_DARKNESS, dark, 0.0).astype(np.float32)
    mask = (ink > 0).astype(np.uint8)
    # JPEG noise and paper texture leave isolated specks; pen strokes are wider.
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    return ink * opened


def _tick(cell: Cell, share: float) -> CellRead:
    ticked = share > TICK_INK
    lo, hi = UNSURE_TICK
    unsure = lo < share < hi
    edge = hi if ticked else lo
    confidence = 0.5 + min(abs(share - TICK_INK) / max(abs(edge - TICK_INK), 1e-9), 1.0) / 2
    return CellRead(cell.id, ticked, confidence, unsure, "faint tick" if unsure else "")


def _remove_circle(ink: np.ndarray) -> tuple[np.ndarray, bool]:
    """A guard circle is one stroke ringing the cell: take it away and say it was there."""
    mask = (ink > 0).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = ink.shape
    for k in range(1, count):
        x, y, bw, bh, area = stats[k]
        if bw < 0.6 * w or bh < 0.6 * h:
            continue
        ring = (labels == k).astype(np.uint8)
        filled = ring.copy()
        contours, _ = cv2.findContours(ring, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
        hole = filled.sum() - ring.sum()
        others = mask.sum() - ring.sum()
        if hole > 0.4 * filled.sum() and others > 0:  # a ring with something inside it
            return np.where(labels == k, 0.0, ink).astype(np.float32), True
    return ink, False


def _split_digits(ink: np.ndarray, cell: Cell) -> list[np.ndarray]:
    """One crop, or two side by side for a cell that may hold numbers of two digits."""
    if cell.high < 10:
        return [ink]
    cols = (ink > 0).any(axis=0)
    xs = np.flatnonzero(cols)
    if len(xs) == 0:
        return [ink]
    span = cols[xs[0]:xs[-1] + 1]
    gaps = np.flatnonzero(~span)
    if len(gaps) == 0:
        return [ink]
    # the widest run of empty columns inside the ink separates the two digits
    runs = np.split(gaps, np.flatnonzero(np.diff(gaps) > 1) + 1)
    widest = max(runs, key=len)
    if len(widest) < max(2, 0.04 * ink.shape[1]):
        return [ink]
    cut = xs[0] + (widest[0] + widest[-1]) // 2
    return [ink[:, :cut], ink[:, cut:]]


def _decide(cell: Cell, p: np.ndarray, circled: bool, share: float) -> CellRead:
    if len(p) == 1:
        allowed = [str(v) for v in range(cell.low, min(cell.high, 9) + 1)] + ["X"]
        q = digits.restrict(p, allowed)[0]
        best = int(q.argmax())
        label, confidence = allowed[best], float(q[best])
        value: Mark = CROSSED if label == "X" else int(label)
    else:
        tens = [str(v) for v in range(max(cell.low // 10, 1), cell.high // 10 + 1)]
        qa = digits.restrict(p[:1], tens)[0]
        qb = digits.restrict(p[1:2], [str(v) for v in range(10)])[0]
        a, b = int(qa.argmax()), int(qb.argmax())
        value = int(tens[a]) * 10 + b
        confidence = float(qa[a] * qb[b])
        if not cell.low <= value <= cell.high:
            confidence = 0.0
    if circled and value != CROSSED:
        value = Guarded(value)
    unsure = confidence < digits.UNSURE_BELOW
    return CellRead(cell.id, value, confidence, unsure, f"best guess {confidence:.0%} sure" if unsure else "")
