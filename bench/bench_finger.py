"""A finger over the page: how many written cells a fingertip hides without a flag.

    python bench/bench_finger.py                # 24 photos (seeds 100-123), one fingertip each
    python bench/bench_finger.py --check-off    # the same, the covered check off (as before it)
    python bench/bench_finger.py --clear 7040 7140   # bench_photo's photos, no finger: boxes flagged covered

Each photo (synth.make_photo: the four sheets in turn, 2-12 MP) is read, then read again with
a fingertip laid over one of its number boxes: a band of skin colour (one of four tones), as
wide as 1.6 boxes, coming from a random direction and reaching 0.5 to 2 half-boxes past the
box's middle, its edge soft (a photo whose QR code or marker it hides is refused, and counted so). Counted: the numbers read right on the clear photo that the
fingered one reads otherwise without a flag (hidden silently), and those it flags. With
--clear, bench_photo's own photos (no finger) are read and the boxes flagged as covered counted.
"""

from __future__ import annotations

import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image, ImageDraw, ImageFilter  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from bench_photo import photo_set  # noqa: E402
from common import machine  # noqa: E402

from rnwprint.core.errors import RnwError  # noqa: E402
from rnwprint.games import GAMES  # noqa: E402
from rnwprint.photo.light import LIGHT_WHY  # noqa: E402
from rnwprint.photo.pipeline import read_photo  # noqa: E402
from support import synth  # noqa: E402  (tests/support, on sys.path through common)

SHEETS = ("rolling-america", "twenty-one", "roll-to-the-top", "rolling-espana")
SKIN = ((196, 140, 112), (120, 80, 60), (230, 190, 170), (160, 110, 90))


def fingered(path: pathlib.Path, result, cell, rng) -> Image.Image:
    """The photo with a fingertip over `cell` (see the module's docstring)."""
    x0, y0, x1, y1 = cell.bounds
    (ax, ay), (bx, by) = result.fix.to_image([(x0, y0), (x1, y1)])
    middle, half = np.array([(ax + bx) / 2, (ay + by) / 2]), float(max(abs(bx - ax), abs(by - ay)) / 2)
    reach, angle = float(rng.choice([0.5, 0.8, 1.2, 2.0])), rng.uniform(0, 2 * np.pi)
    way = np.array([np.cos(angle), np.sin(angle)])
    tip, root, wide = middle + way * half * (1.6 - reach), middle + way * half * 7.6, half * 1.6
    image = Image.open(path).convert("RGB")
    mask = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(mask)
    draw.line([tuple(tip), tuple(root)], fill=255, width=int(2 * wide))
    draw.ellipse((tip[0] - wide, tip[1] - wide, tip[0] + wide, tip[1] + wide), fill=255)
    skin = tuple(int(v) for v in SKIN[int(rng.integers(len(SKIN)))])
    return Image.composite(Image.new("RGB", image.size, skin), image, mask.filter(ImageFilter.GaussianBlur(half * 0.15)))


def fingers(seeds, folder: pathlib.Path) -> None:
    rng = np.random.default_rng(0)
    hidden = flagged = photos = refused = 0
    for seed in seeds:
        game = GAMES[SHEETS[seed % len(SHEETS)]]
        sheet = game.build(game.default_variant, "en", "a4")
        marks = synth.random_marks(sheet, seed)
        path = folder / f"{seed}.jpg"
        path.write_bytes(synth.make_photo(sheet, marks, seed=seed, megapixels=float(rng.choice([2.0, 4.0, 8.0, 12.0]))))
        clear = read_photo(path)
        numbers = [c for c in sheet.cells.values() if c.kind == "number"]
        fingered(path, clear, numbers[int(rng.integers(len(numbers)))], rng).save(folder / "f.jpg", quality=90)
        try:
            seen = read_photo(folder / "f.jpg")
        except RnwError:  # the finger over the QR code or a marker: the photo refused, nothing misread
            refused += 1
            continue
        photos += 1
        for cid, cell in sheet.cells.items():
            right = not clear.reads[cid].unsure and clear.reads[cid].value == marks.get(cid)
            if cell.kind != "number" or not right or seen.reads[cid].value == marks.get(cid):
                continue
            flagged += seen.reads[cid].unsure
            hidden += not seen.reads[cid].unsure
    print(f"{photos} photos with a fingertip read ({refused} refused): {hidden} numbers read otherwise without a "
          f"flag, {flagged} flagged")


def clear_photos(first: int, last: int, folder: pathlib.Path) -> None:
    boxes = covered = 0
    for path, sheet, _, mp in photo_set(range(first, last), folder):
        result = read_photo(path)
        boxes += len(result.reads)
        named = [cid for cid, r in result.reads.items() if r.why == LIGHT_WHY["covered"]]
        covered += len(named)
        if named:
            print(f"  {path.name} ({mp:g} MP): {', '.join(named)}")
    print(f"seeds {first}-{last - 1}, no finger: {covered} of {boxes} boxes flagged as covered")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=24)
    parser.add_argument("--first-seed", type=int, default=100)
    parser.add_argument("--check-off", action="store_true", help="no box judged covered (as before the check)")
    parser.add_argument("--clear", type=int, nargs=2, metavar=("FIRST", "END"), help="bench_photo's seeds, no finger")
    args = parser.parse_args()
    if args.check_off:
        import rnwprint.photo.read as photo_read

        photo_read.COVERED = 1.0
    print(machine())
    with tempfile.TemporaryDirectory() as tmp:
        if args.clear:
            clear_photos(*args.clear, pathlib.Path(tmp))
        else:
            fingers(range(args.first_seed, args.first_seed + args.photos), pathlib.Path(tmp))


if __name__ == "__main__":
    main()
