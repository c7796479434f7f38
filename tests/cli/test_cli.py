"""The command line: commands, default output names, exit codes and one-line errors."""

from __future__ import annotations

import ctypes
import json
import os
import pathlib
import stat
import subprocess
import sys

import pypdf
import pytest

from rnwprint.games import GAMES


def test_games_lists_every_game_with_variants_and_languages(cli):
    result = cli("games")
    assert result.code == 0
    for game in GAMES.values():
        line = next(l for l in result.out.splitlines() if l.startswith(game.name))
        assert ", ".join(game.variants) in line and "es, en" in line


def test_sheet_default_name_in_output_folder(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("sheet", "twenty-one", "--variant", "B", "--lang", "en", "--page", "letter")
    assert result.code == 0
    path = tmp_path / "output" / "twenty-one_B_en_letter.pdf"
    assert result.out.strip() == str(pathlib.Path("output") / path.name)
    assert len(pypdf.PdfReader(path).pages) == 1


def test_copies_repeat_pages(cli, tmp_path):
    out = tmp_path / "c.pdf"
    assert cli("sheet", "twenty-one", "--copies", "3", "-o", out).code == 0
    assert len(pypdf.PdfReader(out).pages) == 3


def test_svg_and_png_all_variants_one_file_per_page(cli, tmp_path):
    for fmt in ("svg", "png"):
        out = tmp_path / f"t.{fmt}"
        assert cli("sheet", "twenty-one", "--variant", "all", "--format", fmt, "-o", out).code == 0
        assert sorted(p.name for p in tmp_path.glob(f"t-*.{fmt}")) == [f"t-{n}-{v}.{fmt}" for n, v in enumerate("ABCDEF", 1)]


def test_template_is_a_valid_blank_sheet(cli, tmp_path):
    result = cli("template", "twenty-one", "--variant", "D")
    assert result.code == 0
    assert "R5C6" in result.out and 'variant = "D"' in result.out
    path = tmp_path / "blank.toml"
    path.write_text(result.out)
    audited = cli("audit", path, "--json")
    assert audited.code == 0
    report = json.loads(audited.out)
    assert report["valid"] and report["score"] == 0 and report["variant"] == "D"


def test_audit_json_and_exit_codes(cli, write):
    good = write("good.toml", 'game = "twenty-one"\n[cells]\nR1C1 = 6\nR1C2 = "X"\n')
    bad = write("bad.json", json.dumps({"game": "twenty-one", "variant": "E", "cells": {"R1C6": 2}}))
    result = cli("audit", good, "--json")
    assert result.code == 0
    report = json.loads(result.out)
    assert report["score"] == 7 and report["details"]["rows"][0]["hits"] == 1
    result = cli("audit", bad, "--json", "--lang", "en")
    assert result.code == 1
    report = json.loads(result.out)
    assert report["violations"] == [{"rule": "over-field", "cells": ["R1C6"],
                                     "message": "R1C6: 2 is larger than the field's 1"}]
    text = cli("audit", bad, "--lang", "es")
    assert "over-field" in text.out and "Puntuación: 2" in text.out


@pytest.mark.parametrize("content, reason", [
    ('game = "twenty-one"\n[cells\n', "malformed TOML"),
    ('game = "twenty-one"\n[cells]\nR1C2 = X\n',
     'malformed TOML: Invalid value (at line 3, column 8): text goes in quotes (R1C2 = "X")'),
    ('game = "twenty-one"\n[cells]\nR1C1 = 1\nR1C1 = 2\n',
     "malformed TOML: Cannot overwrite a value (at line 4, column 9): R1C1 is given twice; each key may appear once"),
    ('game = "chess"\n', "unknown game 'chess'"),
    ('game = "twenty-one"\nvariant = "Z"\n', "unknown variant 'Z'"),
    ('game = "twenty-one"\n[cells]\nR9C1 = 3\n', "cells.R9C1: unknown cell id"),
    ('game = "twenty-one"\n[cells]\nR1C1 = "six"\n', "cells.R1C1: 'six' is not a whole number or \"X\""),
    ('game = "twenty-one"\n[cells]\nR1C1 = 2.5\n', "cells.R1C1: 2.5 is not a whole number"),
    ('game = "twenty-one"\n[cells]\nR1C1 = [1, 2]\n', "cells.R1C1: [1, 2] is not a single value"),
    ('game = "twenty-one"\ncolour = "red"\n', "colour: unknown key"),
    ('[cells]\nR1C1 = 3\n', "game: missing"),
    ('game = 21\n[cells]\nR1C1 = 3\n', "game: 21 is not a game's name"),
    ('game = "twenty-one"\n[cells]\nR1C1 = true\n', 'cells.R1C1: true is not a whole number or "X"'),
    ('game = "twenty-one"\n[cells]\nR1C1 = 1979-05-27\n', 'cells.R1C1: 1979-05-27 is not a whole number or "X"'),
    ('game = "twenty-one"\n[cells]\nR1C1 = inf\n', "cells.R1C1: a number too large to be a whole number"),
    ('game = "twenty-one"\n[cells]\nR1C1 = 1e22\n', "cells.R1C1: 1e+22 is too large: no box holds a number that big"),
    ('game = "twenty-one"\n[cells]\nR1C1 = "\u0666"\n', "cells.R1C1: '\u0666' is not a whole number or \"X\""),
    ('game = "twenty-one"\n[cells]\nR1C1 = "\uff16"\n', "cells.R1C1: '\uff16' is not a whole number or \"X\""),
    ('game = "rolling-america"\n[counters]\nrounds = "-1"\n', "counters.rounds: '-1' is not a whole number >= 0"),
    ('game = "roll-to-the-top"\ntower = 5\n', "sheet.toml: tower: expected the tower drawn as text"),
    ('game = "rolling-espana"\nseed = 3\n[[turn]]\ndice = [1, 2]\n',
     "sheet.toml: a game log (as rnwprint roll writes), not a sheet: audit the sheet with it, "
     "rnwprint audit SHEET --log sheet.toml"),
])
def test_bad_input_is_one_line_exit_2(cli, write, content, reason):
    path = write("sheet.toml", content)
    before = path.read_bytes()
    result = cli("audit", path)
    assert result.code == 2
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert str(path) in lines[0] and reason in lines[0]
    assert "Traceback" not in result.err
    assert path.read_bytes() == before


def test_malformed_json_names_line(cli, write):
    path = write("s.json", '{"game": "twenty-one", "cells": {"R1C1": }}')
    result = cli("audit", path)
    assert result.code == 2 and "malformed JSON at line 1" in result.err


def test_every_problem_of_a_file_reported_at_once(cli, write):
    path = write("s.toml", 'game = "twenty-one"\n[cells]\nR0C0 = 1\nR1C1 = "?"\n')
    result = cli("audit", path)
    assert result.code == 2
    assert "R0C0" in result.err and "R1C1" in result.err and len(result.err.strip().splitlines()) == 2


def test_one_bad_file_does_not_stop_the_others(cli, write):
    bad = write("bad.toml", "not toml [")
    good = write("good.toml", 'game = "twenty-one"\n')
    result = cli("audit", bad, good, "--lang", "en")
    assert result.code == 2
    assert "The sheet follows the rules." in result.out


@pytest.mark.parametrize("args, reason", [
    (("sheet", "chess"), "unknown game 'chess'"),
    (("sheet", "twenty-one", "--variant", "Q"), "unknown variant 'Q'"),
    (("sheet", "twenty-one", "--lang", "fr"), "'fr' is not one of"),
    (("template", "nope"), "unknown game"),
])
def test_bad_options_are_one_line_exit_2(cli, args, reason):
    result = cli(*args)
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1 and reason in result.err


def _without_root_powers() -> None:
    """Run in the child before it starts: root gives up the capabilities that let it write
    into any folder (prctl PR_CAPBSET_DROP: CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER),
    so a read-only folder is read-only to it as to anyone."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2, 3):
        if libc.prctl(24, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl")


def run_unprivileged(*args: str) -> subprocess.CompletedProcess:
    """A whole `rnwprint` process; run by root, it first gives up root's right to read and
    write anywhere."""
    command = [sys.executable, "-m", "rnwprint", *args]
    as_root = os.geteuid() == 0
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=120,
                              preexec_fn=_without_root_powers if as_root else None)
    except subprocess.SubprocessError as e:
        pytest.skip(f"root cannot give up its capabilities here ({e})")


def test_unwritable_output_folder_is_one_line_exit_2(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    result = run_unprivileged("sheet", "twenty-one", "-o", str(locked / "x.pdf"))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert str(locked) in result.stderr and "cannot write" in result.stderr
    assert list(locked.iterdir()) == []


def test_output_path_under_a_file_is_one_line_exit_2(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = cli("sheet", "twenty-one", "-o", blocker / "x.pdf")
    assert result.code == 2 and "cannot write" in result.err and str(blocker) in result.err


def test_existing_output_replaced_whole(cli, tmp_path):
    out = tmp_path / "x.pdf"
    out.write_bytes(b"old")
    assert cli("sheet", "twenty-one", "-o", out).code == 0
    assert out.read_bytes().startswith(b"%PDF") and not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize("six", ['"6"', '" 6 "', "6.0"])
def test_a_number_typed_as_text_or_with_a_point_zero_counts_as_the_number(cli, write, six):
    """In cells, counters and score boxes alike: a spreadsheet export writes "6" or 6.0."""
    plain = cli("audit", write("plain.toml", 'game = "rolling-america"\n[cells]\nWA = 6\n[counters]\nrounds = 8\n'))
    typed = cli("audit", write("typed.toml", f'game = "rolling-america"\n[cells]\nWA = {six}\n[counters]\nrounds = {six}\n'))
    assert typed.code == plain.code == 0
    assert typed.out.replace("typed.toml", "plain.toml") == plain.out


def test_toml_saved_under_a_json_name_is_read_as_toml(cli, write):
    toml = cli("audit", write("sheet.json", 'game = "twenty-one"\n[cells]\nR1C1 = 6\nR1C2 = 7\n'), "--lang", "en")
    assert toml.code == 1 and "R1C2" in toml.out
    neither = cli("audit", write("bad.json", "game: twenty-one\n"))
    assert neither.code == 2 and "malformed JSON at line 1, column 1" in neither.err


def test_a_folder_that_cannot_be_read_is_told_in_its_place_and_the_batch_goes_on(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text('game = "twenty-one"\n[cells]\nR1C1 = 6\n')
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "inside.toml").write_text(good.read_text())
    locked.chmod(0)
    try:
        result = run_unprivileged("audit", str(good), str(locked), str(locked / "inside.toml"), str(good), "--json")
    finally:
        locked.chmod(stat.S_IRWXU)
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line.get("score", line.get("error")) for line in lines] == [
        7, f"{locked}: cannot read file: Permission denied",
        f"{locked / 'inside.toml'}: cannot read file: Permission denied", 7]
    assert result.stderr.count("\n") == 2 and "Traceback" not in result.stderr


def test_a_name_too_long_is_told_in_its_place_and_the_batch_goes_on(cli, tmp_path):
    good = tmp_path / "good.toml"
    good.write_text('game = "twenty-one"\n[cells]\nR1C1 = 6\n')
    long_name = tmp_path / ("a" * 300 + ".toml")
    result = cli("audit", good, long_name, good)
    assert result.code == 2 and result.out.count("Puntuación: 7") == 2
    assert result.err.strip() == f"rnwprint: {long_name}: cannot read file: File name too long"
