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


def folder_reason(path, nothing: str) -> str | None:
    """Why `path` is no file to read: `nothing` for a folder with nothing in it to read, the
    system's reason where the folder cannot be listed or the name not looked up (a name too
    long); None otherwise (opening the file says the rest)."""
    try:
        if not os.path.isdir(path):
            os.stat(path)  # a name too long, a folder on the way we may not enter
            return None
        os.listdir(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        return cannot_read(e, path)
    return nothing
