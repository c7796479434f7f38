"""Placing a square write box for every region of a map: inside the region where it fits,
otherwise in a callout outside the land, joined by a leader line.

Everything is in page millimetres. No box overlaps another box or a region other than its
own; callouts sit on no region at all, and their leaders cross as little as possible.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box as shapely_box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, polylabel
from shapely.prepared import prep

from rnwprint.errors import RnwError
from rnwprint.layout.page import Box

GRID = 0.6  # mm between candidate positions inside a region
CLEARANCE = 0.6  # mm kept free around callouts
ANGLES = np.radians(np.arange(0, 360, 10))
DISTANCES = np.arange(7.0, 70.0, 1.5)


@dataclass(frozen=True)
class Placement:
    cell: str
    box: Box  # where the player writes
    leader: tuple[tuple[float, float], tuple[float, float]] | None = None  # anchor -> box

    @property
    def unit(self) -> Polygon:
        return shapely_box(self.box.x, self.box.y, self.box.right, self.box.bottom)


def place(regions: dict[str, BaseGeometry], area: Box, size: float,
          keep_clear: tuple[Box, ...] = ()) -> dict[str, Placement]:
    """A Placement for every region; callouts stay inside `area` and off `keep_clear`."""
    placements: dict[str, Placement] = {}
    homeless = []
    for code in sorted(regions):
        spot = _inside(regions[code], size)
        if spot is None:
            homeless.append(code)
        else:
            placements[code] = _at(code, spot, size)
    land = prep(shapely.union_all(list(regions.values())).buffer(CLEARANCE))
    spots = {code: _open_water(regions[code], land, area, size, keep_clear) for code in homeless}
    # Regions far from open water (landlocked ones) choose first, before the coast fills up.
    for code in sorted(homeless, key=lambda c: (-spots[c][2].min(initial=1e9), c)):
        placements[code] = _callout(code, spots[code], regions, placements, size)
    return placements


def _at(code: str, centre: tuple[float, float], size: float, leader=None) -> Placement:
    cx, cy = centre
    return Placement(code, Box(cx - size / 2, cy - size / 2, size, size), leader)


def _units(xs: np.ndarray, ys: np.ndarray, size: float) -> np.ndarray:
    return shapely.box(xs - size / 2, ys - size / 2, xs + size / 2, ys + size / 2)


def _inside(region: BaseGeometry, size: float) -> tuple[float, float] | None:
    """The centre of the most central spot where the box fits in the region, if any."""
    x0, y0, x1, y1 = region.bounds
    h = size
    if x1 - x0 < size or y1 - y0 < h:
        return None
    xs, ys = np.meshgrid(np.arange(x0 + size / 2, x1 - size / 2 + 1e-9, GRID),
                         np.arange(y0 + h / 2, y1 - h / 2 + 1e-9, GRID))
    xs, ys = xs.ravel(), ys.ravel()
    shapely.prepare(region)
    fits = shapely.contains(region, _units(xs, ys, size))
    if not fits.any():
        return None
    xs, ys = xs[fits], ys[fits]
    room = shapely.distance(region.boundary, shapely.points(xs, ys))
    best = int(np.argmax(room))
    return float(xs[best]), float(ys[best])


def _anchor(region: BaseGeometry) -> tuple[float, float]:
    parts = getattr(region, "geoms", [region])
    biggest = max(parts, key=lambda p: p.area)
    p = polylabel(biggest, tolerance=0.05)
    return p.x, p.y


def _open_water(region, land, area: Box, size: float, keep_clear):
    """Box centres off the land around the region (rings about its most central point),
    with each one's distance to the region."""
    ax, ay = _anchor(region)
    dx = np.repeat(np.cos(ANGLES)[None, :], len(DISTANCES), 0).ravel()
    dy = np.repeat(np.sin(ANGLES)[None, :], len(DISTANCES), 0).ravel()
    dist = np.repeat(DISTANCES[:, None], len(ANGLES), 1).ravel()
    xs, ys = ax + dx * dist, ay + dy * dist
    half = size / 2
    ok = (xs - half >= area.x) & (xs + half <= area.right) & (ys - half >= area.y) & (ys + half <= area.bottom)
    xs, ys = xs[ok], ys[ok]
    units = _units(xs, ys, size)
    free = ~shapely.intersects(land.context, units)
    for b in keep_clear:
        free &= ~shapely.intersects(shapely_box(b.x, b.y, b.right, b.bottom), units)
    return xs[free], ys[free], shapely.distance(region, units[free])


def _callout(code, spots, regions, placements, size) -> Placement:
    xs, ys, gaps = spots
    units = _units(xs, ys, size)
    taken = shapely.STRtree([p.unit.buffer(CLEARANCE) for p in placements.values()])
    blocked = np.zeros(len(xs), bool)
    blocked[np.unique(taken.query(units, predicate="intersects")[0])] = True
    own = regions[code]
    inner = own.buffer(-0.5)
    inner = inner if not inner.is_empty else own
    others = [g for c, g in regions.items() if c != code]
    leaders = [LineString(p.leader) for p in placements.values() if p.leader]
    units_taken = shapely.STRtree([p.unit for p in placements.values()])
    best, best_score = None, math.inf
    for i in np.argsort(gaps, kind="stable"):
        if gaps[i] > best_score:  # a leader is at least as long as the gap it bridges
            break
        if blocked[i]:
            continue
        cand = _at(code, (float(xs[i]), float(ys[i])), size)
        start, end = nearest_points(inner, cand.unit)
        line = LineString([start, end])
        if len(units_taken.query(line, predicate="intersects")):
            continue  # a leader never runs through a write box
        score = (line.length + 25.0 * sum(line.intersects(g) for g in others)
                 + 60.0 * sum(line.intersects(l) for l in leaders))
        if score < best_score:
            best = Placement(code, cand.box, (_rounded(start), _rounded(end)))
            best_score = score
    if best is None:
        raise RnwError(f"no room for the write box of {code} on this page size", "--page")
    return best


def _rounded(p: Point) -> tuple[float, float]:
    return round(p.x, 3), round(p.y, 3)
