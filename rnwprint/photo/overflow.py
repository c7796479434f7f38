"""A number written over its box's edge. The reader reads what lies inside the box; a digit cut
there reads as another, and surely (a 3 whose foot runs below the box as a 2, a 6 as a 1).
Its ink is followed out of the box, and the number read whole too (BENCHMARKS.md, "Numbers
over the box's edge")."""

from __future__ import annotations

import functools
from dataclasses import replace

import cv2
import numpy as np

from rnwprint.core.sheet import Cell
from rnwprint.photo.decide import CellRead, flagged_where_other
from rnwprint.photo.ink import BORDER_MM, _cell_crop, _darkness, _ink
from rnwprint.photo.light import _nearest_rank
from rnwprint.photo.printed import AROUND_MM

OVER_MM = AROUND_MM  # how far out of the box the ink is followed (the print is drawn that far)
OUTLINE_MM = 0.5  # ink out of the box by no more than this may be the printed outline's residue
PRINT_NEAR_MM = 0.3  # out of the box, ink this near the sheet's print may be the print's residue
#: a line along the box's edge outside it is kept as the number's own stroke (outside's
#: `along`) only this far from other print: a map's border or coast drawn beside the box, its
#: trace left by the print's removal, lies along the box too
ALONG_PRINT_MM = 1.0
#: ink out of the box counts where it starts this near ink inside that reaches the crop's edge
#: (across the border left out of every cell and the outline)
REACH_MM = BORDER_MM + OUTLINE_MM + 0.4
#: ink crossing the box's edge leaves at most this much of it (mm wide) in the first START_MM out
START_MM, FOOT_MM = 0.6, 2.0
#: a number with this much of its ink out of the box (against the ink inside) runs over the edge
OVER_SHARE = 0.1
OVER_WHY = "the number runs over the box's edge; read with its ink out of the box, it is {}"
#: ink reaching into the box from beyond it (going on past OVER_MM, or bigger out of the box than
#: in it) joined to less than this share of the ink inside: the next box's number bulging over
#: the edge, its tail here read as a digit (an 8's loop in a tower square beside a 5: 15)
INTRUDING_SHARE = 0.35
INTRUDING_WHY = "ink reaches into the box from beyond its edge (the next box's number?); without it, the number reads {}"


@functools.lru_cache(maxsize=4096)
def grown(cell: Cell, mm: float) -> Cell:
    """`cell` as a box `mm` wider each way."""
    x0, y0, x1, y1 = cell.bounds
    return replace(cell, polygon=((x0 - mm, y0 - mm), (x1 + mm, y0 - mm), (x1 + mm, y1 + mm), (x0 - mm, y1 + mm)))


def reaches_crop_edge(ink: np.ndarray) -> bool:
    """Whether a cell's ink crosses its crop's edge (two pixels of it or more on the crop's
    outermost rows and columns): a number that runs out of the box must, a speck need not."""
    return np.count_nonzero(ink) - np.count_nonzero(ink[1:-1, 1:-1]) >= 2


def _disc(mm: float, px_per_mm: float) -> np.ndarray:
    r = max(round(mm * px_per_mm), 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))


def _own_strokes(inside: np.ndarray, out: np.ndarray, at_edge: np.ndarray, start: np.ndarray,
                 px_per_mm: float, along: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The pieces of ink `out` of the box that carry on strokes of the ink `inside` it: each
    starting within REACH_MM of inside ink at the crop's edge (`at_edge`); across the box's
    edge, not along it (no more of it in the first START_MM out of the box, `start`, than a
    stroke or two crossing it would leave: FOOT_MM wide); ending within OVER_MM of the box;
    and no bigger than the inside pieces it starts by (a piece going on further, or bigger,
    is more likely another box's number reaching into this one); and the pieces inside that such
    a piece joins, where they are less than INTRUDING_SHARE of the ink inside (its tail).
    `along`: the pieces along the box's edge instead of across it."""
    count, labels = cv2.connectedComponents(out.astype(np.uint8), connectivity=8)
    _, pieces = cv2.connectedComponents(inside.astype(np.uint8), connectivity=8)
    piece_size = np.bincount(pieces.ravel())
    own = np.zeros(count, bool)
    tails = []
    reach = _disc(REACH_MM, px_per_mm)
    rim = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    for k in np.unique(labels[out & (cv2.dilate(at_edge.astype(np.uint8), reach) > 0)]):
        if k == 0:
            continue
        mine = labels == k
        if ((mine & start).sum() > FOOT_MM * START_MM * px_per_mm ** 2) != along:
            continue  # along the box rather than across its edge: the print's residue (`along`: the other way)
        near = np.unique(pieces[(cv2.dilate(mine.astype(np.uint8), reach) > 0) & at_edge])
        joined = piece_size[near[near > 0]].sum()
        own[k] = k not in rim and joined >= mine.sum()
        if not own[k] and joined < INTRUDING_SHARE * piece_size[1:].sum():
            tails += list(near[near > 0])
    return own[labels], np.isin(pieces, tails) & inside


def outside(page: np.ndarray, raw: np.ndarray, printed: np.ndarray, around: np.ndarray, cell: Cell,
            px_per_mm: float, shift: tuple[int, int], floor: float, along: bool = False,
            on_outline: np.ndarray | None = None) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Where the number in `cell` has more than OVER_SHARE of its ink (against the ink inside)
    more than OUTLINE_MM out of its box, within OVER_MM of it: the whole number's ink
    (darkness, over the box grown by OVER_MM; the pen where it crosses the outline, taken away
    with the print, drawn back); else None. Ink out of the box counts where it carries on the
    strokes inside (_own_strokes), away from the sheet's print (`around`: printed.print_around).
    With it, where another box's number reaches into the cell's crop (see INTRUDING_SHARE): a
    boolean mask of the crop, or None. `along`: the number with the strokes it runs along the
    box's edge outside it instead (a big Z-like 2's foot), away from other print by
    ALONG_PRINT_MM, wherever they add OVER_SHARE of its ink."""
    box = grown(cell, OVER_MM + BORDER_MM)
    r0, _, c0, _ = _cell_crop(box, px_per_mm)
    dark = _darkness(page, raw, printed, box, px_per_mm, shift)
    h, w = dark.shape
    x0, y0, x1, y1 = cell.bounds
    rows, cols = np.arange(h) + r0, np.arange(w) + c0

    def within(mm: float) -> np.ndarray:
        """The pixels of the crop at most `mm` out of the box (negative: in from its edges)."""
        r = (rows >= (y0 - mm) * px_per_mm) & (rows < (y1 + mm) * px_per_mm)
        c = (cols >= (x0 - mm) * px_per_mm) & (cols < (x1 + mm) * px_per_mm)
        return r[:, None] & c[None, :]

    on_outline = _outline_pen_in(on_outline, page, raw, cell, px_per_mm, shift, OVER_MM + BORDER_MM)
    if on_outline is not None:
        dark = _pen_drawn_back(dark, on_outline, (_ink(dark, floor) > 0) & within(-BORDER_MM))
    ink = _ink(dark, floor) > 0
    inside = ink & within(-BORDER_MM)
    near = around[r0:r0 + h, c0:c0 + w]
    if along:  # the print beyond the box's outline, where its residue lies along the box
        near = near & ~within(OUTLINE_MM)
    near_print = cv2.dilate(near, _disc(ALONG_PRINT_MM if along else PRINT_NEAR_MM, px_per_mm)) > 0
    out = ink & ~within(OUTLINE_MM) & ~near_print
    if not inside.any() or not out.any():
        return None, None
    away, tails = _own_strokes(inside, out, inside & ~within(-BORDER_MM - OUTLINE_MM),
                               within(OUTLINE_MM + START_MM) & ~within(OUTLINE_MM), px_per_mm, along)
    a0, a1, b0, b1 = _cell_crop(cell, px_per_mm)  # the cell's own crop, within this one
    tails = tails[a0 - r0:a1 - r0, b0 - c0:b1 - c0] if tails.any() else None
    if away.sum() <= OVER_SHARE * inside.sum():
        return None, tails
    # the strokes across the border and the outline: ink there near the ink out of the box,
    # and the gap the print left closed
    band = within(OUTLINE_MM) & ~within(-BORDER_MM)
    near_away = cv2.dilate(away.astype(np.uint8), _disc(REACH_MM, px_per_mm)) > 0
    number = inside | away | (ink & band & near_away)
    gap = cv2.morphologyEx(number.astype(np.uint8), cv2.MORPH_CLOSE, _disc(OUTLINE_MM, px_per_mm)) > 0
    number |= gap & band & near_away
    if on_outline is not None:
        number |= _joined(number, on_outline & ink, ink & band)
    pen = float(np.median(dark[inside]))
    return np.where(number, np.maximum(dark, pen), 0.0).astype(np.float32), tails


#: a number whose strokes run along its box's outline (a 2's foot, a 5's or a 3's flat top on the
#: box's edge) leaves them in the border left out of every cell (ink.BORDER_MM), and reads as
#: another (a Z-like 2 as 1, a flat-topped 3 as 5): read again with the ink of the border joined
#: to the number, where that adds EDGE_SHARE of its ink (BENCHMARKS.md, "Strokes along the box's
#: outline")
EDGE_SHARE = 0.15
#: a stroke drawn on the outline itself (a big 2's foot) is taken away with the print: where the
#: ink across the outline (ON_OUTLINE_MM each way of its middle), for each pixel of print drawn
#: there, is PEN_ON_OUTLINE times what the print alone leaves (the lowest quarter along the
#: four edges, CORNER_MM in from the corners) for ON_OUTLINE_RUN_MM or more, in_border draws
#: the outline there back as the pen (and outside, reading the whole number)
ON_OUTLINE_MM, CORNER_MM = 0.5, 1.0
PEN_ON_OUTLINE, ON_OUTLINE_RUN_MM = 1.5, 1.0
EDGE_WHY = "the number's strokes run along the box's outline; read with them, it is {}"


def in_border(page: np.ndarray, raw: np.ndarray, printed: np.ndarray, cell: Cell, px_per_mm: float,
              shift: tuple[int, int], floor: float, ink: np.ndarray,
              on_outline: np.ndarray | None = None) -> np.ndarray | None:
    """The number in `cell` (its `ink` in the cell's crop) with its strokes in the border along
    the box's outline: the darkness of the whole box, the print taken away, where its ink
    joins the number's (pieces apart from it are the print's leftovers); None where that adds
    less than EDGE_SHARE of the number's ink."""
    box = grown(cell, BORDER_MM)
    r0, r1, c0, c1 = _cell_crop(box, px_per_mm)
    a0, a1, b0, b1 = _cell_crop(cell, px_per_mm)
    if ink.shape != (a1 - a0, b1 - b0):
        return None
    dark = _darkness(page, raw, printed, box, px_per_mm, shift)
    number = np.zeros(dark.shape, np.uint8)
    number[a0 - r0:a1 - r0, b0 - c0:b1 - c0] = ink > 0
    on_outline = _outline_pen_in(on_outline, page, raw, cell, px_per_mm, shift, BORDER_MM)
    if on_outline is not None:
        dark = _pen_drawn_back(dark, on_outline, number > 0)
    whole = (_ink(dark, floor) > 0).astype(np.uint8)
    _, labels = cv2.connectedComponents(whole | number, connectivity=8)
    joined = np.isin(labels, np.unique(labels[number > 0])) & (labels > 0)
    own = np.count_nonzero(number)
    if np.count_nonzero(joined) - own < EDGE_SHARE * own:
        return None
    return np.where(joined, dark, 0.0).astype(np.float32)


def _outline_pen_in(on_outline: np.ndarray | None, page: np.ndarray, raw: np.ndarray, cell: Cell,
                    px_per_mm: float, shift: tuple[int, int], crop_mm: float) -> np.ndarray | None:
    """pen_on_outline's mask (found here where the caller has none) in the crop of the box
    grown by `crop_mm`; None where no pen lies on the outline."""
    if on_outline is None:
        on_outline = pen_on_outline(page, raw, cell, px_per_mm, shift)
    return placed(on_outline, cell, px_per_mm, crop_mm) if on_outline.any() else None


def _joined(number: np.ndarray, pen: np.ndarray, between: np.ndarray) -> np.ndarray:
    """The pieces of `pen` that join the `number` (booleans), with the ink `between` that joins
    them to it: a stroke the outline check found apart from the number is the print's."""
    count, labels = cv2.connectedComponents((number | pen | between).astype(np.uint8), connectivity=8)
    touching = np.zeros(count, bool)
    touching[np.unique(labels[number])] = True
    with_pen = np.zeros(count, bool)
    with_pen[np.unique(labels[pen])] = True
    return (pen | between) & (touching & with_pen)[labels]


def _pen_drawn_back(dark: np.ndarray, where: np.ndarray, number: np.ndarray) -> np.ndarray:
    """`dark` with the pixels `where` as dark as the `number`'s strokes (their median)."""
    if not number.any():
        return dark
    return np.where(where, np.maximum(dark, float(np.median(dark[number]))), dark).astype(np.float32)


def pen_on_outline(page: np.ndarray, raw: np.ndarray, cell: Cell, px_per_mm: float,
                   shift: tuple[int, int]) -> np.ndarray:
    """Where pen lies over the outline of `cell` (see PEN_ON_OUTLINE): the band across the
    outline there, in the crop of the box out to the band's outer edge; boolean (`placed`
    puts it in another crop)."""
    b = round(ON_OUTLINE_MM * px_per_mm)
    r0, r1, c0, c1 = _cell_crop(grown(cell, BORDER_MM + ON_OUTLINE_MM), px_per_mm)
    dy, dx = shift
    photo = page[max(r0 + dy, 0):r1 + dy, max(c0 + dx, 0):c1 + dx]
    drawn = raw[r0:r1, c0:c1] > 0
    redrawn = np.zeros(drawn.shape, bool)
    if photo.shape == drawn.shape:  # (not where the crop runs off the page)
        ink = np.clip(_nearest_rank(photo, 0.9) - photo.astype(np.float32), 0, None)  # below the paper
        _redraw(redrawn, ink, drawn, b, round(CORNER_MM * px_per_mm), round(ON_OUTLINE_RUN_MM * px_per_mm))
    return redrawn


def placed(on_outline: np.ndarray, cell: Cell, px_per_mm: float, crop_mm: float) -> np.ndarray:
    """pen_on_outline's mask in the crop of the box grown by `crop_mm` (in_border's:
    BORDER_MM, out to the outline's middle: the band's inner half)."""
    r0, r1, c0, c1 = _cell_crop(grown(cell, BORDER_MM + ON_OUTLINE_MM), px_per_mm)
    a0, a1, d0, d1 = _cell_crop(grown(cell, crop_mm), px_per_mm)
    # the band's crop within the other: rows and columns to add (or take off) each side
    return _fitted(on_outline, r0 - a0, a1 - r1, c0 - d0, d1 - c1)


def _redraw(redrawn: np.ndarray, ink: np.ndarray, drawn: np.ndarray, b: int, corner: int, run: int) -> None:
    """pen_on_outline in the crop of the box out to b px beyond its outline's middle: each
    edge in turn taken as the top one (the crop turned a quarter at a time)."""
    band = 2 * b + 1
    # the ink across the band for each pixel of print drawn across it: the same all round where
    # only the print is there, however thick each edge is printed (a tower's inner edges are
    # two boxes' outlines); no print drawn, no outline to overdraw
    profiles = []
    for edge in (lambda a: a[:band].sum(axis=0), lambda a: a[:, -band:].sum(axis=1),  # as np.rot90(a, k)[:band]
                 lambda a: a[-band:].sum(axis=0)[::-1], lambda a: a[:, :band].sum(axis=1)[::-1]):
        mass, count = edge(ink), edge(drawn)
        profiles.append((mass / np.where(count > 0, count, np.nan))[b + corner:len(count) - b - corner])
    every = np.concatenate(profiles)
    every = every[~np.isnan(every)]
    if every.size == 0 or (outline := float(np.percentile(every, 25))) <= 0:
        return
    for k, per_print in enumerate(profiles):
        hot = per_print >= PEN_ON_OUTLINE * outline
        if not hot.any():
            continue
        along = _runs(hot, run)
        top = np.rot90(redrawn, k)  # a view: drawn into, it draws into `redrawn`
        top[:band, b + corner:b + corner + len(along)] |= along


def _runs(hot: np.ndarray, run: int) -> np.ndarray:
    """`hot` (boolean) where it is so `run` or more in a row."""
    ends = np.flatnonzero(np.diff(np.concatenate([[0], hot.astype(np.int8), [0]])))  # starts and ends, in turn
    out = np.zeros(len(hot), bool)
    for start, end in zip(ends[::2], ends[1::2]):
        out[start:end] = end - start >= run
    return out


def _fitted(mask: np.ndarray, top: int, bottom: int, left: int, right: int) -> np.ndarray:
    """`mask` with rows and columns added each side (or taken off, where negative)."""
    h, w = mask.shape
    mask = mask[max(-top, 0):h - max(-bottom, 0), max(-left, 0):w - max(-right, 0)]
    out = np.zeros((mask.shape[0] + max(top, 0) + max(bottom, 0), mask.shape[1] + max(left, 0) + max(right, 0)), bool)
    out[max(top, 0):max(top, 0) + mask.shape[0], max(left, 0):max(left, 0) + mask.shape[1]] = mask
    return out


def judged(inside: CellRead, whole: CellRead, coarse: bool) -> CellRead:
    """A number that runs over its box's edge, read from the box alone (`inside`) and with
    its ink out of the box (`whole`): unsure from the box alone, the whole number is read
    (flagged still in a `coarse` photo: there 1 in 10 such reads was wrong); sure, it stands
    where the whole number reads the same, and is flagged where not."""
    if inside.unsure:
        return replace(whole, unsure=True, why=OVER_WHY.format(whole.value)) if coarse and not whole.unsure else whole
    if whole.value == inside.value:
        return inside
    return replace(inside, unsure=True, why=OVER_WHY.format(whole.value))


def along_edge(inside: CellRead, whole: CellRead) -> CellRead:
    """A number read without the border along its box's outline (`inside`) and with its strokes
    there (`whole`, see in_border): where the two differ, a sure read stands, and of an unsure
    one and the whole number the surer (a blurred photo's outline fills the border too), flagged
    either way."""
    if whole.value == inside.value:
        return inside
    surer = whole if inside.unsure and whole.confidence > inside.confidence else inside
    return replace(surer, unsure=True, why=EDGE_WHY.format(whole.value))


ALONG_WHY = "the number's strokes run along the box's edge outside it; read with them, it is {}"
#: a number read from the box alone and with strokes along its edge outside it: flagged where
#: the two differ
along_outside = flagged_where_other(ALONG_WHY)


def untouched(read: CellRead, alone: CellRead) -> CellRead:
    """A cell another box's number reaches into, read with that ink (`read`) and without it
    (`alone`): flagged where the two differ, naming the other."""
    if alone.value == read.value:
        return read
    return replace(read, unsure=True, why=INTRUDING_WHY.format(alone.value))
