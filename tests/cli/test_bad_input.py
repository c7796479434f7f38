"""Bad input to `audit`, `audit --log` and `tower` (issue 14): every file a user or a prankster
gives is one line on stderr naming the file (and the key or line), exit 2, never a traceback,
a hang or a stopped batch."""

from __future__ import annotations

import io
import json
import os
import struct
import sys
import time
import zlib

import pytest
from PIL import Image

from rnwprint.app import audit as run
from rnwprint.core import entries as entries_module
from rnwprint.games.roll_to_the_top.tower import Tower
from rnwprint.games.roll_to_the_top.tower_code import encode

GOOD = 'game = "twenty-one"\n[cells]\nR1C1 = 6\n'


def deep_json(levels: int) -> str:
    return '{"game": "twenty-one", "cells": ' + "[" * levels + "]" * levels + "}"


def deep_toml(levels: int) -> str:
    return 'game = "twenty-one"\ncells = ' + "[" * levels + "]" * levels + "\n"


def one_line(result) -> str:
    """The single stderr line of a refused file (fails if there is not exactly one)."""
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert "Traceback" not in result.err
    return lines[0]


def blank_rolling_log() -> str:
    return 'game = "rolling-america"\n'


# --- nesting ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, text", [("deep.json", deep_json(1000)), ("deep.toml", deep_toml(1000)),
                                        ("deep50.json", deep_json(50)), ("deep50.toml", deep_toml(50))])
def test_audit_of_a_file_nested_1000_deep_is_one_line(cli, write, name, text):
    result = cli("audit", write(name, text))
    assert result.code == 2
    line = one_line(result)
    assert name in line and "nested more than 20 levels deep" in line


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


# --- numbers past Python's digit limit -----------------------------------------------------

def test_audit_of_a_5000_digit_toml_number_names_the_line_and_key(cli, write):
    path = write("big.toml", 'game = "twenty-one"\n[cells]\nR1C1 = ' + "9" * 5000 + "\n")
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: line 3: R1C1 = a number of 5,000 digits; at most 4,300"


def test_audit_of_a_5000_digit_json_number_names_the_key(cli, write):
    path = write("big.json", '{"game": "twenty-one", "counters": {"x": ' + "9" * 5000 + "}}")
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: counters.x: a number of 5,000 digits; at most 4,300"


def test_audit_of_a_5000_digit_number_as_a_string_names_the_cell(cli, write):
    path = write("big.json", json.dumps({"game": "twenty-one", "cells": {"R1C1": "7" * 5000}}))
    result = cli("audit", path)
    assert result.code == 2
    line = one_line(result)
    assert line == f"rnwprint: {path}: cells.R1C1: a number of 5,000 digits; at most 4,300"
    assert "Exceeds the limit" not in result.err


def test_audit_of_a_guarded_5000_digit_number_names_the_cell(cli, tmp_path):
    sheet = cli("template", "rolling-america").out.replace('AK = ""', 'AK = "(' + "4" * 5000 + ')"', 1)
    assert "4444" in sheet
    path = tmp_path / "sheet.toml"
    path.write_text(sheet)
    result = cli("audit", path)
    assert result.code == 2
    assert "a number of 5,000 digits; at most 4,300" in one_line(result)


def test_audit_of_a_hex_counter_longer_than_4300_decimal_digits_names_the_key(cli, write):
    # hexadecimal is not limited by Python, but printing the count in the report would be
    path = write("hex.toml", 'game = "rolling-america"\n[counters]\nguard = 0x' + "f" * 4000 + "\n")
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: counters.guard: a number of more than 4,300 digits"


@pytest.mark.parametrize("name, text", [
    ("big.toml", 'game = "twenty-one"\n[cells]\nR1C1 = ' + "9" * 5000 + "\n"),
    ("big.json", '{"game": "twenty-one", "counters": {"x": ' + "9" * 5000 + "}}"),
])
def test_audit_batch_goes_on_after_a_5000_digit_number(cli, write, name, text):
    result = cli("audit", write("a.toml", GOOD), write(name, text), write("b.toml", GOOD))
    assert result.code == 2 and "5,000 digits" in one_line(result)
    assert "a.toml)" in result.out and "b.toml)" in result.out


# --- no file stops a batch -----------------------------------------------------------------

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


# --- JSON: duplicate keys, constants, not an object ------------------------------------------

def test_audit_of_json_with_a_duplicate_key_names_the_key(cli, write):
    path = write("dup.json", '{"game": "twenty-one", "cells": {"R1C1": 6, "R1C1": 1}}')
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == (f"rnwprint: {path}: duplicate key 'R1C1': each key may appear once "
                                "in an object")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_audit_of_json_with_nan_or_infinity_is_refused(cli, write, constant):
    path = write("nan.json", '{"game": "twenty-one", "cells": {"R1C1": %s}}' % constant)
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: {constant} is not a number JSON allows"


@pytest.mark.parametrize("text", ["[1, 2]", '"twenty-one"', "42", "null"])
def test_audit_of_json_that_is_not_an_object_is_one_line(cli, write, text):
    path = write("list.json", text)
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: expected an object with game, variant and cells"


# --- byte-order mark -------------------------------------------------------------------------

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


def test_tower_drawing_saved_with_a_byte_order_mark(cli, tmp_path):
    path = tmp_path / "tower.txt"
    path.write_bytes(b"\xef\xbb\xbf []\n[][]\n")
    result = cli("tower", "--ascii", path, "--show")
    assert result.code == 0, result.err
    assert result.out.splitlines()[1:] == [" []", "[][]"]


# --- photo or typed-in: by the content, not the name ---------------------------------------

@pytest.fixture(scope="module")
def sheet_photo() -> bytes:
    from support import synth

    from rnwprint.games import GAMES

    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    return synth.make_photo(sheet, synth.random_marks(sheet, 5), seed=5, megapixels=2.0)


@pytest.mark.parametrize("fmt, name", [("GIF", "sheet.gif"), ("WEBP", "sheet.webp"), ("TIFF", "sheet.tif"),
                                       ("JPEG", "sheet"), ("PNG", "sheet.txt")])
def test_audit_of_a_photo_in_any_format_or_name_reads_the_photo(cli, tmp_path, sheet_photo, fmt, name):
    path = tmp_path / name
    with Image.open(io.BytesIO(sheet_photo)) as im:
        im.save(path, fmt)
    result = cli("audit", path, "--json")
    assert result.code in (0, 1), result.err
    assert json.loads(result.out)["game"] == "twenty-one"


@pytest.mark.parametrize("name", ["IMG_0001.HEIC", "IMG_0001"])
def test_audit_of_a_broken_heic_photo_says_so_as_read_does(cli, tmp_path, name):
    path = tmp_path / name  # the first bytes of an iPhone photo, and nothing of the picture
    path.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(200))
    audited = cli("audit", path)
    assert audited.code == 2
    assert one_line(audited) == f"rnwprint: {path}: cannot decode the HEIC image: the file is truncated or corrupt"
    assert cli("read", path).err == audited.err


def test_audit_of_a_typed_in_file_named_like_a_photo_reads_it_as_typed_in(cli, write):
    result = cli("audit", write("sheet.jpg", GOOD), "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["game"] == "twenty-one"


def test_audit_of_text_named_like_a_photo_says_it_is_neither(cli, write):
    """A phone photo saved wrong (text where the JPEG should be) is not called a bad TOML file."""
    path = write("photo.jpg", "IMG_0042 could not be downloaded\n")
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result).startswith(f"rnwprint: {path}: not an image (expected a JPEG or PNG photo), "
                                       "nor a typed-in sheet: malformed TOML")
    named_as_text = cli("audit", write("notes.toml", "IMG_0042 could not be downloaded\n"))
    assert "not an image" not in named_as_text.err


@pytest.mark.parametrize("name, reason", [
    ("junk.toml", "not a text file (expected UTF-8 TOML or JSON)"),
    ("photo.jpg", "not an image (expected a JPEG or PNG photo)"),  # named like a photo: said so
])
def test_audit_of_binary_junk_is_one_line(cli, tmp_path, name, reason):
    path = tmp_path / name
    path.write_bytes(bytes(range(256)) * 8)
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: {reason}"


@pytest.mark.parametrize("name", ["sheet.toml", "photo.jpg", "photo.png"])
def test_audit_of_an_empty_file_says_it_is_empty(cli, tmp_path, name):
    path = tmp_path / name
    path.write_bytes(b" \n")
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == (f"rnwprint: {path}: empty file: expected a typed-in sheet (TOML or JSON) "
                                "or a photo (JPEG or PNG)")


# --- pictures: the pixel limit before decoding -----------------------------------------------

def png_header(width: int, height: int, colour_type: int) -> bytes:
    """A PNG whose header claims width x height (8 bits a channel); the data is a few rows, which
    is all a decoder would reach if it started (it must not)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(1000)))
            + chunk(b"IEND", b""))


@pytest.mark.parametrize("width, height, colour_type, megapixels", [(30000, 30000, 0, 900),
                                                                    (13300, 13300, 6, 177)])
def test_tower_picture_too_large_is_refused_before_decoding(cli, tmp_path, width, height, colour_type, megapixels):
    path = tmp_path / "bomb.png"
    path.write_bytes(png_header(width, height, colour_type))
    start = time.perf_counter()
    result = cli("tower", "--picture", path, "--show")
    assert time.perf_counter() - start < 1
    assert result.code == 2
    assert one_line(result) == (f"rnwprint: {path}: picture too large: {width}x{height} = {megapixels} MP "
                                "(at most 50 MP); refused before decoding")
    assert "DecompressionBomb" not in result.err


def test_tower_picture_that_is_not_a_picture_is_one_line(cli, tmp_path):
    path = tmp_path / "tower.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    result = cli("tower", "--picture", path, "--show")
    assert result.code == 2 and str(path) in one_line(result)


# --- towers too big: refused before they are built -----------------------------------------

@pytest.mark.parametrize("squares, reason", [
    (500_000, "larger than 1,000,000 bytes: too large for ASCII art"),
    (20_000, "line 1 is 20,000 squares wide; a tower is at most 100 across"),
])
def test_tower_ascii_with_one_very_long_line_is_refused_at_once(cli, tmp_path, squares, reason):
    path = tmp_path / "line.txt"
    path.write_text("[]" * squares + "\n")
    start = time.perf_counter()
    result = cli("tower", "--ascii", path)
    assert time.perf_counter() - start < 1
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: {reason}"


def test_tower_ascii_of_more_than_a_thousand_squares_is_refused_at_once(cli, tmp_path):
    path = tmp_path / "block.txt"
    path.write_text(("[]" * 60 + "\n") * 100)  # 6,000 squares, each line within the width
    start = time.perf_counter()
    result = cli("tower", "--ascii", path, "--show")
    assert time.perf_counter() - start < 1
    assert one_line(result) == f"rnwprint: {path}: 6,000 squares; a tower has at most 1,000"


def test_tower_ascii_wider_than_the_page_is_refused_before_it_is_rated(cli, tmp_path):
    path = tmp_path / "wide.txt"
    path.write_text("[]" * 90 + "\n")
    start = time.perf_counter()
    result = cli("tower", "--ascii", path, "--rate")
    assert time.perf_counter() - start < 1
    assert one_line(result) == (f"rnwprint: {path}: too big for the page: 90 squares across and 1 row of at "
                                "least 7 mm need more than A4's 190 x 277 mm")


def test_a_tower_one_square_wide_and_too_tall_says_one_square(cli, tmp_path):
    path = tmp_path / "tall.txt"
    path.write_text("[]\n" * 45)
    assert one_line(cli("tower", "--ascii", path, "--rate")) == (
        f"rnwprint: {path}: too big for the page: 1 square across and 45 rows of at least 7 mm need more "
        "than A4's 190 x 277 mm")


def test_tower_code_of_too_many_squares_is_refused_at_once(cli):
    code = encode(Tower.of([(r, 2 * c) for r in range(30) for c in range(40)]))  # 1,200 squares
    start = time.perf_counter()
    result = cli("tower", "--code", code, "--show")
    assert time.perf_counter() - start < 1
    assert one_line(result) == (f"rnwprint: --code: '{code[:17]}...{code[-18:]}' is neither a tower drawing "
                                "([] squares) nor a tower code")  # a long code cut short


@pytest.mark.parametrize("code", ["z" * 400, "0", "1" * 401, "zz!", "\u00e9"])
def test_tower_code_garbage_is_one_line(cli, code):
    result = cli("tower", "--code", code, "--show")
    assert result.code == 2 and one_line(result).startswith("rnwprint: --code: ")


def test_audit_of_a_typed_in_tower_of_20000_squares_is_refused_at_once(cli, write):
    path = write("tower.toml", 'game = "roll-to-the-top"\ntower = "' + "[]" * 20_000 + '"\n')
    start = time.perf_counter()
    result = cli("audit", path)
    assert time.perf_counter() - start < 1
    assert result.code == 2
    assert "20,000 squares wide; a tower is at most 100 across" in one_line(result)


def test_tower_ascii_from_standard_input_closed(cli, monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)  # what Python sets when started with `<&-`
    result = cli("tower", "--ascii", "-", "--show")
    assert result.code == 2
    assert one_line(result) == ("rnwprint: stdin: standard input is closed: pipe the drawing in, or give "
                                "a file to --ascii")


def test_tower_ascii_from_standard_input(cli, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf []\n[][]\n")))
    result = cli("tower", "--ascii", "-", "--show", "--lang", "en")
    assert result.code == 0, result.err
    assert result.out.splitlines() == ["# stdin: 3 squares, code ATQ", " []", "[][]"]


# --- more of the same kind -------------------------------------------------------------------

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
    assert result.code == 2 and "malformed TOML" in one_line(result)


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


def test_tower_picture_of_49_megapixels_with_transparency_is_read_over_white(cli, tmp_path):
    path = tmp_path / "big.png"
    im = Image.new("LA", (7000, 7000), (0, 0))  # transparent black: white once over white
    im.paste((0, 255), (2000, 1000, 5000, 6000))  # an opaque black 3000 x 5000 block
    im.save(path)
    result = cli("tower", "--picture", path, "--columns", "3", "--show")
    assert result.code == 0, result.err
    assert result.out.splitlines()[1:] == ["[][][]"] * 5  # 3 across, 5 high: the block alone


def test_tower_picture_file_larger_than_any_50_megapixel_picture_is_refused(cli, tmp_path, monkeypatch):
    from rnwprint.photo import load

    monkeypatch.setattr(load, "MAX_PIXELS", 250_000)  # so that a 1 MB file stands for a 200 MB one
    monkeypatch.setattr(load, "MAX_FILE_BYTES", 1_000_000)
    path = tmp_path / "padded.png"
    path.write_bytes(png_header(10, 10, 0) + bytes(1_000_000))
    result = cli("tower", "--picture", path, "--show")
    assert one_line(result) == (f"rnwprint: {path}: file larger than 1 MB: too large for a picture of at most "
                                "0.25 MP")


def test_read_photo_file_larger_than_any_50_megapixel_photo_is_refused_unread(cli, tmp_path, monkeypatch):
    from rnwprint.photo import load

    monkeypatch.setattr(load, "MAX_PIXELS", 250_000)  # so that a 1 MB file stands for a 200 MB one
    monkeypatch.setattr(load, "MAX_FILE_BYTES", 1_000_000)
    path = tmp_path / "padded.png"
    path.write_bytes(png_header(10, 10, 0) + bytes(1_000_000))
    for command in ("read", "audit"):
        result = cli(command, path)
        assert one_line(result) == (f"rnwprint: {path}: file larger than 1 MB: too large for a photo of at most "
                                    "0.25 MP")


@pytest.mark.parametrize("command", ["read", "audit"])
def test_a_photo_without_the_photo_extra_installed_says_what_to_install(tmp_path, command):
    """A plain `pip install rnwprint` has no OpenCV: a photo is refused with how to get it,
    and a typed-in file given with it is still audited."""
    import subprocess

    photo = tmp_path / "photo.jpg"
    Image.new("RGB", (40, 30), "white").save(photo)
    typed = tmp_path / "mine.toml"
    typed.write_text(GOOD, encoding="utf-8")
    files = [str(photo)] + ([str(typed)] if command == "audit" else [])
    probe = ("import sys; sys.modules['cv2'] = None; from rnwprint.cli import main; "
             f"sys.exit(main([{command!r}, '--jobs', '1', *{files!r}]))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [(f"rnwprint: {photo}: reading photos needs numpy and OpenCV, and OpenCV "
                                          "is not installed: pip install 'rnwprint[photo]'")]
    if command == "audit":
        assert "Puntuación" in done.stdout  # the typed-in file's report


def test_json_null_and_a_number_past_any_float_are_named_as_written(cli, write):
    path = write("n.json", '{"game": "twenty-one", "cells": {"R1C1": null, "R1C2": 1e400}}')
    result = cli("audit", path)
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines() == [f'rnwprint: {path}: cells.R1C1: null is neither a whole number nor "X"',
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


def test_annotate_with_a_pdf_of_several_pages_says_so(cli, tmp_path):
    pdf, picture = tmp_path / "all.pdf", tmp_path / "a.png"
    assert cli("sheet", "twenty-one", "--variant", "all", "-o", pdf).code == 0
    result = cli("audit", pdf, "--annotate", picture)
    assert result.code == 2 and not picture.exists()
    assert one_line(result) == (f"rnwprint: --annotate draws one sheet's violations, and {pdf} holds 6 pages: "
                                "give a PDF of one page with it")


def test_a_counter_as_text_takes_as_many_digits_as_a_number_may_have(cli, write):
    most = write("most.toml", f'game = "rolling-america"\n[counters]\nrounds = "{"9" * 4300}"\n')
    assert cli("audit", most).code == 1  # read, and far more rounds than a game has
    past = cli("audit", write("past.toml", f'game = "rolling-america"\n[counters]\nrounds = "{"9" * 4301}"\n'))
    assert past.code == 2 and "counters.rounds: " in one_line(past) and "is not a whole number >= 0" in past.err


def test_audit_json_gives_an_unusable_file_its_own_object_in_its_place(cli, write):
    good, bad = write("good.toml", GOOD), write("bad.toml", 'game = "twenty-one"\nx = [\n')
    result = cli("audit", good, bad, good, "--json")
    assert result.code == 2
    objects = [json.loads(line) for line in result.out.splitlines()]
    assert [o["source"] for o in objects] == [str(good), str(bad), str(good)]
    assert "error" not in objects[0] and objects[0]["details"]["rows"][0]["sum"] == 6
    assert objects[1]["error"].startswith(f"{bad}: malformed TOML")
    assert one_line(result) == f"rnwprint: {objects[1]['error']}"


def test_read_json_gives_a_file_that_is_no_photo_an_object_too(cli, write):
    bad = write("notes.jpg", "not a photo\n")
    result = cli("read", bad, "--json")
    assert result.code == 2
    assert json.loads(result.out) == {"source": str(bad), "error": f"{bad}: not an image (expected a JPEG or PNG photo)"}
