"""Digits drawn stroke by stroke in the forms MNIST's American writers seldom use: a 2 with a
loop at its foot or drawn like a Z, a 5 drawn in one stroke or with its bar apart and tilted,
a 7 with a curved stem or a bar, a 9 with a straight stem or a curled tail, a 4 closed or
open, a 1 with a flag and a foot, a flat-topped 3 (issue 15: "open-loop and cursive forms of
2, 5, 7 and 9"). Every digit has several forms, so that no form alone says "drawn by this
tool".

Each form is a few strokes through control points in a unit box (x right, y down); each
drawing moves every point a little, leans and turns the whole, narrows or widens it, and
draws it with its own pen, smoothly through the points (Catmull-Rom). Seeded:

    python tools/digits_strokes.py --count 3000 --seed 0 --out /tmp/strokes.npz

writes them as the training images of tools/train_digits.py --images are (x: normalised as the
reader normalises a crop, y: labels), for tools/train_convnet_torch.py --more.
"""

from __future__ import annotations

import argparse

import cv2
import digits_writers
import numpy as np
from digits_data import _normalised

Stroke = list[tuple[float, float]]

#: digit -> its forms, each a list of strokes
FORMS: dict[int, list[list[Stroke]]] = {
    0: [[[(0.55, 0.02), (0.18, 0.18), (0.05, 0.55), (0.25, 0.95), (0.65, 0.97), (0.92, 0.6), (0.82, 0.15),
          (0.5, 0.0), (0.3, 0.1)]],
        [[(0.7, 0.08), (0.4, 0.0), (0.12, 0.3), (0.1, 0.75), (0.4, 1.0), (0.8, 0.85), (0.9, 0.45), (0.75, 0.12)]]],
    1: [[[(0.55, 0.0), (0.45, 1.0)]],
        [[(0.15, 0.32), (0.6, 0.0), (0.5, 1.0)]],
        [[(0.2, 0.3), (0.6, 0.0), (0.5, 1.0)], [(0.2, 1.0), (0.85, 0.98)]]],
    2: [[[(0.1, 0.25), (0.35, 0.02), (0.75, 0.05), (0.85, 0.3), (0.6, 0.6), (0.1, 1.0), (0.92, 0.97)]],
        [[(0.1, 0.25), (0.4, 0.0), (0.8, 0.1), (0.8, 0.35), (0.45, 0.7), (0.15, 0.93), (0.1, 0.78), (0.3, 0.76),
          (0.55, 0.95), (0.95, 0.93)]],
        [[(0.08, 0.08), (0.88, 0.05), (0.12, 0.96), (0.92, 0.95)]],
        [[(0.12, 0.3), (0.45, 0.0), (0.85, 0.2), (0.55, 0.65), (0.15, 0.95), (0.5, 0.85), (0.75, 1.0),
          (0.95, 0.9)]]],
    3: [[[(0.1, 0.12), (0.5, 0.0), (0.85, 0.2), (0.45, 0.48), (0.9, 0.72), (0.6, 1.0), (0.08, 0.88)]],
        [[(0.1, 0.04), (0.88, 0.05), (0.4, 0.45), (0.88, 0.68), (0.6, 1.0), (0.1, 0.9)]]],
    4: [[[(0.48, 0.0), (0.06, 0.66), (0.95, 0.64)], [(0.72, 0.3), (0.66, 1.0)]],
        [[(0.66, 1.0), (0.68, 0.0), (0.05, 0.66), (0.95, 0.64)]],
        [[(0.35, 0.0), (0.12, 0.55), (0.9, 0.5)], [(0.7, 0.05), (0.72, 1.0)]]],
    5: [[[(0.22, 0.02), (0.15, 0.45), (0.55, 0.36), (0.85, 0.62), (0.6, 0.98), (0.08, 0.88)],
         [(0.22, 0.02), (0.88, 0.0)]],
        [[(0.2, 0.05), (0.16, 0.45), (0.6, 0.38), (0.85, 0.65), (0.55, 1.0), (0.1, 0.85)], [(0.3, 0.06), (0.9, -0.06)]],
        [[(0.08, 0.88), (0.6, 0.98), (0.85, 0.62), (0.5, 0.38), (0.18, 0.45), (0.25, 0.0), (0.9, 0.02)]]],
    6: [[[(0.78, 0.04), (0.3, 0.3), (0.1, 0.72), (0.4, 1.0), (0.8, 0.82), (0.7, 0.5), (0.3, 0.55), (0.15, 0.75)]],
        [[(0.6, 0.0), (0.25, 0.5), (0.2, 0.85), (0.5, 1.0), (0.8, 0.8), (0.55, 0.55), (0.25, 0.7)]]],
    7: [[[(0.05, 0.05), (0.92, 0.05), (0.35, 1.0)]],
        [[(0.05, 0.05), (0.92, 0.05), (0.38, 1.0)], [(0.3, 0.52), (0.85, 0.5)]],
        [[(0.05, 0.12), (0.9, 0.04), (0.6, 0.45), (0.45, 1.0)]],
        [[(0.02, 0.22), (0.1, 0.04), (0.92, 0.06), (0.45, 1.0)]]],
    8: [[[(0.8, 0.15), (0.5, 0.0), (0.2, 0.15), (0.3, 0.42), (0.75, 0.6), (0.82, 0.9), (0.5, 1.0), (0.18, 0.9),
          (0.25, 0.6), (0.7, 0.4), (0.82, 0.12)]]],
    9: [[[(0.85, 0.3), (0.55, 0.02), (0.15, 0.2), (0.25, 0.48), (0.6, 0.45), (0.85, 0.2), (0.8, 0.6), (0.72, 1.0)]],
        [[(0.85, 0.3), (0.55, 0.02), (0.15, 0.2), (0.25, 0.48), (0.6, 0.45), (0.85, 0.2), (0.8, 0.55), (0.7, 0.9),
          (0.4, 1.0), (0.18, 0.85)]],
        [[(0.8, 0.22), (0.5, 0.0), (0.15, 0.22), (0.3, 0.5), (0.8, 0.35)], [(0.82, 0.1), (0.78, 1.0)]]],
}

CANVAS = 112  # px a digit is drawn at before it is brought down to 28


def _spline(points: np.ndarray, per: int = 12) -> np.ndarray:
    """A Catmull-Rom curve through the points (the ends doubled)."""
    if len(points) < 3:
        return points
    p = np.vstack([points[:1], points, points[-1:]])
    t = np.linspace(0, 1, per, endpoint=False)[:, None]
    out = []
    for i in range(1, len(p) - 2):
        p0, p1, p2, p3 = p[i - 1], p[i], p[i + 1], p[i + 2]
        out.append(0.5 * (2 * p1 + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t**2
                          + (-p0 + 3 * p1 - 3 * p2 + p3) * t**3))
    out.append(points[-1:])
    return np.vstack(out)


def draw(digit: int, rng: np.random.Generator, form: int | None = None) -> np.ndarray:
    """One drawing of `digit` in one of its forms (chosen at random unless given): (28, 28)
    uint8, ink bright, MNIST-style."""
    strokes = FORMS[digit][rng.integers(len(FORMS[digit])) if form is None else form]
    width = rng.uniform(0.45, 0.85)
    lean = rng.uniform(-0.35, 0.35)
    turn = np.deg2rad(rng.uniform(-8, 8))
    cos, sin = np.cos(turn), np.sin(turn)
    pen = max(1, round(CANVAS * rng.uniform(0.05, 0.13)))
    canvas = np.zeros((CANVAS + 2 * pen, CANVAS + 2 * pen), np.uint8)
    for stroke in strokes:
        pts = np.asarray(stroke, float) + rng.normal(0, 0.035, (len(stroke), 2))
        x, y = (pts[:, 0] - 0.5) * width, pts[:, 1] - 0.5
        x = x - lean * y
        x, y = x * cos - y * sin, x * sin + y * cos
        curve = _spline(np.stack([x, y], 1))
        px = np.round((curve * 0.8 + 0.5) * CANVAS * 16).astype(np.int32) + pen * 16
        cv2.polylines(canvas, [px], False, 255, pen, cv2.LINE_AA, shift=4)
    return digits_writers.mnist_style(canvas.astype(np.float32) / 255)


def stroke_set(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """`count` drawings of each digit 0-9, in order: (n, 28, 28) uint8 and uint8 labels."""
    rng = np.random.default_rng(seed)
    labels = np.repeat(np.arange(10, dtype=np.uint8), count)
    return np.stack([draw(int(d), rng) for d in labels]), labels


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=3000, help="drawings of each digit")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    images, labels = stroke_set(args.count, args.seed)
    np.savez_compressed(args.out, x=_normalised(images.astype(np.float32) / 255), y=labels.astype(np.int64))
    print(f"wrote {len(images)} digits to {args.out}")


if __name__ == "__main__":
    main()
