"""Issue 18 figures: Catan's island map built and rendered, the notes sheet, the audit of a
full 4-player map, and the PDF size.

    python bench/bench_catan.py
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "tests"))
from catan_support import full_map
from common import machine, median_ms

from rnwprint.core.entries import Entries
from rnwprint.games import get_game
from rnwprint.render.pdf import render_pdf
from rnwprint.render.svg import render_svg


def main() -> None:
    game = get_game("catan")
    print(f"machine: {machine()}")
    for variant in ("map", "map-7", "notes"):
        pdf_ms = median_ms(lambda v=variant: render_pdf([game.build(v, "es", "a4")]))
        svg_ms = median_ms(lambda v=variant: render_svg(game.build(v, "es", "a4")))
        size = len(render_pdf([game.build(variant, "es", "a4")]))
        print(f"{variant}: build + render, median of 30: PDF {pdf_ms:.1f} ms (map target <= 60), "
              f"SVG {svg_ms:.1f} ms; PDF {size / 1000:.1f} KB")
    other = get_game("twenty-one")  # how loaded the machine is: 16.4 ms when quiet (BENCHMARKS)
    print(f"side by side, Twenty One A: {median_ms(lambda: render_pdf([other.build('A', 'es', 'a4')])):.1f} ms")
    cells = {cid: game.parse_value(value) for cid, value in full_map().items()}
    entries = Entries("bench", "catan", "map", cells, {"red_knights": 4, "blue_resources": 9})
    report = game.audit(entries, "en")
    assert report.valid and not report.details["notices"], report.violations
    audit_ms = median_ms(lambda: game.audit(entries, "en"), repeat=200)
    print(f"audit a full 4-player map ({len(cells)} places written), median of 200: {audit_ms:.2f} ms "
          f"(target <= 10)")


if __name__ == "__main__":
    main()
