"""Towers for Roll to the Top: squares on a grid with half-square offsets.

A square is ``(row, col2)``: ``row`` counts rows from the ground (0 = bottom), ``col2``
is its left edge in half squares, so ``[][]`` over ``[][][]`` shifted by one character is a
brick pattern. In square units a square covers ``[col2/2, col2/2 + 1] x [row, row + 1]``
(y up). Every relation the rules need is computed from that geometry with shapely:

- A **rests on** B when A's bottom edge and B's top edge overlap by a positive length;
  corners that only touch at a point are no support.
- A is **beside** B when A's right edge and B's left edge (or the other way round) overlap
  by a positive length.
- **Ground** squares are those of the bottom row; a square above the ground resting on
  nothing is an **overhang**.

This module also reads and writes the ASCII format, turns silhouette pictures and seeds
into towers, and encodes a tower as a short code for a sheet's identity QR.

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

import functools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rnwprint.errors import RnwError

if TYPE_CHECKING:
    import numpy as np

Square = tuple[int, int]  # (row from the ground, left edge in half squares)
EPS = 1e-6  # squares are 1 wide and overlap by multiples of 1/2: far more than this
MAX_ROWS = 200  # row letters A..GR; far beyond anything a page holds
# Checked before a tower is built (towers past these take minutes to check and rate): far
# beyond a page too, which holds about 27 squares across and 30 rows of 7 mm.
MAX_ACROSS = 100  # squares across (a picture's --columns go up to 100)
MAX_SQUARES = 1000
# Tower codes are written in Crockford's base 32: digits and capitals without I, L, O and U,
# so nothing looks like something else; read in either case, I and L as 1, O as 0.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_OLD_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"  # base 62: codes printed before issue 16


class OldCodeError(ValueError):
    """A tower code of the old (base-62) format: the message gives the tower's code now."""


class TowerError(RnwError):
    """A tower that cannot be played or read; the message names the squares at fault."""


def row_letters(row: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (spreadsheet style)."""
    letters = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


@dataclass(frozen=True, eq=False)
class Tower:
    """A normalised set of squares: the bottom row is 0 and the leftmost edge is col2 0.

    Squares are sorted bottom row first, then left to right; ``ids[i]`` names
    ``squares[i]``: the row letter from the ground (A, B, …) and the square's place in its
    row counted from the left (A1, A2, …).
    """

    squares: tuple[Square, ...]

    @classmethod
    def of(cls, squares) -> Tower:
        squares = sorted(set((int(r), int(c)) for r, c in squares))
        if not squares:
            raise TowerError("the tower has no squares")
        r0 = min(r for r, _ in squares)
        c0 = min(c for _, c in squares)
        return cls(tuple((r - r0, c - c0) for r, c in squares))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tower) and self.squares == other.squares

    def __hash__(self) -> int:
        return hash(self.squares)

    def __len__(self) -> int:
        return len(self.squares)

    # --- names and extent --------------------------------------------------------------

    @functools.cached_property
    def ids(self) -> tuple[str, ...]:
        ids, row, place = [], None, 0
        for r, _ in self.squares:
            place = place + 1 if r == row else 1
            row = r
            ids.append(f"{row_letters(r)}{place}")
        return tuple(ids)

    @functools.cached_property
    def index(self) -> dict[str, int]:
        return {cid: i for i, cid in enumerate(self.ids)}

    @property
    def rows(self) -> int:
        return self.squares[-1][0] + 1

    @property
    def width(self) -> float:
        """Width in squares."""
        return (max(c for _, c in self.squares) + 2) / 2

    # --- geometry ------------------------------------------------------------------------

    @functools.cached_property
    def boxes(self) -> np.ndarray:
        """Each square as (x0, y0, x1, y1) in square units, y up."""
        import numpy as np  # geometry libraries load only when a tower is built
        a = np.array(self.squares, dtype=float).reshape(-1, 2)
        x0, y0 = a[:, 1] / 2, a[:, 0]
        return np.column_stack((x0, y0, x0 + 1, y0 + 1))

    @functools.cached_property
    def _relations(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]]:
        """(supports, beside, overlapping pairs), from the squares' edges and areas.

        Edges are shortened by EPS at both ends and areas shrunk by EPS, so two edges
        "intersect" only when they overlap by a positive length (a shared corner point does
        not) and two squares only when they overlap by a positive area.
        """
        import shapely  # loads only when a tower is built
        b = self.boxes
        x0, y0, x1, y1 = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
        bottoms = shapely.linestrings(_segments(x0 + EPS, y0, x1 - EPS, y0))
        tops = shapely.linestrings(_segments(x0 + EPS, y1, x1 - EPS, y1))
        lefts = shapely.linestrings(_segments(x0, y0 + EPS, x0, y1 - EPS))
        rights = shapely.linestrings(_segments(x1, y0 + EPS, x1, y1 - EPS))
        n = len(self.squares)
        supports: list[list[int]] = [[] for _ in range(n)]
        beside: list[list[int]] = [[] for _ in range(n)]
        for a, c in _touching(bottoms, tops):
            supports[a].append(c)
        for a, c in _touching(rights, lefts):
            beside[a].append(c)
            beside[c].append(a)
        inner = shapely.box(x0 + EPS, y0 + EPS, x1 - EPS, y1 - EPS)
        overlaps = tuple((a, c) for a, c in _touching(inner, inner) if a < c)
        return (tuple(tuple(sorted(s)) for s in supports), tuple(tuple(sorted(s)) for s in beside), overlaps)

    @property
    def supports(self) -> tuple[tuple[int, ...], ...]:
        """For each square, the squares it rests on."""
        return self._relations[0]

    @property
    def beside(self) -> tuple[tuple[int, ...], ...]:
        """For each square, the squares left and right of it."""
        return self._relations[1]

    @functools.cached_property
    def resting(self) -> tuple[tuple[int, ...], ...]:
        """For each square, the squares resting on it."""
        out: list[list[int]] = [[] for _ in self.squares]
        for i, sup in enumerate(self.supports):
            for s in sup:
                out[s].append(i)
        return tuple(tuple(o) for o in out)

    @functools.cached_property
    def ground(self) -> tuple[bool, ...]:
        return tuple(r == 0 for r, _ in self.squares)

    @functools.cached_property
    def overhang(self) -> tuple[bool, ...]:
        return tuple(r > 0 and not s for (r, _), s in zip(self.squares, self.supports))

    # --- playability -----------------------------------------------------------------------

    def problems(self) -> list[str]:
        """Why the tower cannot be played, one sentence each naming the squares; [] if it can."""
        ids = self.ids
        out = []
        for a, b in self._relations[2]:
            out.append(f"squares {ids[a]} and {ids[b]} overlap")
        if out:
            return out
        if len(self.squares) > 1:
            parts = _components(len(self.squares), [(a, b) for a, sup in enumerate(self.supports) for b in sup]
                                + [(a, b) for a, bes in enumerate(self.beside) for b in bes])
            if len(parts) > 1:
                main = max(parts, key=lambda p: (sum(self.ground[i] for i in p), len(p), -min(p)))
                loose = sorted(i for p in parts if p is not main for i in p)
                out.append(f"not connected to the rest of the tower: {_names(ids, loose)} "
                           "(squares connect through a shared edge; touching corners do not count)")
        never = [i for i, ok in enumerate(self.reachable()) if not ok]
        if never:
            out.append(f"can never be written: {_names(ids, never)} (an overhang needs a square beside it, "
                       "a square resting on others needs all of them)")
        return out

    def reachable(self) -> list[bool]:
        """Which squares can ever become writable, starting from an empty tower."""
        ok = list(self.ground)
        changed = True
        while changed:
            changed = False
            for i, done in enumerate(ok):
                if done:
                    continue
                sup = self.supports[i]
                if (sup and all(ok[s] for s in sup)) or (not sup and any(ok[b] for b in self.beside[i])):
                    ok[i] = changed = True
        return ok

    def check(self, where: str | None = None, hint: str = "") -> Tower:
        """The tower itself if it can be played; TowerError naming the squares otherwise."""
        problems = self.problems()
        if problems:
            raise TowerError("unplayable tower: " + "; ".join(problems) + hint, where)
        return self


def _segments(x0, y0, x1, y1) -> np.ndarray:
    import numpy as np  # geometry libraries load only when a tower is built
    return np.stack((np.column_stack((x0, y0)), np.column_stack((x1, y1))), axis=1)


def _touching(geoms_a, geoms_b) -> list[tuple[int, int]]:
    """Pairs (a, b) of geometries that intersect (the shortened edges / shrunk squares above)."""
    import shapely  # loads only when a tower is built
    i, j = shapely.STRtree(geoms_b).query(geoms_a, predicate="intersects")
    return [(int(a), int(c)) for a, c in zip(i, j)]


def _components(n: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        parent[find(a)] = find(b)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _names(ids, indices, limit: int = 12) -> str:
    names = [ids[i] for i in indices]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


# --- ASCII ------------------------------------------------------------------------------

def parse_ascii(text: str, where: str = "tower") -> Tower:
    """ASCII art -> Tower (not yet checked for playability). TowerError names line and column."""
    lines = [line.rstrip() for line in text.replace("\t", "    ").splitlines()]
    lines = [("" if line.lstrip().startswith("#") else line) for line in lines]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise TowerError("no squares found; draw each square as [] (one text line per row)", where)
    if len(lines) > MAX_ROWS:
        raise TowerError(f"{len(lines)} rows; at most {MAX_ROWS}", where)
    for n, line in enumerate(lines):
        drawn = line.strip()
        if len(drawn) > 2 * MAX_ACROSS:
            raise TowerError(f"line {n + 1} is {len(drawn) / 2:,g} squares wide; a tower is at most "
                             f"{MAX_ACROSS} across", where)
    squares = []
    problems = []
    for n, line in enumerate(lines):
        row = len(lines) - 1 - n
        c = 0
        while c < len(line):
            ch = line[c]
            if ch in " .":
                c += 1
            elif ch == "[" and line[c + 1:c + 2] == "]":
                squares.append((row, c))
                c += 2
            else:
                problems.append(f"line {n + 1}, column {c + 1}: unexpected {ch!r}; draw each square as []")
                c += 1
    if problems:
        raise TowerError("; ".join(problems[:5]) + (f" and {len(problems) - 5} more" if len(problems) > 5 else ""),
                         where)
    if not squares:
        raise TowerError("no squares found; draw each square as []", where)
    return Tower.of(check_extent(squares, where))


def check_extent(squares: list[Square], where: str | None = None) -> list[Square]:
    """The squares, if within MAX_SQUARES and MAX_ACROSS; TowerError saying which is exceeded."""
    if len(squares) > MAX_SQUARES:
        raise TowerError(f"{len(squares):,} squares; a tower has at most {MAX_SQUARES:,}", where)
    across = (max(c for _, c in squares) - min(c for _, c in squares) + 2) / 2
    if across > MAX_ACROSS:
        raise TowerError(f"{across:,g} squares across; a tower is at most {MAX_ACROSS} across", where)
    return squares


def check_fits(tower: Tower, width_mm: float, height_mm: float, side_mm: float, where: str | None = None,
               page: str = "the page") -> Tower:
    """The tower, if squares of `side_mm` could fit it in width_mm x height_mm; TowerError otherwise.

    A quick bound checked before the (slow) rating; the sheet's layout fits it exactly later."""
    if tower.width * side_mm > width_mm or tower.rows * side_mm > height_mm:
        raise TowerError(f"too big for the page: {tower.width:g} squares across and {tower.rows} "
                         f"row{'s' if tower.rows > 1 else ''} of at least {side_mm:g} mm need more than "
                         f"{page}'s {width_mm:.0f} x {height_mm:.0f} mm", where)
    return tower


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

    from rnwprint.photo.locate import MAX_FILE_BYTES, MAX_PIXELS, image_header

    where = str(path)
    if not 1 <= columns <= 100:
        raise TowerError(f"{columns} columns; choose 1-100", "--columns")
    try:
        with open(path, "rb") as f:
            data = f.read(65536)  # the header first: a file that is no picture is not read whole
            if image_header(data)[0] is not None:
                data += f.read(MAX_FILE_BYTES)  # more than a 50 MP picture takes, even uncompressed
    except FileNotFoundError:
        raise TowerError("no such file", where) from None
    except OSError as e:
        raise TowerError(f"cannot read file: {e.strerror or e}", where) from None
    kind, size = image_header(data)  # the same guard as a photo's: the header, before decoding
    if kind is None:
        raise TowerError("not a picture pillow can read (PNG or JPEG)", where)
    if size is None or 0 in size:
        raise TowerError(f"corrupt {kind} file: cannot read the image size", where)
    if len(data) > MAX_FILE_BYTES:
        raise TowerError(f"file larger than {MAX_FILE_BYTES / 1e6:g} MB: too large for a picture of at most "
                         f"{MAX_PIXELS / 1e6:g} MP", where)
    if size[0] * size[1] > MAX_PIXELS:
        raise TowerError(f"picture too large: {size[0]}x{size[1]} = {size[0] * size[1] / 1e6:,.0f} MP "
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
        raise TowerError(f"not a picture pillow can read (PNG or JPEG): {' '.join(str(e).split())[:120]}",
                         where) from None
    dark = grey.point(lambda v: 255 if v < threshold else 0)
    box = dark.getbbox()
    if box is None:
        raise TowerError("no dark shape found (the tower is drawn dark on a light background)", where)
    shape = dark.crop(box)
    w, h = shape.size
    rows = max(1, round(h * columns / w))
    if rows > MAX_ROWS:
        raise TowerError(f"the shape would be {rows} rows high; use fewer --columns", where)
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


# --- random towers ----------------------------------------------------------------------

SHAPES = ("mixed", "taper", "spire", "tree")


def random_tower(rng: random.Random, squares: int = 30, shape: str = "mixed", max_width: int = 12,
                 max_rows: int = 20) -> Tower:
    """A playable tower of exactly `squares` squares, one run of squares per row.

    taper: wide at the ground, narrowing upwards (sometimes with an arch in the bottom row);
    spire: narrow and tall with a wider deck near the top (overhangs);
    tree: a trunk with a canopy wider than it (overhangs); mixed: one of them at random.
    Each row overlaps the row below by at least half a square, so every square can be reached.
    """
    if shape not in SHAPES:
        raise TowerError(f"unknown shape {shape!r}; choose one of: {', '.join(SHAPES)}", "--shape")
    if not 3 <= squares <= 200:
        raise TowerError(f"{squares} squares; choose 3-200", "--squares")
    if shape == "mixed":
        shape = rng.choice(SHAPES[1:])
    if squares > max_width * max_rows:
        raise TowerError(f"{squares} squares do not fit in {max_rows} rows of at most {max_width}; "
                         "use fewer --squares or a larger --max-width", "--squares")
    widths = _profile(rng, squares, shape, max_width, max_rows)
    while len(widths) > max_rows:  # too tall: widen the narrowest lower row, take the top off
        k = min(range(max_rows), key=lambda r: (widths[r], r))
        widths[k] += 1
        widths = _trim(widths, squares)
    rows: list[tuple[int, int]] = []  # (left col2, width in squares)
    for w in widths:
        if not rows:
            rows.append((0, w))
            continue
        pl, pw = rows[-1]
        centre = pl + pw  # centre of the row below, in half squares
        left = centre - w + rng.choice((-1, 0, 0, 1))
        # overlap the row below by at least half a square
        left = max(min(left, pl + 2 * pw - 1), pl - 2 * w + 1)
        rows.append((left, w))
    cells = [(r, left + 2 * k) for r, (left, w) in enumerate(rows) for k in range(w)]
    if shape == "taper" and rows[0][1] >= 4 and len(rows) > 1 and rng.random() < 0.4:
        # an arch: drop a middle square of the bottom row if the row above spans it
        left, w = rows[0]
        gap = (0, left + 2 * (w // 2))
        top_left, top_w = rows[-1]
        extra = (len(rows) - 1, top_left + 2 * top_w)  # the square moves to the top row's end
        arched = [c for c in cells if c != gap] + [extra]
        if not Tower.of(arched).problems():
            cells = arched
    return Tower.of(cells).check()


def _canopy(c: int) -> list[int]:
    """A crown of width c: narrow at the branches, full, then tapering to the top."""
    return [max(1, c - 2), c, c] + list(range(c - 1, 0, -2))


def _trim(widths: list[int], n: int) -> list[int]:
    """Take squares off the top rows until the widths add up to n."""
    widths = list(widths)
    while sum(widths) > n:
        widths[-1] -= 1
        if widths[-1] == 0:
            widths.pop()
    return widths


def _profile(rng: random.Random, n: int, shape: str, max_width: int, max_rows: int) -> list[int]:
    if shape == "taper":
        base = 1
        while base * (base + 1) // 2 < n:
            base += 1
        base = min(max_width, base + rng.choice((0, 0, 1)))
        widths, w = [], base
        while sum(widths) < n:
            widths.append(min(w, n - sum(widths)))
            if rng.random() < 0.75:
                w = max(1, w - 1)
    elif shape == "spire":
        height_hint = max(3, n // 2)
        narrow = max(1, -(-n // max_rows) - 1)  # wide enough to stay within max_rows
        widths = []
        while sum(widths) < n:
            level = len(widths)
            if level == 0:
                w = 3
            elif abs(level - int(height_hint * 0.7)) <= 0 and n - sum(widths) > 6:
                w = 4
            elif level < 2:
                w = max(2, narrow)
            else:
                w = rng.choice((narrow, narrow + 1, narrow + 1))
            widths.append(min(w, n - sum(widths)))
    else:  # tree
        trunk_w = 1 if n < 24 else 2
        widths = [trunk_w] * rng.choice((2, 3))
        rest = n - sum(widths)
        crown = 3
        while sum(_canopy(crown + 1)) <= rest and crown < max_width:
            crown += 1
        canopy = _canopy(crown)
        extra = rest - sum(canopy)
        while extra > 0:  # widen the middle of the crown, then add a row on top
            for k in range(len(canopy)):
                if extra and canopy[k] < max_width and rng.random() < 0.5:
                    canopy[k] += 1
                    extra -= 1
            if extra and rng.random() < 0.3:
                canopy.append(min(extra, 2))
                extra -= canopy[-1]
        while sum(canopy) > rest:  # trim from the top
            canopy[-1] -= 1
            if canopy[-1] == 0:
                canopy.pop()
        widths += canopy
    return [max(1, min(max_width, w)) for w in widths if w > 0]


# --- short codes for the identity QR ------------------------------------------------------

class _Bits:
    def __init__(self) -> None:
        self.bits: list[int] = []

    def gamma(self, v: int) -> None:
        """Exp-Golomb code of v >= 0: small numbers take few bits."""
        v += 1
        n = v.bit_length()
        self.bits += [0] * (n - 1) + [int(b) for b in bin(v)[2:]]

    def signed(self, v: int) -> None:
        self.gamma(2 * v if v >= 0 else -2 * v - 1)


class _Reader:
    def __init__(self, bits: str) -> None:
        self.bits, self.pos = bits, 0

    def gamma(self) -> int:
        zeros = 0
        while self._bit() == 0:
            zeros += 1
            if zeros > 32:
                raise ValueError("corrupt code")
        v = 1
        for _ in range(zeros):
            v = 2 * v + self._bit()
        return v - 1

    def signed(self) -> int:
        v = self.gamma()
        return v // 2 if v % 2 == 0 else -(v + 1) // 2

    def _bit(self) -> int:
        if self.pos >= len(self.bits):
            raise ValueError("code ends too early")
        self.pos += 1
        return int(self.bits[self.pos - 1])


def _runs(tower: Tower) -> list[list[tuple[int, int]]]:
    """Per row from the ground: runs of edge-to-edge squares as (left col2, count)."""
    rows: list[list[tuple[int, int]]] = [[] for _ in range(tower.rows)]
    for r, c in tower.squares:
        runs = rows[r]
        if runs and runs[-1][0] + 2 * runs[-1][1] == c:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((c, 1))
    return rows


def encode(tower: Tower) -> str:
    """A short code of the squares in Crockford's base 32 (about 1 character per row of a
    simple tower), upper case, without hyphens.

    Bits: the row count, then per row the number of runs, and per run its left edge (the
    first run relative to the row below's first run, the others as the gap after the run
    before) and its length, all in exp-Golomb codes; read as one integer in base 32.
    """
    return _digits(_bits(tower), CODE_ALPHABET)


def base62_code(tower: Tower) -> str:
    """The tower's code in the base-62 format printed before issue 16: ratings are seeded with
    it (games.tower_sim.seed_for), so every tower kept its printed figures when codes changed."""
    return _digits(_bits(tower), _OLD_ALPHABET)


def normal_code(code: str) -> str:
    """A code as typed (either case, hyphens and spaces, I/L for 1, O for 0) as printed."""
    return "".join(code.split()).replace("-", "").upper().translate(str.maketrans("ILO", "110"))


def grouped(code: str) -> str:
    """A code as printed on a sheet: in groups of four, 7KD3-M9QX-2B."""
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))


def decode(code: str) -> Tower:
    """The inverse of `encode`, for a code as typed (see `normal_code`); ValueError for a
    string that is not a tower code, saying so plainly for a code of the old format."""
    given, code = code, normal_code(code)
    try:
        return _decode(code, CODE_ALPHABET)
    except ValueError as e:
        reason = e
    try:
        old = _decode(given.strip(), _OLD_ALPHABET)
    except ValueError:
        raise reason from None
    raise OldCodeError(f"{given!r} is a tower code of the old format: codes changed to 0-9 and A-Z without "
                     f"I, L, O and U; this tower's code is now {encode(old)}")


def _bits(tower: Tower) -> str:
    rows = _runs(tower)
    if any(not runs for runs in rows):
        raise ValueError("a tower with an empty row has no code")
    out = _Bits()
    out.gamma(len(rows) - 1)
    prev = 0
    for runs in rows:
        out.gamma(len(runs) - 1)
        end = None
        for k, (left, count) in enumerate(runs):
            if k == 0:
                out.signed(left - prev)
                prev = left
            else:
                out.gamma(left - end - 1)
            out.gamma(count - 1)
            end = left + 2 * count
    return "".join(map(str, out.bits))


def _digits(bits: str, alphabet: str) -> str:
    """The bits after a leading 1, as one integer written in the alphabet's base."""
    number, base = int("1" + bits, 2), len(alphabet)
    digits = []
    while number:
        number, d = divmod(number, base)
        digits.append(alphabet[d])
    return "".join(reversed(digits))


def _decode(code: str, alphabet: str) -> Tower:
    if not code or len(code) > 400 or any(ch not in alphabet for ch in code):
        raise ValueError(f"{code!r} is not a tower code: codes are 0-9 and A-Z without I, L, O and U")
    number = 0
    for ch in code:
        number = number * len(alphabet) + alphabet.index(ch)
    bits = bin(number)[3:]
    reader = _Reader(bits)
    rows = reader.gamma() + 1
    if rows > MAX_ROWS:
        raise ValueError("too many rows")
    squares, prev = [], 0
    for r in range(rows):
        n_runs = reader.gamma() + 1
        end = None
        for k in range(n_runs):
            if k == 0:
                left = prev + reader.signed()
                prev = left
            else:
                left = end + 1 + reader.gamma()
            count = reader.gamma() + 1
            if count > MAX_ACROSS or len(squares) + count > MAX_SQUARES:
                raise ValueError("too many squares")
            squares += [(r, left + 2 * i) for i in range(count)]
            end = left + 2 * count
    if reader.pos != len(bits):
        raise ValueError(f"{code!r} is not a tower code (extra bits)")
    try:
        check_extent(squares)
    except TowerError as e:
        raise ValueError(e.message) from None
    tower = Tower.of(squares)
    if _digits(_bits(tower), alphabet) != code:
        raise ValueError(f"{code!r} is not the canonical code of a tower")
    return tower
