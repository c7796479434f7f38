"""Old import path (to remove): moved to rnwprint.games.roll_to_the_top.tower_input."""

from rnwprint.games.roll_to_the_top.tower_input import *  # noqa: F403
