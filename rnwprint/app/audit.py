"""File -> Report: load a typed-in file (or read a photo), find the game, check the entries,
apply its rules."""

from __future__ import annotations

import pathlib

from rnwprint.core.entries import Entries, load_document, parse_entries, read_start, shown
from rnwprint.core.inputs import folder_reason
from rnwprint.core.report import Report
from rnwprint.app.inputs import IMAGE_SUFFIXES, NOTHING_TO_AUDIT
from rnwprint.core.errors import RnwError
from rnwprint.photo.magic import format_by_magic

HEAD_BYTES = 65536  # enough of a file to know an image's format from its header
#: a verdict on a photo that otherwise follows the rules, resting on a cell read less surely
#: than this, is marked (?) too (doubtful_cells)
DOUBT_BELOW = 0.95
LAWFUL_SHARE = 0.5  # "otherwise follows the rules": at most this share of the filled cells in a violation


def photo_format(head: bytes) -> str | None:
    """The image format of a file from its first bytes ('JPEG', 'PNG', 'GIF', 'HEIC' …), or
    None for anything else (a typed-in text file, or junk). Photo formats by their magic
    bytes (TIFF and WebP headers may need more than the first bytes to open), other binary
    files as `read` takes them (photo.load.image_header), so both take the same files."""
    kind = format_by_magic(head)
    if kind is not None:
        return kind
    if _text(head):
        return None  # and the image libraries need not load for a typed-in file
    from rnwprint.photo.load import image_header

    return image_header(head)[0]


def _text(head: bytes) -> bool:
    """UTF-8 without NUL bytes (a character cut off at the end of the head allowed)."""
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.reason == "unexpected end of data"
    return True


def is_photo(path: str | pathlib.Path) -> bool:
    """Whether a file is a photo; False for what is not a regular file (a pipe read here
    would lose what it read)."""
    try:
        regular = pathlib.Path(path).is_file()
    except OSError:  # a name too long: audit_file says why the file cannot be read
        return False
    return regular and photo_format(_head(path)) is not None


def _head(path: str | pathlib.Path) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(HEAD_BYTES)
    except OSError:
        return b""  # audit_file says why the file cannot be read


def audit_file(path: str | pathlib.Path, lang: str | None = None,
               log: str | pathlib.Path | None = None) -> Report:
    """Audit a typed-in sheet or a photo of one (told apart by the file's first bytes, not its
    name); with `log`, also replay that game log.  The report speaks `lang`, by default the
    sheet's own language (the file's `lang`, the photo's printed sheet), else Spanish."""
    from rnwprint.games import get_game
    from rnwprint.locale import LANGUAGES

    unsure: tuple[str, ...] = ()
    confidence: dict[str, float] = {}
    coarse = 0.0
    light: dict[str, int] = {}
    damage = ""
    level = 0
    if why := folder_reason(path, NOTHING_TO_AUDIT):  # (a folder files_to_read left as itself)
        raise RnwError(why, str(path))
    raw = read_start(path)
    if photo_format(raw[:HEAD_BYTES]) is not None:  # read as `read` reads it (a HEIC photo, a PDF too)
        from rnwprint.photo import photo_reader

        reader = photo_reader(str(path))  # an RnwError if numpy or OpenCV is not installed
        from rnwprint.photo.light import DARK_PAPER

        result = reader.read_photo(path)
        game = get_game(result.identity.game, str(path))
        entries = result.entries()
        unsure = tuple(result.unsure)
        confidence = {cid: r.confidence for cid, r in result.reads.items()}
        coarse = result.photo_px_per_mm if result.too_coarse else 0.0
        light = result.light
        damage = result.damage
        level = DARK_PAPER
    else:
        _refuse_non_document(path, raw)
        data = _typed_in(path, raw)
        name = data.get("game")
        if not isinstance(name, str):
            said = "missing" if name is None else f"{shown(name)} is not a game's name"
            raise RnwError(f"game: {said}; say which game the sheet is, e.g. game = \"twenty-one\"", str(path))
        game = get_game(name, f"{path}: game")
        entries = parse_entries(path, data, game)
    lang = lang or (entries.lang if entries.lang in LANGUAGES else "es")
    report = _apply_rules(game, entries, lang, log)
    report.lang = lang
    report.unsure = unsure
    report.doubtful = doubtful_cells(report, confidence, len(entries.cells))
    report.coarse_photo = coarse
    report.light_photo = light
    report.light_level = level
    report.damaged_photo = damage
    report.entries = entries
    return report


def doubtful_cells(report: Report, confidence: dict[str, float], filled: int) -> tuple[str, ...]:
    """The cells, not already unsure, that a violation rests on and that were read from a
    photo less than DOUBT_BELOW sure, on a sheet where at most LAWFUL_SHARE of the filled
    cells take part in a violation. Where players follow the rules, a broken rule is likelier
    a misread than a slip: on tower photos of sheets filled by the rules, 36 of the 257
    violations misreads made stood as sure, none with this check (BENCHMARKS.md); where
    rules are broken all over, a violation is no such sign."""
    named = dict.fromkeys(cell for v in report.violations for cell in v.cells)
    if not confidence or len(named) > LAWFUL_SHARE * filled:
        return ()
    return tuple(c for c in named if confidence.get(c, 1.0) < DOUBT_BELOW and c not in report.unsure)


def _refuse_non_document(path, raw: bytes) -> None:
    """Say plainly what an empty file, or a binary file named like a photo, is not (a
    typed-in file named sheet.jpg is still read as typed in)."""
    where = str(path)
    if not raw.strip():
        raise RnwError("empty file: expected a typed-in sheet (TOML or JSON) or a photo (JPEG or PNG)", where)
    if pathlib.Path(path).suffix.lower() in IMAGE_SUFFIXES and not _text(raw[:HEAD_BYTES]):
        raise RnwError("not an image (expected a JPEG or PNG photo)", where)


def _typed_in(path, raw: bytes) -> dict:
    """load_document; a text file named like a photo that is no typed-in sheet either is
    said to be neither (the photo it was meant to be may have been saved wrong)."""
    try:
        return load_document(path, raw)
    except RnwError as e:
        if pathlib.Path(path).suffix.lower() not in IMAGE_SUFFIXES:
            raise
        raise RnwError(f"not an image (expected a JPEG or PNG photo), nor a typed-in sheet: {e.message}",
                       e.where) from None


def _apply_rules(game, entries: Entries, lang: str, log) -> Report:
    if log is None:
        return game.audit(entries, lang)
    if game.replay is None:
        raise RnwError(f"{game.name} has no game log", "--log")
    return game.replay(entries, pathlib.Path(log), lang)


def audit_many(files, lang: str | None, log, jobs: int):
    """(file, outcome) in input order, `jobs` files at once: the Report, the RnwError saying
    why a file cannot be audited, or a batch.Failure (an internal error)."""
    import functools

    from rnwprint.batch import Ordered

    return Ordered(functools.partial(audit_file, lang=lang, log=log), files, jobs)
