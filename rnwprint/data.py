"""The one place rnwprint finds its data files (packed into the wheel as package data).

    templates  game data: twenty-one.toml, towers.toml, rolling-*.toml …
    maps       map geometry (GeoJSON)
    assets     page furniture: markers.json
    photo      the digit classifiers' weights and held-out digits
    locale     every printed word: es.toml, en.toml

Issue 17 moves game data and maps to top-level templates/ and assets/maps/; only KINDS changes.
"""

from __future__ import annotations

import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent
KINDS = {"templates": "templates", "maps": "assets/maps", "assets": "assets", "photo": "assets/photo",
         "locale": "locale"}


def data_path(kind: str, name: str) -> pathlib.Path:
    """The file `name` of that kind of data (it may not exist: the caller says what it wanted)."""
    return PACKAGE / KINDS[kind] / name
