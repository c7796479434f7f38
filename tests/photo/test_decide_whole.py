"""The reader's decision with the pair reader's opinion (read._checked_whole), pinned on
crafted reads: a number the whole ink reads otherwise is flagged, the surer of the two
numbers standing; a read flagged for its shape or range alone that the pair reader confirms
surely is sure; a circle's flag stays; where both read two digits, the number both read
likeliest together (read._both). And a number in one piece read unsure enough for the
second opinion and sure with it (read._checked_other): flagged where the pair reader reads
another number at least even odds, its number kept."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support.crafted import (
    DIE_CELL,
    PEN,
    PX,
    TOWER_SQUARE,
    blank_page,
    held_out_number,
    inside,
    sure_of,
    whole_of,
)

from rnwprint.core.entries import CROSSED, Guarded
from rnwprint.games import GAMES
from rnwprint.photo import digits, pairs
from rnwprint.photo import read as photo_read
from rnwprint.photo.decide import CellRead

TWO_CROPS = [np.ones((20, 30), np.float32)] * 3  # the whole and one cut: a cell the reader may cut in two


def written(why: str = "", crops=TWO_CROPS, cell=TOWER_SQUARE) -> photo_read.Written:
    return photo_read.Written(cell, crops, False, False, 0.05, (0.0, 0.0), why=why)


def read_of(value, confidence: float, why: str = "", cell=TOWER_SQUARE) -> CellRead:
    return CellRead(cell.id, value, confidence, bool(why), why)


def test_a_sure_read_the_whole_reads_otherwise_less_surely_keeps_its_number_flagged():
    read = photo_read._checked_whole(read_of(24, 0.95), written(), whole_of(21, 0.9, 24))
    assert read.value == 24 and read.confidence == 0.95
    assert read.unsure and read.why == "read whole, it is 21"


def test_a_read_the_whole_reads_otherwise_more_surely_takes_the_wholes_number_flagged():
    read = photo_read._checked_whole(read_of(27, 0.75), written(), whole_of(21, 0.99, 27))
    assert read.value == 21 and read.confidence == pytest.approx(0.99 * 0.99, abs=0.01)
    assert read.unsure and read.why == "read digit by digit, it is 27"


def test_a_guarded_number_stays_guarded_whichever_number_stands():
    read = photo_read._checked_whole(read_of(Guarded(17), 0.75), written(), whole_of(11, 0.99, 17))
    assert read.value == Guarded(11) and read.unsure


def test_a_read_already_flagged_keeps_its_reason_beside_the_wholes():
    read = photo_read._checked_whole(read_of(49, 0.95, photo_read.WHY_RANGE), written(), whole_of(19, 0.8, 49))
    assert read.value == 49 and read.why == f"{photo_read.WHY_RANGE}; read whole, it is 19"


@pytest.mark.parametrize("why", ["best guess 62% sure", photo_read.WHY_ONE_OR_TWO, photo_read.WHY_SHORT,
                                 photo_read.WHY_NETWORKS, photo_read.WHY_RANGE])
@pytest.mark.parametrize("whole_sure, stays_flagged", [(0.96, False), (0.94, True)])
def test_a_read_flagged_for_its_shape_that_the_whole_confirms_surely_is_sure(why, whole_sure, stays_flagged):
    """`whole_sure` on each digit: 0.96 makes 24 at least 90 % likely among 1-50, 0.94 not.
    Out of range too: the digits cut read likelier as 74, the whole reads 24 surely."""
    read = photo_read._checked_whole(read_of(24, 0.62, why), written(), whole_of(24, whole_sure, 37))
    assert read.value == 24 and read.unsure == stays_flagged and read.why == (why if stays_flagged else "")


def test_a_circle_inside_the_box_stays_flagged_however_sure_the_whole_is():
    """A guard circle drawn inside the box (the cell's own reason to flag, Written.why) is no
    question for the pair reader."""
    read = photo_read._checked_whole(read_of(24, 0.62, photo_read.WHY_NETWORKS), written(photo_read.SMALL_CIRCLE_WHY),
                                     whole_of(24, 0.999, 27))
    assert read.unsure and read.why == photo_read.WHY_NETWORKS


def test_one_wide_digit_in_a_tower_square_agrees_with_a_whole_of_no_tens():
    read = photo_read._checked_whole(read_of(4, 0.8, photo_read.WHY_ONE_OR_TWO), written(), whole_of(4, 0.99, 14))
    assert read.value == 4 and not read.unsure
    flagged = photo_read._checked_whole(read_of(4, 0.95), written(), whole_of(14, 0.9, 4))
    assert flagged.value == 4 and flagged.unsure and flagged.why == "read whole, it is 14"


def test_the_whole_is_read_among_the_numbers_the_box_may_hold():
    """A whole read as 74 (70 % on the 7) in a 1-50 square is 44 there, the read's number."""
    read = photo_read._checked_whole(read_of(44, 0.95), written(), whole_of(74, 0.7, 44))
    assert read.value == 44 and not read.unsure


@pytest.mark.parametrize("value", [CROSSED, None])
def test_a_cross_or_nothing_is_left_alone(value):
    read = read_of(value, 0.95)
    assert photo_read._checked_whole(read, written(), whole_of(21, 0.99, 24)) == read


def test_read_written_asks_the_pair_reader_only_about_cells_it_may_cut_in_two(monkeypatch):
    asked = []
    monkeypatch.setattr(photo_read, "_wholes", lambda ws, indices: asked.append(len(indices)) or {})
    one = np.zeros((1, 11), np.float32)
    one[0, 4] = 1.0
    photo_read.read_written(written(crops=TWO_CROPS[:1]), one)
    assert asked == []
    photo_read.read_written(written(), np.concatenate([one, one, one]))
    assert asked == [1]


def ink_of(number: int) -> np.ndarray:
    """`number` written with held-out MNIST digits a little apart, three times MNIST's size,
    as a cell's ink (bright on 0)."""
    return cv2.resize(held_out_number(number, gap=6, pick=7, margin=(4, 3)), None, fx=3, fy=3,
                      interpolation=cv2.INTER_LINEAR)


def test_the_pair_reader_is_asked_about_each_cell_it_may_cut_in_two_at_once():
    one = written(crops=[ink_of(7)])
    two = written(crops=photo_read._split_digits(ink_of(27), TOWER_SQUARE)[0])
    nothing = written(crops=[np.zeros((20, 30), np.float32)] * 3)
    wholes = photo_read._wholes([one, two, nothing], [1, 2])
    assert list(wholes) == [1]
    tens, units = wholes[1]
    assert tens.shape == (11,) and units.shape == (10,) and tens.argmax() == 2 and units.argmax() == 7


def test_read_written_flags_a_sure_cut_the_whole_ink_reads_otherwise(monkeypatch):
    """Both digit networks made to read the cut 27 as a sure 2 and 1: the pair reader, asked
    by read_written itself, reads the ink whole as 27 and the cell is flagged (the surer of
    the two numbers kept)."""
    crops, apart = photo_read._split_digits(ink_of(27), TOWER_SQUARE)
    probs = np.concatenate([sure_of("4", 0.3, "1"), sure_of("2", 0.99, "7"), sure_of("1", 0.99, "7")])
    monkeypatch.setattr(digits, "convnet_probabilities", lambda images: probs.astype(np.float32))
    read = photo_read.read_written(photo_read.Written(TOWER_SQUARE, crops, apart, False, 0.05, (0.0, 0.0)), probs)
    assert read.unsure and (read.value, read.why.split("; ")[-1]) in (
        (21, "read whole, it is 27"), (27, "read digit by digit, it is 21"))


def die_box() -> photo_read.Written:
    return written(crops=[np.ones((20, 12), np.float32)], cell=DIE_CELL)


def die_read(value, confidence: float) -> CellRead:
    return read_of(value, confidence, cell=DIE_CELL)


def test_a_digit_the_pair_reader_reads_as_another_number_is_flagged_its_number_kept():
    read = photo_read._checked_other(die_read(5, 0.8), die_box(), whole_of(3, 0.75, 5))
    assert read.value == 5 and read.confidence == 0.8
    assert read.unsure and read.why == "another network reads 3"


@pytest.mark.parametrize("sure, flagged", [(0.52, True), (0.48, False)])
def test_the_pair_reader_flags_a_digit_only_at_even_odds_or_more(sure, flagged):
    """The pair reader's units: 3 `sure`, the rest split between 5 (the read's number) and 6
    so that 3 stays the likeliest; no tens."""
    tens = np.full(pairs.TENS, 1e-6)
    tens[pairs.NO_TENS] = 1.0
    units = np.full(10, 1e-6)
    units[[3, 5, 6]] = sure, (1 - sure) * 0.6, (1 - sure) * 0.4
    read = photo_read._checked_other(die_read(5, 0.8), die_box(), (tens, units))
    assert read.unsure == flagged and read.value == 5


def test_a_digit_the_pair_reader_confirms_stays_sure():
    read = die_read(4, 0.8)
    assert photo_read._checked_other(read, die_box(), whole_of(4, 0.999, 1)) == read


def test_a_guarded_digit_is_checked_on_its_number_and_stays_guarded():
    read = photo_read._checked_other(die_read(Guarded(1), 0.8), die_box(), whole_of(4, 0.9, 1))
    assert read.value == Guarded(1) and read.unsure and read.why == "another network reads 4"
    assert not photo_read._checked_other(die_read(Guarded(4), 0.8), die_box(), whole_of(4, 0.9, 1)).unsure


def test_the_pair_reader_reads_a_digit_among_the_numbers_the_box_may_hold():
    """A whole read as 8 (70 %) in a 1-6 box is its other choice there, 5: the read's number."""
    read = photo_read._checked_other(die_read(5, 0.8), die_box(), whole_of(8, 0.7, 5))
    assert not read.unsure


@pytest.mark.parametrize("probs, second, asked", [
    (sure_of("4", 0.95, "1"), None, False),  # sure at once: no second opinion, no check
    (sure_of("4", 0.6, "1"), sure_of("4", 0.95, "1"), True),  # sure only with the second opinion
    (sure_of("4", 0.6, "1"), sure_of("4", 0.6, "1"), False),  # still unsure: flagged already
    (sure_of("X", 0.6, "1"), sure_of("X", 0.95, "1"), False),  # a cross is no number
])
def test_read_written_asks_the_pair_reader_about_a_number_in_one_piece_read_sure_only_with_the_second_opinion(
        monkeypatch, probs, second, asked):
    calls = []
    monkeypatch.setattr(photo_read, "_wholes", lambda ws, indices: calls.append(indices) or {})
    monkeypatch.setattr(digits, "convnet_probabilities", lambda images: second.astype(np.float32))
    photo_read.read_written(die_box(), probs)
    assert bool(calls) == asked
    calls.clear()
    photo_read.read_written(die_box(), probs, check_other=False)
    assert not calls


def test_read_written_flags_a_digit_both_networks_misread_as_the_pair_reader_reads_it(monkeypatch):
    """A held-out 3 in a die box that both digit networks are made to read as 5 (the first 60 %
    sure, the second 90 %: 75 % sure together): the pair reader, asked by read_written itself,
    reads 3."""
    ink = cv2.resize(held_out_number(3, gap=0, pick=7, margin=(4, 4)), None, fx=3, fy=3, interpolation=cv2.INTER_LINEAR)
    monkeypatch.setattr(digits, "convnet_probabilities", lambda images: sure_of("5", 0.9, "3").astype(np.float32))
    read = photo_read.read_written(photo_read.Written(DIE_CELL, [ink], False, False, 0.05, (0.0, 0.0)),
                                   sure_of("5", 0.6, "3"))
    assert read.value == 5 and read.unsure and read.why == "another network reads 3"


def test_read_cells_checks_each_digit_read_sure_only_with_the_second_opinion_at_once(monkeypatch):
    """Held-out 3s written in the first two boxes of a Twenty One page, each read as 5 by
    both digit networks (made so): the first 60 % sure alone, so the second opinion (90 %)
    makes it sure, and the pair reader, asked about both cells in one batch, flags both."""
    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    page = blank_page(sheet)
    three = held_out_number(3, gap=0, pick=7, margin=(0, 0))
    boxes = list(sheet.cells.values())[:2]
    for cell in boxes:
        c0, r0, c1, r1 = inside(cell)
        size = int(0.6 * (r1 - r0))
        ink = cv2.resize(three, (size * three.shape[1] // three.shape[0], size)) > 0.5
        y, x = (r0 + r1 - ink.shape[0]) // 2, (c0 + c1 - ink.shape[1]) // 2
        page[y:y + ink.shape[0], x:x + ink.shape[1]][ink] = PEN
    monkeypatch.setattr(digits, "probabilities_of_images",
                        lambda images: np.repeat(sure_of("5", 0.6, "3"), len(images), axis=0).astype(np.float32))
    monkeypatch.setattr(digits, "convnet_probabilities",
                        lambda images: np.repeat(sure_of("5", 0.9, "3"), len(images), axis=0).astype(np.float32))
    batches = []
    wholes = photo_read._wholes
    monkeypatch.setattr(photo_read, "_wholes", lambda ws, asked: batches.append(list(asked)) or wholes(ws, asked))
    reads = photo_read.read_cells(page, sheet, PX, False, PX)
    for cell in boxes:
        assert reads[cell.id].value == 5 and reads[cell.id].unsure and reads[cell.id].why == "another network reads 3"
    assert [len(b) for b in batches if b] == [2]


SURE_24 = np.concatenate([np.full((1, len(digits.CLASSES)), 1 / len(digits.CLASSES)),  # the whole: unreadable
                          sure_of("2", 0.9, "7"), sure_of("4", 0.9, "7")])  # the cut: 24 90 % among 10-50


def test_both_readers_reading_the_same_two_digits_surely_read_it_sure():
    read = photo_read._checked_whole(read_of(24, 0.6, "best guess 60% sure"), written(), whole_of(24, 0.9, 27), SURE_24)
    assert read.value == 24 and not read.unsure and read.confidence == pytest.approx(0.9, abs=1e-4)


def test_both_readers_reading_different_numbers_evenly_are_flagged_naming_the_other():
    """The cut reads 24 90 %, the whole 27 90 %: 50 % each together; the first of the two stands."""
    read = photo_read._checked_whole(read_of(24, 0.9), written(), whole_of(27, 0.9, 24), SURE_24)
    assert read.value == 24 and read.unsure and read.confidence == pytest.approx(0.5)
    assert read.why == "best guess 50% sure; read whole, it is 27"


def test_the_number_read_together_names_the_digit_by_digit_number_it_overrules():
    """The cut reads 24 90 %, the whole 27 99.9 %: 27 is likelier together (55 %), flagged."""
    read = photo_read._checked_whole(read_of(24, 0.9), written(), whole_of(27, 0.999, 24), SURE_24)
    assert read.value == 27 and read.unsure and read.why == "best guess 55% sure; read digit by digit, it is 24"


@pytest.mark.parametrize("whole_sure, flagged", [(0.56, False), (0.52, True)])
def test_two_digits_read_together_are_flagged_below_both_sure(whole_sure, flagged):
    """The cut's 24 90 %, the whole's `whole_sure`: together 73 % and 71 % (BOTH_SURE 72 %)."""
    read = photo_read._checked_whole(read_of(24, 0.9), written(), whole_of(24, whole_sure, 27), SURE_24)
    assert read.value == 24 and read.unsure == flagged
    assert read.why == ("best guess 71% sure" if flagged else "")


def test_the_digit_networks_odds_come_from_their_likeliest_cut():
    """Two ways of cutting: 7 and 4 (no number of 10-50), then 2 and 4: the second gives the
    box's numbers the most likelihood and is the one averaged with the whole's."""
    probs = np.concatenate([SURE_24[:1], sure_of("7", 0.99, "2"), sure_of("4", 0.99, "7"), SURE_24[1:]])
    numbers, odds = photo_read._cut_odds(probs, TOWER_SQUARE)
    assert numbers[0] == 10 and numbers[-1] == 50 and numbers[odds.argmax()] == 24
    assert odds.sum() == pytest.approx(1.0) and odds.max() == pytest.approx(0.9)


def test_a_guarded_number_read_together_stays_guarded():
    read = photo_read._checked_whole(read_of(Guarded(24), 0.6, "best guess 60% sure"), written(),
                                     whole_of(24, 0.9, 27), SURE_24)
    assert read.value == Guarded(24) and not read.unsure


@pytest.mark.parametrize("why, light", [(photo_read.SMALL_CIRCLE_WHY, ""), ("", "dark")])
def test_a_circle_inside_the_box_or_the_light_leaves_the_read_to_the_rules_before(why, light):
    """Such a cell is flagged anyway; its number is the one the rules before _both chose."""
    w = photo_read.Written(TOWER_SQUARE, TWO_CROPS, False, False, 0.05, (0.0, 0.0), light, why)
    read = photo_read._checked_whole(read_of(24, 0.9), w, whole_of(27, 0.999, 24), SURE_24)
    assert read.value == 27 and read.why == "read digit by digit, it is 24"


def test_a_whole_read_as_one_digit_leaves_the_read_to_the_rules_before():
    read = photo_read._checked_whole(read_of(24, 0.9), written(), whole_of(4, 0.99, 24), SURE_24)
    assert read.value == 4 and read.unsure and read.why == "read digit by digit, it is 24"


def test_ten_is_two_digits_for_both_readers():
    """The cut's 1 and 0 (90 % each), the whole's 10 (90 %): read together, 90 % sure."""
    probs = np.concatenate([SURE_24[:1], sure_of("1", 0.9, "7"), sure_of("0", 0.9, "7")])
    read = photo_read._checked_whole(read_of(10, 0.95), written(), whole_of(10, 0.9, 17), probs)
    assert read.value == 10 and not read.unsure and read.confidence == pytest.approx(0.9, abs=1e-4)


def test_the_wholes_odds_are_taken_among_the_two_digit_numbers_only():
    """The whole reads 24 90 % and a lone 4 10 %: among the two-digit numbers, 24 is all but
    certain; with the cut's 90 %, 95 % together."""
    read = photo_read._checked_whole(read_of(24, 0.9), written(), whole_of(24, 0.9, 4), SURE_24)
    assert read.value == 24 and not read.unsure and read.confidence == pytest.approx(0.95, abs=1e-4)
