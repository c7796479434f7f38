"""Catan's printables: the shared island map (its places are the cells: corners V01-V54,
roads E01-E72, town halls T01-T19) and the notes sheet (two games a page, no cells)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from rnwprint.fonts import text_width, wrap
from rnwprint.games.catan import geometry as geo
from rnwprint.games.catan.pencils import COLOUR_LABEL
from rnwprint.layout.page import Box, new_sheet
from rnwprint.locale import t
from rnwprint.core.sheet import Cell, Circle, Identity, Path, Rect, Sheet, Style, Text

INK = "#1a1a1a"
ID_GREY = "#8c8c8c"  # ids: legible printed, light beside a pencil mark
SEA = Style(fill="#e3eff8", stroke="#9cc3e0", width=0.4)
PLACE = Style(fill="#ffffff", stroke="#3a3a3a", width=0.35)
HALL = Style(fill="#ffffff", stroke="#3a3a3a", width=0.6)
THIN = Style(stroke="#404040", width=0.25)
BOX = Style(fill="#ffffff", stroke="#404040", width=0.3)
SEA_MM = 6.0  # the sea around the island
# locale keys written out whole, so that grep finds where each is used
TERRAIN_LABEL = {"wood": "catan.wood", "brick": "catan.brick", "stone": "catan.stone", "wheat": "catan.wheat",
                 "sheep": "catan.sheep", "desert": "catan.desert"}
COST_LABEL = {"road": "catan.cost_road", "village": "catan.cost_village", "city": "catan.cost_city",
              "card": "catan.cost_card"}


def terrain_style(name: str) -> tuple[str, str]:
    """(fill, ink) of a terrain."""
    colours = geo.data()["terrain"][name]
    return colours["fill"], colours["ink"]


# --- the island map ---------------------------------------------------------------

def build_map(identity: Identity, layout: dict[str, str]) -> Sheet:
    lang = identity.lang
    sheet, box = new_sheet(identity, t(lang, "catan.map_title"))
    island = geo.island()
    ox, oy = box.x + box.w / 2, box.y + 4 * island.edge + SEA_MM + 2
    places = _places(ox, oy)
    sheet.add(places.sea)
    texts: list[Text] = []  # drawn after the shapes: one PDF text object for the lot
    halls = [_terrain(sheet, texts, island, tid, name, ox, oy, places, lang) for tid, name in layout.items()]
    sheet.add(*places.items, *texts, *places.ids)
    for vid in island.corners:
        sheet.add_cell(Cell(vid, places.rings[vid], "corner", 0, 0, _corner_label(island, vid, layout, lang)))
    for eid, (a, b) in island.edge_corners.items():
        sheet.add_cell(Cell(eid, places.rings[eid], "road", 0, 0, t(lang, "catan.road_label", a=a, b=b)))
    for cell in halls:  # corners, roads, town halls: the order a typed-in file lists them
        if cell is not None:
            sheet.add_cell(cell)
    _legend(sheet, Box(box.x, oy + island.edge * 4 + SEA_MM + 4, box.w, 0), lang)
    return sheet


@dataclass(frozen=True)
class _Places:
    """What every map of a page size shares, whatever its layout and language."""

    sea: Path
    items: tuple  # corner circles and road rectangles
    ids: tuple  # their ids
    rings: dict  # place id -> its outline in page mm (town halls of every terrain too)
    hexes: dict  # terrain id -> its hexagon in page mm


@functools.cache
def _places(ox: float, oy: float) -> _Places:
    import shapely

    island = geo.island()
    coast = shapely.union_all(list(island.terrains.values())).buffer(SEA_MM, join_style="mitre")
    items: list = []
    ids: list = []
    rings = {tid: _ring(island.hall_circle(tid), ox, oy) for tid in island.terrains}
    for vid, point in island.corners.items():
        x, y = point.x + ox, point.y + oy
        items.append(Circle(x, y, geo.CORNER_R, PLACE))
        ids.append(Text(x, y + geo.CORNER_R - 0.9, vid, 5, ID_GREY, "middle"))
        rings[vid] = _ring(island.corner_circle(vid), ox, oy)
    for eid in island.edges:
        rings[eid] = _ring(island.road_rect(eid), ox, oy)
        items.append(Path((rings[eid],), PLACE))
        mid = island.edges[eid].centroid
        ids.append(Text(mid.x + ox, mid.y + oy + 0.47, eid, 5, ID_GREY, "middle"))
    hexes = {tid: _ring(hexagon, ox, oy) for tid, hexagon in island.terrains.items()}
    return _Places(Path((_ring(coast, ox, oy),), SEA), tuple(items), tuple(ids), rings, hexes)


def _ring(polygon, ox: float, oy: float) -> tuple[tuple[float, float], ...]:
    return tuple((round(x + ox, 3), round(y + oy, 3)) for x, y in polygon.exterior.coords[:-1])


def _terrain(sheet: Sheet, texts: list, island: geo.Island, tid: str, name: str, ox: float, oy: float, places: _Places,
             lang: str) -> Cell | None:
    """Draw a terrain (its words into `texts`); returns its town hall's cell (None: the desert has none)."""
    fill, ink = terrain_style(name)
    sheet.add(Path((places.hexes[tid],), Style(fill=fill, stroke="#8a8a8a", width=0.3)))
    centre = island.terrains[tid].centroid
    cx, cy = centre.x + ox, centre.y + oy
    sheet.add(*icon(name, cx, cy - 10.5, 1.0))
    texts.append(Text(cx, cy + 10.5, t(lang, TERRAIN_LABEL[name]), 7.5, ink, "middle", bold=True))
    if name == geo.DESERT:  # no town hall: its id alone, at a size a player reads
        texts.append(Text(cx, cy + 1.5, tid, 7, ID_GREY, "middle"))
        return None
    sheet.add(Circle(cx, cy, geo.HALL_R, HALL))
    texts.append(Text(cx, cy + geo.HALL_R - 1.0, tid, 5, ID_GREY, "middle"))
    return Cell(tid, places.rings[tid], "hall", 0, 0,
                t(lang, "catan.hall_label", terrain=t(lang, TERRAIN_LABEL[name]).lower()))


def _corner_label(island: geo.Island, vid: str, layout: dict[str, str], lang: str) -> str:
    names = ", ".join(f"{tid} {t(lang, TERRAIN_LABEL[layout[tid]]).lower()}" for tid in island.corner_terrains[vid])
    key = "catan.rim_label" if vid in island.rim else "catan.corner_label"
    return t(lang, key, terrains=names)


def icon(name: str, x: float, y: float, k: float) -> list:
    """A resource's small drawing centred on (x, y), about 7 mm across at k = 1."""
    _, ink = terrain_style(name)
    solid = Style(fill=ink, stroke=None)

    def poly(*pts):
        return Path((tuple((round(x + k * px, 3), round(y + k * py, 3)) for px, py in pts),), solid)

    if name == "wood":  # a fir
        return [poly((-3, 1.6), (0, -3.4), (3, 1.6)), poly((-2.2, -0.6), (0, -3.8), (2.2, -0.6)),
                Rect(x - 0.5 * k, y + 1.6 * k, 1.0 * k, 1.8 * k, solid)]
    if name == "brick":  # a bit of wall
        return [Rect(x + bx * k, y + by * k, 2.9 * k, 1.5 * k, solid)
                for bx, by in ((-3.1, -2.4), (0.1, -2.4), (-1.5, -0.6), (-3.1, 1.2), (0.1, 1.2))]
    if name == "stone":  # a rock
        return [poly((-3.4, 2.2), (-2.6, -0.6), (-0.8, -2.6), (1.2, -2.2), (3.4, 0.4), (3.0, 2.2))]
    if name == "wheat":  # an ear on its stalk
        grains = [Circle(x + gx * k, y + gy * k, 0.75 * k, solid)
                  for gy in (-2.6, -1.2, 0.2) for gx in (-0.75, 0.75)] + [Circle(x, y - 3.6 * k, 0.7 * k, solid)]
        return [Path((((x, y + 3.4 * k), (x, y - 1.0 * k)),), Style(stroke=ink, width=0.5 * k), closed=False), *grains]
    if name == "sheep":  # a woolly cloud with a head
        return [Circle(x + bx * k, y + by * k, 1.5 * k, solid) for bx, by in ((-1.6, 0), (0, -0.8), (1.4, 0), (0, 0.6))] \
            + [Circle(x + 3.0 * k, y - 1.0 * k, 0.9 * k, Style(fill="#3a3a3a", stroke=None))] \
            + [Path((((x + lx * k, y + 1.6 * k), (x + lx * k, y + 3.2 * k)),), Style(stroke="#3a3a3a", width=0.45 * k),
                    closed=False) for lx in (-1.4, 1.2)]
    # the desert: a sun
    rays = [Path((((x + 2.2 * k * math.cos(a), y + 2.2 * k * math.sin(a)),
                   (x + 3.4 * k * math.cos(a), y + 3.4 * k * math.sin(a))),), Style(stroke=ink, width=0.45 * k),
                 closed=False) for a in (i * math.pi / 4 for i in range(8))]
    return [Circle(x, y, 1.6 * k, solid), *rays]


def _legend(sheet: Sheet, box: Box, lang: str) -> None:
    """What each pencil mark means, and a row for the players' colours."""
    y = box.y
    sheet.add(Text(box.x, y + 3, t(lang, "catan.legend"), 8.5, INK, bold=True))
    col = box.w / 4
    samples = (("village", "corner", "catan.legend_village"), ("city", "corner", "catan.legend_city"),
               ("road", "road", "catan.legend_road"), ("town_hall", "hall", "catan.legend_town_hall"))
    grey = "#5a5a5a"
    for i, (what, shape, key) in enumerate(samples):
        x, cy = box.x + i * col + 5, y + 10
        if shape == "road":
            sheet.add(Rect(x - 4.5, cy - 2, 9, 4, Style(fill=grey, stroke="#3a3a3a", width=0.35)))
        else:
            r = geo.HALL_R if shape == "hall" else geo.CORNER_R
            sheet.add(Circle(x, cy, r, HALL if shape == "hall" else PLACE))
            if what == "village":
                sheet.add(Circle(x, cy, 1.1, Style(fill=grey, stroke=None)))
            else:
                sheet.add(Circle(x, cy, r - 0.5, Style(fill=grey, stroke=None)))
        sheet.add(Text(x + 6.5, cy + 1.2, t(lang, key), 7.5, INK))
    y += 18
    sheet.add(Text(box.x, y, t(lang, "catan.players"), 8.5, INK, bold=True))
    colours = geo.data()["players"]
    for i, (name, colour) in enumerate(colours.items()):
        x = box.x + i * col
        sheet.add(Rect(x, y + 3, 3.5, 7, Style(fill=colour, stroke=None)))
        sheet.add(Rect(x + 5, y + 3, 11, 7, BOX))  # a patch of the player's own pencil
        sheet.add(Text(x + 18, y + 6, t(lang, COLOUR_LABEL[name]), 7.5, INK, bold=True))
        sheet.add(Path((((x + 18, y + 10.5), (x + col - 4, y + 10.5)),), THIN, closed=False))
    sheet.add(Text(box.x, y + 16, t(lang, "catan.legend_patch"), 7, INK))
    sheet.add(Text(box.x, y + 20, t(lang, "catan.legend_hall_rule"), 7, INK))


# --- the notes sheet ----------------------------------------------------------------

def build_notes(identity: Identity) -> Sheet:
    lang = identity.lang
    sheet, box = new_sheet(identity, t(lang, "catan.notes_title"))
    mid = box.y + box.h / 2
    cut = Style(stroke="#6b6b6b", width=0.3, dash=(2.0, 1.5))
    sheet.add(Path((((0, mid), (sheet.width, mid)),), cut, closed=False))
    label = t(lang, "catan.cut")
    w = text_width(label, 7)
    sheet.add(Rect(sheet.width / 2 - w / 2 - 1.5, mid - 2, w + 3, 4, Style(fill="#ffffff", stroke=None)))
    sheet.add(Text(sheet.width / 2, mid + 1.2, label, 7, "#6b6b6b", "middle"))
    for half, (top, bottom) in enumerate(((box.y, mid - 3), (mid + 4, box.bottom)), 1):
        _notes_half(sheet, Box(box.x, top, box.w, bottom - top), half, lang)
    return sheet


def _heading(sheet: Sheet, x: float, y: float, key: str, lang: str) -> None:
    sheet.add(Text(x, y, t(lang, key), 8.5, INK, bold=True))


def _boxes(sheet: Sheet, x: float, y: float, n: int, side: float = 4.2, gap: float = 1.0) -> float:
    for i in range(n):
        sheet.add(Rect(x + i * (side + gap), y, side, side, BOX))
    return x + n * (side + gap)


def _notes_half(sheet: Sheet, box: Box, game: int, lang: str) -> None:
    y = box.y + 4
    sheet.add(Text(box.x, y, t(lang, "catan.notes_game", game=game), 10, INK, bold=True))
    for label, x0, x1 in ((t(lang, "catan.notes_player"), box.x + 30, box.x + 120),
                          (t(lang, "catan.notes_colour"), box.x + 124, box.right)):
        sheet.add(Text(x0, y, label, 8, INK))
        sheet.add(Path((((x0 + text_width(label, 8) + 1.5, y + 0.8), (x1, y + 0.8)),), THIN, closed=False))
    top = y + 6
    a_w, c_w, gap = 80.0, 50.0, 5.0
    b_x, c_x = box.x + a_w + gap, box.right - c_w
    _resources(sheet, Box(box.x, top, a_w, box.bottom - top), lang)
    _cards(sheet, Box(b_x, top, c_x - gap - b_x, box.bottom - top), lang)
    _points(sheet, Box(c_x, top, c_w, box.bottom - top), lang)


def _resources(sheet: Sheet, box: Box, lang: str) -> None:
    y = box.y + 3
    _heading(sheet, box.x, y, "catan.resources", lang)
    sheet.add(Text(box.right, y, t(lang, "catan.robber"), 7, INK, "end"))
    row = min(10.0, (box.h - 42) / 5)
    for i, name in enumerate(geo.RESOURCES):
        ry = y + 2 + i * row
        fill, ink = terrain_style(name)
        sheet.add(Rect(box.x, ry, 18, row - 1.2, Style(fill=fill, stroke=None)))
        sheet.add(*icon(name, box.x + 3.6, ry + (row - 1.2) / 2, 0.55))
        sheet.add(Text(box.x + 7, ry + (row - 1.2) / 2 + 1.2, t(lang, TERRAIN_LABEL[name]), 7, ink, bold=True))
        sheet.add(Rect(box.x + 19, ry, box.w - 19 - 7, row - 1.2, BOX))  # tallies
        sheet.add(Rect(box.right - 5, ry + (row - 1.2) / 2 - 2.1, 4.2, 4.2, BOX))  # the robber blocks it
    y += 2 + 5 * row + 4
    _heading(sheet, box.x, y, "catan.costs", lang)
    for i, (what, needs) in enumerate(geo.data()["costs"].items()):
        ry = y + 2.5 + i * 6.5
        sheet.add(Text(box.x, ry + 4, t(lang, COST_LABEL[what]), 7.5, INK))
        for k, name in enumerate(needs):
            fill, _ = terrain_style(name)
            cx = box.x + 32 + k * 7.6
            sheet.add(Rect(cx, ry, 7, 5.5, Style(fill=fill, stroke="#8a8a8a", width=0.2), radius=0.8))
            sheet.add(*icon(name, cx + 3.5, ry + 2.75, 0.6))


#: the development cards' boxes under their headings: "Esta carta [punto de victoria] no se juega,
#: se mantiene en la mano hasta el final de la partida"
CARD_GROUPS = (("catan.cards_played", (("knight", "catan.card_knight"), ("monopoly", "catan.card_monopoly"),
                                       ("road_building", "catan.card_road_building"),
                                       ("progress", "catan.card_progress"))),
               ("catan.cards_in_hand", (("victory_point", "catan.card_victory_point"),)))


def _cards(sheet: Sheet, box: Box, lang: str) -> None:
    y = box.y + 3
    _heading(sheet, box.x, y, "catan.cards", lang)
    deck = geo.data()["deck"]
    y += 5
    sheet.add(Text(box.x, y, t(lang, "catan.cards_bought"), 7.5, INK))
    sheet.add(Rect(box.x, y + 1.5, box.w, 7, BOX))
    y += 14
    for heading, cards in CARD_GROUPS:
        sheet.add(Text(box.x, y, t(lang, heading), 7.5, INK, bold=True))
        for what, key in cards:
            y += 2
            n = deck[what]
            per_row = min(n, 7)
            sheet.add(Text(box.x, y + 3.3, t(lang, key), 7.5, INK))
            rows = math.ceil(n / per_row)
            for r in range(rows):
                _boxes(sheet, box.right - per_row * 5.2 + 1.0, y + r * 5.2, min(per_row, n - r * per_row))
            y += rows * 5.2 + 1
        y += 4
    for i, line in enumerate(wrap(t(lang, "catan.card_victory_note"), 7, box.w)):
        sheet.add(Text(box.x, y + i * 3.2, line, 7, "#5a5a5a"))


def _points(sheet: Sheet, box: Box, lang: str) -> None:
    y = box.y + 3
    _heading(sheet, box.x, y, "catan.points", lang)
    p = geo.data()["points"]
    rows = (("catan.points_village", f"× {p['village']}"), ("catan.points_city", f"× {p['city']}"),
            ("catan.points_town_hall", f"× {p['town_hall']}"), ("catan.points_victory_card", f"× {p['victory_card']}"),
            ("catan.points_resources", f"÷ {p['resources_per_point']}"),
            ("catan.points_most_knights", f"+{p['most_knights']}"), ("catan.points_most_roads", f"+{p['most_roads']}"),
            ("catan.points_most_cities", f"+{p['most_cities']}"))
    h = 6.3
    for i, (key, rate) in enumerate(rows):
        ry = y + 2 + i * h
        sheet.add(Text(box.x, ry + 4.3, t(lang, key, least=p["least_knights"]), 7, INK))
        sheet.add(Text(box.right - 11, ry + 4.3, rate, 7, INK, "end"))
        sheet.add(Rect(box.right - 10, ry + 0.4, 10, h - 0.8, BOX))
    ry = y + 2 + len(rows) * h + 1
    sheet.add(Text(box.right - 11, ry + 4.8, t(lang, "catan.points_total"), 8, INK, "end", bold=True))
    sheet.add(Rect(box.right - 10, ry, 10, 7, Style(fill="#ffffff", stroke=INK, width=0.6)))
    for i, line in enumerate(wrap(t(lang, "catan.points_tie"), 7, box.w)):
        sheet.add(Text(box.x, ry + 12 + i * 3.2, line, 7, "#5a5a5a"))
