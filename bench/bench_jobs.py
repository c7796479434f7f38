"""Issue 15 figure: photos per minute of `rnwprint read --jobs 2` on 2 cores against
`--jobs 1` on one core, whole processes (cold start included), run in turns.

    python bench/bench_jobs.py                # 12 photos (seeds 1000-1011), 5 rounds
    python bench/bench_jobs.py --photos 300   # a tournament's batch (seeds 1000-1299)
    python bench/bench_jobs.py --photos 100 --rounds 3 --baseline /tmp/old   # in turns with another checkout

The photos are bench_photo.py's held-out set (the four sheets, 1-12 MP). The one-core run is
pinned to one CPU; OpenCV and BLAS run one thread each in both (the pool's workers always do).
Before the timed rounds the whole set is read once, untimed, by each checkout: the sheets are
then on disk (rnwprint.cache), as in a tournament after its first photo of each sheet.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from bench_photo import photo_set
from common import machine

ONE_THREAD = {var: "1" for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}


def run(photos: list[pathlib.Path], jobs: int, cpus: set[int], code: str | None = None) -> float:
    """Seconds of one whole `rnwprint read --jobs N` process on the given CPUs (with `code`,
    the rnwprint of that checkout). It runs in the photos' folder: `python -m` puts its folder
    first on sys.path, where a checkout's own rnwprint would win over PYTHONPATH."""
    argv = [sys.executable, "-m", "rnwprint", "read", "--jobs", str(jobs), *map(str, photos)]
    env = {**os.environ, **ONE_THREAD, **({"PYTHONPATH": code} if code else {})}
    start = time.perf_counter()
    done = subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=photos[0].parent,
                          env=env, preexec_fn=lambda: os.sched_setaffinity(0, cpus))
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 2):  # 2: some photo refused, as in bench_photo.py's failures
        raise SystemExit(f"rnwprint read --jobs {jobs} exited {done.returncode}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--this", type=pathlib.Path, default=None,
                        help="the checkout to measure (default: the installed rnwprint)")
    parser.add_argument("--baseline", type=pathlib.Path, default=None,
                        help="another checkout (PYTHONPATH), run in turns with this one")
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise SystemExit("needs 2 CPUs")
    codes = {"this": str(args.this.resolve()) if args.this else None, **({"baseline": str(args.baseline.resolve())} if args.baseline else {})}
    with tempfile.TemporaryDirectory() as tmp:
        photos = [path for path, *_ in photo_set(range(1000, 1000 + args.photos), pathlib.Path(tmp))]
        for code in codes.values():  # once untimed: the sheets are built and kept on disk (rnwprint.cache)
            run(photos, 1, {cpus[0]}, code)
        times = {name: ([], []) for name in codes}
        for _ in range(args.rounds):  # in turns, so machine noise hits all alike
            for name, code in codes.items():
                times[name][0].append(run(photos, 1, {cpus[0]}, code))
                times[name][1].append(run(photos, 2, set(cpus[:2]), code))
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f} at the end")
    print(f"{len(photos)} photos (seeds 1000-{999 + len(photos)}), median of {args.rounds} whole processes each")
    for name, (one, two) in times.items():
        per_minute = [60 * len(photos) / statistics.median(t) for t in (one, two)]
        print(f"{name}{'' if name == 'this' else f' ({args.baseline})'}:")
        print(f"  --jobs 1 on 1 core : {statistics.median(one):6.2f} s  {per_minute[0]:6.1f} photos/min")
        print(f"  --jobs 2 on 2 cores: {statistics.median(two):6.2f} s  {per_minute[1]:6.1f} photos/min")
        print(f"  speed-up: {per_minute[1] / per_minute[0]:.2f}x (target >= 1.8x)")
        print(f"  each round, 1 core / 2 cores: {', '.join(f'{a:.2f}/{b:.2f} s' for a, b in zip(one, two))}")


if __name__ == "__main__":
    main()
