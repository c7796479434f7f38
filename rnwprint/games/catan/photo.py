"""Reading a photo of the shared island map: each place's owner by pencil colour, a dot
(village) or a fill (city, road, town hall).

The page is found as for every sheet (markers, QR code, homography); here the map's part of
it is warped top-down in colour. Light and its tint are taken out by dividing by the paper's
own white, found around each place (the places are white circles and bars, never more than
a few mm apart); the print (outlines, ids) is left out by drawing the Sheet itself. A pencil
grain absorbs some colours more than others: its direction in (1 - B, 1 - G, 1 - R) names
the pencil, its share of the place says dot or fill.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rnwprint.core.sheet import Sheet

PX_PER_MM = 6.0
INK = 0.16  # a pixel is pencil when it absorbs at least this much of some colour
SHRINK_MM = 0.5  # the place's outline is print: read inside it
WHITE_MM = 9.0  # read this far around the places
LIGHT_MM = 2.5  # how smooth the light is taken to be (a shadow's edge is about this soft)
BLANK = 0.03  # share of a place in pencil below which it is blank
UNSURE_BLANK = (0.02, 0.07)
COARSE = 3.5  # px/mm: a photo seeing the page coarser than this blurs a dot to a smudge ...
UNSURE_COARSE = (0.005, 0.6)  # ... so a corner with this share in pencil may be blank, a dot or a fill
FILLED = {"corner": 0.36, "road": 0.2, "hall": 0.2}  # a corner above this is a city
UNSURE_CITY = (0.26, 0.46)
GREY = 0.3  # a pixel whose colour is less than this share of its darkness is grey
MIXED = 0.25  # a second colour with this share of the pencil: two pieces on one place


@dataclass(frozen=True)
class PlaceRead:
    id: str
    value: tuple[str, ...] | None  # as typed in: ("red village",), ("blue",) …; None: blank
    confidence: float
    unsure: bool = False
    why: str = ""
    coverage: float = 0.0


def _pencils() -> tuple[list[str], np.ndarray]:
    from rnwprint.games.catan.pencils import PENCILS
    names = list(PENCILS)
    ref = np.array([[1 - c / 255 for c in reversed(PENCILS[n])] for n in names], np.float32)  # BGR absorption
    ref = ref - ref.min(axis=1, keepdims=True)  # as pencil pixels are compared: by their chroma
    return names, ref / np.linalg.norm(ref, axis=1, keepdims=True)


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
    return _Layout((x0, y0, x0 + w / r, y0 + h / r), pixels, {cid: c.kind for cid, c in sheet.cells.items()},
                   every, labels, small, np.maximum(printed_small, 1), calib_small)


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
    top = _warp(image, homography, layout.region, PX_PER_MM)
    # the light on each bit of paper (its colour too: a lamp's tint): what the photo shows of
    # the print over what was printed, spread from where it is seen to the places around
    # (at 1 px/mm: the light is smooth, and blurring there is 36 times cheaper)
    h, w = top.shape[:2]
    small = cv2.resize(top, layout.small, interpolation=cv2.INTER_AREA).astype(np.float32)
    seen = cv2.GaussianBlur(layout.calib, (0, 0), LIGHT_MM)
    light = cv2.GaussianBlur(small / layout.printed * layout.calib[:, :, None], (0, 0), LIGHT_MM)
    light = cv2.resize(light / np.maximum(seen, 1e-3)[:, :, None], (w, h), interpolation=cv2.INTER_LINEAR)
    a = 1 - top.reshape(-1, 3)[layout.every] / np.maximum(light.reshape(-1, 3)[layout.every] * 255, 1)
    names, ref = _pencils()
    n = len(names)
    ids = list(layout.pixels)
    strength = a.max(axis=1)
    chroma = a - a.min(axis=1, keepdims=True)  # what is left of a colour once its grey is taken out
    # a pencil grain: dark enough, and not grey (print, graphite, a shadow's edge)
    grain = (strength > INK) & (chroma.max(axis=1) >= GREY * strength)
    direction = chroma / np.maximum(np.linalg.norm(chroma, axis=1, keepdims=True), 1e-6)
    nearest = np.argmax(direction @ ref.T, axis=1)
    size = np.bincount(layout.labels, minlength=len(ids))
    votes = np.bincount(layout.labels * n + nearest, weights=grain, minlength=len(ids) * n).reshape(-1, n)
    mean = np.stack([np.bincount(layout.labels, weights=chroma[:, k] * grain, minlength=len(ids)) for k in range(3)], 1)
    coarse = _px_per_mm(homography, layout.region) < COARSE
    return {cid: _decide(cid, layout.kinds[cid], votes[i], mean[i], int(size[i]), names, ref, coarse)
            for i, cid in enumerate(ids)}


def _px_per_mm(homography: np.ndarray, region) -> float:
    """How finely the photo sees the page in the middle of `region` (the root of the area scale)."""
    x, y = (region[0] + region[2]) / 2, (region[1] + region[3]) / 2
    pts = np.array([[x, y], [x + 1, y], [x, y + 1]], np.float64)
    p = cv2.perspectiveTransform(pts[None], homography)[0]
    (ux, uy), (vx, vy) = p[1] - p[0], p[2] - p[0]
    return float(np.sqrt(abs(ux * vy - uy * vx)))


def _decide(cid: str, kind: str, votes: np.ndarray, mean: np.ndarray, size: int, names: list[str],
            ref: np.ndarray, coarse: bool = False) -> PlaceRead:
    """A place from its pencil grains: their number for each colour, their summed chroma."""
    total = float(votes.sum())
    coverage = total / max(size, 1)
    if coverage < BLANK:
        unsure = coverage > (UNSURE_COARSE[0] if coarse and kind == "corner" else UNSURE_BLANK[0])
        return PlaceRead(cid, None, 1 - coverage / BLANK if unsure else 1.0, unsure,
                         "faint marks" if unsure else "", coverage)
    votes = votes / total
    main = int(np.argmax(ref @ (mean / np.linalg.norm(mean))))  # the place's colour on average
    order = [main] + [i for i in np.argsort(-votes) if i != main]
    colours = [names[order[0]]] + ([names[order[1]]] if votes[order[1]] >= MIXED else [])
    if kind == "corner":
        city = coverage > FILLED["corner"]
        words = tuple(f"{c} {'city' if city else 'village'}" for c in colours)
        unsure_piece = (UNSURE_COARSE if coarse else UNSURE_CITY)[0] < coverage < (UNSURE_COARSE if coarse else UNSURE_CITY)[1]
    else:
        words = tuple(colours)
        unsure_piece = coverage < FILLED[kind]  # a dot where a fill belongs
    why = []
    if coverage < UNSURE_BLANK[1]:
        why.append("faint marks")
    if unsure_piece:
        why.append("dot or fill?")
    if len(colours) > 1 or votes[order[0]] < 0.75:
        why.append(f"colour: {names[order[0]]} {votes[order[0]]:.0%}, {names[order[1]]} {votes[order[1]]:.0%}")
    confidence = float(votes[order[0]]) * (0.5 if unsure_piece else 1.0)
    return PlaceRead(cid, words, confidence, bool(why), "; ".join(why), coverage)
