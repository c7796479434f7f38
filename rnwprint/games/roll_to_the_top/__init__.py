"""Roll to the Top: fill a tower of squares from the ground up with dice numbers.

game.py: variants and built-in challenges; sheet.py: the printed sheet; difficulty.py: the
rating shown on it; rules.py: the audit; tower.py (with tower_code.py, tower_input.py): the towers' geometry, codes and
drawings; sim.py: the simulated games behind a tower's difficulty; commands.py: the `tower`
command. The game's names are importable from here, as before the package.
"""

from rnwprint.games.roll_to_the_top.game import *  # noqa: F403
from rnwprint.games.roll_to_the_top.game import _RATINGS, _entries  # noqa: F401
