"""The four ArUco corner markers in a photo: detected on a reduced copy (more passes while
some are missing), refined on the full image, and a missing one recovered among the
rejected candidate squares where a fit puts it. Split out of photo.locate."""

from __future__ import annotations

import functools

import numpy as np

from rnwprint.photo.homography import _apply

DETECT_LONG_SIDE = 1600  # markers are looked for on a copy reduced to at most this size,
FAST_LONG_SIDE = 1000  # first on a copy halved down to this many px or more (several times faster)

#: on the full image, markers whose perimeter is this share of its long side are looked for:
#: 15 px a side in a 12 MP photo, a page seen at 1.3 px/mm (OpenCV's default, 0.03, missed the
#: markers of a page filling a third of a 12 MP frame, at 3 px/mm)
SMALL_MARKER_RATE = 0.015
#: two markers of one id this alike in area are two sheets, not a false detection (a speck)
SAME_SIZE = 0.4


def detect_markers(grey: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id (0-3) -> its 4 corners (px, full resolution, ArUco's order), sub-pixel."""
    return _detect(grey)[0]


def _detect(grey: np.ndarray) -> tuple[dict[int, np.ndarray], list[np.ndarray], bool]:
    """Markers found (refined on the full image), the rejected candidate squares (px), and
    whether a marker showed twice (two sheets in view).

    A fast pass (one threshold window) on a copy halved as often as _halvings says, which is
    all a photo filling most of the frame needs; else the same on a reduced copy at most
    DETECT_LONG_SIDE long and, while markers are missing, OpenCV's default three windows,
    then the same on a copy with the shading divided out (a shadow edge across a marker),
    then, if fewer than three were found, the full image."""
    h, w = grey.shape
    halved = _halvings(max(h, w))
    if halved:  # a far page's markers may be too small for it: then from the start below
        small = _reduced(grey, halved)
        found, rejected, twice = _aruco(small, halved, "fast")
        if len(found) == 4:
            return _refined(grey, small, halved, found), rejected, twice
    factor = _least_factor(max(h, w))
    small = _reduced(grey, factor)
    found = {}
    rejected = []
    twice = False
    passes = [(small, factor, "fast"), (small, factor, "default"), (None, factor, "flat")]
    if factor > 1:
        passes.append((grey, 1, "small"))  # markers too small for the reduced copy
    for img, f, kind in passes:
        full_image_pass = f == 1 and factor > 1
        if len(found) == 4 or (full_image_pass and len(found) == 3):
            break
        if kind == "flat":
            img = _flat_field(small)
        more, rej, seen_twice = _aruco(img, f, kind)
        for i, q in more.items():
            found.setdefault(i, q)
        rejected += rej
        twice = twice or seen_twice
    return _refined(grey, small, factor, found), rejected, twice


def _refined(grey: np.ndarray, small: np.ndarray, factor: int, found: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """The corners found on `small` (`grey` reduced by `factor`) refined on it first (they
    are `factor` px coarse), then on the full image."""
    if factor > 1:
        found = {i: (_refine(small, (q - (factor - 1) / 2) / factor) * factor + (factor - 1) / 2)
                 for i, q in found.items()}
    return {i: _refine(grey, q) for i, q in found.items()}


def detect_on_full_image(grey: np.ndarray) -> dict[int, np.ndarray]:
    """`detect_markers` on the photo itself, not a reduced copy (slower: for a photo whose
    reduced copy lost a marker that matters)."""
    found = _aruco(grey, 1, "default")[0]
    return {i: _refine(grey, q) for i, q in found.items()}


def _least_factor(long_side: int) -> int:
    """The least factor that brings a photo's long side under DETECT_LONG_SIDE px."""
    return max(1, int(np.ceil(long_side / DETECT_LONG_SIDE)))


def _halvings(long_side: int) -> int:
    """The power of two a photo is first reduced by to look for its markers, its long side
    then from FAST_LONG_SIDE to DETECT_LONG_SIDE px; 0 where there is none, or it is
    _least_factor anyway."""
    halved = 1
    while long_side / halved > DETECT_LONG_SIDE:
        halved *= 2
    return halved if halved != _least_factor(long_side) and long_side / halved >= FAST_LONG_SIDE else 0


def _reduced(grey: np.ndarray, factor: int) -> np.ndarray:
    """`grey` reduced by `factor` with OpenCV's INTER_AREA: by a power of two halved that
    many times (OpenCV's fast path: 0.5 ms for 12 MP, against 3.9 at once by 4), by any
    other factor its whole blocks (the last partial row and column left out)."""
    import cv2

    h, w = grey.shape
    if factor & (factor - 1) == 0:  # 1, 2, 4, 8, ...
        while factor > 1:
            grey = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
            factor //= 2
        return grey
    whole = grey[:h - h % factor, :w - w % factor]  # by 3, OpenCV is fast only at an exact multiple
    if factor % 2:  # the same pixels as INTER_AREA, in half its time (a 12 MP photo by 3: 2.8 ms against 5.8)
        half = factor // 2
        return np.ascontiguousarray(cv2.blur(whole, (factor, factor))[half::factor, half::factor])
    return cv2.resize(whole, (w // factor, h // factor), interpolation=cv2.INTER_AREA)


@functools.cache
def _detector(kind: str):
    import cv2

    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    if kind == "fast":
        params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = 15
    elif kind == "small":  # a sheet far off in a large photo: OpenCV's least marker (3 % of the
        params.minMarkerPerimeterRate = SMALL_MARKER_RATE  # long side round) is 30 px in 12 MP
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def _aruco(grey: np.ndarray, factor: int, kind: str) -> tuple[dict[int, np.ndarray], list[np.ndarray], bool]:
    """Markers found (by id), the rejected candidate squares, and whether a marker showed
    twice (`_twice`), in px of the full image."""
    corners, ids, rejected = _detector(kind).detectMarkers(grey)

    # marker corners are pixel corners: a pixel centre at k in the reduced copy is at
    # k * factor + (factor - 1) / 2 in the full image
    def scale(q):
        return q.reshape(4, 2).astype(np.float64) * factor + (factor - 1) / 2

    by_id: dict[int, list[np.ndarray]] = {}
    for quad, i in zip(corners, ids.ravel() if ids is not None else ()):
        if int(i) in (0, 1, 2, 3):
            by_id.setdefault(int(i), []).append(scale(quad))
    # the same id twice (another sheet in view, a false detection): keep the largest
    found = {i: max(quads, key=_area) for i, quads in by_id.items()}
    return found, [scale(q) for q in rejected], any(_twice(quads) for quads in by_id.values())


def _twice(quads: list[np.ndarray]) -> bool:
    """Whether a marker shows twice at about the same size (the smaller at least SAME_SIZE
    of the larger's area): two sheets in view, not a speck taken for a marker."""
    areas = sorted(_area(q) for q in quads)
    return len(areas) > 1 and areas[-2] >= SAME_SIZE * areas[-1]


def _flat_field(grey: np.ndarray) -> np.ndarray:
    """Divide out slow shading (light gradient, a shadow's edge) so one threshold fits."""
    import cv2

    k = max(15, (max(grey.shape) // 60) | 1)
    paper = cv2.dilate(grey, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    paper = cv2.blur(paper, (k, k))
    return cv2.divide(grey, paper, scale=230)


def _area(q: np.ndarray) -> float:
    x, y = q[:, 0], q[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def _recover_marker(grey: np.ndarray, H: np.ndarray, page_quad: np.ndarray,
                    rejected: list[np.ndarray]) -> np.ndarray | None:
    """A rejected candidate square lying where the missing marker must be (every corner
    within a sixth of the marker's side of its predicted place), in the predicted order."""
    predicted = _apply(H, page_quad)
    side = np.mean(np.hypot(*(predicted - np.roll(predicted, 1, axis=0)).T))
    best = None
    if not rejected:
        return None
    quads = np.array(rejected)
    near = np.hypot(*(quads.mean(axis=1) - predicted.mean(axis=0)).T) < side / 6
    for cand in quads[near]:
        for shift in range(4):
            for order in (cand, cand[::-1]):
                q = np.roll(order, shift, axis=0)
                err = float(np.max(np.hypot(*(q - predicted).T)))
                if err < side / 6 and (best is None or err < best[0]):
                    best = (err, q)
    return _refine(grey, _refine(grey, best[1])) if best is not None else None


def _refine(grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Sub-pixel marker corners on the full image; a corner that wanders off is kept as found."""
    import cv2

    side = np.mean(np.hypot(*(quad - np.roll(quad, 1, axis=0)).T))
    half = int(max(2, min(12, round(side / 6 * 0.4))))  # within the marker's border module
    pts = quad.astype(np.float32).reshape(-1, 1, 2).copy()
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    cv2.cornerSubPix(grey, pts, (half, half), (-1, -1), criteria)
    refined = pts.reshape(4, 2).astype(np.float64)
    moved = np.hypot(*(refined - quad).T)
    return np.where((moved < max(1.5, half * 0.8))[:, None], refined, quad)
