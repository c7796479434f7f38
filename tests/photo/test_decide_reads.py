"""The reader's decisions on one cell, pinned on crafted classifier outputs: sure or
flagged, and which numbers a cell may hold."""

from __future__ import annotations

import numpy as np
import pytest
from support.crafted import DIE_CELL, TOWER_SQUARE, sure_of

from rnwprint.core.entries import CROSSED
from rnwprint.photo import digits
from rnwprint.photo import read as photo_read


@pytest.mark.parametrize("p, flagged", [(0.66, True), (0.69, True), (0.71, False), (0.75, False)])
def test_a_read_less_than_70_percent_sure_is_flagged(p, flagged):
    """The unsure threshold chosen on the calibration photos (BENCHMARKS, issue 5): a best
    guess under 70 % sure is flagged for a person and says how sure it was."""
    read = photo_read._decide(DIE_CELL, sure_of("4", p, "1"), False, False)
    assert read.value == 4 and read.confidence == pytest.approx(p)
    assert read.unsure == flagged
    assert read.why == (f"best guess {round(100 * p)}% sure" if flagged else "")


def two_digits(tens: str, units: str, p: float) -> np.ndarray:
    """A two-digit square's crops: the whole (unreadable as one character), then one cut."""
    whole = np.full(len(digits.CLASSES), 1 / len(digits.CLASSES))
    return np.concatenate([whole[None], sure_of(tens, p, "7"), sure_of(units, p, "7")])


def test_two_touching_digits_read_80_percent_sure_are_flagged_two_pieces_apart_are_not():
    """Ink in one piece may be one wide digit or two touching ones: its read is trusted less
    (x 0.85) and two digits each 80 % sure fall under the threshold. The same digits written
    apart are surely two: 80 % sure stands."""
    touching = photo_read._decide(TOWER_SQUARE, two_digits("2", "4", 0.8), False, False)
    assert touching.value == 24 and touching.unsure
    assert touching.confidence == pytest.approx(0.85 * 0.8)
    apart = photo_read._decide(TOWER_SQUARE, two_digits("2", "4", 0.8), False, True)
    assert apart.value == 24 and not apart.unsure and apart.confidence == pytest.approx(0.8)


# --------------------------------------------------------------------------- what a cell may hold


@pytest.mark.parametrize("written", ["0", "7", "9"])
def test_a_one_to_six_cell_never_reads_a_number_it_cannot_hold(written):
    """A die box holds 1-6 or X: a digit outside that is read as the likeliest one allowed."""
    read = photo_read._decide(DIE_CELL, sure_of(written, 0.9, "6"), False, False)
    assert read.value == 6 and read.confidence == pytest.approx(1.0)


def test_one_narrow_digit_in_a_tower_square_is_read_as_that_digit():
    """Ink no wider than a digit goes to the classifier whole, as one digit 1-9 or an X."""
    assert photo_read._decide(TOWER_SQUARE, sure_of("7", 0.9, "1"), False, False).value == 7
    assert photo_read._decide(TOWER_SQUARE, sure_of("X", 0.9, "1"), False, False).value == CROSSED


def test_one_wide_digit_in_a_tower_square_is_read_whole_and_trusted_less():
    """A 1 written wide (a long flag and foot) is cut in two for a look; the whole, read as
    a 1 90 % sure, beats an unsure cut (4 and 7, 50 % each), at 0.85 x 90 %: not flagged."""
    whole = sure_of("1", 0.9, "7")
    read = photo_read._decide(TOWER_SQUARE, np.concatenate([whole, sure_of("4", 0.5, "1"), sure_of("7", 0.5, "1")]),
                              False, False)
    assert read.value == 1 and read.confidence == pytest.approx(0.85 * 0.9) and not read.unsure


def test_a_cut_read_far_likelier_than_the_first_wins():
    """Touching digits cut two ways: the emptiest column gives 25 (its 2 read 30 % sure, its 5
    70 %: 0.21 likely), another column 27 (80 % each: 0.64, x 0.75 for not being the first
    cut, still far likelier): the cell reads 27, flagged (0.85 x 80 %)."""
    whole = np.full((1, len(digits.CLASSES)), 1 / len(digits.CLASSES))
    probs = np.concatenate([whole, sure_of("2", 0.3, "5"), sure_of("1", 0.3, "5"),
                            sure_of("2", 0.8, "5"), sure_of("7", 0.8, "5")])
    read = photo_read._decide(TOWER_SQUARE, probs, False, False)
    assert read.value == 27 and read.confidence == pytest.approx(0.85 * 0.8) and read.unsure


def test_a_cross_in_a_tower_square_is_a_cross_as_sure_as_the_whole_is():
    """An X is wide and in one piece: the whole, read as an X 90 % sure, beats a cut that
    reads 4 and 7 (50 % each), and the cross is as sure as the whole."""
    read = photo_read._decide(TOWER_SQUARE, np.concatenate([sure_of("X", 0.9, "1"), sure_of("4", 0.5, "1"),
                                                            sure_of("7", 0.5, "1")]), False, False)
    assert read.value == CROSSED and read.confidence == pytest.approx(0.9) and not read.unsure


def test_a_ten_reads_ten_and_no_tower_number_starts_with_zero():
    """Two pieces read surely as 1 and 0 are 10; as 0 and 7 they are no number a square holds
    (07 is not written): the likeliest from 10 up, flagged."""
    ten = photo_read._decide(TOWER_SQUARE, two_digits("1", "0", 0.95), False, True)
    assert ten.value == 10 and not ten.unsure
    softmax_like = two_digits("0", "7", 0.95) + 0.001  # a network never says 0 exactly
    seven = photo_read._decide(TOWER_SQUARE, softmax_like / softmax_like.sum(axis=1, keepdims=True), False, True)
    assert 10 <= seven.value <= 50 and seven.unsure


def test_a_tower_square_never_reads_a_number_above_its_range():
    """A square holding 1-50, read as a clear 5 and 7: not 57, and flagged."""
    read = photo_read._decide(TOWER_SQUARE, two_digits("5", "7", 0.95), False, True)
    assert read.value != 57 and 1 <= read.value <= 50 and read.unsure
