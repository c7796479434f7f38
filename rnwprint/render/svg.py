"""Sheet -> SVG in millimetres, through svgwrite.

Validation is off (debug=False): it checked every attribute and took 7-15 ms a sheet; the
Sheet's own types already say what is drawn. The items' elements are svgwrite's classes given
their attributes by `_made`, not by their constructors (whose keyword renaming took two thirds
of a render). They are written out by `_write`, character for character as svgwrite's
get_xml() and ElementTree would write them, without building the ElementTree first (a quarter
of the time). The output is deterministic: no generated ids, attributes in sorted order,
numbers written by `_n` at 1/100 mm.
"""

from __future__ import annotations

from xml.etree import ElementTree
from xml.etree.ElementTree import _escape_attrib, _escape_cdata

import svgwrite
from svgwrite.base import BaseElement
from svgwrite.path import Path as SvgPath
from svgwrite.shapes import Circle as SvgCircle, Rect as SvgRect
from svgwrite.text import Text as SvgText, TSpan
from svgwrite.utils import strlist

from rnwprint.fonts import PT
from rnwprint.render import dark_runs
from rnwprint.core.sheet import Circle, Matrix, Path, Rect, Sheet, Style, Text

FONT_FAMILY = "Bitstream Vera Sans, DejaVu Sans, Verdana, sans-serif"


def _n(v: float) -> str:
    """Millimetres to 1/100 mm, without trailing zeros."""
    return f"{v:.2f}".rstrip("0").rstrip(".")  # "inf" and "nan" have no zeros to lose


def _paint(style: Style, closed: bool = True) -> dict[str, str]:
    paint = {"fill": style.fill if style.fill and closed else "none"}
    if style.stroke:
        paint |= {"stroke": style.stroke, "stroke-width": _n(style.width)}
        if style.dash:
            paint["stroke-dasharray"] = " ".join(_n(d) for d in style.dash)
    return paint


def _made(cls, drawing: svgwrite.Drawing, attribs: dict[str, str], **fields):
    """An svgwrite element of class `cls` with these attributes (their SVG names) and fields,
    as its constructor would leave it."""
    element = cls.__new__(cls)
    element._parameter, element.attribs, element.elements = drawing._parameter, attribs, []
    element.__dict__.update(fields)
    return element


def render_svg(sheet: Sheet) -> bytes:
    drawing = _drawing(sheet)
    # the attributes Drawing.get_xml() adds to the root
    drawing.attribs.update({"xmlns": "http://www.w3.org/2000/svg", "xmlns:xlink": "http://www.w3.org/1999/xlink",
                            "xmlns:ev": "http://www.w3.org/2001/xml-events", "baseProfile": drawing.profile,
                            "version": drawing.version})
    out = ['<?xml version="1.0" encoding="utf-8" ?>\n']
    _write(drawing, out)
    out.append("\n")
    return "".join(out).encode("utf-8")


def _drawing(sheet: Sheet) -> svgwrite.Drawing:
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
    return drawing


def _write(element, out: list[str]) -> None:
    """ElementTree.tostring(element.get_xml()), appended to `out` piece by piece: the
    attributes sorted and the empty ones left out (svgwrite), escaped as ElementTree escapes
    them; a path's commands as its `d` (svgwrite's Path), a text's characters (TSpan)."""
    if not isinstance(element, BaseElement):  # title and desc: ElementTree elements already
        out.append(ElementTree.tostring(element.get_xml(), encoding="unicode"))
        return
    if isinstance(element, SvgPath):
        element.attribs["d"] = str(strlist(element.commands, " "))
    tag = element.elementname
    out.append("<" + tag)
    for name, value in sorted(element.attribs.items()):
        if value is not None and (value := str(value)):
            out.append(f' {name}="{_escape_attrib(value)}"')
    text = str(element.text) if isinstance(element, TSpan) else ""
    if not (text or element.elements):
        out.append(" />")
        return
    out.append(">")
    if text:
        out.append(_escape_cdata(text))
    for child in element.elements:
        _write(child, out)
    out.append(f"</{tag}>")


def _text(drawing: svgwrite.Drawing, item: Text):
    attrs = {"x": _n(item.x), "y": _n(item.y), "font-size": _n(item.size * PT)}
    if item.colour != "#000000":
        attrs["fill"] = item.colour
    if item.anchor != "start":
        attrs["text-anchor"] = item.anchor
    if item.bold:
        attrs["font-weight"] = "bold"
    return _made(SvgText, drawing, attrs, text=item.text)


def _element(drawing: svgwrite.Drawing, item):
    if isinstance(item, Rect):
        attrs = {"x": _n(item.x), "y": _n(item.y), "width": _n(item.w), "height": _n(item.h)}
        if item.radius:
            attrs["rx"] = _n(item.radius)
        return _made(SvgRect, drawing, attrs | _paint(item.style))
    if isinstance(item, Path):
        close = " Z" if item.closed else ""
        d = " ".join("M" + " L".join(f"{_n(x)} {_n(y)}" for x, y in ring) + close for ring in item.rings)
        return _made(SvgPath, drawing, {"fill-rule": "evenodd"} | _paint(item.style, item.closed), commands=[d])
    if isinstance(item, Circle):
        attrs = {"cx": _n(item.cx), "cy": _n(item.cy), "r": _n(item.r)}
        return _made(SvgCircle, drawing, attrs | _paint(item.style))
    if isinstance(item, Matrix):
        m, n = item.module, len(item.rows[0])
        # each number written once: a QR code's runs share their columns, rows and lengths
        xs, ys = [_n(item.x + k * m) for k in range(n)], [_n(item.y + k * m) for k in range(len(item.rows))]
        lengths, side = [_n(k * m) for k in range(n + 1)], _n(m)
        d = "".join(f"M{xs[start]} {ys[r]}h{lengths[length]}v{side}h-{lengths[length]}Z"
                    for r, row in enumerate(item.rows) for start, length in dark_runs(row))
        return _made(SvgPath, drawing, {"fill": item.colour, "shape-rendering": "crispEdges"}, commands=[d])
    raise TypeError(f"cannot draw {item!r}")
