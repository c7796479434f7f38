"""Issue 5 figures for the digit / cross classifier (rnwprint.photo.digits).

    python bench/bench_digits.py

Prints held-out accuracy (all digits; 1-6 with the allowed values as a prior), a calibration
table (per "unsure" threshold: share flagged, error rate among the reads not flagged),
crosses vs digits, an out-of-domain check on Debian handwriting fonts when they are installed
(apt-get install fonts-dkg-handwriting fonts-breip fonts-humor-sans fonts-comic-neue
fonts-kristi fonts-bwht), and the time to classify 60 photo-sized crops.
"""

from __future__ import annotations

import glob
import pathlib
import sys

import cv2
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tools"))
from common import machine, median_ms  # noqa: E402

import digits_data  # noqa: E402  (synthetic crosses, the same generator as training, other seeds)
from rnwprint.photo import digits as D  # noqa: E402
from support import synth  # noqa: E402  (tests/support, on sys.path through common)
from rnwprint.photo.read import SECOND_OPINION_BELOW  # noqa: E402

THRESHOLDS = (0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.97, 0.99)
ONE_TO_SIX = "123456X"
DIGITS = "0123456789"
CROSS_SEED = 777  # training used digits_data.SEED + 1
#: (digit height, pen width) in px, as the photo generator writes a digit into a cell
PENS = ((60, 4.0), (60, 2.5), (30, 2.0), (16, 1.2))


def restricted(probs: np.ndarray, allowed: str) -> tuple[np.ndarray, np.ndarray]:
    p = D.restrict(probs, allowed)
    return np.array(list(allowed))[p.argmax(axis=1)], p.max(axis=1)


def calibration(pred: np.ndarray, conf: np.ndarray, truth: np.ndarray, title: str) -> None:
    wrong = pred != truth
    print(f"\n{title} ({len(truth)} reads, {wrong.sum()} wrong before flagging)")
    print("  threshold  flagged  wrong&unflagged  (count)  wrong among unflagged")
    for t in THRESHOLDS:
        flag = conf < t
        bad = wrong & ~flag
        marker = "  <- UNSURE_BELOW" if abs(t - D.UNSURE_BELOW) < 1e-9 else ""
        print(f"  {t:9.2f}  {flag.mean():7.2%}  {bad.mean():15.2%}  {bad.sum():7d}  "
              f"{bad.sum() / max(1, (~flag).sum()):21.2%}{marker}")


def font_digits() -> tuple[list[np.ndarray], np.ndarray] | None:
    """Digits 0-9 rendered with Debian handwriting fonts, a little jittered (not trained on)."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        return None
    files = sorted(f for pat in ("/usr/share/fonts/**/*.ttf", "/usr/share/fonts/**/*.otf")
                   for f in glob.glob(pat, recursive=True)
                   if any(k in f for k in ("fifthhorseman", "breip", "humor-sans", "comic-neue", "kristi", "bwht")))
    if not files:
        return None
    rng = np.random.default_rng(5)
    crops, truth = [], []
    for f in files:
        font = ImageFont.truetype(f, 90)
        for d in range(10):
            im = Image.new("L", (160, 160), 0)
            ImageDraw.Draw(im).text((40, 20), str(d), fill=255, font=font)
            a = np.asarray(im, np.float32) / 255
            for _ in range(4):
                b = digits_data._warp(a, digits_data._affine(rng, 8, 0.1, 0.2), 200)
                crops.append(cv2.GaussianBlur(b, (0, 0), rng.uniform(0.5, 1.5)))
                truth.append(str(d))
    return crops, np.array(truth)


def pen_written(images: np.ndarray, labels: np.ndarray) -> None:
    """The held-out digits as the photo generator writes them (a pen thinner than MNIST's
    strokes, a little turned and slanted), with no camera at all: what the handwriting of
    the test photos costs before any photo is taken."""
    rng = np.random.default_rng(0)
    print("\nheld-out digits written with the photo generator's pen, no camera (0-9):")
    for height, pen in PENS:
        crops = [synth.pen_glyph(synth.crop_glyph(im.astype(np.float32) / 255), height * rng.uniform(0.9, 1.05),
                                 pen, rng) for im in images]
        feature = D.restrict(D.probabilities(crops), DIGITS)
        pred = feature.argmax(axis=1)
        per_digit = " ".join(f"{d}:{np.mean(pred[labels == d] == d):.1%}" for d in range(10))
        print(f"  {height} px tall, pen {pen} px: accuracy {np.mean(pred == labels):.2%}  ({per_digit})")
        conv = D.restrict(D.probabilities(crops, D.convnet_probabilities), DIGITS)
        unsure = feature.max(axis=1) < SECOND_OPINION_BELOW
        both = np.where(unsure[:, None], (feature + conv) / 2, feature).argmax(axis=1)
        print(f"    convolutional network alone {np.mean(conv.argmax(axis=1) == labels):.2%}; "
              f"with its second opinion on the {unsure.mean():.1%} read below {SECOND_OPINION_BELOW}: "
              f"{np.mean(both == labels):.2%}")


def photo_crops(images: np.ndarray, n: int) -> list[np.ndarray]:
    """n photo-sized ink crops: held-out digits drawn ~80 px tall in a 120 px cell, blurred."""
    rng = np.random.default_rng(1)
    out = []
    for i in rng.choice(len(images), n, replace=False):
        big = cv2.resize(images[i], (84, 84), interpolation=cv2.INTER_LINEAR)
        cell = np.zeros((120, 120), np.uint8)
        y, x = rng.integers(8, 28, 2)
        cell[y : y + 84, x : x + 84] = big
        out.append(cv2.GaussianBlur(cell, (0, 0), 1.2))
    return out


def main() -> None:
    print(f"machine: {machine()}")
    images, labels = D.heldout_digits()
    truth = np.array([str(v) for v in labels])
    probs = D.probabilities(list(images))
    pred, conf = restricted(probs, DIGITS)
    print(f"held-out MNIST digits (never trained on): {len(images)}")
    print(f"  all digits, argmax over 0-9:        accuracy {np.mean(pred == truth):.2%}")
    print(f"  all digits, argmax over 0-9 and X:  accuracy {np.mean(np.array(D.CLASSES)[probs.argmax(1)] == truth):.2%}")
    conv_pred, _ = restricted(D.probabilities(list(images), D.convnet_probabilities), DIGITS)
    print(f"  the convolutional network (the second opinion), argmax over 0-9: accuracy {np.mean(conv_pred == truth):.2%}")
    sub = np.isin(labels, [1, 2, 3, 4, 5, 6])
    pred16, conf16 = restricted(probs[sub], ONE_TO_SIX)
    print(f"  1-6 only ({sub.sum()}), prior {ONE_TO_SIX}: accuracy {np.mean(pred16 == truth[sub]):.2%}")
    calibration(pred16, conf16, truth[sub], f"calibration, held-out 1-6 with prior {ONE_TO_SIX}")
    calibration(pred, conf, truth, "calibration, held-out 0-9 with prior 0-9")

    pen_written(images, labels)

    crosses = digits_data.synthetic_crosses(1000, CROSS_SEED)
    px = D.probabilities_of_images(crosses)
    xpred, xconf = restricted(px, ONE_TO_SIX)
    print(f"\nsynthetic crosses (seed {CROSS_SEED}, not the training seed): {len(crosses)}")
    print(f"  read as X with prior {ONE_TO_SIX}: {np.mean(xpred == 'X'):.2%}, "
          f"read as X and unflagged at {D.UNSURE_BELOW}: {np.mean((xpred == 'X') & (xconf >= D.UNSURE_BELOW)):.2%}, "
          f"read as a digit and unflagged: {np.mean((xpred != 'X') & (xconf >= D.UNSURE_BELOW)):.2%}")
    print(f"  held-out 1-6 digits read as X: {np.mean(pred16 == 'X'):.2%}")

    fonts = font_digits()
    if fonts is None:
        print("\nhandwriting fonts: not installed, out-of-domain check skipped")
    else:
        crops, ftruth = fonts
        fp = D.probabilities(crops)
        fpred, _ = restricted(fp, DIGITS)
        fs = np.isin(ftruth, list("123456"))
        f16, fc16 = restricted(fp[fs], ONE_TO_SIX)
        print(f"\nout of domain: {len(crops)} digits from {len(crops) // 40} Debian handwriting fonts "
              f"(never trained on): accuracy {np.mean(fpred == ftruth):.2%} (0-9), "
              f"{np.mean(f16 == ftruth[fs]):.2%} (1-6 with prior {ONE_TO_SIX})")
        calibration(f16, fc16, ftruth[fs], f"calibration, font digits 1-6 with prior {ONE_TO_SIX}")

    crops = photo_crops(images, 60)
    total = median_ms(lambda: D.probabilities(crops), repeat=50)
    norm = median_ms(lambda: [D.normalise(c) for c in crops], repeat=50)
    normed = np.stack([D.normalise(c) for c in crops])
    net = median_ms(lambda: D.probabilities_of_images(normed), repeat=50)
    print(f"\ntiming, 60 crops of 120x120 px (uint8), median of 50: probabilities() {total:.2f} ms "
          f"(normalise {norm:.2f} ms, features + network {net:.2f} ms)")
    conv = median_ms(lambda: D.convnet_probabilities(normed), repeat=50)
    print(f"  the convolutional network on the same 60 normalised crops: {conv:.2f} ms")
    assets = ROOT / "rnwprint" / "assets"
    sizes = ", ".join(f"{path.name} {path.stat().st_size / 1024:.0f} KB" for path in
                      (assets / "digits.npz", assets / "digits-convnet.npz", assets / "photo" / "heldout-digits.npz"))
    print(f"sizes: {sizes}")


if __name__ == "__main__":
    main()
