"""Rolling America / España rules: the board, the sheet audit, the game-log replay, the
dice, and the `roll` and `audit --log` commands."""

from __future__ import annotations

import json
import pathlib
import re
from collections import Counter

import pytest

from rnwprint.audit.entries import CROSSED, Entries, Guarded
from rnwprint.errors import RnwError
from rnwprint.games import rolling_rules as rr
from rnwprint.games.rolling_rules import (DICE, WILD, Turn, Write, audit_sheet, load_board, load_log,
                                          log_json, log_text, replay, roll_game)

US = load_board("rolling-america")
ES = load_board("rolling-espana")


def sheet(cells: dict | None = None, board=US, **counters) -> Entries:
    return Entries("sheet.toml", board.game, board.map, dict(cells or {}), dict(counters))


def rules(report) -> list[tuple[str, tuple[str, ...]]]:
    return [(v.rule, v.cells) for v in report.violations]


@pytest.fixture
def log(tmp_path):
    """Write a game log (game + turns as plain dicts) to a JSON or TOML file; return its path."""

    def _log(*turns: tuple[dict, list[dict]], board=US, seed=None, name="log.json", **extra):
        doc = {"game": board.game, **extra}
        if seed is not None:
            doc["seed"] = seed
        doc["turn"] = [{"dice": dice, "write": writes} for dice, writes in turns]
        path = tmp_path / name
        path.write_text(json.dumps(doc), encoding="utf-8")
        return path

    return _log


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
    with pytest.raises(RnwError, match="unknown game 'twenty-one'; choose one of: rolling-america"):
        load_board("twenty-one")


# --- the sheet audit ----------------------------------------------------------------------

def test_empty_sheet_is_valid_and_every_cell_counts_as_an_x():
    report = audit_sheet(sheet(), US, "en")
    assert report.valid and report.score == 50
    assert report.details["blanks"] == 50 and report.details["numbers"] == 0
    assert audit_sheet(sheet(board=ES), ES, "en").score == 52


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


# --- the dice ---------------------------------------------------------------------------------

def test_roll_is_8_rounds_of_3_turns_from_the_bag():
    for seed in range(40):
        turns = roll_game(seed)
        assert [t.number for t in turns] == list(range(1, 25))
        assert [t.round for t in turns] == [r for r in range(1, 9) for _ in range(3)]
        for rnd in range(1, 9):
            dice = [d for t in turns if t.round == rnd for d, _ in t.dice]
            assert len(dice) == 6 and len(set(dice)) == 6  # 6 of the 7, none twice
        for t in turns:
            assert len(t.dice) == 2 and t.writes == ()
            assert [d for d, _ in t.dice] == sorted((d for d, _ in t.dice), key=DICE.index)
            assert all(1 <= f <= 6 for _, f in t.dice)


def test_roll_is_deterministic_and_uses_every_die_and_face():
    assert roll_game(7) == roll_game(7) and roll_game(7) != roll_game(8)
    assert roll_game(7)[0].dice == (("blue", 6), ("green", 4))  # pinned: same seed, same game
    seen = Counter((d, f) for seed in range(30) for t in roll_game(seed) for d, f in t.dice)
    assert {d for d, _ in seen} == set(DICE) and {f for _, f in seen} == set(range(1, 7))
    left_out = Counter(next(iter(set(DICE) - {d for t in roll_game(s)[r * 3:r * 3 + 3] for d, _ in t.dice}))
                       for s in range(30) for r in range(8))
    assert set(left_out) == set(DICE)  # each die is sometimes the one left in the bag


def test_skeleton_parses_and_replays_clean_on_an_empty_sheet(tmp_path):
    path = tmp_path / "skeleton.toml"
    path.write_text(log_text("rolling-espana", roll_game(3), "es", 3), encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Registro de partida de rnwprint.") and 'cell = ""  # el ' in text
    parsed = load_log(path, ES)
    assert parsed.seed == 3 and len(parsed.turns) == 24
    assert [t.dice for t in parsed.turns] == [t.dice for t in roll_game(3)]
    report = replay(sheet(board=ES), ES, path, "en")
    assert report.valid and report.details["log"]["turns_played"] == 0


# --- a legal game, played by a simple greedy player --------------------------------------------

def _legal(board, state, code, face):
    return code not in state and all(
        type(state.get(n)) is not int or abs(state[n] - face) <= 1 for n in board.neighbours[code])


def greedy(board, turns, powers=True):
    """Play `turns` legally: first legal cell; powers when they help. -> (turns, sheet)."""
    state, uses, out = {}, Counter(), []
    for turn in turns:
        writes = []
        for die, face in turn.dice:
            region = board.cells if die == WILD else board.regions[die]
            legal = [c for c in region if _legal(board, state, c, face)]
            everywhere = [c for c in board.cells if _legal(board, state, c, face)]
            empty = [c for c in region if c not in state]
            if legal:
                state[legal[0]] = face
                w = Write(die, cell=legal[0])
                more = [c for c in board.regions[board.region_of[legal[0]]]
                        if _legal(board, state, c, face)]
                if powers and more and uses["dupe"] < 3:
                    uses["dupe"] += 1
                    state[more[0]] = face
                    w = Write(die, cell=legal[0], dupe_cell=more[0])
            elif powers and everywhere and uses["colour_change"] < 3:
                uses["colour_change"] += 1
                state[everywhere[0]] = face
                w = Write(die, cell=everywhere[0], colour_change=True)
            elif powers and empty and uses["guard"] < 3:
                uses["guard"] += 1
                state[empty[0]] = Guarded(face)
                w = Write(die, cell=empty[0], guard=True)
            elif empty:
                state[empty[0]] = CROSSED
                w = Write(die, x=empty[0])
            else:
                w = Write(die, nothing=True)
            writes.append(w)
        out.append(Turn(turn.number, turn.round, turn.dice, tuple(writes)))
    return out, sheet(state, board, rounds=8, **uses)


@pytest.mark.parametrize("board", [US, ES], ids=["us", "es"])
@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_greedy_game_replays_clean_and_matches_its_sheet(tmp_path, board, seed):
    played, final = greedy(board, roll_game(seed))
    assert audit_sheet(final, board, "en").valid
    for name, text in (("g.toml", log_text(board.game, played, "en", seed)),
                       ("g.json", log_json(board.game, played, seed))):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert load_log(path, board).turns == tuple(played)  # the log round-trips exactly
        report = replay(final, board, path, "en")
        assert report.valid, report.violations
        assert report.score == sum(final.cells.get(c) in (None, CROSSED) for c in board.cells)
        assert report.details["log"]["turns_played"] == 24 and report.details["log"]["rounds_played"] == 8
        assert report.details["log"]["powers"] == {p: final.counters[p] for p in rr.POWERS}


def test_the_clean_games_cover_every_kind_of_write():
    played, final = greedy(US, roll_game(7))
    writes = [w for t in played for w in t.writes]
    assert {p: final.counters[p] for p in rr.POWERS} == {"colour_change": 3, "guard": 3, "dupe": 3}
    assert any(w.x for w in writes) and any(w.nothing for w in writes)
    assert any(w.die == WILD and w.cell for w in writes)


def test_half_played_log_replays_clean(tmp_path):
    played, _ = greedy(US, roll_game(5), powers=False)
    turns = list(played[:7]) + [Turn(t.number, t.round, t.dice) for t in roll_game(5)[7:]]
    _, partial = greedy(US, roll_game(5)[:7], powers=False)
    path = tmp_path / "half.toml"
    path.write_text(log_text(US.game, turns, "en", 5), encoding="utf-8")
    report = replay(partial, US, path, "en")
    assert report.valid and report.details["log"]["turns_played"] == 7
    assert report.details["log"]["rounds_played"] == 3
    six = tmp_path / "six.toml"  # two whole rounds
    six.write_text(log_text(US.game, list(played[:6]), "en", 5), encoding="utf-8")
    _, two_rounds = greedy(US, roll_game(5)[:6], powers=False)
    assert replay(two_rounds, US, six, "en").details["log"]["rounds_played"] == 2


# --- log faults, one at a time -------------------------------------------------------------------

def test_x_although_a_legal_cell_existed(log):
    path = log(({"green": 3, "red": 2}, [{"die": "green", "x": "TX"}, {"die": "red", "cell": "GA"}]))
    report = replay(sheet({"TX": "X", "GA": 2}), US, path, "en")
    assert rules(report) == [("missed-number", ("TX",))]
    assert report.violations[0].message == \
        "turn 1: X in TX (Texas), but the 3 of the green die fits in CO (Colorado)"
    assert report.score == 48 + 1 + 1


def test_nothing_done_although_a_legal_cell_existed(log):
    path = log(({"green": 3, "red": 2}, [{"die": "green", "nothing": True}, {"die": "red", "cell": "GA"}]))
    report = replay(sheet({"GA": 2}), US, path, "en")
    assert rules(report) == [("missed-number", tuple(sorted(US.regions["green"])))]
    assert report.violations[0].message.startswith("turn 1: nothing written for the 3 of the green die")


def test_a_rolled_die_without_a_write(log):
    path = log(({"green": 3, "white": 2}, [{"die": "green", "cell": "TX"}]))
    report = replay(sheet({"TX": 3}), US, path, "en")
    assert rules(report) == [("missed-number", tuple(sorted(c for c in US.cells if c != "TX")))]
    assert "no write for the 2 of the white die" in report.violations[0].message


def _blocked_green():
    """Turn 1 fills OK, NM, CO, KS with 1s (a colour change, two dupes): afterwards no green
    cell takes a 6, and the empty ones are NE, TX and WY."""
    return ({"blue": 1, "white": 1}, [{"die": "blue", "cell": "OK", "dupe_cell": "NM", "colour_change": True},
                                      {"die": "white", "cell": "CO", "dupe_cell": "KS"}])


BLOCKED = {"OK": 1, "NM": 1, "CO": 1, "KS": 1}


def test_no_legal_cell_means_an_x_in_the_region(log):
    ok = log(_blocked_green(), ({"green": 6, "red": 3}, [{"die": "green", "x": "TX"},
                                                         {"die": "red", "cell": "GA"}]))
    assert replay(sheet({**BLOCKED, "TX": "X", "GA": 3}, dupe=2, colour_change=1), US, ok, "en").valid
    skipped = log(_blocked_green(), ({"green": 6, "red": 3}, [{"die": "green", "nothing": True},
                                                              {"die": "red", "cell": "GA"}]),
                  name="skipped.json")
    report = replay(sheet({**BLOCKED, "GA": 3}, dupe=2, colour_change=1), US, skipped, "en")
    assert rules(report) == [("missed-x", ("NE", "TX", "WY"))]
    assert report.violations[0].message.startswith("turn 2: nothing done with the 6 of the green die")


def test_a_cell_written_twice(log):
    path = log(({"green": 3, "white": 3}, [{"die": "green", "cell": "TX"}, {"die": "white", "cell": "TX"}]))
    report = replay(sheet({"TX": 3}), US, path, "en")
    assert rules(report) == [("written-twice", ("TX",))]
    assert report.violations[0].message == "turn 1: TX (Texas) already holds 3"


def test_wrong_region_unless_wild_or_colour_change(log):
    path = log(({"green": 3, "red": 3}, [{"die": "green", "cell": "OK"}, {"die": "red", "cell": "TX"}]))
    report = replay(sheet({"OK": 3, "TX": 3}), US, path, "en")
    assert rules(report) == [("wrong-region", ("TX",))]
    assert report.violations[0].message == \
        "turn 1: the red die goes in the red region, not in TX (Texas) (green region)"
    changed = log(({"green": 3, "red": 3}, [{"die": "green", "cell": "OK"},
                                            {"die": "red", "cell": "TX", "colour_change": True}]),
                  name="cc.json")
    assert replay(sheet({"OK": 3, "TX": 3}, colour_change=1), US, changed, "en").valid
    wild = log(({"green": 3, "white": 3}, [{"die": "green", "cell": "OK"}, {"die": "white", "cell": "ME"}]),
               name="wild.json")
    assert replay(sheet({"OK": 3, "ME": 3}), US, wild, "en").valid


def test_x_in_the_wrong_region(log):
    path = log(_blocked_green(), ({"green": 6, "red": 3}, [{"die": "green", "x": "GA"},
                                                           {"die": "red", "cell": "SC"}]))
    report = replay(sheet({**BLOCKED, "GA": "X", "SC": 3}, dupe=2, colour_change=1), US, path, "en")
    assert rules(report) == [("wrong-region", ("GA",))]


def test_dupe_must_stay_in_the_region(log):
    path = log(({"green": 3, "red": 3}, [{"die": "green", "cell": "OK", "dupe_cell": "AR"},
                                         {"die": "red", "cell": "GA"}]))
    report = replay(sheet({"OK": 3, "AR": 3, "GA": 3}, dupe=1), US, path, "en")
    assert rules(report) == [("wrong-region", ("AR",))]


def test_neighbour_break_when_written_is_one_violation_with_its_turn(log):
    path = log(({"green": 6, "white": 1}, [{"die": "green", "cell": "TX"}, {"die": "white", "cell": "OK"}]))
    report = replay(sheet({"TX": 6, "OK": 1}), US, path, "en")
    assert rules(report) == [("neighbour", ("OK", "TX"))]  # the sheet's pair, not twice
    assert report.violations[0].message == \
        "turn 1: 1 in OK (Oklahoma) next to 6 in TX (Texas); neighbours may differ by at most 1"
    assert report.score == 48 + 1 and report.details["log"]["merged"] == 1
    # the sheet shows it circled, the log did not guard: the break at the time still counts
    report = replay(sheet({"TX": 6, "OK": Guarded(1)}, guard=1), US, path, "en")
    assert rules(report) == [("neighbour", ("OK", "TX")), ("log-mismatch", ("OK",))]
    assert report.violations[1].message == "OK (Oklahoma): the log leads to 1, the sheet shows (1)"


def test_guard_lifts_the_neighbour_rule(log):
    path = log(({"green": 6, "white": 1}, [{"die": "green", "cell": "TX"},
                                           {"die": "white", "cell": "OK", "guard": True}]),
               ({"red": 2, "blue": 2}, [{"die": "red", "cell": "GA"}, {"die": "blue", "cell": "MN"}]))
    assert replay(sheet({"TX": 6, "OK": Guarded(1), "GA": 2, "MN": 2}, guard=1), US, path, "en").valid


def test_powers_used_but_not_ticked(log):
    path = log(({"green": 3, "red": 3}, [{"die": "green", "cell": "OK", "guard": True, "dupe_cell": "NM"},
                                         {"die": "red", "cell": "TX", "colour_change": True}]))
    cells = {"OK": Guarded(3), "NM": 3, "TX": 3}
    assert replay(sheet(cells, guard=1, dupe=1, colour_change=1), US, path, "en").valid
    report = replay(sheet(cells), US, path, "en")
    # the unticked guard is the sheet's guard-count already: one penalty, not two
    assert rules(report) == [("guard-count", ("OK",)), ("power-unticked", ()), ("power-unticked", ())]
    assert [v.message for v in report.violations] == [
        "1 circled number(s) but 0 guard(s) ticked",
        "colour change: used 1 time(s) in the log but 0 ticked on the sheet",
        "dupe: used 1 time(s) in the log but 0 ticked on the sheet"]


def _colour_changes(n_turns: int) -> list:
    """n turns (n <= 3, one round), each with two colour changes onto distinct cells of value 3."""
    cells = iter(["TX", "OK", "NM", "CO", "KS", "NE"])
    pairs = [("red", "blue"), ("yellow", "orange"), ("purple", "white")]
    return [({a: 3, b: 3}, [{"die": a, "cell": next(cells), "colour_change": True},
                            {"die": b, "cell": next(cells), "colour_change": True}])
            for a, b in pairs[:n_turns]]


def test_a_power_used_more_than_three_times(log):
    path = log(*_colour_changes(2))
    cells = {c: 3 for c in ("TX", "OK", "NM", "CO")}
    report = replay(sheet(cells, colour_change=4), US, path, "en")
    assert rules(report) == [("power-count", ())]  # the sheet's, with the log's turn
    assert report.violations[0].message == \
        "colour change: used 4 times in the log (the 4th in turn 2); at most 3 per game"
    report = replay(sheet(cells, colour_change=3), US, path, "en")
    assert rules(report) == [("power-count", ()), ("power-unticked", ())]
    assert report.score == 46 + 2


def test_a_die_not_rolled_that_turn(log):
    path = log(({"green": 3, "red": 2}, [{"die": "green", "cell": "TX"}, {"die": "red", "cell": "GA"},
                                         {"die": "blue", "cell": "MN"}]))
    report = replay(sheet({"TX": 3, "GA": 2, "MN": 5}), US, path, "en")
    assert rules(report) == [("die-not-rolled", ("MN",))]  # MN's value is unknown: no mismatch
    assert report.violations[0].message == \
        "turn 1: the blue die was not rolled this turn (rolled: red 2, green 3)"


def test_a_die_used_twice(log):
    path = log(({"green": 3, "red": 2}, [{"die": "green", "cell": "TX"}, {"die": "red", "cell": "GA"},
                                         {"die": "green", "cell": "OK"}]))
    report = replay(sheet({"TX": 3, "GA": 2, "OK": 3}), US, path, "en")
    assert rules(report) == [("die-used-twice", ())]


def test_a_die_drawn_twice_in_a_round(log):
    path = log(({"green": 3, "red": 2}, [{"die": "green", "cell": "TX"}, {"die": "red", "cell": "GA"}]),
               ({"green": 3, "blue": 2}, [{"die": "green", "cell": "OK"}, {"die": "blue", "cell": "MN"}]),
               ({"yellow": 3, "white": 2}, [{"die": "yellow", "cell": "AR"}, {"die": "white", "cell": "MI"}]),
               ({"green": 1, "blue": 1}, [{"die": "green", "cell": "WY"}, {"die": "blue", "cell": "ND"}]))
    cells = {"TX": 3, "GA": 2, "OK": 3, "MN": 2, "AR": 3, "MI": 2, "WY": 1, "ND": 1}
    report = replay(sheet(cells), US, path, "en")
    assert rules(report) == [("dice-bag", ())]  # turn 4 starts round 2: a full bag again
    assert report.violations[0].message == "turn 2: the green die was already drawn from the bag in round 1"


def test_dice_not_the_seeds(tmp_path):
    played, final = greedy(US, roll_game(11), powers=False)
    path = tmp_path / "seed.toml"
    path.write_text(log_text(US.game, played, "en", 12), encoding="utf-8")  # claims another seed
    report = replay(final, US, path, "en")
    assert report.violations and {v.rule for v in report.violations} == {"seed-mismatch"}
    assert report.violations[0].message.startswith("turn 1: the log has ")
    assert "seed 12 rolls" in report.violations[0].message


def test_more_than_eight_rounds(tmp_path):
    played, final = greedy(US, roll_game(4), powers=False)
    extra = Turn(25, 9, (("red", 1), ("blue", 1)))
    path = tmp_path / "long.toml"
    path.write_text(log_text(US.game, played + [extra], "en"), encoding="utf-8")
    report = replay(final, US, path, "en")
    assert rules(report) == [("round-count", ())]
    assert report.violations[0].message == "turn 25: the game lasts 8 rounds (24 turns)"


def test_log_that_does_not_lead_to_the_sheet(log):
    path = log(({"green": 3, "white": 5}, [{"die": "green", "cell": "TX"}, {"die": "white", "cell": "ME"}]),
               ({"red": 2, "blue": 6}, [{"die": "red", "x": "GA"}, {"die": "blue", "cell": "MN"}]))
    # TX differs, OK and HI are on the sheet only, MN is not; GA is X in the log and blank on
    # the sheet and IA is X on the sheet only: blanks and Xs are the same at the end
    cells = {"TX": 4, "OK": 3, "HI": Guarded(2), "ME": 5, "IA": "X"}
    report = replay(sheet(cells, guard=1), US, path, "en")
    assert rules(report) == [("missed-number", ("GA",)), ("log-mismatch", ("HI",)),
                             ("log-mismatch", ("MN",)), ("log-mismatch", ("OK",)),
                             ("log-mismatch", ("TX",))]
    assert [v.message for v in report.violations[1:]] == [
        "HI (Hawaii): the log leads to blank, the sheet shows (2)",
        "MN (Minnesota): the log leads to 6, the sheet shows blank",
        "OK (Oklahoma): the log leads to blank, the sheet shows 3",
        "TX (Texas): the log leads to 3, the sheet shows 4"]
    assert report.score == 46 + 5  # 45 blanks + 1 X + 5 violations


def test_a_number_of_the_log_crossed_out_on_the_sheet_is_a_mismatch(log):
    """Blank and X are alike at the end, but neither is a number the log wrote."""
    path = log(({"green": 3, "red": 2}, [{"die": "green", "cell": "TX"}, {"die": "red", "x": "GA"}]))
    report = replay(sheet({"TX": "X", "GA": 2}), US, path, "en")
    assert rules(report) == [("missed-number", ("GA",)), ("log-mismatch", ("GA",)), ("log-mismatch", ("TX",))]
    assert [v.message for v in report.violations[1:]] == [
        "GA (Georgia): the log leads to X, the sheet shows 2",
        "TX (Texas): the log leads to 3, the sheet shows X"]


def test_dice_not_the_seeds_in_a_later_turn(tmp_path):
    turns = roll_game(11)
    assert turns[4].dice == (("red", 4), ("white", 6)) and turns[23].dice == (("yellow", 1), ("orange", 1))
    turns[4] = Turn(5, 2, (("red", 5), ("white", 6)))  # turn 5 and the last turn: one face changed
    turns[23] = Turn(24, 8, (("yellow", 1), ("orange", 2)))
    path = tmp_path / "seed.toml"
    path.write_text(log_text(US.game, turns, "en", 11), encoding="utf-8")
    report = replay(sheet(), US, path, "en")
    assert [v.message for v in report.violations] == [
        "turn 5: the log has red 5, white 6, but seed 11 rolls red 4, white 6",
        "turn 24: the log has yellow 1, orange 2, but seed 11 rolls yellow 1, orange 1"]


def test_violations_of_one_rule_are_ordered_by_cell():
    # the map's order is region by region (orange WA before yellow AL, green WY before NE)
    cells = {"WA": 9, "AL": 0, "WY": 7, "NE": 8}
    report = audit_sheet(sheet(cells), US, "en")
    assert rules(report) == [("bad-value", ("AL",)), ("bad-value", ("NE",)),
                             ("bad-value", ("WA",)), ("bad-value", ("WY",))]


def test_replay_appends_to_the_sheet_report(log):
    path = log(({"green": 3, "red": 2}, [{"die": "green", "x": "TX"}, {"die": "red", "cell": "GA"}]))
    report = replay(sheet({"TX": "X", "GA": 2, "ME": 9}, rounds=12), US, path, "en")
    assert rules(report) == [("bad-value", ("ME",)), ("round-count", ()),  # the sheet's first
                             ("missed-number", ("TX",)), ("log-mismatch", ("ME",))]
    assert report.score == 47 + 1 + 4  # 47 blanks, 1 X, 4 violations (ME counts through its own)
    assert report.details["violations"] == 4 and report.details["log"]["violations"] == 2


def test_log_messages_in_spanish(log):
    path = log(({"rojo": 3, "verde": 2}, [{"die": "verde", "x": "AV"}, {"die": "rojo", "cell": "MU"}]), board=ES)
    report = replay(sheet({"AV": "X", "MU": 3}, ES), ES, path, "es")
    assert [v.message for v in report.violations] == [
        "turno 1: X en AV (Ávila), pero el 2 del dado verde cabía en AV (Ávila)"]


def test_toml_log_with_every_write_kind(tmp_path):
    path = tmp_path / "log.toml"
    path.write_text('''
game = "rolling-america"
[[turn]]
round = 1
dice = { green = 6, white = 1 }
[[turn.write]]
die = "green"
cell = "TX"
[[turn.write]]
die = "white"
cell = "OK"
guard = true
[[turn]]
dice = { red = 4, blue = 4 }
[[turn.write]]
die = "red"
cell = "GA"
dupe_cell = "SC"
dupe_guard = true
[[turn.write]]
die = "blue"
cell = "MN"
''', encoding="utf-8")
    parsed = load_log(path, US)
    assert parsed.turns[1].writes[0] == Write("red", cell="GA", dupe_cell="SC", dupe_guard=True)
    cells = {"TX": 6, "OK": Guarded(1), "GA": 4, "SC": Guarded(4), "MN": 4}
    report = replay(sheet(cells, guard=2, dupe=1), US, path, "en")
    assert report.valid and report.details["log"]["powers"] == {"colour_change": 0, "guard": 2, "dupe": 1}


# --- malformed logs are input errors ---------------------------------------------------------------

@pytest.mark.parametrize("doc, reason", [
    ({"game": "rolling-america", "colour": 1}, "colour: unknown key; valid keys are game, seed, turn"),
    ({"turn": []}, "game: missing"),
    ({"game": "rolling-espana"}, "game: the log is for 'rolling-espana' but the sheet is rolling-america"),
    ({"game": "rolling-america", "seed": "x"}, "seed: 'x' is not a whole number"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1}}]}, "turn 1: dice: expected the 2 dice"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "pink": 2}}]}, "turn 1: dice: unknown die 'pink'"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 7, "blue": 2}}]}, "turn 1: dice.red: 7 is not a face 1-6"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "rojo": 2}}]}, "turn 1: dice: red given twice"),
    ({"game": "rolling-america", "turn": [{"round": 2, "dice": {"red": 1, "blue": 2}}]},
     "turn 1: round = 2, but turn 1 is in round 1"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2}, "roll": 1}]}, "turn 1: roll: unknown key"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2}, "write": [{"die": "red", "cell": "tx"}]}]},
     "turn 1, write 1: cell: unknown cell 'tx' for rolling-america (did you mean TX?)"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2}, "write": [{"die": "red", "cell": 5}]}]},
     "turn 1, write 1: cell: unknown cell 5 for rolling-america"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2}, "write": [{"die": "pink", "cell": "TX"}]}]},
     "turn 1, write 1: die: unknown die 'pink'"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2}, "write": [{"cell": "TX"}]}]},
     "turn 1, write 1: die: missing"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2},
                                           "write": [{"die": "red", "cell": "GA", "x": "SC"}]}]},
     "turn 1, write 1: give only one of cell, x or nothing"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2},
                                           "write": [{"die": "red", "x": "GA", "guard": True}]}]},
     "turn 1, write 1: guard and dupe_cell need the number's cell"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2},
                                           "write": [{"die": "red", "guard": True}]}]},
     "turn 1, write 1: say where the die went"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2},
                                           "write": [{"die": "red", "cell": "GA", "guard": "yes"}]}]},
     "turn 1, write 1: guard: 'yes' is not true or false"),
    ({"game": "rolling-america", "turn": [{"dice": {"red": 1, "blue": 2},
                                           "write": [{"die": "red", "cell": "GA", "flip": True}]}]},
     "turn 1, write 1: flip: unknown key"),
])
def test_malformed_logs_name_the_file_and_the_key(tmp_path, doc, reason):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(RnwError, match="^" + re.escape(f"{path}: {reason}")) as caught:
        replay(sheet(), US, path, "en")
    assert "\n" not in str(caught.value)


def test_every_log_problem_at_once(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('game = "rolling-america"\nextra = 1\n[[turn]]\ndice = { red = 9, blue = 1 }\n')
    both = f"{path}: extra: unknown key; valid keys are game, seed, turn\n{path}: turn 1: dice.red: 9 is not a face 1-6"
    with pytest.raises(RnwError, match="^" + re.escape(both) + "$"):
        load_log(path, US)


def test_bad_toml_log(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("game = [\n")
    with pytest.raises(RnwError, match="malformed TOML"):
        load_log(path, US)


# --- the command line ---------------------------------------------------------------------------

def test_roll_prints_the_whole_game_the_same_every_time(cli):
    first = cli("roll", "rolling-america", "--seed", "7")
    assert first.code == 0 and first.err == ""
    lines = first.out.splitlines()
    assert lines[0] == "Rolling America, semilla 7: 8 rondas de 3 turnos, dos dados por turno"
    assert sum(l.startswith("Ronda ") for l in lines) == 8
    assert sum(l.strip().startswith("Turno ") for l in lines) == 24
    assert lines[2].split() == ["Turno", "1", "azul", "6", "verde", "4"]
    assert cli("roll", "rolling-america", "--seed", "7").out == first.out
    english = cli("roll", "rolling-espana", "--seed", "7", "--lang", "en")
    assert english.out.startswith("Rolling España, seed 7") and "Round 8" in english.out


def test_roll_writes_a_log_skeleton_atomically(cli, tmp_path):
    out = tmp_path / "logs" / "game.toml"
    result = cli("roll", "rolling-espana", "--seed", "42", "-o", out)
    assert result.code == 0
    assert result.out.splitlines()[-1] == f"Registro de partida para rellenar: {out}"
    first = out.read_bytes()
    assert cli("roll", "rolling-espana", "--seed", "42", "-o", out).code == 0
    assert out.read_bytes() == first and not list(out.parent.glob(".*.tmp"))
    assert [t.dice for t in load_log(out, ES).turns] == [t.dice for t in roll_game(42)]
    js = tmp_path / "game.json"
    assert cli("roll", "rolling-espana", "--seed", "42", "-o", js).code == 0
    doc = json.loads(js.read_text())
    assert doc["seed"] == 42 and doc["game"] == "rolling-espana"
    assert doc["turn"][0]["write"] == [{"die": d, "cell": ""} for d, _ in roll_game(42)[0].dice]


@pytest.mark.parametrize("args, reason", [
    (("roll", "twenty-one", "--seed", "1"), "unknown game 'twenty-one'"),
    (("roll", "rolling-america"), "Missing option '--seed'"),
    (("roll", "rolling-america", "--seed", "x"), "'x' is not a valid integer"),
    (("roll", "rolling-america", "--seed", "1", "--lang", "fr"), "'fr' is not one of"),
])
def test_roll_bad_options_one_line_exit_2(cli, args, reason):
    result = cli(*args)
    assert result.code == 2 and result.out == ""
    assert len(result.err.strip().splitlines()) == 1 and reason in result.err


def test_roll_unwritable_log_is_one_line_exit_2(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = cli("roll", "rolling-america", "--seed", "1", "-o", blocker / "log.toml")
    assert result.code == 2 and result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"rnwprint: {blocker}: is a file, not a folder")


def _write_sheet(path: pathlib.Path, entries: Entries) -> pathlib.Path:
    cells = {c: (str(v) if not isinstance(v, int) else v) for c, v in entries.cells.items()}
    path.write_text(json.dumps({"game": entries.game, "cells": cells, "counters": entries.counters}))
    return path


def test_audit_with_log_exit_codes(cli, tmp_path):
    played, final = greedy(ES, roll_game(9))
    log_path = tmp_path / "log.toml"
    log_path.write_text(log_text(ES.game, played, "es", 9), encoding="utf-8")
    good = _write_sheet(tmp_path / "good.json", final)
    result = cli("audit", good, "--log", log_path, "--json")
    assert result.code == 0, result.out + result.err
    report = json.loads(result.out)
    assert report["valid"] and report["details"]["log"]["turns_played"] == 24
    assert cli("audit", good).code == 0

    changed = dict(final.cells)
    code = next(c for c, v in changed.items() if v == CROSSED)
    changed[code] = 6 if code in ("PM", "GC", "TF", "CE", "ML") else CROSSED
    changed.pop(next(c for c, v in changed.items() if type(v) is int))
    bad = _write_sheet(tmp_path / "bad.json", sheet(changed, ES, **final.counters))
    result = cli("audit", bad, "--log", log_path, "--lang", "es")
    assert result.code == 1 and "log-mismatch" in result.out and "según el registro, " in result.out


def test_audit_log_input_errors_exit_2(cli, tmp_path, write):
    sheet_path = write("s.toml", 'game = "rolling-america"\n[cells]\nTX = 3\n')
    bad_log = write("log.toml", 'game = "rolling-america"\n[[turn]]\ndice = { red = 1, cyan = 2 }\n')
    result = cli("audit", sheet_path, "--log", bad_log)
    assert result.code == 2 and result.out == ""
    assert result.err.strip() == f"rnwprint: {bad_log}: turn 1: dice: unknown die 'cyan'; " \
                                 "dice are red, blue, green, yellow, orange, purple, white"
    missing = cli("audit", sheet_path, "--log", tmp_path / "nope.toml")
    assert missing.code == 2 and "cannot read file" in missing.err
    two = cli("audit", sheet_path, sheet_path, "--log", bad_log)
    assert two.code == 2 and len(two.err.strip().splitlines()) == 1 and "exactly one sheet" in two.err
    other = write("t.toml", 'game = "twenty-one"\n')
    result = cli("audit", other, "--log", bad_log)
    assert result.code == 2 and result.err.strip() == "rnwprint: --log: twenty-one has no game log"
