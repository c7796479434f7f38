"""Old import path (to remove): the commands moved to rnwprint.cli_template and the game's folder."""

from rnwprint.cli_template import template  # noqa: F401
from rnwprint.games.roll_to_the_top.commands import tower  # noqa: F401
