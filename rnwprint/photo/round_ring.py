"""A guard circle drawn round the box in a faint pencil: clear of the box, too faint for the
ink floor, so the round check (circles._round_circle) does not see it and the number reads
plain and sure. Looked for in the photo's grey itself, along RAYS rays out from each box's
middle, from just beyond its outline to ROUND_MM out: a ring is a line darker than the paper
on both sides of it (a region's fill or a shadow's edge is darker on one side only), at
about the same distance from one ray to the next. The print, and the other boxes near, are
left out. One sampling of the page for all of a sheet's asked boxes at once."""

from __future__ import annotations

import cv2
import numpy as np

from rnwprint.core.sheet import Cell
from rnwprint.photo.circles import ROUND_FROM_MM, ROUND_MM
from rnwprint.photo.faint_ring import RAYS, _round_window
from rnwprint.photo.ink import BORDER_MM

#: a ring: on ROUND_RING_SHARE of the rays with room or more (at least half of all), the grey
#: dips by ROUND_RING_DIP of the paper beside it or more, within ROUND_RING_JUMP_PX of the
#: dips on the rays either side. The paper beside: the brightest within ROUND_RING_SIDE_MM
#: either way along the ray, the darker of the two sides
ROUND_RING_DIP, ROUND_RING_JUMP_PX, ROUND_RING_SHARE, ROUND_RING_SIDE_MM = 0.04, 3, 0.5, 1.0
ROUND_RING_NOISE = 4.0
ROOM_PX = 4  # a ray counts where its dip is measured at this many points or more
ROUND_RING_WHY = "a faint ring round the box, pencil or the photo's grain: is the number guarded?"


def round_rings(page: np.ndarray, boxes: list[tuple[tuple[np.ndarray, np.ndarray, np.ndarray], tuple[int, int]]],
                px_per_mm: float) -> list[bool]:
    """Whether a faint ring goes round each of `boxes`: (its rays, see rays_of; its shift on
    the page, rows and columns)."""
    return [share >= ROUND_RING_SHARE for share in ring_shares(page, boxes, px_per_mm)]


def ring_shares(page: np.ndarray, boxes: list, px_per_mm: float) -> list[float]:
    """For each of `boxes` (as round_rings'), the share of its rays on a ring (see _on_ring):
    a ring goes round it from ROUND_RING_SHARE on."""
    if not boxes:
        return []
    return [float(share) for share in _on_ring(*ring_dips(page, boxes, px_per_mm))]


def rays_of(cell: Cell, near: list, print_near: np.ndarray, px_per_mm: float) -> tuple[np.ndarray, ...]:
    """The points of RAYS rays out from `cell`'s middle on the page's grid (x, y: RAYS x steps,
    one px apart, from the box's edge out), and which of them are looked at: from
    ROUND_FROM_MM to ROUND_MM beyond the box, off the print (`print_near`: the print and 2 px
    round it, see widened) and off the other boxes `near` it (their bounds, mm). The same on
    every photo of the sheet."""
    x0, y0, x1, y1 = (v * px_per_mm for v in cell.bounds)
    grow, out = ROUND_FROM_MM * px_per_mm, (ROUND_MM + BORDER_MM) * px_per_mm
    half_w, half_h = (x1 - x0) / 2, (y1 - y0) / 2
    steps = np.arange(int(min(half_w, half_h)) - 1, int(np.ceil(np.hypot(half_w, half_h) + out)) + 1, dtype=np.float32)
    angles = np.arange(RAYS) * 2 * np.pi / RAYS
    x = ((x0 + x1) / 2 + np.cos(angles)[:, None] * steps).astype(np.float32)
    y = ((y0 + y1) / 2 + np.sin(angles)[:, None] * steps).astype(np.float32)
    inside = (x >= x0 - grow) & (x <= x1 + grow) & (y >= y0 - grow) & (y <= y1 + grow)
    far = (x < x0 - out) | (x > x1 + out) | (y < y0 - out) | (y > y1 + out)
    border = BORDER_MM * px_per_mm
    for bx0, by0, bx1, by1 in near:
        inside |= (x >= bx0 * px_per_mm - border) & (x <= bx1 * px_per_mm + border) & \
            (y >= by0 * px_per_mm - border) & (y <= by1 * px_per_mm + border)
    printed = cv2.remap(print_near, x, y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=1) > 0
    return x, y, ~inside & ~far & ~printed


def ring_dips(page: np.ndarray, boxes: list, px_per_mm: float):
    """For each box and ray: how far the grey dips below the paper beside it at its deepest
    (a share of that paper), how far out that is (px), and whether the ray has room."""
    width = max(rays[0].shape[1] for rays, _ in boxes)  # boxes of one sheet differ by a step or two
    mx, my = (np.full((len(boxes) * RAYS, width), -1e4, np.float32) for _ in range(2))
    looked = np.zeros((len(boxes) * RAYS, width), bool)
    for k, ((x, y, seen), (dy, dx)) in enumerate(boxes):
        rows = slice(k * RAYS, (k + 1) * RAYS)
        mx[rows, :x.shape[1]], my[rows, :x.shape[1]], looked[rows, :x.shape[1]] = x + dx, y + dy, seen
    grey = cv2.remap(page, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0).astype(np.float32)
    # across 3 rays (each with its neighbours: rays first): a ring is continuous
    ok = _round_window((looked & (grey > 0)).reshape(len(boxes), RAYS, -1).transpose(1, 0, 2), 1).all(axis=0)
    grey = _round_window(grey.reshape(len(boxes), RAYS, -1).transpose(1, 0, 2), 1).mean(axis=0)
    ok, grey = (a.transpose(1, 0, 2).reshape(len(boxes) * RAYS, -1) for a in (ok, grey))
    side = max(1, int(round(ROUND_RING_SIDE_MM * px_per_mm)))
    lit = np.where(ok, grey, 0).astype(np.float32)
    left = cv2.dilate(lit, np.ones((1, side), np.uint8), anchor=(side - 1, 0), borderType=cv2.BORDER_CONSTANT, borderValue=0)
    right = cv2.dilate(lit, np.ones((1, side), np.uint8), anchor=(0, 0), borderType=cv2.BORDER_CONSTANT, borderValue=0)
    left, right = np.roll(left, 1, axis=1), np.roll(right, -1, axis=1)  # the paper before and after, not the point
    paper = np.minimum(left, right)
    measured = ok & (paper > 0)  # paper seen on both sides (not by the box itself, nor by print)
    dip = np.where(measured, (paper - grey) / np.maximum(paper, 1), 0).reshape(len(boxes), RAYS, -1)
    room = measured.reshape(len(boxes), RAYS, -1).sum(axis=2) >= ROOM_PX
    return dip.max(axis=2), dip.argmax(axis=2), room


def _on_ring(dips: np.ndarray, radii: np.ndarray, room: np.ndarray) -> np.ndarray:
    """The share of each box's rays (of those with room, at least half of all) on a ring: the
    grey dips by ROUND_RING_DIP or more, and by ROUND_RING_NOISE times the photo's grain (the
    lower quartile of all the boxes' rays' deepest dips: grain dips too; rings go round a few
    boxes only), within ROUND_RING_JUMP_PX of the dip on a ray either side."""
    typical = float(np.quantile(dips[room], 0.25)) if room.any() else 0.0
    steady = (np.abs(radii - np.roll(radii, 1, axis=1)) <= ROUND_RING_JUMP_PX) | \
        (np.abs(radii - np.roll(radii, -1, axis=1)) <= ROUND_RING_JUMP_PX)
    on = (dips >= max(ROUND_RING_DIP, ROUND_RING_NOISE * typical)) & steady & room
    return on.sum(axis=1) / np.maximum(room.sum(axis=1), RAYS / 2)


def widened(printed: np.ndarray) -> np.ndarray:
    """The print grown by 2 px more each way: its edges blur past the print as drawn."""
    return cv2.dilate(printed, np.ones((5, 5), np.uint8))
