"""Simplification for tools/build_maps.py: Douglas-Peucker on shared arcs (plain Python), the
cells built from them, checked with shapely (valid, no overlaps, the same neighbours)."""

from __future__ import annotations

import re

import shapely
from shapely.geometry import MultiPolygon, Polygon

from maps_topojson import arc_index, ring_coords, ring_ok, signed_area


NEIGHBOUR_EPS = 1e-3  # shared boundary length (map units) for a border

# --------------------------------------------------------------------------
# Simplification (Douglas-Peucker on arcs, plain Python)
# --------------------------------------------------------------------------


def _seg_dist2(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    d2 = dx * dx + dy * dy
    if d2 == 0.0:
        return (px - ax) ** 2 + (py - ay) ** 2
    u = ((px - ax) * dx + (py - ay) * dy) / d2
    u = 0.0 if u < 0.0 else 1.0 if u > 1.0 else u
    qx, qy = ax + u * dx, ay + u * dy
    return (px - qx) ** 2 + (py - qy) ** 2


def _dp(pts, lo, hi, tol2, keep):
    stack = [(lo, hi)]
    while stack:
        i, j = stack.pop()
        best, idx = -1.0, -1
        for k in range(i + 1, j):
            d = _seg_dist2(pts[k], pts[i], pts[j])
            if d > best:
                best, idx = d, k
        if idx >= 0 and best > tol2:
            keep[idx] = True
            stack.append((i, idx))
            stack.append((idx, j))


def simplify_arc(pts, tol: float):
    if tol <= 0 or len(pts) <= 2:
        return list(pts)
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    n = len(pts) - 1
    if pts[0] == pts[-1]:
        # closed arc: split at the vertex farthest from the start point
        x0, y0 = pts[0]
        far = max(range(1, n), key=lambda k: ((pts[k][0] - x0) ** 2 + (pts[k][1] - y0) ** 2, -k))
        keep[far] = True
        _dp(pts, 0, far, tol * tol, keep)
        _dp(pts, far, n, tol * tol, keep)
    else:
        _dp(pts, 0, n, tol * tol, keep)
    return [p for p, k in zip(pts, keep) if k]


def round_arc(pts, decimals):
    out = []
    for x, y in pts:
        q = (_r(x, decimals), _r(y, decimals))
        if not out or q != out[-1]:
            out.append(q)
    if len(out) == 1:  # an arc must keep two distinct-or-not endpoints
        out.append(out[0])
    return out


def _r(v: float, decimals: int):
    v = round(v, decimals)
    if v == int(v):
        return int(v)
    return v


# --------------------------------------------------------------------------
# Cells
# --------------------------------------------------------------------------


class Cell:
    def __init__(self, code, name, polygons):
        self.code = code
        self.name = name
        self.polygons = polygons  # list of polygons; polygon = list of rings of arc refs


def build_geom(arcs, polygons):
    parts = []
    for poly in polygons:
        rings = [ring_coords(arcs, r) for r in poly]
        parts.append((rings[0], rings[1:]))
    return parts


def to_shapely(parts):
    polys = [Polygon(ext, holes) for ext, holes in parts]
    return polys[0] if len(polys) == 1 else MultiPolygon(polys)


def neighbour_pairs(geoms: dict, eps: float = NEIGHBOUR_EPS) -> set[tuple[str, str]]:
    """Same rule as rnwprint.geo.maps.neighbours (kept in sync on purpose)."""
    codes = sorted(geoms)
    tree = shapely.STRtree([geoms[c] for c in codes])
    out = set()
    for i, c in enumerate(codes):
        for j in tree.query(geoms[c], predicate="intersects"):
            j = int(j)
            if j <= i:
                continue
            shared = shapely.intersection(geoms[c].boundary, geoms[codes[j]].boundary)
            if shared.length > eps:
                out.add((c, codes[j]))
    return out


def clean_cells(cells, arcs, min_island, min_lake, log):
    """Drop degenerate rings, small coast-only islands and small lakes (on the
    unsimplified projected geometry)."""
    uses: dict[int, int] = {}
    for cell in cells:
        for poly in cell.polygons:
            for ring in poly:
                for ref in ring:
                    uses[arc_index(ref)] = uses.get(arc_index(ref), 0) + 1

    def coast_only(ring):
        return all(uses[arc_index(r)] == 1 for r in ring)

    for cell in cells:
        kept = []
        for poly in cell.polygons:
            ext = ring_coords(arcs, poly[0])
            if not ring_ok(ext):
                log(f"  {cell.code}: degenerate polygon dropped")
                continue
            holes = []
            for h in poly[1:]:
                hc = ring_coords(arcs, h)
                if not ring_ok(hc):
                    log(f"  {cell.code}: degenerate hole dropped")
                elif coast_only(h) and abs(signed_area(hc)) < min_lake:
                    log(f"  {cell.code}: lake {abs(signed_area(hc)):.3f} dropped")
                else:
                    holes.append(h)
            kept.append((abs(signed_area(ext)), [poly[0]] + holes))
        main = max(a for a, _ in kept)
        polys = []
        for area, poly in kept:
            if area < main and area < min_island and coast_only(poly[0]):
                log(f"  {cell.code}: island {area:.3f} dropped")
                continue
            polys.append(poly)
        cell.polygons = polys
    return cells


def simplify_topology(cells, arcs, tolerance, decimals, log):
    """Simplify arcs with a per-arc tolerance, halving it where needed."""
    used = sorted({arc_index(r) for c in cells for p in c.polygons for ring in p for r in ring})
    arc_cells: dict[int, set[str]] = {i: set() for i in used}
    for c in cells:
        for p in c.polygons:
            for ring in p:
                for r in ring:
                    arc_cells[arc_index(r)].add(c.code)

    raw = {c.code: to_shapely(build_geom(arcs, c.polygons)) for c in cells}
    for code, g in raw.items():
        if not g.is_valid:
            log(f"  note: unsimplified {code} invalid: {shapely.is_valid_reason(g)}")
    raw_pairs = neighbour_pairs(raw)
    log(f"  unsimplified neighbour pairs: {len(raw_pairs)}")

    tol = {i: tolerance for i in used}
    raw_lines = {i: shapely.LineString(arcs[i]) for i in used}
    for it in range(60):
        simp = [None] * len(arcs)
        for i in used:
            simp[i] = round_arc(simplify_arc(arcs[i], tol[i]), decimals)
        parts = {c.code: build_geom(simp, c.polygons) for c in cells}
        problems: list[tuple[str, set[int]]] = []  # (description, arcs to relax)

        def arcs_of(codes_, loc=None):
            cand = {i for i in used if arc_cells[i] & codes_}
            if loc is not None:
                near = {i for i in cand if raw_lines[i].distance(loc) <= 4 * tolerance}
                cand = near or cand
            return cand

        geoms = {}
        for cell in cells:
            code, bad = cell.code, set()
            for poly in cell.polygons:
                for ring in poly:
                    if not ring_ok(ring_coords(simp, ring)):
                        bad.update(arc_index(r) for r in ring)
            if bad:
                problems.append((f"{code} ring collapsed", bad))
                continue
            g = to_shapely(parts[code])
            geoms[code] = g
            if not g.is_valid:
                reason = shapely.is_valid_reason(g)
                m = re.search(r"\[([-\d.e]+) ([-\d.e]+)\]", reason)
                loc = shapely.Point(float(m[1]), float(m[2])) if m else None
                problems.append((f"{code} {reason}", arcs_of({code}, loc)))
        if not problems:
            codes = sorted(geoms)
            tree = shapely.STRtree([geoms[c] for c in codes])
            for a_i, b_i in zip(*tree.query([geoms[c] for c in codes], predicate="intersects")):
                if a_i >= b_i:
                    continue
                a, b = codes[a_i], codes[b_i]
                inter = shapely.intersection(geoms[a], geoms[b])
                if inter.area > 1e-9:
                    problems.append((f"{a}/{b} overlap", arcs_of({a, b}, inter)))
            pairs = neighbour_pairs(geoms)
            for a, b in sorted(pairs ^ raw_pairs):
                problems.append((f"{a}/{b} neighbour change", arcs_of({a, b})))
        if not problems:
            log(f"  converged after {it + 1} pass(es); "
                f"{sum(1 for i in used if tol[i] < tolerance)} arc(s) with reduced tolerance")
            return parts, geoms, pairs, {i: tol[i] for i in used}
        relax = sorted(set().union(*(cand for _, cand in problems)))
        changed = False
        for i in relax:
            if tol[i] > 0:
                tol[i] = tol[i] / 2 if tol[i] > tolerance / 64 else 0.0
                changed = True
        log(f"  pass {it + 1}: {len(problems)} problem(s): "
            + "; ".join(d for d, _ in problems[:8]))
        if not changed:
            raise SystemExit("cannot fix geometry even without simplification")
    raise SystemExit("simplification did not converge")
