"""Decisions on one cell: what its ink spells (a digit, two digits, an X, guarded), how sure
that is, and whether a tick box is ticked (split out of read.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from rnwprint.core.entries import CROSSED, Guarded, Mark
from rnwprint.photo import digits
from rnwprint.core.sheet import Cell

AMBIGUOUS = 0.85  # confidence kept when the ink's shape alone cannot tell one digit from two
BLANK_INK = 0.006  # below this share of a cell's area in ink, the cell (or tick box) is blank
UNSURE_BLANK = (0.003, 0.012)  # ink shares too close to call blank or written (or ticked)
DECIMALS = [str(d) for d in range(10)]
#: ink in one piece read as one digit (or two) is flagged when two digits (or one) also read
#: this sure: the shape alone cannot tell
ONE_OR_TWO = 0.7
WHY_RANGE = "its digits read as a number the box cannot hold"
WHY_ONE_OR_TWO = "one digit or two?"
WHY_SHORT = "one digit much shorter than the other"
WHY_GUESS = "best guess {} sure"  # the confidence, as 62%
WHY_FAINT = "faint marks"
WHY_FAINT_TICK = "faint tick"
#: the rules guard numbers only ("Encierra el número en un círculo para indicar que está
#: resguardado"): an X read inside a guard circle may be a number misread, its circle dropped;
#: it is read X, flagged
WHY_CIRCLED_X = "an X in a circle: only a number is guarded; is it a number?"


@dataclass(frozen=True)
class CellRead:
    id: str
    value: Mark | bool | None  # None: blank; bool: a tick box
    confidence: float
    unsure: bool
    why: str = ""  # what made it unsure
    offset_mm: tuple[float, float] = (0.0, 0.0)  # (x, y): the box was found this far from its place
    light: str = ""  # "dark", "grainy" or "bright": the photo's light left too little to read for sure here;
    # "covered": its print is hidden (a finger over it?); "outside": the box runs out of the photo



def flagged(read: CellRead, why: str) -> CellRead:
    """`read` flagged for `why`, beside the reason it may already have."""
    earlier = read.why if read.unsure else ""
    return replace(read, unsure=True, why="; ".join(filter(None, (earlier, why))))


def flagged_where_other(why: str):
    """A judge of a cell read a second way (read.Written.again): the first read stands, flagged
    for `why` (its "{}" the other read's number) where the second reads another number."""
    def judge(read: CellRead, other: CellRead) -> CellRead:
        return read if other.value == read.value else flagged(read, why.format(other.value))
    return judge


def _tick(cell: Cell, share: float) -> CellRead:
    ticked = share > BLANK_INK
    lo, hi = UNSURE_BLANK
    unsure = lo < share < hi
    edge = hi if ticked else lo
    confidence = 0.5 + min(abs(share - BLANK_INK) / abs(edge - BLANK_INK), 1.0) / 2
    return CellRead(cell.id, ticked, confidence, unsure, WHY_FAINT_TICK if unsure else "")



def _two_digit_numbers(cell: Cell) -> np.ndarray:
    """The numbers of two digits `cell` may hold."""
    return np.arange(max(cell.low, 10), min(cell.high, 99) + 1)


def _pair(p_tens: np.ndarray, p_units: np.ndarray, cell: Cell) -> tuple[int, float, float]:
    """The likeliest number from cell.low to cell.high written as these two digits, how
    sure the less sure of the two is, and the number's likelihood."""
    tens = digits.restrict(p_tens[None], DECIMALS)[0]
    units = digits.restrict(p_units[None], DECIMALS)[0]
    numbers = _two_digit_numbers(cell)
    if not len(numbers):
        return 0, 0.0, 0.0
    tens = tens / tens[np.unique(numbers // 10)].sum()
    best = int(numbers[np.argmax(tens[numbers // 10] * units[numbers % 10])])  # the first of the likeliest
    return best, float(min(tens[best // 10], units[best % 10])), float(tens[best // 10] * units[best % 10])


def _cut_odds(p: np.ndarray, cell: Cell) -> tuple[np.ndarray, np.ndarray]:
    """The two-digit numbers `cell` may hold and how likely each is as the digits of a cut read
    (of the ways of cutting in `p` after the whole crop, tens then units, the one whose digits
    give those numbers the most likelihood)."""
    numbers = _two_digit_numbers(cell)
    ways = [digits.restrict(p[i][None], DECIMALS)[0][numbers // 10]
            * digits.restrict(p[i + 1][None], DECIMALS)[0][numbers % 10] for i in range(1, len(p), 2)]
    odds = max(ways, key=lambda o: o.sum())  # the first of the likeliest
    return numbers, odds / odds.sum()


def _decide(cell: Cell, p: np.ndarray, circled: bool, apart: bool, short: tuple[bool, ...] = ()) -> CellRead:
    """What the crops' probabilities `p` spell (see split._split_digits for the crops);
    `short[k]`: one piece of the k-th way of cutting is short (split._short_ways)."""
    why = ""
    if len(p) == 1:
        allowed = [str(v) for v in range(cell.low, min(cell.high, 9) + 1)] + ["X"]
        q = digits.restrict(p, allowed)[0]
        best = int(q.argmax())
        label, confidence = allowed[best], float(q[best])
        value: Mark = CROSSED if label == "X" else int(label)
    else:  # the whole: an X or one wide digit? else tens and units, as the likeliest cut gives them
        single = [str(v) for v in range(max(cell.low, 1), 10)]
        whole = digits.restrict(p[:1], ["X"] + single)[0]
        best = int(whole.argmax())
        pairs = [_pair(p[i], p[i + 1], cell) for i in range(1, len(p), 2)]
        way = int(np.argmax([likelihood for _, _, likelihood in pairs]))  # the likeliest cut; on a tie the first
        pair, pair_confidence, _ = pairs[way]
        # the pair, unless a digit reads likelier as one the box cannot hold there (7 and 9
        # in a 1-50 square are no 49 nor 19): never re-guessed into range silently
        tens, units = (int(digits.restrict(p[i][None], DECIMALS)[0].argmax()) for i in (2 * way + 1, 2 * way + 2))
        pair_why = WHY_RANGE if (tens, units) != divmod(pair, 10) else WHY_SHORT if way < len(short) and short[way] else ""
        crossed = best == 0 and whole[0] > 0.5
        single_confidence = float(whole[best]) if best else 0.0
        if apart and pair_confidence > (whole[0] if crossed else 0.0):  # two pieces: a number
            value, confidence, why = pair, pair_confidence, pair_why
        elif crossed:
            value, confidence = CROSSED, float(whole[0])
        elif single_confidence > pair_confidence:  # one wide digit or two touching ones: the likelier, less sure
            value, confidence = int(single[best - 1]), AMBIGUOUS * single_confidence
            why = WHY_ONE_OR_TWO if pair_confidence > ONE_OR_TWO else ""
        else:
            value, confidence = pair, AMBIGUOUS * pair_confidence
            why = pair_why or (WHY_ONE_OR_TWO if single_confidence > ONE_OR_TWO else "")
    if circled and value == CROSSED:
        why = WHY_CIRCLED_X
    elif circled:
        value = Guarded(value)
    if confidence < digits.UNSURE_BELOW:
        why = WHY_GUESS.format(f"{confidence:.0%}")
    return CellRead(cell.id, value, confidence, bool(why), why)
