"""The command line's support: output paths and formats, option checks, progress bars,
writing sheets, standard input and a closed or full standard output."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import pathlib
import re
import sys

import click

from rnwprint.core.errors import RnwError
from rnwprint.layout.page import PAGE_SIZES
from rnwprint.locale import LANGUAGES
from rnwprint.render import FORMATS

PAGES = tuple(PAGE_SIZES)
class WholeRange(click.IntRange):
    """A whole number in a range, written in ASCII digits as a typed-in file's are (int() would
    also take "٧", "３" and "1_000")."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
            self.fail(f"{value!r} is not a whole number (digits 0-9)", param, ctx)
        return super().convert(value, param, ctx)


SEED = WholeRange(0, 999_999_999)  # a seed is part of a file name: keep it short


class OutputPath(click.ParamType):
    """A file to write: a path, never empty (an empty string would mean the current folder)
    nor ending in a slash (pathlib would drop it and write a file named as the folder); "-"
    is standard output, and ./- a file named "-" (pathlib would spell both "-")."""

    name = "path"

    def convert(self, value, param, ctx):
        if isinstance(value, pathlib.Path):
            return value
        if not value:
            self.fail("empty output path: name a file", param, ctx)
        if not value.strip():
            self.fail(f"{value!r}: only spaces: name a file", param, ctx)
        if value.endswith(("/", os.sep)):
            self.fail(f"{value}: ends with a slash, so names a folder: name a file inside it", param, ctx)
        path = pathlib.Path(value)
        return path.absolute() if str(path) == "-" and value != "-" else path


OUTPUT = OutputPath()


class InputPath(click.ParamType):
    """A file or folder to read: never empty (pathlib would take "" for the current folder);
    ./- a file named "-", not standard input (as for OutputPath)."""

    name = "path"

    def convert(self, value, param, ctx):
        if isinstance(value, pathlib.Path):
            return value
        if not value:
            self.fail("empty path: name a file or folder", param, ctx)
        path = pathlib.Path(value)
        return path.absolute() if str(path) == "-" and value != "-" else path


INPUT = InputPath()


def _printing_options(command):
    """--lang, --page and --format, as every command that prints sheets takes them."""
    command = click.option("--format", "fmt", type=click.Choice(FORMATS, case_sensitive=False), default=None,
                           help="pdf (one file, every page), svg or png (one file per page); "
                                "default: the -o name's extension, else pdf.")(command)
    command = click.option("--page", type=click.Choice(PAGES, case_sensitive=False), default="a4",
                           show_default=True, help="Paper size.")(command)
    return click.option("--lang", type=click.Choice(LANGUAGES, case_sensitive=False), default="es",
                        show_default=True, help="Language of every printed word.")(command)


@contextlib.contextmanager
def _progress(items, wanted: bool, label: str):
    """A progress bar on stderr for batches of slow items (hidden when not a terminal).
    While it is shown, a line anything else writes to stderr starts on a line of its own."""
    show = wanted and len(items) > 1 and sys.stderr.isatty()
    if not show:
        with click.progressbar(items, label=label, file=sys.stderr, hidden=True) as bar:
            yield bar
        return
    real, state = sys.stderr, {"open": False}
    sys.stderr = _SharedLine(real, state, bar=False)
    try:
        with click.progressbar(items, label=label, file=_SharedLine(real, state, bar=True)) as bar:
            yield bar
    finally:
        sys.stderr = real


class _SharedLine:
    """One side of a terminal's stderr shared by a progress bar and other lines: the bar
    leaves its line open, so another line written then first ends the bar's line."""

    def __init__(self, stream, state: dict, bar: bool):
        self._stream, self._state, self._bar = stream, state, bar

    def write(self, s):
        if s and isinstance(s, str):
            if self._state["open"] and not self._bar:
                s = "\n" + s
            self._state["open"] = not s.endswith("\n")
        return self._stream.write(s)

    def __getattr__(self, name):
        return getattr(self._stream, name)



# extensions that name a format: a file so named must hold that format
_NAMED_FORMATS = {"pdf", "svg", "svgz", "png", "jpg", "jpeg", "gif", "webp", "avif", "tif", "tiff", "bmp", "heic",
                  "eps", "ps", "toml", "json", "txt", "csv", "html", "xml", "yaml", "yml", "md", "doc", "docx", "odt",
                  "rtf", "zip", "gz", "tgz", "bz2", "xz"}


def _format_of(target: pathlib.Path | None, given: str | None, formats, default: str, option: str = "-o") -> str:
    """The format to write: --format, else the output name's extension, else `default`.
    A name whose extension is a format this command does not write, or contradicts
    --format, is refused: a file must hold what its name says."""
    named = target.suffix.lower().lstrip(".") if target is not None else ""
    if named not in _NAMED_FORMATS:
        return given or default
    if named not in formats:
        raise RnwError(f"a .{named} name, but this writes {_either([f.upper() for f in formats])}: "
                       f"name it {_either(['.' + f for f in formats])}", f"{option} {target}")
    if given and given != named:
        raise RnwError(f"the name says {named.upper()} but --format says {given.upper()}: drop --format or "
                       f"name the file .{given}", f"{option} {target}")
    return named


def _idle(option: str, idle: bool, why: str) -> None:
    """Refuse an option typed on the command line that would change nothing here."""
    ctx = click.get_current_context()
    param = next(p for p in ctx.command.params if option in p.opts)
    if idle and ctx.get_parameter_source(param.name) is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError(f"{option} {why}")


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _write_sheets(sheets, fmt: str, target: pathlib.Path, labels: list[str] | None = None, inputs=()) -> None:
    """Render and write (rnwprint.app.sheets.written), printing each file's name as it is written
    (not when the file itself goes to standard output)."""
    from rnwprint.app import sheets as printing
    from rnwprint.app import unwrap
    from rnwprint.output import is_stdout

    unwrap(printing.written(sheets, fmt, target, labels, inputs,
                            done=lambda path: None if is_stdout(path) else click.echo(str(path))))


def _read_stdin() -> str:
    from rnwprint.core.entries import MAX_TEXT_BYTES, decode_text

    if sys.stdin is None:  # started with standard input closed (`<&-`)
        raise RnwError("standard input is closed: pipe the drawing in, or give a file to --ascii", "stdin")
    try:
        raw = sys.stdin.buffer.read(MAX_TEXT_BYTES + 1)
    except (OSError, ValueError) as e:  # a directory, or a stream closed under us
        raise RnwError(f"cannot read standard input: {getattr(e, 'strerror', None) or e}", "stdin") from None
    return decode_text(raw, "stdin", "ASCII art")


class _Closed(io.TextIOBase):
    encoding, errors = "utf-8", "strict"

    def write(self, s):
        raise OSError(errno.EBADF, "it is closed")


def _mute_stdout() -> None:
    """Point standard output at /dev/null, so the exit's own flush fails no more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test's capture)

