"""Rolling America / España: one test per rule of the game's text
(../shared/rules/rolling-america-y-espana.es.txt) that a finished sheet or a game log can
show. Each test quotes the sentence it checks."""

from __future__ import annotations

import json

import pytest

from rnwprint.core.entries import CROSSED, Entries, Guarded
from rnwprint.games.rolling.replay import replay
from rnwprint.games.rolling.rules import audit_sheet, load_board

US = load_board("rolling-america")
ES = load_board("rolling-espana")


def sheet(cells: dict, board=US, **counters) -> Entries:
    return Entries("sheet.toml", board.game, board.map, dict(cells), dict(counters))


def rules(report) -> list[tuple[str, tuple[str, ...]]]:
    return [(v.rule, v.cells) for v in report.violations]


def final_sheet(turns, board=US) -> Entries:
    """The sheet a log leads to, written out by hand from its writes (numbers, circles, Xs)
    and the powers it ticks: so that a test's only violations are the log's."""
    cells, ticks = {}, {"colour_change": 0, "guard": 0, "dupe": 0}
    for dice, writes in turns:
        for w in writes:
            face = dice[w["die"]]
            if "cell" in w:
                cells[w["cell"]] = Guarded(face) if w.get("guard") else face
            if "dupe_cell" in w:
                cells[w["dupe_cell"]] = Guarded(face) if w.get("dupe_guard") else face
            if "x" in w:
                cells[w["x"]] = CROSSED
            ticks["colour_change"] += bool(w.get("colour_change"))
            ticks["guard"] += bool(w.get("guard")) + bool(w.get("dupe_guard"))
            ticks["dupe"] += "dupe_cell" in w
    return sheet(cells, board, **ticks, rounds=len(turns) // 3)


@pytest.fixture
def play(tmp_path):
    """Replay turns (dice, writes) as a JSON game log against the sheet they lead to (or the
    sheet given); returns the report."""

    def _play(*turns, board=US, against: Entries | None = None, seed: int | None = None):
        doc = {"game": board.game, "turn": [{"dice": d, "write": w} for d, w in turns]}
        if seed is not None:
            doc["seed"] = seed
        path = tmp_path / "log.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        return replay(against or final_sheet(turns, board), board, path, "en")

    return _play


# --- "Dados normales" / "Dado comodín" -------------------------------------------------------

def test_a_coloured_die_is_written_in_its_own_region(play):
    """"Dados normales: Escoge un estado vacío en la región del mapa que coincide con el color
    del dado y anota el número del dado en dicho estado." TX is green, GA red."""
    assert play(({"green": 3, "red": 2}, [{"die": "green", "cell": "TX"}, {"die": "red", "cell": "GA"}])).valid
    report = play(({"green": 3, "red": 2}, [{"die": "green", "cell": "GA"}, {"die": "red", "cell": "TX"}]))
    assert rules(report) == [("wrong-region", ("GA",)), ("wrong-region", ("TX",))]


def test_the_white_die_is_written_in_any_region(play):
    """"Dado comodín (el blanco): Escoge un estado vacío en cualquier región"."""
    report = play(({"green": 3, "white": 2}, [{"die": "green", "cell": "TX"}, {"die": "white", "cell": "ME"}]),
                  ({"red": 5, "blue": 5}, [{"die": "red", "cell": "GA"}, {"die": "blue", "cell": "MN"}]),
                  ({"yellow": 5, "orange": 5}, [{"die": "yellow", "cell": "FL"}, {"die": "orange", "cell": "CA"}]),
                  ({"white": 4, "purple": 4}, [{"die": "white", "cell": "OR"}, {"die": "purple", "cell": "VT"}]))
    assert report.valid, report.violations


def test_a_number_goes_in_an_empty_cell(play):
    """"Escoge un estado vacío": a cell already written (or crossed out) takes nothing more."""
    report = play(({"green": 3, "white": 3}, [{"die": "green", "cell": "TX"}, {"die": "white", "cell": "TX"}]),
                  against=sheet({"TX": 3}))
    assert rules(report) == [("written-twice", ("TX",))]
    report = play(({"green": 3, "white": 3}, [{"die": "green", "cell": "TX"}, {"die": "white", "x": "TX"}]),
                  against=sheet({"TX": CROSSED}))
    assert rules(report) == [("written-twice", ("TX",)), ("missed-number", ("TX",))]
    assert report.violations[0].message == "turn 1: TX (Texas) already holds 3"


# --- "Regla de estados vecinos" --------------------------------------------------------------

def test_neighbours_may_differ_by_at_most_one():
    """"Todos los estados que bordean el estado que estás rellenando ... deben ... tener un
    número cuya diferencia no sea mayor a 1 con respecto al resultado del dado." The example:
    a 2 may go beside a 1, 2 or 3."""
    for near in (1, 2, 3):
        assert audit_sheet(sheet({"TX": 2, "OK": near}), US, "en").valid
    for far in (4, 5, 6):
        assert rules(audit_sheet(sheet({"TX": 2, "OK": far}), US, "en")) == [("neighbour", ("OK", "TX"))]


def test_a_number_breaking_the_neighbour_rule_when_written_names_its_turn(play):
    """The rule binds at the time of writing: the log's turn is named (a 4 beside a 2)."""
    report = play(({"green": 2, "red": 3}, [{"die": "green", "cell": "TX"}, {"die": "red", "cell": "GA"}]),
                  ({"white": 4, "blue": 3}, [{"die": "white", "cell": "OK"}, {"die": "blue", "cell": "MN"}]))
    assert rules(report) == [("neighbour", ("OK", "TX"))]
    assert report.violations[0].message.startswith("turn 2: 4 in OK (Oklahoma) next to 2 in TX (Texas)")


def test_blank_crossed_and_guarded_neighbours_do_not_bind(play):
    """"deben estar en blanco, tener una X, estar resguardado (ver más abajo), o tener un
    número ...": a 6 beside an X and a circled 1 is legal, on the sheet and when written."""
    assert audit_sheet(sheet({"TX": 6, "OK": CROSSED, "NM": Guarded(1)}, guard=1), US, "en").valid
    turns = (({"white": 1, "red": 1}, [{"die": "white", "cell": "NM", "guard": True},
                                       {"die": "red", "cell": "OK", "guard": True, "colour_change": True}]),
             ({"green": 6, "blue": 2}, [{"die": "green", "cell": "TX"}, {"die": "blue", "cell": "MN"}]))
    assert play(*turns).valid


def test_the_colour_of_a_neighbour_is_irrelevant():
    """"Nota: El color de los estados vecinos es irrelevante": TX (green) and AR (yellow) are
    neighbours across two regions."""
    assert US.region_of["TX"] != US.region_of["AR"]
    assert rules(audit_sheet(sheet({"TX": 1, "AR": 3}), US, "en")) == [("neighbour", ("AR", "TX"))]


def test_alaska_and_hawaii_are_immune_to_the_neighbour_rule(play):
    """"Alaska y Hawaii son inmunes a la regla de Estados Vecinos": no neighbours at all, so
    any number fits there whatever the mainland holds (the islands and the two cities of the
    Spanish map too: the text is silent, they share no border)."""
    assert US.neighbours["AK"] == frozenset() and US.neighbours["HI"] == frozenset()
    assert not any("AK" in pair or "HI" in pair for pair in US.pairs)
    mainland = {code: 1 for code in ("WA", "OR", "CA", "ID")}
    assert audit_sheet(sheet({**mainland, "AK": 6, "HI": 6}), US, "en").valid
    assert play(({"orange": 6, "white": 6}, [{"die": "orange", "cell": "AK"}, {"die": "white", "cell": "HI"}]),
                ({"red": 1, "blue": 1}, [{"die": "red", "cell": "WA", "colour_change": True},
                                         {"die": "blue", "cell": "OR", "colour_change": True}])).valid
    assert {c for c, n in ES.neighbours.items() if not n} == {"PM", "GC", "TF", "CE", "ML"}


# --- "TIENES QUE anotar el número ..." ------------------------------------------------------

# Turn 1 leaves the green region with no cell for a 6: OK, NM, CO, KS hold 1s (two
# colour-changed dupes); the empty NE, TX, WY each border one of them.
GREEN_BLOCKED = ({"blue": 1, "orange": 1}, [{"die": "blue", "cell": "OK", "dupe_cell": "NM", "colour_change": True},
                                            {"die": "orange", "cell": "CO", "dupe_cell": "KS",
                                             "colour_change": True}])


def test_you_must_write_the_number_when_a_cell_of_the_dice_colour_takes_it(play):
    """"TIENES QUE anotar el número en un estado del color del dado si es que hay un estado
    disponible que no rompa la Regla de Estados Vecinos": an X, nothing, or no write at all
    for a die that fits is a missed number."""
    x = play(({"green": 3, "red": 2}, [{"die": "green", "x": "TX"}, {"die": "red", "cell": "GA"}]))
    assert rules(x) == [("missed-number", ("TX",))]
    assert x.violations[0].message == "turn 1: X in TX (Texas), but the 3 of the green die fits in CO (Colorado)"
    nothing = play(({"green": 3, "red": 2}, [{"die": "green", "nothing": True}, {"die": "red", "cell": "GA"}]))
    assert rules(nothing) == [("missed-number", ("CO", "KS", "NE", "NM", "OK", "TX", "WY"))]
    assert nothing.violations[0].message == \
        "turn 1: nothing written for the 3 of the green die, but it fits in CO (Colorado)"
    silent = play(({"green": 3, "red": 2}, [{"die": "red", "cell": "GA"}]))
    assert rules(silent) == [("missed-number", ("CO", "KS", "NE", "NM", "OK", "TX", "WY"))]


def test_a_cell_beside_a_guarded_number_still_takes_the_die(play):
    """A circled number does not bind its neighbours ("estar resguardado"), so the cell beside
    it was available: with CO guarded, WY takes the green 6 and an X in TX is a missed number."""
    turn1 = ({"blue": 1, "orange": 1}, [{"die": "blue", "cell": "OK", "dupe_cell": "NM", "colour_change": True},
                                        {"die": "orange", "cell": "CO", "dupe_cell": "KS", "colour_change": True,
                                         "guard": True}])
    report = play(turn1, ({"green": 6, "red": 3}, [{"die": "green", "x": "TX"}, {"die": "red", "cell": "GA"}]))
    assert rules(report) == [("missed-number", ("TX",))]
    assert report.violations[0].message == \
        "turn 2: X in TX (Texas), but the 6 of the green die fits in WY (Wyoming)"


def test_the_white_die_must_be_written_if_any_region_takes_it(play):
    """For the wild die "el color del dado" is any colour: green is blocked for a 6, but AK
    (and many more) takes it, so an X in TX is a missed number."""
    report = play(GREEN_BLOCKED, ({"white": 6, "red": 3}, [{"die": "white", "x": "TX"},
                                                           {"die": "red", "cell": "GA"}]))
    assert rules(report) == [("missed-number", ("TX",))]
    assert report.violations[0].message.endswith("the 6 of the white die fits in AK (Alaska)")


def test_a_colour_changed_die_must_be_written_if_any_region_takes_it(play):
    """"CAMBIO DE COLOR ... tratar el dado que estás resolviendo como un comodín": once wild,
    the green 6 must go where any region takes it, not into an X in its blocked region."""
    report = play(GREEN_BLOCKED, ({"green": 6, "red": 3}, [{"die": "green", "x": "TX", "colour_change": True},
                                                           {"die": "red", "cell": "GA"}]))
    assert rules(report) == [("missed-number", ("TX",))]
    assert report.violations[0].message.endswith("the 6 of the green die fits in AK (Alaska)")


def test_with_no_legal_cell_you_cross_out_an_empty_cell_of_that_region(play):
    """"Si no hay estados elegibles, entonces debes marcar una X en un estado vacío a tu
    elección en esa región": an X in TX is right, an X in GA (red) is the wrong region, and
    doing nothing misses the X."""
    assert play(GREEN_BLOCKED, ({"green": 6, "red": 3}, [{"die": "green", "x": "TX"},
                                                         {"die": "red", "cell": "GA"}])).valid
    elsewhere = play(GREEN_BLOCKED, ({"green": 6, "red": 3}, [{"die": "green", "x": "GA"},
                                                              {"die": "red", "cell": "SC"}]))
    assert rules(elsewhere) == [("wrong-region", ("GA",))]
    skipped = play(GREEN_BLOCKED, ({"green": 6, "red": 3}, [{"die": "green", "nothing": True},
                                                            {"die": "red", "cell": "GA"}]))
    assert rules(skipped) == [("missed-x", ("NE", "TX", "WY"))]
    assert skipped.violations[0].message.startswith("turn 2: nothing done with the 6 of the green die")


def test_with_no_empty_cell_in_the_region_you_do_nothing(play):
    """"Si no hay estados vacíos en la región del color del dado, no haces nada": green full
    after turn 2, the green die of turn 4 is left unused (or said so), with no fault."""
    fill = (GREEN_BLOCKED,
            ({"green": 1, "red": 1}, [{"die": "green", "cell": "TX", "dupe_cell": "NE"},
                                      {"die": "red", "cell": "WY", "colour_change": True}]),
            ({"yellow": 2, "purple": 2}, [{"die": "yellow", "cell": "FL"}, {"die": "purple", "cell": "VT"}]))
    said = ({"green": 5, "white": 2}, [{"die": "green", "nothing": True}, {"die": "white", "cell": "ME"}])
    unsaid = ({"green": 5, "white": 2}, [{"die": "white", "cell": "ME"}])
    assert play(*fill, said).valid
    assert play(*fill, unsaid).valid


# Turns 1-5 write 1s into AK, HI and 11 mainland cells that border every other mainland cell:
# afterwards no cell of the map takes a 6, and no region is full.
DOMINATED = (
    ({"orange": 1, "blue": 1}, [{"die": "orange", "cell": "AK", "dupe_cell": "HI"},
                                {"die": "blue", "cell": "IN", "dupe_cell": "MN"}]),
    ({"green": 1, "red": 1}, [{"die": "green", "cell": "CO", "dupe_cell": "TX"}, {"die": "red", "cell": "GA"}]),
    ({"yellow": 1, "purple": 1}, [{"die": "yellow", "cell": "TN"}, {"die": "purple", "cell": "MA"}]),
    ({"orange": 1, "red": 1}, [{"die": "orange", "cell": "ID"}, {"die": "red", "cell": "PA"}]),
    ({"purple": 1, "yellow": 1}, [{"die": "purple", "cell": "NH"},
                                  {"die": "yellow", "cell": "NV", "colour_change": True}]),
)
DOMINATED_CELLS = {"AK", "HI", "IN", "MN", "CO", "TX", "GA", "TN", "MA", "ID", "PA", "NH", "NV"}


def test_a_wild_die_with_no_legal_cell_needs_an_x_while_no_region_is_full(play):
    """"Si no hay estados vacíos en la región del color del dado, no haces nada. (Esto también
    aplica si el dado es un comodín)": the wild die does nothing only by choosing a full
    region; with none full, it needs an X somewhere."""
    report = play(*DOMINATED, ({"blue": 6, "white": 6}, [{"die": "white", "nothing": True},
                                                         {"die": "blue", "x": "ND"}]))
    empty = tuple(sorted(set(US.cells) - DOMINATED_CELLS))
    assert rules(report) == [("missed-x", empty)]
    assert report.violations[0].message.startswith("turn 6: nothing done with the 6 of the white die")
    assert report.score == len(empty) + 1


def test_a_wild_die_with_no_legal_cell_does_nothing_once_a_region_is_full(play):
    """The same sentence: once green is full the wild die may choose it and do nothing."""
    fill_green = (({"green": 1, "white": 1}, [{"die": "green", "cell": "WY"}, {"die": "white", "cell": "NE"}]),
                  ({"red": 1, "blue": 1}, [{"die": "red", "cell": "KS", "colour_change": True},
                                           {"die": "blue", "cell": "NM", "colour_change": True}]),
                  ({"yellow": 1, "purple": 1}, [{"die": "yellow", "cell": "AL"}, {"die": "purple", "cell": "ME"}]))
    last = ({"green": 1, "white": 6}, [{"die": "green", "cell": "OK"}, {"die": "white", "nothing": True}])
    report = play(*DOMINATED, *fill_green, last)
    assert report.valid, report.violations
    assert report.details["log"]["powers"] == {"colour_change": 3, "guard": 0, "dupe": 3}


# --- the powers -------------------------------------------------------------------------------

def test_colour_change_lets_a_coloured_die_go_in_any_region(play):
    """"podrás tratar el dado que estás resolviendo como un comodín. Por ejemplo, un 4 verde
    podrá ser un 4 amarillo.\""""
    assert play(({"green": 4, "red": 2}, [{"die": "green", "cell": "AR", "colour_change": True},
                                          {"die": "red", "cell": "GA"}])).valid


def test_each_power_at_most_three_times_a_game(play):
    """"Tres veces durante la partida": a fourth tick, or a fourth use in the log."""
    report = audit_sheet(sheet({}, colour_change=4, guard=3, dupe=3), US, "en")
    assert rules(report) == [("power-count", ())]
    guards = [({a: 3, b: 3}, [{"die": a, "cell": c, "guard": True}, {"die": b, "cell": d, "guard": True}])
              for (a, b), (c, d) in ((("red", "blue"), ("GA", "MN")), (("green", "yellow"), ("TX", "FL")))]
    report = play(*guards)
    assert rules(report) == [("power-count", ())]  # 4 ticked on the sheet: one fault, the log's turn
    assert report.violations[0].message == "guard: used 4 times in the log (the 4th in turn 2); at most 3 per game"
    # three colour changes ticked (not a fault) beside the four guards: still one fault
    ticked = final_sheet(guards)
    ticked.counters["colour_change"] = 3
    assert rules(play(*guards, against=ticked)) == [("power-count", ())]
    # the 4th guard is named by its turn, not the last one's
    five = (({"red": 3, "blue": 3}, [{"die": "red", "cell": "GA", "guard": True, "dupe_cell": "SC",
                                      "dupe_guard": True}, {"die": "blue", "cell": "MN", "guard": True}]),
            ({"green": 3, "yellow": 3}, [{"die": "green", "cell": "TX", "guard": True}, {"die": "yellow", "cell": "FL"}]),
            ({"orange": 3, "purple": 3}, [{"die": "orange", "cell": "CA", "guard": True}, {"die": "purple", "cell": "ME"}]))
    assert [v.message for v in play(*five).violations] == [
        "guard: used 5 times in the log (the 4th in turn 2); at most 3 per game"]


def test_a_power_used_is_ticked_on_the_sheet(play):
    """"Cuando realices un cambio de color, deberás tachar una de las casillas"; the same for
    guards and dupes."""
    turn = ({"green": 3, "red": 3}, [{"die": "green", "cell": "OK", "dupe_cell": "NM"},
                                     {"die": "red", "cell": "TX", "colour_change": True}])
    report = play(turn, against=sheet({"OK": 3, "NM": 3, "TX": 3}))
    assert rules(report) == [("power-unticked", ()), ("power-unticked", ())]
    assert [v.message.split(":")[0] for v in report.violations] == ["colour change", "dupe"]


def test_a_guarded_number_ignores_the_neighbour_rule(play):
    """"puedes ignorar la 'Regla de Estados Vecinos' para dicho número. Encierra el número en
    un círculo": a circled 1 beside a 6 is fine, the same uncircled is not."""
    assert audit_sheet(sheet({"TX": 6, "OK": Guarded(1)}, guard=1), US, "en").valid
    assert play(({"green": 6, "white": 1}, [{"die": "green", "cell": "TX"},
                                            {"die": "white", "cell": "OK", "guard": True}])).valid
    assert rules(play(({"green": 6, "white": 1}, [{"die": "green", "cell": "TX"},
                                                  {"die": "white", "cell": "OK"}]))) == [("neighbour", ("OK", "TX"))]


def test_every_circle_needs_a_guard_ticked():
    """"Encierra el número en un círculo ... y luego tacha una de las casillas de Resguardo":
    more circles than ticks is a fault."""
    report = audit_sheet(sheet({"TX": Guarded(6), "ME": Guarded(1)}, guard=1), US, "en")
    assert rules(report) == [("guard-count", ("ME", "TX"))]


def test_a_dupe_writes_a_coloured_die_twice_in_its_region(play):
    """"podrás anotar el número del dado activo dos veces en la región del color
    correspondiente": a blue 3 twice in blue; its second cell outside blue is the wrong region."""
    assert play(({"blue": 3, "red": 2}, [{"die": "blue", "cell": "MN", "dupe_cell": "IA"},
                                         {"die": "red", "cell": "GA"}])).valid
    report = play(({"blue": 3, "red": 2}, [{"die": "blue", "cell": "MN", "dupe_cell": "TX"},
                                           {"die": "red", "cell": "GA"}]))
    assert rules(report) == [("wrong-region", ("TX",))]
    assert report.violations[0].message == \
        "turn 1: the blue die goes in the blue region, not in TX (Texas) (green region)"


def test_a_dupe_of_a_wild_die_may_go_in_two_different_regions(play):
    """"(Un comodín puede ser anotado en dos regiones diferentes)": the white die, and a die
    made wild by a colour change."""
    white = play(({"white": 3, "red": 2}, [{"die": "white", "cell": "MN", "dupe_cell": "TX"},
                                           {"die": "red", "cell": "GA"}]))
    assert white.valid, white.violations
    changed = play(({"blue": 3, "red": 2}, [{"die": "blue", "cell": "ME", "dupe_cell": "TX",
                                             "colour_change": True}, {"die": "red", "cell": "GA"}]))
    assert changed.valid, changed.violations


def test_the_neighbour_rule_still_applies_to_a_dupe(play):
    """"(Nota: La Regla de Estados Vecinos sigue aplicándose)": the dupe's second 6 beside a 1."""
    report = play(({"green": 1, "blue": 6}, [{"die": "green", "cell": "CO"},
                                             {"die": "blue", "cell": "WY", "dupe_cell": "KS",
                                              "colour_change": True}]))
    assert rules(report) == [("neighbour", ("CO", "KS")), ("neighbour", ("CO", "WY"))]


def test_powers_may_all_be_used_on_one_die(play):
    """"Puedes aplicar Cambio de Color, Resguardar y/o Engaño al mismo dado.\""""
    report = play(({"green": 6, "red": 1}, [{"die": "red", "cell": "GA"},
                                            {"die": "green", "cell": "TX", "guard": True, "colour_change": True,
                                             "dupe_cell": "ME", "dupe_guard": True}]))
    assert report.valid, report.violations
    assert report.details["log"]["powers"] == {"colour_change": 1, "guard": 2, "dupe": 1}


def test_powers_only_on_a_die_rolled_this_turn(play):
    """"Sólo puedes usar Cambio de Color, Resguardar y/o Engaño a dados activos": a write (and
    its powers) with a die not rolled this turn is reported."""
    report = play(({"green": 3, "red": 2}, [{"die": "green", "cell": "TX"}, {"die": "red", "cell": "GA"},
                                            {"die": "blue", "cell": "MN", "colour_change": True}]),
                  against=sheet({"TX": 3, "GA": 2, "MN": 4}, colour_change=1))
    assert rules(report) == [("die-not-rolled", ("MN",))]


# --- rounds, the bag and the end ------------------------------------------------------------

def test_a_round_draws_six_different_dice_from_the_bag(play):
    """"saca 2 dados de la bolsa" ... "Una ronda acaba cuando haya 6 dados fuera de la bolsa.
    Cuando esto ocurra, coloca todos los dados de vuelta en la bolsa": no die twice in turns
    1-3, and turn 4 draws from a full bag again."""
    turns = [({"green": 1, "red": 1}, [{"die": "green", "cell": "TX"}, {"die": "red", "cell": "GA"}]),
             ({"blue": 1, "yellow": 1}, [{"die": "blue", "cell": "MN"}, {"die": "yellow", "cell": "FL"}]),
             ({"orange": 1, "purple": 1}, [{"die": "orange", "cell": "CA"}, {"die": "purple", "cell": "ME"}]),
             ({"green": 1, "red": 1}, [{"die": "green", "cell": "OK"}, {"die": "red", "cell": "SC"}])]
    assert play(*turns).valid
    turns[2] = ({"orange": 1, "green": 1}, [{"die": "orange", "cell": "CA"}, {"die": "green", "cell": "NM"}])
    report = play(*turns)
    assert rules(report) == [("dice-bag", ())]
    assert report.violations[0].message == "turn 3: the green die was already drawn from the bag in round 1"


def test_the_game_lasts_eight_rounds(play):
    """"La partida termina al cabo de 8 rondas": a ninth round ticked, or a 25th turn."""
    assert rules(audit_sheet(sheet({}, rounds=9), US, "en")) == [("round-count", ())]
    turns = [({a: 1, b: 1}, []) for a, b in (("red", "blue"), ("green", "yellow"), ("orange", "purple"))] * 8
    turns.append(({"red": 1, "blue": 1}, [{"die": "red", "cell": "GA"}, {"die": "blue", "cell": "MN"}]))
    report = play(*turns)
    assert [v.message for v in report.violations if v.rule == "round-count"] == \
        ["turn 25: the game lasts 8 rounds (24 turns)"]


def test_the_score_counts_every_x_blank_and_one_x_per_error():
    """"todos marcan una X en todos los estados vacíos ... (Marcará una X por cada error).
    Contabiliza las X": 2 Xs + 46 blanks + 1 neighbour fault; fewest wins."""
    report = audit_sheet(sheet({"TX": 1, "OK": 3, "GA": CROSSED, "SC": CROSSED}), US, "en")
    assert rules(report) == [("neighbour", ("OK", "TX"))]
    assert report.score == 2 + 46 + 1


def test_the_tie_break_is_the_number_of_powers_used():
    """"En caso de empate, quien haya utilizado menos Cambios de Color, Resguardar y Engaños
    ganará": the report gives the powers ticked, all three added; a circle on the map is a
    Resguardar used even when its box was not ticked."""
    report = audit_sheet(sheet({}, colour_change=2, guard=1, dupe=3), US, "en")
    assert report.details["powers_used"] == 6
    circled = audit_sheet(sheet({"TX": Guarded(4), "ME": Guarded(2)}, colour_change=2, guard=1, dupe=3), US, "en")
    assert circled.details["powers_used"] == 7


def test_no_more_numbers_than_dice_rolled_and_dupes(play):
    """8 rounds x 3 turns x 2 dice = 48 numbers, plus one per dupe, "Tres veces": a sheet
    ticking 4 dupes still has at most 51 (the Spanish map has 52 cells)."""
    all_threes = {code: 3 for code in ES.cells}
    report = audit_sheet(sheet(all_threes, ES, dupe=4), ES, "en")
    assert rules(report) == [("power-count", ()), ("number-count", ())]
    assert report.violations[1].message == \
        "52 numbers written, but a game gives only 51 dice to write (48 + dupes)"
    assert rules(audit_sheet(sheet(dict(list(all_threes.items())[:51]), ES, dupe=3), ES, "en")) == []


# "Tres veces durante la partida podrás resguardar un número [...] puedes ignorar la 'Regla de
# Estados Vecinos' para dicho número": three circles are spared, not more

def test_only_three_circled_numbers_are_spared_the_neighbour_rule():
    """Of four circles a finished sheet shows, the three that spare the most pairs are the
    guards (the sheet does not say which came first); the fourth is checked as a plain number."""
    cells = {"GA": Guarded(6), "AL": 1, "FL": 1, "SC": 1,  # spares 3 pairs
             "TX": Guarded(6), "OK": 1, "NM": 1,  # 2
             "ID": Guarded(6), "WA": 1, "OR": 1,  # 2
             "ME": Guarded(6), "NH": 1}  # 1: the one left
    report = audit_sheet(sheet(cells, guard=3), US, "en")
    assert rules(report) == [("neighbour", ("ME", "NH")), ("guard-count", ("GA", "ID", "ME", "TX"))]
    three = {code: v for code, v in cells.items() if code not in ("ME", "NH")}
    assert audit_sheet(sheet(three, guard=3), US, "en").valid
    plain = {code: v.value if isinstance(v, Guarded) else v for code, v in cells.items()}
    assert len(audit_sheet(sheet(plain), US, "en").violations) == 8


def test_a_circle_after_the_third_guard_binds_as_a_plain_number(play):
    """In a log the order is known: the fourth circled number breaks the rule when written,
    and binds the numbers written beside it later."""
    turns = (({"white": 1, "red": 6}, [{"die": "white", "cell": "OK"}, {"die": "red", "cell": "TX", "guard": True}]),
             ({"blue": 1, "green": 6}, [{"die": "blue", "cell": "NH"}, {"die": "green", "cell": "ME", "guard": True}]),
             ({"yellow": 1, "orange": 6}, [{"die": "yellow", "cell": "OR"},
                                           {"die": "orange", "cell": "WA", "guard": True}]),
             ({"purple": 1, "white": 6}, [{"die": "purple", "cell": "AL"}, {"die": "white", "cell": "FL", "guard": True}]),
             ({"red": 1, "blue": 2}, [{"die": "red", "cell": "GA"}, {"die": "blue", "cell": "KS"}]))
    report = play(*turns)
    found = [v for v in report.violations if v.rule == "neighbour"]
    assert [v.cells for v in found] == [("AL", "FL"), ("FL", "GA")]
    assert found[0].message.startswith("turn 4: 6 in FL (Florida) next to 1 in AL (Alabama)")
    assert found[1].message.startswith("turn 5: 1 in GA (Georgia) next to 6 in FL (Florida)")
    assert ("power-count", ()) in rules(report)


def test_circles_a_log_does_not_reach_share_the_guards_it_left(play):
    """A log that stops early names one guard; two more circles on the sheet are still guards,
    a fourth is not (the sheet's cells beyond the log are mismatches, told apart)."""
    turns = (({"white": 1, "red": 6}, [{"die": "white", "cell": "OK"}, {"die": "red", "cell": "TX", "guard": True}]),)
    cells = dict(final_sheet(turns).cells, ME=Guarded(6), NH=1, WA=Guarded(6), OR=1)
    report = play(*turns, against=sheet(cells, guard=3))
    assert [v.cells for v in report.violations if v.rule == "neighbour"] == []
    report = play(*turns, against=sheet(dict(cells, AL=Guarded(6), FL=1), guard=3))
    assert len([v for v in report.violations if v.rule == "neighbour"]) == 1  # one of three circles alike
    three = turns + (({"blue": 1, "green": 6}, [{"die": "blue", "cell": "NH"}, {"die": "green", "cell": "ME", "guard": True}]),
                     ({"yellow": 1, "orange": 6}, [{"die": "yellow", "cell": "OR"},
                                                   {"die": "orange", "cell": "WA", "guard": True}]))
    report = play(*three, against=sheet(dict(cells, AL=Guarded(6), FL=1), guard=4))
    assert [v.cells for v in report.violations if v.rule == "neighbour"] == [("AL", "FL")]  # none left for it


# --- "Contabiliza las X y escribe el total en la casilla de 'X'" ------------------------------

def test_the_x_box_holds_the_xs_the_blanks_and_one_per_error():
    cells = {"TX": 3, "OK": 6, "NM": CROSSED}  # OK-TX break the neighbour rule: one error
    right = sheet(cells, rounds=8)
    right.totals["x"] = 1 + 47 + 1
    assert rules(audit_sheet(right, US, "en")) == [("neighbour", ("OK", "TX"))]
    wrong = sheet(cells, rounds=8)
    wrong.totals["x"] = 48  # the X and the blanks, the error forgotten
    report = audit_sheet(wrong, US, "en")
    assert rules(report) == [("neighbour", ("OK", "TX")), ("written-total", ())]
    assert report.violations[1].message == \
        "the X box says 48, but the sheet has 1 X, 47 blank cell(s) and 1 error(s): 49"
    assert report.score == 49  # a miscount is told, not counted as one more error


def test_the_x_box_is_checked_against_the_score_with_a_log_too(play):
    turns = [({"red": 2, "blue": 5}, [{"die": "red", "cell": "OH"}, {"die": "blue", "cell": "MN"}])]
    against = final_sheet(turns)
    against.totals["x"] = 48
    assert rules(play(*turns, against=against)) == []
    against.totals["x"] = 47
    report = play(*turns, against=against)
    assert rules(report) == [("written-total", ())]
    assert report.score == 48
