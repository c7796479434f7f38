"""A blank typed-in sheet file for a game: every cell id, with a comment saying where it is."""

from __future__ import annotations

from rnwprint.app import as_value
from rnwprint.core.entries import typed_in
from rnwprint.core.errors import RnwError
from rnwprint.game import Game
from rnwprint.locale import t


@as_value
def blank(game: Game, variant: str, lang: str) -> str | RnwError:
    """The blank file of a variant as given (any case; a custom tower's variant too)."""
    from rnwprint.games import check_variant

    return blank_file(game, check_variant(game, variant, all_too=False), lang)


def blank_file(game: Game, variant: str, lang: str) -> str:
    sheet = game.build(variant, lang, "a4")
    values = t(lang, game.template_values or ("audit.template_values_guarded" if game.allows_guarded
                                                  else "audit.template_values"))
    cells = [cell for cell in sheet.cells.values() if cell.kind != "tick"]  # ticks add up to counters
    if not cells:
        raise RnwError(f"{game.title} {variant} has nothing to type in: name a sheet with places to fill",
                       "--variant")
    return typed_in([t(lang, "audit.template_intro", title=game.title, variant=variant),
                     f"({values}); {t(lang, 'audit.template_check')}"],
                    [("game", game.name, None), ("variant", variant, None), ("lang", lang, t(lang, "audit.template_lang"))],
                    [(cell.id, None, cell.label) for cell in cells],
                    [(name, 0, t(lang, key)) for name, key in game.counters.items()],
                    [(name, None, t(lang, key, box=name)) for name, key in game.totals.items()])
