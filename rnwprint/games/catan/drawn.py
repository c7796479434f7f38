"""A Catan map's places as audited (typed in, or read from a photo) drawn in their pencil
colours on the annotated audit picture (Game.draw_place): a village a dot in its circle, a
city its circle filled, a road its bar filled, a town hall its circle filled. Two pieces on
one place (`occupied`) are two dots side by side; a word that is no piece is left undrawn (the
audit outlines it)."""

from __future__ import annotations

from rnwprint.core.sheet import Cell, Circle, Item, Path, Style
from rnwprint.games.catan import geometry as geo
from rnwprint.games.catan.rules import piece_of

VILLAGE = 0.3  # a village's dot, of its circle's radius
SHARED = 0.4  # pieces sharing one place: each a dot this share of the place's smaller side wide


def draw_place(cell: Cell, words: tuple[str, ...]) -> list[Item]:
    hexes = geo.data()["players"]
    x0, y0, x1, y1 = cell.bounds
    cx, cy, side = (x0 + x1) / 2, (y0 + y1) / 2, min(x1 - x0, y1 - y0)
    pieces = [p for p in (piece_of(cell.id, w) for w in words) if p is not None]
    if len(pieces) > 1:  # side by side, each a dot in its colour
        step = SHARED * side
        return [Circle(cx + (i - (len(pieces) - 1) / 2) * step, cy, step / 2, Style(fill=hexes[colour], stroke=None))
                for i, (colour, _) in enumerate(pieces)]
    if not pieces:
        return []
    (colour, piece), = pieces
    if piece == "village":
        return [Circle(cx, cy, VILLAGE * side / 2, Style(fill=hexes[colour], stroke=None))]
    return [Path((cell.polygon,), Style(fill=hexes[colour], stroke=None))]
