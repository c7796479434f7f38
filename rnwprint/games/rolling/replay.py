"""Rolling America / Rolling España: the replay of a game log (the format is described in
rules.py) against a finished typed-in sheet."""

from __future__ import annotations

import pathlib

from rnwprint.core.entries import CROSSED, Entries, Guarded
from rnwprint.core.report import Report, Violation
from rnwprint.games.rolling.log import GameLog, Turn, Write, load_log, roll_game
from rnwprint.games.rolling.rules import (_END, POWERS, ROUNDS, TURNS, TURNS_PER_ROUND, UNKNOWN, USES, too_far,
                                          WILD, Board, NAME_KEYS, _audit, _cell, _colour, _show, load_board,
                                          written_x)
from rnwprint.locale import t


# --- replaying a game log ------------------------------------------------------------------

class _Replay:
    """Plays a log's writes onto an empty sheet, collecting (merge key, Violation)."""

    def __init__(self, board: Board, lang: str):
        self.board, self.lang = board, lang
        self.state: dict[str, object] = {}  # cell -> int | Guarded | "X" | UNKNOWN
        self.found: list[tuple[int, object, Violation]] = []  # (turn, merge key, violation)
        self.uses = {p: 0 for p in POWERS}
        self.fourth: dict[str, int] = {}  # power -> the turn of its 4th use
        self.guards = 0  # numbers circled so far
        self.unguarded: set[str] = set()  # circled after the three guards: bound as plain numbers
        self.turn = 0

    def add(self, rule: str, cells: tuple[str, ...], key: str, merge: object = None, **values) -> None:
        message = t(self.lang, key, turn=self.turn, **values)
        self.found.append((self.turn, merge, Violation(rule, cells, message)))

    def cell(self, code: str) -> str:
        return _cell(self.board, code)

    def die(self, die: str, face: int | None = None) -> str:
        name = _colour(self.lang, die)
        return name if face is None else t(self.lang, "rolling-audit.die_face", die=name, face=face)

    # the neighbour rule, without powers
    def bound(self, code: str) -> int | None:
        """The number in `code` the neighbour rule binds: a plain one, or a circle after the three guards."""
        m = self.state.get(code)
        if type(m) is Guarded and code in self.unguarded:
            return m.value
        return m if type(m) is int else None

    def legal(self, code: str, face: int) -> bool:
        if code in self.state:
            return False
        return not any(m is not None and too_far(m, face) for m in map(self.bound, self.board.neighbours[code]))

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
                         "rolling-audit.die_not_rolled", die=self.die(w.die),
                         rolled=", ".join(self.die(d, f) for d, f in turn.dice))
                face = None
            else:
                if w.die in used:
                    self.add("die-used-twice", (), "rolling-audit.die_used_twice", die=self.die(w.die))
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
                self.nothing(w.die, face, wild, "rolling-audit.missed_number_nothing_done",
                             "rolling-audit.missed_x_nothing_done")
        for die, face in turn.dice:
            if die not in used:
                self.nothing(die, face, die == WILD, "rolling-audit.missed_number_no_write",
                             "rolling-audit.missed_x_no_write")

    def number(self, w: Write, code: str, face: int | None, guard: bool, wild: bool) -> None:
        """Write the die's face in `code` (its first cell or its dupe's: each goes in the die's
        region, and a wild die's anywhere, "en dos regiones diferentes" too)."""
        board, state = self.board, self.state
        self.check_place(code, w.die, wild)
        if guard:
            self.guards += 1
            if self.guards > USES:  # "Tres veces durante la partida podrás resguardar un número"
                self.unguarded.add(code)
                guard = False
        if face is None:
            state[code] = UNKNOWN
            return
        if not guard:
            for nb in sorted(board.neighbours[code]):
                m = self.bound(nb)
                if m is not None and too_far(m, face):
                    pair = tuple(sorted((code, nb)))
                    self.add("neighbour", pair, "rolling-audit.neighbour_at", ("neighbour", pair), value=face,
                             cell=self.cell(code), other_value=m, other=self.cell(nb))
        state[code] = Guarded(face) if guard or code in self.unguarded else face

    def check_place(self, code: str, die: str, wild: bool) -> None:
        """A cell may be written once, and only in the die's region unless the die is wild."""
        board, state = self.board, self.state
        if code in state:
            self.add("written-twice", (code,), "rolling-audit.written_twice", cell=self.cell(code),
                     value=_show(self.lang, state[code]) if state[code] != UNKNOWN else "?")
        if not wild and board.region_of[code] != die:
            self.add("wrong-region", (code,), "rolling-audit.wrong_region", die=self.die(die),
                     cell=self.cell(code), region=_colour(self.lang, board.region_of[code]))

    def cross(self, w: Write, face: int | None, wild: bool) -> None:
        board, state, code = self.board, self.state, w.x
        self.check_place(code, w.die, wild)
        if face is not None and self.turn <= TURNS:  # past the game's end no number was owed
            legal = self.legal_cells(board.cells if wild else board.regions[w.die], face)
            if legal:
                self.add("missed-number", (code,), "rolling-audit.missed_number_x", cell=self.cell(code),
                         die=self.die(w.die), face=face, legal=self.cell(legal[0]))
        state[code] = CROSSED

    def nothing(self, die: str, face: int, wild: bool, number_key: str, x_key: str) -> None:
        if self.turn > TURNS:  # "La partida termina al cabo de 8 rondas": a die after it owes nothing
            return
        board = self.board
        cells = board.cells if wild else board.regions[die]
        legal = self.legal_cells(cells, face)
        if legal:
            self.add("missed-number", tuple(legal), number_key, die=self.die(die),
                     face=face, legal=self.cell(legal[0]))
            return
        empty = sorted(c for c in cells if c not in self.state)
        full_region = any(all(c in self.state for c in region) for region in board.regions.values())
        if empty and not (wild and full_region):
            self.add("missed-x", tuple(empty), x_key, die=self.die(die), face=face)


def _check_dice(log: GameLog, lang: str) -> list[tuple[int, object, Violation]]:
    """The bag (no die twice in a round), the game's length and the seed's dice, by turn, each
    with its merge key (the game's length is the sheet's `round-count` too)."""
    found = []
    seeded = roll_game(log.seed) if log.seed is not None else []

    def show(dice: tuple[tuple[str, int], ...]) -> str:
        return ", ".join(t(lang, "rolling-audit.die_face", die=_colour(lang, d), face=f) for d, f in dice)

    drawn: dict[int, set[str]] = {}
    for turn in log.turns:
        n = turn.number
        if n == TURNS + 1:
            found.append((n, ("round-count",), Violation("round-count", (), t(
                lang, "rolling-audit.too_many_turns", turn=n, rounds=ROUNDS, turns=TURNS))))
        bag = drawn.setdefault(turn.round, set())
        for die, _ in turn.dice:
            if die in bag:
                found.append((n, None, Violation("dice-bag", (), t(lang, "rolling-audit.dice_bag", turn=n,
                                                                   die=_colour(lang, die), round=turn.round))))
            bag.add(die)
        if seeded and n <= TURNS and turn.dice != seeded[n - 1].dice:
            found.append((n, None, Violation("seed-mismatch", (), t(
                lang, "rolling-audit.seed_mismatch", turn=n, seed=log.seed, log=show(turn.dice),
                seeded=show(seeded[n - 1].dice)))))
    return found


def _same(a: object, b: object) -> bool:
    blank = (None, CROSSED)
    return a == b or (a in blank and b in blank)


def replay_game(game_name: str, entries: Entries, log_path: str | pathlib.Path, lang: str) -> Report:
    """The game's audit against a game log (Game.replay)."""
    return replay(entries, load_board(game_name), log_path, lang)


def replay(entries: Entries, board: Board, log_path: str | pathlib.Path, lang: str) -> Report:
    """Audit the sheet, then replay the game log from an empty sheet and append what it breaks
    (see the module docstring); details gain a "log" entry."""
    log = load_log(log_path, board)
    played = [turn for turn in log.turns if turn.writes]
    last = played[-1].number if played else 0
    run = _Replay(board, lang)
    for turn in log.turns[:last]:
        run.play(turn)
    # the log says which circles it wrote were the three guards; the sheet alone could only guess
    logged = {code: code not in run.unguarded for code, m in run.state.items() if type(m) is Guarded}
    sheet = _audit(entries, board, lang, logged)
    violations = list(sheet.violations)
    index: dict[object, int] = {}
    for i, v in enumerate(violations):
        if v.rule == "neighbour":
            index[("neighbour", v.cells)] = i
        elif v.rule == "guard-count":  # circles over the guards ticked: a guard unticked, or a 4th
            index[("power", "guard")] = index[("power-count", "guard")] = i
        elif v.rule == "round-count":  # rounds over 8 ticked; the log's turns past the 24th say the same
            index[("round-count",)] = i
    powers_over = [p for p in POWERS if sheet.details["counters"][p] > USES]
    for p, i in zip(powers_over, (i for i, v in enumerate(violations) if v.rule == "power-count")):
        index[("power-count", p)] = i

    counters = sheet.details["counters"]
    run.turn = _END
    for power in POWERS:
        name = t(lang, NAME_KEYS[power])
        if run.uses[power] > USES:
            run.add("power-count", (), "rolling-audit.power_count_log", ("power-count", power), power=name,
                    count=run.uses[power], fourth=run.fourth[power], most=USES)
        if min(run.uses[power], USES) > counters[power]:  # a use past the 3rd is power-count's fault
            run.add("power-unticked", (), "rolling-audit.power_unticked", ("power", power), power=name,
                    count=run.uses[power], ticked=counters[power])
    rounds = last // TURNS_PER_ROUND  # each round ended ticks "la primera casilla vacía de 'ronda'"
    if rounds > counters["rounds"]:
        run.add("rounds-unticked", (), "rolling-audit.rounds_unticked", count=rounds, ticked=counters["rounds"])
    for code in sorted(board.cells):
        logged, shown = run.state.get(code), entries.cells.get(code)
        if logged != UNKNOWN and not _same(logged, shown):
            run.add("log-mismatch", (code,), "rolling-audit.log_mismatch", cell=run.cell(code),
                    log=_show(lang, logged), sheet=_show(lang, shown))

    found = _check_dice(log, lang) + run.found
    found.sort(key=lambda item: item[0])  # stable: within a turn, dice first, then writes
    log_violations = []
    merged = 0
    for _, merge, v in found:
        if merge is not None and merge in index:
            i = index[merge]
            if violations[i].rule == v.rule:  # the same fault: the sheet's violation, with the turn
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
    score = sheet.xs + sheet.blanks + len(violations)
    return Report(board.game, entries.variant, entries.source, score,
                  violations + written_x(entries, sheet, score, lang), details)
