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
import math
import os
import weakref
from dataclasses import dataclass, field

import cv2
import numpy as np

from support.synth_ink import (
    HELDOUT,
    INKS,
    DigitSource,
    FontDigits,
    MnistDigits,
    _digit_source,
    crop_glyph,
    digit_source,
    fill_page,
    pen_glyph,
    random_marks,
)
from support.synth_pencil import Pencil, fill_pencil
from support.synth_scene import (
    MARKER_IDS,
    _background,
    _Camera,
    _light_field,
    _marker_quads,
    _place_camera,
    _shadow_mask,
    _thumb,
)
from rnwprint.core.sheet import IDENTITY, Identity, Sheet

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
    ink: str | None = None  # blue | black | pale (synth_ink.INKS)
    crease: float = 0.0  # darkness of a fold's creases down the middle of the page, both ways (0: none)
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
# --------------------------------------------------------------------------- the photo


class _PageCache:
    """Rendered pages, reused while the Sheet object lives (rendering is the slow part)."""

    def __init__(self):
        self.entries: dict[tuple[int, int], tuple[weakref.ref, np.ndarray]] = {}

    def get(self, sheet: Sheet, dpi: int) -> np.ndarray:
        from PIL import Image

        from rnwprint.render.png import render_image

        key = (id(sheet), dpi)
        hit = self.entries.get(key)
        if hit is not None and hit[0]() is sheet:
            return hit[1]
        page = np.asarray(render_image(sheet, dpi, Image.LANCZOS).convert("RGB")).copy()
        self.entries = {k: v for k, v in self.entries.items() if v[0]() is not None}
        if len(self.entries) > 8:
            self.entries.pop(next(iter(self.entries)))
        self.entries[key] = (weakref.ref(sheet), page)
        return page


_PAGES = _PageCache()


def _creased(page: np.ndarray, darkness: float, px_per_mm: float) -> np.ndarray:
    """The page folded in four and opened again: a soft grey crease 0.4 mm wide down the middle
    each way, `darkness` at its deepest, a faint highlight beside it where the fold caught the light."""
    h, w = page.shape[:2]
    sigma = 0.4 * px_per_mm
    def band(n: int, at: float) -> np.ndarray:
        return np.exp(-((np.arange(n, dtype=np.float32) - at) / sigma) ** 2)
    crease = np.maximum(band(w, w / 2)[None, :], band(h, h / 2)[:, None])
    shine = np.maximum(band(w, w / 2 + 1.5 * sigma)[None, :], band(h, h / 2 + 1.5 * sigma)[:, None])
    out = page.astype(np.float32) * (1 - darkness * crease)[:, :, None] + 12 * shine[:, :, None]
    return np.clip(out, 0, 255).astype(np.uint8)


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
    pencil = {k: v for k, v in (marks or {}).items() if isinstance(v, (Pencil, list))}  # coloured pencil
    fill_page(page, sheet, {k: v for k, v in (marks or {}).items() if k not in pencil}, page_rng, opts.ink,
              digit_source(opts.handwriting))
    fill_pencil(page, sheet, pencil, page_rng)
    # paper is never quite white
    paper = np.array([rng.uniform(236, 252), rng.uniform(236, 250), rng.uniform(228, 246)]) / 255
    tint = np.clip(np.arange(256)[:, None] * paper[None, ::-1], 0, 255).astype(np.uint8).reshape(256, 1, 3)
    page = cv2.LUT(cv2.cvtColor(page, cv2.COLOR_RGB2BGR), tint)  # BGR from here on
    if opts.crease:
        page = _creased(page, opts.crease, page.shape[1] / sheet.width)

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


def circled_rolling_photo(path, circle_size: tuple[float, float]) -> tuple[Sheet, dict]:
    """An 8 MP photo of a Rolling America sheet (English, A4) written at `path`, four numbers in
    ten circled with circles of `circle_size` (synth_ink.CIRCLE_SIZE's kind): the sheet, the marks."""
    from rnwprint.games import GAMES
    from support import synth_ink

    game = GAMES["rolling-america"]
    sheet = game.build(game.default_variant, "en", "a4")
    marks = random_marks(sheet, 6, circled=0.4)
    kept, synth_ink.CIRCLE_SIZE = synth_ink.CIRCLE_SIZE, circle_size
    try:
        path.write_bytes(make_photo(sheet, marks, seed=6, megapixels=8.0))
    finally:
        synth_ink.CIRCLE_SIZE = kept
    return sheet, marks


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

    rows = qr_rows(identity.encode())
    # a code of another size keeps its bottom edge, as layout.page places it
    items = [dataclasses.replace(i, rows=rows, y=i.y + (len(i.rows) - len(rows)) * i.module)
             if i.role == IDENTITY else i for i in sheet.items]
    return Sheet(identity, sheet.width, sheet.height, sheet.title, items, dict(sheet.cells))


__all__ = ["PhotoOptions", "PhotoTruth", "SynthPhoto", "DigitSource", "MnistDigits", "FontDigits",
           "digit_source", "crop_glyph", "pen_glyph", "fill_page", "frame_size", "synthesize", "make_photo",
           "make_photo_without_sheet", "with_identity", "random_marks"]
