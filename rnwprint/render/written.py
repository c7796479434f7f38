"""What a sheet holds (a typed-in file's entries, or what a photo read) drawn into its cells
in pen blue, for the annotated audit picture: numbers, X, circled (guarded) numbers and the
tick boxes (a photo's as seen, a typed-in counter's first ones) (a game whose cells hold other things draws them itself,
Game.draw_place: Catan's pieces in their pencil colours), and an amber "?" on each cell a
photo's reader was unsure of."""

from __future__ import annotations

from collections.abc import Callable, Collection

from rnwprint.core.entries import Guarded
from rnwprint.core.sheet import Cell, Circle, Item, Path, Sheet, Style, Text
from rnwprint.fonts import PT, text_width

PEN = "#1f3f9a"
HEIGHT = 0.5  # a number's digits stand this share of its box's height
WIDTH = 0.8  # ... and take at most this share of its width
CAP = 0.72  # a digit's height, of its font size
RING = 0.42  # a guard circle's radius, of the box's smaller side
AMBER = "#e08a00"  # the "?" badge of a cell to check on the paper
DOUBT, DOUBT_MM = 0.2, 2.5  # the badge's radius: of the box's smaller side, at most this


def written_items(sheet: Sheet, cells: dict[str, object], counters: dict[str, int],
                  draw_place: Callable[[Cell, object], list[Item]] | None = None,
                  unsure: Collection[str] = (), ticked: Collection[str] | None = None) -> list[Item]:
    """The items that draw `cells` (id -> value as the audit takes it) and the tick boxes on
    `sheet`: those `ticked` (a photo's), else for each of `counters` (name -> how many) its
    first ones; each cell of `unsure` (a photo's cells to check on the paper) carries a "?"
    badge in its top right corner."""
    items: list[Item] = []
    for cid, value in cells.items():
        cell = sheet.cells.get(cid)
        if cell is not None:
            items += draw_place(cell, value) if draw_place else _number(cell, value)
    if ticked is None:  # typed in: only counted, so each counter's first boxes
        ticked = []
        for name, count in counters.items():
            ticked += [c.id for c in sheet.cells.values() if c.kind == "tick" and c.counter == name][:max(count, 0)]
    items += [_tick(sheet.cells[cid]) for cid in ticked if cid in sheet.cells]
    for cid in unsure:
        if cid in sheet.cells:
            items += _doubt(sheet.cells[cid])
    return items


def _doubt(cell: Cell) -> list[Item]:
    """An amber badge with a "?" inside the box's top right corner."""
    x0, y0, x1, y1 = cell.bounds
    r = min(DOUBT * min(x1 - x0, y1 - y0), DOUBT_MM)
    cx, cy = x1 - 1.2 * r, y0 + 1.2 * r
    size = 1.3 * r / (CAP * PT)
    return [Circle(cx, cy, r, Style(fill=AMBER, stroke=None)),
            Text(cx, cy + CAP * size * PT / 2, "?", size, "#ffffff", "middle", bold=True)]


def _number(cell: Cell, value: object) -> list[Item]:
    """A number or X in the middle of its box; a guarded number inside a circle."""
    x0, y0, x1, y1 = cell.bounds
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    text = str(value.value if isinstance(value, Guarded) else value)
    room_w, room_h = WIDTH * (x1 - x0), HEIGHT * (y1 - y0)
    items: list[Item] = []
    if isinstance(value, Guarded):
        r = RING * min(x1 - x0, y1 - y0)
        items.append(Circle(cx, cy, r, Style(stroke=PEN, width=0.45)))
        room_w = room_h = 1.1 * r
    size = room_h / (CAP * PT)
    size = min(size, size * room_w / text_width(text, size))
    items.append(Text(cx, cy + CAP * size * PT / 2, text, size, PEN, "middle"))
    return items


def _tick(cell: Cell) -> Path:
    """A tick box crossed corner to corner."""
    x0, y0, x1, y1 = cell.bounds
    dx, dy = 0.2 * (x1 - x0), 0.2 * (y1 - y0)
    return Path((((x0 + dx, y0 + dy), (x1 - dx, y1 - dy)), ((x1 - dx, y0 + dy), (x0 + dx, y1 - dy))),
                Style(stroke=PEN, width=0.5), closed=False)
