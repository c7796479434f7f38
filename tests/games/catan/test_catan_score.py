"""Catan's points, awards and winner from a typed-in finished map, as the rule text gives them
(most knights, most cities, the longest joined roads, the tie-breaks, each player's Total box).
The rule sentence behind each reading is quoted (the Spanish text is the source of truth)."""

from __future__ import annotations

import pytest
from catan_support import BASE, COUNTERS, GREEN, audit, found, game_toml

from rnwprint.app.audit import audit_file


def test_most_knights_needs_three_and_a_tie_gives_it_to_nobody(write):
    assert audit(write, BASE, {"red_knights": 2}).details["awards"]["most_knights"] is None
    assert audit(write, BASE, {"red_knights": 3, "blue_knights": 3}).details["awards"]["most_knights"] is None
    assert audit(write, BASE, {"red_knights": 3, "blue_knights": 2}).details["awards"]["most_knights"] == "red"


def test_most_cities_goes_to_the_one_with_most_and_none_to_nobody(write):
    more = audit(write, {**BASE, "V05": "red city"})  # red's road E02 runs through V05: still one network
    assert found(more) == [] and more.details["awards"]["most_cities"] == "red"
    assert more.details["players"]["red"]["points"]["most_cities"] == 3
    no_cities = {k: v.replace("city", "village") for k, v in BASE.items()}
    assert audit(write, no_cities).details["awards"]["most_cities"] is None


# our reading of "carreteras conectadas entre sí": the largest group of one player's roads joined end
# to end; the text names nothing that cuts them, so another player's village at a corner does not
def test_another_players_village_does_not_break_the_roads_join(write):
    cells = {**BASE, "V02": "green village", "E03": "green", "V05": "green village"}  # V05: between E02 and E08
    report = audit(write, cells)
    assert found(report) == []
    assert report.details["players"]["red"]["longest_roads"] == 2
    apart = audit(write, {**BASE, "E08": "blue", "E13": "red"})  # E13 meets E02 only through E08's corners
    assert apart.details["players"]["red"]["longest_roads"] == 1


def test_the_roads_counted_are_one_group_not_all_of_them(write):
    # red's network: E02, E08, E13 (V01-V05-V09-V13, through red's own city at V09); apart: E39, E49
    cells = {**BASE, "E13": "red", "V27": "red village", "E39": "red", "E49": "red"}
    report = audit(write, cells)
    assert found(report) == [("disconnected", ("E39", "E49", "V27"))]
    assert report.details["players"]["red"]["roads"] == 5
    assert report.details["players"]["red"]["longest_roads"] == 3  # the larger group, not the smaller


def test_one_road_beats_none(write):
    report = audit(write, {"V01": "red village", "E02": "red", "V03": "blue village"}, {})
    assert report.details["players"]["blue"]["longest_roads"] == 0
    assert report.details["awards"]["most_roads"] == "red"
    red = report.details["players"]["red"]  # counters not given are 0
    assert (red["knights"], red["victory_cards"], red["resources"]) == (0, 0, 0)


def test_a_colour_with_only_counters_is_a_player(write):
    report = audit(write, BASE, {**COUNTERS, "green_resources": 5})
    assert report.details["players"]["green"]["total"] == 1
    assert "green" not in audit(write, BASE, COUNTERS).details["players"]


# "se turnan para dibujar en el mapa 1 pueblo en uno de los bordes del mapa [...] y adyacente al pueblo
# dibujará 1 carretera": every player has a village and a road on the map
@pytest.mark.parametrize("cells,counters,named,said", [
    ({**BASE, "V21": "green village"}, {}, ("V21",), "green has villages or cities (V21) but no road"),
    ({**BASE, "V21": "green city"}, {"green_resources": 3}, ("V21",), "green has villages or cities (V21) but no"),
    (BASE, {"green_resources": 5, "green_knights": 1}, ("green_knights", "green_resources"),
     "green has no village, city or road on the map, only green_knights, green_resources"),
    ({**BASE, "T05": "green"}, {}, ("T05",), "only T05"),
])
def test_a_player_without_the_start_village_and_road_breaks_the_start(write, cells, counters, named, said):
    report = audit(write, cells, counters)
    assert ("start", named) in found(report) and said in report.to_text("en")
    assert [v.rule for v in report.violations if "green" in v.message] in (["start"], ["start", "town-hall"])
    assert found(audit(write, {**cells, **GREEN}, counters)) in ([], [("town-hall", ("T05",))])
    assert found(audit(write, BASE, {"green_resources": 0})) == []  # a counter of 0 makes no player


# "En caso de empate, ganará el jugador con mayor cantidad de ayuntamientos, si el empate persiste,
# se valida entonces la cantidad de ciudades construidas"
def test_a_tie_goes_to_most_town_halls_then_most_cities(write):
    counters = {"red_resources": 5, "blue_resources": 0}  # red 1+2+1+1 = 5; blue 2+2+1+2 (roads) = 7
    report = audit(write, {**BASE, "V05": "red village", "V13": "red village"}, counters)
    # red: 3 villages + 1 city + 1 town hall + 1 (resources) = 7, blue: 2 + 2 + 1 + 2 (most roads) = 7
    assert [report.details["players"][c]["total"] for c in ("red", "blue")] == [7, 7]
    assert report.details["winners"] == ["red", "blue"]  # equal town halls and cities: shared
    report = audit(write, {**BASE, "V05": "red village", "V13": "red village", "T04": "red"},
                   {"red_resources": 0})  # T04 (V08, V13 ... ): red has V13 only -> fault, still counted
    assert report.details["players"]["red"]["town_halls"] == 2


def test_the_tie_breaks_in_order(write):
    # red 1 village + 1 city + 1 town hall = 4 + 3 (most cities: 2 against 1) ...
    cells = {"V01": "red village", "E02": "red", "V05": "red city", "E08": "red", "V09": "red city", "T01": "red",
             "V03": "blue village", "E06": "blue", "V07": "blue village", "E10": "blue", "V11": "blue village",
             "T03": "blue", "E17": "blue", "V15": "blue village", "T07": "blue"}
    report = audit(write, cells, {"blue_resources": 5})
    red, blue = report.details["players"]["red"], report.details["players"]["blue"]
    # red: villages 1 + cities 4 + town hall 1 + most cities 3 = 9; blue: villages 4 + town halls 2 + resources 1
    # + most roads 2 (3 roads against 2) = 9: equal points, blue has more town halls
    assert (red["total"], blue["total"]) == (9, 9)
    assert report.details["winners"] == ["blue"]


def test_a_blank_map_has_no_player_no_award_no_winner_and_every_circle_free(write):
    report = audit(write, {}, {})
    assert report.valid and report.score == 0
    assert report.details["players"] == {} and report.details["winners"] == []
    assert report.details["awards"] == {"most_knights": None, "most_roads": None, "most_cities": None}
    unfinished, players = report.details["notices"]
    assert unfinished["rule"] == "unfinished" and len(unfinished["cells"]) == 54
    assert players["rule"] == "players" and "no player to score" in players["message"]
    assert "Most knights: nobody; most roads joined: nobody; most cities: nobody" in report.to_text("en")


def test_a_map_of_contested_pieces_only_says_so_and_not_that_it_is_blank(write):
    report = audit(write, {"V01": ["red village", "blue village"], "E01": ["red", "blue"]}, {})
    assert report.details["players"] == {}
    [message] = [n["message"] for n in report.details["notices"] if n["rule"] == "players"]
    assert message.startswith("every piece on the map is contested") and "blank" not in message


def test_equal_roads_joined_give_the_award_to_nobody(write):
    # "El jugador con mayor cantidad de carreteras conectadas entre sí, obtiene 2 puntos": one road each is
    # no "mayor cantidad"; a tied award goes to nobody (our reading), so the tie stands for the win too
    report = audit(write, {"V01": "red village", "E02": "red", "V03": "blue village", "E06": "blue"}, {})
    assert found(report) == [] and report.details["awards"]["most_roads"] is None
    assert [report.details["players"][c]["total"] for c in ("red", "blue")] == [1, 1]
    assert report.details["winners"] == ["red", "blue"]
    assert "red: 1 point (villages 1)" in report.to_text("en")


def test_one_player_alone_takes_the_awards_they_qualify_for_and_wins(write):
    # "El jugador con mayor cantidad de ciudades construidas, obtiene 3 puntos" / "... caballeros utilizadas
    # (mínimo 3 cartas), obtiene 2 puntos": alone, one city, one road and 3 knights are the most
    report = audit(write, {"V01": "red city", "E02": "red"}, {"red_knights": 3})
    red = report.details["players"]["red"]
    assert red["points"] == {"villages": 0, "cities": 2, "town_halls": 0, "victory_cards": 0, "resources": 0,
                             "most_knights": 2, "most_roads": 2, "most_cities": 3}
    assert report.details["winners"] == ["red"] and report.score == 9
    assert [n["rule"] for n in report.details["notices"]] == ["unfinished", "players"]
    assert "only red is on the map: the game is for 2 to 4 players" in report.to_text("en")
    assert "solo el jugador rojo está en el mapa" in audit(write, {"V01": "red city", "E02": "red"}, {}, "es").to_text("es")
    bare = audit(write, {"V01": "red village"}, {})  # no road at all is no "mayor cantidad de carreteras"
    assert bare.details["awards"]["most_roads"] is None and bare.details["players"]["red"]["total"] == 1


def test_one_city_earns_the_most_cities_and_none_never_does(write):
    one = {k: v.replace("city", "village") for k, v in BASE.items()}
    one["V09"] = "red city"  # red 1 city, blue none
    assert audit(write, one).details["awards"]["most_cities"] == "red"
    alone = {"V01": "red village", "E02": "red"}  # one player, no city: not "the most"
    assert audit(write, alone, {}).details["awards"]["most_cities"] is None


def test_each_players_total_box_is_checked_against_their_points(write):
    # "cada jugador procederá a contar sus puntos de Victoria": red has 8, blue 9 (above)
    text = game_toml(BASE, COUNTERS) + "\n[totals]\nred = 8\nblue = 9\ngreen = \"\"\n"
    assert found(audit_file(write("right.toml", text), "en")) == []
    text = game_toml(BASE, COUNTERS) + "\n[totals]\nred = 10\nblue = 9\ngreen = 2\n"
    report = audit_file(write("wrong.toml", text), "en")
    assert [v.message for v in report.violations] == [
        "red's Total box says 10, but the map and the counters add up to 8",
        "green's Total box says 2, but the map and the counters add up to 0"]  # green is no player
    assert report.details["winners"] == ["blue"] and report.score == 9  # the boxes change no points
