"""What every game module declares once; the registry in rnwprint.games lists them."""

from __future__ import annotations

import functools
import importlib
import pathlib
from collections.abc import Callable
from dataclasses import dataclass, field

from rnwprint.core.entries import Entries
from rnwprint.core.report import Report
from rnwprint.core.sheet import Sheet


def lazy(target: str, *first) -> Callable:
    """The function "package.module:name", imported at its first call (given `first` before
    the caller's arguments): a game declares its hooks this way so that the registry lists
    every game without loading any game's code."""
    module, _, name = target.partition(":")

    def call(*args, **kwargs):
        return getattr(importlib.import_module(module), name)(*first, *args, **kwargs)

    call.__module__, call.__name__, call.__qualname__ = module, name, name
    return call


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    variants: tuple[str, ...]
    layout_version: int
    build: Callable[[str, str, str], Sheet]  # (variant, lang, page) -> Sheet
    audit: Callable[[Entries, str], Report]  # (entries, lang) -> Report
    # variant -> the ids a typed-in file may use. Default: the built sheet's cells that are not
    # tick boxes (tests/games/test_games.py holds every game's to that). Given only where building the
    # sheet is slow for an audit (a custom tower's rating, a map's first fit).
    cell_ids: Callable[[str], frozenset[str]] | None = None
    languages: tuple[str, ...] = ("es", "en")
    counters: dict[str, str] = field(default_factory=dict)  # name -> the locale key of what it counts
    # the score boxes a player writes a total in (typed in under [totals]; the audit checks
    # them): name -> the locale key of what the box holds
    totals: dict[str, str] = field(default_factory=dict)
    allows_guarded: bool = False
    # the counter whose boxes are ticked once for each circled number (Rolling's "guard"): the
    # photo reader flags where more are ticked than circles found (photo/guards.py)
    guard_counter: str = ""
    replay: Callable[[Entries, pathlib.Path, str], Report] | None = None  # audit against a game log
    # game-specific top-level keys a typed-in file may carry (e.g. a custom tower's drawing)
    extra_keys: tuple[str, ...] = ()
    # variants `rnwprint games` lists after `variants`, made by custom_variant (Roll to the
    # Top's built-in towers under the descending rule)
    more_variants: tuple[str, ...] = ()
    # variants named to a pattern, as a user is told them (Catan's "map-SEED"); custom_variant makes them
    variant_forms: tuple[str, ...] = ()
    # variants beyond `variants` (e.g. an encoded custom tower): (variant as named or None,
    # the file's extra keys) -> the canonical variant, None if they name none; ValueError if bad
    custom_variant: Callable[[str | None, dict], str | None] | None = None
    # a game whose cells hold words (Catan: "red city"): typed-in value -> what its audit
    # takes, None for blank, ValueError saying why not; default: numbers and "X" (and "(n)")
    parse_value: Callable[[object], object] | None = None
    # a game whose layout a seed shuffles (Catan's island): (variant, seed) -> the variant printed
    seeded: Callable[[str, int], str] | None = None
    # a game whose places are read from a photo by colour (Catan's pencils): (colour BGR
    # photo, page -> photo homography, Sheet) -> cell id -> a read with id, value, confidence,
    # unsure and why (as photo.read.CellRead has them)
    read_places: Callable | None = None
    # the module holding the game's own commands (its COMMANDS: click commands), e.g. Roll to the
    # Top's `tower`; rnwprint.cli adds them (imported only by the command line)
    commands: str | None = None
    # the locale key of the words a blank typed-in file uses to say what its cells take, for a
    # game whose cells take other values than numbers and "X" (default: those, "(n)" if guarded)
    template_values: str | None = None
    # a game whose cells hold other things than numbers, X and circled numbers draws a cell's
    # value itself on the annotated audit picture: (Cell, value as audited) -> Sheet items
    draw_place: Callable | None = None
    # (variant, an id not on that sheet) -> why not, where the game knows better than "unknown"
    # (Catan: the desert has no town hall); None: the usual message
    unknown_cell: Callable[[str, str], str | None] | None = None

    def __post_init__(self) -> None:
        if self.cell_ids is None:
            object.__setattr__(self, "cell_ids", functools.cache(self.sheet_cell_ids))

    def sheet_cell_ids(self, variant: str) -> frozenset[str]:
        """The ids of the cells a player writes into on the variant's sheet (not tick boxes:
        they are counted into counters)."""
        sheet = self.build(variant, self.languages[0], "a4")
        return frozenset(cell.id for cell in sheet.cells.values() if cell.kind != "tick")

    @property
    def default_variant(self) -> str:
        return self.variants[0]

    @property
    def variant_choices(self) -> str:
        """The variants an error offers: "map, notes, map-SEED (SEED 0-999,999,999)"."""
        return ", ".join(self.variants + self.variant_forms)

    def in_any_case(self, variant: str) -> str:
        """A listed variant given in any case (a for A) as the game spells it; else as given."""
        return {v.lower(): v for v in self.variants + self.more_variants}.get(variant.lower(), variant)

    def variant_of(self, named: str | None, extra: dict | None = None) -> str | None:
        """The variant as the game names it: `named` (None: not given, the default), or the
        custom variant it or the file's `extra` keys make (a tower's code or drawing); None
        if it names none. ValueError, saying why, for a malformed custom variant."""
        variant = self.default_variant if named is None else named
        if self.custom_variant is not None and (extra or variant not in self.variants):
            custom = self.custom_variant(named, extra or {})
            if custom is not None:
                return custom
        return variant if variant in self.variants else None
