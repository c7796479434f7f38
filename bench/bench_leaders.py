"""Map write boxes and leaders (issue 16): for every map x page size, how far the write boxes
sit from their regions and what the leaders cross.

    python bench/bench_leaders.py

Columns: boxes inside their own region; callouts (box outside, joined by a leader); the longest
leader and the median one (mm); leaders that cross another region and the most regions one
leader crosses; crossings between leaders; boxes overlapping anything (another box, another
region, a leader that is not theirs, an inset frame) or leaving the map's area.
"""

from __future__ import annotations

import itertools
import pathlib
import statistics
import sys

from shapely.geometry import LineString, box

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rnwprint.games.rolling import sheet as rolling_sheet
from rnwprint.core.sheet import Rect


def frames_of(fitted) -> list:
    """The inset frames: the dashed rectangles of the drawn map."""
    return [box(r.x, r.y, r.x + r.w, r.y + r.h) for r in fitted.items if isinstance(r, Rect) and r.style.dash]


def figures(game: str, page: str) -> dict:
    fitted = rolling_sheet._fitted(game, page)
    regions, placements, area = fitted.regions, fitted.placements, fitted.area
    frames = frames_of(fitted)
    squares = {c: box(p.box.x, p.box.y, p.box.right, p.box.bottom) for c, p in placements.items()}
    leaders = {c: LineString(p.leader) for c, p in placements.items() if p.leader}
    inside = sum(regions[c].contains(s) for c, s in squares.items())
    crossed = {c: sum(1 for o, g in regions.items() if o != c and line.intersects(g)) for c, line in leaders.items()}
    between = sum(a.intersects(b) for a, b in itertools.combinations(leaders.values(), 2))
    page_area = box(area.x, area.y, area.right, area.bottom)
    overlapping = 0
    for c, s in squares.items():
        bad = not page_area.contains(s)
        bad |= any(s.intersects(o) for d, o in squares.items() if d != c)
        bad |= any(s.intersects(g) for d, g in regions.items() if d != c)
        bad |= any(s.intersects(line) for d, line in leaders.items() if d != c)
        bad |= any(s.intersects(f.boundary) for f in frames)
        overlapping += bad
    lengths = [line.length for line in leaders.values()]
    return {
        "inside": inside, "total": len(squares), "callouts": len(leaders),
        "longest": max(lengths, default=0.0), "median": statistics.median(lengths) if lengths else 0.0,
        "crossing": sum(n > 0 for n in crossed.values()), "max_crossed": max(crossed.values(), default=0),
        "between": between, "overlapping": overlapping,
        "worst": sorted(leaders, key=lambda c: -leaders[c].length)[:3],
    }


def main() -> None:
    print("| map | page | boxes inside own region | callouts | longest leader mm | median leader mm "
          "| leaders crossing another region | max regions crossed | crossings between leaders "
          "| boxes overlapping anything | longest three |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game in ("rolling-america", "rolling-espana"):
        for page in ("a4", "letter"):
            f = figures(game, page)
            print(f"| {game} | {page} | {f['inside']}/{f['total']} | {f['callouts']} | {f['longest']:.1f} "
                  f"| {f['median']:.1f} | {f['crossing']} | {f['max_crossed']} | {f['between']} "
                  f"| {f['overlapping']} | {' '.join(f['worst'])} |")
    print("targets: no crossings between leaders; no leader crosses more than 1 other region; "
          "no box overlaps anything")


if __name__ == "__main__":
    main()
