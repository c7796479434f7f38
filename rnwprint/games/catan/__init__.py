"""Catan roll & write: 2-4 players draw on one shared island map, each in a pencil colour,
and keep their resources on a notes sheet.

Variants: ``map`` (the classic island's default layout), ``map-SEED`` (its terrains shuffled
by SEED; the places and their ids stay), ``notes`` (the notes sheet, two games a page).
geometry.py holds the island, sheets.py the printables, rules.py the audit; templates/catan.toml the data.
"""

from __future__ import annotations

import re

from rnwprint.game import Game
from rnwprint.games.catan import geometry, rules, sheets
from rnwprint.core.sheet import Identity, Sheet

NAME = "catan"
VARIANTS = ("map", "notes")
LAYOUT_VERSION = 1
_SEEDED = re.compile(r"^map-(\d{1,9})$", re.IGNORECASE)


def seed_of(variant: str) -> int | None:
    """The shuffle's seed of a map variant (None: the default layout)."""
    m = _SEEDED.match(variant)
    return int(m.group(1)) if m else None


def custom_variant(variant: str | None, extra: dict) -> str | None:
    """Game hook: ``map-SEED`` (any case, leading zeros dropped) names a shuffled map."""
    if not isinstance(variant, str):
        return None
    seed = seed_of(variant)
    return None if seed is None else f"map-{seed}"


def seeded(variant: str, seed: int) -> str:
    """Game hook for `sheet --seed`: the map shuffled by `seed`; the notes sheet has no layout."""
    return variant if variant == "notes" else f"map-{seed}"


def build(variant: str, lang: str, page: str) -> Sheet:
    identity = Identity(NAME, variant, lang, page, LAYOUT_VERSION)
    if variant == "notes":
        return sheets.build_notes(identity)
    return sheets.build_map(identity, geometry.layout(seed_of(variant)))


def read_places(image, homography, sheet: Sheet) -> dict:
    """Game hook for the photo reader: the map's places by pencil colour (photo.py)."""
    from rnwprint.games.catan.photo import read_map

    return read_map(image, homography, sheet)


GAME = Game(
    name=NAME,
    title="Catan",
    variants=VARIANTS,
    layout_version=LAYOUT_VERSION,
    build=build,
    audit=rules.audit,
    counters=rules.counters(),
    custom_variant=custom_variant,
    parse_value=rules.parse_value,
    seeded=seeded,
    read_places=read_places,
    template_values="catan.template_values",
)
