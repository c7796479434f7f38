"""Coloured-pencil marks for the photo generator: a dot, or a hatched fill, drawn into a
cell of the rendered page (for maps every player draws on in a colour of their own).

A pencil lays down grains, not ink: its strokes are light, uneven and leave paper between
them; a fill is hatched at one angle (sometimes crossed), stops short of the edge or
overshoots it a little, and misses bits. `fill_pencil` multiplies the paper by the
pencil's colour where its grains lie, as a pencil's pigment absorbs light.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from rnwprint.core.sheet import Sheet

from rnwprint.games.catan.pencils import PENCILS  # noqa: F401  (RGB of a firm stroke of each pencil)


@dataclass(frozen=True)
class Pencil:
    """A mark in a cell: `colour` one of PENCILS; `fill` False for a dot (a village), True
    for a hatched fill (a city, a road, a town hall)."""

    colour: str
    fill: bool


def fill_pencil(page: np.ndarray, sheet: Sheet, marks: dict, rng: np.random.Generator) -> None:
    """Draw `marks` (cell id -> Pencil, or a list of them) into the rendered page (RGB uint8,
    modified in place)."""
    s = page.shape[1] / sheet.width  # px per mm
    for cid in sorted(marks):
        for mark in marks[cid] if isinstance(marks[cid], (list, tuple)) else [marks[cid]]:
            cell = sheet.cells[cid]
            x0, y0, x1, y1 = cell.bounds
            pad = 2.0
            px0, py0 = max(0, int((x0 - pad) * s)), max(0, int((y0 - pad) * s))
            px1, py1 = min(page.shape[1], int((x1 + pad) * s) + 1), min(page.shape[0], int((y1 + pad) * s) + 1)
            alpha = np.zeros((py1 - py0, px1 - px0), np.float32)
            poly = (np.asarray(cell.polygon) * s - (px0, py0)).astype(np.float32)
            if mark.fill:
                _hatch(alpha, poly, s, rng)
            else:
                _dot(alpha, poly, s, rng)
            grain = rng.uniform(0.55, 1.0, alpha.shape).astype(np.float32)  # paper tooth
            pressure = rng.uniform(0.55, 0.95)
            a = np.clip(alpha * grain * pressure, 0, 1)[:, :, None]
            shade = np.array(PENCILS[mark.colour], np.float32) * rng.uniform(0.9, 1.08)
            patch = page[py0:py1, px0:px1].astype(np.float32)
            page[py0:py1, px0:px1] = np.clip(patch * (1 - a + a * np.clip(shade, 0, 255) / 255), 0, 255).astype(np.uint8)


def _dot(alpha: np.ndarray, poly: np.ndarray, s: float, rng: np.random.Generator) -> None:
    """A village: a small blob of a few tight circles, a little off the circle's centre."""
    cx, cy = poly.mean(axis=0) + rng.normal(0, 0.35 * s, 2)
    radius = rng.uniform(0.7, 1.3) * s
    for _ in range(int(rng.integers(3, 7))):
        r = radius * rng.uniform(0.4, 1.0)
        ox, oy = rng.normal(0, 0.15 * s, 2)
        cv2.circle(alpha, (int(round((cx + ox) * 16)), int(round((cy + oy) * 16))), int(round(r * 16)), 1.0,
                   -1, cv2.LINE_AA, 4)


def _hatch(alpha: np.ndarray, poly: np.ndarray, s: float, rng: np.random.Generator) -> None:
    """A fill: parallel strokes across the cell, clipped to it (give or take a little)."""
    strokes = np.zeros_like(alpha)
    centre = poly.mean(axis=0)
    reach = float(np.max(np.hypot(*(poly - centre).T))) + s
    passes = [rng.uniform(0, math.pi)]
    if rng.uniform() < 0.4:
        passes.append(passes[0] + rng.uniform(0.5, 1.2))
    width = max(1, int(round(rng.uniform(0.3, 0.5) * s)))
    for angle in passes:
        step = rng.uniform(0.35, 0.7) * s
        d, n = np.array([math.cos(angle), math.sin(angle)]), np.array([-math.sin(angle), math.cos(angle)])
        for k in np.arange(-reach, reach, step):
            if rng.uniform() < 0.12:
                continue  # a stroke missed
            a = centre + n * k - d * reach * rng.uniform(0.6, 1.0)
            b = centre + n * k + d * reach * rng.uniform(0.6, 1.0)
            cv2.line(strokes, tuple(int(v) for v in a), tuple(int(v) for v in b), float(rng.uniform(0.6, 1.0)),
                     width, cv2.LINE_AA)
    inside = np.zeros_like(alpha)
    grow = rng.uniform(-0.5, 0.3) * s  # stops short of the edge, or runs over it a little
    scaled = centre + (poly - centre) * (1 + grow / max(reach - s, 1))
    cv2.fillPoly(inside, [np.round(scaled).astype(np.int32)], 1.0, cv2.LINE_AA)
    np.maximum(alpha, strokes * inside, out=alpha)
