"""The reader's reasons for flagging a cell, said in the sheet's language in its typed-in file.

The reader gives each reason in English, as a constant of the module that finds it (several
joined by "; "); the JSON of `read --json` keeps them so, for programs. Each constant has a
locale key (section "reasons"): its "{}" are the values filled in (a number, a share, a colour).
"""

from __future__ import annotations

import functools
import re

from rnwprint.locale import t
from rnwprint.photo.circles import (BIG_CIRCLE_WHY, CROSSING_WHY, EMPTY_RING_WHY, OFF_CIRCLE_WHY, OFF_TOUCHING_WHY,
                                    OUTLINE_WHY, OWN_STROKE_WHY, PALE_ROUND_WHY, ROUND_WHY, SMALL_CIRCLE_WHY)
from rnwprint.photo.decide import (WHY_CIRCLED_X, WHY_FAINT, WHY_FAINT_TICK, WHY_GUESS, WHY_ONE_OR_TWO, WHY_RANGE, WHY_SHORT)
from rnwprint.photo.faded import FADED_BLANK_WHY, FADED_WITH_WHY, FADED_WITHOUT_WHY
from rnwprint.photo.faint_ring import FAINT_RING_WHY
from rnwprint.photo.guards import MISSED_TICK_WHY, MISSED_WHY
from rnwprint.photo.light import LIGHT_WHY
from rnwprint.photo.pale import PALE_WHY
from rnwprint.photo.overflow import ALONG_WHY, EDGE_WHY, INTRUDING_WHY, OVER_WHY
from rnwprint.photo.pipeline import COARSE, DAMAGED, OUTSIDE
from rnwprint.photo.round_ring import ROUND_RING_WHY
from rnwprint.photo.read import FAINT_AMONG_WHY, WHY_CUT, WHY_NETWORKS, WHY_OTHER, WHY_WHOLE
from rnwprint.photo.split import EDGE_LINE_WHY

# the photo reader of a game's own places (Catan's roads, halls and corners) gives these too
WHY_DOT_OR_FILL = "dot or fill?"
WHY_COLOUR_FAINT = "colour: too faint to tell ({}?)"
WHY_COLOUR_MIXED = "colour: {} {}, {} {}"  # two pencils and their shares
WHY_COLOUR_BETWEEN = "colour: between pencils ({} fits {})"

REASONS = {  # the reason as the reader gives it -> its locale key
    WHY_RANGE: "reasons.range",
    WHY_ONE_OR_TWO: "reasons.one_or_two",
    WHY_SHORT: "reasons.short",
    WHY_GUESS: "reasons.guess",
    WHY_FAINT: "reasons.faint",
    PALE_WHY: "reasons.pale",
    FAINT_AMONG_WHY: "reasons.faint_among",
    WHY_FAINT_TICK: "reasons.faint_tick",
    WHY_CIRCLED_X: "reasons.circled_x",
    WHY_NETWORKS: "reasons.networks",
    WHY_WHOLE: "reasons.whole",
    WHY_CUT: "reasons.cut",
    WHY_OTHER: "reasons.other",
    SMALL_CIRCLE_WHY: "reasons.small_circle",
    BIG_CIRCLE_WHY: "reasons.big_circle",
    EMPTY_RING_WHY: "reasons.empty_ring",
    OFF_CIRCLE_WHY: "reasons.off_circle",
    OFF_TOUCHING_WHY: "reasons.off_touching",
    OUTLINE_WHY: "reasons.outline",
    ROUND_WHY: "reasons.round",
    PALE_ROUND_WHY: "reasons.pale_round",
    FAINT_RING_WHY: "reasons.faint_ring",
    ROUND_RING_WHY: "reasons.round_ring",
    FADED_WITH_WHY: "reasons.faded_with",
    FADED_WITHOUT_WHY: "reasons.faded_without",
    FADED_BLANK_WHY: "reasons.faded_blank",
    MISSED_WHY: "reasons.missed_circle",
    MISSED_TICK_WHY: "reasons.missed_tick",
    CROSSING_WHY: "reasons.crossing",
    OVER_WHY: "reasons.over",
    EDGE_WHY: "reasons.edge",
    ALONG_WHY: "reasons.along",
    INTRUDING_WHY: "reasons.intruding",
    EDGE_LINE_WHY: "reasons.edge_line",
    OWN_STROKE_WHY: "reasons.own_stroke",
    LIGHT_WHY["dark"]: "reasons.dark",
    LIGHT_WHY["bright"]: "reasons.bright",
    LIGHT_WHY["faded"]: "reasons.faded",
    LIGHT_WHY["grainy"]: "reasons.grainy",
    LIGHT_WHY["covered"]: "reasons.covered",
    DAMAGED: "reasons.damaged",
    OUTSIDE: "reasons.outside",
    COARSE: "reasons.coarse",
    WHY_DOT_OR_FILL: "reasons.dot_or_fill",
    WHY_COLOUR_FAINT: "reasons.colour_faint",
    WHY_COLOUR_MIXED: "reasons.colour_mixed",
    WHY_COLOUR_BETWEEN: "reasons.colour_between",
}


def said(why: str, lang: str) -> str:
    """`why` (the reader's reasons, "; " between them) in `lang`; a reason this module does not
    know is left as the reader gave it. A reason may hold "; " itself ("the number runs over the
    box's edge; read with …"): the longest run of parts that is one reason is said whole."""
    parts = why.split("; ") if why else []
    out = []
    while parts:
        for end in range(len(parts), 0, -1):
            if (spoken := _said("; ".join(parts[:end]), lang)) is not None:
                break
        else:
            end, spoken = 1, parts[0]
        out.append(spoken)
        parts = parts[end:]
    return "; ".join(out)


def _said(reason: str, lang: str) -> str | None:
    for pattern, key in _patterns():
        if m := pattern.fullmatch(reason):
            return t(lang, key).format(*m.groups())
    return None


@functools.cache
def _patterns() -> list[tuple[re.Pattern, str]]:
    # a value filled in (a number, a share, a colour) holds no "; ": a reason is not read across two
    return [(re.compile("([^;]+?)".join(map(re.escape, english.split("{}")))), key) for english, key in REASONS.items()]
