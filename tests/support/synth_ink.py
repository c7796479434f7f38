"""Handwriting for the synthetic photos: digit glyph sources (held-out MNIST or font
stand-ins), pen strokes, the marks written into a sheet's cells (`fill_page`) and plausible
random marks (`random_marks`). Split out of support.synth, which re-exports these names."""

from __future__ import annotations

import functools
import math
import os
import pathlib

import cv2
import numpy as np

from rnwprint.core.entries import CROSSED, Guarded
from rnwprint.data import data_path
from rnwprint.core.sheet import Sheet

HELDOUT = data_path("photo", "heldout-digits.npz")

INKS = {  # RGB, as a ballpoint or felt pen looks on white paper
    "blue": ((22, 42, 130), (40, 70, 170)),
    "black": ((20, 20, 26), (55, 55, 62)),
    # a hard pencil pressed lightly: strokes 0.08-0.18 darker than the paper, most of them paler
    # than the reader's ink floor (bench_photo.py --ink pale)
    "pale": ((196, 196, 202), (220, 220, 226)),
    # a soft pencil's graphite (bench_photo.py --ink pencil)
    "pencil": ((62, 62, 68), (104, 104, 110)),
}




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
    if pieces(binary) > pieces(mask > 0.5):
        # a stroke one source pixel wide (a thin font's, a diagonal step) fades below half
        # when scaled up: a pen does not lift there, so its fainter line is kept
        binary = (up > 0.25).astype(np.uint8)
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


def pieces(binary: np.ndarray) -> int:
    """How many separate pieces of ink (8-connected)."""
    return cv2.connectedComponents(binary.astype(np.uint8), connectivity=8)[0] - 1


#: the space between a two-digit number's digits, as shares of the height (below 0: they overlap,
#: as joined or cursive writing does; bench/bench_photo.py --joined)
PAIR_GAP = (0.02, 0.12)
JOINED_GAP = (-0.06, 0.0)


def _digits_alpha(digits: str, height: float, pen: float, source: DigitSource,
                  rng: np.random.Generator) -> np.ndarray:
    """One or two handwritten digits side by side, as one alpha mask."""
    glyphs = [pen_glyph(source.glyph(int(d), rng), height * rng.uniform(0.9, 1.05), pen, rng)
              for d in digits]
    if len(glyphs) == 1:
        return _crop_alpha(glyphs[0])
    parts = [_crop_alpha(g) for g in glyphs]
    gap = int(round(height * rng.uniform(*PAIR_GAP)))
    gap = max(gap, -(min(p.shape[1] for p in parts) // 2))  # a narrow 1 overlaps by half itself at most
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


#: a guard circle's half axes, as shares of the box's sides: round the box's edge; TIGHT_CIRCLE
#: draws it round the number, well inside the box, BIG_CIRCLE round the box, out over its
#: edges, ROUND_CIRCLE round the box and clear of it, the number inside as big as a plain one
#: (bench/bench_photo.py --circles tight|big|round)
CIRCLE_SIZE = (0.36, 0.44)
TIGHT_CIRCLE = (0.24, 0.32)
BIG_CIRCLE = (0.44, 0.54)
ROUND_CIRCLE = (0.74, 0.86)
#: how far in from the box's corners a cross's strokes start and end, as shares of its sides
CROSS_INSET = (0.1, 0.28)
#: a plain number's height, as shares of the box's height (at most 14 mm), fitted within
#: DIGIT_FIT of its sides; TALL_DIGITS for bench/bench_photo.py --tall: numbers as tall as the
#: box, their tops and feet on its outline
DIGIT_HEIGHT, DIGIT_FIT = (0.5, 0.72), 0.86
TALL_DIGITS = (0.9, 0.98)
#: how far round a guard circle goes, in degrees (past 360: its ends overlap); OPEN_CIRCLE
#: leaves a gap of 20-80 degrees (bench/bench_photo.py --circles open)
CIRCLE_SWEEP = (345, 400)
OPEN_CIRCLE = (280, 340)
#: how far off the middle of the box a circled number (and its circle) may be written, as a
#: share of the box's sides either way; OFFSET_CIRCLE for bench/bench_photo.py --circles offset
CIRCLE_SHIFT = 0.0
#: numbers written this share of the box up or down past their place (bench_photo --over-edge):
#: big hands run over the box's edge
OVER_EDGE = 0.0
OFFSET_CIRCLE = 0.14
#: how dark a guard circle is against the number's ink (a range; None: as dark, drawn with it);
#: FAINT_CIRCLE: a soft pencil's grey circle, light and thin, round a number written harder
#: (bench_circled.py --circles faint)
CIRCLE_INK = None
FAINT_CIRCLE = (0.22, 0.45)
#: a stretch of each number pressed lightly (None: none): beyond a line across it, its strokes
#: fade to this share of the rest's darkness (bench_photo.py --fade)
FADE = None
FADED_STRETCH = (0.2, 0.45)


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
            a = np.array([x0 + rng.uniform(*CROSS_INSET) * cw, y0 + rng.uniform(*CROSS_INSET) * ch])
            b = np.array([x1 - rng.uniform(*CROSS_INSET) * cw, y1 - rng.uniform(*CROSS_INSET) * ch])
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
        if CIRCLE_SHIFT:  # drawn only then: every other photo stays as it was
            cx += rng.uniform(-CIRCLE_SHIFT, CIRCLE_SHIFT) * cw
            cy += rng.uniform(-CIRCLE_SHIFT, CIRCLE_SHIFT) * ch
        rx = cw * rng.uniform(*CIRCLE_SIZE)
        ry = ch * rng.uniform(*CIRCLE_SIZE)
        height = 2 * ry * rng.uniform(0.5, 0.62)
        max_w, max_h = 1.45 * rx, 1.3 * ry
        if CIRCLE_SIZE == ROUND_CIRCLE:  # drawn only then: every other photo stays as it was
            height, max_w, max_h = ch * rng.uniform(*DIGIT_HEIGHT), 0.86 * cw, 0.86 * ch
    else:
        height = min(ch * rng.uniform(*DIGIT_HEIGHT), 14 * s * rng.uniform(0.8, 1.0))
        max_w, max_h = 0.86 * cw, DIGIT_FIT * ch
    alpha = _fit(_digits_alpha(digits, height, pen, source, rng), max_w, max_h)
    if FADE is not None:  # drawn only then: every other photo stays as it was
        alpha = _faded(alpha, rng)
    h, w = alpha.shape
    left = min(max(cx - w / 2, x0 + 0.04 * cw), x1 - 0.04 * cw - w)
    top = min(max(cy - h / 2, y0 + 0.04 * ch), y1 - 0.04 * ch - h)
    if OVER_EDGE and not circled:  # drawn only then: every other photo stays as it was
        top += OVER_EDGE * ch * rng.choice((-1, 1))
    ink.add(alpha, left, top)
    if circled:
        ex, ey = left + w / 2, top + h / 2
        start = rng.uniform(0, 2 * math.pi)
        sweep = math.radians(rng.uniform(*CIRCLE_SWEEP))
        t = np.linspace(0, 1, 96)
        theta = start + t * sweep
        wobble = 1 + rng.uniform(-0.06, 0.06) * t + 0.02 * np.sin(3 * theta + rng.uniform(0, 6))
        tilt = rng.uniform(-0.3, 0.3)
        px, py = rx * np.cos(theta) * wobble, ry * np.sin(theta) * wobble
        pts = np.stack([ex + px * math.cos(tilt) - py * math.sin(tilt),
                        ey + px * math.sin(tilt) + py * math.cos(tilt)], axis=1)
        if CIRCLE_INK is None:
            ink.polyline(pts, pen * rng.uniform(0.85, 1.1))
            return
        faint = _Ink(ink.x0, ink.y0, ink.alpha.shape[1], ink.alpha.shape[0])
        faint.polyline(pts, pen * rng.uniform(0.6, 0.9))
        np.maximum(ink.alpha, faint.alpha * rng.uniform(*CIRCLE_INK), out=ink.alpha)


def _faded(alpha: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """`alpha` with the strokes beyond a line across it (at any angle, from 35 % of the way
    across to 70 %) fading over a tenth of the glyph to FADE of their darkness: the pencil
    pressed lightly along part of the number."""
    h, w = alpha.shape
    angle = rng.uniform(0, 2 * math.pi)
    ys, xs = np.mgrid[0:h, 0:w]
    along = ((xs - w / 2) * math.cos(angle) + (ys - h / 2) * math.sin(angle)) / (
        abs(w / 2 * math.cos(angle)) + abs(h / 2 * math.sin(angle)) + 1e-6)  # -1 .. 1 across the glyph
    ramp = np.clip((along - rng.uniform(-0.3, 0.4)) / 0.2, 0, 1)
    return (alpha * (1 - ramp * (1 - rng.uniform(*FADE)))).astype(np.float32)


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
        reach = 0.45 if CIRCLE_SIZE == ROUND_CIRCLE else 0.2  # a circle round the box reaches far out
        margin = 2 + int(reach * max(box[2] - box[0], box[3] - box[1]))
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
