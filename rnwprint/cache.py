"""What the printer and the photo reader build for each sheet (the Sheet an identity names, the
drawing of its print, the files a fresh sheet was printed as), kept on disk so that the next
process need not build it again: a map sheet's layout, its fonts and QR code are otherwise
built again by every `rnwprint sheet` and every `rnwprint read`.

An entry's key is its name (an identity) and a fingerprint of rnwprint's own files, code and
data alike (each one's path, size and modification time): any change to them, a new version
installed, gives new keys, so a stale entry is never read. The folder is $RNWPRINT_CACHE, or
$XDG_CACHE_HOME/rnwprint (~/.cache/rnwprint); RNWPRINT_CACHE="" turns the cache off. At most
ENTRIES files are kept (the oldest go). A folder that cannot be written, or an entry that
cannot be read or whose checksum disagrees, only means the thing is built again: the cache
never changes what is read or printed.
"""

from __future__ import annotations

import functools
import os
import pathlib
import stat
import tempfile
import zlib

from rnwprint.core.inputs import open_input

ENTRIES = 200
CHECK = 32  # an entry's first bytes: the _digest of the rest, checked before it is used
RENDERED_MAX = 4_000_000  # bytes: larger printed files (a hundred copies) are drawn each time
RENDERERS = ("reportlab", "PIL", "svgwrite")  # whose files a printed file's bytes depend on too


def folder() -> pathlib.Path | None:
    """Where the entries are kept; None when the cache is off."""
    chosen = os.environ.get("RNWPRINT_CACHE")
    if chosen is not None:
        return pathlib.Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base, "rnwprint")


@functools.cache
def fingerprint() -> str:
    """A digest of the path, size and modification time of every file of the rnwprint package
    and of its game data and maps (top-level folders in a checkout)."""
    from rnwprint.data import PACKAGE, data_folder

    return _digest("".join(fingerprint_of(root) for root in (PACKAGE, data_folder("templates"),
                                                               data_folder("maps"))).encode())


def fingerprint_of(root: pathlib.Path) -> str:
    """A digest of the path, size and modification time of every file under root."""
    lines = []
    for here, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if f != "__pycache__")
        for name in sorted(files):
            path = os.path.join(here, name)
            try:
                st = os.stat(path)
            except OSError:
                continue
            lines.append(f"{os.path.relpath(path, root)}\0{st.st_size}\0{st.st_mtime_ns}\n")
    return _digest("".join(lines).encode())


def _digest(data: bytes) -> str:
    """128 bits of checksums (zlib's, as hashlib would load OpenSSL: several ms of a cold
    start): two keys would have to agree in all four sums to be taken for one another."""
    sums = (zlib.crc32(data), zlib.adler32(data), zlib.crc32(data[::-1]), zlib.crc32(data, 0x9E3779B9))
    return "".join(f"{v:08x}" for v in sums)


def _path(kind: str, name: str) -> pathlib.Path | None:
    where = folder()
    if where is None:
        return None
    key = _digest(f"{kind}\0{name}\0{fingerprint()}".encode())
    return where / f"{kind}-{key}.bin"


def load(kind: str, name: str, loads):
    """loads() of the entry (kind, name), or None if there is none (or it cannot be read)."""
    path = _path(kind, name)
    if path is None:
        return None
    try:
        with open_input(path) as f:  # a pipe left under an entry's name opens at once
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None  # a pipe, a device: no entry
            data = f.read()
        if data[:CHECK] != _digest(data[CHECK:]).encode():
            return None  # damaged on the disk (or from another version): built again
        return loads(data[CHECK:])
    except Exception:  # noqa: BLE001 -- none yet, or a damaged one: built again
        return None


def cached(kind: str, name: str, make, dumps, loads, keep=lambda value: True):
    """loads() of the entry (kind, name) if there is one, else make(), stored as dumps() of it
    if keep(it). Whatever make() raises is raised (and nothing stored)."""
    value = load(kind, name, loads)
    if value is None:
        value = make()
        path = _path(kind, name)
        if path is not None and keep(value):
            _store(path, dumps(value))
    return value


def rendered(fmt: str, names: list[str], make) -> list[bytes]:
    """make(): the files the sheets `names` (identities, one a page) are printed as in `fmt`,
    kept on disk under those names and the installed renderers' files, if not too large."""
    import pickle

    def files(data: bytes) -> list[bytes]:
        blobs = pickle.loads(data)
        if not (isinstance(blobs, list) and blobs and all(isinstance(b, bytes) for b in blobs)):
            raise ValueError("not a list of printed files")  # a damaged or foreign entry: drawn again
        return blobs

    return cached("render", "\n".join([fmt, *names, *map(_library, RENDERERS)]), make, pickle.dumps, files,
                  keep=lambda blobs: sum(map(len, blobs)) <= RENDERED_MAX)


def _library(name: str) -> str:
    """A library's version as its files say it, without importing it: the path, size and
    modification time of its __init__ file (an upgrade rewrites it)."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    try:
        st = os.stat(spec.origin)
    except (AttributeError, TypeError, OSError):  # not installed
        return f"{name}\0-"
    return f"{name}\0{spec.origin}\0{st.st_size}\0{st.st_mtime_ns}"


def stored_sheet(identity):
    """The Sheet an earlier process built for `identity` with this same code and data, or None."""
    import pickle

    sheet = load("sheet", identity.encode(), pickle.loads)
    return sheet if sheet is not None and sheet.identity == identity else None


def keep_sheet(sheet) -> None:
    """Keep a Sheet its game built, under the identity it carries (what its QR code names)."""
    import pickle

    path = _path("sheet", sheet.identity.encode())
    if path is not None:
        _store(path, pickle.dumps(sheet))


def sheet_of(identity, build):
    """The Sheet `identity` names, as an earlier process kept it, else build() (kept for the
    next process)."""
    sheet = stored_sheet(identity)
    if sheet is None:
        sheet = build()
        keep_sheet(sheet)
    return sheet


def _store(path: pathlib.Path, data: bytes) -> None:
    """Write atomically (a temporary file renamed), then drop the oldest entries beyond
    ENTRIES; silently nothing if the folder cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_digest(data).encode())
                f.write(data)
            os.replace(temp, path)
        except BaseException:
            os.unlink(temp)
            raise
        entries = [e for e in os.scandir(path.parent) if e.name.endswith(".bin") and e.is_file()]
        if len(entries) > ENTRIES:
            entries.sort(key=lambda e: e.stat().st_mtime_ns)
            for old in entries[:len(entries) - ENTRIES]:
                os.unlink(old.path)
    except OSError:
        pass
