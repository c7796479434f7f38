"""Sheet -> bytes, one module per format. Each renderer is a pure function."""

from __future__ import annotations

from collections.abc import Sequence

from rnwprint.core.sheet import Sheet

FORMATS = ("pdf", "svg", "png")


def render(sheets: Sequence[Sheet], fmt: str) -> list[bytes]:
    """PDF: one document holding every sheet. SVG/PNG: one file per sheet."""
    if fmt == "pdf":
        from rnwprint.render.pdf import render_pdf

        return [render_pdf(sheets)]
    if fmt == "svg":
        from rnwprint.render.svg import render_svg

        return [render_svg(s) for s in sheets]
    if fmt == "png":
        from rnwprint.render.png import render_png

        return [render_png(s) for s in sheets]
    raise ValueError(f"unknown format {fmt!r}")


def dark_runs(row: str):
    """(start, length) of each run of dark modules in a Matrix row."""
    start = None
    for i, v in enumerate(row + "0"):
        if v == "1" and start is None:
            start = i
        elif v != "1" and start is not None:
            yield start, i - start
            start = None
