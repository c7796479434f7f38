"""The disk cache of built sheets (rnwprint.cache): what the printer keeps, the reader and the
next print find, and what is never taken for it."""

from __future__ import annotations

import dataclasses
import os
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


def _entry(data: bytes) -> bytes:
    """An entry as the cache writes one: its checksum, then the data."""
    return cache._digest(data).encode() + data


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


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_under_an_entrys_name_is_no_entry_and_does_not_hang(folder):
    """Something not a file where an entry would be (a named pipe nobody writes to) is passed
    over at once, and the entry is made in its place."""
    folder.mkdir()
    path = cache._path("guarded", "rolling-america")
    os.mkfifo(path)
    assert cache.load("guarded", "rolling-america", bytes) is None
    assert cache.cached("guarded", "rolling-america", lambda: b"1", bytes, bytes) == b"1"
    assert path.is_file() and cache.load("guarded", "rolling-america", bytes) == b"1"


def test_an_entry_holding_another_sheet_or_damaged_is_built_again(folder, monkeypatch):
    first = _print()
    (entry,) = folder.iterdir()
    other = GAMES["twenty-one"].build("A", "es", "a4")
    entry.write_bytes(_entry(pickle.dumps(other)))  # a sheet, but not the one its key names
    assert _print() == first
    entry.write_bytes(_entry(b"damaged"))
    assert _print() == first
    assert pickle.loads(entry.read_bytes()[cache.CHECK:]).identity.game == "rolling-america"  # kept again


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


def _sheet_command(cli, tmp_path, *args) -> bytes:
    target = tmp_path / "out.pdf"
    result = cli("sheet", *args, "-o", target)
    assert result.code == 0, result.err
    return target.read_bytes()


def _no_drawing(*args):
    raise AssertionError("drew the sheet again")


def test_a_sheet_printed_again_is_copied_from_the_first_print_not_drawn_again(cli, folder, tmp_path, monkeypatch):
    from rnwprint import render

    first = _sheet_command(cli, tmp_path, "rolling-america", "--lang", "en")
    monkeypatch.setattr(render, "render", _no_drawing)
    monkeypatch.setitem(GAMES, "rolling-america", dataclasses.replace(GAMES["rolling-america"], build=_refuse))
    assert _sheet_command(cli, tmp_path, "rolling-america", "--lang", "en") == first
    monkeypatch.undo()
    monkeypatch.setenv("RNWPRINT_CACHE", "")
    assert _sheet_command(cli, tmp_path, "rolling-america", "--lang", "en") == first  # as drawn afresh


@pytest.mark.parametrize("other", [("--lang", "es"), ("--copies", "2"), ("--variant", "B"), ("--page", "letter")])
def test_another_print_of_the_sheet_is_drawn_not_copied(cli, folder, tmp_path, monkeypatch, other):
    _sheet_command(cli, tmp_path, "twenty-one", "--lang", "en")
    monkeypatch.setattr("rnwprint.render.render", _no_drawing)
    assert _sheet_command(cli, tmp_path, "twenty-one", "--lang", "en")  # the same sheet: copied
    with pytest.raises(AssertionError, match="drew the sheet again"):
        cli("sheet", "twenty-one", "--lang", "en", *other, "-o", tmp_path / "x.pdf")


def test_a_printed_file_is_drawn_again_when_a_renderer_library_changes(cli, folder, tmp_path, monkeypatch):
    _sheet_command(cli, tmp_path, "twenty-one")
    monkeypatch.setattr(cache, "_library", lambda name: f"{name} 99.0")
    monkeypatch.setattr("rnwprint.render.render", _no_drawing)
    with pytest.raises(AssertionError, match="drew the sheet again"):
        cli("sheet", "twenty-one", "-o", tmp_path / "x.pdf")


def test_a_damaged_or_foreign_printed_entry_is_drawn_again(cli, folder, tmp_path):
    first = _sheet_command(cli, tmp_path, "twenty-one")
    (entry,) = folder.glob("render-*")
    for junk in (b"damaged", pickle.dumps(["not bytes"]), pickle.dumps(["not bytes", first]), pickle.dumps([])):
        entry.write_bytes(_entry(junk))
        assert _sheet_command(cli, tmp_path, "twenty-one") == first
    assert entry.read_bytes() == _entry(pickle.dumps([first]))


def test_a_printed_entry_damaged_on_the_disk_is_drawn_again_not_copied(cli, folder, tmp_path):
    """Bytes changed inside a kept file (the entry still unpickles): its checksum disagrees."""
    first = _sheet_command(cli, tmp_path, "twenty-one")
    (entry,) = folder.glob("render-*")
    kept = entry.read_bytes()
    middle = len(kept) // 2
    entry.write_bytes(kept[:middle] + b"Z" * 50 + kept[middle + 50:])
    assert pickle.loads(entry.read_bytes()[cache.CHECK:])[0] != first
    assert _sheet_command(cli, tmp_path, "twenty-one") == first
    assert entry.read_bytes() == kept


def test_a_printed_file_larger_than_the_limit_is_not_kept(cli, folder, tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "RENDERED_MAX", 10_000)
    assert len(_sheet_command(cli, tmp_path, "twenty-one")) > 10_000
    assert not list(folder.glob("render-*"))
    monkeypatch.setattr(cache, "RENDERED_MAX", 10**9)
    _sheet_command(cli, tmp_path, "twenty-one")
    assert len(list(folder.glob("render-*"))) == 1


def test_a_second_print_in_a_fresh_process_loads_no_renderer(tmp_path):
    import subprocess
    import sys

    probe = ("import sys; from rnwprint.cli import main; code = main(['sheet', 'rolling-espana', '-o', sys.argv[1]]); "
             "print(code, [m for m in ('reportlab', 'PIL', 'shapely') if m in sys.modules])")
    env = {**os.environ, "RNWPRINT_CACHE": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", probe, str(tmp_path / f"{i}.pdf")], capture_output=True, text=True,
                           env=env, check=True).stdout.split("\n")[-2] for i in range(2)]
    assert runs[0].startswith("0 ['reportlab'") and runs[1] == "0 []"
    assert (tmp_path / "0.pdf").read_bytes() == (tmp_path / "1.pdf").read_bytes()


def test_the_same_sheet_in_another_format_is_drawn_not_copied(cli, folder, tmp_path, monkeypatch):
    _sheet_command(cli, tmp_path, "twenty-one")
    monkeypatch.setattr("rnwprint.render.render", _no_drawing)
    with pytest.raises(AssertionError, match="drew the sheet again"):
        cli("sheet", "twenty-one", "-o", tmp_path / "x.svg")


def test_the_oldest_entries_go_beyond_the_limit_and_nothing_else_in_the_folder(folder, monkeypatch):
    import time

    monkeypatch.setattr(cache, "ENTRIES", 2)
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("mine")
    for name in ("a", "b", "c"):
        cache.cached("print", name, lambda: name.encode(), lambda v: v, lambda d: d)
        time.sleep(0.01)  # modification times in order
    kept = sorted(p.name for p in folder.iterdir())
    assert kept == sorted(["notes.txt", cache._path("print", "b").name, cache._path("print", "c").name])
