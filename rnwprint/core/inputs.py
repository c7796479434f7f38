"""Opening the user's input files without waiting for ever on a named pipe."""

from __future__ import annotations

import os
import pathlib
from typing import BinaryIO


def open_input(path: str | pathlib.Path) -> BinaryIO:
    """open(path, "rb"), except that a named pipe nothing writes to opens at once (and reads
    as empty) instead of waiting for a writer that may never come; a pipe being written to
    (`rnwprint audit <(cat sheet.toml)`) reads as usual."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def cannot_read(e: OSError, path) -> str:
    """Why `path` could not be opened, for a message: a pattern that matched nothing (the
    shell passes it on as it is, and so does a Windows prompt) is said to be one."""
    if isinstance(e, FileNotFoundError) and any(c in str(path) for c in "*?["):
        return "no file matches this pattern"
    if isinstance(e, FileNotFoundError) and str(path) == "-":
        return "no file of that name; standard input is not read here: give the file's name (./- for a file named -)"
    return f"cannot read file: {e.strerror or e}"
