"""The reader's decisions on two-digit cells, pinned on crafted classifier outputs: flag,
never re-guess into range; short pieces; one digit or two; the two networks disagreeing."""

from __future__ import annotations

import numpy as np
import pytest
from support.crafted import DIE_CELL, TOWER_SQUARE, sure_of, whole_of

from rnwprint.photo import digits
from rnwprint.photo import read as photo_read


def pair_of(whole: np.ndarray, tens: np.ndarray, units: np.ndarray) -> np.ndarray:
    return np.concatenate([whole, tens, units])


UNREADABLE_WHOLE = np.full((1, len(digits.CLASSES)), 1 / len(digits.CLASSES))


def test_a_pair_whose_tens_reads_as_no_allowed_digit_is_flagged_not_put_in_range():
    """Two pieces read as a clear 7 (5 % on a 4) and a clear 9: 79 is no number of a 1-50
    square. The likeliest number it may hold (49: among the tens a square allows, all the 7's
    share left is on 4) is kept as the guess, as sure as its less sure digit among what the
    square allows (95 %), but flagged with the reason; a clear 4 and 9 reads 49, sure."""
    read = photo_read._decide(TOWER_SQUARE, pair_of(UNREADABLE_WHOLE, sure_of("7", 0.95, "4"), sure_of("9", 0.95, "4")),
                              False, True)
    assert read.value == 49 and read.unsure and read.why == photo_read.WHY_RANGE
    assert read.confidence == pytest.approx(0.95)
    sure = photo_read._decide(TOWER_SQUARE, pair_of(UNREADABLE_WHOLE, sure_of("4", 0.95, "7"), sure_of("9", 0.95, "4")),
                              False, True)
    assert sure.value == 49 and not sure.unsure and sure.why == ""


@pytest.mark.parametrize("units", ["1", "3"])
def test_a_units_digit_the_range_forbids_after_a_five_is_flagged(units):
    """In a 1-50 square a 5 may only be followed by 0: a clear 5 and 1 or 3 (10 % on 0) is 50
    at best and flagged, never a silent 50 (nor 51)."""
    read = photo_read._decide(TOWER_SQUARE, pair_of(UNREADABLE_WHOLE, sure_of("5", 0.95, "4"), sure_of(units, 0.9, "0")),
                              False, True)
    assert read.value == 50 and read.unsure


def tall_and_piece(piece_height: int, piece_left: bool = False) -> np.ndarray:
    """Ink 40 px tall: a full-height stroke, and 12 px to its right (or left) a stroke
    `piece_height` px tall, its foot on the same line."""
    ink = np.zeros((60, 60), np.float32)
    tall, piece = (26, 10) if piece_left else (10, 26)
    ink[10:50, tall:tall + 4] = 1.0
    ink[50 - piece_height:50, piece:piece + 4] = 1.0
    return ink


@pytest.mark.parametrize("height, short", [(26, True), (27, True), (28, False), (29, False), (40, False)])
@pytest.mark.parametrize("piece_left", [False, True])
def test_a_piece_under_70_percent_of_the_inks_height_makes_its_way_short(height, short, piece_left):
    """Two pieces side by side are two digits; the shorter under 0.7 of the ink's height
    (28 of 40 px) is short: more likely a broken digit's stroke than a digit."""
    crops, apart = photo_read._split_digits(tall_and_piece(height, piece_left), TOWER_SQUARE)
    assert apart and len(crops) == 3
    assert photo_read._short_ways(crops) == (short,)


def test_two_sure_digits_one_of_them_short_are_flagged():
    """A clear 1 and 2 (95 % each) from pieces of which one is short: flagged with the
    reason; the same read from pieces of one height stands."""
    probs = pair_of(UNREADABLE_WHOLE, sure_of("1", 0.95, "4"), sure_of("2", 0.95, "4"))
    read = photo_read._decide(TOWER_SQUARE, probs, False, True, (True,))
    assert read.value == 12 and read.unsure and read.why == photo_read.WHY_SHORT
    assert read.confidence == pytest.approx(0.95)
    even = photo_read._decide(TOWER_SQUARE, probs, False, True, (False,))
    assert even.value == 12 and not even.unsure


def test_a_short_piece_flags_only_the_way_it_is_in():
    """Two ways to group three pieces: the first (read 1 and 2, 60 % each) has a short
    piece, the second (4 and 2, 95 % each) does not and wins: not flagged."""
    probs = np.concatenate([UNREADABLE_WHOLE, sure_of("1", 0.6, "4"), sure_of("2", 0.6, "4"),
                            sure_of("4", 0.95, "1"), sure_of("2", 0.95, "4")])
    read = photo_read._decide(TOWER_SQUARE, probs, False, True, (True, False))
    assert read.value == 42 and not read.unsure


def test_a_written_cell_of_two_pieces_one_short_is_read_flagged(monkeypatch):
    """End to end from the ink: a tall stroke and a short one side by side, both networks
    reading them as a sure 1 and 4, read 14 and flagged as short."""
    def sure_one_then_four(images):
        rows = [sure_of("1", 0.5, "4")[0], sure_of("1", 0.95, "4")[0], sure_of("4", 0.95, "1")[0]]
        return np.stack(rows[:len(images)]).astype(np.float32)
    monkeypatch.setattr(digits, "probabilities_of_images", sure_one_then_four)
    monkeypatch.setattr(digits, "convnet_probabilities", sure_one_then_four)
    ink = tall_and_piece(20)
    crops, apart = photo_read._split_digits(ink, TOWER_SQUARE)
    monkeypatch.setattr(photo_read, "_wholes", lambda written, asked: {})  # the digit networks' read alone
    written = photo_read.Written(TOWER_SQUARE, crops, apart, False, 0.05, (0.0, 0.0))
    read = photo_read.read_written(written, digits.probabilities(crops))
    assert read.value == 14 and read.unsure and read.why == photo_read.WHY_SHORT


@pytest.mark.parametrize("pair_sure, flagged", [(0.72, True), (0.68, False)])
def test_one_wide_digit_is_flagged_when_two_digits_read_70_percent_sure_too(pair_sure, flagged):
    """Ink in one piece read as a 4 (95 % sure) and, cut, as 1 and 4: when the cut's digits
    are each over 70 % sure too, the shape cannot tell one digit from two: flagged."""
    probs = pair_of(sure_of("4", 0.95, "1"), sure_of("1", pair_sure, "7"), sure_of("4", pair_sure, "1"))
    read = photo_read._decide(TOWER_SQUARE, probs, False, False)
    assert read.value == 4 and read.confidence == pytest.approx(0.85 * 0.95)
    assert read.unsure == flagged and read.why == (photo_read.WHY_ONE_OR_TWO if flagged else "")


@pytest.mark.parametrize("whole_sure, flagged", [(0.72, True), (0.68, False)])
def test_two_touching_digits_are_flagged_when_one_digit_reads_70_percent_sure_too(whole_sure, flagged):
    """Touching ink cut into a 2 and a 4 (95 % each) that, whole, also reads as a 4: flagged
    when the whole is over 70 % sure."""
    probs = pair_of(sure_of("4", whole_sure, "1"), sure_of("2", 0.95, "7"), sure_of("4", 0.95, "1"))
    read = photo_read._decide(TOWER_SQUARE, probs, False, False)
    assert read.value == 24 and read.confidence == pytest.approx(0.85 * 0.95)
    assert read.unsure == flagged and read.why == (photo_read.WHY_ONE_OR_TWO if flagged else "")


def read_by_two_networks(monkeypatch, apart: bool, first: np.ndarray, second: np.ndarray):
    """The digit networks' read alone (the pair reader with nothing to say)."""
    crops = [np.ones((20, 30), np.float32), np.ones((20, 12), np.float32), np.ones((20, 12), np.float32)]
    monkeypatch.setattr(digits, "convnet_probabilities", lambda images: second.astype(np.float32))
    monkeypatch.setattr(photo_read, "_wholes", lambda written, asked: {})
    written = photo_read.Written(TOWER_SQUARE, crops, apart, False, 0.05, (0.0, 0.0))
    return photo_read.read_written(written, first)


@pytest.mark.parametrize("first_reads, sure, flagged", [("4", 0.77, False), ("7", 0.72, True)])
def test_a_two_digit_read_the_first_network_alone_reads_otherwise_is_flagged(monkeypatch, first_reads, sure, flagged):
    """Two pieces the feature network reads as a sure 2 and a `first_reads` 55 % sure (the
    rest on the other of 4 and 7); the convolutional network reads a sure 2 and 4. Their
    average reads 24 (its 4 77 or 72 % sure): flagged when the feature network alone read 27."""
    first = pair_of(UNREADABLE_WHOLE, sure_of("2", 0.99, "7"), sure_of(first_reads, 0.55, "7" if first_reads == "4" else "4"))
    second = pair_of(UNREADABLE_WHOLE, sure_of("2", 0.99, "7"), sure_of("4", 0.99, "7"))
    read = read_by_two_networks(monkeypatch, True, first, second)
    assert read.value == 24 and read.confidence == pytest.approx(sure)
    assert read.unsure == flagged and read.why == (photo_read.WHY_NETWORKS if flagged else "")


@pytest.mark.parametrize("second_whole, flagged", [(None, False), ("4", True)])
def test_a_two_digit_read_the_second_network_alone_reads_otherwise_is_flagged(monkeypatch, second_whole, flagged):
    """Touching ink the feature network reads as a sure 2 and 4 (trusted x 0.85: under 90 %,
    the second network is asked), the whole unreadable. The convolutional network reads the
    cut as 2 and 4 90 % sure and, when `second_whole`, the whole as a 4 95 % sure: alone it
    reads 4. The average reads 24 (80 % sure): flagged when the second network alone read 4."""
    first = pair_of(UNREADABLE_WHOLE, sure_of("2", 0.99, "7"), sure_of("4", 0.99, "7"))
    whole = UNREADABLE_WHOLE if second_whole is None else sure_of(second_whole, 0.95, "1")
    second = pair_of(whole, sure_of("2", 0.9, "7"), sure_of("4", 0.9, "7"))
    read = read_by_two_networks(monkeypatch, False, first, second)
    assert read.value == 24 and read.confidence == pytest.approx(0.85 * 0.945)
    assert read.unsure == flagged and read.why == (photo_read.WHY_NETWORKS if flagged else "")


def test_each_way_of_grouping_three_pieces_is_judged_on_its_own_pieces():
    """A short piece (26 of 40 px), then two tall ones: grouped short | tall tall (the widest
    gap first), the way has a short piece; grouped short tall | tall, it has none."""
    ink = np.zeros((60, 60), np.float32)
    ink[24:50, 5:9] = 1.0
    ink[10:50, 22:26] = 1.0
    ink[10:50, 32:36] = 1.0
    crops, apart = photo_read._split_digits(ink, TOWER_SQUARE)
    assert apart and len(crops) == 5
    assert not crops[1][:, 20:].any() and crops[3][:, 20:28].any() and not crops[4][:, :30].any()
    assert photo_read._short_ways(crops) == (True, False)


def test_a_one_digit_cell_is_not_flagged_for_the_networks_reading_it_differently(monkeypatch):
    """The networks' disagreement flags two-digit cells only: a die box the feature network
    reads as a 1 (55 %) and the convolutional one as a sure 4 reads 4, 72 % sure, unflagged
    (the pair reader, asked about a read this unsure, reading 4 too)."""
    monkeypatch.setattr(digits, "convnet_probabilities", lambda images: sure_of("4", 0.99, "1").astype(np.float32))
    monkeypatch.setattr(photo_read, "_wholes", lambda written, asked: {0: whole_of(4, 0.9, 1)})
    written = photo_read.Written(DIE_CELL, [np.ones((20, 12), np.float32)], False, False, 0.05, (0.0, 0.0))
    read = photo_read.read_written(written, sure_of("1", 0.55, "4"))
    assert read.value == 4 and read.confidence == pytest.approx(0.72) and not read.unsure


@pytest.mark.parametrize("seed", range(4))
def test_blobs_are_opencvs_components_whatever_the_label_width(seed):
    """The split's blobs (labelled in 16 bits for speed) are OpenCV's 8-connected components:
    the same labels, boxes, areas and centres as in 32 bits."""
    import cv2

    from rnwprint.photo.split import _blobs

    rng = np.random.default_rng(seed)
    mask = (rng.random((120, 150)) < 0.08 * (seed + 1)).astype(np.uint8)
    count, labels, stats, centres = _blobs(mask)
    want = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=cv2.CV_32S)
    assert count == want[0] > 10
    assert np.array_equal(labels, want[1]) and np.array_equal(stats, want[2]) and np.array_equal(centres, want[3])


def touching_fourteen(gap: int) -> np.ndarray:
    """A 1 and a 4 in pen strokes, the 4 drawn `gap` px right of where it touches the 1."""
    import cv2

    ink = np.zeros((48, 60), np.float32)
    cv2.line(ink, (10, 6), (10, 42), 1.0, 3)  # the 1
    x = 10 + gap
    cv2.line(ink, (x + 16, 6), (x + 2, 30), 1.0, 3)  # the 4: its slant, bar and stem
    cv2.line(ink, (x + 2, 30), (x + 26, 30), 1.0, 3)
    cv2.line(ink, (x + 20, 16), (x + 20, 42), 1.0, 3)
    return ink


@pytest.mark.parametrize("gap", [0, 2])
def test_a_1_touching_a_4_is_read_14_not_a_sure_4(gap):
    """Joined hands let the digits touch: ink 0.76-0.8 as wide as tall is no longer taken for
    one digit without a look (with MAYBE_TWO at 0.85 the reader read a sure 4, unflagged)."""
    ink = touching_fourteen(gap)
    assert photo_read.MAYBE_TWO < photo_read._aspect(ink) < 0.85
    crops, apart = photo_read._split_digits(ink, TOWER_SQUARE)
    assert not apart and len(crops) >= 3
    written = photo_read.Written(TOWER_SQUARE, crops, apart, False, 0.05, (0.0, 0.0))
    read = photo_read.read_written(written, digits.probabilities(crops))
    assert read.value == 14


def test_ink_narrower_than_two_digits_can_be_is_one_digit():
    """A lone 4 (0.6 as wide as tall) is read whole, never cut in two."""
    ink = touching_fourteen(0)[:, 10:]
    ink[:, :4] = 0  # the 1 taken away
    assert photo_read._aspect(ink) < photo_read.MAYBE_TWO
    crops, _ = photo_read._split_digits(ink, TOWER_SQUARE)
    assert len(crops) == 1
