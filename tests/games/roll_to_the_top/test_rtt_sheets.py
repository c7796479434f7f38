"""Roll to the Top: the built-in towers' sheets, the variants and the towers template."""

from __future__ import annotations

import itertools

import pypdf
import pytest
from conftest import LANGS, PAGES
from page_boxes import inside, overlap, text_box
from rnwprint.core.errors import RnwError
from rnwprint.core.sheet import Path, Rect, Text
from rnwprint.games import GAMES
from rnwprint.games.roll_to_the_top import game as rtt
from rnwprint.games.roll_to_the_top.sheet import (
    FACE,
    GOLD,
    build,
    build_sheets,
    build_tower,
)
from rnwprint.games.roll_to_the_top.tower import TowerError
from rnwprint.games.roll_to_the_top.tower_code import encode
from rnwprint.games.roll_to_the_top.tower_input import parse_ascii
from rnwprint.layout.page import MARGIN
from rnwprint.locale import t

BUILTINS = list(rtt.builtins())
T_TOWER = "[][][]\n  []\n"  # B1 and B3 are overhangs beside B2, which rests on A1
PYRAMID_ART = "    []\n   [][]\n  [][][]\n [][][][]\n[][][][][]\n"
LEDGE = "[][][][]\n      []\n"  # B1, B2, B3 are overhangs side by side; B4 rests on A1



# --- the built-ins and their sheets ----------------------------------------------------------

def test_eight_builtins_13_to_40_squares_burj_first():
    towers = rtt.builtins()
    assert len(towers) >= 8
    assert GAMES["roll-to-the-top"].default_variant == "burj" == BUILTINS[0]
    assert len(towers["burj"].tower) == 13 and towers["burj"].tower.rows == 7
    assert len(towers["pyramid"].tower) == 15
    for b in towers.values():
        assert 13 <= len(b.tower) <= 40 and b.tower.problems() == []
        assert b.names["es"] and b.names["en"]
    assert any(any(b.tower.overhang) for b in towers.values())
    assert any(len({c % 2 for _, c in b.tower.squares}) == 2 for b in towers.values())  # half offsets


@pytest.mark.parametrize("variant", BUILTINS + ["eiffel-desc"])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", PAGES)
def test_sheet_prints_cleanly(variant, lang, page):
    sheet = build(variant, lang, page)
    tower, _, _ = rtt.parse_variant(variant)
    assert list(sheet.cells) == list(tower.ids)
    cells = [c.bounds for c in sheet.cells.values()]
    for c in sheet.cells.values():
        x0, y0, x1, y1 = c.bounds
        assert x1 - x0 >= 7 and y1 - y0 >= 7 and (c.low, c.high, c.kind) == (1, 50, "number")
    for a, b in itertools.combinations(cells, 2):
        assert not overlap(a, b), "cells overlap"
    texts = [i for i in sheet.items if isinstance(i, Text)]
    ids = {i.text: i for i in texts if i.text in sheet.cells}
    assert set(ids) == set(sheet.cells)
    for cid, item in ids.items():
        assert inside(text_box(item), sheet.cells[cid].bounds), f"{cid} sticks out of its square"
    others = [text_box(i) for i in texts if i.text not in sheet.cells]
    for box in others:
        assert MARGIN - 0.1 <= box[0] and box[2] <= sheet.width - MARGIN + 0.1, "text off the page"
        assert not any(overlap(box, c) for c in cells), "text over a square"
    boxes = [text_box(i) for i in texts]
    for a, b in itertools.combinations(boxes, 2):
        assert not overlap(a, b), f"texts overlap: {a} {b}"
    title = texts[0]
    assert text_box(title)[2] < sheet.width - MARGIN - 12  # clear of the top-right marker


def test_sheet_words_in_each_language():
    es = build("eiffel", "es", "a4")
    en = build("eiffel", "en", "a4")
    es_text = " ".join(i.text for i in es.items if isinstance(i, Text))
    en_text = " ".join(i.text for i in en.items if isinstance(i, Text))
    assert "Torre Eiffel" in es.title and "Dificultad" in es_text and "voladizo" in es_text
    assert "Eiffel Tower" in en.title and "Difficulty" in en_text and "overhang" in en_text
    assert "≥" in en_text and "≤" in build("eiffel-desc", "en", "a4").items.__repr__()
    assert "rests on A1, A2" in es.cells["B1"].label.replace("se apoya en", "rests on")


@pytest.mark.parametrize("lang, nobody, five, tie", [
    ("es", "si nadie escribió ningún número", "con cinco dados quita uno", "(varios a la vez: ganan todos)"),
    ("en", "nobody wrote a number", "all five rolled: remove one", "(several at once: all win)")])
def test_the_legend_puts_nobody_wrote_first_keeping_five_and_shares_the_win(lang, nobody, five, tie):
    """"Si todos los jugadores no completaron ningún número ... añadir 1 dado ... Si es imposible,
    mantén los 5 dados" overrides "Si se lanzaron los 5 dados ... eliminar un dado"; "¡Ningún
    desempate!"."""
    text = " ".join(i.text for i in build("pyramid", lang, "a4").items if isinstance(i, Text))
    text = " ".join(text.split())  # the legend's lines joined
    assert text.index(nobody) < text.index(five) and tie in text
    assert ("añade uno (con cinco, se quedan cinco)" if lang == "es" else "add one (five: keep five)") in text


def test_ground_squares_carry_a_dot():
    sheet = build("pyramid", "en", "a4")
    from rnwprint.core.sheet import Circle

    dots = [i for i in sheet.items if isinstance(i, Circle)]
    ground = [c for c in sheet.cells.values() if c.id.startswith("A")]
    assert len(dots) == len(ground) == 5
    for d, c in zip(dots, ground):
        x0, y0, x1, y1 = c.bounds
        assert x0 < d.cx < x1 and y0 < d.cy < y1


def test_variant_all_prints_every_builtin(cli, tmp_path):
    out = tmp_path / "all.pdf"
    assert cli("sheet", "roll-to-the-top", "--variant", "all", "--lang", "en", "-o", out).code == 0
    pages = pypdf.PdfReader(out).pages
    assert len(pages) == len(BUILTINS)
    for page, tid in zip(pages, BUILTINS):
        assert f"Roll to the Top — {rtt.builtins()[tid].names['en']}" in page.extract_text()
    assert "Burj Khalifa" in pages[0].extract_text() and "Great Pyramid" in pages[1].extract_text()


def test_descending_and_custom_variants_fit_the_identity():
    assert rtt.parse_variant("sagrada-desc")[1] is True
    tower = parse_ascii(T_TOWER)
    variant = rtt.custom_variant_name(tower, descending=True)
    sheet = build(variant, "es", "letter")
    assert sheet.identity.variant == variant == f"t.{encode(tower)}-desc"
    assert any(encode(tower) in i.text for i in sheet.items if isinstance(i, Text))
    with pytest.raises(ValueError, match="unknown variant 'nope'"):
        rtt.parse_variant("nope")


def test_custom_tower_variant_is_its_code():
    # printed in the identity QR of every custom sheet: the photo alone rebuilds the tower
    assert rtt.custom_variant_name(parse_ascii(T_TOWER)) == "t.N5S3"
    assert rtt.custom_variant_name(parse_ascii(LEDGE), descending=True) == "t.1A6WC4-desc"
    assert rtt.parse_variant("t.1A6WC4-desc")[:2] == (parse_ascii(LEDGE), True)


@pytest.mark.parametrize("variant", ["t.short", "eiffeltowe", "t.N5S3!"])
def test_a_name_neither_builtin_nor_a_tower_code_is_an_unknown_variant(variant):
    with pytest.raises(ValueError, match=f"unknown variant '{variant}'"):
        rtt.parse_variant(variant)


@pytest.mark.parametrize("variant, extra, result", [
    (None, {}, None),  # the game's default variant, ascending
    (None, {"descending": True}, "burj-desc"),
    ("eiffel", {}, "eiffel"),
    ("eiffel", {"descending": True}, "eiffel-desc"),
    ("eiffel-desc", {"descending": True}, "eiffel-desc"),
    ("eiffel-desc", {}, "eiffel-desc"),
    ("pyramid", {"tower": PYRAMID_ART}, "pyramid"),
    ("pyramid", {"tower": PYRAMID_ART, "descending": True}, "pyramid-desc"),
    ("pyramid-desc", {"tower": PYRAMID_ART, "descending": True}, "pyramid-desc"),
    (None, {"tower": T_TOWER}, "t.N5S3"),
    ("t.N5S3", {"tower": T_TOWER, "descending": True}, "t.N5S3-desc"),
    ("t.N5S3-desc", {"tower": T_TOWER}, "t.N5S3-desc"),
    ("t.N5S3", {}, "t.N5S3"),  # the code alone names the tower
])
def test_typed_in_variant_tower_and_descending_keys_name_the_variant(variant, extra, result):
    assert rtt.custom_variant(variant, extra) == result


@pytest.mark.parametrize("variant, extra, reason", [
    ("t.1A6WC4", {"tower": T_TOWER}, r"'t.1A6WC4' is not the tower given under `tower` \(that one is t.N5S3\)"),
    ("eiffel", {"tower": T_TOWER}, r"'eiffel' is not the tower given under `tower`$"),
    ("eiffel", {"descending": "yes"}, r"descending: 'yes' is not true or false"),
    ("eiffel-desc", {"descending": False}, r"descending = false, but the variant 'eiffel-desc' is the descending rule"),
    ("t.N5S3-desc", {"tower": T_TOWER, "descending": False}, r"descending = false, but the variant 't.N5S3-desc'"),
])
def test_typed_in_variant_that_contradicts_the_tower_is_refused(variant, extra, reason):
    with pytest.raises(ValueError, match=reason):
        rtt.custom_variant(variant, extra)


def load_towers(tmp_path, monkeypatch, text: str):
    path = tmp_path / "towers.toml"
    path.write_text(text)
    monkeypatch.setattr(rtt, "TEMPLATE", path)
    rtt._entries.cache_clear()
    rtt.builtins.cache_clear()
    try:
        return rtt.builtins()
    finally:
        rtt._entries.cache_clear()
        rtt.builtins.cache_clear()


@pytest.mark.parametrize("entry, reason", [
    ('id = "Eiffel"\nes = "a"\nen = "b"\nart = "[]"', r"tower\[0\]\.id: expected a short lowercase name"),
    ('id = 3\nes = "a"\nen = "b"\nart = "[]"', r"tower\[0\]\.id: expected a short lowercase name"),
    ('id = "abcdefghijkl"\nes = "a"\nen = "b"\nart = "[]"', r"tower\[0\]\.id: expected a short lowercase name"),
    ('id = "a"\nes = "a"\nart = "[]"', r"tower\[0\]: needs its name in es and en"),
    ('id = "a"\nes = ""\nen = "b"\nart = "[]"', r"tower\[0\]: needs its name in es and en"),
    ('id = "a"\nes = "a"\nen = "b"\nart = "[]"\nsize = 3', r"tower\[0\]: unknown keys size"),
])
def test_towers_template_refuses_a_bad_entry(tmp_path, monkeypatch, entry, reason):
    with pytest.raises(RnwError, match=reason):
        load_towers(tmp_path, monkeypatch, f"[[tower]]\n{entry}\n")


def test_towers_template_refuses_an_id_used_twice(tmp_path, monkeypatch):
    entry = '[[tower]]\nid = "a"\nes = "a"\nen = "b"\nart = "[]"\n'
    with pytest.raises(RnwError, match=r"tower\[1\]\.id: 'a' is used twice"):
        load_towers(tmp_path, monkeypatch, entry + entry)


def test_too_big_tower_is_refused_with_its_extent():
    # A4's 190 mm less the ground line's 4 mm at each side: 182 / 30 = 6.07 mm, said rounded
    # down (never "7.0 mm ... at least 7 mm" for 6.99), 182 // 7 = 26
    wide = parse_ascii("[]" * 30)
    with pytest.raises(TowerError, match=r"too big for the page: A1 to A30 span 30 squares across and 1 row, so "
                                         r"squares would be 6\.0 mm on A4 \(at least 7 mm hold two digits\); "
                                         r"at most 26 squares across and 27 rows fit$"):
        build_tower(wide, "en", "a4")
    with pytest.raises(TowerError, match=r"squares would be 6\.4 mm on Letter \("):
        build_tower(parse_ascii("[]" * 29), "en", "letter")


def test_white_die_legend_draws_its_six_faces():
    # "+: Añade 1 dado; -: Quita 1 dado; +/-: Añade o quita 1 dado; ⇄: Añade 1 y quita otro"
    sheet = build("burj", "en", "a4")
    faces = [i for i in sheet.items if isinstance(i, Rect) and i.style == FACE]
    assert len(faces) == 6 and all(f.w == f.h == 6.0 for f in faces)
    strokes = []
    for f in faces:
        inner = [p for p in sheet.items if isinstance(p, Path) and all(
            f.x < x < f.x + f.w and f.y < y < f.y + f.h for ring in p.rings for x, y in ring)]
        strokes.append(len(inner))
    assert strokes == [2, 2, 1, 1, 3, 4]  # + + − − ± ⇄ (the swap: two arrows, each a shaft and a head)
    words = [i.text for i in sheet.items if isinstance(i, Text)]
    for key in ("add", "remove", "either", "swap"):
        assert t("en", f"roll-to-the-top.{key}") in words


@pytest.mark.parametrize("variant, gold", [("burj", 1), ("eiffel", 4)])
def test_difficulty_prints_five_stars_the_rating_in_gold(variant, gold):
    sheet = build(variant, "en", "a4")
    stars = [i for i in sheet.items if isinstance(i, Path) and len(i.rings[0]) == 10]
    assert len(stars) == 5
    assert [s.style.fill == GOLD for s in stars] == [True] * gold + [False] * (5 - gold)
    for star in stars:
        xs = [x for x, _ in star.rings[0]]
        assert 3.98 < max(xs) - min(xs) < 4.01  # a 5-point star 4.2 mm high: 4.2 sin 72° across


@pytest.mark.parametrize("variant", ["burj", "sagrada", "cn"])
def test_tower_stands_centred_on_the_page_under_the_legend(variant):
    sheet = build(variant, "en", "a4")
    cells = [c.bounds for c in sheet.cells.values()]
    left, right = min(b[0] for b in cells), max(b[2] for b in cells)
    assert MARGIN <= left and right <= sheet.width - MARGIN
    assert abs((left - MARGIN) - (sheet.width - MARGIN - right)) < 0.01
    legend = max(i.y for i in sheet.items if isinstance(i, Text) and "rounds" in i.text)
    assert min(b[1] for b in cells) > legend
    ids = [i for i in sheet.items if isinstance(i, Text) and i.text in sheet.cells]
    side = cells[0][2] - cells[0][0]
    assert all(i.size == min(6.0, side * 0.45) or i.size >= 4 for i in ids)


def test_custom_sheets_are_ascending_unless_asked():
    tower = parse_ascii(T_TOWER)
    assert build_tower(tower, "en", "a4").identity.variant == "t.N5S3"
    calls = []
    sheets = build_sheets([tower, parse_ascii(LEDGE)], "en", "a4", progress=calls.append, workers=1)
    assert [s.identity.variant for s in sheets] == ["t.N5S3", "t.1A6WC4"]
    assert calls == [1, 1]


def test_asking_for_more_random_towers_than_exist_is_refused():
    with pytest.raises(TowerError, match=r"found only \d+ different towers of 3 squares"):
        rtt.random_towers(1, count=40, squares=3)

