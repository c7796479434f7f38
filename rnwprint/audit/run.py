"""File -> Report: load, find the game, check the entries, apply its rules."""

from __future__ import annotations

import pathlib

from rnwprint.audit.entries import load_document, parse_entries
from rnwprint.audit.report import Report
from rnwprint.errors import RnwError


def audit_file(path: str | pathlib.Path, lang: str = "en",
               log: str | pathlib.Path | None = None) -> Report:
    """Audit a typed-in sheet; with `log`, also replay that game log against it."""
    from rnwprint.games import get_game

    data = load_document(path)
    name = data.get("game")
    if not isinstance(name, str):
        raise RnwError("game: missing; say which game the sheet is, e.g. game = \"twenty-one\"", str(path))
    game = get_game(name, f"{path}: game")
    entries = parse_entries(path, data, game)
    if log is not None:
        if game.replay is None:
            raise RnwError(f"{game.name} has no game log", "--log")
        return game.replay(entries, pathlib.Path(log), lang)
    return game.audit(entries, lang)
