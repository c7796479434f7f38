"""Rolling America / España rules: the game-log replay, clean games and log faults."""

from __future__ import annotations

import json
import tomllib

import pytest

from rnwprint.core.entries import CROSSED, Entries, Guarded
from rnwprint.games.rolling import rules as rr
from rnwprint.games.rolling.log import Turn, load_log, log_json, log_text, roll_game
from rnwprint.games.rolling.replay import replay
from rnwprint.games.rolling.rules import WILD, audit_sheet

from rolling_support import ES, US, _legal, greedy, rules, sheet


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
    # the three boxes ticked and a 4th use: one fault, the 4th use, not also an unticked box
    report = replay(sheet(cells, colour_change=3), US, path, "en")
    assert rules(report) == [("power-count", ())]
    assert report.score == 46 + 1
    # two ticked: the 4th use, and one of the first three left unticked
    report = replay(sheet(cells, colour_change=2), US, path, "en")
    assert rules(report) == [("power-count", ()), ("power-unticked", ())]
    assert report.violations[1].message == "colour change: used 4 time(s) in the log but 2 ticked on the sheet"
    assert report.score == 46 + 2


def test_a_fourth_dupe_merges_into_its_own_counter_not_a_full_one(log):
    """Dupe used 4 times, its counter ticked 4 (the sheet's power-count); colour change ticked
    3 times, never used: the log's 4th dupe is that one fault, not another."""
    path = log(({"green": 3, "blue": 3}, [{"die": "green", "cell": "OK", "dupe_cell": "NM"},
                                          {"die": "blue", "cell": "MN", "dupe_cell": "WI"}]),
               ({"orange": 3, "yellow": 3}, [{"die": "orange", "cell": "CA", "dupe_cell": "NV"},
                                             {"die": "yellow", "cell": "AL", "dupe_cell": "MS"}]))
    cells = {c: 3 for c in ("OK", "NM", "MN", "WI", "CA", "NV", "AL", "MS")}
    report = replay(sheet(cells, dupe=4, colour_change=3), US, path, "en")
    assert rules(report) == [("power-count", ())]
    assert report.violations[0].message.startswith("dupe: used 4 times in the log (the 4th in turn 2)")


def test_a_fourth_guard_is_one_fault(log):
    """Four numbers guarded in the log, four circles and three guards ticked on the sheet: the
    sheet's guard-count is the log's 4th guard, one penalty (the sheet alone gives the same)."""
    written = [("green", "TX"), ("blue", "MN"), ("orange", "CA"), ("yellow", "AL")]
    path = log(*[({a: 3, b: 3}, [{"die": a, "cell": x, "guard": True}, {"die": b, "cell": y, "guard": True}])
                 for (a, x), (b, y) in zip(written[::2], written[1::2])])
    circled = {cell: Guarded(3) for _, cell in written}
    report = replay(sheet(circled, guard=3), US, path, "en")
    assert rules(report) == [("guard-count", ("AL", "CA", "MN", "TX"))]
    assert report.violations[0].message == "4 circled number(s) but 3 guard(s) ticked"
    assert report.score == 46 + 1


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
    report = replay(sheet(cells, rounds=1), US, path, "en")
    assert rules(report) == [("dice-bag", ())]  # turn 4 starts round 2: a full bag again
    assert report.violations[0].message == "turn 2: the green die was already drawn from the bag in round 1"


def test_each_round_ended_is_ticked_on_the_sheet(log):
    """"Una ronda acaba cuando haya 6 dados fuera de la bolsa. Cuando esto ocurra, [...] tachan la
    primera casilla vacía de 'ronda'": after 4 turns one round has ended, the second not yet."""
    path = log(({"green": 3, "red": 2}, [{"die": "green", "cell": "TX"}, {"die": "red", "cell": "GA"}]),
               ({"white": 3, "blue": 2}, [{"die": "white", "cell": "OK"}, {"die": "blue", "cell": "MN"}]),
               ({"yellow": 3, "orange": 2}, [{"die": "yellow", "cell": "AR"}, {"die": "orange", "cell": "AZ"}]),
               ({"green": 1, "blue": 1}, [{"die": "green", "cell": "WY"}, {"die": "blue", "cell": "ND"}]))
    cells = {"TX": 3, "GA": 2, "OK": 3, "MN": 2, "AR": 3, "AZ": 2, "WY": 1, "ND": 1}
    assert rules(replay(sheet(cells, rounds=1), US, path, "en")) == []
    assert rules(replay(sheet(cells, rounds=2), US, path, "en")) == []  # ticking ahead is not a fault
    report = replay(sheet(cells), US, path, "en")
    assert rules(report) == [("rounds-unticked", ())]
    assert report.violations[0].message == "the log has ended 1 round(s) but 0 are ticked on the sheet's round track"
    spanish = replay(sheet(cells), US, path, "es").violations[0].message
    assert spanish == "el registro ha terminado 1 ronda(s), pero hay 0 marcada(s) en la hoja"


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


def _with_turn_25(tmp_path, played, dice, writes, name="long.json"):
    """A clean game's log with a 25th turn of `dice` and `writes` appended."""
    doc = tomllib.loads(log_text(US.game, played, "en"))
    doc["turn"].append({"dice": dice, "write": writes})
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_rounds_over_eight_on_the_sheet_and_in_the_log_are_one_error(tmp_path):
    played, final = greedy(US, roll_game(4), powers=False)
    path = _with_turn_25(tmp_path, played, {"red": 1, "blue": 1}, [])
    ticked = Entries(final.source, final.game, final.variant, final.cells, {**final.counters, "rounds": 9})
    report = replay(ticked, US, path, "en")
    assert rules(report) == [("round-count", ())]
    assert report.violations[0].message == "turn 25: the game lasts 8 rounds (24 turns)"
    assert report.score == replay(final, US, path, "en").score  # one error, whichever shows it


def test_dice_after_the_eighth_round_owe_nothing(tmp_path):
    """"La partida termina al cabo de 8 rondas": a 25th turn's dice were never to be rolled, so
    a die of it left unwritten misses nothing; what it wrote is still played (it is on the sheet)."""
    played, final = greedy(US, roll_game(4), powers=False)
    def fits(colour, cells):
        return [(code, face) for face in range(1, 7) for code in sorted(US.regions[colour])
                if _legal(US, cells, code, face)]

    red = fits("red", final.cells)[0]
    cells = {**final.cells, red[0]: red[1]}
    purple = fits("purple", cells)[0]  # still a legal cell for the die left unwritten
    path = _with_turn_25(tmp_path, played, {"red": red[1], "purple": purple[1]}, [{"die": "red", "cell": red[0]}])
    report = replay(Entries(final.source, final.game, final.variant, cells, final.counters), US, path, "en")
    assert rules(report) == [("round-count", ())]
    # nor an X where the number fitted
    path = _with_turn_25(tmp_path, played, {"red": red[1], "purple": purple[1]}, [{"die": "red", "x": red[0]}], "x.json")
    crossed = Entries(final.source, final.game, final.variant, {**final.cells, red[0]: CROSSED}, final.counters)
    assert rules(replay(crossed, US, path, "en")) == [("round-count", ())]


def test_the_24th_turn_still_owes_its_dice(tmp_path):
    """The last turn of the 8th round is in the game: a die of it left unwritten is missed."""
    played, final = greedy(US, roll_game(4), powers=False)
    doc = tomllib.loads(log_text(US.game, played, "en"))
    assert len(doc["turn"]) == 24
    doc["turn"][23]["write"] = doc["turn"][23]["write"][:1]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert {"missed-number", "missed-x"} & {v.rule for v in replay(final, US, path, "en").violations}
    # an X there where the number fitted is a missed number too
    code, face = next((c, f) for f in range(1, 7) for c in sorted(US.regions["red"]) if _legal(US, final.cells, c, f))
    doc["turn"][23] = {"dice": {"red": face, "purple": 1}, "write": [{"die": "red", "x": code}, {"die": "purple", "x": "MA"}]}
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert ("missed-number", (code,)) in rules(replay(final, US, path, "en"))


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
