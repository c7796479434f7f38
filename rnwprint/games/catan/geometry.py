"""The classic Catan island as shapely geometry: 19 hexagonal terrains (rows of 3-4-5-4-3,
pointy-top), their 54 corners and 72 edges, in mm with the island's centre at (0, 0), y down.

Ids are fixed by position, never by what lies there: terrains T01-T19, corners V01-V54 and
edges E01-E72 are numbered row by row, top to bottom, left to right. A layout (which
resource each terrain gives) is the data file's default or a shuffle of it by a seed.
"""

from __future__ import annotations

import functools
import math
import random
import tomllib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rnwprint.data import data_path
from rnwprint.core.errors import RnwError

if TYPE_CHECKING:  # shapely (and numpy with it) is loaded when an island is made, not with the registry
    from shapely.geometry import LineString, Point, Polygon

DATA = data_path("templates", "catan.toml")
ROWS = (3, 4, 5, 4, 3)
RESOURCES = ("wood", "brick", "stone", "wheat", "sheep")
DESERT = "desert"
TERRAIN_COUNTS = {"wood": 4, "wheat": 4, "sheep": 4, "brick": 3, "stone": 3, DESERT: 1}
# printed sizes, mm
CORNER_R = 3.6  # a corner circle: room for a dot (village) and a fill (city)
HALL_R = 4.2  # the town-hall circle in a terrain's middle
ROAD_W = 4.0  # a road's rectangle across (its id fits inside)
ROAD_GAP = 4.4  # from a corner's centre to the end of a road's rectangle


@functools.cache
def data() -> dict:
    with open(DATA, "rb") as f:
        doc = tomllib.load(f)
    rows = doc["island"]["default"]
    names = [n for row in rows for n in row]
    if tuple(map(len, rows)) != ROWS or {n: names.count(n) for n in TERRAIN_COUNTS} != TERRAIN_COUNTS:
        raise RnwError(f"island.default: expected rows of {ROWS} terrains, {TERRAIN_COUNTS}", str(DATA))
    return doc


@dataclass(frozen=True)
class Island:
    edge: float
    terrains: dict[str, Polygon]  # T01 -> its hexagon
    corners: dict[str, Point]  # V01 -> its centre
    edges: dict[str, LineString]  # E01 -> corner to corner
    edge_corners: dict[str, tuple[str, str]]
    corner_edges: dict[str, tuple[str, ...]]
    corner_terrains: dict[str, tuple[str, ...]]
    terrain_corners: dict[str, tuple[str, ...]]

    @property
    def rim(self) -> frozenset[str]:
        """The corners at the edge of the map (on fewer than 3 terrains): where a game starts."""
        return frozenset(v for v, ts in self.corner_terrains.items() if len(ts) < 3)

    def corner_circle(self, corner: str) -> Polygon:
        return self.corners[corner].buffer(CORNER_R, quad_segs=8)

    def hall_circle(self, terrain: str) -> Polygon:
        return self.terrains[terrain].centroid.buffer(HALL_R, quad_segs=8)

    def road_rect(self, edge: str) -> Polygon:
        from shapely.geometry import Polygon

        (ax, ay), (bx, by) = self.edges[edge].coords
        length = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / length, (by - ay) / length
        nx, ny = -uy * ROAD_W / 2, ux * ROAD_W / 2
        p, q = (ax + ux * ROAD_GAP, ay + uy * ROAD_GAP), (bx - ux * ROAD_GAP, by - uy * ROAD_GAP)
        return Polygon([(p[0] + nx, p[1] + ny), (q[0] + nx, q[1] + ny), (q[0] - nx, q[1] - ny),
                        (p[0] - nx, p[1] - ny)])


def _key(x: float, y: float) -> tuple[float, float]:
    return round(y, 3) + 0.0, round(x, 3) + 0.0  # row first; +0.0: no -0.0


@functools.cache
def island(edge: float | None = None) -> Island:
    from shapely.geometry import LineString, Point, Polygon

    s = data()["island"]["edge_mm"] if edge is None else edge
    w = math.sqrt(3) * s
    terrains: dict[str, Polygon] = {}
    for r, n in enumerate(ROWS):
        for i in range(n):
            cx, cy = (i - (n - 1) / 2) * w, (r - 2) * 1.5 * s
            ring = [(cx + s * math.cos(math.radians(a)), cy + s * math.sin(math.radians(a)))
                    for a in (-90, -30, 30, 90, 150, 210)]
            terrains[f"T{len(terrains) + 1:02d}"] = Polygon(ring)
    spots: dict[tuple[float, float], tuple[float, float]] = {}
    hex_keys: dict[str, list[tuple[float, float]]] = {}
    for tid, hexagon in terrains.items():
        keys = []
        for x, y in hexagon.exterior.coords[:-1]:
            spots.setdefault(_key(x, y), (x, y))
            keys.append(_key(x, y))
        hex_keys[tid] = keys
    corner_of = {k: f"V{n:02d}" for n, k in enumerate(sorted(spots), 1)}
    corners = {corner_of[k]: Point(spots[k]) for k in sorted(spots)}
    pairs = {}
    for keys in hex_keys.values():
        for a, b in zip(keys, keys[1:] + keys[:1]):
            pair = tuple(sorted((corner_of[a], corner_of[b])))
            (ax, ay), (bx, by) = spots[a], spots[b]
            pairs[pair] = _key((ax + bx) / 2, (ay + by) / 2)
    edge_corners = {f"E{n:02d}": pair for n, pair in enumerate(sorted(pairs, key=pairs.get), 1)}
    edges = {e: LineString([corners[a].coords[0], corners[b].coords[0]]) for e, (a, b) in edge_corners.items()}
    corner_edges = {v: tuple(e for e, pair in edge_corners.items() if v in pair) for v in corners}
    terrain_corners = {t: tuple(sorted(corner_of[k] for k in keys)) for t, keys in hex_keys.items()}
    corner_terrains = {v: tuple(t for t, vs in terrain_corners.items() if v in vs) for v in corners}
    return Island(s, terrains, corners, edges, edge_corners, corner_edges, corner_terrains, terrain_corners)


def layout(seed: int | None = None) -> dict[str, str]:
    """Terrain id -> its resource (or desert): the default layout, or a shuffle of it by `seed`."""
    names = [n for row in data()["island"]["default"] for n in row]
    if seed is not None:
        random.Random(seed).shuffle(names)
    return {f"T{i:02d}": name for i, name in enumerate(names, 1)}
