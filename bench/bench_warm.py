"""Issue 15 figure: CPU ms per 12 MP photo read warm, on one core, stage by stage.

    python bench/bench_warm.py                 # 3 photos of each sheet kind, 5 rounds
    python bench/bench_warm.py --photos 2 --rounds 3 --profile twenty-one   # and a cProfile of one

One process reads N generated 12 MP photos (tests/support/synth.py, handwriting, tilt, light,
curl, JPEG) of each of the four sheets (each its default variant, English, A4, as a
tournament's photos are of one sheet: the reader keeps the print of the last 8 sheets), once untimed (the sheet built, the networks loaded,
OpenCV's code warm), then `rounds` times. The stages are the read's own `timings_ms`, but
measured with the process's CPU clock instead of the wall clock (the machine is shared: CPU
time is what one core spends); OpenCV and BLAS run one thread. Medians per sheet kind over
all photos and rounds.
"""

from __future__ import annotations

import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

import argparse  # noqa: E402
import cProfile  # noqa: E402
import pathlib  # noqa: E402
import pstats  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import cv2  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import machine  # noqa: E402

from rnwprint.games import GAMES  # noqa: E402
from rnwprint.photo.pipeline import read_photo  # noqa: E402
from support.synth import random_marks, synthesize  # noqa: E402  (tests/support, on sys.path through common)

SHEETS = ("twenty-one", "rolling-america", "rolling-espana", "roll-to-the-top")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=3, help="photos of each sheet kind")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--megapixels", type=float, default=12.0)
    parser.add_argument("--profile", choices=SHEETS, help="also print a cProfile of reading this sheet's photos")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    # the read times its stages with time.perf_counter: here that clock is the CPU's
    time.perf_counter = time.process_time
    folder = tempfile.TemporaryDirectory()
    photos: dict[str, list[pathlib.Path]] = {}
    for k, name in enumerate(SHEETS):
        game = GAMES[name]
        for i in range(args.photos):
            seed = 100 * k + i
            sheet = game.build(game.default_variant, "en", "a4")
            photo = synthesize(sheet, random_marks(sheet, seed), seed=seed, megapixels=args.megapixels)
            path = pathlib.Path(folder.name, f"{name}-{i}.jpg")
            path.write_bytes(photo.jpeg)
            photos.setdefault(name, []).append(path)
    for paths in photos.values():  # warm: sheets built, networks loaded
        for path in paths:
            read_photo(path)
    timings: dict[str, list[dict[str, float]]] = {name: [] for name in SHEETS}
    for _ in range(args.rounds):
        for name, paths in photos.items():
            for path in paths:
                timings[name].append(read_photo(path).timings)
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f}; OpenCV {cv2.__version__} on 1 thread")
    print(f"{args.photos} photos of each sheet at {args.megapixels:g} MP, {args.rounds} rounds warm; "
          "CPU ms per photo, medians")
    stages = list(dict.fromkeys(k for runs in timings.values() for t in runs for k in t))
    print(f"{'sheet':16s}" + "".join(f"{s:>11s}" for s in stages))
    for name, runs in timings.items():
        print(f"{name:16s}" + "".join(f"{statistics.median(t.get(s, 0.0) for t in runs):11.1f}" for s in stages))
    print("the least of each (the run the other processes on the machine disturbed least):")
    for name, runs in timings.items():
        print(f"{name:16s}" + "".join(f"{min(t.get(s, 0.0) for t in runs):11.1f}" for s in stages))
    every = [t["total"] for runs in timings.values() for t in runs]
    print(f"all photos: total {statistics.median(every):.1f} CPU ms median (target <= 60)")
    if args.profile:
        profile = cProfile.Profile(time.process_time)
        profile.enable()
        for _ in range(args.rounds):
            for path in photos[args.profile]:
                read_photo(path)
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(45)
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
