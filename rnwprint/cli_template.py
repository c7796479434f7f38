"""The command line's `template` command (registered on the group in rnwprint.cli)."""

from __future__ import annotations

import pathlib

import click

from rnwprint.cli_support import INPUT, SEED, WholeRange
from rnwprint.core.errors import RnwError
from rnwprint.locale import LANGUAGES


@click.command(short_help="Print a blank typed-in sheet file to fill in (TOML).")
@click.argument("game")
@click.option("--variant", default=None, help="Which variant's sheet to describe; default: the first.")
@click.option("--lang", type=click.Choice(LANGUAGES, case_sensitive=False), default="es", show_default=True,
              help="Language of the comments (the sheet's own default).")
@click.option("--code", default=None, help="roll-to-the-top: the custom tower whose code is printed on its sheet.")
@click.option("--ascii", "ascii_file", type=INPUT, default=None,
              help="roll-to-the-top: a tower drawn as text, as for rnwprint tower ('-': stdin).")
@click.option("--picture", type=INPUT, default=None,
              help="roll-to-the-top: a picture's tower, as for rnwprint tower (with --columns).")
@click.option("--columns", type=WholeRange(1, 100), default=8, show_default=True,
              help="Squares across the picture's shape (--picture).")
@click.option("--random", "random_tower", is_flag=True,
              help="roll-to-the-top: the first random tower of --seed, as rnwprint tower --random prints it.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="The seed of the --random tower.")
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
    from rnwprint.app import unwrap
    from rnwprint.app.blank import blank
    from rnwprint.games import get_game
    from rnwprint.games.roll_to_the_top.commands import template_tower

    g = get_game(game)
    if variant is not None and variant.lower() == "all":
        fillable = [v for v in g.variants if any(c.kind != "tick" for c in g.build(v, lang, "a4").cells.values())]
        raise RnwError(f"a template is the file of one sheet: name one of {', '.join(fillable)}", "--variant all")
    given = template_tower(g.name, variant, code, ascii_file, picture, columns, random_tower, seed)
    if given is not None:
        from rnwprint.games.roll_to_the_top.game import custom_variant_name
        from rnwprint.games.roll_to_the_top.tower import TowerError

        tower, where = given
        text = blank(g, custom_variant_name(tower, descending), lang)
        if isinstance(text, TowerError):  # about the tower's sheet: name the file or option that gave it
            text = TowerError(text.message, where)
    else:
        text = blank(g, g.default_variant if variant is None else variant, lang)
    click.echo(unwrap(text), nl=False)
