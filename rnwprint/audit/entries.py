"""Typed-in sheet files (TOML, or JSON of the same shape) -> checked Entries."""

from __future__ import annotations

import json
import pathlib
import re
import tomllib
from dataclasses import dataclass, field

from rnwprint.errors import RnwError

TOP_LEVEL_KEYS = ("game", "variant", "lang", "cells", "counters")
CROSSED = "X"
_GUARDED = re.compile(r"^\(\s*(-?\d+)\s*\)$")
_WHOLE = re.compile(r"^-?\d+$")


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


def load_document(path: str | pathlib.Path) -> dict:
    """Read a TOML or JSON file (chosen by extension) into a dict."""
    path = pathlib.Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise RnwError(f"cannot read file: {e.strerror}", str(path))
    try:
        if path.suffix.lower() == ".json":
            data = json.loads(raw.decode("utf-8"))
        else:
            data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise RnwError("not a text file (expected UTF-8 TOML or JSON)", str(path))
    except json.JSONDecodeError as e:
        raise RnwError(f"malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}", str(path))
    except tomllib.TOMLDecodeError as e:
        raise RnwError(f"malformed TOML: {e}", str(path))
    if not isinstance(data, dict):
        raise RnwError("expected an object with game, variant and cells", str(path))
    return data


def parse_mark(value: object, allow_guarded: bool) -> Mark | None:
    """One typed-in value -> int, "X", Guarded or None (blank). ValueError says why not."""
    if isinstance(value, bool) or value is None:
        raise ValueError(f"{value!r} is neither a whole number nor \"X\"")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value.is_integer():
            return int(value)
        raise ValueError(f"{value!r} is not a whole number")
    if isinstance(value, str):
        text = value.strip()
        if text == "":
            return None
        if text.upper() == CROSSED:
            return CROSSED
        if _WHOLE.match(text):
            return int(text)
        m = _GUARDED.match(text)
        if m and allow_guarded:
            return Guarded(int(m.group(1)))
        expected = 'a whole number, "X" or "(n)"' if allow_guarded else 'a whole number or "X"'
        raise ValueError(f"{value!r} is not {expected}")
    raise ValueError(f"{value!r} is not a single value")


def parse_entries(path: str | pathlib.Path, data: dict, game) -> Entries:
    """Check a loaded document against `game` and report every problem at once."""
    source = str(path)
    problems: list[str] = []
    keys = TOP_LEVEL_KEYS + game.extra_keys
    for key in data:
        if key not in keys:
            problems.append(f"{key}: unknown key; valid keys are {', '.join(keys)}")
    variant = data.get("variant", game.default_variant)
    extra = {key: data[key] for key in game.extra_keys if key in data}
    custom = None
    if game.custom_variant is not None and (extra or variant not in game.variants):
        try:
            custom = game.custom_variant(data.get("variant"), extra)
        except ValueError as e:
            raise RnwError(str(e), f"{source}: variant") from None
    if custom is not None:
        variant = custom
    elif not isinstance(variant, str) or variant not in game.variants:
        raise RnwError(f"unknown variant {variant!r} for {game.name}; choose one of: "
                       f"{', '.join(game.variants)}", f"{source}: variant")
    lang = data.get("lang")
    entries = Entries(source, game.name, variant, lang=lang if isinstance(lang, str) else None)

    cells = data.get("cells", {})
    if not isinstance(cells, dict):
        problems.append("cells: expected a table of cell id = value")
        cells = {}
    valid_ids = game.cell_ids(variant)
    for cell_id, value in cells.items():
        if cell_id not in valid_ids:
            problems.append(f"cells.{cell_id}: unknown cell id for {game.name} {variant}"
                            f"{_suggest(cell_id, valid_ids)}")
            continue
        try:
            mark = parse_mark(value, game.allows_guarded)
        except ValueError as e:
            problems.append(f"cells.{cell_id}: {e}")
            continue
        if mark is not None:
            entries.cells[cell_id] = mark

    counters = data.get("counters", {})
    if not isinstance(counters, dict):
        problems.append("counters: expected a table of counter = number")
        counters = {}
    for name, value in counters.items():
        if name not in game.counters:
            valid = ", ".join(game.counters) or "none for this game"
            problems.append(f"counters.{name}: unknown counter; valid counters: {valid}")
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            problems.append(f"counters.{name}: {value!r} is not a whole number >= 0")
        else:
            entries.counters[name] = value

    if problems:
        raise RnwError("\n".join(f"{source}: {p}" for p in problems))
    return entries


def _suggest(cell_id: str, valid_ids) -> str:
    upper = cell_id.upper()
    return f" (did you mean {upper}?)" if upper != cell_id and upper in valid_ids else ""
