"""Issue 3 figures: map sheet build+render, audit and log replay times, asset and PDF sizes;
issue 15: a whole `rnwprint sheet rolling-america` process against the bare import of the CLI,
side by side, and the first sheet of a process from the baked layout vs fitting it anew.

    python bench/bench_maps.py
"""

from __future__ import annotations

import pathlib
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))
from common import machine, median_ms, side_by_side_ratio  # noqa: E402

from rnwprint.games import GAMES  # noqa: E402
from rnwprint.games.rolling import log as rolling_log, replay as rolling_replay, rules as rolling_rules  # noqa: E402
from rnwprint.games.rolling import sheet as rolling_sheet  # noqa: E402
from rnwprint.render.pdf import render_pdf  # noqa: E402
from rnwprint.render.svg import render_svg  # noqa: E402
from rolling_support import greedy  # noqa: E402  (a legal player, shared with the tests)


ROUNDS = 15


def main() -> None:
    print(f"machine: {machine()}")
    for name in ("rolling-america", "rolling-espana"):
        game = GAMES[name]
        variant = game.default_variant
        start = time.perf_counter()
        game.build(variant, "es", "a4")  # first sheet of a process: reads the baked layout
        first = (time.perf_counter() - start) * 1000
        rolling_sheet._fitted.cache_clear()
        start = time.perf_counter()
        rolling_sheet._fitted(name, "a4")  # the map's part of that: read the baked layout, make the items
        read = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        rolling_sheet._fitted(name, "a4", baked=False)  # what it would cost without: fit and place
        fit = (time.perf_counter() - start) * 1000
        pdf = median_ms(lambda: render_pdf([game.build(variant, "es", "a4")]))
        svg = median_ms(lambda: render_svg(game.build(variant, "es", "a4")))
        size = len(render_pdf([game.build(variant, "es", "a4")]))
        print(f"{name}: build + render, median of 30: PDF {pdf:.1f} ms (target <= 150), "
              f"SVG {svg:.1f} ms (target <= 80); first build in a process {first:.0f} ms, of which the "
              f"baked map layout {read:.0f} ms (fitting the map and placing the boxes anew: {fit:.0f} ms); "
              f"PDF {size / 1000:.0f} KB per page (target <= 250)")

        board = rolling_rules.load_board(name)
        played, final = greedy(board, rolling_log.roll_game(1))
        audit = median_ms(lambda: rolling_rules.audit_sheet(final, board, "en"), repeat=200)
        with tempfile.TemporaryDirectory() as tmp:
            log = pathlib.Path(tmp) / "log.toml"
            log.write_text(rolling_log.log_text(name, played, "en", 1), encoding="utf-8")
            replay = median_ms(lambda: rolling_replay.replay(final, board, log, "en"), repeat=50)
        print(f"{name}: audit one typed-in sheet {audit:.2f} ms (target <= 5); "
              f"replay a full 8-round log (TOML) {replay:.1f} ms (target <= 20)")

    with tempfile.TemporaryDirectory() as tmp:
        out = str(pathlib.Path(tmp) / "sheet.pdf")
        ours = [sys.executable, "-m", "rnwprint", "sheet", "rolling-america", "-o", out]
        for bare in ("import rnwprint.cli", "import reportlab.pdfgen.canvas, shapely, click",
                     "import rnwprint.cli, rnwprint.games"):
            ratio, a, b = side_by_side_ratio(ours, [sys.executable, "-c", bare], rounds=ROUNDS)
            print(f"`rnwprint sheet rolling-america` whole process vs `python -c '{bare}'`, "
                  f"{ROUNDS} interleaved rounds: median {a * 1000:.0f} ms vs {b * 1000:.0f} ms, "
                  f"median ratio {ratio:.2f}x (target <= 2)")

    assets = sum(p.stat().st_size for p in (ROOT / "assets" / "maps").glob("*.geojson"))
    baked = sum(p.stat().st_size for p in (ROOT / "assets" / "maps").glob("layout-*.json"))
    print(f"map assets together: {assets / 1000:.0f} KB (target <= 400); baked layouts {baked / 1000:.0f} KB")


if __name__ == "__main__":
    main()
