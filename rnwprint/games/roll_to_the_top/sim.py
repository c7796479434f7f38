"""Roll to the Top by simulation: the dice, a greedy solo player, and a difficulty rating.

The dice: one each of d4, d6, d8, d12, d20 and a white action die whose six faces are
``+ + − − ± ⇄`` (add a die to those rolled, remove one, either, add one and remove another).
A game starts with the dice that showed an even number on a first roll of all five (rolled
again if none did). After each roll the next set of dice is, in this order of precedence:

1. nothing was written from the roll: add a die (keep five if all five were rolled);
2. all five were rolled: remove one;
3. only one was rolled: add one;
4. otherwise what the white die says (``±``: the roller chooses; ``⇄``: swap one for another).

The greedy player fills as many squares as it can from each roll, one die or a sum of
dice per square, each die at most once, squares that become writable during the roll
included: single dice first (smallest die into the square whose range closes first), then
sums of the fewest dice. It keeps numbers close to the bound a square must meet (ascending:
at most SLACK above the largest number under it; descending: at most SLACK below the
smallest, and at least DESC_GROUND on ground squares and overhangs others rest on); a square
nothing rests on takes anything. For each roll it writes nothing it accepts RELAX more.
When it adds or removes a die (± : add while three or fewer are rolled) it keeps the dice
most likely to fit the squares it can write next.

A rating is the rounds (rolls) of RATING_GAMES solo games seeded by the tower's base-62 code: mean,
10th and 90th percentile (linear interpolation) and stars by the mean (STARS).
Pure Python; one 30-square game takes about half a millisecond.
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass

from rnwprint.games.roll_to_the_top.tower import Tower

DICE = (4, 6, 8, 12, 20)
WHITE_FACES = ("+", "+", "−", "−", "±", "⇄")  # ADD, ADD, REMOVE, REMOVE, EITHER, SWAP
HIGHEST = sum(DICE)  # 50: every die at once
LOW, HIGH = 1, HIGHEST  # what a square may hold
SLACK = 1  # how far past its bound the player writes into a square others rest on
DESC_GROUND = 8  # descending: the least a square with others on it is given freely
RELAX = 1  # per roll written nothing, accept that much more
MAX_ROUNDS = 400  # a safety net; no real game gets near it
RATING_GAMES = 24  # games behind a printed rating (seeded, so always the same stars)
STARS = (11.0, 16.0, 20.5, 24.0)  # mean rounds up to which a tower gets 1, 2, 3, 4 stars

# every subset of two or more of up to five dice (as index tuples), fewest dice first
_SUMS = {k: sorted((tuple(i for i in range(k) if m >> i & 1) for m in range(1, 1 << k) if m & (m - 1)), key=len)
         for k in range(2, 6)}


@dataclass(frozen=True)
class Rating:
    games: int
    mean: float
    p10: float
    p90: float
    stars: int

    def to_dict(self) -> dict:
        return {"games": self.games, "mean": round(self.mean, 2), "p10": self.p10, "p90": self.p90,
                "stars": self.stars}


class _Plan:
    """The tower reduced to index lists the inner loop can walk quickly."""

    def __init__(self, tower: Tower, descending: bool) -> None:
        self.n = len(tower)
        self.sup = tower.supports
        self.beside = tower.beside
        self.ground = tower.ground
        self.dependents = tuple(bool(r) for r in tower.resting)
        self.descending = descending
        # squares to look at again once square i is filled
        self.after = tuple(tuple(sorted(set(tower.resting[i]) | {b for b in tower.beside[i] if tower.overhang[b]}))
                           for i in range(self.n))


def _window(plan: _Plan, vals: list[int], i: int) -> tuple[int, int]:
    """The numbers the player is willing to write into writable square i (before relaxing)."""
    sup = plan.sup[i]
    if plan.descending:
        top = min(vals[s] for s in sup) if sup else HIGHEST
        if not plan.dependents[i]:
            return 1, top
        if sup:
            return max(1, top - SLACK), top
        return DESC_GROUND, HIGHEST
    low = max(vals[s] for s in sup) if sup else 1
    if not plan.dependents[i]:
        return low, HIGHEST
    return low, min(HIGHEST, low + SLACK)


def _writable(plan: _Plan, vals: list[int], i: int) -> bool:
    if vals[i]:
        return False
    if plan.ground[i]:
        return True
    sup = plan.sup[i]
    if sup:
        for s in sup:
            if not vals[s]:
                return False
        return True
    for b in plan.beside[i]:
        if vals[b]:
            return True
    return False


def _place(plan: _Plan, vals: list[int], frontier: dict[int, tuple[int, int]], roll: list[int], relax: int) -> int:
    """Write what the greedy player writes from `roll`; returns how many squares it filled.

    `frontier` maps each writable open square to the numbers the player would write there.
    """
    free = sorted(roll)
    filled = 0
    while free and frontier:
        if not relax:
            windows = sorted(frontier.items(), key=_closes)
        elif plan.descending:
            windows = sorted(((i, (max(1, lo - relax), hi)) for i, (lo, hi) in frontier.items()), key=_closes)
        else:
            windows = sorted(((i, (lo, min(HIGHEST, hi + relax))) for i, (lo, hi) in frontier.items()), key=_closes)
        done: list[tuple[int, int]] = []
        # one die per square: smallest die first, into the eligible square that closes first
        rest = []
        for d in free:
            for k, (i, (lo, hi)) in enumerate(windows):
                if lo <= d <= hi:
                    done.append((i, d))
                    del windows[k]
                    break
            else:
                rest.append(d)
        # sums of several dice, fewest dice first, for squares no single die fits
        while len(rest) >= 2 and windows:
            low = HIGHEST + 1
            for _, (lo, _) in windows:
                if lo < low:
                    low = lo
            if sum(rest) < low:
                break
            hit = None
            for subset in _SUMS[len(rest)]:
                total = 0
                for k in subset:
                    total += rest[k]
                if total < low:
                    continue
                for k, (_, (lo, hi)) in enumerate(windows):
                    if lo <= total <= hi:
                        hit = (subset, k, total)
                        break
                if hit:
                    break
            if hit is None:
                break
            subset, k, total = hit
            done.append((windows.pop(k)[0], total))
            rest = [d for k, d in enumerate(rest) if k not in subset]
        if not done:
            break
        for i, v in done:
            vals[i] = v
            del frontier[i]
        filled += len(done)
        for i, _ in done:
            for j in plan.after[i]:
                if j not in frontier and _writable(plan, vals, j):
                    frontier[j] = _window(plan, vals, j)
        free = rest
    return filled


def _closes(item: tuple[int, tuple[int, int]]) -> int:
    return item[1][1]


def _fits(frontier: dict[int, tuple[int, int]]) -> dict[int, tuple[float, int]]:
    """For each die: (how many squares writable now one roll of it is expected to fit, -sides)."""
    f4 = f6 = f8 = f12 = f20 = 0.0
    for lo, hi in frontier.values():
        if lo <= 20:
            f20 += ((hi if hi < 20 else 20) - lo + 1) / 20
            if lo <= 12:
                f12 += ((hi if hi < 12 else 12) - lo + 1) / 12
                if lo <= 8:
                    f8 += ((hi if hi < 8 else 8) - lo + 1) / 8
                    if lo <= 6:
                        f6 += ((hi if hi < 6 else 6) - lo + 1) / 6
                        if lo <= 4:
                            f4 += ((hi if hi < 4 else 4) - lo + 1) / 4
    return {4: (f4, -4), 6: (f6, -6), 8: (f8, -8), 12: (f12, -12), 20: (f20, -20)}


def play(plan: _Plan, rng: random.Random) -> int:
    """One solo game; returns the number of rolls it took to fill every square."""
    vals = [0] * plan.n
    frontier = {i: _window(plan, vals, i) for i in range(plan.n) if plan.ground[i]}
    rand = rng.random  # int(rand() * d) + 1 is a fair roll of a d-sided die, and fast
    active = []
    while not active:
        active = [d for d in DICE if int(rand() * d) % 2 == 1]
    left = plan.n
    rounds = relax = 0
    while left and rounds < MAX_ROUNDS:
        rounds += 1
        roll = [int(rand() * d) + 1 for d in active]
        face = WHITE_FACES[int(rand() * 6)]
        wrote = _place(plan, vals, frontier, roll, relax)
        left -= wrote
        relax = 0 if wrote else relax + RELAX
        if not left:
            break
        k = len(active)
        if not wrote:
            if k == 5:
                continue
            action = "+"
        elif k == 5:
            action = "−"
        elif k == 1:
            action = "+"
        else:
            action = face
            if action == "±":
                action = "+" if k <= 3 else "−"
        fit = _fits(frontier).__getitem__
        if action != "−":  # + or ⇄: add the absent die that fits best
            active.append(max((d for d in DICE if d not in active), key=fit))
        if action != "+":  # − or ⇄: remove the die that fits worst (not the one just added)
            active.remove(min(active[:-1] if action == "⇄" else active, key=fit))
        active.sort()
    return rounds


def seed_for(tower: Tower, descending: bool) -> int:
    from rnwprint.games.roll_to_the_top.tower_code import base62_code

    return zlib.crc32(f"{base62_code(tower)}{'-desc' if descending else ''}".encode())


def simulate(tower: Tower, games: int, descending: bool = False, seed: int | None = None) -> list[int]:
    """Rounds needed in each of `games` seeded solo games (the same tower: the same list)."""
    plan = _Plan(tower, descending)
    rng = random.Random(seed_for(tower, descending) if seed is None else seed)
    return [play(plan, rng) for _ in range(games)]


def percentile(sorted_values: list[int], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    pos = (len(sorted_values) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def stars(mean: float) -> int:
    return 1 + sum(mean > limit for limit in STARS)


def rate(tower: Tower, descending: bool = False, games: int = RATING_GAMES) -> Rating:
    rounds = sorted(simulate(tower, games, descending))
    mean = math.fsum(rounds) / len(rounds)  # statistics.fmean's sum, without its import (a few ms)
    return Rating(games, mean, percentile(rounds, 0.1), percentile(rounds, 0.9), stars(mean))
