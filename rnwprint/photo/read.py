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
from rnwprint.sheet import Cell, Circle, Path, Rect, Sheet, Text

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
    printed = _printed(sheet, px_per_mm)
    for cell in sheet.cells.values():
        ink = _ink(page, printed, cell, px_per_mm)
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


_PRINTED: dict[tuple[str, float], np.ndarray] = {}


def _printed(sheet: Sheet, px_per_mm: float) -> np.ndarray:
    """Where the sheet itself is printed inside its cells (ids, dots, numbers), 1 = print.
    The same identity is the same Sheet, so this is drawn once per identity."""
    key = (sheet.identity.encode(), px_per_mm)
    if key not in _PRINTED:
        from PIL import Image, ImageDraw

        from rnwprint.render.png import draw_item

        size = (int(np.ceil(sheet.width * px_per_mm)), int(np.ceil(sheet.height * px_per_mm)))
        image = Image.new("L", size, 255)
        draw = ImageDraw.Draw(image)
        boxes = [c.bounds for c in sheet.cells.values()]
        for item in sheet.items:
            x0, y0, x1, y1 = _item_bounds(item)
            if any(x0 < bx1 and x1 > bx0 and y0 < by1 and y1 > by0 for bx0, by0, bx1, by1 in boxes):
                draw_item(draw, item, px_per_mm)
        printed = (np.asarray(image) < 215).astype(np.uint8)
        # the photo is never registered to the print to the pixel: widen what is printed
        _PRINTED.clear() if len(_PRINTED) > 8 else None
        _PRINTED[key] = cv2.dilate(printed, np.ones((5, 5), np.uint8))
    return _PRINTED[key]


def _item_bounds(item) -> tuple[float, float, float, float]:
    if isinstance(item, Text):
        w, h = text_width(item.text, item.size, item.bold), item.size * PT
        x = {"start": item.x, "middle": item.x - w / 2, "end": item.x - w}[item.anchor]
        return x, item.y - h, x + w, item.y + h * 0.3
    if isinstance(item, Rect):
        return item.x, item.y, item.x + item.w, item.y + item.h
    if isinstance(item, Circle):
        return item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r
    if isinstance(item, Path):
        xs = [x for ring in item.rings for x, _ in ring]
        ys = [y for ring in item.rings for _, y in ring]
        return min(xs), min(ys), max(xs), max(ys)
    return (0.0, 0.0, 0.0, 0.0)  # QR codes and markers lie outside every cell


def _ink(page: np.ndarray, printed: np.ndarray, cell: Cell, px_per_mm: float) -> np.ndarray:
    """The pen ink inside a cell as a float image: 0 paper, up to 1 for the darkest ink."""
    x0, y0, x1, y1 = cell.bounds
    c0, r0 = int(round((x0 + BORDER_MM) * px_per_mm)), int(round((y0 + BORDER_MM) * px_per_mm))
    c1, r1 = int(round((x1 - BORDER_MM) * px_per_mm)), int(round((y1 - BORDER_MM) * px_per_mm))
    c0, r0 = max(c0, 0), max(r0, 0)
    crop = page[r0:max(r1, r0), c0:max(c1, c0)].astype(np.float32)
    if crop.size == 0:
        return crop
    paper = float(np.percentile(crop, 90))
    dark = np.clip((paper - crop) / max(paper, 1.0), 0.0, 1.0)
    dark[printed[r0:r0 + crop.shape[0], c0:c0 + crop.shape[1]] > 0] = 0  # the sheet's own print
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
    """A guard circle rings the cell (the box edge may cut it into arcs): strokes that keep
    to the outer band and together go most of the way round are the circle."""
    mask = (ink > 0).astype(np.uint8)
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    h, w = ink.shape
    ys, xs = np.mgrid[0:h, 0:w]
    dx, dy = (xs - w / 2) / (w / 2), (ys - h / 2) / (h / 2)
    outer = dx * dx + dy * dy > 0.45  # beyond about two thirds of the way to the edge
    sector = ((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * 24).astype(int) % 24
    ring = np.zeros_like(mask)
    covered: set[int] = set()
    for k in range(1, count):
        part = labels == k
        size = int(part.sum())
        if size < 10 or (part & outer).sum() < 0.75 * size:
            continue
        arc = set(np.unique(sector[part]).tolist())
        if len(arc) >= 4:  # a quarter turn at least: an arc, not a stray stroke end
            covered |= arc
            ring |= part
    if len(covered) < 16 or not (mask & ~ring.astype(bool)).any():
        return ink, False
    return np.where(ring > 0, 0.0, ink).astype(np.float32), True


def _split_digits(ink: np.ndarray, cell: Cell) -> list[np.ndarray]:
    """One crop, or two side by side for a cell that may hold numbers of two digits: a
    number written wider than tall is two digits, cut where the fewest ink columns are."""
    if cell.high < 10:
        return [ink]
    columns = ink.sum(axis=0)
    rows = np.flatnonzero(ink.sum(axis=1))
    xs = np.flatnonzero(columns)
    if len(xs) == 0:
        return [ink]
    width, height = xs[-1] - xs[0] + 1, rows[-1] - rows[0] + 1
    if width < 0.85 * height:
        return [ink]
    lo, hi = xs[0] + int(0.3 * width), xs[0] + int(0.7 * width)
    cut = lo + int(np.argmin(columns[lo:hi + 1]))
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
