"""An audit's violations drawn in red over the sheet they were found on (--annotate)."""

from __future__ import annotations

from rnwprint.core.report import Report
from rnwprint.core.sheet import Path, Rect, Sheet, Style, Text
from rnwprint.fonts import PT, text_span, text_width

RED = "#e00000"
LABEL_PT = 7
GAP = 1.0  # mm between a cell and its label
ELSEWHERE_Y = 6.5  # mm: the baseline of the rules no box shows, above the corner markers


def annotated_sheet(report: Report, sheet: Sheet) -> Sheet:
    """A copy of `sheet` with each violation's cells outlined in red and its rule written
    against one of them (a cell named twice is outlined once): of the spots around its cells,
    best first (above the first cell, ...), the first that hides no other label, then no
    printed text, then no outlined cell, then no cell, inside the page."""
    out = Sheet(sheet.identity, sheet.width, sheet.height, sheet.title, list(sheet.items), dict(sheet.cells))
    outlined: dict[str, tuple] = {}
    for v in report.violations:
        for c in v.cells:
            if c in sheet.cells and c not in outlined:
                outlined[c] = sheet.cells[c].bounds
                out.add(Path((sheet.cells[c].polygon,), Style(stroke=RED, width=0.8)))
    printed = [_text_box(item) for item in sheet.items if isinstance(item, Text)]
    red = list(outlined.values())
    cells = [c.bounds for c in sheet.cells.values()]
    labels: list[tuple] = []

    def hides(spot: tuple) -> tuple:  # what a label there would hide, the worst first
        return (not _inside(spot, sheet), _count(spot, labels), _count(spot, printed),
                _count(spot, red), _count(spot, cells))

    elsewhere: dict[str, int] = {}  # rules broken by no cell of the sheet (a score box), by count
    for v in report.violations:
        spots = [spot for c in v.cells if c in sheet.cells for spot in _spots(sheet.cells[c].bounds, v.rule)]
        if not spots:
            elsewhere[v.rule] = elsewhere.get(v.rule, 0) + 1
            continue
        x0, y0, x1, y1 = box = min(spots, key=hides)  # the first of the least hidden
        labels.append(box)
        out.add(Rect(x0, y0, x1 - x0, y1 - y0, Style(fill="#ffffff", stroke=RED, width=0.3), radius=0.6))
        out.add(Text((x0 + x1) / 2, y1 - 0.8, v.rule, LABEL_PT, RED, "middle", bold=True))
    if elsewhere:  # in the top margin, above the title, so that no broken rule goes unseen
        line = ", ".join(rule + (f" ×{n}" if n > 1 else "") for rule, n in elsewhere.items())
        out.add(Text(sheet.width / 2, ELSEWHERE_Y, f"also broken: {line} (see the report)", LABEL_PT, RED, "middle", bold=True))
    return out


def _spots(cell: tuple, rule: str) -> list[tuple]:
    """Where a label may go touching a cell, best first: above, below, right, left, then the
    four corners."""
    x0, y0, x1, y1 = cell
    w, h = text_width(rule, LABEL_PT, bold=True) + 2, 3.8
    xs = {"middle": (x0 + x1 - w) / 2, "right": x1 + GAP, "left": x0 - GAP - w}
    ys = {"middle": (y0 + y1 - h) / 2, "below": y1 + GAP, "above": y0 - GAP - h}
    return [(xs[x], ys[y], xs[x] + w, ys[y] + h) for x, y in (
        ("middle", "above"), ("middle", "below"), ("right", "middle"), ("left", "middle"),
        ("right", "above"), ("left", "above"), ("right", "below"), ("left", "below"))]


def _text_box(item: Text) -> tuple:
    """Where a printed text's letters are, with a little room around them."""
    left, right = text_span(item)
    size = item.size * PT
    return left - 0.4, item.y - 0.8 * size - 0.4, right + 0.4, item.y + 0.25 * size + 0.4


def _inside(box: tuple, sheet: Sheet) -> bool:
    return box[0] >= 0 and box[1] >= 0 and box[2] <= sheet.width and box[3] <= sheet.height


def _count(box: tuple, others: list[tuple]) -> int:
    return sum(_overlap(box, o) for o in others)


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
