"""The sheet's own print around its cells, drawn once per sheet, and each box registered
to it in the photo (split out of read.py)."""

from __future__ import annotations

import cv2
import numpy as np

from rnwprint.fonts import PT, text_span
from rnwprint.photo.light import PRINT_BLUR_MM
from rnwprint.sheet import Cell, Circle, Path, Rect, Sheet, Text

REGISTER_PAD_MM, REGISTER_SEARCH_MM = 1.0, 1.5  # print matched around a box; how far off it may be
REGISTER_MATCH = 0.3  # a weaker match than this (a box with little print around it) is not moved


_PRINTED: dict[tuple[str, float], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _printed(sheet: Sheet, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Where the sheet itself is printed in and around its cells (box outlines, ids, dots,
    numbers), 1 = print: as drawn (to register the boxes) and widened (to take away); the
    drawing itself, blurred, for _exposure. The same identity is the same Sheet, so this is
    drawn once per identity."""
    key = (sheet.identity.encode(), px_per_mm)
    if key not in _PRINTED:
        from rnwprint.photo.cache import cached

        # kept on disk: the next process need not load the fonts and draw it again
        drawn = cached("print", f"{key[0]}@{px_per_mm:g}", lambda: _draw_print(sheet, px_per_mm), _pack, _unpack)
        printed = (drawn < 215).astype(np.uint8)
        # the photo is never registered to the print to the pixel: widen what is printed by a
        # pixel each way (any wider and it takes pen strokes with it)
        _PRINTED.clear() if len(_PRINTED) > 8 else None
        blurred = cv2.GaussianBlur(drawn, (0, 0), PRINT_BLUR_MM * px_per_mm)
        _PRINTED[key] = printed, cv2.dilate(printed, np.ones((3, 3), np.uint8)), blurred
    return _PRINTED[key][:2]


def _draw_print(sheet: Sheet, px_per_mm: float) -> np.ndarray:
    """The sheet's items that touch a cell, drawn grey (255 = paper) at px_per_mm."""
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
    return np.asarray(image)


def _pack(drawn: np.ndarray) -> bytes:
    import zlib

    return drawn.shape[0].to_bytes(4, "big") + drawn.shape[1].to_bytes(4, "big") + zlib.compress(drawn.tobytes(), 1)


def _unpack(data: bytes) -> np.ndarray:
    import zlib

    h, w = int.from_bytes(data[:4], "big"), int.from_bytes(data[4:8], "big")
    return np.frombuffer(zlib.decompress(data[8:]), np.uint8).reshape(h, w)


def _item_bounds(item) -> tuple[float, float, float, float]:
    if isinstance(item, Text):
        (x0, x1), h = text_span(item), item.size * PT
        return x0, item.y - h, x1, item.y + h * 0.3
    if isinstance(item, Rect):
        return item.x, item.y, item.x + item.w, item.y + item.h
    if isinstance(item, Circle):
        return item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r
    if isinstance(item, Path):
        xs = [x for ring in item.rings for x, _ in ring]
        ys = [y for ring in item.rings for _, y in ring]
        return min(xs), min(ys), max(xs), max(ys)
    return (0.0, 0.0, 0.0, 0.0)  # QR codes and markers lie outside every cell


def _shift(page: np.ndarray, raw: np.ndarray, cell: Cell, px_per_mm: float) -> tuple[int, int]:
    """Where the cell's printed box really lies in the page, in pixels (rows, columns) from
    where the homography put it. Paper curl moves the middle of a page off a plane by up to
    half a millimetre; then the box edge reads as a stroke. The box outline and the print
    around it are matched to the photo; the inside of the box, where the pen is, is left out."""
    r = px_per_mm
    x0, y0, x1, y1 = cell.bounds
    c0, r0 = int(round((x0 - REGISTER_PAD_MM) * r)), int(round((y0 - REGISTER_PAD_MM) * r))
    c1, r1 = int(round((x1 + REGISTER_PAD_MM) * r)), int(round((y1 + REGISTER_PAD_MM) * r))
    s = int(round(REGISTER_SEARCH_MM * r))
    if r0 < s or c0 < s or r1 + s > page.shape[0] or c1 + s > page.shape[1]:
        return 0, 0
    template = (255 * (1 - raw[r0:r1, c0:c1])).astype(np.float32)
    inner = int(round((REGISTER_PAD_MM + 1.0) * r))
    window = page[r0 - s:r1 + s, c0 - s:c1 + s].astype(np.float32)
    match = _ring_match(window, template, inner)
    _, peak, _, (dx, dy) = cv2.minMaxLoc(match)
    return (dy - s, dx - s) if peak >= REGISTER_MATCH else (0, 0)


def _ring_match(window: np.ndarray, template: np.ndarray, inner: int) -> np.ndarray:
    """OpenCV's TM_CCOEFF_NORMED of `template` over `window` with a mask that leaves out the
    template's inside (all but a ring `inner` px wide), -1 where the window is flat; the same
    sums as cv2.matchTemplate(..., mask=...) but the mask's own sums come from integral
    images, so only one correlation is left to compute (several times faster)."""
    th, tw = template.shape
    ring = np.ones_like(template)
    ring[inner:th - inner, inner:tw - inner] = 0
    n = float(ring.sum())
    centred = (template - float((template * ring).sum()) / n) * ring
    norm = float(np.sqrt((centred * centred).sum()))
    numerator = cv2.matchTemplate(window, centred, cv2.TM_CCORR)
    h, w = numerator.shape

    def ring_sums(integral: np.ndarray) -> np.ndarray:
        def box(top, left, bottom, right):  # sums over [top, bottom) x [left, right) at each offset
            return (integral[bottom:bottom + h, right:right + w] - integral[top:top + h, right:right + w]
                    - integral[bottom:bottom + h, left:left + w] + integral[top:top + h, left:left + w])
        return box(0, 0, th, tw) - box(inner, inner, th - inner, tw - inner)

    total, squares = cv2.integral2(window, sdepth=cv2.CV_64F)
    s1, s2 = ring_sums(total), ring_sums(squares)
    variance = s2 - s1 * s1 / n
    flat = variance <= 1e-6 * np.maximum(s2, 1.0)
    out = numerator / (norm * np.sqrt(np.where(flat, 1.0, variance)) + 1e-12)
    return np.where(flat | (norm == 0), -1.0, out).astype(np.float32)

