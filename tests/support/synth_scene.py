"""The camera and the scene for the synthetic photos: a pinhole camera over a curled page,
marker placement and crop-outs, the table background, uneven light, cast shadows and a thumb.
Split out of support.synth."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from rnwprint.core.sheet import Matrix, Sheet

if TYPE_CHECKING:
    from support.synth import PhotoOptions

MARKER_IDS = {"top-left": 0, "top-right": 1, "bottom-right": 2, "bottom-left": 3}


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
