"""A verdict on a photographed sheet that otherwise follows the rules, resting on a cell read
less than 95 % sure, is marked (?): where players follow the rules, a broken rule is likelier
a misread than a slip (app.audit.doubtful_cells)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from support import synth

from rnwprint.app.audit import DOUBT_BELOW, audit_file, doubtful_cells
from rnwprint.core.report import Report, Violation
from rnwprint.games import GAMES
from rnwprint.photo import pipeline

#: the pyramid built by the rules: each square one more than the higher of the two it rests on
LAWFUL = {"A1": 3, "A2": 5, "A3": 8, "A4": 9, "A5": 12, "B1": 6, "B2": 9, "B3": 10, "B4": 13,
          "C1": 10, "C2": 11, "C3": 14, "D1": 12, "D2": 15, "E1": 16}


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    sheet = GAMES["roll-to-the-top"].build("pyramid", "en", "a4")
    path = tmp_path_factory.mktemp("doubt") / "pyramid.jpg"
    path.write_bytes(synth.make_photo(sheet, LAWFUL, seed=21, megapixels=8.0))
    read = pipeline.read_photo(path)
    assert {cid: r.value for cid, r in read.reads.items() if r.value is not None} == LAWFUL
    return path, read


def marked(text: str) -> int:
    """How many verdicts of a report's text are marked (?)."""
    return sum(line.endswith("(?)") for line in text.splitlines())


def misread(monkeypatch, read, changes: dict, confidence: float = 0.99):
    """The reader reads `changes` ({cell: value}) instead of what is written, `confidence`
    sure and not flagged; every other cell 0.99 sure."""
    reads = {cid: replace(r, confidence=0.99, unsure=False) for cid, r in read.reads.items()}
    reads.update({cid: replace(reads[cid], value=v, confidence=confidence) for cid, v in changes.items()})
    monkeypatch.setattr(pipeline, "read_photo", lambda path: replace(read, reads=reads))


def test_a_misread_breaking_the_rules_of_a_lawful_sheet_is_in_doubt(photo, monkeypatch):
    path, read = photo
    misread(monkeypatch, read, {"C2": 1}, confidence=0.9)  # an 11 read as 1: lower than B2 and B3
    report = audit_file(path, "en")
    assert [v.cells for v in report.violations] == [("C2", "B2"), ("C2", "B3")]
    assert report.unsure == () and report.doubtful == ("C2",)
    assert all(report.rests_on_unsure(v) for v in report.violations)
    text = report.to_text("en")
    assert marked(text) == 2
    assert text.splitlines()[-1] == ("The rest of the sheet follows the rules, so a verdict marked (?) may be a "
                                     "misread: check these cells, read less than 95 % sure, on the paper: C2")
    assert "comprueba en el papel estas casillas, leídas con menos del 95 % de seguridad: C2" in report.to_text("es")
    as_json = json.loads(report.to_json())
    assert as_json["doubtful_cells"] == ["C2"] and all(v["unsure"] for v in as_json["violations"])


def test_a_read_sure_enough_stands(photo, monkeypatch):
    path, read = photo
    misread(monkeypatch, read, {"C2": 1}, confidence=DOUBT_BELOW)
    report = audit_file(path, "en")
    assert len(report.violations) == 2 and report.doubtful == ()
    assert marked(report.to_text("en")) == 0 and "doubtful_cells" not in report.to_json()


def test_a_sheet_breaking_the_rules_all_over_casts_no_doubt(photo, monkeypatch):
    path, read = photo
    # the ground row written high: every square of row B lower than what it rests on
    misread(monkeypatch, read, {"A1": 40, "A2": 41, "A3": 42, "A4": 43, "A5": 44, "C2": 1}, confidence=0.9)
    report = audit_file(path, "en")
    assert len(report.violations) >= 8 and report.doubtful == ()


def test_the_audit_command_marks_the_verdict(photo, monkeypatch, cli):
    path, read = photo
    misread(monkeypatch, read, {"C2": 1}, confidence=0.9)
    result = cli("audit", path, "--lang", "en", "--jobs", "1")
    assert result.code == 1
    assert "C2: 1 is less than the 9 in B2, which it rests on (?)" in result.out and marked(result.out) == 2


def verdict(cells=("B1", "A1")) -> Report:
    return Report("roll-to-the-top", "pyramid", "photo.jpg", 0, [Violation("support", cells, "B1 is low")])


def test_doubt_needs_a_cell_read_less_than_95_percent_sure():
    assert doubtful_cells(verdict(), {"B1": 0.94, "A1": 0.99}, filled=4) == ("B1",)
    assert doubtful_cells(verdict(), {"B1": 0.95, "A1": 0.99}, filled=4) == ()
    assert doubtful_cells(verdict(), {"B1": 0.5, "A1": 0.6}, filled=4) == ("B1", "A1")


def test_doubt_needs_half_the_filled_cells_free_of_violations():
    assert doubtful_cells(verdict(), {"B1": 0.9}, filled=4) == ("B1",)  # 2 of 4 cells named
    assert doubtful_cells(verdict(), {"B1": 0.9}, filled=3) == ()  # 2 of 3


def test_cells_already_unsure_and_typed_in_sheets_are_not_listed_again():
    report = verdict()
    report.unsure = ("B1",)
    assert doubtful_cells(report, {"B1": 0.5, "A1": 0.99}, filled=4) == ()
    assert doubtful_cells(verdict(), {}, filled=4) == ()  # a typed-in file: no confidence
