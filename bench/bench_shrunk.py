"""Issue 15 figure: photos a messaging app shrank. Boxes read wrong without a flag, and
flagged, by how finely the photo sees the page (px/mm).

    python bench/bench_shrunk.py                      # 40 photos (seeds 100-139), 8 sizes each
    python bench/bench_shrunk.py --first-seed 300 --photos 20

Each seed's sheet (the four sheets in turn, their first variant, English, A4; random marks,
circled numbers on the maps, half the tick boxes ticked) is photographed at 12 MP by the test
generator (tests/support/synth.py), then shrunk to 800-1800 px on its long side (OpenCV's
INTER_AREA) and saved as a JPEG of quality 70, as a messaging app sends a photo. Every box of
every copy is read and compared with what was written.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import sys
import tempfile

import cv2
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import machine  # noqa: E402

from rnwprint.games import GAMES  # noqa: E402
from rnwprint.photo.pipeline import read_photo  # noqa: E402
from support import synth  # noqa: E402  (tests/support, on sys.path through common)

SHEETS = ("twenty-one", "rolling-america", "roll-to-the-top", "rolling-espana")
SIDES = (800, 900, 1024, 1152, 1280, 1440, 1600, 1800)
BINS = (0.0, 1.4, 1.6, 1.8, 2.0, 2.25, 2.5, 3.0)


def marked(seed: int):
    name = SHEETS[seed % len(SHEETS)]
    game = GAMES[name]
    sheet = game.build(game.variants[0], "en", "a4")
    marks = synth.random_marks(sheet, seed, circled=0.08 if game.allows_guarded else 0.0)
    rng = np.random.default_rng(seed)
    for cell in sheet.cells.values():
        if cell.kind == "tick" and rng.uniform() < 0.5:
            marks[cell.id] = True
    return sheet, marks


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--first-seed", type=int, default=100)
    parser.add_argument("--photos", type=int, default=40)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"machine: {machine()}")
    bins = collections.defaultdict(lambda: [0, 0, 0])  # bin -> boxes, wrong and not flagged, flagged
    refused = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "sent.jpg"
        for seed in range(args.first_seed, args.first_seed + args.photos):
            sheet, marks = marked(seed)
            photo = cv2.imdecode(np.frombuffer(synth.make_photo(sheet, marks, seed=seed, megapixels=12), np.uint8),
                                 cv2.IMREAD_COLOR)
            for side in SIDES:
                f = side / max(photo.shape[:2])
                cv2.imwrite(str(path), cv2.resize(photo, None, fx=f, fy=f, interpolation=cv2.INTER_AREA),
                            [cv2.IMWRITE_JPEG_QUALITY, 70])
                try:
                    result = read_photo(path)
                except Exception:  # the page not found: said as a refusal, counted apart
                    refused += 1
                    continue
                b = max(x for x in BINS if x <= result.photo_px_per_mm)
                for cid, read in result.reads.items():
                    truth = bool(marks.get(cid)) if sheet.cells[cid].kind == "tick" else marks.get(cid)
                    bins[b][0] += 1
                    bins[b][1] += read.value != truth and not read.unsure
                    bins[b][2] += read.unsure
    print(f"{args.photos} photos (seeds {args.first_seed}-{args.first_seed + args.photos - 1}), each shrunk to "
          f"{', '.join(map(str, SIDES))} px; {refused} copies refused")
    print("px/mm        boxes   wrong, not flagged   flagged")
    for k, lo in enumerate(BINS):
        if lo in bins:
            n, silent, flagged = bins[lo]
            hi = BINS[k + 1] if k + 1 < len(BINS) else None
            span = f"{lo:.2f}-{hi:.2f}" if hi else f"{lo:.2f}-    "
            print(f"{span:10s} {n:7d}   {silent:6d} ({silent / n:6.2%})   {flagged / n:7.2%}")


if __name__ == "__main__":
    main()
