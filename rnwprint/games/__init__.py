"""The one registry of games: the CLI, templates and readers all look games up here."""

from __future__ import annotations

from rnwprint.core.entries import shown
from rnwprint.core.errors import RnwError
from rnwprint.game import Game
from rnwprint.games import catan, roll_to_the_top, rolling, twenty_one

GAMES: dict[str, Game] = {g.name: g for g in (twenty_one.GAME, rolling.AMERICA, rolling.ESPANA,
                                              roll_to_the_top.GAME, catan.GAME)}


def get_game(name: str, where: str = "GAME", exact: bool = False, among: tuple[str, ...] = ()) -> Game:
    """The game of that name, in any case, with spaces for hyphens and ñ for n (Twenty One,
    Rolling España) unless `exact` (a typed-in file's name); `among`: the games a command
    takes (default: every one). The one place an unknown game is refused."""
    names = among or tuple(GAMES)
    key = name if exact else game_key(name)
    if key not in names:
        known = key in GAMES  # a game, but not one this command takes
        raise RnwError(f"{'this command is not for' if known else 'unknown game'} {shown(name)}; "
                       f"choose one of: {', '.join(names)}", where)
    return GAMES[key]


def game_key(name: str) -> str:
    """A game's name as typed (Rolling España, TWENTY ONE) as the games are named."""
    return name.lower().replace(" ", "-").replace("ñ", "n")


def listed_variants(game: Game) -> tuple[str, ...]:
    """The variants `rnwprint games` lists: the game's own, then the more it makes (custom
    towers' variants are made from a drawing, not listed)."""
    return game.variants + game.more_variants


def check_variant(game: Game, variant: str, where: str = "--variant", all_too: bool = True) -> str:
    """The variant as the game names it, given in any case (a for A); `all_too`: whether the
    error offers `all` (for every one)."""
    named = game.in_any_case(variant)
    try:
        found = game.variant_of(named)
    except ValueError as e:
        raise RnwError(str(e), where) from None
    if found is None:
        raise RnwError(f"unknown variant {shown(named)} for {game.name}; choose one of: "
                       f"{game.variant_choices}{' or all' if all_too else ''}", where)
    return found


def game_commands() -> list:
    """The commands games bring (Roll to the Top's `tower` …), each once, in registry order."""
    import importlib

    modules = dict.fromkeys(g.commands for g in GAMES.values() if g.commands)
    return [command for name in modules for command in importlib.import_module(name).COMMANDS]
