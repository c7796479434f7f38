"""Tower geometry: supports, point contacts, half offsets, overhangs, playability, the ASCII
format, codes, pictures and random towers."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from rnwprint.games.roll_to_the_top.tower import Tower, TowerError, random_tower, row_letters
from rnwprint.games.roll_to_the_top.tower_code import decode, encode
from rnwprint.games.roll_to_the_top.tower_input import format_ascii, from_picture, parse_ascii
from rnwprint.games.roll_to_the_top.game import builtins, random_towers


def rel(tower: Tower, kind: str) -> dict[str, list[str]]:
    table = getattr(tower, kind)
    return {tower.ids[i]: [tower.ids[j] for j in js] for i, js in enumerate(table) if js}


def test_ids_count_rows_from_the_ground_and_squares_from_the_left():
    t = parse_ascii("  []\n [][]\n[][][]\n")
    assert t.ids == ("A1", "A2", "A3", "B1", "B2", "C1")
    assert [row_letters(r) for r in (0, 25, 26, 27, 52)] == ["A", "Z", "AA", "AB", "BA"]


def test_half_offset_square_rests_on_both_squares_under_it():
    t = parse_ascii(" []\n[][]\n")
    assert rel(t, "supports") == {"B1": ["A1", "A2"]}
    assert rel(t, "beside") == {"A1": ["A2"], "A2": ["A1"]}
    assert t.ground == (True, True, False) and not any(t.overhang)


def test_aligned_square_rests_on_one_and_a_corner_is_no_support():
    # B1 sits exactly on A1; C1 sits half a square right of B1 (rests on it);
    # D1 touches C1 only at a corner: no support, no connection
    t = parse_ascii("      []\n   []\n  []\n  []\n")
    assert rel(t, "supports") == {"B1": ["A1"], "C1": ["B1"]}
    assert t.overhang == (False, False, False, True)
    problems = t.problems()
    assert any("not connected" in p and "D1" in p and "corners" in p for p in problems)


def test_overhangs_rest_on_nothing_and_need_a_neighbour():
    t = parse_ascii("[][][]\n  []\n")
    assert rel(t, "supports") == {"B2": ["A1"]}
    assert [t.ids[i] for i, o in enumerate(t.overhang) if o] == ["B1", "B3"]
    assert rel(t, "beside")["B1"] == ["B2"]
    assert t.problems() == []


def test_chained_overhangs_are_playable():
    t = parse_ascii("[][][][]\n[]\n")
    assert sum(t.overhang) == 3 and t.problems() == []


def test_disconnected_squares_are_refused_by_name():
    t = parse_ascii("[][]    []\n")
    with pytest.raises(TowerError, match=r"not connected to the rest of the tower: A3\b"):
        t.check()


def test_square_that_can_never_be_written_is_refused_by_name():
    # B1 rests on nothing and has nobody beside it; C1 rests on B1
    t = parse_ascii("[][][]\n[]  []\n    []\n")
    assert t.ids == ("A1", "B1", "B2", "C1", "C2", "C3")
    with pytest.raises(TowerError, match=r"can never be written: B1, C1 \("):
        t.check()
    assert not any("not connected" in p for p in t.problems())


def test_overlapping_squares_are_refused_by_name():
    with pytest.raises(TowerError, match="squares A1 and A2 overlap"):
        Tower.of([(0, 0), (0, 1)]).check()


def test_ascii_errors_name_line_and_column():
    with pytest.raises(TowerError, match=r"line 2, column 3: unexpected 'x'"):
        parse_ascii("[]\n[]x\n")
    # counted in the text as the user sees it, comment and blank lines included
    with pytest.raises(TowerError, match=r"line 4, column 2: unexpected '\['"):
        parse_ascii("# my tower\n\n  []\n [x]\n[][][]\n")
    with pytest.raises(TowerError, match="no squares"):
        parse_ascii("# only a comment\n\n")
    # several, top line first, and the advice once
    with pytest.raises(TowerError) as refused:
        parse_ascii("\u2588\n\u2588\u2588\n")
    assert refused.value.message == ("line 1, column 1: unexpected '\u2588'; line 2, column 1: unexpected '\u2588'; "
                                     "line 2, column 2: unexpected '\u2588'; draw each square as []")


@pytest.mark.parametrize("tid", list(builtins()))
def test_ascii_and_code_round_trip(tid):
    tower = builtins()[tid].tower
    assert parse_ascii(format_ascii(tower)) == tower
    assert decode(encode(tower)) == tower


def test_comments_indentation_and_blank_edges_do_not_matter():
    a = parse_ascii("# note\n\n     []\n    [][]\n\n")
    b = parse_ascii(" []\n[][]")
    assert a == b


def test_a_comment_between_rows_is_no_row():
    assert parse_ascii("  []\n# the middle row\n [][]\n[][][]\n") == parse_ascii("  []\n [][]\n[][][]\n")


@pytest.mark.parametrize("junk, reason", [("", "is not a tower code"),
                                          ("7KU3", "is not a tower code: codes are 0-9 and A-Z without I, L, O and U"),
                                          ("0", "code ends too early"),
                                          ("zzzzzzzzzzzzzzzzzzz", "is not a tower code \\(extra bits\\)")])
def test_decode_rejects_junk(junk, reason):
    with pytest.raises(ValueError, match=reason):
        decode(junk)


def test_random_towers_are_deterministic_distinct_and_playable():
    first = random_towers(7, 6, squares=25)
    assert first == random_towers(7, 6, squares=25)
    assert first != random_towers(8, 6, squares=25)
    assert len({t.squares for t in first}) == 6
    for t in first:
        assert len(t) == 25 and t.problems() == []


@pytest.mark.parametrize("shape", ["taper", "spire", "tree"])
@pytest.mark.parametrize("squares", [3, 15, 40, 120])
def test_random_shapes_have_the_size_asked_for(shape, squares):
    for seed in range(5):
        t = random_tower(random.Random(seed), squares, shape)
        assert len(t) == squares and t.rows <= 20 and t.problems() == []


@pytest.mark.parametrize("shape", ["taper", "spire", "tree"])
@pytest.mark.parametrize("squares,max_width", [(3, 1), (10, 1), (10, 2), (30, 2), (40, 3)])
def test_random_narrow_towers_have_the_size_asked_for_within_the_width(shape, squares, max_width):
    for seed in range(6):
        t = random_tower(random.Random(seed), squares, shape, max_width)
        widths = [sum(1 for s in t.squares if s[0] == row) for row in range(t.rows)]
        assert len(t) == squares and max(widths) <= max_width and t.problems() == []


def test_random_refuses_impossible_sizes():
    with pytest.raises(TowerError, match="do not fit"):
        random_tower(random.Random(1), 200, "spire", max_width=5)


def _pyramid_picture(path, fmt="PNG", mode="RGB"):
    im = Image.new(mode, (300, 200), "white" if mode == "RGB" else (0, 0, 0, 0))
    draw = ImageDraw.Draw(im)
    for row in range(4):  # a stepped pyramid: 4, 3, 2, 1 blocks of 50 px, half-block offsets
        y = 200 - (row + 1) * 50
        for k in range(4 - row):
            x = 50 + row * 25 + k * 50
            draw.rectangle((x, y, x + 49, y + 49), fill="black")
    im.save(path, fmt)


def test_picture_becomes_squares_with_half_offsets(tmp_path):
    path = tmp_path / "pyramid.png"
    _pyramid_picture(path)
    t = from_picture(path, columns=4)
    assert t == parse_ascii("   []\n  [][]\n [][][]\n[][][][]\n")


def test_jpeg_and_transparent_png_pictures(tmp_path):
    jpg = tmp_path / "p.jpg"
    _pyramid_picture(jpg, "JPEG")
    png = tmp_path / "p.png"
    _pyramid_picture(png, "PNG", "RGBA")
    expected = parse_ascii("   []\n  [][]\n [][][]\n[][][][]\n")
    assert from_picture(jpg, 4) == expected
    assert from_picture(png, 4) == expected


def test_blank_or_unreadable_picture_is_refused(tmp_path):
    blank = tmp_path / "blank.png"
    Image.new("RGB", (50, 50), "white").save(blank)
    with pytest.raises(TowerError, match="no dark shape"):
        from_picture(blank, 5)
    text = tmp_path / "notes.png"
    text.write_text("hello")
    with pytest.raises(TowerError, match="not a picture: draw the tower's shape dark on light, saved as PNG or JPEG"):
        from_picture(text, 5)
    cut = tmp_path / "cut.png"
    Image.new("RGB", (60, 60), "black").save(cut)
    cut.write_bytes(cut.read_bytes()[:-30])  # the end of its image data lost
    with pytest.raises(TowerError, match=r": cannot read this PNG picture \(.+\): save it again as PNG or JPEG$"):
        from_picture(cut, 5)


def test_a_tab_in_a_drawing_counts_as_four_spaces():
    """As the README says: a tab indents a row by two squares."""
    assert parse_ascii("\t[]\n[][][][][]\n") == parse_ascii("    []\n[][][][][]\n")


def test_a_picture_too_tall_says_what_to_do(tmp_path):
    """A tall thin stroke: fewer --columns, and at one column, crop or redraw (no fewer exist)."""
    path = tmp_path / "tall.png"
    Image.new("L", (10, 4000), 0).save(path)
    with pytest.raises(TowerError, match=r"would be 1600 rows high \(at most 200\); use fewer --columns"):
        from_picture(path, 4)
    with pytest.raises(TowerError, match=r"would be 400 rows high \(at most 200\); crop the picture to the tower, "
                                         "or draw it less tall"):
        from_picture(path, 1)


@pytest.mark.parametrize("size, refused", [((1, 1), True), ((100, 1), True), ((7, 40), True), ((8, 8), False)])
def test_a_picture_of_a_few_pixels_is_refused(tmp_path, size, refused):
    """A 1 px picture or a line is no shape to cut into rows (it made a tower of 64 squares);
    8 px each way is the least (a tiny pixel-art tower still works)."""
    path = tmp_path / "tiny.png"
    Image.new("L", size, 0).save(path)
    if refused:
        with pytest.raises(TowerError, match=f"picture too small: {size[0]} x {size[1]} px"):
            from_picture(path, 4)
    else:
        assert len(from_picture(path, 4)) == 16
