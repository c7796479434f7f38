"""Run-time access to the shipped map geometry (top-level ``assets/maps``).

The GeoJSON files are produced by ``tools/build_maps.py`` (see
``assets/maps/SOURCES.md`` for provenance and licences).  Coordinates
are planar map units with **y pointing down**:

* ``"us"`` -- the 50 states (USPS codes), Albers USA units of us-atlas
  (~975 x 610; Alaska and Hawaii in insets).
* ``"es"`` -- 50 provinces + Ceuta + Melilla (ISO 3166-2:ES codes without the
  ``ES-`` prefix), kilometres in a Lambert conformal conic; the Canary Islands
  are drawn in an inset box at the lower right.

Only the standard library and shapely are used here (shapely imported when a map loads).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from rnwprint.data import data_path

if TYPE_CHECKING:  # shapely loads only when a map's geometry is needed, not for MAPS
    from shapely.geometry.base import BaseGeometry

__all__ = ["MAPS", "MapGeometry", "load_map", "neighbours"]

#: map name -> asset file name
MAPS = {"us": "us-states.geojson", "es": "es-provinces.geojson"}

#: minimum length (map units) of a shared boundary for two cells to be
#: neighbours; touching at a single point (e.g. the Four Corners) is not a border.
BORDER_EPS = 1e-3

Box = tuple[float, float, float, float]


@dataclass(frozen=True, eq=False)
class MapGeometry:
    """Cells of one map.  Compared and hashed by identity (``load_map`` caches)."""

    name: str
    #: cell code -> Polygon / MultiPolygon (map units, y down)
    cells: dict[str, BaseGeometry]
    #: cell code -> usual name ("Texas", "A Coruña", ...)
    names: dict[str, str]
    #: (minx, miny, maxx, maxy) of all cells *and* inset boxes
    bounds: Box
    #: inset frames (minx, miny, maxx, maxy): Alaska and Hawaii for "us",
    #: the Canary Islands for "es"
    insets: list[Box] = field(default_factory=list)
    #: credit line to print with the map
    attribution: str = ""

    @property
    def codes(self) -> list[str]:
        return sorted(self.cells)


@cache
def load_map(name: str) -> MapGeometry:
    """Load map ``"us"`` or ``"es"`` (cached: the same object is returned)."""
    import shapely
    from shapely.geometry import shape

    try:
        fname = MAPS[name]
    except KeyError:
        raise ValueError(f"unknown map {name!r}; expected one of {sorted(MAPS)}") from None
    text = data_path("maps", fname).read_text("utf-8")
    fc = json.loads(text)
    cells: dict[str, BaseGeometry] = {}
    names: dict[str, str] = {}
    for feat in fc["features"]:
        code = feat["properties"]["code"]
        cells[code] = shape(feat["geometry"])
        names[code] = feat["properties"]["name"]
    insets = [tuple(float(v) for v in box) for box in fc.get("insets", [])]
    x0, y0, x1, y1 = shapely.total_bounds(list(cells.values()))
    for bx0, by0, bx1, by1 in insets:
        x0, y0, x1, y1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
    return MapGeometry(
        name=name,
        cells=cells,
        names=names,
        bounds=(float(x0), float(y0), float(x1), float(y1)),
        insets=insets,
        attribution=fc.get("attribution", ""),
    )


@cache
def neighbours(m: MapGeometry) -> frozenset[tuple[str, str]]:
    """Pairs ``(a, b)`` with ``a < b`` of cells sharing a border of positive length.

    A single touching point is not a border, and neither is water (cells are
    only adjacent where their boundaries coincide).  Computed from the shipped
    geometry; cached per map object."""
    import shapely

    codes = sorted(m.cells)
    geoms = [m.cells[c] for c in codes]
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate="intersects")
    pairs = set()
    for i, j in zip(left.tolist(), right.tolist()):
        if i >= j:
            continue
        shared = shapely.intersection(geoms[i].boundary, geoms[j].boundary)
        if shared.length > BORDER_EPS:
            pairs.add((codes[i], codes[j]))
    return frozenset(pairs)
