"""Rolling America / España rules: the board and the finished-sheet audit."""

from __future__ import annotations


import pytest

from rnwprint.core.entries import CROSSED, Guarded
from rnwprint.core.errors import RnwError
from rnwprint.games.rolling.rules import DICE, audit_sheet, load_board

from rolling_support import ES, US, rules, sheet


# --- the board --------------------------------------------------------------------------

def test_boards_cover_every_cell_once_in_six_regions():
    assert len(US.cells) == 50 and len(ES.cells) == 52
    for board in (US, ES):
        assert sorted(board.regions) == sorted(DICE[:-1])
        assert sorted(board.cells) == sorted(board.region_of) == sorted(board.neighbours)
        assert sum(len(c) for c in board.regions.values()) == len(board.cells)
        for colour, cells in board.regions.items():
            assert all(board.region_of[c] == colour for c in cells)
    assert US.regions["green"] == ("WY", "NE", "CO", "KS", "NM", "OK", "TX")  # template order


def test_neighbours_are_symmetric_and_islands_have_none():
    for board in (US, ES):
        for a, nbrs in board.neighbours.items():
            assert a not in nbrs and all(a in board.neighbours[b] for b in nbrs)
        assert board.pairs == tuple(sorted(board.pairs)) and all(a < b for a, b in board.pairs)
    assert US.neighbours["TX"] == {"AR", "LA", "NM", "OK"}
    assert {c for c, n in US.neighbours.items() if not n} == {"AK", "HI"}
    assert {c for c, n in ES.neighbours.items() if not n} == {"PM", "GC", "TF", "CE", "ML"}


def test_load_board_is_cached_and_checks_the_name():
    assert load_board("rolling-america") is US
    with pytest.raises(RnwError, match="this command is not for 'twenty-one'; choose one of: rolling-america"):
        load_board("twenty-one")


# --- the sheet audit ----------------------------------------------------------------------

def test_empty_sheet_is_valid_and_every_cell_counts_as_an_x():
    report = audit_sheet(sheet(), US, "en")
    assert report.valid and report.score == 50
    assert report.details["blanks"] == 50 and report.details["numbers"] == 0
    assert audit_sheet(sheet(board=ES), ES, "en").score == 52


def test_a_single_number_is_valid_and_every_other_cell_counts_as_an_x():
    """"todos marcan una X en todos los estados vacíos de su mapa ... Contabiliza las X"."""
    report = audit_sheet(sheet({"TX": 3}), US, "en")
    assert report.valid and report.score == 49
    report = audit_sheet(sheet({"ML": 6}, ES), ES, "en")
    assert report.valid and report.score == 51


def test_a_sheet_crossed_out_everywhere_scores_one_per_cell():
    report = audit_sheet(sheet({code: CROSSED for code in US.cells}), US, "en")
    assert report.valid and report.score == 50
    assert report.details["xs"] == 50 and report.details["blanks"] == 0


def test_score_is_xs_plus_blanks_plus_violations():
    cells = {"TX": 5, "OK": 2, "NM": 4, "AZ": CROSSED, "CA": CROSSED, "HI": 6}
    report = audit_sheet(sheet(cells, colour_change=1, dupe=2, rounds=8), US, "en")
    assert rules(report) == [("neighbour", ("NM", "OK")), ("neighbour", ("OK", "TX"))]
    # 44 blanks + 2 Xs + 2 violations
    assert report.score == 44 + 2 + 2
    d = report.details
    assert (d["numbers"], d["xs"], d["blanks"], d["violations"], d["powers_used"]) == (4, 2, 44, 2, 3)
    assert d["regions"]["green"] == {"numbers": 3, "xs": 0, "blanks": 4}
    assert d["counters"] == {"colour_change": 1, "guard": 0, "dupe": 2, "rounds": 8}


def test_neighbours_within_one_are_fine():
    assert audit_sheet(sheet({"TX": 3, "OK": 4, "NM": 3, "AR": 3, "LA": 2}), US, "en").valid


def test_neighbour_message_names_both_cells():
    report = audit_sheet(sheet({"TX": 5, "OK": 2}), US, "en")
    assert report.violations[0].message == \
        "OK (Oklahoma) = 2 and TX (Texas) = 5 are neighbours that differ by more than 1"
    assert report.score == 48 + 1


def test_each_pair_reported_once_sorted():
    cells = {"TX": 6, "OK": 1, "NM": 1, "AR": 1, "LA": 3}
    report = audit_sheet(sheet(cells), US, "en")
    assert rules(report) == [("neighbour", ("AR", "LA")), ("neighbour", ("AR", "TX")),
                             ("neighbour", ("LA", "TX")), ("neighbour", ("NM", "TX")),
                             ("neighbour", ("OK", "TX"))]


def test_guarded_numbers_are_exempt_both_ways():
    cells = {"TX": Guarded(6), "OK": 1, "NM": 1, "AR": 1, "LA": 1}
    report = audit_sheet(sheet(cells, guard=1), US, "en")
    assert report.valid and report.details["guarded"] == 1 and report.details["numbers"] == 5


def test_x_is_exempt():
    assert audit_sheet(sheet({"TX": CROSSED, "OK": 1, "NM": 1, "AR": 1, "LA": 1}), US, "en").valid


def test_islands_have_no_neighbours():
    assert audit_sheet(sheet({"HI": 1, "AK": 6, "WA": 3, "CA": 4}), US, "en").valid
    assert audit_sheet(sheet({"PM": 6, "CS": 1, "V": 1, "GC": 1, "TF": 6, "CE": 6, "CA": 1}, ES),
                       ES, "en").valid


def test_bad_values_are_violations_and_skip_the_neighbour_check():
    cells = {"TX": 7, "OK": 0, "NM": -2, "KS": Guarded(7), "CO": 6}
    report = audit_sheet(sheet(cells, guard=1), US, "en")
    assert rules(report) == [("bad-value", ("KS",)), ("bad-value", ("NM",)),
                             ("bad-value", ("OK",)), ("bad-value", ("TX",))]
    assert report.violations[0].message == "KS (Kansas): (7) is not a number a die can show (1-6)"
    assert report.score == 45 + 4  # 45 blanks, bad values count through their violation only
    assert report.details["bad_values"] == 4 and report.details["numbers"] == 1


def test_more_circles_than_guards_ticked():
    cells = {"TX": Guarded(6), "ME": Guarded(1), "HI": Guarded(3)}
    report = audit_sheet(sheet(cells, guard=2), US, "en")
    assert rules(report) == [("guard-count", ("HI", "ME", "TX"))]
    assert report.violations[0].message == "3 circled number(s) but 2 guard(s) ticked"
    assert audit_sheet(sheet(cells, guard=3), US, "en").valid


def test_power_counters_over_three_one_violation_each():
    report = audit_sheet(sheet(colour_change=4, guard=3, dupe=5), US, "en")
    assert rules(report) == [("power-count", ()), ("power-count", ())]
    assert [v.message for v in report.violations] == [
        "colour change (colour_change): 4 ticked, at most 3 per game",
        "dupe (dupe): 5 ticked, at most 3 per game"]
    assert report.score == 50 + 2 and report.details["powers_used"] == 12


def test_rounds_over_eight():
    assert audit_sheet(sheet(rounds=8), US, "en").valid
    report = audit_sheet(sheet(rounds=9), US, "en")
    assert rules(report) == [("round-count", ())]
    assert audit_sheet(sheet(rounds=3), US, "en").valid  # an unfinished game is not a fault


def test_more_numbers_than_dice():
    all_threes = {code: 3 for code in US.cells}
    assert rules(audit_sheet(sheet(all_threes), US, "en")) == [("number-count", ())]
    assert rules(audit_sheet(sheet(all_threes, dupe=1), US, "en")) == [("number-count", ())]
    assert audit_sheet(sheet(all_threes, dupe=2), US, "en").valid  # 48 dice + 2 dupes
    assert audit_sheet(sheet(all_threes, dupe=2), US, "en").score == 0


def test_violations_ordered_by_rule_then_cells():
    cells = {"TX": 6, "OK": 1, "ME": 9, "HI": Guarded(2)}
    report = audit_sheet(sheet(cells, dupe=4, rounds=10), US, "en")
    assert [v.rule for v in report.violations] == ["bad-value", "neighbour", "guard-count",
                                                   "power-count", "round-count"]


def test_messages_in_spanish_with_names():
    report = audit_sheet(sheet({"M": 6, "TO": 1, "AV": Guarded(6)}, ES, dupe=4), ES, "es")
    assert [v.message for v in report.violations] == [
        "M (Madrid) = 6 y TO (Toledo) = 1 son casillas vecinas que difieren en más de 1",
        "1 número(s) con círculo, pero solo 0 marca(s) de resguardar",
        "engaño (dupe): 4 marcas, como máximo 3 por partida"]
