"""Crafted inputs for the tests of the photo reader's decisions: cells of each kind, a
classifier's output, a sheet's page drawn at the reader's own scale (8 px/mm) with pen
marks where a test puts them, so every expected value is known without the reader."""

from __future__ import annotations

import cv2
import numpy as np

from rnwprint.core.sheet import Cell
from rnwprint.photo import digits
from rnwprint.photo import read as photo_read

PX = 8.0  # the rectified page's px/mm
PAPER, PRINT, PEN = 225, 55, 40  # grey levels as a photo in ordinary light has them
DIE_CELL = Cell("R1C1", ((0, 0), (22, 0), (22, 22), (0, 22)), low=1, high=6)  # a Twenty One box: 1-6
TOWER_SQUARE = Cell("A1", ((0, 0), (15, 0), (15, 15), (0, 15)), low=1, high=50)
TICK_BOX = Cell("rounds:1", ((0, 0), (7, 0), (7, 7), (0, 7)), kind="tick")


def sure_of(label: str, p: float, also: str) -> np.ndarray:
    """A classifier's output for one crop: `p` on `label`, the rest on `also`."""
    row = np.zeros(len(digits.CLASSES))
    row[digits.CLASSES.index(label)] = p
    row[digits.CLASSES.index(also)] = 1 - p
    return row[None]


def blank_page(sheet) -> np.ndarray:
    """The sheet as printed, photographed square on, nothing written."""
    raw, _ = photo_read._printed(sheet, PX)
    page = PAPER - (PAPER - PRINT) * raw.astype(np.float32)
    return cv2.GaussianBlur(page, (0, 0), 0.8).astype(np.uint8)


def page_with_a_4(sheet, cell_id: str, ink: int = PEN) -> np.ndarray:
    """The sheet as printed, unblurred, a 4 of grey level `ink` written in the middle of the
    box `cell_id`."""
    raw, _ = photo_read._printed(sheet, PX)
    page = (PAPER - (PAPER - PRINT) * raw.astype(np.float32)).astype(np.uint8)
    x0, y0, x1, y1 = (round(v * PX) for v in sheet.cells[cell_id].bounds)
    cv2.putText(page, "4", ((x0 + x1) // 2 - 8, (y0 + y1) // 2 + 9), cv2.FONT_HERSHEY_SIMPLEX, 0.8, ink, 2)
    return page


def inside(cell) -> tuple[int, int, int, int]:
    """The box's inside in page pixels (left, top, right, bottom), its printed outline left out."""
    x0, y0, x1, y1 = cell.bounds
    b = photo_read.BORDER_MM
    return tuple(int(round(v * PX)) for v in (x0 + b, y0 + b, x1 - b, y1 - b))


def sprinkle(page: np.ndarray, cell, count: int) -> None:
    """`count` specks of pen (3x3 px, a dot of dust or a pen's touch) on a grid in the middle
    of the box, none touching another."""
    c0, r0, c1, r1 = inside(cell)
    k = int(np.ceil(np.sqrt(count)))
    xs = np.linspace(c0 + 25, c1 - 25, k).astype(int)
    ys = np.linspace(r0 + 25, r1 - 25, k).astype(int)
    for i in range(count):
        page[ys[i // k]:ys[i // k] + 3, xs[i % k]:xs[i % k] + 3] = PEN


def whole_of(number: int, p: float, also: int) -> tuple[np.ndarray, np.ndarray]:
    """The pair reader's output (tens, units) for a cell's whole ink: `number` read `p` sure
    (tens and units alike, so the number is about p * p likely among the rest), the rest of
    each digit's share on those of `also`; a number under 10 has no tens."""
    from rnwprint.photo import pairs

    def digit(n: int, place: int) -> int:
        return (n // 10 if n >= 10 else pairs.NO_TENS) if place == 0 else n % 10

    out = []
    for place, size in ((0, pairs.TENS), (1, 10)):
        row = np.full(size, 1e-6)
        row[digit(also, place)] += 1 - p
        row[digit(number, place)] += p
        out.append(row / row.sum())
    return out[0], out[1]


def held_out_number(number: int, gap: int, pick: int, margin: tuple[int, int] = (0, 2)) -> np.ndarray:
    """`number` written with held-out MNIST digits (the `pick`-th of each digit's), each cut to
    its ink's columns, `gap` pixels apart (below 0: overlapping), with a margin of (rows,
    columns) round them: a cell's ink, bright on 0, at MNIST's size."""
    images, labels = digits.heldout_digits()
    parts = [images[np.flatnonzero(labels == int(d))[pick]].astype(np.float32) / 255 for d in str(number)]
    parts = [p[:, np.flatnonzero(p.any(axis=0))] for p in parts]
    rows, columns = margin
    width = sum(p.shape[1] for p in parts) + max(gap, 0) * (len(parts) - 1) + 2 * columns
    out = np.zeros((28 + 2 * rows, width), np.float32)
    x = columns
    for p in parts:
        out[rows:rows + 28, x:x + p.shape[1]] = np.maximum(out[rows:rows + 28, x:x + p.shape[1]], p)
        x += p.shape[1] + gap
    return out
