"""Reading every cell of a rectified page: blank, X, a digit, two digits, a circled digit,
a ticked box. Each read carries a confidence; below the classifier's calibrated threshold
it is "unsure" and must be checked by a person.

The page is a grey image at `px_per_mm` pixels per millimetre, the same geometry as the
Sheet it was printed from, so each cell's box is known exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from rnwprint.audit.entries import CROSSED, Guarded, Mark
from rnwprint.fonts import PT, text_span
from rnwprint.photo import digits
from rnwprint.sheet import Cell, Circle, Path, Rect, Sheet, Text

BORDER_MM = 0.7  # the printed box outline, left out of every cell
REGISTER_PAD_MM, REGISTER_SEARCH_MM = 1.0, 1.5  # print matched around a box; how far off it may be
REGISTER_MATCH = 0.3  # a weaker match than this (a box with little print around it) is not moved
INK_RELATIVE = 0.25  # and at least this share of the cell's darkest ink (faint, blurred strokes too)
INK_DARKNESS = 0.14  # how much darker than the paper around it a pixel must be to be ink
#: in a photo seeing the page at fewer px/mm than this, a written cell's strokes are ink from
#: this darkness on (a blank cell is still told by INK_DARKNESS)
COARSE_BELOW, COARSE_INK_DARKNESS = 3.0, 0.10
PEN_OVER_PRINT = 0.15  # pen this much darker than a printed mark is kept where it crosses it
STROKE_MM = 3.5  # wider than any pen stroke (a felt pen blot too), narrower than a shadow
MAYBE_TWO = 0.85  # ink narrower than this (width / height) is one digit
#: two blobs side by side are two digits when each is this share of the ink's height and
#: they overlap by at most this share of the narrower one's width
TWO_PIECES_HEIGHT, TWO_PIECES_OVERLAP = 0.5, 0.3
AMBIGUOUS = 0.85  # confidence kept when the ink's shape alone cannot tell one digit from two
BLANK_INK = 0.006  # below this share of a cell's area in ink, the cell (or tick box) is blank
UNSURE_BLANK = (0.003, 0.012)  # ink shares too close to call blank or written (or ticked)
DECIMALS = [str(d) for d in range(10)]
FAINT_INK = 0.02  # this little ink, read unsure, is more likely stray marks than a number
TICK_EDGE = 1.5  # photo pixels along a tick box's edges left out (see _share_inside)
SPECK = 0.04  # in a two-digit cell, a blob with less than this share of the ink is a speck
#: touching digits are also tried cut at up to MAX_CUTS columns emptier than their neighbours,
#: this share of the ink's width in from either end and this share of it apart
MAX_CUTS, CUT_RANGE, CUT_APART = 3, 0.2, 0.1
ALT_WEIGHT = 0.75  # a cut other than the first must be this much likelier to win
#: a cell read less surely than this is read by the convolutional network too, and the two
#: networks' probabilities averaged (it takes 0.4 ms a crop: about 80 ms more for a Roll to
#: the Top photo if asked about every cell, for the same reads)
SECOND_OPINION_BELOW = 0.9
#: a guard circle is ink this far out (squared, as a share of the half box) in most of 24
#: directions; a large digit reaching the box edge is not
CIRCLE_RIM, CIRCLE_SECTORS = 0.8, 14
#: a guard circle smaller than the box: ink within RING_BAND (of the half box) of one of
#: RING_RADII in at least 2 px of each of RING_SECTORS of 24 directions; read guarded, flagged
RING_RADII, RING_BAND, RING_SECTORS = (0.9, 0.8, 0.7, 0.6), 0.1, 22
SMALL_CIRCLE_WHY = "a circle inside the box: is the number guarded?"
#: Light. Darkness against the paper around a cell (its local white) does not change with
#: exposure until the paper is clipped to white; then the pen fades, and so does the print.
#: The print around each cell says by how much: in normal light its darkest tenth is about
#: PRINT_SEEN times as dark as drawn and blurred by PRINT_BLUR_MM (thin lines look fainter
#: than thick ones), so with the paper clipped, a print that looks fainter means the light
#: was A = (1 - seen) / (1 - expected) times too strong there. Up to A =
#: MAX_OVER a pen of PEN_DARK darkness keeps enough to read, and darkness is scaled back to
#: it (a sharp photo's print can look a third darker than expected, so A may be that much
#: more than measured: MAX_OVER leaves room for it); but from FADED_OVER on a lighter pen
#: may be gone, so a cell read blank is flagged, and a written one read less than FADED_SURE
#: sure (a faded 6 that lost its loop read 78 % sure as a 1).
#: Beyond MAX_OVER, and where the paper is darker than DARK_PAPER grey levels (the pen is
#: then a few levels of noise), every cell is read (darkness scaled at most MAX_GAIN times)
#: but flagged, and the reason said.
PRINT_SEEN, PRINT_BLUR_MM, PEN_DARK, FADED_OVER, MAX_OVER, MAX_GAIN = 1.0, 0.125, 0.55, 1.05, 1.3, 4.0
FADED_SURE = 0.9
LIGHT_MARGIN_MM = 2.0  # the print and paper judged around a cell reach this far out of its box
BRIGHT_PAPER, DARK_PAPER = 250, 40  # paper grey levels (of 255): clipped white; too dark to read


@dataclass(frozen=True)
class CellRead:
    id: str
    value: Mark | bool | None  # None: blank; bool: a tick box
    confidence: float
    unsure: bool
    why: str = ""  # what made it unsure
    offset_mm: tuple[float, float] = (0.0, 0.0)  # (x, y): the box was found this far from its place
    light: str = ""  # "dark" or "bright": the photo's light left too little to read for sure here


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


def separate(page: np.ndarray, sheet: Sheet, px_per_mm: float, allows_guarded: bool,
             photo_px_per_mm: float) -> tuple[dict[str, CellRead], list[Written]]:
    """Blank cells and tick boxes read at once; the written cells, separated from the print
    and split into what the classifier reads (tools/train_digits.py trains on these too).
    `photo_px_per_mm` is how finely the photo itself saw the page (the page may be finer)."""
    coarse = photo_px_per_mm < COARSE_BELOW
    floor = COARSE_INK_DARKNESS if coarse else INK_DARKNESS
    reads: dict[str, CellRead] = {}
    written = []
    raw, printed = _printed(sheet, px_per_mm)
    grey = _PRINTED[(sheet.identity.encode(), px_per_mm)][2]
    for cell in sheet.cells.values():
        shift = _shift(page, raw, cell, px_per_mm)
        offset = (shift[1] / px_per_mm, shift[0] / px_per_mm)
        light, gain = _exposure(page, raw, grey, cell, px_per_mm, shift)
        dark = _darkness(page, raw, printed, cell, px_per_mm, shift) * gain
        ink = _ink(dark)
        share = float((ink > 0).mean()) if ink.size else 0.0
        if cell.kind == "tick":
            read = _tick(cell, _share_inside(ink, px_per_mm / photo_px_per_mm))
        elif share < BLANK_INK:
            unsure = share > UNSURE_BLANK[0]
            read = CellRead(cell.id, None, 1.0 - share / BLANK_INK if unsure else 1.0, unsure,
                            "faint marks" if unsure else "")
        else:
            circled = False
            if coarse:  # blurred strokes fade in places: a lower floor keeps them whole
                ink = _ink(dark, floor)
            why = ""
            if allows_guarded:
                ink, circled = _remove_circle(ink, dark, floor)
                if not circled and (inside := _small_circle(ink, dark, floor)) is not None:
                    ink, circled, why = inside, True, SMALL_CIRCLE_WHY
            written.append(Written(cell, *_split_digits(ink, cell), circled, share, offset, light, why))
            continue
        reads[cell.id] = _in_light(replace(read, offset_mm=offset), light)
    return reads, written


def read_cells(page: np.ndarray, sheet: Sheet, px_per_mm: float, allows_guarded: bool,
               photo_px_per_mm: float) -> dict[str, CellRead]:
    """Read every cell of `sheet` from the rectified grey `page`."""
    reads, written = separate(page, sheet, px_per_mm, allows_guarded, photo_px_per_mm)
    # each network is asked once, about every crop that needs it (one matrix product per layer)
    images = [digits.normalise(crop) for w in written for crop in w.crops]
    probs = _rows(_classify(images, digits.probabilities_of_images), written)
    first = [_decide(w.cell, p, w.circled, w.apart) for w, p in zip(written, probs)]
    again = [i for i, read in enumerate(first) if read.confidence < SECOND_OPINION_BELOW]
    starts = np.cumsum([0] + [len(w.crops) for w in written])
    images = [images[k] for i in again for k in range(starts[i], starts[i + 1])]
    second = dict(zip(again, _rows(_classify(images, digits.convnet_probabilities), [written[i] for i in again])))
    for i, w in enumerate(written):
        read = read_written(w, probs[i], first[i], second.get(i))
        reads[w.cell.id] = _in_light(replace(read, offset_mm=w.offset_mm), w.light)
    return reads


def _classify(images: list, of_images) -> np.ndarray:
    """digits.probabilities for crops already normalised (None: no ink, a uniform row)."""
    out = np.full((len(images), len(digits.CLASSES)), 1.0 / len(digits.CLASSES), np.float32)
    idx = [i for i, im in enumerate(images) if im is not None]
    if idx:
        out[idx] = of_images(np.stack([images[i] for i in idx]))
    return out


def _rows(probs: np.ndarray, written: list[Written]) -> list[np.ndarray]:
    """The rows of `probs` (one per crop) cut into each written cell's share."""
    ends = np.cumsum([len(w.crops) for w in written])
    return np.split(probs, ends[:-1]) if len(written) else []


def read_written(w: Written, probs: np.ndarray, first: CellRead | None = None,
                 second: np.ndarray | None = None) -> CellRead:
    """What a written cell holds, from the feature network's probabilities of its crops;
    if that read is not sure enough, from those averaged with the convolutional network's
    (`first` and `second`: that read and those probabilities, when already at hand)."""
    read = first or _decide(w.cell, probs, w.circled, w.apart)
    if read.confidence < SECOND_OPINION_BELOW:
        if second is None:
            second = digits.probabilities(w.crops, digits.convnet_probabilities)
        read = _decide(w.cell, (probs + second) / 2, w.circled, w.apart)
    if read.unsure and w.share < FAINT_INK:  # a few stray marks no character explains
        read = CellRead(w.cell.id, None, read.confidence, True, "faint marks")
    if w.why:
        read = replace(read, unsure=True, why=w.why)
    return read


LIGHT_WHY = {"dark": "the photo is too dark here to tell the pen from the paper",
             "bright": "the photo is too bright here: the pen is washed out",
             "faded": "the photo is too bright here: a light pen may be washed out"}


def _in_light(read: CellRead, light: str) -> CellRead:
    """The read, flagged with the reason where the light left too little to read (where it
    only faded the pen, a cell read as written at least FADED_SURE sure stands)."""
    if not light or (light == "faded" and read.value not in (None, False) and read.confidence >= FADED_SURE):
        return read
    return replace(read, unsure=True, why=LIGHT_WHY[light], light="bright" if light == "faded" else light)


def _exposure(page: np.ndarray, raw: np.ndarray, grey: np.ndarray, cell: Cell, px_per_mm: float,
              shift: tuple[int, int]) -> tuple[str, float]:
    """How the photo's light left one cell: "dark", "bright", "faded" (a pen is read, a blank
    is not sure) or "" (readable), and the gain that brings its darkness back to normal light
    (1 but in clipped paper). The paper is the
    90th percentile of the box and a margin of LIGHT_MARGIN_MM; the print, the 10th
    percentile of the printed pixels there (grey: the sheet as drawn, 255 = white)."""
    x0, y0, x1, y1 = cell.bounds
    m, (dy, dx) = LIGHT_MARGIN_MM, shift
    c0, r0 = max(int(round((x0 - m) * px_per_mm)), 0, -dx), max(int(round((y0 - m) * px_per_mm)), 0, -dy)
    c1 = min(int(round((x1 + m) * px_per_mm)), raw.shape[1], page.shape[1] - dx)
    r1 = min(int(round((y1 + m) * px_per_mm)), raw.shape[0], page.shape[0] - dy)
    window = page[r0 + dy:r1 + dy, c0 + dx:c1 + dx]
    if window.size == 0:
        return "", 1.0
    paper = _nearest_rank(window.ravel(), 0.9)
    if paper < DARK_PAPER:
        return "dark", 1.0
    where = raw[r0:r1, c0:c1] > 0
    if paper < BRIGHT_PAPER or not where.any():  # unclipped (or nothing to judge it by)
        return "", 1.0
    seen = 1 - _nearest_rank(window[where], 0.1) / paper
    expected = PRINT_SEEN * (1 - _nearest_rank(grey[r0:r1, c0:c1][where], 0.1) / 255)
    over = (1 - seen) / max(1 - expected, 1e-3)
    if over <= FADED_OVER:
        return "", 1.0
    gain = PEN_DARK / max(1 - over * (1 - PEN_DARK), PEN_DARK / MAX_GAIN)
    return "bright" if over > MAX_OVER else "faded", gain


def _nearest_rank(values: np.ndarray, q: float) -> float:
    k = int(q * (values.size - 1))
    return float(np.partition(values, k)[k])


_PRINTED: dict[tuple[str, float], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _printed(sheet: Sheet, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Where the sheet itself is printed in and around its cells (box outlines, ids, dots,
    numbers), 1 = print: as drawn (to register the boxes) and widened (to take away); the
    drawing itself, blurred, for _exposure. The same identity is the same Sheet, so this is
    drawn once per identity."""
    key = (sheet.identity.encode(), px_per_mm)
    if key not in _PRINTED:
        from rnwprint.photo.cache import cached

        # kept on disk: the next process need not load the fonts and draw it again
        drawn = cached("print", f"{key[0]}@{px_per_mm:g}", lambda: _draw_print(sheet, px_per_mm), _pack, _unpack)
        printed = (drawn < 215).astype(np.uint8)
        # the photo is never registered to the print to the pixel: widen what is printed by a
        # pixel each way (any wider and it takes pen strokes with it)
        _PRINTED.clear() if len(_PRINTED) > 8 else None
        blurred = cv2.GaussianBlur(drawn, (0, 0), PRINT_BLUR_MM * px_per_mm)
        _PRINTED[key] = printed, cv2.dilate(printed, np.ones((3, 3), np.uint8)), blurred
    return _PRINTED[key][:2]


def _draw_print(sheet: Sheet, px_per_mm: float) -> np.ndarray:
    """The sheet's items that touch a cell, drawn grey (255 = paper) at px_per_mm."""
    from PIL import Image, ImageDraw

    from rnwprint.render.png import draw_item

    size = (int(np.ceil(sheet.width * px_per_mm)), int(np.ceil(sheet.height * px_per_mm)))
    image = Image.new("L", size, 255)
    draw = ImageDraw.Draw(image)
    boxes = [c.bounds for c in sheet.cells.values()]
    for item in sheet.items:
        x0, y0, x1, y1 = _item_bounds(item)
        if any(x0 < bx1 and x1 > bx0 and y0 < by1 and y1 > by0 for bx0, by0, bx1, by1 in boxes):
            draw_item(draw, item, px_per_mm)
    return np.asarray(image)


def _pack(drawn: np.ndarray) -> bytes:
    import zlib

    return drawn.shape[0].to_bytes(4, "big") + drawn.shape[1].to_bytes(4, "big") + zlib.compress(drawn.tobytes(), 1)


def _unpack(data: bytes) -> np.ndarray:
    import zlib

    h, w = int.from_bytes(data[:4], "big"), int.from_bytes(data[4:8], "big")
    return np.frombuffer(zlib.decompress(data[8:]), np.uint8).reshape(h, w)


def _item_bounds(item) -> tuple[float, float, float, float]:
    if isinstance(item, Text):
        (x0, x1), h = text_span(item), item.size * PT
        return x0, item.y - h, x1, item.y + h * 0.3
    if isinstance(item, Rect):
        return item.x, item.y, item.x + item.w, item.y + item.h
    if isinstance(item, Circle):
        return item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r
    if isinstance(item, Path):
        xs = [x for ring in item.rings for x, _ in ring]
        ys = [y for ring in item.rings for _, y in ring]
        return min(xs), min(ys), max(xs), max(ys)
    return (0.0, 0.0, 0.0, 0.0)  # QR codes and markers lie outside every cell


def _shift(page: np.ndarray, raw: np.ndarray, cell: Cell, px_per_mm: float) -> tuple[int, int]:
    """Where the cell's printed box really lies in the page, in pixels (rows, columns) from
    where the homography put it. Paper curl moves the middle of a page off a plane by up to
    half a millimetre; then the box edge reads as a stroke. The box outline and the print
    around it are matched to the photo; the inside of the box, where the pen is, is left out."""
    r = px_per_mm
    x0, y0, x1, y1 = cell.bounds
    c0, r0 = int(round((x0 - REGISTER_PAD_MM) * r)), int(round((y0 - REGISTER_PAD_MM) * r))
    c1, r1 = int(round((x1 + REGISTER_PAD_MM) * r)), int(round((y1 + REGISTER_PAD_MM) * r))
    s = int(round(REGISTER_SEARCH_MM * r))
    if r0 < s or c0 < s or r1 + s > page.shape[0] or c1 + s > page.shape[1]:
        return 0, 0
    template = (255 * (1 - raw[r0:r1, c0:c1])).astype(np.float32)
    inner = int(round((REGISTER_PAD_MM + 1.0) * r))
    window = page[r0 - s:r1 + s, c0 - s:c1 + s].astype(np.float32)
    match = _ring_match(window, template, inner)
    _, peak, _, (dx, dy) = cv2.minMaxLoc(match)
    return (dy - s, dx - s) if peak >= REGISTER_MATCH else (0, 0)


def _ring_match(window: np.ndarray, template: np.ndarray, inner: int) -> np.ndarray:
    """OpenCV's TM_CCOEFF_NORMED of `template` over `window` with a mask that leaves out the
    template's inside (all but a ring `inner` px wide), -1 where the window is flat; the same
    sums as cv2.matchTemplate(..., mask=...) but the mask's own sums come from integral
    images, so only one correlation is left to compute (several times faster)."""
    th, tw = template.shape
    ring = np.ones_like(template)
    ring[inner:th - inner, inner:tw - inner] = 0
    n = float(ring.sum())
    centred = (template - float((template * ring).sum()) / n) * ring
    norm = float(np.sqrt((centred * centred).sum()))
    numerator = cv2.matchTemplate(window, centred, cv2.TM_CCORR)
    h, w = numerator.shape

    def ring_sums(integral: np.ndarray) -> np.ndarray:
        def box(top, left, bottom, right):  # sums over [top, bottom) x [left, right) at each offset
            return (integral[bottom:bottom + h, right:right + w] - integral[top:top + h, right:right + w]
                    - integral[bottom:bottom + h, left:left + w] + integral[top:top + h, left:left + w])
        return box(0, 0, th, tw) - box(inner, inner, th - inner, tw - inner)

    total, squares = cv2.integral2(window, sdepth=cv2.CV_64F)
    s1, s2 = ring_sums(total), ring_sums(squares)
    variance = s2 - s1 * s1 / n
    flat = variance <= 1e-6 * np.maximum(s2, 1.0)
    out = numerator / (norm * np.sqrt(np.where(flat, 1.0, variance)) + 1e-12)
    return np.where(flat | (norm == 0), -1.0, out).astype(np.float32)


def _darkness(page: np.ndarray, raw: np.ndarray, printed: np.ndarray, cell: Cell, px_per_mm: float,
              shift: tuple[int, int]) -> np.ndarray:
    """How much darker than the paper around it each pixel inside the cell is, 0 to 1, with
    the sheet's own print left out.

    Pen strokes are thin and dark; shadows and light gradients are broad. A closing with a
    brush wider than a stroke paints the strokes over with the paper around them and keeps
    the edges of shadows, so (closed - photo) / closed is the ink alone, in any light."""
    x0, y0, x1, y1 = cell.bounds
    c0, r0 = int(round((x0 + BORDER_MM) * px_per_mm)), int(round((y0 + BORDER_MM) * px_per_mm))
    c1, r1 = int(round((x1 - BORDER_MM) * px_per_mm)), int(round((y1 - BORDER_MM) * px_per_mm))
    c0, r0 = max(c0, 0), max(r0, 0)
    c1, r1 = max(c1, c0), max(r1, r0)
    margin = int(2 * px_per_mm)
    dy, dx = shift
    b0, a0 = max(r0 + dy - margin, 0), max(c0 + dx - margin, 0)
    around = page[b0:r1 + dy + margin, a0:c1 + dx + margin]
    if around.size == 0 or r1 <= r0 or c1 <= c0:
        return np.zeros((max(r1 - r0, 0), max(c1 - c0, 0)), np.float32)
    brush = np.ones((int(STROKE_MM * px_per_mm) | 1,) * 2, np.uint8)
    closed = cv2.morphologyEx(around, cv2.MORPH_CLOSE, brush).astype(np.float32)
    dark = (closed - around) / np.maximum(closed, 1.0)
    dark = dark[r0 + dy - b0:r1 + dy - b0, c0 + dx - a0:c1 + dx - a0]
    _take_print_away(dark, raw[r0:r1, c0:c1], printed[r0:r1, c0:c1])
    return dark


def _take_print_away(dark: np.ndarray, raw: np.ndarray, printed: np.ndarray) -> None:
    """Zero the sheet's own print in `dark`, but keep pen strokes that cross it: where a
    printed mark (a cell id, a dot) is lighter than the pen, ink over it is darker than the
    rest of the mark (halfway between the mark's mean darkness and the pen's is the line)."""
    where = printed > 0
    if not where.any():
        return
    pen = _darkest(dark[~where])
    if pen > PEN_OVER_PRINT:  # (a blank cell has no pen to keep)
        count, labels = cv2.connectedComponents(printed, connectivity=8)
        core = raw > 0  # each mark's own pixels, not its widened edge
        level = (np.bincount(labels[core], weights=dark[core], minlength=count)
                 / np.maximum(np.bincount(labels[core], minlength=count), 1))
        line = np.where(pen - level > PEN_OVER_PRINT, (level + pen) / 2, np.inf)
        where &= dark <= line[labels]
    dark[where] = 0


def _darkest(dark: np.ndarray) -> float:
    """How dark the pen is: the darkness only 0.5 % of the pixels exceed (the darkest few are
    often a stray speck). Nearest rank: np.percentile's overhead costs more than the cell."""
    if dark.size == 0:
        return 0.0
    k = int(0.995 * (dark.size - 1))
    return float(np.partition(dark.ravel(), k)[k])


def _ink(dark: np.ndarray, floor: float = INK_DARKNESS) -> np.ndarray:
    """The pen ink: pixels dark enough, for this cell's pen and light; 0 elsewhere."""
    if dark.size == 0:
        return dark
    core = _darkest(dark)
    ink = np.where(dark > max(floor, INK_RELATIVE * core), dark, 0.0).astype(np.float32)
    mask = (ink > 0).astype(np.uint8)
    # JPEG noise and paper texture leave isolated specks; pen strokes are wider.
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    return ink * opened


def _share_inside(ink: np.ndarray, page_px_per_photo_px: float) -> float:
    """The share of the box in ink, leaving out TICK_EDGE photo pixels along its edges: a
    coarse photo blurs the printed outline past the border left out of every cell."""
    m = int(round(TICK_EDGE * page_px_per_photo_px))
    inner = ink[m:ink.shape[0] - m, m:ink.shape[1] - m] if m else ink
    return float((inner > 0).mean()) if inner.size else 0.0


def _tick(cell: Cell, share: float) -> CellRead:
    ticked = share > BLANK_INK
    lo, hi = UNSURE_BLANK
    unsure = lo < share < hi
    edge = hi if ticked else lo
    confidence = 0.5 + min(abs(share - BLANK_INK) / abs(edge - BLANK_INK), 1.0) / 2
    return CellRead(cell.id, ticked, confidence, unsure, "faint tick" if unsure else "")


def _remove_circle(ink: np.ndarray, dark: np.ndarray, floor: float) -> tuple[np.ndarray, bool]:
    """A guard circle rings the cell (the box edge may cut it into arcs, the number may
    touch it): ink near the edge going most of the way round is the circle. The number
    inside is then told from the paper by its own darkness, not the (darker) circle's."""
    h, w = ink.shape
    ys, xs = np.mgrid[0:h, 0:w]
    dx, dy = (xs - (w - 1) / 2) / (w / 2), (ys - (h - 1) / 2) / (h / 2)
    r2 = dx * dx + dy * dy
    rim = (r2 > CIRCLE_RIM) & (ink > 0)
    sectors = ((np.arctan2(dy[rim], dx[rim]) + np.pi) / (2 * np.pi) * 24).astype(int) % 24
    if (np.bincount(sectors, minlength=24) >= 3).sum() < CIRCLE_SECTORS:
        return ink, False
    inside = _ink(np.where(r2 > 0.42, 0.0, dark).astype(np.float32), floor)
    mask = (inside > 0).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count < 2 or mask.sum() < 0.01 * ink.size:
        return ink, False  # a ring with nothing in it: an O or a zero, not a guard
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = np.concatenate([[False], areas >= 0.15 * areas.max()])  # leftovers of the ring go
    return np.where(keep[labels], inside, 0.0).astype(np.float32), True


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
        inside = _ink(np.where(r < radius - 2 * RING_BAND, dark, 0.0).astype(np.float32), floor)
        mask = (inside > 0).astype(np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if count < 2 or mask.sum() < 0.01 * ink.size:
            return None  # a loop with nothing in it: a 0 or an O, not a guard
        areas = stats[1:, cv2.CC_STAT_AREA]
        keep = np.concatenate([[False], areas >= 0.15 * areas.max()])
        return np.where(keep[labels], inside, 0.0).astype(np.float32)
    return None


@lru_cache(maxsize=32)
def _polar(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's distance from the middle of an h x w crop (as a share of the half box)
    and which of 24 directions it lies in."""
    ys, xs = np.mgrid[0:h, 0:w]
    dx, dy = (xs - (w - 1) / 2) / (w / 2), (ys - (h - 1) / 2) / (h / 2)
    return np.sqrt(dx * dx + dy * dy), ((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * 24).astype(int) % 24


def _aspect(ink: np.ndarray) -> float:
    """Width over height of the ink."""
    cols, rows = np.flatnonzero(ink.any(axis=0)), np.flatnonzero(ink.any(axis=1))
    return (cols[-1] - cols[0] + 1) / (rows[-1] - rows[0] + 1) if len(cols) else 0.0


def _split_digits(ink: np.ndarray, cell: Cell) -> tuple[list[np.ndarray], bool]:
    """The crops to classify, and whether they are surely two digits.

    One crop for a one-digit cell or ink no wider than a digit; else the whole (an X, or one
    wide digit?) followed by a (tens, units) pair for each way to cut it in two, likeliest
    first. Ink in two tall pieces side by side is surely two digits, split piece by piece
    (they may overlap a little); ink that touches is cut where few ink columns are."""
    if cell.high < 10:
        return [ink], False
    count, labels, stats, centroids = cv2.connectedComponentsWithStats((ink > 0).astype(np.uint8), connectivity=8)
    areas = stats[:, cv2.CC_STAT_AREA]
    speck = SPECK * areas[1:].sum()  # specks (dust, a bit of print) would throw the ink's extent off
    blobs = [i for i in range(1, count) if areas[i] >= speck]
    ink = np.where(np.isin(labels, blobs), ink, 0.0).astype(np.float32)
    pieces = _two_pieces(ink, labels, stats, centroids, blobs)
    apart = bool(pieces)
    if not apart:
        if _aspect(ink) < MAYBE_TWO:
            return [ink], False
        pieces = [(ink[:, :cut], ink[:, cut:]) for cut in _cuts(ink)]
    return [ink, *[half for pair in pieces for half in pair]], apart


def _cuts(ink: np.ndarray) -> list[int]:
    """Columns to cut touching digits at: the emptiest column in the middle of the ink, then
    the other columns emptier than their neighbours a little further out."""
    columns = ink.sum(axis=0)
    xs = np.flatnonzero(columns)
    width = xs[-1] - xs[0] + 1
    lo, hi = xs[0] + int(0.3 * width), xs[0] + int(0.7 * width)
    cuts = [lo + int(np.argmin(columns[lo:hi + 1]))]
    smooth = np.convolve(columns, np.ones(3) / 3, mode="same")
    lo = max(xs[0] + int(CUT_RANGE * width), 1)
    hi = min(xs[0] + int((1 - CUT_RANGE) * width), len(columns) - 2)
    minima = [x for x in range(lo, hi + 1) if smooth[x] <= smooth[x - 1] and smooth[x] < smooth[x + 1]]
    for x in sorted(minima, key=lambda x: smooth[x]):
        if len(cuts) < MAX_CUTS and all(abs(x - c) > CUT_APART * width for c in cuts):
            cuts.append(x)
    return cuts


def _two_pieces(ink: np.ndarray, labels: np.ndarray, stats: np.ndarray, centroids: np.ndarray,
                blobs: list[int]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The ink as two digits side by side, each way its blobs (connected components, as
    OpenCV labels them) fall into a left and a right group that are each at least half as
    tall as all the ink and barely overlap, least overlap first (a 5 whose bar stands apart
    is one digit: the bar is flat)."""
    if len(blobs) < 2:
        return []
    blobs = sorted(blobs, key=lambda i: centroids[i][0])

    def extent(group):  # left, right, top, bottom
        s = stats[group]
        return s[:, 0].min(), (s[:, 0] + s[:, 2]).max(), s[:, 1].min(), (s[:, 1] + s[:, 3]).max()

    _, _, top, bottom = extent(blobs)
    height = bottom - top

    ways = []
    for k in range(1, len(blobs)):
        (l0, l1, lt, lb), (r0, r1, rt, rb) = extent(blobs[:k]), extent(blobs[k:])
        overlap = l1 - r0
        tall = min(lb - lt, rb - rt) >= TWO_PIECES_HEIGHT * height
        if tall and overlap <= TWO_PIECES_OVERLAP * min(l1 - l0, r1 - r0):
            ways.append((overlap, k))
    pairs = []
    for _, k in sorted(ways)[:MAX_CUTS]:
        left = np.isin(labels, blobs[:k])
        pairs.append((np.where(left, ink, 0.0).astype(np.float32), np.where(left, 0.0, ink).astype(np.float32)))
    return pairs


def _pair(p_tens: np.ndarray, p_units: np.ndarray, cell: Cell) -> tuple[int, float, float]:
    """The likeliest number from cell.low to cell.high written as these two digits, how
    sure the less sure of the two is, and the number's likelihood."""
    tens = digits.restrict(p_tens[None], DECIMALS)[0]
    units = digits.restrict(p_units[None], DECIMALS)[0]
    numbers = range(max(cell.low, 10), min(cell.high, 99) + 1)
    if not numbers:
        return 0, 0.0, 0.0
    allowed_tens = sorted({n // 10 for n in numbers})
    tens = tens / tens[allowed_tens].sum()
    best = max(numbers, key=lambda n: tens[n // 10] * units[n % 10])
    return best, float(min(tens[best // 10], units[best % 10])), float(tens[best // 10] * units[best % 10])


def _decide(cell: Cell, p: np.ndarray, circled: bool, apart: bool) -> CellRead:
    if len(p) == 1:
        allowed = [str(v) for v in range(cell.low, min(cell.high, 9) + 1)] + ["X"]
        q = digits.restrict(p, allowed)[0]
        best = int(q.argmax())
        label, confidence = allowed[best], float(q[best])
        value: Mark = CROSSED if label == "X" else int(label)
    else:  # the whole: an X or one wide digit? else tens and units, as the likeliest cut gives them
        single = [str(v) for v in range(max(cell.low, 1), 10)]
        whole = digits.restrict(p[:1], ["X"] + single)[0]
        best = int(whole.argmax())
        pairs = [_pair(p[i], p[i + 1], cell) for i in range(1, len(p), 2)]
        likelihoods = [likelihood * (1.0 if i == 0 else ALT_WEIGHT) for i, (_, _, likelihood) in enumerate(pairs)]
        pair, pair_confidence, _ = pairs[int(np.argmax(likelihoods))]
        crossed = best == 0 and whole[0] > 0.5
        if apart and pair_confidence > (whole[0] if crossed else 0.0):  # two pieces: a number
            value, confidence = pair, pair_confidence
        elif crossed:
            value, confidence = CROSSED, float(whole[0])
        else:  # one wide digit or two touching ones: the likelier, less sure
            single_confidence = float(whole[best]) if best else 0.0
            if single_confidence > pair_confidence:
                value, confidence = int(single[best - 1]), AMBIGUOUS * single_confidence
            else:
                value, confidence = pair, AMBIGUOUS * pair_confidence
    if circled and value != CROSSED:
        value = Guarded(value)
    unsure = confidence < digits.UNSURE_BELOW
    return CellRead(cell.id, value, confidence, unsure, f"best guess {confidence:.0%} sure" if unsure else "")
