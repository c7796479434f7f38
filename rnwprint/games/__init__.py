"""The one registry of games: the CLI, templates and readers all look games up here."""

from __future__ import annotations

from rnwprint.errors import RnwError
from rnwprint.game import Game
from rnwprint.games import catan, roll_to_the_top, rolling, twenty_one

GAMES: dict[str, Game] = {g.name: g for g in (twenty_one.GAME, rolling.AMERICA, rolling.ESPANA,
                                              roll_to_the_top.GAME, catan.GAME)}


def get_game(name: str, where: str = "GAME") -> Game:
    """The game of that name, in any case (Twenty-One, TWENTY-ONE)."""
    try:
        return GAMES[name.lower()]
    except KeyError:
        raise RnwError(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}", where) from None


def listed_variants(game: Game) -> tuple[str, ...]:
    """The variants `rnwprint games` lists: the game's own, then Roll to the Top's built-ins
    under the descending rule (custom towers' variants are made from a drawing, not listed)."""
    if game.name == roll_to_the_top.NAME:
        return game.variants + tuple(v + roll_to_the_top.DESC for v in game.variants)
    return game.variants


def check_variant(game: Game, variant: str, where: str = "--variant", all_too: bool = True) -> str:
    """The variant as the game names it, given in any case (a for A); `all_too`: whether the
    error offers `all` (for every one)."""
    variant = {v.lower(): v for v in listed_variants(game)}.get(variant.lower(), variant)
    if variant not in game.variants and game.custom_variant is not None:
        try:
            custom = game.custom_variant(variant, {})
        except ValueError as e:
            raise RnwError(str(e), where) from None
        if custom is not None:
            return custom
    if variant not in game.variants:
        raise RnwError(f"unknown variant {variant!r} for {game.name}; choose one of: "
                       f"{', '.join(game.variants)}{' or all' if all_too else ''}", where)
    return variant


def game_commands() -> list:
    """The commands games bring (Roll to the Top's `tower` …), each once, in registry order."""
    import importlib

    modules = dict.fromkeys(g.commands for g in GAMES.values() if g.commands)
    return [command for name in modules for command in importlib.import_module(name).COMMANDS]
