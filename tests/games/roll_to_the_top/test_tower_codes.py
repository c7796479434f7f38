"""Tower codes a player copies from a sheet, and the files named after towers (issue 16).

Codes are Crockford's base 32: 0-9 and A-Z without I, L, O and U; a code is read in either
case, with I or L for 1, O for 0 and hyphens anywhere; the sheet prints it once, large and
black. Pages written one file each are numbered in page order; a `--code` tower's file is
named by its code; `template roll-to-the-top` takes the sources `tower` takes.
"""

from __future__ import annotations

import pathlib
import re

import pytest

from rnwprint.games.roll_to_the_top import game as rtt
from rnwprint.games.roll_to_the_top.sheet import build_tower
from rnwprint.games.roll_to_the_top.tower import Tower
from rnwprint.games.roll_to_the_top.tower_code import decode, encode
from rnwprint.games.roll_to_the_top.tower_input import parse_ascii
from rnwprint.output import page_paths
from rnwprint.core.sheet import Text

# the T tower of test_roll_to_the_top: 694051 as its code's integer, 21·32³ + 5·32² + 25·32 + 3
T_TOWER = "[][][]\n  []\n"
T_CODE = "N5S3"
# its code of the old base-62 format: 2·62³ + 56·62² + 34·62 + 23, the same integer
T_OLD_CODE = "2uYN"


def test_codes_use_digits_and_capitals_without_look_alikes():
    codes = [encode(t) for t in rtt.random_towers(5, 40, squares=25)] + [encode(b.tower) for b in rtt.builtins().values()]
    used = set("".join(codes))
    assert used <= set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    assert not used & set("ILOUilou")


def test_the_t_tower_has_the_code_worked_out_by_hand():
    assert encode(parse_ascii(T_TOWER)) == T_CODE


@pytest.mark.parametrize("typed", ["N5S3", "n5s3", "N5-S3", "n5s3-", " N5S3 "])
def test_a_code_is_read_in_either_case_and_with_hyphens(typed):
    assert decode(typed) == parse_ascii(T_TOWER)


def test_i_and_l_read_as_1_and_o_as_0():
    # a tower whose code holds a 1 and a 0: typed with the letters they look like
    towers = [Tower.of([(0, 2 * i) for i in range(n)]) for n in range(1, 100)]  # ground rows 1 to 99 wide
    with_1 = next(t for t in towers if "1" in encode(t))
    assert decode(encode(with_1).replace("1", "I", 1)) == with_1
    assert decode(encode(with_1).replace("1", "l")) == with_1
    with_0 = next(t for t in towers if "0" in encode(t))
    assert decode(encode(with_0).replace("0", "o")) == with_0
    assert decode(encode(with_0).replace("0", "O")) == with_0


def test_an_old_base_62_code_is_refused_naming_the_new_code():
    with pytest.raises(ValueError, match=r"'2uYN' is a tower code of the old format: codes changed to 0-9 and A-Z "
                                         r"without I, L, O and U; this tower's code is now N5S3$"):
        decode(T_OLD_CODE)


def test_an_old_code_as_a_variant_says_the_format_changed():
    with pytest.raises(ValueError, match=r"'t\.2uYN': .* old format.* now N5S3"):
        rtt.parse_variant("t." + T_OLD_CODE)


def test_tower_code_option_refuses_an_old_code_with_the_new_one(cli):
    result = cli("tower", "--code", T_OLD_CODE, "--show")
    assert result.code == 2
    assert re.fullmatch(r"rnwprint: --code: '2uYN' is a tower code of the old format: .*is now N5S3\n", result.err)


def test_a_typed_in_variant_in_lower_case_with_hyphens_names_the_printed_code(cli, write):
    path = write("mine.toml", 'game = "roll-to-the-top"\nvariant = "t.n5-s3"\n[cells]\nA1 = 3\nB1 = 2\n')
    result = cli("audit", path, "--json")
    assert result.code == 1, result.err
    assert '"variant": "t.N5S3"' in result.out


def title_and_texts(sheet):
    return sheet.title, [i for i in sheet.items if isinstance(i, Text)]


def test_a_short_code_is_the_towers_one_name_in_the_title():
    tower = rtt.random_towers(3, 1)[0]
    code = encode(tower)
    sheet = build_tower(tower, "en", "a4")
    printed = "-".join(code[i:i + 4] for i in range(0, len(code), 4))
    assert sheet.title == f"Roll to the Top — Custom tower {printed}"
    title_text = [i for i in sheet.items if isinstance(i, Text) and i.text == sheet.title]
    assert title_text and title_text[0].size >= 9 and title_text[0].colour.lower() in ("#000000", "#1a1a1a")
    # and nowhere else in the game's box: the footer's small identity line aside
    others = [i.text for i in sheet.items if isinstance(i, Text) and i.text != sheet.title and "rnwprint ·" not in i.text]
    assert not any(code[:4] in text for text in others)


def test_a_long_code_is_printed_in_10_pt_black_lines_under_the_legend():
    tower = rtt.random_towers(3, 1, squares=200, max_width=25)[0]
    code = encode(tower)
    assert len(code) > 20
    sheet = build_tower(tower, "en", "a4")
    assert sheet.title == "Roll to the Top — Custom tower"
    lines = [i for i in sheet.items if isinstance(i, Text) and (i.text.startswith("Tower code:") or
                                                                 re.fullmatch(r"([0-9A-Z]{1,4}-?)+", i.text) and i.bold)]
    assert lines and all(i.size >= 9 and i.colour == "#1a1a1a" and i.bold for i in lines)
    printed = "".join(i.text for i in lines).removeprefix("Tower code: ").replace("-", "")
    assert printed == code
    assert max(i.y for i in lines) < min(c.bounds[1] for c in sheet.cells.values())


# --- file names --------------------------------------------------------------------------

def printed_text(path) -> str:
    """An SVG page's words run together, hyphens and spaces dropped: a code printed in groups
    and broken over lines reads as one."""
    return re.sub(r"<[^>]+>|[-\s]", "", path.read_text(encoding="utf-8"))


def test_random_towers_as_svg_are_numbered_in_page_order(cli, tmp_path):
    result = cli("tower", "--random", "--seed", "3", "--count", "3", "--format", "svg", "--lang", "en",
                 "-o", tmp_path / "r.svg")
    assert result.code == 0, result.err
    paths = [tmp_path / f"r-{n}.svg" for n in (1, 2, 3)]
    assert result.out.splitlines() == [str(p) for p in paths]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r-1.svg", "r-2.svg", "r-3.svg"]
    codes = [encode(t) for t in rtt.random_towers(3, 3)]
    assert [[code in printed_text(p) for code in codes] for p in paths] == [
        [True, False, False], [False, True, False], [False, False, True]]


def test_ten_pages_or_more_are_zero_padded_so_that_names_sort_in_page_order():
    names = [p.name for p in page_paths(pathlib.Path("out/x.png"), 12)]
    assert names == [f"x-{n:02d}.png" for n in range(1, 13)] == sorted(names)
    assert [p.name for p in page_paths(pathlib.Path("x.svg"), 2, ["A", "B"])] == ["x-1-A.svg", "x-2-B.svg"]
    assert page_paths(pathlib.Path("x.svg"), 1, ["A"]) == [pathlib.Path("x.svg")]


def test_every_builtin_tower_as_png_is_numbered_with_its_name(cli, tmp_path):
    assert cli("sheet", "roll-to-the-top", "--variant", "all", "--format", "png", "-o", tmp_path / "s.png").code == 0
    expected = [f"s-{n}-{tid}.png" for n, tid in enumerate(rtt.VARIANTS, 1)]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(expected)


def test_each_code_tower_gets_a_file_named_by_its_code(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ledge = encode(parse_ascii("[][]\n  [][]\n"))
    assert cli("tower", "--code", "n5-s3", "--format", "svg").code == 0
    assert cli("tower", "--code", ledge, "--format", "svg", "--descending").code == 0
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == sorted(
        ["roll-to-the-top_N5S3_es_a4.svg", f"roll-to-the-top_{ledge}-desc_es_a4.svg"])


# --- templates of custom towers ------------------------------------------------------------

def template_variant(text: str) -> str:
    return re.search(r'^variant = "(.*)"$', text, re.M).group(1)


def template_cells(text: str) -> list[str]:
    return re.findall(r'^(\w+) += ""', text, re.M)


def test_template_of_a_code_names_the_tower_and_audits_blank(cli, write):
    result = cli("template", "roll-to-the-top", "--code", "n5-s3", "--lang", "en")
    assert result.code == 0, result.err
    assert template_variant(result.out) == "t.N5S3"
    assert template_cells(result.out) == ["A1", "B1", "B2", "B3"]  # three squares over one (the top row drawn first)
    audited = cli("audit", write("blank.toml", result.out), "--json")
    assert audited.code == 0, audited.err
    assert '"variant": "t.N5S3"' in audited.out


def test_template_of_a_random_tower_is_the_one_tower_random_prints(cli):
    shown = cli("tower", "--random", "--seed", "3", "--show", "--lang", "en")
    code = re.search(r"code ([0-9A-Z-]+)$", shown.out.splitlines()[0]).group(1).replace("-", "")
    result = cli("template", "roll-to-the-top", "--random", "--seed", "3")
    assert result.code == 0, result.err
    assert template_variant(result.out) == f"t.{code}"


def test_template_of_a_drawing_under_the_descending_rule(cli, write):
    art = write("t.txt", T_TOWER)
    result = cli("template", "roll-to-the-top", "--ascii", art, "--descending")
    assert result.code == 0, result.err
    assert template_variant(result.out) == "t.N5S3-desc"


def test_template_of_a_picture_takes_its_columns(cli, tmp_path):
    from PIL import Image

    picture = tmp_path / "block.png"
    Image.new("L", (300, 100), 0).save(picture)  # a dark band three times as wide as high
    result = cli("template", "roll-to-the-top", "--picture", picture, "--columns", "6")
    assert result.code == 0, result.err
    tower = decode(template_variant(result.out).removeprefix("t."))
    assert max(sum(1 for r, _ in tower.squares if r == row) for row in range(tower.rows)) == 6


@pytest.mark.parametrize("args, reason", [
    (("roll-to-the-top", "--code", "N5S3", "--variant", "burj"), "give only one source: --variant and --code were given"),
    (("twenty-one", "--code", "N5S3"), "--code gives a tower: it is for roll-to-the-top, not twenty-one"),
    (("roll-to-the-top", "--seed", "3"), "--seed picks the random tower: use it with --random"),
    (("roll-to-the-top", "--code", "N5S3", "--columns", "4"), "--columns sets the squares across a picture's shape"),
    (("roll-to-the-top", "--descending"), "--descending is for a custom tower .* --variant eiffel-desc"),
    (("twenty-one", "--descending"), "--descending is for roll-to-the-top's towers, not twenty-one"),
    (("rolling-america", "--columns", "4"), "--columns is for roll-to-the-top's towers, not rolling-america"),
    (("catan", "--seed", "7"), "--seed is for roll-to-the-top's towers, not catan; the island shuffled by a seed is "
                               "--variant map-SEED"),
])
def test_template_refuses_sources_that_do_not_go_together(cli, args, reason):
    result = cli("template", *args)
    assert result.code == 2 and result.out == ""
    assert re.fullmatch(f"rnwprint: {reason}.*\n", result.err)
