"""Catan's audit of a typed-in finished map: each kind of fault alone gives exactly its
violation (the points, awards and winner: test_catan_score.py). The rule sentence behind
each reading is quoted (the Spanish text is the source of truth)."""

from __future__ import annotations

import json

import pytest
from catan_support import BASE, COUNTERS, GREEN, audit, found, full_map, game_toml

from rnwprint.app.audit import audit_file
from rnwprint.core.errors import RnwError


def test_a_fair_game_breaks_no_rule_and_scores_every_part(write):
    report = audit(write, BASE)
    assert found(report) == []
    red, blue = report.details["players"]["red"], report.details["players"]["blue"]
    # "1 punto por cada pueblo o ayuntamiento construido" / "2 puntos por cada ciudad construida":
    # a city is not also a village (red's V09 counts 2, not 3)
    # "1 punto por cada carta de victoria" / "1 punto pos cada 5 recursos en su posesión" (7 -> 1)
    # "El jugador con mayor cantidad de cartas de caballeros utilizadas (mínimo 3 cartas), obtiene 2 puntos"
    assert red["points"] == {"villages": 1, "cities": 2, "town_halls": 1, "victory_cards": 1, "resources": 1,
                             "most_knights": 2, "most_roads": 0, "most_cities": 0}
    assert red["total"] == 8
    # "El jugador con mayor cantidad de carreteras conectadas entre sí, obtiene 2 puntos": blue's 3 roads
    # joined end to end beat red's 2; "... mayor cantidad de ciudades construidas, obtiene 3 puntos":
    # 1 city each is a tie, and a tie gives it to nobody
    assert blue["points"] == {"villages": 2, "cities": 2, "town_halls": 1, "victory_cards": 0, "resources": 2,
                              "most_knights": 0, "most_roads": 2, "most_cities": 0}
    assert blue["total"] == 9
    assert report.details["awards"] == {"most_knights": "red", "most_roads": "blue", "most_cities": None}
    assert report.details["winners"] == ["blue"] and report.score == 9


def test_free_circles_are_reported_but_not_an_error(write):
    # "Cuando se haya construido un pueblo o ciudad en el último espacio disponible, terminará el juego"
    report = audit(write, BASE)
    assert report.valid
    [notice] = report.details["notices"]
    assert notice["rule"] == "unfinished" and len(notice["cells"]) == 54 - 5
    assert "V02" in notice["cells"] and "V01" not in notice["cells"]


def test_a_full_four_player_map_is_finished_and_follows_the_rules(write):
    cells = full_map()
    report = audit(write, cells, {})
    assert found(report) == [] and report.details["notices"] == []
    assert sum(c.endswith(("village", "city")) for c in cells.values()) == 54
    assert set(report.details["players"]) == {"red", "blue", "green", "orange"}


# "Nota: Todos los pueblos, ciudades y carreteras, deben estar conectadas entre sí"
def test_pieces_apart_from_the_network_are_disconnected(write):
    report = audit(write, {**BASE, "V20": "red village", "E30": "red"})  # E30: V20-V25
    assert found(report) == [("disconnected", ("E30", "V20"))]
    assert "(which holds E02)" in report.violations[0].message  # the network they are apart from
    assert audit(write, {**BASE, "V20": "red village", "E30": "red"}, lang="es").violations[0].message.startswith(
        "E30, V20: no están unidas al resto")
    lone = audit(write, {**BASE, "V20": "red village"}, lang="es")  # one piece: the verb agrees
    assert found(lone) == [("disconnected", ("V20",))]
    assert lone.violations[0].message.startswith("V20: no está unida al resto de la red del jugador rojo")


def test_a_road_touching_none_of_its_owners_pieces_is_a_road_fault(write):
    report = audit(write, {**BASE, "E60": "red"})
    assert found(report) == [("road", ("E60",))]


# "... dibujar en el mapa 1 pueblo en uno de los bordes del mapa ... y adyacente al pueblo dibujará 1 carretera"
def test_a_network_that_reaches_no_edge_circle_breaks_the_start(write):
    report = audit(write, {**BASE, "V19": "green village", "E28": "green"})  # V19, V24: inner corners
    assert found(report) == [("start", ("V19",))]


def test_with_no_start_a_lone_road_apart_is_the_road_not_the_village(write):
    report = audit(write, {**BASE, "V19": "green village", "E60": "green"})
    assert found(report) == [("start", ("V19",)), ("road", ("E60",))]
    assert "green has no village or city on a circle at the edge of the map (V19)" in report.to_text("en")


def test_a_network_starting_at_the_edge_with_a_city_is_fine(write):
    assert found(audit(write, {**BASE, "V54": "green city", "E72": "green"})) == []


# "Si un jugador tiene construido 2 pueblos o ciudades alrededor de un mismo terreno, podrá rellenar
# el circulo de ayuntamiento dentro de ese terreno (siempre que esté libre)"
def test_a_town_hall_needs_two_of_its_owners_towns_around_the_terrain(write):
    report = audit(write, {**BASE, "T02": "red"})  # around T02 red has V09 only
    assert found(report) == [("town-hall", ("T02", "V09"))]
    report = audit(write, {**BASE, "T02": "blue"})  # and blue none
    assert found(report) == [("town-hall", ("T02",))]
    spanish = audit(write, {**BASE, "T02": "red"}, lang="es").violations[0].message
    assert "rellenó este ayuntamiento con 1 de sus pueblos o ciudades alrededor del terreno" in spanish


# "debe hacer un punto en un círculo vacío" / "rellena todo el rectángulo vacío": one piece a place
@pytest.mark.parametrize("cell,value", [("V40", ["red village", "blue city"]), ("E50", ["red", "blue"])])
def test_two_pieces_on_one_place_are_occupied(write, cell, value):
    report = audit(write, {**BASE, cell: value})
    assert found(report) == [("occupied", (cell,))]
    assert "red" in report.violations[0].message and "blue" in report.violations[0].message


@pytest.mark.parametrize("cell,value", [("V40", "purple village"), ("V40", "red"), ("V40", "red town"),
                                        ("E50", "red city"), ("T05", "red village"), ("E50", "red road extra")])
def test_words_that_are_no_piece_of_that_place_are_bad_values(write, cell, value):
    assert found(audit(write, {**BASE, cell: value})) == [("bad-value", (cell,))]


# "Para construir una ciudad, se rellena todo el círculo en donde se tenga un pueblo": one player's
# village and city on a corner are that city; a place written twice in one colour holds one piece
@pytest.mark.parametrize("cell,value", [
    ("V09", ["red village", "red city"]), ("V09", ["Red City", "red village"]), ("V09", ["red city", "red city"]),
    ("E08", ["red", "red road"]), ("T01", ["red", "red"]),
])
def test_one_players_piece_written_twice_is_one_piece(write, cell, value):
    report = audit(write, {**BASE, cell: value})
    assert found(report) == [] and report.details == audit(write, BASE).details


def test_a_corner_with_two_players_or_two_villages_cities_of_one_is_occupied_only_by_colours(write):
    report = audit(write, {**BASE, "V40": ["red village", "red city", "blue village"]})
    assert found(report) == [("occupied", ("V40",))]


def test_the_spanish_report_names_pieces_and_values_as_written(write):
    report = audit(write, {**BASE, "V40": ["red village", "blue city"], "V41": "Purple Village",
                           "E50": ["green", "orange road"]}, lang="es")
    said = {v.cells: v.message for v in report.violations}
    assert said[("V40",)].startswith("V40 tiene más de una pieza (pueblo rojo, ciudad azul)")
    assert said[("V41",)].startswith("V41: 'Purple Village' no es un pueblo ni una ciudad")
    assert "\"pueblo rojo\"" in said[("V41",)] and "(colores: rojo, azul, verde, naranja)" in said[("V41",)]
    assert said[("E50",)].startswith("E50 tiene más de una pieza (carretera verde, carretera naranja)")


def test_road_and_town_hall_may_name_their_piece(write):
    assert found(audit(write, {**BASE, "E02": "Red Road", "T01": "red town-hall"})) == []
    # as the report names it, with a space
    assert found(audit(write, {**BASE, "T01": "Red Town Hall"})) == []


SPANISH = {"V01": "pueblo rojo", "E02": "carretera roja", "E08": "rojo", "V09": "ciudad roja", "T01": "ayuntamiento rojo",
           "V03": "Pueblo Azul", "E06": "azul", "E10": "azul", "V11": "azul pueblo", "E17": "azul", "V15": "ciudad azul",
           "T03": "azul"}


def test_the_rule_texts_spanish_words_read_as_the_english_ones(write):
    """A Spanish player types what the rules say: "pueblo rojo", "ciudad roja", "carretera"."""
    english, spanish = audit(write, BASE), audit(write, SPANISH)
    assert found(spanish) == [] and spanish.details == english.details and spanish.score == english.score
    assert found(audit(write, {**SPANISH, "V40": "ciudad morada"})) == [("bad-value", ("V40",))]
    assert found(audit(write, {**SPANISH, "E50": "ciudad roja"})) == [("bad-value", ("E50",))]


# "25 Cartas de desarrollo: 14 Caballeros ... 5 Punto de victoria"
@pytest.mark.parametrize("counter,value,fine", [("red_knights", 15, False), ("red_knights", 14, True),
                                                ("blue_victory_cards", 6, False), ("blue_victory_cards", 5, True)])
def test_more_cards_than_the_deck_holds_is_a_bad_value(write, counter, value, fine):
    others = {k: 0 for k in COUNTERS if k.endswith(counter.split("_", 1)[1])}  # the whole deck is this one's
    report = audit(write, BASE, {**COUNTERS, **others, counter: value})
    assert found(report) == ([] if fine else [("bad-value", (counter,))])
    if not fine:  # one player over the deck alone is told once, not again with the others
        over = audit(write, {**BASE, **GREEN}, {**COUNTERS, counter: value, "green_" + counter.split("_", 1)[1]: 1})
        assert found(over) == [("bad-value", (counter,))]


@pytest.mark.parametrize("counters,cells", [
    ({"red_knights": 8, "blue_knights": 7}, ("red_knights", "blue_knights")),
    ({"red_knights": 5, "blue_knights": 5, "green_knights": 5}, ("red_knights", "blue_knights", "green_knights")),
    ({"red_victory_cards": 3, "blue_victory_cards": 3}, ("red_victory_cards", "blue_victory_cards")),
    ({"red_knights": 14, "blue_knights": 1}, ("red_knights", "blue_knights")),  # the whole deck, and one more
])
def test_all_players_together_hold_no_more_cards_than_the_one_deck(write, counters, cells):
    """ "Se mezclan las cartas de desarrollo y se forma una pila"; "25 Cartas de desarrollo: 14 Caballeros
    ... 5 Punto de victoria": one pile for everyone, so the knights all players played (8 + 7 = 15) or
    the victory cards they hold (3 + 3 = 6) cannot pass the deck's 14 or 5 even when each one alone does not."""
    report = audit(write, {**BASE, **GREEN}, counters)
    assert found(report) == [("bad-value", cells)]
    total = sum(counters.values())
    assert report.violations[0].message.startswith(f"{', '.join(cells)}: {total} together")


@pytest.mark.parametrize("counters", [{"red_knights": 7, "blue_knights": 7},
                                      {"red_victory_cards": 3, "blue_victory_cards": 2, "green_victory_cards": 0}])
def test_all_players_together_may_hold_the_whole_deck(write, counters):
    assert found(audit(write, BASE, counters)) == []


def test_text_and_json_reports(cli, write):
    path = write("game.toml", game_toml({**BASE, "E60": "red"}, COUNTERS))
    text = cli("audit", path, "--lang", "en")
    assert text.code == 1
    assert "road" in text.out and "E60" in text.out
    assert "blue: 9 points (villages 2, cities 2, town halls 1, resources 2, most roads joined 2)" in text.out
    assert "Most knights: red; most roads joined: blue; most cities: nobody" in text.out
    assert "Winner: blue" in text.out and "unfinished" in text.out
    data = json.loads(cli("audit", path, "--json").out)
    assert data["valid"] is False and data["score"] == 9
    assert data["violations"] == [{"rule": "road", "cells": ["E60"], "message": data["violations"][0]["message"]}]
    assert data["details"]["players"]["red"]["total"] == 8 and data["details"]["winners"] == ["blue"]
    spanish = cli("audit", path, "--lang", "es").out
    # the file's colours named in the report's language; the JSON keeps the file's
    assert "Gana: azul" in spanish and "E60: la carretera del jugador rojo no toca" in spanish
    assert "azul: 9 puntos" in spanish and "Más caballeros: rojo; más carreteras unidas: azul" in spanish
    assert "blue" not in spanish  # ("red" is a Spanish word: the network)


def test_template_lists_every_place_and_audits_blank(cli, write):
    result = cli("template", "catan", "--lang", "en")
    assert result.code == 0
    lines = result.out.splitlines()
    assert sum(line.startswith("V") for line in lines) == 54 and sum(line.startswith("E") for line in lines) == 72
    assert sum(line.startswith("T") for line in lines) == 18 and not any(line.startswith("T10") for line in lines)
    assert "red_knights = 0" in result.out
    report = cli("audit", write("blank.toml", result.out), "--json")
    assert report.code == 0 and json.loads(report.out)["details"]["notices"][0]["rule"] == "unfinished"


@pytest.mark.parametrize("cells,variant,reason", [
    ({"V01": 3}, "map", r"cells\.V01: 3 is not a piece"),
    ({"T10": "red"}, "map", r"cells\.T10: T10 is the desert's terrain: the desert has no town hall"),
    ({"T14": "red"}, "map-3", r"cells\.T14: T14 is the desert's terrain"),  # and map-3's desert is T14
    ({}, "notes", r"the notes sheet is not audited"),
    ({}, "mapa", r"variant: unknown variant 'mapa' for catan; choose one of: map, notes, map-SEED \(SEED 0-999,999,999"),
    ({"V01": True}, "map", r"cells\.V01: true is not a piece"),
    ({"V01": "red village"}, "notes", r"cells\.V01: unknown cell id for catan notes"),
])
def test_bad_files_are_one_line_errors(write, cells, variant, reason):
    with pytest.raises(RnwError, match=reason):
        audit_file(write("bad.toml", game_toml(cells, {}, variant)), "en")


def test_a_seeded_map_audits_against_its_own_layout(write):
    report = audit_file(write("s.toml", game_toml({**BASE, "T10": "blue"}, {}, "map-3")), "en")
    assert found(report) == [("town-hall", ("T10",))]


def test_annotate_outlines_each_violations_places_in_red(cli, write, tmp_path):
    from rnwprint.core.sheet import Path
    from rnwprint.games import GAMES
    from rnwprint.render.annotate import RED, annotated_sheet

    report = audit(write, {**BASE, "E60": "red", "T02": "red"})
    sheet = GAMES["catan"].build("map", "en", "a4")
    drawn = annotated_sheet(report, sheet)
    red = [item.rings[0] for item in drawn.items if isinstance(item, Path) and item.style.stroke == RED]
    assert sorted(red) == sorted([sheet.cells["E60"].polygon, sheet.cells["T02"].polygon, sheet.cells["V09"].polygon])
    assert len(sheet.items) == len(drawn.items) - 3 - 2 * 2  # the sheet itself untouched; a label per violation
    path = write("game.toml", game_toml({**BASE, "E60": "red"}, COUNTERS))
    for name in ("a.png", "a.pdf"):
        result = cli("audit", path, "--annotate", tmp_path / name, "--lang", "en")
        assert result.code == 1 and "E60" in result.out
        assert (tmp_path / name).read_bytes()[:4] in (b"\x89PNG", b"%PDF")
    refused = cli("audit", path, path, "--annotate", tmp_path / "b.png")
    assert refused.code == 2 and "give one file" in refused.err
