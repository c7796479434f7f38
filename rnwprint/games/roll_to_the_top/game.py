"""Roll to the Top: fill a tower of squares from the ground up with dice numbers.

Towers are geometry (rnwprint.games.roll_to_the_top.tower); the built-in challenges are data in
templates/towers.toml. A variant names the tower and the rule:

- a built-in challenge by its id (``burj``, ``eiffel`` …; the first is the easiest);
- a custom tower as ``t.`` + its code (rnwprint.games.roll_to_the_top.tower.encode), so the identity QR
  alone rebuilds the exact sheet, in any process;
- either one + ``-desc`` for the descending rule (each number ≤ the ones it rests on).

`rnwprint sheet roll-to-the-top --variant all` prints the built-ins (ascending); the
descending ones are asked for by name (``eiffel-desc``).
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass

from rnwprint.audit.entries import Entries
from rnwprint.audit.report import Report, Violation, decimal
from rnwprint.data import data_path
from rnwprint.errors import RnwError
from rnwprint.fonts import PT, text_width, wrap
from rnwprint.game import Game
from rnwprint.games.roll_to_the_top import sim as tower_sim
from rnwprint.games.roll_to_the_top.tower import (OldCodeError, Tower, TowerError, decode, encode, grouped, normal_code, parse_ascii,
                                row_letters)
from rnwprint.layout.page import QR_MAX_BYTES, Box, new_sheet
from rnwprint.locale import t
from rnwprint.sheet import Cell, Circle, Identity, Path, Rect, Sheet, Style, Text

NAME = "roll-to-the-top"
LAYOUT_VERSION = 2  # 2: squares as large as the page allows (up to 25 mm), the tower centred
TEMPLATE = data_path("templates", "towers.toml")
DESC = "-desc"
CUSTOM = "t."
LOW, HIGH = 1, tower_sim.HIGHEST
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


@dataclass(frozen=True)
class Builtin:
    id: str
    names: dict[str, str]
    tower: Tower


@functools.cache
def _entries() -> tuple[tuple[str, dict[str, str], str, str], ...]:
    """(id, names, art, key) of each built-in challenge in template order, names checked."""
    where = str(TEMPLATE)
    with open(TEMPLATE, "rb") as f:
        data = tomllib.load(f)
    out = []
    for n, entry in enumerate(data.get("tower", [])):
        key = f"tower[{n}]"
        tid = entry.get("id")
        if not isinstance(tid, str) or not re.fullmatch(r"[a-z][a-z0-9]{0,10}", tid):
            # 11 characters at most: with "-desc" a variant has 16 (see the identity QR below)
            raise RnwError(f"{key}.id: expected a short lowercase name such as \"eiffel\" (1-11 letters "
                           "or digits)", where)
        if any(tid == other for other, *_ in out):
            raise RnwError(f"{key}.id: {tid!r} is used twice", where)
        unknown = sorted(set(entry) - {"id", "es", "en", "art"})
        if unknown:
            raise RnwError(f"{key}: unknown keys {', '.join(unknown)}; valid keys are id, es, en, art", where)
        names = {lang: entry.get(lang) for lang in ("es", "en")}
        if not all(isinstance(v, str) and v for v in names.values()):
            raise RnwError(f"{key}: needs its name in es and en", where)
        out.append((tid, names, entry.get("art", ""), key))
    if not out:
        raise RnwError("no [[tower]] entries", where)
    return tuple(out)


@functools.cache
def builtins() -> dict[str, Builtin]:
    """The built-in challenges in their template order, each checked playable."""
    where = str(TEMPLATE)
    return {tid: Builtin(tid, names, parse_ascii(art, f"{where}: {key}.art").check(f"{where}: {key}.art"))
            for tid, names, art, key in _entries()}


VARIANTS = tuple(tid for tid, *_ in _entries())  # towers are built (and checked) when first used


# --- variants ---------------------------------------------------------------------------
#
# A custom tower's variant is "t." + its code: the identity QR holds it (a bigger QR code for
# a long one, see layout.page.qr_rows), so a photo alone rebuilds the sheet. A built-in's id
# has 11 characters at most, so that its identity keeps to the 53 bytes of a version-3 code.


def custom_variant_name(tower: Tower, descending: bool = False) -> str:
    """The variant of a custom tower: ``t.`` + its code (+ ``-desc``)."""
    return CUSTOM + encode(tower) + (DESC if descending else "")


@functools.lru_cache(maxsize=256)
def _custom_tower(code: str) -> Tower | None:
    """The tower of a code (None: not a tower code), checked playable (TowerError); an old
    code is refused saying what it is now (OldCodeError)."""
    try:
        tower = decode(code)
    except OldCodeError:
        raise
    except ValueError:
        return None
    return tower.check()


def parse_variant(variant: str) -> tuple[Tower, bool, str | None]:
    """variant -> (tower, descending?, built-in id or None); ValueError says what is wrong."""
    descending = variant.endswith(DESC)
    base = variant[: -len(DESC)] if descending else variant
    if base in builtins():
        return builtins()[base].tower, descending, base
    if base[:len(CUSTOM)].lower() == CUSTOM:
        try:
            tower = _custom_tower(base[len(CUSTOM):])
        except TowerError as e:
            raise ValueError(e.message) from None
        except OldCodeError as e:
            raise ValueError(f"{variant!r}: {e}") from None
        if tower is not None:
            return tower, descending, None
    raise ValueError(f"unknown variant {variant!r} for {NAME}; choose one of: {', '.join(VARIANTS)} "
                     f"(add {DESC} for the descending rule), or a custom tower t.CODE (the code printed "
                     f"on its sheet)")


def tower_from_text(text: str, where: str = "tower") -> Tower:
    """A tower drawn in ASCII, or the code printed on a custom tower's sheet; checked playable."""
    stripped = text.strip()
    if stripped and "[" not in stripped and " " not in stripped and "\n" not in stripped:
        try:
            return decode(stripped).check(where)
        except OldCodeError as e:
            raise TowerError(str(e), where) from None
        except ValueError:
            raise TowerError(f"{stripped!r} is neither a tower drawing ([] squares) nor a tower code",
                             where) from None
    return parse_ascii(text, where).check(where)


def custom_variant(variant: str | None, extra: dict) -> str | None:
    """Game hook: built-in + -desc, t.CODE, and a typed-in file's `tower` / `descending` keys."""
    art = extra.get("tower")
    descending = extra.get("descending", False)
    if not isinstance(descending, bool):
        raise ValueError(f"descending: {descending!r} is not true or false")
    if variant is not None and not isinstance(variant, str):
        raise ValueError(f"{variant!r} is not a variant name")
    if art is None:
        if variant is None:
            return VARIANTS[0] + DESC if descending else None
        if not (variant.removesuffix(DESC) in builtins() or variant[:len(CUSTOM)].lower() == CUSTOM):
            return None
        tower, desc, builtin = parse_variant(variant)
        if builtin is None:  # as printed: t.7KD3M9QX for t.7kd3-m9qx
            return custom_variant_name(tower, desc or descending)
        return variant + DESC if descending and not variant.endswith(DESC) else variant
    if not isinstance(art, str):
        raise ValueError("tower: expected the tower drawn as text ([] squares) or its code")
    try:
        tower = tower_from_text(art)
    except TowerError as e:
        raise ValueError(str(e)) from None
    drawn = custom_variant_name(tower, descending or bool(variant and variant.endswith(DESC)))
    if variant is not None:
        named = variant.removesuffix(DESC)
        if named in builtins():
            if builtins()[named].tower != tower:
                raise ValueError(f"{variant!r} is not the tower given under `tower`")
            return variant + DESC if descending and not variant.endswith(DESC) else variant
        same = named[:len(CUSTOM)].lower() == CUSTOM and CUSTOM + normal_code(named[len(CUSTOM):]) == drawn.removesuffix(DESC)
        if not same:  # the code as printed (7KD3-M9QX) or typed (7kd3m9qx) names it too
            raise ValueError(f"{variant!r} is not the tower given under `tower` (that one is "
                             f"{drawn.removesuffix(DESC)}); check the drawing against the sheet")
    return drawn


def cell_ids(variant: str) -> frozenset[str]:
    return frozenset(parse_variant(variant)[0].ids)


def title_of(variant: str, lang: str) -> str:
    tower, _, builtin = parse_variant(variant)
    if builtin:
        name = builtins()[builtin].names[lang]
    else:
        name = _titled(tower, lang) or t(lang, "roll-to-the-top.custom", code="").strip()
    return f"{t(lang, f'{NAME}.title')} — {name}"


def _titled(tower: Tower, lang: str) -> str | None:
    """A custom tower's name in the title, "Custom tower 7KD3-M9QX": its code, the one name
    the sheet gives it; None when the code is too long for the title (it is then printed
    under the legend, see `_code`)."""
    name = t(lang, "roll-to-the-top.custom", code=grouped(encode(tower)))
    room = TITLE_ROOM - text_width(t(lang, "roll-to-the-top.title") + " — ", 16, True)
    return name if text_width(name, 16, True) <= room else None


_RATINGS: dict[tuple[Tower, bool], tower_sim.Rating] = {}


def rating(tower: Tower, descending: bool) -> tower_sim.Rating:
    """The printed rating (seeded simulation), remembered for the towers of this process."""
    key = (tower, descending)
    if key not in _RATINGS:
        if len(_RATINGS) > 20_000:
            _RATINGS.clear()
        _RATINGS[key] = tower_sim.rate(tower, descending)
    return _RATINGS[key]


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
    legend_bottom, figures_end = _difficulty(sheet, box.x, y, rating(tower, descending), lang)
    if builtin is None and _titled(tower, lang) is None:
        legend_bottom = _code(sheet, box, legend_bottom, encode(tower), lang)

    area = Box(box.x, legend_bottom + 5, box.w, box.bottom - legend_bottom - 10)  # QR quiet zone below
    side = fit_square(tower, area)
    if side < MIN_SQUARE:
        most_w = int((area.w - 2 * GROUND_OVERHANG) // MIN_SQUARE)
        most_h = int(area.h // MIN_SQUARE)
        raise TowerError(
            f"too big for the page: {tower.ids[0]} to {tower.ids[-1]} span {tower.width:g} squares across and "
            f"{tower.rows} row{'s' if tower.rows > 1 else ''}, so squares would be {side:.1f} mm on {page.upper()} (at least {MIN_SQUARE:g} mm "
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
        sheet.add_cell(Cell(cid, corners, "number", LOW, HIGH, _label(tower, i, lang)))
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


def build_tower(tower: Tower, lang: str, page: str, descending: bool = False) -> Sheet:
    """The sheet of a custom tower (checked playable first)."""
    return build(custom_variant_name(tower.check(), descending), lang, page)


def random_towers(seed: int, count: int = 1, squares: int = 30, shape: str = "mixed",
                  max_width: int = 12) -> list[Tower]:
    """`count` different playable towers, the same ones for the same arguments."""
    import random

    from rnwprint.games.roll_to_the_top.tower import random_tower

    rng = random.Random(seed)
    towers: dict[tuple, Tower] = {}
    tries = 0
    while len(towers) < count:
        tower = random_tower(rng, squares, shape, max_width)
        towers.setdefault(tower.squares, tower)
        tries += 1
        if tries > 20 * count + 100:
            raise TowerError(f"found only {len(towers)} different towers of {squares} squares "
                             f"(shape {shape}); ask for fewer or larger ones", "--count")
    return list(towers.values())


def _rate_one(job: tuple[tuple, bool]) -> tower_sim.Rating:
    squares, descending = job
    return tower_sim.rate(Tower(squares), descending)


def build_sheets(towers: list[Tower], lang: str, page: str, descending: bool = False,
                 progress=None, workers: int | None = None) -> list[Sheet]:
    """A sheet per tower. For many towers the ratings (most of the work) are simulated on
    the other processors while this one lays out the sheets; the result is the same.

    `progress(n)` is called as sheets are done.
    """
    import os

    workers = workers if workers is not None else (os.cpu_count() or 1)
    todo = [t for t in dict.fromkeys(towers) if (t, descending) not in _RATINGS]
    if workers <= 1 or len(todo) < 40:
        return _layout(towers, lang, page, descending, progress, set(), iter(()))
    import concurrent.futures
    import multiprocessing

    context = multiprocessing.get_context("fork") if hasattr(os, "fork") else None
    with concurrent.futures.ProcessPoolExecutor(min(workers, 8), mp_context=context) as pool:
        ratings = pool.map(_rate_one, [(t.squares, descending) for t in todo], chunksize=10)
        return _layout(towers, lang, page, descending, progress, set(todo), iter(ratings))


def _layout(towers, lang, page, descending, progress, rated_elsewhere, ratings) -> list[Sheet]:
    """Build the sheets in order, taking each rating from `ratings` as it arrives."""
    sheets = []
    for tower in towers:
        if tower in rated_elsewhere and (tower, descending) not in _RATINGS:
            _RATINGS[(tower, descending)] = next(ratings)
        sheets.append(build_tower(tower, lang, page, descending))
        if progress:
            progress(1)
    return sheets


def rating_line(label: str, tower: Tower, descending: bool, games: int, lang: str = "en") -> str:
    r = tower_sim.rate(tower, descending, games)
    return t(lang, "roll-to-the-top.rating", label=label, squares=counted(lang, "squares", len(tower)),
             rows=counted(lang, "rows", tower.rows), rule=t(lang, "roll-to-the-top.rating_descending") if descending else "",
             games=counted(lang, "games", r.games), mean=decimal(r.mean, ".2f", lang),
             p10=decimal(r.p10, "g", lang), p90=decimal(r.p90, "g", lang),
             stars="★" * r.stars + "☆" * (5 - r.stars), n=r.stars)


_COUNTED = {"squares": ("roll-to-the-top.squares_1", "roll-to-the-top.squares_n"),
            "rows": ("roll-to-the-top.rows_1", "roll-to-the-top.rows_n"),
            "games": ("roll-to-the-top.games_1", "roll-to-the-top.games_n")}


def counted(lang: str, key: str, n: int) -> str:
    """"1 square", "2 squares" ("1 casilla", "2 casillas")."""
    one, more = _COUNTED[key]
    return t(lang, one if n == 1 else more, n=n)


# --- the rules --------------------------------------------------------------------------

def audit(entries: Entries, lang: str) -> Report:
    tower, descending, _ = parse_variant(entries.variant)
    ids = tower.ids
    values: dict[int, int] = {}  # the squares that hold a number 1-50; X and bad values hold none
    violations: list[Violation] = []
    for i, cid in enumerate(ids):
        mark = entries.cells.get(cid)
        if mark is None:
            continue
        if isinstance(mark, int) and LOW <= mark <= HIGH:
            values[i] = mark
        else:
            violations.append(Violation("bad-value", (cid,), t(lang, "roll-to-the-top.bad_value", cell=cid, value=mark)))
    for i in sorted(values):
        cid, v = ids[i], values[i]
        if tower.overhang[i]:
            run = _overhang_run(tower, values, i)
            if i == run[0]:
                violations += _anchor(tower, values, run, lang)
            continue
        for s in tower.supports[i]:
            sid = ids[s]
            if s not in values:
                key = ("roll-to-the-top.support_empty" if entries.cells.get(sid) is None
                       else "roll-to-the-top.support_no_number")
                violations.append(Violation("support", (cid, sid), t(
                    lang, key, cell=cid, support=sid, value=entries.cells.get(sid))))
            elif descending and v > values[s]:
                violations.append(Violation("support", (cid, sid), t(
                    lang, "roll-to-the-top.support_high", cell=cid, value=v, below=values[s], support=sid)))
            elif not descending and v < values[s]:
                violations.append(Violation("support", (cid, sid), t(
                    lang, "roll-to-the-top.support_low", cell=cid, value=v, below=values[s], support=sid)))
    open_squares = [cid for i, cid in enumerate(ids) if i not in values]
    details = {"complete": not open_squares, "squares": len(ids), "filled": len(values),
               "open": len(open_squares), "open_squares": open_squares,
               "rule": "descending" if descending else "ascending"}
    return Report(NAME, entries.variant, entries.source, -len(open_squares), violations, details)


def _overhang_run(tower: Tower, values: dict[int, int], i: int) -> list[int]:
    """The filled overhang i and the filled overhangs side by side with it, left to right."""
    run, todo = {i}, [i]
    while todo:
        for b in tower.beside[todo.pop()]:
            if b in values and tower.overhang[b] and b not in run:
                run.add(b)
                todo.append(b)
    return sorted(run)


def _anchor(tower: Tower, values: dict[int, int], run: list[int], lang: str) -> list[Violation]:
    """An overhang takes a number once a square beside it holds one, so the first one written of
    a run needed a filled square beside it outside the run: none -> one violation naming the run."""
    beside = sorted({b for r in run for b in tower.beside[r]} - set(run))
    if any(b in values for b in beside):
        return []
    ids = tower.ids
    names = ", ".join(ids[b] for b in beside) or "—"
    cells = tuple(ids[r] for r in run)
    if len(run) == 1:
        message = t(lang, "roll-to-the-top.overhang_alone", cell=cells[0], beside=names)
    else:
        message = t(lang, "roll-to-the-top.overhang_run", cells=", ".join(cells), beside=names)
    return [Violation("overhang", cells, message)]


GAME = Game(
    name=NAME,
    title="Roll to the Top",
    variants=VARIANTS,
    layout_version=LAYOUT_VERSION,
    build=build,
    cell_ids=cell_ids,
    audit=audit,
    extra_keys=("tower", "descending"),
    custom_variant=custom_variant,
    commands="rnwprint.games.roll_to_the_top.commands",
)
