"""Roll to the Top: the audit of a filled-in sheet."""

from __future__ import annotations

from rnwprint.core.entries import Entries
from rnwprint.core.report import Report, Violation
from rnwprint.games.roll_to_the_top.game import NAME, parse_variant
from rnwprint.games.roll_to_the_top.sim import HIGH, LOW
from rnwprint.games.roll_to_the_top.tower import Tower
from rnwprint.locale import t

# --- the rules --------------------------------------------------------------------------

def audit(entries: Entries, lang: str) -> Report:
    tower, descending, _ = parse_variant(entries.variant)
    ids = tower.ids
    values: dict[int, int] = {}  # the squares that hold a number 1-50; X and bad values hold none
    violations: list[Violation] = []
    for i, cid in enumerate(ids):
        mark = entries.cells.get(cid)
        if mark is None:
            continue
        if isinstance(mark, int) and LOW <= mark <= HIGH:
            values[i] = mark
        else:
            violations.append(Violation("bad-value", (cid,), t(lang, "roll-to-the-top.bad_value", cell=cid, value=mark)))
    for i in sorted(values):
        cid, v = ids[i], values[i]
        if tower.overhang[i]:
            run = _overhang_run(tower, values, i)
            if i == run[0]:
                violations += _anchor(tower, values, run, lang)
            continue
        for s in tower.supports[i]:
            sid = ids[s]
            if s not in values:
                key = ("roll-to-the-top.support_empty" if entries.cells.get(sid) is None
                       else "roll-to-the-top.support_no_number")
                violations.append(Violation("support", (cid, sid), t(
                    lang, key, cell=cid, support=sid, value=entries.cells.get(sid), low=LOW, high=HIGH)))
            elif descending and v > values[s]:
                violations.append(Violation("support", (cid, sid), t(
                    lang, "roll-to-the-top.support_high", cell=cid, value=v, below=values[s], support=sid)))
            elif not descending and v < values[s]:
                violations.append(Violation("support", (cid, sid), t(
                    lang, "roll-to-the-top.support_low", cell=cid, value=v, below=values[s], support=sid)))
    open_squares = [cid for i, cid in enumerate(ids) if i not in values]
    details = {"complete": not open_squares, "squares": len(ids), "filled": len(values),
               "open": len(open_squares), "open_squares": open_squares,
               "rule": "descending" if descending else "ascending"}
    return Report(NAME, entries.variant, entries.source, -len(open_squares), violations, details)


def _overhang_run(tower: Tower, values: dict[int, int], i: int) -> list[int]:
    """The filled overhang i and the filled overhangs side by side with it, left to right."""
    run, todo = {i}, [i]
    while todo:
        for b in tower.beside[todo.pop()]:
            if b in values and tower.overhang[b] and b not in run:
                run.add(b)
                todo.append(b)
    return sorted(run)


def _anchor(tower: Tower, values: dict[int, int], run: list[int], lang: str) -> list[Violation]:
    """An overhang takes a number once a square beside it holds one, so the first one written of
    a run needed a filled square beside it outside the run: none -> one violation naming the run."""
    beside = sorted({b for r in run for b in tower.beside[r]} - set(run))
    if any(b in values for b in beside):
        return []
    ids = tower.ids
    names = ", ".join(ids[b] for b in beside) or "—"
    cells = tuple(ids[r] for r in run)
    if len(run) == 1:
        message = t(lang, "roll-to-the-top.overhang_alone", cell=cells[0], beside=names)
    else:
        message = t(lang, "roll-to-the-top.overhang_run", cells=", ".join(cells), beside=names)
    return [Violation("overhang", cells, message)]
