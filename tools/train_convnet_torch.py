"""Train the second and third convolutional networks shipped as rnwprint/assets/digits-convnet2.npz
and digits-convnet3.npz.

    python tools/train_digits.py --images /tmp/images.npz --cache DIR   # the training images
    python tools/train_convnet_torch.py /tmp/images.npz                 # the second, about 16 minutes on 2 cores
    python tools/train_convnet_torch.py /tmp/images.npz --seed 1 --out rnwprint/assets/digits-convnet3.npz

The same architecture as rnwprint/assets/digits-convnet.npz (rnwprint.photo.convnet: conv 5x5
16, pool, conv 3x3 32, pool, conv 3x3 64, 128 hidden units, 11 classes), trained on the same
503,398 images that tools/train_digits.py trains the shipped networks on, but each batch
shaken afresh on the fly, more widely than `train_digits.py --shaken` does: three in ten
left as they are, the rest sheared by up to 0.4 (about 22 degrees), turned by up to 12
degrees, scaled by up to 12 %, stretched or squeezed sideways by up to 15 % and moved by up
to 3 % of the image, half of them bent by a smooth random field (elastic distortion), and
15 % thickened, 12 % thinned by a pixel. Label smoothing, AdamW and a one-cycle learning rate,
as the numpy trainers use. The reader averages the three networks' probabilities for its
second opinion (rnwprint.photo.digits.convnet_probabilities): on photos of writers outside
the training data this reads more cells right with fewer wrong and not flagged than fewer
networks (BENCHMARKS.md, "Two convolutional networks", "A third convolutional network").

`--more PATH` adds training images of the same form (tools/digits_strokes.py writes such);
measured with the third network's recipe and not shipped (BENCHMARKS.md, "Digits drawn
stroke by stroke").

Needs PyTorch (``pip install torch``; only this tool does: the reader runs the network with
numpy). Seeded; the run in BENCHMARKS.md used `--threads 2` and PyTorch 2.13.0 (CPU). Checked
2026-12-04 on another machine of the same kind: `train_digits.py --cache DIR --images PATH`
then this tool with `--threads 2` wrote the shipped digits-convnet2.npz byte for byte.
PyTorch promises bitwise reproducibility only for the same build and hardware.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "rnwprint" / "assets" / "digits-convnet2.npz"
CLASSES = 11  # "0".."9" and "X"; a label of 11 is a crop that holds no character (uniform target)
CHANNELS, HIDDEN = (16, 32, 64), 128
EPOCHS, BATCH, LEARNING_RATE, WEIGHT_DECAY, LABEL_SMOOTHING = 6, 128, 2e-3, 1e-2, 0.05
#: share of images shaken; of those bent (elastic); of all, thickened and thinned
SHAKEN, ELASTIC, THICKER, THINNER = 0.7, 0.5, 0.15, 0.12
SHEAR, TURN_DEG, SCALE, STRETCH, MOVE, BEND = 0.4, 12.0, 0.12, 0.15, 0.06, 0.05


class Net(nn.Module):
    """rnwprint.photo.convnet's layers; flattened in (row, column, channel) order as it does.
    `cells`: the last layer's pixels (7 x 7 of a 28 x 28 image); `classes`: the outputs."""

    def __init__(self, cells: int = 49, classes: int = CLASSES):
        super().__init__()
        c1, c2, c3 = CHANNELS
        self.c1 = nn.Conv2d(1, c1, 5, padding=2)
        self.c2 = nn.Conv2d(c1, c2, 3, padding=1)
        self.c3 = nn.Conv2d(c2, c3, 3, padding=1)
        self.f1 = nn.Linear(cells * c3, HIDDEN)
        self.f2 = nn.Linear(HIDDEN, classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.relu(self.c3(x)).permute(0, 2, 3, 1).reshape(len(x), -1)
        return self.f2(F.relu(self.f1(x)))


def shaken(batch: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """The (n, 1, 28, 28) batch sheared, turned, scaled, stretched, moved, bent, thickened or
    thinned, each image its own way (see the module's text)."""
    n = len(batch)
    on = (torch.rand(n, generator=g) < SHAKEN).float()
    shear = (torch.rand(n, generator=g) * 2 - 1) * SHEAR * on
    turn = (torch.rand(n, generator=g) * 2 - 1) * math.radians(TURN_DEG) * on
    scale = 1 + (torch.rand(n, generator=g) * 2 - 1) * SCALE * on
    stretch = 1 + (torch.rand(n, generator=g) * 2 - 1) * STRETCH * on
    cos, sin = torch.cos(turn), torch.sin(turn)
    affine = torch.zeros(n, 2, 3)
    affine[:, 0, 0] = cos / scale * stretch
    affine[:, 0, 1] = (-sin + shear) / scale
    affine[:, 1, 0] = sin / scale
    affine[:, 1, 1] = cos / scale
    affine[:, :, 2] = (torch.rand(n, 2, generator=g) * 2 - 1) * MOVE * on[:, None]
    grid = F.affine_grid(affine, batch.shape, align_corners=False)
    bent = (torch.rand(n, generator=g) < ELASTIC).float()
    field = torch.randn(n, 2, 4, 4, generator=g) * BEND * bent[:, None, None, None]
    grid = grid + F.interpolate(field, size=(28, 28), mode="bicubic", align_corners=False).permute(0, 2, 3, 1)
    out = F.grid_sample(batch, grid, align_corners=False, padding_mode="zeros")
    pick = torch.rand(n, generator=g)[:, None, None, None]
    out = torch.where(pick < THICKER, F.max_pool2d(out, 3, 1, 1), out)
    return torch.where((pick >= THICKER) & (pick < THICKER + THINNER), -F.max_pool2d(-out, 3, 1, 1), out)


def targets(labels: torch.Tensor) -> torch.Tensor:
    """Smoothed one-hot rows; a crop with no character aims at the uniform row."""
    t = torch.full((len(labels), CLASSES), LABEL_SMOOTHING / CLASSES)
    known = labels < CLASSES
    t[known] += F.one_hot(labels[known], CLASSES) * (1 - LABEL_SMOOTHING)
    t[~known] = 1.0 / CLASSES
    return t


def train(x: torch.Tensor, y: torch.Tensor, seed: int, log=print) -> Net:
    torch.manual_seed(seed)
    net = Net()
    g = torch.Generator().manual_seed(seed + 1)
    opt = torch.optim.AdamW(net.parameters(), lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    n = len(x)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=LEARNING_RATE, total_steps=EPOCHS * (n // BATCH),
                                                pct_start=0.05)
    for epoch in range(EPOCHS):
        order = torch.randperm(n, generator=g)
        total = 0.0
        for s in range(0, n - BATCH + 1, BATCH):
            idx = order[s:s + BATCH]
            loss = -(targets(y[idx]) * F.log_softmax(net(shaken(x[idx][:, None], g)), 1)).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * BATCH
        log(f"epoch {epoch + 1}/{EPOCHS} loss {total / n:.4f}")
    return net


def exported(net: Net) -> dict[str, np.ndarray]:
    """The weights as rnwprint.photo.convnet reads them: kernels (rows, columns, in, out),
    dense layers (in, out), float16."""
    w = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    out = {}
    for layer, (weights, bias) in {"1": ("c1", "b1"), "2": ("c2", "b2"), "3": ("c3", "b3")}.items():
        out[weights] = w[f"c{layer}.weight"].transpose(2, 3, 1, 0)
        out[bias] = w[f"c{layer}.bias"]
    out["f1"], out["g1"] = w["f1.weight"].T, w["f1.bias"]
    out["f2"], out["g2"] = w["f2.weight"].T, w["f2.bias"]
    return {k: np.ascontiguousarray(v).astype(np.float16) for k, v in out.items()}


def _images(path: str) -> tuple[torch.Tensor, torch.Tensor]:
    """The training images (x) and labels (y) of a file as train_digits.py --images writes it."""
    with np.load(path) as data:
        return torch.from_numpy(np.asarray(data["x"], np.float32)), torch.from_numpy(data["y"].astype(np.int64))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("images", help="the training images, as `train_digits.py --images` writes them")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--more", metavar="PATH", help="more training images (x, y), e.g. from tools/digits_strokes.py")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    start = time.perf_counter()
    sets = [_images(path) for path in (args.images, args.more) if path]
    x, y = (torch.cat([s[k] for s in sets]) for k in (0, 1))
    net = train(x, y, args.seed, lambda msg: print(f"[{time.perf_counter() - start:6.0f}s] {msg}", flush=True))
    np.savez(args.out, **exported(net))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
