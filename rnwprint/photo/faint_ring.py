"""A guard circle too faint to be ink: a soft pencil's grey ring round a number written
harder. The ink floor leaves it out, so no other check sees it; left alone, the number reads
plain and sure and the guard is lost without a word. Looked for in the darkness itself,
round the number: along each of RAYS rays out from the number's middle, from just beyond the
number to the crop's edge, how far the darkness rises again after its lowest point so far
(taken together with the neighbouring rays: a ring is continuous). A ring rises so on most
rays, at about the same distance from one ray to the next; the blurred edge of a pale
number only falls away from it, and grain rises at scattered distances."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from rnwprint.photo.ink import without_frame

RAYS = 48
#: a faint ring: on FAINT_RING_ROUND of the rays or more the darkness rises by FAINT_RING_STEP
#: of the ink floor or more, its highest rise within RING_JUMP_PX of the rays' either side. On
#: the tuning photos (bench_circled.py --circles faint, seeds 8000-8039, held-out MNIST
#: writers; bench_photo.py seeds 5000-5099, held-out MNIST and UCI writers), in photos seeing
#: the page at 3 px/mm or more, that found 93 of the 117 faint circles the other checks lost
#: and a ring round none of 2,850 plain numbers (the darkest point against the ray's median
#: instead: a stranger's pale, blurred pencil numbers took a ring for their own edges 70 times
#: in 835; without the frame taken away, a blurred photo took the outline's blur for one).
#: Under 3 px/mm (COARSE_BELOW) JPEG grain comes together into rings: there FAINT_RING_COARSE
#: of the rays (16 of 39 circles, 1 of 1,044 plain numbers)
FAINT_RING_STEP, RING_JUMP_PX, FAINT_RING_ROUND, FAINT_RING_COARSE = 0.2, 2, 0.5, 0.65
#: a ray holds a point of a ring only where it runs this many px or more beyond the number
#: within the crop (a number reaching the crop's edge leaves no room there)
ROOM_PX = 3
#: read guarded (the likelier of the two there), flagged
FAINT_RING_WHY = "a faint ring round the number, pencil or the photo's grain: is the number guarded?"


def faint_ring(dark: np.ndarray, ink: np.ndarray, floor: float, coarse: bool = False) -> bool:
    """Whether a faint ring goes round the number: `dark`, the cell's darkness (the print
    taken away); `ink`, what of it is above the ink `floor` (the number); `coarse`, a photo
    seeing the page at under 3 px/mm."""
    return faint_rings([(dark, ink, floor)], coarse)[0]


def faint_rings(cells: list[tuple[np.ndarray, np.ndarray, float]], coarse: bool = False) -> list[bool]:
    """faint_ring of each (dark, ink, floor), looked at together (see ring_shares)."""
    return [share >= ring_bar(coarse) for share in ring_shares(cells)]


def ring_bar(coarse: bool) -> float:
    """The share of the rays on a ring from which a faint ring goes round the number."""
    return FAINT_RING_COARSE if coarse else FAINT_RING_ROUND


def ring_shares(cells: list[tuple[np.ndarray, np.ndarray, float]]) -> list[float]:
    """The share of the rays on a faint ring round the number of each (dark, ink, floor),
    looked at together: a sheet's boxes are of about one size (a pixel either way), so each is
    padded with paper to the largest, and one pass over all of them costs a fraction of one
    pass a cell."""
    if not cells:
        return []
    h, w = (max(dark.shape[k] for dark, _, _ in cells) for k in (0, 1))
    darks, pens = np.zeros((len(cells), h, w), np.float32), np.zeros((len(cells), h, w), bool)
    for k, (dark, ink, _) in enumerate(cells):
        darks[k, :dark.shape[0], :dark.shape[1]] = dark
        pens[k, :ink.shape[0], :ink.shape[1]] = _number(ink > 0)
    rise, radius = _rises(darks, pens, np.array([floor for _, _, floor in cells], np.float32))
    on_ring = (rise >= FAINT_RING_STEP) & (np.abs(radius - np.roll(radius, 1, axis=1)) <= RING_JUMP_PX) & \
        (np.abs(radius - np.roll(radius, -1, axis=1)) <= RING_JUMP_PX)
    return [float(share) for share in on_ring.mean(axis=1)]


def rises_on_rays(dark: np.ndarray, ink: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """On each of RAYS rays from the middle of the number (in `ink`, the pen above the ink
    `floor`: see _number), beyond it: the highest rise of the darkness over its lowest point nearer the
    number (a share of the floor; 0 where the ray has no room beyond the number, or there is
    no number), and how far out that rise peaks (px)."""
    rise, radius = _rises(dark[None], _number(ink > 0)[None], np.array([floor], np.float32))
    return rise[0], radius[0]


def _rises(darks: np.ndarray, pens: np.ndarray, floors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """rises_on_rays of cells of one shape: `darks` and `pens` (cells, h, w); (cells, RAYS) each."""
    h, w = darks.shape[1:]
    across, down, radii = _ray_steps(h, w)
    rows, columns = pens.any(axis=2), pens.any(axis=1)
    middles = np.stack([(columns.argmax(axis=1) + w - 1 - columns[:, ::-1].argmax(axis=1)) / 2,
                        (rows.argmax(axis=1) + h - 1 - rows[:, ::-1].argmax(axis=1)) / 2], axis=1).astype(np.float32)
    mx = across[None] + middles[:, 0, None, None]  # (cells, RAYS, radii)
    my = down[None] + middles[:, 1, None, None]
    in_crop = (mx >= 0) & (my >= 0) & (mx <= w - 1) & (my <= h - 1)
    shade = without_frame(np.minimum(darks, floors[:, None, None])) / floors[:, None, None]
    rays = np.stack([cv2.remap(one, x, y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
                     for one, x, y in zip(shade, mx, my)])
    rays = _round_window(rays.transpose(1, 0, 2), 1).mean(axis=0).transpose(1, 0, 2)  # a ring is continuous
    grown = (cv2.dilate(pen.view(np.uint8), np.ones((3, 3), np.uint8)) for pen in pens)
    on_number = np.stack([cv2.remap(one, x, y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
                          for one, x, y in zip(grown, mx, my)]) > 0
    beyond = np.where(on_number & in_crop, radii + 1, 0).max(axis=2)
    beyond = _round_window(beyond.T, 2).max(axis=0).T  # a stroke seen between two rays
    looked = (radii >= beyond[:, :, None]) & in_crop
    room = (looked.sum(axis=2) >= ROOM_PX) & pens.any(axis=(1, 2))[:, None]
    lowest = np.minimum.accumulate(np.where(looked, rays, np.inf), axis=2)
    rises = np.where(looked, rays - lowest, -1.0)
    return np.where(room, rises.max(axis=2), 0.0), rises.argmax(axis=2)


def _round_window(values: np.ndarray, reach: int) -> np.ndarray:
    """`values` (one per ray, along the first axis) and their neighbours `reach` rays either
    way round, stacked: (2 reach + 1, RAYS, ...)."""
    around = np.concatenate([values[-reach:], values, values[:reach]])
    return np.stack([around[k:k + len(values)] for k in range(2 * reach + 1)])


@lru_cache(maxsize=32)
def _ray_steps(h: int, w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each point of RAYS rays from a middle, as (x, y) offsets from it, out to half an h x w
    crop's diagonal, one px apart; and the points' distances from the middle."""
    radii = np.arange(int(np.hypot(h, w) / 2) + 2, dtype=np.float32)
    angles = np.arange(RAYS) * 2 * np.pi / RAYS
    return ((np.cos(angles)[:, None] * radii).astype(np.float32), (np.sin(angles)[:, None] * radii).astype(np.float32),
            radii)


def _number(pen: np.ndarray) -> np.ndarray:
    """The number in `pen`: its largest piece and the pieces whose middles lie within that
    piece's bounding box grown by a fifth each way (not a ring's darker stretch or a speck
    further out); nothing where `pen` holds nothing."""
    count, labels, stats, middles = cv2.connectedComponentsWithStats(pen.astype(np.uint8), connectivity=8)
    if count <= 1:
        return np.zeros(pen.shape, bool)
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = stats[largest, :4]
    mx, my = middles[:, 0], middles[:, 1]
    kept = (mx >= x - 0.2 * w) & (mx <= x + 1.2 * w) & (my >= y - 0.2 * h) & (my <= y + 1.2 * h)
    kept[0] = False
    return kept[labels]
