"""rnwprint: print, generate and audit sheets for roll & write board games."""

__version__ = "0.1.0"
