"""What `read` and `audit` are given: a folder is read as the photos (and, for `audit`, the
typed-in sheets) in it, a pattern no shell expanded as its matches, a PDF as its pages."""

from __future__ import annotations

import json
import pathlib

import pytest
from PIL import Image

from rnwprint.app.inputs import files_to_read
from rnwprint.games import GAMES
from rnwprint.photo.pdf import PdfPage
from support import synth


def touch(folder: pathlib.Path, *names: str) -> None:
    for name in names:
        (folder / name).write_bytes(b"x")


def two_page_pdf(path: pathlib.Path) -> pathlib.Path:
    page = Image.new("RGB", (300, 400), "white")
    page.save(path, save_all=True, append_images=[page], resolution=50)
    return path


def test_a_folder_is_its_photos_by_name_and_a_pdf_its_pages(tmp_path):
    touch(tmp_path, "IMG_2.jpg", "IMG_1.HEIC", "b.PNG", "notes.txt", ".DS_Store", "._IMG_3.jpg", "sheet.toml")
    (tmp_path / "sub").mkdir()
    touch(tmp_path / "sub", "deeper.jpg")
    pdf = two_page_pdf(tmp_path / "scans.pdf")
    assert files_to_read([tmp_path]) == (tmp_path / "IMG_1.HEIC", tmp_path / "IMG_2.jpg", tmp_path / "b.PNG",
                                         PdfPage(pdf, 1, 2), PdfPage(pdf, 2, 2))
    # audit takes the typed-in sheets in it too
    assert tmp_path / "sheet.toml" in files_to_read([tmp_path], typed_in=True)
    assert tmp_path / "sheet.toml" not in files_to_read([tmp_path])


def test_audit_of_a_read_into_folder_takes_each_checked_sheet_not_its_picture(tmp_path):
    """`read --into checked/` leaves NAME.toml (to check and correct) beside NAME.png (its
    picture): audit takes the sheet, once; a photo with no sheet of its name is audited too."""
    touch(tmp_path, "a.toml", "a.png", "b.json", "b.PNG", "c.jpg")
    assert files_to_read([tmp_path], typed_in=True) == (tmp_path / "a.toml", tmp_path / "b.json", tmp_path / "c.jpg")
    assert files_to_read([tmp_path]) == (tmp_path / "a.png", tmp_path / "b.PNG", tmp_path / "c.jpg")


def test_a_pattern_no_shell_expanded_is_its_matches_and_an_existing_name_itself(tmp_path):
    touch(tmp_path, "a.jpg", "b.jpg", "c.png", "*.png")
    assert files_to_read([tmp_path / "*.jpg"]) == (tmp_path / "a.jpg", tmp_path / "b.jpg")
    assert files_to_read([tmp_path / "*.png"]) == (tmp_path / "*.png",)  # a file of that name
    assert files_to_read([tmp_path / "*.gif"]) == (tmp_path / "*.gif",)  # nothing: said when read


def test_read_of_a_folder_reads_each_photo_and_an_empty_one_says_so(cli, tmp_path):
    sheet = GAMES["twenty-one"].build("A", "es", "a4")
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "IMG_1.jpg").write_bytes(synth.make_photo(sheet, synth.random_marks(sheet, 5), seed=5, megapixels=2.0))
    (photos / "notes.txt").write_text("round 3: Ana 41, Luis 38")
    out = cli("read", photos, "--json", "--jobs", "1")
    assert out.code == 0, out.err
    assert [json.loads(line)["source"] for line in out.out.splitlines()] == [str(photos / "IMG_1.jpg")]
    empty = tmp_path / "empty"
    empty.mkdir()
    refused = cli("read", empty)
    assert refused.code == 2
    assert refused.err == f"rnwprint: {empty}: a folder with no photo in it (JPEG, PNG, HEIC or PDF)\n"
    refused = cli("audit", empty)
    assert refused.code == 2
    assert refused.err == f"rnwprint: {empty}: a folder with no photo nor typed-in sheet (.toml, .json) in it\n"


def test_audit_of_a_folder_audits_its_typed_in_sheets(cli, tmp_path):
    (tmp_path / "a.toml").write_text('game = "twenty-one"\nvariant = "A"\n[cells]\nR1C1 = 6\n')
    (tmp_path / "b.json").write_text('{"game": "twenty-one", "variant": "B", "cells": {"R1C1": 7}}')
    (tmp_path / "readme.txt").write_text("not a sheet")
    out = cli("audit", tmp_path, "--json")
    reports = [json.loads(line) for line in out.out.splitlines()]
    assert [r["variant"] for r in reports] == ["A", "B"]
    assert out.code == 1  # b's 7 is no die's value


@pytest.mark.parametrize("command", ["audit", "read"])
def test_a_dash_for_a_file_says_standard_input_is_not_read(cli, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    result = cli(command, "-")
    assert result.code == 2
    assert result.err == ("rnwprint: -: no file of that name; standard input is not read here: give the file's name "
                          "(./- for a file named -)\n")


def test_a_photo_named_with_a_newline_reads_into_a_file_audit_takes(cli, tmp_path, photo):
    path = tmp_path / "p\nq.jpg"
    path.write_bytes(photo)
    typed_in = tmp_path / "out.toml"
    assert cli("read", path, "-o", typed_in).code == 0
    assert "/p\\nq.jpg (twenty-one A" in typed_in.read_text(encoding="utf-8")  # escaped in its comment
    audited = cli("audit", typed_in)
    assert audited.code in (0, 1), audited.err
    into = cli("read", path, "--into", tmp_path / "reads")
    assert into.code == 0 and into.out.count("\n") == 1 and into.out.startswith(f"{tmp_path}/p\\nq.jpg: ")
    report = cli("audit", path)
    assert "p\\nq.jpg" in report.out.splitlines()[0]
