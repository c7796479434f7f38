"""Twenty One: six dice, six sheets A-F of 5 rows x 6 fields, each field a die face
(a number and a colour). sheet.py: the layout data and the printed sheet; rules.py: the audit."""

from __future__ import annotations

from rnwprint.game import Game
from rnwprint.games.twenty_one.rules import audit
from rnwprint.games.twenty_one.sheet import LAYOUT_VERSION, NAME, VARIANTS, build

GAME = Game(
    name=NAME,
    title="Twenty One",
    variants=VARIANTS,
    layout_version=LAYOUT_VERSION,
    build=build,
    audit=audit,
)
