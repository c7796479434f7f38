"""The pair reader (rnwprint.photo.pairs): a two-digit cell's whole ink as it sees it, the
numbers a box may hold from its tens and units, and what it reads from real digits."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from project import ROOT
from support.crafted import held_out_number

from rnwprint.photo import convnet, digits, pairs
from rnwprint.photo.digits import softmax


def test_the_ink_is_fitted_into_the_box_keeping_its_aspect_and_centred():
    ink = np.zeros((200, 300), np.float32)
    ink[50:150, 40:240] = 0.5  # 100 tall, 200 wide, off-centre, half grey
    image = pairs.normalise(ink)
    assert image.shape == (pairs.ROWS, pairs.COLUMNS)
    rows, cols = np.flatnonzero(image.any(axis=1)), np.flatnonzero(image.any(axis=0))
    assert len(rows) == 22 and abs(len(cols) - 44) <= 2  # twice as wide as tall, as the network was trained
    assert abs((rows[0] + rows[-1]) / 2 - (pairs.ROWS - 1) / 2) <= 1
    assert abs((cols[0] + cols[-1]) / 2 - (pairs.COLUMNS - 1) / 2) <= 1
    assert image.max() == pytest.approx(1.0)


def test_very_wide_ink_is_fitted_to_the_width():
    ink = np.zeros((40, 400), np.float32)
    ink[10:30, :] = 1.0
    cols = np.flatnonzero(pairs.normalise(ink).any(axis=0))
    assert len(cols) == 52


def test_ink_fainter_than_a_quarter_of_the_darkest_does_not_stretch_the_box():
    ink = np.zeros((100, 200), np.float32)
    ink[30:70, 40:160] = 1.0
    alone = pairs.normalise(ink)
    ink[2:6, 2:6] = 0.2  # a faint smudge in the corner
    assert np.array_equal(pairs.normalise(ink) > 0.5, alone > 0.5)


@pytest.mark.parametrize("ink", [np.zeros((30, 60)), np.zeros((0, 0)), np.full((30, 60), np.nan)])
def test_no_ink_is_no_image(ink):
    assert pairs.normalise(ink) is None


def test_a_box_numbers_are_weighed_by_their_tens_and_units_a_one_digit_number_by_no_tens():
    tens = np.full(pairs.TENS, 0.01)
    tens[2], tens[pairs.NO_TENS] = 0.6, 0.3
    units = np.full(10, 0.02)
    units[7] = 0.82
    values, p = pairs.numbers(tens, units, 1, 50)
    assert values[0] == 1 and values[-1] == 50 and p.sum() == pytest.approx(1.0)
    assert values[np.argmax(p)] == 27
    assert p[values == 7][0] == pytest.approx(p[values == 27][0] * 0.3 / 0.6)  # 7 is "no tens" and 7
    assert p[values == 10][0] == pytest.approx(p[values == 11][0])  # 10 and 11: a 1 in the tens, no "no tens"
    values, p = pairs.numbers(tens, units, 30, 50)  # no 2 in the tens there: the likeliest is 37
    assert values[np.argmax(p)] == 37


@pytest.mark.parametrize("number", [14, 27, 35, 41, 50, 18, 39, 22])
@pytest.mark.parametrize("gap", [4, 1, 0])
def test_held_out_digits_apart_or_touching_are_read_as_their_number(number, gap):
    image = pairs.normalise(held_out_number(number, gap, pick=3))
    tens, units = pairs.probabilities(image[None])
    values, p = pairs.numbers(tens[0], units[0], 1, 50)
    assert values[np.argmax(p)] == number


@pytest.mark.parametrize("digit", [2, 4, 7])
def test_one_wide_digit_is_read_as_no_tens_and_that_digit(digit):
    images, labels = digits.heldout_digits()
    one = images[np.flatnonzero(labels == digit)[5]].astype(np.float32)
    tens, units = pairs.probabilities(pairs.normalise(one)[None])
    assert tens[0].argmax() == pairs.NO_TENS and units[0].argmax() == digit


def test_numbers_composed_of_held_out_digits_are_read_95_percent_right():
    """600 numbers 0-99 composed by the training tool's own composer (tools/train_pairs.py:
    gaps from -8 % to +15 % of the height, a pen and a camera each) out of held-out MNIST
    digits, which it never trains on: 95 % read right, 0-9 as "no tens"."""
    sys.path.insert(0, str(ROOT / "tools"))
    import train_pairs

    images, labels = digits.heldout_digits()
    by_digit = [np.flatnonzero(labels == d) for d in range(10)]
    rng = np.random.default_rng(99)
    numbers = rng.integers(0, 100, 600)
    x = np.stack([pairs.normalise(train_pairs.composed(images, by_digit, int(n), rng)) for n in numbers])
    tens, units = pairs.probabilities(x)
    read = np.where(tens.argmax(1) == pairs.NO_TENS, 0, tens.argmax(1)) * 10 + units.argmax(1)
    assert np.mean(read == numbers) >= 0.945


def test_the_odds_are_the_three_networks_odds_averaged():
    images, labels = digits.heldout_digits()
    x = np.stack([pairs.normalise(held_out_number(n, 2, pick=1)) for n in (13, 46, 28)]
                 + [pairs.normalise(images[np.flatnonzero(labels == 5)[3]].astype(np.float32))])
    tens, units = pairs.probabilities(x)
    each = [convnet.logits(params, x) for params in pairs._weights()]
    assert len(each) == 3 and len({id(params) for params in pairs._weights()}) == 3
    assert np.allclose(tens, np.mean([softmax(z[:, :pairs.TENS]) for z in each], axis=0), atol=1e-6)
    assert np.allclose(units, np.mean([softmax(z[:, pairs.TENS:]) for z in each], axis=0), atol=1e-6)
    assert not np.allclose(each[0], each[1], atol=0.1) and not np.allclose(each[1], each[2], atol=0.1)


@pytest.mark.parametrize("file", pairs.NETS)
def test_the_weights_are_small_and_fit_the_image(file):
    path = ROOT / "rnwprint" / "assets" / file
    assert path.stat().st_size < 2_000_000
    with np.load(path) as weights:
        assert weights["f1"].shape[0] == (pairs.ROWS // 4) * (pairs.COLUMNS // 4) * weights["c3"].shape[3]
        assert weights["f2"].shape[1] == pairs.TENS + 10
