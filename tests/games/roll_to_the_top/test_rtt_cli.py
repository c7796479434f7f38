"""Roll to the Top: typed-in files, the `tower` command and custom towers' sheets."""

from __future__ import annotations

import json

import pypdf
import pytest
from conftest import LANGS
from rnwprint.games.roll_to_the_top import game as rtt
from rnwprint.games.roll_to_the_top.difficulty import _RATINGS
from rnwprint.games.roll_to_the_top.sheet import build_sheets, build_tower
from rnwprint.games.roll_to_the_top.tower_code import encode
from rnwprint.games.roll_to_the_top.tower_input import parse_ascii

BUILTINS = list(rtt.builtins())
T_TOWER = "[][][]\n  []\n"  # B1 and B3 are overhangs beside B2, which rests on A1
PYRAMID_ART = "    []\n   [][]\n  [][][]\n [][][][]\n[][][][][]\n"
LEDGE = "[][][][]\n      []\n"  # B1, B2, B3 are overhangs side by side; B4 rests on A1



# --- typed-in files and the CLI ---------------------------------------------------------------

def test_typed_in_custom_tower_carries_its_drawing(cli, write):
    art = '"""\n[][][]\n  []\n"""'
    path = write("t.toml", f'game = "roll-to-the-top"\ntower = {art}\ndescending = true\n'
                           f'[cells]\nA1 = 9\nB2 = 3\nB1 = 4\n')
    result = cli("audit", path, "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["variant"] == "t.N5S3-desc"
    assert report["score"] == -1 and report["details"]["rule"] == "descending"
    code = encode(parse_ascii(T_TOWER))
    by_code = write("c.toml", f'game = "roll-to-the-top"\ntower = "{code}"\n[cells]\nB3 = 2\n')
    result = cli("audit", by_code, "--json")
    assert result.code == 1 and json.loads(result.out)["violations"][0]["rule"] == "overhang"


@pytest.mark.parametrize("content, reason", [
    ('game = "roll-to-the-top"\nvariant = "t.zzzzzzzz"\n', "unknown variant 't.zzzzzzzz' for roll-to-the-top"),
    ('game = "roll-to-the-top"\nvariant = "pyramid"\ntower = "[][]"\n', "is not the tower given"),
    ('game = "roll-to-the-top"\ntower = "[]  []"\n', "not connected to the rest of the tower: A2"),
    ('game = "roll-to-the-top"\nvariant = "eifel"\n', "unknown variant 'eifel'"),
    ('game = "roll-to-the-top"\n[cells]\nZ9 = 3\n', "cells.Z9: unknown cell id"),
    ('game = "roll-to-the-top"\n[cells]\nA1 = 2.5\n', "cells.A1: 2.5 is not a whole number"),
])
def test_bad_typed_in_files_exit_2_with_one_line(cli, write, content, reason):
    result = cli("audit", write("x.toml", content))
    assert result.code == 2 and result.out == ""
    assert len(result.err.strip().splitlines()) == 1 and reason in result.err, result.err


def test_template_lists_every_square(cli):
    result = cli("template", "roll-to-the-top", "--variant", "oak", "--lang", "en")
    assert result.code == 0
    assert 'variant = "oak"' in result.out and "G3" in result.out and "overhang" in result.out


def test_tower_from_ascii_file(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.txt").write_text("# mine\n  []\n [][]\n[][][]\n")
    result = cli("tower", "--ascii", "mine.txt", "--lang", "en")
    assert result.code == 0, result.err
    path = tmp_path / "output" / "roll-to-the-top_mine_en_a4.pdf"
    assert path.exists() and "Custom tower" in pypdf.PdfReader(path).pages[0].extract_text()
    shown = cli("tower", "--ascii", "mine.txt", "--show")
    assert shown.out.splitlines()[1:] == ["  []", " [][]", "[][][]"]


def test_unplayable_ascii_is_refused_naming_the_squares(cli, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("[][][]\n[]  []\n    []\n")
    result = cli("tower", "--ascii", path)
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1
    assert str(path) in result.err and "can never be written: B1, C1" in result.err
    assert not (tmp_path / "output").exists()


def test_tower_from_picture(cli, tmp_path):
    from test_tower_geometry import _pyramid_picture

    pic = tmp_path / "p.png"
    _pyramid_picture(pic)
    out = tmp_path / "p.svg"
    result = cli("tower", "--picture", pic, "--columns", "4", "--format", "svg", "-o", out)
    assert result.code == 0, result.err
    assert "D1" in out.read_text()


def test_random_count_makes_one_pdf_of_different_towers(cli, tmp_path):
    out = tmp_path / "r.pdf"
    result = cli("tower", "--random", "--count", "3", "--seed", "4", "--squares", "20", "-o", out)
    assert result.code == 0 and result.err == ""
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 3
    first = out.read_bytes()
    assert cli("tower", "--random", "--count", "3", "--seed", "4", "--squares", "20", "-o", out).code == 0
    assert out.read_bytes() == first


def test_a_tower_its_sheet_cannot_hold_is_refused_before_it_is_rated_naming_its_file(cli, tmp_path):
    """25 squares across and 39 rows pass the quick bound against the whole page, but the sheet
    (its rules and legend above the tower) would make its squares 3.9 mm: --rate refuses it as
    printing does, instead of rating 975 squares (a made-up 400 rounds, the simulation's cap);
    template and printing name the drawing, not "tower"."""
    art = tmp_path / "big.txt"
    art.write_text("\n".join(["[]" * 25] * 39) + "\n", encoding="utf-8")
    reason = ("too big for the page: A1 to AM25 span 25 squares across and 39 rows, so squares would be 4.1 mm on A4 "
              "(at least 7 mm hold two digits); at most 26 squares across and 22 rows fit")
    for args in (("tower", "--ascii", art, "--rate"), ("tower", "--ascii", art, "-o", tmp_path / "t.pdf"),
                 ("template", "roll-to-the-top", "--ascii", art)):
        result = cli(*args, "--lang", "en")
        assert (result.code, result.out, result.err) == (2, "", f"rnwprint: {art}: {reason}\n"), args
    assert not (tmp_path / "t.pdf").exists()
    fits = tmp_path / "fits.txt"  # 21 rows fit under the English legend: rated
    fits.write_text("\n".join(["[]" * 3] * 21) + "\n", encoding="utf-8")
    assert cli("tower", "--ascii", fits, "--rate", "--games", "5", "--lang", "en").code == 0


def test_rate_prints_the_figures(cli):
    result = cli("tower", "--builtin", "burj", "--rate", "--games", "50", "--lang", "en")
    assert result.code == 0
    assert result.out.strip() == ("burj: 13 squares, 7 rows; 50 games: mean 8.82 rounds, 10th percentile 6, "
                                  "90th percentile 11; ★☆☆☆☆ (1/5)")


@pytest.mark.parametrize("args, reason", [
    ((), "say where the tower comes from"),
    (("--ascii", "a.txt", "--random"), "give only one source: --ascii and --random were given"),
    (("--builtin", "pyramid", "--count", "3"), "use it with --random"),
    (("--builtin", "louvre"), "unknown built-in tower 'louvre'"),
    (("--builtin", "Eiffel-desc"), "'eiffel-desc' is eiffel's descending rule: give --builtin eiffel --descending"),
    (("--code", "!!"), "'!!' is not a tower code: check it against the one printed on the sheet"),
    (("--code", ""), "--code: empty: give the code printed on a custom tower's sheet"),
    (("--random", "--seed", "12345678901"), "'--seed': 12345678901 is not in the range 0<=x<=999999999"),
    (("--random", "--seed", "-1"), "'--seed': -1 is not in the range"),
    (("--ascii", "missing.txt"), "cannot read file"),
])
def test_tower_bad_options_exit_2(cli, args, reason):
    result = cli("tower", *args)
    assert result.code == 2 and reason in result.err and len(result.err.strip().splitlines()) == 1


def test_custom_tower_sheets_carry_a_readable_identity():
    import cv2
    import numpy as np
    from rnwprint.core.sheet import Identity
    from rnwprint.render.png import render_image

    towers = rtt.random_towers(21, 4, squares=30)
    for k, (tower, page) in enumerate(zip(towers, ("a4", "letter", "a4", "letter"))):
        sheet = build_tower(tower, LANGS[k % 2], page, descending=k >= 2)
        # 200 dpi: at 100 dpi (3.5 px a module) OpenCV misses some codes, whatever the game
        pixels = cv2.cvtColor(np.asarray(render_image(sheet, dpi=200)), cv2.COLOR_RGB2GRAY)
        text, _, _ = cv2.QRCodeDetector().detectAndDecode(pixels)
        identity = Identity.decode(text)
        assert identity == sheet.identity
        assert rtt.parse_variant(identity.variant)[0] == tower  # the variant rebuilds the tower


def test_sheets_on_several_processors_are_the_same():
    towers = rtt.random_towers(5, 40, squares=8)
    calls = []
    many = build_sheets(towers, "en", "a4", progress=calls.append, workers=2)
    for t in towers:
        _RATINGS.pop((t, False), None)
    one = build_sheets(towers, "en", "a4", workers=1)
    assert [s.items for s in many] == [s.items for s in one]
    assert [s.identity for s in many] == [s.identity for s in one]
    assert calls == [1] * 40
    assert len(many) == 40 and many[-1] is many[39] and many[5:7] == [many[5], many[6]]


def test_sheets_on_several_processors_arrive_in_order_as_asked(monkeypatch):
    """The sequence fills as far as it is read, so a PDF draws while the rest are built."""
    towers = rtt.random_towers(6, 45, squares=8)
    calls = []
    many = build_sheets(towers, "en", "a4", progress=calls.append, workers=2)
    assert len(many) == 45 and calls == []
    assert many[2].identity == build_tower(towers[2], "en", "a4").identity
    assert calls == [1, 1, 1]
    with pytest.raises(IndexError):
        many[45]


def test_a_tower_failing_on_another_processor_fails_the_print(monkeypatch, cli, tmp_path):
    from rnwprint.games.roll_to_the_top import sheet as rtt_sheet
    from rnwprint.games.roll_to_the_top.tower import TowerError

    towers = rtt.random_towers(1, 50, squares=30)
    real = rtt_sheet.build_tower

    def failing(tower, *args):  # the workers are forked from this process: they fail too
        if tower == towers[30]:
            raise TowerError("too intricate for the sheet's QR code", "tower")
        return real(tower, *args)

    monkeypatch.setattr(rtt_sheet, "build_tower", failing)
    many = build_sheets(towers, "en", "a4", workers=2)
    assert many[29].identity.game == "roll-to-the-top"
    with pytest.raises(TowerError, match="too intricate"):
        many[30]
    out = tmp_path / "t.pdf"
    result = cli("tower", "--random", "--count", "50", "-o", out)
    assert result.code == 2 and "too intricate" in result.err and not out.exists()


def test_sheet_command_takes_descending_and_custom_variants(cli, tmp_path):
    out = tmp_path / "d.pdf"
    assert cli("sheet", "roll-to-the-top", "--variant", "burj-desc", "-o", out).code == 0
    assert "descendente" in pypdf.PdfReader(out).pages[0].extract_text()
    variant = rtt.custom_variant_name(parse_ascii(T_TOWER))
    assert cli("sheet", "roll-to-the-top", "--variant", variant, "-o", out).code == 0
    bad = cli("sheet", "roll-to-the-top", "--variant", "eifel")
    assert bad.code == 2 and "unknown variant 'eifel'" in bad.err


def test_template_takes_the_seeds_tower_takes(cli):
    result = cli("template", "roll-to-the-top", "--random", "--seed", "1000000000")
    assert result.code == 2 and "'--seed': 1000000000 is not in the range 0<=x<=999999999" in result.err
    assert cli("template", "roll-to-the-top", "--random", "--seed", "999999999").code == 0
