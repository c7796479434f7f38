"""The layers (ARCHITECTURE.md), checked from every module's imports (ast, lazy imports inside
functions included): core at the bottom, then the engine, the games, the use cases, the command
line; no module imports a layer above its own, and no engine module names a game."""

from __future__ import annotations

import ast
import importlib
import pathlib
import re
import sys

import pytest

import rnwprint

PACKAGE = pathlib.Path(rnwprint.__file__).parent
GAME_FOLDERS = sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").exists())
CLI = ("rnwprint.cli", "rnwprint.cli_support", "rnwprint.cli_template", "rnwprint.__main__")


def modules() -> dict[str, pathlib.Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = modules()


def layer(name: str) -> str:
    if name.startswith("rnwprint.core.") or name in ("rnwprint.core", "rnwprint.locale", "rnwprint.data"):
        return "core"  # with the words and the one way to find a data file, both leaves
    if name in CLI or re.fullmatch(r"rnwprint\.games\.\w+\.commands", name):
        return "cli"
    if name == "rnwprint.app" or name.startswith("rnwprint.app."):
        return "app"
    if name in ("rnwprint.game", "rnwprint.games") or name.startswith("rnwprint.games."):
        return "games"
    if name == "rnwprint":  # the package
        return "package"
    return "engine"  # render, layout, photo, geo, fonts, output, batch …


def imported(name: str) -> set[str]:
    """The rnwprint modules `name` imports anywhere in its source."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            if target in MODULES:
                found.add(target)
    return found - {name}


# what each layer may import (besides itself)
ALLOWED = {
    "core": {"core"},
    "engine": {"core", "engine", "registry"},
    "games": {"core", "engine", "games"},
    "app": {"core", "engine", "games", "app"},
    "cli": {"core", "engine", "games", "app", "cli"},
    "package": {"package"},
}


def kind(target: str) -> str:
    # the registry (rnwprint.games) and the Game contract: the engine may look a game up by name
    return "registry" if target in ("rnwprint.games", "rnwprint.game") else layer(target)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_a_layer_above_its_own(name):
    mine = layer(name)
    wrong = sorted(t for t in imported(name) if kind(t) not in ALLOWED[mine] | {mine}
                   and not (kind(t) == "registry" and mine in ("games", "app", "cli")))
    assert not wrong, f"{name} ({mine}) imports {wrong}"


def test_core_imports_nothing_but_core_and_the_words():
    core = [n for n in MODULES if layer(n) == "core"]
    assert {"rnwprint.core.sheet", "rnwprint.core.errors", "rnwprint.core.entries", "rnwprint.core.report"} <= set(core)
    for name in core:
        assert imported(name) <= set(core), name
    assert imported("rnwprint.data") == set()
    assert imported("rnwprint.locale") <= {"rnwprint.data"}


def test_the_checker_sees_an_upward_import(tmp_path, monkeypatch):
    # a deliberate upward import, lazy inside a function, is caught
    path = tmp_path / "bad.py"
    path.write_text("def f():\n    from rnwprint.games.twenty_one import rules\n    from rnwprint.app import audit\n")
    monkeypatch.setitem(MODULES, "rnwprint.render.bad", path)
    assert imported("rnwprint.render.bad") == {"rnwprint.games.twenty_one.rules", "rnwprint.app", "rnwprint.app.audit",
                                               "rnwprint.games.twenty_one"}
    with pytest.raises(AssertionError, match="imports"):
        test_no_module_imports_a_layer_above_its_own("rnwprint.render.bad")


def _code_words(path: pathlib.Path) -> set[str]:
    """Every name, attribute and string of a module's code (docstrings and comments left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and (body := node.body) and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)}
    words = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.add(node.value)
        elif isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            words.update([getattr(node, "module", None) or ""] + [a.name for a in node.names])
    return words


def game_names() -> set[str]:
    from rnwprint.games import GAMES

    names = set(GAMES) | set(GAME_FOLDERS)
    return {n.replace("-", "_") for n in names} | {n.replace("_", "-") for n in names}


@pytest.mark.parametrize("name", sorted(n for n in MODULES if layer(n) in ("core", "engine")))
def test_no_engine_module_names_a_game(name):
    names = game_names()
    pattern = re.compile(r"(?<![a-z])(" + "|".join(map(re.escape, sorted(names))) + r")(?![a-z])", re.IGNORECASE)
    named = sorted(w for w in _code_words(MODULES[name]) if pattern.search(w))
    assert not named, f"{name} names {named}"


def test_every_game_has_its_folder():
    from rnwprint.games import GAMES

    for game in GAMES.values():
        module = game.build.__module__
        assert module.split(".")[:3][2] in GAME_FOLDERS and module.startswith("rnwprint.games."), (game.name, module)


def test_every_rnwprint_module_loaded_comes_from_this_checkout():
    # an editable install of another checkout must not fill in a module missing here
    for name in sorted(MODULES):
        if layer(name) != "cli" or name == "rnwprint.cli":
            importlib.import_module(name) if name != "rnwprint.__main__" else None
    outside = sorted(name for name, module in list(sys.modules.items())
                     if name.startswith("rnwprint") and getattr(module, "__file__", None)
                     and not pathlib.Path(module.__file__).resolve().is_relative_to(PACKAGE.resolve()))
    assert not outside


def test_the_checker_sees_a_game_named_in_code_not_in_a_docstring(tmp_path, monkeypatch):
    path = tmp_path / "named.py"
    path.write_text('"""Lays out any sheet (twenty-one\'s too)."""\n\nKIND = {"roll-to-the-top": 2}\n')
    monkeypatch.setitem(MODULES, "rnwprint.layout.named", path)
    with pytest.raises(AssertionError, match=r"names \['roll-to-the-top'\]"):
        test_no_engine_module_names_a_game("rnwprint.layout.named")


def test_the_command_line_and_the_game_registry_load_no_game_code_shapely_or_numpy():
    # every command loads the registry; shapely (and numpy with it) is a quarter of a second of a
    # cold `rnwprint sheet`, needed only to make Catan's island or fit a map; a game's sheet,
    # rules and simulator load when first called (game.lazy), the QR encoder when a sheet is built
    import subprocess

    heavy = ["numpy", "shapely", "cv2", "segno", "reportlab"] + [
        f"rnwprint.games.{game}.{part}" for game in GAME_FOLDERS for part in ("sheet", "sheets", "sim", "replay", "log", "photo")]
    code = f"import sys, rnwprint.cli, rnwprint.games; print(sorted(set({heavy!r}) & set(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
