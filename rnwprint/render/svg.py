"""Sheet -> SVG in millimetres, through svgwrite.

Validation is off (debug=False): it checked every attribute and took 7-15 ms a sheet; the
Sheet's own types already say what is drawn. The output is deterministic: no generated ids,
attributes in sorted order (svgwrite), numbers written by `_n` at 1/100 mm.
"""

from __future__ import annotations

from xml.etree import ElementTree

import svgwrite

from rnwprint.fonts import PT
from rnwprint.render import dark_runs
from rnwprint.core.sheet import Circle, Matrix, Path, Rect, Sheet, Style, Text

FONT_FAMILY = "Bitstream Vera Sans, DejaVu Sans, Verdana, sans-serif"


def _n(v: float) -> str:
    """Millimetres to 1/100 mm, without trailing zeros."""
    text = f"{v:.2f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _paint(style: Style, closed: bool = True) -> dict[str, str]:
    paint = {"fill": style.fill if style.fill and closed else "none"}
    if style.stroke:
        paint |= {"stroke": style.stroke, "stroke_width": _n(style.width)}
        if style.dash:
            paint["stroke_dasharray"] = " ".join(_n(d) for d in style.dash)
    return paint


def render_svg(sheet: Sheet) -> bytes:
    w, h = _n(sheet.width), _n(sheet.height)
    drawing = svgwrite.Drawing(size=(f"{w}mm", f"{h}mm"), viewBox=f"0 0 {w} {h}", debug=False)
    drawing.set_desc(title=sheet.title, desc=sheet.identity.encode())
    drawing.add(drawing.rect(insert=("0", "0"), size=(w, h), fill="#ffffff"))
    group = None  # consecutive texts share one <g> carrying the font
    for item in sheet.items:
        if not isinstance(item, Text):
            group = None
            drawing.add(_element(drawing, item))
            continue
        if group is None:
            group = drawing.add(drawing.g(font_family=FONT_FAMILY))
        group.add(_text(drawing, item))
    # what drawing.write() writes, without its detour through a UTF-8 byte stream (half the time)
    xml = ElementTree.tostring(drawing.get_xml(), encoding="unicode")
    return f'<?xml version="1.0" encoding="utf-8" ?>\n{xml}\n'.encode("utf-8")


def _text(drawing: svgwrite.Drawing, item: Text):
    attrs = {"font_size": _n(item.size * PT)}
    if item.colour != "#000000":
        attrs["fill"] = item.colour
    if item.anchor != "start":
        attrs["text_anchor"] = item.anchor
    if item.bold:
        attrs["font_weight"] = "bold"
    return drawing.text(item.text, x=[_n(item.x)], y=[_n(item.y)], **attrs)


def _element(drawing: svgwrite.Drawing, item):
    if isinstance(item, Rect):
        radius = {"rx": _n(item.radius)} if item.radius else {}
        return drawing.rect(insert=(_n(item.x), _n(item.y)), size=(_n(item.w), _n(item.h)), **radius,
                            **_paint(item.style))
    if isinstance(item, Path):
        close = " Z" if item.closed else ""
        d = " ".join("M" + " L".join(f"{_n(x)} {_n(y)}" for x, y in ring) + close for ring in item.rings)
        return drawing.path(d=d, fill_rule="evenodd", **_paint(item.style, item.closed))
    if isinstance(item, Circle):
        return drawing.circle(center=(_n(item.cx), _n(item.cy)), r=_n(item.r), **_paint(item.style))
    if isinstance(item, Matrix):
        m = item.module
        d = "".join(f"M{_n(item.x + start * m)} {_n(item.y + r * m)}h{_n(length * m)}v{_n(m)}h-{_n(length * m)}Z"
                    for r, row in enumerate(item.rows) for start, length in dark_runs(row))
        return drawing.path(d=d, fill=item.colour, shape_rendering="crispEdges")
    raise TypeError(f"cannot draw {item!r}")
