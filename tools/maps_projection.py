"""Projection for tools/build_maps.py: Lambert conformal conic in plain math (deterministic), and
untangling an arc that crosses itself."""

from __future__ import annotations

import math

# --------------------------------------------------------------------------
# Projection (plain math, deterministic)
# --------------------------------------------------------------------------

GRS80_A = 6378137.0
GRS80_F = 1 / 298.257222101


def make_lcc(lat1, lat2, lat0, lon0):
    """Ellipsoidal Lambert conformal conic (Snyder 1987, eqs. 15-1..15-10).

    Returns f(lon, lat) -> (x_km, y_km) with y pointing *down* (south)."""
    a = GRS80_A
    e = math.sqrt(2 * GRS80_F - GRS80_F**2)
    rad = math.radians

    def m(phi):
        return math.cos(phi) / math.sqrt(1 - (e * math.sin(phi)) ** 2)

    def t(phi):
        es = e * math.sin(phi)
        return math.tan(math.pi / 4 - phi / 2) / ((1 - es) / (1 + es)) ** (e / 2)

    p1, p2, p0 = rad(lat1), rad(lat2), rad(lat0)
    n = (math.log(m(p1)) - math.log(m(p2))) / (math.log(t(p1)) - math.log(t(p2)))
    F = m(p1) / (n * t(p1) ** n)
    rho0 = a * F * t(p0) ** n
    l0 = rad(lon0)

    def proj(lon, lat):
        rho = a * F * t(rad(lat)) ** n
        theta = n * (rad(lon) - l0)
        x = rho * math.sin(theta)
        y = rho0 - rho * math.cos(theta)
        return x / 1000.0, -y / 1000.0

    return proj


def _orient(a, b, c) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _seg_intersect(p1, p2, q1, q2) -> bool:
    d1, d2 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    d3, d4 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    if ((d1 > 0) != (d2 > 0) and d1 != 0 and d2 != 0
            and (d3 > 0) != (d4 > 0) and d3 != 0 and d4 != 0):
        return True

    def on(a, b, c):  # c collinear with a-b and within its box
        return (min(a[0], b[0]) <= c[0] <= max(a[0], b[0])
                and min(a[1], b[1]) <= c[1] <= max(a[1], b[1]))

    return ((d1 == 0 and on(q1, q2, p1)) or (d2 == 0 and on(q1, q2, p2))
            or (d3 == 0 and on(p1, p2, q1)) or (d4 == 0 and on(p1, p2, q2)))


def _crossings(pts) -> list[tuple[int, int]]:
    n = len(pts) - 1  # segments
    closed = pts[0] == pts[-1]
    out = []
    for s in range(n):
        for t in range(s + 2, n):
            if closed and s == 0 and t == n - 1:
                continue
            if _seg_intersect(pts[s], pts[s + 1], pts[t], pts[t + 1]):
                out.append((s, t))
    return out


def untangle_arc(pts, label, log):
    """Make a projected arc simple again.

    The source data is valid in lon/lat, but projecting the vertices (with
    straight segments in between) can make a near-touching neck of an arc
    cross itself (es-atlas: the Barcelona-Girona border near 2.0 E 42.17 N).
    Remove, one at a time, the crossing vertex whose removal leaves the fewest
    crossings (ties: smallest triangle area, then lowest index)."""
    pts = list(pts)
    while True:
        cr = _crossings(pts)
        if not cr:
            return pts
        s, t = cr[0]
        n = len(pts) - 1
        best = None
        for v in sorted({s, s + 1, t, t + 1}):
            if v == 0 or v == n:
                continue
            trial = pts[:v] + pts[v + 1:]
            key = (len(_crossings(trial)), abs(_orient(pts[v - 1], pts[v], pts[v + 1])), v)
            best = key if best is None or key < best else best
        v = best[2]
        log(f"  {label}: removed vertex {v} {pts[v]} (arc crossed itself after projection)")
        pts.pop(v)
