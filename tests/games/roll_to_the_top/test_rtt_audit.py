"""Roll to the Top: the audit of a finished tower, rule by rule."""

from __future__ import annotations

import json

import pytest
from rnwprint.core.entries import Entries
from rnwprint.games.roll_to_the_top import game as rtt
from rnwprint.games.roll_to_the_top import rules as rtt_rules
from rnwprint.games.roll_to_the_top.tower_input import parse_ascii

BUILTINS = list(rtt.builtins())
T_TOWER = "[][][]\n  []\n"  # B1 and B3 are overhangs beside B2, which rests on A1
PYRAMID_ART = "    []\n   [][]\n  [][][]\n [][][][]\n[][][][][]\n"
LEDGE = "[][][][]\n      []\n"  # B1, B2, B3 are overhangs side by side; B4 rests on A1



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
    assert report.violations[1].message == f"B2 is filled but A3, which it rests on, holds no number from 1 to 50 ({shown})"
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


def test_typed_in_builtin_file(cli, write):
    lines = "\n".join(f"{k} = {v}" for k, v in {**FULL_PYRAMID, "B2": 1}.items())
    path = write("p.toml", f'game = "roll-to-the-top"\nvariant = "pyramid"\n[cells]\n{lines}\n')
    result = cli("audit", path, "--json")
    assert result.code == 1
    report = json.loads(result.out)
    assert [v["cells"] for v in report["violations"]] == [["B2", "A2"], ["B2", "A3"]]
    assert report["score"] == 0 and report["details"]["complete"] is True
