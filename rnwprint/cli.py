"""The command line: parse options, call the library, print. No game logic here."""

from __future__ import annotations

import pathlib
import sys

import click

from rnwprint.errors import RnwError
from rnwprint.locale import LANGUAGES

PAGES = ("a4", "letter")
FORMATS = ("pdf", "svg", "png")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rnwprint")
def cli() -> None:
    """Print, generate and audit sheets for roll & write games."""


@cli.command()
def games() -> None:
    """List every game with its variants and languages."""
    from rnwprint.games import GAMES

    for game in GAMES.values():
        click.echo(f"{game.name:<18} variants: {', '.join(game.variants):<24} "
                   f"languages: {', '.join(game.languages)}")


@cli.command()
@click.argument("game")
@click.option("--variant", default=None, help="A variant of the game, or 'all' for every one.")
@click.option("--lang", type=click.Choice(LANGUAGES), default="es", show_default=True)
@click.option("--page", type=click.Choice(PAGES), default="a4", show_default=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="pdf", show_default=True)
@click.option("--copies", type=click.IntRange(1, 100), default=1, show_default=True,
              help="Pages of each variant (PDF only).")
@click.option("-o", "--output", "target", type=click.Path(path_type=pathlib.Path), default=None,
              help="Output file (default: output/GAME_VARIANT_LANG_PAGE.FORMAT).")
def sheet(game: str, variant: str | None, lang: str, page: str, fmt: str, copies: int,
          target: pathlib.Path | None) -> None:
    """Print fresh sheets of GAME as PDF, SVG or PNG."""
    from rnwprint.games import check_variant, get_game
    from rnwprint.output import DEFAULT_DIR, page_paths, write_atomic
    from rnwprint.render import render

    g = get_game(game)
    variants = list(g.variants) if variant == "all" else [check_variant(g, variant or g.default_variant)]
    sheets = [g.build(v, lang, page) for v in variants]
    if fmt == "pdf":
        sheets = [s for s in sheets for _ in range(copies)]
    if target is None:
        name = "all" if variant == "all" else variants[0]
        target = DEFAULT_DIR / f"{g.name}_{name}_{lang}_{page}.{fmt}"
    blobs = render(sheets, fmt)
    paths = [target] if fmt == "pdf" else page_paths(target, variants)
    for path, blob in zip(paths, blobs):
        write_atomic(path, blob)
        click.echo(str(path))


@cli.command()
@click.argument("game")
@click.option("--variant", default=None, help="Which variant's sheet to describe.")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True,
              help="Language of the comments.")
def template(game: str, variant: str | None, lang: str) -> None:
    """Print a blank typed-in sheet file (TOML) listing every cell id."""
    from rnwprint.audit.template import blank_file
    from rnwprint.games import check_variant, get_game

    g = get_game(game)
    click.echo(blank_file(g, check_variant(g, variant or g.default_variant), lang), nl=False)


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=pathlib.Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per file.")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True,
              help="Language of the report.")
@click.option("--log", type=click.Path(path_type=pathlib.Path), default=None,
              help="A game log (TOML/JSON) to replay against the sheet (one sheet file only).")
def audit(files: tuple[pathlib.Path, ...], as_json: bool, lang: str, log: pathlib.Path | None) -> None:
    """Check finished typed-in sheets against the rules; exit 0 valid, 1 violations, 2 bad input."""
    from rnwprint.audit.run import audit_file

    if log is not None and len(files) > 1:
        raise click.UsageError("--log replays one game: give exactly one sheet file with it")
    worst = 0
    for path in files:
        try:
            report = audit_file(path, lang, log)
        except RnwError as e:
            click.echo(f"rnwprint: {e}", err=True)
            worst = 2
            continue
        click.echo(report.to_json() if as_json else report.to_text(lang))
        worst = max(worst, 0 if report.valid else 1)
    sys.exit(worst)


@cli.command()
@click.argument("game")
@click.option("--seed", type=int, required=True, help="The same seed always draws the same dice.")
@click.option("--lang", type=click.Choice(LANGUAGES), default="es", show_default=True,
              help="Language of the colour names and the log's comments.")
@click.option("-o", "--output", "target", type=click.Path(path_type=pathlib.Path), default=None,
              help="Also write a game log to fill in (TOML, or JSON for a .json name).")
def roll(game: str, seed: int, lang: str, target: pathlib.Path | None) -> None:
    """Draw and roll the dice of a whole solo Rolling America / España game."""
    from rnwprint.games import rolling_rules
    from rnwprint.locale import t
    from rnwprint.output import write_atomic

    rolling_rules.load_board(game)  # checks the game name
    turns = rolling_rules.roll_game(seed)
    if target is not None:  # written first: a failed write prints nothing but the error
        if target.suffix.lower() == ".json":
            text = rolling_rules.log_json(game, turns, seed)
        else:
            text = rolling_rules.log_text(game, turns, lang, seed)
        write_atomic(target, text.encode("utf-8"))
    click.echo(rolling_rules.format_turns(game, turns, seed, lang), nl=False)
    if target is not None:
        click.echo(t(lang, "rolling-audit.log_written", path=target))


def main(argv: list[str] | None = None) -> int:
    """Entry point: every user error becomes one line on stderr and exit code 2."""
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
