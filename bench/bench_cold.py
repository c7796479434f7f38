"""Issue 15 figure: one 12 MP photo read by a fresh `rnwprint read` process, per stage.

    python bench/bench_cold.py                          # 7 rounds, the four sheets
    python bench/bench_cold.py --rounds 11 --baseline /tmp/old   # side by side with another checkout
    python bench/bench_cold.py --this /tmp/new --baseline /tmp/old  # two checkouts, neither installed

Each round runs, for each photo in turn (one per sheet: Twenty One, Rolling America, Rolling
España, Roll to the Top, 12 MP), `python -m rnwprint read --json --jobs 1 PHOTO` pinned to one
CPU (OpenCV and BLAS on one thread), and a bare `python -c pass` for the interpreter's own
start. With --clock cpu every figure is CPU time instead (the process's from outside, and
the reader's stages from inside, its clock swapped for a CPU-time one): on a shared machine
other processes stretch wall-clock times, CPU times far less. With --baseline DIR the same is run with PYTHONPATH=DIR (a checkout of another commit:
`git archive COMMIT | tar -x -C DIR`) right after each, so machine noise hits both alike.

Printed: medians over the rounds of the whole process (wall, from outside), of each stage of
`timings_ms` (the read; the stages add up to its total), and of what lies outside the read:
the interpreter's start, and the imports before reading, the arguments and the output (the
process less the read less the interpreter's start). The photos are made by the checkout being
measured (DIR's own layouts for the baseline).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import machine

SHEETS = ("twenty-one", "rolling-america", "rolling-espana", "roll-to-the-top")
ONE_THREAD = {var: "1" for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
MAKE = """
import pathlib, sys
from rnwprint.games import GAMES
from support import synth  # tests/support: on PYTHONPATH (maker_environment)
out = pathlib.Path(sys.argv[1])
for seed, name in enumerate(sys.argv[2:], start=3000):
    game = GAMES[name]
    sheet = game.build(game.default_variant, "en", "a4")
    marks = synth.random_marks(sheet, seed, circled=0.08 if game.allows_guarded else 0.0)
    (out / f"{name}.jpg").write_bytes(synth.make_photo(sheet, marks, seed=seed, megapixels=12.0))
"""


def environment(code: str | None) -> dict[str, str]:
    env = {**os.environ, **ONE_THREAD}
    if code:
        env["PYTHONPATH"] = code
    return env


def maker_environment(code: str | None) -> dict[str, str]:
    """environment(code), with this checkout's tests/ on the path: the photos are made by its
    test-photo generator (tests/support/synth.py), whichever rnwprint reads them."""
    env = environment(code)
    tests = str(pathlib.Path(__file__).resolve().parent.parent / "tests")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [code, tests]))
    return env


#: what `rnwprint read` imports before it reads: the command line, then the reader
IMPORTS = """
import json, sys, time
clock = time.process_time if sys.argv[-1:] == ["cpu"] else time.perf_counter
start = clock()
import rnwprint.cli
cli = clock()
import rnwprint.photo.pipeline
print(json.dumps({"cli": (cli - start) * 1000, "reader": (clock() - cli) * 1000}))
"""
#: `rnwprint read` itself, with every clock of the reader made a CPU-time clock
CPU_CLOCK = "import sys, time; time.perf_counter = time.process_time; from rnwprint.cli import main; main(sys.argv[1:])"


def run(argv: list[str], env: dict[str, str], cpu: int) -> tuple[float, str]:
    """(ms, stdout) of one whole process on one CPU: wall-clock ms, or with --clock cpu the
    CPU ms the process spent (user and system)."""
    start, used = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False, cwd=NEUTRAL,
                          preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()[-300:]}")
    if CLOCK == "cpu":
        return (after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime) * 1000, done.stdout
    return wall, done.stdout


CLOCK = "wall"
#: the children run here: `python -c`/`-m` put their folder first on sys.path, where a
#: checkout's own rnwprint would win over PYTHONPATH
NEUTRAL = tempfile.gettempdir()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--baseline", type=pathlib.Path, default=None,
                        help="another checkout, run side by side (PYTHONPATH)")
    parser.add_argument("--this", type=pathlib.Path, default=None,
                        help="the checkout to measure (default: the installed rnwprint)")
    parser.add_argument("--sheets", nargs="+", choices=SHEETS, default=SHEETS, help="only these sheets")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="cpu: every time in CPU ms (the reader's clocks too): what a busy machine shows best")
    parser.add_argument("--cpu", type=int, default=None, help="the CPU to pin to (default: the last)")
    args = parser.parse_args()
    global CLOCK
    CLOCK = args.clock
    read = (["-c", CPU_CLOCK] if CLOCK == "cpu" else ["-m", "rnwprint"]) + ["read", "--json", "--jobs", "1"]
    cpu = args.cpu if args.cpu is not None else max(os.sched_getaffinity(0))
    codes = {"this": str(args.this.resolve()) if args.this else None, **({"baseline": str(args.baseline.resolve())} if args.baseline else {})}
    print(f"machine: {machine()}; pinned to CPU {cpu}, load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory() as tmp:
        folders = {}
        for name, code in codes.items():
            folders[name] = pathlib.Path(tmp, name)
            folders[name].mkdir()
            subprocess.run([sys.executable, "-c", MAKE, str(folders[name]), *args.sheets], env=maker_environment(code), check=True,
                           cwd=NEUTRAL)
        results = {name: {sheet: [] for sheet in args.sheets} for name in codes}
        bare, imports = [], {name: [] for name in codes}
        for _ in range(args.rounds):
            bare.append(run([sys.executable, "-c", "pass"], environment(None), cpu)[0])
            for name, code in codes.items():
                imports[name].append(json.loads(run([sys.executable, "-c", IMPORTS, CLOCK], environment(code), cpu)[1]))
            for sheet in args.sheets:
                for name, code in codes.items():  # in turns
                    photo = folders[name] / f"{sheet}.jpg"
                    wall, out = run([sys.executable, *read, str(photo)], environment(code), cpu)
                    results[name][sheet].append((wall, json.loads(out)["timings_ms"]))
    start = statistics.median(bare)
    print(f"{args.rounds} rounds; medians in ms ({CLOCK} clock; one CPU); interpreter start (`python -c pass`) {start:.0f}")
    for name in codes:
        cli, reader = (statistics.median(i[k] for i in imports[name]) for k in ("cli", "reader"))
        print(f"\n{name}{'' if name == 'this' else f' ({args.baseline})'}: imports before reading: the command "
              f"line {cli:.0f}, the reader (numpy, OpenCV, ...) {reader:.0f}")
        stages = list(results[name][args.sheets[0]][0][1])
        print(f"  {'sheet':16s} {'process':>8s} {'outside':>8s} " + " ".join(f"{s[:10]:>10s}" for s in stages))
        for sheet in args.sheets:
            runs = results[name][sheet]
            process = statistics.median(w for w, _ in runs)
            outside = statistics.median(w - t["total"] - start for w, t in runs)
            cells = " ".join(f"{statistics.median(t.get(s, 0.0) for _, t in runs):10.1f}" for s in stages)
            print(f"  {sheet:16s} {process:8.0f} {outside:8.0f} {cells}")
    print("\noutside: the process less the read (timings_ms.total) less the interpreter's start: the imports "
          "before reading (measured apart, above), the arguments, the output, the exit")
    print("target: timings_ms.total <= 250 ms for any 12 MP photo from a cold process, one core")


if __name__ == "__main__":
    main()
