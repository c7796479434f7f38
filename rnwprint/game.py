"""What every game module declares once; the registry in rnwprint.games lists them."""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from dataclasses import dataclass, field

from rnwprint.audit.entries import Entries
from rnwprint.audit.report import Report
from rnwprint.sheet import Sheet


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    variants: tuple[str, ...]
    layout_version: int
    build: Callable[[str, str, str], Sheet]  # (variant, lang, page) -> Sheet
    cell_ids: Callable[[str], frozenset[str]]  # variant -> the ids a typed-in file may use
    audit: Callable[[Entries, str], Report]  # (entries, lang) -> Report
    languages: tuple[str, ...] = ("es", "en")
    counters: dict[str, str] = field(default_factory=dict)  # name -> description
    allows_guarded: bool = False
    replay: Callable[[Entries, pathlib.Path, str], Report] | None = None  # audit against a game log
    # game-specific top-level keys a typed-in file may carry (e.g. a custom tower's drawing)
    extra_keys: tuple[str, ...] = ()
    # variants beyond `variants` (e.g. an encoded custom tower): (variant as named or None,
    # the file's extra keys) -> the canonical variant, None if they name none; ValueError if bad
    custom_variant: Callable[[str | None, dict], str | None] | None = None
    # a game whose cells hold words (Catan: "red city"): typed-in value -> what its audit
    # takes, None for blank, ValueError saying why not; default: numbers and "X" (and "(n)")
    parse_value: Callable[[object], object] | None = None
    # a game whose layout a seed shuffles (Catan's island): (variant, seed) -> the variant printed
    seeded: Callable[[str, int], str] | None = None
    # the module holding the game's own commands (its COMMANDS: click commands), e.g. Roll to the
    # Top's `tower`; rnwprint.cli adds them (imported only by the command line)
    commands: str | None = None

    @property
    def default_variant(self) -> str:
        return self.variants[0]
