"""Photos in other formats than JPEG and PNG: an iPhone's HEIC photos and scanned sheets in a
PDF. Time to decode and to read them, warm, one core.

    python bench/bench_formats.py [--megapixels 12] [--dpi 300] [--repeat 7]

HEIC: a phone photo of each of the four sheet kinds (tests/support/synth.py, `megapixels`)
encoded as HEIC from its JPEG (pillow-heif, quality 90); the median CPU time of decoding each
file (photo.load) and of the whole read, and whether the HEIC reads as the JPEG does.

PDF: each of the four sheet kinds is printed, filled in by the photo generator's hand, drawn flat
at `dpi` (a scanner's page: no perspective, no camera) and saved as a one-page PDF holding
that scan as a JPEG, in colour and in grey (Pillow, as scanners write them). For each, the
median of `repeat` runs: drawing the page (photo.pdf.render_page, 200 dpi) and the whole
read (pipeline.read_photo: drawing included), CPU time; and the filled cells read right,
wrong without a flag, and the cells marked unsure.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import machine, median_ms  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

from rnwprint.games import GAMES  # noqa: E402
from rnwprint.photo.pdf import render_page  # noqa: E402
from rnwprint.photo.pipeline import read_photo  # noqa: E402
from rnwprint.photo.load import load_photo  # noqa: E402
from support.synth import _PAGES, fill_page, make_photo, random_marks  # noqa: E402
from support.synth_ink import digit_source  # noqa: E402

SHEETS = (("twenty-one", "A"), ("rolling-america", "us"), ("rolling-espana", "es"), ("roll-to-the-top", "burj"))


def filled_sheet(name: str, variant: str, seed: int):
    """A sheet of the game and plausible marks for it (guards only where the game has them)."""
    game = GAMES[name]
    sheet = game.build(variant, "es", "a4")
    return sheet, random_marks(sheet, seed, circled=0.08 if game.allows_guarded else 0.0)


def scan(sheet, marks, dpi: int, seed: int):
    """The filled sheet as a flat RGB page at `dpi`."""
    page = _PAGES.get(sheet, dpi).copy()
    fill_page(page, sheet, marks, np.random.default_rng(seed), "blue", digit_source())
    return Image.fromarray(page)


def cpu_ms(fn, repeat: int) -> float:
    return median_ms(fn, repeat, warmup=0, clock=time.process_time)


def heic(folder: pathlib.Path, megapixels: float, repeat: int) -> None:
    import pillow_heif

    print(f"{megapixels:g} MP photos, JPEG against HEIC:")
    for seed, (name, variant) in enumerate(SHEETS):
        sheet, marks = filled_sheet(name, variant, seed)
        jpeg, heif = folder / f"{name}.jpg", folder / f"{name}.heic"
        jpeg.write_bytes(make_photo(sheet, marks, seed=seed, megapixels=megapixels))
        pillow_heif.from_pillow(Image.open(jpeg)).save(heif, quality=90)
        same = agreement(read_photo(jpeg), read_photo(heif))
        times = {path: (cpu_ms(lambda: load_photo(path), repeat), cpu_ms(lambda: read_photo(path), repeat))
                 for path in (jpeg, heif)}
        print(f"  {name:16s} decode JPEG {times[jpeg][0]:6.1f} HEIC {times[heif][0]:6.1f}  "
              f"read JPEG {times[jpeg][1]:6.1f} HEIC {times[heif][1]:6.1f}  "
              f"{same}")


def agreement(one, other) -> str:
    """Whether two reads of one sheet read the same: every cell, or every cell but some read
    unsure both times (the two decoders' few grey levels apart tip a doubtful stroke either way)."""
    differ = [cid for cid, read in one.reads.items() if read.value != other.reads[cid].value]
    if not differ:
        return "the same cells read"
    if all(one.reads[cid].unsure and other.reads[cid].unsure for cid in differ):
        return f"the same cells read but {len(differ)} unsure both times"
    return "OTHER CELLS READ"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megapixels", type=float, default=12.0)
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"machine: {machine()}; median of {args.repeat} runs, CPU ms")
    with tempfile.TemporaryDirectory() as tmp:
        heic(pathlib.Path(tmp), args.megapixels, args.repeat)
        print(f"scans at {args.dpi} dpi in a PDF, drawn at 200 dpi:")
        for seed, (name, variant) in enumerate(SHEETS):
            sheet, marks = filled_sheet(name, variant, seed)
            image = scan(sheet, marks, args.dpi, seed)
            for mode in ("RGB", "L"):
                path = pathlib.Path(tmp) / f"{name}-{mode}.pdf"
                image.convert(mode).save(path, resolution=args.dpi, quality=90)
                result = read_photo(path)  # warm: the sheet and the networks loaded
                filled = [cid for cid in result.reads if marks.get(cid) not in (None, False)]
                right = sum(result.reads[cid].value == marks[cid] for cid in filled)
                silent = sum(r.value != marks.get(cid) and not r.unsure and marks.get(cid) not in (None, False)
                             for cid, r in result.reads.items())
                draw = cpu_ms(lambda: render_page(path), args.repeat)
                read = cpu_ms(lambda: read_photo(path), args.repeat)
                print(f"  {name:16s} {'colour' if mode == 'RGB' else 'grey':6s} draw {draw:6.1f}  read {read:6.1f}  "
                      f"filled cells read right {right}/{len(filled)}, wrong and not flagged {silent}, unsure {len(result.unsure)}")


if __name__ == "__main__":
    main()
