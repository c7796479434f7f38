"""The sheet's own print around its cells, drawn once per sheet, and each box registered
to it in the photo (split out of read.py)."""

from __future__ import annotations

import cv2
import numpy as np

from rnwprint.fonts import PT, text_span
from rnwprint.photo.light import PRINT_BLUR_MM
from rnwprint.core.sheet import Cell, Circle, Path, Rect, Sheet, Text

#: a number's ink is followed this far out of its box (rnwprint.photo.overflow): print_around
#: draws the print that far round each cell
AROUND_MM = 2.0

REGISTER_PAD_MM, REGISTER_SEARCH_MM = 1.0, 1.5  # print matched around a box; how far off it may be
REGISTER_MATCH = 0.3  # a weaker match than this (a box with little print around it) is not moved


_PRINTED: dict[tuple[str, float], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
_AROUND: dict[tuple[str, float], np.ndarray] = {}


def _printed(sheet: Sheet, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Where the sheet itself is printed in and around its cells (box outlines, ids, dots,
    numbers), 1 = print: as drawn (to register the boxes) and widened (to take away); the
    drawing itself, blurred, for _exposure. The same identity is the same Sheet, so this is
    drawn once per identity."""
    key = (sheet.identity.encode(), px_per_mm)
    if key not in _PRINTED:
        from rnwprint.cache import cached

        # kept on disk: the next process need not load the fonts and draw it again
        drawn = cached("print", f"{key[0]}@{px_per_mm:g}", lambda: _draw_print(sheet, px_per_mm), _pack, _unpack)
        printed = cv2.threshold(drawn, 214, 1, cv2.THRESH_BINARY_INV)[1]  # drawn < 215: 1 (numpy's took 8 ms)
        # the photo is never registered to the print to the pixel: widen what is printed by a
        # pixel each way (any wider and it takes pen strokes with it)
        _PRINTED.clear() if len(_PRINTED) > 8 else None
        blurred = cv2.GaussianBlur(drawn, (0, 0), PRINT_BLUR_MM * px_per_mm)
        _PRINTED[key] = printed, cv2.dilate(printed, np.ones((3, 3), np.uint8)), blurred
    return _PRINTED[key][:2]


def print_around(sheet: Sheet, px_per_mm: float) -> np.ndarray:
    """Where the sheet is printed within AROUND_MM of its cells, 1 = print (widened as _printed
    widens it); drawn once per identity and kept on disk, as _printed's drawing is."""
    key = (sheet.identity.encode(), px_per_mm)
    if key not in _AROUND:
        from rnwprint.cache import cached

        def widened() -> np.ndarray:
            drawn = _draw_print(sheet, px_per_mm, AROUND_MM)
            return cv2.dilate(cv2.threshold(drawn, 214, 1, cv2.THRESH_BINARY_INV)[1], np.ones((3, 3), np.uint8))

        # kept as bits: a map's mask loads in half the time of its drawing
        if len(_AROUND) > 8:
            _AROUND.clear()
        _AROUND[key] = cached("print-around", f"{key[0]}@{px_per_mm:g}", widened,
                              lambda mask: _pack(np.packbits(mask, axis=1)), lambda data: _unpack_bits(data, sheet, px_per_mm))
    return _AROUND[key]


def _unpack_bits(data: bytes, sheet: Sheet, px_per_mm: float) -> np.ndarray:
    width = int(np.ceil(sheet.width * px_per_mm))
    return np.unpackbits(_unpack(data), axis=1, count=width)


def _draw_print(sheet: Sheet, px_per_mm: float, around: float = 0.0) -> np.ndarray:
    """The sheet's items that touch a cell, or come within `around` mm of one, drawn grey (255 =
    paper) at px_per_mm."""
    from PIL import Image, ImageDraw

    from rnwprint.render.png import draw_item

    size = (int(np.ceil(sheet.width * px_per_mm)), int(np.ceil(sheet.height * px_per_mm)))
    image = Image.new("L", size, 255)
    draw = ImageDraw.Draw(image)
    boxes = [(x0 - around, y0 - around, x1 + around, y1 + around)
             for x0, y0, x1, y1 in (c.bounds for c in sheet.cells.values())]
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


def _shift(page: np.ndarray, raw: np.ndarray, cell: Cell, px_per_mm: float,
           near: tuple[int, int] | None = None) -> tuple[int, int]:
    """Where the cell's printed box really lies in the page, in pixels (rows, columns) from
    where the homography put it. Paper curl moves the middle of a page off a plane by up to
    half a millimetre; then the box edge reads as a stroke. The box outline and the print
    around it are matched to the photo; the inside of the box, where the pen is, is left out.
    `near`: the shift of a box close by (see Registration)."""
    return _register(page, raw, cell, px_per_mm, near)[0]


def _register(page: np.ndarray, raw: np.ndarray, cell: Cell, px_per_mm: float,
              near: tuple[int, int] | None = None) -> tuple[tuple[int, int], float]:
    """(_shift's shift, how well the print matched there: REGISTER_MATCH or more, else not
    matched and not moved; 0 for a box too near the page's edge). With `near`, the box is looked for
    within NEAR_PX of that shift first, and over the whole search only if the best match
    there is weak or on that small window's edge (so maybe not the best of all)."""
    r = px_per_mm
    x0, y0, x1, y1 = cell.bounds
    c0, r0 = int(round((x0 - REGISTER_PAD_MM) * r)), int(round((y0 - REGISTER_PAD_MM) * r))
    c1, r1 = int(round((x1 + REGISTER_PAD_MM) * r)), int(round((y1 + REGISTER_PAD_MM) * r))
    s = int(round(REGISTER_SEARCH_MM * r))
    if r0 < s or c0 < s or r1 + s > page.shape[0] or c1 + s > page.shape[1]:
        return (0, 0), 0.0
    inner = int(round((REGISTER_PAD_MM + 1.0) * r))
    ring = _ring_template(raw, (r0, r1, c0, c1), inner)
    if near is not None:
        shift, peak, inside = _best(page, ring, (r0, r1, c0, c1), inner, near, NEAR_PX, s)
        if inside and peak >= REGISTER_MATCH:
            return shift, peak
    shift, peak, _ = _best(page, ring, (r0, r1, c0, c1), inner, (0, 0), s, s)
    return (shift, peak) if peak >= REGISTER_MATCH else ((0, 0), peak)


def _best(page: np.ndarray, ring, box: tuple[int, int, int, int], inner: int, centre: tuple[int, int],
          k: int, s: int) -> tuple[tuple[int, int], float, bool]:
    """The best match of the ring at shifts within k of `centre` and within s of (0, 0):
    (shift, its score, whether it lies inside that window rather than on an edge the whole
    search would look past)."""
    r0, r1, c0, c1 = box
    top, bottom = max(centre[0] - k, -s), min(centre[0] + k, s)
    left, right = max(centre[1] - k, -s), min(centre[1] + k, s)
    window = page[r0 + top:r1 + bottom, c0 + left:c1 + right]
    _, peak, _, (dx, dy) = cv2.minMaxLoc(_ring_match(window, None, inner, ring))
    dy, dx = dy + top, dx + left
    inside = (top == -s or dy > top) and (bottom == s or dy < bottom) and \
        (left == -s or dx > left) and (right == s or dx < right)
    return (dy, dx), peak, inside


#: a box within NEAR_MM of one already registered is looked for within NEAR_PX of its shift
#: first: paper curl bends the page smoothly, so boxes close together move alike
NEAR_MM, NEAR_PX = 40.0, 2


class Registration:
    """A sheet's boxes registered one after another (_shift), each looked for first near
    the shift of the closest box already found, or where the fit put it if none is close:
    a window of 5 x 5 shifts instead of ±REGISTER_SEARCH_MM each way (25 x 25 at 8 px/mm),
    for the same shifts."""

    def __init__(self, page: np.ndarray, raw: np.ndarray, px_per_mm: float):
        self.page, self.raw, self.px_per_mm = page, raw, px_per_mm
        self.found: list[tuple[float, float, tuple[int, int]]] = []  # (x, y) mm of a box's centre, its shift
        self.match: dict[str, float] = {}  # how well each box's print matched (see _register; under
        # REGISTER_MATCH: not found round it, left where the fit put it)

    def shift(self, cell: Cell) -> tuple[int, int]:
        x0, y0, x1, y1 = cell.bounds
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        near, best = (0, 0), NEAR_MM * NEAR_MM
        for fx, fy, fshift in self.found:
            d = (fx - x) ** 2 + (fy - y) ** 2
            if d <= best:
                near, best = fshift, d
        shift, self.match[cell.id] = _register(self.page, self.raw, cell, self.px_per_mm, near)
        if self.match[cell.id] >= REGISTER_MATCH:
            self.found.append((x, y, shift))
        return shift


#: id(raw) -> (raw itself, {key: what was worked out from it}): the same sheet's print is
#: matched around the same boxes on every photo of it, so what depends on the print alone is
#: worked out once
_OF_PRINT: dict[int, tuple[np.ndarray, dict]] = {}


def of_print(raw: np.ndarray, key, make):
    """make(), kept with the print `raw` (a _printed array) under `key`."""
    held = _OF_PRINT.get(id(raw))
    if held is None or held[0] is not raw:
        if len(_OF_PRINT) > 8:
            _OF_PRINT.clear()
        held = _OF_PRINT[id(raw)] = (raw, {})
    if key not in held[1]:
        held[1][key] = make()
    return held[1][key]


def _ring_template(raw: np.ndarray, box: tuple[int, int, int, int], inner: int):
    r0, r1, c0, c1 = box
    return of_print(raw, ("ring", *box, inner),
                    lambda: _prepare((255 * (1 - raw[r0:r1, c0:c1])).astype(np.float32), inner))


#: a template at least this long a side is correlated strip by strip (its inside is left out:
#: four thin strips are cheaper than the whole square; the same sums, added in another order)
STRIPS_FROM = 120


def _prepare(template: np.ndarray, inner: int):
    """What _ring_match needs of a template: its ring centred on the ring's mean, the norm of
    that, the ring's pixel count, and the ring cut into four strips (or None)."""
    th, tw = template.shape
    ring = np.ones_like(template)
    ring[inner:th - inner, inner:tw - inner] = 0
    n = float(ring.sum())
    centred = (template - float((template * ring).sum()) / n) * ring
    norm = float(np.sqrt((centred * centred).sum()))
    strips = None
    if min(th, tw) >= STRIPS_FROM and th > 2 * inner and tw > 2 * inner:
        strips = (centred[:inner].copy(), centred[th - inner:].copy(),
                  centred[inner:th - inner, :inner].copy(), centred[inner:th - inner, tw - inner:].copy())
    return centred, norm, n, strips


def _ring_match(window: np.ndarray, template: np.ndarray | None, inner: int, prepared=None) -> np.ndarray:
    """OpenCV's TM_CCOEFF_NORMED of `template` over the grey (uint8) `window` with a mask that
    leaves out the template's inside (all but a ring `inner` px wide), -1 where the window is
    flat; the same sums as cv2.matchTemplate(..., mask=...) but the mask's own sums come from
    integral images, so only one correlation is left to compute (several times faster).
    `prepared`: _prepare(template, inner), when kept from before."""
    centred, norm, n, strips = prepared if prepared is not None else _prepare(template, inner)
    th, tw = centred.shape
    if strips is None:
        numerator = _correlate(window, centred)
    else:
        top, bottom, left, right = strips
        wh, ww = window.shape
        numerator = _correlate(window[:wh - th + inner], top)
        numerator += _correlate(window[th - inner:], bottom)
        numerator += _correlate(window[inner:wh - inner, :ww - tw + inner], left)
        numerator += _correlate(window[inner:wh - inner, tw - inner:], right)
    h, w = numerator.shape

    # whole numbers, so exact in either type; OpenCV's float64 sums are ten times slower
    total, squares = cv2.integral2(window, sdepth=cv2.CV_32S, sqdepth=cv2.CV_64F)

    def ring(sums):  # sums over the ring at each offset: its square less its inside
        def box(top, left, bottom, right):  # over [top, bottom) x [left, right)
            return (sums[bottom:bottom + h, right:right + w] - sums[top:top + h, right:right + w]
                    - sums[bottom:bottom + h, left:left + w] + sums[top:top + h, left:left + w])
        return box(0, 0, th, tw) - box(inner, inner, th - inner, tw - inner)

    s1, s2 = ring(total).astype(np.float64), ring(squares)
    variance = s2 - s1 * s1 / n
    flat = variance <= 1e-6 * np.maximum(s2, 1.0)
    out = numerator / (norm * np.sqrt(np.where(flat, 1.0, variance)) + 1e-12)
    return np.where(flat | (norm == 0), -1.0, out).astype(np.float32)


#: a window with at most this many offsets (the guided search's 5 x 5) is correlated directly
FEW_OFFSETS = 25


def _correlate(window: np.ndarray, template: np.ndarray) -> np.ndarray:
    """cv2.matchTemplate(window, template, cv2.TM_CCORR), the window taken as float32. For a
    few offsets, one product of the template with the window's rows laid end to end (offset
    (dy, dx) starts dy rows and dx pixels in), not OpenCV's Fourier transform, which costs as
    much for 5 x 5 offsets as for 25 x 25."""
    wh, ww = window.shape
    th, tw = template.shape
    oh, ow = wh - th + 1, ww - tw + 1
    if oh * ow > FEW_OFFSETS:
        return cv2.matchTemplate(window.astype(np.float32), template, cv2.TM_CCORR)
    length = (th - 1) * ww + tw
    padded = np.zeros((th, ww), np.float32)
    padded[:, :tw] = template
    starts = (np.arange(oh)[:, None] * ww + np.arange(ow)).ravel()
    flat = np.ascontiguousarray(window, np.float32).ravel()
    step = flat.strides[0]
    # every run of `length` pixels (numpy's sliding_window_view, without its checks: it costs
    # more than the product here, called some 130 times a photo)
    rows = np.ndarray((flat.size - length + 1, length), np.float32, flat, 0, (step, step))
    return (rows[starts] @ padded.ravel()[:length]).reshape(oh, ow)
