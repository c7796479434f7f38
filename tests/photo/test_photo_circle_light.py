"""A guard circle is pen ink round the box: in a coarse photo it blurs into the box's outline,
hiding it as a finger over the box would. That is not the light's doing: a circled number is
not flagged "covered" for its own circle. Its "grainy" flag stays: a ring of noise looks the
same."""

from __future__ import annotations

import pytest
from support import synth

from rnwprint.core.entries import Guarded
from rnwprint.games import GAMES
from rnwprint.photo.circles import BIG_CIRCLE_WHY, SMALL_CIRCLE_WHY
from rnwprint.photo.light import LIGHT_WHY
from rnwprint.photo.pipeline import read_photo
from rnwprint.photo.read import _after_circle


def circled_photo(tmp_path, game, paper, seed):
    """A 2 MP photo of `game`'s sheet in Spanish with many circled numbers, read."""
    sheet = GAMES[game].build(GAMES[game].variants[0], "es", paper)
    marks = synth.random_marks(sheet, seed, share=0.6, crosses=0.05, circled=0.4)
    (tmp_path / "circled.jpg").write_bytes(synth.make_photo(sheet, marks, seed=seed, megapixels=2.0))
    return marks, read_photo(tmp_path / "circled.jpg")


def test_a_guard_circle_round_the_box_is_no_finger(tmp_path):
    """Before, 4 of this photo's 17 circled numbers were flagged covered."""
    marks, result = circled_photo(tmp_path, "rolling-america", "a4", 8048)
    assert "covered" not in result.light
    for cid in ("ID", "UT", "IA", "PA"):
        assert isinstance(marks[cid], Guarded)
        assert result.reads[cid].why != LIGHT_WHY["covered"] and isinstance(result.reads[cid].value, Guarded)


def test_a_ring_s_grainy_flag_stays(tmp_path):
    """A moderately grainy 2 MP photo (the generator's own noise): its circled numbers are
    flagged grainy, their rings' darkness raising the grain they are judged by. That stays: a
    ring of noise round a plain number looks the same, and a grainy photo's noise rings read
    as guards were caught only by it (BENCHMARKS.md, "Many circled numbers")."""
    marks, result = circled_photo(tmp_path, "rolling-espana", "letter", 8021)
    grainy = {cid for cid, read in result.reads.items() if read.light == "grainy"}
    assert {"ZA", "SA", "BU", "SO", "CU", "ML", "CA"} <= grainy
    assert all(isinstance(marks[cid], Guarded) for cid in grainy)


@pytest.mark.parametrize("light, ringed, why, grainy, after", [
    ("covered", True, "", False, ""),
    ("covered", False, BIG_CIRCLE_WHY, False, ""),
    ("covered", True, "", True, "grainy"),  # the circle explains the outline, not the grain
    ("covered", False, BIG_CIRCLE_WHY, True, "grainy"),
    ("covered", False, "", True, "covered"),  # a finger over a written number
    ("covered", False, SMALL_CIRCLE_WHY, False, "covered"),  # a circle inside the box leaves its outline seen
    ("grainy", True, "", True, "grainy"),
    ("faded", True, BIG_CIRCLE_WHY, True, "faded"),
    ("", True, "", False, ""),
])
def test_what_a_guard_circle_round_the_box_explains(light, ringed, why, grainy, after):
    assert _after_circle(light, ringed, why, grainy) == after
