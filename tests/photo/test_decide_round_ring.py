"""A guard circle drawn round the box, clear of it, in a faint pencil: looked for in the photo's
grey along rays out from the box, and flagged, never lost silently (rnwprint/photo/round_ring.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support import synth, synth_ink

from rnwprint.core.entries import Guarded
from rnwprint.core.sheet import Cell
from rnwprint.games import GAMES
from rnwprint.photo import read as photo_read
from rnwprint.photo import round_ring
from rnwprint.photo.pipeline import read_photo
from rnwprint.photo.round_ring import ROUND_RING_WHY, rays_of, round_rings, widened

PX = 8.0  # px/mm of the rectified page
PAPER = 220


def box(x_mm: float, y_mm: float, side: float = 7.0) -> Cell:
    return Cell(f"B{x_mm:g}", ((x_mm, y_mm), (x_mm + side, y_mm), (x_mm + side, y_mm + side), (x_mm, y_mm + side)))


def page_with(cells: list[Cell], rings: dict[int, float], noise: float = 0.0, seed: int = 0,
              radius_mm: float = 5.6, sweep: int = 360, line: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A 60 x 30 mm page at 8 px/mm: paper PAPER grey, each box's outline printed (black, 2 px),
    a ring `rings[k]` of the paper's grey darker round box k (3 px wide, `radius_mm` from its
    middle, `sweep` degrees), grain `noise` grey levels; `line` darker: a straight line 4 mm
    under the boxes (a shadow's edge). The page and its print (1 = print)."""
    page = np.full((240, 480), PAPER, np.float32)
    printed = np.zeros(page.shape, np.uint8)
    for k, cell in enumerate(cells):
        x0, y0, x1, y1 = (int(round(v * PX)) for v in cell.bounds)
        cv2.rectangle(printed, (x0, y0), (x1, y1), 1, 2)
        if k in rings:
            middle = (int(round((x0 + x1) / 2)), int(round((y0 + y1) / 2)))
            r = int(round(radius_mm * PX))
            cv2.ellipse(page, middle, (r, r), 0, 0, sweep, PAPER * (1 - rings[k]), 3)
    if line:
        page[int(17.5 * PX):int(17.5 * PX) + 3, :] = PAPER * (1 - line)
    page[printed > 0] = 30
    page += np.random.default_rng(seed).normal(0, noise, page.shape) if noise else 0
    return np.clip(page, 0, 255).astype(np.uint8), printed


CELLS = [box(6 + 12 * k, 6) for k in range(4)]


def rings_found(page: np.ndarray, printed: np.ndarray, cells=CELLS) -> list[bool]:
    near = widened(printed)
    return round_rings(page, [(rays_of(cell, [], near, PX), (0, 0)) for cell in cells], PX)


def test_a_faint_ring_round_one_box_is_found_and_the_others_are_not():
    page, printed = page_with(CELLS, {1: 0.12})
    assert rings_found(page, printed) == [False, True, False, False]


@pytest.mark.parametrize("darker, found", [(0.06, True), (0.03, False)])
def test_a_ring_dips_from_four_hundredths_of_the_paper(darker, found):
    """ROUND_RING_DIP: a 3 px ring 6 % darker than the paper dips about 5 % once the rays are
    taken three together; 3 % does not count."""
    page, printed = page_with(CELLS, {2: darker})
    assert rings_found(page, printed)[2] == found


@pytest.mark.parametrize("sweep, found", [(270, True), (120, False)])
def test_a_ring_goes_round_half_the_rays_or_more(sweep, found):
    page, printed = page_with(CELLS, {0: 0.12}, sweep=sweep)
    assert rings_found(page, printed)[0] == found


def test_grain_dips_everywhere_and_raises_the_bar():
    """In a grainy photo every ray dips somewhere: the bar is ROUND_RING_NOISE times the grain's
    (the lower quartile of the rays' deepest dips), so grain alone is no ring, and a ring no
    darker than the grain is not found either."""
    page, printed = page_with(CELLS, {}, noise=6.0, seed=3)
    assert rings_found(page, printed) == [False] * 4
    page, printed = page_with(CELLS, {1: 0.05}, noise=6.0, seed=3)
    assert not rings_found(page, printed)[1]
    page, printed = page_with(CELLS, {1: 0.25}, noise=6.0, seed=3)
    assert rings_found(page, printed)[1]


def test_a_line_darker_on_one_side_only_is_no_ring():
    """A shadow's edge or a region's fill darkens one side: no dip. A thin line across, though,
    dips on the rays it crosses at distances that do not run on from ray to ray."""
    page, printed = page_with(CELLS, {}, line=0.2)
    page[int(18 * PX):, :] = (page[int(18 * PX):, :] * 0.8).astype(np.uint8)  # darker beyond the line
    assert rings_found(page, printed) == [False] * 4


def test_the_print_and_the_boxes_near_are_left_out():
    """A ring drawn round box 1 reaches box 2's side; box 2, looked at with box 1 near it,
    does not take that arc (in box 1's surroundings) for a ring of its own."""
    cells = [box(6, 6), box(15, 6)]
    page, printed = page_with(cells, {0: 0.12}, radius_mm=6.5)
    near = widened(printed)
    found = round_rings(page, [(rays_of(cells[0], [cells[1].bounds], near, PX), (0, 0)),
                               (rays_of(cells[1], [cells[0].bounds], near, PX), (0, 0))], PX)
    assert found == [True, False]


def test_a_box_s_shift_on_the_page_moves_its_rays():
    """The photo's box may lie a pixel or few off its place: the grey is read where it is."""
    page, printed = page_with(CELLS, {1: 0.12})
    moved = np.roll(page, (3, -2), axis=(0, 1))
    near = widened(printed)
    assert round_rings(moved, [(rays_of(cell, [], near, PX), (3, -2)) for cell in CELLS], PX) == [False, True, False, False]


def test_no_boxes_no_rings():
    assert round_rings(np.zeros((10, 10), np.uint8), [], PX) == []


def test_faint_pencil_circles_round_the_boxes_of_a_map_photo(monkeypatch, tmp_path):
    """bench_circled.py --circles faint-round's tuning photo 8031 (Rolling España at 4 MP, 40 %
    of its written boxes circled clear of the box in a faint pencil): without the check more
    circles are lost without a flag, each found one is read guarded and flagged, and no plain
    number is flagged more."""
    monkeypatch.setattr(synth_ink, "CIRCLE_SIZE", synth_ink.ROUND_CIRCLE)
    monkeypatch.setattr(synth_ink, "CIRCLE_INK", synth_ink.FAINT_CIRCLE)
    seed = 8031
    game = GAMES["rolling-espana"]
    sheet = game.build(game.variants[0], ("es", "en")[(seed // 2) % 2], ("a4", "letter")[(seed // 4) % 2])
    marks = synth.random_marks(sheet, seed, share=0.6, crosses=0.05, circled=0.4)
    photo = tmp_path / "round.jpg"
    megapixels = float(np.random.default_rng(seed).choice((2.0, 4.0, 8.0, 12.0)))
    photo.write_bytes(synth.make_photo(sheet, marks, seed=seed, megapixels=megapixels))

    def counts(result):
        circled = [cid for cid, value in marks.items() if isinstance(value, Guarded)]
        plain = [cid for cid, value in marks.items() if isinstance(value, int)]
        lost = {cid for cid in circled if not isinstance(result.reads[cid].value, Guarded) and not result.reads[cid].unsure}
        return lost, {cid for cid in plain if result.reads[cid].unsure}, result

    lost, plain_flagged, result = counts(read_photo(photo))
    ringed = [read for read in result.reads.values() if ROUND_RING_WHY in read.why]
    assert ringed and all(read.unsure and isinstance(read.value, Guarded) for read in ringed)
    monkeypatch.setattr(photo_read, "ring_shares", lambda page, boxes, px: [0.0] * len(boxes))
    lost_without, plain_flagged_without, _ = counts(read_photo(photo))
    assert len(lost_without) >= len(lost) + 3 and lost <= lost_without
    assert plain_flagged <= plain_flagged_without


def test_the_dips_are_measured_with_paper_on_both_sides(monkeypatch):
    """ROUND_RING_SIDE_MM: the paper beside a point is the brightest within 1 mm before it and
    within 1 mm after it along the ray, the darker of the two."""
    page, printed = page_with(CELLS, {1: 0.12})
    near = widened(printed)
    dips, radii, room = round_ring.ring_dips(page, [(rays_of(CELLS[1], [], near, PX), (0, 0))], PX)
    steps0 = int(3.5 * PX) - 1  # the rays start at the box's half side, less a px
    assert room.all() and np.median(dips) == pytest.approx(0.12, abs=0.05)
    assert np.median(np.abs(radii + steps0 - 5.6 * PX)) <= 1.5


@pytest.mark.parametrize("radius_mm, found", [(6.4, True), (8.2, False)])
def test_a_ring_is_looked_for_up_to_3_mm_beyond_the_box(radius_mm, found):
    """ROUND_MM (and the outline's BORDER_MM): a 7 mm box's ring 2.9 mm beyond its side is
    looked at; 4.7 mm beyond, it lies further than any guard circle of that box."""
    page, printed = page_with(CELLS[:1] + CELLS[2:], {0: 0.12}, radius_mm=radius_mm)
    assert rings_found(page, printed, CELLS[:1] + CELLS[2:])[0] == found


def one_box(dips, radii, room=None) -> float:
    """_on_ring's share for one box of 48 rays among three plain ones (dips 0.01: no grain)."""
    plain = np.full((3, 48), 0.01)
    d = np.vstack([np.asarray(dips, float)[None], plain])
    r = np.vstack([np.asarray(radii, float)[None], np.zeros((3, 48))])
    ro = np.ones((4, 48), bool) if room is None else np.vstack([np.asarray(room)[None], np.ones((3, 48), bool)])
    return round_ring._on_ring(d, r, ro)[0]


def test_on_ring_the_dip_counts_from_four_hundredths():
    assert one_box(np.full(48, 0.04), np.full(48, 20)) == 1.0
    assert one_box(np.full(48, 0.039), np.full(48, 20)) == 0.0


def test_on_ring_a_ray_runs_on_from_either_neighbour_within_3_px():
    radii = np.repeat([20, 24], 24)  # two halves, 4 px apart: the rays where they meet stay (each has one neighbour)
    assert one_box(np.full(48, 0.1), radii) == 1.0
    zigzag = np.tile([20, 24], 24)  # every ray 4 px from both neighbours
    assert one_box(np.full(48, 0.1), zigzag) == 0.0
    assert one_box(np.full(48, 0.1), np.tile([20, 23], 24)) == 1.0


def test_on_ring_the_grain_bar_is_four_times_the_lower_quartile():
    grainy = np.full((4, 48), 0.05)
    grainy[0] = 0.19
    assert round_ring._on_ring(grainy, np.zeros((4, 48)), np.ones((4, 48), bool))[0] == 0.0
    grainy[0] = 0.2
    assert round_ring._on_ring(grainy, np.zeros((4, 48)), np.ones((4, 48), bool))[0] == 1.0


def test_on_ring_the_share_is_of_the_rays_with_room_but_at_least_half():
    room = np.zeros(48, bool)
    room[:12] = True
    assert one_box(np.full(48, 0.1), np.full(48, 20), room) == 0.5  # 12 rays of at least 24
    room[:30] = True
    assert one_box(np.full(48, 0.1), np.full(48, 20), room) == 1.0
