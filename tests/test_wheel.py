"""The data a designer edits lives at the project's top level (templates/, assets/maps/) and
is packed into the wheel: a non-editable install prints and audits with no checkout around."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import zipfile

from pypdf import PdfReader

from rnwprint import data
from rnwprint import cache

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_a_checkout_reads_game_data_and_maps_from_the_top_level_folders():
    assert data.data_path("templates", "towers.toml") == ROOT / "templates" / "towers.toml"
    assert data.data_path("templates", "catan.toml").is_file()
    assert data.data_path("maps", "us-states.geojson") == ROOT / "assets" / "maps" / "us-states.geojson"
    assert data.data_path("assets", "markers.json").is_file()  # package data stays in the package


def test_the_photo_cache_key_changes_with_the_game_data(tmp_path, monkeypatch):
    folders = {kind: tmp_path / kind for kind in ("templates", "maps")}
    for folder in folders.values():
        folder.mkdir()
    (folders["templates"] / "towers.toml").write_text("a = 1\n")
    monkeypatch.setattr(data, "data_folder", lambda kind: folders.get(kind, data.PACKAGE))
    before = cache.fingerprint.__wrapped__()
    (folders["templates"] / "towers.toml").write_text("a = 22\n")
    assert cache.fingerprint.__wrapped__() != before


def _build_wheel(tmp_path: pathlib.Path) -> pathlib.Path:
    source = tmp_path / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "output", "build", "*.egg-info", "__pycache__", "tests", "bench", "docs", ".pytest_cache"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                    "--quiet", "--wheel-dir", str(tmp_path / "dist")], check=True, cwd=tmp_path)
    (wheel,) = (tmp_path / "dist").glob("rnwprint-*.whl")
    return wheel


def test_a_wheel_installed_in_a_fresh_venv_prints_a_map_sheet_with_no_checkout(tmp_path):
    wheel = _build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    for packed in ("rnwprint/templates/rolling-america.toml", "rnwprint/templates/catan.toml",
                   "rnwprint/maps/us-states.geojson", "rnwprint/maps/layout-rolling-america-a4.json",
                   "rnwprint/assets/markers.json", "rnwprint/assets/digits.npz", "rnwprint/locale/es.toml"):
        assert packed in names

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True)
    # the dependencies come from this environment; .pth files (the editable install) are not
    # read from PYTHONPATH, so rnwprint can only come from the wheel
    env = {**os.environ, "PYTHONPATH": sysconfig.get_paths()["purelib"], "RNWPRINT_CACHE": ""}
    where = tmp_path / "elsewhere"
    where.mkdir()
    run = subprocess.run([str(python), "-c", "import rnwprint, sys; print(rnwprint.__file__)"],
                         cwd=where, env=env, capture_output=True, text=True, check=True)
    assert run.stdout.startswith(str(venv))
    printed = subprocess.run([str(python), "-m", "rnwprint", "sheet", "rolling-america", "--lang", "en",
                              "--format", "pdf", "-o", "america.pdf"], cwd=where, env=env,
                             capture_output=True, text=True)
    assert printed.returncode == 0, printed.stderr
    pages = PdfReader(where / "america.pdf").pages
    assert len(pages) == 1
    assert "Rolling America" in pages[0].extract_text()
