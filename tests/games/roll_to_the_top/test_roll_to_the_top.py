"""Roll to the Top: the built-in towers' sheets, variants, ratings, the audit and the CLI."""

from __future__ import annotations

import itertools
import json

import pypdf
import pytest

from rnwprint.core.entries import Entries
from rnwprint.core.errors import RnwError
from rnwprint.games import GAMES
from rnwprint.games.roll_to_the_top import game as rtt, rules as rtt_rules
from rnwprint.games.roll_to_the_top.difficulty import _RATINGS
from rnwprint.games.roll_to_the_top.sheet import FACE, GOLD, build, build_sheets, build_tower
from rnwprint.games.roll_to_the_top import sim as tower_sim
from rnwprint.games.roll_to_the_top.tower import TowerError
from rnwprint.games.roll_to_the_top.tower_code import encode
from rnwprint.games.roll_to_the_top.tower_input import parse_ascii
from rnwprint.layout.page import MARGIN
from rnwprint.locale import t
from rnwprint.core.sheet import Path, Rect, Text

from conftest import LANGS, PAGES
from page_boxes import inside, overlap, text_box

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
    # A4's 190 mm less the ground line's 4 mm at each side: 182 / 30 = 6.07 mm, 182 // 7 = 26
    wide = parse_ascii("[]" * 30)
    with pytest.raises(TowerError, match=r"too big for the page: A1 to A30 span 30 squares across and 1 row, so "
                                         r"squares would be 6\.1 mm on A4 \(at least 7 mm hold two digits\); "
                                         r"at most 26 squares across and 27 rows fit$"):
        build_tower(wide, "en", "a4")


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


# --- ratings --------------------------------------------------------------------------------

def test_ratings_are_deterministic_and_ordered():
    easy, big = rtt.builtins()["pyramid"].tower, rtt.builtins()["sagrada"].tower
    assert len(easy) == 15 and len(big) >= 39
    a = tower_sim.rate(easy, games=60)
    assert a == tower_sim.rate(easy, games=60)
    b = tower_sim.rate(big, games=60)
    assert a.mean < b.mean and a.p90 < b.p90 and a.stars < b.stars
    assert a.p10 <= a.mean <= a.p90 and 1 <= a.stars <= 5


def test_burj_khalifa_rates_easiest_of_the_builtins():
    # the rules: "Con los nuevos jugadores, el Burj Khalifa es el más fácil"
    means = {tid: tower_sim.rate(b.tower).mean for tid, b in rtt.builtins().items()}
    assert min(means, key=means.get) == "burj"
    assert all(means["burj"] < mean for tid, mean in means.items() if tid != "burj")


def test_burj_sheet_prints_one_star_and_about_9_rounds():
    sheet = build("burj", "en", "a4")
    gold = [i for i in sheet.items if isinstance(i, Path) and i.style.fill == GOLD]
    assert len(gold) == 1
    assert "about 9 rounds (6–12) solo" in [i.text for i in sheet.items if isinstance(i, Text)]


def test_every_simulated_game_of_a_big_tower_ends():
    rounds = tower_sim.simulate(rtt.builtins()["taipei"].tower, 30)
    assert all(0 < r < tower_sim.MAX_ROUNDS for r in rounds)


def test_white_die_faces_are_two_add_two_remove_either_and_swap():
    assert tower_sim.WHITE_FACES == ("+", "+", "−", "−", "±", "⇄")


# --- the audit ---------------------------------------------------------------------------------

def audit(cells: dict, variant: str = "pyramid"):
    return rtt_rules.audit(Entries("t.toml", rtt.NAME, variant, dict(cells)), "en")


def rules(report):
    return [(v.rule, v.cells) for v in report.violations]


FULL_PYRAMID = {"A1": 1, "A2": 2, "A3": 3, "A4": 2, "A5": 1, "B1": 2, "B2": 3, "B3": 3, "B4": 2,
                "C1": 3, "C2": 5, "C3": 3, "D1": 5, "D2": 5, "E1": 9}


def test_finished_pyramid_is_valid_and_scores_zero():
    report = audit(FULL_PYRAMID)
    assert report.valid and report.score == 0
    assert report.details["complete"] is True and report.details["open"] == 0


def test_open_squares_cost_a_point_each():
    cells = {k: v for k, v in FULL_PYRAMID.items() if k not in ("E1", "D2")}
    report = audit(cells)
    assert report.valid and report.score == -2
    assert report.details["complete"] is False and report.details["open_squares"] == ["D2", "E1"]


def test_number_below_a_support_is_one_violation_per_support():
    report = audit({**FULL_PYRAMID, "B2": 1})  # rests on A2 (2) and A3 (3); C1, C2 rest on it
    assert rules(report) == [("support", ("B2", "A2")), ("support", ("B2", "A3"))]
    assert report.violations[0].message == "B2: 1 is less than the 2 in A2, which it rests on"


@pytest.mark.parametrize("mark, shown", [("X", "X"), (0, "0"), (51, "51"), (-3, "-3")])
def test_square_resting_on_an_x_or_a_bad_value_is_unsupported(mark, shown):
    # "se permite un número si todos estos cuadrados subyacentes contienen un número"
    report = audit({**FULL_PYRAMID, "A3": mark})
    assert rules(report) == [("bad-value", ("A3",)), ("support", ("B2", "A3")), ("support", ("B3", "A3"))]
    assert report.violations[1].message == f"B2 is filled but A3, which it rests on, holds no number ({shown})"
    assert report.score == -1


def test_ground_squares_take_any_number():
    assert audit({"A1": 50, "A2": 1, "A3": 20, "A4": 7, "A5": 33}).valid


def test_a_number_equal_to_the_squares_below_is_allowed_either_way():
    # "mayor o igual"; descending: "más altos o iguales"
    assert audit({"A1": 4, "A2": 4, "B1": 4}).valid
    assert audit({"A1": 4, "A2": 4, "B1": 4}, "pyramid-desc").valid


def test_filled_square_on_an_empty_support():
    cells = {k: v for k, v in FULL_PYRAMID.items() if k != "A3"}
    report = audit(cells)
    assert rules(report) == [("support", ("B2", "A3")), ("support", ("B3", "A3"))]
    assert report.score == -1
    assert "B2 is filled but A3, which it rests on, is empty" == report.violations[0].message


def test_descending_rule():
    report = audit({"A1": 9, "A2": 8, "B1": 8, "C1": 3}, "pyramid-desc")
    assert rules(report) == [("support", ("C1", "B2"))]  # B2 is empty
    report = audit({"A1": 9, "A2": 8, "B1": 9}, "pyramid-desc")
    assert rules(report) == [("support", ("B1", "A2"))]
    assert "9 is greater than the 8 in A2" in report.violations[0].message


def test_overhang_needs_a_filled_neighbour():
    variant = rtt.custom_variant_name(parse_ascii(T_TOWER))
    report = audit({"A1": 1, "B1": 7}, variant)
    assert rules(report) == [("overhang", ("B1",))]
    assert report.violations[0].message == "B1 is an overhang, filled though no square beside it (B2) is filled"
    assert audit({"A1": 1, "B2": 1, "B1": 7, "B3": 2}, variant).valid


def custom(art: str) -> str:
    return rtt.custom_variant_name(parse_ascii(art))


def test_overhang_needs_any_one_square_beside_it_filled_not_all():
    # "se permite cualquier número tan pronto como se rellene un cuadrado vecino en su lado izquierdo o derecho"
    variant = custom("[][][]\n[]  []\n")  # B2 rests on nothing, between B1 and B3
    assert audit({"A1": 4, "B1": 5, "B2": 1}, variant).valid
    assert audit({"A2": 4, "B3": 5, "B2": 1}, variant).valid


@pytest.mark.parametrize("mark", ["X", 0, 51])
def test_x_or_bad_value_beside_an_overhang_is_no_anchor(mark):
    report = audit({"A1": 1, "B2": mark, "B1": 7}, custom(T_TOWER))
    assert rules(report) == [("bad-value", ("B2",)), ("overhang", ("B1",))]


def test_overhangs_side_by_side_need_a_square_beside_them_outside_the_run():
    variant = custom(LEDGE)
    assert audit({"A1": 2, "B4": 3, "B3": 9, "B2": 1, "B1": 5}, variant).valid  # written from B4 outwards
    report = audit({"A1": 2, "B1": 5, "B2": 1}, variant)
    assert rules(report) == [("overhang", ("B1", "B2"))]
    assert report.violations[0].message == (
        "B1, B2 are overhangs side by side, filled though no other square beside them (B3) is filled: "
        "the first written needed one")
    report = rtt_rules.audit(Entries("t", rtt.NAME, variant, {"A1": 2, "B1": 5, "B2": 1}), "es")
    assert report.violations[0].message == (
        "B1, B2 son voladizos contiguos rellenos sin ninguna otra casilla rellena a su lado (B3): "
        "el primero que se escribió necesitaba una")


def test_empty_overhang_splits_a_run():
    report = audit({"A1": 2, "B4": 3, "B3": 9, "B1": 5}, custom(LEDGE))
    assert rules(report) == [("overhang", ("B1",))]  # B3 hangs on B4; B1 alone beside the empty B2


def test_run_beside_an_x_is_not_anchored():
    report = audit({"A1": 2, "B4": "X", "B3": 9, "B2": 1}, custom(LEDGE))
    assert rules(report) == [("bad-value", ("B4",)), ("overhang", ("B2", "B3"))]


def test_bad_values_are_reported_and_count_as_open():
    report = audit({**FULL_PYRAMID, "A1": 0, "A2": 51, "E1": "X"})
    assert rules(report) == [("bad-value", ("A1",)), ("bad-value", ("A2",)), ("bad-value", ("E1",)),
                             ("support", ("B1", "A1")), ("support", ("B1", "A2")), ("support", ("B2", "A2"))]
    assert report.score == -3
    assert report.violations[1].message == "A2: 51 is not a number from 1 to 50"


def test_blank_sheet_breaks_nothing_and_every_square_is_a_point_less():
    # "El número de casillas sin llenar determina el orden ... cada cuadrado abierto es 1 punto menos"
    report = audit({})
    assert report.valid and report.score == -15
    assert report.details["complete"] is False and report.details["filled"] == 0 and report.details["open"] == 15


def test_a_number_that_breaks_its_rule_still_fills_its_square():
    # our reading of "casillas sin llenar": a square holding a number 1-50 is filled, its violation told apart
    report = audit({**FULL_PYRAMID, "E1": 4})  # E1 rests on D1 (5) and D2 (5)
    assert rules(report) == [("support", ("E1", "D1")), ("support", ("E1", "D2"))]
    assert report.score == 0 and report.details["complete"] is True


LEANING = "[]\n[][]\n  []\n"  # C1 rests on B1, an overhang beside B2; B2 rests on A1


def test_a_square_on_an_overhang_is_measured_against_it():
    # "se permite un número si todos estos cuadrados subyacentes contienen un número y el nuevo número es
    # mayor o igual que cada uno de estos números subyacentes": the overhang is C1's square below
    variant = custom(LEANING)
    assert audit({"A1": 3, "B2": 4, "B1": 9, "C1": 9}, variant).valid
    report = audit({"A1": 3, "B2": 4, "B1": 9, "C1": 8}, variant)
    assert rules(report) == [("support", ("C1", "B1"))]
    assert rules(audit({"A1": 3, "B2": 4, "C1": 8}, variant)) == [("support", ("C1", "B1"))]  # B1 empty
    desc = variant + rtt.DESC  # "los números subyacentes deben ser más altos o iguales"
    assert audit({"A1": 5, "B2": 4, "B1": 9, "C1": 8}, desc).valid
    assert rules(audit({"A1": 5, "B2": 4, "B1": 9, "C1": 10}, desc)) == [("support", ("C1", "B1"))]


@pytest.mark.parametrize("descending", [False, True])
def test_an_overhang_takes_any_number_whatever_its_neighbour_holds(descending):
    # "se permite cualquier número tan pronto como se rellene un cuadrado vecino": no order against the neighbour
    variant = custom(T_TOWER) + (rtt.DESC if descending else "")
    assert audit({"A1": 20, "B2": 20, "B1": 1, "B3": 50}, variant).valid


def test_messages_in_spanish():
    report = rtt_rules.audit(Entries("t", rtt.NAME, "pyramid", {"B1": 5}), "es")
    assert report.violations[0].message == "B1 está rellena pero A1, en la que se apoya, está vacía"


# --- typed-in files and the CLI ---------------------------------------------------------------

def test_typed_in_builtin_file(cli, write):
    lines = "\n".join(f"{k} = {v}" for k, v in {**FULL_PYRAMID, "B2": 1}.items())
    path = write("p.toml", f'game = "roll-to-the-top"\nvariant = "pyramid"\n[cells]\n{lines}\n')
    result = cli("audit", path, "--json")
    assert result.code == 1
    report = json.loads(result.out)
    assert [v["cells"] for v in report["violations"]] == [["B2", "A2"], ["B2", "A3"]]
    assert report["score"] == 0 and report["details"]["complete"] is True


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
    (("--code", "!!"), "neither a tower drawing"),
    (("--ascii", "missing.txt"), "cannot read file"),
])
def test_tower_bad_options_exit_2(cli, args, reason):
    result = cli("tower", *args)
    assert result.code == 2 and reason in result.err and len(result.err.strip().splitlines()) == 1


def test_custom_tower_sheets_carry_a_readable_identity():
    import cv2
    import numpy as np

    from rnwprint.render.png import render_image
    from rnwprint.core.sheet import Identity

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
    many = build_sheets(towers, "en", "a4", workers=2)
    for t in towers:
        _RATINGS.pop((t, False), None)
    one = build_sheets(towers, "en", "a4", workers=1)
    assert [s.items for s in many] == [s.items for s in one]


def test_sheet_command_takes_descending_and_custom_variants(cli, tmp_path):
    out = tmp_path / "d.pdf"
    assert cli("sheet", "roll-to-the-top", "--variant", "burj-desc", "-o", out).code == 0
    assert "descendente" in pypdf.PdfReader(out).pages[0].extract_text()
    variant = rtt.custom_variant_name(parse_ascii(T_TOWER))
    assert cli("sheet", "roll-to-the-top", "--variant", variant, "-o", out).code == 0
    bad = cli("sheet", "roll-to-the-top", "--variant", "eifel")
    assert bad.code == 2 and "unknown variant 'eifel'" in bad.err
