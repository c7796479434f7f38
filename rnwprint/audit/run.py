"""File -> Report: load a typed-in file (or read a photo), find the game, check the entries,
apply its rules."""

from __future__ import annotations

import pathlib

from rnwprint.audit.entries import Entries, load_document, parse_entries
from rnwprint.audit.report import Report
from rnwprint.errors import RnwError

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff")


def is_photo(path: str | pathlib.Path) -> bool:
    return pathlib.Path(path).suffix.lower() in PHOTO_SUFFIXES


def audit_file(path: str | pathlib.Path, lang: str = "en",
               log: str | pathlib.Path | None = None) -> Report:
    """Audit a typed-in sheet or a photo of one; with `log`, also replay that game log."""
    from rnwprint.games import get_game

    unsure: tuple[str, ...] = ()
    coarse = 0.0
    if is_photo(path):
        from rnwprint.photo.pipeline import read_photo

        result = read_photo(path)
        game = get_game(result.identity.game, str(path))
        entries = result.entries()
        unsure = tuple(result.unsure)
        coarse = result.photo_px_per_mm if result.too_coarse else 0.0
    else:
        data = load_document(path)
        name = data.get("game")
        if not isinstance(name, str):
            raise RnwError("game: missing; say which game the sheet is, e.g. game = \"twenty-one\"", str(path))
        game = get_game(name, f"{path}: game")
        entries = parse_entries(path, data, game)
    report = _apply_rules(game, entries, lang, log)
    report.unsure = unsure
    report.coarse_photo = coarse
    return report


def _apply_rules(game, entries: Entries, lang: str, log) -> Report:
    if log is None:
        return game.audit(entries, lang)
    if game.replay is None:
        raise RnwError(f"{game.name} has no game log", "--log")
    return game.replay(entries, pathlib.Path(log), lang)
