"""A guard circle too faint to be ink: a soft pencil's grey ring round a number written
harder. The ink floor leaves it out, so no other check sees it; left alone, the number reads
plain and sure and the guard is lost without a word. Looked for in the darkness itself,
round the number: along each of RAYS rays out from the number's middle, from just beyond the
number to the crop's edge, how far the darkness rises again after its lowest point so far
(taken together with the neighbouring rays: a ring is continuous). A ring rises so on most
rays, at about the same distance from one ray to the next; the blurred edge of a pale
number only falls away from it, and grain rises at scattered distances."""

from __future__ import annotations

import cv2
import numpy as np

from rnwprint.photo.ink import without_frame

RAYS = 48
#: a faint ring: on FAINT_RING_ROUND of the rays or more the darkness rises by FAINT_RING_STEP
#: of the ink floor or more, its highest rise within RING_JUMP_PX of the rays' either side. On
#: the tuning photos (bench_circled.py --circles faint, seeds 8000-8039, held-out MNIST
#: writers; bench_photo.py seeds 5000-5099, held-out MNIST and UCI writers), in photos seeing
#: the page at 3 px/mm or more, that found 95 of the 117 faint circles the other checks lost
#: and a ring round none of 2,850 plain numbers (the darkest point against the ray's median
#: instead: a stranger's pale, blurred pencil numbers took a ring for their own edges 70 times
#: in 835; without the frame taken away, a blurred photo took the outline's blur for one).
#: Under 3 px/mm (COARSE_BELOW) JPEG grain comes together into rings: there FAINT_RING_COARSE
#: of the rays (15 of 39 circles, none of 1,044 plain numbers)
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
    rays = rises_on_rays(dark, ink, floor)
    if rays is None:
        return False
    rise, radius = rays
    on_ring = (rise >= FAINT_RING_STEP) & (np.abs(radius - np.roll(radius, 1)) <= RING_JUMP_PX) & \
        (np.abs(radius - np.roll(radius, -1)) <= RING_JUMP_PX)
    return bool(on_ring.mean() >= (FAINT_RING_COARSE if coarse else FAINT_RING_ROUND))


def rises_on_rays(dark: np.ndarray, ink: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray] | None:
    """On each of RAYS rays from the number's middle, beyond the number: the highest rise of
    the darkness over its lowest point nearer the number (a share of the ink `floor`; 0 where
    the ray has no room beyond the number), and how far out that rise peaks (px). None where
    there is no number."""
    number = _number(ink > 0)
    if number is None:
        return None
    ys, xs = np.nonzero(number)
    middle = ((xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2)
    h, w = dark.shape
    radii = np.arange(int(np.hypot(h, w) / 2) + 2, dtype=np.float32)
    angles = np.arange(RAYS) * 2 * np.pi / RAYS
    mx = (middle[0] + np.cos(angles)[:, None] * radii).astype(np.float32)
    my = (middle[1] + np.sin(angles)[:, None] * radii).astype(np.float32)
    shade = without_frame(np.minimum(dark, floor).astype(np.float32)) / floor
    rays = cv2.remap(shade, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    rays = (np.roll(rays, 1, axis=0) + rays + np.roll(rays, -1, axis=0)) / 3
    grown = cv2.dilate(number.astype(np.uint8), np.ones((3, 3), np.uint8))
    on_number = cv2.remap(grown, mx, my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0) > 0
    beyond = np.where(on_number, radii + 1, 0).max(axis=1)
    beyond = np.max([np.roll(beyond, k) for k in range(-2, 3)], axis=0)  # a stroke seen between two rays
    in_crop = (mx >= 0) & (my >= 0) & (mx <= w - 1) & (my <= h - 1)
    looked = (radii >= beyond[:, None]) & in_crop
    room = looked.sum(axis=1) >= ROOM_PX
    lowest = np.minimum.accumulate(np.where(looked, rays, np.inf), axis=1)
    rises = np.where(looked, rays - lowest, -1.0)
    return np.where(room, rises.max(axis=1), 0.0), rises.argmax(axis=1)


def _number(pen: np.ndarray) -> np.ndarray | None:
    """The number: the largest piece of `pen` and the pieces whose middles lie within its
    bounding box grown by a fifth each way."""
    count, labels, stats, middles = cv2.connectedComponentsWithStats(pen.astype(np.uint8), connectivity=8)
    if count <= 1:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = stats[largest, :4]
    mx, my = middles[:, 0], middles[:, 1]
    kept = (mx >= x - 0.2 * w) & (mx <= x + 1.2 * w) & (my >= y - 0.2 * h) & (my <= y + 1.2 * h)
    kept[0] = False
    return kept[labels]
