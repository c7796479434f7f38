"""Guard circles: drawn round the box's edge, round the box and bigger than it (arcs across its
corners), or smaller inside it; the number inside kept (split out of read.py)."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from rnwprint.photo.ink import BORDER_MM, INK_DARKNESS, _grain, _ink
from rnwprint.photo.split import _blobs

#: a guard circle is ink this far out (squared, as a share of the half box) in most of 24
#: directions; a large digit reaching the box edge is not
CIRCLE_RIM, CIRCLE_SECTORS = 0.8, 14
#: a guard circle smaller than the box: ink within RING_BAND (of the half box) of one of
#: RING_RADII in at least 2 px of each of RING_SECTORS of 24 directions; read guarded, flagged
RING_RADII, RING_BAND, RING_SECTORS = (0.9, 0.8, 0.7, 0.6), 0.1, 22
#: the number inside a guard circle is what lies within the circle's inner edge: the ellipse
#: fitted to the ink beyond RING_FIT_FROM of the half box (a circle round the box; a smaller
#: one: the ink near the distance it was found at), fitted again to the ink within
#: RING_FIT_BAND of it (then the whole ring, drawn off-centre or flattened, is in it); its
#: inner edge is the RING_INNER_SHARE quantile of that ink's distance, less RING_INNER_MARGIN
#: (both as shares of the ellipse). Where no ellipse fits, or nothing is left inside it, the
#: number is what lies within INNER_R2 (squared share of the half box) of the middle, or
#: 2 RING_BAND inside a small ring.
RING_FIT_FROM, RING_FIT_BAND, RING_INNER_SHARE, RING_INNER_MARGIN, INNER_R2 = 0.8, 0.2, 0.03, 0.1, 0.42
#: a guard circle drawn bigger than the box shows in the crop only as arcs across its corners:
#: ink beyond CIRCLE_RIM (squared share of the half box), at least ARC_EDGE px in from the
#: crop's edges (the print's leftovers hug them), in pieces that keep out of NEAR_MIDDLE
#: (share of the half box) and are not specks (ARC_AREA of the crop at least: a grainy
#: photo's specks are smaller), at least ARC_PX of it in ARC_CORNERS of the four corners. A
#: digit or an X reaching a corner reaches it from the middle (of 12,500 plain and crossed
#: cells in photos of four writer sets, none had such ink in three corners, 6 in two). In
#: ARC_CORNERS_SEEN (such a circle drawn off-centre, or the number touching it), in two pieces
#: (a big 5's bar is one piece across two corners), the number inside is read guarded and
#: flagged.
ARC_EDGE, NEAR_MIDDLE, ARC_AREA, ARC_PX, ARC_CORNERS, ARC_CORNERS_SEEN = 2, 0.6, 0.007, 3, 3, 2
SMALL_CIRCLE_WHY = "a circle inside the box: is the number guarded?"
BIG_CIRCLE_WHY = "arcs across two corners of the box: a circle bigger than the box, guarding the number?"
EMPTY_RING_WHY = "a circle round the box with almost nothing inside: a guarded number too faint to read?"
#: a guard circle drawn off the middle of the box (round a number written off to one side):
#: the ellipse through the ink near the edge of the ink's own extent (specks left out) has ink
#: within OFF_RING_ON of it (as a share of its radius), 2 px or more, in all but OFF_RING_MISSED
#: of the 24 directions round it where it runs inside the crop, and in OFF_RING_SEEN or more
#: (a circle running out over the box's edge shows only in part); none at OFF_RING_GAP of its
#: radius, between it and the number, in OFF_RING_GAP_SECTORS; the number inside is
#: OFF_RING_INNER of the ink's height or more (what the ellipse leaves inside a big 3, 5 or 6,
#: which reaches its own extent's edge nearly all round too, is a scrap). Read guarded,
#: flagged; where more than OFF_RING_INWARD of the ring's piece lies inside OFF_RING_GAP (the
#: number runs into the ring, or the "ring" is a big digit's own stroke), read as written and
#: flagged.
OFF_RING_ON, OFF_RING_MISSED, OFF_RING_SEEN = 0.12, 4, 14
OFF_RING_GAP, OFF_RING_GAP_SECTORS, OFF_RING_INNER, OFF_RING_INWARD = (0.68, 0.86), 6, 0.3, 0.15
#: first looks, before fitting: the ink spans OFF_RING_SPAN of the crop both ways, and lies
#: near the edge of its extent in OFF_RING_FIRST_LOOK of 24 directions round its middle
#: (every ring found on the tuning crops spanned 0.75 or more, and had 12 or more; a circle
#: drawn smaller, round the number alone, spans 0.6 of the box or more)
OFF_RING_SPAN, OFF_RING_FIRST_LOOK = 0.6, 12
OFF_CIRCLE_WHY = "a circle off the middle of the box: is the number guarded?"
OFF_TOUCHING_WHY = "a circle off the middle of the box, touching the number: is the number guarded?"
#: a guard circle drawn along the box's printed outline (a little bigger than the box): the
#: outline and the strip along it are left out of every cell, so the circle shows in the cell
#: only near its edges. First look: the cell's ink within OUTLINE_EDGE_PX px of its edges in
#: OUTLINE_FIRST_LOOK of 24 directions round its middle (few plain numbers reach the edges so
#: far round). Then pen ink along the outline, from the cell's edge to OUTLINE_OUT_MM beyond
#: the box, in pieces of OUTLINE_PIECE_MM2 or more (the print's leftovers along the outline
#: are thinner), in OUTLINE_SECTORS or more of 24 directions round the box's middle: the number
#: inside (what the cell holds away from its edges) is read guarded, flagged. On crops of
#: tuning photos with circles 0.88-1.08 of the box wide (seeds 7000-7023, 2-12 MP, MNIST and
#: UCI writers) it fired on 446 of 482 circled cells (most of them found by the checks before
#: it too), on 5 of the 6 whose circle those lost, and on none of 1,188 plain ones.
OUTLINE_EDGE_PX, OUTLINE_FIRST_LOOK, OUTLINE_OUT_MM, OUTLINE_PIECE_MM2, OUTLINE_SECTORS = 3, 7, 0.6, 0.5, 16
#: the outline circle is only looked for in a photo seeing the page at this many px/mm or more
#: (an A4 page in a 2 MP photo: 2.3-3.9; in 1 MP, 1.6-2.3, the outline blurs into a grey frame
#: round every box, which the check took for a circle 29 times on the tuning photos of two
#: writer sets, seeds 5000-5199, none of them circled; in their photos of 2 MP and more, never)
OUTLINE_SHARP = 2.4
#: nor in a cell holding this many specks (pieces under ARC_AREA) or more: a grainy photo's,
#: whose grain along the outline comes together into pieces too (a photo with 18 grey levels
#: of noise: 7-9 specks in each cell where the check took grain for a circle; in the tuning
#: photos' circled cells, 5 at most, plain ones 3)
OUTLINE_SPECKS = 6
OUTLINE_WHY = "ink along the box's outline: a circle round the box, guarding the number?"
#: a ring along the box's edge in one piece with the number inside it, round fewer than this
#: many of 24 directions, may be a big digit's own strokes: a 2 or a Z-like 2 85 % of the box
#: tall, its top and bar along the edge, read as a guarded 1, sure (strangers' photos, 3 of 3
#: at 14 directions; a marker 4 or 6 filling the box, 16-17: BENCHMARKS.md, "Strokes along the
#: box's outline"). Read guarded all the same, flagged. Of 2,006 circled numbers on the
#: tuning photos (bench_circled.py seeds 8000-8079, MNIST and UCI writers) 6 were so at 16
RING_WHOLE = 18
OWN_STROKE_WHY = "a circle, or the number's own strokes along the box's edge: is the number guarded?"

#: a guard circle drawn round the box and clear of it (wider than the box's diagonal, or an
#: oval round it) leaves nothing in the cell. Pen ink from ROUND_FROM_MM to ROUND_MM beyond the
#: box's outline (the print taken away, other boxes left out), in pieces of OUTLINE_PIECE_MM2 or
#: more, in ROUND_SECTORS or more of 24 directions round the box's middle: the number is read
#: guarded, flagged.
ROUND_FROM_MM, ROUND_MM, ROUND_SECTORS = 0.3, 3.0, 18
#: the darkness round a box is only worked out where the pixels off the print this much darker
#: than the paper go round ROUND_SECTORS directions (two strangers' map photos: 8-17 % of the
#: written boxes do, every circle the full check finds among them); and in a photo seeing the
#: page at ROUND_SHARP px/mm or more (under it every box is flagged: pipeline.TRUSTED_FROM).
#: At 1.8-2.4 px/mm, where the outline check is not asked, it took no plain number for a
#: circled one on the held-out photos (bench_photo.py, bench_circled.py)
ROUND_FIRST_LOOK, ROUND_SHARP = 0.2, 1.8
#: grain: a grainy photo's grain round a box (12-25 grey levels of noise) comes together into
#: pieces all round it; round a written number, with 20-78 specks (pieces under
#: OUTLINE_PIECE_MM2) beside them, where the strangers' circles had at most 12 and the
#: generated ones 3. Nor is a circle looked for round a number whose strokes (read._pen) are
#: fainter than ROUND_NUMBER_PEN: grain in an empty box taken for a number is 0.17-0.30 dark
#: (with 9-15 specks round it), the strangers' numbers 0.37 and darker
ROUND_SPECKS, ROUND_NUMBER_PEN = 16, 0.33
#: a circle round the box among up to ROUND_SPECKS_FLAGGED specks is flagged, not read as a
#: guard (a 2 MP photo's circle breaks into 16-19 specks; the grain round the numbers of the
#: dim photos of hand F: 37-87)
ROUND_SPECKS_FLAGGED = 32
ROUND_WHY = "a circle round the box: is the number guarded?"
#: such a circle round a pale number's box (under ROUND_NUMBER_PEN), in a grainy cell, or among
#: up to ROUND_SPECKS_FLAGGED specks: grain may have come together there, so the number is read
#: as written, flagged
PALE_ROUND_WHY = "ink round the box, a circle or the photo's grain: is the number guarded?"
#: an oval wider or taller than the box crosses it: outside it on two sides, inside it near its
#: edge on the others, further in than rim_directions looks. Ink round the box with the box's
#: ink beyond CROSSING_RIM of the half box (2 px or more a direction) in ROUND_SECTORS
#: directions, where rim_directions' are too few: the number is read as written, flagged (big
#: digits reach that far too: 0.5-9 plain numbers in a thousand were flagged so on the map
#: photos of three strangers' hands, MNIST and UCI writers)
CROSSING_RIM = 0.8
CROSSING_WHY = "a circle crossing the box's edges: is the number guarded?"
NOWHERE = np.zeros(24, bool)  # no direction round the box's middle


def _remove_circle(ink: np.ndarray, dark: np.ndarray, floor: float) -> tuple[np.ndarray, bool, bool]:
    """A guard circle rings the cell (the box edge may cut it into arcs, the number may
    touch it): ink near the edge going most of the way round is the circle, and so are arcs
    across the box's corners (a circle drawn round the box, bigger than it). The number
    inside is then told from the paper by its own darkness, not the (darker) circle's.
    (ink, circled, whether ink rings the box at all: a ring with nothing in it is no guard)."""
    arcs = None
    if not _rings(ink) and (arcs := _corner_arcs(ink)) is None:
        return ink, False, False
    # inside the ring's ellipse; where none fits, the middle of the box, or all but the arcs
    fallback = _rim(*ink.shape)[0] <= INNER_R2 if arcs is None else _outside(arcs)
    number = _number_inside(ink, dark, floor, (_inside_ring(ink), fallback))
    if number is None:
        return ink, False, True  # a ring with nothing in it: an O or a zero, not a guard
    return number, True, True


def _number_inside(ink: np.ndarray, dark: np.ndarray, floor: float, cuts) -> np.ndarray | None:
    """The ink inside a ring, told from the paper by its own darkness: within the first of the
    `cuts` (boolean masks; None: no such cut) that leaves some ink, the leftovers of the ring
    dropped; None when none does (a ring with nothing in it)."""
    for within in cuts:
        if within is None:
            continue
        inside = _ink(np.where(within, dark, 0.0).astype(np.float32), floor)
        mask = (inside > 0).astype(np.uint8)
        count, labels, stats, _ = _blobs(mask)
        if count < 2 or mask.sum() < 0.01 * ink.size:
            continue
        areas = stats[1:, cv2.CC_STAT_AREA]
        keep = np.concatenate([[False], areas >= 0.15 * areas.max()])  # leftovers of the ring go
        return np.where(keep[labels], inside, 0.0).astype(np.float32)
    return None


def _inside_ring(ink: np.ndarray, near: float | None = None) -> np.ndarray | None:
    """Where the crop lies inside the inner edge of the circle ringing it (see RING_FIT_FROM;
    a ring drawn smaller, about `near` of the half box from the middle, is first looked for
    within RING_BAND of that), as a boolean mask; None when its ink makes no plausible ellipse."""
    h, w = ink.shape
    ys, xs = np.nonzero(ink)
    r = _polar(h, w)[0][ys, xs]
    ring = _fitted_ring(ys, xs, r > RING_FIT_FROM if near is None else np.abs(r - near) < RING_BAND, h, w)
    return None if ring is None else _within(*ring, h, w)


def _fitted_ring(ys: np.ndarray, xs: np.ndarray, chosen: np.ndarray, h: int, w: int):
    """The ellipse through a ring's ink (the ink pixels ys, xs of an h x w crop): fitted to the
    `chosen` of them, then again to the ink within RING_FIT_BAND of it. (spread: see _ellipse,
    each ink pixel's distance, which are within the band), or None."""
    points = np.stack([xs, ys], axis=1).astype(np.float32)
    for _ in range(2):
        spread = _ellipse(points[chosen], h, w) if chosen.sum() >= 20 else None
        if spread is None:
            return None
        distance = spread(points[:, 0], points[:, 1])
        chosen = np.abs(distance - 1) < RING_FIT_BAND
    return None if chosen.sum() < 20 else (spread, distance, chosen)


def _within(spread, distance: np.ndarray, chosen: np.ndarray, h: int, w: int) -> np.ndarray:
    """Where an h x w crop lies inside the inner edge of the ring of _fitted_ring."""
    inner = np.quantile(distance[chosen], RING_INNER_SHARE) - RING_INNER_MARGIN
    gy, gx = np.mgrid[0:h, 0:w]
    return spread(gx.astype(np.float32), gy.astype(np.float32)) < inner


def _ellipse(points: np.ndarray, h: int, w: int):
    """The ellipse fitted to `points` (x, y) of an h x w crop, as the function giving each
    point's distance from its centre as a share of the ellipse's radius that way (and, with
    `direction`, which of 24 directions round the ellipse it lies in); None when
    it is too small or too big to ring a number in the crop."""
    (cx, cy), axes, angle = cv2.fitEllipse(points)
    a, b = axes[0] / 2, axes[1] / 2
    if not (0.15 * min(h, w) < min(a, b) and max(a, b) < 0.8 * max(h, w)):
        return None
    cos, sin = np.cos(np.radians(angle)), np.sin(np.radians(angle))

    def spread(x, y, direction=False):
        u, v = (x - cx) * cos + (y - cy) * sin, (y - cy) * cos - (x - cx) * sin
        d = np.sqrt((u / a) ** 2 + (v / b) ** 2)
        return (d, _direction(v / b, u / a)) if direction else d

    return spread


def _big_circle(ink: np.ndarray, dark: np.ndarray, floor: float) -> np.ndarray | None:
    """A guard circle bigger than the box seen across only ARC_CORNERS_SEEN of its corners:
    the number inside it (the arcs left out), or None."""
    arcs = _corner_arcs(ink, ARC_CORNERS_SEEN)
    if arcs is None:
        return None
    # two arcs of a circle beyond the box are two pieces; one stroke across two corners is a
    # big number's own (a 5's bar)
    labels = cv2.connectedComponents(arcs.astype(np.uint8), connectivity=8)[1]
    corner, far = _corner(*ink.shape), _far(*ink.shape)
    pieces = [set(np.unique(labels[(corner == k) & far & arcs])) for k in np.flatnonzero(_reached(arcs))]
    if set.intersection(*pieces):
        return None
    return _number_inside(ink, dark, floor, (_outside(arcs),))


def _outside(arcs: np.ndarray) -> np.ndarray:
    """Where the crop lies a pixel or more away from the `arcs` (boolean masks)."""
    return cv2.dilate(arcs.astype(np.uint8), np.ones((3, 3), np.uint8)) == 0


def _corner_arcs(ink: np.ndarray, corners_needed: int = ARC_CORNERS) -> np.ndarray | None:
    """The arcs a guard circle bigger than the box leaves across its corners (see ARC_CORNERS),
    as a boolean mask of the ink pieces they are in; None when the ink shows no such circle."""
    h, w = ink.shape
    if _reached(ink > 0).sum() < corners_needed:
        return None  # most crops: too little ink out there to look at its pieces
    labels, kept = _pieces(ink)
    kept[labels[(_rim(h, w)[0] < NEAR_MIDDLE ** 2) & (ink > 0)]] = False
    arcs = kept[labels]
    return arcs if _reached(arcs).sum() >= corners_needed else None


def _pieces(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ink's pieces (8-connected): each pixel's label, and which labels are ink, not
    specks (ARC_AREA of the crop or more; label 0, the paper, is not)."""
    h, w = ink.shape
    _, labels, stats, _ = cv2.connectedComponentsWithStats((ink > 0).astype(np.uint8), connectivity=8)
    kept = stats[:, cv2.CC_STAT_AREA] >= ARC_AREA * h * w
    kept[0] = False
    return labels, kept


def _reached(mask: np.ndarray) -> np.ndarray:
    """Which of the crop's four corners `mask` (boolean) reaches: ARC_PX px or more of it
    where corner arcs are looked for (_far)."""
    return np.bincount(_corner(*mask.shape)[_far(*mask.shape) & mask], minlength=4) >= ARC_PX


def _rings(ink: np.ndarray) -> bool:
    """Ink near the box edge most of the way round: a guard circle, or a 0 written that big."""
    return _rim_sectors(ink) >= CIRCLE_SECTORS


def _rim_sectors(ink: np.ndarray) -> int:
    """In how many of 24 directions round the box's middle ink lies near its edge."""
    return int(rim_directions(ink).sum())


def crossing_directions(ink: np.ndarray) -> np.ndarray:
    """Which of 24 directions round the box's middle hold ink beyond CROSSING_RIM (2 px or more)."""
    r, sector = _polar(*ink.shape)
    return np.bincount(sector[(r >= CROSSING_RIM) & (ink > 0)], minlength=24) >= 2


def rim_directions(ink: np.ndarray) -> np.ndarray:
    """Which of 24 directions round the box's middle hold ink near its edge (3 px or more
    beyond CIRCLE_RIM)."""
    r2, sector = _rim(*ink.shape)
    rim = (r2 > CIRCLE_RIM) & (ink > 0)
    return np.bincount(sector[rim], minlength=24) >= 3


def _number_s_own_stroke(ink: np.ndarray, number: np.ndarray) -> bool:
    """Whether the ring _remove_circle took off `ink`, leaving `number`, may be the number's
    own strokes (see RING_WHOLE): most of it in one piece with the number, round less than
    RING_WHOLE of the 24 directions."""
    if _rim_sectors(ink) >= RING_WHOLE:
        return False
    _, labels = cv2.connectedComponents((ink > 0).astype(np.uint8), connectivity=8)
    ring = (ink > 0) & ~(number > 0)
    joined = np.isin(labels[ring], np.unique(labels[number > 0]))
    return bool(ring.any() and joined.mean() > 0.5)


def _small_circle(ink: np.ndarray, dark: np.ndarray, floor: float) -> np.ndarray | None:
    """A guard circle drawn well inside the box, where _remove_circle does not look: ink at
    one distance from the middle in nearly every direction. The number inside it (the ring
    and what lies beyond it left out), or None. A plain digit or an X rarely goes that far
    round (none of 2,203 plain one-digit cells and crosses on photos of UCI and font writers;
    at half the half box 13 did, so no smaller ring is looked for); read flagged all the same."""
    r, sector = _polar(*ink.shape)
    on = ink > 0
    r_on, sector_on = r[on], sector[on]
    for radius in RING_RADII:
        band = np.abs(r_on - radius) < RING_BAND
        if (np.bincount(sector_on[band], minlength=24) >= 2).sum() < RING_SECTORS:
            continue
        # None: a loop with nothing in it, a 0 or an O, not a guard
        return _number_inside(ink, dark, floor, (_inside_ring(ink, radius), r < radius - 2 * RING_BAND))
    return None


def _off_centre_circle(ink: np.ndarray, dark: np.ndarray, floor: float) -> tuple[np.ndarray | None, str] | None:
    """A guard circle drawn off the middle of the box, where the other checks, which look from
    the box's middle, do not see it (see OFF_RING_ON): the number inside it and why the cell
    is flagged; no number where the ring's piece runs on inwards (the number touching it, or a
    big digit's own stroke: the cell is read as written, flagged); None where there is no such
    ring, or nothing in it (a 0)."""
    h, w = ink.shape
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if len(rows) == 0 or min((rows[-1] - rows[0]) / h, (cols[-1] - cols[0]) / w) < OFF_RING_SPAN:
        return None  # most plain digits: too narrow for a ring round a number
    labels, kept = _pieces(ink)
    ys, xs = np.nonzero(ink)
    piece = labels[ys, xs]
    kept = kept[piece]
    if kept.sum() < 20:
        return None
    x0, x1, y0, y1 = xs[kept].min(), xs[kept].max(), ys[kept].min(), ys[kept].max()
    half_w, half_h = (x1 - x0) / 2, (y1 - y0) / 2
    if min(half_w, half_h) < 0.25 * min(h, w):
        return None
    dx, dy = (xs - (x0 + x1) / 2) / half_w, (ys - (y0 + y1) / 2) / half_h
    near_edge = kept & (np.abs(np.sqrt(dx * dx + dy * dy) - 1) < RING_FIT_BAND)
    if (np.bincount(_direction(dy[near_edge], dx[near_edge]), minlength=24) >= 2).sum() < OFF_RING_FIRST_LOOK:
        return None  # most plain digits: not worth fitting an ellipse to
    ring = _fitted_ring(ys, xs, near_edge, h, w)
    if ring is None:
        return None
    spread = ring[0]
    distance, direction = spread(xs.astype(np.float32), ys.astype(np.float32), direction=True)
    on, between = kept & (np.abs(distance - 1) < OFF_RING_ON), kept & (distance > OFF_RING_GAP[0]) & (distance < OFF_RING_GAP[1])
    seen = np.bincount(direction[on], minlength=24) >= 2
    if seen.sum() < OFF_RING_SEEN or (np.bincount(direction[between], minlength=24) == 0).sum() < OFF_RING_GAP_SECTORS:
        return None
    if (_in_crop(spread, h, w) & ~seen).sum() > OFF_RING_MISSED:
        return None
    number = _number_inside(ink, dark, floor, (_within(*ring, h, w),))
    if number is None:
        return None
    rows = np.flatnonzero(number.any(axis=1))
    if rows[-1] - rows[0] < OFF_RING_INNER * (y1 - y0):
        return None
    ring_piece = piece == np.bincount(piece[on]).argmax()
    if (ring_piece & (distance < OFF_RING_GAP[0])).sum() > OFF_RING_INWARD * ring_piece.sum():
        return None, OFF_TOUCHING_WHY  # the number runs into the ring, or a big digit's own stroke
    return number, OFF_CIRCLE_WHY


def _reaches_edges(ink: np.ndarray) -> bool:
    """The first look of _outline_circle: ink near the cell's edges nearly all round, and
    fewer than OUTLINE_SPECKS specks in the cell."""
    sector = _polar(*ink.shape)[1]
    near = _edge_band(*ink.shape, OUTLINE_EDGE_PX) & (ink > 0)
    if (np.bincount(sector[near], minlength=24) > 0).sum() < OUTLINE_FIRST_LOOK:
        return False
    return (~_pieces(ink)[1][1:]).sum() < OUTLINE_SPECKS


def _outline_circle(ink: np.ndarray, dark: np.ndarray, floor: float, outline: np.ndarray,
                    px_per_mm: float) -> np.ndarray | None:
    """A guard circle drawn along the box's outline (see OUTLINE_SECTORS): the number inside, or
    None. `outline`: the darkness of the box grown by OUTLINE_OUT_MM each way (the print taken
    away), whose middle, BORDER_MM in from the box's edges, is the cell."""
    h, w = outline.shape
    strip = _edge_band(h, w, int(round((OUTLINE_OUT_MM + BORDER_MM) * px_per_mm)))
    pen = strip & (_ink(outline, max(INK_DARKNESS, _grain(outline))) > 0)
    if _directions(pen, px_per_mm).sum() < OUTLINE_SECTORS:
        return None
    return _number_inside(ink, dark, floor, (~_edge_band(*ink.shape, OUTLINE_EDGE_PX),))


@lru_cache(maxsize=32)
def _edge_band(h: int, w: int, px: int) -> np.ndarray:
    """The pixels of an h x w crop within `px` of its edges."""
    band = np.ones((h, w), bool)
    band[px:h - px, px:w - px] = False
    return band


def _in_crop(spread, h: int, w: int) -> np.ndarray:
    """Which of the 24 directions round the ellipse `spread` (see _ellipse) it runs through
    an h x w crop in, ARC_EDGE px or more in from its edges (looked at every other pixel,
    2 of them at least: a direction the ellipse only grazes the crop in does not count)."""
    gy, gx = np.mgrid[ARC_EDGE:h - ARC_EDGE:2, ARC_EDGE:w - ARC_EDGE:2].astype(np.float32)
    distance, direction = spread(gx.ravel(), gy.ravel(), direction=True)
    return np.bincount(direction[np.abs(distance - 1) < OFF_RING_ON], minlength=24) >= 2


@lru_cache(maxsize=32)
def _polar(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's distance from the middle of an h x w crop (as a share of the half box)
    and which of 24 directions it lies in."""
    ys, xs = np.mgrid[0:h, 0:w]
    dx, dy = (xs - (w - 1) / 2) / (w / 2), (ys - (h - 1) / 2) / (h / 2)
    return np.sqrt(dx * dx + dy * dy), _direction(dy, dx)


def _direction(dy: np.ndarray, dx: np.ndarray) -> np.ndarray:
    """Which of 24 directions round a middle each offset (dx, dy) points in."""
    return ((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * 24).astype(int) % 24


@lru_cache(maxsize=32)
def _corner(h: int, w: int) -> np.ndarray:
    """Which quarter of an h x w crop each pixel lies in (0-3)."""
    ys, xs = np.mgrid[0:h, 0:w]
    return (ys > (h - 1) / 2) * 2 + (xs > (w - 1) / 2)


@lru_cache(maxsize=32)
def _far(h: int, w: int) -> np.ndarray:
    """Where corner arcs are looked for: beyond CIRCLE_RIM, ARC_EDGE px or more from the edges."""
    return (_rim(h, w)[0] > CIRCLE_RIM) & ~_edge_band(h, w, ARC_EDGE)


@lru_cache(maxsize=32)
def _rim(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """_polar's squared distance, and its direction (of 24), of each pixel of an h x w crop."""
    r, sector = _polar(h, w)
    ys, xs = np.mgrid[0:h, 0:w]
    dx, dy = (xs - (w - 1) / 2) / (w / 2), (ys - (h - 1) / 2) / (h / 2)
    return dx * dx + dy * dy, sector


def _round_circle(around: np.ndarray, left_out: np.ndarray, px_per_mm: float, rim=NOWHERE,
                  specks: int = ROUND_SPECKS) -> bool:
    """A guard circle round the box, clear of it or partly inside it (see ROUND_SECTORS).
    `around`: the darkness of the box grown by ROUND_MM each way (the print taken away), whose
    middle is the box's; `left_out`: where no circle is looked for (the box and other boxes);
    `rim`: the directions in which the box holds ink near its edge (rim_directions), the rest
    of such a circle. Not where the ink round the box holds ROUND_SPECKS specks or more (a
    grainy photo's grain; or `specks`)."""
    pen = ~left_out & (_ink(around, max(INK_DARKNESS, _grain(around))) > 0)
    areas = cv2.connectedComponentsWithStats(pen.astype(np.uint8), connectivity=8)[2][1:, cv2.CC_STAT_AREA]
    if (areas < OUTLINE_PIECE_MM2 * px_per_mm ** 2).sum() >= specks:
        return False
    return _goes_round(pen, px_per_mm, rim=rim)


def _goes_round(pen: np.ndarray, px_per_mm: float, pieces: bool = True, rim=NOWHERE) -> bool:
    """Whether the `pen` (boolean, round the box's middle), with the directions `rim`, lies in
    ROUND_SECTORS or more of 24 directions round the middle (see _directions)."""
    return int((_directions(pen, px_per_mm, pieces) | rim).sum()) >= ROUND_SECTORS


def _directions(pen: np.ndarray, px_per_mm: float, pieces: bool = True) -> np.ndarray:
    """Which of 24 directions round the crop's middle the `pen` (boolean) lies in, 2 px or
    more, counting only `pieces` of OUTLINE_PIECE_MM2 or more (a pixel's gap joins a piece: a
    circle is cut where it crosses the print, taken away with it where the pen is no darker)."""
    if pieces:
        count, labels = cv2.connectedComponents(cv2.dilate(pen.astype(np.uint8), np.ones((3, 3), np.uint8)), connectivity=8)
        kept = np.bincount(labels[pen], minlength=count) >= OUTLINE_PIECE_MM2 * px_per_mm ** 2
        pen = kept[labels] & pen
    return np.bincount(_polar(*pen.shape)[1][pen], minlength=24) >= 2
