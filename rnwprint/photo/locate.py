"""The fit stage: where a printed sheet lies in a phone photo. Its four corner markers
(photo.markers) and its identity QR code (photo.qr) are found, the identity rebuilds that
exact Sheet (photo.identity), and the homography from page millimetres to image pixels is
fitted to where that Sheet puts its markers (and QR code).

    image = load_photo(path)              # photo.load: grey uint8; bad files -> RnwError
    fix = locate(image, where=str(path))  # PageFix: identity, homography, quality
    sheet = sheet_for(fix.identity)       # photo.identity: the Sheet the page was printed from
    page = rectify(image, fix, sheet, 8)  # photo.rectify: top-down grey page, 8 px per mm

How: ArUco markers (DICT_4X4_50, ids 0-3 = top-left, top-right, bottom-right, bottom-left)
are detected on a reduced copy and their corners refined on the full image; a provisional
homography (tried for every known page size) warps the footer strip where the QR code is
printed to a small, top-down image, where the code's modules are sampled and decoded; the
identity rebuilds the Sheet, whose marker (and QR) positions give the final least-squares
fit: 16 marker corners with four markers; with three, their 12 corners plus the centres of
the QR code's three finder patterns (and the fourth marker after all, if a candidate square
lies where that fit puts it: a marker whose bits a shadow made unreadable).

Engine code: knows the page furniture (layout.page), never a particular game.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field

import numpy as np

from rnwprint.core.errors import RnwError
from rnwprint.layout.page import MARGIN, PAGE_SIZES, marker_rows
from rnwprint.core.sheet import IDENTITY, IDENTITY_PREFIX, MARKER, Identity, Matrix, Sheet
from rnwprint.photo.homography import _apply, _fit, _fit_robust, _residuals_mm, _rms, _scale
from rnwprint.photo.identity import sheet_for
from rnwprint.photo.markers import DETECT_LONG_SIDE, _detect, _recover_marker, detect_on_full_image
from rnwprint.photo.qr import MARKER_SIZE, _qr_anywhere, _read_footer_qr

MARKER_IDS = {"top-left": 0, "top-right": 1, "bottom-right": 2, "bottom-left": 3}
BAD_FIT_MM = 2.5  # RMS residual beyond which the markers are not one flat page
#: the markers fit the page size the QR code names this far off (mm, RMS), and this many times
#: worse than another size: the code and the page disagree (a true fit is under 0.25 mm; A4's
#: markers read as Letter's, or the reverse, are 0.4-0.5 mm off)
PAGE_MISFIT_MM, PAGE_MISFIT_RATIO = 0.3, 2.0


@dataclass(frozen=True, eq=False)
class PageFix:
    """Where a sheet is in a photo."""

    identity: Identity
    homography: np.ndarray  # 3x3, page mm -> image px
    markers: tuple[int, ...]  # marker ids found (0-3)
    error_mm: float  # RMS reprojection error of the fitted points, page mm
    max_error_mm: float  # the worst point
    outliers: int  # points left out of the fit (a corner pulled off by a shadow's edge)
    used_qr: bool  # three markers: the QR code's finder patterns stood in for the fourth
    image_size: tuple[int, int]  # (width, height) px
    px_per_mm: float  # mean image scale over the page (how sharp the photo sees it)
    timings: dict[str, float] = field(default_factory=dict, compare=False)  # stage -> ms

    def to_image(self, points_mm) -> np.ndarray:
        """Page points (mm, N x 2) -> image points (px)."""
        return _apply(self.homography, np.asarray(points_mm, np.float64).reshape(-1, 2))

    def to_page(self, points_px) -> np.ndarray:
        """Image points (px, N x 2) -> page points (mm)."""
        return _apply(np.linalg.inv(self.homography), np.asarray(points_px, np.float64).reshape(-1, 2))


# --------------------------------------------------------------------------- page furniture


@functools.cache
def _rows_to_id() -> dict[tuple[str, ...], int]:
    return {rows: MARKER_IDS[corner] for corner, rows in marker_rows().items()}


def marker_quads(sheet: Sheet) -> dict[int, np.ndarray]:
    """Page corners (mm, 4 x 2, in ArUco's order: the marker's own top-left, top-right,
    bottom-right, bottom-left) of the sheet's fiducial markers, by id."""
    ids = _rows_to_id()
    return {ids[item.rows]: _square(item) for item in sheet.having(MARKER)}


def qr_quad(sheet: Sheet) -> np.ndarray | None:
    """Page corners (mm) of the identity QR code: its top-left, top-right, bottom-right,
    bottom-left (the order QR decoders report)."""
    codes = sheet.having(IDENTITY)
    return _square(codes[0]) if codes else None


def qr_finder_centres(sheet: Sheet) -> np.ndarray | None:
    """Page position (mm) of the centres of the QR code's three finder patterns: top-left,
    top-right, bottom-left."""
    codes = sheet.having(IDENTITY)
    if not codes:
        return None
    m = codes[0]
    n = len(m.rows)
    near, far = 3.5 * m.module, (n - 3.5) * m.module
    return np.array([(m.x + near, m.y + near), (m.x + far, m.y + near), (m.x + near, m.y + far)])


def _square(m: Matrix) -> np.ndarray:
    side = len(m.rows) * m.module
    return np.array([(m.x, m.y), (m.x + side, m.y), (m.x + side, m.y + side), (m.x, m.y + side)])


def _furniture(width: float, height: float) -> dict[int, np.ndarray]:
    """Marker corners for a page of this size, as layout.page places them (before the
    identity is known)."""
    far_x, far_y = width - MARGIN - MARKER_SIZE, height - MARGIN - MARKER_SIZE
    origin = {0: (MARGIN, MARGIN), 1: (far_x, MARGIN), 2: (far_x, far_y), 3: (MARGIN, far_y)}
    s = MARKER_SIZE
    return {i: np.array([(x, y), (x + s, y), (x + s, y + s), (x, y + s)]) for i, (x, y) in origin.items()}


# --------------------------------------------------------------------------- locating


def _footer_identity(grey: np.ndarray, corners: dict[int, np.ndarray]):
    """A provisional fit for each page size (the markers sit alike on every sheet of a size),
    best first, and the QR code in the footer read through them, which says which: (the fits
    as (rms, width, height, H), the code's text or "", its finder centres in px or None)."""
    found = sorted(corners)
    candidates = []
    for w, h in PAGE_SIZES.values():
        for width, height in ((w, h), (h, w)):
            quads = _furniture(width, height)
            src = np.concatenate([quads[i] for i in found])
            dst = np.concatenate([corners[i] for i in found])
            H = _fit(src, dst)
            if H is not None:
                candidates.append((_rms(H, src, dst), width, height, H))
    candidates.sort(key=lambda c: c[0])
    for k, (_, width, height, H) in enumerate(candidates):
        text, finders_px, _ = _read_footer_qr(grey, H, width, height, fallback=k == 0)
        if text:
            return candidates, text, finders_px
    return candidates, "", None


MIN_SIDE_PX = 64  # a sheet's markers and QR code cannot be read in fewer pixels across
TWO_SHEETS = "more than one sheet in the photo (a corner marker seen twice): photograph one sheet at a time"


class MarkersMissing(RnwError):
    """Too few corner markers read to find the page (the photo may be mirrored)."""


def locate(image: np.ndarray, where: str | None = None, expect_game: str | None = None) -> PageFix:
    """Find the sheet in a photo (grey or BGR uint8). RnwError, naming `where`, when there is
    no readable rnwprint sheet, or it is one this rnwprint cannot read (or, with
    `expect_game`, a sheet of another game)."""
    import cv2

    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    if image.dtype != np.uint8 or image.ndim not in (2, 3) or image.size == 0:
        raise RnwError("not an 8-bit grey or colour image", where)
    if min(image.shape[:2]) < MIN_SIDE_PX:  # a strip of a picture: no sheet, and too thin to halve
        h, w = image.shape[:2]
        raise MarkersMissing(f"no rnwprint sheet found in the photo: it is only {w} x {h} px", where)
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, rejected, twice = _detect(grey)
    t1 = time.perf_counter()
    timings["markers"] = (t1 - t0) * 1000
    if twice:  # the largest of each is taken: a mix of two sheets, or one of two read silently
        raise RnwError(TWO_SHEETS, where)

    found = sorted(corners)
    if len(found) < 3:
        text = _qr_anywhere(grey)
        if not found and not text.startswith(IDENTITY_PREFIX + ":"):
            qr = "a QR code, but not an rnwprint one" if text else "no QR code"
            raise MarkersMissing(f"no rnwprint sheet found in the photo (no corner markers, {qr})", where)
        what = f"only {len(found)} of the 4 corner markers found" + (f" (ids {found})" if found else "")
        raise MarkersMissing(f"{what}: photograph the whole sheet, flat, all four corners in view", where)

    candidates, text, finders_px = _footer_identity(grey, corners)
    if not text and len(found) == 3 and max(grey.shape) > DETECT_LONG_SIDE:
        # three markers seen on the reduced copy, and the code not read through them (a
        # washed-out photo): the fourth may show on the full image
        start = time.perf_counter()
        whole = detect_on_full_image(grey)
        spent = time.perf_counter() - start
        timings["markers"] += spent * 1000
        t1 += spent  # (so the "qr" stage leaves it out)
        if len(whole) == 4:
            corners, found = whole, sorted(whole)
            candidates, text, finders_px = _footer_identity(grey, corners)
    if not text:
        text = _qr_anywhere(grey)
    t2 = time.perf_counter()
    timings["qr"] = (t2 - t1) * 1000
    if not text:
        from rnwprint.photo.read import BRIGHT_PAPER, DARK_PAPER

        # between the markers lies the page: its paper clipped to white, or nearly black
        inside = np.concatenate([corners[i] for i in found])
        (x0, y0), (x1, y1) = inside.min(axis=0).astype(int), inside.max(axis=0).astype(int)
        paper = float(np.percentile(grey[max(y0, 0):y1:4, max(x0, 0):x1:4], 50))
        why = ("the photo is too bright: the paper shows pure white" if paper >= BRIGHT_PAPER else
               "the photo is too dark" if paper < DARK_PAPER else "in shadow, glare or out of focus?")
        raise RnwError(f"found the sheet's corner markers but cannot read its QR code ({why}): "
                       "take the photo again", where)
    try:
        identity = Identity.decode(text)
    except ValueError:
        raise RnwError(f"the QR code does not name an rnwprint sheet ({text[:60]!r})", where) from None
    if expect_game is not None and identity.game != expect_game:
        raise RnwError(f"this is a {identity.game} sheet, not {expect_game}", where)
    sheet = sheet_for(identity, where)
    # the markers tell the page's size too: a QR code saying another size (a label from an
    # A4 sheet on a Letter one, an edited file) would put every cell a few mm off
    own = [rms for rms, w, h, _ in candidates if abs(w - sheet.width) < 1 and abs(h - sheet.height) < 1]
    other = min(((rms, w, h) for rms, w, h, _ in candidates if abs(w * h - sheet.width * sheet.height) > 1),
                default=None)
    if own and other and own[0] > PAGE_MISFIT_MM and own[0] > PAGE_MISFIT_RATIO * other[0]:
        seen = next(name for name, size in PAGE_SIZES.items() if abs(size[0] * size[1] - other[1] * other[2]) < 1)
        raise RnwError(f"the QR code says the page is {identity.page.capitalize()}, but its corner markers sit "
                       f"as on {seen.capitalize()} ({own[0]:.2f} mm off {identity.page.capitalize()}'s places, "
                       f"{other[0]:.2f} mm off {seen.capitalize()}'s): the code does not belong to this page; "
                       "print the sheet again", where)
    t3 = time.perf_counter()
    timings["sheet"] = (t3 - t2) * 1000

    quads = marker_quads(sheet)
    if set(found) - set(quads):
        raise RnwError("the sheet's markers do not match its layout", where)
    used_qr = False
    if len(found) == 3:
        page_finders = qr_finder_centres(sheet)
        if finders_px is None or page_finders is None:
            raise MarkersMissing("only 3 of the 4 corner markers found and the QR code cannot stand in "
                           "for the fourth: photograph the whole sheet, all four corners in view", where)
        src = np.concatenate([quads[i] for i in found] + [page_finders])
        dst = np.concatenate([corners[i] for i in found] + [finders_px])
        H = _fit(src, dst)
        # the fourth marker may be there, just unreadable (a shadow across its bits)
        (missing,) = set(quads) - set(found)
        quad = _recover_marker(grey, H, quads[missing], rejected) if H is not None else None
        if quad is not None:
            corners[missing] = quad
            found = sorted(corners)
        else:
            used_qr = True
    if not used_qr:
        src = np.concatenate([quads[i] for i in found])
        dst = np.concatenate([corners[i] for i in found])
    H, keep = _fit_robust(src, dst)
    if H is None:
        raise RnwError("the corner markers do not form a page: take the photo again", where)
    residuals = _residuals_mm(H, src[keep], dst[keep])
    rms = float(np.sqrt(np.mean(residuals ** 2)))
    if rms > BAD_FIT_MM:
        raise RnwError(f"the corner markers do not fit one flat page ({rms:.1f} mm off): "
                       "flatten the sheet, keep it whole in the photo and no other sheet beside it, "
                       "and take the photo again", where)
    timings["homography"] = (time.perf_counter() - t3) * 1000
    centre = np.array([sheet.width / 2, sheet.height / 2])
    return PageFix(identity, H, tuple(found), rms, float(residuals.max()), int((~keep).sum()), used_qr,
                   (grey.shape[1], grey.shape[0]), _scale(H, centre), timings)


__all__ = ["MarkersMissing", "PageFix", "marker_quads", "qr_quad", "qr_finder_centres", "locate"]
