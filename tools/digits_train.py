"""The digit classifier's networks, trained with numpy alone (tools/train_digits.py): a
one-hidden-layer ReLU network on the features of rnwprint.photo.digits and the small
convolutional network of rnwprint.photo.convnet with its backpropagation written out; both
softmax cross-entropy with label smoothing, AdamW, cosine learning rate, seeded."""

from __future__ import annotations

import cv2
import numpy as np
from digits_data import NOT_A_CHARACTER, D  # noqa: F401  (D: rnwprint.photo.digits)

from rnwprint.photo import convnet

HIDDEN = 320  # per network
NETS = 3  # ensemble size
EPOCHS = 12
BATCH = 128
LEARNING_RATE = 2e-3
WEIGHT_DECAY = 0.3  # decoupled (AdamW-style): each step shrinks weights by lr * this
LABEL_SMOOTHING = 0.05  # softer targets: confidences worth thresholding
#: the convolutional network (rnwprint.photo.convnet), trained on the same images
CONV_CHANNELS, CONV_HIDDEN, CONV_EPOCHS = (16, 32, 64), 128, 4
CONV_WEIGHT_DECAY = 1e-4
#: train_digits.py --shaken (measured, not shipped: BENCHMARKS): every batch the convolutional
#: network sees is shaken afresh: SHAKEN of its images sheared by up to SHEAR (about 19
#: degrees), turned by up to TURN degrees and scaled by up to SCALE, and THICKER of them
#: thickened by a pixel, as many thinned
SHAKEN, SHEAR, TURN, SCALE, THICKER = 0.6, 0.35, 10.0, 0.1, 0.15

def _targets(labels: np.ndarray) -> np.ndarray:
    """Smoothed one-hot targets; a crop that is no character (NOT_A_CHARACTER) aims at the
    uniform row."""
    k = len(D.CLASSES)
    target = np.full((len(labels), k), LABEL_SMOOTHING / k, np.float32)
    known = labels < k
    target[np.flatnonzero(known), labels[known]] += 1 - LABEL_SMOOTHING
    target[~known] = 1.0 / k
    return target


def train_net(x: np.ndarray, y: np.ndarray, seed: int, log=print) -> dict[str, np.ndarray]:
    """One-hidden-layer ReLU network, softmax cross-entropy, AdamW, cosine learning rate."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    k = len(D.CLASSES)
    w1 = (rng.standard_normal((d, HIDDEN)) * np.sqrt(2.0 / d)).astype(np.float32)
    b1 = np.zeros(HIDDEN, np.float32)
    w2 = (rng.standard_normal((HIDDEN, k)) * np.sqrt(1.0 / HIDDEN)).astype(np.float32)
    b2 = np.zeros(k, np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    steps = EPOCHS * ((n + BATCH - 1) // BATCH)
    t = 0
    for epoch in range(EPOCHS):
        order = rng.permutation(n)
        loss_sum = 0.0
        for s in range(0, n, BATCH):
            idx = order[s : s + BATCH]
            xb, yb = x[idx], y[idx]
            bs = len(idx)
            h_pre = xb @ w1 + b1
            h = np.maximum(h_pre, 0)
            z = h @ w2 + b2
            p = D.softmax(z)
            tgt = _targets(yb)
            loss_sum += float(-(tgt * np.log(p + 1e-12)).sum())
            gz = (p - tgt) / bs
            gw2 = h.T @ gz
            gb2 = gz.sum(axis=0)
            gh = (gz @ w2.T) * (h_pre > 0)
            gw1 = xb.T @ gh
            gb1 = gh.sum(axis=0)
            t += 1
            lr = LEARNING_RATE * 0.5 * (1 + np.cos(np.pi * t / steps))
            for i, (pa, g) in enumerate(zip(params, (gw1, gb1, gw2, gb2))):
                m[i] = beta1 * m[i] + (1 - beta1) * g
                v[i] = beta2 * v[i] + (1 - beta2) * g * g
                mhat = m[i] / (1 - beta1**t)
                vhat = v[i] / (1 - beta2**t)
                if pa.ndim == 2:
                    pa -= np.float32(lr * WEIGHT_DECAY) * pa
                pa -= (lr * mhat / (np.sqrt(vhat) + eps)).astype(np.float32)
        log(f"  net {seed}: epoch {epoch + 1}/{EPOCHS} loss {loss_sum / n:.4f}")
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2}


def convnet_init(seed: int, channels=CONV_CHANNELS, hidden: int = CONV_HIDDEN) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    c1, c2, c3 = channels

    def he(*shape):
        fan = int(np.prod(shape[:-1]))
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan)).astype(np.float32)

    return {"c1": he(5, 5, 1, c1), "b1": np.zeros(c1, np.float32), "c2": he(3, 3, c1, c2),
            "b2": np.zeros(c2, np.float32), "c3": he(3, 3, c2, c3), "b3": np.zeros(c3, np.float32),
            "f1": he(7 * 7 * c3, hidden), "g1": np.zeros(hidden, np.float32),
            "f2": he(hidden, len(D.CLASSES)) * np.float32(0.5), "g2": np.zeros(len(D.CLASSES), np.float32)}


def _unpatch(g: np.ndarray, shape: tuple[int, ...], k: int) -> np.ndarray:
    """The gradient of convnet.patches: each patch's gradient added back where it came from."""
    p = k // 2
    n, h, w, c = shape
    g = g.reshape(n, h, w, k * k, c)
    out = np.zeros((n, h + 2 * p, w + 2 * p, c), np.float32)
    for i in range(k):
        for j in range(k):
            out[:, i:i + h, j:j + w, :] += g[:, :, :, i * k + j, :]
    return out[:, p:p + h, p:p + w, :]


def _unpool(g: np.ndarray, before: np.ndarray) -> np.ndarray:
    """The gradient of convnet.pool: to the largest of each 2 x 2 block (a tie is a ReLU
    zero, whose gradient the caller zeroes anyway)."""
    n, h, w, c = before.shape
    blocks = before.reshape(n, h // 2, 2, w // 2, 2, c)
    top = blocks == blocks.max(axis=(2, 4), keepdims=True)
    return (top * g[:, :, None, :, None, :]).reshape(n, h, w, c)


def convnet_gradients(params: dict[str, np.ndarray], x: np.ndarray,
                      target: np.ndarray) -> tuple[float, dict[str, np.ndarray]]:
    """Cross-entropy loss (summed) and its gradients (averaged over the batch)."""
    n = len(x)
    p1 = convnet.patches(x[..., None], 5)
    a1 = convnet.conv_patches(p1, params["c1"], params["b1"], (n, 28, 28))
    p2 = convnet.patches(convnet.pool(a1), 3)
    a2 = convnet.conv_patches(p2, params["c2"], params["b2"], (n, 14, 14))
    p3 = convnet.patches(convnet.pool(a2), 3)
    a3 = convnet.conv_patches(p3, params["c3"], params["b3"], (n, 7, 7)).reshape(n, -1)
    h = np.maximum(a3 @ params["f1"] + params["g1"], 0)
    prob = D.softmax(h @ params["f2"] + params["g2"])
    loss = float(-(target * np.log(prob + 1e-12)).sum())
    g = {}
    gz = ((prob - target) / n).astype(np.float32)
    g["f2"], g["g2"] = h.T @ gz, gz.sum(axis=0)
    gh = (gz @ params["f2"].T) * (h > 0)
    g["f1"], g["g1"] = a3.T @ gh, gh.sum(axis=0)
    grad = ((gh @ params["f1"].T) * (a3 > 0)).reshape(-1, params["c3"].shape[3])
    # down through each convolution: its input's gradient, through the pool and ReLU below
    for layer, bias, patches, below in (("c3", "b3", p3, a2), ("c2", "b2", p2, a1), ("c1", "b1", p1, None)):
        w = params[layer]
        g[layer], g[bias] = (patches.T @ grad).reshape(w.shape), grad.sum(axis=0)
        if below is None:
            break
        _, side, _, channels = below.shape
        pooled = (n, side // 2, side // 2, channels)
        grad = _unpool(_unpatch(grad @ w.reshape(-1, w.shape[3]).T, pooled, w.shape[0]), below)
        grad = (grad * (below > 0)).reshape(-1, channels)
    return loss, g


def _shaken(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A batch of normalised images, each randomly sheared, turned, scaled (about the
    middle), thickened or thinned as SHAKEN ... THICKER say."""
    out = batch.copy()
    pixel = np.ones((2, 2), np.uint8)
    middle = np.full(2, (D.SIZE - 1) / 2)
    for i in range(len(out)):
        if rng.random() < SHAKEN:
            shear = rng.uniform(-SHEAR, SHEAR)
            turn = np.deg2rad(rng.uniform(-TURN, TURN))
            scale = rng.uniform(1 - SCALE, 1 + SCALE)
            c, s = np.cos(turn) * scale, np.sin(turn) * scale
            a = np.array([[c, -s], [s, c]], np.float32) @ np.array([[1, shear], [0, 1]], np.float32)
            # digits_data._warp does this in float64: these float32 sums are the measured run's bytes
            m = np.hstack([a, (middle - a @ middle)[:, None]]).astype(np.float32)
            out[i] = cv2.warpAffine(out[i], m, (D.SIZE, D.SIZE), flags=cv2.INTER_LINEAR)
        u = rng.random()
        if u < THICKER:
            out[i] = cv2.dilate(out[i], pixel)
        elif u < 2 * THICKER:
            out[i] = cv2.erode(out[i], pixel)
    return out


def train_convnet(x: np.ndarray, y: np.ndarray, seed: int, log=print, epochs: int = CONV_EPOCHS,
                  shaken: bool = False, order_seed: int | None = None) -> dict[str, np.ndarray]:
    """The convolutional network on the normalised images (with `shaken`, each batch
    `_shaken`): AdamW, cosine learning rate, label smoothing, as train_net. `seed` starts the
    weights, `order_seed` (default: the same) the batches' order and shaking."""
    rng = np.random.default_rng(seed if order_seed is None else order_seed)
    params = convnet_init(seed)
    m = {name: np.zeros_like(p) for name, p in params.items()}  # Adam's running moments
    v = {name: np.zeros_like(p) for name, p in params.items()}
    n = len(x)
    steps = epochs * (n // BATCH)
    t = 0
    for epoch in range(epochs):
        order = rng.permutation(n)
        loss_sum = 0.0
        for s in range(0, n - BATCH + 1, BATCH):
            idx = np.sort(order[s:s + BATCH])
            batch = x[idx].astype(np.float32)
            loss, grads = convnet_gradients(params, _shaken(batch, rng) if shaken else batch, _targets(y[idx]))
            loss_sum += loss
            t += 1
            lr = LEARNING_RATE * 0.5 * (1 + np.cos(np.pi * t / steps))
            for name, p in params.items():
                m[name] = 0.9 * m[name] + 0.1 * grads[name]
                v[name] = 0.999 * v[name] + 0.001 * grads[name] * grads[name]
                step = (m[name] / (1 - 0.9**t)) / (np.sqrt(v[name] / (1 - 0.999**t)) + 1e-8)
                if p.ndim > 1:
                    step = step + CONV_WEIGHT_DECAY * p
                p -= (lr * step).astype(np.float32)
        log(f"  convnet: epoch {epoch + 1}/{epochs} loss {loss_sum / n:.4f}")
    return params
