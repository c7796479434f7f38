"""Towers from text and pictures: the ASCII format read and written, silhouette pictures
filled with squares (see rnwprint.games.roll_to_the_top.tower for the geometry).

ASCII format: one text line per row of squares, the top row first. A square is written
``[]``; each character is half a square wide, so a line indented by one space more than the
line below sits half a square to the right (a brick pattern). Spaces (or dots) are empty;
lines starting with ``#`` are comments; blank lines before and after the tower are ignored.

    #  a small pyramid
       []
      [][]
     [][][]
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rnwprint.core.inputs import cannot_read, open_input
from rnwprint.games.roll_to_the_top.tower import MAX_ACROSS, MAX_ROWS, Tower, TowerError, check_extent

if TYPE_CHECKING:
    import numpy as np

    from rnwprint.games.roll_to_the_top.tower import Square


# --- ASCII ------------------------------------------------------------------------------

def parse_ascii(text: str, where: str = "tower") -> Tower:
    """ASCII art -> Tower (not yet checked for playability). TowerError names line and column."""
    # (line number in the text, line): comment lines are dropped, not rows of no squares
    lines = [(n, line.rstrip()) for n, line in enumerate(text.replace("\t", "    ").splitlines(), 1)
             if not line.lstrip().startswith("#")]
    while lines and not lines[0][1].strip():
        lines.pop(0)
    while lines and not lines[-1][1].strip():
        lines.pop()
    if not lines:
        raise TowerError("no squares found; draw each square as [] (one text line per row)", where)
    if len(lines) > MAX_ROWS:
        raise TowerError(f"{len(lines)} rows; at most {MAX_ROWS}", where)
    for n, line in lines:
        drawn = line.strip()
        if len(drawn) > 2 * MAX_ACROSS:
            raise TowerError(f"line {n} is {len(drawn) / 2:,g} squares wide; a tower is at most "
                             f"{MAX_ACROSS} across", where)
    squares = []
    found = []  # (line, column, what is wrong there)
    for row, (n, line) in enumerate(reversed(lines)):
        c = 0
        while c < len(line):
            ch = line[c]
            if ch in " .":
                c += 1
            elif ch == "[" and line[c + 1:c + 2] == "]":
                squares.append((row, c))
                c += 2
            else:
                found.append((n, c, f"line {n}, column {c + 1}: unexpected {ch!r}"))
                c += 1
    problems = [said for _, _, said in sorted(found)]  # in the file's order, top line first
    if problems:
        more = f" and {len(problems) - 5} more" if len(problems) > 5 else ""
        raise TowerError("; ".join(problems[:5]) + more + "; draw each square as []", where)
    if not squares:
        raise TowerError("no squares found; draw each square as []", where)
    return Tower.of(check_extent(squares, where))


def format_ascii(tower: Tower) -> str:
    rows: dict[int, list[int]] = {}
    for r, c in tower.squares:
        rows.setdefault(r, []).append(c)
    lines = []
    for r in range(tower.rows - 1, -1, -1):
        chars = []
        for c in rows.get(r, ()):
            chars.append(" " * (c - sum(len(x) for x in chars)) + "[]")
        lines.append("".join(chars))
    return "\n".join(lines) + "\n"


# --- pictures -----------------------------------------------------------------------------

#: a picture's least width and height in pixels: a shape needs some pixels to be cut into rows
MIN_PICTURE_SIDE = 8


def from_picture(path, columns: int, threshold: int = 128) -> Tower:
    """The dark shape of a PNG/JPEG filled with squares, `columns` squares across its width.

    The picture (transparent parts count as white) is cropped to its dark pixels and cut
    into rows; each dark run of a row becomes squares centred on it (see _sample), so edges
    may fall on half squares and a symmetric picture gives a symmetric tower.
    """
    import io
    import warnings

    import numpy as np  # geometry libraries load only when a tower is built
    from PIL import Image

    from rnwprint.photo.load import MAX_FILE_BYTES, MAX_PIXELS, image_header

    where = str(path)
    if not 1 <= columns <= 100:
        raise TowerError(f"{columns} columns; choose 1-100", "--columns")
    try:
        with open_input(path) as f:
            data = f.read(65536)  # the header first: a file that is no picture is not read whole
            if image_header(data)[0] is not None:
                data += f.read(MAX_FILE_BYTES)  # more than a 50 MP picture takes, even uncompressed
    except OSError as e:
        raise TowerError(cannot_read(e, path), where) from None
    kind, size = image_header(data)  # the same guard as a photo's: the header, before decoding
    if kind is None:
        raise TowerError("not a picture: draw the tower's shape dark on light, saved as PNG or JPEG", where)
    if size is None or 0 in size:
        raise TowerError(f"corrupt {kind} file: cannot read the image size", where)
    if len(data) > MAX_FILE_BYTES:
        raise TowerError(f"file larger than {MAX_FILE_BYTES / 1e6:g} MB: too large for a picture of at most "
                         f"{MAX_PIXELS / 1e6:g} MP", where)
    if min(size) < MIN_PICTURE_SIDE:
        raise TowerError(f"picture too small: {size[0]} x {size[1]} px; draw the tower's shape at least "
                         f"{MIN_PICTURE_SIDE} px each way", where)
    if size[0] * size[1] > MAX_PIXELS:
        raise TowerError(f"picture too large: {size[0]}x{size[1]} = {math.ceil(size[0] * size[1] / 1e5) / 10:g} MP "
                         f"(at most {MAX_PIXELS / 1e6:.0f} MP); refused before decoding", where)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow's own warnings: the checks here say what matters
            with Image.open(io.BytesIO(data)) as im:
                im.load()
                if im.mode in ("P", "PA"):
                    im = im.convert("RGBA")  # a palette's transparent colour becomes alpha
                if im.mode in ("RGBA", "LA"):  # over white, in grey (a quarter of RGBA's memory)
                    grey = Image.composite(im.convert("L"), Image.new("L", im.size, 255), im.getchannel("A"))
                else:
                    grey = im.convert("L")
    except Exception as e:  # Pillow raises many kinds of error for a damaged file
        raise TowerError(f"cannot read this {kind} picture ({' '.join(str(e).split())[:120]}): save it again "
                         "as PNG or JPEG", where) from None
    dark = grey.point(lambda v: 255 if v < threshold else 0)
    box = dark.getbbox()
    if box is None:
        raise TowerError("no dark shape found (the tower is drawn dark on a light background)", where)
    shape = dark.crop(box)
    w, h = shape.size
    rows = max(1, round(h * columns / w))
    if rows > MAX_ROWS:
        fewer = "use fewer --columns" if columns > 1 else "crop the picture to the tower, or draw it less tall"
        raise TowerError(f"the shape would be {rows} rows high (at most {MAX_ROWS}); {fewer}", where)
    squares = _sample(np.asarray(shape) > 127, rows, columns)
    if not squares:
        raise TowerError("the dark shape is too thin for that many columns; use fewer --columns", where)
    return Tower.of(check_extent(squares, where))


def _sample(dark: np.ndarray, rows: int, columns: int) -> list[Square]:
    """Squares for a dark shape (True = dark), `rows` bands high, `columns` squares across its
    widest row.

    In each band a pixel column is dark where at least half of it is; each run of dark
    columns becomes as many squares as its length rounds to, centred on the run and set on
    the half-square grid, a tie going towards the picture's middle. Integer arithmetic
    throughout, so a symmetric picture gives a symmetric tower."""
    import numpy as np
    from fractions import Fraction

    h, w = dark.shape
    starts = [n * h // rows for n in range(rows)]
    counts = np.add.reduceat(dark, starts, axis=0, dtype=np.int64)  # dark pixels per band and column
    heights = np.diff(starts + [h])[:, None]
    bands = []
    for dark_columns in 2 * counts >= heights:
        edges = np.flatnonzero(np.diff(np.concatenate(([0], dark_columns.astype(np.int8), [0]))))
        bands.append([(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2])])  # [a, b) pixel columns
    widest = max((runs[-1][1] - runs[0][0] for runs in bands if runs), default=0)
    if not widest:
        return []
    scale = Fraction(columns, widest)  # squares per pixel: the widest row spans `columns` squares
    squares = []
    for n, runs in enumerate(bands):
        blocks = _blocks(runs, scale, w, columns)
        squares += [(rows - 1 - n, left + 2 * k) for left, count in blocks for k in range(count)]
    return squares


def _blocks(runs: list[tuple[int, int]], scale, w: int, columns: int) -> list[tuple[int, int]]:
    """(left col2, squares) for each run of a band; runs whose squares would overlap are
    taken as one."""
    import math
    from fractions import Fraction

    runs = list(runs)
    while True:
        blocks = []
        for a, b in runs:
            count = math.floor((b - a) * scale + Fraction(1, 2))
            middle = 2 * ((Fraction(a + b, 2) - Fraction(w, 2)) * scale) + columns  # in half squares
            left = middle - count  # left edge in half squares, to round onto the grid
            if left.denominator == 1:
                rounded = int(left)
            elif left - math.floor(left) == Fraction(1, 2):  # a tie: towards the middle
                rounded = math.ceil(left) if middle < columns else math.floor(left)
            else:
                rounded = round(left)
            blocks.append((rounded, count))
        runs = [run for run, (_, count) in zip(runs, blocks) if count]  # a run under half a square: none
        blocks = [block for block in blocks if block[1]]
        clash = next((i for i in range(len(runs) - 1) if blocks[i][0] + 2 * blocks[i][1] > blocks[i + 1][0]), None)
        if clash is None:
            return blocks
        runs[clash:clash + 2] = [(runs[clash][0], runs[clash + 1][1])]
