"""The byte-identity check: every output rnwprint makes from fixed inputs, one hash each.

    python tools/golden.py --write tools/golden.manifest   # record what this checkout makes
    python tools/golden.py --check tools/golden.manifest   # exit 1 naming each difference
    python tools/golden.py --dump                          # rewrite tests/golden/ (Sheet text dumps)

It drives the command line in-process (`rnwprint.cli.main`), not the modules behind it, so a
reshaped package is checked by the same script: every built-in sheet (all games, variants,
languages, page sizes; PDF, SVG and PNG; `--variant all`), built-in and seeded random towers,
blank typed-in files, audits of those files filled in with seeded values, of the README's
typed-in examples and of every typed-in sheet written out whole in the tests, rolled games and
their logs, the help texts, and a few generated photos read and audited.

Inputs taken from README.md and tests/ are keyed by a hash of the input, so an edited example
shows as one entry gone and one new, never as a changed output.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import io
import pathlib
import random
import re
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
LANGS = ("es", "en")
PAGES = ("a4", "letter")
FORMATS = ("pdf", "svg", "png")
TOWER_SEEDS = (1, 2, 3)
ROLL_SEEDS = (1, 7)
# (game, variant, photo seed, megapixels): read and audited
PHOTOS = (("twenty-one", "A", 3, 4.0), ("rolling-america", "us", 5, 6.0), ("roll-to-the-top", "burj", 11, 4.0))


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


class Golden:
    def __init__(self, work: pathlib.Path):
        self.work = work
        self.hashes: dict[str, str] = {}

    def run(self, *args: str) -> tuple[int, str, str]:
        """`rnwprint ARGS` in-process: exit code, stdout, stderr (the work folder's path masked)."""
        from rnwprint.cli import main

        out, err = io.BytesIO(), io.StringIO()
        text_out = io.TextIOWrapper(out, encoding="utf-8", newline="")
        with contextlib.redirect_stdout(text_out), contextlib.redirect_stderr(err):
            code = main([str(a) for a in args])
            sys.stdout.flush()
        mask = str(self.work)
        text = re.sub(r'"timings_ms": \{[^}]*\}', '"timings_ms": {}', out.getvalue().decode("utf-8"))  # the clock
        return code, text.replace(mask, "<work>"), err.getvalue().replace(mask, "<work>")

    def record(self, key: str, *args: str, files: tuple[pathlib.Path, ...] = ()) -> str:
        """Run a command and record its exit code, outputs and the files it wrote; returns stdout."""
        for f in files:
            f.unlink(missing_ok=True)
        code, out, err = self.run(*args)
        blob = f"exit {code}\n--stdout\n{out}\n--stderr\n{err}\n".encode()
        for f in files:
            blob += b"--file\n" + (f.read_bytes().replace(str(self.work).encode(), b"<work>") if f.exists() else b"<missing>")
        self.hashes[key] = _digest(blob)
        return out

    def file(self, name: str, text: str | bytes) -> pathlib.Path:
        path = self.work / name
        path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
        return path


def games_and_variants(g: Golden) -> dict[str, list[str]]:
    """The `rnwprint games` listing parsed: game -> every variant it lists."""
    out = g.record("cli/games", "games")
    lines = out.splitlines()
    start = lines[0].index("variants")  # the listing's columns: game, languages, variants
    found: dict[str, list[str]] = {}
    game = ""
    for line in lines[1:]:
        if not line.strip():
            break
        if not line.startswith(" "):
            game = line.split()[0]
            found[game] = []
        found[game] += [w.strip() for w in line[start:].split(",") if w.strip()]
    return found


def sheets(g: Golden, listing: dict[str, list[str]]) -> None:
    for game, variants in listing.items():
        for lang in LANGS:
            for page in PAGES:
                for variant in variants:
                    for fmt in FORMATS:
                        target = g.work / f"sheet.{fmt}"
                        g.record(f"sheet/{game}/{variant}/{lang}/{page}/{fmt}", "sheet", game, "--variant", variant,
                                 "--lang", lang, "--page", page, "--format", fmt, "-o", target, files=(target,))
                target = g.work / "all.pdf"
                g.record(f"sheet/{game}/all/{lang}/{page}/pdf-copies2", "sheet", game, "--variant", "all",
                         "--lang", lang, "--page", page, "--copies", "2", "-o", target, files=(target,))


def towers(g: Golden, listing: dict[str, list[str]]) -> None:
    builtins = [v for v in listing.get("roll-to-the-top", []) if not v.endswith("-desc")]
    for name in builtins:
        target = g.work / "tower.pdf"
        g.record(f"tower/builtin/{name}/pdf", "tower", "--builtin", name, "-o", target, files=(target,))
        g.record(f"tower/builtin/{name}/show", "tower", "--builtin", name, "--show")
    for seed in TOWER_SEEDS:
        for lang in LANGS:
            for fmt in FORMATS:
                target = g.work / f"tower.{fmt}"
                g.record(f"tower/random/s{seed}/{lang}/{fmt}", "tower", "--random", "--seed", str(seed), "--lang", lang,
                         "--format", fmt, "-o", target, files=(target,))
        target = g.work / "towers.pdf"
        g.record(f"tower/random/s{seed}/n3-desc-letter", "tower", "--random", "--seed", str(seed), "--count", "3",
                 "--descending", "--page", "letter", "--shape", "spire", "-o", target, files=(target,))
        out = g.record(f"tower/random/s{seed}/show", "tower", "--random", "--seed", str(seed), "--show")
        g.record(f"tower/random/s{seed}/rate", "tower", "--random", "--seed", str(seed), "--rate", "--games", "300")
        g.record(f"template/tower-random/s{seed}", "template", "roll-to-the-top", "--random", "--seed", str(seed))
        ascii_art = g.file("mine.txt", "\n".join(line for line in out.splitlines() if not line.startswith("#")) + "\n")
        target = g.work / "ascii.svg"
        g.record(f"tower/ascii/s{seed}/svg", "tower", "--ascii", ascii_art, "-o", target, files=(target,))


def _filled(template: str, rng: random.Random) -> str:
    """A blank typed-in file with seeded values: mostly 1-6, some blanks, some out of range."""
    def value(_match) -> str:
        roll = rng.random()
        if roll < 0.15:
            return '= ""'
        if roll < 0.2:
            return f"= {rng.choice((0, 7, 12, 13, 20))}"
        return f"= {rng.randint(1, 6)}"
    text = re.sub(r'= ""', value, template)
    return re.sub(r"= 0  #", lambda _m: f"= {rng.randint(0, 9)}  #", text)


def audits(g: Golden, listing: dict[str, list[str]]) -> None:
    rng = random.Random(17)
    for game, variants in listing.items():
        for variant in variants:
            for lang in LANGS:
                blank = g.record(f"template/{game}/{variant}/{lang}", "template", game, "--variant", variant,
                                 "--lang", lang)
                if lang != "es":
                    continue
                path = g.file("blank.toml", blank)
                g.record(f"audit/blank/{game}/{variant}", "audit", path, "--lang", "en")
                for k in range(3):
                    path = g.file("filled.toml", _filled(blank, rng))
                    for report_lang in LANGS:
                        g.record(f"audit/filled/{game}/{variant}/{k}/{report_lang}", "audit", path,
                                 "--lang", report_lang)
                    g.record(f"audit/filled/{game}/{variant}/{k}/json", "audit", path, "--json")
    for origin, text in examples():
        key = f"audit/{origin}/{_digest(text.encode())[:12]}"
        name = "example.json" if text.lstrip().startswith("{") else "example.toml"
        path = g.file(name, text)
        g.record(key + "/en", "audit", path, "--lang", "en")
        g.record(key + "/json", "audit", path, "--json")


def examples() -> list[tuple[str, str]]:
    """Typed-in sheets written out whole in the README's TOML blocks, as files under tests/ and
    as string constants in tests/*.py (each once)."""
    found: dict[str, str] = {}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"^```toml\n(.*?)^```", readme, flags=re.DOTALL | re.MULTILINE):
        if "[cells]" in block and block.lstrip().startswith("game"):
            found.setdefault(block, "readme")
    for fixture in sorted((ROOT / "tests").rglob("*.toml")) + sorted((ROOT / "tests").rglob("*.json")):
        text = fixture.read_text(encoding="utf-8", errors="replace")
        if re.match(r"\s*game\s*=", text) or text.lstrip().startswith('{"game"'):
            found.setdefault(text, "tests")
    for test in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(test.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if re.match(r"\s*game\s*=", text) and "[cells]" in text or text.startswith('{"game"'):
                    found.setdefault(text, "tests")
    return [(origin, text) for text, origin in found.items()]


def rolls(g: Golden) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    logs = [b for b in re.findall(r"^```toml\n(.*?)^```", readme, flags=re.DOTALL | re.MULTILINE) if "[[turn]]" in b]
    for game in ("rolling-america", "rolling-espana"):
        for seed in ROLL_SEEDS:
            for lang in LANGS:
                target = g.work / "log.toml"
                g.record(f"roll/{game}/s{seed}/{lang}/toml", "roll", game, "--seed", str(seed), "--lang", lang,
                         "-o", target, files=(target,))
            target = g.work / "log.json"
            g.record(f"roll/{game}/s{seed}/json", "roll", game, "--seed", str(seed), "-o", target, files=(target,))
            blank = g.run("template", game)[1]
            sheet = g.file("sheet.toml", _filled(blank, random.Random(seed)))
            log = g.work / "game.toml"
            g.run("roll", game, "--seed", str(seed), "-o", log)
            g.record(f"replay/{game}/s{seed}", "audit", sheet, "--log", log, "--lang", "en")
    for text in logs:
        log = g.file("readme-log.toml", text)
        sheet = g.file("sheet.toml", 'game = "rolling-america"\n[cells]\n')
        g.record(f"replay/readme/{_digest(text.encode())[:12]}", "audit", sheet, "--log", log)


def helps(g: Golden) -> None:
    g.record("cli/help", "--help")
    for command in ("games", "sheet", "template", "audit", "read", "roll", "tower"):
        g.record(f"cli/help/{command}", command, "--help")


def _synth():
    sys.path.insert(0, str(ROOT / "tests"))  # the test-photo generator: tests/support
    from support import synth

    return synth


def photos(g: Golden) -> None:
    synth = _synth()
    for game, variant, seed, megapixels in PHOTOS:
        from rnwprint.games import get_game

        sheet = get_game(game).build(variant, "es", "a4")
        jpeg = synth.make_photo(sheet, synth.random_marks(sheet, seed), seed, megapixels)
        g.hashes[f"photo/{game}/{variant}/s{seed}/jpeg"] = _digest(jpeg)
        photo = g.file(f"photo-{game}.jpg", jpeg)
        target = g.work / "read.toml"
        g.record(f"photo/{game}/{variant}/s{seed}/read", "read", photo, "--jobs", "1", "-o", target, files=(target,))
        g.record(f"photo/{game}/{variant}/s{seed}/read-json", "read", photo, "--jobs", "1", "--json")
        g.record(f"photo/{game}/{variant}/s{seed}/audit", "audit", photo, "--jobs", "1", "--lang", "en")


def collect(only: str = "") -> dict[str, str]:
    with tempfile.TemporaryDirectory(prefix="rnw-golden-") as tmp:
        g = Golden(pathlib.Path(tmp))
        listing = games_and_variants(g)
        steps = {"sheets": lambda: sheets(g, listing), "towers": lambda: towers(g, listing),
                 "audits": lambda: audits(g, listing), "rolls": lambda: rolls(g), "helps": lambda: helps(g),
                 "photos": lambda: photos(g)}
        for name, step in steps.items():
            if only and name != only:
                continue
            start = time.perf_counter()
            step()
            print(f"golden: {name}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
        return g.hashes


def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for name in ("reportlab", "pillow", "svgwrite", "segno", "shapely", "numpy", "opencv-python-headless"):
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} -")
    return ", ".join(found)


def read_manifest(path: pathlib.Path) -> dict[str, str]:
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line and line[0] != "#"]
    return {key: value for key, value in rows}


def compare(old: dict[str, str], new: dict[str, str]) -> list[str]:
    differences = []
    for key in sorted(old.keys() | new.keys()):
        if key not in new:
            differences.append(f"gone:    {key}")
        elif key not in old:
            differences.append(f"new:     {key}")
        elif old[key] != new[key]:
            differences.append(f"changed: {key}")
    return differences


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=pathlib.Path, metavar="FILE", help="record every output's hash")
    action.add_argument("--check", type=pathlib.Path, metavar="FILE", help="compare with a recorded manifest")
    action.add_argument("--dump", action="store_true", help="rewrite the Sheet text dumps in tests/golden/")
    parser.add_argument("--only", choices=("sheets", "towers", "audits", "rolls", "helps", "photos"), default="",
                        help="one group of outputs (a quick look; --check then compares that group only)")
    parser.add_argument("--note", default="", help="a line for the manifest's header (e.g. the commit)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    if args.dump:
        sys.path.insert(0, str(ROOT / "tests"))
        from sheet_dump import write_dumps

        for path in write_dumps():
            print(path.relative_to(ROOT))
        return 0
    start = time.perf_counter()
    hashes = collect(args.only)
    print(f"golden: {len(hashes)} outputs in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.write:
        lines = [f"{key}\t{value}" for key, value in sorted(hashes.items())]
        head = ["# tools/golden.py --write: one hash per output; compare on the same machine and libraries",
                f"# python {sys.version.split()[0]}; {_versions()}"] + [f"# {args.note}"] * bool(args.note)
        args.write.write_text("\n".join(head + lines) + "\n", encoding="utf-8")
        return 0
    old = read_manifest(args.check)
    if args.only:
        prefixes = {"sheets": ("sheet/",), "towers": ("tower/", "template/tower-"), "audits": ("audit/", "template/"),
                    "rolls": ("roll/", "replay/"), "helps": ("cli/",), "photos": ("photo/",)}[args.only]
        old = {k: v for k, v in old.items() if k.startswith(prefixes) or k == "cli/games"}
        if args.only == "audits":
            old = {k: v for k, v in old.items() if not k.startswith("template/tower-")}
    differences = compare(old, hashes)
    for line in differences:
        print(line)
    print(f"golden: {len(differences)} differences against {args.check}", file=sys.stderr)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
