"""Twenty One's rules: the audit of a filled-in sheet."""

from __future__ import annotations

from rnwprint.core.entries import CROSSED, Entries
from rnwprint.core.report import Report, Violation
from rnwprint.games.twenty_one.sheet import FIELDS, NAME, ROWS, bonus, cell_id, layouts
from rnwprint.locale import t


def audit(entries: Entries, lang: str) -> Report:
    numbers, _ = layouts()
    violations: list[Violation] = []
    rows = []
    unfinished = None  # the last row written in, while it still has empty fields
    filled_rows = {int(cid[1:].split("C")[0]) for cid in entries.cells}
    for r in range(1, ROWS + 1):
        total = hits = 0
        empty = []
        for f in range(1, FIELDS + 1):
            cid, number = cell_id(r, f), numbers[r - 1][f - 1]
            mark = entries.cells.get(cid)
            if mark is None:
                empty.append(cid)
            elif mark == CROSSED:
                # a cross always goes into the leftmost empty field, and fields never empty again
                if empty:
                    violations.append(Violation("cross-not-leftmost", (cid, empty[0]), t(
                        lang, "twenty-one.cross_not_leftmost", cell=cid, empty=empty[0])))
            elif not 1 <= mark <= 6:
                violations.append(Violation("bad-value", (cid,),
                                            t(lang, "twenty-one.bad_value", cell=cid, value=mark)))
            else:
                total += mark
                hits += mark == number
                if mark > number:
                    violations.append(Violation("over-field", (cid,), t(
                        lang, "twenty-one.over_field", cell=cid, value=mark, number=number)))
        later = [k for k in filled_rows if k > r]
        if empty and later:
            violations.append(Violation("row-order", tuple(empty), t(
                lang, "twenty-one.row_order", row=r, cells=", ".join(empty), later=min(later))))
        elif empty and r == max(filled_rows, default=0):
            unfinished = r
        rows.append({"row": r, "sum": total, "hits": hits, "bonus": bonus(hits), "score": total + bonus(hits)})
    score = sum(row["score"] for row in rows)
    violations += _written_totals(entries.totals, rows, score, unfinished, lang)
    return Report(NAME, entries.variant, entries.source, score, violations, {"rows": rows})


def _written_totals(written: dict[str, int], rows: list[dict], score: int, unfinished: int | None,
                    lang: str) -> list[Violation]:
    """The score boxes against the sheet: "Pilar registra sus resultados (14 + 6 = 20) en el
    cuadro de puntos a la derecha", and the Total is "los totales de puntos de todas sus filas".
    The unfinished row, its box blank, may be left out of the Total: "Los demás jugadores
    pueden sumar su puntuación para la fila en la que están actualmente"."""
    found = []
    allowed = {score}
    if unfinished and f"row{unfinished}" not in written:
        allowed.add(score - rows[unfinished - 1]["score"])
    for row in rows:
        box = written.get(f"row{row['row']}", row["score"])
        if box != row["score"]:
            found.append(Violation("written-total", (), t(lang, "twenty-one.written_row", written=box, **row)))
    if written.get("total", score) not in allowed:
        found.append(Violation("written-total", (), t(
            lang, "twenty-one.written_total", written=written["total"], total=score,
            scores=" + ".join(str(row["score"]) for row in rows))))
    return found
