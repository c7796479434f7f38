"""Rolling America / España rules: the dice, the game-log files and their parsing, and the
`roll` and `audit --log` commands."""

from __future__ import annotations

import json
import pathlib
import re
from collections import Counter

import pytest

from rnwprint.core.entries import CROSSED, Entries, Guarded
from rnwprint.core.errors import RnwError
from rnwprint.games.rolling.log import Write, load_log, log_text, roll_game
from rnwprint.games.rolling.replay import replay
from rnwprint.games.rolling.rules import DICE

from rolling_support import ES, US, greedy, sheet


# --- the dice ---------------------------------------------------------------------------------

def test_roll_is_8_rounds_of_3_turns_from_the_bag():
    for seed in range(40):
        turns = roll_game(seed)
        assert [t.number for t in turns] == list(range(1, 25))
        assert [t.round for t in turns] == [r for r in range(1, 9) for _ in range(3)]
        for rnd in range(1, 9):
            dice = [d for t in turns if t.round == rnd for d, _ in t.dice]
            assert len(dice) == 6 and len(set(dice)) == 6  # 6 of the 7, none twice
        for t in turns:
            assert len(t.dice) == 2 and t.writes == ()
            assert [d for d, _ in t.dice] == sorted((d for d, _ in t.dice), key=DICE.index)
            assert all(1 <= f <= 6 for _, f in t.dice)


def test_roll_is_deterministic_and_uses_every_die_and_face():
    assert roll_game(7) == roll_game(7) and roll_game(7) != roll_game(8)
    assert roll_game(7)[0].dice == (("blue", 6), ("green", 4))  # pinned: same seed, same game
    seen = Counter((d, f) for seed in range(30) for t in roll_game(seed) for d, f in t.dice)
    assert {d for d, _ in seen} == set(DICE) and {f for _, f in seen} == set(range(1, 7))
    left_out = Counter(next(iter(set(DICE) - {d for t in roll_game(s)[r * 3:r * 3 + 3] for d, _ in t.dice}))
                       for s in range(30) for r in range(8))
    assert set(left_out) == set(DICE)  # each die is sometimes the one left in the bag


def test_skeleton_parses_and_replays_clean_on_an_empty_sheet(tmp_path):
    path = tmp_path / "skeleton.toml"
    path.write_text(log_text("rolling-espana", roll_game(3), "es", 3), encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Registro de partida de rnwprint.") and 'cell = ""  # el ' in text
    parsed = load_log(path, ES)
    assert parsed.seed == 3 and len(parsed.turns) == 24
    assert [t.dice for t in parsed.turns] == [t.dice for t in roll_game(3)]
    report = replay(sheet(board=ES), ES, path, "en")
    assert report.valid and report.details["log"]["turns_played"] == 0


def test_a_log_may_name_its_game_as_the_sheet_spells_it_and_an_empty_one_is_said_so(tmp_path):
    path = tmp_path / "log.toml"
    path.write_text(log_text("rolling-espana", roll_game(3), "es", 3).replace(
        'game = "rolling-espana"', 'game = "Rolling España"'), encoding="utf-8")
    assert 'game = "Rolling España"' in path.read_text(encoding="utf-8")
    assert len(load_log(path, ES).turns) == 24
    path.write_text("", encoding="utf-8")
    with pytest.raises(RnwError, match=": empty file: expected a game log"):
        load_log(path, ES)


def test_toml_log_with_every_write_kind(tmp_path):
    path = tmp_path / "log.toml"
    path.write_text('''
game = "rolling-america"
[[turn]]
round = 1
dice = { green = 6, white = 1 }
[[turn.write]]
die = "green"
cell = "TX"
[[turn.write]]
die = "white"
cell = "OK"
guard = true
[[turn]]
dice = { red = 4, blue = 4 }
[[turn.write]]
die = "red"
cell = "GA"
dupe_cell = "SC"
dupe_guard = true
[[turn.write]]
die = "blue"
cell = "MN"
''', encoding="utf-8")
    parsed = load_log(path, US)
    assert parsed.turns[1].writes[0] == Write("red", cell="GA", dupe_cell="SC", dupe_guard=True)
    cells = {"TX": 6, "OK": Guarded(1), "GA": 4, "SC": Guarded(4), "MN": 4}
    report = replay(sheet(cells, guard=2, dupe=1), US, path, "en")
    assert report.valid and report.details["log"]["powers"] == {"colour_change": 0, "guard": 2, "dupe": 1}


# --- malformed logs are input errors ---------------------------------------------------------------

@pytest.mark.parametrize("doc, reason", [
    ({"game": "rolling-america", "colour": 1}, "colour: unknown key; valid keys are game, seed, turn"),
    ({"turn": []}, "game: missing"),
    ({"game": "rolling-espana"}, "game: the log is for 'rolling-espana' but the sheet is rolling-america"),
    ({"game": "rolling-america", "seed": "x"}, "seed: 'x' is not a whole number"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1}}]}, "turn 1: dice: expected the 2 dice"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "pink": 2}}]}, "turn 1: dice: unknown die 'pink'"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 7, "blue": 2}}]}, "turn 1: dice.red: 7 is not a face 1-6"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "rojo": 2}}]}, "turn 1: dice: red given twice"),
    ({"game": "rolling-america", "turn": [{"round": 2, "dice": {"red": 1, "blue": 2}}]},
     "turn 1: round = 2, but turn 1 is in round 1"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2}, "roll": 1}]}, "turn 1: roll: unknown key"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2}, "write": [{"die": "red", "cell": "tx"}]}]},
     "turn 1, write 1: cell: unknown cell 'tx' for rolling-america (did you mean TX?)"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2}, "write": [{"die": "red", "cell": 5}]}]},
     "turn 1, write 1: cell: unknown cell 5 for rolling-america"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2}, "write": [{"die": "pink", "cell": "TX"}]}]},
     "turn 1, write 1: die: unknown die 'pink'"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2}, "write": [{"cell": "TX"}]}]},
     "turn 1, write 1: die: missing"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2}, "write": [{"die": None, "cell": "TX"}]}]},
     "turn 1, write 1: die: unknown die null"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2},
                                           "write": [{"die": "red", "cell": "GA", "x": "SC"}]}]},
     "turn 1, write 1: give only one of cell, x or nothing"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2},
                                           "write": [{"die": "red", "x": "GA", "guard": True}]}]},
     "turn 1, write 1: guard and dupe_cell need the number's cell"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2},
                                           "write": [{"die": "red", "guard": True}]}]},
     "turn 1, write 1: say where the die went"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2},
                                           "write": [{"die": "red", "cell": "GA", "guard": "yes"}]}]},
     "turn 1, write 1: guard: 'yes' is not true or false"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2},
                                           "write": [{"die": "red", "cell": "GA", "flip": True}]}]},
     "turn 1, write 1: flip: unknown key"),
])
def test_malformed_logs_name_the_file_and_the_key(tmp_path, doc, reason):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(RnwError, match="^" + re.escape(f"{path}: {reason}")) as caught:
        replay(sheet(), US, path, "en")
    assert "\n" not in str(caught.value)


def test_every_log_problem_at_once(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('game = "rolling-america"\nextra = 1\n[[turn]]\ndice = { red = 9, blue = 1 }\n')
    both = f"{path}: extra: unknown key; valid keys are game, seed, turn\n{path}: turn 1: dice.red: 9 is not a face 1-6"
    with pytest.raises(RnwError, match="^" + re.escape(both) + "$"):
        load_log(path, US)


def test_bad_toml_log(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("game = [\n")
    with pytest.raises(RnwError, match="malformed TOML"):
        load_log(path, US)


# --- the command line ---------------------------------------------------------------------------

def test_roll_prints_the_whole_game_the_same_every_time(cli):
    first = cli("roll", "rolling-america", "--seed", "7")
    assert first.code == 0 and first.err == ""
    lines = first.out.splitlines()
    assert lines[0] == "Rolling America, semilla 7: 8 rondas de 3 turnos, dos dados por turno"
    assert sum(l.startswith("Ronda ") for l in lines) == 8
    assert sum(l.strip().startswith("Turno ") for l in lines) == 24
    assert lines[2].split() == ["Turno", "1", "azul", "6", "verde", "4"]
    assert cli("roll", "rolling-america", "--seed", "7").out == first.out
    english = cli("roll", "rolling-espana", "--seed", "7", "--lang", "en")
    assert english.out.startswith("Rolling España, seed 7") and "Round 8" in english.out


def test_roll_writes_a_log_skeleton_atomically(cli, tmp_path):
    out = tmp_path / "logs" / "game.toml"
    result = cli("roll", "rolling-espana", "--seed", "42", "-o", out)
    assert result.code == 0
    assert result.out.splitlines()[-1] == f"Registro de partida para rellenar: {out}"
    first = out.read_bytes()
    assert cli("roll", "rolling-espana", "--seed", "42", "-o", out).code == 0
    assert out.read_bytes() == first and not list(out.parent.glob(".*.tmp"))
    assert [t.dice for t in load_log(out, ES).turns] == [t.dice for t in roll_game(42)]
    js = tmp_path / "game.json"
    assert cli("roll", "rolling-espana", "--seed", "42", "-o", js).code == 0
    doc = json.loads(js.read_text())
    assert doc["seed"] == 42 and doc["game"] == "rolling-espana"
    assert doc["turn"][0]["write"] == [{"die": d, "cell": ""} for d, _ in roll_game(42)[0].dice]


@pytest.mark.parametrize("args, reason", [
    (("roll", "twenty-one", "--seed", "1"), "this command is not for 'twenty-one'"),
    (("roll", "rolling-america"), "Missing option '--seed'"),
    (("roll", "rolling-america", "--seed", "x"), "'x' is not a whole number (digits 0-9)"),
    (("roll", "rolling-america", "--seed", "1", "--lang", "fr"), "'fr' is not one of"),
])
def test_roll_bad_options_one_line_exit_2(cli, args, reason):
    result = cli(*args)
    assert result.code == 2 and result.out == ""
    assert len(result.err.strip().splitlines()) == 1 and reason in result.err


def test_roll_unwritable_log_is_one_line_exit_2(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = cli("roll", "rolling-america", "--seed", "1", "-o", blocker / "log.toml")
    assert result.code == 2 and result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"rnwprint: {blocker}: is a file, not a folder")


def _write_sheet(path: pathlib.Path, entries: Entries) -> pathlib.Path:
    cells = {c: (str(v) if not isinstance(v, int) else v) for c, v in entries.cells.items()}
    path.write_text(json.dumps({"game": entries.game, "cells": cells, "counters": entries.counters}))
    return path


def test_audit_with_log_exit_codes(cli, tmp_path):
    played, final = greedy(ES, roll_game(9))
    log_path = tmp_path / "log.toml"
    log_path.write_text(log_text(ES.game, played, "es", 9), encoding="utf-8")
    good = _write_sheet(tmp_path / "good.json", final)
    result = cli("audit", good, "--log", log_path, "--json")
    assert result.code == 0, result.out + result.err
    report = json.loads(result.out)
    assert report["valid"] and report["details"]["log"]["turns_played"] == 24
    assert cli("audit", good).code == 0

    changed = dict(final.cells)
    code = next(c for c, v in changed.items() if v == CROSSED)
    changed[code] = 6 if code in ("PM", "GC", "TF", "CE", "ML") else CROSSED
    changed.pop(next(c for c, v in changed.items() if type(v) is int))
    bad = _write_sheet(tmp_path / "bad.json", sheet(changed, ES, **final.counters))
    result = cli("audit", bad, "--log", log_path, "--lang", "es")
    assert result.code == 1 and "log-mismatch" in result.out and "según el registro, " in result.out


def test_audit_log_input_errors_exit_2(cli, tmp_path, write):
    sheet_path = write("s.toml", 'game = "rolling-america"\n[cells]\nTX = 3\n')
    bad_log = write("log.toml", 'game = "rolling-america"\n[[turn]]\ndice = { red = 1, cyan = 2 }\n')
    result = cli("audit", sheet_path, "--log", bad_log)
    assert result.code == 2 and result.out == ""
    assert result.err.strip() == f"rnwprint: {bad_log}: turn 1: dice: unknown die 'cyan'; " \
                                 "dice are red, blue, green, yellow, orange, purple, white"
    missing = cli("audit", sheet_path, "--log", tmp_path / "nope.toml")
    assert missing.code == 2 and "cannot read file" in missing.err
    two = cli("audit", sheet_path, sheet_path, "--log", bad_log)
    assert two.code == 2 and len(two.err.strip().splitlines()) == 1 and "exactly one sheet" in two.err
    other = write("t.toml", 'game = "twenty-one"\n')
    result = cli("audit", other, "--log", bad_log)
    assert result.code == 2 and result.err.strip() == "rnwprint: --log: twenty-one has no game log"


def test_roll_takes_seeds_from_0_to_999999999(cli):
    assert cli("roll", "rolling-america", "--seed", "0").code == 0
    result = cli("roll", "rolling-america", "--seed", "-3")
    assert result.code == 2 and "'--seed': -3 is not in the range 0<=x<=999999999" in result.err
