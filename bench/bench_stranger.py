"""Read a set of photos written by a hand made outside the project (a helper's own handwriting
drawn stroke by stroke, its truth beside each photo) and print right / wrong and not flagged /
flagged for each cell kind, and the wrong reads left unflagged:

    python bench/bench_stranger.py DIR

DIR holds photos/NAME.jpg and truth/NAME.json, {"cells": {cell id: "6" | "23" | "X" | "(5)"
(circled) | "tick"}} with blank cells left out (BENCHMARKS.md, "Strokes along the box's
outline", says where such sets came from). Each photo is read once, one core.
"""

from __future__ import annotations

import argparse
import json
import pathlib

import cv2
from common import machine

from rnwprint.core.entries import CROSSED, Guarded
from rnwprint.photo.pipeline import read_photo


def truth_of(text: str | None):
    """A truth file's value as the reader gives it."""
    if text is None:
        return None
    if text == "tick":
        return True
    if text == "X":
        return CROSSED
    if text.startswith("("):
        return Guarded(int(text.strip("()")))
    return int(text)


def kind_of(truth) -> str:
    if truth in (None, False):
        return "blank"
    if truth is True:
        return "ticked"
    if truth == CROSSED:
        return "X"
    if isinstance(truth, Guarded):
        return "circled"
    return "two-digit" if truth >= 10 else "one-digit"


def read_set(folder: pathlib.Path) -> tuple[list, list]:
    """(photo, cell id, truth, read) of every cell of every photo, and the photos not read."""
    cells, failed = [], []
    for truth_path in sorted((folder / "truth").glob("*.json")):
        photo = folder / "photos" / f"{truth_path.stem}.jpg"
        truth = {cid: truth_of(v) for cid, v in json.loads(truth_path.read_text())["cells"].items()}
        try:
            result = read_photo(photo)
        except Exception as e:  # a photo that cannot be read at all is a figure too
            failed.append((photo.name, str(e)))
            continue
        for cid, read in result.reads.items():
            value = truth.get(cid)
            cells.append((photo.name, cid, bool(value) if result.sheet.cells[cid].kind == "tick" else value, read))
    return cells, failed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=pathlib.Path)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    cells, failed = read_set(args.folder)
    print(f"machine: {machine()}; {args.folder}: {len(cells)} cells, photos not read: {len(failed)} {failed[:3]}")
    kinds = {}
    for cell in cells:
        kinds.setdefault(kind_of(cell[2]), []).append(cell)
    kinds["all filled"] = [c for c in cells if kind_of(c[2]) != "blank"]
    for kind, of in sorted(kinds.items()):
        right = sum((t or None) == (r.value or None) for _, _, t, r in of)
        silent = sum((t or None) != (r.value or None) and not r.unsure for _, _, t, r in of)
        flagged = sum(r.unsure for *_, r in of)
        print(f"  {kind}: {len(of)} cells, right {right / len(of):.2%}, wrong unflagged {silent / len(of):.2%}, "
              f"flagged {flagged / len(of):.2%}")
    print("wrong and not flagged:")
    for photo, cid, truth, read in cells:
        if (truth or None) != (read.value or None) and not read.unsure:
            print(f"  {photo} {cid}: {truth} read {read.value} ({read.confidence:.0%})")


if __name__ == "__main__":
    main()
