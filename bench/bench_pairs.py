"""Issue 15 diagnosis: where the two-digit cells' misreads come from.

    python bench/bench_pairs.py --writers european          # 40 Roll to the Top photos, seeds 5003, 5007, ...
    python bench/bench_pairs.py --writers uci --photos 20

Reads Roll to the Top photos (the sheet with two-digit cells) of bench_photo.py's tuning
seeds (5000 on: not the held-out figures' seeds) and, for each filled two-digit cell, tells
whether its ink was split in two pieces side by side (split.py's `apart`), and which digit
was misread: the tens or the units, by its true digit. A misread in cells cut cleanly in two
is the classifier's; one in cells read as one digit is the split's.
"""

from __future__ import annotations

import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse  # noqa: E402
import collections  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from bench_photo import SHEETS, TWO_DIGITS, kind_of, photo_set, truth_of, writers_npz  # noqa: E402
from common import machine  # noqa: E402

from rnwprint.photo import pipeline, read  # noqa: E402


def tower_seeds(count: int) -> range:
    """`count` tuning seeds whose photo is a Roll to the Top sheet (photo_set turns the sheets)."""
    first = 5000 + SHEETS.index("roll-to-the-top")
    return range(first, first + len(SHEETS) * count, len(SHEETS))


def two_digit_reads(seeds, writers: str | None, cache: str | None):
    """(truth, value, unsure, apart) of every filled two-digit cell."""
    seen = {}
    separate = read.separate

    def keep(*args, **kwargs):  # the written cells of the photo being read, for their `apart`
        reads, written = separate(*args, **kwargs)
        seen.update((w.cell.id, w.apart) for w in written)
        return reads, written

    read.separate = keep
    try:
        with tempfile.TemporaryDirectory() as tmp:
            handwriting = writers_npz(writers, cache, pathlib.Path(tmp)) if writers else None
            for path, sheet, marks, _ in photo_set(seeds, pathlib.Path(tmp), handwriting):
                seen.clear()
                for cell_id, cell_read in pipeline.read_photo(path).reads.items():
                    truth = truth_of(sheet, marks, cell_id)
                    if kind_of(truth) == TWO_DIGITS:
                        yield truth, cell_read.value, cell_read.unsure, seen.get(cell_id, False)
    finally:
        read.separate = separate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--writers", help="uci, fonts, mnist-test or european (default: held-out MNIST)")
    parser.add_argument("--cache", help="directory holding the MNIST tarball and wheel (for mnist-test)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    cells = list(two_digit_reads(tower_seeds(args.photos), args.writers, args.cache))
    wrong = [cell for cell in cells if cell[0] != cell[1]]
    print(f"{args.photos} Roll to the Top photos, writers {args.writers or 'held-out MNIST'}: {len(cells)} "
          f"two-digit cells, {sum(a for *_, a in cells)} split in two pieces; right "
          f"{1 - len(wrong) / len(cells):.2%}, wrong and not flagged {sum(not u for _, _, u, _ in wrong)}")
    print(f"misread: {sum(a for *_, a in wrong)} of them split in two pieces, "
          f"{sum(not a for *_, a in wrong)} not (the split's share)")
    for place, digit in (("tens", 0), ("units", 1)):
        total, misread = collections.Counter(), collections.Counter()
        for t, v, *_ in cells:
            true = divmod(t, 10)[digit]
            total[true] += 1
            if kind_of(v) == TWO_DIGITS and divmod(v, 10)[digit] != true:
                misread[true] += 1
        print(f"  {place} misread, by true digit: " + ", ".join(f"{d}: {misread[d]}/{total[d]}" for d in sorted(total)))
    confusions = collections.Counter((t, v) for t, v, *_ in wrong)
    print("  most common: " + ", ".join(f"{t}->{v} x{n}" for (t, v), n in confusions.most_common(8)))


if __name__ == "__main__":
    main()
