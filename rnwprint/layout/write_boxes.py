"""Placing a square write box for every region of a map: inside the region where it fits,
otherwise in a callout outside the land, joined by a leader line.

Everything is in page millimetres. No box overlaps another box or a region other than its
own; callouts sit on no region at all, leaders never run through a box and cross other
regions and leaders as little as they can.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, polylabel
from shapely.prepared import prep

from rnwprint.errors import RnwError
from rnwprint.layout.page import Box

GRID = 0.6  # mm between candidate positions inside a region
CLEARANCE = 0.6  # mm kept free around callouts
ANGLES = np.radians(np.arange(0, 360, 10))
DISTANCES = np.arange(7.0, 70.0, 1.5)
CROSS_REGION, CROSS_LEADER = 25.0, 60.0  # cost of a leader crossing, in mm of leader


@dataclass(frozen=True)
class Placement:
    cell: str
    box: Box  # where the player writes
    leader: tuple[tuple[float, float], tuple[float, float]] | None = None  # region -> box


def place(regions: dict[str, BaseGeometry], area: Box, size: float,
          keep_clear: tuple[Box, ...] = ()) -> dict[str, Placement]:
    """A Placement for every region; callouts stay inside `area` and off `keep_clear`."""
    placed = _Placed(regions)
    homeless = []
    for code in sorted(regions):
        spot = _inside(regions[code], size)
        if spot is None:
            homeless.append(code)
        else:
            placed.add(Placement(code, _square(spot, size)))
    land = prep(shapely.union_all(list(regions.values())).buffer(CLEARANCE))
    spots = {code: _open_water(regions[code], land, area, size, keep_clear) for code in homeless}
    # Regions far from open water (landlocked ones) choose first, before the coast fills up.
    for code in sorted(homeless, key=lambda c: (-spots[c][2].min(initial=1e9), c)):
        placed.add(_callout(code, spots[code], placed, size))
    return placed.placements


class _Placed:
    """What is placed so far, kept ready for the queries callouts make."""

    def __init__(self, regions: dict[str, BaseGeometry]):
        self.regions = regions
        self.codes = list(regions)
        self.region_tree = shapely.STRtree([regions[c] for c in self.codes])
        self.placements: dict[str, Placement] = {}
        self.boxes: list = []  # write boxes
        self.keep_off: list = []  # boxes and leaders, with clearance: no new box here
        self.leaders: list = []

    def add(self, p: Placement) -> None:
        self.placements[p.cell] = p
        square = shapely.box(p.box.x, p.box.y, p.box.right, p.box.bottom)
        self.boxes.append(square)
        self.keep_off.append(square.buffer(CLEARANCE, join_style="mitre"))
        if p.leader:
            line = LineString(p.leader)
            self.leaders.append(line)
            self.keep_off.append(line.buffer(CLEARANCE))


def _square(centre: tuple[float, float], size: float) -> Box:
    cx, cy = centre
    return Box(cx - size / 2, cy - size / 2, size, size)


def _squares(xs: np.ndarray, ys: np.ndarray, size: float) -> np.ndarray:
    return shapely.box(xs - size / 2, ys - size / 2, xs + size / 2, ys + size / 2)


def _inside(region: BaseGeometry, size: float) -> tuple[float, float] | None:
    """The centre of the most central spot where the box fits in the region, if any."""
    x0, y0, x1, y1 = region.bounds
    if x1 - x0 < size or y1 - y0 < size:
        return None
    xs, ys = np.meshgrid(np.arange(x0 + size / 2, x1 - size / 2 + 1e-9, GRID),
                         np.arange(y0 + size / 2, y1 - size / 2 + 1e-9, GRID))
    xs, ys = xs.ravel(), ys.ravel()
    shapely.prepare(region)
    fits = shapely.contains(region, _squares(xs, ys, size))
    if not fits.any():
        return None
    xs, ys = xs[fits], ys[fits]
    room = shapely.distance(region.boundary, shapely.points(xs, ys))
    best = int(np.argmax(room))
    return float(xs[best]), float(ys[best])


def _open_water(region: BaseGeometry, land, area: Box, size: float, keep_clear):
    """Box centres off the land, on rings about the region's most central point, with each
    one's distance to the region."""
    parts = getattr(region, "geoms", [region])
    centre = polylabel(max(parts, key=lambda p: p.area), tolerance=0.05)
    dx = np.tile(np.cos(ANGLES), len(DISTANCES))
    dy = np.tile(np.sin(ANGLES), len(DISTANCES))
    dist = np.repeat(DISTANCES, len(ANGLES))
    xs, ys = centre.x + dx * dist, centre.y + dy * dist
    half = size / 2
    ok = (xs - half >= area.x) & (xs + half <= area.right) & (ys - half >= area.y) & (ys + half <= area.bottom)
    xs, ys = xs[ok], ys[ok]
    squares = _squares(xs, ys, size)
    free = ~shapely.intersects(land.context, squares)
    for b in keep_clear:
        free &= ~shapely.intersects(shapely.box(b.x, b.y, b.right, b.bottom), squares)
    return xs[free], ys[free], shapely.distance(region, squares[free])


def _callout(code: str, spots, placed: _Placed, size: float) -> Placement:
    xs, ys, gaps = spots
    squares = _squares(xs, ys, size)
    blocked = np.zeros(len(xs), bool)
    blocked[np.unique(shapely.STRtree(placed.keep_off).query(squares, predicate="intersects")[0])] = True
    own = placed.regions[code]
    inner = own.buffer(-0.5)
    inner = inner if not inner.is_empty else own
    boxes = shapely.STRtree(placed.boxes)
    leaders = np.array(placed.leaders, dtype=object)
    best, best_score = None, math.inf
    for i in np.argsort(gaps, kind="stable"):
        if gaps[i] > best_score:  # a leader is at least as long as the gap it bridges
            break
        if blocked[i]:
            continue
        start, end = nearest_points(inner, squares[i])
        line = LineString([start, end])
        if len(boxes.query(line, predicate="intersects")):
            continue  # a leader never runs through a write box
        crossed = sum(placed.codes[j] != code for j in placed.region_tree.query(line, predicate="intersects"))
        score = line.length + CROSS_REGION * crossed
        if len(leaders):
            score += CROSS_LEADER * int(shapely.intersects(line, leaders).sum())
        if score < best_score:
            best = Placement(code, _square((float(xs[i]), float(ys[i])), size), (_rounded(start), _rounded(end)))
            best_score = score
    if best is None:
        raise RnwError(f"no room for the write box of {code} on this page size", "--page")
    return best


def _rounded(p: Point) -> tuple[float, float]:
    return round(p.x, 3), round(p.y, 3)
