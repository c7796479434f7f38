"""The Sheet: one printable page in millimetres (origin top-left, y down).

Games build Sheets; renderers, the auditor and the photo reader consume them.
Nothing here knows about any particular game or output format.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

Point = tuple[float, float]
Colour = str | None  # "#rrggbb" or None for "no paint"

IDENTITY_PREFIX = "rnwprint"

# What an item is for. Readers find the corner markers and the identity QR code by role,
# never by shape; everything else the player sees is PRINT.
PRINT = "print"
MARKER = "marker"  # a corner fiducial (ArUco) the photo reader fits the page by
IDENTITY = "identity"  # the QR code naming the sheet (Identity.encode)
ROLES = (PRINT, MARKER, IDENTITY)


@dataclass(frozen=True, slots=True)
class Style:
    fill: Colour = None
    stroke: Colour = "#000000"
    width: float = 0.3  # stroke width in mm
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Path:
    """Polygons (closed rings, even-odd fill) or polylines (closed=False)."""

    rings: tuple[tuple[Point, ...], ...]
    style: Style = Style()
    closed: bool = True
    role: str = PRINT


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle in mm: drawn when added to a Sheet, else a region of the page (layout.page.Box)."""

    x: float
    y: float
    w: float
    h: float
    style: Style = Style()
    radius: float = 0.0
    role: str = PRINT

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style = Style()
    role: str = PRINT


@dataclass(frozen=True, slots=True)
class Text:
    """A line of text; (x, y) is the baseline point picked by `anchor`."""

    x: float
    y: float
    text: str
    size: float  # font size in points
    colour: str = "#000000"
    anchor: str = "start"  # start | middle | end
    bold: bool = False
    role: str = PRINT


@dataclass(frozen=True, slots=True)
class Matrix:
    """A grid of dark/light modules (QR codes, fiducial markers)."""

    x: float
    y: float
    module: float  # side of one module in mm
    rows: tuple[str, ...]  # "1" dark, "0" light
    colour: str = "#000000"
    role: str = PRINT


Item = Path | Rect | Circle | Text | Matrix


@functools.lru_cache(maxsize=4096)
def _bounds(polygon: tuple[Point, ...]) -> tuple[float, float, float, float]:
    """A polygon's x0, y0, x1, y1 (the photo reader asks a cell's hundreds of times a photo)."""
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True, slots=True)
class Cell:
    """A place a player writes into."""

    id: str
    polygon: tuple[Point, ...]
    kind: str = "number"  # number: typed-in as a cell | tick: counted into `counter`
    low: int = 1  # smallest number the cell may hold
    high: int = 6  # largest number the cell may hold
    label: str = ""  # a human description, e.g. "row 1, field 2"
    counter: str = ""  # for tick boxes: the typed-in counter they add up to

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        return _bounds(self.polygon)


@dataclass(frozen=True, slots=True)
class Identity:
    game: str
    variant: str
    lang: str
    page: str
    layout: int

    def encode(self) -> str:
        fields = (IDENTITY_PREFIX, self.game, self.variant, self.lang, self.page, str(self.layout))
        return ":".join(fields)

    @classmethod
    def decode(cls, text: str) -> Identity:
        parts = text.split(":")
        if len(parts) != 6 or parts[0] != IDENTITY_PREFIX or not parts[5].isdigit():
            raise ValueError(f"not an rnwprint identity: {text!r}")
        return cls(parts[1], parts[2], parts[3], parts[4], int(parts[5]))


@dataclass
class Sheet:
    identity: Identity
    width: float  # mm
    height: float  # mm
    title: str = ""
    items: list[Item] = field(default_factory=list)
    cells: dict[str, Cell] = field(default_factory=dict)

    def add(self, *items: Item) -> None:
        self.items.extend(items)

    def having(self, role: str) -> list[Item]:
        """The items of that role, in drawing order."""
        return [item for item in self.items if item.role == role]

    def add_cell(self, cell: Cell) -> None:
        if cell.id in self.cells:
            raise ValueError(f"duplicate cell id {cell.id}")
        self.cells[cell.id] = cell
