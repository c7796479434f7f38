"""Placing a square write box for every region of a map: inside the region where it fits,
otherwise in a callout on free paper near it, joined to it by a short leader line.

Everything is in page millimetres. No box overlaps another box, a leader, an inset frame or a
region other than its own. Callouts are placed together: each looks at the free spots around
its region, and the spots are chosen jointly so that no leader crosses another leader or a
box, and leaders stay short and cross as few other regions as they can (one at most where a
region has no coast).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from rnwprint.core.errors import RnwError
from rnwprint.layout.page import Box

GRID = 0.6  # mm between candidate positions inside a region
STEP = 1.5  # mm between candidate callout positions
REACH = 45.0  # mm: the farthest a callout is looked for from its region
CLEARANCE = 0.6  # mm of free paper between a callout and any land
GAP = 1.0  # mm between two boxes, and between a box and a leader not its own
DOT_ROOM = 1.0  # mm between a leader and another callout's anchor dot
CROSS_REGION = 20.0  # cost of a leader crossing another region, in mm of leader
CROSS_MORE = 200.0  # and of every region past the first
KEEP = 400  # best spots per region kept for the joint choice
SEARCH = 10000  # annealing steps per callout
NEAREST = 1500  # free spots nearest a region whose leaders are drawn and weighed
ANCHORS = 12  # points round a region's edge a leader may start from


@dataclass(frozen=True)
class Placement:
    cell: str
    box: Box  # where the player writes
    leader: tuple[tuple[float, float], tuple[float, float]] | None = None  # region -> box


def place(regions: dict[str, BaseGeometry], area: Box, size: float,
          keep_clear: tuple[Box, ...] = (), frames: tuple[Box, ...] = ()) -> dict[str, Placement]:
    """A Placement for every region. Callouts stay inside `area`, off `keep_clear`, and on
    the same side of every inset frame (`frames`) as their region."""
    placements, homeless = {}, []
    for code in sorted(regions):
        spot = _inside(regions[code], size)
        if spot is None:
            homeless.append(code)
        else:
            placements[code] = Placement(code, _square(spot, size))
    if homeless:
        fixed = [placements[c].box for c in placements]
        free = _Free(regions, area, size, keep_clear, frames, fixed)
        spots = {code: free.spots(code) for code in homeless}
        for code, (cx, cy, anchor, end) in _choose(spots, size).items():
            placements[code] = Placement(code, _square((cx, cy), size), (anchor, end))
    return placements


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


class _Free:
    """The free paper of a map and the callout spots it offers each region."""

    def __init__(self, regions, area: Box, size: float, keep_clear, frames, fixed):
        self.regions, self.area, self.size = regions, area, size
        self.frames = [shapely.box(f.x, f.y, f.right, f.bottom) for f in frames]
        self.codes = list(regions)
        self.geoms = np.array(list(regions.values()), dtype=object)
        shapely.prepare(self.geoms)
        self.tree = shapely.STRtree(self.geoms)
        blocked = [shapely.union_all(list(regions.values())).buffer(CLEARANCE)]
        blocked += [shapely.box(b.x, b.y, b.right, b.bottom) for b in keep_clear]
        blocked += [shapely.box(b.x, b.y, b.right, b.bottom).buffer(GAP, join_style="mitre") for b in fixed]
        self.blocked = shapely.union_all(blocked)
        shapely.prepare(self.blocked)
        self.boxes = shapely.union_all([shapely.box(b.x, b.y, b.right, b.bottom) for b in fixed + list(keep_clear)])
        shapely.prepare(self.boxes)

    def spots(self, code: str):
        """Arrays of box centres, anchors and leader ends, with each spot's cost, best first."""
        region, size, half = self.regions[code], self.size, self.size / 2
        frame = next((f for f in self.frames if f.contains(region)), None)
        x0, y0, x1, y1 = (frame.buffer(-CLEARANCE) if frame else shapely.box(
            self.area.x, self.area.y, self.area.right, self.area.bottom)).bounds
        rx0, ry0, rx1, ry1 = region.bounds
        xs, ys = np.meshgrid(np.arange(max(x0, rx0 - REACH) + half, min(x1, rx1 + REACH) - half + 1e-9, STEP),
                             np.arange(max(y0, ry0 - REACH) + half, min(y1, ry1 + REACH) - half + 1e-9, STEP))
        xs, ys = xs.ravel(), ys.ravel()
        squares = _squares(xs, ys, size)
        ok = ~shapely.intersects(self.blocked, squares)
        if frame is None:
            for f in self.frames:
                ok &= ~shapely.intersects(f.buffer(CLEARANCE), squares)
        xs, ys, squares = xs[ok], ys[ok], squares[ok]
        near = np.argsort(shapely.distance(region, squares), kind="stable")[:NEAREST]  # no leader is shorter
        xs, ys, squares = xs[near], ys[near], squares[near]
        own = self.codes.index(code)
        best_cost, best_ends = np.full(len(xs), np.inf), np.zeros((len(xs), 2, 2))
        for anchor in _anchors(region):  # the leader starts where it crosses least
            leaders = shapely.shortest_line(anchor, squares)
            ok = ~shapely.intersects(self.boxes, leaders)
            for f in self.frames:
                if f is not frame:
                    ok &= ~shapely.intersects(f.boundary, leaders)
            line, other = self.tree.query(leaders)  # boxes that meet, then the prepared regions
            line, other = line[other != own], other[other != own]
            hit = shapely.intersects(self.geoms[other], leaders[line])
            crossed = np.bincount(line[hit], minlength=len(leaders))
            cost = shapely.length(leaders) + CROSS_REGION * crossed + CROSS_MORE * np.maximum(crossed - 1, 0)
            better = ok & (cost < best_cost)
            best_cost[better] = cost[better]
            best_ends[better] = shapely.get_coordinates(leaders[better]).reshape(-1, 2, 2)
        ok, cost, ends = np.isfinite(best_cost), best_cost, best_ends
        keep = np.flatnonzero(ok)
        keep = keep[np.lexsort((xs[keep], ys[keep], cost[keep]))][:KEEP]
        if not len(keep):
            raise RnwError(f"no room for the write box of {code} on this page size", "--page")
        return xs[keep], ys[keep], ends[keep], cost[keep]


def _anchors(region: BaseGeometry) -> list[BaseGeometry]:
    """Where a leader may start: anywhere a little inside the region's largest part (its
    nearest point to the box), or one of a few fixed points there: its centre and points
    round its edge (a leader from one of those may cross fewer other regions)."""
    part = max(getattr(region, "geoms", [region]), key=lambda p: p.area)
    centre = polylabel(part, tolerance=0.05)
    inner = part.buffer(-min(0.8, 0.5 * part.exterior.distance(centre)))
    if inner.is_empty:
        return [centre]
    ring = max(getattr(inner, "geoms", [inner]), key=lambda p: p.area).exterior
    return [inner, centre] + [ring.interpolate(k / ANCHORS, normalized=True) for k in range(ANCHORS)]


def _choose(spots: dict, size: float) -> dict:
    """One spot per region such that no two boxes, a box and a leader, or two leaders meet,
    at the least cost in all: a greedy start (the region whose best free spot costs most goes
    first), then a seeded annealing search over the spots, then each region in turn moves to
    a cheaper free spot while there is one. Deterministic: the random generator is seeded."""
    codes = sorted(spots)
    cost = [spots[c][3] for c in codes]
    clash = {}  # (r, s) -> boolean matrix: spot i of r clashes with spot j of s
    for r, s in itertools.combinations(range(len(codes)), 2):
        m = _clashes(spots[codes[r]], spots[codes[s]], size)
        if m is not None:
            m = m.astype(np.int32)
            clash[r, s], clash[s, r] = m, np.ascontiguousarray(m.T)
    n = len(codes)
    near = [[s for s in range(n) if (r, s) in clash] for r in range(n)]

    def free(r, state):
        ok = np.ones(len(cost[r]), bool)
        for s in near[r]:
            if state[s] is not None:
                ok &= clash[r, s][:, state[s]] == 0
        return ok

    state: list = [None] * n
    for _ in range(n):
        firsts = {}
        for r in range(n):
            if state[r] is None:
                ok = np.flatnonzero(free(r, state))
                firsts[r] = int(ok[0]) if len(ok) else 0  # a clash the search must undo
        r = max(firsts, key=lambda r: (float(cost[r][firsts[r]]), -r))
        state[r] = firsts[r]

    conf = []  # conf[r][i]: how many chosen spots spot i of region r clashes with
    for r in range(n):
        c = np.zeros(len(cost[r]), np.int32)
        for s in near[r]:
            c += clash[r, s][:, state[s]]
        conf.append(c)
    penalty = 1000.0
    total = sum(float(cost[r][state[r]]) for r in range(n)) + penalty * sum(int(conf[r][state[r]]) for r in range(n)) / 2
    best, best_total = list(state), total
    xy = [np.column_stack(spots[c][:2]) for c in codes]
    around = [[np.flatnonzero(np.abs(xy[r] - xy[r][i]).max(1) <= 2.5 * STEP) for i in range(len(cost[r]))]
              for r in range(n)]
    steps = SEARCH * n
    rng = np.random.default_rng(0)
    who, how, pick, dice = rng.integers(n, size=steps), rng.random(steps), rng.random(steps), rng.random(steps)
    heat = 30.0 * 0.002 ** (np.arange(steps) / steps)
    for k in range(steps):
        r = int(who[k])
        j = state[r]
        if how[k] < 0.5:  # a spot next to the current one
            nearby = around[r][j]
            i = int(nearby[int(pick[k] * len(nearby))])
        else:
            i = int(len(cost[r]) * pick[k] ** 2)
        if i == j:
            continue
        delta = float(cost[r][i] - cost[r][j]) + penalty * int(conf[r][i] - conf[r][j])
        if delta <= 0 or dice[k] < np.exp(-delta / heat[k]):
            for s in near[r]:
                conf[s] += clash[s, r][:, i]
                conf[s] -= clash[s, r][:, j]
            state[r], total = i, total + delta
            if total < best_total - 1e-9:
                best, best_total = list(state), total
    state = best
    for _ in range(20):
        changed = False
        for r in range(n):
            state[r] = None
            ok = np.flatnonzero(free(r, state))
            first = int(ok[0]) if len(ok) else best[r]
            changed |= first != best[r]
            state[r] = best[r] = first
        if not changed:
            break
    if any(not free(r, state)[state[r]] for r in range(n)):
        raise RnwError(f"no room for the write boxes of {', '.join(codes)} on this page size", "--page")
    result = {}
    for r, code in enumerate(codes):
        xs, ys, ends, _ = spots[code]
        i = state[r]
        (ax, ay), (ex, ey) = ends[i]
        result[code] = (float(xs[i]), float(ys[i]), (round(ax, 3), round(ay, 3)), (round(ex, 3), round(ey, 3)))
    return result


def _clashes(one, two, size: float):
    """Which spots of one region clash with which of another (None: they never can)."""
    (x1, y1, ends1, _), (x2, y2, ends2, _) = one, two
    half = size / 2 + GAP

    def extents(xs, ys, ends):  # each spot's box and leader, with the room they keep
        return (np.minimum(xs - half, ends[..., 0].min(1)) - DOT_ROOM, np.minimum(ys - half, ends[..., 1].min(1)) - DOT_ROOM,
                np.maximum(xs + half, ends[..., 0].max(1)) + DOT_ROOM, np.maximum(ys + half, ends[..., 1].max(1)) + DOT_ROOM)

    a0, b0, a1, b1 = extents(x1, y1, ends1)
    c0, d0, c1, d1 = extents(x2, y2, ends2)
    if a1.max() < c0.min() or c1.max() < a0.min() or b1.max() < d0.min() or d1.max() < b0.min():
        return None
    m = np.zeros((len(x1), len(x2)), bool)
    i, j = np.nonzero((a0[:, None] <= c1[None]) & (c0[None] <= a1[:, None])
                      & (b0[:, None] <= d1[None]) & (d0[None] <= b1[:, None]))
    if not len(i):
        return None
    xa, ya, xb, yb = x1[i], y1[i], x2[j], y2[j]
    p, q, u, v = ends1[i, 0], ends1[i, 1], ends2[j, 0], ends2[j, 1]
    hit = (np.abs(xa - xb) < size + GAP) & (np.abs(ya - yb) < size + GAP)
    hit |= _segment_meets_box(p, q, xb - half, yb - half, xb + half, yb + half)
    hit |= _segment_meets_box(u, v, xa - half, ya - half, xa + half, ya + half)
    hit |= _segments_meet(p, q, u, v)
    hit |= _distance_to_segment(p, u, v) < DOT_ROOM
    hit |= _distance_to_segment(u, p, q) < DOT_ROOM
    m[i, j] = hit
    return m


def _cross(o, p, q):
    return (p[..., 0] - o[..., 0]) * (q[..., 1] - o[..., 1]) - (p[..., 1] - o[..., 1]) * (q[..., 0] - o[..., 0])


def _segments_meet(p1, p2, q1, q2) -> np.ndarray:
    """Whether segments p1-p2 and q1-q2 touch or cross (points as (..., 2) arrays)."""
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    return (d1 * d2 <= 0) & (d3 * d4 <= 0)


def _segment_meets_box(p, q, x0, y0, x1, y1) -> np.ndarray:
    """Whether segment p-q touches the rectangle [x0, x1] x [y0, y1] (Liang-Barsky)."""
    p, q = np.broadcast_arrays(np.asarray(p, float), np.asarray(q, float))
    x0, y0, x1, y1 = np.broadcast_arrays(x0, y0, x1, y1)
    shape = np.broadcast_shapes(p.shape[:-1], x0.shape)
    t0, t1, out = np.zeros(shape), np.ones(shape), np.zeros(shape, bool)
    dx, dy = q[..., 0] - p[..., 0], q[..., 1] - p[..., 1]
    for k, room in ((-dx, p[..., 0] - x0), (dx, x1 - p[..., 0]), (-dy, p[..., 1] - y0), (dy, y1 - p[..., 1])):
        k, room = np.broadcast_arrays(k, room)
        flat = k == 0
        out |= flat & (room < 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(flat, 0.0, room / np.where(flat, 1.0, k))
        t0 = np.where(~flat & (k < 0), np.maximum(t0, r), t0)
        t1 = np.where(~flat & (k > 0), np.minimum(t1, r), t1)
    return ~out & (t0 <= t1)


def _distance_to_segment(point, p, q) -> np.ndarray:
    point, p, q = np.broadcast_arrays(np.asarray(point, float), np.asarray(p, float), np.asarray(q, float))
    d = q - p
    length2 = (d ** 2).sum(-1)
    t = np.clip(((point - p) * d).sum(-1) / np.where(length2 == 0, 1.0, length2), 0.0, 1.0)
    gap = p + t[..., None] * d - point
    return np.hypot(gap[..., 0], gap[..., 1])
