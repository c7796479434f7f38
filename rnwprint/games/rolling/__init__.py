"""Rolling America and Rolling España: a map whose regions are cells, grouped into six
colour regions. sheet.py: the printed map sheet; rules.py: the board and the audit; log.py:
the dice and the game logs; replay.py: a game log replayed against a sheet; commands.py: the
`roll` command."""

from __future__ import annotations

from rnwprint.game import Game
from rnwprint.games.rolling.replay import replay
from rnwprint.games.rolling.rules import COUNTERS, audit_sheet, load_board
from rnwprint.games.rolling.sheet import LAYOUT_VERSION, TITLE_KEY, build_for
from rnwprint.locale import t


def _game(name: str, variant: str) -> Game:
    def board():
        return load_board(name)

    return Game(
        name=name,
        title=t("en", TITLE_KEY[name]),
        variants=(variant,),
        layout_version=LAYOUT_VERSION,
        build=build_for(name),
        cell_ids=lambda _variant: frozenset(board().region_of),
        audit=lambda entries, lang: audit_sheet(entries, board(), lang),
        replay=lambda entries, log, lang: replay(entries, board(), log, lang),
        counters=COUNTERS,
        allows_guarded=True,
        commands="rnwprint.games.rolling.commands",
    )


AMERICA = _game("rolling-america", "us")
ESPANA = _game("rolling-espana", "es")
