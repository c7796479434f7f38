"""Small helpers shared by the benchmark scripts: timing, a description of the machine, and
a photo exposed brighter or darker."""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time

# the test-photo generator lives in tests/support (not in the runtime package): `from support import synth`
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "tests"))


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def median_ms(fn, repeat: int = 30, warmup: int = 3, clock=time.perf_counter) -> float:
    """The median ms of `repeat` calls of fn after `warmup` ones, by `clock` (wall clock, or
    time.process_time for the CPU this process spent)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times) * 1000


def run_seconds(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def side_by_side_ratio(ours: list[str], baseline: list[str], rounds: int = 15) -> tuple[float, float, float]:
    """Median of ours/baseline over interleaved runs (so machine noise hits both alike)."""
    run_seconds(ours), run_seconds(baseline)  # warm the file cache
    pairs = [(run_seconds(ours), run_seconds(baseline)) for _ in range(rounds)]
    ratio = statistics.median(a / b for a, b in pairs)
    return ratio, statistics.median(a for a, _ in pairs), statistics.median(b for _, b in pairs)


PYTHON = sys.executable


def grainy(jpeg: bytes, sigma: float, seed: int = 7, quality: int = 95) -> bytes:
    """The photo with sensor noise of `sigma` grey levels added to every pixel and channel (what
    a phone shows in dim light), encoded again at `quality`."""
    import numpy as np

    return _changed(jpeg, lambda image: image + np.random.default_rng(seed).normal(0.0, sigma, image.shape), quality)


def exposed(jpeg: bytes, factor, quality: int = 95) -> bytes:
    """The photo with every pixel value multiplied by `factor` (one for all, or one per BGR
    channel), clipped to 0-255, encoded again at `quality`."""
    import numpy as np

    return _changed(jpeg, lambda image: image * np.asarray(factor, np.float32), quality)


def _changed(jpeg: bytes, change, quality: int) -> bytes:
    """The photo decoded (BGR, as floats), `change`d, clipped to 0-255 and encoded again."""
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).astype(np.float32)
    changed = np.clip(change(image), 0, 255).astype(np.uint8)
    return cv2.imencode(".jpg", changed, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
