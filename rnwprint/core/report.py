"""An audit's result: violations by cell id, the score, and game-specific details."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from rnwprint.core.errors import printable
from rnwprint.locale import t

#: a photo that sees the page coarser than this (pixels per millimetre of paper) loses the
#: strokes of digits: the reader says so and flags more cells
ADVISED_PX_PER_MM = 4.0


def light_text(light: dict[str, int], level: int, lang: str) -> str:
    """What to do next time about a photo whose light left cells unreadable for sure, as
    {"dark": cells, "grainy": cells, "bright": cells}; `level`: the paper grey below which a
    photo is too dark."""
    return " ".join(t(lang, key, cells=light[kind], level=level)
                    for kind, key in (("dark", "audit.dark_photo"), ("grainy", "audit.grainy_photo"),
                                      ("bright", "audit.bright_photo"), ("covered", "audit.covered_photo"),
                                      ("outside", "audit.outside_photo"))
                    if light.get(kind))


def json_line(data) -> str:
    """`data` as one line of JSON, UTF-8 throughout: a file name no UTF-8 spells (its bytes
    kept by Python as lone surrogates) has "?" for them, as in a typed-in file."""
    return json.dumps(data, ensure_ascii=False).encode("utf-8", "replace").decode("utf-8")


def decimal(value: float, spec: str, lang: str) -> str:
    """A number as the language writes it: 2.5 in English, 2,5 in Spanish."""
    text = format(value, spec)
    return text.replace(".", ",") if lang == "es" else text


@dataclass(frozen=True)
class Violation:
    rule: str
    cells: tuple[str, ...]
    message: str


@dataclass
class Report:
    game: str
    variant: str
    source: str
    score: int
    violations: list[Violation] = field(default_factory=list)
    details: dict = field(default_factory=dict)
    unsure: tuple[str, ...] = ()  # cells a photo reader could not read for sure
    doubtful: tuple[str, ...] = ()  # cells read from a photo surely enough alone, which a verdict rests on (audit.doubtful_cells)
    coarse_photo: float = 0.0  # px/mm of a photo too coarse to read well, else 0
    light_photo: dict = field(default_factory=dict)  # cells a photo was too "dark"/"bright" to read for sure
    damaged_photo: str = ""  # what the decoder found corrupt in a photo file, else ""
    light_level: int = 0  # with light_photo: the paper grey below which the photo reader finds a photo too dark
    lang: str = "es"  # the language the report is written in (audit_file's choice)
    entries: object = None  # what was audited (core.entries.Entries): the annotated picture draws it

    def rests_on_unsure(self, v: Violation) -> bool:
        return any(cell in self.unsure or cell in self.doubtful for cell in v.cells)

    @property
    def valid(self) -> bool:
        return not self.violations

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "variant": self.variant,
            "source": self.source,
            "valid": self.valid,
            "score": self.score,
            "violations": [{"rule": v.rule, "cells": list(v.cells), "message": v.message,
                            **({"unsure": True} if self.rests_on_unsure(v) else {})}
                           for v in self.violations],
            "details": self.details,
            **({"unsure_cells": list(self.unsure)} if self.unsure else {}),
            **({"doubtful_cells": list(self.doubtful)} if self.doubtful else {}),
            **({"coarse_photo_px_per_mm": round(self.coarse_photo, 2)} if self.coarse_photo else {}),
            **({"light_photo": self.light_photo} if self.light_photo else {}),
            **({"damaged_photo": self.damaged_photo} if self.damaged_photo else {}),
        }

    def to_json(self) -> str:
        """One line (JSON Lines: a batch prints one object per line)."""
        return json_line(self.to_dict())

    def to_text(self, lang: str) -> str:
        lines = [t(lang, "audit.file", game=self.game, variant=self.variant, source=printable(self.source))]
        if self.valid:
            lines.append(t(lang, "audit.valid"))
        else:
            key = "audit.violations_1" if len(self.violations) == 1 else "audit.violations"
            lines.append(t(lang, key, count=len(self.violations)))
            width = max(len(v.rule) for v in self.violations)
            lines += [f"  {v.rule:<{width}}  {v.message}" + (" (?)" if self.rests_on_unsure(v) else "")
                      for v in self.violations]
        lines.append(t(lang, "audit.score", score=self.score))
        if self.unsure:
            lines.append(t(lang, "audit.unsure", cells=", ".join(self.unsure)))
        if self.doubtful:
            lines.append(t(lang, "audit.doubtful", cells=", ".join(self.doubtful)))
        if self.coarse_photo:
            lines.append(t(lang, "audit.coarse_photo", px=decimal(self.coarse_photo, ".1f", lang),
                           good=f"{ADVISED_PX_PER_MM:.0f}"))
        if self.light_photo:
            lines.append(light_text(self.light_photo, self.light_level, lang))
        if self.damaged_photo:
            lines.append(t(lang, "audit.damaged_photo", what=self.damaged_photo))
        return "\n".join(lines)
