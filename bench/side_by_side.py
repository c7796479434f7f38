"""Run benchmark scripts in two trees of rnwprint in turns (old, new, old, new …) and print
each run's figures, for a change that must not slow anything (issue 17's "no regressions").

    git archive OLD_COMMIT | tar -x -C /tmp/old
    python bench/side_by_side.py --old /tmp/old --rounds 3 bench_twenty_one bench_tower

Each tree runs its own copy of the script (bench/NAME.py) with its own rnwprint first on
PYTHONPATH, from its own folder. The figures are the lines the scripts print that hold a
number, grouped by script and tree, one column per round.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys

NEW = pathlib.Path(__file__).resolve().parent.parent


def run(tree: pathlib.Path, script: str, args: list[str]) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "RNWPRINT_CACHE": os.environ.get("RNWPRINT_CACHE", "")}
    out = subprocess.run([sys.executable, str(tree / "bench" / f"{script}.py"), *args], cwd=tree, env=env,
                         capture_output=True, text=True)
    if out.returncode:
        return [f"failed ({out.returncode}): {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else ''}"]
    return [line for line in out.stdout.splitlines() if re.search(r"\d", line) and not line.startswith("machine")]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", type=pathlib.Path, required=True, help="the tree before the change")
    ap.add_argument("--new", type=pathlib.Path, default=NEW, help="the tree after (default: this checkout)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("scripts", nargs="+", help="bench script names (without .py); 'NAME:ARG,ARG' passes arguments")
    args = ap.parse_args(argv)
    for spec in args.scripts:
        script, _, extra = spec.partition(":")
        extra_args = extra.split(",") if extra else []
        results = {"old": [], "new": []}
        for _ in range(args.rounds):
            for label, tree in (("old", args.old), ("new", args.new)):
                results[label].append(run(tree.resolve(), script, extra_args))
        print(f"== {script} {' '.join(extra_args)}")
        for label in ("old", "new"):
            for i, lines in enumerate(zip(*results[label]) if all(results[label]) else []):
                print(f"  {label} [{i}]")
                for line in lines:
                    print(f"      {line}")


if __name__ == "__main__":
    main()
