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
import io
import os
import pathlib
import re
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from rnwprint.errors import RnwError
from rnwprint.layout.page import MARGIN, MARKER_MODULE, MAX_QR_VERSION, PAGE_SIZES, QR_MODULE, marker_rows
from rnwprint.sheet import IDENTITY_PREFIX, Identity, Matrix, Sheet

MAX_PIXELS = 50_000_000  # a 50 MP photo; anything larger is refused before decoding
MAX_FILE_BYTES = 4 * MAX_PIXELS  # more than 4 bytes a pixel is no photo: refused before reading it all
DETECT_LONG_SIDE = 1600  # markers are looked for on a copy reduced to at most this size
QR_PX_PER_MM = 6.0  # the footer strip is warped at this resolution for the QR decoder
MARKER_IDS = {"top-left": 0, "top-right": 1, "bottom-right": 2, "bottom-left": 3}
MARKER_SIZE = 6 * MARKER_MODULE
BAD_FIT_MM = 2.5  # RMS residual beyond which the markers are not one flat page
OUTLIER_MM = 0.5  # a fitted point this far off (and 3x the median) is left out
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


_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif")
_DAMAGE = ("Corrupt JPEG data", "Premature end of JPEG file")  # libjpeg's words for bad data


def _quiet(decode):
    """(decode(), what it printed on stderr): the C decoders (libjpeg, libpng) print their
    warnings and errors straight to file descriptor 2, beside our own messages."""
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
        caught = tempfile.TemporaryFile()
    except (OSError, ValueError):
        return decode(), ""  # nowhere to put it: let it through
    with caught:
        try:
            saved = os.dup(2)
        except OSError:
            return decode(), ""  # no stderr to protect
        os.dup2(caught.fileno(), 2)
        try:
            result = decode()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        return result, caught.read(1 << 16).decode("utf-8", "replace")


def image_header(data: bytes) -> tuple[str | None, tuple[int, int] | None]:
    """(format, (width, height)) read from the header only; (None, None) if not an image.

    JPEG and PNG are parsed here; other formats are identified by Pillow (lazily, without
    decoding)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        if len(data) < 24 or data[12:16] != b"IHDR":
            return "PNG", None
        return "PNG", (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big"))
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG", _jpeg_size(data)
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as im:
                return im.format or "image", im.size
    except Image.DecompressionBombError:
        return "image", (1 << 16, 1 << 16)  # beyond Pillow's own limit: surely too large
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        return None, None


_STANDALONE = (0x01, *range(0xD0, 0xD8))  # markers without a length
_FRAMES = (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF)  # SOFn
_NEXT_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")  # in entropy-coded data


def _jpeg_segments(data: bytes):
    """(marker, offset) of each JPEG marker in order, up to the end-of-image marker (yielded)
    or to where the data runs out or breaks. After each start-of-scan the entropy-coded data
    is skipped to the next marker (0xFF there is always followed by 0x00 or a restart
    marker). Whatever follows the end of the image (a phone's appended video) is not read."""
    i, n = 2, len(data)
    while i + 2 <= n:
        if data[i] != 0xFF:
            return
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        yield marker, i
        if marker == 0xD9:
            return
        if marker in _STANDALONE:
            i += 2
            continue
        if i + 4 > n:
            return
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if length < 2:
            return
        i += 2 + length
        if marker == 0xDA:
            found = _NEXT_MARKER.search(data, i)
            if found is None:
                return
            i = found.start()


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The frame size from the SOFn segment."""
    for marker, i in _jpeg_segments(data):
        if marker in _FRAMES:
            if i + 9 > len(data):
                return None
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        if marker in (0xD9, 0xDA):  # end of image or scan before any frame
            return None
    return None


def _jpeg_complete(data: bytes) -> bool:
    """Whether the JPEG's segments and scans run on to the end-of-image marker."""
    return any(marker == 0xD9 for marker, _ in _jpeg_segments(data))


# --------------------------------------------------------------------------- sheets


@functools.lru_cache(maxsize=32)
def _sheet(identity: Identity) -> Sheet:
    from rnwprint.games import GAMES

    return GAMES[identity.game].build(identity.variant, identity.lang, identity.page)


def sheet_for(identity: Identity, where: str | None = None) -> Sheet:
    """The exact Sheet the identity was printed from (cached: do not modify it).

    RnwError when this rnwprint cannot rebuild it: an unknown game, another layout version,
    an unknown variant, language or page size."""
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
    quads = {}
    for item in sheet.items:
        if isinstance(item, Matrix) and item.rows in ids:
            quads[ids[item.rows]] = _square(item)
    return quads


def qr_quad(sheet: Sheet) -> np.ndarray | None:
    """Page corners (mm) of the identity QR code: its top-left, top-right, bottom-right,
    bottom-left (the order QR decoders report)."""
    ids = _rows_to_id()
    codes = [i for i in sheet.items if isinstance(i, Matrix) and i.rows not in ids and len(i.rows) >= 21]
    return _square(codes[0]) if codes else None


def qr_finder_centres(sheet: Sheet) -> np.ndarray | None:
    """Page position (mm) of the centres of the QR code's three finder patterns: top-left,
    top-right, bottom-left."""
    ids = _rows_to_id()
    codes = [i for i in sheet.items if isinstance(i, Matrix) and i.rows not in ids and len(i.rows) >= 21]
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


def detect_markers(grey: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id (0-3) -> its 4 corners (px, full resolution, ArUco's order), sub-pixel."""
    return _detect(grey)[0]


def _detect(grey: np.ndarray) -> tuple[dict[int, np.ndarray], list[np.ndarray]]:
    """Markers found (refined on the full image) and the rejected candidate squares (px).

    A fast pass (one threshold window) on a reduced copy; while markers are missing, OpenCV's
    default three windows, then the same on a copy with the shading divided out (a shadow
    edge across a marker), then, if fewer than three were found, the full image."""
    import cv2

    h, w = grey.shape
    factor = max(1, int(np.ceil(max(h, w) / DETECT_LONG_SIDE)))
    small = cv2.resize(grey, (w // factor, h // factor), interpolation=cv2.INTER_AREA) if factor > 1 else grey
    found: dict[int, np.ndarray] = {}
    rejected: list[np.ndarray] = []
    passes = [(small, factor, "fast"), (small, factor, "default"), (None, factor, "flat")]
    if factor > 1:
        passes.append((grey, 1, "default"))  # markers too small for the reduced copy
    for img, f, kind in passes:
        full_image_pass = f == 1 and factor > 1
        if len(found) == 4 or (full_image_pass and len(found) == 3):
            break
        if kind == "flat":
            img = _flat_field(small)
        more, rej = _aruco(img, f, kind)
        for i, q in more.items():
            found.setdefault(i, q)
        rejected += rej
    if factor > 1:  # refine on the reduced copy first: its corners are `factor` px coarse
        found = {i: (_refine(small, (q - (factor - 1) / 2) / factor) * factor + (factor - 1) / 2)
                 for i, q in found.items()}
    return {i: _refine(grey, q) for i, q in found.items()}, rejected


@functools.cache
def _detector(kind: str):
    import cv2

    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    if kind == "fast":
        params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = 15
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def _aruco(grey: np.ndarray, factor: int, kind: str) -> tuple[dict[int, np.ndarray], list[np.ndarray]]:
    corners, ids, rejected = _detector(kind).detectMarkers(grey)

    # marker corners are pixel corners: a pixel centre at k in the reduced copy is at
    # k * factor + (factor - 1) / 2 in the full image
    def scale(q):
        return q.reshape(4, 2).astype(np.float64) * factor + (factor - 1) / 2

    by_id: dict[int, list[np.ndarray]] = {}
    for quad, i in zip(corners, ids.ravel() if ids is not None else ()):
        if int(i) in (0, 1, 2, 3):
            by_id.setdefault(int(i), []).append(scale(quad))
    # the same id twice (another sheet in view, a false detection): keep the largest
    found = {i: max(quads, key=_area) for i, quads in by_id.items()}
    return found, [scale(q) for q in rejected]


def _flat_field(grey: np.ndarray) -> np.ndarray:
    """Divide out slow shading (light gradient, a shadow's edge) so one threshold fits."""
    import cv2

    k = max(15, (max(grey.shape) // 60) | 1)
    paper = cv2.dilate(grey, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    paper = cv2.blur(paper, (k, k))
    return cv2.divide(grey, paper, scale=230)


def _area(q: np.ndarray) -> float:
    x, y = q[:, 0], q[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def _recover_marker(grey: np.ndarray, H: np.ndarray, page_quad: np.ndarray,
                    rejected: list[np.ndarray]) -> np.ndarray | None:
    """A rejected candidate square lying where the missing marker must be (every corner
    within a sixth of the marker's side of its predicted place), in the predicted order."""
    predicted = _apply(H, page_quad)
    side = np.mean(np.hypot(*(predicted - np.roll(predicted, 1, axis=0)).T))
    best = None
    if not rejected:
        return None
    quads = np.array(rejected)
    near = np.hypot(*(quads.mean(axis=1) - predicted.mean(axis=0)).T) < side / 6
    for cand in quads[near]:
        for shift in range(4):
            for order in (cand, cand[::-1]):
                q = np.roll(order, shift, axis=0)
                err = float(np.max(np.hypot(*(q - predicted).T)))
                if err < side / 6 and (best is None or err < best[0]):
                    best = (err, q)
    return _refine(grey, _refine(grey, best[1])) if best is not None else None


def _refine(grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Sub-pixel marker corners on the full image; a corner that wanders off is kept as found."""
    import cv2

    side = np.mean(np.hypot(*(quad - np.roll(quad, 1, axis=0)).T))
    half = int(max(2, min(12, round(side / 6 * 0.4))))  # within the marker's border module
    pts = quad.astype(np.float32).reshape(-1, 1, 2).copy()
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    cv2.cornerSubPix(grey, pts, (half, half), (-1, -1), criteria)
    refined = pts.reshape(4, 2).astype(np.float64)
    moved = np.hypot(*(refined - quad).T)
    return np.where((moved < max(1.5, half * 0.8))[:, None], refined, quad)


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
    dark_level = float(np.median(v[known & truth]))
    light_level = float(np.median(v[known & ~truth]))
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
    import cv2

    n = dark.shape[0]
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


# --------------------------------------------------------------------------- geometry


def _fit(src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
    """Least-squares homography src (page mm) -> dst (image px)."""
    import cv2

    H, _ = cv2.findHomography(src.astype(np.float64), dst.astype(np.float64), 0)
    if H is None or not np.all(np.isfinite(H)) or abs(np.linalg.det(H)) < 1e-12:
        return None
    return H / H[2, 2]


def _fit_robust(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """Least squares, then once more without the points far worse than the rest (at most
    a quarter of them): a corner pulled off by a shadow's edge or a smudge."""
    keep = np.ones(len(src), bool)
    H = _fit(src, dst)
    if H is None:
        return None, keep
    residuals = _residuals_mm(H, src, dst)
    limit = max(OUTLIER_MM, 3 * float(np.median(residuals)))
    bad = residuals > limit
    if bad.any() and bad.sum() <= len(src) // 4:
        keep = ~bad
        H2 = _fit(src[keep], dst[keep])
        if H2 is not None:
            return H2, keep
        keep[:] = True
    return H, keep


def _apply(H: np.ndarray, p: np.ndarray) -> np.ndarray:
    q = np.column_stack([p, np.ones(len(p))]) @ H.T
    return q[:, :2] / q[:, 2:3]


def _residuals_mm(H: np.ndarray, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    back = _apply(np.linalg.inv(H), dst)
    return np.hypot(*(back - src).T)


def _rms(H: np.ndarray, src: np.ndarray, dst: np.ndarray) -> float:
    return float(np.sqrt(np.mean(_residuals_mm(H, src, dst) ** 2)))


def _scale(H: np.ndarray, p: np.ndarray) -> float:
    """Image px per page mm at page point p (geometric mean of the two axes)."""
    q = _apply(H, np.array([p, p + (1, 0), p + (0, 1)]))
    (ax, ay), (bx, by) = q[1] - q[0], q[2] - q[0]
    return float(np.sqrt(abs(ax * by - ay * bx)))


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
