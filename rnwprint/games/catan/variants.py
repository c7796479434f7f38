"""Catan's variants: ``map`` (the classic island's default layout), ``map-SEED`` (its terrains
shuffled by SEED; the places and their ids stay) and ``notes`` (the notes sheet, two games a
page), and the sheet each one builds."""

from __future__ import annotations

import re

from rnwprint.core.sheet import Identity, Sheet
from rnwprint.games.catan import LAYOUT_VERSION, NAME, geometry, sheets

_SEEDED = re.compile(r"^map-([0-9]{1,9})$", re.IGNORECASE)  # ASCII digits: \d takes "٣" too


def seed_of(variant: str) -> int | None:
    """The shuffle's seed of a map variant (None: the default layout)."""
    m = _SEEDED.match(variant)
    return int(m.group(1)) if m else None


def unknown_cell(variant: str, cell_id: str) -> str | None:
    """Game hook: a town hall asked for on the desert's terrain, said to be the desert's."""
    if variant != "notes" and geometry.layout(seed_of(variant)).get(cell_id.upper()) == geometry.DESERT:
        return f"{cell_id.upper()} is the desert's terrain: the desert has no town hall"
    return None


def custom_variant(variant: str | None, extra: dict) -> str | None:
    """Game hook: ``map-SEED`` (any case, leading zeros dropped) names a shuffled map."""
    if not isinstance(variant, str):
        return None
    seed = seed_of(variant)
    return None if seed is None else f"map-{seed}"


def seeded(variant: str, seed: int) -> str:
    """Game hook for `sheet --seed`: the map shuffled by `seed`; the notes sheet has no layout.
    ValueError for a map already shuffled (`--variant map-5 --seed 6`)."""
    if variant == "notes":
        return variant
    if seed_of(variant) is not None:
        raise ValueError(f"the variant {variant} is the island shuffled already: "
                         f"give --seed or --variant map-SEED, not both")
    return f"map-{seed}"


def build(variant: str, lang: str, page: str) -> Sheet:
    identity = Identity(NAME, variant, lang, page, LAYOUT_VERSION)
    if variant == "notes":
        return sheets.build_notes(identity)
    seed = seed_of(variant)
    if seed is None and variant != "map":  # (a QR code's variant is not checked before)
        raise ValueError(f"unknown variant {variant!r}; known: map, map-SEED (SEED 0-999,999,999), notes")
    return sheets.build_map(identity, geometry.layout(seed))
