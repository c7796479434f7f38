"""Issue 15 part 3 figures: how the reader copes with a photo taken too bright or too dark.

    python bench/bench_light.py               # 20 photos (seeds 7000-7019), 7 exposures each
    python bench/bench_light.py --photos 8 --factors 3,4
    python bench/bench_light.py --as-before     # every cell judged as if in normal light
    python bench/bench_light.py --factors 1 --noise 8,12,18,25,35   # grainy photos too

Each photo (bench_photo's generator: the four sheets in turn, 1-12 MP, random tilt, light,
shadow, blur, noise) is decoded, every pixel value multiplied by the factor and clipped at
255 (x3 and x4 wash the paper out to white; x0.03 leaves grey levels 0-8), and encoded again
as a JPEG of quality 95; with --noise, each photo is also read with sensor noise of that many
grey levels added (a phone in dim light; --no-grain reads them as before the grain check).
For each exposure and noise: the cells read right, read wrong without a flag,
flagged for a person to check, and the filled cells read as blank. The seeds are neither
bench_photo's held-out seeds (1000-1099) nor its calibration seeds (5000-).
"""

from __future__ import annotations

import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import cv2  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from bench_photo import photo_set, truth_of  # noqa: E402
from common import exposed, grainy, machine  # noqa: E402

from rnwprint.core.errors import RnwError  # noqa: E402
from rnwprint.photo import read as photo_read  # noqa: E402
from rnwprint.photo.pipeline import read_photo  # noqa: E402

FACTORS = (0.03, 0.1, 0.3, 1.0, 2.0, 3.0, 4.0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=7000)
    parser.add_argument("--factors", default=",".join(map(str, FACTORS)))
    parser.add_argument("-v", "--verbose", action="store_true", help="print every wrong or flagged cell")
    parser.add_argument("--as-before", action="store_true",
                        help="read as before issue 15: no cell judged by its light (the 'before' figures)")
    parser.add_argument("--noise", default="", help="noise levels (grey levels) to add, e.g. 8,12,18,25,35")
    parser.add_argument("--no-grain", action="store_true", help="read as before the grain check (no ink._grain)")
    args = parser.parse_args()
    if args.as_before:
        photo_read._exposure = lambda *_: ("", 1.0)
    if args.no_grain:
        photo_read._grain = lambda dark: 0.0
    factors = [float(f) for f in args.factors.split(",")]
    variants = {f"x{f:g}": (lambda jpeg, f=f: exposed(jpeg, f)) for f in factors}
    variants.update({f"noise {s:g}": (lambda jpeg, s=s: grainy(jpeg, s))
                     for s in (float(n) for n in args.noise.split(",") if n)})
    cv2.setNumThreads(1)
    print(f"machine: {machine()}")
    counts = {v: dict(cells=0, filled=0, right=0, silent=0, flagged=0, lost=0, refused=0) for v in variants}
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        for path, sheet, marks, _ in photo_set(range(args.first_seed, args.first_seed + args.photos), folder):
            original = path.read_bytes()
            for name, change in variants.items():
                c = counts[name]
                shot = folder / "shot.jpg"
                shot.write_bytes(change(original))
                try:
                    result = read_photo(shot)
                except RnwError as e:  # refused with a reason: every cell counts as flagged
                    c["refused"] += 1
                    c["cells"] += len(sheet.cells)
                    c["flagged"] += len(sheet.cells)
                    c["filled"] += sum(truth_of(sheet, marks, cid) not in (None, False) for cid in sheet.cells)
                    if args.verbose:
                        print(f"  {name} {path.name}: refused: {e}")
                    continue
                for cid, read in result.reads.items():
                    truth = truth_of(sheet, marks, cid)
                    c["cells"] += 1
                    filled = truth not in (None, False)
                    c["filled"] += filled
                    c["right"] += read.value == truth
                    c["silent"] += read.value != truth and not read.unsure
                    c["flagged"] += read.unsure
                    c["lost"] += filled and read.value in (None, False)
                    if args.verbose and (read.unsure or read.value != truth):
                        print(f"  {name} {path.name} {cid}: truth {truth!r} read {read.value!r} "
                              f"{'flagged: ' + read.why if read.unsure else 'NOT FLAGGED'}")
    print(f"{args.photos} photos (seeds {args.first_seed}-{args.first_seed + args.photos - 1}), "
          "every cell; a refused photo counts all its cells as flagged")
    print("| exposure or noise | cells | read right | wrong, not flagged | flagged | filled read blank "
          "| photos refused |")
    print("|---|---|---|---|---|---|---|")
    for name, c in counts.items():
        n = max(c["cells"], 1)
        print(f"| {name} | {c['cells']} | {c['right'] / n:.1%} | {c['silent']} ({c['silent'] / n:.2%}) | "
              f"{c['flagged'] / n:.1%} | {c['lost']} of {c['filled']} | {c['refused']} |")


if __name__ == "__main__":
    main()
