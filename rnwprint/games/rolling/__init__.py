"""Rolling America and Rolling España: a map whose regions are cells, grouped into six
colour regions. sheet.py: the printed map sheet; rules.py: the board and the audit; log.py:
the dice and the game logs; replay.py: a game log replayed against a sheet; commands.py: the
`roll` command."""

from __future__ import annotations

from rnwprint.game import Game, lazy
from rnwprint.games.rolling.rules import COUNTERS
from rnwprint.locale import t

LAYOUT_VERSION = 3  # 2: the round track's numbers above its boxes, the panel tighter; 3: boxes and leaders re-placed, legend on the map
TITLE_KEY = {"rolling-america": "rolling.title_rolling-america", "rolling-espana": "rolling.title_rolling-espana"}


def _game(name: str, variant: str) -> Game:
    return Game(
        name=name,
        title=t("en", TITLE_KEY[name]),
        variants=(variant,),
        layout_version=LAYOUT_VERSION,
        build=lazy("rnwprint.games.rolling.sheet:build", name),
        cell_ids=lazy("rnwprint.games.rolling.rules:cell_ids", name),
        audit=lazy("rnwprint.games.rolling.rules:audit", name),
        replay=lazy("rnwprint.games.rolling.replay:replay_game", name),
        counters=COUNTERS,
        totals={"x": "rolling-audit.total_x"},
        allows_guarded=True,
        guard_counter="guard",  # "Encierra el número en un círculo … y luego tacha una de las casillas de Resguardo"
        commands="rnwprint.games.rolling.commands",
    )


AMERICA = _game("rolling-america", "us")
ESPANA = _game("rolling-espana", "es")
