"""Old import path (to remove): moved to rnwprint.games.roll_to_the_top.sim."""

from rnwprint.games.roll_to_the_top.sim import *  # noqa: F403
