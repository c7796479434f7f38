"""What `read` and `audit` are given, as the files they read: a folder as the photos in it
(and, for `audit`, the typed-in sheets), a pattern no shell expanded (`*.jpg` in Windows'
command prompt) as the files it matches, a PDF as its pages (photo.pdf)."""

from __future__ import annotations

import glob
import pathlib

#: names a photo goes by: binary junk so named is told "not an image" (app.audit), as `read` tells it
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".heic", ".heif", ".webp", ".gif", ".tif", ".tiff", ".avif"})
#: the files of a folder that are read: photos, BMPs and scans in a PDF
PHOTO_SUFFIXES = IMAGE_SUFFIXES | {".bmp", ".pdf"}
TYPED_IN_SUFFIXES = frozenset({".toml", ".json"})
NOTHING_TO_AUDIT = "a folder with no photo nor typed-in sheet (.toml, .json) in it"


def files_to_read(paths, typed_in: bool = False) -> tuple:
    """The files `paths` name, in order: each folder's photos (with `typed_in`, its .toml and
    .json files too, and no picture of the same name as one of them) by name, hidden files
    left out; a pattern's matches by name, when no file has that name; each PDF's pages. A folder or pattern naming nothing stays itself,
    so reading it says why in its place."""
    from rnwprint.photo.pdf import pages_of

    wanted = PHOTO_SUFFIXES | TYPED_IN_SUFFIXES if typed_in else PHOTO_SUFFIXES
    out = []
    for path in paths:
        path = pathlib.Path(path)
        try:
            found = _found_in(path, wanted, typed_in)
        except OSError:  # a folder we may not list, a name too long: reading it says so in its place
            found = []
        out.extend(found or [path])
    return tuple(pages_of(out))


def _found_in(path: pathlib.Path, wanted: frozenset[str], typed_in: bool) -> list[pathlib.Path]:
    if path.is_dir():
        found = sorted(p for p in path.iterdir()
                       if p.suffix.lower() in wanted and not p.name.startswith(".") and p.is_file())
        if typed_in:  # NAME.png beside NAME.toml is `read --into`'s picture of the sheet typed in
            sheets = {p.stem for p in found if p.suffix.lower() in TYPED_IN_SUFFIXES}
            found = [p for p in found if p.suffix.lower() in TYPED_IN_SUFFIXES or p.stem not in sheets]
        return found
    if any(c in str(path) for c in "*?[") and not path.exists():
        return sorted(pathlib.Path(p) for p in glob.glob(str(path)) if pathlib.Path(p).is_file())
    return []
