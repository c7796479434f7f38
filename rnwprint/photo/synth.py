"""Realistic phone photos of filled-in sheets, for the tests and the benchmarks.

`make_photo(sheet, marks, seed)` renders the Sheet, writes the marks into its cells by
"hand" (held-out MNIST digits, never used in training, scaled to the cell, in a blue or
black pen; an X as two strokes; a circled number as a loose ellipse around the digits),
lays the page on a table and photographs it: a pinhole camera at any rotation (upside down
included) and up to 30 degrees of tilt, mild paper curl, an uneven light gradient and
vignette, an optional shadow (its edge can be put across a marker), an optional thumb over
a marker or a marker cut off by the frame, blur, sensor noise and JPEG compression, 1-12 MP.

Everything random comes from `seed`: the same arguments give the same bytes (for one
OpenCV/numpy version). `synthesize` returns the photo with its ground truth: the exact
page-mm -> image-pixel mapping (curl included) and the flat homography.

Pixel convention (OpenCV's): integer coordinates are pixel centres.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import pathlib
import weakref
from dataclasses import dataclass, field

import cv2
import numpy as np

from rnwprint.audit.entries import CROSSED, Guarded
from rnwprint.sheet import Identity, Matrix, Sheet

HELDOUT = pathlib.Path(__file__).resolve().parent.parent / "assets" / "photo" / "heldout-digits.npz"
MARKER_IDS = {"top-left": 0, "top-right": 1, "bottom-right": 2, "bottom-left": 3}

INKS = {  # RGB, as a ballpoint or felt pen looks on white paper
    "blue": ((22, 42, 130), (40, 70, 170)),
    "black": ((20, 20, 26), (55, 55, 62)),
}
BACKGROUNDS = ("wood", "grey", "dark", "cloth")


# --------------------------------------------------------------------------- options


@dataclass
class PhotoOptions:
    """How the photo is taken. None means "drawn at random from the seed"."""

    rotation: float | None = None  # degrees, in the image plane; None: any angle
    tilt: float | None = None  # degrees between the camera axis and the page's normal
    max_tilt: float = 30.0  # upper end of a random tilt
    fill: float | None = None  # the page's extent as a share of the frame (random: 0.6-0.9)
    background: str | None = None  # wood | grey | dark | cloth
    light: float | None = None  # strength of the light gradient and vignette, 0 = even
    shadow: float | None = None  # darkness of a cast shadow, 0 = none
    shadow_marker: int | None = None  # put the shadow's edge across this marker (0-3)
    hide_marker: int | None = None  # make this marker (0-3) invisible ...
    hide_by: str = "blob"  # ... under a thumb ("blob") or outside the frame ("crop")
    curl: float | None = None  # mm the paper's edges lift off the table
    blur: float | None = None  # Gaussian sigma in pixels
    noise: float | None = None  # sensor noise, standard deviation in grey levels
    jpeg_quality: int | None = None  # 1-100
    ink: str | None = None  # blue | black
    handwriting: str | os.PathLike | None = None  # held-out digits (.npz); default: the packaged file
    aspect: float = 4 / 3  # frame width / height (a landscape frame; rotation turns the page)


def _options(overrides: dict) -> PhotoOptions:
    names = {f.name for f in dataclasses.fields(PhotoOptions)}
    unknown = sorted(set(overrides) - names)
    if unknown:
        raise TypeError(f"unknown photo option(s) {', '.join(unknown)}; valid: {', '.join(sorted(names))}")
    opts = PhotoOptions(**overrides)
    if opts.hide_by not in ("blob", "crop"):
        raise ValueError(f"hide_by must be 'blob' or 'crop', not {opts.hide_by!r}")
    for name in ("shadow_marker", "hide_marker"):
        value = getattr(opts, name)
        if value is not None and value not in MARKER_IDS.values():
            raise ValueError(f"{name} must be a marker id 0-3, not {value!r}")
    return opts


# --------------------------------------------------------------------------- truth


@dataclass
class PhotoTruth:
    """Where the page is in the photo."""

    size: tuple[int, int]  # image (width, height) in pixels
    homography: np.ndarray  # 3x3, page mm -> image px, of the flat page (no curl)
    rotation: float
    tilt: float
    curl: float
    hidden_marker: int | None
    _camera: "_Camera" = field(repr=False)

    def project(self, points_mm) -> np.ndarray:
        """Exact image position (px) of page points (mm), paper curl included."""
        return self._camera.project(np.asarray(points_mm, dtype=np.float64).reshape(-1, 2))


@dataclass
class SynthPhoto:
    jpeg: bytes
    truth: PhotoTruth


# --------------------------------------------------------------------------- handwriting


class DigitSource:
    """Handwritten digit glyphs: 2-D float masks in [0, 1], ink 1, cropped to the ink."""

    def glyph(self, digit: int, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError


class MnistDigits(DigitSource):
    """Held-out MNIST digits: an .npz with `bits` (np.packbits of the flattened binary
    images, axis 1), `shape` (28, 28) and `labels`."""

    def __init__(self, path: str | os.PathLike):
        with np.load(path) as data:
            h, w = (int(v) for v in data["shape"]) if "shape" in data else (28, 28)
            bits = np.unpackbits(data["bits"], axis=1, count=h * w).reshape(-1, h, w)
            labels = data["labels"].astype(np.int64)
        self.by_digit = {d: bits[labels == d] for d in range(10)}
        missing = [d for d, imgs in self.by_digit.items() if len(imgs) == 0]
        if missing:
            raise ValueError(f"{path}: no samples of digit(s) {missing}")

    def glyph(self, digit: int, rng: np.random.Generator) -> np.ndarray:
        pool = self.by_digit[digit]
        return crop_glyph(pool[rng.integers(len(pool))].astype(np.float32))


class FontDigits(DigitSource):
    """A stand-in when the held-out digits are missing: slanted, wobbly font digits."""

    def __init__(self):
        from PIL import ImageFont

        from rnwprint.fonts import font_path

        folder = pathlib.Path(font_path()).parent
        names = [n for n in ("Vera.ttf", "VeraIt.ttf", "VeraBd.ttf", "VeraBI.ttf") if (folder / n).exists()]
        self.fonts = [ImageFont.truetype(str(folder / n), 48) for n in names]

    def glyph(self, digit: int, rng: np.random.Generator) -> np.ndarray:
        from PIL import Image, ImageDraw

        image = Image.new("L", (64, 64), 0)
        font = self.fonts[rng.integers(len(self.fonts))]
        ImageDraw.Draw(image).text((32, 32), str(digit), font=font, fill=255, anchor="mm")
        a = np.asarray(image, dtype=np.float32) / 255
        shear, angle = rng.uniform(-0.3, 0.1), rng.uniform(-8, 8)
        m = cv2.getRotationMatrix2D((32, 32), angle, rng.uniform(0.85, 1.0))
        m[0, 1] += shear
        m[0, 2] -= shear * 32
        return crop_glyph(cv2.warpAffine(a, m, (64, 64)))


def crop_glyph(a: np.ndarray) -> np.ndarray:
    """The glyph cropped to its ink (pixels above 0.5)."""
    ys, xs = np.nonzero(a > 0.5)
    if len(ys) == 0:
        return np.ones((4, 2), np.float32)
    return a[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


@functools.cache
def _digit_source(path: str | None) -> DigitSource:
    if path is not None:
        return MnistDigits(path)
    if HELDOUT.exists():
        return MnistDigits(HELDOUT)
    return FontDigits()


def digit_source(path: str | os.PathLike | None = None) -> DigitSource:
    """The held-out MNIST digits at `path` (default: the packaged file), or font digits
    when no path is given and the packaged file is missing."""
    return _digit_source(None if path is None else str(path))


# --------------------------------------------------------------------------- pen strokes


class _Ink:
    """Accumulates pen strokes as an alpha mask over one cell's patch of the page."""

    def __init__(self, x0: int, y0: int, w: int, h: int):
        self.x0, self.y0 = x0, y0
        self.alpha = np.zeros((h, w), np.float32)

    def add(self, alpha: np.ndarray, left: float, top: float) -> None:
        """Max-blend a glyph's alpha with its top-left corner at page pixel (left, top)."""
        h, w = alpha.shape
        l, t = int(round(left)) - self.x0, int(round(top)) - self.y0
        H, W = self.alpha.shape
        a0, b0 = max(0, t), max(0, l)
        a1, b1 = min(H, t + h), min(W, l + w)
        if a1 <= a0 or b1 <= b0:
            return
        region = self.alpha[a0:a1, b0:b1]
        np.maximum(region, alpha[a0 - t: a1 - t, b0 - l: b1 - l], out=region)

    def polyline(self, points: np.ndarray, width: float) -> None:
        """An anti-aliased stroke through page-pixel points."""
        mask = np.zeros(self.alpha.shape, np.uint8)
        pts = np.round((points - (self.x0, self.y0)) * 16).astype(np.int32)
        cv2.polylines(mask, [pts], False, 255, max(1, int(round(width))), cv2.LINE_AA, shift=4)
        np.maximum(self.alpha, mask.astype(np.float32) / 255, out=self.alpha)


def pen_glyph(mask: np.ndarray, height: float, pen: float, rng: np.random.Generator) -> np.ndarray:
    """A glyph mask scaled to `height` px with strokes `pen` px wide, slightly rotated and
    sheared; returns an anti-aliased alpha (0-1)."""
    h, w = mask.shape
    scale = height / h
    shear, angle = rng.uniform(-0.15, 0.15), rng.uniform(-8, 8)
    pad = int(math.ceil(pen + 0.2 * height)) + 2
    out_w = int(math.ceil(w * scale + abs(shear) * height)) + 2 * pad
    out_h = int(math.ceil(height)) + 2 * pad
    src = np.pad(mask.astype(np.float32), 1)
    m = np.array([[scale, shear * scale, 0], [0, scale, 0]], np.float64)
    m[:, 2] = np.array([out_w / 2, out_h / 2]) - m[:, :2] @ np.array([(w + 2) / 2, (h + 2) / 2])
    rot = cv2.getRotationMatrix2D((out_w / 2, out_h / 2), angle, 1.0)
    full = np.vstack([rot, [0, 0, 1]]) @ np.vstack([m, [0, 0, 1]])
    up = cv2.warpAffine(src, full[:2], (out_w, out_h), flags=cv2.INTER_LINEAR)
    up = cv2.GaussianBlur(up, (0, 0), max(0.5, 0.5 * scale))
    binary = (up > 0.5).astype(np.uint8)
    if not binary.any():
        return up
    inside = cv2.distanceTransform(binary, cv2.DIST_L2, 3)
    outside = cv2.distanceTransform(1 - binary, cv2.DIST_L2, 3)
    signed = inside - outside  # > 0 in the ink
    area = float(binary.sum())
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    perimeter = sum(cv2.arcLength(c, True) for c in contours) or 1.0
    width_now = 2 * area / perimeter
    grow = float(np.clip((pen - width_now) / 2, -0.35 * width_now, 3 * pen))
    return np.clip(signed + grow + 0.5, 0, 1).astype(np.float32)


def _digits_alpha(digits: str, height: float, pen: float, source: DigitSource,
                  rng: np.random.Generator) -> np.ndarray:
    """One or two handwritten digits side by side, as one alpha mask."""
    glyphs = [pen_glyph(source.glyph(int(d), rng), height * rng.uniform(0.9, 1.05), pen, rng)
              for d in digits]
    if len(glyphs) == 1:
        return _crop_alpha(glyphs[0])
    parts = [_crop_alpha(g) for g in glyphs]
    gap = int(round(height * rng.uniform(0.02, 0.12)))
    h = max(p.shape[0] for p in parts)
    w = sum(p.shape[1] for p in parts) + gap * (len(parts) - 1)
    out = np.zeros((h, w), np.float32)
    x = 0
    for p in parts:
        top = (h - p.shape[0]) // 2 + int(rng.integers(-max(1, h // 12), max(1, h // 12) + 1))
        top = min(max(top, 0), h - p.shape[0])
        out[top: top + p.shape[0], x: x + p.shape[1]] = np.maximum(
            out[top: top + p.shape[0], x: x + p.shape[1]], p)
        x += p.shape[1] + gap
    return out


def _crop_alpha(a: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(a > 0.02)
    if len(ys) == 0:
        return a
    return a[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def _fit(alpha: np.ndarray, max_w: float, max_h: float) -> np.ndarray:
    h, w = alpha.shape
    k = min(1.0, max_w / w, max_h / h)
    if k >= 0.999:
        return alpha
    size = (max(1, int(round(w * k))), max(1, int(round(h * k))))
    return cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)


def _write_mark(ink: _Ink, value, box: tuple[float, float, float, float], s: float,
                pen_mm: float, source: DigitSource, rng: np.random.Generator) -> None:
    """Draw one mark into the cell box (page px: x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    cw, ch = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2 + rng.uniform(-0.06, 0.06) * cw
    cy = (y0 + y1) / 2 + rng.uniform(-0.06, 0.06) * ch
    pen = pen_mm * s
    if value == CROSSED:
        for corner in (0, 1):
            a = np.array([x0 + rng.uniform(0.1, 0.28) * cw, y0 + rng.uniform(0.1, 0.28) * ch])
            b = np.array([x1 - rng.uniform(0.1, 0.28) * cw, y1 - rng.uniform(0.1, 0.28) * ch])
            if corner:
                a[1], b[1] = y1 - (a[1] - y0), y0 + (y1 - b[1])
            bow = rng.uniform(-0.06, 0.06) * np.hypot(*(b - a))
            normal = np.array([-(b - a)[1], (b - a)[0]]) / np.hypot(*(b - a))
            t = np.linspace(0, 1, 24)[:, None]
            pts = (1 - t) * a + t * b + (4 * t * (1 - t)) * bow * normal
            ink.polyline(pts, pen * rng.uniform(0.9, 1.2))
        return
    circled = isinstance(value, Guarded)
    number = value.value if circled else int(value)
    digits = str(abs(number))
    if circled:
        rx = cw * rng.uniform(0.36, 0.44)
        ry = ch * rng.uniform(0.36, 0.44)
        height = 2 * ry * rng.uniform(0.5, 0.62)
        max_w, max_h = 1.45 * rx, 1.3 * ry
    else:
        height = min(ch * rng.uniform(0.5, 0.72), 14 * s * rng.uniform(0.8, 1.0))
        max_w, max_h = 0.86 * cw, 0.86 * ch
    alpha = _fit(_digits_alpha(digits, height, pen, source, rng), max_w, max_h)
    h, w = alpha.shape
    left = min(max(cx - w / 2, x0 + 0.04 * cw), x1 - 0.04 * cw - w)
    top = min(max(cy - h / 2, y0 + 0.04 * ch), y1 - 0.04 * ch - h)
    ink.add(alpha, left, top)
    if circled:
        ex, ey = left + w / 2, top + h / 2
        start = rng.uniform(0, 2 * math.pi)
        sweep = math.radians(rng.uniform(345, 400))
        t = np.linspace(0, 1, 96)
        theta = start + t * sweep
        wobble = 1 + rng.uniform(-0.06, 0.06) * t + 0.02 * np.sin(3 * theta + rng.uniform(0, 6))
        tilt = rng.uniform(-0.3, 0.3)
        px, py = rx * np.cos(theta) * wobble, ry * np.sin(theta) * wobble
        pts = np.stack([ex + px * math.cos(tilt) - py * math.sin(tilt),
                        ey + px * math.sin(tilt) + py * math.cos(tilt)], axis=1)
        ink.polyline(pts, pen * rng.uniform(0.85, 1.1))


def fill_page(page: np.ndarray, sheet: Sheet, marks: dict, rng: np.random.Generator,
              ink: str | None = None, source: DigitSource | None = None) -> None:
    """Write `marks` (cell id -> int, "X" or Guarded) into the rendered page (RGB uint8,
    modified in place) by hand."""
    if not marks:
        return
    source = source or digit_source()
    sx = page.shape[1] / sheet.width
    sy = page.shape[0] / sheet.height
    name = ink or ("blue", "black")[rng.integers(2)]
    dark, light = (np.array(c, np.float32) for c in INKS[name])
    colour = dark + rng.uniform(0, 1) * (light - dark)
    pen_mm = rng.uniform(0.35, 0.6)
    for cell_id in sorted(marks):
        value = marks[cell_id]
        if cell_id not in sheet.cells:
            raise KeyError(f"no cell {cell_id!r} on {sheet.identity.encode()}")
        if value is None or value == "":
            continue
        bx0, by0, bx1, by1 = sheet.cells[cell_id].bounds
        box = (bx0 * sx, by0 * sy, bx1 * sx, by1 * sy)
        margin = 2 + int(0.2 * max(box[2] - box[0], box[3] - box[1]))
        px0, py0 = max(0, int(box[0]) - margin), max(0, int(box[1]) - margin)
        px1 = min(page.shape[1], int(box[2]) + margin + 1)
        py1 = min(page.shape[0], int(box[3]) + margin + 1)
        layer = _Ink(px0, py0, px1 - px0, py1 - py0)
        _write_mark(layer, value, box, sx, pen_mm * rng.uniform(0.9, 1.1), source, rng)
        # a ballpoint's ink is uneven along the stroke
        grain = cv2.resize(rng.uniform(0.75, 1.0, (max(2, (py1 - py0) // 6), max(2, (px1 - px0) // 6)))
                           .astype(np.float32), (px1 - px0, py1 - py0), interpolation=cv2.INTER_LINEAR)
        a = (layer.alpha * grain * rng.uniform(0.85, 1.0))[:, :, None]
        patch = page[py0:py1, px0:px1].astype(np.float32)
        # ink absorbs: multiply the paper (and print) by the pen's colour
        page[py0:py1, px0:px1] = np.clip(patch * (1 - a + a * colour / 255), 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------- camera


@dataclass
class _Camera:
    width: float  # page mm
    height: float
    R: np.ndarray
    distance: float  # mm
    f: float  # px
    c: np.ndarray  # principal point, px
    curl: float  # mm
    curl_shape: int
    curl_axis: float
    rotation: float = 0.0  # degrees, as drawn
    tilt: float = 0.0  # degrees, as drawn

    def lift(self, p: np.ndarray) -> np.ndarray:
        """Height (mm) of page points off the table."""
        if not self.curl:
            return np.zeros(len(p))
        u = 2 * p[:, 0] / self.width - 1
        v = 2 * p[:, 1] / self.height - 1
        if self.curl_shape == 0:  # rolled along one side: both opposite edges lift
            a = math.cos(self.curl_axis) * u + math.sin(self.curl_axis) * v
            return self.curl * np.clip(np.abs(a), 0, 1) ** 2
        if self.curl_shape == 1:  # one edge lifts (the page was lying folded)
            a = math.cos(self.curl_axis) * u + math.sin(self.curl_axis) * v
            return self.curl * np.clip((a + 1) / 2, 0, 1) ** 2.5
        # a corner lifts
        cu, cv = math.copysign(1, math.cos(self.curl_axis)), math.copysign(1, math.sin(self.curl_axis))
        return self.curl * (np.clip((cu * u + 1) / 2, 0, 1) * np.clip((cv * v + 1) / 2, 0, 1)) ** 2

    def project(self, p: np.ndarray, flat: bool = False) -> np.ndarray:
        z = np.zeros(len(p)) if flat else self.lift(p)
        P = np.stack([p[:, 0] - self.width / 2, p[:, 1] - self.height / 2, -z], axis=1)
        X = P @ self.R.T + np.array([0, 0, self.distance])
        return self.f * X[:, :2] / X[:, 2:3] + self.c

    @property
    def homography(self) -> np.ndarray:
        K = np.array([[self.f, 0, self.c[0]], [0, self.f, self.c[1]], [0, 0, 1]])
        M = np.column_stack([self.R[:, 0], self.R[:, 1], [0, 0, self.distance]])
        T = np.array([[1, 0, -self.width / 2], [0, 1, -self.height / 2], [0, 0, 1]])
        H = K @ M @ T
        return H / H[2, 2]

    def unproject(self, q: np.ndarray) -> np.ndarray:
        """Page points (mm) seen at image points q (px), curl included (fixed point)."""
        Hinv = np.linalg.inv(self.homography)
        flat = _apply(Hinv, q)
        if not self.curl:
            return flat
        p = flat.copy()
        for _ in range(4):
            p = p + (flat - _apply(Hinv, self.project(p)))
        return p


def _apply(H: np.ndarray, p: np.ndarray) -> np.ndarray:
    q = np.column_stack([p, np.ones(len(p))]) @ H.T
    return q[:, :2] / q[:, 2:3]


def _rotation(rotation_deg: float, tilt_deg: float, tilt_axis: float) -> np.ndarray:
    rz, _ = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(rotation_deg)]))
    axis = np.array([math.cos(tilt_axis), math.sin(tilt_axis), 0.0]) * math.radians(tilt_deg)
    rt, _ = cv2.Rodrigues(axis)
    return rt @ rz


def _marker_quads(sheet: Sheet) -> dict[int, np.ndarray]:
    """Page corners (mm) of the four ArUco markers, by id."""
    from rnwprint.layout.page import marker_rows

    by_rows = {rows: MARKER_IDS[corner] for corner, rows in marker_rows().items()}
    quads = {}
    for item in sheet.items:
        if isinstance(item, Matrix) and item.rows in by_rows:
            n = len(item.rows) * item.module
            quads[by_rows[item.rows]] = np.array(
                [(item.x, item.y), (item.x + n, item.y), (item.x + n, item.y + n), (item.x, item.y + n)])
    return quads


def _place_camera(sheet: Sheet, W: int, H: int, opts: PhotoOptions, rng: np.random.Generator) -> _Camera:
    rotation = opts.rotation if opts.rotation is not None else rng.uniform(0, 360)
    tilt = opts.tilt if opts.tilt is not None else opts.max_tilt * math.sqrt(rng.uniform(0, 1))
    tilt_axis = rng.uniform(0, 2 * math.pi)
    fill = opts.fill if opts.fill is not None else rng.uniform(0.6, 0.9)
    curl = opts.curl if opts.curl is not None else rng.uniform(0, 1.5)
    cam = _Camera(sheet.width, sheet.height, _rotation(rotation, tilt, tilt_axis), 300.0,
                  W * rng.uniform(0.7, 0.9), np.zeros(2), curl, int(rng.integers(3)), rng.uniform(0, 2 * math.pi),
                  rotation % 360, tilt)
    corners = np.array([(0, 0), (sheet.width, 0), (sheet.width, sheet.height), (0, sheet.height)], float)
    for _ in range(6):  # move the camera until the page fills `fill` of the frame
        q = cam.project(corners, flat=True)
        span = q.max(axis=0) - q.min(axis=0)
        cam.distance /= min(fill * W / span[0], fill * H / span[1])
    q = cam.project(corners, flat=True)
    lo, hi = q.min(axis=0), q.max(axis=0)
    slack = np.array([W, H]) - (hi - lo)
    offset = rng.uniform(0.15, 0.85, 2) * slack
    cam.c = offset - lo
    if opts.hide_marker is not None and opts.hide_by == "crop":
        _crop_marker(cam, sheet, W, H, opts.hide_marker, opts.rotation is None, rng)
    return cam


def _crop_marker(cam: _Camera, sheet: Sheet, W: int, H: int, marker: int, may_turn: bool,
                 rng: np.random.Generator) -> None:
    """Shift (and if need be turn) the page so that `marker` falls outside the frame while
    the other three stay inside."""
    quads = _marker_quads(sheet)
    base_R, base_rotation = cam.R, cam.rotation
    turns = [0.0] + ([a for k in range(1, 12) for a in (10.0 * k, -10.0 * k)] if may_turn else [])
    for turn in turns:
        rz, _ = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(turn)]))
        cam.R = base_R @ rz  # = tilt @ Rz(rotation + turn)
        cam.rotation = (base_rotation + turn) % 360
        cam.c = np.zeros(2)
        gone = cam.project(quads[marker])
        kept = np.concatenate([cam.project(q) for i, q in quads.items() if i != marker])
        pad = 0.03 * min(W, H)
        # c must keep `kept` inside [pad, W - pad] x [pad, H - pad] ...
        lo = np.array([pad, pad]) - kept.min(axis=0)
        hi = np.array([W - pad, H - pad]) - kept.max(axis=0)
        if np.any(lo > hi):
            continue
        # ... and push every corner of `gone` past one frame edge
        candidates = []
        for axis in (0, 1):
            for side in (0, 1):
                c = (lo + hi) / 2
                limit = (W, H)[axis]
                if side == 0:  # off the left/top edge: max(gone + c) < -margin
                    need = -pad - gone[:, axis].max()
                    if need < lo[axis]:
                        continue
                    c[axis] = max(lo[axis], min(hi[axis], need))
                    ok = (gone[:, axis] + c[axis]).max() < 0
                else:
                    need = limit + pad - gone[:, axis].min()
                    if need > hi[axis]:
                        continue
                    c[axis] = min(hi[axis], max(lo[axis], need))
                    ok = (gone[:, axis] + c[axis]).min() > limit
                if ok:
                    candidates.append(c)
        if candidates:
            cam.c = candidates[rng.integers(len(candidates))]
            return
    raise ValueError(f"cannot frame the page so that only marker {marker} is cut off; "
                     f"try another rotation or a smaller fill")


# --------------------------------------------------------------------------- scene


def _background(kind: str, W: int, H: int, rng: np.random.Generator) -> np.ndarray:
    """A table: BGR uint8."""
    small = (max(4, W // 16), max(4, H // 16))
    if kind == "wood":
        base = np.array([rng.uniform(120, 175), rng.uniform(80, 120), rng.uniform(45, 75)], np.float32)
        # grain: fine streaks along the planks, bent by low-frequency noise
        small = (max(8, W // 6), max(8, H // 6))
        angle = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:small[1], 0:small[0]].astype(np.float32)
        across = (-xx * math.sin(angle) + yy * math.cos(angle)) / max(small)
        along = (xx * math.cos(angle) + yy * math.sin(angle)) / max(small)
        bend = cv2.GaussianBlur(rng.normal(0, 1, (small[1], small[0])).astype(np.float32), (0, 0),
                                max(small) / 12)
        bend *= 0.004 / max(1e-6, float(bend.std()))
        u = across + bend
        grain = 0.5 + 0.5 * np.sin(u * rng.uniform(250, 400) + 2.5 * np.sin(u * rng.uniform(30, 50)))
        planks = np.floor(u * rng.uniform(3, 5) + 10).astype(np.int64)
        shade = np.random.default_rng(int(rng.integers(1 << 30))).uniform(0.92, 1.06, planks.max() + 2)[planks]
        fine = rng.normal(0, 1, (small[1], small[0])).astype(np.float32)
        fine = cv2.GaussianBlur(fine, (0, 0), 1.5) * 0.04
        field_ = shade * (0.92 + 0.1 * grain + 0.03 * np.sin(along * 9)) + fine
    elif kind == "cloth":
        base = np.array([rng.uniform(30, 70), rng.uniform(70, 110), rng.uniform(60, 120)], np.float32)
        field_ = 1 + 0.08 * cv2.GaussianBlur(rng.normal(0, 1, (small[1], small[0])).astype(np.float32), (0, 0), 2)
    elif kind == "dark":
        base = np.full(3, rng.uniform(25, 55), np.float32) * rng.uniform(0.9, 1.1, 3).astype(np.float32)
        field_ = 1 + 0.1 * cv2.GaussianBlur(rng.normal(0, 1, (small[1], small[0])).astype(np.float32), (0, 0), 4)
    else:  # grey desk
        base = np.full(3, rng.uniform(110, 170), np.float32) * rng.uniform(0.95, 1.05, 3).astype(np.float32)
        field_ = 1 + 0.05 * cv2.GaussianBlur(rng.normal(0, 1, (small[1], small[0])).astype(np.float32), (0, 0), 3)
    coloured = np.clip(field_[:, :, None] * base[::-1], 0, 255).astype(np.uint8)  # BGR
    return cv2.resize(coloured, (W, H), interpolation=cv2.INTER_LINEAR)


def _light_field(W: int, H: int, strength: float, rng: np.random.Generator) -> np.ndarray:
    """Uneven light: a gradient across the frame and a vignette, 1 = full light."""
    sw, sh = max(4, W // 32), max(4, H // 32)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xx, yy = xx / (sw - 1) - 0.5, yy / (sh - 1) - 0.5
    angle = rng.uniform(0, 2 * math.pi)
    ramp = (xx * math.cos(angle) + yy * math.sin(angle)) + 0.5  # about 0..1
    vignette = (xx ** 2 + yy ** 2) * 2
    light = 1 - strength * (0.55 * np.clip(ramp, 0, 1.2) + 0.25 * vignette)
    return cv2.resize(light.astype(np.float32), (W, H), interpolation=cv2.INTER_CUBIC)


def _shadow_mask(W: int, H: int, through: np.ndarray, towards: np.ndarray, softness: float,
                 rng: np.random.Generator) -> np.ndarray:
    """1 in the shadow, 0 outside: a half-plane whose edge passes through `through`, on the
    side of `towards` (a point), with a soft, slightly wavy edge."""
    angle = rng.uniform(0, math.pi)
    normal = np.array([math.cos(angle), math.sin(angle)])
    if np.dot(towards - through, normal) < 0:
        normal = -normal
    sw, sh = max(8, W // 8), max(8, H // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xx, yy = xx * (W / sw), yy * (H / sh)
    d = (xx - through[0]) * normal[0] + (yy - through[1]) * normal[1]
    d = cv2.resize(d.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    return np.clip(0.5 + d / (2 * softness), 0, 1)


def _thumb(img: np.ndarray, quad: np.ndarray, away: np.ndarray, rng: np.random.Generator) -> None:
    """A thumb (or a die, an eraser...) covering a marker: a shaded ellipse, reaching in
    from the side `away` from the page (so that it leaves the QR code beside the marker)."""
    centre = quad.mean(axis=0)
    side = float(np.mean(np.hypot(*(quad - np.roll(quad, 1, axis=0)).T)))
    direction = (centre - away) / max(1e-9, float(np.hypot(*(centre - away))))
    centre = centre + direction * side * rng.uniform(0.05, 0.12)
    axes = (side * rng.uniform(0.85, 1.0), side * rng.uniform(0.8, 0.88))
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    colour = np.array(((205, 160, 135), (180, 130, 100), (120, 85, 60), (60, 60, 65))[rng.integers(4)], np.float32)
    H, W = img.shape[:2]
    mask = np.zeros((H, W), np.uint8)
    cv2.ellipse(mask, (int(centre[0] * 16), int(centre[1] * 16)), (int(axes[0] * 16), int(axes[1] * 16)),
                angle, 0, 360, 255, -1, cv2.LINE_AA, shift=4)
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0:
        return
    a = mask[y:y + h, x:x + w].astype(np.float32)[:, :, None] / 255
    shade = cv2.GaussianBlur(a[:, :, 0], (0, 0), max(1.0, side * 0.2))[:, :, None]
    region = img[y:y + h, x:x + w].astype(np.float32)
    mixed = region * (1 - a) + a * colour[::-1] * (0.75 + 0.3 * shade)  # BGR
    img[y:y + h, x:x + w] = np.clip(mixed, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------- the photo


class _PageCache:
    """Rendered pages, reused while the Sheet object lives (rendering is the slow part)."""

    def __init__(self):
        self.entries: dict[tuple[int, int], tuple[weakref.ref, np.ndarray]] = {}

    def get(self, sheet: Sheet, dpi: int) -> np.ndarray:
        from rnwprint.render.png import render_image

        key = (id(sheet), dpi)
        hit = self.entries.get(key)
        if hit is not None and hit[0]() is sheet:
            return hit[1]
        page = np.asarray(render_image(sheet, dpi).convert("RGB")).copy()
        self.entries = {k: v for k, v in self.entries.items() if v[0]() is not None}
        if len(self.entries) > 8:
            self.entries.pop(next(iter(self.entries)))
        self.entries[key] = (weakref.ref(sheet), page)
        return page


_PAGES = _PageCache()


def frame_size(megapixels: float, aspect: float = 4 / 3) -> tuple[int, int]:
    h = int(round(math.sqrt(megapixels * 1e6 / aspect)))
    return int(round(h * aspect)), h


def synthesize(sheet: Sheet, marks: dict | None = None, seed: int = 0, megapixels: float = 12.0,
               **options) -> SynthPhoto:
    """A JPEG phone photo of `sheet` filled in with `marks`, and where the page is in it."""
    opts = _options(options)
    rng = np.random.default_rng(seed)
    W, H = frame_size(megapixels, opts.aspect)
    cam = _place_camera(sheet, W, H, opts, rng)

    # the page, rendered about as sharp as the camera sees its nearest part
    corners = np.array([(0, 0), (sheet.width, 0), (sheet.width, sheet.height), (0, sheet.height)], float)
    q = cam.project(corners, flat=True)
    px_per_mm = max(np.hypot(*(q[1] - q[0])) / sheet.width, np.hypot(*(q[2] - q[1])) / sheet.height,
                    np.hypot(*(q[2] - q[3])) / sheet.width, np.hypot(*(q[3] - q[0])) / sheet.height)
    dpi = int(min(300, max(75, math.ceil(px_per_mm * 25.4 * 1.15 / 25) * 25)))
    page = _PAGES.get(sheet, dpi).copy()
    page_rng = np.random.default_rng([seed, 1])
    fill_page(page, sheet, marks or {}, page_rng, opts.ink,
              digit_source(opts.handwriting))
    # paper is never quite white
    paper = np.array([rng.uniform(236, 252), rng.uniform(236, 250), rng.uniform(228, 246)]) / 255
    tint = np.clip(np.arange(256)[:, None] * paper[None, ::-1], 0, 255).astype(np.uint8).reshape(256, 1, 3)
    page = cv2.LUT(cv2.cvtColor(page, cv2.COLOR_RGB2BGR), tint)  # BGR from here on

    sx, sy = page.shape[1] / sheet.width, page.shape[0] / sheet.height
    pw, ph = page.shape[1], page.shape[0]
    if cam.curl:
        step = 8 if W * H < 4e6 else 16
        gx, gy = np.meshgrid(np.arange(0, W + step, step, dtype=np.float64),
                             np.arange(0, H + step, step, dtype=np.float64))
        p = cam.unproject(np.column_stack([gx.ravel(), gy.ravel()]))
        mx = (p[:, 0] * sx - 0.5).reshape(gx.shape).astype(np.float32)
        my = (p[:, 1] * sy - 0.5).reshape(gx.shape).astype(np.float32)
        # upsample the coarse map: grid point k sits at pixel k*step
        full_w, full_h = gx.shape[1] * step, gx.shape[0] * step
        mx = cv2.resize(mx, (full_w, full_h), interpolation=cv2.INTER_LINEAR)
        my = cv2.resize(my, (full_w, full_h), interpolation=cv2.INTER_LINEAR)
        # cv2.resize aligns pixel centres, not grid points: the value for grid point k
        # lands at pixel k * step + (step - 1) / 2; move it back to k * step
        shift = (step - 1) / 2
        affine = np.float32([[1, 0, -shift], [0, 1, -shift]])
        mx = cv2.warpAffine(mx, affine, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        my = cv2.warpAffine(my, affine, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        warped = cv2.remap(page, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
        inside = cv2.remap(np.full((ph, pw), 255, np.uint8), mx, my, cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    else:
        S = np.array([[sx, 0, -0.5], [0, sy, -0.5], [0, 0, 1]])
        M = cam.homography @ np.linalg.inv(S)  # render px -> image px
        warped = cv2.warpPerspective(page, M, (W, H), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
        inside = cv2.warpPerspective(np.full((ph, pw), 255, np.uint8), M, (W, H), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    background = _background(opts.background or BACKGROUNDS[rng.integers(len(BACKGROUNDS))], W, H, rng)
    weight = inside.astype(np.float32) * (1 / 255)
    img = cv2.blendLinear(warped, background, weight, 1 - weight)
    del warped, background, weight

    if opts.hide_marker is not None and opts.hide_by == "blob":
        page_centre = cam.project(np.array([[sheet.width / 2, sheet.height / 2]]))[0]
        _thumb(img, cam.project(_marker_quads(sheet)[opts.hide_marker]), page_centre, rng)

    # light: gradient + vignette, exposure and white balance
    strength = opts.light if opts.light is not None else rng.uniform(0.1, 0.45)
    light = _light_field(W, H, strength, rng) * np.float32(rng.uniform(0.88, 1.05))
    shadow = opts.shadow if opts.shadow is not None else (rng.uniform(0.3, 0.55) if rng.uniform() < 0.5 else 0.0)
    if opts.shadow_marker is not None and not shadow:
        shadow = rng.uniform(0.35, 0.55)
    if shadow:
        scale = math.sqrt(W * H / 12e6)
        if opts.shadow_marker is not None:
            quad = cam.project(_marker_quads(sheet)[opts.shadow_marker])
            through = quad.mean(axis=0)
        else:
            through = cam.project(np.array([[rng.uniform(0.1, 0.9) * sheet.width,
                                             rng.uniform(0.1, 0.9) * sheet.height]]))[0]
        towards = through + rng.normal(0, 1, 2)
        mask = _shadow_mask(W, H, through, towards, rng.uniform(2, 10) * scale, rng)
        light *= 1 - np.float32(shadow) * mask
        del mask
    balance = rng.uniform(0.93, 1.04, 3)
    bgr = cv2.multiply(img, cv2.merge([light * np.float32(b) for b in balance]), dtype=cv2.CV_8U)
    del img, light

    sigma = opts.blur if opts.blur is not None else rng.uniform(0.3, 1.0) * math.sqrt(megapixels / 12) + 0.2
    if sigma > 0:
        bgr = cv2.GaussianBlur(bgr, (0, 0), sigma)
    noise = opts.noise if opts.noise is not None else rng.uniform(1.0, 4.0)
    if noise > 0:
        cv2.setRNGSeed(int(seed) & 0x7FFFFFFF)
        # uniform noise of the same spread (three times faster to draw than Gaussian)
        half = math.sqrt(3) * noise
        grain = np.empty((H, W, 3), np.int16)  # colour noise ...
        cv2.randu(grain, (-half / 2,) * 3, (half / 2,) * 3)
        luma = np.empty((H, W), np.int16)  # ... on top of brightness noise
        cv2.randu(luma, -half, half)
        grain += luma[:, :, None]
        bgr = cv2.add(bgr, grain, dtype=cv2.CV_8U)
    quality = opts.jpeg_quality if opts.jpeg_quality is not None else int(rng.integers(70, 96))
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    truth = PhotoTruth((W, H), cam.homography, cam.rotation, cam.tilt, cam.curl, opts.hide_marker, cam)
    return SynthPhoto(buf.tobytes(), truth)


def make_photo(sheet: Sheet, marks: dict | None = None, seed: int = 0, megapixels: float = 12.0,
               **options) -> bytes:
    """A JPEG phone photo of `sheet` with `marks` written in; see PhotoOptions for options."""
    return synthesize(sheet, marks, seed, megapixels, **options).jpeg


# --------------------------------------------------------------------------- bad photos


def make_photo_without_sheet(seed: int = 0, megapixels: float = 1.0) -> bytes:
    """A table with a blank, unmarked piece of paper and some scribbles: no rnwprint sheet."""
    rng = np.random.default_rng(seed)
    W, H = frame_size(megapixels)
    img = _background(BACKGROUNDS[rng.integers(len(BACKGROUNDS))], W, H, rng)
    quad = np.array([(0.2, 0.15), (0.75, 0.2), (0.7, 0.85), (0.15, 0.8)]) * (W, H) + rng.normal(0, 0.02 * W, (4, 2))
    cv2.fillConvexPoly(img, quad.astype(np.int32), (230, 235, 235), cv2.LINE_AA)
    for _ in range(12):
        a, b = rng.uniform(0.25, 0.7, 2) * (W, H), rng.uniform(0.25, 0.7, 2) * (W, H)
        cv2.line(img, tuple(int(v) for v in a), tuple(int(v) for v in b), (120, 50, 40), max(1, W // 400), cv2.LINE_AA)
    light = _light_field(W, H, 0.3, rng)
    bgr = cv2.GaussianBlur(cv2.multiply(img, cv2.merge([light] * 3), dtype=cv2.CV_8U), (0, 0), 0.8)
    return cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()


def with_identity(sheet: Sheet, identity: Identity) -> Sheet:
    """A copy of `sheet` whose QR code says `identity` (e.g. an older layout version or
    another game) and whose other items and cells stay as they were."""
    from rnwprint.layout.page import qr_rows

    markers = set(_marker_rows_set())
    rows = qr_rows(identity.encode())
    # a code of another size keeps its bottom edge, as layout.page places it
    items = [dataclasses.replace(i, rows=rows, y=i.y + (len(i.rows) - len(rows)) * i.module)
             if isinstance(i, Matrix) and i.rows not in markers else i for i in sheet.items]
    return Sheet(identity, sheet.width, sheet.height, sheet.title, items, dict(sheet.cells))


def _marker_rows_set():
    from rnwprint.layout.page import marker_rows

    return marker_rows().values()


def random_marks(sheet: Sheet, seed: int = 0, share: float = 0.7, crosses: float = 0.1,
                 circled: float = 0.05) -> dict:
    """Plausible marks for a share of the cells: numbers in each cell's range, some X and
    some circled numbers."""
    rng = np.random.default_rng([seed, 2])
    marks = {}
    for cell_id in sorted(sheet.cells):
        cell = sheet.cells[cell_id]
        if cell.kind != "number" or rng.uniform() > share:
            continue
        r = rng.uniform()
        value = int(rng.integers(max(cell.low, 0), cell.high + 1))
        if r < crosses:
            marks[cell_id] = CROSSED
        elif r < crosses + circled:
            marks[cell_id] = Guarded(value)
        else:
            marks[cell_id] = value
    return marks


__all__ = ["PhotoOptions", "PhotoTruth", "SynthPhoto", "DigitSource", "MnistDigits", "FontDigits",
           "digit_source", "crop_glyph", "pen_glyph", "fill_page", "frame_size", "synthesize", "make_photo",
           "make_photo_without_sheet", "with_identity", "random_marks"]
