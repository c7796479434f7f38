"""Rolling America / Rolling España: the dice, and writing and reading game logs (the
format is described in rules.py)."""

from __future__ import annotations

import functools
import json
import pathlib
import random
from dataclasses import dataclass

from rnwprint.core.entries import load_document, shown
from rnwprint.core.errors import RnwError
from rnwprint.games.rolling.rules import (DICE, DICE_PER_TURN, FACES, NAME_KEYS, ROUNDS, TURNS_PER_ROUND, Board,
                                          _colour)
from rnwprint.locale import LANGUAGES, t


# --- the dice -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Write:
    """What the player did with one die (see the log format in rules.py)."""

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
    lines = [t(lang, "rolling-audit.roll_title", title=t(lang, NAME_KEYS[game_name]), seed=seed,
               rounds=ROUNDS, turns=TURNS_PER_ROUND)]
    for turn in turns:
        if (turn.number - 1) % TURNS_PER_ROUND == 0:
            lines.append(t(lang, "rolling-audit.round", round=turn.round))
        dice = "   ".join(f"{_colour(lang, die):<8} {face}" for die, face in turn.dice)
        lines.append(f"  {t(lang, 'rolling-audit.turn', turn=turn.number):<9} {dice}".rstrip())
    return "\n".join(lines) + "\n"


def _toml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def log_text(game_name: str, turns: list[Turn], lang: str = "en", seed: int | None = None) -> str:
    """A game log (TOML) for `turns`. Turns without writes get one blank write per die to
    fill in, so `log_text(game, roll_game(seed), lang, seed)` is the skeleton `roll -o`
    writes; turns with writes are written as they are (a complete, replayable log)."""
    lines = [f"# {line}" if line else "#" for line in t(lang, "rolling-audit.log_help").splitlines()]
    lines += ["", f"game = {_toml_str(game_name)}"]
    if seed is not None:
        lines.append(f"seed = {seed}")
    for turn in turns:  # dice by the language's names (the reader takes either language's)
        dice = ", ".join(f"{_colour(lang, die)} = {face}" for die, face in turn.dice)
        lines += ["", f"[[turn]]  # {t(lang, 'rolling-audit.turn', turn=turn.number)}",
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
                hint = t(lang, "rolling-audit.log_write_hint", die=_colour(lang, die), face=face)
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
SEEDS = range(1_000_000_000)  # as `roll --seed` takes them (cli_support.SEED)
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
        names.update({t(lang, NAME_KEYS[die]).lower(): die for die in DICE})
    return names


def _die(value: object, problems: list[str], where: str) -> str | None:
    die = _die_names().get(value.strip().lower()) if isinstance(value, str) else None
    if die is None:
        problems.append(f"{where}: unknown die {shown(value)}; dice are {', '.join(DICE)}")
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
    from rnwprint.games import game_key

    source = str(path)
    data = load_document(path)
    if not data:
        raise RnwError("empty file: expected a game log (as rnwprint roll -o writes)", source)
    if "cells" in data and "turn" not in data:
        raise RnwError("a typed-in sheet, not a game log (as rnwprint roll -o writes): give the sheet first and "
                       "the log after --log", source)
    problems: list[str] = []
    _unknown_keys(data, LOG_KEYS, problems, "")
    game = data.get("game")
    if game is None:
        problems.append(f'game: missing; say which game the log is, e.g. game = "{board.game}"')
    elif not isinstance(game, str) or game_key(game) != board.game:
        problems.append(f"game: the log is for {game!r} but the sheet is {board.game}")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        problems.append(f"seed: {seed!r} is not a whole number")
        seed = None
    elif seed is not None and seed not in SEEDS:
        problems.append(f"seed: {shown(seed)} is outside {SEEDS.start}-{SEEDS.stop - 1:,}, the seeds roll --seed takes")
        seed = None
    raw_turns = data.get("turn", [])
    if not isinstance(raw_turns, list):
        problems.append("turn: expected [[turn]] tables")
        raw_turns = []
    turns = [_parse_turn(raw, i, board, problems) for i, raw in enumerate(raw_turns, 1)]
    if problems:
        raise RnwError("\n".join(f"{source}: {p}" for p in problems))
    return GameLog(source, board.game, seed, tuple(turns))
