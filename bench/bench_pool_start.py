"""Issue 15 item 4: what starting `--jobs 2`'s workers costs before their first photo, in a
fresh process as the command line starts it: the command line's imports, then a pool of two
workers handed two trivial items (so the time is the workers' start, not reading).

    python bench/bench_pool_start.py --rounds 7
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

PROBE = """
import os.path, time
t0 = time.perf_counter()
import rnwprint.cli
from rnwprint.batch import Ordered
t1 = time.perf_counter()
list(Ordered(os.path.basename, ["a/b", "c/d"], 2))
print(1000 * (t1 - t0), 1000 * (time.perf_counter() - t1))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    runs = [subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout.split()
            for _ in range(args.rounds)]
    imports, pool = (statistics.median(float(run[i]) for run in runs) for i in (0, 1))
    print(f"command line imports {imports:.0f} ms; pool of 2 workers to its first results {pool:.0f} ms "
          f"(median of {args.rounds} processes)")


if __name__ == "__main__":
    main()
