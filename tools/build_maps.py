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

The work is split by job: tools/maps_topojson.py (fetching the pinned packages, decoding
TopoJSON), tools/maps_projection.py (the projection, untangling arcs), tools/maps_simplify.py
(simplifying the shared arcs, the cells and their checks); this file holds the tables, the
two maps' parameters, the output and the run.

Usage::

    python tools/build_maps.py                   # npm pack into a temp dir
    python tools/build_maps.py --cache /tmp/npmchk   # reuse <name>-<version>.tgz
    python tools/build_maps.py --check           # exit 1 if assets are stale
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from maps_projection import make_lcc, untangle_arc  # noqa: E402
from maps_simplify import Cell, _r, clean_cells, simplify_topology  # noqa: E402
from maps_topojson import (  # noqa: E402
    arc_index, decode_arcs, fetch_tarball, object_polygons, read_member, signed_area,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "assets" / "maps"


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
