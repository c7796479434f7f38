"""Old import path (to remove): moved to rnwprint.games.roll_to_the_top.tower."""

from rnwprint.games.roll_to_the_top.tower import *  # noqa: F403
