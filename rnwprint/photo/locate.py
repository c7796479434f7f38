"""Find a printed sheet in a phone photo: load the photo safely, find the four corner
markers, read the identity QR code, rebuild that exact Sheet and fit the homography from
page millimetres to image pixels; warp the page (or parts of it) to a top-down view.

    image = load_photo(path)              # grey uint8; bad files -> RnwError
    fix = locate(image, where=str(path))  # PageFix: identity, homography, quality
    sheet = sheet_for(fix.identity)       # the Sheet the page was printed from
    page = rectify(image, fix, sheet, 8)  # top-down grey page, 8 px per mm

Pixel convention (OpenCV's): integer image coordinates are pixel centres. In a rectified
image at r px/mm, pixel (col, row) covers page mm [col/r, (col+1)/r) x [row/r, (row+1)/r);
`to_pixels` converts page mm to its coordinates.

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
import pathlib
import time
from dataclasses import dataclass, field

import numpy as np

from rnwprint.core.errors import RnwError
from rnwprint.layout.page import MARGIN, PAGE_SIZES, marker_rows
from rnwprint.core.sheet import IDENTITY, IDENTITY_PREFIX, MARKER, Identity, Matrix, Sheet
from rnwprint.photo.homography import OUTLIER_MM, _apply, _fit, _fit_robust, _residuals_mm, _rms, _scale  # noqa: F401
from rnwprint.photo.load import (_DAMAGE, _FRAMES, _HEIF_BRANDS, _NEXT_MARKER, _STANDALONE, _jpeg_complete,  # noqa: F401
                                 _jpeg_segments, _jpeg_size, _quiet, image_header)
from rnwprint.photo.markers import (DETECT_LONG_SIDE, _area, _aruco, _detect, _detector,  # noqa: F401
                                    _flat_field, _recover_marker, _refine, detect_markers)
from rnwprint.photo.qr import (MARKER_SIZE, QR_PX_PER_MM, _alignment_centres, _decode_modules,  # noqa: F401
                               _decode_qr, _equalise, _find_qr, _finder_template, _flatten, _function_modules,
                               _module_guesses, _peaks, _qr_anywhere, _qr_detector, _read_footer_qr, _subpixel)

MAX_PIXELS = 50_000_000  # a 50 MP photo; anything larger is refused before decoding
MAX_FILE_BYTES = 4 * MAX_PIXELS  # more than 4 bytes a pixel is no photo: refused before reading it all
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


# --------------------------------------------------------------------------- loading


def load_photo(path, colour: bool = False) -> np.ndarray:
    """Read a photo file into a grey (or, with colour=True, BGR) uint8 array.

    Refuses, with RnwError naming the file: unreadable and empty files, files that are not
    an image, images over MAX_PIXELS (from the header, before any decoding), and truncated
    or corrupt images."""
    return load_photo_noting_damage(path, colour)[0]


def load_photo_noting_damage(path, colour: bool = False) -> tuple[np.ndarray, str]:
    """`load_photo`, and what the decoder said was damaged in a file it still decoded
    (a JPEG whose data is corrupt in places decodes with garbage there); "" if nothing."""
    where = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except IsADirectoryError:
        raise RnwError("is a directory, not a photo", where) from None
    except OSError as e:
        raise RnwError(f"cannot read file: {e.strerror or e}", where) from None
    if len(data) > MAX_FILE_BYTES:
        raise RnwError(f"file larger than {MAX_FILE_BYTES / 1e6:g} MB: too large for a photo of at most "
                       f"{MAX_PIXELS / 1e6:g} MP", where)
    return decode_photo_noting_damage(data, where, colour)


def decode_photo(data: bytes, where: str | None = None, colour: bool = False) -> np.ndarray:
    """`load_photo` for bytes already in memory."""
    return decode_photo_noting_damage(data, where, colour)[0]


def decode_photo_noting_damage(data: bytes, where: str | None = None, colour: bool = False) -> tuple[np.ndarray, str]:
    """`load_photo_noting_damage` for bytes already in memory."""
    import cv2

    if not data:
        raise RnwError("empty file, not a photo", where)
    kind, size = image_header(data)
    if kind is None and data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        raise RnwError("a HEIC/HEIF photo, a format rnwprint cannot decode: export it as JPEG "
                       "(on an iPhone: Settings > Camera > Formats > Most Compatible)", where)
    if kind is None:
        raise RnwError("not an image (expected a JPEG or PNG photo)", where)
    if size is None:
        raise RnwError(f"corrupt {kind} file: cannot read the image size", where)
    w, h = size
    if w * h > MAX_PIXELS:
        raise RnwError(f"image too large to be a photo: {w}x{h} = {w * h / 1e6:.0f} MP "
                       f"(at most {MAX_PIXELS / 1e6:.0f} MP); refused before decoding", where)
    if w == 0 or h == 0:
        raise RnwError(f"corrupt {kind} file: the image is {w}x{h}", where)
    if kind == "JPEG" and not _jpeg_complete(data):
        raise RnwError("truncated JPEG file (the image data stops early): copy the photo again", where)
    if kind == "PNG" and data.rfind(b"IEND", max(0, len(data) - 4096)) < 0:
        raise RnwError("truncated PNG file (no end chunk): copy the image again", where)
    flags = cv2.IMREAD_COLOR if colour else cv2.IMREAD_GRAYSCALE
    image, said = _quiet(lambda: cv2.imdecode(np.frombuffer(data, np.uint8), flags))
    if image is None:
        raise RnwError(f"cannot decode the {kind} image: the file is truncated or corrupt", where)
    damage = [line.strip() for line in said.splitlines() if line.startswith(_DAMAGE)]
    return image, damage[0] if damage else ""


# --------------------------------------------------------------------------- sheets


@functools.lru_cache(maxsize=32)
def _sheet(identity: Identity) -> Sheet:
    import pickle

    from rnwprint.photo.cache import cached

    def build() -> Sheet:
        from rnwprint.games import GAMES

        return GAMES[identity.game].build(identity.variant, identity.lang, identity.page)

    # kept on disk: the next process need not import the fonts and lay the sheet out again
    return cached("sheet", identity.encode(), build, pickle.dumps, pickle.loads)


@functools.lru_cache(maxsize=32)
def _stored_sheet(identity: Identity) -> Sheet | None:
    """The Sheet an earlier process rebuilt for this identity (so it passed sheet_for's
    checks, with this same code and data), or None."""
    import pickle

    from rnwprint.photo.cache import load

    return load("sheet", identity.encode(), pickle.loads)


def sheet_for(identity: Identity, where: str | None = None) -> Sheet:
    """The exact Sheet the identity was printed from (cached: do not modify it).

    RnwError when this rnwprint cannot rebuild it: an unknown game, another layout version,
    an unknown variant, language or page size."""
    stored = _stored_sheet(identity)
    if stored is not None:  # (the games need not even be imported: a tenth of a second)
        return stored
    from rnwprint.games import GAMES

    game = GAMES.get(identity.game)
    if game is None:
        raise RnwError(f"sheet of a game this rnwprint does not know ({identity.game!r}); "
                       f"known games: {', '.join(GAMES)}", where)
    if identity.layout < game.layout_version:
        raise RnwError(f"{identity.game} sheet printed by an older layout version (v{identity.layout}); "
                       f"this rnwprint reads v{game.layout_version}: print a new sheet", where)
    if identity.layout > game.layout_version:
        raise RnwError(f"{identity.game} sheet printed by a newer rnwprint (layout v{identity.layout}; "
                       f"this one reads v{game.layout_version}): update rnwprint", where)
    if identity.lang not in game.languages:
        raise RnwError(f"{identity.game} sheet in an unknown language {identity.lang!r}", where)
    if identity.page not in PAGE_SIZES:
        raise RnwError(f"{identity.game} sheet on an unknown page size {identity.page!r}", where)
    if identity.variant not in game.variants and game.custom_variant is None:
        raise RnwError(f"{identity.game} sheet of an unknown variant {identity.variant!r}; "
                       f"known: {', '.join(game.variants)}", where)
    try:
        return _sheet(identity)
    except RnwError as e:
        raise RnwError(f"cannot rebuild the {identity.game} sheet {identity.variant!r}: {e.message}", where) from None
    except (ValueError, KeyError) as e:
        raise RnwError(f"cannot rebuild the {identity.game} sheet {identity.variant!r}: {e}", where) from None


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


def locate(image: np.ndarray, where: str | None = None, expect_game: str | None = None) -> PageFix:
    """Find the sheet in a photo (grey or BGR uint8). RnwError, naming `where`, when there is
    no readable rnwprint sheet, or it is one this rnwprint cannot read (or, with
    `expect_game`, a sheet of another game)."""
    import cv2

    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    if image.dtype != np.uint8 or image.ndim not in (2, 3) or image.size == 0:
        raise RnwError("not an 8-bit grey or colour image", where)
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, rejected = _detect(grey)
    t1 = time.perf_counter()
    timings["markers"] = (t1 - t0) * 1000

    found = sorted(corners)
    if len(found) < 3:
        text = _qr_anywhere(grey)
        if not found and not text.startswith(IDENTITY_PREFIX + ":"):
            qr = "a QR code, but not an rnwprint one" if text else "no QR code"
            raise RnwError(f"no rnwprint sheet found in the photo (no corner markers, {qr})", where)
        what = f"only {len(found)} of the 4 corner markers found" + (f" (ids {found})" if found else "")
        raise RnwError(f"{what}: photograph the whole sheet, flat, all four corners in view", where)

    # a provisional fit for each page size (the markers sit alike on every sheet of a size);
    # the QR code in the footer, read through it, says which
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
    text, finders_px = "", None
    for k, (_, width, height, H) in enumerate(candidates):
        text, finders_px, _ = _read_footer_qr(grey, H, width, height, fallback=k == 0)
        if text:
            break
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
            raise RnwError("only 3 of the 4 corner markers found and the QR code cannot stand in "
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
                       "flatten the sheet and take the photo again", where)
    timings["homography"] = (time.perf_counter() - t3) * 1000
    centre = np.array([sheet.width / 2, sheet.height / 2])
    return PageFix(identity, H, tuple(found), rms, float(residuals.max()), int((~keep).sum()), used_qr,
                   (grey.shape[1], grey.shape[0]), _scale(H, centre), timings)


# --------------------------------------------------------------------------- rectifying


def to_pixels(points_mm, px_per_mm: float) -> np.ndarray:
    """Page mm -> pixel coordinates in a rectified image at px_per_mm (pixel centres integral)."""
    return np.asarray(points_mm, np.float64) * px_per_mm - 0.5


def rectify(image: np.ndarray, fix: PageFix, sheet: Sheet, px_per_mm: float = 8.0,
            region: tuple[float, float, float, float] | None = None) -> np.ndarray:
    """The page seen from straight above: grey uint8, px_per_mm pixels per millimetre.

    `region` (x0, y0, x1, y1 in page mm) warps only that part of the page; its pixel (0, 0)
    is centred on page point (x0 + 0.5/r, y0 + 0.5/r). Outside the photo is white."""
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    x0, y0, x1, y1 = region if region is not None else (0.0, 0.0, sheet.width, sheet.height)
    r = float(px_per_mm)
    size = (max(1, int(round((x1 - x0) * r))), max(1, int(round((y1 - y0) * r))))
    # dst pixel (u, v) -> page mm ((u + 0.5) / r + x0, ...) -> image px by the homography
    S_inv = np.array([[1 / r, 0, x0 + 0.5 / r], [0, 1 / r, y0 + 0.5 / r], [0, 0, 1]])
    return cv2.warpPerspective(grey, fix.homography @ S_inv, size,
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=255)


def rectify_cells(image: np.ndarray, fix: PageFix, sheet: Sheet, px_per_mm: float = 8.0,
                  margin_mm: float = 1.0, ids=None) -> dict[str, tuple[np.ndarray, tuple[float, float]]]:
    """Top-down crops of the cells only (faster than the whole page when cells are few):
    cell id -> (grey image, its page origin (x0, y0) mm); each crop covers the cell's
    bounding box grown by margin_mm."""
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    out = {}
    for cell_id in (ids if ids is not None else sheet.cells):
        bx0, by0, bx1, by1 = sheet.cells[cell_id].bounds
        box = (bx0 - margin_mm, by0 - margin_mm, bx1 + margin_mm, by1 + margin_mm)
        out[cell_id] = (rectify(grey, fix, sheet, px_per_mm, box), box[:2])
    return out


__all__ = ["MAX_FILE_BYTES", "MAX_PIXELS", "PageFix", "load_photo", "load_photo_noting_damage", "decode_photo",
           "decode_photo_noting_damage", "image_header", "sheet_for",
           "marker_quads", "qr_quad", "qr_finder_centres", "locate", "detect_markers", "rectify",
           "rectify_cells", "to_pixels"]
