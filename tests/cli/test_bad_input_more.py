"""Bad input found by trying every command as a stranger (2026-12-05): an empty path, a game
log given as the --annotate picture, an empty --builtin or --variant, a seed no `roll` gives,
a picture too thin to hold a sheet, a photo named in no UTF-8, a number no one writes."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest
from bad_input_support import one_line
from PIL import Image

from rnwprint.games import GAMES


@pytest.mark.parametrize("args", [("audit", ""), ("read", ""), ("tower", "--ascii", ""), ("tower", "--picture", ""),
                                  ("template", "roll-to-the-top", "--ascii", ""),
                                  ("audit", "x.toml", "--log", ""), ("read", "x.jpg", "--into", "")])
def test_an_empty_path_is_refused_not_taken_for_the_current_folder(cli, args):
    result = cli(*args)
    assert result.code == 2 and "empty path: name a file" in one_line(result)


@pytest.fixture
def sheet_and_log(cli, tmp_path):
    sheet = tmp_path / "ra.toml"
    sheet.write_text(cli("template", "rolling-america").out)
    log = tmp_path / "log.toml"
    assert cli("roll", "rolling-america", "--seed", "7", "-o", log).code == 0
    return sheet, log


def test_annotate_never_writes_over_the_game_log(cli, sheet_and_log):
    sheet, log = sheet_and_log
    disguised = log.with_name("lg.png")
    disguised.write_bytes(log.read_bytes())
    before = hashlib.sha256(disguised.read_bytes()).hexdigest()
    result = cli("audit", sheet, "--log", disguised, "--annotate", disguised)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {disguised}: is an input of this command: refusing to write over it"
    assert hashlib.sha256(disguised.read_bytes()).hexdigest() == before


@pytest.mark.parametrize("seed", ["-1", "1000000000", "12345678901234567890123456789"])
def test_a_log_seed_roll_never_gives_is_refused(cli, sheet_and_log, seed):
    sheet, log = sheet_and_log
    log.write_text(log.read_text().replace("seed = 7", f"seed = {seed}"))
    result = cli("audit", sheet, "--log", log)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {log}: seed: {seed} is outside 0-999,999,999, the seeds roll --seed takes"


def test_two_game_logs_are_refused_not_the_last_one_taken(cli, sheet_and_log):
    sheet, log = sheet_and_log
    result = cli("audit", sheet, "--log", log, "--log", log)
    assert result.code == 2
    assert one_line(result) == "rnwprint: --log given more than once: a sheet is replayed against one game log"
    assert cli("audit", sheet, "--log", log).code in (0, 1)


def test_game_names_are_taken_in_any_case_by_roll_and_in_logs(cli, sheet_and_log):
    sheet, log = sheet_and_log
    assert cli("roll", "Rolling-America", "--seed", "7").out == cli("roll", "rolling-america", "--seed", "7").out
    spelt = cli("roll", "Rolling España", "--seed", "7")  # spaces and ñ, as `sheet` takes the name
    assert spelt.code == 0 and spelt.out == cli("roll", "rolling-espana", "--seed", "7").out
    log.write_text(log.read_text().replace('game = "rolling-america"', 'game = "ROLLING-AMERICA"'))
    assert 'game = "ROLLING-AMERICA"' in log.read_text()
    assert cli("audit", sheet, "--log", log).code == 0


def test_roll_refuses_a_game_without_dice_to_roll(cli):
    result = cli("roll", "twenty one", "--seed", "7")
    assert result.code == 2
    assert one_line(result) == ("rnwprint: GAME: this command is not for 'twenty one'; "
                                "choose one of: rolling-america, rolling-espana")


@pytest.mark.parametrize("command", [("tower", "--builtin", ""), ("tower", "--builtin", "", "--show")])
def test_an_empty_builtin_is_an_unknown_tower(cli, command):
    result = cli(*command)
    assert result.code == 2 and one_line(result).startswith("rnwprint: --builtin: unknown built-in tower ''")


@pytest.mark.parametrize("command", [("sheet", "twenty-one", "--variant", ""), ("template", "twenty-one", "--variant", "")])
def test_an_empty_variant_is_refused_not_taken_for_the_first(cli, tmp_path, command):
    result = cli(*command, *(("-o", tmp_path / "x.pdf") if command[0] == "sheet" else ()))
    assert result.code == 2 and one_line(result).startswith("rnwprint: --variant: unknown variant '' for twenty-one")
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("size", [(3, 20000), (100000, 1), (1, 1), (63, 400)])
def test_a_picture_too_thin_for_a_sheet_says_so(cli, tmp_path, size):
    path = tmp_path / "thin.png"
    Image.new("RGB", size, "white").save(path)
    for command in ("read", "audit"):
        result = cli(command, path, "--jobs", "1")
        assert result.code == 2
        assert one_line(result) == (f"rnwprint: {path}: no rnwprint sheet found in the photo: "
                                    f"it is only {size[0]} x {size[1]} px")


@pytest.mark.skipif(sys.platform != "linux", reason="a file name in no UTF-8 needs a byte-named file system")
def test_a_photo_named_in_no_utf8_is_read_into_a_file(cli, tmp_path):
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    from support import synth

    sheet = GAMES["twenty-one"].build("A", "es", "a4")
    photo = os.fsdecode(os.fsencode(str(tmp_path)) + b"/p\xfe.jpg")
    with open(photo, "wb") as f:
        f.write(synth.make_photo(sheet, synth.random_marks(sheet, 3), seed=3, megapixels=4.0))
    out = tmp_path / "read.toml"
    result = subprocess.run([sys.executable, "-m", "rnwprint", "read", photo, "-o", str(out)], capture_output=True,
                            check=False, timeout=300)  # a process of its own: its stderr names the file as Python does
    assert result.returncode == 0 and b"Traceback" not in result.stderr
    text = out.read_text(encoding="utf-8")
    # a Spanish sheet; the stray byte escaped as in error messages
    assert text.startswith("# Leído por rnwprint de ") and "p\\udcfe.jpg (" in text.splitlines()[0]
    assert cli("audit", out).code in (0, 1)
    for command in ("read", "audit"):  # --json: UTF-8 throughout, the name's stray byte as "?"
        lines = subprocess.run([sys.executable, "-m", "rnwprint", command, photo, "--json"], capture_output=True,
                               check=False, timeout=300).stdout
        assert json.loads(lines.decode("utf-8"))["source"].endswith("/p?.jpg")


def test_a_float_too_large_to_be_written_is_too_large(cli, write):
    path = write("big.toml", 'game = "twenty-one"\n[cells]\nR1C1 = 1e300\n')
    result = cli("audit", path)
    assert result.code == 2 and one_line(result) == (f"rnwprint: {path}: cells.R1C1: 1e+300 is too large: "
                                                     "no box holds a number that big")


@pytest.mark.parametrize("game, lang, line", [
    ("rolling-espana", "es", "colour_change = 0  # cambios de color usados (0-3)"),
    ("rolling-espana", "en", "colour_change = 0  # colour changes used (0-3)"),
    ("catan", "es", "red_knights = 0  # cartas de caballero que ese color jugó"),
    ("catan", "en", "red_knights = 0  # knight cards that colour played")])
def test_a_blank_files_counters_speak_its_language(cli, game, lang, line):
    assert line in cli("template", game, "--lang", lang).out.splitlines()


@pytest.mark.parametrize("args", [("audit", "{}/g/nomatch*.toml"), ("read", "{}/shots/IMG_?.jpg"),
                                  ("tower", "--picture", "{}/tower[12].png", "--show")])
def test_a_pattern_that_matches_nothing_is_said_to_be_one(cli, tmp_path, args):
    """A Windows prompt (and a shell with nothing to expand) passes `*.toml` on as it is: when
    nothing matches, the message says so, not "no such file"."""
    args = [a.format(tmp_path) for a in args]
    pattern = next(a for a in args if "{" not in a and any(c in a for c in "*?["))
    result = cli(*args)
    assert (result.code, result.out) == (2, "")
    assert result.err == f"rnwprint: {pattern}: no file matches this pattern\n"
    missing = cli("tower", "--picture", tmp_path / "tower.png", "--show")
    assert missing.err == f"rnwprint: {tmp_path / 'tower.png'}: cannot read file: No such file or directory\n"


@pytest.mark.parametrize("args, shown", [
    (("roll", "rolling-america", "--seed", "\u0667"), "'--seed': '\u0667'"),  # an Arabic-Indic 7
    (("roll", "rolling-america", "--seed", "1_0"), "'--seed': '1_0'"),
    (("sheet", "twenty-one", "--copies", "\uff13"), "'--copies': '\uff13'"),  # a full-width 3
    (("tower", "--random", "--seed", "3", "--squares", "\u0663\u0660"), "'--squares': '\u0663\u0660'"),
])
def test_numeric_options_take_ascii_digits_as_typed_in_files_do(cli, args, shown):
    result = cli(*args)
    assert result.code == 2 and one_line(result) == f"rnwprint: Invalid value for {shown} is not a whole number (digits 0-9)"
