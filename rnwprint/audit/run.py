"""File -> Report: load, find the game, check the entries, apply its rules."""

from __future__ import annotations

import pathlib

from rnwprint.audit.entries import load_document, parse_entries
from rnwprint.audit.report import Report
from rnwprint.errors import RnwError


def audit_file(path: str | pathlib.Path, lang: str = "en") -> Report:
    from rnwprint.games import get_game

    data = load_document(path)
    name = data.get("game")
    if not isinstance(name, str):
        raise RnwError("game: missing; say which game the sheet is, e.g. game = \"twenty-one\"", str(path))
    game = get_game(name, f"{path}: game")
    entries = parse_entries(path, data, game)
    return game.audit(entries, lang)
