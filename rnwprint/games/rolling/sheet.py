"""Rolling America and Rolling España: the printed map sheet (the map fitted to the page, its
write boxes, tracks and rules summary); rules.py holds the rules."""

from __future__ import annotations

import functools
import hashlib
import json
import pathlib
import tomllib
from dataclasses import dataclass

from rnwprint.data import data_path
from rnwprint.fonts import PT, wrap
from rnwprint.games.rolling import LAYOUT_VERSION, TITLE_KEY, rules as rolling_rules
from rnwprint.layout.page import MARGIN, MARKER_MODULE, SIDE_FOOTER_H, Box, content_box, new_sheet
from rnwprint.locale import t
from rnwprint.core.sheet import Cell, Circle, Identity, Path, Rect, Sheet, Style, Text

FIT_VERSION = 1  # count up to re-bake the layouts when something the key cannot see changes
WRITE_BOX = 7.0  # mm: room for one handwritten digit, its id small in a corner
PANEL_W = 52.0  # mm: tracks and rules to the right of the map
FOOTER_W = 59.0  # mm: the footer column under the panel (the 5 cm scale bar and its label)
LEGEND_W, LEGEND_H = 62.0, 22.0  # mm: the colour legend, in a corner of the map's area
LEGEND_SIDE = {"us": "left", "es": "right"}  # the top corner the land leaves free (Canada, France)
INK = "#1a1a1a"
GREY = "#6b6b6b"
REGION_FILL = {  # light enough for a pen to stand out
    "orange": "#fdd8b0",
    "blue": "#c9ddf2",
    "green": "#cdebc5",
    "yellow": "#fff1a8",
    "red": "#f9c9c4",
    "purple": "#ddd5ee",
}
REGION_EDGE = {
    "orange": "#e07b1a",
    "blue": "#2f6db5",
    "green": "#3a9a3a",
    "yellow": "#c9a400",
    "red": "#cc3a30",
    "purple": "#7b5ea7",
}
REGION_LABEL = {"orange": "rolling.orange", "blue": "rolling.blue", "green": "rolling.green", "yellow": "rolling.yellow",
                "red": "rolling.red", "purple": "rolling.purple"}  # locale keys whole: grep finds their uses
BOX_STYLE = Style(fill="#ffffff", stroke="#333333", width=0.3)
POWERS = ("colour_change", "guard", "dupe")
POWER_LABEL = {"colour_change": "rolling.colour_change", "guard": "rolling.guard", "dupe": "rolling.dupe"}
CREDIT_KEY = {"rolling-america": "rolling.credit_rolling-america", "rolling-espana": "rolling.credit_rolling-espana"}


@dataclass(frozen=True)
class WriteBox:
    box: Box  # where the player writes
    leader: tuple | None  # ((x, y) in the region, (x, y) on the box) for a callout


@dataclass(frozen=True)
class _Map:
    """The map fitted to a page: the same for every language, so built once per page."""

    game: str
    matrix: tuple  # map units -> page mm: (a, b, d, e, x offset, y offset)
    placements: dict  # cell code -> write box (and leader)
    area: Box
    legend: Box
    colours: tuple  # the colours in the board's order
    cells: tuple  # (code, colour) in the board's order, as the typed-in template lists them
    names: dict  # cell code -> its usual name
    items: tuple  # the drawn map: regions, outlines, inset frames, leaders, write boxes

    @property
    def regions(self) -> dict:
        """Cell code -> polygon in page mm (shapely; for checking a layout, not for printing)."""
        return _regions(self.game, self.matrix)


@functools.cache
def _regions(game_name: str, matrix: tuple) -> dict:
    from shapely.affinity import affine_transform

    from rnwprint.geo.maps import load_map

    geo = load_map(_map_name(game_name))
    return {code: affine_transform(g, matrix) for code, g in geo.cells.items()}


@functools.cache
def _map_name(game_name: str) -> str:
    with open(data_path("templates", f"{game_name}.toml"), "rb") as f:
        return tomllib.load(f).get("map", "")


@functools.cache
def _fitted(game_name: str, page: str, baked: bool = True) -> _Map:
    """The fitted map: from the layout tools/build_map_layouts.py baked into the package when
    it was built from the same inputs, else fitted here and now (a few seconds). Both give
    the same data, so the same printed bytes."""
    data = _baked(game_name, page) if baked else None
    if data is None:
        data = json.loads(json.dumps(layout(game_name, page)))
    p = {code: WriteBox(Box(*b), tuple(map(tuple, leader)) if leader else None)
         for code, (b, leader) in data["placements"].items()}
    items = [Rect(*f, Style(stroke="#9a9a9a", width=0.25, dash=(1.2, 0.8))) for f in data["frames"]]
    cells = [tuple(c) for c in data["cells"]]
    for colour in data["colours"]:
        style = Style(fill=REGION_FILL[colour], stroke="#8a8a8a", width=0.15)
        items += [_rings(data["rings"][code], style) for code, c in cells if c == colour]
    for colour in data["colours"]:
        items.append(_rings(data["outlines"][colour], Style(stroke=REGION_EDGE[colour], width=0.5), closed_fill=False))
    for code, _ in cells:
        box, leader = p[code].box, p[code].leader
        if leader:
            start, end = leader
            items.append(Path(((start, end),), Style(stroke="#444444", width=0.2), closed=False))
            items.append(Circle(*start, 0.5, Style(fill="#444444", stroke=None)))
        items.append(Rect(box.x, box.y, box.w, box.h, BOX_STYLE))
        items.append(Text(box.x + 0.5, box.y + 2.0, code, 5.0, GREY, bold=True))
    return _Map(game_name, tuple(data["matrix"]), p, Box(*data["area"]), Box(*data["legend"]),
                tuple(data["colours"]), tuple(cells), data["names"], tuple(items))


def _baked(game_name: str, page: str) -> dict | None:
    path = data_path("maps", f"layout-{game_name}-{page}.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if data.get("key") == layout_key(game_name, page) else None


def layout_key(game_name: str, page: str) -> str:
    """A digest of what a fitted layout is made from: the page's numbers, the sheet's
    constants, the board, the map geometry and its loader, the code that places the write
    boxes and the code of layout() (and what follows it up to build) in this file."""
    content = content_box(page, landscape=True, side_footer=FOOTER_W)
    numbers = [game_name, page, FIT_VERSION, content.x, content.y, content.w, content.h, MARGIN, MARKER_MODULE,
               SIDE_FOOTER_H, PANEL_W, FOOTER_W, LEGEND_W, LEGEND_H, sorted(LEGEND_SIDE.items()), WRITE_BOX]
    digest = hashlib.sha256(json.dumps(numbers).encode())
    digest.update(data_path("templates", f"{game_name}.toml").read_bytes())
    from rnwprint.geo.maps import MAPS

    digest.update(data_path("maps", MAPS[_map_name(game_name)]).read_bytes())
    package = pathlib.Path(__file__).parents[2]  # rnwprint/
    digest.update((package / "layout" / "write_boxes.py").read_bytes())
    digest.update((package / "geo" / "maps.py").read_bytes())
    source = pathlib.Path(__file__).read_text(encoding="utf-8")  # the fitting's own code, below
    digest.update(source[source.index("\ndef layout("):source.index("\ndef build(")].encode())
    return digest.hexdigest()


def layout(game_name: str, page: str) -> dict:
    """Fit the map to the page and place the write boxes (shapely; a few seconds): the data
    tools/build_map_layouts.py bakes, in plain JSON types."""
    import shapely
    from shapely.affinity import affine_transform

    from rnwprint.geo.maps import load_map
    from rnwprint.layout.write_boxes import place

    board = rolling_rules.load_board(game_name)
    geo = load_map(board.map)
    content = content_box(page, landscape=True, side_footer=FOOTER_W)
    # The map's area reaches the panel; its scale leaves the footer column's width free, and
    # that strip east of the map holds the callouts of the crowded east coast.
    area = Box(content.x, content.y, content.w - PANEL_W - 3, content.h)
    fit_w = content.w - FOOTER_W - 4
    footer = shapely.box(content.right - FOOTER_W - 2, content.bottom + 3.5 - SIDE_FOOTER_H - 2,
                         content.right, content.bottom)
    left = LEGEND_SIDE[board.map] == "left"
    legend = Box(area.x if left else area.right - LEGEND_W, area.y, LEGEND_W, LEGEND_H)
    keep_off = shapely.union_all([footer, shapely.box(legend.x, legend.y, legend.right, legend.bottom).buffer(2)])
    pad = 3.0  # room around the land for callouts
    x0, y0, x1, y1 = geo.bounds
    scale = min((fit_w - 2 * pad) / (x1 - x0), (area.h - 2 * pad) / (y1 - y0))
    for _ in range(40):  # shrink until the land leaves the legend and the footer free
        ox = area.x + (fit_w - (x1 - x0) * scale) / 2 - x0 * scale
        oy = area.y + (area.h - (y1 - y0) * scale) / 2 - y0 * scale
        matrix = (scale, 0, 0, scale, ox, oy)
        regions = {code: affine_transform(g, matrix) for code, g in geo.cells.items()}
        frames = tuple(Box(bx0 * scale + ox, by0 * scale + oy, (bx1 - bx0) * scale, (by1 - by0) * scale)
                       for bx0, by0, bx1, by1 in geo.insets)
        land = list(regions.values()) + [shapely.box(f.x, f.y, f.right, f.bottom) for f in frames]
        if not shapely.intersects(keep_off, land).any():
            break
        scale *= 0.98
    marker = Box(MARGIN, content.bottom - 6 * MARKER_MODULE - 2, 6 * MARKER_MODULE + 2, 6 * MARKER_MODULE + 2)
    keep_clear = (marker, Box(*footer.bounds[:2], footer.bounds[2] - footer.bounds[0], footer.bounds[3] - footer.bounds[1]),
                  Box(legend.x - 1, legend.y, legend.w + 1, legend.h + 1))
    placements = place(regions, area, WRITE_BOX, keep_clear=keep_clear, frames=frames)

    def box(b):
        return [float(b.x), float(b.y), float(b.w), float(b.h)]

    return {
        "key": layout_key(game_name, page),
        "matrix": [float(v) for v in matrix],
        "area": box(area),
        "legend": box(legend),
        "frames": [box(f) for f in frames],
        "colours": list(board.regions),
        "cells": [[code, colour] for code, colour in board.region_of.items()],
        "names": {code: geo.names[code] for code in board.region_of},
        "placements": {code: [box(p.box), [[float(v) for v in pt] for pt in p.leader] if p.leader else None]
                       for code, p in sorted(placements.items())},
        "rings": {code: _rounded_rings(regions[code]) for code in sorted(regions)},
        "outlines": {colour: _rounded_rings(shapely.union_all([regions[c] for c in codes]))
                     for colour, codes in board.regions.items()},
    }


def _rounded_rings(geom) -> list:
    """A polygon's rings in page mm, to 0.01 mm (what is drawn)."""
    rings = []
    for poly in getattr(geom, "geoms", [geom]):
        for ring in (poly.exterior, *poly.interiors):
            rings.append([round(v, 2) for xy in ring.coords for v in xy])  # x0, y0, x1, y1, ...
    return rings


def build(game_name: str, variant: str, lang: str, page: str) -> Sheet:
    identity = Identity(game_name, variant, lang, page, LAYOUT_VERSION)
    sheet, content = new_sheet(identity, t(lang, TITLE_KEY[game_name]), landscape=True,
                               credit=t(lang, CREDIT_KEY[game_name]), side_footer=FOOTER_W)
    fitted = _fitted(game_name, page)
    sheet.add(*fitted.items)
    for code, colour in fitted.cells:  # region by region, as the typed-in template lists them
        box = fitted.placements[code].box
        corners = ((box.x, box.y), (box.right, box.y), (box.right, box.bottom), (box.x, box.bottom))
        region = t(lang, REGION_LABEL[colour]).lower()
        label = t(lang, "rolling.cell_label", name=fitted.names[code], region=region)
        sheet.add_cell(Cell(code, corners, "number", 1, 6, label))

    panel_h = sheet.height - MARGIN - SIDE_FOOTER_H - 2 - content.y
    _legend(sheet, fitted.legend, fitted.colours, lang)
    _panel(sheet, Box(content.right - PANEL_W, content.y, PANEL_W, panel_h), lang)
    return sheet


def _rings(rings: list, style: Style, closed_fill: bool = True) -> Path:
    if not closed_fill:
        style = Style(None, style.stroke, style.width, style.dash)
    return Path(tuple(tuple(zip(ring[::2], ring[1::2])) for ring in rings), style)


def _legend(sheet: Sheet, box: Box, colours: tuple, lang: str) -> None:
    """The die colours and their regions, in a corner of the map the land leaves free."""
    y = box.y + 4
    sheet.add(Text(box.x, y, t(lang, "rolling.regions"), 8.5, INK, bold=True))
    y += 2
    col_w = box.w / 3
    for i, colour in enumerate(colours):
        x, ry = box.x + (i % 3) * col_w, y + (i // 3) * 5.5
        sheet.add(Rect(x, ry, 6, 4.5, Style(fill=REGION_FILL[colour], stroke=REGION_EDGE[colour], width=0.5)))
        sheet.add(Text(x + 7.5, ry + 3.4, t(lang, REGION_LABEL[colour]), 8, INK))
    y += 2 * 5.5
    sheet.add(Rect(box.x, y, 6, 4.5, Style(fill="#ffffff", stroke="#333333", width=0.5)))
    sheet.add(Text(box.x + 7.5, y + 3.4, t(lang, "rolling.wild"), 7.5, INK))


def _panel(sheet: Sheet, box: Box, lang: str) -> None:
    """Round track, powers, the X total and the rules, every word at 7 pt or more."""
    y = box.y + 4
    sheet.add(Text(box.x, y, t(lang, "rolling.rounds"), 8.5, INK, bold=True))
    y += 4
    step = min(8.5, box.w / 8)
    for r in range(8):
        x = box.x + r * step
        sheet.add(Text(x + (step - 1.5) / 2, y, str(r + 1), 7, GREY, "middle"))  # above its box: the box stays clean
        _tick_box(sheet, Box(x, y + 1, step - 1.5, 7), "rounds", r + 1)

    y += 15.5
    sheet.add(Text(box.x, y, t(lang, "rolling.powers"), 8.5, INK, bold=True))
    for power in POWERS:
        y += 6.5
        sheet.add(Text(box.x, y, t(lang, POWER_LABEL[power]), 8, INK))
        for k in range(3):
            _tick_box(sheet, Box(box.right - 3 * 7 + k * 7, y - 4.5, 5.5, 5.5), power, k + 1)

    y += 5
    sheet.add(Text(box.x, y + 6, t(lang, "rolling.x_total"), 9, INK, bold=True))
    sheet.add(Rect(box.right - 20, y, 20, 10, Style(fill="#ffffff", stroke=INK, width=0.7), radius=1))

    y += 15.5
    _rules(sheet, Box(box.x, y, box.w, box.bottom - y), t(lang, "rolling.rules"))


def _tick_box(sheet: Sheet, box: Box, counter: str, n: int) -> None:
    """A box to tick; a photo reader counts the ticked ones into `counter`."""
    sheet.add(Rect(box.x, box.y, box.w, box.h, BOX_STYLE))
    corners = ((box.x, box.y), (box.right, box.y), (box.right, box.bottom), (box.x, box.bottom))
    sheet.add_cell(Cell(f"{counter}:{n}", corners, "tick", 0, 1, f"{counter} {n}", counter))


def _rules(sheet: Sheet, box: Box, text: str) -> None:
    """The rules summary at 7 pt (what a player reads is never smaller), its first baseline at
    the top of the box; the leading tightens a little before it gives up."""
    size = 7.0
    for leading in (size * PT * 1.3, size * PT * 1.2):
        lines = wrap(text, size, box.w)
        if (len(lines) - 1) * leading + size * PT * 0.25 <= box.h:
            break
    else:
        raise ValueError("the rules summary does not fit the panel")
    for i, line in enumerate(lines):
        sheet.add(Text(box.x, box.y + i * leading, line, size, INK))
