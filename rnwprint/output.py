"""Safe file writes and default output names.

A regular file (or a new one) is written atomically: a hidden temporary file next to it,
then a rename, so a failed or interrupted write never leaves half a file; several files
(a photo's typed-in file and picture) are renamed only once all are written. What is not a
regular file is never replaced: a symlink is followed to its target, a character device or
a FIFO (/dev/null, a pipe) is written straight to, anything else is refused. A command
never writes over one of its own input files. The name "-" is standard output (./- names a
file called "-"), written last, once every file is in place."""

from __future__ import annotations

import errno
import fcntl
import os
import pathlib
import signal
import stat
import sys
import tempfile
import threading
import time

from rnwprint.core.errors import RnwError

DEFAULT_DIR = pathlib.Path("output")
_PSEUDO = ("/proc", "/sys")  # the kernel's views: nothing can be created there
FIFO_WAIT = 10.0  # seconds
_temps: set[str] = set()  # temporary files being written, removed if a signal stops us
STDOUT = "-"


#: the names standard output also goes by: taken as "-", so that nothing else is printed into it
STDOUT_NAMES = frozenset({STDOUT, "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})


def is_stdout(path) -> bool:
    """Whether an output path given is "-" (or another name of standard output)."""
    return path is not None and str(path) in STDOUT_NAMES


def check_target(path: pathlib.Path, inputs=()) -> pathlib.Path:
    """Where writing `path` would really go (a symlink followed); RnwError, naming the path,
    if it cannot or must not be written: a folder, a socket or block device, an input of
    the command, under /proc, or under a regular file."""
    path = pathlib.Path(path)
    where = str(path)
    if is_stdout(path):
        return path
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None  # a new file (or a dangling symlink: its target is created)
    except NotADirectoryError:
        mode = None  # reported below, naming the part that is a file
    except OSError as e:
        raise RnwError(f"cannot write file: {e.strerror}", where) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise RnwError("is a folder, not a file: name a file inside it", where)
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        return path  # a device or FIFO: written straight to, nothing replaced
    if mode is not None and not stat.S_ISREG(mode):
        kind = "a socket" if stat.S_ISSOCK(mode) else "a block device" if stat.S_ISBLK(mode) else "not a file"
        raise RnwError(f"is {kind}, not a file: refusing to write to it", where)
    for given in inputs:
        if given is not None and same_file(path, pathlib.Path(given)):
            also = "" if str(given) == where else f" ({given})"
            raise RnwError(f"is an input of this command{also}: refusing to write over it", where)
    real = pathlib.Path(os.path.realpath(path))
    for pseudo in _PSEUDO:
        if str(real).startswith(pseudo + "/"):
            raise RnwError(f"cannot write under {pseudo}: it shows the system's state, it holds no files", where)
    for folder in path.parents:
        if folder.exists():
            if not folder.is_dir():
                raise RnwError(f"is a file, not a folder: cannot write {path} under it", str(folder))
            break
    return real


def same_file(a: pathlib.Path, b: pathlib.Path) -> bool:
    """Whether two paths name one file (or would, once written); standard output is one file
    by any of its names."""
    if is_stdout(a) or is_stdout(b):
        return is_stdout(a) and is_stdout(b)
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet): compare where they would be
        return os.path.realpath(a) == os.path.realpath(b)


def write_atomic(path: pathlib.Path, data: bytes, inputs=()) -> None:
    """Write `data` to `path` (see the module's docstring); RnwError naming the path if it
    cannot."""
    write_all_atomic([(path, data)], inputs)


def write_all_atomic(files, inputs=()) -> None:
    """Write each (path, data) of `files`, or none of the regular files: every one is written
    to its temporary file first, and only when all are there are they renamed into place (a
    photo's typed-in file and picture, a sheet's pages: a full disk leaves none). `files` may
    be a generator: each file is staged as it comes. RnwError naming the path that could not be
    written."""
    with _removed_on_signal():
        staged = []  # (temporary file, where it goes, the path as given)
        to_stdout = []
        try:
            for path, data in files:
                if is_stdout(path):
                    to_stdout.append(data)
                    continue
                real = check_target(path, inputs)
                if real.exists() and not real.is_file():  # a device or a FIFO (the rest was refused)
                    _write_straight(real, data)
                    continue
                staged.append((_staged(real, data, path), real, path))
            for tmp, real, path in staged:
                try:
                    os.replace(tmp, real)
                except OSError as e:
                    raise RnwError(f"cannot write file: {_reason(e)}", str(path)) from None
            for data in to_stdout:
                _to_stdout(data)
        finally:
            for tmp, _, _ in staged:
                if os.path.lexists(tmp):
                    os.unlink(tmp)
                _temps.discard(tmp)


def _to_stdout(data: bytes) -> None:
    """`data` on standard output, after what was printed before it; an OSError (the command
    line's "standard output: cannot write") if it is closed or full."""
    sys.stdout.flush()
    binary = getattr(sys.stdout, "buffer", None)
    if binary is None:  # started with standard output closed
        raise OSError(errno.EBADF, "it is closed")
    binary.write(data)
    binary.flush()


def _staged(real: pathlib.Path, data: bytes, path) -> str:
    """`data` in a hidden temporary file beside `real` (where `path` really goes), with
    `real`'s permissions."""
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RnwError(f"cannot make the folder: {e.strerror}", str(real.parent)) from None
    try:
        fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name[:200]}.", suffix=".tmp")
    except OSError as e:
        raise RnwError(f"cannot write here: {e.strerror}", str(real.parent)) from None
    _temps.add(tmp)
    try:
        try:
            _write_fd(fd, data)
        finally:
            os.close(fd)
        os.chmod(tmp, _mode(real))
    except OSError as e:
        os.unlink(tmp)
        _temps.discard(tmp)
        raise RnwError(f"cannot write file: {_reason(e)}", str(path)) from None
    return tmp


def _mode(path: pathlib.Path) -> int:
    """The file's own permissions if it exists (a private file stays private), else what a
    new file gets under the umask."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def _write_straight(path: pathlib.Path, data: bytes) -> None:
    """A character device or a FIFO: written in place. A FIFO's reader gets FIFO_WAIT
    seconds to open it, not for ever."""
    deadline = time.monotonic() + FIFO_WAIT
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as e:
            if e.errno != errno.ENXIO:
                raise RnwError(f"cannot write file: {e.strerror}", str(path)) from None
            if time.monotonic() > deadline:
                raise RnwError(f"is a FIFO that no program opened for reading within {FIFO_WAIT:g} s: "
                               "start its reader first", str(path)) from None
            time.sleep(0.05)
    try:
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        _write_fd(fd, data)
    except OSError as e:
        raise RnwError(f"cannot write file: {_reason(e)}", str(path)) from None
    finally:
        os.close(fd)


def _write_fd(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view[:1 << 20]):]


def _reason(e: OSError) -> str:
    if e.errno == errno.ENOSPC:
        return "no space left on the device (the disk is full)"
    if e.errno == errno.EPIPE:
        return "the reader closed the pipe"
    return e.strerror or str(e)


class _removed_on_signal:
    """While writing, SIGTERM, SIGINT (Ctrl-C) and SIGHUP (the terminal closed) first remove
    the temporary files, then end the process by the same signal (as if no handler were set)."""

    def __enter__(self):
        self.saved = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                self.saved[sig] = signal.signal(sig, _on_signal)

    def __exit__(self, *exc):
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)


def _on_signal(signum, frame):
    for tmp in list(_temps):
        try:
            os.unlink(tmp)
        except OSError:
            pass
    _temps.clear()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def page_paths(target: pathlib.Path, pages: int, labels: list[str] | None = None) -> list[pathlib.Path]:
    """One path per page: `target` itself for a single page, else STEM-N.EXT with N the page
    number from 1, zero-padded to the width of the last so that names sort in page order
    (x-01.svg … x-12.svg), and each page's label after it when given (x-1-A.svg)."""
    if pages == 1:
        return [target]
    width = len(str(pages))
    return [target.with_name(f"{target.stem}-{n:0{width}d}{'-' + labels[n - 1] if labels else ''}{target.suffix}")
            for n in range(1, pages + 1)]
