"""Twenty One's layout and printed sheet: six sheets A-F of 5 rows x 6 fields, each field a
die face (a number and a colour). Layout data lives in templates/twenty-one.toml."""

from __future__ import annotations

import functools
import tomllib

from rnwprint.data import data_path
from rnwprint.core.errors import RnwError
from rnwprint.fonts import PT, wrap
from rnwprint.layout.page import Box, new_sheet
from rnwprint.locale import t
from rnwprint.core.sheet import Cell, Identity, Path, Rect, Sheet, Style, Text
from rnwprint.games.twenty_one import LAYOUT_VERSION, NAME, VARIANTS

ROWS, FIELDS = 5, 6
DIE = {  # colour -> (face fill, ink on the face, the locale key of its name)
    "white": ("#ffffff", "#000000", "twenty-one.white"),
    "black": ("#262626", "#ffffff", "twenty-one.black"),
    "red": ("#d62828", "#ffffff", "twenty-one.red"),
    "blue": ("#1d5fbf", "#ffffff", "twenty-one.blue"),
    "yellow": ("#f5c800", "#000000", "twenty-one.yellow"),
    "green": ("#2e9e44", "#ffffff", "twenty-one.green"),
}
TEMPLATE = data_path("templates", "twenty-one.toml")

INK = "#1a1a1a"
GREY = "#8c8c8c"
BOX = Style(fill="#ffffff", stroke="#404040", width=0.35)


def bonus(hits: int) -> int:
    """Exact-hit bonus for a row: 1, 3, 6, 10, 15, 21 for 1-6 hits."""
    return hits * (hits + 1) // 2


def cell_id(row: int, field: int) -> str:
    return f"R{row}C{field}"


@functools.cache
def layouts() -> tuple[tuple[tuple[int, ...], ...], dict[str, tuple[tuple[str, ...], ...]]]:
    """(numbers per row, colours per sheet and row), checked."""
    where = str(TEMPLATE)
    with open(TEMPLATE, "rb") as f:
        data = tomllib.load(f)
    numbers = tuple(tuple(row) for row in data.get("numbers", ()))
    if len(numbers) != ROWS or any(len(r) != FIELDS or not all(1 <= n <= 6 for n in r) for r in numbers):
        raise RnwError(f"numbers: expected {ROWS} rows of {FIELDS} numbers 1-6", where)
    sheets = {}
    for variant in VARIANTS:
        rows = tuple(tuple(r) for r in data.get("sheets", {}).get(variant, ()))
        if len(rows) != ROWS or any(sorted(r) != sorted(DIE) for r in rows):
            raise RnwError(f"sheets.{variant}: expected {ROWS} rows, each naming every colour once "
                           f"({', '.join(DIE)})", where)
        sheets[variant] = rows
    return numbers, sheets


# --- the sheet --------------------------------------------------------------------

def build(variant: str, lang: str, page: str) -> Sheet:
    numbers, colours = layouts()
    identity = Identity(NAME, variant, lang, page, LAYOUT_VERSION)
    title = f"{t(lang, 'twenty-one.title')} — {t(lang, 'twenty-one.sheet', variant=variant)}"
    sheet, box = new_sheet(identity, title)

    rules = wrap(t(lang, "twenty-one.rules"), 8, box.w)
    y = box.y + 3.5
    for line in rules:
        sheet.add(Text(box.x, y, line, 8, INK))
        y += 8 * PT * 1.3

    label_w, field_w, gap, score_w = 20.0, 22.0, 2.5, 24.0
    grid_w = label_w + FIELDS * field_w + (FIELDS - 1) * gap + 8 + score_w
    x0 = box.x + (box.w - grid_w) / 2
    score_x = x0 + label_w + FIELDS * (field_w + gap) - gap + 8
    footer_h = 34.0
    top = y + 4
    pitch = min(36.0, (box.bottom - footer_h - top) / ROWS)
    band_h, write_h = 8.0, pitch - 8.0 - 5.0
    sheet.add(Text(score_x + score_w / 2, top - 1.5, t(lang, "twenty-one.points"), 8, INK, "middle", bold=True))

    for r in range(1, ROWS + 1):
        ry = top + (r - 1) * pitch
        write_y = ry + band_h + 1
        sheet.add(Text(x0, write_y + write_h / 2 + 1.5, t(lang, "twenty-one.row", row=r), 10, INK, bold=True))
        for f in range(1, FIELDS + 1):
            fx = x0 + label_w + (f - 1) * (field_w + gap)
            _field(sheet, Box(fx, ry, field_w, band_h), Box(fx, write_y, field_w, write_h),
                   r, f, numbers[r - 1][f - 1], colours[variant][r - 1][f - 1], lang)
        sheet.add(Text(score_x - 4, write_y + write_h / 2 + 2, "=", 13, INK, "middle", bold=True))
        sheet.add(Rect(score_x, write_y, score_w, write_h, BOX, radius=1.0))

    _bonus_table(sheet, Box(x0, top + ROWS * pitch + 2, score_x - x0 - 8, footer_h - 2), lang)
    total = Box(score_x, top + ROWS * pitch + 8, score_w, 16)
    sheet.add(Text(total.x + total.w / 2, total.y - 1.5, t(lang, "twenty-one.total"), 9, INK, "middle", bold=True))
    sheet.add(Rect(total.x, total.y, total.w, total.h, Style(fill="#ffffff", stroke=INK, width=0.7), radius=1.0))
    return sheet


def _field(sheet: Sheet, band: Box, write: Box, row: int, field: int, number: int, colour: str, lang: str) -> None:
    face, ink, key = DIE[colour]
    name = t(lang, key)
    sheet.add(Rect(band.x, band.y, band.w, band.h, Style(fill=face, stroke="#404040", width=0.3), radius=1.2))
    sheet.add(Text(band.x + band.w - 4.5, band.y + band.h / 2 + 1.8, str(number), 14, ink, "middle", bold=True))
    sheet.add(Text(band.x + 1.5, band.y + band.h - 1.6, name, 7, ink))
    sheet.add(Rect(write.x, write.y, write.w, write.h, BOX))
    cid = cell_id(row, field)
    sheet.add(Text(write.right - 1, write.bottom - 1, cid, 5, GREY, "end"))
    corners = ((write.x, write.y), (write.right, write.y), (write.right, write.bottom), (write.x, write.bottom))
    label = t(lang, "twenty-one.cell_label", row=row, field=field, number=number, colour=name)
    sheet.add_cell(Cell(cid, corners, "number", 1, number, label))


def _bonus_table(sheet: Sheet, box: Box, lang: str) -> None:
    sheet.add(Text(box.x, box.y + 4, t(lang, "twenty-one.bonus_title"), 8, INK, bold=True))
    head_w, col_w, row_h = 34.0, (box.w - 34.0) / 6, 6.5
    y = box.y + 6.5
    thin = Style(fill=None, stroke="#404040", width=0.25)
    for i, (label, values) in enumerate(((t(lang, "twenty-one.hits"), range(1, 7)),
                                         (t(lang, "twenty-one.bonus"), (bonus(h) for h in range(1, 7))))):
        ry = y + i * row_h
        fill = "#eeeeee" if i == 0 else "#ffffff"
        sheet.add(Rect(box.x, ry, head_w, row_h, Style(fill=fill, stroke="#404040", width=0.25)))
        sheet.add(Text(box.x + 1.5, ry + row_h - 2, label, 7.5, INK, bold=i == 0))
        for c, value in enumerate(values):
            cx = box.x + head_w + c * col_w
            sheet.add(Rect(cx, ry, col_w, row_h, Style(fill=fill, stroke="#404040", width=0.25)))
            sheet.add(Text(cx + col_w / 2, ry + row_h - 1.9, str(value), 8.5, INK, "middle", bold=i == 1))
    sheet.add(Path((((box.x, y), (box.x + head_w + 6 * col_w, y)),), thin, closed=False))
