"""A small convolutional network over normalised 28x28 digit images, numpy only.

conv 5x5 (1 -> C1) ReLU, max-pool 2; conv 3x3 (C1 -> C2) ReLU, max-pool 2; conv 3x3
(C2 -> C3) ReLU; fully connected (7*7*C3 -> H) ReLU; fully connected (H -> classes).
Convolutions keep the image size (zero padding). Images are (n, rows, columns, channels);
weights are (kernel rows, kernel columns, in, out), as ``tools/train_digits.py`` trains them.
The reader asks it for a second opinion on the cells the feature network is unsure of.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

LAYERS = ("c1", "b1", "c2", "b2", "c3", "b3", "f1", "g1", "f2", "g2")


def patches(x: np.ndarray, k: int) -> np.ndarray:
    """(n, h, w, c) -> (n*h*w, k*k*c): each pixel's k x k neighbourhood (zero outside), in
    (kernel row, kernel column, channel) order, so a convolution is one matrix product."""
    p = k // 2
    n, h, w, c = x.shape
    padded = np.zeros((n, h + 2 * p, w + 2 * p, c), x.dtype)  # np.pad takes twice as long
    padded[:, p:p + h, p:p + w] = x
    s = padded.strides
    window = as_strided(padded, (n, h, w, k, k, c), (s[0], s[1], s[2], s[1], s[2], s[3]), writeable=False)
    return window.reshape(n * h * w, k * k * c)


def conv(x: np.ndarray, weights: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Convolution (same size) + ReLU."""
    return conv_patches(patches(x, weights.shape[0]), weights, bias, x.shape[:3])


def conv_patches(p: np.ndarray, weights: np.ndarray, bias: np.ndarray, size: tuple[int, ...]) -> np.ndarray:
    """``conv`` on the image's ``patches`` (training keeps them for the backward pass);
    `size` is (n, h, w) of the image."""
    y = p @ weights.reshape(p.shape[1], weights.shape[3]) + bias
    return np.maximum(y, 0, out=y).reshape(*size, weights.shape[3])


def pool(x: np.ndarray) -> np.ndarray:
    """Max over 2 x 2 blocks (of even-sized images: the four corners of each block compared
    elementwise, several times faster than numpy's max over two axes)."""
    return np.maximum(np.maximum(x[:, 0::2, 0::2], x[:, 0::2, 1::2]), np.maximum(x[:, 1::2, 0::2], x[:, 1::2, 1::2]))


def logits(params: dict[str, np.ndarray], images: np.ndarray, first: np.ndarray | None = None) -> np.ndarray:
    """(n, 28, 28) images -> (n, classes) logits. `first`: the images' ``patches`` for the
    first layer, when several networks read the same images."""
    x = np.asarray(images, np.float32)[..., None]
    if first is None:
        first = patches(x, params["c1"].shape[0])
    x = pool(conv_patches(first, params["c1"], params["b1"], x.shape[:3]))
    x = pool(conv(x, params["c2"], params["b2"]))
    x = conv(x, params["c3"], params["b3"]).reshape(len(x), -1)
    x = np.maximum(x @ params["f1"] + params["g1"], 0)
    return x @ params["f2"] + params["g2"]


def logits_of_each(nets: tuple[dict[str, np.ndarray], ...], images: np.ndarray) -> list[np.ndarray]:
    """Each network's ``logits`` of the same images, the first layer's patches taken once (all
    the networks' first kernels are of one size)."""
    first = patches(np.asarray(images, np.float32)[..., None], nets[0]["c1"].shape[0])
    return [logits(params, images, first) for params in nets]
