"""Shared fixtures: the test matrices and a way to run the CLI in-process."""

from __future__ import annotations

import os
import pathlib
import shutil
import tempfile

import pytest

# built sheets are kept in a cache of the tests' own (rnwprint.cache), not the user's
_CACHE = None if "RNWPRINT_CACHE" in os.environ else tempfile.mkdtemp(prefix="rnwprint-tests-")
if _CACHE:
    os.environ["RNWPRINT_CACHE"] = _CACHE

from rnwprint.cli import main
from rnwprint.games import GAMES

LANGS = ("es", "en")
PAGES = ("a4", "letter")
FORMATS = ("pdf", "svg", "png")
GAME_NAMES = tuple(GAMES)
PDF_BYTES_PER_PAGE = {"rolling-america": 250_000, "rolling-espana": 250_000}  # issue 3
DEFAULT_PDF_BYTES_PER_PAGE = 60_000  # issue 2


def pdf_limit(game: str) -> int:
    return PDF_BYTES_PER_PAGE.get(game, DEFAULT_PDF_BYTES_PER_PAGE)


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite the Sheet text dumps in tests/golden/ from the built sheets")


def pytest_sessionstart(session):
    if session.config.getoption("--update-golden"):
        from sheet_dump import write_dumps

        for path in write_dumps():
            print(f"rewrote {path}")


def pytest_sessionfinish(session):
    if _CACHE:
        shutil.rmtree(_CACHE, ignore_errors=True)


class CliResult:
    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err


@pytest.fixture
def cli(capsys):
    """Run `rnwprint ARGS...` in-process; returns exit code, stdout and stderr."""

    def run(*args: str | pathlib.Path) -> CliResult:
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


@pytest.fixture
def write(tmp_path):
    """Write a typed-in file into tmp_path and return its path."""

    def _write(name: str, text: str) -> pathlib.Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write


@pytest.fixture(scope="module")
def photo() -> bytes:
    """A small photo (4 MP) of a Spanish A4 Twenty One sheet with two numbers written."""
    from support import synth

    from rnwprint.games import GAMES

    g = GAMES["twenty-one"]
    return synth.make_photo(g.build(g.default_variant, "es", "a4"), {"R1C1": 4, "R2C1": 7}, 5, 4.0)
