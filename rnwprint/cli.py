"""The command line: parse options, call the library, print. No game logic here."""

from __future__ import annotations

import pathlib
import sys

import click

from rnwprint.cli_support import (  # noqa: F401
    INPUT,
    OUTPUT,
    PAGES,
    SEED,
    OutputPath,
    WholeRange,
    _Closed,
    _format_of,
    _idle,
    _mute_stdout,
    _printing_options,
    _progress,
    _write_sheets,
)
from rnwprint.cli_template import template
from rnwprint.core.errors import RnwError, printable
from rnwprint.locale import LANGUAGES
from rnwprint.render import FORMATS


class _Commands(click.Group):
    """The general commands here, and the games' own (tower, roll) from the game registry, added
    when first looked for (the registry loads every game: `rnwprint sheet` need not wait for it)."""

    _games_added = False

    def _add_games(self) -> None:
        if not self._games_added:
            self._games_added = True
            from rnwprint.games import game_commands

            for command in game_commands():
                self.add_command(command)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands:
            self._add_games()
        return super().get_command(ctx, name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_games()
        return super().list_commands(ctx)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # (click would end with 1, which means "rules broken" here)
            raise SystemExit(_reader_gone()) from None


#: the exit code when standard output's reader stops reading (`| head`): a command killed by
#: SIGPIPE, as the shell reports any Unix tool stopped so
PIPE_CLOSED = 128 + 13


def _reader_gone() -> int:
    _mute_stdout()
    return PIPE_CLOSED


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]}, invoke_without_command=True)
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
    for game in GAMES.values():
        for form in game.variant_forms:
            click.echo(f"{game.name} also takes {form}")


@cli.command()
@click.argument("game")
@click.option("--variant", default=None,
              help="A variant of the game (rnwprint games lists them), or 'all' for every one; default: the first.")
@_printing_options
@click.option("--copies", type=WholeRange(1, 100), default=1, show_default=True,
              help="Pages of each variant, in one PDF.")
@click.option("-o", "--output", "target", type=OUTPUT, default=None,
              help="Output file, - for standard output (default: output/GAME_VARIANT_LANG_PAGE.FORMAT).")
@click.option("--seed", type=SEED, default=None,
              help="catan: shuffle the island's terrains by this seed (the map variant map-SEED).")
def sheet(game: str, variant: str | None, lang: str, page: str, fmt: str, copies: int,
          target: pathlib.Path | None, seed: int | None) -> None:
    """Print fresh sheets of GAME as PDF, SVG or PNG.

    \b
    rnwprint sheet twenty-one --variant all --copies 2
    rnwprint sheet rolling-espana --lang en --page letter -o espana.png
    """
    from rnwprint.app import sheets, unwrap
    from rnwprint.output import DEFAULT_DIR

    fmt = _format_of(target, fmt, FORMATS, "pdf")
    _idle("--copies", fmt != "pdf", f"puts copies into one PDF; {fmt.upper()} writes each sheet once, a file a "
                                    "page: drop --copies or write a PDF")
    done = unwrap(sheets.printed(game, variant, lang, page, fmt, copies, seed))
    _write_sheets(done, fmt, target or DEFAULT_DIR / done.name, done.variants)


@cli.command(short_help="Check finished sheets (typed-in files or photos).")
@click.argument("files", nargs=-1, required=True, type=INPUT)
@click.option("--json", "as_json", is_flag=True, help="Print JSON Lines: one object per file, one line each.")
@click.option("--lang", type=click.Choice(LANGUAGES, case_sensitive=False), default=None,
              help="Language of the report [default: the sheet's own language, else es].")
@click.option("--log", "logs", type=INPUT, multiple=True,
              help="A game log (TOML/JSON) to replay against the sheet (one sheet file only).")
@click.option("--jobs", type=WholeRange(min=1), default=None,
              help="Photos read at once, each in a process of its own; default: the cores.")
@click.option("--annotate", type=OUTPUT, default=None,
              help="Write each sheet as audited, its violations drawn in red (PNG: one file; PDF: a page per sheet).")
def audit(files: tuple[pathlib.Path, ...], as_json: bool, lang: str, logs: tuple[pathlib.Path, ...],
          jobs: int | None, annotate: pathlib.Path | None) -> None:
    """Check finished sheets (typed-in files or photos) against the rules; exit 0 valid,
    1 violations, 2 bad input.

    \b
    rnwprint audit mine.toml
    rnwprint audit photo.jpg other.toml --lang es --json
    """
    from rnwprint.app.audit import audit_many, is_photo
    from rnwprint.app.inputs import files_to_read

    files = files_to_read(files, typed_in=True)  # a folder's files, a pattern's, a PDF's pages
    if len(logs) > 1:  # (click would keep the last silently)
        raise click.UsageError("--log given more than once: a sheet is replayed against one game log")
    log = logs[0] if logs else None
    if log is not None and len(files) > 1:
        raise click.UsageError("--log replays one game: give exactly one sheet file with it")
    inputs = (*files, log) if log else files  # the game log is an input too: never written over
    fmt = _annotate_format(files, inputs, annotate) if annotate is not None else None
    from rnwprint.batch import Failure, cores

    worst = 0
    pages = []  # --annotate: each sheet audited, annotated, in input order
    photos = any(is_photo(f) for f in files)
    work = audit_many(files, lang, log, (jobs or cores()) if photos else 1)  # typed-in files: too quick for a pool
    with _progress(work, photos, "photos") as outcomes:
        for path, outcome in outcomes:
            if isinstance(outcome, (RnwError, Failure)):
                _say_unusable(path, outcome, as_json)
                worst = 2
            else:
                click.echo(outcome.to_json() if as_json else outcome.to_text(outcome.lang))
                worst = max(worst, 0 if outcome.valid else 1)
                if fmt:
                    try:
                        pages.append(_annotated(outcome))
                    except RnwError as e:  # audited, but its sheet cannot be drawn (a tower too big for the page)
                        say_error(f"{path}: left out of {annotate}: {e.message}")
                        worst = 2
    if pages:
        from rnwprint.output import write_atomic
        from rnwprint.render import render

        write_atomic(annotate, render(pages, fmt)[0], inputs)
    sys.exit(worst)


def _annotate_format(files, inputs, target: pathlib.Path) -> str:
    """`audit --annotate`'s checks before any file is read: the picture's format ("png": one
    sheet; "pdf": a page per sheet), refused for standard output or over an input."""
    from rnwprint.output import check_target, is_stdout

    if is_stdout(target):
        raise click.UsageError(f"--annotate {target} would write the picture to standard output, where the report "
                               "is printed: give --annotate a file")
    fmt = _format_of(target, None, ("png", "pdf"), "png", "--annotate")
    if fmt == "png" and len(files) > 1:
        pages = {getattr(f, "path", None) for f in files}
        if len(pages) == 1 and None not in pages:  # one PDF of several pages
            raise click.UsageError(f"--annotate draws one sheet's violations in a PNG, and {files[0].path} holds "
                                   f"{len(files)} pages: give a PDF of one page with it, or --annotate a .pdf file "
                                   "for a page per sheet")
        raise click.UsageError("--annotate draws one sheet's violations in a PNG: give one file with it, or "
                               "--annotate a .pdf file for a page per sheet")
    check_target(target, inputs)
    return fmt


def _annotated(report):
    """The sheet `report` was made on, with what was audited drawn in and its violations in red."""
    from rnwprint.games import get_game
    from rnwprint.render.annotate import annotated_sheet
    from rnwprint.render.written import written_items

    game = get_game(report.game)
    entries = report.entries
    sheet = game.build(report.variant, report.lang, entries.page or "a4")  # a photo's paper; typed in: A4
    written = written_items(sheet, entries.cells, entries.counters, game.draw_place, report.unsure + report.doubtful,
                            entries.ticked)
    return annotated_sheet(report, sheet, written)


@cli.command(short_help="Read photos of finished sheets into typed-in files.")
@click.argument("photos", nargs=-1, required=True, type=INPUT)
@click.option("-o", "--output", "target", type=OUTPUT, default=None,
              help="Write the typed-in sheet file read (TOML) here, - for standard output; one photo only.")
@click.option("--annotate", type=OUTPUT, default=None,
              help="Write the rectified photo with what was read drawn over it (PNG), - for standard output "
                   "(with -o FILE); one photo only.")
@click.option("--into", "folder", type=INPUT, default=None,
              help="Write each photo's typed-in file and annotated picture into this folder "
                   "(NAME.toml, NAME.png), for any number of photos.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON Lines: one object per photo, one line each.")
@click.option("--jobs", type=WholeRange(min=1), default=None,
              help="Photos read at once, each in a process of its own; default: the cores.")
def read(photos: tuple[pathlib.Path, ...], target: pathlib.Path | None, annotate: pathlib.Path | None,
         folder: pathlib.Path | None, as_json: bool, jobs: int | None) -> None:
    """Read photos of finished sheets into typed-in sheet files, flagging unsure cells. A PDF
    (a scan) is read page by page.

    \b
    rnwprint read photo.jpg -o photo.toml --annotate checked.png
    rnwprint read *.jpg --into checked/ --jobs 2
    rnwprint read *.jpg --json
    rnwprint read scans.pdf --into checked/
    """
    from rnwprint.app.inputs import files_to_read
    from rnwprint.output import check_target, is_stdout, same_file, write_all_atomic

    photos = files_to_read(photos)  # a folder's photos, a pattern's, a PDF's pages
    if folder and (target or annotate):
        raise click.UsageError("--into writes every photo's files itself: give it without -o and --annotate")
    if (target or annotate) and len(photos) > 1:
        raise click.UsageError("-o and --annotate write one photo's result: give one photo with them "
                               "(--into FOLDER writes many)")
    if target and annotate and same_file(target, annotate):
        raise click.UsageError("-o and --annotate name the same file: give each its own")
    if is_stdout(annotate) and (not target or as_json):
        raise click.UsageError(f"--annotate {annotate} writes the picture to standard output, where the "
                               f"{'JSON lines go' if as_json else 'typed-in file goes'} too: give -o a file, or --annotate a file")
    if is_stdout(target) and as_json:
        raise click.UsageError(f"-o {target} writes the typed-in file to standard output, where --json's lines go too: "
                               "give -o a file, or drop one of them")
    if target:
        _format_of(target, None, ("toml",), "toml")
    if annotate:
        _format_of(annotate, None, ("png",), "png", "--annotate")
    # each photo's (typed-in file, annotated picture), either of them None: not written
    outputs = _outputs_into(folder, photos) if folder else {photos[0]: (target, annotate)}
    for out in (out for pair in outputs.values() for out in pair if out):
        check_target(out, photos)  # refused before the slow read
    from rnwprint.app.read import read_many
    from rnwprint.batch import Failure, cores

    worst = 0
    work = read_many(photos, jobs or cores(), as_json, draw=bool(annotate or folder))
    with _progress(work, True, "photos") as outcomes:
        for path, outcome in outcomes:
            if isinstance(outcome, (RnwError, Failure)):
                _say_unusable(path, outcome, as_json)
                worst = 2
                continue
            for note in outcome.notes:  # too coarse, too dark or too bright; a damaged file
                click.echo(f"rnwprint: {printable(str(path))}: {note}", err=True)
            typed_in, picture = outputs.get(path, (None, None))
            if folder:  # made with the first file to go in it: no empty folder when none can be read
                folder.mkdir(parents=True, exist_ok=True)
            # both or neither (a full disk); a name no UTF-8 spells: "?"
            write_all_atomic([(out, data) for out, data in ((typed_in, outcome.text.encode("utf-8", "replace")),
                                                            (picture, outcome.picture)) if out], photos)
            if as_json:
                click.echo(outcome.line)
            elif folder:
                click.echo(f"{printable(str(path))}: {printable(str(typed_in))}, {outcome.unsure} cell(s) UNSURE")
            elif not target:
                click.echo(outcome.text, nl=False)
    sys.exit(worst)


def _say_unusable(path, outcome, as_json: bool) -> None:
    """One line on stderr for a file that could not be used (then the batch goes on); with
    --json also its object in its place on stdout, so that every file has one."""
    from rnwprint.batch import Failure

    if isinstance(outcome, Failure):
        line = f"{printable(str(path))}: internal error ({outcome.reason}); please report it"
    else:
        line = str(outcome)
    say_error(line)
    if as_json:
        from rnwprint.core.report import json_line

        click.echo(json_line({"source": str(path), "error": line}))


def _outputs_into(folder: pathlib.Path, photos) -> dict:
    """Each photo's (typed-in file, annotated picture) in `folder`, named after the photo;
    RnwError if two photos share a name, one of those files is there already (a typed-in
    file may hold the user's corrections) or `folder` is a file."""
    if folder.exists() and not folder.is_dir():
        raise RnwError("is a file, not a folder: --into names a folder to write into", str(folder))
    outputs, named = {}, {}
    for photo in photos:
        stem = photo.stem or photo.name
        if photo in outputs:
            raise RnwError(f"{photo} given twice: --into writes each photo's files once", str(folder))
        if stem in named and named[stem] != photo:
            raise RnwError(f"{named[stem]} and {photo} would both be written as {stem}.toml: "
                           "rename one, or read them apart", str(folder))
        named[stem] = photo
        outputs[photo] = (folder / f"{stem}.toml", folder / f"{stem}.png")
    there = [out for pair in outputs.values() for out in pair if out.exists() and out not in photos]
    if there:
        more = f" and {len(there) - 1} more" if len(there) > 1 else ""
        raise RnwError(f"{there[0].name}{more} already there: --into does not write over files (a typed-in file "
                       "may hold your corrections); move them away or read into another folder", str(folder))
    return outputs


cli.add_command(template)



def every_command() -> dict[str, click.Command]:
    """Every command by name, the games' own included."""
    cli.list_commands(click.Context(cli))
    return dict(cli.commands)


def main(argv: list[str] | None = None) -> int:
    """Entry point: every user error becomes one line on stderr and exit code 2."""
    if sys.stdout is None:  # started with standard output closed: say so when printing
        sys.stdout = _Closed()
    try:
        code = _run(argv)
        sys.stdout.flush()  # what is still buffered: a full disk shows now, not at exit
        return code
    except BrokenPipeError:  # the reader stopped reading: nothing to say, nobody to say it to
        return _reader_gone()
    except OSError as e:  # printing failed: standard output is a full disk or gone
        _mute_stdout()
        click.echo(f"rnwprint: {e.filename or 'standard output'}: cannot write: {e.strerror or e}", err=True)
        return 2


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
        say_error(str(e))
        return 2
    return 0


def say_error(text: str) -> None:
    """An error on stderr, each of its lines (a file's several faults) marked as rnwprint's."""
    for line in text.splitlines():
        click.echo(f"rnwprint: {line}", err=True)
