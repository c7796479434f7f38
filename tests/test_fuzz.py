"""Fuzzing the inputs a user types (issue 14): thousands of generated typed-in sheets, game
logs, ASCII towers and tower codes run through the command line in-process. Whatever the
input: no traceback (nor an "internal error" line), exit code 0, 1 or 2, and a reason on
stderr with 2. Seeded (hypothesis derandomized, random.Random with fixed seeds) and bounded,
so a run takes the same inputs every time and some 20 s."""

from __future__ import annotations

import json
import random
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rnwprint.games import GAMES
from rnwprint.games.roll_to_the_top import game as rtt
from rnwprint.games.roll_to_the_top.tower_code import encode

FUZZ = settings(derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])
CELL_IDS = sorted({cid for g in GAMES.values() for cid in g.cell_ids(g.default_variant)})
KEYS = ["game", "variant", "lang", "cells", "counters", "tower", "descending", "seed", "turn", "round", "dice",
        "write", "die", "cell", "x", "nothing", "colour_change", "guard", "dupe_cell", "dupe_guard", "rounds",
        "dupe", "red", "white", "blue"]
NAMES = [*GAMES, *(v for g in GAMES.values() for v in g.variants), "t.abcdefgh", "burj-desc", "X", "(3)", "",
         " 4 ", "-1", "()", "x", "\x00", "\ud800", "é", "[]", " []\n[][]", *CELL_IDS[:30]]
CODES = [encode(b.tower) for b in rtt.builtins().values()]


def check(result) -> None:
    assert result.code in (0, 1, 2), (result.code, result.err)
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err
    if result.code == 2:
        assert result.err.strip(), "exit 2 without a reason"


# --- generated values ------------------------------------------------------------------------

leaves = st.one_of(
    st.sampled_from(NAMES),
    st.text(max_size=12),
    st.integers(-10, 30),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
)
keys = st.one_of(st.sampled_from(KEYS + CELL_IDS), st.text(max_size=8))
values = st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(keys, inner, max_size=4)), max_leaves=12)


@st.composite
def typed_in(draw) -> dict:
    game = draw(st.sampled_from(list(GAMES)))
    doc = {"game": draw(st.one_of(st.just(game), leaves))}
    if draw(st.booleans()):
        doc["variant"] = draw(st.one_of(st.sampled_from(GAMES[game].variants), leaves))
    ids = sorted(GAMES[game].cell_ids(GAMES[game].default_variant))
    doc["cells"] = draw(st.one_of(
        st.dictionaries(st.one_of(st.sampled_from(ids), keys), st.one_of(leaves, st.sampled_from(["X", "(4)"])),
                        max_size=12),
        values))
    if draw(st.booleans()):
        doc["counters"] = draw(st.one_of(st.dictionaries(st.sampled_from(["guard", "dupe", "rounds", "x"]), leaves,
                                                         max_size=4), values))
    if game == rtt.NAME and draw(st.booleans()):
        doc["tower"] = draw(st.one_of(ascii_art(), tower_codes(), leaves))
    doc.update(draw(st.dictionaries(keys, values, max_size=2)))
    return doc


@st.composite
def game_log(draw) -> dict:
    die = st.one_of(st.sampled_from(["red", "blue", "green", "yellow", "orange", "purple", "white"]), leaves)
    cell = st.one_of(st.sampled_from(sorted(GAMES["rolling-america"].cell_ids("us"))), leaves)
    write = st.dictionaries(st.sampled_from(["die", "cell", "x", "nothing", "colour_change", "guard", "dupe_cell",
                                             "dupe_guard", "junk"]), st.one_of(die, cell, leaves), max_size=5)
    turn = st.fixed_dictionaries({"dice": st.dictionaries(die, st.one_of(st.integers(0, 7), leaves), max_size=3),
                                  "write": st.one_of(st.lists(write, max_size=3), values)},
                                 optional={"round": st.one_of(st.integers(0, 9), leaves)})
    log = {"game": draw(st.one_of(st.just("rolling-america"), leaves)),
           "turn": draw(st.one_of(st.lists(turn, max_size=6), values))}
    if draw(st.booleans()):
        log["seed"] = draw(leaves)
    return log


def ascii_art() -> st.SearchStrategy[str]:
    return st.one_of(st.text(alphabet="[] .#\n\t", max_size=120),
                     st.text(alphabet="[] \n", max_size=60).map(lambda t: t.replace("[ ", "[]")),
                     st.text(max_size=40))


def tower_codes() -> st.SearchStrategy[str]:
    return st.one_of(st.text(alphabet=string.digits + string.ascii_letters, min_size=0, max_size=40),
                     st.sampled_from(CODES).map(lambda c: c[:-1]),
                     st.text(max_size=10))


# --- typed-in sheets and logs ----------------------------------------------------------------

@settings(FUZZ, max_examples=350)
@given(doc=typed_in())
def test_fuzz_typed_in_json_sheets(cli, tmp_path_factory, doc):
    path = tmp_path_factory.getbasetemp() / "fuzz.json"
    path.write_text(json.dumps(doc), encoding="utf-8", errors="surrogatepass")
    check(cli("audit", path))


@pytest.fixture(scope="module")
def sheet_and_log(tmp_path_factory):
    from rnwprint.app.blank import blank_file

    folder = tmp_path_factory.mktemp("log")
    sheet = folder / "sheet.toml"
    sheet.write_text(blank_file(GAMES["rolling-america"], "us", "en"), encoding="utf-8")
    return sheet, folder


@settings(FUZZ, max_examples=200)
@given(log=game_log())
def test_fuzz_game_logs(cli, sheet_and_log, log):
    sheet, folder = sheet_and_log
    path = folder / "log.json"
    path.write_text(json.dumps(log), encoding="utf-8", errors="surrogatepass")
    check(cli("audit", sheet, "--log", path))


def mutate(rng: random.Random, data: bytes) -> bytes:
    """One to four random edits of a file: bytes flipped, cut, repeated, spliced with junk."""
    junk = [b"\xef\xbb\xbf", b"\x00", b"[" * 1000, b"{a=" * 50, b"9" * 5000, b"0x" + b"f" * 4000, b"\"", b"'''",
            b"\n[cells]\n", b"=", b"\xff\xfe", b"\xed\xa0\x80", b"NaN", b"[[turn]]\n", b"{", b"}", b"\r\n", b"(7)"]
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(data))
        op = rng.randrange(5)
        if op == 0 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif op == 1:
            del data[at:at + rng.randint(1, 40)]
        elif op == 2:
            data[at:at] = rng.choice(junk)
        elif op == 3:
            end = min(len(data), at + rng.randint(1, 80))
            data[at:at] = data[at:end] * rng.randint(1, 3)
        else:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(data)


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    """Valid files to mutate: each game's blank sheet (TOML and JSON) and Rolling America logs."""
    from rnwprint.app.blank import blank_file
    from rnwprint.games.rolling.log import log_json, log_text, roll_game

    out = []
    for game in GAMES.values():
        out.append(("sheet.toml", blank_file(game, game.default_variant, "en").encode()))
        cells = {cid: 3 for cid in sorted(game.cell_ids(game.default_variant))[::3]}
        out.append(("sheet.json", json.dumps({"game": game.name, "cells": cells}).encode()))
    turns = roll_game(7)
    out.append(("log.toml", log_text("rolling-america", turns, "en", 7).encode()))
    out.append(("log.json", log_json("rolling-america", turns, 7).encode()))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_fuzz_mutated_sheets_and_logs(cli, tmp_path, seeds, sheet_and_log, seed):
    rng = random.Random(seed)
    sheet, _ = sheet_and_log
    for _ in range(300):
        name, data = rng.choice(seeds)
        path = tmp_path / name
        path.write_bytes(mutate(rng, data))
        if name.startswith("log"):
            check(cli("audit", sheet, "--log", path))
        else:
            check(cli("audit", path, *(["--json"] if rng.random() < 0.3 else [])))


# --- towers ----------------------------------------------------------------------------------

@settings(FUZZ, max_examples=700)
@given(art=ascii_art())
def test_fuzz_ascii_towers(cli, tmp_path_factory, art):
    path = tmp_path_factory.getbasetemp() / "tower.txt"
    path.write_text(art, encoding="utf-8", errors="surrogatepass")
    check(cli("tower", "--ascii", path, "--show"))


@settings(FUZZ, max_examples=700)
@given(code=tower_codes())
def test_fuzz_tower_codes(cli, code):
    if code.startswith("-") or "\x00" in code or any(0xD800 <= ord(ch) <= 0xDFFF for ch in code):
        return  # an option to click, or not something a command line can hold
    check(cli("tower", "--code", code, "--show"))


@pytest.mark.parametrize("seed", range(3))
def test_fuzz_mutated_towers(cli, tmp_path, seed):
    rng = random.Random(100 + seed)
    from rnwprint.games.roll_to_the_top.tower_input import format_ascii

    arts = [format_ascii(b.tower).encode() for b in rtt.builtins().values()]
    for _ in range(200):
        path = tmp_path / "tower.txt"
        path.write_bytes(mutate(rng, rng.choice(arts)))
        check(cli("tower", "--ascii", path, *(["--rate", "--games", "2"] if rng.random() < 0.1 else ["--show"])))
        code = rng.choice(CODES)
        at = rng.randrange(len(code))
        code = code[:at] + rng.choice(string.digits + string.ascii_letters) + code[at + 1:]
        check(cli("tower", "--code", code, "--show"))
