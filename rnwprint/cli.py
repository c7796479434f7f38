"""The command line: parse options, call the library, print. No game logic here."""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import pathlib
import sys

import click

from rnwprint.errors import RnwError
from rnwprint.layout.page import PAGE_SIZES
from rnwprint.locale import LANGUAGES
from rnwprint.render import FORMATS

PAGES = tuple(PAGE_SIZES)


class OutputPath(click.ParamType):
    """A file to write: a path, never empty (an empty string would mean the current folder)."""

    name = "path"

    def convert(self, value, param, ctx):
        if isinstance(value, pathlib.Path):
            return value
        if not value:
            self.fail("empty output path: name a file", param, ctx)
        return pathlib.Path(value)


OUTPUT = OutputPath()


def _printing_options(command):
    """--lang, --page and --format, as every command that prints sheets takes them."""
    command = click.option("--format", "fmt", type=click.Choice(FORMATS, case_sensitive=False), default=None,
                           help="pdf (one file, every page), svg or png (one file per page); "
                                "default: the -o name's extension, else pdf.")(command)
    command = click.option("--page", type=click.Choice(PAGES, case_sensitive=False), default="a4",
                           show_default=True, help="Paper size.")(command)
    return click.option("--lang", type=click.Choice(LANGUAGES, case_sensitive=False), default="es",
                        show_default=True, help="Language of every printed word.")(command)


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, invoke_without_command=True)
@click.version_option(package_name="rnwprint")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Print, generate and audit sheets for roll & write games.

    \b
    rnwprint games                             the games and their variants
    rnwprint sheet twenty-one --variant all    six fresh sheets into output/
    rnwprint audit mine.toml                   check a finished sheet

    `rnwprint COMMAND --help` says more about each command.
    """
    if ctx.invoked_subcommand is None:  # bare `rnwprint`: the help, not an error
        click.echo(ctx.get_help())


@cli.command()
def games() -> None:
    """List every game with its variants and languages.

    \b
    rnwprint games
    """
    import textwrap

    from rnwprint.games import GAMES, listed_variants

    rows = [("game", "languages", ["variants"])]
    for game in GAMES.values():
        # the game's own variants on its line, more (Roll to the Top's -desc) on lines below
        more = textwrap.wrap(", ".join(listed_variants(game)[len(game.variants):]), 60, break_on_hyphens=False)
        rows.append((game.name, ", ".join(game.languages), [", ".join(game.variants) + ("," if more else "")] + more))
    name_w, lang_w = (max(len(row[k]) for row in rows) + 2 for k in (0, 1))
    for name, langs, variants in rows:
        click.echo(f"{name:<{name_w}}{langs:<{lang_w}}{variants[0]}")
        for line in variants[1:]:
            click.echo(" " * (name_w + lang_w) + line)
    click.echo("\nroll-to-the-top also takes towers of your own: see rnwprint tower --help")


@cli.command()
@click.argument("game")
@click.option("--variant", default=None,
              help="A variant of the game (rnwprint games lists them), or 'all' for every one; default: the first.")
@_printing_options
@click.option("--copies", type=click.IntRange(1, 100), default=1, show_default=True,
              help="Pages of each variant, in one PDF.")
@click.option("-o", "--output", "target", type=OUTPUT, default=None,
              help="Output file (default: output/GAME_VARIANT_LANG_PAGE.FORMAT).")
def sheet(game: str, variant: str | None, lang: str, page: str, fmt: str, copies: int,
          target: pathlib.Path | None) -> None:
    """Print fresh sheets of GAME as PDF, SVG or PNG.

    \b
    rnwprint sheet twenty-one --variant all --copies 2
    rnwprint sheet rolling-espana --lang en --page letter -o espana.png
    """
    from rnwprint.games import check_variant, get_game
    from rnwprint.output import DEFAULT_DIR

    fmt = _format_of(target, fmt, FORMATS, "pdf")
    _idle("--copies", fmt != "pdf", f"puts copies into one PDF; {fmt.upper()} writes each sheet once, a file a "
                                    "page: drop --copies or write a PDF")
    g = get_game(game)
    every = variant is not None and variant.lower() == "all"
    variants = list(g.variants) if every else [check_variant(g, variant or g.default_variant)]
    sheets = [g.build(v, lang, page) for v in variants]
    if fmt == "pdf":
        sheets = [s for s in sheets for _ in range(copies)]
    if target is None:
        name = "all" if every else variants[0]
        target = DEFAULT_DIR / f"{g.name}_{name}_{lang}_{page}.{fmt}"
    _write_sheets(sheets, fmt, target, variants)


@cli.command(short_help="Print a blank typed-in sheet file to fill in (TOML).")
@click.argument("game")
@click.option("--variant", default=None, help="Which variant's sheet to describe; default: the first.")
@click.option("--lang", type=click.Choice(LANGUAGES, case_sensitive=False), default="es", show_default=True,
              help="Language of the comments (the sheet's own default).")
@click.option("--code", default=None, help="roll-to-the-top: the custom tower whose code is printed on its sheet.")
@click.option("--ascii", "ascii_file", type=click.Path(path_type=pathlib.Path), default=None,
              help="roll-to-the-top: a tower drawn as text, as for rnwprint tower ('-': stdin).")
@click.option("--picture", type=click.Path(path_type=pathlib.Path), default=None,
              help="roll-to-the-top: a picture's tower, as for rnwprint tower (with --columns).")
@click.option("--columns", type=click.IntRange(1, 100), default=8, show_default=True,
              help="Squares across the picture's shape (--picture).")
@click.option("--random", "random_tower", is_flag=True,
              help="roll-to-the-top: the first random tower of --seed, as rnwprint tower --random prints it.")
@click.option("--seed", type=int, default=1, show_default=True, help="The seed of the --random tower.")
@click.option("--descending", is_flag=True, help="roll-to-the-top: the custom tower under the descending rule.")
def template(game: str, variant: str | None, lang: str, code, ascii_file, picture, columns, random_tower, seed,
             descending) -> None:
    """Print a blank typed-in sheet file (TOML) listing every cell id, with where it is
    on the paper: fill it in, then audit it. For a custom Roll to the Top tower, give the
    source you gave rnwprint tower (--code, --ascii, --picture, --random --seed).

    \b
    rnwprint template twenty-one --variant B > mine.toml
    rnwprint template roll-to-the-top --code 7KD3-M9QX --lang en > tower.toml
    """
    from rnwprint.audit.template import blank_file
    from rnwprint.games import check_variant, get_game

    g = get_game(game)
    if variant is not None and variant.lower() == "all":
        raise RnwError(f"a template is the file of one sheet: name one of {', '.join(g.variants)}", "--variant all")
    tower = _template_tower(g.name, variant, code, ascii_file, picture, columns, random_tower, seed)
    if tower is not None:
        from rnwprint.games.roll_to_the_top import custom_variant_name

        variant = custom_variant_name(tower, descending)
    click.echo(blank_file(g, check_variant(g, variant or g.default_variant, all_too=False), lang), nl=False)


def _template_tower(game, variant, code, ascii_file, picture, columns, random_tower, seed):
    """The custom tower `template` was given (as `tower` takes it), or None."""
    sources = [name for name, given in (("--variant", variant), ("--code", code), ("--ascii", ascii_file),
                                        ("--picture", picture), ("--random", random_tower)) if given]
    _idle("--columns", not picture, "sets the squares across a picture's shape: use it with --picture")
    _idle("--seed", not random_tower, "picks the random tower: use it with --random")
    if len(sources) > 1:
        raise click.UsageError(f"give only one source: {_either(sources).replace(' or ', ' and ')} were given")
    if not sources or sources == ["--variant"]:
        _idle("--descending", True, "is for a custom tower (--code, --ascii, --picture or --random); "
                                    "a built-in's descending variant is named, e.g. --variant eiffel-desc")
        return None
    from rnwprint.games import roll_to_the_top as rtt

    if game != rtt.NAME:
        raise click.UsageError(f"{sources[0]} gives a tower: it is for {rtt.NAME}, not {game}")
    if code:
        return rtt.tower_from_text(code, "--code")
    if random_tower:
        return rtt.random_towers(seed, 1)[0]
    if picture:
        from rnwprint.geo.tower import from_picture

        return from_picture(picture, columns).check(str(picture), "; try another --columns or clean up the picture")
    from rnwprint.audit.entries import read_text

    text = _read_stdin() if str(ascii_file) == "-" else read_text(ascii_file, "ASCII art")
    return rtt.tower_from_text(text, "stdin" if str(ascii_file) == "-" else str(ascii_file))


@cli.command(short_help="Check finished sheets (typed-in files or photos).")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=pathlib.Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON Lines: one object per file, one line each.")
@click.option("--lang", type=click.Choice(LANGUAGES, case_sensitive=False), default="en", show_default=True,
              help="Language of the report.")
@click.option("--log", type=click.Path(path_type=pathlib.Path), default=None,
              help="A game log (TOML/JSON) to replay against the sheet (one sheet file only).")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Photos read at once, each in a process of its own; default: the cores.")
def audit(files: tuple[pathlib.Path, ...], as_json: bool, lang: str, log: pathlib.Path | None,
          jobs: int | None) -> None:
    """Check finished sheets (typed-in files or photos) against the rules; exit 0 valid,
    1 violations, 2 bad input.

    \b
    rnwprint audit mine.toml
    rnwprint audit photo.jpg other.toml --lang es --json
    """
    from rnwprint.audit.run import is_photo

    if log is not None and len(files) > 1:
        raise click.UsageError("--log replays one game: give exactly one sheet file with it")
    from rnwprint.batch import Failure, Ordered, cores

    worst = 0
    photos = any(is_photo(f) for f in files)
    work = Ordered(functools.partial(_audit_one, lang=lang, log=log, as_json=as_json), files,
                   (jobs or cores()) if photos else 1)  # typed-in files are too quick for a pool
    with _progress(work, photos, "photos") as outcomes:
        for path, outcome in outcomes:
            if isinstance(outcome, RnwError):
                click.echo(f"rnwprint: {outcome}", err=True)
                worst = 2
            elif isinstance(outcome, Failure):  # one line for it, then the next
                click.echo(f"rnwprint: {path}: internal error ({outcome.reason}); please report it", err=True)
                worst = 2
            else:
                text, valid = outcome
                click.echo(text)
                worst = max(worst, 0 if valid else 1)
    sys.exit(worst)


def _audit_one(path: pathlib.Path, lang: str, log: pathlib.Path | None, as_json: bool) -> tuple[str, bool]:
    """One file of `audit` (maybe in a worker process): its report and whether it is valid."""
    from rnwprint.audit.run import audit_file

    report = audit_file(path, lang, log)
    return (report.to_json() if as_json else report.to_text(lang)), report.valid


@cli.command(short_help="Read photos of finished sheets into typed-in files.")
@click.argument("photos", nargs=-1, required=True, type=click.Path(path_type=pathlib.Path))
@click.option("-o", "--output", "target", type=OUTPUT, default=None,
              help="Write the typed-in sheet file read (TOML) here; one photo only.")
@click.option("--annotate", type=OUTPUT, default=None,
              help="Write the rectified photo with what was read drawn over it (PNG); one photo only.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON Lines: one object per photo, one line each.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Photos read at once, each in a process of its own; default: the cores.")
def read(photos: tuple[pathlib.Path, ...], target: pathlib.Path | None, annotate: pathlib.Path | None,
         as_json: bool, jobs: int | None) -> None:
    """Read photos of finished sheets into typed-in sheet files, flagging unsure cells.

    \b
    rnwprint read photo.jpg -o mine.toml --annotate checked.png
    rnwprint read *.jpg --json
    """
    from rnwprint.output import check_target, same_file, write_atomic

    if (target or annotate) and len(photos) > 1:
        raise click.UsageError("-o and --annotate write one photo's result: give one photo with them")
    if target and annotate and same_file(target, annotate):
        raise click.UsageError("-o and --annotate name the same file: give each its own")
    if target:
        _format_of(target, None, ("toml",), "toml")
    if annotate:
        _format_of(annotate, None, ("png",), "png", "--annotate")
    for out in (target, annotate):
        if out:
            check_target(out, photos)  # refused before the slow read
    from rnwprint.batch import Failure, Ordered, cores

    worst = 0
    work = Ordered(functools.partial(_read_one, as_json=as_json, keep=bool(annotate)), photos, jobs or cores())
    with _progress(work, True, "photos") as outcomes:
        for path, outcome in outcomes:
            if isinstance(outcome, RnwError):
                click.echo(f"rnwprint: {outcome}", err=True)
                worst = 2
                continue
            if isinstance(outcome, Failure):  # one line for it, as `audit` does, then the next
                click.echo(f"rnwprint: {path}: internal error ({outcome.reason}); please report it", err=True)
                worst = 2
                continue
            notes, text, line, result = outcome
            for note in notes:  # too coarse, too dark or too bright; a damaged file
                click.echo(f"rnwprint: {path}: {note}", err=True)
            if target:
                write_atomic(target, text.encode("utf-8"), photos)
            if annotate:  # imported here: the pool's parent need not load OpenCV
                from rnwprint.photo.pipeline import annotate as annotated

                write_atomic(annotate, annotated(result), photos)
            if as_json:
                click.echo(line)
            elif not target:
                click.echo(text, nl=False)
    sys.exit(worst)


def _read_one(path: pathlib.Path, as_json: bool, keep: bool):
    """One photo of `read` (maybe in a worker process): its notes, typed-in text, JSON line and,
    with `keep`, the whole result (the rectified page is too big to send back for nothing)."""
    import json

    from rnwprint.photo.pipeline import as_json as photo_json
    from rnwprint.photo.pipeline import read_photo, typed_in_text

    result = read_photo(path)
    notes = [n for n in (result.advice(), result.damage and result.damage_note()) if n]
    line = json.dumps(photo_json(result), ensure_ascii=False) if as_json else ""
    return notes, typed_in_text(result), line, result if keep else None


@contextlib.contextmanager
def _progress(items, wanted: bool, label: str):
    """A progress bar on stderr for batches of slow items (hidden when not a terminal).
    While it is shown, a line anything else writes to stderr starts on a line of its own."""
    show = wanted and len(items) > 1 and sys.stderr.isatty()
    if not show:
        with click.progressbar(items, label=label, file=sys.stderr, hidden=True) as bar:
            yield bar
        return
    real, state = sys.stderr, {"open": False}
    sys.stderr = _SharedLine(real, state, bar=False)
    try:
        with click.progressbar(items, label=label, file=_SharedLine(real, state, bar=True)) as bar:
            yield bar
    finally:
        sys.stderr = real


class _SharedLine:
    """One side of a terminal's stderr shared by a progress bar and other lines: the bar
    leaves its line open, so another line written then first ends the bar's line."""

    def __init__(self, stream, state: dict, bar: bool):
        self._stream, self._state, self._bar = stream, state, bar

    def write(self, s):
        if s and isinstance(s, str):
            if self._state["open"] and not self._bar:
                s = "\n" + s
            self._state["open"] = not s.endswith("\n")
        return self._stream.write(s)

    def __getattr__(self, name):
        return getattr(self._stream, name)


@cli.command(short_help="Roll the dice of a whole solo Rolling America/España game.")
@click.argument("game")
@click.option("--seed", type=int, required=True, help="The same seed always draws the same dice.")
@click.option("--lang", type=click.Choice(LANGUAGES, case_sensitive=False), default="es", show_default=True,
              help="Language of the colour names and the log's comments.")
@click.option("-o", "--output", "target", type=OUTPUT, default=None,
              help="Also write a game log to fill in (TOML, or JSON for a .json name).")
def roll(game: str, seed: int, lang: str, target: pathlib.Path | None) -> None:
    """Draw and roll the dice of a whole solo Rolling America / España game (GAME:
    rolling-america or rolling-espana), and write a game log to fill in while playing.

    \b
    rnwprint roll rolling-america --seed 7
    rnwprint roll rolling-espana --seed 7 -o partida.toml
    """
    from rnwprint.games import rolling_rules
    from rnwprint.locale import t
    from rnwprint.output import write_atomic

    rolling_rules.load_board(game)  # checks the game name
    turns = rolling_rules.roll_game(seed)
    if target is not None:  # written first: a failed write prints nothing but the error
        if _format_of(target, None, ("toml", "json"), "toml") == "json":
            text = rolling_rules.log_json(game, turns, seed)
        else:
            text = rolling_rules.log_text(game, turns, lang, seed)
        write_atomic(target, text.encode("utf-8"))
    click.echo(rolling_rules.format_turns(game, turns, seed, lang), nl=False)
    if target is not None:
        click.echo(t(lang, "rolling-audit.log_written", path=target))


@cli.command(short_help="Make a Roll to the Top tower: its sheet, rating or drawing.")
@click.option("--ascii", "ascii_file", type=click.Path(path_type=pathlib.Path), default=None,
              help="A tower drawn as text: [] per square, one line per row, top first ('-': stdin).")
@click.option("--picture", type=click.Path(path_type=pathlib.Path), default=None,
              help="A PNG or JPEG whose dark shape is filled with squares.")
@click.option("--columns", type=click.IntRange(1, 100), default=8, show_default=True,
              help="Squares across the picture's shape (--picture).")
@click.option("--random", "random_towers", is_flag=True, help="Random towers (see --seed, --squares, --shape).")
@click.option("--builtin", default=None, help="A built-in challenge by name, e.g. eiffel (rnwprint games lists them).")
@click.option("--code", default=None, help="The tower code printed on a custom tower's sheet.")
@click.option("--seed", type=int, default=1, show_default=True, help="Random towers: the same seed, the same towers.")
@click.option("--squares", type=click.IntRange(3, 200), default=30, show_default=True,
              help="Random towers: squares in each.")
@click.option("--shape", type=click.Choice(("mixed", "taper", "spire", "tree"), case_sensitive=False), default="mixed",
              show_default=True, help="Random towers: their outline.")
@click.option("--max-width", type=click.IntRange(1, 25), default=12, show_default=True,
              help="Random towers: the widest row, in squares.")
@click.option("--count", type=click.IntRange(1, 10000), default=1, show_default=True,
              help="Random towers: how many different ones (one page each).")
@click.option("--descending", is_flag=True, help="The descending rule: each number <= those under it.")
@click.option("--rate", is_flag=True, help="Print the difficulty figures instead of printing sheets.")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=None,
              help="Games simulated for --rate (default: as many as behind the printed stars).")
@click.option("--show", is_flag=True, help="Print the tower as ASCII art and its code instead of sheets.")
@_printing_options
@click.option("-o", "--output", "target", type=OUTPUT, default=None,
              help="Output file (default: output/roll-to-the-top_NAME_LANG_PAGE.FORMAT).")
def tower(ascii_file, picture, columns, random_towers, builtin, code, seed, squares, shape, max_width,
          count, descending, rate, games, show, lang, page, fmt, target) -> None:
    """Make a Roll to the Top tower and print its sheet, its rating (--rate) or its drawing
    (--show). Give one source: --ascii, --picture, --random, --builtin or --code.

    \b
    rnwprint tower --ascii mine.txt --lang en
    rnwprint tower --random --seed 1 --count 10 --rate
    """
    from rnwprint.audit.entries import read_text
    from rnwprint.games import roll_to_the_top as rtt
    from rnwprint.games import tower_sim
    from rnwprint.geo.tower import check_fits, encode, format_ascii, from_picture, grouped
    from rnwprint.layout.page import MARGIN
    from rnwprint.locale import t as tr
    from rnwprint.output import DEFAULT_DIR

    fmt = _format_of(target, fmt, FORMATS, "pdf")
    sources = [name for name, given in (("--ascii", ascii_file), ("--picture", picture), ("--random", random_towers),
                                        ("--builtin", builtin), ("--code", code)) if given]
    if len(sources) > 1:
        raise click.UsageError(f"give only one source: {_either(sources).replace(' or ', ' and ')} were given")
    if not sources:
        raise click.UsageError("say where the tower comes from: one of --ascii, --picture, --random, "
                               "--builtin, --code")
    _idle("--columns", not picture, "sets the squares across a picture's shape: use it with --picture")
    for option in ("--seed", "--squares", "--shape", "--max-width", "--count"):
        _idle(option, not random_towers, "is for random towers, so it would do nothing here: use it with --random")
    _idle("--games", not rate, "sets how many games --rate simulates: use it with --rate")
    if rate and show:
        raise click.UsageError("give only one of --rate and --show")
    _idle("--descending", show, "changes the rule, not the drawing --show prints: drop one of them")
    for option in ("--format", "-o"):
        _idle(option, rate or show, "writes a sheet, and --rate and --show print instead: drop one of them")
    _idle("--page", show, "sizes a sheet, and --show prints the drawing instead: drop one of them")
    if random_towers:
        towers = rtt.random_towers(seed, count, squares, shape, max_width)
        labels = [f"random-s{seed}" + (f"-{k + 1}" if count > 1 else "") for k in range(count)]
        name = f"random-s{seed}" + (f"-n{count}" if count > 1 else "")
    elif builtin:
        builtin = builtin.lower()  # EIFFEL as eiffel, as every other choice
        if builtin not in rtt.builtins():
            raise RnwError(f"unknown built-in tower {builtin!r}; choose one of: {', '.join(rtt.builtins())}",
                           "--builtin")
        towers, labels, name = [rtt.builtins()[builtin].tower], [builtin], builtin
    elif code:
        towers, labels = [rtt.tower_from_text(code, "--code")], [code]
        name = encode(towers[0])  # as printed: 7KD3M9QX for 7kd3-m9qx
    elif picture:
        towers = [from_picture(picture, columns).check(str(picture), "; try another --columns or clean up the picture")]
        labels = [str(picture)]
        name = picture.stem
    else:
        text = _read_stdin() if str(ascii_file) == "-" else read_text(ascii_file, "ASCII art")
        where = "stdin" if str(ascii_file) == "-" else str(ascii_file)
        towers, labels = [rtt.tower_from_text(text, where)], [where]
        name = "stdin" if where == "stdin" else ascii_file.stem
    if not builtin and (rate or not show):  # the size against the page before any simulation
        box_w, box_h = (side - 2 * MARGIN for side in PAGE_SIZES[page])
        for label, t in zip(labels, towers):
            check_fits(t, box_w, box_h, rtt.MIN_SQUARE, label, page.upper())
    if show:
        for label, t in zip(labels, towers):
            click.echo(f"# {tr(lang, 'roll-to-the-top.show', label=label, squares=rtt.counted(lang, 'squares', len(t)), code=grouped(encode(t)))}")
            click.echo(format_ascii(t), nl=False)
        return
    if rate:
        for label, t in zip(labels, towers):
            click.echo(rtt.rating_line(label, t, descending, games or tower_sim.RATING_GAMES, lang))
        return
    if builtin:
        sheets = [rtt.build(builtin + (rtt.DESC if descending else ""), lang, page)]
    else:
        show_bar = len(towers) > 1 and sys.stderr.isatty()
        with click.progressbar(length=len(towers), label="towers", file=sys.stderr,
                               hidden=not show_bar) as bar:
            sheets = rtt.build_sheets(towers, lang, page, descending, progress=bar.update)
    if target is None:
        suffix = rtt.DESC if descending else ""
        target = DEFAULT_DIR / f"{rtt.NAME}_{name}{suffix}_{lang}_{page}.{fmt}"
    _write_sheets(sheets, fmt, target, None, (ascii_file, picture))  # numbered pages: codes are in the titles


# extensions that name a format: a file so named must hold that format
_NAMED_FORMATS = {"pdf", "svg", "png", "jpg", "jpeg", "gif", "webp", "tif", "tiff", "bmp", "heic", "eps", "ps",
                  "toml", "json", "txt", "csv", "html", "xml", "yaml", "yml"}


def _format_of(target: pathlib.Path | None, given: str | None, formats, default: str, option: str = "-o") -> str:
    """The format to write: --format, else the output name's extension, else `default`.
    A name whose extension is a format this command does not write, or contradicts
    --format, is refused: a file must hold what its name says."""
    named = target.suffix.lower().lstrip(".") if target is not None else ""
    if named not in _NAMED_FORMATS:
        return given or default
    if named not in formats:
        raise RnwError(f"a .{named} name, but this writes {_either([f.upper() for f in formats])}: "
                       f"name it {_either(['.' + f for f in formats])}", f"{option} {target}")
    if given and given != named:
        raise RnwError(f"the name says {named.upper()} but --format says {given.upper()}: drop --format or "
                       f"name the file .{given}", f"{option} {target}")
    return named


def _idle(option: str, idle: bool, why: str) -> None:
    """Refuse an option typed on the command line that would change nothing here."""
    ctx = click.get_current_context()
    param = next(p for p in ctx.command.params if option in p.opts)
    if idle and ctx.get_parameter_source(param.name) is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError(f"{option} {why}")


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _write_sheets(sheets, fmt: str, target: pathlib.Path, labels: list[str] | None = None, inputs=()) -> None:
    """Render and write atomically: one PDF, or one SVG/PNG per page (numbered, see
    output.page_paths; `labels` name the pages too).
    Every path is checked before anything is rendered or written; none may be an input."""
    from rnwprint.output import check_target, page_paths, write_atomic
    from rnwprint.render import render

    paths = [target] if fmt == "pdf" else page_paths(target, len(sheets), labels)
    if len(paths) > 1 and target.exists() and not target.is_file():
        raise RnwError(f"not a regular file, and {fmt.upper()} writes one file per page ({paths[0].name}, ...): "
                       "name a file, or use --format pdf", str(target))
    for path in paths:
        check_target(path, inputs)
    blobs = render(sheets, fmt)
    for path, blob in zip(paths, blobs):
        write_atomic(path, blob, inputs)
        click.echo(str(path))


def _read_stdin() -> str:
    from rnwprint.audit.entries import MAX_TEXT_BYTES, decode_text

    if sys.stdin is None:  # started with standard input closed (`<&-`)
        raise RnwError("standard input is closed: pipe the drawing in, or give a file to --ascii", "stdin")
    try:
        raw = sys.stdin.buffer.read(MAX_TEXT_BYTES + 1)
    except (OSError, ValueError) as e:  # a directory, or a stream closed under us
        raise RnwError(f"cannot read standard input: {getattr(e, 'strerror', None) or e}", "stdin") from None
    return decode_text(raw, "stdin", "ASCII art")


def main(argv: list[str] | None = None) -> int:
    """Entry point: every user error becomes one line on stderr and exit code 2."""
    if sys.stdout is None:  # started with standard output closed: say so when printing
        sys.stdout = _Closed()
    try:
        code = _run(argv)
        sys.stdout.flush()  # what is still buffered: a full disk shows now, not at exit
        return code
    except OSError as e:  # printing failed: standard output is a full disk or gone
        _mute_stdout()
        click.echo(f"rnwprint: {e.filename or 'standard output'}: cannot write: {e.strerror or e}", err=True)
        return 2


class _Closed(io.TextIOBase):
    encoding, errors = "utf-8", "strict"

    def write(self, s):
        raise OSError(errno.EBADF, "it is closed")


def _mute_stdout() -> None:
    """Point standard output at /dev/null, so the exit's own flush fails no more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test's capture)


def _run(argv: list[str] | None) -> int:
    try:
        cli.main(args=argv, prog_name="rnwprint", standalone_mode=False)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 0
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.exceptions.Abort:
        click.echo("rnwprint: aborted", err=True)
        return 130
    except click.ClickException as e:
        click.echo(f"rnwprint: {e.format_message()}", err=True)
        return 2
    except RnwError as e:
        click.echo(f"rnwprint: {e}", err=True)
        return 2
    return 0
