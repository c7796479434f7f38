"""An audit's violations drawn in red over the sheet they were found on (--annotate)."""

from __future__ import annotations

from rnwprint.core.report import Report
from rnwprint.core.sheet import Path, Rect, Sheet, Style, Text

RED = "#e00000"


def annotated_sheet(report: Report, sheet: Sheet) -> Sheet:
    """A copy of `sheet` with each violation's cells outlined in red and its rule written
    beside the first of them (a cell named twice is outlined once)."""
    out = Sheet(sheet.identity, sheet.width, sheet.height, sheet.title, list(sheet.items), dict(sheet.cells))
    outlined: set[str] = set()
    labels = []
    for v in report.violations:
        cells = [sheet.cells[c] for c in v.cells if c in sheet.cells]
        for cell in cells:
            if cell.id not in outlined:
                outlined.add(cell.id)
                out.add(Path((cell.polygon,), Style(stroke=RED, width=0.8)))
        if cells:
            x0, y0, x1, _ = cells[0].bounds
            labels.append(((x0 + x1) / 2, y0 - 1.0, v.rule))
    for x, y, rule in labels:  # on top of every outline
        w = len(rule) * 1.6 + 2
        out.add(Rect(x - w / 2, y - 3.0, w, 3.8, Style(fill="#ffffff", stroke=RED, width=0.3), radius=0.6))
        out.add(Text(x, y, rule, 7, RED, "middle", bold=True))
    return out
