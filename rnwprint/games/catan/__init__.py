"""Catan roll & write: 2-4 players draw on one shared island map, each in a pencil colour,
and keep their resources on a notes sheet.

variants.py: the variants (the default map, shuffled maps, the notes sheet) and what each
builds; geometry.py: the island; sheets.py: the printables; rules.py: the audit; drawn.py:
the places as audited, drawn on the annotated picture; photo.py and pencils.py: the map read
from a photo by pencil colour; templates/catan.toml: the data.
"""

from __future__ import annotations

from rnwprint.game import Game, lazy
from rnwprint.games.catan.rules import counters, totals

NAME = "catan"
VARIANTS = ("map", "notes")
LAYOUT_VERSION = 1

GAME = Game(
    name=NAME,
    title="Catan",
    variants=VARIANTS,
    variant_forms=("map-SEED (SEED 0-999,999,999: the island shuffled)",),
    layout_version=LAYOUT_VERSION,
    build=lazy("rnwprint.games.catan.variants:build"),
    audit=lazy("rnwprint.games.catan.rules:audit"),
    counters=counters(),
    totals=totals(),
    custom_variant=lazy("rnwprint.games.catan.variants:custom_variant"),
    parse_value=lazy("rnwprint.games.catan.rules:parse_value"),
    seeded=lazy("rnwprint.games.catan.variants:seeded"),
    read_places=lazy("rnwprint.games.catan.photo:read_map"),
    template_values="catan.template_values",
    unknown_cell=lazy("rnwprint.games.catan.variants:unknown_cell"),
    draw_place=lazy("rnwprint.games.catan.drawn:draw_place"),
)
