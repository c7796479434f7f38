"""Twenty One: the layouts' fairness, the printed sheet and the audit rules."""

from __future__ import annotations

import itertools
import re
import tomllib

import pypdf
import pytest

from rnwprint.core.entries import Entries
from rnwprint.games import twenty_one
from rnwprint.games.twenty_one import sheet as twenty_one_sheet
from rnwprint.games.twenty_one.rules import audit
from rnwprint.games.twenty_one.sheet import DIE, TEMPLATE, VARIANTS, bonus, build, layouts
from rnwprint.core.errors import RnwError
from rnwprint.layout.page import new_sheet
from rnwprint.locale import t
from rnwprint.core.sheet import Rect, Text

from page_boxes import inside, overlap, text_box

TEMPLATE_TEXT = TEMPLATE.read_text()
PRINTABLE = 5.0  # mm from the paper's edge


def load_template(tmp_path, monkeypatch, text: str):
    """layouts() of a template with `text` (the cache cleared before and after)."""
    path = tmp_path / "twenty-one.toml"
    path.write_text(text)
    monkeypatch.setattr(twenty_one_sheet, "TEMPLATE", path)
    layouts.cache_clear()
    try:
        return layouts()
    finally:
        layouts.cache_clear()


def entries(cells: dict) -> Entries:
    return Entries("test.toml", "twenty-one", "A", dict(cells))


def rules(report) -> list[tuple[str, tuple[str, ...]]]:
    return [(v.rule, v.cells) for v in report.violations]


def full_rows(*rows: list) -> dict:
    return {f"R{r}C{f}": v for r, row in enumerate(rows, 1) for f, v in enumerate(row, 1) if v is not None}


def test_every_row_reads_6_to_1_and_shows_each_colour_once():
    numbers, sheets = layouts()
    assert numbers == ((6, 5, 4, 3, 2, 1),) * 5
    for rows in sheets.values():
        for row in rows:
            assert sorted(row) == sorted(DIE)


def test_six_sheets_show_six_colours_at_every_field():
    _, sheets = layouts()
    assert sorted(sheets) == list(VARIANTS)
    for r, f in itertools.product(range(5), range(6)):
        assert len({sheets[v][r][f] for v in VARIANTS}) == 6


def test_no_two_rows_of_a_sheet_share_a_colour_order():
    _, sheets = layouts()
    for rows in sheets.values():
        assert len(set(rows)) == 5


def test_bonus_table():
    assert [bonus(h) for h in range(7)] == [0, 1, 3, 6, 10, 15, 21]


def row_beside(sheet, label: str) -> list[tuple[float, str]]:
    """(x, text) of the texts on the line of `label`, right of it, left to right."""
    texts = [i for i in sheet.items if isinstance(i, Text)]
    head = next(i for i in texts if i.text == label)
    return sorted((round(i.x, 1), i.text) for i in texts if abs(i.y - head.y) < 1 and i.x > head.x + 10)


def test_printed_bonus_table_shows_1_3_6_10_15_21_under_1_to_6_hits():
    # the rules: "puntos de bonificación siguiendo la tabla de la parte inferior de la hoja"
    sheet = build("A", "en", "a4")
    hits, bonuses = row_beside(sheet, "Exact hits"), row_beside(sheet, "Bonus")
    assert [text for _, text in hits] == ["1", "2", "3", "4", "5", "6"]
    assert [text for _, text in bonuses] == ["1", "3", "6", "10", "15", "21"]
    assert [x for x, _ in hits] == [x for x, _ in bonuses]  # each bonus under its count of hits


def test_printed_rules_say_a_cross_goes_into_the_leftmost_empty_field():
    for lang, words in (("en", "cross out (X) the leftmost empty field"), ("es", "tacha (X) el campo vacío más a la izquierda")):
        sheet = build("B", lang, "a4")
        assert words in " ".join(i.text for i in sheet.items if isinstance(i, Text))


def test_sheet_has_30_cells_with_the_field_number_as_limit():
    sheet = build("C", "en", "a4")
    assert sorted(sheet.cells) == sorted(f"R{r}C{f}" for r in range(1, 6) for f in range(1, 7))
    assert sheet.cells["R2C1"].high == 6 and sheet.cells["R2C6"].high == 1
    assert {c.low for c in sheet.cells.values()} == {1} and {c.kind for c in sheet.cells.values()} == {"number"}
    assert sheet.identity.layout == 2  # photos of printed sheets are read by this version
    x0, y0, x1, y1 = sheet.cells["R1C1"].bounds
    assert x1 - x0 >= 7 and y1 - y0 >= 7  # room for a handwritten digit


def test_all_variants_pdf_in_spanish(cli, tmp_path):
    out = tmp_path / "x.pdf"
    result = cli("sheet", "twenty-one", "--variant", "all", "--lang", "es", "-o", out)
    assert result.code == 0
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 6
    for variant, page in zip(VARIANTS, reader.pages):
        text = page.extract_text()
        for label in (f"Hoja {variant}", "Fila 1", "Bonificación", "Puntos", "Imprimir al 100 %", "amarillo"):
            assert label in text


# --- audit ----------------------------------------------------------------------------

def test_perfect_sheet_scores_five_times_42():
    report = audit(entries(full_rows(*[[6, 5, 4, 3, 2, 1]] * 5)), "en")
    assert report.valid
    assert report.score == 5 * (21 + 21)
    assert report.details["rows"][0] == {"row": 1, "sum": 21, "hits": 6, "bonus": 21, "score": 42}


def test_row_score_counts_x_as_zero_and_exact_hits():
    # hits: 6 (field 6), 3 (field 3) -> bonus 3; sum 6+2+1+3 = 12
    report = audit(entries(full_rows([6, 2, 1, 3, "X", "X"])), "en")
    assert report.valid
    assert report.details["rows"][0] == {"row": 1, "sum": 12, "hits": 2, "bonus": 3, "score": 15}
    assert report.score == 15


def test_pilar_row_from_the_rules_scores_14_plus_6():
    # the rules' example: "14 puntos por los números (5 + 0 + 4 + 2 + 2 + 1). Por sus tres golpes
    # exactos (el 4 azul, el 2 verde y el 1 rojo), recibe 6 puntos ... (14 + 6 = 20)"
    report = audit(entries(full_rows([5, "X", 4, 2, 2, 1])), "en")
    assert report.valid
    assert report.details["rows"][0] == {"row": 1, "sum": 14, "hits": 3, "bonus": 6, "score": 20}


def test_unfinished_last_row_counts():
    report = audit(entries(full_rows([6, 5, 4, 3, 2, 1], [5, 5, None, None, None, None])), "en")
    assert report.valid
    assert report.score == 42 + (10 + 1)


def test_number_equal_to_the_field_is_allowed_and_larger_is_over_field():
    report = audit(entries(full_rows([6, 5, 4, 5, 2, 3])), "en")
    assert [(v.rule, v.cells) for v in report.violations] == [
        ("over-field", ("R1C4",)), ("over-field", ("R1C6",))]
    assert "5 is larger than the field's 3" in report.violations[0].message


def test_numbers_no_die_shows_are_bad_values():
    report = audit(entries(full_rows([0, 7, 4, 3, 2, -1])), "en")
    assert [(v.rule, v.cells) for v in report.violations] == [
        ("bad-value", ("R1C1",)), ("bad-value", ("R1C2",)), ("bad-value", ("R1C6",))]
    assert report.details["rows"][0]["sum"] == 9  # bad values count 0


def test_row_order_names_the_row_left_behind_and_the_next_row_written_in():
    cells = full_rows([6, 5, None, 3, 2, 1], [6, 5, 4, 3, 2, 1], [1])
    report = audit(entries(cells), "en")
    assert rules(report) == [("row-order", ("R1C3",))]
    assert report.violations[0].message == "row 1 still has empty fields (R1C3) but row 2 has entries"
    report = audit(entries(cells), "es")
    assert report.violations[0].message == "la fila 1 aún tiene campos vacíos (R1C3) pero la fila 2 tiene anotaciones"


def test_row_order_names_the_empty_fields_left_behind():
    cells = full_rows([6, 5, None, 3, None, 1], [None] * 6, [1, None, None, None, None, None])
    report = audit(entries(cells), "en")
    assert [(v.rule, v.cells) for v in report.violations] == [
        ("row-order", ("R1C3", "R1C5")),
        ("row-order", ("R2C1", "R2C2", "R2C3", "R2C4", "R2C5", "R2C6")),
    ]
    assert "row 3 has entries" in report.violations[0].message


def test_messages_in_spanish():
    report = audit(entries(full_rows([6, 6])), "es")
    assert report.violations[0].message == "R1C2: 6 es mayor que el 5 del campo"


def test_empty_sheet_is_valid_and_scores_zero():
    report = audit(entries({}), "en")
    assert report.valid and report.score == 0


def test_a_single_number_is_valid_and_scores_its_value_and_bonus():
    """"Suma los números que has apuntado en los campos de la fila" plus the bonus for its
    exact hits: one number alone (the game ended at once) is a valid sheet."""
    exact = audit(entries({"R1C2": 5}), "en")  # field 2 reads 5: one exact hit, bonus 1
    assert exact.valid and exact.score == 5 + 1
    under = audit(entries({"R1C1": 3}), "en")  # field 1 reads 6: no hit
    assert under.valid and under.score == 3
    assert under.details["rows"][0] == {"row": 1, "sum": 3, "hits": 0, "bonus": 0, "score": 3}


def test_a_sheet_of_crosses_only_is_valid_and_scores_zero():
    """"los campos tachados valen 0": five rows crossed out, each X the leftmost empty field
    when it was made."""
    report = audit(entries(full_rows(*[["X"] * 6] * 5)), "en")
    assert report.valid and report.score == 0
    assert all(row["hits"] == 0 and row["bonus"] == 0 for row in report.details["rows"])


# "tienes que tachar un campo vacío en esta fila, y tiene que ser el campo más alejado a la izquierda"

def test_cross_with_an_empty_field_to_its_left_is_cross_not_leftmost():
    report = audit(entries(full_rows([6, 5, 4, 3, 2, 1], [6, None, "X", 3])), "en")
    assert rules(report) == [("cross-not-leftmost", ("R2C3", "R2C2"))]
    assert report.violations[0].message == (
        "R2C3 is crossed out though R2C2 to its left is empty: a cross always goes into the leftmost empty field")
    assert report.details["rows"][1]["score"] == 6 + 3 + 3  # the row still scores: 2 hits, bonus 3


def test_each_misplaced_cross_names_the_leftmost_empty_field():
    report = audit(entries(full_rows([None, 5, None, "X", None, "X"])), "es")
    assert rules(report) == [("cross-not-leftmost", ("R1C4", "R1C1")), ("cross-not-leftmost", ("R1C6", "R1C1"))]
    assert report.violations[0].message == (
        "R1C4 está tachado aunque R1C1, a su izquierda, está vacío: se tacha siempre el campo vacío más a la izquierda")


def test_juan_crosses_the_white_5_with_an_empty_field_to_its_right():
    # the rules' example: four fields filled, neither roll fits, "tiene que tachar el campo con el 5 blanco"
    report = audit(entries(full_rows([6, "X", 4, 3, 2])), "en")
    assert report.valid


def test_crosses_anywhere_in_a_complete_row_are_valid():
    # the fields left of a cross were filled when it was made: a complete row shows nothing wrong
    report = audit(entries(full_rows(["X", 5, "X", 3, "X", 1], ["X", "X", "X", "X", "X", "X"])), "en")
    assert report.valid and report.score == 5 + 3 + 1 + 6  # 3 hits: bonus 6


def test_cross_in_a_row_left_behind_is_judged_too():
    report = audit(entries(full_rows([6, None, "X", 3, 2, 1], [1])), "en")
    assert rules(report) == [("cross-not-leftmost", ("R1C3", "R1C2")), ("row-order", ("R1C2",))]


def test_bad_value_left_of_a_cross_is_not_an_empty_field():
    report = audit(entries(full_rows([0, "X"])), "en")
    assert rules(report) == [("bad-value", ("R1C1",))]


# --- the printed sheet's geometry -----------------------------------------------------------

def rect_box(r: Rect) -> tuple[float, float, float, float]:
    return r.x, r.y, r.x + r.w, r.y + r.h


@pytest.mark.parametrize("variant, lang, page", [("A", "en", "a4"), ("F", "es", "letter"), ("C", "es", "a4")])
def test_sheet_prints_cleanly(variant, lang, page):
    sheet = build(variant, lang, page)
    texts = [i for i in sheet.items if isinstance(i, Text)]
    rects = [rect_box(i) for i in sheet.items if isinstance(i, Rect)]
    boxes = [text_box(i) for i in texts]
    for box in boxes + rects:
        # 5 mm: what printers need; the grid is 196.5 mm wide, a little wider than the 10 mm margins
        assert PRINTABLE <= box[0] and box[2] <= sheet.width - PRINTABLE, "off the printable page"
    for a, b in itertools.combinations(boxes, 2):
        assert not overlap(a, b), f"texts overlap: {a} {b}"
    for a, b in itertools.combinations(rects, 2):
        assert not overlap(a, b), f"boxes overlap: {a} {b}"
    by_text = {}
    for item in texts:
        by_text.setdefault(item.text, []).append(item)
    numbers, colours = layouts()
    for r in range(1, 6):
        row_cells = [sheet.cells[f"R{r}C{f}"].bounds for f in range(1, 7)]
        for f, cell in enumerate(row_cells, 1):
            assert cell in rects  # the write box is drawn where the cell is
            cid = f"R{r}C{f}"
            assert inside(text_box(by_text[cid][0]), cell), f"{cid} sticks out of its field"
            # the die face above the field: its colour, its number and its colour's name inside it
            band = next(b for b in rects if abs(b[0] - cell[0]) < 0.01 and abs(b[3] + 1 - cell[1]) < 0.01)
            colour = colours[variant][r - 1][f - 1]
            face = next(i for i in sheet.items if isinstance(i, Rect) and rect_box(i) == band)
            assert face.style.fill == DIE[colour][0]
            shown = [i.text for i in texts if inside(text_box(i), band)]
            assert sorted(shown) == sorted([str(numbers[r - 1][f - 1]), t(lang, f"twenty-one.{colour}")])
        for left, right in itertools.pairwise(row_cells):
            assert right[0] > left[2] and right[1] == left[1]  # fields left to right on one line
        label = text_box(by_text[t(lang, "twenty-one.row", row=r)][0])
        assert label[2] < row_cells[0][0] and row_cells[0][1] < label[1] < label[3] < row_cells[0][3]
        equals = text_box([i for i in by_text["="]][r - 1])
        score = next(b for b in rects if b[0] > row_cells[-1][2] and b[1] == row_cells[0][1])
        assert row_cells[-1][2] < equals[0] < equals[2] < score[0]
    points = text_box(by_text[t(lang, "twenty-one.points")][0])
    first_score = next(b for b in rects if b[0] > sheet.cells["R1C6"].bounds[2] and b[1] == sheet.cells["R1C6"].bounds[1])
    assert first_score[0] <= points[0] and points[2] <= first_score[2] and points[3] < first_score[1]
    _, box = new_sheet(sheet.identity, "")
    for b in rects:  # every box of the game between the title and the footer
        assert box.y <= b[1] and b[3] <= box.bottom
    last = sheet.cells["R5C1"].bounds[3]
    for label in (t(lang, "twenty-one.bonus_title"), t(lang, "twenty-one.hits"), t(lang, "twenty-one.bonus"),
                  t(lang, "twenty-one.total")):
        assert text_box(by_text[label][0])[1] > last  # the bonus table and the total below the rows
    for a, b in itertools.pairwise(sorted(sheet.cells[f"R{r}C1"].bounds[1] for r in range(1, 6))):
        assert b > a  # rows top to bottom


def test_template_rejects_a_field_number_no_die_shows(tmp_path, monkeypatch):
    bad = TEMPLATE_TEXT.replace("[6, 5, 4, 3, 2, 1]", "[7, 5, 4, 3, 2, 1]", 1)
    with pytest.raises(RnwError, match=r"numbers: expected 5 rows of 6 numbers 1-6"):
        load_template(tmp_path, monkeypatch, bad)


def test_template_rejects_a_field_number_0(tmp_path, monkeypatch):
    bad = TEMPLATE_TEXT.replace("[6, 5, 4, 3, 2, 1]", "[6, 5, 4, 3, 2, 0]", 1)
    with pytest.raises(RnwError, match=r"numbers: expected 5 rows of 6 numbers 1-6"):
        load_template(tmp_path, monkeypatch, bad)


def test_template_rejects_a_row_of_five_fields(tmp_path, monkeypatch):
    bad = TEMPLATE_TEXT.replace("[6, 5, 4, 3, 2, 1]", "[6, 5, 4, 3, 2]", 1)
    with pytest.raises(RnwError, match=r"numbers: expected 5 rows of 6 numbers 1-6"):
        load_template(tmp_path, monkeypatch, bad)


def test_template_rejects_a_sheet_row_missing_a_colour(tmp_path, monkeypatch):
    bad = re.sub(r'"green"', '"red"', TEMPLATE_TEXT.split("[sheets", 1)[1], count=1)
    bad = TEMPLATE_TEXT.split("[sheets", 1)[0] + "[sheets" + bad
    with pytest.raises(RnwError, match=r"sheets\.A: expected 5 rows, each naming every colour once"):
        load_template(tmp_path, monkeypatch, bad)


def test_template_rejects_a_sheet_of_four_rows(tmp_path, monkeypatch):
    data = tomllib.loads(TEMPLATE_TEXT)
    rows = data["sheets"]["B"][:4]
    bad = TEMPLATE_TEXT + ""  # rewrite sheet B with its first four rows only
    bad = re.sub(r"(?ms)^B = \[.*?^\]", "B = " + repr([list(r) for r in rows]).replace("'", '"'), bad)
    with pytest.raises(RnwError, match=r"sheets\.B: expected 5 rows"):
        load_template(tmp_path, monkeypatch, bad)


def test_the_shipped_template_loads():
    numbers, sheets = layouts()
    assert len(numbers) == 5 and sorted(sheets) == ["A", "B", "C", "D", "E", "F"]


def test_cell_ids_are_r1c1_to_r5c6():
    expected = {"R1C1", "R1C6", "R5C1", "R5C6", "R3C4"}
    ids = twenty_one.GAME.cell_ids("D")
    assert len(ids) == 30 and expected <= ids
    assert not {"R0C1", "R6C1", "R1C0", "R1C7"} & ids


def test_typed_in_file_with_a_field_past_the_sixth_is_refused(cli, write):
    path = write("x.toml", 'game = "twenty-one"\nvariant = "A"\n[cells]\nR1C7 = 1\nR6C1 = 1\nR5C6 = 1\n')
    result = cli("audit", path)
    assert result.code == 2
    assert "cells.R1C7: unknown cell id" in result.err and "cells.R6C1: unknown cell id" in result.err
    assert "R5C6" not in result.err


# --- the score boxes: "Pilar registra sus resultados (14 + 6 = 20) en el cuadro de puntos" ---

def with_totals(cells: dict, **totals) -> Entries:
    return Entries("test.toml", "twenty-one", "A", dict(cells), totals=totals)


def test_pilar_writing_14_plus_6_in_the_points_box_is_valid():
    report = audit(with_totals(full_rows([5, "X", 4, 2, 2, 1]), row1=20, total=20), "en")
    assert report.valid
    assert report.score == 20


def test_a_points_box_without_the_bonus_is_a_written_total_and_the_score_stands():
    report = audit(with_totals(full_rows([5, "X", 4, 2, 2, 1]), row1=14), "en")
    assert rules(report) == [("written-total", ())]
    assert report.violations[0].message == "row 1: its points box says 14, but the row scores 14 + 6 = 20"
    assert report.score == 20


def test_the_total_box_is_the_sum_of_the_rows_points():
    cells = full_rows([6, 5, 4, 3, 2, 1], [5, 5, None, None, None, None])
    assert audit(with_totals(cells, row1=42, row2=11, total=53), "en").valid
    report = audit(with_totals(cells, row1=42, row2=11, total=52), "es")
    assert [v.message for v in report.violations] == [
        "el cuadro Total dice 52, pero las filas suman 42 + 11 + 0 + 0 + 0 = 53"]


def test_each_wrong_box_is_told_and_a_box_left_blank_is_not_judged():
    cells = full_rows([6, 5, 4, 3, 2, 1], [6, 5, 4, 3, 2, 1], [1, 1, 1, 1, 1, 1])
    report = audit(with_totals(cells, row1=42, row2=40, row3=6), "en")  # row 3: 6 + 1 bonus = 7
    assert [v.message for v in report.violations] == [
        "row 2: its points box says 40, but the row scores 21 + 21 = 42",
        "row 3: its points box says 6, but the row scores 6 + 1 = 7"]
    assert report.score == 42 + 42 + 7


def test_the_total_may_leave_out_the_unfinished_row_whose_box_is_blank():
    # "Los demás jugadores pueden sumar su puntuación para la fila en la que están actualmente"
    unfinished = full_rows([6, 5, 4, 3, 2, 1], [5, 5, None, None, None, None])
    assert audit(with_totals(unfinished, row1=42, total=42), "en").valid
    assert audit(with_totals(unfinished, row1=42, total=42), "en").score == 53
    assert rules(audit(with_totals(unfinished, row1=42, row2=11, total=42), "en")) == [("written-total", ())]
    assert rules(audit(with_totals(unfinished, row1=42, total=41), "en")) == [("written-total", ())]
    complete = full_rows([6, 5, 4, 3, 2, 1], [5, 5, 4, 3, 2, 1])
    assert rules(audit(with_totals(complete, row1=42, total=42), "en")) == [("written-total", ())]
