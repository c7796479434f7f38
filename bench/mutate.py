"""A small mutation tester: make one small deliberate bug at a time in a module and see
whether the tests catch it.

    python bench/mutate.py rnwprint/games/twenty_one/rules.py tests/games/twenty_one/test_twenty_one.py [--json OUT]

Each mutant changes one thing: a comparison (< <=, > >=, == !=, in / not in, is / is not),
an arithmetic operator (+ -, * //), a whole number (n -> n+1, and 1 -> 0), and / or,
any / all, min / max, True / False, a dropped `not`, a dropped `continue`/`break`.
The project is copied once into a temporary folder; every mutant is written there and the
given tests run against it (`python -m pytest -x -q`, stopping at the first failure). A
mutant the tests do not catch "survives"; the score is caught / all. Same module, same
mutants, same order: the run is repeatable.
"""

from __future__ import annotations

import argparse
import ast
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

_COMPARE = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
            ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
          ast.Div: ast.Mult, ast.Mod: ast.FloorDiv}
_SWAP_CALLS = {"any": "all", "all": "any", "min": "max", "max": "min"}


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _sites(tree: ast.AST):
    """(node, description, apply) for every mutation site, in source order."""
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                if type(op) in _COMPARE:
                    new = _COMPARE[type(op)]
                    yield node, f"{type(op).__name__} -> {new.__name__}", _set_item(node.ops, k, new())
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _ARITH:
            new = _ARITH[type(node.op)]
            yield node, f"{type(node.op).__name__} -> {new.__name__}", _set_attr(node, "op", new())
        elif isinstance(node, ast.BoolOp):
            new = ast.Or if isinstance(node.op, ast.And) else ast.And
            yield node, f"{type(node.op).__name__} -> {new.__name__}", _set_attr(node, "op", new())
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "drop not", _set_attr(node, "op", ast.UAdd())
        elif isinstance(node, ast.Constant) and id(node) not in skip:
            v = node.value
            if isinstance(v, bool):
                yield node, f"{v} -> {not v}", _set_attr(node, "value", not v)
            elif isinstance(v, int):
                yield node, f"{v} -> {v + 1}", _set_attr(node, "value", v + 1)
                if v == 1:
                    yield node, "1 -> 0", _set_attr(node, "value", 0)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SWAP_CALLS:
            new = _SWAP_CALLS[node.func.id]
            yield node, f"{node.func.id} -> {new}", _set_attr(node.func, "id", new)
        elif isinstance(node, (ast.Continue, ast.Break)):
            yield node, f"drop {type(node).__name__.lower()}", None


def _set_item(seq, k, value):
    def apply():
        old = seq[k]
        seq[k] = value
        return lambda: seq.__setitem__(k, old)
    return apply


def _set_attr(obj, name, value):
    def apply():
        old = getattr(obj, name)
        setattr(obj, name, value)
        return lambda: setattr(obj, name, old)
    return apply


def _dropped(source_lines: list[str], node: ast.stmt) -> str:
    """The source with a continue/break replaced by `pass` (keeps the block non-empty)."""
    lines = list(source_lines)
    line = lines[node.lineno - 1]
    lines[node.lineno - 1] = line[:node.col_offset] + "pass" + line[node.end_col_offset:]
    return "".join(lines)


def mutants(source: str):
    """(line, column, description, mutated source) for every mutant of `source`."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    for node, what, apply in sorted(_sites(tree), key=lambda s: (s[0].lineno, s[0].col_offset, s[1])):
        if apply is None:
            yield node.lineno, node.col_offset, what, _dropped(lines, node)
            continue
        undo = apply()
        try:
            yield node.lineno, node.col_offset, what, ast.unparse(tree)
        finally:
            undo()


def functions(source: str) -> list[tuple[int, int, str]]:
    """(first line, last line, name) of every top-level function and method."""
    spans = []
    for node in ast.parse(source).body:
        inner = node.body if isinstance(node, ast.ClassDef) else [node]
        for f in inner:
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{node.name}.{f.name}" if f is not node else f.name
                spans.append((f.lineno, f.end_lineno, name))
    return spans


def by_function(source: str, lines: list[int], survived: list[int]) -> dict[str, list[int]]:
    """Function name (or "module level") -> [mutants, survivors]."""
    spans = functions(source)
    table: dict[str, list[int]] = {}

    def name(line):
        return next((n for a, b, n in spans if a <= line <= b), "module level")

    for line in lines:
        table.setdefault(name(line), [0, 0])[0] += 1
    for line in survived:
        table[name(line)][1] += 1
    return table


def _copy_project(dest: pathlib.Path) -> None:
    for name in ("rnwprint", "templates", "assets", "tests", "tools", "bench", "pyproject.toml", "README.md", ".ci"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.exists():
            shutil.copy2(src, dest / name)


def _tests_pass(work: pathlib.Path, tests: list[str], timeout: float) -> bool:
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    try:
        done = subprocess.run(cmd, cwd=work, capture_output=True, timeout=timeout,
                              env={**_env(), "PYTHONPATH": str(work), "PYTHONDONTWRITEBYTECODE": "1"})
    except subprocess.TimeoutExpired:
        return False  # a mutant that hangs the tests is caught
    return done.returncode == 0


def _env() -> dict:
    import os
    return dict(os.environ)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", help="the module to mutate, e.g. rnwprint/games/twenty_one/rules.py")
    parser.add_argument("tests", nargs="+", help="test files or node ids to run against each mutant")
    parser.add_argument("--lines", default=None, help="only mutate lines A-B (e.g. 40-120)")
    parser.add_argument("--json", default=None, help="also write the survivors to this JSON file")
    args = parser.parse_args(argv)

    module = pathlib.Path(args.module)
    source = (ROOT / module).read_text(encoding="utf-8")
    lo, hi = (map(int, args.lines.split("-")) if args.lines else (1, 10**9))
    todo = [m for m in mutants(source) if lo <= m[0] <= hi]
    with tempfile.TemporaryDirectory(prefix="rnw-mutate-") as tmp:
        work = pathlib.Path(tmp)
        _copy_project(work)
        start = time.perf_counter()
        if not _tests_pass(work, args.tests, timeout=600):
            print("the tests fail without any mutant: fix them first", file=sys.stderr)
            return 2
        timeout = max(30.0, 5 * (time.perf_counter() - start))
        target = work / module
        survivors = []
        for k, (line, col, what, text) in enumerate(todo, 1):
            target.write_text(text, encoding="utf-8")
            if _tests_pass(work, args.tests, timeout):
                survivors.append({"line": line, "column": col, "mutation": what,
                                  "code": source.splitlines()[line - 1].strip()})
                print(f"SURVIVED {module}:{line}:{col}: {what}    {survivors[-1]['code']}", flush=True)
            print(f"\r{k}/{len(todo)}", end="", file=sys.stderr, flush=True)
        target.write_text(source, encoding="utf-8")
    caught = len(todo) - len(survivors)
    table = by_function(source, [m[0] for m in todo], [s["line"] for s in survivors])
    print()
    for name, (count, alive) in table.items():
        print(f"  {name:<40} {count:4d} mutants, {alive:3d} survived")
    print(f"{module}: {len(todo)} mutants, {caught} caught, {len(survivors)} survived, "
          f"score {100 * caught / max(1, len(todo)):.1f} %")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps({"module": str(module), "mutants": len(todo),
                                                       "by_function": table, "survivors": survivors}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
