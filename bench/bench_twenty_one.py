"""Issue 2 figures: Twenty One build+render time, whole-process cost, PDF size.

    python bench/bench_twenty_one.py
"""

from __future__ import annotations

import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import PYTHON, machine, median_ms, side_by_side_ratio  # noqa: E402

from rnwprint.games import get_game  # noqa: E402
from rnwprint.render.pdf import render_pdf  # noqa: E402
from rnwprint.render.svg import render_svg  # noqa: E402


def main() -> None:
    game = get_game("twenty-one")
    print(f"machine: {machine()}")
    pdf_ms = median_ms(lambda: render_pdf([game.build("A", "es", "a4")]))
    svg_ms = median_ms(lambda: render_svg(game.build("A", "es", "a4")))
    print(f"build + render one sheet, median of 30: PDF {pdf_ms:.1f} ms (target <= 20), "
          f"SVG {svg_ms:.1f} ms (target <= 10)")

    sheets = [game.build(v, "es", "a4") for v in game.variants]
    size = len(render_pdf(sheets)) / len(sheets)
    print(f"PDF size, --variant all: {size / 1000:.1f} KB per page (target <= 60)")

    with tempfile.TemporaryDirectory() as tmp:
        ours = [PYTHON, "-m", "rnwprint", "sheet", "twenty-one", "--variant", "all", "-o", f"{tmp}/x.pdf"]
        base = [PYTHON, "-c", "import reportlab.pdfgen.canvas, shapely, click"]
        ratio, a, b = side_by_side_ratio(ours, base)
    print(f"whole process, --variant all: {a * 1000:.0f} ms vs bare imports {b * 1000:.0f} ms, "
          f"median ratio {ratio:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
