"""Sheet -> SVG (svgwrite), in millimetres. Deterministic: no generated ids."""

from __future__ import annotations

import svgwrite

from rnwprint.render import dark_runs
from rnwprint.sheet import Circle, Matrix, Path, Rect, Sheet, Style, Text

FONT_FAMILY = "Bitstream Vera Sans, DejaVu Sans, Verdana, sans-serif"
PT = 25.4 / 72


def _n(v: float) -> str:
    """Millimetres to 1/100 mm, without trailing zeros."""
    text = f"{v:.2f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _style(style: Style) -> dict:
    attrs = {"fill": style.fill or "none"}
    if style.stroke:
        attrs.update(stroke=style.stroke, stroke_width=_n(style.width))
        if style.dash:
            attrs["stroke_dasharray"] = " ".join(_n(d) for d in style.dash)
    return attrs


def render_svg(sheet: Sheet) -> bytes:
    d = svgwrite.Drawing(size=(f"{_n(sheet.width)}mm", f"{_n(sheet.height)}mm"), profile="full", debug=False)
    d.viewbox(0, 0, sheet.width, sheet.height)
    d.add(d.rect((0, 0), (sheet.width, sheet.height), fill="#ffffff"))
    d.set_desc(title=sheet.title, desc=sheet.identity.encode())
    group = None  # consecutive texts share one <g> carrying the font
    for item in sheet.items:
        if isinstance(item, Text):
            if group is None:
                group = d.add(d.g(font_family=FONT_FAMILY))
            group.add(_text(d, item))
        else:
            group = None
            d.add(_element(d, item))
    return d.tostring().encode("utf-8")


def _text(d, item: Text):
    attrs = {"font_size": _n(item.size * PT)}
    if item.colour != "#000000":
        attrs["fill"] = item.colour
    if item.anchor != "start":
        attrs["text_anchor"] = item.anchor
    if item.bold:
        attrs["font_weight"] = "bold"
    return d.text(item.text, insert=(_n(item.x), _n(item.y)), **attrs)


def _element(d, item):
    if isinstance(item, Path):
        parts = []
        for ring in item.rings:
            parts.append("M" + " L".join(f"{_n(x)} {_n(y)}" for x, y in ring) + (" Z" if item.closed else ""))
        attrs = _style(item.style)
        if not item.closed:
            attrs["fill"] = "none"
        return d.path(d=" ".join(parts), fill_rule="evenodd", **attrs)
    if isinstance(item, Rect):
        extra = {"rx": _n(item.radius)} if item.radius else {}
        return d.rect((_n(item.x), _n(item.y)), (_n(item.w), _n(item.h)), **extra, **_style(item.style))
    if isinstance(item, Circle):
        return d.circle((_n(item.cx), _n(item.cy)), _n(item.r), **_style(item.style))
    if isinstance(item, Matrix):
        parts = []
        for r, row in enumerate(item.rows):
            for start, length in dark_runs(row):
                x, y = item.x + start * item.module, item.y + r * item.module
                parts.append(f"M{_n(x)} {_n(y)}h{_n(length * item.module)}v{_n(item.module)}h-{_n(length * item.module)}Z")
        return d.path(d="".join(parts), fill=item.colour, shape_rendering="crispEdges")
    raise TypeError(f"cannot draw {item!r}")
