"""Catan's island: the classic 19 terrains, 54 corners, 72 edges, and the printed shapes."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from shapely.geometry import Point

from rnwprint.games.catan import geometry as geo


@pytest.fixture(scope="module")
def island():
    return geo.island()


def test_the_classic_island_has_19_terrains_54_corners_72_edges(island):
    assert len(island.terrains) == 19
    assert len(island.corners) == 54
    assert len(island.edges) == 72
    assert list(island.terrains) == [f"T{n:02d}" for n in range(1, 20)]
    assert list(island.corners) == [f"V{n:02d}" for n in range(1, 55)]
    assert list(island.edges) == [f"E{n:02d}" for n in range(1, 73)]


def test_every_corner_touches_2_or_3_edges(island):
    # the 18 corners of the coast that belong to one terrain only have 2 edges
    assert Counter(len(e) for e in island.corner_edges.values()) == {2: 18, 3: 36}


def test_every_edge_joins_2_corners_it_runs_between(island):
    for eid, (a, b) in island.edge_corners.items():
        assert a != b
        ends = {tuple(round(c, 6) for c in p) for p in island.edges[eid].coords}
        assert ends == {tuple(round(c, 6) for c in island.corners[v].coords[0]) for v in (a, b)}
        assert island.edges[eid].length == pytest.approx(island.edge)


def test_every_inner_corner_lies_on_3_terrains_and_the_rim_has_30(island):
    inner = [v for v in island.corners if v not in island.rim]
    assert len(inner) == 24 and len(island.rim) == 30
    assert all(len(island.corner_terrains[v]) == 3 for v in inner)
    assert Counter(len(island.corner_terrains[v]) for v in island.rim) == {1: 18, 2: 12}
    for v in island.corners:  # the terrains named are those whose hexagon has the corner
        near = {t for t, h in island.terrains.items() if h.exterior.distance(island.corners[v]) < 1e-6}
        assert set(island.corner_terrains[v]) == near


def test_each_terrain_is_a_regular_hexagon_with_6_corners(island):
    for tid, hexagon in island.terrains.items():
        assert len(island.terrain_corners[tid]) == 6
        assert hexagon.area == pytest.approx(3 * math.sqrt(3) / 2 * island.edge ** 2)
    assert island.terrains["T10"].centroid.distance(Point(0, 0)) < 1e-9  # the middle one


def test_ids_run_row_by_row_top_to_bottom_left_to_right(island):
    ys = [round(p.y, 3) for p in island.corners.values()]
    assert ys == sorted(ys)
    assert island.corner_terrains["V01"] == ("T01",)  # the top corner of the top-left terrain
    assert island.corner_terrains["V54"] == ("T19",)
    assert island.edge_corners["E01"] == ("V01", "V04")


def test_the_default_layout_is_the_classic_one():
    layout = geo.layout()
    assert Counter(layout.values()) == {"wood": 4, "wheat": 4, "sheep": 4, "brick": 3, "stone": 3, "desert": 1}
    assert layout["T10"] == "desert" and layout["T01"] == "stone" and layout["T19"] == "sheep"


def test_a_seed_moves_terrains_not_ids():
    default, shuffled = geo.layout(), geo.layout(7)
    assert list(shuffled) == list(default)  # the same places
    assert Counter(shuffled.values()) == Counter(default.values())
    assert shuffled != default and geo.layout(7) == shuffled and geo.layout(8) != shuffled


def test_no_printed_circle_or_rectangle_overlaps_another(island):
    shapes = [island.corner_circle(v) for v in island.corners]
    shapes += [island.road_rect(e) for e in island.edges]
    shapes += [island.hall_circle(t) for t in island.terrains]
    for a, b in itertools.combinations(shapes, 2):
        assert a.distance(b) > 0.5  # clear of each other, with room for a pencil's wobble
    for e, (a, b) in island.edge_corners.items():  # and each road lies along its edge, between its corners
        rect = island.road_rect(e)
        assert rect.centroid.distance(island.edges[e].centroid) < 1e-9
        assert rect.length == pytest.approx(2 * (island.edge - 2 * geo.ROAD_GAP) + 2 * geo.ROAD_W)
