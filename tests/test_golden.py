"""Every built-in sheet matches its text dump in tests/golden/ (items and cells in rounded mm).
A deliberate change to a sheet: `python -m pytest tests/test_golden.py --update-golden`, then
read the diff of tests/golden/ before committing it."""

from __future__ import annotations

import difflib

import pytest
from sheet_dump import GOLDEN, built_in, dump, render

from rnwprint.games import get_game

DUMPS = built_in()


def test_every_built_in_sheet_has_a_dump_and_no_dump_is_left_over():
    on_disk = set(GOLDEN.glob("*/*.txt"))
    assert on_disk == set(DUMPS), ("run: python -m pytest tests/test_golden.py --update-golden; "
                                   f"missing {sorted(p.name for p in set(DUMPS) - on_disk)[:5]}, "
                                   f"left over {sorted(p.name for p in on_disk - set(DUMPS))[:5]}")


@pytest.mark.parametrize("path", sorted(DUMPS), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_sheet_is_as_dumped(path, request):
    if request.config.getoption("--update-golden"):
        pytest.skip("dumps rewritten")
    text = render(*DUMPS[path])
    expected = path.read_text(encoding="utf-8") if path.exists() else ""
    if text != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "built"))[:40])
        pytest.fail(f"{path.name} differs from the built sheet (--update-golden if meant):\n{diff}")


def test_a_moved_cell_shows_in_the_dump():
    sheet = get_game("twenty-one").build("A", "es", "a4")
    before = dump(sheet)
    cell = sheet.cells["R1C1"]
    sheet.cells["R1C1"] = type(cell)(cell.id, tuple((x + 0.01, y) for x, y in cell.polygon))
    after = dump(sheet)
    (old,), (new,) = ([line for line in text.splitlines() if line.startswith("cell R1C1 ")] for text in (before, after))
    assert old.endswith(": 26.75,59.84 48.75,59.84 48.75,81.46 26.75,81.46")
    assert new.endswith(": 26.76,59.84 48.76,59.84 48.76,81.46 26.76,81.46")


def test_the_byte_identity_check_names_every_difference():
    import sys

    sys.path.insert(0, str(GOLDEN.parent.parent / "tools"))
    from golden import compare

    old = {"sheet/a/pdf": "1", "sheet/a/svg": "2", "audit/x": "3"}
    new = {"sheet/a/pdf": "1", "sheet/a/svg": "9", "photo/y": "4"}
    assert compare(old, new) == ["gone:    audit/x", "new:     photo/y", "changed: sheet/a/svg"]
    assert compare(old, dict(old)) == []
