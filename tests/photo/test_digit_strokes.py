"""tools/digits_strokes.py: digits drawn stroke by stroke in forms MNIST's writers seldom use
(a measured training direction of issue 15, BENCHMARKS.md "Digits drawn stroke by stroke")."""

from __future__ import annotations

import sys

import numpy as np
from project import ROOT

from rnwprint.photo import digits as D

sys.path.insert(0, str(ROOT / "tools"))
import digits_strokes  # noqa: E402


def test_drawings_are_seeded_and_mnist_style():
    images, labels = digits_strokes.stroke_set(4, seed=7)
    again, _ = digits_strokes.stroke_set(4, seed=7)
    other, _ = digits_strokes.stroke_set(4, seed=8)
    assert np.array_equal(images, again) and not np.array_equal(images, other)
    assert images.shape == (40, 28, 28) and images.dtype == np.uint8
    assert list(labels) == [d for d in range(10) for _ in range(4)]
    for image in images:  # fitted into 20 x 20, centre of mass in the middle
        ys, xs = np.nonzero(image > 25)
        assert max(np.ptp(ys), np.ptp(xs)) + 1 in (19, 20, 21)
        total = image.sum()
        assert abs(image.sum(axis=1) @ np.arange(28) / total - 13.5) < 1.5
        assert abs(image.sum(axis=0) @ np.arange(28) / total - 13.5) < 1.5


def test_every_form_reads_as_its_digit():
    """The shipped networks read each form's drawings as the digit they are drawn as (a form
    that looked like another digit would teach a network wrong): all but the 1 with a flag,
    the European 1, which they often take for a 7, reads as a 1 or a 7."""
    rng = np.random.default_rng(3)
    for digit, forms in digits_strokes.FORMS.items():
        for form in range(len(forms)):
            images = [digits_strokes.draw(digit, rng, form).astype(np.float32) / 255 for _ in range(20)]
            read = D.probabilities(images, D.convnet_probabilities)[:, :10].argmax(axis=1)
            flagged_one = (digit, form) in ((1, 1), (1, 2))
            right = np.isin(read, (1, 7) if flagged_one else (digit,)).mean()
            assert right >= 0.9, (digit, form, right)
