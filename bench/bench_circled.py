"""Circled (guarded) numbers, many of them: how they read, why they are flagged, by photo size.

    python bench/bench_circled.py                          # tuning photos, seeds 8000-8079
    python bench/bench_circled.py --first-seed 8500        # held-out photos, seeds 8500-8579
    python bench/bench_circled.py --writers uci --cache DIR
    python bench/bench_circled.py --circles round          # circles round the box, clear of it
    python bench/bench_circled.py --circles faint-round    # the same in a faint grey pencil

bench_photo.py's photos hold about one circled number in twelve map cells; these hold one in
three. Each seed is a Rolling America or Rolling España sheet (in turn; Spanish or English, A4
or Letter), 60 % of its boxes filled (5 % crosses, 40 % circled numbers), photographed by
tests/support/synth.py at 2, 4, 8 or 12 MP (the sizes of issue 15's hidden set), written by
held-out MNIST writers or --writers (as bench_photo.py). Printed: circled and other filled
cells read right / wrong and not flagged / flagged, circles lost without a flag, by photo
size, and the reasons circled cells were flagged for.
"""

from __future__ import annotations

import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse  # noqa: E402
import collections  # noqa: E402
import pathlib  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from bench_photo import writers_npz  # noqa: E402
from common import machine  # noqa: E402

from rnwprint.core.entries import CROSSED, Guarded  # noqa: E402
from rnwprint.games import GAMES  # noqa: E402
from rnwprint.photo.pipeline import read_photo  # noqa: E402
from support import synth, synth_ink  # noqa: E402  (tests/support, on sys.path through common)

MEGAPIXELS = (2.0, 4.0, 8.0, 12.0)


def photos(seeds, folder: pathlib.Path, handwriting=None):
    """(path, marks, megapixels) of each seed's photo."""
    for seed in seeds:
        name = ("rolling-america", "rolling-espana")[seed % 2]
        game = GAMES[name]
        sheet = game.build(game.variants[0], ("es", "en")[(seed // 2) % 2], ("a4", "letter")[(seed // 4) % 2])
        marks = synth.random_marks(sheet, seed, share=0.6, crosses=0.05, circled=0.4)
        megapixels = float(np.random.default_rng(seed).choice(MEGAPIXELS))
        path = folder / f"{seed}.jpg"
        path.write_bytes(synth.make_photo(sheet, marks, seed=seed, megapixels=megapixels, handwriting=handwriting))
        yield path, marks, megapixels


def figures(rows) -> str:
    n = len(rows)
    if not n:
        return "no cells"
    right = sum(t == v for t, v, _, _ in rows)
    silent = sum(t != v and not u for t, v, u, _ in rows)
    flagged = sum(u for _, _, u, _ in rows)
    lost = sum(isinstance(t, Guarded) and not isinstance(v, Guarded) and not u for t, v, u, _ in rows)
    return (f"{n} cells: right {right / n:.2%}, wrong and not flagged {silent / n:.2%} ({silent}), "
            f"flagged {flagged / n:.2%}, circles lost without a flag {lost}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=80)
    parser.add_argument("--first-seed", type=int, default=8000)
    parser.add_argument("--writers", help="as bench_photo.py: uci, fonts, npm-fonts, mnist-test or european")
    parser.add_argument("--cache", help="as bench_photo.py")
    parser.add_argument("--circles", choices=("edge", "big", "round", "faint", "faint-round"), default="edge",
                        help="guard circles round the box's edge, out over it, clear of it (bench_photo.py's), "
                             "round the edge in a faint grey pencil, or round the box, clear of it, faint")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    synth_ink.CIRCLE_SIZE = {"big": synth_ink.BIG_CIRCLE, "round": synth_ink.ROUND_CIRCLE,
                             "faint-round": synth_ink.ROUND_CIRCLE}.get(args.circles, synth_ink.CIRCLE_SIZE)
    if args.circles in ("faint", "faint-round"):
        synth_ink.CIRCLE_INK = synth_ink.FAINT_CIRCLE
    print(f"machine: {machine()}")
    kinds = collections.defaultdict(list)  # (kind, megapixels) -> (truth, read, unsure, why)
    with tempfile.TemporaryDirectory() as tmp:
        handwriting = writers_npz(args.writers, args.cache, pathlib.Path(tmp)) if args.writers else None
        seeds = range(args.first_seed, args.first_seed + args.photos)
        for path, marks, megapixels in photos(seeds, pathlib.Path(tmp), handwriting):
            for cid, read in read_photo(path).reads.items():
                truth = marks.get(cid)
                if truth is None or isinstance(truth, bool):
                    continue
                kind = "circled" if isinstance(truth, Guarded) else "crosses" if truth == CROSSED else "plain"
                kinds[kind, megapixels].append((truth, read.value, read.unsure, read.why))
    print(f"{args.photos} photos (seeds {seeds[0]}-{seeds[-1]}), writers: {args.writers or 'held-out MNIST'}, "
          f"circles: {args.circles}")
    for kind in ("circled", "plain", "crosses"):
        print(f"{kind}: {figures([r for (k, _), rows in kinds.items() if k == kind for r in rows])}")
        for megapixels in MEGAPIXELS:
            if rows := kinds.get((kind, megapixels)):
                print(f"  {megapixels:4.0f} MP: {figures(rows)}")
    reasons = collections.Counter(re.sub(r"\d+", "N", part) for (k, _), rows in kinds.items() if k == "circled"
                                  for _, _, unsure, why in rows if unsure for part in why.split("; "))
    print("circled cells flagged, by reason:")
    for why, count in reasons.most_common():
        print(f"  {count:4d}  {why}")


if __name__ == "__main__":
    main()
