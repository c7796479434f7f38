"""The rectify stage: the page, or parts of it (the cells), seen from straight above, warped
from the photo by the fit (photo.locate's PageFix) at a given number of pixels per millimetre.

Pixel convention (OpenCV's): integer image coordinates are pixel centres. In a rectified
image at r px/mm, pixel (col, row) covers page mm [col/r, (col+1)/r) x [row/r, (row+1)/r);
`to_pixels` converts page mm to its coordinates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rnwprint.core.sheet import Sheet

if TYPE_CHECKING:
    from rnwprint.photo.locate import PageFix


def to_pixels(points_mm, px_per_mm: float) -> np.ndarray:
    """Page mm -> pixel coordinates in a rectified image at px_per_mm (pixel centres integral)."""
    return np.asarray(points_mm, np.float64) * px_per_mm - 0.5


def rectify(image: np.ndarray, fix: PageFix, sheet: Sheet, px_per_mm: float = 8.0,
            region: tuple[float, float, float, float] | None = None) -> np.ndarray:
    """The page seen from straight above: grey uint8, px_per_mm pixels per millimetre.

    `region` (x0, y0, x1, y1 in page mm) warps only that part of the page; its pixel (0, 0)
    is centred on page point (x0 + 0.5/r, y0 + 0.5/r). Outside the photo is white."""
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    x0, y0, x1, y1 = region if region is not None else (0.0, 0.0, sheet.width, sheet.height)
    r = float(px_per_mm)
    size = (max(1, int(round((x1 - x0) * r))), max(1, int(round((y1 - y0) * r))))
    # dst pixel (u, v) -> page mm ((u + 0.5) / r + x0, ...) -> image px by the homography
    S_inv = np.array([[1 / r, 0, x0 + 0.5 / r], [0, 1 / r, y0 + 0.5 / r], [0, 0, 1]])
    return cv2.warpPerspective(grey, fix.homography @ S_inv, size,
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=255)


def rectify_cells(image: np.ndarray, fix: PageFix, sheet: Sheet, px_per_mm: float = 8.0,
                  margin_mm: float = 1.0, ids=None) -> dict[str, tuple[np.ndarray, tuple[float, float]]]:
    """Top-down crops of the cells only (faster than the whole page when cells are few):
    cell id -> (grey image, its page origin (x0, y0) mm); each crop covers the cell's
    bounding box grown by margin_mm."""
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    out = {}
    for cell_id in (ids if ids is not None else sheet.cells):
        bx0, by0, bx1, by1 = sheet.cells[cell_id].bounds
        box = (bx0 - margin_mm, by0 - margin_mm, bx1 + margin_mm, by1 + margin_mm)
        out[cell_id] = (rectify(grey, fix, sheet, px_per_mm, box), box[:2])
    return out
