"""The identity stage: the Identity a sheet's QR code names -> the exact Sheet the page was
printed from, rebuilt by its game (kept in memory and on disk: rnwprint.cache), or RnwError when
this rnwprint cannot rebuild it (an unknown game, layout version, variant, language or page)."""

from __future__ import annotations

import functools

from rnwprint.core.errors import RnwError
from rnwprint.core.sheet import Identity, Sheet
from rnwprint.layout.page import PAGE_SIZES


@functools.lru_cache(maxsize=32)
def _sheet(identity: Identity) -> Sheet:
    from rnwprint.cache import sheet_of
    from rnwprint.games import GAMES

    # kept on disk: the next process need not import the fonts and lay the sheet out again
    return sheet_of(identity, lambda: GAMES[identity.game].build(identity.variant, identity.lang, identity.page))


@functools.lru_cache(maxsize=32)
def _stored_sheet(identity: Identity) -> Sheet | None:
    """The Sheet an earlier process built for this identity (the printer, or a reader after
    sheet_for's checks), with this same code and data, or None."""
    from rnwprint.cache import stored_sheet

    return stored_sheet(identity)


def sheet_for(identity: Identity, where: str | None = None) -> Sheet:
    """The exact Sheet the identity was printed from (cached: do not modify it).

    RnwError when this rnwprint cannot rebuild it: an unknown game, another layout version,
    an unknown variant, language or page size."""
    stored = _stored_sheet(identity)
    if stored is not None:  # (the games need not even be imported: a tenth of a second)
        return stored
    from rnwprint.games import GAMES

    game = GAMES.get(identity.game)
    if game is None:
        raise RnwError(f"sheet of a game this rnwprint does not know ({identity.game!r}); "
                       f"known games: {', '.join(GAMES)}", where)
    if identity.layout < game.layout_version:
        raise RnwError(f"{identity.game} sheet printed by an older layout version (v{identity.layout}); "
                       f"this rnwprint reads v{game.layout_version}: print a new sheet", where)
    if identity.layout > game.layout_version:
        raise RnwError(f"{identity.game} sheet printed by a newer rnwprint (layout v{identity.layout}; "
                       f"this one reads v{game.layout_version}): update rnwprint", where)
    if identity.lang not in game.languages:
        raise RnwError(f"{identity.game} sheet in an unknown language {identity.lang!r}", where)
    if identity.page not in PAGE_SIZES:
        raise RnwError(f"{identity.game} sheet on an unknown page size {identity.page!r}", where)
    if identity.variant not in game.variants and game.custom_variant is None:
        raise RnwError(f"{identity.game} sheet of an unknown variant {identity.variant!r}; "
                       f"known: {', '.join(game.variants)}", where)
    try:
        return _sheet(identity)
    except RnwError as e:
        raise RnwError(f"cannot rebuild the {identity.game} sheet {identity.variant!r}: {e.message}", where) from None
    except (ValueError, KeyError) as e:
        raise RnwError(f"cannot rebuild the {identity.game} sheet {identity.variant!r}: {e}", where) from None
