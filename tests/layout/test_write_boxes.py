"""Map write boxes and their leaders (issue 16): on every map and page size a player finds a
region's box at a glance. Boxes sit inside their region where they fit, otherwise on free paper
near it; a leader crosses no other leader and no box, and at most one other region."""

from __future__ import annotations

import itertools
import json
import pathlib
import sys

import numpy as np
import pytest
from project import ROOT
from shapely.geometry import LineString, Point, box

from rnwprint.core.errors import RnwError
from rnwprint.core.sheet import Rect
from rnwprint.data import data_path
from rnwprint.games import GAMES
from rnwprint.games.rolling import sheet as rolling_sheet
from rnwprint.layout.page import Box
from rnwprint.layout.write_boxes import place
from rnwprint.render import render

LAYOUTS = list(itertools.product(("rolling-america", "rolling-espana"), ("a4", "letter")))
LONGEST_LEADER = 25.0  # mm: the longest leader any layout may have (bench/bench_leaders.py)


@pytest.fixture(scope="module", params=LAYOUTS, ids=lambda p: f"{p[0]}-{p[1]}")
def layout(request):
    game, page = request.param
    fitted = rolling_sheet._fitted(game, page)
    frames = [box(r.x, r.y, r.x + r.w, r.y + r.h) for r in fitted.items if isinstance(r, Rect) and r.style.dash]
    squares = {c: box(p.box.x, p.box.y, p.box.right, p.box.bottom) for c, p in fitted.placements.items()}
    leaders = {c: LineString(p.leader) for c, p in fitted.placements.items() if p.leader}
    return game, page, fitted, frames, squares, leaders


def test_no_leader_crosses_another(layout):
    *_, leaders = layout
    for (a, la), (b, lb) in itertools.combinations(leaders.items(), 2):
        assert not la.intersects(lb), (a, b)


def test_no_leader_crosses_more_than_one_other_region(layout):
    _, _, fitted, _, _, leaders = layout
    for code, line in leaders.items():
        crossed = [other for other, g in fitted.regions.items() if other != code and line.intersects(g)]
        assert len(crossed) <= 1, (code, crossed)


def test_leaders_are_short_and_start_inside_their_region(layout):
    _, _, fitted, _, squares, leaders = layout
    for code, line in leaders.items():
        assert line.length <= LONGEST_LEADER, (code, line.length)
        start, end = (Point(c) for c in line.coords)
        assert fitted.regions[code].contains(start), code
        assert squares[code].distance(end) < 1e-3, code  # leaders are rounded to 1 µm


def test_no_box_overlaps_a_box_a_leader_a_frame_or_another_region(layout):
    _, _, fitted, frames, squares, leaders = layout
    for code, square in squares.items():
        for other, s in squares.items():
            assert other == code or not square.intersects(s), (code, other)
        for other, line in leaders.items():
            assert other == code or not square.intersects(line), (code, other)
        for other, g in fitted.regions.items():
            assert other == code or not square.intersects(g), (code, other)
        for frame in frames:
            assert not square.intersects(frame.boundary), code


def test_every_box_is_inside_the_map_area(layout):
    _, _, fitted, _, squares, _ = layout
    area = box(fitted.area.x, fitted.area.y, fitted.area.right, fitted.area.bottom)
    for code, square in squares.items():
        assert area.contains(square), code


def test_boxes_inside_their_region_where_they_fit(layout):
    game, page, fitted, _, squares, leaders = layout
    inside = [c for c, s in squares.items() if fitted.regions[c].contains(s)]
    assert sorted(set(squares) - set(inside)) == sorted(leaders)
    # the regions a 7 mm box fits in at these scales (the sheets printed before issue 16 had 35, 31, 39, 38)
    assert len(inside) >= {("rolling-america", "a4"): 39, ("rolling-america", "letter"): 36,
                           ("rolling-espana", "a4"): 39, ("rolling-espana", "letter"): 39}[game, page]


def test_island_boxes_stay_inside_their_inset_frame(layout):
    game, _, fitted, frames, squares, _ = layout
    for code in {"rolling-america": ("AK", "HI"), "rolling-espana": ("GC", "TF")}[game]:
        frame = next(f for f in frames if f.contains(fitted.regions[code]))
        assert frame.contains(squares[code]), code


def test_the_legend_and_the_footer_stay_clear_of_the_map(layout):
    _, _, fitted, frames, squares, leaders = layout
    legend = box(fitted.legend.x, fitted.legend.y, fitted.legend.right, fitted.legend.bottom)
    for code, g in fitted.regions.items():
        assert not legend.intersects(g), code
    for thing in [*squares.values(), *leaders.values(), *frames]:
        assert not legend.intersects(thing)


# --------------------------------------------------------------------------- place() on made-up maps


def square(x, y, w, h=None):
    return box(x, y, x + w, y + (w if h is None else h))


AREA = Box(0, 0, 100, 100)


def test_a_region_big_enough_holds_its_box_at_its_centre():
    placed = place({"A": square(20, 20, 30)}, AREA, 7)
    assert placed["A"].leader is None
    assert (placed["A"].box.x, placed["A"].box.y) == pytest.approx((31.5, 31.5), abs=0.6)


def test_a_small_region_gets_a_callout_next_to_it():
    placed = place({"A": square(50, 50, 3)}, AREA, 7)
    p = placed["A"]
    assert p.leader is not None
    assert LineString(p.leader).length < 2.0  # right by its coast
    assert not box(p.box.x, p.box.y, p.box.right, p.box.bottom).intersects(square(50, 50, 3))


def test_a_landlocked_region_crosses_one_neighbour_to_reach_free_paper():
    # "C" sits in the middle of a ring of four; beyond the ring is free paper
    regions = {"C": square(45, 45, 4), "N": square(35, 35, 24, 10), "S": square(35, 49, 24, 10),
               "W": square(35, 45, 10, 4), "E": square(49, 45, 10, 4)}
    placed = place(regions, AREA, 7)
    line = LineString(placed["C"].leader)
    crossed = [c for c, g in regions.items() if c != "C" and line.intersects(g)]
    assert len(crossed) == 1
    assert line.length < 15


def test_neighbouring_small_regions_get_leaders_that_do_not_cross():
    # a row of small islands along a coast: their callouts must not cross each other
    regions = {"L": square(0, 0, 60, 40)}
    regions |= {f"I{k}": square(62 + 0.5 * (k % 2), 5 + 4 * k, 2.5) for k in range(6)}
    placed = place(regions, AREA, 7)
    lines = [LineString(placed[f"I{k}"].leader) for k in range(6)]
    for a, b in itertools.combinations(lines, 2):
        assert not a.intersects(b)
    squares = [box(p.box.x, p.box.y, p.box.right, p.box.bottom) for p in placed.values()]
    for a, b in itertools.combinations(squares, 2):
        assert not a.intersects(b)


def test_a_region_inside_an_inset_frame_keeps_its_box_inside_it():
    frame = Box(60, 60, 30, 20)
    placed = place({"L": square(5, 5, 40), "I": square(70, 68, 3)}, AREA, 7, frames=(frame,))
    b = placed["I"].box
    assert frame.x <= b.x and b.right <= frame.right and frame.y <= b.y and b.bottom <= frame.bottom


def test_boxes_keep_off_the_areas_they_are_told_to():
    clear = Box(50, 40, 20, 30)  # east of the island
    placed = place({"I": square(46, 53, 3)}, AREA, 7, keep_clear=(clear,))
    b = placed["I"].box
    assert b.right <= clear.x or b.x >= clear.right or b.bottom <= clear.y or b.y >= clear.bottom


def test_no_room_at_all_is_one_clear_error():
    with pytest.raises(RnwError, match=r"no room for the write box of A on this page size"):
        place({"A": square(1, 1, 3)}, Box(0, 0, 5, 5), 7)


# --------------------------------------------------------------------------- the baked layouts


def test_every_shipped_layout_is_current():
    """tools/build_map_layouts.py baked each layout from what it is made of now (else every
    process would fit the map again: run the tool)."""
    for game, page in LAYOUTS:
        path = data_path("maps", f"layout-{game}-{page}.json")
        assert json.loads(path.read_text(encoding="utf-8"))["key"] == rolling_sheet.layout_key(game, page), path.name


def test_the_key_changes_with_what_a_layout_is_made_of(monkeypatch):
    keys = {rolling_sheet.layout_key(game, page) for game, page in LAYOUTS}
    assert len(keys) == 4
    before = rolling_sheet.layout_key("rolling-america", "a4")
    for name, value in (("WRITE_BOX", 6.5), ("PANEL_W", 50.0), ("FIT_VERSION", rolling_sheet.FIT_VERSION + 1),
                        ("LEGEND_SIDE", {"us": "right", "es": "right"})):
        with monkeypatch.context() as m:
            m.setattr(rolling_sheet, name, value)
            assert rolling_sheet.layout_key("rolling-america", "a4") != before, name
    real = pathlib.Path.read_bytes

    def edited(path):  # the same files, one of them edited
        data = real(path)
        return data + b"\n# edited" if path.name in edited.names else data

    for name in ("write_boxes.py", "maps.py", "us-states.geojson", "rolling-america.toml"):
        edited.names = {name}
        with monkeypatch.context() as m:
            m.setattr(pathlib.Path, "read_bytes", edited)
            assert rolling_sheet.layout_key("rolling-america", "a4") != before, name


def test_a_stale_layout_is_not_used(monkeypatch):
    monkeypatch.setattr(rolling_sheet, "layout_key", lambda game, page: "something else")
    assert rolling_sheet._baked("rolling-america", "a4") is None


def test_a_sheet_is_built_from_the_baked_layout_without_fitting(monkeypatch):
    def refuse(*args):
        raise AssertionError("fitted the map again")

    rolling_sheet._fitted.cache_clear()
    monkeypatch.setattr(rolling_sheet, "layout", refuse)
    try:
        for game, page in LAYOUTS:
            rolling_sheet.build(game, GAMES[game].default_variant, "en", page)
    finally:
        rolling_sheet._fitted.cache_clear()


def test_the_tool_builds_the_shipped_layout_and_the_sheet_prints_the_same_bytes_either_way(monkeypatch):
    """One layout rebuilt from scratch (seconds): the tool writes the shipped file byte for
    byte, and the sheet printed from it equals the sheet printed from a fresh fit."""
    sys.path.insert(0, str(ROOT / "tools"))
    import build_map_layouts

    game, page = "rolling-espana", "a4"
    assert build_map_layouts.text(game, page) == build_map_layouts.path(game, page).read_text(encoding="utf-8")
    rolling_sheet._fitted.cache_clear()
    try:
        baked = {lang: render([GAMES[game].build("es", lang, page)], "pdf")[0] for lang in ("es", "en")}
        rolling_sheet._fitted.cache_clear()
        monkeypatch.setattr(rolling_sheet, "_baked", lambda game, page: None)
        fresh = {lang: render([GAMES[game].build("es", lang, page)], "pdf")[0] for lang in ("es", "en")}
    finally:
        rolling_sheet._fitted.cache_clear()
    assert baked == fresh


# --------------------------------------------------------------------------- the geometry the search relies on


def test_the_fast_segment_tests_agree_with_shapely():
    """The search checks millions of spot pairs with numpy; shapely is the reference."""
    from rnwprint.layout import write_boxes as wb

    rng = np.random.default_rng(1)
    p, q, a, b = rng.uniform(0, 10, size=(4, 400, 2))
    q[:50, 0] = p[:50, 0]  # vertical segments
    q[50:100, 1] = p[50:100, 1]  # horizontal ones
    lines = [LineString([s, e]) for s, e in zip(p, q)]
    others = [LineString([s, e]) for s, e in zip(a, b)]
    assert wb._segments_meet(p, q, a, b).tolist() == [x.intersects(y) for x, y in zip(lines, others)]
    x0, y0 = rng.uniform(0, 8, size=(2, 400))
    x1, y1 = x0 + rng.uniform(0.5, 3, 400), y0 + rng.uniform(0.5, 3, 400)
    boxes = [box(*r) for r in zip(x0, y0, x1, y1)]
    got = wb._segment_meets_box(p, q, x0, y0, x1, y1)
    assert got.tolist() == [line.intersects(r) for line, r in zip(lines, boxes)]
    assert 40 < got.sum() < 360  # both answers are common
    got = wb._distance_to_segment(a, p, q)
    assert got == pytest.approx([Point(s).distance(line) for s, line in zip(a, lines)], abs=1e-9)
