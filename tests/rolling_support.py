"""Shared helpers for the Rolling America / España rules tests: the two boards, sheet and
report helpers, and a simple greedy player."""

from __future__ import annotations

from collections import Counter

from rnwprint.core.entries import CROSSED, Entries, Guarded
from rnwprint.games.rolling.log import Turn, Write
from rnwprint.games.rolling.rules import WILD, load_board

US = load_board("rolling-america")
ES = load_board("rolling-espana")


def sheet(cells: dict | None = None, board=US, **counters) -> Entries:
    return Entries("sheet.toml", board.game, board.map, dict(cells or {}), dict(counters))


def rules(report) -> list[tuple[str, tuple[str, ...]]]:
    return [(v.rule, v.cells) for v in report.violations]


# --- a legal game, played by a simple greedy player --------------------------------------------

def _legal(board, state, code, face):
    return code not in state and all(
        type(state.get(n)) is not int or abs(state[n] - face) <= 1 for n in board.neighbours[code])


def greedy(board, turns, powers=True):
    """Play `turns` legally: first legal cell; powers when they help. -> (turns, sheet)."""
    state, uses, out = {}, Counter(), []
    for turn in turns:
        writes = []
        for die, face in turn.dice:
            region = board.cells if die == WILD else board.regions[die]
            legal = [c for c in region if _legal(board, state, c, face)]
            everywhere = [c for c in board.cells if _legal(board, state, c, face)]
            empty = [c for c in region if c not in state]
            if legal:
                state[legal[0]] = face
                w = Write(die, cell=legal[0])
                more = [c for c in board.regions[board.region_of[legal[0]]]
                        if _legal(board, state, c, face)]
                if powers and more and uses["dupe"] < 3:
                    uses["dupe"] += 1
                    state[more[0]] = face
                    w = Write(die, cell=legal[0], dupe_cell=more[0])
            elif powers and everywhere and uses["colour_change"] < 3:
                uses["colour_change"] += 1
                state[everywhere[0]] = face
                w = Write(die, cell=everywhere[0], colour_change=True)
            elif powers and empty and uses["guard"] < 3:
                uses["guard"] += 1
                state[empty[0]] = Guarded(face)
                w = Write(die, cell=empty[0], guard=True)
            elif empty:
                state[empty[0]] = CROSSED
                w = Write(die, x=empty[0])
            else:
                w = Write(die, nothing=True)
            writes.append(w)
        out.append(Turn(turn.number, turn.round, turn.dice, tuple(writes)))
    return out, sheet(state, board, rounds=8, **uses)
