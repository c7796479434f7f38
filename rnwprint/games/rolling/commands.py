"""Rolling America / España's own command, `roll` (rnwprint.cli adds the COMMANDS of every game
in the registry)."""

from __future__ import annotations

import pathlib

import click

from rnwprint.cli_support import OUTPUT, SEED, _format_of
from rnwprint.locale import LANGUAGES


@click.command(short_help="Roll the dice of a whole solo Rolling America/España game.")
@click.argument("game")
@click.option("--seed", type=SEED, required=True, help="The same seed always draws the same dice.")
@click.option("--lang", type=click.Choice(LANGUAGES, case_sensitive=False), default="es", show_default=True,
              help="Language of the colour names and the log's comments.")
@click.option("-o", "--output", "target", type=OUTPUT, default=None,
              help="Also write a game log to fill in (TOML, or JSON for a .json name); - prints the log alone.")
def roll(game: str, seed: int, lang: str, target: pathlib.Path | None) -> None:
    """Draw and roll the dice of a whole solo Rolling America / España game (GAME:
    rolling-america or rolling-espana), and write a game log to fill in while playing.

    \b
    rnwprint roll rolling-america --seed 7
    rnwprint roll rolling-espana --seed 7 -o partida.toml
    rnwprint roll rolling-espana --seed 7 -o - > partida.toml   (the log alone, on stdout)
    """
    from rnwprint.games import get_game
    from rnwprint.games.rolling.log import format_turns, log_json, log_text, roll_game
    from rnwprint.locale import t
    from rnwprint.output import is_stdout, write_atomic

    # "Rolling España" as rolling-espana, as every command takes a game's name
    game = get_game(game, among=("rolling-america", "rolling-espana")).name
    turns = roll_game(seed)
    if target is not None:  # written first: a failed write prints nothing but the error
        if _format_of(target, None, ("toml", "json"), "toml") == "json":
            text = log_json(game, turns, seed)
        else:
            text = log_text(game, turns, lang, seed)
        write_atomic(target, text.encode("utf-8"))
        if is_stdout(target):  # the log holds the dice: printed alone, it can be piped into a file
            return
    click.echo(format_turns(game, turns, seed, lang), nl=False)
    if target is not None:
        click.echo(t(lang, "rolling-audit.log_written", path=target))


COMMANDS = (roll,)
