"""Atomic file writes and default output names."""

from __future__ import annotations

import os
import pathlib
import tempfile

from rnwprint.errors import RnwError

DEFAULT_DIR = pathlib.Path("output")


def write_atomic(path: pathlib.Path, data: bytes) -> None:
    """Write `data` to `path` via a temporary file and a rename: never a half file."""
    path = pathlib.Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise RnwError(f"cannot write here: {e.strerror}", str(path.parent)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise RnwError(f"cannot write file: {e.strerror}", str(path)) from None


def page_paths(target: pathlib.Path, suffixes: list[str]) -> list[pathlib.Path]:
    """One path per page: `target` itself for a single page, else target-<suffix>."""
    if len(suffixes) == 1:
        return [target]
    return [target.with_name(f"{target.stem}-{s}{target.suffix}") for s in suffixes]
