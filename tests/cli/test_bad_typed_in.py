"""Bad typed-in files to `audit` and `audit --log` (issue 14): every file a user or a prankster
gives is one line on stderr naming the file (and the key or line), exit 2, never a traceback,
a hang or a stopped batch."""

from __future__ import annotations

import json
import os
import time

import pytest
from bad_input_support import GOOD, one_line

from rnwprint.app import audit as run
from rnwprint.core import entries as entries_module


def deep_json(levels: int) -> str:
    return '{"game": "twenty-one", "cells": ' + "[" * levels + "]" * levels + "}"


def deep_toml(levels: int) -> str:
    return 'game = "twenty-one"\ncells = ' + "[" * levels + "]" * levels + "\n"


def blank_rolling_log() -> str:
    return 'game = "rolling-america"\n'


@pytest.mark.parametrize("name, text", [("deep.json", deep_json(1000)), ("deep.toml", deep_toml(1000)),
                                        ("deep50.json", deep_json(50)), ("deep50.toml", deep_toml(50))])
def test_audit_of_a_file_nested_1000_deep_is_one_line(cli, write, name, text):
    result = cli("audit", write(name, text))
    assert result.code == 2
    line = one_line(result)
    assert name in line and "nested more than 20 levels deep" in line
    if name == "deep.json":  # too deep for the parser: the place is found in the text
        assert ": line 1, column 52: nested" in line  # the 21st bracket


def test_the_place_of_json_too_deep_counts_only_the_brackets_still_open(cli, write):
    text = '{"pad": [' + "[1], " * 30 + '["]]]]"]], "game": "twenty-one",\n "cells": ' + "[" * 1000 + "]" * 1000 + "}"
    result = cli("audit", write("deep.json", text))
    assert ": line 2, column 30: nested more than 20 levels deep" in one_line(result)  # cells' 20th bracket


@pytest.mark.parametrize("name, text", [("deep.json", deep_json(1000)), ("deep.toml", deep_toml(1000))])
def test_audit_batch_goes_on_after_a_1000_deep_file(cli, write, name, text):
    a, deep, b = write("a.toml", GOOD), write(name, text), write("b.toml", GOOD)
    result = cli("audit", a, deep, b, "--lang", "en")
    assert result.code == 2
    assert "nested more than 20 levels deep" in one_line(result) and name in result.err
    assert result.out.count("Sheet: twenty-one") == 2 and "b.toml)" in result.out


def test_audit_log_nested_1000_deep_is_one_line(cli, tmp_path, write):
    sheet = tmp_path / "sheet.toml"
    sheet.write_text(cli("template", "rolling-america").out)
    log = write("log.toml", blank_rolling_log() + "turn = " + "[" * 1000 + "]" * 1000 + "\n")
    result = cli("audit", sheet, "--log", log)
    assert result.code == 2
    line = one_line(result)
    assert "log.toml" in line and "nested more than 20 levels deep" in line


def test_audit_of_a_5000_digit_toml_number_names_the_line_and_key(cli, write):
    path = write("big.toml", 'game = "twenty-one"\n[cells]\nR1C1 = ' + "9" * 5000 + "\n")
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: line 3: R1C1 = a number of 5,000 digits; at most 100"


def test_audit_of_a_5000_digit_json_number_names_the_key(cli, write):
    path = write("big.json", '{"game": "twenty-one", "counters": {"x": ' + "9" * 5000 + "}}")
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: counters.x: a number of 5,000 digits; at most 100"


def test_audit_of_a_5000_digit_number_as_a_string_names_the_cell(cli, write):
    path = write("big.json", json.dumps({"game": "twenty-one", "cells": {"R1C1": "7" * 5000}}))
    result = cli("audit", path)
    assert result.code == 2
    line = one_line(result)
    assert line == f"rnwprint: {path}: cells.R1C1: a number of 5,000 digits; at most 100"
    assert "Exceeds the limit" not in result.err


def test_audit_of_a_guarded_5000_digit_number_names_the_cell(cli, tmp_path):
    sheet = cli("template", "rolling-america").out.replace('AK = ""', 'AK = "(' + "4" * 5000 + ')"', 1)
    assert "4444" in sheet
    path = tmp_path / "sheet.toml"
    path.write_text(sheet)
    result = cli("audit", path)
    assert result.code == 2
    assert "a number of 5,000 digits; at most 100" in one_line(result)


def test_audit_of_a_hex_counter_longer_than_100_decimal_digits_names_the_key(cli, write):
    # hexadecimal is not limited by Python, but printing the count in the report would be
    path = write("hex.toml", 'game = "rolling-america"\n[counters]\nguard = 0x' + "f" * 4000 + "\n")
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: counters.guard: a number of more than 100 digits"


@pytest.mark.parametrize("name, text", [
    ("big.toml", 'game = "twenty-one"\n[cells]\nR1C1 = ' + "9" * 5000 + "\n"),
    ("big.json", '{"game": "twenty-one", "counters": {"x": ' + "9" * 5000 + "}}"),
])
def test_audit_batch_goes_on_after_a_5000_digit_number(cli, write, name, text):
    result = cli("audit", write("a.toml", GOOD), write(name, text), write("b.toml", GOOD))
    assert result.code == 2 and "5,000 digits" in one_line(result)
    assert "a.toml)" in result.out and "b.toml)" in result.out


def test_audit_batch_goes_on_after_an_internal_error_in_one_file(cli, write, monkeypatch):
    real = run._apply_rules

    def apply_rules(game, entries, lang, log):
        if entries.source.endswith("boom.toml"):
            raise KeyError("a bug")
        return real(game, entries, lang, log)

    monkeypatch.setattr(run, "_apply_rules", apply_rules)
    boom = write("boom.toml", GOOD)
    result = cli("audit", write("a.toml", GOOD), boom, write("b.toml", GOOD))
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {boom}: internal error (KeyError: 'a bug'); please report it"
    assert "a.toml)" in result.out and "b.toml)" in result.out


def test_audit_of_json_with_a_duplicate_key_names_the_key(cli, write):
    path = write("dup.json", '{"game": "twenty-one", "cells": {"R1C1": 6, "R1C1": 1}}')
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == (f"rnwprint: {path}: duplicate key 'R1C1': each key may appear once "
                                "in an object")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_audit_of_json_with_nan_or_infinity_is_refused_at_its_place(cli, write, constant):
    path = write("nan.json", '{"game": "twenty-one", "note": "NaN \\" Infinity",\n"cells": {"R1C1": %s}}' % constant)
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: line 2, column 19: {constant} is not a number JSON allows"


@pytest.mark.parametrize("text", ["[1, 2]", '"twenty-one"', "42", "null"])
def test_audit_of_json_that_is_not_an_object_is_one_line(cli, write, text):
    path = write("list.json", text)
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: expected an object with game, variant and cells"


@pytest.mark.parametrize("name, text", [
    ("notepad.toml", GOOD),
    ("notepad.json", json.dumps({"game": "twenty-one", "cells": {"R1C1": 6}})),
])
def test_audit_of_a_file_saved_with_a_byte_order_mark(cli, tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    result = cli("audit", path, "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["details"]["rows"][0]["sum"] == 6  # R1C1 = 6 was read


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_audit_of_an_endless_file_stops_at_the_size_limit(cli):
    result = cli("audit", "/dev/zero")
    assert result.code == 2
    assert one_line(result) == "rnwprint: /dev/zero: larger than 1,000,000 bytes: too large for TOML or JSON"


def test_audit_of_a_file_over_the_size_limit_is_one_line(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(entries_module, "MAX_TEXT_BYTES", 100)
    path = tmp_path / "long.toml"
    path.write_text(GOOD + "#" * 100)
    result = cli("audit", path)
    assert one_line(result) == f"rnwprint: {path}: larger than 100 bytes: too large for TOML or JSON"


def test_audit_of_keys_and_values_with_lone_surrogates_escapes_them(cli, write):
    path = write("sur.json", '{"game": "twenty-one", "cells": {"R1C1": "\\ud800"}, "\\udc00": 1}')
    result = cli("audit", path)
    assert result.code == 2
    assert result.err.splitlines() == [
        f"rnwprint: {path}: '\\udc00': unknown key; valid keys are game, variant, lang, cells, totals",
        f"rnwprint: {path}: cells.R1C1: '\\ud800' is not a whole number or \"X\"",
    ]


def test_audit_of_a_huge_unknown_key_or_value_is_cut_short(cli, write):
    path = write("long.json", json.dumps({"game": "twenty-one", "x\n" * 5000: 1, "cells": {"R1C1": "y" * 5000}}))
    result = cli("audit", path)
    assert result.code == 2
    lines = result.err.splitlines()
    assert len(lines) == 2 and all(len(line) < 300 for line in lines)


@pytest.mark.parametrize("game", ["a" * 100_000, "\x00"])
def test_audit_of_a_long_or_strange_game_name_is_one_short_line(cli, write, game):
    path = write("game.json", json.dumps({"game": game}))
    line = one_line(cli("audit", path))
    assert "unknown game" in line and len(line) < 300


@pytest.mark.parametrize("variant", [["A"] * 10_000, "B" * 10_000, 3, None])
def test_audit_of_a_variant_that_is_not_a_name_is_one_short_line(cli, write, variant):
    path = write("v.json", json.dumps({"game": "twenty-one", "variant": variant}))
    line = one_line(cli("audit", path))
    assert "is not a variant name" in line and len(line) < 300


def test_audit_of_a_negative_counter_is_refused(cli, write):
    path = write("neg.toml", 'game = "rolling-america"\n[counters]\nguard = -1\n')
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: counters.guard: -1 is not a whole number >= 0"


@pytest.mark.parametrize("totals, reason", [
    ("row1 = -3", 'totals.row1: -3 is not a whole number >= 0 (or "" for blank)'),
    ('row1 = "twenty"', """totals.row1: 'twenty' is not a whole number >= 0 (or "" for blank)"""),
    ("row1 = 2.5", 'totals.row1: 2.5 is not a whole number >= 0 (or "" for blank)'),
    ("row6 = 3", "totals.row6: unknown score box; valid score boxes: row1, row2, row3, row4, row5, total"),
])
def test_audit_of_a_bad_score_box_names_it_and_writes_nothing(cli, write, totals, reason):
    path = write("boxes.toml", GOOD + "[totals]\n" + totals + "\n")
    result = cli("audit", path)
    assert result.code == 2 and result.out == ""
    assert one_line(result) == f"rnwprint: {path}: {reason}"


def test_audit_of_score_boxes_on_a_sheet_without_them_is_an_unknown_key(cli, write):
    path = write("tower.toml", 'game = "roll-to-the-top"\n[totals]\nx = 3\n')
    assert one_line(cli("audit", path)) == (f"rnwprint: {path}: totals: unknown key; "
                                            "valid keys are game, variant, lang, cells, tower, descending")
    empty = write("empty.toml", 'game = "roll-to-the-top"\n[cells]\nA1 = 3\n[counters]\n')  # no counters: allowed
    assert cli("audit", empty).code == 0


def test_a_blank_score_box_is_not_judged(cli, write):
    path = write("blank.toml", GOOD + '[totals]\nrow1 = ""\ntotal = 7\n')  # a 6 in its field: 6 + 1
    assert cli("audit", path).code == 0


def test_audit_of_toml_with_a_nul_byte_is_one_line(cli, tmp_path):
    path = tmp_path / "nul.toml"
    path.write_bytes(b'game = "twenty-one"\x00\n')
    result = cli("audit", path)
    assert result.code == 2 and one_line(result) == f"rnwprint: {path}: not a text file (expected UTF-8 TOML or JSON)"


@pytest.mark.skipif(not os.path.isdir("/dev/fd"), reason="needs /dev/fd")
def test_audit_of_a_sheet_piped_in_reads_it_once(cli, tmp_path):
    read, write = os.pipe()
    os.write(write, b'{"game": "twenty-one", "cells": {"R1C1": 6}}')  # JSON without a .json name
    os.close(write)
    try:
        result = cli("audit", f"/dev/fd/{read}", "--json")
    finally:
        os.close(read)
    assert result.code == 0, result.err
    assert json.loads(result.out)["details"]["rows"][0]["sum"] == 6


@pytest.mark.parametrize("typed", ["6x", "6 X"])
def test_a_number_typed_with_its_mark_is_told_to_be_typed_alone(cli, write, typed):
    """Twenty One marks a hit "con una pequeña x" beside the number: typed in with it, the
    cell is refused with how to type it (the hit is counted from the field)."""
    path = write("hit.toml", f'game = "twenty-one"\n[cells]\nR1C1 = "{typed}"\n')
    result = cli("audit", path)
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines() == [f"rnwprint: {path}: cells.R1C1: '{typed}' is not a whole number or \"X\": "
                                       "type the number alone (6), without the mark beside it"]


def test_a_file_name_with_a_newline_keeps_each_fault_on_one_line(cli, write):
    """A name holding a newline or a tab is shown escaped: one line a fault, each naming the file."""
    path = write("new\nline\t.toml", 'game = "twenty-one"\n[cells]\nR1C1 = 9\nR9C9 = 1\n')
    result = cli("audit", path)
    assert result.code == 2 and result.out == ""
    shown = str(path).replace("\n", "\\n").replace("\t", "\\t")
    assert result.err.splitlines() == [f"rnwprint: {shown}: cells.R9C9: unknown cell id for twenty-one A"]
    photo = cli("read", path)
    assert photo.code == 2 and len(photo.err.splitlines()) == 1 and photo.err.startswith(f"rnwprint: {shown}: ")


def test_json_null_and_a_number_past_any_float_are_named_as_written(cli, write):
    path = write("n.json", '{"game": "twenty-one", "cells": {"R1C1": null, "R1C2": 1e400}}')
    result = cli("audit", path)
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines() == [f'rnwprint: {path}: cells.R1C1: null is not a whole number or "X" (a blank cell is left out, or "")',
                                       f"rnwprint: {path}: cells.R1C2: a number too large to be a whole number"]


@pytest.mark.parametrize("raw, reason", [
    ('game = "rolling-espana"\n[cells]\nM = 3  # Espa\xf1a\n'.encode("latin-1"),
     "line 3, column 14: byte 0xF1 is not UTF-8 (Latin-1 or Windows text, as older editors save ñ and á?): "
     "save the TOML or JSON file as UTF-8"),
    ('\n# Espa\xf1a\ngame = "rolling-espana"\n'.encode("latin-1"),  # after a blank first line
     "line 2, column 7: byte 0xF1 is not UTF-8 (Latin-1 or Windows text, as older editors save ñ and á?): "
     "save the TOML or JSON file as UTF-8"),
    (GOOD.encode("utf-16"), "UTF-16 text: save the TOML or JSON file as UTF-8"),
])
def test_text_in_another_encoding_says_where_and_to_save_it_as_utf8(cli, tmp_path, raw, reason):
    path = tmp_path / "sheet.toml"
    path.write_bytes(raw)
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: {reason}"
    assert path.read_bytes() == raw


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("args", [("audit", "{pipe}.toml"), ("read", "{pipe}.jpg"), ("tower", "--ascii", "{pipe}.txt"),
                                  ("tower", "--picture", "{pipe}.png")])
def test_a_named_pipe_nothing_writes_to_reads_as_empty_at_once(cli, tmp_path, args):
    """Opening a pipe for reading waits for a writer, which may never come: it is opened
    without waiting, and what nothing wrote to is empty."""
    args = [a.format(pipe=tmp_path / "pipe") for a in args]
    os.mkfifo(args[-1])
    start = time.monotonic()
    result = cli(*args)
    assert result.code == 2 and time.monotonic() - start < 10
    assert one_line(result).startswith(f"rnwprint: {args[-1]}: ")


def test_a_counter_as_text_takes_as_many_digits_as_a_number_may_have(cli, write):
    most = write("most.toml", f'game = "rolling-america"\n[counters]\nrounds = "{"9" * 100}"\n')
    assert cli("audit", most).code == 1  # read, and far more rounds than a game has
    past = cli("audit", write("past.toml", f'game = "rolling-america"\n[counters]\nrounds = "{"9" * 101}"\n'))
    assert past.code == 2 and "counters.rounds: " in one_line(past) and "is not a whole number >= 0" in past.err


@pytest.mark.parametrize("text", [
    'game = "catan"\n[cells]\nV01 = "red village"\nE01 = "red"\n[counters]\nred_victory_cards = NUMBER\n',
    'game = "rolling-america"\n[counters]\nguard = NUMBER\ndupe = NUMBER\n'])
def test_the_longest_counters_allowed_add_up_and_print(cli, write, text):
    path = write("long.toml", text.replace("NUMBER", "9" * entries_module.MAX_DIGITS))
    for args in ((), ("--json",)):
        result = cli("audit", path, *args)
        assert result.code == 1 and "Traceback" not in result.err
        assert "9" * entries_module.MAX_DIGITS in result.out  # the count, told back with its fault


def test_audit_json_gives_an_unusable_file_its_own_object_in_its_place(cli, write):
    good, bad = write("good.toml", GOOD), write("bad.toml", 'game = "twenty-one"\nx = [\n')
    result = cli("audit", good, bad, good, "--json")
    assert result.code == 2
    objects = [json.loads(line) for line in result.out.splitlines()]
    assert [o["source"] for o in objects] == [str(good), str(bad), str(good)]
    assert "error" not in objects[0] and objects[0]["details"]["rows"][0]["sum"] == 6
    assert objects[1]["error"].startswith(f"{bad}: malformed TOML")
    assert one_line(result) == f"rnwprint: {objects[1]['error']}"


def test_a_town_hall_on_the_desert_is_said_to_be_the_deserts(cli, write):
    """Catan's desert has no town hall ("T10" on the default island, "T08" on map-8): the cell
    is named for what it is, not as an unknown id; on map-8 T10 is a town hall like any other."""
    desert = write("d.toml", 'game = "catan"\n[cells]\nT10 = "red"\n')
    result = cli("audit", desert)
    assert (result.code, result.out) == (2, "")
    assert result.err == f"rnwprint: {desert}: cells.T10: T10 is the desert's terrain: the desert has no town hall\n"
    shuffled = write("s.toml", 'game = "catan"\nvariant = "map-8"\n[cells]\nT08 = "blue"\nT10 = "red"\n')
    assert cli("audit", shuffled).err.splitlines()[0].endswith("cells.T08: T08 is the desert's terrain: the desert "
                                                               "has no town hall")
    assert "T10" not in cli("audit", shuffled).err


@pytest.mark.parametrize("typed, read", [('"4.0"', 4), ('"(4.0)"', "(4)"), ('"( 4.00 )"', "(4)"), ("4.0", 4)])
def test_a_whole_number_written_with_a_zero_fraction_is_taken(cli, write, typed, read):
    """A spreadsheet's export writes 4 as "4.0": taken as 4 (and "(4.0)" as a circled 4), as the
    number 4.0 is; the audit is the one of the plain number."""
    plain = cli("audit", write("plain.toml", f'game = "rolling-america"\n[cells]\nAK = {read if read == 4 else chr(34) + read + chr(34)}\n'))
    typed_in = cli("audit", write("typed.toml", f'game = "rolling-america"\n[cells]\nAK = {typed}\n'))
    assert typed_in.code == plain.code and typed_in.out.replace("typed.toml", "plain.toml") == plain.out


@pytest.mark.parametrize("typed", ['"4.5"', '"(4.5)"', '"4."', '"(.0)"'])
def test_a_number_with_a_fraction_is_still_refused(cli, write, typed):
    path = write("frac.toml", f'game = "rolling-america"\n[cells]\nAK = {typed}\n')
    result = cli("audit", path)
    assert result.code == 2 and result.out == ""
    assert one_line(result) == f'rnwprint: {path}: cells.AK: {typed.strip(chr(34))!r} is not a whole number, "X" or "(n)"'


def test_thousands_of_problems_are_said_twenty_lines_and_a_count(cli, write):
    path = write("many.toml", 'game = "twenty-one"\n[cells]\n' + "".join(f"Z{i} = 1\n" for i in range(5000)))
    result = cli("audit", path)
    lines = result.err.splitlines()
    assert result.code == 2 and len(lines) == 21
    assert lines[0] == f"rnwprint: {path}: cells.Z0: unknown cell id for twenty-one A"
    assert lines[-1] == f"rnwprint: {path}: ... and 4,980 more problems like these"


def test_a_shuffled_catan_map_takes_ascii_digits_only(cli, tmp_path):
    result = cli("sheet", "catan", "--variant", "map-\u0663", "-o", tmp_path / "x.pdf")  # an Arabic-Indic 3
    assert result.code == 2 and "unknown variant 'map-\u0663' for catan" in result.err
    assert cli("sheet", "catan", "--variant", "map-3", "-o", tmp_path / "x.pdf").code == 0


def test_a_sheet_given_as_the_game_log_says_which_is_which(cli, write):
    sheet = write("s.toml", 'game = "rolling-america"\n[cells]\nAK = 3\n')
    result = cli("audit", sheet, "--log", sheet)
    assert result.code == 2 and result.out == ""
    assert result.err == (f"rnwprint: {sheet}: a typed-in sheet, not a game log (as rnwprint roll -o writes): give "
                          "the sheet first and the log after --log\n")


@pytest.mark.parametrize("data, says", [
    ('game = "twenty-one"\n'.encode("utf-16-le"), "UTF-16 text without its byte order mark"),
    ('game = "twenty-one"\n'.encode("utf-16-be"), "UTF-16 text without its byte order mark"),
    ('game = "twenty-one"\n'.encode("utf-32"), "UTF-32 text"),
    (b'game = "twenty-one"\n\x00\n', "not a text file (expected UTF-8 TOML or JSON)"),
])
def test_text_in_another_encoding_or_with_nul_bytes_says_what_it_is(cli, tmp_path, data, says):
    path = tmp_path / "sheet.toml"
    path.write_bytes(data)
    result = cli("audit", path)
    assert result.code == 2 and one_line(result).startswith(f"rnwprint: {path}: {says}")
