"""rnwprint: print, generate and audit sheets for roll & write board games."""

__version__ = "0.1.0"

from rnwprint import _moved  # noqa: E402,F401  (the old import paths of moved modules)
