"""`audit --annotate` draws what was audited into the sheet's cells, in pen blue: numbers,
X, circled (guarded) numbers, the ticked boxes of each counter, and Catan's pieces in their
pencil colours, so that the picture shows the sheet as it was written next to what broke."""

from __future__ import annotations

import io

import numpy
import pytest
from PIL import Image

from rnwprint.core.entries import Guarded
from rnwprint.core.sheet import Cell, Circle, Path, Sheet, Text
from rnwprint.fonts import PT, text_span
from rnwprint.games import GAMES
from rnwprint.games.catan import geometry as geo
from rnwprint.games.catan.drawn import draw_place
from rnwprint.render.png import DEFAULT_DPI
from rnwprint.render.written import AMBER, PEN, written_items


def _inside(item_box, cell):
    x0, y0, x1, y1 = cell.bounds
    return x0 <= item_box[0] and item_box[2] <= x1 and y0 <= item_box[1] and item_box[3] <= y1


def _text_box(text: Text):
    left, right = text_span(text)
    return left, text.y - 0.72 * text.size * PT, right, text.y


@pytest.mark.parametrize("game,cid,value,shown", [
    ("twenty-one", "R1C1", 6, "6"), ("twenty-one", "R3C2", "X", "X"),
    ("roll-to-the-top", "B2", 37, "37"), ("rolling-america", "WA", 3, "3"), ("rolling-espana", "CE", 5, "5"),
])
def test_a_number_or_an_x_is_written_in_pen_blue_in_the_middle_of_its_box(game, cid, value, shown):
    sheet = GAMES[game].build(GAMES[game].variants[0], "en", "a4")
    (text,) = written_items(sheet, {cid: value}, {})
    cell = sheet.cells[cid]
    x0, y0, x1, y1 = cell.bounds
    assert (text.text, text.colour, text.anchor) == (shown, PEN, "middle")
    assert text.x == pytest.approx((x0 + x1) / 2)
    assert _inside(_text_box(text), cell)
    top, bottom = _text_box(text)[1], _text_box(text)[3]
    assert (top + bottom) / 2 == pytest.approx((y0 + y1) / 2)
    assert bottom - top == pytest.approx(0.5 * (y1 - y0), rel=0.01) or \
        text_span(text)[1] - text_span(text)[0] == pytest.approx(0.8 * (x1 - x0), rel=0.01)  # as big as fits


def test_a_guarded_number_is_written_inside_a_circle_in_its_box():
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    circle, text = written_items(sheet, {"OR": Guarded(4)}, {})
    cell = sheet.cells["OR"]
    x0, y0, x1, y1 = cell.bounds
    assert isinstance(circle, Circle) and circle.style.stroke == PEN and not circle.style.fill
    assert (circle.cx, circle.cy) == pytest.approx(((x0 + x1) / 2, (y0 + y1) / 2))
    assert 0.3 * min(x1 - x0, y1 - y0) < circle.r < 0.5 * min(x1 - x0, y1 - y0)
    assert text.text == "4"
    left, top, right, bottom = _text_box(text)
    assert all((x - circle.cx) ** 2 + (y - circle.cy) ** 2 < circle.r ** 2
               for x in (left, right) for y in (top, bottom))  # the digit stays inside its circle


def test_each_counter_ticks_its_first_boxes_and_no_more():
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    items = written_items(sheet, {}, {"colour_change": 2, "guard": 0, "rounds": 3})
    ticked = [cid for cid, cell in sheet.cells.items()
              if any(isinstance(i, Path) and _inside(_bounds(i), cell) for i in items)]
    assert sorted(ticked) == ["colour_change:1", "colour_change:2", "rounds:1", "rounds:2", "rounds:3"]
    assert len(items) == 5 and all(i.style.stroke == PEN and not i.closed and len(i.rings) == 2 for i in items)


def test_the_tick_boxes_a_photo_saw_ticked_are_crossed_whatever_the_counts():
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    items = written_items(sheet, {}, {"guard": 2}, ticked=("guard:1", "guard:3", "rounds:5"))
    crossed = sorted(cid for cid, cell in sheet.cells.items() if any(_inside(_bounds(i), cell) for i in items))
    assert crossed == ["guard:1", "guard:3", "rounds:5"]


def _bounds(path: Path):
    xs = [x for ring in path.rings for x, _ in ring]
    ys = [y for ring in path.rings for _, y in ring]
    return min(xs), min(ys), max(xs), max(ys)


def _box_sheet(w: float, h: float):
    """A sheet of one box `w` x `h` mm at (10, 10)."""
    real = GAMES["twenty-one"].build("A", "en", "a4")
    sheet = Sheet(real.identity, 60.0, 60.0, "t", [], {})
    sheet.add_cell(Cell("A1", ((10, 10), (10 + w, 10), (10 + w, 10 + h), (10, 10 + h))))
    return sheet


def test_a_number_too_wide_for_its_box_is_written_smaller_to_fit_its_width():
    sheet = _box_sheet(4.0, 10.0)
    (text,) = written_items(sheet, {"A1": 44}, {})
    left, top, right, bottom = _text_box(text)
    assert right - left == pytest.approx(0.8 * 4.0, rel=0.01)
    assert bottom - top < 0.5 * 10.0 and _inside((left, top, right, bottom), sheet.cells["A1"])


def test_a_guarded_number_s_circle_fits_the_narrower_side_of_its_box():
    sheet = _box_sheet(12.0, 8.0)
    circle, text = written_items(sheet, {"A1": Guarded(5)}, {})
    assert circle.r == pytest.approx(0.42 * 8.0) and text.text == "5"
    assert 10 <= circle.cx - circle.r and circle.cx + circle.r <= 22 and 10 <= circle.cy - circle.r and circle.cy + circle.r <= 18


def test_a_tick_box_s_cross_stays_clear_of_its_edges():
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    (cross,) = written_items(sheet, {}, {"guard": 1})
    x0, y0, x1, y1 = sheet.cells["guard:1"].bounds
    left, top, right, bottom = _bounds(cross)
    assert left - x0 == pytest.approx(0.2 * (x1 - x0)) and x1 - right == pytest.approx(0.2 * (x1 - x0))
    assert top - y0 == pytest.approx(0.2 * (y1 - y0)) and y1 - bottom == pytest.approx(0.2 * (y1 - y0))


def test_a_cell_to_check_on_the_paper_carries_an_amber_question_mark_in_its_top_right_corner():
    sheet = GAMES["roll-to-the-top"].build("burj", "en", "a4")
    number, badge, mark = written_items(sheet, {"E1": 21}, {}, unsure=("E1", "Z9"))
    _, y0, x1, _ = sheet.cells["E1"].bounds
    assert number.text == "21" and number.colour == PEN
    assert isinstance(badge, Circle) and badge.style.fill == AMBER and badge.r == pytest.approx(2.5)
    assert x1 - 3 * badge.r < badge.cx - badge.r and badge.cx + badge.r < x1  # in the top right corner
    assert y0 < badge.cy - badge.r and badge.cy + badge.r < y0 + 3 * badge.r
    assert (mark.text, mark.colour, mark.x) == ("?", "#ffffff", badge.cx)
    left, top, right, bottom = _text_box(mark)
    assert badge.cx - badge.r < left and right < badge.cx + badge.r and badge.cy - badge.r < top and bottom < badge.cy + badge.r
    small = _box_sheet(5.0, 5.0)
    dot, _ = written_items(small, {}, {}, unsure=("A1",))  # a blank cell to check: the badge alone
    assert dot.r == pytest.approx(0.2 * 5.0)  # a small box: a fifth of its side


def test_a_cell_the_sheet_does_not_have_is_not_drawn():
    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    assert written_items(sheet, {"Z9": 3}, {"nothing": 2}) == []


@pytest.mark.parametrize("cid,words,player,kind", [
    ("V01", ("red village",), "red", "dot"), ("V09", ("ciudad roja",), "red", "fill"),
    ("E02", ("blue",), "blue", "fill"), ("T01", ("green town-hall",), "green", "fill"),
])
def test_a_catan_piece_is_drawn_in_its_pencil_colour(cid, words, player, kind):
    sheet = GAMES["catan"].build("map", "en", "a4")
    cell = sheet.cells[cid]
    colour = geo.data()["players"][player]
    (item,) = draw_place(cell, words)
    assert item.style.fill == colour
    if kind == "dot":
        x0, y0, x1, y1 = cell.bounds
        assert isinstance(item, Circle) and item.r == pytest.approx(0.3 * (x1 - x0) / 2)
        assert (item.cx, item.cy) == pytest.approx(((x0 + x1) / 2, (y0 + y1) / 2))
    else:
        assert isinstance(item, Path) and item.rings == (cell.polygon,)


def test_two_pieces_on_one_catan_place_are_two_dots_and_a_word_that_is_no_piece_is_left_out():
    sheet = GAMES["catan"].build("map", "en", "a4")
    red, blue = draw_place(sheet.cells["V40"], ("red village", "blue village"))
    players = geo.data()["players"]
    assert (red.style.fill, blue.style.fill) == (players["red"], players["blue"])
    x0, y0, x1, y1 = sheet.cells["V40"].bounds
    assert red.cx < blue.cx and red.cy == blue.cy == pytest.approx((y0 + y1) / 2)
    assert (red.cx + blue.cx) / 2 == pytest.approx((x0 + x1) / 2)  # the pair centred on the corner
    assert red.r == blue.r and 2 * red.r == pytest.approx(blue.cx - red.cx)  # side by side, touching
    assert blue.cx + blue.r - red.cx + red.r <= x1 - x0  # both inside the circle's width
    assert draw_place(sheet.cells["E02"], ("purple",)) == []
    assert draw_place(sheet.cells["V01"], ("red road",)) == []


def _pen_pixels(png: bytes, cell) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    s = DEFAULT_DPI / 25.4
    x0, y0, x1, y1 = cell.bounds
    box = numpy.asarray(image.crop((int(x0 * s) + 3, int(y0 * s) + 3, int(x1 * s) - 3, int(y1 * s) - 3)), int)
    pen = numpy.array([int(PEN[i:i + 2], 16) for i in (1, 3, 5)])
    return int((numpy.abs(box - pen).sum(axis=2) < 60).sum())


def test_audit_annotate_draws_the_typed_in_numbers_into_their_boxes(cli, write, tmp_path):
    path = write("mine.toml", 'game = "twenty-one"\nvariant = "A"\nlang = "en"\n[cells]\n'
                              'R1C1 = 6\nR1C2 = 5\nR1C3 = "X"\nR2C4 = 3\n')
    result = cli("audit", path, "--annotate", tmp_path / "check.png")
    assert result.code == 1 and "row-order" in result.out
    png = (tmp_path / "check.png").read_bytes()
    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    for cid in ("R1C1", "R1C2", "R1C3", "R2C4"):
        assert _pen_pixels(png, sheet.cells[cid]) > 100, cid
    for cid in ("R1C5", "R2C1", "R5C6"):
        assert _pen_pixels(png, sheet.cells[cid]) == 0, cid


def test_audit_annotate_into_a_pdf_draws_a_page_per_sheet_and_skips_a_file_it_cannot_read(cli, write, tmp_path):
    """A tournament's typed-in sheets audited at once: one PDF, a page per sheet in input
    order (a Rolling map in landscape among them), the unreadable file said on stderr and
    left out; a PNG takes one sheet only."""
    a = write("a.toml", 'game = "twenty-one"\nvariant = "A"\n[cells]\nR1C1 = 6\n')
    b = write("b.toml", 'game = "rolling-america"\nvariant = "us"\n[cells]\nWA = 3\nOR = 6\n')
    bad = write("c.toml", 'game = "twenty-one"\nvariant = "Z"\n')
    result = cli("audit", a, bad, b, "--annotate", tmp_path / "all.pdf", "--lang", "en")
    assert result.code == 2 and "c.toml" in result.err and result.out.count("Sheet: ") == 2
    pdf = (tmp_path / "all.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") == 2
    assert pdf.index(b"/MediaBox [ 0 0 595.2756 841.8898 ]") < pdf.index(b"/MediaBox [ 0 0 841.8898 595.2756 ]")
    refused = cli("audit", a, b, "--annotate", tmp_path / "two.png")
    assert refused.code == 2 and "--annotate a .pdf file for a page per sheet" in refused.err
    assert not (tmp_path / "two.png").exists()
    nothing = cli("audit", bad, "--annotate", tmp_path / "none.pdf")
    assert nothing.code == 2 and not (tmp_path / "none.pdf").exists()  # no sheet audited: no file


def test_a_typed_in_tower_too_big_to_draw_is_audited_named_and_left_out_of_the_picture(cli, write, tmp_path):
    a = write("a.toml", 'game = "twenty-one"\nvariant = "A"\n[cells]\nR1C1 = 6\n')
    wide = write("wide.toml", 'game = "roll-to-the-top"\ntower = """\n' + "[]" * 40 + '\n"""\n[cells]\nA1 = 3\n')
    result = cli("audit", a, wide, a, "--annotate", tmp_path / "all.pdf", "--lang", "en")
    assert result.code == 2 and result.out.count("Sheet: ") == 3 and "Score: -39" in result.out
    [said] = result.err.splitlines()
    assert said.startswith(f"rnwprint: {wide}: left out of {tmp_path / 'all.pdf'}: too big for the page: A1 to A40")
    assert (tmp_path / "all.pdf").read_bytes().count(b"/Type /Page\n") == 2


def test_a_photo_of_a_letter_sheet_is_annotated_on_letter_paper(cli, tmp_path):
    from support import synth

    sheet = GAMES["twenty-one"].build("C", "en", "letter")
    photo = tmp_path / "letter.jpg"
    photo.write_bytes(synth.make_photo(sheet, {"R1C1": 6, "R1C2": 5}, seed=3, megapixels=4.0))
    result = cli("audit", photo, "--annotate", tmp_path / "checked.pdf")
    assert result.code in (0, 1)
    pdf = (tmp_path / "checked.pdf").read_bytes()
    assert b"/MediaBox [ 0 0 612 792 ]" in pdf and pdf.count(b"/Type /Page\n") == 1
