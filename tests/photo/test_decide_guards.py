"""A guard is a circle and a tick: where more guard boxes are ticked than circled numbers were
found, the boxes likeliest to hold the missed circle are flagged, and the guard boxes beyond
the circles found (rnwprint/photo/guards.py)."""

from __future__ import annotations

import pytest
from support import synth

from rnwprint.core.entries import CROSSED, Guarded
from rnwprint.games import GAMES
from rnwprint.photo import read as photo_read
from rnwprint.photo.decide import CellRead
from rnwprint.photo.guards import (
    MISSED_INSIDE_FLOOR,
    MISSED_INSIDE_OVER,
    MISSED_RING_FLOOR,
    MISSED_TICK_WHY,
    MISSED_WHY,
    missed_circles,
)
from rnwprint.photo.pipeline import read_photo

GAME = GAMES["rolling-america"]
SHEET = GAME.build(GAME.default_variant, "en", "a4")


def reads_of(values: dict) -> dict[str, CellRead]:
    """Every cell of SHEET read sure: `values` where given, else blank (unticked)."""
    return {cid: CellRead(cid, values.get(cid, False if cell.kind == "tick" else None), 0.95, False, "")
            for cid, cell in SHEET.cells.items()}


def flagged_ids(before: dict, after: dict) -> set[str]:
    return {cid for cid in after if after[cid].unsure and not before[cid].unsure}


def around(**shares) -> dict[str, tuple[float, float]]:
    """Ring shares round the box only (none round the number)."""
    return {cid: (0.0, share) for cid, share in shares.items()}


def test_two_guards_ticked_one_circle_found_flags_the_box_with_the_most_ring_and_the_second_guard():
    reads = reads_of({"AZ": 3, "CA": 4, "NV": 5, "TX": Guarded(2), "guard:1": True, "guard:2": True})
    after = missed_circles(reads, SHEET, GAME.guard_counter, around(AZ=0.3, CA=0.1, NV=0.0))
    assert flagged_ids(reads, after) == {"AZ", "guard:2"}
    assert after["AZ"].why == MISSED_WHY.format(2, 1) and after["AZ"].value == 3
    assert after["guard:2"].why == MISSED_TICK_WHY.format(2, 1) and after["guard:2"].value is True


def test_as_many_boxes_are_flagged_as_circles_are_missing():
    reads = reads_of({"AZ": 3, "CA": 4, "NV": 5, "guard:1": True, "guard:2": True, "guard:3": True})
    after = missed_circles(reads, SHEET, GAME.guard_counter, around(AZ=0.3, CA=0.01, NV=0.2))
    assert flagged_ids(reads, after) == {"AZ", "NV", "guard:1", "guard:2", "guard:3"}


def test_as_many_circles_as_guards_ticked_changes_nothing():
    reads = reads_of({"AZ": 3, "TX": Guarded(2), "CA": Guarded(4), "guard:1": True, "guard:2": True})
    assert missed_circles(reads, SHEET, GAME.guard_counter, around(AZ=0.9)) == reads


def test_a_circle_read_flagged_still_counts_as_found():
    reads = reads_of({"AZ": 3, "guard:1": True})
    reads["TX"] = CellRead("TX", Guarded(2), 0.6, True, "best guess 60% sure")
    assert missed_circles(reads, SHEET, GAME.guard_counter, around(AZ=0.9)) == reads


@pytest.mark.parametrize("share, flagged", [(MISSED_RING_FLOOR, True), (MISSED_RING_FLOOR - 0.001, False)])
def test_a_box_is_a_candidate_from_the_floor_of_ring_on(share, flagged):
    reads = reads_of({"AZ": 3, "guard:1": True})
    assert ("AZ" in flagged_ids(reads, missed_circles(reads, SHEET, GAME.guard_counter, around(AZ=share)))) == flagged


def test_only_numbers_read_plain_and_sure_are_candidates():
    reads = reads_of({"AZ": CROSSED, "CA": Guarded(4), "guard:1": True, "guard:2": True})
    reads["NV"] = CellRead("NV", 5, 0.6, True, "best guess 60% sure")
    after = missed_circles(reads, SHEET, GAME.guard_counter, around(AZ=0.9, CA=0.9, NV=0.9, TX=0.9))  # TX: blank
    assert flagged_ids(reads, after) == {"guard:2"}
    assert after["NV"].why == "best guess 60% sure"


@pytest.mark.parametrize("share, flagged", [(0.12, True), (0.115, False)])
def test_a_ring_round_the_number_counts_from_three_times_the_photo_s_median(share, flagged):
    """MISSED_INSIDE_OVER times the median share of a ring round the number (0.04 here: the
    number's own strokes rise beyond it on some rays), or MISSED_INSIDE_FLOOR if more."""
    assert MISSED_INSIDE_OVER * 0.04 > MISSED_INSIDE_FLOOR
    reads = reads_of({"AZ": 3, "CA": 4, "NV": 5, "UT": 2, "guard:1": True})
    rings = {"AZ": (share, 0.0), "CA": (0.04, 0.0), "NV": (0.04, 0.0), "UT": (0.03, 0.0)}
    assert ("AZ" in flagged_ids(reads, missed_circles(reads, SHEET, GAME.guard_counter, rings))) == flagged


def test_the_likeliest_by_either_ring_are_flagged():
    """Round the number and round the box are told apart: each gives its likeliest."""
    reads = reads_of({"AZ": 3, "CA": 4, "NV": 5, "UT": 2, "guard:1": True})
    rings = {"AZ": (0.3, 0.0), "CA": (0.0, 0.2), "NV": (0.0, 0.1), "UT": (0.0, 0.0)}
    assert flagged_ids(reads, missed_circles(reads, SHEET, GAME.guard_counter, rings)) == {"AZ", "CA", "guard:1"}


@pytest.mark.parametrize("share, flagged", [(MISSED_INSIDE_FLOOR, True), (MISSED_INSIDE_FLOOR - 0.001, False)])
def test_a_ring_round_the_number_counts_from_the_floor_where_the_photo_shows_none(share, flagged):
    reads = reads_of({"AZ": 3, "CA": 4, "NV": 5, "guard:1": True})
    rings = {"AZ": (share, 0.0), "CA": (0.0, 0.0), "NV": (0.0, 0.0)}
    assert ("AZ" in flagged_ids(reads, missed_circles(reads, SHEET, GAME.guard_counter, rings))) == flagged


def test_other_counters_ticked_are_no_guards():
    reads = reads_of({"AZ": 3, "rounds:1": True, "dupe:1": True, "colour_change:1": True})
    assert missed_circles(reads, SHEET, GAME.guard_counter, around(AZ=0.9)) == reads


def test_a_map_photo_with_guards_ticked_and_no_circle_asks_for_the_circles(tmp_path, monkeypatch):
    """End to end: the ring shares reach the check from the photo (every box asked given 0.3
    here: two of the numbers are flagged), the guard boxes from the ticks read; with the
    circles drawn, nothing is asked."""
    plain = {"AZ": 3, "CA": 4, "NV": 5, "UT": 2}
    photo = tmp_path / "guards.jpg"
    photo.write_bytes(synth.make_photo(SHEET, {**plain, "guard:1": True, "guard:2": True}, seed=3, megapixels=8.0))
    monkeypatch.setattr(photo_read, "ring_shares", lambda page, boxes, px: [0.3] * len(boxes))
    reads = read_photo(photo).reads
    assert reads["guard:1"].value is True and reads["guard:2"].value is True
    assert [cid for cid, read in reads.items() if MISSED_TICK_WHY.format(2, 0) in read.why] == ["guard:1", "guard:2"]
    asked = [cid for cid, read in reads.items() if MISSED_WHY.format(2, 0) in read.why]
    assert len(asked) == 2 and set(asked) <= set(plain)
    circled = tmp_path / "circled.jpg"
    circled.write_bytes(synth.make_photo(SHEET, {**plain, "TX": Guarded(2), "OK": Guarded(3), "guard:1": True,
                                                 "guard:2": True}, seed=3, megapixels=8.0))
    reads = read_photo(circled).reads
    assert isinstance(reads["TX"].value, Guarded) and isinstance(reads["OK"].value, Guarded)
    assert not any("guard boxes ticked" in read.why for read in reads.values())


@pytest.mark.parametrize("name", sorted(name for name, game in GAMES.items() if game.guard_counter))
def test_a_game_s_guard_counter_names_tick_boxes_of_its_sheet(name):
    game = GAMES[name]
    sheet = game.build(game.default_variant, "en", "a4")
    assert game.allows_guarded
    assert any(cell.kind == "tick" and cell.counter == game.guard_counter for cell in sheet.cells.values())
