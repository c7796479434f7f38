"""Issue 5 figures: how well and how fast photos of finished sheets are read.

    python bench/bench_photo.py                  # 100 held-out photos (seeds 1000-1099)
    python bench/bench_photo.py --calibrate --photos 200  # the confidence table on seeds 5000-5199
    python bench/bench_photo.py --writers uci    # the same photos written by other writers

Photos come from tests/support/synth.py: our own sheets filled in with held-out MNIST digits
(never used in training), crosses, circles and ticks, photographed with random tilt (up to
30 degrees), rotation, light, shadow, curl, blur, noise and JPEG, at 1-12 MP. The
calibration set uses other seeds than the figures, so the threshold is not fitted to them.
Timing runs on one core (OpenCV and BLAS limited to one thread).
--writers uci|fonts|npm-fonts|mnist-test|european writes the photos with digits by writers
outside the training data instead (tools/digits_writers.py: scikit-learn's UCI digits, the
held-out handwriting font families of Debian and of npm, MNIST's test set, the held-out digits with European 1s and 7s;
--cache DIR as for tools/train_digits.py). --joined writes two-digit numbers with their
digits touching or overlapping a little (up to 6 % of their height), as joined hands do.
--crease 0.2 photographs each sheet folded in four and opened again, its creases that dark.
--over-edge 0.3 writes each number (not circled) 0.3 of its box up or down past its place, over the box's edge.
--ink pencil --fade writes in a soft pencil pressed lightly along a stretch of each number.
"""

from __future__ import annotations

import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse  # noqa: E402
import pathlib  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import machine  # noqa: E402

from rnwprint.core.entries import Guarded  # noqa: E402
from rnwprint.games import GAMES  # noqa: E402
from support import synth, synth_ink  # noqa: E402  (tests/support, on sys.path through common)
from rnwprint.photo.pipeline import read_photo  # noqa: E402

SHEETS = ("twenty-one", "rolling-america", "rolling-espana", "roll-to-the-top")
MEGAPIXELS = (1.0, 2.0, 4.0, 8.0, 12.0, 12.0)  # phones take 12 MP; smaller ones test the limits
PHOTO_OPTIONS: dict = {}  # more for synth.make_photo (--crease)


def photo_set(seeds, folder: pathlib.Path, handwriting=None):
    """(path, sheet, truth, megapixels) for each seed: the four sheets in turn, every tenth
    photo at 12 MP for the timing, the rest at 1-12 MP."""
    for seed in seeds:
        name = SHEETS[seed % len(SHEETS)]
        game = GAMES[name]
        rng = np.random.default_rng(seed)
        variant = game.variants[int(rng.integers(len(game.variants)))]
        sheet = game.build(variant, ("es", "en")[seed % 2], ("a4", "letter")[(seed // 2) % 2])
        marks = synth.random_marks(sheet, seed, circled=0.08 if game.allows_guarded else 0.0)
        for cell in sheet.cells.values():
            if cell.kind == "tick" and rng.uniform() < 0.5:
                marks[cell.id] = True
        megapixels = 12.0 if seed % 10 == 0 else float(rng.choice(MEGAPIXELS))
        path = folder / f"{seed}.jpg"
        path.write_bytes(synth.make_photo(sheet, marks, seed=seed, megapixels=megapixels, handwriting=handwriting,
                                          **PHOTO_OPTIONS))
        yield path, sheet, marks, megapixels


def truth_of(sheet, marks, cell_id):
    value = marks.get(cell_id)
    if sheet.cells[cell_id].kind == "tick":
        return bool(value)
    return value


def writers_npz(name: str, cache: str | None, folder: pathlib.Path) -> str:
    """The writer set `name` packed as the photo generator reads digits (binary, 28x28)."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
    import digits_writers

    images, labels = digits_writers.writer_set(name, cache)
    path = folder / f"writers-{name}.npz"
    np.savez(path, bits=np.packbits(binarised(images).reshape(len(images), -1), axis=1), labels=labels,
             shape=np.array([28, 28], np.int32))
    return str(path)


def binarised(images: np.ndarray) -> np.ndarray:
    """Grey digits (bright ink) as ink or not, at half grey, as the held-out MNIST digits are.
    A thin pen's stroke (a handwriting font's, fitted into 28 px) is fainter than half grey
    in places, and would break into dots no hand writes: such a digit is cut at a quarter."""
    bits = images >= 128
    for k, image in enumerate(images):
        faint = image >= 64
        if synth_ink.pieces(bits[k]) > synth_ink.pieces(faint):
            bits[k] = faint
    return bits


TWO_DIGITS = "two-digit cells"  # kind_of's name for them


def kind_of(truth) -> str:
    """The issue's cell kinds: circled (guarded) numbers, two-digit numbers, one digit or X."""
    if isinstance(truth, Guarded):
        return "circled (guarded) numbers"
    if isinstance(truth, int) and not isinstance(truth, bool) and truth >= 10:
        return TWO_DIGITS
    return "one-digit cells (and X)"


def evaluate(seeds, threshold=None, writers=None, cache=None):
    """Every cell of every photo: (truth, read value, confidence, unsure), and the timings."""
    cells, timings, failures, by_mp = [], [], [], {}
    with tempfile.TemporaryDirectory() as tmp:
        handwriting = writers_npz(writers, cache, pathlib.Path(tmp)) if writers else None
        for path, sheet, marks, megapixels in photo_set(seeds, pathlib.Path(tmp), handwriting):
            try:
                result = read_photo(path)
            except Exception as e:  # a photo that cannot be read at all is a figure too
                failures.append((path.name, str(e)))
                continue
            if megapixels == 12.0:
                timings.append(result.timings)
            for cell_id, read in result.reads.items():
                truth = truth_of(sheet, marks, cell_id)
                unsure = read.unsure if threshold is None else read.confidence < threshold
                cells.append((truth, read.value, read.confidence, unsure))
                by_mp.setdefault(megapixels, []).append(cells[-1])
    return cells, timings, failures, by_mp


def figures(cells) -> dict:
    filled = [c for c in cells if c[0] not in (None, False)]
    blank = [c for c in cells if c[0] in (None, False)]
    right = sum(t == v for t, v, _, _ in filled)
    return {
        "cells": len(cells),
        "filled read right": right / len(filled),
        "wrong and not flagged": sum(t != v and not u for t, v, _, u in cells) / len(cells),
        "flagged": sum(u for *_, u in cells) / len(cells),
        "blank read blank": sum(v in (None, False) for _, v, _, _ in blank) / len(blank),
        "filled right or flagged": sum(t == v or u for t, v, _, u in filled) / len(filled),
    }


def print_kinds(cells) -> None:
    """Right / wrong unflagged / flagged for each cell kind, of the filled cells of that kind."""
    for kind in sorted({kind_of(c[0]) for c in cells if c[0] not in (None, False, True)}):
        of = [c for c in cells if c[0] not in (None, False, True) and kind_of(c[0]) == kind]
        print(f"  {kind}: {len(of)} cells, right {sum(t == v for t, v, _, _ in of) / len(of):.2%}, "
              f"wrong unflagged {sum(t != v and not u for t, v, _, u in of) / len(of):.2%}, "
              f"flagged {sum(u for *_, u in of) / len(of):.2%}")
    lost = [(t, v) for t, v, _, u in cells if isinstance(t, Guarded) and not isinstance(v, Guarded) and not u]
    print(f"  circles dropped without a flag: {len(lost)} {lost[:5]}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--photos", type=int, default=100)
    parser.add_argument("--writers", help="uci, fonts, npm-fonts, mnist-test or european: digits by writers outside the training data")
    parser.add_argument("--cache", help="directory holding the MNIST tarball and wheel (for mnist-test)")
    parser.add_argument("--joined", action="store_true",
                        help="two-digit numbers written with their digits touching or overlapping a little, as "
                             "joined or cursive hands write them (tests/support/synth_ink.JOINED_GAP)")
    parser.add_argument("--circles", choices=("edge", "tight", "big", "round", "open", "offset"), default="edge",
                        help="guard circles drawn round the box's edge (edge), round the number well inside "
                             "the box (tight), round the box out over its edges (big), round the box and clear of "
                             "it, 0.74-0.86 of its sides from its middle (round), left open by 20-80 "
                             "degrees (open), or round a number written off to one side, up to 0.14 of the "
                             "box off its middle (offset)")
    parser.add_argument("--crease", type=float, default=0.0,
                        help="the sheet folded in four and opened again: its creases this dark (0.1-0.3)")
    parser.add_argument("--tall", action="store_true",
                        help="plain numbers written as tall as their box, their tops and feet on its outline "
                             "(tests/support/synth_ink.TALL_DIGITS)")
    parser.add_argument("--over-edge", type=float, default=0.0,
                        help="numbers written this share of the box up or down past their place, running "
                             "over the box's edge (0.25-0.35)")
    parser.add_argument("--ink", choices=sorted(synth_ink.INKS),
                        help="every photo written in this ink (pale: a hard pencil pressed lightly, paler than "
                             "the reader's ink floor); default: blue or black at random")
    parser.add_argument("--fade", action="store_true",
                        help="a stretch of each number pressed lightly, fading to 0.2-0.45 of the rest (with --ink pencil)")
    parser.add_argument("--first-seed", type=int, default=1000, help="the first photo's seed (tuning: 5000)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.ink:
        PHOTO_OPTIONS["ink"] = args.ink
    if args.crease:
        PHOTO_OPTIONS["crease"] = args.crease
    if args.fade:
        synth_ink.FADE = synth_ink.FADED_STRETCH
    synth_ink.OVER_EDGE = args.over_edge
    if args.tall:
        synth_ink.DIGIT_HEIGHT, synth_ink.DIGIT_FIT = synth_ink.TALL_DIGITS, 1.0
    if args.circles == "tight":
        synth_ink.CIRCLE_SIZE = synth_ink.TIGHT_CIRCLE
    elif args.circles == "big":
        synth_ink.CIRCLE_SIZE = synth_ink.BIG_CIRCLE
    elif args.circles == "round":
        synth_ink.CIRCLE_SIZE = synth_ink.ROUND_CIRCLE
    elif args.circles == "offset":
        synth_ink.CIRCLE_SHIFT = synth_ink.OFFSET_CIRCLE
    elif args.circles == "open":
        synth_ink.CIRCLE_SWEEP = synth_ink.OPEN_CIRCLE
    if args.joined:
        synth_ink.PAIR_GAP = synth_ink.JOINED_GAP
    print(f"machine: {machine()}")
    if args.calibrate:
        cells, _, failures, by_mp = evaluate(range(5000, 5000 + args.photos))
        print(f"calibration set: {args.photos} photos, {len(cells)} cells, {len(failures)} unreadable")
        print("threshold  flagged  wrong-unflagged  filled-right-or-flagged")
        for threshold in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
            f = figures([(t, v, c, c < threshold) for t, v, c, _ in cells])
            print(f"{threshold:9.2f}  {f['flagged']:7.2%}  {f['wrong and not flagged']:15.2%}  "
                  f"{f['filled right or flagged']:.2%}")
        for mp in sorted(by_mp):
            f = figures(by_mp[mp])
            print(f"  {mp:4.0f} MP: filled right {f['filled read right']:.2%}, wrong unflagged "
                  f"{f['wrong and not flagged']:.2%}, flagged {f['flagged']:.2%}")
        return
    cells, timings, failures, by_mp = evaluate(range(args.first_seed, args.first_seed + args.photos), writers=args.writers,
                                               cache=args.cache)
    print(f"held-out set: {args.photos} photos across {', '.join(SHEETS)}; {len(cells)} cells; "
          f"{len(failures)} photos unreadable {failures}; writers: {args.writers or 'held-out MNIST'}")
    for name, value in figures(cells).items():
        print(f"  {name}: {value:.2%}" if isinstance(value, float) else f"  {name}: {value}")
    print("by cell kind (of the filled cells of that kind):")
    print_kinds(cells)
    sharp = figures([c for mp, cells_of in by_mp.items() if mp >= 4 for c in cells_of])
    print(f"  photos of 4 MP and more: filled right {sharp['filled read right']:.2%}, wrong unflagged "
          f"{sharp['wrong and not flagged']:.2%}, flagged {sharp['flagged']:.2%}")
    issue = [c for mp, cells_of in by_mp.items() if mp >= 2 for c in cells_of]
    if issue:
        f = figures(issue)
        print(f"photos of 2 MP and more (the sizes of issue 15's hidden set): {len(issue)} cells, filled right "
              f"{f['filled read right']:.2%}, wrong unflagged {f['wrong and not flagged']:.2%}, "
              f"flagged {f['flagged']:.2%}; by cell kind:")
        print_kinds(issue)
    print("by photo size:")
    for mp in sorted(by_mp):
        f = figures(by_mp[mp])
        print(f"  {mp:4.0f} MP: {f['cells']} cells, filled right {f['filled read right']:.2%}, wrong unflagged "
              f"{f['wrong and not flagged']:.2%}, flagged {f['flagged']:.2%}, blanks {f['blank read blank']:.2%}")
    stages = timings[0].keys() if timings else ()
    print(f"12 MP photos: {len(timings)}; median ms per stage (one core):")
    for stage in stages:
        print(f"  {stage}: {statistics.median(t[stage] for t in timings):.0f}")


if __name__ == "__main__":
    main()
