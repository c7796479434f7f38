"""Roll to the Top: fill a tower of squares from the ground up with dice numbers.

game.py: variants and built-in challenges; sheet.py: the printed sheet; difficulty.py: the
rating shown on it; rules.py: the audit; tower.py (with tower_code.py, tower_input.py): the towers' geometry, codes and
drawings; sim.py: the simulated games behind a tower's difficulty; commands.py: the `tower`
command.
"""

from rnwprint.game import Game, lazy
from rnwprint.games.roll_to_the_top.game import DESC, LAYOUT_VERSION, NAME, VARIANTS

GAME = Game(
    name=NAME,
    title="Roll to the Top",
    variants=VARIANTS,
    layout_version=LAYOUT_VERSION,
    build=lazy("rnwprint.games.roll_to_the_top.sheet:build"),
    cell_ids=lazy("rnwprint.games.roll_to_the_top.game:cell_ids"),
    audit=lazy("rnwprint.games.roll_to_the_top.rules:audit"),
    extra_keys=("tower", "descending"),
    more_variants=tuple(v + DESC for v in VARIANTS),
    custom_variant=lazy("rnwprint.games.roll_to_the_top.game:custom_variant"),
    commands="rnwprint.games.roll_to_the_top.commands",
    template_values="roll-to-the-top.template_values",
)
