"""Hand-made Catan games for the tests and the benchmarks."""

from __future__ import annotations

import json
from collections import deque

from rnwprint.app.audit import audit_file
from rnwprint.games.catan import geometry as geo


def game_toml(cells: dict, counters: dict | None = None, variant: str = "map") -> str:
    """A typed-in Catan file (JSON values are valid TOML values for strings and lists)."""
    lines = ['game = "catan"', f'variant = "{variant}"', "", "[cells]"]
    lines += [f"{cid} = {json.dumps(value)}" for cid, value in cells.items()]
    lines += ["", "[counters]"] + [f"{k} = {v}" for k, v in (counters or {}).items()]
    return "\n".join(lines) + "\n"


def full_map(starts=("V01", "V07", "V48", "V54"), colours=("red", "blue", "green", "orange")) -> dict:
    """Every circle built: each player's network grows from its start at the edge, a corner at a
    time, the first to reach a corner takes it (a village, every third one a city) along the road
    it came by; a town hall wherever a player has 2 corners around a terrain."""
    island = geo.island()
    owner = {s: c for s, c in zip(starts, colours)}
    cells: dict[str, str] = {}
    queue = deque(starts)
    while queue:
        v = queue.popleft()
        for e in island.corner_edges[v]:
            w = next(x for x in island.edge_corners[e] if x != v)
            if w not in owner:
                owner[w] = owner[v]
                cells[e] = owner[v]
                queue.append(w)
    for n, v in enumerate(sorted(owner)):
        cells[v] = f"{owner[v]} {'city' if n % 3 == 2 else 'village'}"
    for tid, corners in island.terrain_corners.items():
        if geo.layout()[tid] == geo.DESERT:
            continue
        mine = [owner[v] for v in corners]
        best = max(colours, key=mine.count)
        if mine.count(best) >= 2:
            cells[tid] = best
    return cells


def pencil_game(seed: int, sheet) -> tuple[dict, dict]:
    """A finished map drawn in pencil for the photo generator: (what a typed-in file would say,
    the pencil marks); 2-4 players from random starts, a fifth of the places left blank."""
    import numpy as np
    from support.synth_pencil import Pencil

    rng = np.random.default_rng([seed, 18])
    colours = ["red", "blue", "green", "orange"]
    rng.shuffle(colours)
    players = int(rng.integers(2, 5))
    rim = ["V01", "V03", "V07", "V16", "V22", "V28", "V39", "V48", "V52", "V54"]
    starts = tuple(rng.choice(rim, players, replace=False))
    cells = {k: v for k, v in full_map(starts, tuple(colours[:players])).items()
             if k in sheet.cells and rng.uniform() < 0.8}
    marks = {k: Pencil(v.split()[0], not v.endswith("village")) for k, v in cells.items()}
    return {k: (v,) for k, v in cells.items()}, marks


# red: a village at the edge (V01), roads E02 (V01-V05) and E08 (V05-V09), a city at V09 and the
# town hall of T01 (V01 and V09 are both corners of T01).
# blue: a village at the edge (V03), roads E06, E10, E17 (V03-V07-V11-V15), a village at V11, a
# city at V15 and the town hall of T03 (V03 and V11 are corners of T03).
BASE = {
    "V01": "red village", "E02": "red", "E08": "red", "V09": "red city", "T01": "red",
    "V03": "blue village", "E06": "blue", "E10": "blue", "V11": "blue village", "E17": "blue",
    "V15": "blue city", "T03": "blue",
}
GREEN = {"V21": "green village", "E32": "green"}  # a third player's start, apart from the others
COUNTERS = {"red_knights": 3, "blue_knights": 1, "red_resources": 7, "blue_resources": 10, "red_victory_cards": 1}


def audit(write, cells, counters=COUNTERS, lang="en"):
    return audit_file(write("game.toml", game_toml(cells, counters)), lang)


def found(report):
    return [(v.rule, v.cells) for v in report.violations]
