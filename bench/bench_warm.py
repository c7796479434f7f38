"""Issue 15 figure: CPU ms per 12 MP photo read warm, on one core, stage by stage.

    python bench/bench_warm.py                 # 3 photos of each sheet kind, 5 rounds
    python bench/bench_warm.py --photos 2 --rounds 3 --profile twenty-one   # and a cProfile of one
    python bench/bench_warm.py --baseline /tmp/old --sheets twenty-one roll-to-the-top --turns 3

One process reads N generated 12 MP photos (tests/support/synth.py, handwriting, tilt, light,
curl, JPEG) of each of the four sheets (each its default variant, English, A4, as a
tournament's photos are of one sheet: the reader keeps the print of the last 8 sheets), once untimed (the sheet built, the networks loaded,
OpenCV's code warm), then `rounds` times. The stages are the read's own `timings_ms`, but
measured with the process's CPU clock instead of the wall clock (the machine is shared: CPU
time is what one core spends); OpenCV and BLAS run one thread. Medians per sheet kind over
all photos and rounds.

With --baseline DIR (a checkout of another commit, `git archive COMMIT | tar -x -C DIR`) the
same photo files are read, in turns (`--turns`), by a process of this checkout and one with
PYTHONPATH=DIR, so machine noise hits both alike; each read is timed from outside with the
CPU clock (an older reader may not time its stages), and the ratio of the medians is printed,
and the median over the turns of each turn's ratio of the CPU both spent on the same reads
(a turn's two processes run back to back, so a slow phase of the machine hits both, and a
large file's slower decoding weighs in each turn alike: the steadier figure on a busy
machine).
Only sheets whose layout both checkouts read can be compared (`--sheets`).
"""

from __future__ import annotations

import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

import argparse  # noqa: E402
import cProfile  # noqa: E402
import json  # noqa: E402
import pathlib  # noqa: E402
import pstats  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import machine  # noqa: E402

SHEETS = ("twenty-one", "rolling-america", "rolling-espana", "roll-to-the-top")


def make_photos(folder: pathlib.Path, sheets, photos: int, megapixels: float) -> dict[str, list[pathlib.Path]]:
    from rnwprint.games import GAMES
    from support.synth import random_marks, synthesize  # tests/support, on sys.path through common

    made: dict[str, list[pathlib.Path]] = {}
    for name in sheets:
        k = SHEETS.index(name)
        game = GAMES[name]
        for i in range(photos):
            seed = 100 * k + i
            sheet = game.build(game.default_variant, "en", "a4")
            photo = synthesize(sheet, random_marks(sheet, seed), seed=seed, megapixels=megapixels)
            path = folder / f"{name}-{i}.jpg"
            path.write_bytes(photo.jpeg)
            made.setdefault(name, []).append(path)
    return made


def read_all(photos: dict[str, list[pathlib.Path]], rounds: int) -> dict[str, list[dict[str, float]]]:
    """Each photo read once untimed, then `rounds` times: {sheet: [timings, ...]}, each with
    "cpu", the read's CPU ms measured from outside."""
    import cv2

    from rnwprint.photo.pipeline import read_photo

    cv2.setNumThreads(1)
    time.perf_counter = time.process_time  # the read times its stages with this clock
    for paths in photos.values():  # warm: sheets built, networks loaded
        for path in paths:
            read_photo(path)
    timings: dict[str, list[dict[str, float]]] = {name: [] for name in photos}
    for _ in range(rounds):
        for name, paths in photos.items():
            for path in paths:
                start = time.process_time()
                stages = dict(read_photo(path).timings)
                timings[name].append({**stages, "cpu": (time.process_time() - start) * 1000})
    return timings


def read_elsewhere(code: pathlib.Path | None, photos, rounds: int):
    """read_all in a fresh process of the checkout `code` (None: this one)."""
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code.resolve())
    listing = json.dumps({name: [str(p) for p in paths] for name, paths in photos.items()})
    done = subprocess.run([sys.executable, str(pathlib.Path(__file__).resolve()), "--read", listing,
                           "--rounds", str(rounds)], env=env, capture_output=True, text=True,
                          cwd=tempfile.gettempdir(), check=False)
    if done.returncode != 0:
        raise SystemExit(f"reading with {code or 'this checkout'} failed: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout)


def cpu_ms(turns) -> list[float]:
    """The CPU ms of every read in these turns (each a read_all result)."""
    return [t["cpu"] for turn in turns for reads in turn.values() for t in reads]


def table(timings: dict[str, list[dict[str, float]]]) -> None:
    stages = [s for s in dict.fromkeys(k for runs in timings.values() for t in runs for k in t) if s != "cpu"]
    print(f"{'sheet':16s}" + "".join(f"{s:>11s}" for s in stages))
    for name, runs in timings.items():
        print(f"{name:16s}" + "".join(f"{statistics.median(t.get(s, 0.0) for t in runs):11.1f}" for s in stages))
    print("the least of each (the run the other processes on the machine disturbed least):")
    for name, runs in timings.items():
        print(f"{name:16s}" + "".join(f"{min(t.get(s, 0.0) for t in runs):11.1f}" for s in stages))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=3, help="photos of each sheet kind")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--megapixels", type=float, default=12.0)
    parser.add_argument("--sheets", nargs="+", choices=SHEETS, default=list(SHEETS))
    parser.add_argument("--profile", choices=SHEETS, help="also print a cProfile of reading this sheet's photos")
    parser.add_argument("--baseline", type=pathlib.Path, help="another checkout, read side by side (PYTHONPATH)")
    parser.add_argument("--turns", type=int, default=3, help="with --baseline: processes of each, in turns")
    parser.add_argument("--read", help=argparse.SUPPRESS)  # a child: read these photos, print the timings
    args = parser.parse_args()
    if args.read:
        photos = {name: [pathlib.Path(p) for p in paths] for name, paths in json.loads(args.read).items()}
        print(json.dumps(read_all(photos, args.rounds)))
        return
    folder = tempfile.TemporaryDirectory()
    photos = make_photos(pathlib.Path(folder.name), args.sheets, args.photos, args.megapixels)
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f}; OpenCV and BLAS on 1 thread")
    print(f"{args.photos} photos of each sheet at {args.megapixels:g} MP, {args.rounds} rounds warm; "
          "CPU ms per photo, medians")
    if args.baseline:
        runs = {"this": [], "baseline": []}
        for turn in range(args.turns):
            # each checkout first in every other turn: the process run first in a pair was
            # measured up to 10 % slower than the same code run second (BENCHMARKS.md)
            for who in ("this", "baseline")[::1 if turn % 2 == 0 else -1]:
                runs[who].append(read_elsewhere(None if who == "this" else args.baseline, photos, args.rounds))
        medians = {}
        for who, turns in runs.items():
            medians[who] = statistics.median(cpu_ms(turns))
            by_turn = ", ".join(f"{statistics.median(cpu_ms([turn])):.1f}" for turn in turns)
            print(f"{who}: {medians[who]:.1f} CPU ms median per photo (turns: {by_turn})")
        print(f"this / baseline: {medians['this'] / medians['baseline']:.3f}")
        ratios = [statistics.fmean(cpu_ms([a])) / statistics.fmean(cpu_ms([b]))
                  for a, b in zip(runs["this"], runs["baseline"])]
        print(f"median of the turns' ratios (each turn's CPU for the same reads, its pair run back to back): "
              f"{statistics.median(ratios):.3f} ({', '.join(f'{r:.3f}' for r in ratios)})")
        print("this checkout's stages, all turns:")
        table({name: [t for turn in runs["this"] for t in turn[name]] for name in args.sheets})
        return
    timings = read_all(photos, args.rounds)
    table(timings)
    every = [t["total"] for runs in timings.values() for t in runs]
    print(f"all photos: total {statistics.median(every):.1f} CPU ms median (target <= 60)")
    if args.profile:
        from rnwprint.photo.pipeline import read_photo

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
