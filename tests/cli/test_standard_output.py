"""`-o -` and its other names (/dev/stdout): the file written to standard output whole, one thing
there at a time, and a reader that stops reading ends the command quietly."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from project import ROOT


def rnwprint(*args, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rnwprint", *map(str, args)], capture_output=True, cwd=cwd,
                          timeout=120, env={**os.environ, "RNWPRINT_CACHE": ""})


@pytest.mark.parametrize("fmt,name", [("pdf", "-"), ("png", "-"), ("pdf", "/dev/stdout")])
def test_sheet_to_a_dash_writes_the_file_to_standard_output(tmp_path, fmt, name):
    piped = rnwprint("sheet", "twenty-one", "--variant", "B", "--format", fmt, "-o", name, cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert piped.stderr == b"" and list(tmp_path.iterdir()) == []  # no file named "-", no name printed
    written = rnwprint("sheet", "twenty-one", "--variant", "B", "-o", f"b.{fmt}", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    assert piped.stdout == (tmp_path / f"b.{fmt}").read_bytes()


def test_a_pdf_of_every_variant_goes_to_standard_output_whole(tmp_path):
    piped = rnwprint("sheet", "twenty-one", "--variant", "all", "--copies", "2", "-o", "-", cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.startswith(b"%PDF") and piped.stdout.count(b"/Type /Page\n") == 12


@pytest.mark.parametrize("args", [("sheet", "twenty-one", "--variant", "all", "--format", "svg"),
                                  ("tower", "--random", "--seed", "3", "--count", "2", "--format", "png")])
def test_pages_a_file_each_are_refused_on_standard_output(tmp_path, args):
    assert rnwprint(*args, "-o", "/dev/stdout", cwd=tmp_path).returncode == 2
    piped = rnwprint(*args, "-o", "-", cwd=tmp_path)
    assert piped.returncode == 2 and piped.stdout == b""
    assert piped.stderr.decode().startswith("rnwprint: -o -: - is standard output, one file, and ")
    assert piped.stderr.decode().count("\n") == 1 and "--format pdf" in piped.stderr.decode()
    assert list(tmp_path.iterdir()) == []


def test_dot_slash_dash_names_a_file_not_standard_output(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("sheet", "twenty-one", "-o", "./-")
    assert result.code == 0, result.err
    assert (tmp_path / "-").read_bytes().startswith(b"%PDF")
    assert result.out == f"{tmp_path / '-'}\n"


def test_roll_to_a_dash_prints_the_log_alone(tmp_path):
    piped = rnwprint("roll", "rolling-espana", "--seed", "7", "-o", "-", cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    rnwprint("roll", "rolling-espana", "--seed", "7", "-o", "log.toml", cwd=tmp_path)
    assert piped.stdout == (tmp_path / "log.toml").read_bytes()
    assert list(tmp_path.iterdir()) == [tmp_path / "log.toml"]


def test_read_to_a_dash_prints_the_typed_in_file_and_writes_the_picture(cli, tmp_path, photo, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.jpg").write_bytes(photo)
    printed = cli("read", "p.jpg")
    piped = cli("read", "p.jpg", "-o", "-", "--annotate", "seen.png")
    assert piped.code == 0, piped.err
    assert piped.out == printed.out and "R1C1 = 4" in piped.out
    assert (tmp_path / "seen.png").read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jpg", "seen.png"]


def test_read_with_the_picture_to_a_dash_writes_the_typed_in_file(tmp_path, photo):
    (tmp_path / "p.jpg").write_bytes(photo)
    piped = rnwprint("read", "p.jpg", "-o", "mine.toml", "--annotate", "-", cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.startswith(b"\x89PNG") and b"R1C1 = 4" in (tmp_path / "mine.toml").read_bytes()


@pytest.mark.parametrize("args, says", [
    (("-o", "-", "--json"), "-o - writes the typed-in file to standard output, where --json's lines go too"),
    (("--annotate", "-"), "--annotate - writes the picture to standard output, where the typed-in file goes too"),
    (("--annotate", "-", "-o", "x.toml", "--json"), "where the JSON lines go too"),
])
def test_two_things_for_standard_output_are_refused(cli, tmp_path, photo, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.jpg").write_bytes(photo)
    result = cli("read", "p.jpg", *args)
    assert result.code == 2 and result.out == ""
    assert says in result.err and result.err.count("\n") == 1
    assert [p.name for p in tmp_path.iterdir()] == ["p.jpg"]


def test_audit_refuses_its_picture_on_standard_output(cli, write):
    sheet = write("a.toml", 'game = "twenty-one"\nvariant = "A"\n[cells]\nR1C1 = 6\n')
    result = cli("audit", sheet, "--annotate", "-")
    assert result.code == 2 and result.out == ""
    assert "where the report is printed: give --annotate a file" in result.err


def test_a_reader_that_stops_reading_ends_the_command_quietly_with_141():
    """`rnwprint ... | head -1`: exit 141 as a Unix tool stopped by SIGPIPE, never 1 (rules
    broken). 300 towers' drawings are more than a pipe holds: the reader's close is seen."""
    proc = subprocess.Popen([sys.executable, "-m", "rnwprint", "tower", "--random", "--count", "300", "--show"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=60) == 141
    assert proc.stderr.read() == b""


@pytest.mark.parametrize("command", [("sheet", "twenty-one"), ("roll", "rolling-america", "--seed", "3")])
def test_an_output_name_of_spaces_only_is_refused(cli, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    result = cli(*command, "-o", "  ")
    assert result.code == 2 and result.err.strip().endswith("'  ': only spaces: name a file")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name, ext", [("x.svgz", "svgz"), ("x.tar.gz", "gz"), ("x.docx", "docx")])
def test_a_name_of_another_format_is_refused_not_written_as_a_pdf(cli, tmp_path, name, ext):
    result = cli("sheet", "twenty-one", "-o", tmp_path / name)
    assert result.code == 2 and f"a .{ext} name, but this writes PDF, SVG or PNG" in result.err
    assert list(tmp_path.iterdir()) == []
