"""Rolling America / Rolling España: the rules. The board (regions and neighbours), the
audit of a finished typed-in sheet, the replay of a game log, and the dice.

The printed map sheet lives in rnwprint/games/rolling.py; nothing here draws.

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
neighbouring numbers differ by more than 1; each pair once), guard-count (more circles than
guards ticked), power-count (a power counter over 3), round-count (rounds over 8),
number-count (more numbers than dice).
Log (`--log`), each naming its turn: missed-number (X or nothing although a legal cell
existed), missed-x (nothing done although the region had an empty cell), written-twice,
wrong-region (a number or X outside the die's region, a dupe's second cell included,
unless the die is wild: the white die or a colour change), neighbour (at the time of
writing), die-not-rolled, die-used-twice, dice-bag (a die drawn twice in one round),
seed-mismatch, round-count (more than 24 turns), power-count (a
power used over 3 times), power-unticked (used more often than ticked on the sheet),
log-mismatch (a cell where the log leads elsewhere than the sheet, log vs sheet value).

Choices where the rules are silent
----------------------------------
- Score (fewest wins) = X cells + blank cells + one per violation. A cell holding a value no
  die shows (0, 7, "(9)") is a `bad-value` violation and counts through that only.
- A circled bad value still counts as a circle for `guard-count`.
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
  neighbour pair, a power used over 3 times, circles over the guards ticked) is not added
  again; the sheet's violation stays, taking the log's message (which names the turn) for
  a neighbour pair or a power used over 3 times.
- Order: sheet violations by rule (bad-value, neighbour, guard-count, power-count,
  round-count, number-count), then by cell code; log violations follow in turn order, then
  power-count, power-unticked, log-mismatch (by cell code).
"""

from __future__ import annotations

import functools
import json
import pathlib
import random
import tomllib
from dataclasses import dataclass

from rnwprint.audit.entries import CROSSED, Entries, Guarded, Mark, load_document
from rnwprint.audit.report import Report, Violation
from rnwprint.errors import RnwError
from rnwprint.locale import LANGUAGES, t

GAMES = ("rolling-america", "rolling-espana")
TEMPLATES = pathlib.Path(__file__).resolve().parent.parent / "templates"

DICE = ("red", "blue", "green", "yellow", "orange", "purple", "white")
WILD = "white"
COLOURS = DICE[:-1]
ROUNDS, TURNS_PER_ROUND, DICE_PER_TURN = 8, 3, 2
TURNS = ROUNDS * TURNS_PER_ROUND
FACES = range(1, 7)
USES = 3  # each power, per game
POWERS = ("colour_change", "guard", "dupe")
COUNTERS = {  # counter -> description (for Game.counters and blank typed-in files)
    "colour_change": "colour changes used (0-3)",
    "guard": "guards used (0-3)",
    "dupe": "dupes used (0-3)",
    "rounds": "rounds played (0-8)",
}
SHEET_RULES = ("bad-value", "neighbour", "guard-count", "power-count", "round-count", "number-count")
UNKNOWN = "?"  # a cell written with a die of unknown face (not rolled that turn)
_END = 10**9  # sort key of the end-of-log checks

_R = "rolling-audit."


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
    from rnwprint.geo.maps import load_map  # shapely loads only when a board is needed
    from rnwprint.geo.maps import neighbours as map_neighbours

    if game_name not in GAMES:
        raise RnwError(f"unknown game {game_name!r}; choose one of: {', '.join(GAMES)}", "GAME")
    path = TEMPLATES / f"{game_name}.toml"
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
    return t(lang, _R + die)


def _show(lang: str, mark: Mark | None) -> str:
    return t(lang, _R + "blank") if mark is None else str(mark)


# --- the audit of a finished sheet --------------------------------------------------------

@dataclass
class _Audit:
    violations: list[Violation]
    xs: int
    blanks: int
    details: dict


def _audit(entries: Entries, board: Board, lang: str) -> _Audit:
    marks = entries.cells
    counters = {name: entries.counters.get(name, 0) for name in COUNTERS}
    found: dict[str, list[Violation]] = {rule: [] for rule in SHEET_RULES}
    free: dict[str, int] = {}  # unguarded numbers 1-6: the ones the neighbour rule binds
    numbers = xs = blanks = 0
    circled: list[str] = []
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
                    lang, _R + "bad_value", cell=_cell(board, code), value=mark)))
                continue
            r_numbers += 1
            if not isinstance(mark, Guarded):
                free[code] = value
        regions[colour] = {"numbers": r_numbers, "xs": r_xs, "blanks": r_blanks}
        numbers, xs, blanks = numbers + r_numbers, xs + r_xs, blanks + r_blanks

    for a, b in board.pairs:
        va, vb = free.get(a), free.get(b)
        if va is not None and vb is not None and abs(va - vb) > 1:
            found["neighbour"].append(Violation("neighbour", (a, b), t(
                lang, _R + "neighbour", a=_cell(board, a), va=va, b=_cell(board, b), vb=vb)))

    if len(circled) > counters["guard"]:
        found["guard-count"].append(Violation("guard-count", tuple(sorted(circled)), t(
            lang, _R + "guard_count", count=len(circled), ticked=counters["guard"])))
    for power in POWERS:
        if counters[power] > USES:
            found["power-count"].append(Violation("power-count", (), t(
                lang, _R + "power_count", power=t(lang, _R + power), counter=power,
                count=counters[power], most=USES)))
    if counters["rounds"] > ROUNDS:
        found["round-count"].append(Violation("round-count", (), t(
            lang, _R + "round_count", count=counters["rounds"], most=ROUNDS)))
    most = TURNS * DICE_PER_TURN + min(counters["dupe"], USES)
    if numbers > most:
        found["number-count"].append(Violation("number-count", (), t(
            lang, _R + "number_count", count=numbers, most=most)))

    violations = [v for rule in SHEET_RULES for v in sorted(found[rule], key=lambda v: v.cells)]
    details = {
        "numbers": numbers,
        "guarded": len(circled),
        "xs": xs,
        "blanks": blanks,
        "bad_values": len(found["bad-value"]),
        "violations": len(violations),
        "powers_used": sum(counters[p] for p in POWERS),
        "counters": counters,
        "regions": regions,
    }
    return _Audit(violations, xs, blanks, details)


def audit_sheet(entries: Entries, board: Board, lang: str) -> Report:
    """Check a finished typed-in sheet; score = Xs + blanks + one per violation (fewest wins)."""
    a = _audit(entries, board, lang)
    return Report(board.game, entries.variant, entries.source, a.xs + a.blanks + len(a.violations),
                  a.violations, a.details)


# --- the dice -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Write:
    """What the player did with one die (see the log format above)."""

    die: str
    cell: str | None = None
    x: str | None = None
    nothing: bool = False
    colour_change: bool = False
    guard: bool = False
    dupe_cell: str | None = None
    dupe_guard: bool = False


@dataclass(frozen=True)
class Turn:
    number: int  # 1-24 over the game
    round: int  # 1-8
    dice: tuple[tuple[str, int], ...]  # (die, face), in DICE order
    writes: tuple[Write, ...] = ()

    @property
    def faces(self) -> dict[str, int]:
        return dict(self.dice)


def roll_game(seed: int) -> list[Turn]:
    """A whole solo game's dice: each round all 7 dice go into the bag, and each of its 3
    turns draws 2 of them and rolls them. Same seed, same turns."""
    rng = random.Random(seed)
    turns = []
    for rnd in range(1, ROUNDS + 1):
        bag = list(DICE)
        for _ in range(TURNS_PER_ROUND):
            drawn = [bag.pop(rng.randrange(len(bag))) for _ in range(DICE_PER_TURN)]
            faces = {die: rng.randint(1, 6) for die in drawn}
            dice = tuple((die, faces[die]) for die in DICE if die in faces)
            turns.append(Turn(len(turns) + 1, rnd, dice))
    return turns


def format_turns(game_name: str, turns: list[Turn], seed: int, lang: str) -> str:
    """The turns, readably: a header, then one line per turn under its round."""
    lines = [t(lang, _R + "roll_title", title=t(lang, _R + game_name), seed=seed,
               rounds=ROUNDS, turns=TURNS_PER_ROUND)]
    for turn in turns:
        if (turn.number - 1) % TURNS_PER_ROUND == 0:
            lines.append(t(lang, _R + "round", round=turn.round))
        dice = "   ".join(f"{_colour(lang, die):<8} {face}" for die, face in turn.dice)
        lines.append(f"  {t(lang, _R + 'turn', turn=turn.number):<9} {dice}".rstrip())
    return "\n".join(lines) + "\n"


def _toml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def log_text(game_name: str, turns: list[Turn], lang: str = "en", seed: int | None = None) -> str:
    """A game log (TOML) for `turns`. Turns without writes get one blank write per die to
    fill in, so `log_text(game, roll_game(seed), lang, seed)` is the skeleton `roll -o`
    writes; turns with writes are written as they are (a complete, replayable log)."""
    lines = [f"# {line}" if line else "#" for line in t(lang, _R + "log_help").splitlines()]
    lines += ["", f"game = {_toml_str(game_name)}"]
    if seed is not None:
        lines.append(f"seed = {seed}")
    for turn in turns:  # dice by the language's names (the reader takes either language's)
        dice = ", ".join(f"{_colour(lang, die)} = {face}" for die, face in turn.dice)
        lines += ["", f"[[turn]]  # {t(lang, _R + 'turn', turn=turn.number)}",
                  f"round = {turn.round}", f"dice = {{ {dice} }}"]
        if turn.writes:
            for w in turn.writes:
                lines += ["[[turn.write]]", f"die = {_toml_str(_colour(lang, w.die))}"]
                for key in ("cell", "x", "dupe_cell"):
                    if getattr(w, key) is not None:
                        lines.append(f"{key} = {_toml_str(getattr(w, key))}")
                for key in ("nothing", "colour_change", "guard", "dupe_guard"):
                    if getattr(w, key):
                        lines.append(f"{key} = true")
        else:
            for die, face in turn.dice:
                hint = t(lang, _R + "log_write_hint", die=_colour(lang, die), face=face)
                lines += ["[[turn.write]]", f"die = {_toml_str(_colour(lang, die))}", f'cell = ""  # {hint}']
    return "\n".join(lines) + "\n"


def log_json(game_name: str, turns: list[Turn], seed: int | None = None) -> str:
    """The same log as JSON (no comments; writes as in `log_text`)."""
    doc: dict = {"game": game_name}
    if seed is not None:
        doc["seed"] = seed
    doc["turn"] = []
    for turn in turns:
        writes = [{k: v for k, v in vars(w).items() if v not in (None, False)} for w in turn.writes]
        if not writes:
            writes = [{"die": die, "cell": ""} for die, _ in turn.dice]
        doc["turn"].append({"round": turn.round, "dice": dict(turn.dice), "write": writes})
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


# --- reading a game log -----------------------------------------------------------------

LOG_KEYS = ("game", "seed", "turn")
TURN_KEYS = ("round", "dice", "write")
WRITE_KEYS = ("die", "cell", "x", "nothing", "colour_change", "guard", "dupe_cell", "dupe_guard")


@dataclass(frozen=True)
class GameLog:
    source: str
    game: str
    seed: int | None
    turns: tuple[Turn, ...]


@functools.cache
def _die_names() -> dict[str, str]:
    names = {die: die for die in DICE}
    for lang in LANGUAGES:
        names.update({t(lang, _R + die).lower(): die for die in DICE})
    return names


def _die(value: object, problems: list[str], where: str) -> str | None:
    die = _die_names().get(value.strip().lower()) if isinstance(value, str) else None
    if die is None:
        problems.append(f"{where}: unknown die {value!r}; dice are {', '.join(DICE)}")
    return die


def _code(value: object, board: Board, problems: list[str], where: str) -> str | None:
    """A cell code, or None for "" / absent."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and value in board.region_of:
        return value
    hint = ""
    if isinstance(value, str) and value.strip().upper() in board.region_of:
        hint = f" (did you mean {value.strip().upper()}?)"
    problems.append(f"{where}: unknown cell {value!r} for {board.game}{hint}")
    return None


def _flag(raw: dict, key: str, problems: list[str], where: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        problems.append(f"{where}: {key}: {value!r} is not true or false")
        return False
    return value


def _unknown_keys(raw: dict, valid: tuple[str, ...], problems: list[str], where: str) -> None:
    for key in raw:
        if key not in valid:
            problems.append(f"{where}{key}: unknown key; valid keys are {', '.join(valid)}")


def _parse_write(raw: object, board: Board, problems: list[str], where: str) -> Write | None:
    if not isinstance(raw, dict):
        problems.append(f"{where}: expected a table with die and cell, x or nothing")
        return None
    before = len(problems)
    _unknown_keys(raw, WRITE_KEYS, problems, f"{where}: ")
    if "die" not in raw:
        problems.append(f"{where}: die: missing; say which die, e.g. die = \"red\"")
        return None
    die = _die(raw["die"], problems, f"{where}: die")
    cell = _code(raw.get("cell"), board, problems, f"{where}: cell")
    x = _code(raw.get("x"), board, problems, f"{where}: x")
    dupe_cell = _code(raw.get("dupe_cell"), board, problems, f"{where}: dupe_cell")
    flags = {key: _flag(raw, key, problems, where)
             for key in ("nothing", "colour_change", "guard", "dupe_guard")}
    if len(problems) > before:
        return None
    targets = [key for key, v in (("cell", cell), ("x", x), ("nothing", flags["nothing"])) if v]
    if len(targets) > 1:
        problems.append(f"{where}: give only one of cell, x or nothing (got {', '.join(targets)})")
        return None
    if not targets:
        if dupe_cell or any(flags.values()):
            problems.append(f"{where}: say where the die went: cell = \"CODE\", x = \"CODE\" or "
                            "nothing = true")
        return None  # not filled in yet
    if (flags["guard"] or dupe_cell) and not cell:
        problems.append(f"{where}: guard and dupe_cell need the number's cell (cell = \"CODE\")")
        return None
    if flags["dupe_guard"] and not dupe_cell:
        problems.append(f"{where}: dupe_guard needs dupe_cell")
        return None
    return Write(die, cell, x, flags["nothing"], flags["colour_change"], flags["guard"],
                 dupe_cell, flags["dupe_guard"])


def _parse_turn(raw: object, number: int, board: Board, problems: list[str]) -> Turn | None:
    where = f"turn {number}"
    if not isinstance(raw, dict):
        problems.append(f"{where}: expected a table with dice and write")
        return None
    before = len(problems)
    _unknown_keys(raw, TURN_KEYS, problems, f"{where}: ")
    expected_round = (number - 1) // TURNS_PER_ROUND + 1
    rnd = raw.get("round", expected_round)
    if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd != expected_round:
        problems.append(f"{where}: round = {rnd!r}, but turn {number} is in round {expected_round} "
                        f"({TURNS_PER_ROUND} turns a round)")
    faces: dict[str, int] = {}
    dice = raw.get("dice")
    if not isinstance(dice, dict) or len(dice) != DICE_PER_TURN:
        problems.append(f"{where}: dice: expected the {DICE_PER_TURN} dice drawn and their faces, "
                        "e.g. dice = { red = 3, white = 5 }")
    else:
        for name, face in dice.items():
            die = _die(name, problems, f"{where}: dice")
            if isinstance(face, bool) or not isinstance(face, int) or face not in FACES:
                problems.append(f"{where}: dice.{name}: {face!r} is not a face 1-6")
            elif die is not None:
                if die in faces:
                    problems.append(f"{where}: dice: {die} given twice")
                faces[die] = face
    writes_raw = raw.get("write", [])
    if not isinstance(writes_raw, list):
        problems.append(f"{where}: write: expected [[turn.write]] tables")
        writes_raw = []
    writes = []
    for i, w in enumerate(writes_raw, 1):
        write = _parse_write(w, board, problems, f"{where}, write {i}")
        if write is not None:
            writes.append(write)
    if len(problems) > before:
        return None
    return Turn(number, expected_round, tuple((d, faces[d]) for d in DICE if d in faces), tuple(writes))


def load_log(path: str | pathlib.Path, board: Board) -> GameLog:
    """Read and check a game log (TOML or JSON); every input problem is reported at once."""
    source = str(path)
    data = load_document(path)
    problems: list[str] = []
    _unknown_keys(data, LOG_KEYS, problems, "")
    game = data.get("game")
    if game is None:
        problems.append(f'game: missing; say which game the log is, e.g. game = "{board.game}"')
    elif game != board.game:
        problems.append(f"game: the log is for {game!r} but the sheet is {board.game}")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        problems.append(f"seed: {seed!r} is not a whole number")
        seed = None
    raw_turns = data.get("turn", [])
    if not isinstance(raw_turns, list):
        problems.append("turn: expected [[turn]] tables")
        raw_turns = []
    turns = [_parse_turn(raw, i, board, problems) for i, raw in enumerate(raw_turns, 1)]
    if problems:
        raise RnwError("\n".join(f"{source}: {p}" for p in problems))
    return GameLog(source, board.game, seed, tuple(turns))


# --- replaying a game log ------------------------------------------------------------------

class _Replay:
    """Plays a log's writes onto an empty sheet, collecting (merge key, Violation)."""

    def __init__(self, board: Board, lang: str):
        self.board, self.lang = board, lang
        self.state: dict[str, object] = {}  # cell -> int | Guarded | "X" | UNKNOWN
        self.found: list[tuple[int, object, Violation]] = []  # (turn, merge key, violation)
        self.uses = {p: 0 for p in POWERS}
        self.fourth: dict[str, int] = {}  # power -> the turn of its 4th use
        self.turn = 0

    def add(self, rule: str, cells: tuple[str, ...], key: str, merge: object = None, **values) -> None:
        message = t(self.lang, _R + key, turn=self.turn, **values)
        self.found.append((self.turn, merge, Violation(rule, cells, message)))

    def cell(self, code: str) -> str:
        return _cell(self.board, code)

    def die(self, die: str, face: int | None = None) -> str:
        name = _colour(self.lang, die)
        return name if face is None else t(self.lang, _R + "die_face", die=name, face=face)

    # the neighbour rule, without powers
    def legal(self, code: str, face: int) -> bool:
        state = self.state
        if code in state:
            return False
        for nb in self.board.neighbours[code]:
            m = state.get(nb)
            if type(m) is int and abs(m - face) > 1:
                return False
        return True

    def legal_cells(self, cells, face: int) -> list[str]:
        return sorted(c for c in cells if self.legal(c, face))

    def use(self, power: str) -> None:
        self.uses[power] += 1
        if self.uses[power] == USES + 1:
            self.fourth[power] = self.turn

    def play(self, turn: Turn) -> None:
        self.turn = turn.number
        faces = turn.faces
        used: set[str] = set()
        for w in turn.writes:
            if w.die not in faces:
                self.add("die-not-rolled", tuple(c for c in (w.cell, w.x, w.dupe_cell) if c),
                         "die_not_rolled", die=self.die(w.die),
                         rolled=", ".join(self.die(d, f) for d, f in turn.dice))
                face = None
            else:
                if w.die in used:
                    self.add("die-used-twice", (), "die_used_twice", die=self.die(w.die))
                face = faces[w.die]
            used.add(w.die)
            for power, on in (("colour_change", w.colour_change), ("guard", w.guard),
                              ("dupe", w.dupe_cell is not None), ("guard", w.dupe_guard)):
                if on:
                    self.use(power)
            wild = w.die == WILD or w.colour_change
            if w.cell is not None:
                self.number(w, w.cell, face, w.guard, wild)
                if w.dupe_cell is not None:
                    self.number(w, w.dupe_cell, face, w.dupe_guard, wild)
            elif w.x is not None:
                self.cross(w, face, wild)
            elif face is not None:
                self.nothing(w.die, face, wild, "nothing_done")
        for die, face in turn.dice:
            if die not in used:
                self.nothing(die, face, die == WILD, "no_write")

    def number(self, w: Write, code: str, face: int | None, guard: bool, wild: bool) -> None:
        """Write the die's face in `code` (its first cell or its dupe's: each goes in the die's
        region, and a wild die's anywhere, "en dos regiones diferentes" too)."""
        board, state = self.board, self.state
        if code in state:
            self.add("written-twice", (code,), "written_twice", cell=self.cell(code),
                     value=_show(self.lang, state[code]) if state[code] != UNKNOWN else "?")
        if not wild and board.region_of[code] != w.die:
            self.add("wrong-region", (code,), "wrong_region", die=self.die(w.die),
                     cell=self.cell(code), region=_colour(self.lang, board.region_of[code]))
        if face is None:
            state[code] = UNKNOWN
            return
        if not guard:
            for nb in sorted(board.neighbours[code]):
                m = state.get(nb)
                if type(m) is int and abs(m - face) > 1:
                    pair = tuple(sorted((code, nb)))
                    self.add("neighbour", pair, "neighbour_at", ("neighbour", pair), value=face,
                             cell=self.cell(code), other_value=m, other=self.cell(nb))
        state[code] = Guarded(face) if guard else face

    def cross(self, w: Write, face: int | None, wild: bool) -> None:
        board, state, code = self.board, self.state, w.x
        if code in state:
            self.add("written-twice", (code,), "written_twice", cell=self.cell(code),
                     value=_show(self.lang, state[code]) if state[code] != UNKNOWN else "?")
        if not wild and board.region_of[code] != w.die:
            self.add("wrong-region", (code,), "wrong_region", die=self.die(w.die),
                     cell=self.cell(code), region=_colour(self.lang, board.region_of[code]))
        if face is not None:
            legal = self.legal_cells(board.cells if wild else board.regions[w.die], face)
            if legal:
                self.add("missed-number", (code,), "missed_number_x", cell=self.cell(code),
                         die=self.die(w.die), face=face, legal=self.cell(legal[0]))
        state[code] = CROSSED

    def nothing(self, die: str, face: int, wild: bool, key: str) -> None:
        board = self.board
        cells = board.cells if wild else board.regions[die]
        legal = self.legal_cells(cells, face)
        if legal:
            self.add("missed-number", tuple(legal), "missed_number_" + key, die=self.die(die),
                     face=face, legal=self.cell(legal[0]))
            return
        empty = sorted(c for c in cells if c not in self.state)
        full_region = any(all(c in self.state for c in region) for region in board.regions.values())
        if empty and not (wild and full_region):
            self.add("missed-x", tuple(empty), "missed_x_" + key, die=self.die(die), face=face)


def _check_dice(log: GameLog, lang: str) -> list[tuple[int, Violation]]:
    """The bag (no die twice in a round), the game's length and the seed's dice, by turn."""
    found = []
    seeded = roll_game(log.seed) if log.seed is not None else []

    def show(dice: tuple[tuple[str, int], ...]) -> str:
        return ", ".join(t(lang, _R + "die_face", die=_colour(lang, d), face=f) for d, f in dice)

    drawn: dict[int, set[str]] = {}
    for turn in log.turns:
        n = turn.number
        if n == TURNS + 1:
            found.append((n, Violation("round-count", (), t(lang, _R + "too_many_turns", turn=n,
                                                            rounds=ROUNDS, turns=TURNS))))
        bag = drawn.setdefault(turn.round, set())
        for die, _ in turn.dice:
            if die in bag:
                found.append((n, Violation("dice-bag", (), t(lang, _R + "dice_bag", turn=n,
                                                             die=_colour(lang, die), round=turn.round))))
            bag.add(die)
        if seeded and n <= TURNS and turn.dice != seeded[n - 1].dice:
            found.append((n, Violation("seed-mismatch", (), t(
                lang, _R + "seed_mismatch", turn=n, seed=log.seed, log=show(turn.dice),
                seeded=show(seeded[n - 1].dice)))))
    return found


def _same(a: object, b: object) -> bool:
    blank = (None, CROSSED)
    return a == b or (a in blank and b in blank)


def replay(entries: Entries, board: Board, log_path: str | pathlib.Path, lang: str) -> Report:
    """Audit the sheet, then replay the game log from an empty sheet and append what it breaks
    (see the module docstring); details gain a "log" entry."""
    log = load_log(log_path, board)
    sheet = _audit(entries, board, lang)
    violations = list(sheet.violations)
    index: dict[object, int] = {}
    for i, v in enumerate(violations):
        if v.rule == "neighbour":
            index[("neighbour", v.cells)] = i
        elif v.rule == "guard-count":
            index[("power", "guard")] = i
    powers_over = [p for p in POWERS if sheet.details["counters"][p] > USES]
    for p, i in zip(powers_over, (i for i, v in enumerate(violations) if v.rule == "power-count")):
        index[("power-count", p)] = i

    played = [turn for turn in log.turns if turn.writes]
    last = played[-1].number if played else 0
    run = _Replay(board, lang)
    for turn in log.turns[:last]:
        run.play(turn)

    counters = sheet.details["counters"]
    run.turn = _END
    for power in POWERS:
        name = t(lang, _R + power)
        if run.uses[power] > USES:
            run.add("power-count", (), "power_count_log", ("power-count", power), power=name,
                    count=run.uses[power], fourth=run.fourth[power], most=USES)
        if run.uses[power] > counters[power]:
            run.add("power-unticked", (), "power_unticked", ("power", power), power=name,
                    count=run.uses[power], ticked=counters[power])
    for code in sorted(board.cells):
        logged, shown = run.state.get(code), entries.cells.get(code)
        if logged != UNKNOWN and not _same(logged, shown):
            run.add("log-mismatch", (code,), "log_mismatch", cell=run.cell(code),
                    log=_show(lang, logged), sheet=_show(lang, shown))

    found = [(n, None, v) for n, v in _check_dice(log, lang)] + run.found
    found.sort(key=lambda item: item[0])  # stable: within a turn, dice first, then writes
    log_violations = []
    merged = 0
    for _, merge, v in found:
        if merge is not None and merge in index:
            i = index[merge]
            if merge[0] != "power":  # the same fault: the sheet's violation, with the turn
                violations[i] = Violation(violations[i].rule, violations[i].cells, v.message)
            merged += 1
            continue
        log_violations.append(v)
    violations += log_violations

    details = dict(sheet.details)
    details["violations"] = len(violations)
    details["log"] = {
        "source": log.source,
        "seed": log.seed,
        "turns": len(log.turns),
        "turns_played": last,
        "rounds_played": (last + TURNS_PER_ROUND - 1) // TURNS_PER_ROUND,
        "powers": dict(run.uses),
        "violations": len(log_violations),
        "merged": merged,
    }
    return Report(board.game, entries.variant, entries.source,
                  sheet.xs + sheet.blanks + len(violations), violations, details)
