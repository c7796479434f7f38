"""Reading every cell of a rectified page: blank, X, a digit, two digits, a circled digit,
a ticked box. Each read carries a confidence; below the classifier's calibrated threshold
it is "unsure" and must be checked by a person.

The page is a grey image at `px_per_mm` pixels per millimetre, the same geometry as the
Sheet it was printed from, so each cell's box is known exactly.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from rnwprint.photo import digits, faded, overflow, pairs, too_coarse
from rnwprint.photo.faded import faded_ink
# moved to sibling modules by job; every name stays importable from here
from rnwprint.photo.circles import (  # noqa: F401
    BIG_CIRCLE_WHY, OFF_CIRCLE_WHY, OFF_TOUCHING_WHY, OUTLINE_OUT_MM, OUTLINE_SHARP, OUTLINE_WHY, OWN_STROKE_WHY, CIRCLE_RIM, CIRCLE_SECTORS, EMPTY_RING_WHY, RING_BAND, RING_RADII, RING_SECTORS, SMALL_CIRCLE_WHY, _polar,
    CROSSING_WHY, NOWHERE, ROUND_FIRST_LOOK, ROUND_FROM_MM, ROUND_MM, PALE_ROUND_WHY, ROUND_NUMBER_PEN, ROUND_SHARP, ROUND_SPECKS_FLAGGED, ROUND_WHY, _goes_round, _round_circle, _big_circle, _number_s_own_stroke, _off_centre_circle, _outline_circle, _reaches_edges, _remove_circle, _rings, _small_circle,
    crossing_directions, rim_directions)
from rnwprint.photo.decide import (  # noqa: F401
    AMBIGUOUS, BLANK_INK, DECIMALS, ONE_OR_TWO, UNSURE_BLANK, WHY_FAINT, WHY_FAINT_TICK, WHY_GUESS, WHY_ONE_OR_TWO, WHY_RANGE,
    WHY_SHORT, CellRead, flagged,
    _cut_odds, _decide, _pair, _tick)
from rnwprint.photo.ink import (  # noqa: F401
    BORDER_MM, GRAIN_SPREAD, INK_DARKNESS, INK_RELATIVE, PEN_OVER_PRINT, STROKE_MM, TICK_EDGE, _darkest,
    _cell_crop, _darkness, _grain, _ink, _off_print, _share_inside, _take_print_away)
from rnwprint.photo.faint_ring import FAINT_RING_WHY, ring_bar
from rnwprint.photo.faint_ring import ring_shares as faint_ring_shares
from rnwprint.photo.guards import missed_circles
from rnwprint.photo.pale import PALE_TICK_MM, PALE_WHY, pale_strokes
from rnwprint.photo.round_ring import ROUND_RING_SHARE, ROUND_RING_WHY, rays_of, ring_shares, widened
from rnwprint.photo.light import (  # noqa: F401
    BRIGHT_PAPER, DARK_PAPER, FADED_OVER, FADED_SURE, GRAINY, LIGHT_MARGIN_MM, LIGHT_WHY, MAX_GAIN, MAX_OVER, PEN_DARK,
    COVERED, COVERED_ABOVE, COVERED_CLEAR, COVERED_FEW, COVERED_FOUND, FINGER_SHARP, PRINT_BLUR_MM, PRINT_SEEN, WEAK_MATCH, _exposure, _in_light, _nearest_rank,
    _outline_hidden)
from rnwprint.photo.printed import (  # noqa: F401
    _PRINTED, REGISTER_MATCH, REGISTER_PAD_MM, REGISTER_SEARCH_MM, _draw_print, _item_bounds, _pack, _printed,
    Registration, _ring_match, _shift, _unpack, of_print, print_around)
from rnwprint.photo.split import (  # noqa: F401
    CUT_APART, CUT_RANGE, MAX_CUTS, MAYBE_TWO, SHORT_PIECE, SPECK, TWO_PIECES_HEIGHT, TWO_PIECES_OVERLAP, _aspect,
    _cuts, _short_ways, _split_digits, _two_pieces, edge_line, without_edge_lines)
from rnwprint.core.entries import Guarded
from rnwprint.core.sheet import Cell, Sheet

#: in a photo seeing the page at fewer px/mm than this, a written cell's strokes are ink from
#: this darkness on (a blank cell is still told by INK_DARKNESS)
COARSE_BELOW, COARSE_INK_DARKNESS = 3.0, 0.10
FAINT_INK = 0.02  # this little ink, read unsure, is more likely stray marks than a number
WHY_NETWORKS = "the two networks read it differently"
#: the pair reader (rnwprint.photo.pairs) reads every cell the reader may cut in two, whole;
#: where not both read two digits (see BOTH_SURE), or a circle or the light decides the flag:
#: where the two read different numbers the surer stands, flagged with the other; where they
#: agree and the pair reader is this sure, a read flagged for one of these reasons alone (how
#: sure, the shape, the digits read likelier out of range) is sure after all. On the tuning
#: photos (Roll to the Top seeds 5003-5599, eight writer sets) this halved the two-digit cells
#: wrong and not flagged, read 1-5 points more right and flagged fewer (BENCHMARKS.md, "The
#: pair reader")
WHOLE_SURE = 0.9
WHOLE_SETTLES = (WHY_GUESS.partition("{}")[0], WHY_ONE_OR_TWO, WHY_SHORT, WHY_NETWORKS, WHY_RANGE)
WHY_WHOLE, WHY_CUT = "read whole, it is {}", "read digit by digit, it is {}"
#: where both the digit networks (on their likeliest cut) and the pair reader read two digits,
#: the number is the likeliest on the average of the two readers' odds over the two-digit
#: numbers the box holds, flagged below this. Chosen on the tuning photos (Roll to the Top seeds
#: 5003-5599, eight writer sets) as about the highest that flags no more two-digit cells in all
#: than the rules before it: fewer read wrong without a flag in every set (UCI 0.90 -> 0.39 %),
#: 0.3 point more read right on average (BENCHMARKS.md, "Both readers' odds together")
BOTH_SURE = 0.72
#: a number in one piece read sure only with the second opinion is read by the pair reader
#: too: where that reads another number at least this likely, the cell is flagged, its number
#: kept (the pair reader reads one digit less well than the digit networks, but errs
#: elsewhere). On the tuning photos (seeds 5000-5199, the four sheets) this flagged 16-22 % of
#: the one-digit cells the UCI and font writers had read wrong without a flag, for 0.2-1 point
#: more flagged (BENCHMARKS.md, "The pair reader checks numbers in one piece too")
OTHER_SURE = 0.5
WHY_OTHER = "another network reads {}"
#: a cell read less surely than this is read by the convolutional networks too, and their
#: probabilities averaged with the feature network's (the two take about 0.3 ms a crop in a
#: batch of 20: some 60 ms more for a Roll to the Top photo if asked about every cell)
SECOND_OPINION_BELOW = 0.9
#: a circled number is written about half as big as a plain one: in a photo coarser than the
#: reader advises (ADVISED_PX_PER_MM) it is read from a few pixels, and is sure only from this.
#: On the tuning photos (bench_circled.py seeds 8000-8079, five writer sets) this cut the
#: circled cells read wrong without a flag by a third to a half (UCI 1.69 -> 0.79 %) for 1.5-6
#: points more flagged
#: (BENCHMARKS.md, "Circled numbers in coarse photos")
SMALL_SURE = 0.85
#: a written cell whose ink is this much fainter than the page's typical written cell (its
#: strokes' darkness, the 90th percentile, against the written cells' upper quartile: a page
#: folded early in the game may have more creased boxes than numbers) is flagged: a fold's
#: crease or a coffee stain's rim through a blank box reads as a sure 1 (strangers' photos:
#: 0.24-0.50 of the typical pen, 18 cells of 18 photos), while on the held-out photos
#: (bench_photo seeds 1000-1099, MNIST and UCI writers, 5,575 written cells) 8 not already
#: flagged lie under it
FAINT_AMONG = 0.55
FAINT_AMONG_WHY = "ink far fainter than the page's other numbers: a fold, a stain or a trace of an erased number?"


@dataclass(frozen=True)
class Written:
    """The pen ink of one written cell, ready for the classifier."""

    cell: Cell
    crops: list  # one crop; or for two-digit cells the whole number, then (tens, units) of each cut
    apart: bool  # two-digit cells only: the ink is two pieces side by side (surely two digits)
    circled: bool
    share: float  # of the cell's area in ink
    offset_mm: tuple[float, float]  # see CellRead
    light: str = ""  # see CellRead
    why: str = ""  # a reason to flag whatever is read (a guard circle drawn smaller than the box)
    small: bool = False  # a circled number in a photo coarser than advised: see SMALL_SURE
    pen: float = 0.0  # how dark its strokes are: see FAINT_AMONG
    #: the cell read a second way as a plain number, each (crops, apart, judge): the judge
    #: weighs the first read against this one (read_cells). With its ink out of the box, where
    #: it runs over the box's edge (overflow.outside, judged); with its strokes along the box's
    #: outline (overflow.in_border, along_edge); with its strokes along the box's edge outside it
    #: (overflow.outside's `along`, along_outside); without the ink another box's number reaches in
    #: with (overflow.INTRUDING_SHARE, untouched); the whole ink, where the guard circle found
    #: may be the number's own stroke (OWN_STROKE_WHY, SMALL_CIRCLE_WHY; _ring_or_stroke); a
    #: two-digit cell without the ink along its crop's edges (split.without_edge_lines, edge_line)
    again: tuple = ()
    ring: tuple = (0.0, 0.0)  # the share of the rays on a faint ring round the number and round the box

    def decide(self, probs: np.ndarray) -> CellRead:
        """_decide on this cell's crops' probabilities."""
        return _decide(self.cell, probs, self.circled, self.apart, _short_ways(self.crops) if self.apart else ())


def separate(page: np.ndarray, sheet: Sheet, px_per_mm: float, allows_guarded: bool,
             photo_px_per_mm: float) -> tuple[dict[str, CellRead], list[Written]]:
    """Blank cells and tick boxes read at once; the written cells, separated from the print
    and split into what the classifier reads (tools/train_digits.py trains on these too).
    `photo_px_per_mm` is how finely the photo itself saw the page (the page may be finer)."""
    coarse = photo_px_per_mm < COARSE_BELOW
    reads: dict[str, CellRead] = {}
    written = []
    raw, printed = _printed(sheet, px_per_mm)
    grey = _PRINTED[(sheet.identity.encode(), px_per_mm)][2]
    registration = Registration(page, raw, px_per_mm)
    hidden = {}  # cell id -> light._outline_hidden, worked out where asked

    def hidden_of(cell: Cell, shift: tuple[int, int]) -> float:
        if cell.id not in hidden:
            hidden[cell.id] = _outline_hidden(page, raw, grey, cell, px_per_mm, shift)
        return hidden[cell.id]

    seen, ring_asked = [], []  # ring_asked: (index in written, cell, shift, (dark, ink, floor)) for _faint_rings
    for cell in sheet.cells.values():
        shift = registration.shift(cell)
        light, gain = _exposure(page, raw, grey, cell, px_per_mm, shift)
        if not light and _covered(cell, registration.match[cell.id], photo_px_per_mm, lambda: hidden_of(cell, shift)):
            light = "covered"
        dark = _darkness(page, raw, printed, cell, px_per_mm, shift)
        if gain != 1.0:
            dark *= gain
        seen.append((cell, shift, light, dark, _grain(dark)))
    seen = _blur_not_covered(seen, hidden_of)
    near = of_print(raw, "near boxes", lambda: _near_boxes(sheet)) if allows_guarded else {}  # see _round_of
    # a cell's own grain, within GRAIN_SPREAD times the median cell's either way (a number and
    # its guard circle in a coarse photo can cover three quarters of a cell; a cell's print,
    # taken away, leaves no darkness at all)
    typical = float(np.median([g for *_, g in seen])) if seen else 0.0
    for cell, shift, light, dark, grain in seen:
        offset = (shift[1] / px_per_mm, shift[0] / px_per_mm)
        grain = min(max(grain, typical / GRAIN_SPREAD), typical * GRAIN_SPREAD)
        floor = max(INK_DARKNESS, grain)
        ink = _ink(dark, floor)
        share = cv2.countNonZero(ink) / ink.size if ink.size else 0.0
        grainy = grain > GRAINY
        if grainy and not light:
            light = "grainy"  # a light stroke may be lost in the grain: only a sure read stands
        if cell.kind == "tick":
            read = _tick(cell, _share_inside(ink, px_per_mm / photo_px_per_mm))
            if read.value is False and not read.unsure and pale_strokes(dark, floor, px_per_mm, PALE_TICK_MM):
                read = replace(read, confidence=0.5, unsure=True, why=WHY_FAINT_TICK)
        elif share < BLANK_INK:
            # faint marks, unless most of them are the blurred edge of the box's printed id
            faint = share > UNSURE_BLANK[0] and \
                cv2.countNonZero(_off_print(ink, printed, cell, px_per_mm)) / ink.size > UNSURE_BLANK[0]
            why = WHY_FAINT if faint else PALE_WHY if pale_strokes(dark, floor, px_per_mm) else ""
            read = CellRead(cell.id, None, 1.0 - share / BLANK_INK if why else 1.0, bool(why), why)
        else:
            circled = False
            pen = _pen(ink)
            # blurred strokes of a coarse photo fade in places: a lower floor keeps them whole
            # (there blur, not grain, sets a cell's quartile: the grain is left out)
            if coarse:
                floor = COARSE_INK_DARKNESS
                ink = _ink(dark, floor)
            why, again = "", []
            if allows_guarded:
                whole = ink
                ink, circled, ringed = _remove_circle(ink, dark, floor)
                if circled and _number_s_own_stroke(whole, ink):
                    why, again = OWN_STROKE_WHY, [(whole, _ring_or_stroke)]
                elif not circled and (inside := _small_circle(ink, dark, floor)) is not None:
                    again = [(ink, _ring_or_stroke)]
                    ink, circled, why = inside, True, SMALL_CIRCLE_WHY
                elif not circled and not ringed and (inside := _big_circle(ink, dark, floor)) is not None:
                    ink, circled, why = inside, True, BIG_CIRCLE_WHY
                elif not circled and not ringed and (off_centre := _off_centre_circle(ink, dark, floor)):
                    inside, why = off_centre
                    ink, circled = (ink, False) if inside is None else (inside, True)
                elif not circled and not ringed and not light and photo_px_per_mm >= OUTLINE_SHARP and _reaches_edges(ink):
                    around = _darkness(page, raw, printed, overflow.grown(cell, OUTLINE_OUT_MM + BORDER_MM), px_per_mm, shift)
                    if (inside := _outline_circle(ink, dark, floor, around, px_per_mm)) is not None:
                        ink, circled, why = inside, True, OUTLINE_WHY
                elif not circled and ringed and cell.low > 0:  # an empty ring, and no 0 to be written here
                    why = EMPTY_RING_WHY
                if not circled and not ringed and not why and light in ("", "grainy") and photo_px_per_mm >= ROUND_SHARP and \
                        (round_of := _round_of(page, raw, printed, near[cell.id], cell, px_per_mm, shift,
                                               crossing := crossing_directions(ink))):
                    # a pale number's cell, or a grainy one, may have the grain round it come together
                    trusted = not light and pen >= ROUND_NUMBER_PEN
                    if _round_circle(*round_of, px_per_mm, rim := rim_directions(ink)):
                        circled, why = (True, ROUND_WHY) if trusted else (False, PALE_ROUND_WHY)
                    elif trusted and _round_circle(*round_of, px_per_mm, crossing):
                        why = CROSSING_WHY
                    elif _round_circle(*round_of, px_per_mm, rim, specks=ROUND_SPECKS_FLAGGED):
                        why = PALE_ROUND_WHY
                if not circled and not ringed and not why and light in ("", "grainy"):
                    ring_asked.append((len(written), cell, shift, (dark, ink, floor)))  # all such cells at once, below
                light = _after_circle(light, ringed, why, grainy)
            if not circled and why in ("", CROSSING_WHY, PALE_ROUND_WHY) and overflow.reaches_crop_edge(ink):
                print_near = print_around(sheet, px_per_mm)
                on_outline = overflow.pen_on_outline(page, raw, cell, px_per_mm, shift)  # asked once for the reads below
                beyond, tails = overflow.outside(page, raw, printed, print_near, cell, px_per_mm, shift, floor,
                                                 on_outline=on_outline)
                if beyond is not None:
                    again.append((beyond, functools.partial(overflow.judged, coarse=coarse)))
                elif not coarse and (bordered := overflow.in_border(page, raw, printed, cell, px_per_mm, shift, floor,
                                                                    ink, on_outline)) is not None:
                    again.append((bordered, overflow.along_edge))
                if beyond is None and (along := overflow.outside(page, raw, printed, print_near, cell, px_per_mm, shift,
                                                                  floor, along=True, on_outline=on_outline)[0]) is not None:
                    again.append((along, overflow.along_outside))
                if tails is not None and tails.shape == ink.shape:
                    again.append((np.where(tails, 0, ink), overflow.untouched))
            if not circled and cell.high >= 10 and (bare := without_edge_lines(ink, px_per_mm)) is not None:
                again.append((bare, edge_line))
            if not circled and not why and (fuller := faded_ink(dark, ink, floor, px_per_mm)) is not None:
                again.append((fuller, faded.judged))
            written.append(Written(cell, *_split_digits(ink, cell), circled, share, offset, light, why,
                                   circled and too_coarse(photo_px_per_mm), pen,
                                   tuple((*_split_digits(other, cell), judge) for other, judge in again)))
            continue
        reads[cell.id] = _in_light(replace(read, offset_mm=offset), light)
    rings, shares = _faint_rings(page, sheet, raw, near, ring_asked, px_per_mm, photo_px_per_mm, coarse)
    for k, why in rings:
        # read guarded, as a ring found in the loop would have been: no plain rereads
        written[k] = replace(written[k], circled=True, why=why, small=too_coarse(photo_px_per_mm), again=())
    for k, share in shares.items():
        written[k] = replace(written[k], ring=share)
    return reads, _faint_among(written)


def _faint_rings(page: np.ndarray, sheet: Sheet, raw: np.ndarray, near: dict, asked: list, px_per_mm: float,
                 photo_px_per_mm: float, coarse: bool) -> tuple[list[tuple[int, str]], dict[int, tuple[float, float]]]:
    """Of the `asked` cells (index in written, cell, shift, (dark, ink, floor)), those with a
    faint ring round the number (faint_ring) or else, in a photo of ROUND_SHARP px/mm or more,
    round the box (round_ring), and why; and the share of the rays on each ring of each cell,
    found or not (guards.missed_circles). Each check looks at all its cells at once."""
    inside = dict(zip((k for k, *_ in asked), faint_ring_shares([dark_ink_floor for *_, dark_ink_floor in asked])))
    bar = ring_bar(coarse)
    rings = [(k, FAINT_RING_WHY) for k, share in inside.items() if share >= bar]
    rest = [(k, cell, shift) for k, cell, shift, _ in asked if inside[k] < bar]
    if not rest or photo_px_per_mm < ROUND_SHARP:
        return rings, {k: (share, 0.0) for k, share in inside.items()}
    # the print round the box, leaders and the map's lines too: a line darker on both sides
    print_near = of_print(raw, "print near", lambda: widened(print_around(sheet, px_per_mm)))
    boxes = [(of_print(raw, ("rays", cell.id), lambda cell=cell: rays_of(cell, near[cell.id], print_near, px_per_mm)),
              shift) for _, cell, shift in rest]
    around = dict(zip((k for k, *_ in rest), ring_shares(page, boxes, px_per_mm)))
    rings += [(k, ROUND_RING_WHY) for k, share in around.items() if share >= ROUND_RING_SHARE]
    return rings, {k: (share, around.get(k, 0.0)) for k, share in inside.items()}


def _round_of(page: np.ndarray, raw: np.ndarray, printed: np.ndarray, near: list, cell: Cell,
              px_per_mm: float, shift: tuple[int, int], rim=NOWHERE) -> tuple[np.ndarray, np.ndarray] | None:
    """The darkness round `cell` out to ROUND_MM beyond its outline (the print taken away), and
    where a circle round it is not looked for: the box out to ROUND_FROM_MM, and the boxes
    `near` it (their bounds, x0 y0 x1 y1 in mm) out to their outlines' inner edge. None
    where a first look finds no circle there: the pixels off the print darker than the paper
    (the brightest tenth) by ROUND_FIRST_LOOK go round too few directions (most boxes; the
    darkness round a box takes about a millisecond; `rim`: see circles._round_circle)."""
    grown = overflow.grown(cell, ROUND_MM + BORDER_MM)
    r0, r1, c0, c1 = _cell_crop(grown, px_per_mm)
    dy, dx = shift
    crop = page[max(r0 + dy, 0):r1 + dy, max(c0 + dx, 0):c1 + dx]
    if crop.shape != (r1 - r0, c1 - c0):
        return None  # the page's edge: no room for a circle round the box
    left_out = _round_left_out(near, cell, crop.shape, px_per_mm)
    paper = _nearest_rank(crop, 0.9)  # where the brightest tenth begins
    if not _goes_round((crop < paper * (1 - ROUND_FIRST_LOOK)) & ~left_out & (printed[r0:r1, c0:c1] == 0), px_per_mm,
                       pieces=False, rim=rim):
        return None
    return _darkness(page, raw, printed, grown, px_per_mm, shift), left_out


def _round_left_out(near: list, cell: Cell, shape: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """_round_of's boxes: `cell`'s out to ROUND_FROM_MM, the others `near` it (their bounds)
    to their outlines' inner edge, in the crop round `cell` (its top left ROUND_MM out from
    the box's)."""
    h, w = shape
    own = cell.bounds
    left, top = own[0] - ROUND_MM, own[1] - ROUND_MM
    left_out = np.zeros(shape, bool)
    for (x0, y0, x1, y1), grow in [(own, ROUND_FROM_MM)] + [(box, BORDER_MM) for box in near]:
        c0, r0 = max(math.floor((x0 - grow - left) * px_per_mm), 0), max(math.floor((y0 - grow - top) * px_per_mm), 0)
        c1, r1 = min(math.ceil((x1 + grow - left) * px_per_mm), w), min(math.ceil((y1 + grow - top) * px_per_mm), h)
        left_out[r0:r1, c0:c1] = True  # a box beyond the crop: an empty slice
    return left_out


def _near_boxes(sheet: Sheet) -> dict[str, list]:
    """Each cell's id: the bounds of the other cells within ROUND_MM of its box (_round_of); the
    same for every photo of the sheet, kept with its print (separate)."""
    ids = list(sheet.cells)
    bounds = np.array([sheet.cells[cid].bounds for cid in ids])
    reach = ROUND_MM + BORDER_MM
    near = ((bounds[:, None, 0] - reach < bounds[None, :, 2]) & (bounds[:, None, 2] + reach > bounds[None, :, 0])
            & (bounds[:, None, 1] - reach < bounds[None, :, 3]) & (bounds[:, None, 3] + reach > bounds[None, :, 1]))
    np.fill_diagonal(near, False)
    return {cid: [tuple(bounds[j]) for j in np.flatnonzero(near[i])] for i, cid in enumerate(ids)}


def _blur_not_covered(seen: list, hidden_of) -> list:
    """`seen` (cell, shift, light, ...), no longer "covered" where many boxes seem covered but
    this one's outline is hidden little more than the page's typical box's (see
    light.COVERED_FEW): a finger covers a few boxes, a blurred photo hides every outline."""
    covered = [light == "covered" for _, _, light, *_ in seen]
    if sum(covered) <= COVERED_FEW * len(seen):
        return seen
    # the typical box: a clear one (a finger may cover most of a small tower), any where few are
    clear = [s[:2] for s, c in zip(seen, covered) if not c]
    if len(clear) < COVERED_CLEAR * len(seen):
        clear = [s[:2] for s in seen]
    typical = float(np.median([hidden_of(cell, shift) for cell, shift in clear]))
    return [(cell, shift, "" if light == "covered" and hidden_of(cell, shift) <= typical + COVERED_ABOVE else light,
             *rest) for cell, shift, light, *rest in seen]


def _pen(ink: np.ndarray) -> float:
    """How dark a cell's strokes are: the darkness 10 % of its ink pixels exceed."""
    values = ink[ink > 0]
    if not values.size:
        return 0.0
    k = int(0.9 * (values.size - 1))
    return float(np.partition(values, k)[k])


def _faint_among(written: list[Written]) -> list[Written]:
    """`written`, each cell whose ink is far fainter than the typical one's flagged (FAINT_AMONG)."""
    if not written:
        return written
    typical = float(np.percentile([w.pen for w in written], 75))
    return [replace(w, why=w.why or FAINT_AMONG_WHY) if w.pen < FAINT_AMONG * typical else w for w in written]


def _covered(cell: Cell, match: float, photo_px_per_mm: float, hidden) -> bool:
    """Whether something lies over a box (light.COVERED), from how well its print matched
    (printed._register) and `hidden()`, the share of its outline that cannot be seen (worked
    out only where the rest asks): a box whose print was not found, past COVERED; a number
    box found only weakly (a fingertip over part of it: light.WEAK_MATCH), past COVERED_FOUND,
    in a photo seeing the page at FINGER_SHARP px/mm or more."""
    if match < REGISTER_MATCH:
        return hidden() > COVERED
    return cell.kind != "tick" and match < WEAK_MATCH and photo_px_per_mm >= FINGER_SHARP and hidden() > COVERED_FOUND


def _after_circle(light: str, ringed: bool, why: str, grainy: bool) -> str:
    """A written cell's light verdict once its guard circle is looked for: a circle round the
    box (`ringed`: ink round its edge; or arcs across its corners) hides the box's outline as a
    finger over it would, so it is not "covered", but still "grainy" if the grain says so (the
    covered verdict came first); a ring's "grainy" stays (a ring of noise round a number looks
    the same as a pen's)."""
    if light == "covered" and (ringed or why == BIG_CIRCLE_WHY):
        return "grainy" if grainy else ""
    return light


def read_cells(page: np.ndarray, sheet: Sheet, px_per_mm: float, allows_guarded: bool,
               photo_px_per_mm: float, guard_counter: str = "") -> dict[str, CellRead]:
    """Read every cell of `sheet` from the rectified grey `page`; its `guard_counter`'s boxes
    (Game.guard_counter) checked against the circles found (guards.missed_circles)."""
    reads, written = separate(page, sheet, px_per_mm, allows_guarded, photo_px_per_mm)
    mine = _read_all(written)
    # cells read a second way too (Written.again), as plain numbers, all in one batch, each
    # judged against the read so far
    again = [(i, crops, apart, judge) for i, w in enumerate(written) for crops, apart, judge in w.again]
    others = _read_all([replace(written[i], crops=crops, apart=apart, circled=False) for i, crops, apart, _ in again])
    for (i, *_, judge), other in zip(again, others):
        mine[i] = judge(mine[i], other)
    for w, read in zip(written, mine):
        reads[w.cell.id] = _in_light(replace(read, offset_mm=w.offset_mm), w.light)
    if not guard_counter:
        return reads
    return missed_circles(reads, sheet, guard_counter, {w.cell.id: w.ring for w in written})


def _ring_or_stroke(guarded: CellRead, plain: CellRead) -> CellRead:
    """A ring that may be the number's own stroke (Written.again): the number read inside
    it, guarded, and the whole ink read as a plain number; the surer stands, flagged either way."""
    return guarded if guarded.confidence >= plain.confidence else plain


def _read_all(written: list[Written]) -> list[CellRead]:
    """What each written cell holds (read_written), all cells' crops read at once."""
    # each network is asked once, about every crop that needs it (one matrix product per layer)
    images = [digits.normalise(crop) for w in written for crop in w.crops]
    # what is left of a guard circle skews a digit's moments: circled digits are read as they lean
    circled = [w.circled for w in written for _ in w.crops]
    upright = {k for k in digits.leaning(images) if not circled[k]}
    probs = _rows(_classify(images, digits.probabilities_of_images, sorted(upright)), written)
    first = [w.decide(p) for w, p in zip(written, probs)]
    again = [i for i, read in enumerate(first) if read.confidence < SECOND_OPINION_BELOW]
    starts = np.cumsum([0] + [len(w.crops) for w in written])
    asked = [k for i in again for k in range(starts[i], starts[i + 1])]
    upright_asked = [j for j, k in enumerate(asked) if k in upright]
    second = dict(zip(again, _rows(_classify([images[k] for k in asked], digits.convnet_probabilities, upright_asked),
                                   [written[i] for i in again])))
    wholes = _wholes(written, [i for i, w in enumerate(written) if len(w.crops) > 1])
    mine = [read_written(w, probs[i], first[i], second.get(i), wholes.get(i), check_other=False)
            for i, w in enumerate(written)]
    doubted = [i for i, w in enumerate(written) if _doubted(w, first[i], mine[i])]
    others = _wholes(written, doubted)
    for i in doubted:
        mine[i] = _checked_other(mine[i], written[i], others.get(i))
    return mine


def _classify(images: list, of_images, upright=()) -> np.ndarray:
    """digits.probabilities for crops already normalised (None: no ink, a uniform row); the
    crops at the indices `upright` are also read straightened (digits.straightened), and the
    two reads averaged."""
    out = np.full((len(images), len(digits.CLASSES)), 1.0 / len(digits.CLASSES), np.float32)
    idx = [i for i, im in enumerate(images) if im is not None]
    if idx:  # one batch for the networks: each call costs more than its images
        both = of_images(np.stack([images[i] for i in idx] + [digits.straightened(images[i]) for i in upright]))
        out[idx] = both[:len(idx)]
        out[upright] = (out[upright] + both[len(idx):]) / 2
    return out


def _doubted(w: Written, first: CellRead, read: CellRead) -> bool:
    """Whether the pair reader checks this cell's `read`: a number in one piece read sure only
    with the second opinion (`first`: the read before it)."""
    return (len(w.crops) == 1 and first.confidence < SECOND_OPINION_BELOW and not read.unsure
            and _number(read.value) is not None)


def _number(value) -> int | None:
    """The number a cell's value holds, guarded or not; None for a cross or nothing."""
    value = value.value if isinstance(value, Guarded) else value
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _wholes(written: list[Written], asked: list[int]) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """The pair reader's tens and units probabilities of the cells at the indices `asked` of
    `written` (those whose ink is not empty), all asked at once."""
    images = {i: pairs.normalise(written[i].crops[0]) for i in asked}
    asked = [i for i, image in images.items() if image is not None]
    if not asked:
        return {}
    tens, units = pairs.probabilities(np.stack([images[i] for i in asked]))
    return {i: (tens[k], units[k]) for k, i in enumerate(asked)}


def _rows(probs: np.ndarray, written: list[Written]) -> list[np.ndarray]:
    """The rows of `probs` (one per crop) cut into each written cell's share."""
    ends = np.cumsum([len(w.crops) for w in written])
    return np.split(probs, ends[:-1]) if len(written) else []


def read_written(w: Written, probs: np.ndarray, first: CellRead | None = None,
                 second: np.ndarray | None = None, whole: tuple[np.ndarray, np.ndarray] | None = None,
                 check_other: bool = True) -> CellRead:
    """What a written cell holds, from the feature network's probabilities of its crops;
    if that read is not sure enough, from those averaged with the convolutional network's
    (`first` and `second`: that read and those probabilities, when already at hand). A cell
    the reader may cut in two is checked against the pair reader's tens and units (`whole`;
    asked here when not given), and so is a number in one piece read sure only with the
    second opinion, unless not `check_other` (read_cells asks about those all at once)."""
    read = first = first or w.decide(probs)
    if read.confidence < SECOND_OPINION_BELOW:
        if second is None:
            second = digits.probabilities(w.crops, digits.convnet_probabilities)
        alone = read.value
        probs = (probs + second) / 2
        read = w.decide(probs)
        # a two-digit cell either network alone reads as another number is no sure read
        if len(probs) > 1 and not read.unsure and (read.value != alone or read.value != w.decide(second).value):
            read = replace(read, unsure=True, why=WHY_NETWORKS)
    if len(w.crops) > 1:
        read = _checked_whole(read, w, _asked(w, whole), probs)
    if read.unsure and w.share < FAINT_INK:  # a few stray marks no character explains
        read = CellRead(w.cell.id, None, read.confidence, True, WHY_FAINT)
    if w.why:
        read = replace(read, unsure=True, why=w.why)
    elif w.small and not read.unsure and read.confidence < SMALL_SURE:
        read = replace(read, unsure=True, why=WHY_GUESS.format(f"{read.confidence:.0%}"))
    if check_other and _doubted(w, first, read):
        read = _checked_other(read, w, _asked(w, whole))
    return read


def _asked(w: Written, whole: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray] | None:
    """`whole`, or the pair reader asked about `w` alone when it was not (None: no ink to read)."""
    return whole if whole is not None else _wholes([w], [0]).get(0)


def _checked_whole(read: CellRead, w: Written, whole: tuple[np.ndarray, np.ndarray] | None,
                   probs: np.ndarray | None = None) -> CellRead:
    """`read` checked against the pair reader's tens and units (`whole`). Where both read two
    digits (or the pair reader two, surer than a one-digit read) and the digit networks'
    probabilities of the crops (`probs`) are given, the number both read likeliest together
    (_both). Else where it reads another number, the surer of the two numbers, flagged; where
    it reads the same number at least WHOLE_SURE sure, a read flagged only for a reason in
    WHOLE_SETTLES is sure after all."""
    value = _number(read.value)
    if value is None or whole is None:
        return read
    values, odds = pairs.numbers(*whole, w.cell.low, w.cell.high)
    number, sure = _likeliest(values, odds)
    if probs is not None and number >= 10 and (value >= 10 or sure > read.confidence) and not w.why and not w.light:
        return _both(read, w, values, odds, probs)
    if number != value:
        why = WHY_CUT.format(value) if sure > read.confidence else WHY_WHOLE.format(number)
        if sure > read.confidence:
            read = replace(read, value=Guarded(number) if isinstance(read.value, Guarded) else number, confidence=sure)
        return flagged(read, why)
    if read.unsure and sure >= WHOLE_SURE and not w.why and read.why.startswith(WHOLE_SETTLES):
        return replace(read, unsure=False, why="")
    return read


def _both(read: CellRead, w: Written, values: np.ndarray, odds: np.ndarray, probs: np.ndarray) -> CellRead:
    """A cell both readers read as two digits: the two-digit number the box may hold that is
    likeliest on the average of the digit networks' odds (on their likeliest cut) and the pair
    reader's (`odds` of `values`), flagged below BOTH_SURE; the other reader's number named
    where they differ."""
    numbers, cut = _cut_odds(probs, w.cell)
    whole = odds[(values >= numbers[0]) & (values <= numbers[-1])]
    whole = whole / whole.sum()
    number, sure = _likeliest(numbers, (cut + whole) / 2)
    value = Guarded(number) if isinstance(read.value, Guarded) else number
    if sure >= BOTH_SURE:
        return replace(read, value=value, confidence=sure, unsure=False, why="")
    by_cut, by_whole = _likeliest(numbers, cut)[0], _likeliest(numbers, whole)[0]
    other = WHY_WHOLE.format(by_whole) if by_whole != number else WHY_CUT.format(by_cut) if by_cut != number else ""
    return replace(read, value=value, confidence=sure, unsure=True,
                   why="; ".join(filter(None, (WHY_GUESS.format(f"{sure:.0%}"), other))))


def _checked_other(read: CellRead, w: Written, whole: tuple[np.ndarray, np.ndarray] | None) -> CellRead:
    """A number in one piece (`read`) checked against the pair reader's tens and units
    (`whole`): another number at least OTHER_SURE likely flags it, its number kept."""
    value = _number(read.value)
    if value is None or whole is None:
        return read
    number, sure = _likeliest(*pairs.numbers(*whole, w.cell.low, w.cell.high))
    return read if number == value or sure < OTHER_SURE else flagged(read, WHY_OTHER.format(number))


def _likeliest(values: np.ndarray, odds: np.ndarray) -> tuple[int, float]:
    """The value of the highest odds (the first of a tie) and those odds."""
    best = int(np.argmax(odds))
    return int(values[best]), float(odds[best])

