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

This module also turns seeds into towers and checks a tower's size. Reading and writing
the ASCII format and turning silhouette pictures into towers live in
rnwprint.games.roll_to_the_top.tower_input, the short code for a sheet's identity QR in
rnwprint.games.roll_to_the_top.tower_code.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rnwprint.core.errors import RnwError

if TYPE_CHECKING:
    import numpy as np

Square = tuple[int, int]  # (row from the ground, left edge in half squares)
EPS = 1e-6  # squares are 1 wide and overlap by multiples of 1/2: far more than this
MAX_ROWS = 200  # row letters A..GR; far beyond anything a page holds
# Checked before a tower is built (towers past these take minutes to check and rate): far
# beyond a page too, which holds about 27 squares across and 30 rows of 7 mm.
MAX_ACROSS = 100  # squares across (a picture's --columns go up to 100)
MAX_SQUARES = 1000


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
        return list(self._problems)

    @functools.cached_property
    def _problems(self) -> tuple[str, ...]:
        ids = self.ids
        out = []
        for a, b in self._relations[2]:
            out.append(f"squares {ids[a]} and {ids[b]} overlap")
        if out:
            return tuple(out)
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
        return tuple(out)

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
        raise TowerError(f"too big for the page: {tower.width:g} square{'s' if tower.width != 1 else ''} across and {tower.rows} "
                         f"row{'s' if tower.rows > 1 else ''} of at least {side_mm:g} mm need more than "
                         f"{page}'s {width_mm:.0f} x {height_mm:.0f} mm", where)
    return tower


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
    widths = [min(max_width, w) for w in widths if w > 0]
    while sum(widths) < n:  # the squares --max-width cut off go on top
        widths.append(min(max_width, n - sum(widths)))
    return widths
