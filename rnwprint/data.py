"""The one place rnwprint finds its data files.

    templates  game data a designer edits: twenty-one.toml, towers.toml, rolling-*.toml,
               catan.toml              (top-level templates/ of the project)
    maps       map geometry (GeoJSON) and the baked map layouts
                                       (top-level assets/maps/)
    assets     page furniture: markers.json; the digit classifiers' weights
    photo      the held-out digits     (package data: rnwprint/assets/…)
    locale     every printed word: es.toml, en.toml (rnwprint/locale/)

In a checkout (and an editable install) templates and maps are read from the project's top
level; a wheel packs them into the package as rnwprint/templates/ and rnwprint/maps/
(setup.py maps the folders), and there they are found first.
"""

from __future__ import annotations

import functools
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent
#: kind -> (folder inside an installed wheel's package, folder in a checkout)
KINDS = {
    "templates": ("templates", PACKAGE.parent / "templates"),
    "maps": ("maps", PACKAGE.parent / "assets" / "maps"),
    "assets": ("assets", PACKAGE / "assets"),
    "photo": ("assets/photo", PACKAGE / "assets" / "photo"),
    "locale": ("locale", PACKAGE / "locale"),
}


@functools.cache
def data_folder(kind: str) -> pathlib.Path:
    """The folder holding that kind of data: the package's own copy when installed from a
    wheel, else the checkout's."""
    packed, checkout = KINDS[kind]
    inside = PACKAGE / packed
    return inside if inside.is_dir() else checkout


def data_path(kind: str, name: str) -> pathlib.Path:
    """The file `name` of that kind of data (it may not exist: the caller says what it wanted)."""
    return data_folder(kind) / name
