"""Read photos: each photo of a finished sheet read into a typed-in file, with what to tell
the user about it."""

from __future__ import annotations

import functools
import pathlib
from dataclasses import dataclass


@dataclass
class Read:
    notes: list[str]  # too coarse, too dark or too bright; a damaged file
    text: str  # the typed-in sheet file (TOML)
    line: str  # the JSON line (only when asked for)
    picture: bytes  # the annotated picture, a PNG (only when asked for)
    unsure: int  # cells marked UNSURE


def read_one(path: pathlib.Path, as_json: bool = False, draw: bool = False) -> Read:
    """One photo (maybe in a worker process); raises RnwError for a photo that cannot be read."""
    from rnwprint.core.report import json_line
    from rnwprint.photo import photo_reader

    reader = photo_reader(str(path))
    result = reader.read_photo(path)
    lang = result.identity.lang  # the notes, like the typed-in file, in the sheet's language
    notes = [n for n in (result.advice(lang), result.damage_note(lang)) if n]
    line = json_line(reader.as_json(result)) if as_json else ""
    picture = reader.annotate(result) if draw else b""
    return Read(notes, reader.typed_in_text(result), line, picture, len(result.unsure))


def read_many(photos, jobs: int, as_json: bool = False, draw: bool = False):
    """(photo, outcome) in input order, `jobs` photos at once: a Read, the RnwError saying
    why a photo cannot be read, or a batch.Failure (an internal error)."""
    from rnwprint.batch import Ordered

    return Ordered(functools.partial(read_one, as_json=as_json, draw=draw), photos, jobs)
