"""Page mm -> image px homographies: least-squares fits (with outliers left out) and
their residuals and scale. Split out of photo.locate."""

from __future__ import annotations

import numpy as np

OUTLIER_MM = 0.5  # a fitted point this far off (and 3x the median) is left out


def _fit(src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
    """Least-squares homography src (page mm) -> dst (image px)."""
    import cv2

    H, _ = cv2.findHomography(src.astype(np.float64), dst.astype(np.float64), 0)
    if H is None or not np.all(np.isfinite(H)) or abs(np.linalg.det(H)) < 1e-12:
        return None
    return H / H[2, 2]


def _fit_robust(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """Least squares, then once more without the points far worse than the rest (at most
    a quarter of them): a corner pulled off by a shadow's edge or a smudge."""
    keep = np.ones(len(src), bool)
    H = _fit(src, dst)
    if H is None:
        return None, keep
    residuals = _residuals_mm(H, src, dst)
    limit = max(OUTLIER_MM, 3 * median(residuals))
    bad = residuals > limit
    if bad.any() and bad.sum() <= len(src) // 4:
        keep = ~bad
        H2 = _fit(src[keep], dst[keep])
        if H2 is not None:
            return H2, keep
        keep[:] = True
    return H, keep


def median(values: np.ndarray) -> float:
    """np.median of a 1-d array (np.median's first call imports numpy.ma: 20 ms of a cold start)."""
    v = np.sort(np.asarray(values).ravel())
    n = len(v)
    return float((v[(n - 1) // 2] + v[n // 2]) / 2)


def _apply(H: np.ndarray, p: np.ndarray) -> np.ndarray:
    q = np.column_stack([p, np.ones(len(p))]) @ H.T
    return q[:, :2] / q[:, 2:3]


def _residuals_mm(H: np.ndarray, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    back = _apply(np.linalg.inv(H), dst)
    return np.hypot(*(back - src).T)


def _rms(H: np.ndarray, src: np.ndarray, dst: np.ndarray) -> float:
    return float(np.sqrt(np.mean(_residuals_mm(H, src, dst) ** 2)))


def _scale(H: np.ndarray, p: np.ndarray) -> float:
    """Image px per page mm at page point p (geometric mean of the two axes)."""
    q = _apply(H, np.array([p, p + (1, 0), p + (0, 1)]))
    (ax, ay), (bx, by) = q[1] - q[0], q[2] - q[0]
    return float(np.sqrt(abs(ax * by - ay * bx)))


# --------------------------------------------------------------------------- rectifying
