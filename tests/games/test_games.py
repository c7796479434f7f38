"""The registry and what every game declares agree with the sheets it builds: the ids a
typed-in file may use are the built sheet's writable cells, the counters are its tick boxes'."""

from __future__ import annotations

import dataclasses

import pytest

from rnwprint.core.errors import RnwError
from rnwprint.games import GAMES, check_variant, get_game, listed_variants
from rnwprint.games.roll_to_the_top import game as rtt
from rnwprint.core.sheet import IDENTITY, MARKER, PRINT

VARIANTS = [(name, v) for name, g in GAMES.items() for v in listed_variants(g)]


def writable(sheet) -> frozenset[str]:
    return frozenset(c.id for c in sheet.cells.values() if c.kind != "tick")


@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_cell_ids_are_the_built_sheets_cells_on_both_pages_and_languages(name, variant):
    game = GAMES[name]
    ids = game.cell_ids(variant)
    for lang, page in (("es", "a4"), ("en", "letter")):
        assert writable(game.build(variant, lang, page)) == ids, (lang, page)


def test_a_custom_towers_cell_ids_are_its_sheets():
    game = GAMES[rtt.NAME]
    variant = rtt.custom_variant_name(rtt.random_towers(3, 1)[0])
    assert writable(game.build(variant, "en", "letter")) == game.cell_ids(variant)


def test_by_default_cell_ids_come_from_the_sheet():
    game = GAMES["twenty-one"]
    assert game.cell_ids("C") == game.sheet_cell_ids("C")
    assert len(game.cell_ids("C")) == 30 and "R5C6" in game.cell_ids("C")
    america = GAMES["rolling-america"]  # its tick boxes (guard:1 …) are counters, not cells to type in
    assert america.sheet_cell_ids("us") == america.cell_ids("us")
    assert "TX" in america.sheet_cell_ids("us") and not any(":" in i for i in america.sheet_cell_ids("us"))


@pytest.mark.parametrize("name", ["rolling-america", "rolling-espana"])
def test_the_counters_are_the_tick_boxes(name):
    game = GAMES[name]
    sheet = game.build(game.default_variant, "es", "a4")
    ticked = {c.counter for c in sheet.cells.values() if c.kind == "tick"}
    assert ticked == set(game.counters) == {"colour_change", "guard", "dupe", "rounds"}


def test_an_unknown_game_is_refused_in_one_place_with_every_name():
    with pytest.raises(RnwError, match=r"unknown game 'chess'; choose one of: twenty-one, rolling-america") as e:
        get_game("chess")
    assert e.value.where == "GAME"
    assert get_game("Twenty-One").name == "twenty-one"
    assert get_game("Rolling España").name == "rolling-espana"  # as the sheet spells it
    assert get_game("roll to the top").name == "roll-to-the-top"
    with pytest.raises(RnwError, match=r"unknown game 'Twenty-One'"):
        get_game("Twenty-One", "mine.toml: game", exact=True)
    with pytest.raises(RnwError, match=r"this command is not for 'twenty-one'; choose one of: rolling-america, rolling-espana$"):
        get_game("twenty-one", among=("rolling-america", "rolling-espana"))
    with pytest.raises(RnwError, match=r"unknown game 'x{17}\.\.\.x{18}'; choose"):
        get_game("x" * 500)  # cut short: the message stays one line


def test_variants_are_named_by_one_check():
    tower = GAMES[rtt.NAME]
    assert tower.variant_of(None) == "burj"
    assert tower.variant_of("eiffel-desc") == "eiffel-desc"
    assert GAMES["twenty-one"].variant_of("G") is None
    assert check_variant(GAMES["twenty-one"], "b") == "B"
    with pytest.raises(RnwError, match=r"unknown variant 'G' for twenty-one; choose one of: A, B, C, D, E, F or all"):
        check_variant(GAMES["twenty-one"], "G")
    with pytest.raises(ValueError, match="."):
        tower.variant_of("t.!!!")


@pytest.mark.parametrize("name", list(GAMES))
def test_every_sheet_carries_four_markers_and_one_identity_code_by_role(name):
    game = GAMES[name]
    sheet = game.build(game.default_variant, "en", "letter")
    markers, codes = sheet.having(MARKER), sheet.having(IDENTITY)
    assert [(type(m).__name__, len(m.rows), m.module) for m in markers] == [("Matrix", 6, 2.0)] * 4
    assert [(type(c).__name__, len(c.rows)) for c in codes] == [("Matrix", 29)]
    assert {i.role for i in sheet.items} == {PRINT, MARKER, IDENTITY}


def test_the_photo_reader_finds_the_code_and_markers_by_role_not_shape():
    from rnwprint.photo.locate import marker_quads, qr_quad

    sheet = GAMES["twenty-one"].build("A", "es", "a4")
    (code,) = sheet.having(IDENTITY)
    assert qr_quad(sheet)[0].tolist() == [code.x, code.y]
    assert sorted(marker_quads(sheet)) == [0, 1, 2, 3]
    sheet.items = [dataclasses.replace(i, role=PRINT) if i.role != PRINT else i for i in sheet.items]
    assert qr_quad(sheet) is None and marker_quads(sheet) == {}
