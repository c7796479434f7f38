"""Sheets as text: every item and cell in rounded millimetres, one line each, so a change to
a built-in sheet shows as a readable diff (tests/test_golden.py compares; regenerate with
`python -m pytest tests/test_golden.py --update-golden` or `python tools/golden.py --dump`)."""

from __future__ import annotations

import hashlib
import pathlib

from rnwprint.games import GAMES, listed_variants
from rnwprint.core.sheet import Circle, Matrix, Path, Rect, Sheet, Style, Text

GOLDEN = pathlib.Path(__file__).parent / "golden"
LANGS = ("es", "en")
PAGES = ("a4", "letter")
LONG_RING = 24  # rings of more points (map outlines) are written as count, bounds and digest


def _n(v: float) -> str:
    return f"{round(v, 2) + 0.0:.2f}"  # + 0.0: no "-0.00"


def _pt(p) -> str:
    return f"{_n(p[0])},{_n(p[1])}"


def _style(s: Style) -> str:
    dash = f" dash={'/'.join(_n(d) for d in s.dash)}" if s.dash else ""
    return f"fill={s.fill or '-'} stroke={s.stroke or '-'} width={_n(s.width)}{dash}"


def _ring(ring) -> str:
    if len(ring) <= LONG_RING:
        return " ".join(_pt(p) for p in ring)
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    digest = hashlib.sha256(" ".join(_pt(p) for p in ring).encode()).hexdigest()[:12]
    return f"<{len(ring)} points in {_n(min(xs))},{_n(min(ys))}..{_n(max(xs))},{_n(max(ys))} #{digest}>"


def _item(i) -> str:
    if isinstance(i, Text):
        return (f"text {i.role} {_pt((i.x, i.y))} {_n(i.size)}pt {i.anchor}{' bold' if i.bold else ''} "
                f"{i.colour} {i.text!r}")
    if isinstance(i, Rect):
        return f"rect {i.role} {_pt((i.x, i.y))} {_n(i.w)}x{_n(i.h)} r={_n(i.radius)} {_style(i.style)}"
    if isinstance(i, Circle):
        return f"circle {i.role} {_pt((i.cx, i.cy))} r={_n(i.r)} {_style(i.style)}"
    if isinstance(i, Path):
        rings = " | ".join(_ring(r) for r in i.rings)
        return f"path {i.role} {'closed' if i.closed else 'open'} {_style(i.style)}: {rings}"
    if isinstance(i, Matrix):
        digest = hashlib.sha256("/".join(i.rows).encode()).hexdigest()[:12]
        return (f"matrix {i.role} {_pt((i.x, i.y))} module={_n(i.module)} {len(i.rows)}x{len(i.rows[0])} "
                f"{i.colour} #{digest}")
    raise TypeError(f"cannot dump {i!r}")


def dump(sheet: Sheet) -> str:
    lines = [f"identity {sheet.identity.encode()}", f"size {_n(sheet.width)}x{_n(sheet.height)}",
             f"title {sheet.title!r}", f"items {len(sheet.items)}"]
    lines += [_item(i) for i in sheet.items]
    lines.append(f"cells {len(sheet.cells)}")
    for c in sheet.cells.values():
        counter = f" counter={c.counter}" if c.counter else ""
        lines.append(f"cell {c.id} {c.kind} {c.low}..{c.high}{counter} {c.label!r}: "
                     + " ".join(_pt(p) for p in c.polygon))
    return "\n".join(lines) + "\n"


def built_in() -> dict[pathlib.Path, tuple[str, str, str, str]]:
    """Dump file -> (game, variant, lang, page) for every built-in sheet."""
    return {GOLDEN / game / f"{variant}_{lang}_{page}.txt": (game, variant, lang, page)
            for game, g in GAMES.items() for variant in listed_variants(g)
            for lang in g.languages if lang in LANGS for page in PAGES}


def render(game: str, variant: str, lang: str, page: str) -> str:
    return dump(GAMES[game].build(variant, lang, page))


def write_dumps() -> list[pathlib.Path]:
    """Rewrite every dump (and remove those of sheets no longer built in); returns the changed ones."""
    changed = []
    wanted = built_in()
    for path, key in wanted.items():
        text = render(*key)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    for path in GOLDEN.glob("*/*.txt"):
        if path not in wanted:
            path.unlink()
            changed.append(path)
    return changed
