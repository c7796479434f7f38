"""Every example in the README runs as written: each `rnwprint …` command line of its shell
blocks, in order, in one folder that holds the files the examples name, and each typed-in
file or game log it shows is audited."""

from __future__ import annotations

import glob
import pathlib
import re
import shlex

import pytest
from PIL import Image, ImageDraw

from rnwprint.cli import main
from rnwprint.games import get_game
from support import synth

README = (pathlib.Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.S | re.M)


def command_lines() -> list[list[str]]:
    """The words of every `rnwprint …` command in the README's shell blocks, in order."""
    lines = []
    for block in blocks("sh"):
        for line in block.splitlines():
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words[:1] == ["rnwprint"]:
                    lines.append(words[1:])
    return lines


def typed_in(kind: str) -> list[str]:
    """The README's TOML examples of sheets (with [cells]) or of game logs (with [[turn]])."""
    marker = "[cells]" if kind == "sheet" else "[[turn]]"
    return [b for b in blocks("toml") if marker in b and b.lstrip().startswith("game")]


def sheet_example(game: str, has: str = "") -> str:
    """The README's first typed-in sheet of `game` whose text holds `has`."""
    return next(b for b in typed_in("sheet") if f'game = "{game}"' in b and has in b)


ROLLING_ESPANA_SHEET = 'game = "rolling-espana"\n[cells]\nM = 3\nTO = 4\n[counters]\nrounds = 8\n'


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder holding every file the README's examples read."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.toml").write_text(typed_in("sheet")[0], encoding="utf-8")
    (tmp_path / "b.json").write_text('{"game": "twenty-one", "variant": "B", "cells": {"R1C1": 6}}')
    (tmp_path / "america.toml").write_text(sheet_example("rolling-america"), encoding="utf-8")
    (tmp_path / "game.toml").write_text(typed_in("log")[0], encoding="utf-8")
    (tmp_path / "hoja.toml").write_text(ROLLING_ESPANA_SHEET, encoding="utf-8")
    (tmp_path / "mine.txt").write_text("  []\n [][]\n[][][]\n", encoding="utf-8")
    sheet = get_game("twenty-one").build("A", "es", "a4")
    (tmp_path / "photo.jpg").write_bytes(synth.make_photo(sheet, synth.random_marks(sheet, 3), 3, 4.0))
    scan = Image.open(tmp_path / "photo.jpg")
    scan.save(tmp_path / "scans.pdf", save_all=True, append_images=[scan], resolution=150)
    castle = Image.new("L", (200, 160), 255)
    draw = ImageDraw.Draw(castle)
    draw.rectangle((20, 60, 180, 150), fill=0)
    for x in (20, 70, 120, 160):
        draw.rectangle((x, 30, x + 20, 60), fill=0)
    castle.save(tmp_path / "castle.png")
    return tmp_path


def run(words: list[str], capsys) -> tuple[int, str, str]:
    """Run one command as a shell would: `> FILE` takes its output, `*.jpg` is expanded."""
    redirect = None
    if ">" in words:
        words, redirect = words[:words.index(">")], words[words.index(">") + 1]
    args = [w for word in words for w in (sorted(glob.glob(word)) if "*" in word else [word])]
    code = main(args)
    out, err = capsys.readouterr()
    if redirect:
        pathlib.Path(redirect).write_text(out, encoding="utf-8")
    return code, out, err


def test_the_readme_has_examples_of_every_command():
    assert {"games", "sheet", "template", "audit", "read", "roll", "tower"} <= {w[0] for w in command_lines()}


def test_every_command_example_in_the_readme_runs_as_written(folder, capsys):
    for words in command_lines():
        line = " ".join(words)
        code, out, err = run(words, capsys)
        # 0: done; 1: an audit that found broken rules (what the examples show); never 2
        assert code in (0, 1), f"{line}: exit {code}: {err}"
        assert all(e.startswith("rnwprint: ") for e in err.splitlines()), f"{line}: {err}"
        assert out or words[0] != "audit" or "-o" in words, line


@pytest.mark.parametrize("example", typed_in("sheet"), ids=lambda b: b.split('"')[1])
def test_every_typed_in_example_in_the_readme_audits(tmp_path, example, capsys):
    path = tmp_path / "example.toml"
    path.write_text(example, encoding="utf-8")
    code, _, err = main(["audit", str(path)]), *capsys.readouterr()
    assert code in (0, 1), err


def test_the_game_log_example_in_the_readme_replays(tmp_path, capsys):
    sheet, log = tmp_path / "sheet.toml", tmp_path / "log.toml"
    sheet.write_text(sheet_example("rolling-america"), encoding="utf-8")
    log.write_text(typed_in("log")[0], encoding="utf-8")
    code, out, err = main(["audit", str(sheet), "--log", str(log)]), *capsys.readouterr()
    # the example is one turn of a log seeded 7: its dice are not seed 7's, and the rest is unplayed
    assert code == 1 and "seed-mismatch" in out, err


def test_the_score_box_examples_in_the_readme_say_what_the_readme_shows(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    pathlib.Path("pilar.toml").write_text(sheet_example("twenty-one", "[totals]"), encoding="utf-8")
    shown = README.split("$ rnwprint audit pilar.toml --lang en\n", 1)[1].split("```", 1)[0]
    assert main(["audit", "pilar.toml", "--lang", "en"]) == 1
    assert capsys.readouterr().out == shown
    pathlib.Path("america.toml").write_text(sheet_example("rolling-america", "[totals]"), encoding="utf-8")
    assert main(["audit", "america.toml"]) == 0  # its X box is right
