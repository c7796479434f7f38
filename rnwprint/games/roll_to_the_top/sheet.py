"""Roll to the Top: the printed sheet — its title, rules, legend, rating and the tower drawn
to fill the page."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence

from rnwprint.core.errors import RnwError
from rnwprint.fonts import PT, text_width, wrap
from rnwprint.games.roll_to_the_top import sim as tower_sim
from rnwprint.games.roll_to_the_top.difficulty import rating
from rnwprint.games.roll_to_the_top.game import (
    CUSTOM,
    DESC,
    LAYOUT_VERSION,
    NAME,
    builtins,
    custom_variant_name,
    parse_variant,
)
from rnwprint.games.roll_to_the_top.tower import Tower, TowerError, row_letters
from rnwprint.games.roll_to_the_top.tower_code import encode, grouped
from rnwprint.layout.page import PAGE_NAMES, QR_MAX_BYTES, Box, new_sheet
from rnwprint.locale import t
from rnwprint.core.sheet import Cell, Circle, Identity, Path, Rect, Sheet, Style, Text

MIN_SQUARE = 7.0  # mm: smaller squares do not take two handwritten digits
MAX_SQUARE = 25.0  # mm: a small tower grows to fill the page, up to this
MIN_ID = 5.0  # pt: the smallest square id that still prints legibly
GROUND_OVERHANG = 4.0  # mm: the ground line reaches this far past the tower at each side
TITLE_ROOM = 160.0  # mm between the top markers (A4; Letter has 6 more)

INK = "#1a1a1a"
GREY = "#8c8c8c"
GOLD = "#d99a00"
SQUARE = Style(fill="#ffffff", stroke="#303030", width=0.4)
GROUND = Style(fill=None, stroke="#303030", width=0.8)
FACE = Style(fill="#ffffff", stroke="#303030", width=0.35)
GAP_FILL = Style(fill="#dcdcdc", stroke=None, width=0)
HATCH = Style(stroke="#9a9a9a", width=0.3)


def title_of(variant: str, lang: str) -> str:
    tower, _, builtin = parse_variant(variant)
    if builtin:
        name = builtins()[builtin].names[lang]
    else:
        name = _titled(tower, lang) or t(lang, "roll-to-the-top.custom", code="").strip()
    return f"{t(lang, 'roll-to-the-top.title')} — {name}"


def _titled(tower: Tower, lang: str) -> str | None:
    """A custom tower's name in the title, "Custom tower 7KD3-M9QX": its code, the one name
    the sheet gives it; None when the code is too long for the title (it is then printed
    under the legend, see `_code`)."""
    name = t(lang, "roll-to-the-top.custom", code=grouped(encode(tower)))
    room = TITLE_ROOM - text_width(t(lang, "roll-to-the-top.title") + " — ", 16, True)
    return name if text_width(name, 16, True) <= room else None


# --- the sheet --------------------------------------------------------------------------

def fit_square(tower: Tower, area: Box) -> float:
    """The side of the largest squares (up to MAX_SQUARE) that fit the tower and its ground
    line in `area`."""
    return min(MAX_SQUARE, (area.w - 2 * GROUND_OVERHANG) / tower.width, area.h / tower.rows)


def build(variant: str, lang: str, page: str) -> Sheet:
    try:
        tower, descending, builtin = parse_variant(variant)
    except ValueError as e:
        raise RnwError(str(e), "--variant") from None
    try:
        return _build(variant, tower, descending, builtin, lang, page)
    except TowerError as e:  # a code too big for the page, typed as a variant
        raise TowerError(e.message, f"--variant {variant}") from None


def build_tower(tower: Tower, lang: str, page: str, descending: bool = False) -> Sheet:
    """The sheet of a custom tower (checked playable first)."""
    return _build(custom_variant_name(tower.check(), descending), tower, descending, None, lang, page)


#: what a sheet laid out only to see whether its tower fits shows in place of the rating
_UNRATED = tower_sim.Rating(0, 0.0, 0.0, 0.0, 0)


def check_page(tower: Tower, lang: str, page: str, descending: bool, where: str) -> None:
    """TowerError naming `where` when the tower's sheet cannot hold it: the sheet laid out as it
    would be printed (the rating's line is as high whatever it says), without the rating."""
    try:
        _build(custom_variant_name(tower, descending), tower, descending, None, lang, page, lambda *_: _UNRATED)
    except TowerError as e:
        raise TowerError(e.message, where) from None


def _build(variant: str, tower: Tower, descending: bool, builtin: str | None, lang: str, page: str,
           rated=rating) -> Sheet:
    identity = Identity(NAME, variant, lang, page, LAYOUT_VERSION)
    if len(identity.encode().encode()) > QR_MAX_BYTES:
        most = len(variant) - (len(identity.encode().encode()) - QR_MAX_BYTES) - len(CUSTOM + (DESC if descending else ""))
        raise TowerError(f"too intricate for the sheet's QR code: its code has {len(encode(tower))} characters, "
                         f"at most {most} fit; fewer rows or fewer gaps in a row make a shorter code", "tower")
    sheet, box = new_sheet(identity, title_of(variant, lang))

    y = box.y + 1
    size = 7.5
    line_h = size * PT * 1.3
    if descending:
        y += line_h
        sheet.add(Text(box.x, y, t(lang, "roll-to-the-top.descending"), size, INK, bold=True))
    for line in _rules(lang, descending, size, box.w):
        y += line_h
        sheet.add(Text(box.x, y, line, size, INK))
    y += 3
    y = _legend(sheet, box.x, y, lang) + 2.5
    legend_bottom, figures_end = _difficulty(sheet, box.x, y, rated(tower, descending), lang)
    if builtin is None and _titled(tower, lang) is None:
        legend_bottom = _code(sheet, box, legend_bottom, encode(tower), lang)

    area = Box(box.x, legend_bottom + 5, box.w, box.bottom - legend_bottom - 10)  # QR quiet zone below
    side = fit_square(tower, area)
    if side < MIN_SQUARE:
        most_w = int((area.w - 2 * GROUND_OVERHANG) // MIN_SQUARE)
        most_h = int(area.h // MIN_SQUARE)
        raise TowerError(
            f"too big for the page: {tower.ids[0]} to {tower.ids[-1]} span {tower.width:g} square{'s' if tower.width != 1 else ''} across and "
            f"{tower.rows} row{'s' if tower.rows > 1 else ''}, so squares would be {math.floor(side * 10) / 10:.1f} mm on {PAGE_NAMES[page]} (at least {MIN_SQUARE:g} mm "
            f"hold two digits); at most {most_w} squares across and {most_h} rows fit", "tower")
    _tower(sheet, tower, area, side, lang)
    return sheet


@functools.cache
def _rules(lang: str, descending: bool, size: float, width: float) -> tuple[str, ...]:
    text = t(lang, "roll-to-the-top.rules", cmp="≤" if descending else "≥") + " " + t(lang, "roll-to-the-top.dice_rule")
    return tuple(wrap(text, size, width))


def _legend(sheet: Sheet, x: float, y: float, lang: str) -> float:
    """The white die's faces with what each does; returns the bottom of the legend."""
    label = t(lang, "roll-to-the-top.white_die")
    sheet.add(Text(x, y + 4.6, label, 7.5, INK, bold=True))
    x += text_width(label, 7.5, True) + 3
    face = 6.0
    groups = (("+", 2, "roll-to-the-top.add"), ("−", 2, "roll-to-the-top.remove"), ("±", 1, "roll-to-the-top.either"),
              ("⇄", 1, "roll-to-the-top.swap"))
    for symbol, count, key in groups:
        for _ in range(count):
            sheet.add(Rect(x, y, face, face, FACE, radius=1.0))
            _symbol(sheet, x + face / 2, y + face / 2, symbol)
            x += face + 1
        words = t(lang, key)
        sheet.add(Text(x + 0.5, y + 4.3, words, 7, INK))
        x += text_width(words, 7) + 4
    return y + face


def _symbol(sheet: Sheet, cx: float, cy: float, symbol: str) -> None:
    """The face symbols drawn as strokes (⇄ is not in the printing font; the others match it)."""
    pen = Style(stroke=INK, width=0.5)
    a = 1.8
    if symbol in ("+", "±"):
        dy = -0.6 if symbol == "±" else 0
        sheet.add(Path((((cx - a, cy + dy), (cx + a, cy + dy)),), pen, closed=False))
        sheet.add(Path((((cx, cy + dy - a), (cx, cy + dy + a)),), pen, closed=False))
        if symbol == "±":
            sheet.add(Path((((cx - a, cy + a + 0.4), (cx + a, cy + a + 0.4)),), pen, closed=False))
    elif symbol == "−":
        sheet.add(Path((((cx - a, cy), (cx + a, cy)),), pen, closed=False))
    else:  # ⇄: an arrow right above an arrow left
        for dy, sign in ((-0.9, 1), (0.9, -1)):
            tip = cx + sign * a
            sheet.add(Path((((cx - sign * a, cy + dy), (tip, cy + dy)),), pen, closed=False))
            sheet.add(Path((((tip - sign * 0.9, cy + dy - 0.8), (tip, cy + dy), (tip - sign * 0.9, cy + dy + 0.8)),),
                           pen, closed=False))


def _difficulty(sheet: Sheet, x: float, y: float, r: tower_sim.Rating, lang: str) -> tuple[float, float]:
    """The star rating and the simulated rounds; returns the bottom and the right end of the line."""
    star, gap = 4.2, 0.8
    label = t(lang, "roll-to-the-top.difficulty")
    sheet.add(Text(x, y + 3.2, label, 7.5, INK, bold=True))
    x += text_width(label, 7.5, True) + 2.5
    for k in range(5):
        filled = k < r.stars
        sheet.add(Path((_star(x + star / 2, y + 1.9, star / 2),),
                       Style(fill=GOLD if filled else "#ffffff", stroke="#7a5600" if filled else GREY, width=0.3)))
        x += star + gap
    figures = t(lang, "roll-to-the-top.rounds", mean=f"{r.mean:.0f}", p10=f"{r.p10:.0f}", p90=f"{r.p90:.0f}")
    sheet.add(Text(x + 2, y + 3.2, figures, 7, INK))
    return y + star, x + 2 + text_width(figures, 7)


CODE_SIZE = 10.0  # pt: a custom tower's code, printed to be copied


def _code(sheet: Sheet, box: Box, bottom: float, code: str, lang: str) -> float:
    """A code too long for the title, in lines of its own under the legend, large enough to
    copy: "Tower code:" and the code in groups of four, broken between groups; returns the
    bottom of what was printed."""
    label = t(lang, "roll-to-the-top.code", code="").strip()
    words = [label[:1].upper() + label[1:]] + [g + "-" for g in grouped(code).split("-")]  # a line of its own
    words[-1] = words[-1][:-1]
    lines = [""]
    for word in words:
        if lines[-1] and text_width(lines[-1] + word, CODE_SIZE, True) > box.w:
            lines.append("")
        lines[-1] += word + (" " if word is words[0] else "")
    for line in lines:
        bottom += CODE_SIZE * PT * 1.35
        sheet.add(Text(box.x, bottom, line, CODE_SIZE, INK, bold=True))
    return bottom + 1


def _star(cx: float, cy: float, r: float) -> tuple[tuple[float, float], ...]:
    import math

    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((round(cx + rr * math.cos(a), 3), round(cy + rr * math.sin(a), 3)))
    return tuple(pts)


def _tower(sheet: Sheet, tower: Tower, area: Box, side: float, lang: str) -> None:
    """The tower centred in `area`, its gaps shaded, the ground line under it."""
    width = tower.width * side
    x0 = area.x + (area.w - width) / 2
    ground_y = area.bottom - (area.h - tower.rows * side) / 2
    for hole in _closed_gaps(tower):
        _shade(sheet, [(x0 + x * side, ground_y - y * side) for x, y in hole], side)
    id_size = max(MIN_ID, min(7.0, side * 0.45))
    for i, ((row, col2), cid) in enumerate(zip(tower.squares, tower.ids)):
        x = x0 + col2 / 2 * side
        y = ground_y - (row + 1) * side
        sheet.add(Rect(x, y, side, side, SQUARE))
        size = id_size
        while text_width(cid, size) > side - 1.4 and size > MIN_ID:
            size -= 0.25
        sheet.add(Text(x + 0.7, y + 0.7 + size * PT * 0.75, cid, size, GREY))
        if tower.ground[i]:
            sheet.add(Circle(x + side / 2, y + side - 1.3, 0.55, Style(fill=INK, stroke=None)))
        corners = ((x, y), (x + side, y), (x + side, y + side), (x, y + side))
        sheet.add_cell(Cell(cid, corners, "number", tower_sim.LOW, tower_sim.HIGH, _label(tower, i, lang)))
    sheet.add(Path((((x0 - GROUND_OVERHANG, ground_y + 0.4), (x0 + width + GROUND_OVERHANG, ground_y + 0.4)),),
                   GROUND, closed=False))


def _closed_gaps(tower: Tower) -> list[list[tuple[float, float]]]:
    """The gaps the squares and the ground close all round (e.g. under an arch), as rings in
    square units (y up): drawn like a square they would look like one to write in."""
    import shapely

    b = tower.boxes
    ground = shapely.box(float(b[:, 0].min()), -0.01, float(b[:, 2].max()), 0.0)
    union = shapely.union_all([*shapely.box(b[:, 0], b[:, 1], b[:, 2], b[:, 3]), ground])
    return [list(ring.coords) for poly in getattr(union, "geoms", [union]) for ring in poly.interiors]


def _shade(sheet: Sheet, ring: list[tuple[float, float]], side: float) -> None:
    """A gap filled grey and hatched, with no outline of its own."""
    import shapely

    hole = shapely.Polygon(ring)
    sheet.add(Path((tuple((round(x, 3), round(y, 3)) for x, y in ring),), GAP_FILL))
    x0, y0, x1, y1 = hole.bounds
    step = max(1.6, side / 6)
    lines = []
    k = x0 - (y1 - y0)
    while k < x1:
        cut = hole.intersection(shapely.LineString([(k, y1), (k + (y1 - y0), y0)]))
        for part in getattr(cut, "geoms", [cut]):
            if part.geom_type == "LineString" and part.length > 0.3:
                lines.append(tuple((round(x, 3), round(y, 3)) for x, y in part.coords))
        k += step
    if lines:
        sheet.add(Path(tuple(lines), HATCH, closed=False))


def _label(tower: Tower, i: int, lang: str) -> str:
    row, _ = tower.squares[i]
    place = tower.ids[i][len(row_letters(row)):]
    parts = [t(lang, "roll-to-the-top.cell_label", row=row_letters(row), place=place)]
    if tower.ground[i]:
        parts.append(t(lang, "roll-to-the-top.ground"))
    elif tower.overhang[i]:
        parts.append(t(lang, "roll-to-the-top.overhang"))
    else:
        parts.append(t(lang, "roll-to-the-top.rests_on", squares=", ".join(tower.ids[s] for s in tower.supports[i])))
    return "; ".join(parts)


def build_sheets(towers: list[Tower], lang: str, page: str, descending: bool = False,
                 progress=None, workers: int | None = None) -> Sequence[Sheet]:
    """A sheet per tower, in order. Many towers are rated and laid out on every processor at
    once (a tower's sheet depends on the tower alone, so the sheets are the same), and the
    sequence fills as they arrive: a PDF draws the first pages while the others are built.

    `progress(n)` is called as sheets are done.
    """
    import os

    workers = workers if workers is not None else (os.cpu_count() or 1)
    if workers <= 1 or len(towers) < 40:
        return [_done(build_tower(tower, lang, page, descending), progress) for tower in towers]
    jobs = [(t.squares, lang, page, descending) for t in towers]
    return _Arriving(len(jobs), _built_elsewhere(jobs, min(workers, 8), progress))


def _built_elsewhere(jobs: list, workers: int, progress) -> Iterator[Sheet]:
    import concurrent.futures
    import multiprocessing
    import os

    from rnwprint.batch import die_with_parent

    context = multiprocessing.get_context("fork") if hasattr(os, "fork") else None
    pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=die_with_parent)
    try:
        for sheet in pool.map(_build_one, jobs, chunksize=10):
            yield _done(sheet, progress)
    finally:
        pool.shutdown(cancel_futures=True)


def _build_one(job: tuple[tuple, str, str, bool]) -> Sheet:
    squares, lang, page, descending = job
    return build_tower(Tower(squares), lang, page, descending)


def _done(sheet: Sheet, progress) -> Sheet:
    if progress:
        progress(1)
    return sheet


class _Arriving(Sequence):
    """Sheets taken from `arriving` in order, as far as they are asked for."""

    def __init__(self, count: int, arriving: Iterator[Sheet]):
        self._count, self._arriving, self._got = count, arriving, []

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(self._count))]
        k = index + self._count if index < 0 else index
        if not 0 <= k < self._count:
            raise IndexError(index)
        while len(self._got) <= k:
            self._got.append(next(self._arriving))
        return self._got[k]
