"""A guard circle too faint to be ink (a soft pencil's grey ring round a number written
harder): looked for in the cell's darkness round the number, and flagged, never lost silently."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support import synth, synth_ink

from rnwprint.core.entries import Guarded
from rnwprint.games import GAMES
from rnwprint.photo import faint_ring as faint_ring_module
from rnwprint.photo import read as photo_read
from rnwprint.photo.faint_ring import FAINT_RING_WHY, faint_ring, faint_rings, rises_on_rays
from rnwprint.photo.ink import _ink
from rnwprint.photo.pipeline import read_photo

FLOOR = 0.14  # the ink floor of a clean photo's cell


def cell(ring: float = 0.0, sweep: int = 360, radius: int = 24, tall: bool = False) -> np.ndarray:
    """The darkness of a 7.5 mm cell at 8 px/mm: a 1 written hard (0.6) in the middle, and a
    ring `ring` times the ink floor dark, 3 px wide, `sweep` degrees of the way round."""
    dark = np.zeros((60, 60), np.float32)
    if ring and sweep:
        cv2.ellipse(dark, (30, 30), (radius, radius), 0, 0, sweep, float(ring * FLOOR), 3)
    dark[0 if tall else 15:60 if tall else 46, 27:34] = 0.6
    return dark


def found(dark: np.ndarray, coarse: bool = False) -> bool:
    return faint_ring(dark, _ink(dark, FLOOR), FLOOR, coarse)


def test_a_faint_ring_round_the_number_is_found_and_the_number_alone_is_not():
    assert found(cell(ring=0.3))
    assert not found(cell())


@pytest.mark.parametrize("ring, is_found", [(0.21, True), (0.19, False)])
def test_a_whole_ring_counts_from_a_fifth_of_the_ink_floor(ring, is_found):
    """FAINT_RING_STEP: a ring 0.21 of the floor dark stands out on every ray; 0.19 on none."""
    assert found(cell(ring=ring)) == is_found


@pytest.mark.parametrize("sweep, is_found", [(180, True), (170, False)])
def test_an_open_ring_must_go_half_the_way_round(sweep, is_found):
    """FAINT_RING_ROUND: a ring 0.3 of the floor dark, 180 degrees round (25 of the 48 rays), is
    one; 170 degrees (23 rays) is not."""
    assert found(cell(ring=0.3, sweep=sweep)) == is_found


@pytest.mark.parametrize("jump, is_found", [(2, True), (3, False)])
def test_a_ring_runs_on_from_ray_to_ray_and_grain_does_not(jump, is_found, monkeypatch):
    """RING_JUMP_PX: the darkness rising by a quarter of the floor on every ray, where it rises
    most stepping by `jump` px from one ray to the next and back: 2 px is a ring (an oval, drawn
    by a shaking hand), 3 px the photo's grain."""
    radius = 20 + jump * (np.arange(48) % 2)
    monkeypatch.setattr(faint_ring_module, "_rises", lambda *args: (np.full((1, 48), 0.25, np.float32), radius[None]))
    assert faint_ring(cell(), _ink(cell(), FLOOR), FLOOR) == is_found


def test_a_ray_needs_its_neighbours_on_both_sides(monkeypatch):
    """Peaks in pairs of rays, each pair 3 px off the next: every ray has one neighbour at its
    distance and one 3 px off, so none runs on both ways round: no ring."""
    radius = 20 + 3 * ((np.arange(48) // 2) % 2)
    monkeypatch.setattr(faint_ring_module, "_rises", lambda *args: (np.full((1, 48), 0.25, np.float32), radius[None]))
    assert not faint_ring(cell(), _ink(cell(), FLOOR), FLOOR)


@pytest.mark.parametrize("rays, rise, is_found", [(24, 0.2, True), (23, 0.2, False), (24, 0.199, False)])
def test_half_the_rays_rising_a_fifth_of_the_floor_is_a_ring(rays, rise, is_found, monkeypatch):
    """FAINT_RING_ROUND and FAINT_RING_STEP at their edges: 24 of 48 rays rising by 0.2 of the
    floor, at one distance, are a ring; 23 rays, or a rise of 0.199, are not."""
    rises = np.where(np.arange(48) < rays, rise, 0.0).astype(np.float32)[None]
    monkeypatch.setattr(faint_ring_module, "_rises", lambda *args: (rises, np.full((1, 48), 20)))
    assert faint_ring(cell(), _ink(cell(), FLOOR), FLOOR) == is_found


def test_a_coarse_photo_asks_more_of_the_ring():
    """Under 3 px/mm JPEG grain comes together into rings: a pale ring is taken there only if it
    goes 0.65 of the way round (FAINT_RING_COARSE): 240 degrees (32 of 48 rays), not 230 (31)."""
    assert found(cell(ring=0.3, sweep=230))
    assert not found(cell(ring=0.3, sweep=230), coarse=True)
    assert found(cell(ring=0.3, sweep=240), coarse=True)


def test_the_blurred_edge_of_a_pale_number_is_no_ring():
    """A pale pencil number, blurred: its strokes' edges fall away from it on every ray, at
    about the same distance all round, but the darkness never rises again: no ring."""
    dark = cv2.GaussianBlur(cell() * 0.4, (0, 0), 3)
    assert dark.max() > FLOOR
    assert not found(dark)
    ring = cell(ring=0.4)
    assert found(np.maximum(dark, cv2.GaussianBlur(ring - cell(), (0, 0), 1)))


def test_grain_alone_is_no_ring():
    """A grainy cell (noise a quarter of the floor on average) round a number: the darkness
    rises again on every ray, but at scattered distances, never round the number."""
    for seed in range(20):
        dark = cell() + np.abs(np.random.default_rng(seed).normal(0, 0.035, (60, 60))).astype(np.float32)
        assert not found(dark), seed


def test_a_line_along_the_cell_s_edge_is_no_ring():
    """The print's leftover along one edge of the box lies on a quarter of the rays at most."""
    dark = cell()
    dark[:, 55:57] = 0.8 * FLOOR
    assert not found(dark)


def test_the_blur_of_the_box_s_outline_all_round_the_crop_is_no_ring():
    """A blurred photo leaves the printed outline's blur along the crop's edges, darkest at the
    edge (half the floor) and fading over 1.5 mm: a frame, on every ray at about the same
    distance. Taken away at each distance from the edge, it leaves no ring; a ring inside it
    is still found."""
    ys, xs = np.mgrid[0:60, 0:60]
    edge = np.minimum(np.minimum(ys, xs), np.minimum(59 - ys, 59 - xs))
    frame = (0.5 * FLOOR * np.exp(-edge / 4.0)).astype(np.float32)
    assert not found(np.maximum(cell(), frame))
    assert found(np.maximum(cell(ring=0.4), frame))


def test_the_rays_where_the_number_reaches_the_edge_have_no_room_and_the_rest_still_count():
    """A 1 from top to bottom of the cell leaves the rays up and down nothing beyond it: they
    count as 0, and the ring on the others is still found."""
    stand_out, _ = rises_on_rays(cell(ring=0.5, tall=True), _ink(cell(ring=0.5, tall=True), FLOOR), FLOOR)
    assert stand_out[12] == 0 and stand_out[36] == 0  # straight down and up (48 rays from the right)
    assert stand_out[0] > 0.4 and stand_out[24] > 0.4
    assert found(cell(ring=0.5, tall=True))


def test_an_empty_cell_has_no_number_to_go_round():
    rise, _ = rises_on_rays(np.zeros((60, 60), np.float32), np.zeros((60, 60), np.float32), FLOOR)
    assert not rise.any()


def test_cells_looked_at_together_are_each_judged_alone():
    """faint_rings takes a sheet's cells in one pass, by shape: each gets its own verdict."""
    ringed, plain, wide = cell(ring=0.3), cell(), np.pad(cell(ring=0.3), ((0, 0), (0, 8)))
    cells = [(d, _ink(d, FLOOR), FLOOR) for d in (ringed, plain, wide, plain, ringed)]
    assert faint_rings(cells) == [True, False, True, False, True]
    assert faint_rings([]) == []


def test_faint_pencil_circles_on_a_map_photo_are_flagged_not_lost(monkeypatch, tmp_path):
    """A Rolling España sheet photographed at 12 MP, a third of its numbers circled in a faint
    grey pencil (synth_ink.FAINT_CIRCLE): without the faint-ring check six of those circles are
    lost without a flag; with it, none (read guarded, flagged), and plain numbers are flagged
    no more often."""
    monkeypatch.setattr(synth_ink, "CIRCLE_INK", synth_ink.FAINT_CIRCLE)
    game = GAMES["rolling-espana"]
    sheet = game.build(game.variants[0], "es", "letter")
    marks = synth.random_marks(sheet, 8029, share=0.6, crosses=0.05, circled=0.4)
    photo = tmp_path / "faint.jpg"
    photo.write_bytes(synth.make_photo(sheet, marks, seed=8029, megapixels=12.0))

    def counts(result):
        circled = [cid for cid, value in marks.items() if isinstance(value, Guarded)]
        plain = [cid for cid, value in marks.items() if isinstance(value, int)]
        lost = [cid for cid in circled if not isinstance(result.reads[cid].value, Guarded) and not result.reads[cid].unsure]
        plain_flagged = [cid for cid in plain if result.reads[cid].unsure]
        return circled, lost, plain_flagged

    result = read_photo(photo)
    circled, lost, plain_flagged = counts(result)
    assert len(circled) >= 10 and lost == []
    ringed = [result.reads[cid] for cid in circled if FAINT_RING_WHY in result.reads[cid].why]
    assert ringed and all(read.unsure and read.value == marks[read.id] for read in ringed)

    monkeypatch.setattr(photo_read, "faint_ring_shares", lambda cells: [0.0] * len(cells))
    _, lost_without, plain_flagged_without = counts(read_photo(photo))
    assert len(lost_without) >= 5
    assert len(plain_flagged) <= len(plain_flagged_without)
