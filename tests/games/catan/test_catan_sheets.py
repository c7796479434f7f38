"""Catan's printables: the island map (its places are cells) and the notes sheet."""

from __future__ import annotations

import itertools

import pytest
from page_boxes import overlap, text_box
from shapely.geometry import Polygon, box

from rnwprint.core.sheet import Identity, Text
from rnwprint.games import GAMES

CATAN = GAMES["catan"]
SHEETS = [(v, lang, page) for v in ("map", "map-7", "notes") for lang in ("es", "en") for page in ("a4", "letter")]


@pytest.fixture(scope="module", params=SHEETS, ids=["-".join(s) for s in SHEETS])
def sheet(request):
    return CATAN.build(*request.param)


def test_the_map_has_a_cell_for_every_corner_road_and_town_hall_but_the_deserts():
    sheet = CATAN.build("map", "en", "a4")
    kinds = {kind: sorted(c.id for c in sheet.cells.values() if c.kind == kind) for kind in ("corner", "road", "hall")}
    assert kinds["corner"] == [f"V{n:02d}" for n in range(1, 55)]
    assert kinds["road"] == [f"E{n:02d}" for n in range(1, 73)]
    assert kinds["hall"] == [f"T{n:02d}" for n in range(1, 20) if n != 10]  # T10: the default desert
    assert len(sheet.cells) == 54 + 72 + 18


def test_a_shuffle_moves_terrains_not_places():
    default, shuffled = CATAN.build("map", "en", "a4"), CATAN.build("map-3", "en", "a4")
    for cid, cell in default.cells.items():
        if cid in shuffled.cells:
            assert shuffled.cells[cid].polygon == cell.polygon
    assert set(default.cells) ^ set(shuffled.cells) == {"T10", "T14"}  # the desert moved from T10 to T14
    assert CATAN.build("map-0007", "en", "a4").identity.variant == "map-0007"  # as asked; check_variant names it map-7


def test_no_place_overlaps_another_and_each_lies_on_the_page(sheet):
    shapes = [Polygon(c.polygon) for c in sheet.cells.values()]
    for a, b in itertools.combinations(shapes, 2):
        assert not a.intersects(b)
    page = box(10, 25, sheet.width - 10, sheet.height - 10 - 29)
    assert all(page.contains(s) for s in shapes)


def test_every_id_is_printed_inside_its_own_place(sheet):
    texts = {item.text: item for item in sheet.items if isinstance(item, Text)}
    for cid, cell in sheet.cells.items():
        x0, y0, x1, y1 = text_box(texts[cid])
        assert Polygon(cell.polygon).contains(box(x0, y0, x1, y1)), cid


def test_no_text_overlaps_another_or_a_place_not_its_own(sheet):
    texts = [item for item in sheet.items if isinstance(item, Text)]
    for a, b in itertools.combinations(texts, 2):
        assert not overlap(text_box(a), text_box(b)), (a.text, b.text)
    for item in texts:
        shape = box(*text_box(item))
        hit = [cid for cid, c in sheet.cells.items() if cid != item.text and Polygon(c.polygon).intersects(shape)]
        assert hit == [], item.text


def test_the_map_prints_the_legend_and_each_terrains_name():
    words = [item.text for item in CATAN.build("map", "es", "a4").items if isinstance(item, Text)]
    assert words.count("Madera") == 4 and words.count("Ladrillo") == 3 and words.count("Piedra") == 3
    assert words.count("Trigo") == 4 and words.count("Oveja") == 4 and words.count("Desierto") == 1
    for said in ("pueblo: un punto", "ciudad: relleno", "carretera: relleno", "ayuntamiento", "Rojo", "Azul"):
        assert said in words
    # "Si un jugador tiene construido 2 pueblos o ciudades alrededor de un mismo terreno, podrá rellenar
    # el circulo de ayuntamiento dentro de ese terreno (siempre que esté libre)"
    assert any(w.startswith("Ayuntamiento:") and "2 pueblos o ciudades" in w and "libre" in w for w in words)


def test_victory_points_are_kept_in_hand_not_listed_as_played():
    """"Punto de victoria ... Esta carta no se juega, se mantiene en la mano hasta el final"."""
    texts = [item for item in CATAN.build("notes", "es", "a4").items if isinstance(item, Text)]
    first_game = [item for item in texts if item.y < texts[0].y + 120]
    y_of = {item.text: item.y for item in first_game}
    assert y_of["Jugadas"] < y_of["Caballero"] < y_of["Progreso"] < y_of["En la mano (no se juegan)"] \
        < y_of["Punto de victoria"]
    note = " ".join(item.text for item in first_game if item.y > y_of["Punto de victoria"])
    assert "Caballero: antes de tirar los dados" in note and "Monopolio: después de tirarlos" in note


def test_the_notes_sheet_holds_two_games_with_the_classic_costs():
    sheet = CATAN.build("notes", "en", "letter")
    words = [item.text for item in sheet.items if isinstance(item, Text)]
    assert words.count("Game 1") == 1 and words.count("Game 2") == 1
    assert "cut here for two players" in words
    for said in ("Road", "Village", "City", "Development card", "Knight", "Monopoly", "Most knights (≥ 3)"):
        assert words.count(said) == 2, said
    assert sheet.cells == {}


def test_a_sheet_names_itself_in_its_qr_identity():
    sheet = CATAN.build("map-7", "es", "letter")
    assert sheet.identity == Identity("catan", "map-7", "es", "letter", 1)


def test_sheet_command_prints_map_and_notes_and_a_seeded_map(cli, tmp_path):
    from pypdf import PdfReader

    result = cli("sheet", "catan", "--variant", "all", "-o", tmp_path / "c.pdf")
    assert result.code == 0
    assert len(PdfReader(tmp_path / "c.pdf").pages) == 2
    assert cli("sheet", "catan", "--variant", "MAP-07", "-o", tmp_path / "s.svg").code == 0
    assert (tmp_path / "s.svg").read_text().startswith("<?xml")
    listed = cli("games").out
    assert "catan" in listed and "map, notes" in listed


def test_seed_shuffles_the_map_and_leaves_the_notes(cli, tmp_path):
    from pypdf import PdfReader

    assert cli("sheet", "catan", "--variant", "all", "--seed", "3", "-o", tmp_path / "s.pdf").code == 0
    pages = [page.extract_text() for page in PdfReader(tmp_path / "s.pdf").pages]
    assert "catan map-3 · v1" in pages[0] and "catan notes · v1" in pages[1]
    refused = cli("sheet", "twenty-one", "--seed", "3", "-o", tmp_path / "t.pdf")
    assert refused.code == 2 and "twenty-one has none to shuffle" in refused.err


def test_every_sheet_shuffled_is_named_apart_from_the_unshuffled_ones(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("sheet", "catan", "--variant", "all", "--lang", "en").code == 0
    assert cli("sheet", "catan", "--variant", "all", "--seed", "3", "--lang", "en").code == 0
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == ["catan_all-3_en_a4.pdf", "catan_all_en_a4.pdf"]


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_resource_names_print_dark_enough_on_their_fill_for_a_grey_printer():
    import tomllib

    from rnwprint.data import data_path

    terrains = tomllib.loads(data_path("templates", "catan.toml").read_text())["terrain"]
    for name, colours in terrains.items():
        dark, light = sorted((_luminance(colours["ink"]), _luminance(colours["fill"])))
        assert (light + 0.05) / (dark + 0.05) >= 4.5, name  # WCAG AA contrast for small text


@pytest.mark.parametrize("variant, reason", [
    ("notes", "catan notes has no layout to shuffle"),
    ("map-5", "the variant map-5 is the island shuffled already: give --seed or --variant map-SEED, not both"),
])
def test_seed_with_a_sheet_it_cannot_shuffle_is_refused_not_ignored(cli, tmp_path, variant, reason):
    from pypdf import PdfReader

    out = tmp_path / "s.pdf"
    refused = cli("sheet", "catan", "--variant", variant, "--seed", "6", "-o", out)
    assert refused.code == 2 and refused.err == f"rnwprint: --seed: {reason}\n"
    assert not out.exists()
    assert cli("sheet", "catan", "--variant", "map", "--seed", "6", "-o", out).code == 0  # the map it shuffles
    assert "catan map-6 · v1" in PdfReader(out).pages[0].extract_text()


@pytest.mark.parametrize("variant", ["map-999999999999", "map-x", "mapa"])
def test_a_qr_code_naming_no_catan_map_is_refused_not_read_as_the_classic_map(variant):
    from rnwprint.core.errors import RnwError
    from rnwprint.games.catan import LAYOUT_VERSION
    from rnwprint.photo.identity import sheet_for

    with pytest.raises(RnwError, match=f"cannot rebuild the catan sheet '{variant}': unknown variant"):
        sheet_for(Identity("catan", variant, "es", "a4", LAYOUT_VERSION), "photo.jpg")
