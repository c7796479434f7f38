"""Bad input to `tower` (--ascii, --picture, --code) and typed-in towers: refused at once, before
anything too big is built or decoded, in one line naming the file, exit 2."""

from __future__ import annotations

import io
import sys
import time

import pytest
from bad_input_support import one_line, png_header
from PIL import Image

from rnwprint.games.roll_to_the_top.tower import Tower
from rnwprint.games.roll_to_the_top.tower_code import encode
from rnwprint.games.roll_to_the_top.tower_input import parse_ascii


def test_tower_drawing_saved_with_a_byte_order_mark(cli, tmp_path):
    path = tmp_path / "tower.txt"
    path.write_bytes(b"\xef\xbb\xbf []\n[][]\n")
    result = cli("tower", "--ascii", path, "--show")
    assert result.code == 0, result.err
    assert result.out.splitlines()[1:] == [" []", "[][]"]


@pytest.mark.parametrize("width, height, colour_type, megapixels", [(30000, 30000, 0, "900"),
                                                                    (13300, 13300, 6, "176.9"),
                                                                    (7100, 7100, 0, "50.5")])  # not "50": over 50
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
    assert one_line(result) == (f"rnwprint: --code: '{code[:17]}...{code[-18:]}' is not a tower code: check it "
                                "against the one printed on the sheet")  # a long code cut short


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


@pytest.mark.parametrize("command", [("tower", "--show"), ("template", "roll-to-the-top")])
def test_a_drawing_in_a_file_named_dash_is_read_from_the_file(cli, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_text(" []\n[][]\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"[]\n")))  # one square: not this
    result = cli(*command, "--ascii", "./-", "--lang", "en")
    assert result.code == 0, result.err
    assert "ATQ" in result.out  # the file's three squares' code


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


def test_sheet_of_a_tower_code_too_big_for_the_page_names_the_variant(cli, tmp_path):
    wide = encode(parse_ascii("[]" * 49))
    result = cli("sheet", "roll-to-the-top", "--variant", f"t.{wide}", "-o", tmp_path / "w.pdf")
    assert result.code == 2 and not (tmp_path / "w.pdf").exists()
    assert one_line(result).startswith(f"rnwprint: --variant t.{wide}: too big for the page: A1 to A49 span 49 squares")
