"""Typed-in sheet files (TOML, or JSON of the same shape) -> checked Entries."""

from __future__ import annotations

import datetime
import json
import math
import pathlib
import re
import reprlib
import tomllib
from dataclasses import dataclass, field

from rnwprint.core.errors import RnwError, printable
from rnwprint.core.inputs import cannot_read, open_input

TOP_LEVEL_KEYS = ("game", "variant", "lang", "cells", "counters", "totals")
MAX_TEXT_BYTES = 1_000_000  # the longest real file (a Rolling America log) has 8 KB
MAX_DEPTH = 20  # levels of tables and lists; a log's turn.write tables are 4 deep
MAX_PROBLEMS = 20  # a file's problems said, one line each; the rest counted
MAX_DIGITS = 100  # no sheet holds a longer number; sums of such numbers still print (Python stops at 4,300 digits)
CROSSED = "X"
# ASCII digits only (int() would also take "٦" or "６"); "5.0" as 5.0 is taken: a spreadsheet's export
_GUARDED = re.compile(r"^\(\s*(-?[0-9]+)(?:\.0+)?\s*\)$")
_WHOLE = re.compile(r"^(-?[0-9]+)(?:\.0+)?$")


@dataclass(frozen=True)
class Guarded:
    """A circled number: written as "(4)" in a typed-in file."""

    value: int

    def __str__(self) -> str:
        return f"({self.value})"


Mark = int | str | Guarded  # str is only ever CROSSED


@dataclass
class Entries:
    source: str
    game: str
    variant: str
    cells: dict[str, Mark] = field(default_factory=dict)  # blank cells are absent
    counters: dict[str, int] = field(default_factory=dict)
    lang: str | None = None
    totals: dict[str, int] = field(default_factory=dict)  # score boxes the player wrote in (blank: absent)
    ticked: tuple[str, ...] | None = None  # the tick boxes a photo saw ticked (typed in: only counted, None)
    page: str | None = None  # the paper a photographed sheet was printed on (typed in: not said, None)


def read_text(path: str | pathlib.Path, what: str) -> str:
    """A typed-in text file (`what` names its format for messages): UTF-8 with or without
    a byte-order mark (Windows Notepad writes one), at most MAX_TEXT_BYTES."""
    return decode_text(read_start(path), str(path), what)


def read_start(path: str | pathlib.Path) -> bytes:
    """The file's first MAX_TEXT_BYTES + 1 bytes: all of a file that is not too large."""
    try:
        with open_input(path) as f:
            return f.read(MAX_TEXT_BYTES + 1)
    except OSError as e:
        raise RnwError(cannot_read(e, path), str(path)) from None


def decode_text(raw: bytes, where: str, what: str) -> str:
    if len(raw) > MAX_TEXT_BYTES:
        raise RnwError(f"larger than {MAX_TEXT_BYTES:,} bytes: too large for {what}", where)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RnwError(_not_utf8(raw, e.start, what), where) from None
    if "\x00" in text:  # valid UTF-8, but no text editor writes NUL: UTF-16 or -32 without its mark
        raise RnwError(_not_utf8(raw, text.index("\x00"), what), where)
    return text


def _not_utf8(raw: bytes, at: int, what: str) -> str:
    """Why bytes that are not UTF-8 are refused: text in another encoding (UTF-16, Latin-1 or
    Windows-1252, as older editors save Spanish) is told apart from a file that is no text."""
    if raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return f"UTF-32 text: save the {what} file as UTF-8"
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return f"UTF-16 text: save the {what} file as UTF-8"
    pairs = raw[: len(raw) // 2 * 2]
    if pairs and (pairs[1::2].count(0) > len(pairs) // 4 or pairs[0::2].count(0) > len(pairs) // 4):
        return f"UTF-16 text without its byte order mark: save the {what} file as UTF-8"
    if b"\x00" not in raw:
        line = raw.count(b"\n", 0, at) + 1
        column = at - (raw.rfind(b"\n", 0, at) + 1) + 1
        return (f"line {line}, column {column}: byte 0x{raw[at]:02X} is not UTF-8 (Latin-1 or Windows text, "
                f"as older editors save ñ and á?): save the {what} file as UTF-8")
    return f"not a text file (expected UTF-8 {what})"


def load_document(path: str | pathlib.Path, raw: bytes | None = None) -> dict:
    """Read a TOML or JSON file into a dict; `raw`: its bytes if already read (by read_start:
    a pipe cannot be read twice). JSON for text starting with "{" (which TOML cannot), TOML
    otherwise, except that a .json name is read as JSON when it is not TOML."""
    where = str(path)
    text = read_text(path, "TOML or JSON") if raw is None else decode_text(raw, where, "TOML or JSON")
    try:
        if text.lstrip().startswith("{"):
            data = _json(text)
        elif pathlib.Path(path).suffix.lower() == ".json":
            try:
                data = tomllib.loads(text)  # TOML saved under a .json name
            except tomllib.TOMLDecodeError:
                data = _json(text)  # (or JSON that is no object: said below)
        else:
            data = tomllib.loads(text)
    except RecursionError:
        raise RnwError(f"{_json_place(text)}nested more than {MAX_DEPTH} levels deep (tables or lists inside "
                       "each other)", where) from None
    except _Refused as e:
        raise RnwError(f"{_json_place(text, e.token)}{e}", where) from None
    except json.JSONDecodeError as e:
        raise RnwError(f"malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}", where) from None
    except tomllib.TOMLDecodeError as e:
        raise RnwError(f"malformed TOML: {e}{_toml_hint(text, str(e))}", where) from None
    except ValueError as e:  # tomllib turns an integer past Python's digit limit into this
        raise RnwError(_long_number_line(text) or f"malformed TOML: {shown(str(e))}", where) from None
    if not isinstance(data, dict):
        raise RnwError("expected an object with game, variant and cells", where)
    _check_tree(data, where)
    return data


_AT = re.compile(r"\(at line (\d+), column (\d+)\)$")


def _toml_hint(text: str, error: str) -> str:
    """What the commonest slips behind tomllib's `error` mean: a word not in quotes (R1C2 = X),
    a key given twice."""
    at = _AT.search(error)
    if not at:
        return ""
    lines = text.splitlines()
    number = int(at.group(1))
    line = lines[number - 1] if 0 < number <= len(lines) else ""
    key, _, value = line.partition("=")
    value = value.split("#")[0]
    if error.startswith("Invalid value") and re.fullmatch(r"\s*[A-Za-z][\w ]*", value):
        return f": text goes in quotes ({key.strip()} = \"{value.strip()}\")"
    if error.startswith("Cannot overwrite a value") and key.strip():
        return f": {key.strip()} is given twice; each key may appear once"
    return ""


def _json(text: str):
    return json.loads(text, object_pairs_hook=_unique_keys, parse_int=_json_int, parse_constant=_no_constant)


class _Refused(Exception):
    """Raised from inside the JSON parser's hooks; becomes an RnwError naming the file (and,
    for a `token` of the text, its place)."""

    def __init__(self, message: str, token: str | None = None):
        super().__init__(message)
        self.token = token


def _json_place(text: str, token: str | None = None) -> str:
    """'line L, column C: ' of the first `token` outside strings in JSON text or, with none,
    of the first bracket nested past MAX_DEPTH; "" where there is none (not JSON)."""
    if not text.lstrip().startswith("{"):
        return ""
    depth, in_string, escaped = 0, False, False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if token is None and depth > MAX_DEPTH:
                break
        elif ch in "]}":
            depth -= 1
        elif token and text.startswith(token, i):
            break
    else:
        return ""
    return f"line {text.count(chr(10), 0, i) + 1}, column {i - text.rfind(chr(10), 0, i)}: "


class _LongNumber:
    def __init__(self, digits: int) -> None:
        self.digits = digits


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(f"duplicate key {shown(key)}: each key may appear once in an object")
        out[key] = value
    return out


def _json_int(text: str) -> int | _LongNumber:
    digits = len(text.lstrip("-"))
    return _LongNumber(digits) if digits > MAX_DIGITS else int(text)


def _no_constant(name: str):
    raise _Refused(f"{name} is not a number JSON allows", name)


_TOO_LONG = 10 ** MAX_DIGITS


def _check_tree(data: dict, where: str) -> None:
    """Refuse nesting past MAX_DEPTH and integers past MAX_DIGITS, naming the key (without
    recursion: the checks below must not overflow on the input they refuse)."""
    stack: list[tuple[object, str, int]] = [(data, "", 0)]
    while stack:
        value, key, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RnwError(f"nested more than {MAX_DEPTH} levels deep (tables or lists inside each other)",
                           f"{where}: {key}")
        if isinstance(value, dict):
            stack += [(v, f"{key}.{_name(k)}" if key else _name(k), depth + 1) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(v, f"{key}[{i}]", depth + 1) for i, v in enumerate(value)]
        elif isinstance(value, _LongNumber):
            raise RnwError(f"a number of {value.digits:,} digits; at most {MAX_DIGITS:,}", f"{where}: {key}")
        elif isinstance(value, int) and abs(value) >= _TOO_LONG:
            raise RnwError(f"a number of more than {MAX_DIGITS:,} digits", f"{where}: {key}")


def _long_number_line(text: str) -> str | None:
    """'line N: KEY = a number of D digits' for the first integer past MAX_DIGITS in TOML text."""
    for n, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r"\d[\d_]*", line):
            digits = m.end() - m.start() - m.group().count("_")
            if digits > MAX_DIGITS:
                key = line[:m.start()].split("=")[0].strip() if "=" in line[:m.start()] else ""
                return f"line {n}: {_name(key)} = a number of {digits:,} digits; at most {MAX_DIGITS:,}"
    return None


_MARKED = re.compile(r"(-?[0-9]+)\s*[xX✓✗]$")

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = 40
_REPR.maxlevel, _REPR.maxlist, _REPR.maxdict = 2, 4, 4


def shown(value: object) -> str:
    """A value as the file wrote it (true, null, 1979-05-27; else its repr), cut short:
    messages stay one readable line whatever the file holds."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"  # (JSON's 1e400 too)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return _REPR.repr(value)


def whole_number(value: object) -> int | None:
    """A whole number as a typed-in file may give it (5, 5.0, "5" or "5.0", ASCII digits), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:  # 1e300 is no number anyone wrote
        return int(value)
    if isinstance(value, str) and (m := _WHOLE.match(value.strip())) and len(m.group(1).lstrip("-")) <= MAX_DIGITS:
        return int(m.group(1))
    return None


def _name(key: str) -> str:
    """A key as written, or quoted and cut short if it is long or has unprintable characters."""
    return key if key.isprintable() and len(key) <= 40 else shown(key)


_NUMBER_TABLES = {  # table -> (what a key names, what keys name, what the table holds)
    "counters": ("counter", "counters", "counter = number"),
    "totals": ("score box", "score boxes", "score box = the number written in it"),
}


def _whole_numbers(data: dict, table: str, known: dict[str, str], problems: list[str],
                   blank_ok: bool = False) -> dict[str, int]:
    """The table's known names -> whole numbers >= 0 (`blank_ok`: "" for a blank, left out);
    each problem appended to `problems`."""
    what, whats, shape = _NUMBER_TABLES[table]
    given = data.get(table, {})
    if not isinstance(given, dict):
        problems.append(f"{table}: expected a table of {shape}")
        return {}
    numbers = {}
    for name, value in given.items():
        if name not in known:
            problems.append(f"{table}.{_name(name)}: unknown {what}; valid {whats}: "
                            f"{', '.join(known) or 'none for this game'}")
        elif blank_ok and isinstance(value, str) and value.strip() == "":
            continue
        elif (number := whole_number(value)) is None or number < 0:
            problems.append(f"{table}.{name}: {shown(value)} is not a whole number >= 0"
                            + (' (or "" for blank)' if blank_ok else ""))
        else:
            numbers[name] = number
    return numbers


def parse_mark(value: object, allow_guarded: bool) -> Mark | None:
    """One typed-in value -> int, "X", Guarded or None (blank). ValueError says why not."""
    expected = 'a whole number, "X" or "(n)"' if allow_guarded else 'a whole number or "X"'
    if value is None:  # JSON's null: a blank cell is left out, or ""
        raise ValueError(f'null is not {expected} (a blank cell is left out, or "")')
    if isinstance(value, bool):
        raise ValueError(f"{shown(value)} is not {expected}")
    number = whole_number(value)  # 5, 5.0, "5"
    if number is not None:
        return number
    if isinstance(value, float):
        if math.isinf(value):
            raise ValueError("a number too large to be a whole number")
        if value.is_integer():  # 1e22: whole, but no sheet holds it
            raise ValueError(f"{shown(value)} is too large: no box holds a number that big")
        raise ValueError(f"{shown(value)} is not a whole number")
    if isinstance(value, (list, dict)):
        raise ValueError(f"{shown(value)} is not a single value")
    if isinstance(value, str):
        text = value.strip()
        if text == "":
            return None
        if text.upper() == CROSSED:
            return CROSSED
        m = _GUARDED.match(text)
        whole = _WHOLE.match(text)
        digits = whole.group(1) if whole else m.group(1) if m and allow_guarded else None
        if digits is not None and len(digits.lstrip("-")) > MAX_DIGITS:
            raise ValueError(f"a number of {len(digits.lstrip('-')):,} digits; at most {MAX_DIGITS:,}")
        if m and allow_guarded:
            return Guarded(int(m.group(1)))
        if marked := _MARKED.match(text):  # "6x": a number with the mark a hit gets beside it
            expected += f": type the number alone ({marked.group(1)}), without the mark beside it"
        raise ValueError(f"{shown(value)} is not {expected}")
    raise ValueError(f"{shown(value)} is not {expected}")


def parse_entries(path: str | pathlib.Path, data: dict, game) -> Entries:
    """Check a loaded document against `game` and report every problem at once."""
    source = str(path)
    problems: list[str] = []
    keys = tuple(k for k in TOP_LEVEL_KEYS if k != "totals" or game.totals) + game.extra_keys
    if game.replay is not None and "turn" in data and "cells" not in data:
        raise RnwError(f"a game log (as rnwprint roll writes), not a sheet: audit the sheet with it, "
                       f"rnwprint audit SHEET --log {pathlib.Path(source).name}", source)
    listed = ", ".join(k for k in keys if k != "counters" or game.counters)  # an empty table is allowed
    for key in data:
        if key not in keys:
            problems.append(f"{_name(key)}: unknown key; valid keys are {listed}")
    variant = data.get("variant", game.default_variant)
    if not isinstance(variant, str) or len(variant) > 500:  # a custom tower's code included
        raise RnwError(f"{shown(variant)} is not a variant name; choose one of: {game.variant_choices}",
                       f"{source}: variant")
    extra = {key: data[key] for key in game.extra_keys if key in data}
    try:
        found = game.variant_of(game.in_any_case(variant) if "variant" in data else None, extra)
    except ValueError as e:  # about the variant, or about a key of the game's own ("tower: ...")
        key, _, said = str(e).partition(": ")
        if key not in game.extra_keys:
            key, said = "variant", str(e)
        raise RnwError(said, f"{source}: {key}") from None
    if found is None:
        raise RnwError(f"unknown variant {shown(variant)} for {game.name}; choose one of: {game.variant_choices}",
                       f"{source}: variant")
    variant = found
    lang = data.get("lang", "")
    said = lang.strip().lower() if isinstance(lang, str) else None  # any case; "" as if left out
    if said != "" and said not in game.languages:
        problems.append(f"lang: {shown(lang)} is not a language of {game.name}; choose one of: "
                        f"{', '.join(game.languages)}")
    entries = Entries(source, game.name, variant, lang=said or None)

    cells = data.get("cells", {})
    if not isinstance(cells, dict):
        problems.append("cells: expected a table of cell id = value")
        cells = {}
    valid_ids = game.cell_ids(variant)
    for cell_id, value in cells.items():
        if cell_id not in valid_ids:
            why = game.unknown_cell(variant, cell_id) if game.unknown_cell else None
            problems.append(f"cells.{_name(cell_id)}: " + (why or f"unknown cell id for {game.name} {variant}"
                                                            f"{_suggest(cell_id, valid_ids)}"))
            continue
        try:
            mark = game.parse_value(value) if game.parse_value else parse_mark(value, game.allows_guarded)
        except ValueError as e:
            problems.append(f"cells.{cell_id}: {e}")
            continue
        if mark is not None:
            entries.cells[cell_id] = mark

    entries.counters = _whole_numbers(data, "counters", game.counters, problems)
    if game.totals:  # elsewhere "totals" is an unknown key, said above
        entries.totals = _whole_numbers(data, "totals", game.totals, problems, blank_ok=True)

    if problems:
        if len(problems) > MAX_PROBLEMS:  # a file of thousands of wrong keys: the first say enough
            problems = [*problems[:MAX_PROBLEMS], f"... and {len(problems) - MAX_PROBLEMS:,} more problems like these"]
        raise RnwError("\n".join(f"{printable(source)}: {p}" for p in problems))
    return entries


_LOOK_ALIKE = {c: group for group in ("1IL", "0O", "5S", "2Z", "8B") for c in group}


def _suggest(cell_id: str, valid_ids) -> str:
    """" (did you mean R1C2?)" for a typed id that is one valid id read wrong: in another
    case, with look-alike characters (RIC2, R1CZ), or with one character more, less, changed
    or swapped (TEX for TX); "" when no single id fits."""
    typed = str(cell_id).strip().upper()

    def alike(a: str, b: str) -> bool:
        return a == b or _LOOK_ALIKE.get(a, a) == _LOOK_ALIKE.get(b, b)

    for fits in (lambda v: len(v) == len(typed) and all(map(alike, typed, v)),
                 lambda v: _one_edit(typed, v)):
        found = [v for v in valid_ids if fits(v)]
        if len(found) == 1:
            return f" (did you mean {found[0]}?)"
    return ""


def _one_edit(a: str, b: str) -> bool:
    """Whether b is a with one character added, dropped, changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


# --- writing the typed-in format (a blank file, a photo's read): what parse_entries reads --------

Line = tuple[str, object, str | None]  # (key, value as a mark or a word, None: blank; comment or None)


def toml_value(value: object) -> str:
    """A mark or word as the typed-in file writes it: "" for blank, "X", "(4)", 5, "red city"."""
    if value is None:
        return '""'
    if isinstance(value, tuple):  # words (Catan's "red city"); more than one: two pieces on one place
        return f'"{value[0]}"' if len(value) == 1 else "[" + ", ".join(f'"{v}"' for v in value) + "]"
    if value == CROSSED:
        return '"X"'
    if isinstance(value, Guarded):
        return f'"({value.value})"'
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def typed_in(comments: list[str], keys: list[Line], cells: list[Line], counters: list[Line],
             totals: list[Line] = ()) -> str:
    """A typed-in sheet file: `comments` (# lines) first, the top-level `keys` (game, variant …),
    the [cells] table with its ids aligned, then the [counters] and [totals] tables if any."""
    def line(key: str, value: object, comment: str, width: int = 0) -> str:
        return f"{key:<{width}} = {toml_value(value)}" + (f"  # {comment}" if comment is not None else "")

    width = max(len(key) for key, _, _ in cells)
    lines = [f"# {c}" for c in comments] + [line(*k) for k in keys] + ["", "[cells]"]
    lines += [line(key, value, comment, width) for key, value, comment in cells]
    if counters:
        lines += ["", "[counters]"] + [line(*c) for c in counters]
    if totals:
        lines += ["", "[totals]"] + [line(*c, max(len(key) for key, _, _ in totals)) for c in totals]
    return "\n".join(lines) + "\n"
