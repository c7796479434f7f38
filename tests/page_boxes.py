"""Boxes of printed things in page mm, for tests that check what overlaps what."""

from __future__ import annotations

from rnwprint.fonts import PT, text_span
from rnwprint.core.sheet import Text


def text_box(item: Text) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1 of a text item: from its ascenders to its descenders."""
    x0, x1 = text_span(item)
    return x0, item.y - 0.75 * item.size * PT, x1, item.y + 0.22 * item.size * PT


def overlap(a, b, tol=0.05) -> bool:
    return a[0] < b[2] - tol and b[0] < a[2] - tol and a[1] < b[3] - tol and b[1] < a[3] - tol


def inside(a, b, tol=0.05) -> bool:
    return a[0] >= b[0] - tol and a[1] >= b[1] - tol and a[2] <= b[2] + tol and a[3] <= b[3] + tol
