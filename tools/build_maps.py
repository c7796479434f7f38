#!/usr/bin/env python3
"""Build the simplified map geometry shipped in ``assets/maps``.

Inputs (pinned npm packages, verified against their registry SHA-512):

* ``us-atlas@3.0.1``  -> ``package/states-albers-10m.json`` (TopoJSON, already
  projected to Albers USA with the Alaska/Hawaii insets, y down, ~975x610 units)
* ``es-atlas@0.6.0``  -> ``package/es/provinces.json`` (TopoJSON, lon/lat)

Outputs:

* ``us-states.geojson``    50 states keyed by USPS code (DC dropped)
* ``es-provinces.geojson`` 50 provinces + Ceuta + Melilla keyed by ISO 3166-2:ES
  code without the ``ES-`` prefix (Gibraltar dropped), Lambert conformal conic,
  kilometres, y down, Canary Islands moved into an inset box at the lower right.

Method: the *arcs* of each topology are simplified once (Douglas-Peucker,
endpoints kept) and rounded, then the polygons are reassembled from the
simplified arcs, so neighbouring cells keep bit-identical shared borders.  If
an arc makes a cell invalid, makes two cells overlap or changes the neighbour
graph, its tolerance is halved (down to zero) and the build is repeated.

Everything that produces output coordinates is plain Python (``math``, float
arithmetic, ``round``), so the output is byte-for-byte reproducible; shapely
is only used to *check* geometries.

Usage::

    python tools/build_maps.py                   # npm pack into a temp dir
    python tools/build_maps.py --cache /tmp/npmchk   # reuse <name>-<version>.tgz
    python tools/build_maps.py --check           # exit 1 if assets are stale
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import math
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import shapely
from shapely.geometry import MultiPolygon, Polygon

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "assets" / "maps"

PACKAGES = {
    "us-atlas": (
        "3.0.1",
        "sha512-wEIZCq0ImPvGblTd8gZMqNNCPkQshugMUG/8nkSWXb02+XqNFREg9atHOKP9w6prLZTpqcLhSvdBW81MkV3/0Q==",
    ),
    "es-atlas": (
        "0.6.0",
        "sha512-+sl1xwndSaM1E1EnjBAFBOldyXATld4GbDIJvvSzbgPKgK6lDJ0vVZ1rOdEtucysWLdxChKWhtCZ2SdkzbF/fg==",
    ),
}

# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------

US_FIPS_TO_USPS = {
    "01": "AL", "02": "AK", "04": "AZ", "05": "AR", "06": "CA", "08": "CO",
    "09": "CT", "10": "DE", "12": "FL", "13": "GA", "15": "HI", "16": "ID",
    "17": "IL", "18": "IN", "19": "IA", "20": "KS", "21": "KY", "22": "LA",
    "23": "ME", "24": "MD", "25": "MA", "26": "MI", "27": "MN", "28": "MS",
    "29": "MO", "30": "MT", "31": "NE", "32": "NV", "33": "NH", "34": "NJ",
    "35": "NM", "36": "NY", "37": "NC", "38": "ND", "39": "OH", "40": "OK",
    "41": "OR", "42": "PA", "44": "RI", "45": "SC", "46": "SD", "47": "TN",
    "48": "TX", "49": "UT", "50": "VT", "51": "VA", "53": "WA", "54": "WV",
    "55": "WI", "56": "WY",
    # "11" District of Columbia: not a cell (dropped)
}

# INE province code -> (ISO 3166-2:ES code without "ES-", name printed on sheets).
# Names: the official name; when the official name is bilingual the Spanish
# half is used (Álava, Alicante, Castellón, Valencia); Basque/Catalan/Galician
# only official names are kept (Gipuzkoa, Bizkaia, Girona, Lleida, A Coruña,
# Ourense).  Exception: "Baleares" rather than "Illes Balears" (short, usual).
ES_INE_TO_ISO = {
    "01": ("VI", "Álava"), "02": ("AB", "Albacete"), "03": ("A", "Alicante"),
    "04": ("AL", "Almería"), "05": ("AV", "Ávila"), "06": ("BA", "Badajoz"),
    "07": ("PM", "Baleares"), "08": ("B", "Barcelona"), "09": ("BU", "Burgos"),
    "10": ("CC", "Cáceres"), "11": ("CA", "Cádiz"), "12": ("CS", "Castellón"),
    "13": ("CR", "Ciudad Real"), "14": ("CO", "Córdoba"), "15": ("C", "A Coruña"),
    "16": ("CU", "Cuenca"), "17": ("GI", "Girona"), "18": ("GR", "Granada"),
    "19": ("GU", "Guadalajara"), "20": ("SS", "Gipuzkoa"), "21": ("H", "Huelva"),
    "22": ("HU", "Huesca"), "23": ("J", "Jaén"), "24": ("LE", "León"),
    "25": ("L", "Lleida"), "26": ("LO", "La Rioja"), "27": ("LU", "Lugo"),
    "28": ("M", "Madrid"), "29": ("MA", "Málaga"), "30": ("MU", "Murcia"),
    "31": ("NA", "Navarra"), "32": ("OR", "Ourense"), "33": ("O", "Asturias"),
    "34": ("P", "Palencia"), "35": ("GC", "Las Palmas"), "36": ("PO", "Pontevedra"),
    "37": ("SA", "Salamanca"), "38": ("TF", "Santa Cruz de Tenerife"),
    "39": ("S", "Cantabria"), "40": ("SG", "Segovia"), "41": ("SE", "Sevilla"),
    "42": ("SO", "Soria"), "43": ("T", "Tarragona"), "44": ("TE", "Teruel"),
    "45": ("TO", "Toledo"), "46": ("V", "Valencia"), "47": ("VA", "Valladolid"),
    "48": ("BI", "Bizkaia"), "49": ("ZA", "Zamora"), "50": ("Z", "Zaragoza"),
    "51": ("CE", "Ceuta"), "52": ("ML", "Melilla"),
    # "54" Gibraltar ("Territorio no asociado a ninguna provincia"): dropped
}
ES_CANARIES = {"35", "38"}

# Short credit printed on sheets with the Spain map (see SOURCES.md)
ES_CREDIT = "Mapa: © Instituto Geográfico Nacional de España (CC BY 4.0), vía es-atlas"

# --------------------------------------------------------------------------
# Build parameters (changing any of these changes the shipped bytes)
# --------------------------------------------------------------------------

US_PARAMS = dict(
    tolerance=0.25,      # Douglas-Peucker tolerance, Albers USA units (~1.2 km)
    decimals=2,          # coordinate rounding
    min_island=1.0,      # drop coast-only islands smaller than this (units^2, ~25 km^2)
    min_lake=1.0,        # drop holes not shared with another cell below this
    inset_margin=6.0,    # margin of the recorded Alaska / Hawaii boxes
)
ES_PARAMS = dict(
    tolerance=0.75,      # km
    decimals=1,          # 100 m
    min_island=2.0,      # km^2
    min_lake=2.0,
)

# Lambert conformal conic (GRS80 ellipsoid)
ES_LCC = dict(lat1=37.0, lat2=43.0, lat0=40.0, lon0=-3.7)
# The Canaries get their own true-scale LCC (no rotation), then are moved.
CANARY_LCC = dict(lat1=28.0, lat2=29.0, lat0=28.5, lon0=-15.75)
CANARY_BOX_MARGIN = 15.0  # km between the islands and the inset frame
CANARY_BOX_GAP = 30.0     # km between the frame and Ceuta / the Spanish mainland

NEIGHBOUR_EPS = 1e-3  # shared boundary length (map units) for a border


# --------------------------------------------------------------------------
# Fetching
# --------------------------------------------------------------------------


def _sri(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def fetch_tarball(name: str, cache: Path | None, workdir: Path) -> bytes:
    version, integrity = PACKAGES[name]
    fname = f"{name}-{version}.tgz"
    path = cache / fname if cache else None
    if path is None or not path.exists():
        subprocess.run(
            ["npm", "pack", "--silent", f"{name}@{version}"],
            cwd=workdir, check=True, stdout=subprocess.DEVNULL,
        )
        path = workdir / fname
    data = path.read_bytes()
    if _sri(data) != integrity:
        raise SystemExit(f"{path}: integrity mismatch (expected {integrity})")
    return data


def read_member(tgz: bytes, member: str) -> dict:
    with tarfile.open(fileobj=io.BytesIO(tgz), mode="r:gz") as tf:
        f = tf.extractfile(member)
        if f is None:
            raise SystemExit(f"{member} not found in tarball")
        return json.loads(f.read().decode("utf-8"))


# --------------------------------------------------------------------------
# Topology
# --------------------------------------------------------------------------


def decode_arcs(topo: dict) -> list[list[tuple[float, float]]]:
    """Absolute coordinates of every arc (delta-decoded, transform applied)."""
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    out = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        out.append(pts)
    return out


def object_polygons(geom: dict) -> list[list[list[int]]]:
    """Polygons (lists of rings, ring = list of arc refs) of a TopoJSON geometry."""
    if geom["type"] == "Polygon":
        return [geom["arcs"]]
    if geom["type"] == "MultiPolygon":
        return geom["arcs"]
    raise ValueError(geom["type"])


def arc_index(ref: int) -> int:
    return ref if ref >= 0 else ~ref


def ring_coords(arcs, refs) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for ref in refs:
        a = arcs[ref] if ref >= 0 else arcs[~ref][::-1]
        pts.extend(a if not pts else a[1:])
    # drop consecutive duplicates (rounding can create them)
    out = [pts[0]] if pts else []
    for p in pts[1:]:
        if p != out[-1]:
            out.append(p)
    return out


def signed_area(pts) -> float:
    s = 0.0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        s += x0 * y1 - x1 * y0
    return s / 2.0


def ring_ok(pts) -> bool:
    return len(pts) >= 4 and pts[0] == pts[-1] and signed_area(pts) != 0.0


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


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------


def _bbox(points):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def feature_collection(name, cells, parts, insets, extra):
    feats = []
    allpts = []
    for cell in sorted(cells, key=lambda c: c.code):
        # GeoJSON (RFC 7946) winding: exteriors counter-clockwise, holes clockwise
        pp = [(ext if signed_area(ext) > 0 else ext[::-1],
               [h if signed_area(h) < 0 else h[::-1] for h in holes])
              for ext, holes in parts[cell.code]]
        allpts += [p for ext, _ in pp for p in ext]
        coords = [[[list(p) for p in r] for r in [ext, *holes]] for ext, holes in pp]
        geom = ({"type": "Polygon", "coordinates": coords[0]} if len(coords) == 1
                else {"type": "MultiPolygon", "coordinates": coords})
        feats.append({"type": "Feature", "id": cell.code,
                      "properties": {"code": cell.code, "name": cell.name},
                      "geometry": geom})
    fc = {"type": "FeatureCollection", "name": name,
          "bbox": list(_bbox(allpts)), "insets": insets, "features": feats}
    fc.update(extra)
    return (json.dumps(fc, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            + "\n").encode("utf-8")


def _rbox(box, decimals=0):
    return [_r(v, decimals) for v in box]


# --------------------------------------------------------------------------
# The two maps
# --------------------------------------------------------------------------


def build_us(topo, log):
    P = US_PARAMS
    arcs = decode_arcs(topo)
    # us-atlas's Albers USA output is already y-down screen space; keep it.
    cells = []
    for g in topo["objects"]["states"]["geometries"]:
        if g["id"] not in US_FIPS_TO_USPS:
            log(f"  dropping {g['id']} {g['properties']['name']}")
            continue
        cells.append(Cell(US_FIPS_TO_USPS[g["id"]], g["properties"]["name"], object_polygons(g)))
    assert len(cells) == 50
    clean_cells(cells, arcs, P["min_island"], P["min_lake"], log)
    parts, geoms, pairs, _ = simplify_topology(cells, arcs, P["tolerance"], P["decimals"], log)
    m = P["inset_margin"]
    insets = []
    for code in ("AK", "HI"):
        x0, y0, x1, y1 = geoms[code].bounds
        insets.append(_rbox((math.floor(x0 - m), math.floor(y0 - m),
                             math.ceil(x1 + m), math.ceil(y1 + m))))
    extra = {"units": "Albers USA (us-atlas states-albers-10m), y down",
             "attribution": "Map: U.S. Census Bureau (public domain), via us-atlas"}
    return feature_collection("us-states", cells, parts, insets, extra), pairs


def build_es(topo, log):
    P = ES_PARAMS
    lonlat = decode_arcs(topo)
    geoms_src = topo["objects"]["provinces"]["geometries"]

    canary_arcs, other_arcs = set(), set()
    for g in geoms_src:
        if g["id"] not in ES_INE_TO_ISO:
            continue
        target = canary_arcs if g["id"] in ES_CANARIES else other_arcs
        for poly in object_polygons(g):
            for ring in poly:
                target.update(arc_index(r) for r in ring)
    assert not canary_arcs & other_arcs

    spain = make_lcc(**ES_LCC)
    canary = make_lcc(**CANARY_LCC)
    arcs = [None] * len(lonlat)
    for i, a in enumerate(lonlat):
        f = canary if i in canary_arcs else spain
        arcs[i] = [f(lon, lat) for lon, lat in a]
        if i in canary_arcs or i in other_arcs:
            arcs[i] = untangle_arc(arcs[i], f"arc {i}", log)

    # Inset: frame around the Canaries, placed at the lower right, in the
    # Mediterranean south of Murcia and east of Melilla: right edge on the
    # easternmost point of Spain (Menorca), top edge CANARY_BOX_GAP below the
    # land above it. Down there it adds little height, so the map stays compact.
    c_pts = [p for i in canary_arcs for p in arcs[i]]
    o_pts = [p for i in other_arcs for p in arcs[i]]
    cx0, cy0, cx1, cy1 = _bbox(c_pts)
    ox0, oy0, ox1, oy1 = _bbox(o_pts)
    mg = CANARY_BOX_MARGIN
    box_w, box_h = (cx1 - cx0) + 2 * mg, (cy1 - cy0) + 2 * mg
    bx1 = math.ceil(ox1)
    bx0 = bx1 - math.ceil(box_w)
    south = max(p[1] for p in o_pts if bx0 - CANARY_BOX_GAP <= p[0] <= bx1)
    by0 = math.ceil(south + CANARY_BOX_GAP)
    by1 = by0 + math.ceil(box_h)
    dx = bx0 + (bx1 - bx0 - (cx1 - cx0)) / 2 - cx0
    dy = by0 + (by1 - by0 - (cy1 - cy0)) / 2 - cy0
    for i in canary_arcs:
        arcs[i] = [(x + dx, y + dy) for x, y in arcs[i]]

    # Shift so that the map's top-left corner is at (0, 0) (whole km).
    allx0 = math.floor(min(bx0, ox0))
    ally0 = math.floor(oy0)
    arcs = [[(x - allx0, y - ally0) for x, y in a] for a in arcs]
    box = (bx0 - allx0, by0 - ally0, bx1 - allx0, by1 - ally0)

    cells = []
    for g in geoms_src:
        if g["id"] not in ES_INE_TO_ISO:
            log(f"  dropping {g['id']} {g['properties']['name']}")
            continue
        code, name = ES_INE_TO_ISO[g["id"]]
        cells.append(Cell(code, name, object_polygons(g)))
    assert len(cells) == 52
    clean_cells(cells, arcs, P["min_island"], P["min_lake"], log)
    parts, geoms, pairs, _ = simplify_topology(cells, arcs, P["tolerance"], P["decimals"], log)
    extra = {"units": "km, Lambert conformal conic (GRS80; lat1=37, lat2=43, lat0=40, "
                      "lon0=-3.7), y down; Canaries: own LCC, moved into the inset",
             "attribution": ES_CREDIT}
    return feature_collection("es-provinces", cells, parts, [_rbox(box)], extra), pairs



def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", type=Path,
                    help="directory holding us-atlas-3.0.1.tgz / es-atlas-0.6.0.tgz "
                         "(missing ones are fetched with npm pack)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if the files in --out differ")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    log = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr))

    with tempfile.TemporaryDirectory() as tmp:
        us_tgz = fetch_tarball("us-atlas", args.cache, Path(tmp))
        es_tgz = fetch_tarball("es-atlas", args.cache, Path(tmp))
    log("us-atlas:")
    us, us_pairs = build_us(read_member(us_tgz, "package/states-albers-10m.json"), log)
    log(f"  {len(us_pairs)} neighbour pairs, {len(us)} bytes")
    log("es-atlas:")
    es, es_pairs = build_es(read_member(es_tgz, "package/es/provinces.json"), log)
    log(f"  {len(es_pairs)} neighbour pairs, {len(es)} bytes")

    outputs = {"us-states.geojson": us, "es-provinces.geojson": es}
    if args.check:
        stale = [n for n, data in outputs.items()
                 if not (args.out / n).exists() or (args.out / n).read_bytes() != data]
        for n in stale:
            print(f"stale: {args.out / n}", file=sys.stderr)
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for n, data in outputs.items():
        (args.out / n).write_bytes(data)
        log(f"wrote {args.out / n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
