"""Issue 14 figures: the time and peak memory to refuse the worst inputs, each a whole
`rnwprint` process (interpreter start-up and imports included).

    python bench/bench_refuse.py

Each input is written to a temporary folder, then refused RUNS times; a run's peak memory is
the child's maximum resident set size (os.wait4), its time the wall clock around it.
"""

from __future__ import annotations

import os
import pathlib
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import PYTHON, machine  # noqa: E402

RUNS = 5
TIME_LIMIT_S, MEMORY_LIMIT_MB = 1.0, 200


def png(width: int, height: int, colour_type: int) -> bytes:
    """A real PNG of width x height white pixels (8 bits a channel): every row is in the data,
    so a decoder that started would allocate the whole image."""
    channels = {0: 1, 2: 3, 6: 4}[colour_type]

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + b"\xff" * (width * channels)
    deflate = zlib.compressobj(1)
    data = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def inputs(folder: pathlib.Path) -> list[tuple[str, list[str]]]:
    """(what, rnwprint arguments) for each input, its file written into folder."""
    def put(name: str, data: bytes | str) -> str:
        path = folder / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return str(path)

    sheet = subprocess.run([PYTHON, "-m", "rnwprint", "template", "rolling-america"], check=True,
                           capture_output=True, text=True).stdout
    deep = 1000
    return [
        ("`tower --picture`: 30000x30000 grey PNG bomb", ["tower", "--picture", put("bomb.png", png(30000, 30000, 0))]),
        ("`tower --picture`: 13300x13300 RGBA PNG", ["tower", "--picture", put("rgba.png", png(13300, 13300, 6))]),
        ("`tower --ascii`: one line of 500,000 squares (1 MB)", ["tower", "--ascii", put("line.txt", "[]" * 500_000)]),
        ("`tower --ascii`: one line of 20,000 squares", ["tower", "--ascii", put("line20k.txt", "[]" * 20_000)]),
        ("`audit`: TOML nested 1,000 deep", ["audit", put("deep.toml", 'game = "twenty-one"\ncells = '
                                                      + "[" * deep + "]" * deep + "\n")]),
        ("`audit`: JSON nested 1,000 deep", ["audit", put("deep.json", '{"game": "twenty-one", "cells": '
                                                      + "[" * deep + "]" * deep + "}")]),
        ("`audit --log`: log nested 1,000 deep", ["audit", put("sheet.toml", sheet), "--log",
                                                  put("log.toml", 'game = "rolling-america"\nturn = '
                                                      + "[" * deep + "]" * deep + "\n")]),
        ("`audit`: an integer of 5,000 digits", ["audit", put("big.toml", 'game = "twenty-one"\n[cells]\nR1C1 = '
                                                          + "9" * 5000 + "\n")]),
    ]


def run(args: list[str]) -> tuple[float, float, int, str]:
    """(seconds, peak MB, exit code, stderr) of one `rnwprint ARGS` process."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen([PYTHON, "-m", "rnwprint", *args], stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        message = err.read().decode("utf-8", "replace")
    return seconds, usage.ru_maxrss / 1024, child.returncode, message


def main() -> None:
    print(f"machine: {machine()}")
    baseline = [run(["--version"]) for _ in range(RUNS)]
    print(f"`rnwprint --version` (start-up alone), median of {RUNS}: "
          f"{statistics.median(r[0] for r in baseline):.2f} s, {max(r[1] for r in baseline):.0f} MB")
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        cases = inputs(pathlib.Path(tmp))
        print(f"(inputs written in {time.perf_counter() - start:.1f} s)")
        failed = False
        for what, args in cases:
            runs = [run(args) for _ in range(RUNS)]
            seconds = statistics.median(r[0] for r in runs)
            peak = max(r[1] for r in runs)
            codes = {r[2] for r in runs}
            lines = runs[0][3].strip().splitlines()
            ok = codes == {2} and len(lines) == 1 and seconds <= TIME_LIMIT_S and peak <= MEMORY_LIMIT_MB
            failed |= not ok
            print(f"{what}: {seconds:.2f} s median of {RUNS}, peak {peak:.0f} MB, exit {sorted(codes)}, "
                  f"{'ok' if ok else 'OVER'}\n    {lines[0] if lines else '(nothing on stderr)'}")
    print(f"targets: each <= {TIME_LIMIT_S:g} s and <= {MEMORY_LIMIT_MB} MB, one line on stderr, exit 2")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
