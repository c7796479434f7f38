"""Reading a photo of the shared island map: each place's owner by pencil colour, a dot
(village) or a fill (city, road, town hall).

The page is found as for every sheet (markers, QR code, homography); here the map's part of
it is warped top-down in colour. Light and its tint are taken out by dividing by the paper's
own white, found around each place (the places are white circles and bars, never more than
a few mm apart), and by the print itself (outlines, ids, the terrains' colours) drawn from
the Sheet and blurred as much as the photo's own px/mm blurs it. A pencil absorbs a share of
each colour (1 - B, 1 - G, 1 - R) in proportion to how much of the paper it covers, so a
place's mean absorption, less its grey, points at its pencil and its length says how much
pencil lies there, however blurred. Each pixel's own colour votes too: a second colour with a
fair share of the votes, or a mean colour between pencils, is two pieces on one place.

A corner is also read by its darkness, which a JPEG keeps at full resolution where it halves
the colour's: at 2-3 px/mm a faint dot's colour is no stronger than a blank corner's residue,
while its darkness is a bump that stands out. A bump, not a slope or a band: what is measured
is how the darkness curves across its flatter way (the larger eigenvalue of its Hessian), so
the edge of a cast shadow is not taken for a dot. A corner's rim (where a dot never reaches)
then says dot or fill: a fill leaves both its colour and its darkness there, a dot at most a
blur of its colour.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import cv2
import numpy as np

from rnwprint.core.sheet import Sheet
from rnwprint.photo.decide import WHY_FAINT
from rnwprint.photo.light import DARK_PAPER, LIGHT_WHY
from rnwprint.photo.reasons import WHY_COLOUR_BETWEEN, WHY_COLOUR_FAINT, WHY_COLOUR_MIXED, WHY_DOT_OR_FILL

PX_PER_MM = 6.0
BLUR = 0.6  # the photo's blur, in its own pixels (sampling, lens, the warp)
CHROMA_BLUR = 2.0  # colour is blurred this much more (a JPEG keeps it at half resolution)
VOTE_INK = 0.08  # a pixel votes for its pencil's colour when its chroma is at least this
INNER_MM = 2.2  # a dot lies within this of a corner's centre; a fill reaches past it
CORE_MM = 1.5
PAPER = 0.08  # a pixel absorbing less than this of every colour is paper
SHRINK_MM = 0.5  # the place's outline is print: read inside it
WHITE_MM = 9.0  # read this far around the places
LIGHT_MM = 2.5  # how smooth the light is taken to be (a shadow's edge is about this soft)
BLANK = {"road": 0.06, "hall": 0.06}  # pencil (as a share of a firm stroke's) below which a place is blank
UNSURE_BLANK = {"road": (0.04, 0.09), "hall": (0.04, 0.09)}
LUMA = np.array([0.114, 0.587, 0.299], np.float32)  # darkness from BGR absorption
DOT_SIGMA_MM = 0.5  # a dot's darkness is smoothed this much before its curvature is taken
DOT_REACH_MM = 1.2  # a dot's middle lies this near a corner's centre
DOT = 0.06  # a corner whose darkness bulges less than this holds no dot (curvature x sigma^2)
UNSURE_DOT = (0.04, 0.09)
CHROMA_DOT = 0.1  # a corner's middle this coloured holds a piece, bump or not (an even, wide dot)
UNSURE_CHROMA_DOT = 0.07
FAINT_COLOUR = 0.045  # a piece holding less of its pencil than this: its colour is a guess
CLIPPED = 250  # a channel this bright may be clipped: it tells neither the light nor a pencil
FADED_OVER = 1.02  # light at least this far past white: a light stroke may be lost, a blank is not sure
MAX_OVER = 1.06  # past this, no place is sure
OVER_MM = 7  # a print clipped this near a place says how bright its light is
COARSE = 3.5  # px/mm: a photo seeing the page coarser than this has noisier colour
FILLED = {"road": 0.1, "hall": 0.1}
RIM_MM = 2.2  # a corner's rim, where its darkness is measured: a fill reaches it, a dot not
FILLED_RIM = 0.12  # a corner whose rim holds this much pencil is a city
DARK_RIM = (0.06, 0.05)  # or this much pencil and this much darkness on its rim
UNSURE_RIM = 0.015  # a rim this near either line: dot or fill?
MIXED = 0.25  # a second colour with this share of the pencil: two pieces on one place
MIXED_COARSE = 0.35  # (a coarse photo's colour is noisier)
UNSURE_MIXED = 0.15
FIT = 0.98  # a place's colour this close (cosine) to a pencil's is that pencil's alone


@dataclass(frozen=True)
class PlaceRead:
    id: str
    value: tuple[str, ...] | None  # as typed in: ("red village",), ("blue",) …; None: blank
    confidence: float
    unsure: bool = False
    why: str = ""
    coverage: float = 0.0  # how much pencil: the place's mean absorption over a firm stroke's
    light: str = ""  # "dark" or "bright": the photo's light left too little to read it for sure


@functools.cache
def _pencils() -> tuple[list[str], np.ndarray]:
    """The pencils' names and the direction of their chroma (BGR absorption less its grey)."""
    names, chroma = _chroma()
    return names, chroma / np.linalg.norm(chroma, axis=1, keepdims=True)


@functools.cache
def _chroma() -> tuple[list[str], np.ndarray]:
    from rnwprint.games.catan.pencils import PENCILS
    names = list(PENCILS)
    ref = np.array([[1 - c / 255 for c in reversed(PENCILS[n])] for n in names], np.float32)  # BGR absorption
    return names, ref - ref.min(axis=1, keepdims=True)  # as pencil pixels are compared: by their chroma


@dataclass(frozen=True)
class _Layout:
    region: tuple[float, float, float, float]  # page mm the map's places lie in
    pixels: dict  # cell id -> flat indices of its readable pixels in the region
    kinds: dict
    every: np.ndarray  # the pixels of all places, one after the other
    labels: np.ndarray  # for each of them, its place's number (in the order of `pixels`)
    small: tuple[int, int]  # the region's size at 1 px/mm, where the light is measured
    printed: np.ndarray  # the region as printed, at 1 px/mm (BGR float)
    calib: np.ndarray  # at 1 px/mm, 1 where the print alone shows the light (no pencil can be there)
    print_full: np.ndarray  # the region as printed, at PX_PER_MM (BGR uint8)
    radius: np.ndarray  # for each pixel of `every`, mm from its place's centre
    expected: dict  # blur (mm) -> the print at `every` as a photo that blurry shows it (BGR, 0-1)
    starts: np.ndarray  # where each place's pixels start in `every`
    tiles: tuple[int, int]  # the corners' pixels laid out side by side, apart, where dots are looked for
    tiled: np.ndarray  # for each corner pixel of `every` (in order), its flat index there


_LAYOUTS: dict[str, _Layout] = {}


def _layout(sheet: Sheet) -> _Layout:
    """Where to read each place, once per printed sheet (its identity names it)."""
    key = sheet.identity.encode()
    if key not in _LAYOUTS:
        _LAYOUTS[key] = _measure(sheet)
    return _LAYOUTS[key]


def _measure(sheet: Sheet) -> _Layout:
    from shapely.geometry import Polygon

    from rnwprint.render.png import render_image

    r = PX_PER_MM
    xs = [b for c in sheet.cells.values() for b in (c.bounds[0], c.bounds[2])]
    ys = [b for c in sheet.cells.values() for b in (c.bounds[1], c.bounds[3])]
    x0, y0 = max(min(xs) - WHITE_MM, 0), max(min(ys) - WHITE_MM, 0)
    x1, y1 = max(xs) + WHITE_MM, max(ys) + WHITE_MM
    page = cv2.cvtColor(np.asarray(render_image(sheet, r * 25.4).convert("RGB")), cv2.COLOR_RGB2BGR)
    c0, r0 = int(round(x0 * r)), int(round(y0 * r))
    w, h = int(round((x1 - x0) * r)), int(round((y1 - y0) * r))
    colour = page[r0:r0 + h, c0:c0 + w].astype(np.float32)
    grey = colour.mean(axis=2)
    printed = cv2.dilate((grey < 230).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    near = np.zeros((h, w), np.uint8)  # where a pencil may have been: the places and a margin
    pixels = {}
    radius = {}
    for cid, cell in sheet.cells.items():
        ring = np.asarray(cell.polygon)
        for shape, target, value in ((Polygon(ring).buffer(-SHRINK_MM), None, 1), (Polygon(ring).buffer(1.0), near, 1)):
            pts = np.round((np.asarray(shape.exterior.coords) - (x0, y0)) * r - 0.5).astype(np.int32)
            if target is None:
                bx, by, bw, bh = cv2.boundingRect(pts)
                mask = np.zeros((bh, bw), np.uint8)
                cv2.fillPoly(mask, [pts - (bx, by)], 1)
                mask[printed[by:by + bh, bx:bx + bw]] = 0
                yy, xx = np.nonzero(mask)
                pixels[cid] = (yy + by) * w + (xx + bx)
                cx, cy = Polygon(ring).centroid.coords[0]
                radius[cid] = np.hypot((xx + bx + 0.5) / r + x0 - cx, (yy + by + 0.5) / r + y0 - cy).astype(np.float32)
            else:
                cv2.fillPoly(target, [pts], value)
    # the print's light fills (sea, terrains, paper) are where the light is measured
    edges = cv2.dilate(cv2.Canny(grey.astype(np.uint8), 20, 60), np.ones((5, 5), np.uint8)) > 0
    calib = (grey > 170) & (near == 0) & ~edges
    small = (max(1, int(w / r)), max(1, int(h / r)))
    printed_small = cv2.resize(colour, small, interpolation=cv2.INTER_AREA)
    calib_small = (cv2.resize(calib.astype(np.float32), small, interpolation=cv2.INTER_AREA) > 0.95).astype(np.float32)
    every = np.concatenate(list(pixels.values()))
    labels = np.repeat(np.arange(len(pixels)), [len(v) for v in pixels.values()])
    kinds = {cid: c.kind for cid, c in sheet.cells.items()}
    return _Layout((x0, y0, x0 + w / r, y0 + h / r), pixels, kinds, every, labels, small,
                   np.maximum(printed_small, 1), calib_small, colour.astype(np.uint8),
                   np.concatenate([radius[cid] for cid in pixels]), {},
                   np.concatenate([[0], np.cumsum([len(v) for v in pixels.values()])[:-1]]),
                   *_tile([pixels[cid] for cid in pixels if kinds[cid] == "corner"], w))


def _tile(corners: list[np.ndarray], width: int) -> tuple[tuple[int, int], np.ndarray]:
    """The corners' pixels (flat indices in a region `width` wide) copied side by side into
    one small image, each with a margin the dot's smoothing does not cross: the same result as
    smoothing the whole region around them, on an eighth of the pixels."""
    margin = int(np.ceil(4 * DOT_SIGMA_MM * PX_PER_MM)) + 1
    rows, cols = zip(*(np.divmod(c, width) for c in corners))
    side = max(max(int(v.max() - v.min()) for v in rows + cols) + 1 + 2 * margin, 1)
    across = int(np.ceil(np.sqrt(len(corners))))
    tiled = [((k // across) * side + margin + y - y.min()) * (across * side)
             + (k % across) * side + margin + x - x.min() for k, (y, x) in enumerate(zip(rows, cols))]
    return (-(-len(corners) // across) * side, across * side), np.concatenate(tiled)


def _expected(layout: _Layout, blur_mm: float) -> np.ndarray:
    """The print at the places' pixels as a photo `blur_mm` blurry shows it: outlines and ids
    spread into the places, and colour (which a JPEG keeps at half the resolution) twice as far."""
    key = round(blur_mm * 20) / 20
    if key not in layout.expected:
        y, cr, cb = cv2.split(cv2.cvtColor(layout.print_full, cv2.COLOR_BGR2YCrCb))
        s = max(key * PX_PER_MM, 0.3)
        chroma = cv2.GaussianBlur(cv2.merge([cr, cb]), (0, 0), s * CHROMA_BLUR)
        bgr = cv2.cvtColor(cv2.merge([cv2.GaussianBlur(y, (0, 0), s), *cv2.split(chroma)]), cv2.COLOR_YCrCb2BGR)
        layout.expected[key] = np.maximum(bgr.reshape(-1, 3)[layout.every].astype(np.float32) / 255, 0.2)
    return layout.expected[key]


def _warp(image: np.ndarray, homography: np.ndarray, region, r: float) -> np.ndarray:
    x0, y0, x1, y1 = region
    size = (int(round((x1 - x0) * r)), int(round((y1 - y0) * r)))
    s_inv = np.array([[1 / r, 0, x0 + 0.5 / r], [0, 1 / r, y0 + 0.5 / r], [0, 0, 1]])
    return cv2.warpPerspective(image, homography @ s_inv, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=(255, 255, 255))


def read_map(image: np.ndarray, homography: np.ndarray, sheet: Sheet) -> dict[str, PlaceRead]:
    """Every place of a map Sheet read from a colour (BGR) photo whose page -> photo
    homography is known."""
    layout = _layout(sheet)
    f = _features(image, homography, layout)
    names, ref = _pencils()
    coarse = f["px_per_mm"] < COARSE
    return {cid: _in_light(_decide(cid, layout.kinds[cid], f["votes"][i], f["mean"][i], f["core"][i], f["ring"][i],
                                   names, ref, coarse, float(f["dot"][i]), float(f["rim_dark"][i])),
                           float(f["over"][i]), float(f["paper"][i]))
            for i, cid in enumerate(layout.pixels)}


def _in_light(read: PlaceRead, over: float, paper: float) -> PlaceRead:
    """The read, flagged with the reason where the photo is too bright or too dark to be sure
    of it: light at least `over` times what turns the paper white (a print that dark is
    clipped to white nearby) washes out strokes lighter than 1 - 1/over, so a blank there is
    not sure, and far past white, nothing is; paper showing `paper` grey levels (of 255),
    fewer than DARK_PAPER, leaves a pencil a few levels of noise."""
    if paper < DARK_PAPER:
        why, light = LIGHT_WHY["dark"], "dark"
    elif over > MAX_OVER:
        why, light = LIGHT_WHY["bright"], "bright"
    elif over > FADED_OVER and read.value is None:
        why, light = LIGHT_WHY["faded"], "bright"
    else:
        return read
    return replace(read, unsure=True, why="; ".join(w for w in (read.why, why) if w), light=light)


def _light(small: np.ndarray, layout: _Layout) -> tuple[np.ndarray, np.ndarray]:
    """The light (BGR, 1: what shows the paper white) over the map region at 1 px/mm, and how
    far past white it is at least. A print clipped to white says only that the light is at
    least that strong (CLIPPED / its grey): the light is measured where the print is seen
    unclipped, and the darkest print clipped within OVER_MM says how far past white it is."""
    calib = layout.calib[:, :, None]
    seen = cv2.GaussianBlur(layout.calib, (0, 0), LIGHT_MM)[:, :, None]
    ratio = small / layout.printed
    light = cv2.GaussianBlur(ratio * calib, (0, 0), LIGHT_MM) / np.maximum(seen, 1e-3)
    clipped = (small >= CLIPPED) & (calib > 0)
    if not clipped.any():  # the usual photo
        return light, np.zeros(layout.calib.shape, np.float32)
    unclipped = calib * ~clipped
    seen_unclipped = cv2.GaussianBlur(unclipped, (0, 0), LIGHT_MM)
    light = np.where(seen_unclipped > 0.05 * seen,
                     cv2.GaussianBlur(ratio * unclipped, (0, 0), LIGHT_MM) / np.maximum(seen_unclipped, 1e-3), light)
    floor = np.where(clipped, CLIPPED / layout.printed, 0).max(axis=2)
    near = np.ones((2 * OVER_MM + 1,) * 2, np.uint8)
    blind = cv2.dilate(layout.calib, near) == 0  # no print near to judge by: judged as the page's worst
    return light, np.where(blind, floor.max(), cv2.dilate(floor, near))


def _features(image: np.ndarray, homography: np.ndarray, layout: _Layout) -> dict:
    """For each place: the mean absorption (BGR) of its pixels, of its middle and of its rim
    (corners), and its pencil grains' votes for each pencil weighted by their strength."""
    top = _warp(image, homography, layout.region, PX_PER_MM)
    # the light on each bit of paper (its colour too: a lamp's tint): what the photo shows of
    # the print over what was printed, spread from where it is seen to the places around
    # (at 1 px/mm: the light is smooth, and blurring there is 36 times cheaper)
    h, w = top.shape[:2]
    light, over = _light(cv2.resize(top, layout.small, interpolation=cv2.INTER_AREA).astype(np.float32), layout)
    light = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)
    over = (cv2.resize(over, (w, h), interpolation=cv2.INTER_NEAREST).reshape(-1)[layout.every] if over.any()
            else np.zeros(len(layout.every), np.float32))
    px_per_mm = _px_per_mm(homography, layout.region)
    # a pencil absorbs a share of each colour of what lies under it: the paper's light times the
    # print, as blurry as the photo sees it; a channel clipped to white shows no pencil
    under = light.reshape(-1, 3)[layout.every] * 255 * _expected(layout, BLUR / px_per_mm)
    shown = top.reshape(-1, 3)[layout.every]
    a = np.where(shown < CLIPPED, 1 - shown / np.maximum(under, 1), 0)
    paper = np.abs(a).max(axis=1) < PAPER
    if paper.sum() > 100:  # the paper inside the places tells a tint the print round them does not
        a -= np.median(a[paper], axis=0)
    names, ref = _pencils()
    n, places = len(names), len(layout.pixels)
    chroma = a - a.min(axis=1, keepdims=True)  # what is left of a colour once its grey is taken out
    strength = chroma.max(axis=1)
    corner = np.array([layout.kinds[cid] == "corner" for cid in layout.pixels])[layout.labels]
    # a dot lies in a corner's middle: only there do its pixels vote (the rim's are paper, or a fill's)
    weight = strength * (strength > VOTE_INK) * (~corner | (layout.radius < CORE_MM))
    nearest = np.argmax(chroma @ ref.T, axis=1)
    votes = np.bincount(layout.labels * n + nearest, weights=weight, minlength=places * n).reshape(-1, n)

    def mean(values: np.ndarray, where: np.ndarray | None = None) -> np.ndarray:
        """Each place's mean of `values` (a column, or one per colour) over its pixels `where`."""
        where = np.ones(len(values), np.float32) if where is None else where
        count = np.maximum(np.bincount(layout.labels, weights=where, minlength=places), 1)
        sums = [np.bincount(layout.labels, weights=column * where, minlength=places)
                for column in values.reshape(len(values), -1).T]
        return (np.stack(sums, 1) / count[:, None]).reshape((places,) + values.shape[1:])

    dark = a @ LUMA
    inner = (layout.radius < INNER_MM).astype(np.float32)
    core = (layout.radius < CORE_MM).astype(np.float32)
    return {"votes": votes, "mean": mean(a), "ring": mean(a, 1 - inner), "core": mean(a, core),
            "rim_dark": mean(dark, (layout.radius >= RIM_MM).astype(np.float32)), "dot": _dots(dark, corner, layout),
            "over": np.maximum.reduceat(over, layout.starts), "paper": mean(under.max(axis=1)),
            "px_per_mm": px_per_mm}


def _dots(dark: np.ndarray, corner: np.ndarray, layout: _Layout) -> np.ndarray:
    """For each place, how much a dot bulges out of its corner's darkness (0 for roads and
    halls): the darkness of the corners' pixels alone, smoothed, and where it curves down least
    steeply across (the larger eigenvalue of its Hessian), the most of minus that near the
    centre, times sigma squared (so that the measure does not change with the smoothing)."""
    sigma = DOT_SIGMA_MM * PX_PER_MM
    shape, at = layout.tiles, layout.tiled
    value, weight = np.zeros(shape[0] * shape[1], np.float32), np.zeros(shape[0] * shape[1], np.float32)
    value[at], weight[at] = dark[corner], 1
    value = cv2.GaussianBlur(value.reshape(shape), (0, 0), sigma)
    weight = cv2.GaussianBlur(weight.reshape(shape), (0, 0), sigma)
    smooth = np.where(weight > 0.3, value / np.maximum(weight, 1e-3), 0)
    near = (layout.radius[corner] < DOT_REACH_MM) & (weight.ravel()[at] > 0.6)
    seen = at[near]
    dxx, dyy, dxy = (cv2.Sobel(smooth, cv2.CV_32F, dx, dy, ksize=3).ravel()[seen]
                     for dx, dy in ((2, 0), (0, 2), (1, 1)))
    half = (dxx + dyy) / 2
    flattest = half + np.sqrt(np.maximum(half * half - (dxx * dyy - dxy * dxy), 0))
    bulge = np.full(len(dark), -np.inf, np.float32)
    bulge[np.flatnonzero(corner)[near]] = -flattest * sigma * sigma
    return np.maximum(np.maximum.reduceat(bulge, layout.starts), 0)


def _px_per_mm(homography: np.ndarray, region) -> float:
    """How finely the photo sees the page in the middle of `region` (the root of the area scale)."""
    x, y = (region[0] + region[2]) / 2, (region[1] + region[3]) / 2
    pts = np.array([[x, y], [x + 1, y], [x, y + 1]], np.float64)
    p = cv2.perspectiveTransform(pts[None], homography)[0]
    (ux, uy), (vx, vy) = p[1] - p[0], p[2] - p[0]
    return float(np.sqrt(abs(ux * vy - uy * vx)))


def _amount(mean: np.ndarray, ref: np.ndarray, k: int) -> float:
    """How much of pencil k a mean absorption holds: its chroma along the pencil's, over the
    chroma of a firm stroke (1: the place wholly covered by a firm stroke)."""
    chroma = mean - mean.min()
    return float(chroma @ ref[k]) / float(np.linalg.norm(_chroma()[1][k]))


def _decide(cid: str, kind: str, votes: np.ndarray, mean: np.ndarray, core: np.ndarray, ring: np.ndarray,
            names: list[str], ref: np.ndarray, coarse: bool, dot: float = 0.0, rim_dark: float = 0.0) -> PlaceRead:
    # a dot is in a corner's middle: its colour and amount are read there
    middle = core if kind == "corner" else mean
    chroma = middle - middle.min()
    main = int(np.argmax(ref @ chroma))
    amount = _amount(middle, ref, main)
    fit = float(ref[main] @ chroma) / max(float(np.linalg.norm(chroma)), 1e-9)
    if kind == "corner":
        rim = _amount(ring, ref, main)
        fill = max(rim - FILLED_RIM, min(rim - DARK_RIM[0], rim_dark - DARK_RIM[1]))  # > 0: a city
        city = fill > 0
        if dot < DOT and amount < CHROMA_DOT and not city:
            unsure = dot > UNSURE_DOT[0] or amount > UNSURE_CHROMA_DOT
            sure = 1 - max(dot / DOT, amount / CHROMA_DOT)
            return PlaceRead(cid, None, sure if unsure else 1.0, unsure, WHY_FAINT if unsure else "", amount)
    elif amount < BLANK[kind]:
        unsure = amount > UNSURE_BLANK[kind][0]
        return PlaceRead(cid, None, 1 - amount / BLANK[kind] if unsure else 1.0, unsure,
                         WHY_FAINT if unsure else "", amount)
    total = max(float(votes.sum()), 1e-9)
    share = votes / total
    second = max((i for i in range(len(names)) if i != main), key=lambda i: share[i])
    colours = [names[main]] + ([names[second]] if share[second] >= (MIXED_COARSE if coarse else MIXED) else [])
    why = []
    if kind == "corner":
        words = tuple(f"{c} {'city' if city else 'village'}" for c in colours)
        unsure_piece = abs(fill) < UNSURE_RIM
        faint = not city and dot < UNSURE_DOT[1] and amount < CHROMA_DOT  # a fill on the rim is no faint mark
    else:
        words = tuple(colours)
        unsure_piece = amount < FILLED[kind]  # a dot where a fill belongs
        faint = amount < UNSURE_BLANK[kind][1]
    if faint:
        why.append(WHY_FAINT)
    if unsure_piece:
        why.append(WHY_DOT_OR_FILL)
    if amount < FAINT_COLOUR:  # a dot seen by its darkness, its colour too faint to be sure of
        why.append(WHY_COLOUR_FAINT.format(names[main]))
    elif share[second] > UNSURE_MIXED:  # (so also whenever a second colour is read)
        why.append(WHY_COLOUR_MIXED.format(names[main], f"{share[main]:.0%}", names[second], f"{share[second]:.0%}"))
    elif fit < FIT:  # two pencils over each other mix into a colour neither has
        why.append(WHY_COLOUR_BETWEEN.format(names[main], f"{fit:.0%}"))
    elif not votes.any():  # no pixel coloured enough to vote: the mean's colour alone says it
        why.append(WHY_COLOUR_FAINT.format(names[main]))
    confidence = float(share[main]) * (0.5 if unsure_piece else 1.0)
    return PlaceRead(cid, words, confidence, bool(why), "; ".join(why), amount)
