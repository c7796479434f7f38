"""The SVG renderer (svgwrite, issue 17) against another version of it, side by side: render
time of one prebuilt sheet, median of interleaved rounds. E.g. the direct text writer it
replaced (its import of the Sheet moved since):

    git show a81a4f5^:rnwprint/render/svg.py | sed 's/rnwprint.sheet/rnwprint.core.sheet/' > /tmp/svg_direct.py
    python bench/bench_svg.py --old /tmp/svg_direct.py
"""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import machine  # noqa: E402

from rnwprint.games import get_game  # noqa: E402
from rnwprint.render.svg import render_svg  # noqa: E402

SHEETS = (("twenty-one", "A"), ("rolling-america", "us"), ("roll-to-the-top", "eiffel"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", type=pathlib.Path, help="another svg.py, rendered in turns with this one")
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    old = None
    if args.old:
        spec = importlib.util.spec_from_file_location("svg_old", args.old)
        old = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(old)
    print(f"machine: {machine()}")
    for name, variant in SHEETS:
        sheet = get_game(name).build(variant, "es", "a4")
        renderers = {"this": render_svg} | ({"old": old.render_svg} if old else {})
        times: dict[str, list[float]] = {k: [] for k in renderers}
        for _ in range(args.rounds):
            for key, render in renderers.items():
                start = time.perf_counter()
                render(sheet)
                times[key].append(time.perf_counter() - start)
        line = ", ".join(f"{k} {statistics.median(v) * 1000:.1f} ms" for k, v in times.items())
        print(f"{name} {variant}: render one SVG, median of {args.rounds} interleaved: {line}")


if __name__ == "__main__":
    main()
