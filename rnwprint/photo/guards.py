"""A guard is a circle and a tick: "Encierra el número en un círculo para indicar que está
resguardado, y luego tacha una de las casillas de Resguardo de tu hoja de puntuación" (Rolling
America y España). Where a photo's guard boxes are ticked more often than circled numbers were
found, a circle was missed: a circle too faint, or hugging the box's outline, for every circle
check. The numbers with the most sign of a faint ring round the box (round_ring's share of
rays), and apart those with the most of one round the number (faint_ring's), are then
flagged, as many of each as circles are missing, and so are the guard boxes ticked beyond the
circles found, for the player to look for the circle."""

from __future__ import annotations

import numpy as np

from rnwprint.core.entries import Guarded
from rnwprint.core.sheet import Sheet
from rnwprint.photo.decide import CellRead, flagged

#: a number read plain and sure is flagged as the missing circle from this share of the rays
#: round its box on a faint ring on: strangers' circles lost so had 0.08-0.37 (their photos'
#: other boxes mostly 0: the likeliest are flagged first)
MISSED_RING_FLOOR = 0.05
#: and, apart, those with the most of a faint ring round the number, from MISSED_INSIDE_OVER
#: times the photo's median (the number's own strokes rise beyond it on some rays: a median
#: of 0.02-0.16 on strangers' photos, their lost circles 0.19-0.38) or MISSED_INSIDE_FLOOR on
MISSED_INSIDE_FLOOR, MISSED_INSIDE_OVER = 0.1, 3.0
MISSED_WHY = "more guard boxes ticked ({}) than circled numbers found ({}): faint marks round this box, is the number guarded?"
MISSED_TICK_WHY = "more guard boxes ticked ({}) than circled numbers found ({}): is a circle missed?"


def missed_circles(reads: dict[str, CellRead], sheet: Sheet, counter: str,
                   rings: dict[str, tuple[float, float]]) -> dict[str, CellRead]:
    """`reads` of `sheet` with the missing circles flagged (see the module), where more boxes
    of the guard `counter` (Game.guard_counter) are ticked than circled numbers were found.
    `rings`: cell id -> the share of the rays on a faint ring round the number (faint_ring)
    and round the box (round_ring), where looked at."""
    ticked = [cid for cid, read in reads.items()
              if sheet.cells[cid].kind == "tick" and sheet.cells[cid].counter == counter and read.value is True]
    found = sum(isinstance(read.value, Guarded) for read in reads.values())
    missing = len(ticked) - found
    if missing <= 0:
        return reads
    inside = {cid: pair[0] for cid, pair in rings.items()}
    around = {cid: pair[1] for cid, pair in rings.items()}
    typical = float(np.median(list(inside.values()))) if inside else 0.0
    likeliest = _likeliest(reads, around, MISSED_RING_FLOOR, missing) | \
        _likeliest(reads, inside, max(MISSED_INSIDE_FLOOR, MISSED_INSIDE_OVER * typical), missing)
    reads = dict(reads)
    for cid in sorted(likeliest):
        reads[cid] = flagged(reads[cid], MISSED_WHY.format(len(ticked), found))
    for cid in sorted(ticked)[found:]:
        reads[cid] = flagged(reads[cid], MISSED_TICK_WHY.format(len(ticked), found))
    return reads


def _likeliest(reads: dict[str, CellRead], shares: dict[str, float], floor: float, missing: int) -> set[str]:
    """The `missing` numbers read plain and sure with the most of `shares`, from `floor` on."""
    plain_and_sure = [cid for cid, share in shares.items() if share >= floor and not reads[cid].unsure
                      and isinstance(reads[cid].value, int) and not isinstance(reads[cid].value, bool)]
    return set(sorted(plain_and_sure, key=lambda cid: -shares[cid])[:missing])
