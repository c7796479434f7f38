"""Digits leaning more than digits.SLANT_SEEN are also read straightened, the two reads
averaged; circled digits are read as they lean."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support.crafted import DIE_CELL

from rnwprint.photo import digits
from rnwprint.photo import read as photo_read


def leaning_digits(label: int, shear: float, count: int = 100) -> list[np.ndarray]:
    """Held-out digits `label`, their tops pushed right by `shear` px a row (1.1: about 48°)."""
    images, labels = digits.heldout_digits()
    out = []
    for image in images[np.flatnonzero(labels == label)[:count]]:
        wide = cv2.copyMakeBorder(image, 0, 0, 14, 14, cv2.BORDER_CONSTANT, 0).astype(np.float32) / 255
        out.append(cv2.warpAffine(wide, np.float32([[1, -shear, shear * 13.5], [0, 1, 0]]), (56, 28)))
    return out


def read_as_cells(monkeypatch, crops, circled=False):
    """read_cells on these crops, each the ink of a written 1-6 box."""
    from dataclasses import replace

    written = [photo_read.Written(replace(DIE_CELL, id=f"c{k}"), [crop], False, circled, 0.1, (0.0, 0.0))
               for k, crop in enumerate(crops)]
    monkeypatch.setattr(photo_read, "separate", lambda *args: ({}, written))
    reads = photo_read.read_cells(None, None, 8.0, True, 8.0)
    return [reads[f"c{k}"] for k in range(len(crops))]


def test_a_line_leaning_right_has_a_negative_slant_and_is_straightened_to_slant_to():
    line = np.zeros((28, 28), np.float32)
    cv2.line(line, (8, 24), (20, 4), 1.0, 2)  # the top 12 px right of the foot, over 20 rows
    assert digits.slant(line) == pytest.approx(-0.6, abs=0.05)
    assert digits.slant(np.rot90(np.diag(np.ones(28, np.float32)))) < 0
    assert digits.slant(cv2.flip(line, 1)) == pytest.approx(0.6, abs=0.05)
    assert digits.slant(digits.straightened(line)) == pytest.approx(-digits.SLANT_TO, abs=0.05)
    assert digits.slant(digits.straightened(cv2.flip(line, 1))) == pytest.approx(digits.SLANT_TO, abs=0.05)
    upright = np.zeros((28, 28), np.float32)
    upright[4:24, 13:15] = 1
    assert digits.slant(upright) == pytest.approx(0.0, abs=1e-6)
    assert digits.leaning([line, upright, None, digits.straightened(line)]) == [0]


@pytest.mark.parametrize("label", [3, 4])
def test_digits_leaning_far_are_read_right_more_often_straightened(monkeypatch, label):
    """3s and 4s leaning about 48° (beyond all but a few MNIST digits) are read right far more
    often, and never more often wrong and unflagged, read both as they lean and straightened
    than as they lean only."""
    crops = leaning_digits(label, 1.1, 300)  # every held-out one (about 200)
    both = read_as_cells(monkeypatch, crops)
    monkeypatch.setattr(digits, "SLANT_SEEN", 99.0)
    as_they_lean = read_as_cells(monkeypatch, crops)

    def right(reads):
        return sum(r.value == label for r in reads)

    def silent(reads):
        return sum(r.value != label and not r.unsure for r in reads)

    assert right(both) >= right(as_they_lean) + len(crops) // 25  # 4 % more read right (9-15 of about 200)
    assert right(both) >= 0.95 * len(crops)
    assert silent(both) <= silent(as_they_lean)


def test_a_circled_digit_is_read_as_it_leans(monkeypatch):
    """What is left of a guard circle skews a digit's moments: circled digits are not straightened."""
    crops = leaning_digits(3, 1.1, 60)
    circled = [r.value for r in read_as_cells(monkeypatch, crops, circled=True)]
    straightened = [r.value for r in read_as_cells(monkeypatch, crops)]
    monkeypatch.setattr(digits, "SLANT_SEEN", 99.0)
    assert circled == [r.value for r in read_as_cells(monkeypatch, crops, circled=True)]
    assert [getattr(v, "value", v) for v in circled] != straightened  # (the test can tell them apart)


def test_the_second_opinion_reads_the_leaning_crops_it_is_asked_about_straightened_too(monkeypatch):
    """The convolutional network, asked about the cells the first is unsure of, gets each of
    their leaning crops twice: as it leans and straightened."""
    crops = leaning_digits(3, 1.1, 60)
    asked = []
    convnet = digits.convnet_probabilities
    monkeypatch.setattr(digits, "convnet_probabilities", lambda images: asked.append(images) or convnet(images))
    read_as_cells(monkeypatch, crops)
    [batch] = asked  # one batch: the crops, then the same crops straightened
    plain, straightened = np.split(batch, 2)
    assert 0 < len(plain) == len(straightened) < len(crops)
    for image, upright in zip(plain, straightened):
        assert np.allclose(digits.straightened(image), upright)


def test_a_leaning_crop_s_odds_are_the_mean_of_its_two_reads_and_a_blank_one_s_are_even():
    """_classify: a crop without ink gets the same odds for every class; a leaning crop the
    average of its read as it leans and straightened (each row a distribution)."""
    image = digits.normalise(leaning_digits(3, 1.1, 1)[0])
    upright = np.zeros((28, 28), np.float32)
    upright[4:24, 13:15] = 1
    odds = photo_read._classify([image, None, upright], digits.probabilities_of_images, [0])
    plain, straight = digits.probabilities_of_images(np.stack([image, digits.straightened(image)]))
    assert np.allclose(odds[0], (plain + straight) / 2, atol=1e-6)
    assert not np.allclose(plain, straight, atol=0.01)  # (the test can tell the two reads apart)
    assert np.allclose(odds[1], 1 / len(digits.CLASSES))
    assert np.allclose(odds[2], digits.probabilities_of_images(upright[None])[0], atol=1e-6)
    assert np.allclose(odds.sum(axis=1), 1, atol=1e-5)
