"""`audit --annotate`: each violation's label sits against one of its cells or on a leader
ending inside one, and hides no printed text, no other label and, where the sheet leaves room,
no other cell."""

from __future__ import annotations

import pytest
import shapely

from rnwprint.core.report import Report, Violation
from rnwprint.core.sheet import Cell, Circle, Path, Rect, Sheet, Text
from rnwprint.fonts import PT, text_span, text_width
from rnwprint.games import GAMES
from rnwprint.render.annotate import (
    GAP,
    LABEL_PT,
    LEADER_DOT,
    REACH,
    RED,
    annotated_sheet,
)

CASES = {
    # Catan: runs of corners and roads, beside the terrains' names
    ("catan", "map"): [("disconnected", ("V08", "E12")), ("disconnected", ("E22", "V20")),
                       ("disconnected", ("E32", "E38", "V21", "V26")), ("town-hall", ("T07",)),
                       ("disconnected", ("E57", "V45")), ("road", ("E18",))],
    # Twenty One: a colour header above every field, three labels on one row
    ("twenty-one", "B"): [("cross-not-leftmost", ("R1C3",)), ("over-field", ("R1C4",)),
                          ("row-order", ("R1C2", "R1C5", "R1C6")), ("bad-value", ("R3C2",))],
}


def _overlap(a, b):
    return max(a[0], b[0]) < min(a[2], b[2]) and max(a[1], b[1]) < min(a[3], b[3])


def _letters(item):
    """Where a printed text's letters are: from its baseline up its cap height, down a little."""
    left, right = text_span(item)
    size = item.size * PT
    return left, item.y - 0.75 * size, right, item.y + 0.2 * size


def _labels(drawn, sheet):
    """(box, rule, leader) of each label drawn: its red-outlined white Rect, the Text inside and
    the leader before them (an open red Path ending in a red dot), or None."""
    labels, leader = [], None
    new = drawn.items[len(sheet.items):]
    for item, after in zip(new, new[1:] + [None]):
        if isinstance(item, Path) and not item.closed:
            assert item.style.stroke == RED and isinstance(after, Circle) and after.style.fill == RED
            assert (after.cx, after.cy) == item.rings[0][-1] and after.r == LEADER_DOT
            leader = item.rings[0]
        elif isinstance(item, Rect) and item.style.stroke == RED:
            assert isinstance(after, Text) and after.colour == RED
            labels.append(((item.x, item.y, item.x + item.w, item.y + item.h), after.text, leader))
            leader = None
    return labels


def _against_or_led(box, leader, cells):
    """The label touches one of `cells` (within GAP), or its leader runs from the label's edge
    to a point well inside one of them."""
    if leader is None:
        grown = [(x0 - GAP - 0.01, y0 - GAP - 0.01, x1 + GAP + 0.01, y1 + GAP + 0.01) for x0, y0, x1, y1 in
                 (c.bounds for c in cells)]
        return any(_overlap(box, g) for g in grown)
    start, end = shapely.Point(leader[0]), shapely.Point(leader[-1])
    return shapely.box(*box).exterior.distance(start) < 1e-6 and any(
        shapely.Polygon(c.polygon).buffer(-0.5).contains(end) for c in cells)


@pytest.mark.parametrize("game,variant", list(CASES))
def test_each_label_touches_its_cells_and_hides_no_text(game, variant):
    sheet = GAMES[game].build(variant, "en", "a4")
    violations = [Violation(rule, cells, "") for rule, cells in CASES[game, variant]]
    drawn = annotated_sheet(Report(game, variant, "x", 0, violations), sheet)
    labels = _labels(drawn, sheet)
    assert [rule for _, rule, _ in labels] == [v.rule for v in violations]
    printed = [_letters(i) for i in sheet.items if isinstance(i, Text)]
    for (box, rule, leader), v in zip(labels, violations):
        assert _against_or_led(box, leader, [sheet.cells[c] for c in v.cells]), f"{rule} is not against its cells"
        assert not any(_overlap(box, t) for t in printed), f"{rule} hides printed text"
        assert 0 <= box[0] and box[2] <= sheet.width and 0 <= box[1] and box[3] <= sheet.height
    for i, (a, _, _) in enumerate(labels):
        assert not any(_overlap(a, b) for b, _, _ in labels[i + 1:])


def _hidden_cells(sheet, box, own):
    return [cid for cid, c in sheet.cells.items() if cid not in own
            and shapely.box(*box).intersection(shapely.Polygon(c.polygon)).area > 0]


def test_a_label_by_a_diagonal_road_hides_no_neighbouring_place_and_leads_to_its_road():
    """Catan's roads lie across: a label against a road's bounding box would stand by the next
    corner circle or road. Here every label hides no other place, and any label not against its
    own road has a leader into it."""
    sheet = GAMES["catan"].build("map", "en", "a4")
    roads = ["E16", "E24", "E45", "E55", "E61", "E40"]
    drawn = annotated_sheet(Report("catan", "map", "x", 0, [Violation("disconnected", (r,), "") for r in roads]), sheet)
    labels = _labels(drawn, sheet)
    assert len(labels) == len(roads)
    for (box, _, leader), road in zip(labels, roads):
        assert _hidden_cells(sheet, box, {road}) == []
        assert _against_or_led(box, leader, [sheet.cells[road]])


def test_a_square_walled_in_by_squares_gets_its_label_on_a_leader():
    """On a tower, B2 of the Burj Khalifa has a square on every side: its label goes out to the
    free paper, within REACH, on a leader ending inside B2, and hides no square."""
    sheet = GAMES["roll-to-the-top"].build("burj", "en", "a4")
    drawn = annotated_sheet(Report("roll-to-the-top", "burj", "x", 0, [Violation("bad-value", ("B2",), "")]), sheet)
    (box, _, leader), = _labels(drawn, sheet)
    assert leader is not None and _against_or_led(box, leader, [sheet.cells["B2"]])
    assert _hidden_cells(sheet, box, {"B2"}) == []
    assert shapely.box(*box).distance(shapely.Polygon(sheet.cells["B2"].polygon)) <= REACH


def test_a_label_with_room_beside_its_cell_needs_no_leader():
    """F1 of the Burj Khalifa has squares above and below, free paper to its right: the label
    stands against its right side, with no leader."""
    sheet = GAMES["roll-to-the-top"].build("burj", "en", "a4")
    drawn = annotated_sheet(Report("roll-to-the-top", "burj", "x", 0, [Violation("bad-value", ("F1",), "")]), sheet)
    (box, _, leader), = _labels(drawn, sheet)
    _, y0, x1, y1 = sheet.cells["F1"].bounds
    assert leader is None
    assert box[0] == pytest.approx(x1 + GAP) and (box[1] + box[3]) / 2 == pytest.approx((y0 + y1) / 2)


def test_a_label_prefers_the_free_paper_above_its_cell():
    sheet = GAMES["catan"].build("map", "en", "a4")
    drawn = annotated_sheet(Report("catan", "map", "x", 0, [Violation("start", ("V02",), "")]), sheet)
    (box, _, _), = _labels(drawn, sheet)
    x0, y0, x1, _ = sheet.cells["V02"].bounds
    assert box[3] == pytest.approx(y0 - GAP) and (box[0] + box[2]) / 2 == pytest.approx((x0 + x1) / 2)


def test_a_label_is_its_rule_in_bold_red_inside_its_box():
    sheet = GAMES["twenty-one"].build("A", "en", "letter")
    drawn = annotated_sheet(Report("twenty-one", "A", "x", 0, [Violation("cross-not-leftmost", ("R2C3",), "")]), sheet)
    (box, _, _), = _labels(drawn, sheet)
    text = drawn.items[-1]
    assert (text.text, text.size, text.colour, text.anchor, text.bold) == ("cross-not-leftmost", LABEL_PT, RED,
                                                                         "middle", True)
    left, top, right, bottom = _letters(text)
    assert box[0] < left and right < box[2] and box[1] < top and bottom < box[3]
    assert text.x == pytest.approx((box[0] + box[2]) / 2)
    assert box[2] - box[0] < text_width(text.text, LABEL_PT, True) + 3  # snug, not a banner


def test_a_label_stays_on_the_page():
    """A cell in the page's top-left corner: no room above it or to its left."""
    real = GAMES["twenty-one"].build("A", "en", "a4")
    sheet = Sheet(real.identity, 60.0, 40.0, "t", [], {})
    sheet.add_cell(Cell("A1", ((0.5, 0.5), (10.0, 0.5), (10.0, 8.0), (0.5, 8.0))))
    drawn = annotated_sheet(Report("x", "A", "x", 0, [Violation("bad-value", ("A1",), "")]), sheet)
    (box, _, _), = _labels(drawn, sheet)
    assert box[0] >= 0 and box[1] >= 0  # not above it, nor below it (centred, it would cross the left edge)
    assert (box[0], (box[1] + box[3]) / 2) == pytest.approx((10.0 + GAP, (0.5 + 8.0) / 2))  # to its right


@pytest.mark.parametrize("x,y", [(0.5, 0.5), (49.5, 0.5), (0.5, 31.5), (49.5, 31.5), (25.0, 0.5), (0.5, 16.0)])
def test_a_label_stays_on_the_page_wherever_its_cell(x, y):
    """A cell (10 x 8 mm) against an edge or in a corner of a 60 x 40 mm page."""
    real = GAMES["twenty-one"].build("A", "en", "a4")
    sheet = Sheet(real.identity, 60.0, 40.0, "t", [], {})
    sheet.add_cell(Cell("A1", ((x, y), (x + 10, y), (x + 10, y + 8), (x, y + 8))))
    drawn = annotated_sheet(Report("x", "A", "x", 0, [Violation("cross-not-leftmost", ("A1",), "")]), sheet)
    (box, _, _), = _labels(drawn, sheet)
    assert 0 <= box[0] and box[2] <= 60 and 0 <= box[1] and box[3] <= 40
    assert _overlap(box, (x - GAP - 0.01, y - GAP - 0.01, x + 10 + GAP + 0.01, y + 8 + GAP + 0.01))


def test_a_violation_naming_no_cell_of_the_sheet_is_outlined_nowhere():
    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    report = Report("twenty-one", "A", "x", 0, [Violation("bad-value", ("Z9",), ""),
                                                 Violation("over-field", ("R1C1",), "")], lang="en")
    drawn = annotated_sheet(report, sheet)
    assert [rule for _, rule, _ in _labels(drawn, sheet)] == ["over-field"]
    assert len(drawn.items) == len(sheet.items) + 1 + 2 + 1  # one outline, one label, the line above
    assert drawn.items[-1].text == "also broken: bad-value (see the report)"


def test_rules_broken_on_no_box_are_written_above_the_markers():
    """A wrong score box is no cell of the sheet: it is still named, once with its count, in
    the top margin, clear of every printed text."""
    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    violations = [Violation("written-total", (), ""), Violation("written-total", (), ""),
                  Violation("over-field", ("R1C2",), "")]
    drawn = annotated_sheet(Report("twenty-one", "A", "x", 0, violations, lang="en"), sheet)
    top = drawn.items[-1]
    assert (top.text, top.colour, top.x, top.bold) == ("also broken: written-total ×2 (see the report)", RED, sheet.width / 2, True)
    spanish = annotated_sheet(Report("twenty-one", "A", "x", 0, violations, lang="es"), sheet).items[-1]
    assert spanish.text == "también incumplidas: written-total ×2 (ver el informe)"  # the report's language
    _, upper, _, lower = _letters(top)
    assert upper > 0 and lower < min(item.y for item in sheet.items if isinstance(item, Rect))
    assert annotated_sheet(Report("twenty-one", "A", "x", 0, violations[2:]), sheet).items[-1].text == "over-field"


def test_a_verdict_resting_on_a_cell_to_check_is_marked_as_the_report_marks_it():
    sheet = GAMES["roll-to-the-top"].build("burj", "en", "a4")
    violations = [Violation("support", ("B3", "A3"), ""), Violation("support", ("C1", "B2"), "")]
    report = Report("roll-to-the-top", "burj", "x", 0, violations, unsure=("A3",), lang="en")
    drawn = annotated_sheet(report, sheet)
    assert [rule for _, rule, _ in _labels(drawn, sheet)] == ["support (?)", "support"]
    first, second = report.to_text("en").splitlines()[2:4]  # the text report marks the same one
    assert first.endswith("(?)") and not second.endswith("(?)")
    report.unsure, report.doubtful = (), ("B2",)
    assert [rule for _, rule, _ in _labels(annotated_sheet(report, sheet), sheet)] == ["support", "support (?)"]
