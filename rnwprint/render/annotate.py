"""An audit's violations drawn in red over the sheet they were found on (--annotate)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy
import shapely
import shapely.affinity

from rnwprint.core.report import Report
from rnwprint.core.sheet import Circle, Item, Path, Rect, Sheet, Style, Text
from rnwprint.fonts import PT, text_span, text_width
from rnwprint.locale import t

RED = "#e00000"
LABEL_PT = 7
GAP = 1.0  # mm between a cell and its label
REACH = 25.0  # mm: how far from its cell a label may stand, on a leader, to hide nothing
STEP = 1.5  # mm between the spots tried further out
LEADER_FROM = 1.01 * GAP  # mm: a label further from its cell than this (at its corner, or further out) is drawn on a leader
LEADER_DOT = 0.6  # mm: the radius of the dot a leader ends in, inside its cell
ELSEWHERE_Y = 6.5  # mm: the baseline of the rules no box shows, above the corner markers


def annotated_sheet(report: Report, sheet: Sheet, written: Sequence[Item] = ()) -> Sheet:
    """A copy of `sheet` with what was audited drawn in (`written`: render.written's items),
    each violation's cells outlined in red (a cell named twice, once) and its rule written on a
    label ("(?)" after it where it rests on a cell to check on the paper, as the report has it). Of the spots for a label, the first that hides no other label, then no printed text,
    then no outlined cell, then no other cell, inside the page: against one of its cells (above
    the first, below, right, left, at its corners), else the nearest further out, up to REACH,
    on a red leader into its cell, so that which cell a label names is never in doubt where
    cells stand close together (a map, a tower)."""
    out = Sheet(sheet.identity, sheet.width, sheet.height, sheet.title, [*sheet.items, *written], dict(sheet.cells))
    cells = {cid: shapely.Polygon(c.polygon) for cid, c in sheet.cells.items()}
    outlined: dict[str, shapely.Polygon] = {}
    for v in report.violations:
        for c in v.cells:
            if c in cells and c not in outlined:
                outlined[c] = cells[c]
                out.add(Path((sheet.cells[c].polygon,), Style(stroke=RED, width=0.8)))
    printed = shapely.STRtree([shapely.box(*_text_box(item)) for item in sheet.items if isinstance(item, Text)])
    red = shapely.STRtree(list(outlined.values()))
    ids = list(cells)
    every_cell = shapely.STRtree(list(cells.values()))
    drawn: list[shapely.Geometry] = []  # the labels and leaders so far
    elsewhere: dict[str, int] = {}  # rules broken by no cell of the sheet (a score box), by count
    for v in report.violations:
        own = [c for c in v.cells if c in cells]
        if not own:
            elsewhere[v.rule] = elsewhere.get(v.rule, 0) + 1
            continue
        earlier = shapely.STRtree(drawn)
        skip = [ids.index(c) for c in own]
        said = v.rule + (" (?)" if report.rests_on_unsure(v) else "")  # as the report marks it
        for further in (False, True):  # the spots against its cells; further out only if all of those hide something
            labels, leaders, away = (numpy.concatenate(parts) for parts in zip(*(_spots(cells[c], said, further)
                                                                                 for c in own)))
            left, top, right, bottom = shapely.bounds(labels).T
            hides = ((left < 0) | (top < 0) | (right > sheet.width) | (bottom > sheet.height),
                     _hits(earlier, labels) + _hits(earlier, leaders), _hits(printed, labels), _hits(red, labels),
                     _hits(every_cell, labels, skip), _hits(every_cell, leaders, skip))
            best = numpy.lexsort((numpy.arange(len(labels)), away, *reversed(hides)))[0]  # the last key first
            if not any(key[best] for key in hides):
                break
        label, leader = labels[best], leaders[best]  # the first of the least hidden, the nearest
        x0, y0, x1, y1 = label.bounds
        drawn.append(label)
        if leader is not None:
            drawn.append(leader)
            out.add(Path((tuple(leader.coords),), Style(stroke=RED, width=0.35), closed=False))
            out.add(Circle(*leader.coords[-1], LEADER_DOT, Style(fill=RED, stroke=None)))
        out.add(Rect(x0, y0, x1 - x0, y1 - y0, Style(fill="#ffffff", stroke=RED, width=0.3), radius=0.6))
        out.add(Text((x0 + x1) / 2, y1 - 0.8, said, LABEL_PT, RED, "middle", bold=True))
    if elsewhere:  # in the top margin, above the title, in the report's language, so that no broken rule goes unseen
        line = ", ".join(rule + (f" ×{n}" if n > 1 else "") for rule, n in elsewhere.items())
        out.add(Text(sheet.width / 2, ELSEWHERE_Y, t(report.lang, "audit.also_broken", rules=line), LABEL_PT, RED, "middle",
                     bold=True))
    return out


def _hits(tree: shapely.STRtree, shapes: numpy.ndarray, skip: list[int] = ()) -> numpy.ndarray:
    """How many of the tree's shapes, but those at `skip`, each of `shapes` (None: none) overlaps."""
    pairs = tree.query(shapes, predicate="intersects").reshape(2, -1)
    return numpy.bincount(pairs[0][~numpy.isin(pairs[1], skip)], minlength=len(shapes))


def _spots(cell: shapely.Polygon, rule: str, further: bool) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """Where a label may go (boxes), each one's leader (None: the label is against the cell)
    and how far from the cell, in steps of STEP: against the cell above, below, right, left,
    then at its corners; `further`: also every STEP further out up to REACH."""
    x0, y0, x1, y1 = cell.bounds
    w, h = text_width(rule, LABEL_PT, bold=True) + 2, 3.8
    xs = {"middle": (x0 + x1 - w) / 2, "right": x1 + GAP, "left": x0 - GAP - w}
    ys = {"middle": (y0 + y1 - h) / 2, "below": y1 + GAP, "above": y0 - GAP - h}
    near = [(xs[x], ys[y]) for x, y in (("middle", "above"), ("middle", "below"), ("right", "middle"), ("left", "middle"),
                                        ("right", "above"), ("left", "above"), ("right", "below"), ("left", "below"))]
    lefts, tops = numpy.array([x for x, _ in near]), numpy.array([y for _, y in near])
    if further:
        grid = numpy.meshgrid(numpy.arange(x0 - REACH - w, x1 + REACH, STEP), numpy.arange(y0 - REACH - h, y1 + REACH, STEP))
        lefts, tops = numpy.concatenate([lefts, grid[0].ravel()]), numpy.concatenate([tops, grid[1].ravel()])
    boxes = shapely.box(lefts, tops, lefts + w, tops + h)
    away = shapely.distance(boxes, cell)
    kept = (away >= GAP * 0.99) & (away <= REACH)
    boxes, away = boxes[kept], away[kept]
    inner = shapely.affinity.scale(cell, 0.5, 0.5, origin="centroid")  # a leader ends well inside its cell
    leaders = numpy.where(away > LEADER_FROM, shapely.shortest_line(boxes, inner), None)
    return boxes, leaders, numpy.round((away - GAP) / STEP)


def _text_box(item: Text) -> tuple:
    """Where a printed text's letters are, with a little room around them."""
    left, right = text_span(item)
    size = item.size * PT
    return left - 0.4, item.y - 0.8 * size - 0.4, right + 0.4, item.y + 0.25 * size + 0.4
