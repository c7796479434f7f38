"""Unpack the handwriting fonts of npm's @fontsource packages (tools/digits_writers.py
NPM_FONTS, each at its pinned version) for training and measuring the digit reader:

    python tools/fetch_npm_fonts.py [DIR]

DIR defaults to digits_writers.NPM_FONT_DIR (RNWPRINT_NPM_FONTS, else
~/.cache/rnwprint/npm-fonts). Each package's Latin regular face (files/NAME-latin-400-normal.woff)
is written there; a font already there is not fetched again. Needs npm (npm pack). The fonts
are OFL or Apache licensed (each package's LICENSE); they are training data, not shipped.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from digits_writers import NPM_FONT_DIR, NPM_FONTS


def fetch(name: str, version: str, into: pathlib.Path) -> str:
    target = into / f"{name}-latin-400-normal.woff"
    if target.exists():
        return f"{name}: already there"
    with tempfile.TemporaryDirectory() as tmp:
        packed = subprocess.run(["npm", "pack", f"@fontsource/{name}@{version}", "--pack-destination", tmp],
                                capture_output=True, text=True, check=True).stdout.split()[-1]
        with tarfile.open(pathlib.Path(tmp) / packed) as tar:
            data = tar.extractfile(f"package/files/{target.name}").read()
    partial = target.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(target)
    return f"{name}: {len(data):,} bytes"


def main() -> None:
    into = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else NPM_FONT_DIR
    into.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(8) as pool:
        for line in pool.map(lambda item: fetch(*item, into), sorted(NPM_FONTS.items())):
            print(line)
    print(f"{len(NPM_FONTS)} fonts in {into}")


if __name__ == "__main__":
    main()
