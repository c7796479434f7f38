"""Locale keys are written out whole, so that `git grep catan.cost_road` finds every use:
no call of `rnwprint.locale.t` builds its key at run time (an f-string, `+`, `%`, a call),
every key the code names is in both locale files, and every key of the locale files is
named whole somewhere in the code. A key passed through a name (`t(lang, key)`,
`t(lang, TERRAIN_LABEL[name])`) is fine: the literal it holds is written whole where it is set,
and the last test finds it there."""

from __future__ import annotations

import ast
import pathlib
import tomllib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "rnwprint"
MODULES = {p.relative_to(PACKAGE.parent).as_posix(): p for p in sorted(PACKAGE.rglob("*.py"))}


def locale_keys(lang: str) -> set[str]:
    data = tomllib.loads((PACKAGE / "locale" / f"{lang}.toml").read_text(encoding="utf-8"))
    return {f"{section}.{key}" for section, entries in data.items() for key in entries}


def built_keys(source: str) -> list[str]:
    """The key arguments of the module's calls of rnwprint.locale.t (under any name it is
    imported as) that are built at run time, as written."""
    tree = ast.parse(source)
    names = {alias.asname or alias.name for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.module == "rnwprint.locale"
             for alias in node.names if alias.name == "t"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            key = node.args[1] if len(node.args) > 1 else next(k.value for k in node.keywords if k.arg == "key")
            if any(isinstance(part, (ast.JoinedStr, ast.BinOp, ast.Call)) for part in ast.walk(key)):
                found.append(ast.unparse(key))
    return found


def code_strings() -> set[str]:
    """Every string constant in the package's code."""
    return {node.value for path in MODULES.values() for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_locale_key_is_built_at_run_time(module):
    built = built_keys(MODULES[module].read_text(encoding="utf-8"))
    assert built == [], f"{module}: write these keys out whole"


@pytest.mark.parametrize("key", ['f"catan.{name}"', '"catan." + name', '"catan.%s" % name',
                                 '"catan.{}".format(name)', 'f"catan.{a}" if b else "catan.c"'])
def test_the_checker_sees_a_built_key(key):
    source = f"from rnwprint.locale import t as tr\n\ndef f(lang, name, a, b):\n    return tr(lang, {key}, n=1)\n"
    assert built_keys(source) == [ast.unparse(ast.parse(key).body[0].value)]


def test_the_checker_lets_whole_keys_through():
    source = ("from rnwprint.locale import t\nLABEL = {'wood': 'catan.wood'}\n\n"
              "def f(lang, name, one):\n"
              "    return t(lang, 'catan.map_title') + t(lang, LABEL[name]) + t(lang, key='catan.cut')"
              " + t(lang, 'audit.violations_1' if one else 'audit.violations')\n")
    assert built_keys(source) == []


def test_both_languages_have_the_same_keys():
    es, en = locale_keys("es"), locale_keys("en")
    assert sorted(es - en) == [] and sorted(en - es) == []


def test_every_key_the_code_names_is_in_both_languages():
    keys = locale_keys("es") & locale_keys("en")
    sections = {key.split(".")[0] for key in keys}
    # a string shaped like a key of a locale section; data files named after a game are not keys
    named = {s for s in code_strings() if "." in s and s.split(".")[0] in sections
             and " " not in s and not s.endswith(".toml")}
    assert len(named) > 200  # the check sees the keys (209 of the 211 in December 2026)
    assert sorted(named - keys) == []


def test_every_key_of_the_locale_files_is_named_whole_in_the_code():
    keys = locale_keys("es") | locale_keys("en")
    assert sorted(keys - code_strings()) == []
