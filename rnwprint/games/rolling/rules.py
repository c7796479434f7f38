"""Rolling America / Rolling España: the rules. The board (regions and neighbours) and the
audit of a finished typed-in sheet. The dice and the game log (writing, reading) live in
log.py, the replay of a game log in replay.py.

The printed map sheet lives in sheet.py; nothing here draws.

Game log
--------
A game log records, turn by turn, the two dice drawn and what the player did with each.
TOML, or JSON of the same structure (chosen by the file's extension). `rnwprint roll GAME
--seed N -o LOG.toml` writes one with the dice filled in and the writes left blank::

    game = "rolling-america"     # required: the game of the sheet it is replayed against
    seed = 7                     # optional; when given, every turn's dice must be the ones
                                 # `rnwprint roll GAME --seed 7` draws
    [[turn]]                     # one table per turn, in order: turns 1-3 are round 1, ...
    round = 1                    # optional; checked against the turn's position
    dice = { red = 3, white = 5 }    # the two dice drawn and their faces (1-6)

    [[turn.write]]               # what the player did with one die, in the order played
    die = "red"                  # one of the turn's dice
    cell = "TX"                  # the cell the number was written in ...
    # x = "TX"                   # ... or the cell crossed out (no legal cell) ...
    # nothing = true             # ... or nothing (the region had no empty cell)
    colour_change = true         # optional power flags (default false): the die is wild
    guard = true                 # circle the number written in `cell`
    dupe_cell = "OK"             # the second cell of a dupe (the die's region; a wild die: any)
    dupe_guard = true            # circle the number written in `dupe_cell` (a second guard)

    [[turn.write]]
    die = "white"
    x = "NM"

JSON: {"game": "rolling-america", "seed": 7, "turn": [{"round": 1, "dice": {"red": 3,
"white": 5}, "write": [{"die": "red", "cell": "TX"}, {"die": "white", "x": "NM"}]}]}.

Dice are red, blue, green, yellow, orange, purple and white (the wild die); the Spanish
names (rojo, azul, verde, amarillo, naranja, morado, blanco) are accepted too. Cells are the
codes of the typed-in sheet (TX, M, PM ...). An empty string (`cell = ""`) means "not filled
in yet": a write with nothing filled in is ignored, and the turns after the last one with a
filled-in write are taken as not played yet, so a half-filled skeleton replays cleanly.
Within the played turns, a rolled die without a write counts as "nothing done".

Unknown keys, dice or cells, faces outside 1-6, a turn without exactly two dice, a `round`
that does not match the turn's position, or a write that does not say where the die went
are input errors (every problem of the file reported at once). Breaking the rules is not:
those are violations in the report.

Check a finished sheet against its log with `rnwprint audit SHEET.toml --log LOG.toml`.

Rules reported
--------------
Sheet (`rnwprint audit SHEET`): bad-value (a number no die shows), neighbour (two unguarded
neighbouring numbers differ by more than 1; each pair once; of more than three circled
numbers, only the three that spare the most pairs are guards), guard-count (more circles than
guards ticked), power-count (a power counter over 3), round-count (rounds over 8),
number-count (more numbers than dice).
Log (`--log`), each naming its turn: missed-number (X or nothing although a legal cell
existed), missed-x (nothing done although the region had an empty cell), written-twice,
wrong-region (a number or X outside the die's region, a dupe's second cell included,
unless the die is wild: the white die or a colour change), neighbour (at the time of
writing), die-not-rolled, die-used-twice, dice-bag (a die drawn twice in one round),
seed-mismatch, round-count (more than 24 turns), power-count (a
power used over 3 times), power-unticked (of its first three uses, more than ticked on the sheet),
rounds-unticked (fewer rounds ticked on the sheet than the log has ended),
log-mismatch (a cell where the log leads elsewhere than the sheet, log vs sheet value).

Choices where the rules are silent
----------------------------------
- Score (fewest wins) = X cells + blank cells + one per violation. A cell holding a value no
  die shows (0, 7, "(9)") is a `bad-value` violation and counts through that only.
- A circled bad value still counts as a circle for `guard-count`.
- Of more than three circled numbers, the three that spare the most neighbour pairs are the
  guards on a sheet alone, the first three written in a log; the others bind as plain numbers.
- `rounds` ticked over 8 is `round-count`; fewer is not a violation (shown in details).
- More numbers on the sheet than 8 rounds x 3 turns x 2 dice = 48, plus the dupes ticked
  (at most 3 counted), is `number-count`: no game can produce them.
- "A legal cell" means legal without powers: nobody must spend a guard or a colour change.
- Nothing done with the wild die (or a colour change) is fine only when no region has a
  legal cell and some region is full (the player chose that full region).
- A cell written twice keeps the later write (the replay follows the log).
- A write with a die not rolled that turn has no known face: it is reported, and its cell is
  left out of the neighbour checks and of the sheet comparison.
- Blank and X are the same at the end (every empty cell gets an X), so the comparison with
  the sheet does not tell them apart.
- One break, one penalty: a log violation that is the same fault as a sheet violation (a
  neighbour pair, a power used over 3 times, circles over the guards ticked, a 4th guard)
  is not added again; the sheet's violation stays, taking the log's message (which names the
  turn) for a neighbour pair or a power used over 3 times. A use past the third is
  power-count's fault alone, not also power-unticked's.
- Order: sheet violations by rule (bad-value, neighbour, guard-count, power-count,
  round-count, number-count), then by cell code; log violations follow in turn order, then
  power-count, power-unticked, rounds-unticked, log-mismatch (by cell code).
"""

from __future__ import annotations

import functools
import itertools
import tomllib
from dataclasses import dataclass

from rnwprint.core.entries import CROSSED, Entries, Guarded, Mark
from rnwprint.core.report import Report, Violation
from rnwprint.data import data_path
from rnwprint.core.errors import RnwError
from rnwprint.locale import t

GAMES = ("rolling-america", "rolling-espana")

DICE = ("red", "blue", "green", "yellow", "orange", "purple", "white")
WILD = "white"
COLOURS = DICE[:-1]
ROUNDS, TURNS_PER_ROUND, DICE_PER_TURN = 8, 3, 2
TURNS = ROUNDS * TURNS_PER_ROUND
FACES = range(1, 7)
USES = 3  # each power, per game
POWERS = ("colour_change", "guard", "dupe")
# the locale keys of the dice, powers and games' names, written whole so grep finds each use
NAME_KEYS = {"red": "rolling-audit.red", "blue": "rolling-audit.blue", "green": "rolling-audit.green",
             "yellow": "rolling-audit.yellow", "orange": "rolling-audit.orange", "purple": "rolling-audit.purple",
             "white": "rolling-audit.white", "colour_change": "rolling-audit.colour_change",
             "guard": "rolling-audit.guard", "dupe": "rolling-audit.dupe",
             "rolling-america": "rolling-audit.rolling-america", "rolling-espana": "rolling-audit.rolling-espana"}
COUNTERS = {  # counter -> the locale key of what it counts (Game.counters: blank typed-in files say it)
    "colour_change": "rolling-audit.counter_colour_change",
    "guard": "rolling-audit.counter_guard",
    "dupe": "rolling-audit.counter_dupe",
    "rounds": "rolling-audit.counter_rounds",
}
SHEET_RULES = ("bad-value", "neighbour", "guard-count", "power-count", "round-count", "number-count")
UNKNOWN = "?"  # a cell written with a die of unknown face (not rolled that turn)
_END = 10**9  # sort key of the end-of-log checks



# --- the board ----------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Board:
    """One game's map as the rules see it: regions and neighbours. Compared by identity."""

    game: str
    map: str
    regions: dict[str, tuple[str, ...]]  # colour -> cell codes, in template order
    region_of: dict[str, str]  # cell code -> colour
    neighbours: dict[str, frozenset[str]]  # every cell; empty for islands
    names: dict[str, str]  # cell code -> usual name
    cells: tuple[str, ...]  # every cell, region by region in template order
    pairs: tuple[tuple[str, str], ...]  # neighbouring pairs (a < b), sorted


@functools.cache
def load_board(game_name: str) -> Board:
    """The board of rolling-america or rolling-espana (cached: the same object each time)."""
    from rnwprint.games import get_game
    from rnwprint.geo.maps import load_map  # shapely loads only when a board is needed
    from rnwprint.geo.maps import neighbours as map_neighbours

    get_game(game_name, exact=True, among=GAMES)  # refused as every unknown game is
    path = data_path("templates", f"{game_name}.toml")
    where = str(path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise RnwError(f"cannot read the board template: {e}", where) from None
    try:
        geo = load_map(data.get("map"))
    except (ValueError, TypeError):
        raise RnwError(f"map: {data.get('map')!r} is not a known map", where) from None
    raw = data.get("regions", {})
    if not isinstance(raw, dict) or sorted(raw) != sorted(COLOURS):
        raise RnwError(f"regions: expected one region per colour ({', '.join(COLOURS)})", where)
    regions = {colour: tuple(cells) for colour, cells in raw.items()}
    region_of: dict[str, str] = {}
    for colour, cells in regions.items():
        for code in cells:
            if code not in geo.cells or code in region_of:
                raise RnwError(f"regions.{colour}: {code!r} is unknown or in two regions", where)
            region_of[code] = colour
    if missing := sorted(set(geo.cells) - set(region_of)):
        raise RnwError(f"regions: no region for {', '.join(missing)}", where)
    pairs = tuple(sorted(map_neighbours(geo)))
    nbrs: dict[str, set[str]] = {code: set() for code in region_of}
    for a, b in pairs:
        nbrs[a].add(b)
        nbrs[b].add(a)
    return Board(
        game=game_name,
        map=geo.name,
        regions=regions,
        region_of=region_of,
        neighbours={code: frozenset(n) for code, n in nbrs.items()},
        names=dict(geo.names),
        cells=tuple(region_of),
        pairs=pairs,
    )


def _cell(board: Board, code: str) -> str:
    return f"{code} ({board.names[code]})"


def _colour(lang: str, die: str) -> str:
    return t(lang, NAME_KEYS[die])


def _show(lang: str, mark: Mark | None) -> str:
    return t(lang, "rolling-audit.blank") if mark is None else str(mark)


def too_far(a: int, b: int) -> bool:
    """The neighbour rule: two neighbouring numbers may differ by at most 1."""
    return abs(a - b) > 1


# --- the audit of a finished sheet --------------------------------------------------------

@dataclass
class _Audit:
    violations: list[Violation]
    xs: int
    blanks: int
    details: dict


def _audit(entries: Entries, board: Board, lang: str, logged: dict[str, bool] | None = None) -> _Audit:
    """The sheet's violations and counts; `logged`: the circled cells a game log wrote, each
    with whether it was one of the three guards (`_guards` chooses among the others, from the
    guards the log left)."""
    marks = entries.cells
    counters = {name: entries.counters.get(name, 0) for name in COUNTERS}
    found: dict[str, list[Violation]] = {rule: [] for rule in SHEET_RULES}
    free: dict[str, int] = {}  # unguarded numbers 1-6: the ones the neighbour rule binds
    numbers = xs = blanks = 0
    circled: list[str] = []
    circled_numbers: dict[str, int] = {}
    regions = {}
    for colour, cells in board.regions.items():
        r_numbers = r_xs = r_blanks = 0
        for code in cells:
            mark = marks.get(code)
            if mark is None:
                r_blanks += 1
                continue
            if mark == CROSSED:
                r_xs += 1
                continue
            value = mark.value if isinstance(mark, Guarded) else mark
            if isinstance(mark, Guarded):
                circled.append(code)
            if value not in FACES:
                found["bad-value"].append(Violation("bad-value", (code,), t(
                    lang, "rolling-audit.bad_value", cell=_cell(board, code), value=mark)))
                continue
            r_numbers += 1
            if isinstance(mark, Guarded):
                circled_numbers[code] = value
            else:
                free[code] = value
        regions[colour] = {"numbers": r_numbers, "xs": r_xs, "blanks": r_blanks}
        numbers, xs, blanks = numbers + r_numbers, xs + r_xs, blanks + r_blanks

    logged = logged or {}
    unlogged = {code: v for code, v in circled_numbers.items() if code not in logged}
    guards = {code for code, guard in logged.items() if guard}
    guards |= _guards(unlogged, free, board.pairs, max(USES - len(guards), 0))
    free.update((code, v) for code, v in circled_numbers.items() if code not in guards)
    for a, b in board.pairs:
        va, vb = free.get(a), free.get(b)
        if va is not None and vb is not None and too_far(va, vb):
            found["neighbour"].append(Violation("neighbour", (a, b), t(
                lang, "rolling-audit.neighbour", a=_cell(board, a), va=va, b=_cell(board, b), vb=vb)))

    if len(circled) > counters["guard"]:
        found["guard-count"].append(Violation("guard-count", tuple(sorted(circled)), t(
            lang, "rolling-audit.guard_count", count=len(circled), ticked=counters["guard"])))
    for power in POWERS:
        if counters[power] > USES:
            found["power-count"].append(Violation("power-count", (), t(
                lang, "rolling-audit.power_count", power=t(lang, NAME_KEYS[power]), counter=power,
                count=counters[power], most=USES)))
    if counters["rounds"] > ROUNDS:
        found["round-count"].append(Violation("round-count", (), t(
            lang, "rolling-audit.round_count", count=counters["rounds"], most=ROUNDS)))
    most = TURNS * DICE_PER_TURN + min(counters["dupe"], USES)
    if numbers > most:
        found["number-count"].append(Violation("number-count", (), t(
            lang, "rolling-audit.number_count", count=numbers, most=most)))

    violations = [v for rule in SHEET_RULES for v in sorted(found[rule], key=lambda v: v.cells)]
    details = {
        "numbers": numbers,
        "guarded": len(circled),
        "xs": xs,
        "blanks": blanks,
        "bad_values": len(found["bad-value"]),
        "violations": len(violations),
        # every circle on the map is a Resguardar used, ticked or not
        "powers_used": counters["colour_change"] + max(counters["guard"], len(circled)) + counters["dupe"],
        "counters": counters,
        "regions": regions,
    }
    return _Audit(violations, xs, blanks, details)


def _guards(circled: dict[str, int], plain: dict[str, int], pairs, most: int = USES) -> set[str]:
    """The circled numbers the neighbour rule spares. "Tres veces durante la partida podrás
    resguardar un número": of more than `most` circles, the `most` that spare the most
    neighbour pairs (a finished sheet does not show which came first); the others are
    checked as plain numbers (a circle that spares nothing is spared nothing)."""
    numbers = {**plain, **circled}
    spares: dict[str, set] = {code: set() for code in sorted(circled)}
    for a, b in pairs:
        if a in numbers and b in numbers and too_far(numbers[a], numbers[b]):
            for code in (a, b):
                if code in spares:
                    spares[code].add((a, b))
    candidates = [code for code, spared in spares.items() if spared]
    return set(max(itertools.combinations(candidates, min(most, len(candidates))),
                   key=lambda three: len(set().union(*(spares[code] for code in three)))))


def audit(game_name: str, entries: Entries, lang: str) -> Report:
    """The game's audit of a typed-in sheet (Game.audit)."""
    return audit_sheet(entries, load_board(game_name), lang)


def cell_ids(game_name: str, variant: str) -> frozenset[str]:
    """The regions a typed-in sheet may name (Game.cell_ids: no map need be fitted)."""
    return frozenset(load_board(game_name).region_of)


def audit_sheet(entries: Entries, board: Board, lang: str) -> Report:
    """Check a finished typed-in sheet; score = Xs + blanks + one per violation (fewest wins)."""
    a = _audit(entries, board, lang)
    score = a.xs + a.blanks + len(a.violations)
    return Report(board.game, entries.variant, entries.source, score,
                  a.violations + written_x(entries, a, score, lang), a.details)


def written_x(entries: Entries, sheet: _Audit, score: int, lang: str) -> list[Violation]:
    """The X box against the score: the neighbour "Marcará una X por cada error. Contabiliza
    las X y escribe el total en la casilla de 'X'" (the empty cells became Xs at the end). A
    miscount is told, not counted as one more error."""
    written = entries.totals.get("x", score)
    if written == score:
        return []
    return [Violation("written-total", (), t(lang, "rolling-audit.written_x", written=written, xs=sheet.xs,
                                             blanks=sheet.blanks, errors=score - sheet.xs - sheet.blanks,
                                             score=score))]
