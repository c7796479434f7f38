"""A guard circle is pen ink round the box: in a coarse photo it blurs into the box's outline,
hiding it as a finger over the box would. That is not the light's doing: a circled number is
not flagged "covered" for its own circle."""

from __future__ import annotations

from support import synth

from rnwprint.core.entries import Guarded
from rnwprint.games import GAMES
from rnwprint.photo.light import LIGHT_WHY
from rnwprint.photo.pipeline import read_photo


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

