"""Twenty One: six dice, six sheets A-F of 5 rows x 6 fields, each field a die face
(a number and a colour). sheet.py: the layout data and the printed sheet; rules.py: the audit."""

from __future__ import annotations

from rnwprint.game import Game, lazy

NAME = "twenty-one"
VARIANTS = ("A", "B", "C", "D", "E", "F")
LAYOUT_VERSION = 2  # 2: the rules summary says the second roll and the end: the rows moved down

GAME = Game(
    name=NAME,
    title="Twenty One",
    variants=VARIANTS,
    layout_version=LAYOUT_VERSION,
    build=lazy("rnwprint.games.twenty_one.sheet:build"),
    audit=lazy("rnwprint.games.twenty_one.rules:audit"),
    totals={"row1": "twenty-one.total_row1", "row2": "twenty-one.total_row2", "row3": "twenty-one.total_row3",
            "row4": "twenty-one.total_row4", "row5": "twenty-one.total_row5", "total": "twenty-one.total_all"},
)
