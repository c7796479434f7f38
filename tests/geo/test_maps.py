"""Tests for the shipped map geometry (assets/maps) and its loader."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import shapely
from project import ROOT
from shapely.geometry import box

from rnwprint.geo.maps import MapGeometry, load_map, neighbours

ASSETS = ROOT / "assets" / "maps"

US_CODES = set(
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO "
    "MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split()
)
ES_CODES = set(
    "C LU OR PO O S BI SS VI NA LO HU Z TE L GI B T LE ZA SA AV SG VA P BU SO M GU "
    "CU TO CR AB CC BA CS V A MU AL GR PM ML H SE CA MA CO J CE GC TF".split()
)


def nbrs_of(m: MapGeometry, code: str) -> set[str]:
    return {b if a == code else a for a, b in neighbours(m) if code in (a, b)}


def adjacent(m: MapGeometry, a: str, b: str) -> bool:
    return tuple(sorted((a, b))) in neighbours(m)


# --------------------------------------------------------------------------- loader


def test_load_map_is_cached_and_well_formed():
    for name in ("us", "es"):
        m = load_map(name)
        assert m is load_map(name)
        assert neighbours(m) is neighbours(m)
        assert m.name == name
        assert set(m.names) == set(m.cells)
        assert all(isinstance(n, str) and n for n in m.names.values())
        x0, y0, x1, y1 = m.bounds
        assert x0 < x1 and y0 < y1
        for g in m.cells.values():
            gx0, gy0, gx1, gy1 = g.bounds
            assert x0 <= gx0 and y0 <= gy0 and gx1 <= x1 and gy1 <= y1
        for pair in neighbours(m):
            assert pair[0] < pair[1]


def test_unknown_map_names_the_maps_there_are():
    with pytest.raises(ValueError, match=r"unknown map 'fr'; expected one of \['es', 'us'\]"):
        load_map("fr")


@pytest.mark.parametrize("name", ["us", "es"])
def test_geometries_valid_and_disjoint(name):
    m = load_map(name)
    for code, g in m.cells.items():
        assert g.geom_type in ("Polygon", "MultiPolygon"), code
        assert g.is_valid, (code, shapely.is_valid_reason(g))
        assert g.area > 0, code
    codes = sorted(m.cells)
    geoms = [m.cells[c] for c in codes]
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate="intersects")
    for i, j in zip(left.tolist(), right.tolist()):
        if i < j:
            overlap = shapely.intersection(geoms[i], geoms[j]).area
            assert overlap < 1e-6, (codes[i], codes[j], overlap)


@pytest.mark.parametrize("name", ["us", "es"])
def test_shared_borders_are_identical(name):
    """Neighbours share their border exactly (topological simplification):
    no gap and no sliver, so the union of two neighbours has no new hole."""
    m = load_map(name)
    for a, b in neighbours(m):
        ga, gb = m.cells[a], m.cells[b]
        shared = shapely.intersection(ga.boundary, gb.boundary)
        # the shared border is made of lines, not of scattered crossing points
        assert shared.length > 0
        assert shapely.intersection(ga, gb).area < 1e-6


def test_asset_size_budget():
    total = sum((ASSETS / f).stat().st_size for f in ("us-states.geojson", "es-provinces.geojson"))
    assert total <= 400 * 1024


def test_sources_md_credits():
    text = (ASSETS / "SOURCES.md").read_text("utf-8")
    assert "© Instituto Geográfico Nacional de España" in text
    assert "CC BY 4.0" in text
    assert "us-atlas" in text and "3.0.1" in text
    assert "es-atlas" in text and "0.6.0" in text
    assert load_map("es").attribution in text


# --------------------------------------------------------------------------- US


def test_us_codes():
    m = load_map("us")
    assert set(m.cells) == US_CODES
    assert "DC" not in m.cells
    assert m.names["TX"] == "Texas"
    assert m.names["NY"] == "New York"


def test_us_neighbour_count():
    assert len(neighbours(load_map("us"))) == 105


def test_us_point_contacts_and_water_are_not_borders():
    m = load_map("us")
    # Four Corners: single point contact
    assert m.cells["AZ"].intersects(m.cells["CO"])
    assert not adjacent(m, "AZ", "CO")
    assert not adjacent(m, "NM", "UT")
    # water boundaries only (Lake Superior, Block Island Sound)
    assert not adjacent(m, "MI", "MN")
    assert not adjacent(m, "NY", "RI")
    assert nbrs_of(m, "AK") == set()
    assert nbrs_of(m, "HI") == set()


@pytest.mark.parametrize(
    "a,b",
    [("TX", "OK"), ("CA", "OR"), ("MI", "OH"), ("NY", "PA"), ("AZ", "UT"), ("CO", "NM"),
     ("MI", "WI"), ("MD", "VA"), ("ME", "NH"), ("AZ", "NM"), ("CO", "UT")],
)
def test_us_true_borders(a, b):
    assert adjacent(load_map("us"), a, b)


def test_us_some_neighbour_sets():
    m = load_map("us")
    assert nbrs_of(m, "ME") == {"NH"}
    assert nbrs_of(m, "WA") == {"OR", "ID"}
    assert nbrs_of(m, "FL") == {"AL", "GA"}
    assert len(nbrs_of(m, "MO")) == 8
    assert len(nbrs_of(m, "TN")) == 8


def test_us_insets_hold_alaska_and_hawaii():
    m = load_map("us")
    assert len(m.insets) == 2
    frames = [box(*b) for b in m.insets]
    assert frames[0].contains(m.cells["AK"])
    assert frames[1].contains(m.cells["HI"])
    for code, g in m.cells.items():
        if code not in ("AK", "HI"):
            assert not any(f.intersects(g) for f in frames), code


# --------------------------------------------------------------------------- Spain


def test_es_codes_and_names():
    m = load_map("es")
    assert set(m.cells) == ES_CODES
    assert len(m.cells) == 52
    expected = {
        "C": "A Coruña", "OR": "Ourense", "GI": "Girona", "L": "Lleida", "VI": "Álava",
        "PM": "Baleares", "GC": "Las Palmas", "TF": "Santa Cruz de Tenerife",
        "A": "Alicante", "CS": "Castellón", "V": "Valencia", "CE": "Ceuta", "ML": "Melilla",
    }
    for code, name in expected.items():
        assert m.names[code] == name


def test_es_neighbour_count():
    assert len(neighbours(load_map("es"))) == 111


@pytest.mark.parametrize(
    "a,b",
    [("LO", "Z"), ("BA", "TO"), ("B", "GI"), ("M", "TO"), ("NA", "Z"), ("S", "BI"),
     ("BU", "VI"), ("H", "SE"), ("C", "LU"), ("CU", "V")],
)
def test_es_true_borders(a, b):
    assert adjacent(load_map("es"), a, b)


def test_es_short_borders_survive():
    """La Rioja-Zaragoza (~6 km) and Badajoz-Toledo (~8 km) are kept."""
    m = load_map("es")
    for a, b, km in (("LO", "Z", 6), ("BA", "TO", 8)):
        length = shapely.intersection(m.cells[a].boundary, m.cells[b].boundary).length
        assert 0.5 * km < length < 2 * km, (a, b, length)


def test_es_islands_and_cities_have_no_neighbours():
    m = load_map("es")
    for code in ("PM", "GC", "TF", "CE", "ML"):
        assert nbrs_of(m, code) == set(), code


def test_es_cadiz_without_gibraltar():
    assert nbrs_of(load_map("es"), "CA") == {"H", "SE", "MA"}


def test_es_canaries_inset():
    m = load_map("es")
    assert len(m.insets) == 1
    frame = box(*m.insets[0])
    assert frame.contains(m.cells["GC"]) and frame.contains(m.cells["TF"])
    for code, g in m.cells.items():
        if code not in ("GC", "TF"):
            assert not frame.intersects(g), code
    # lower right, in the Mediterranean: east of Melilla, below Almería and Murcia
    fx0, fy0, fx1, fy1 = m.insets[0]
    assert fx1 == pytest.approx(m.cells["PM"].bounds[2], abs=1)
    assert fx0 > m.cells["ML"].bounds[2] and fy0 > m.cells["MU"].bounds[3]
    assert m.cells["CE"].bounds[3] < fy1  # Ceuta and Melilla stay on the African coast


def test_es_scale_is_kilometres():
    m = load_map("es")
    # real areas: Madrid 8028 km², Ceuta 18.5 km², Melilla 12.3 km², Mallorca+ 4992 km²
    assert m.cells["M"].area == pytest.approx(8028, rel=0.03)
    assert m.cells["PM"].area == pytest.approx(4992, rel=0.05)
    assert m.cells["CE"].area == pytest.approx(18.5, rel=0.2)
    assert m.cells["ML"].area == pytest.approx(12.3, rel=0.2)
    x0, _, x1, _ = m.bounds
    assert 1000 < x1 - x0 < 1300


# --------------------------------------------------------------------------- build


TARBALLS = Path("/tmp/npmchk")


@pytest.mark.skipif(
    not ((TARBALLS / "us-atlas-3.0.1.tgz").exists() and (TARBALLS / "es-atlas-0.6.0.tgz").exists()),
    reason="needs the npm tarballs in /tmp/npmchk: .ci/run fetches them "
           "(cd /tmp/npmchk && npm pack us-atlas@3.0.1 es-atlas@0.6.0)",
)
def test_build_is_reproducible(tmp_path):
    """Rebuilt from the pinned npm tarballs (CI fetches them), the maps match the shipped bytes."""
    cmd = [sys.executable, str(ROOT / "tools" / "build_maps.py"), "--cache", str(TARBALLS),
           "--out", str(tmp_path), "-q"]
    subprocess.run(cmd, check=True)
    for f in ("us-states.geojson", "es-provinces.geojson"):
        assert (tmp_path / f).read_bytes() == (ASSETS / f).read_bytes(), f
