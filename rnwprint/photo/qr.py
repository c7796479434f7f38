"""The identity QR code in a page's footer: the strip warped top-down, its finder patterns
found by template matching, its modules sampled and decoded (OpenCV's own detector as the
fallback). Split out of photo.locate."""

from __future__ import annotations

import functools

import numpy as np

from rnwprint.layout.page import MARGIN, MARKER_MODULE, MAX_QR_VERSION, QR_MODULE
from rnwprint.photo.homography import _apply, median

QR_PX_PER_MM = 6.0  # the footer strip is warped at this resolution for the QR decoder
MARKER_SIZE = 6 * MARKER_MODULE


def _read_footer_qr(grey: np.ndarray, H: np.ndarray, width: float, height: float, fallback: bool = True):
    """Read the identity QR code in the footer of a page of this size, warped top-down with
    the provisional homography H.

    Returns (text, centres of the code's three finder patterns in image px, modules per side)
    or ("", None, 0). The code is sampled module by module (its finder patterns found by
    template matching in the rectified strip) and handed to OpenCV's decoder as a clean
    image; this reads codes down to about 2 px per module, where OpenCV's own detector
    gives up (and it is faster)."""
    import cv2

    r = QR_PX_PER_MM
    # layout.page: the code's bottom edge, whatever its column and size (a bigger one grows up);
    # a strip as high as version 3's code first (every built-in sheet), then one for the largest
    qr_bottom = height - MARGIN
    x0, x1 = MARGIN + MARKER_SIZE + 0.5, width - MARGIN - MARKER_SIZE - 0.5
    for largest in (29, 17 + 4 * MAX_QR_VERSION):
        y0, y1 = qr_bottom - largest * QR_MODULE - 3.0, height - MARGIN + 2.0
        S = np.array([[r, 0, -x0 * r - 0.5], [0, r, -y0 * r - 0.5], [0, 0, 1]])  # page mm -> strip px
        to_image = H @ np.linalg.inv(S)
        size = (int(round((x1 - x0) * r)), int(round((y1 - y0) * r)))
        strip = cv2.warpPerspective(grey, to_image, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_REPLICATE)
        found = _find_qr(_flatten(strip, r), (qr_bottom - y0) * r, r, largest)
        if found is not None:
            n, values, centres = found
            for dark in _module_guesses(values, n):
                text = _decode_modules(dark)
                if text:
                    return text, _apply(to_image, centres), n
    if not fallback:
        return "", None, 0
    # an unusual footer: let OpenCV look in the strip (slow)
    padded = cv2.copyMakeBorder(strip, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=255)
    text, pts = _decode_qr(padded)
    if text:
        corners = pts.reshape(4, 2).astype(np.float64) - 16
        modules = np.hypot(*(corners[1] - corners[0])) / (QR_MODULE * r)
        n = 21 + 4 * max(0, int(round((modules - 21) / 4)))
        side = corners[1] - corners[0]
        down = corners[3] - corners[0]
        centres = np.array([corners[0] + (side + down) * 3.5 / n, corners[1] + (down - side) * 3.5 / n,
                            corners[3] + (side - down) * 3.5 / n])
        return text, _apply(to_image, centres), n
    return "", None, 0


def _flatten(strip: np.ndarray, r: float) -> np.ndarray:
    """Even out shading (a shadow edge across the code): divide by the local paper level."""
    import cv2

    k = int(4 * QR_MODULE * r) | 1  # wider than the finder's 3-module centre
    paper = cv2.dilate(strip, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    paper = cv2.blur(paper, (k, k))
    return strip.astype(np.float32) / np.maximum(paper.astype(np.float32), 1) * 255


@functools.cache
def _finder_template(r: float) -> np.ndarray:
    """A finder pattern (7x7 modules) with its light separator around, at r px/mm."""
    import cv2

    f = np.ones((9, 9), np.float32)
    f[1:8, 1:8] = 0
    f[2:7, 2:7] = 1
    f[3:6, 3:6] = 0
    side = int(round(9 * QR_MODULE * r))
    return cv2.resize(f * 255, (side, side), interpolation=cv2.INTER_AREA)


def _peaks(score: np.ndarray, floor: float, spacing: int, most: int = 8) -> list[tuple[int, int, float]]:
    score = score.copy()
    out = []
    while len(out) < most:
        y, x = np.unravel_index(int(np.argmax(score)), score.shape)
        s = float(score[y, x])
        if s < floor:
            break
        out.append((int(x), int(y), s))
        score[max(0, y - spacing): y + spacing + 1, max(0, x - spacing): x + spacing + 1] = -1
    return out


def _subpixel(score: np.ndarray, x: int, y: int) -> tuple[float, float]:
    def vertex(a, b, c):
        d = a - 2 * b + c
        return 0.0 if d >= 0 else float(np.clip(0.5 * (a - c) / d, -0.5, 0.5))

    dx = vertex(*score[y, x - 1: x + 2]) if 0 < x < score.shape[1] - 1 else 0.0
    dy = vertex(*score[y - 1: y + 2, x]) if 0 < y < score.shape[0] - 1 else 0.0
    return x + dx, y + dy


def _find_qr(strip: np.ndarray, bottom: float, r: float, largest: int):
    """Find the code's finder patterns in the strip (its bottom edge expected at row `bottom`,
    at most `largest` modules wide) and sample every module: (modules per side, n x n module values, finder centres in strip px).

    The bottom-left finder sits at the same height whatever the version; for each version the
    top-left one is looked for straight above it, and the top-right one beside that."""
    import cv2

    t = _finder_template(r)
    ts = t.shape[0]
    m = QR_MODULE * r  # module, px
    band = int(2.5 * r)  # +- 2.5 mm for a provisional fit that is a little off
    row = int(round(bottom - 8 * m))  # template's top row where it matches the bottom-left finder
    lo, hi = max(0, row - band), min(strip.shape[0] - ts, row + band)
    if hi < lo:
        return None
    score = cv2.matchTemplate(strip[lo: hi + ts], t, cv2.TM_CCOEFF_NORMED)

    def best_in(found: np.ndarray, x0: int, y0: int, x: float, y: float, slack: int):
        """The best finder match (score, template top-left in strip px) whose template's top-left
        lies within `slack` px of (x, y), from `found`: match scores of templates placed from (x0, y0)."""
        ix0, iy0 = int(round(x)) - slack - x0, int(round(y)) - slack - y0
        if ix0 < 0 or iy0 < 0 or iy0 + 2 * slack >= found.shape[0] or ix0 + 2 * slack >= found.shape[1]:
            return None
        part = found[iy0: iy0 + 2 * slack + 1, ix0: ix0 + 2 * slack + 1]
        iy, ix = np.unravel_index(int(np.argmax(part)), part.shape)
        sx, sy = _subpixel(found, int(ix + ix0), int(iy + iy0))
        return float(part[iy, ix]), (sx + x0, sy + y0)

    sizes = [17 + 4 * version for version in range(1, MAX_QR_VERSION + 1) if 17 + 4 * version <= largest]
    reach = [((n - 7) * m, int(round(0.7 * r + 0.02 * (n - 7) * m))) for n in sizes]  # (distance, slack)
    most = max(slack for _, slack in reach)
    best = None
    for cx, cy, sc in _peaks(score, 0.45, int(3 * m)):  # best first
        if best is not None and best[0] >= sc + 2:
            break  # two perfect matches above a weaker peak could not beat the best
        c = _subpixel(score, cx, cy)
        c = (c[0], c[1] + lo)
        # one match over the column above this bottom-left finder holds every version's top-left one
        x0 = cx - most
        y0 = max(0, int(c[1] - reach[-1][0]) - most)
        column = strip[y0: int(c[1] - reach[0][0]) + most + ts + 1, max(0, x0): x0 + 2 * most + ts + 1]
        if x0 < 0 or column.shape[0] < ts or column.shape[1] < ts:
            continue
        above = cv2.matchTemplate(column, t, cv2.TM_CCOEFF_NORMED)
        for n, (d, slack) in zip(sizes, reach):
            top_left = best_in(above, x0, y0, c[0], c[1] - d, slack)
            if top_left is None or sc + top_left[0] < 1.0:
                continue
            a = top_left[1]
            wx0, wy0 = int(round(a[0] + d)) - slack, int(round(a[1])) - slack
            window = strip[max(0, wy0): wy0 + 2 * slack + ts, wx0: wx0 + 2 * slack + ts]
            if wy0 < 0 or window.shape != (2 * slack + ts, 2 * slack + ts):
                continue
            top_right = best_in(cv2.matchTemplate(window, t, cv2.TM_CCOEFF_NORMED), wx0, wy0, a[0] + d, a[1], slack)
            total = sc + top_left[0] + top_right[0]
            if best is None or total > best[0]:
                best = (total, n, a, top_right[1], c)
    if best is None or best[0] < 1.8:
        return None
    _, n, a, b, c = best
    half = (ts - 1) / 2
    centres = np.array([(a[0] + half, a[1] + half), (b[0] + half, b[1] + half), (c[0] + half, c[1] + half)])
    grid = np.array([(3.5, 3.5), (n - 3.5, 3.5), (3.5, n - 3.5)], np.float32)
    M = cv2.getAffineTransform(grid, centres.astype(np.float32))
    jj, ii = np.meshgrid(np.arange(n) + 0.5, np.arange(n) + 0.5)
    px = M[0, 0] * jj + M[0, 1] * ii + M[0, 2]
    py = M[1, 0] * jj + M[1, 1] * ii + M[1, 2]
    # blur and sample only the code's part of the strip (a big code's strip is tall)
    top = max(0, int(min(a[1], b[1])) - 2 * ts)
    smooth = cv2.GaussianBlur(strip[top:], (0, 0), 0.25 * m)
    values = cv2.remap(smooth, px.astype(np.float32), (py - top).astype(np.float32), cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    return n, values, centres


@functools.cache
def _function_modules(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(known, dark) masks of the modules every QR code of this size has: finder patterns,
    separators, timing patterns, the alignment pattern, the dark module."""
    known = np.zeros((n, n), bool)
    dark = np.zeros((n, n), bool)
    finder = np.zeros((7, 7), bool)
    finder[:, :] = True
    finder[1:6, 1:6] = False
    finder[2:5, 2:5] = True
    for y, x in ((0, 0), (0, n - 7), (n - 7, 0)):
        known[max(0, y - 1): y + 8, max(0, x - 1): x + 8] = True  # with separators
        dark[y: y + 7, x: x + 7] = finder
    known[6, 8: n - 8] = known[8: n - 8, 6] = True
    dark[6, 8: n - 8] = dark[8: n - 8, 6] = (np.arange(8, n - 8) % 2 == 0)
    for y, x in _alignment_centres(n):
        known[y - 2: y + 3, x - 2: x + 3] = True
        dark[y - 2: y + 3, x - 2: x + 3] = True
        dark[y - 1: y + 2, x - 1: x + 2] = False
        dark[y, x] = True
    known[n - 8, 8] = dark[n - 8, 8] = True
    return known, dark  # versions 7 and up: their version information is left unknown


def _alignment_centres(n: int) -> list[tuple[int, int]]:
    """Centres of the alignment patterns of a code n modules wide (ISO 18004, annex E)."""
    version = (n - 17) // 4
    if version < 2:
        return []
    count = version // 7 + 2
    step = 26 if version == 32 else (version * 4 + count * 2 + 1) // (count * 2 - 2) * 2
    at = [6] + [n - 7 - i * step for i in range(count - 2, -1, -1)]
    corners = {(6, 6), (6, n - 7), (n - 7, 6)}  # under the finder patterns
    return [(y, x) for y in at for x in at if (y, x) not in corners]


def _module_guesses(values: np.ndarray, n: int):
    """Dark/light guesses for the sampled modules, best first: a threshold, then a fit of
    the blur (each module bleeds into its neighbours) learnt from the modules every code
    has, then thresholds a little either side."""
    v = values.astype(np.float32)
    known, truth = _function_modules(n)
    dark_level = median(v[known & truth])
    light_level = median(v[known & ~truth])
    if not light_level > dark_level + 10:
        return
    threshold = (dark_level + light_level) / 2
    first = np.where(known, truth, v < threshold)
    yield first
    blurred = _equalise(v, known, truth, first)
    if blurred is not None:
        yield blurred
    for shift in (-0.12, 0.12):
        yield np.where(known, truth, v < threshold + shift * (light_level - dark_level))


def _equalise(v: np.ndarray, known: np.ndarray, truth: np.ndarray, start: np.ndarray):
    """Undo blur between neighbouring modules: fit v = c + w0*b + w1*(4 side neighbours) +
    w2*(4 diagonal ones) on the known modules, then pick each unknown module's value that
    best explains what was seen (iterated conditional modes, in a checkerboard order)."""
    n = v.shape[0]
    pad = lambda a: np.pad(a.astype(np.float32), 1)  # outside the code: light quiet zone

    def sums(b):
        p = pad(b)
        side = p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]
        diag = p[:-2, :-2] + p[:-2, 2:] + p[2:, :-2] + p[2:, 2:]
        return side, diag

    # modules whose whole neighbourhood is known (the quiet zone counts as known)
    k = np.pad(known, 1, constant_values=True)
    around = np.ones((n, n), bool)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            around &= k[1 + dy: 1 + dy + n, 1 + dx: 1 + dx + n]
    side, diag = sums(truth)
    rows = np.column_stack([np.ones(around.sum()), truth[around], side[around], diag[around]])
    if len(rows) < 20:
        return None
    coef, *_ = np.linalg.lstsq(rows, v[around], rcond=None)
    c, w0, w1, w2 = coef
    if not w0 < -10:  # a dark module must darken its own sample
        return None
    b = start.copy()
    parity = (np.add.outer(np.arange(n), np.arange(n)) % 2).astype(bool)
    for _ in range(4):
        for half in (parity, ~parity):
            side, diag = sums(b)
            base = c + w1 * side + w2 * diag
            choose = np.abs(v - (base + w0)) < np.abs(v - base)
            update = half & ~known
            b = np.where(update, choose, b)
    return b


def _decode_modules(dark: np.ndarray) -> str:
    """Decode a module matrix (True = dark) by drawing it cleanly for OpenCV's decoder."""
    return _decode_module_bytes(np.asarray(dark, bool).tobytes(), dark.shape[0])


@functools.lru_cache(maxsize=64)
def _decode_module_bytes(bits: bytes, n: int) -> str:
    """_decode_modules of the n x n modules in `bits` (a bool per module), kept: a batch's
    photos of one printed sheet show the same code, and OpenCV's decoder costs a millisecond
    or two."""
    import cv2

    dark = np.frombuffer(bits, bool).reshape(n, n)
    k, quiet = 4, 4
    img = np.full((n + 2 * quiet, n + 2 * quiet), 255, np.uint8)
    img[quiet: quiet + n, quiet: quiet + n] = np.where(dark, 0, 255)
    img = cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_NEAREST)
    a, b = quiet * k, (quiet + n) * k
    corners = np.array([[a, a], [b, a], [b, b], [a, b]], np.float32).reshape(4, 1, 2)
    try:
        text, _ = _qr_detector().decode(img, corners)[:2]
    except Exception:  # OpenCV raises on some degenerate inputs
        return ""
    return text or ""


@functools.cache
def _qr_detector():
    import cv2

    return cv2.QRCodeDetector()


def _decode_qr(grey: np.ndarray) -> tuple[str, np.ndarray | None]:
    """OpenCV's own detector and decoder (slow: the fallback)."""
    try:
        text, pts, _ = _qr_detector().detectAndDecode(grey)
    except Exception:  # OpenCV raises on some degenerate inputs
        return "", None
    if text and pts is not None:
        return text, pts
    return "", None


def _qr_anywhere(grey: np.ndarray) -> str:
    """Last resort: look for the QR code in the whole (reduced) image."""
    import cv2

    h, w = grey.shape
    factor = max(1, int(np.ceil(max(h, w) / 2000)))
    small = cv2.resize(grey, (w // factor, h // factor), interpolation=cv2.INTER_AREA) if factor > 1 else grey
    text, _ = _decode_qr(small)
    return text
