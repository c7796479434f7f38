"""What a player sees on the printed page: text sizes by role, one language per sheet, Roll to
the Top's gaps, size and placement, and picture towers that keep their symmetry."""

from __future__ import annotations

import pytest
from page_boxes import inside, text_box
from PIL import Image, ImageDraw

from rnwprint.core.sheet import IDENTITY, Path, Rect, Text
from rnwprint.games import GAMES
from rnwprint.games.roll_to_the_top import game as rtt
from rnwprint.games.roll_to_the_top.sheet import (
    GAP_FILL,
    HATCH,
    SQUARE,
    build,
    build_tower,
)
from rnwprint.games.roll_to_the_top.tower_input import from_picture, parse_ascii
from rnwprint.locale import t

READ_PT = 7.0  # rules, labels, headings, footer: anything a player reads
ID_PT = 5.0  # a cell's id printed small in its own box: legible printed, out of the pen's way


def every_sheet():
    for name, game in GAMES.items():
        variants = list(game.variants) + (["burj-desc"] if name == rtt.NAME else [])
        for variant in variants:
            for lang in ("es", "en"):
                for page in ("a4", "letter"):
                    yield name, variant, lang, page


def role(sheet, item: Text) -> str:
    """"id" for a cell's id inside its own box, "read" for every other text."""
    cell = sheet.cells.get(item.text)
    if cell is not None and inside(text_box(item), cell.bounds):
        return "id"
    return "read"


@pytest.mark.parametrize("name,variant,lang,page", list(every_sheet()))
def test_every_word_a_player_reads_is_7_pt_and_ids_5_pt(name, variant, lang, page):
    sheet = GAMES[name].build(variant, lang, page)
    small = [(item.text, item.size, role(sheet, item)) for item in sheet.items if isinstance(item, Text)
             and item.size < (ID_PT if role(sheet, item) == "id" else READ_PT)]
    assert small == []
    if sheet.cells:  # a sheet with places prints their ids (Catan's notes sheet has none)
        assert any(role(sheet, item) == "id" for item in sheet.items if isinstance(item, Text))


def test_a_random_tower_sheet_keeps_its_text_sizes():
    tower = rtt.random_towers(3, 1, squares=200, max_width=25)[0]  # the smallest squares a page takes
    sheet = build_tower(tower, "es", "letter")
    texts = [item for item in sheet.items if isinstance(item, Text)]
    assert min(item.size for item in texts if role(sheet, item) == "id") >= ID_PT
    assert min(item.size for item in texts if role(sheet, item) == "read") >= READ_PT


def words(sheet) -> str:
    return " ".join(item.text for item in sheet.items if isinstance(item, Text))


@pytest.mark.parametrize("name", ["rolling-america", "rolling-espana"])
def test_map_credit_speaks_the_sheet_language(name):
    spanish, english = words(GAMES[name].build(GAMES[name].default_variant, "es", "a4")), \
        words(GAMES[name].build(GAMES[name].default_variant, "en", "a4"))
    assert "Mapa:" in spanish and "Map:" not in spanish.replace("Mapa:", "")
    assert "Map:" in english and "Mapa:" not in english
    assert " vía " in spanish and " via " in english
    if name == "rolling-america":
        assert "Oficina del Censo" in spanish and "Census Bureau" not in spanish
        assert "public domain" in english
    else:
        # the institute's own name stays as it is, in Spanish, on both
        assert "Instituto Geográfico Nacional" in spanish and "Instituto Geográfico Nacional" in english


def test_spanish_rules_say_what_the_rules_mean():
    rolling = t("es", "rolling.rules")
    # "resguardar un número ... puedes ignorar la Regla de Estados Vecinos para dicho número"
    assert "queda exento de la regla de vecinas" in rolling
    assert "ya no cumple" not in rolling
    tower = t("es", "roll-to-the-top.rules", cmp="≥")
    # "se permite cualquier número tan pronto como se rellene un cuadrado vecino"
    assert "en cuanto haya una casilla rellena a su lado" in tower


# --- Roll to the Top: gaps, size, placement -------------------------------------------------

ARCHED = """
[][][][][]
[][]  [][]
"""
NOTCHED = """
[]  []
[][][]
"""


def shaded(sheet) -> list[Path]:
    return [i for i in sheet.items if isinstance(i, Path) and i.style.fill == GAP_FILL.fill]


def test_a_gap_closed_all_round_is_shaded_not_drawn_like_a_square():
    sheet = build_tower(parse_ascii(ARCHED), "en", "a4")
    (gap,) = shaded(sheet)
    a2, a3, b3 = (sheet.cells[c].bounds for c in ("A2", "A3", "B3"))
    xs = [x for x, _ in gap.rings[0]]
    ys = [y for _, y in gap.rings[0]]
    # between A2 and A3, under B3, down to the ground
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((a2[2], a3[0], b3[3], a2[3]), abs=0.01)
    assert gap.style.stroke is None  # no outline of its own
    hatch = [i for i in sheet.items if isinstance(i, Path) and not i.closed and i.style == HATCH]
    assert len(hatch) == 1 and len(hatch[0].rings) >= 3
    squares = [i for i in sheet.items if isinstance(i, Rect) and i.style == SQUARE]
    assert len(squares) == len(sheet.cells) == 9


def test_a_notch_open_at_the_top_is_not_shaded():
    sheet = build_tower(parse_ascii(NOTCHED), "en", "a4")
    assert shaded(sheet) == []


def test_the_eiffel_arch_is_shaded():
    assert len(shaded(build("eiffel", "es", "a4"))) == 1


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_a_small_tower_grows_to_25_mm_squares_and_stands_in_the_middle_of_its_room(page):
    sheet = build_tower(parse_ascii("[][]\n[][]\n"), "en", page)
    cells = [c.bounds for c in sheet.cells.values()]
    assert all(b[2] - b[0] == pytest.approx(25.0) for b in cells)
    top, bottom = min(b[1] for b in cells), max(b[3] for b in cells)
    legend = max(i.y for i in sheet.items if isinstance(i, Text) and "rounds" in i.text)
    (qr,) = sheet.having(IDENTITY)
    qr_top = qr.y
    # as much room above the tower (below the legend) as below it (above the QR code)
    assert (top - legend) == pytest.approx(qr_top - bottom, abs=6)
    assert top - legend > 40


def test_a_tall_tower_still_fills_the_height():
    sheet = build("cn", "en", "a4")
    cells = [c.bounds for c in sheet.cells.values()]
    side = cells[0][2] - cells[0][0]
    assert 7 <= side < 25
    rows = len({round(b[1], 2) for b in cells})
    legend = max(i.y for i in sheet.items if isinstance(i, Text) and "rounds" in i.text)
    assert rows * side > 0.85 * (sheet.height - 10 - 26.1 - 3 - legend - 10)


# --- picture towers keep the picture's symmetry -----------------------------------------------

def castle(path):
    im = Image.new("L", (900, 600), 255)
    d = ImageDraw.Draw(im)
    d.rectangle([100, 250, 799, 549], fill=0)  # the wall, 700 px across: centre 449.5
    for x in (100, 375, 650):  # three merlons, 150 px each, the middle one on the centre
        d.rectangle([x, 150, x + 149, 249], fill=0)
    d.rectangle([400, 420, 499, 549], fill=255)  # the gate, on the centre
    im.save(path)


def triangle(path):
    im = Image.new("L", (800, 700), 255)
    ImageDraw.Draw(im).polygon([(50, 650), (750, 650), (400, 50)], fill=0)
    im.save(path)


def mirrored(tower):
    right = max(c for _, c in tower.squares)
    return sorted((r, right - c) for r, c in tower.squares)


@pytest.mark.parametrize("columns", range(3, 14))
def test_a_symmetric_castle_comes_out_symmetric(tmp_path, columns):
    path = tmp_path / "castle.png"
    castle(path)
    tower = from_picture(path, columns)
    assert mirrored(tower) == sorted(tower.squares)
    assert tower.width == columns


@pytest.mark.parametrize("columns", range(2, 12))
def test_a_triangle_is_symmetric_and_as_wide_as_its_columns(tmp_path, columns):
    path = tmp_path / "triangle.png"
    triangle(path)
    tower = from_picture(path, columns)
    assert mirrored(tower) == sorted(tower.squares)
    bottom = [c for r, c in tower.squares if r == 0]
    assert len(bottom) == columns  # the base row, the widest: --columns squares across
    top = [c for r, c in tower.squares if r == tower.rows - 1]
    assert len(top) == 1


def test_castle_at_8_columns_has_its_merlons_gate_and_wall(tmp_path):
    path = tmp_path / "castle.png"
    castle(path)
    assert from_picture(path, 8) == parse_ascii("""
[][]  [][]  [][]
[][][][][][][][]
[][][][][][][][]
[][][]    [][][]
[][][]    [][][]
""")
