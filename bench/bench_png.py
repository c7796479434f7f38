"""PNG previews: render one sheet (draw, scale down, encode) as `rnwprint sheet --format png`
does, against the Lanczos scaling it had before (the photo generator's still), in turns.

    python bench/bench_png.py [--rounds N]
"""

from __future__ import annotations

import argparse
import io
import pathlib
import statistics
import sys
import time

from PIL import Image

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import machine  # noqa: E402

from rnwprint.games import get_game  # noqa: E402
from rnwprint.render.png import DEFAULT_DPI, render_image  # noqa: E402


def png(sheet, resample) -> bytes:
    out = io.BytesIO()
    render_image(sheet, DEFAULT_DPI, resample).save(out, format="PNG", optimize=False, dpi=(DEFAULT_DPI,) * 2)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    for name in ("twenty-one", "rolling-america", "roll-to-the-top"):
        game = get_game(name)
        sheet = game.build(game.default_variant, "en", "a4")
        png(sheet, None)
        times: dict = {None: [], Image.LANCZOS: []}
        for _ in range(args.rounds):
            for resample, runs in times.items():
                start = time.process_time()
                png(sheet, resample)
                runs.append(time.process_time() - start)
        now, before = (statistics.median(runs) * 1000 for runs in times.values())
        print(f"{name}: one PNG at {DEFAULT_DPI} dpi, CPU ms, median of {args.rounds}: {now:.0f} "
              f"(Lanczos, as before: {before:.0f})")


if __name__ == "__main__":
    main()
