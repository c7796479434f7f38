"""The disk cache of built sheets (rnwprint.cache): what the printer keeps, the reader and the
next print find, and what is never taken for it."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from rnwprint import cache
from rnwprint.app.sheets import printed
from rnwprint.core.sheet import Identity
from rnwprint.games import GAMES
from rnwprint.render.pdf import render_pdf


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("RNWPRINT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _refuse(*args):
    raise AssertionError("built the sheet again")


def _print(game: str = "rolling-america") -> bytes:
    return render_pdf(printed(game, None, "es", "a4", "pdf").sheets)


def test_a_printed_sheet_is_kept_and_the_next_print_takes_it_without_building(folder, monkeypatch):
    first = _print()
    assert [p.name.split("-")[0] for p in folder.iterdir()] == ["sheet"]
    game = GAMES["rolling-america"]
    monkeypatch.setitem(GAMES, game.name, dataclasses.replace(game, build=_refuse))
    assert _print() == first


def test_a_sheet_kept_by_the_printer_is_the_one_the_photo_reader_finds(folder):
    from rnwprint.photo.identity import _stored_sheet

    sheet = printed("twenty-one", "C", "en", "letter", "pdf").sheets[0]
    _stored_sheet.cache_clear()
    assert _stored_sheet(Identity("twenty-one", "C", "en", "letter", sheet.identity.layout)) == sheet


def test_an_entry_holding_another_sheet_or_damaged_is_built_again(folder, monkeypatch):
    first = _print()
    (entry,) = folder.iterdir()
    other = GAMES["twenty-one"].build("A", "es", "a4")
    entry.write_bytes(pickle.dumps(other))  # a sheet, but not the one its key names
    assert _print() == first
    entry.write_bytes(b"damaged")
    assert _print() == first
    assert pickle.loads(entry.read_bytes()).identity.game == "rolling-america"  # kept again


def test_nothing_is_kept_with_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv("RNWPRINT_CACHE", "")
    assert _print("twenty-one")
    assert not list(tmp_path.iterdir())


def test_the_cache_key_changes_with_any_file_of_rnwprint(tmp_path, monkeypatch):
    import os

    from rnwprint import cache

    monkeypatch.setenv("RNWPRINT_CACHE", str(tmp_path / "c"))
    key = cache._path("sheet", "x")
    assert key.parent == tmp_path / "c"
    assert cache._path("sheet", "y") != key != cache._path("print", "x")
    tree = tmp_path / "package"
    (tree / "games").mkdir(parents=True)
    (tree / "games" / "a.py").write_text("A = 1\n")
    (tree / "b.npz").write_bytes(b"data")
    before = cache.fingerprint_of(tree)
    assert cache.fingerprint_of(tree) == before
    (tree / "b.npz").write_bytes(b"datb")  # the same size, but modified later
    os.utime(tree / "b.npz", ns=(1, 10**18))
    changed = cache.fingerprint_of(tree)
    assert changed != before
    (tree / "games" / "a.py").write_text("A = 22\n")
    assert cache.fingerprint_of(tree) != changed
    (tree / "c.py").write_text("")
    assert cache.fingerprint_of(tree) not in (before, changed)
    monkeypatch.setenv("RNWPRINT_CACHE", "")
    assert cache._path("sheet", "x") is None
    assert cache.cached("sheet", "x", lambda: 7, lambda v: b"", lambda d: 0) == 7
