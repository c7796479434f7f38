"""Issue 5 figures: time per stage of locating a sheet in a 12 MP phone photo, one core.

    python bench/bench_locate.py [--photos 10] [--megapixels 12] [--repeat 5]

Generates the photos first (tests/support/synth.py: the four games in turn, random tilt up
to 30 degrees, rotation, light, shadow, curl, blur, noise, JPEG 70-95), then times, for
each photo, the median of `repeat` runs of every stage, and prints the median over the
photos: wall-clock and CPU time (the machine may be shared; CPU time is what one core
spends). OpenCV is held to one thread. The last line is the whole read as `rnwprint read`
does it warm in a batch (`pipeline.read_photo`: the file decoded, the page found, the cells'
surroundings rectified, every cell read).
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import machine  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from rnwprint.games import GAMES  # noqa: E402
from rnwprint.photo import locate as L  # noqa: E402
from rnwprint.photo.identity import sheet_for  # noqa: E402
from rnwprint.photo.load import decode_photo  # noqa: E402
from rnwprint.photo.pipeline import read_photo  # noqa: E402
from rnwprint.photo.rectify import rectify, rectify_cells  # noqa: E402
from support.synth import random_marks, synthesize  # noqa: E402  (tests/support, on sys.path through common)

PX_PER_MM = 8.0


def stages(jpeg: bytes, path: pathlib.Path) -> dict[str, tuple[float, float]]:
    """(wall ms, CPU ms) of each stage for one photo (its file at `path`)."""
    out = {}

    def clock(name, fn):
        w, c = time.perf_counter(), time.process_time()
        result = fn()
        out[name] = ((time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000)
        return result

    w0, c0 = time.perf_counter(), time.process_time()
    grey = clock("decode JPEG (grey)", lambda: decode_photo(jpeg))
    fix = L.locate(grey)
    sheet = sheet_for(fix.identity)
    # locate's own stage timings are wall-clock; re-time its stages separately for CPU
    out["detect markers"] = (fix.timings["markers"], float("nan"))
    out["decode QR"] = (fix.timings["qr"], float("nan"))
    out["sheet (cached)"] = (fix.timings["sheet"], float("nan"))
    out["homography"] = (fix.timings["homography"], float("nan"))
    clock("rectify page 8 px/mm", lambda: rectify(grey, fix, sheet, PX_PER_MM))
    out["total: decode + locate + rectify page"] = ((time.perf_counter() - w0) * 1000,
                                                    (time.process_time() - c0) * 1000)
    clock("rectify cells only", lambda: rectify_cells(grey, fix, sheet, PX_PER_MM))
    clock("locate (all its stages)", lambda: L.locate(grey))
    clock("whole read: read_photo (file to every cell)", lambda: read_photo(path))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=10)
    parser.add_argument("--megapixels", type=float, default=12.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"machine: {machine()}; OpenCV {cv2.__version__} on 1 thread, numpy {np.__version__}")

    games = list(GAMES.values())
    photos = []
    start = time.perf_counter()
    for i in range(args.photos):
        game = games[i % len(games)]
        sheet = game.build(game.default_variant, "en", "a4")
        photo = synthesize(sheet, random_marks(sheet, i), seed=i, megapixels=args.megapixels)
        photos.append((game.name, photo))
    w, h = photos[0][1].truth.size
    print(f"{args.photos} photos of {w}x{h} ({args.megapixels:g} MP), generated in "
          f"{time.perf_counter() - start:.1f} s; JPEG sizes "
          f"{min(len(p.jpeg) for _, p in photos) // 1000}-{max(len(p.jpeg) for _, p in photos) // 1000} KB")

    folder = tempfile.TemporaryDirectory()
    paths = []
    for i, (_, photo) in enumerate(photos):
        paths.append(pathlib.Path(folder.name, f"{i}.jpg"))
        paths[-1].write_bytes(photo.jpeg)
    for (_, photo), path in zip(photos, paths):  # warm up: rebuild and cache every sheet, load OpenCV's code
        stages(photo.jpeg, path)
    per_photo: list[dict[str, tuple[float, float]]] = []
    for (name, photo), path in zip(photos, paths):
        runs = [stages(photo.jpeg, path) for _ in range(args.repeat)]
        per_photo.append({k: (statistics.median(r[k][0] for r in runs),
                              statistics.median(r[k][1] for r in runs)) for k in runs[0]})
        fix = L.locate(decode_photo(photo.jpeg))
        print(f"  {name:16s} tilt {photo.truth.tilt:4.1f} deg  markers {fix.markers}  "
              f"fit {fix.error_mm:.2f} mm  {fix.px_per_mm:.1f} px/mm")

    print(f"\nmedian over {len(photos)} photos of the per-photo median of {args.repeat} runs:")
    print(f"  {'stage':40s} {'wall ms':>8s} {'CPU ms':>8s}")
    for key in per_photo[0]:
        wall = statistics.median(p[key][0] for p in per_photo)
        cpu = [p[key][1] for p in per_photo if not np.isnan(p[key][1])]
        cpu_text = f"{statistics.median(cpu):8.1f}" if cpu else f"{'':8s}"
        print(f"  {key:40s} {wall:8.1f} {cpu_text}")
    print("target: <= 60 ms per 12 MP photo warm for the whole read (issue 15; issue 5 asked <= 300)")


if __name__ == "__main__":
    main()
