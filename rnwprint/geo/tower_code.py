"""Old import path (to remove): moved to rnwprint.games.roll_to_the_top.tower_code."""

from rnwprint.games.roll_to_the_top.tower_code import *  # noqa: F403
