"""Short tower codes for a sheet's identity QR: a tower's squares as exp-Golomb bits, written
in Crockford's base 32 (see rnwprint.games.roll_to_the_top.tower for the geometry)."""

from __future__ import annotations

from rnwprint.games.roll_to_the_top.tower import (
    MAX_ACROSS,
    MAX_ROWS,
    MAX_SQUARES,
    OldCodeError,
    Tower,
    TowerError,
    check_extent,
)

# Tower codes are written in Crockford's base 32: digits and capitals without I, L, O and U,
# so nothing looks like something else; read in either case, I and L as 1, O as 0.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_OLD_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"  # base 62: codes printed before issue 16


# --- short codes for the identity QR ------------------------------------------------------

class _Bits:
    def __init__(self) -> None:
        self.bits: list[int] = []

    def gamma(self, v: int) -> None:
        """Exp-Golomb code of v >= 0: small numbers take few bits."""
        v += 1
        n = v.bit_length()
        self.bits += [0] * (n - 1) + [int(b) for b in bin(v)[2:]]

    def signed(self, v: int) -> None:
        self.gamma(2 * v if v >= 0 else -2 * v - 1)


class _Reader:
    def __init__(self, bits: str) -> None:
        self.bits, self.pos = bits, 0

    def gamma(self) -> int:
        zeros = 0
        while self._bit() == 0:
            zeros += 1
            if zeros > 32:
                raise ValueError("corrupt code")
        v = 1
        for _ in range(zeros):
            v = 2 * v + self._bit()
        return v - 1

    def signed(self) -> int:
        v = self.gamma()
        return v // 2 if v % 2 == 0 else -(v + 1) // 2

    def _bit(self) -> int:
        if self.pos >= len(self.bits):
            raise ValueError("code ends too early")
        self.pos += 1
        return int(self.bits[self.pos - 1])


def _runs(tower: Tower) -> list[list[tuple[int, int]]]:
    """Per row from the ground: runs of edge-to-edge squares as (left col2, count)."""
    rows: list[list[tuple[int, int]]] = [[] for _ in range(tower.rows)]
    for r, c in tower.squares:
        runs = rows[r]
        if runs and runs[-1][0] + 2 * runs[-1][1] == c:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((c, 1))
    return rows


def encode(tower: Tower) -> str:
    """A short code of the squares in Crockford's base 32 (about 1 character per row of a
    simple tower), upper case, without hyphens.

    Bits: the row count, then per row the number of runs, and per run its left edge (the
    first run relative to the row below's first run, the others as the gap after the run
    before) and its length, all in exp-Golomb codes; read as one integer in base 32.
    """
    return _digits(_bits(tower), CODE_ALPHABET)


def base62_code(tower: Tower) -> str:
    """The tower's code in the base-62 format printed before issue 16: ratings are seeded with
    it (roll_to_the_top.sim.seed_for), so every tower kept its printed figures when codes changed."""
    return _digits(_bits(tower), _OLD_ALPHABET)


def normal_code(code: str) -> str:
    """A code as typed (either case, hyphens and spaces, I/L for 1, O for 0) as printed."""
    return "".join(code.split()).replace("-", "").upper().translate(str.maketrans("ILO", "110"))


def grouped(code: str) -> str:
    """A code as printed on a sheet: in groups of four, 7KD3-M9QX-2B."""
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))


def decode(code: str) -> Tower:
    """The inverse of `encode`, for a code as typed (see `normal_code`); ValueError for a
    string that is not a tower code, saying so plainly for a code of the old format."""
    given, code = code, normal_code(code)
    try:
        return _decode(code, CODE_ALPHABET)
    except ValueError as e:
        reason = e
    try:
        old = _decode(given.strip(), _OLD_ALPHABET)
    except ValueError:
        raise reason from None
    raise OldCodeError(f"{given!r} is a tower code of the old format: codes changed to 0-9 and A-Z without "
                     f"I, L, O and U; this tower's code is now {encode(old)}")


def _bits(tower: Tower) -> str:
    rows = _runs(tower)
    if any(not runs for runs in rows):
        raise ValueError("a tower with an empty row has no code")
    out = _Bits()
    out.gamma(len(rows) - 1)
    prev = 0
    for runs in rows:
        out.gamma(len(runs) - 1)
        end = None
        for k, (left, count) in enumerate(runs):
            if k == 0:
                out.signed(left - prev)
                prev = left
            else:
                out.gamma(left - end - 1)
            out.gamma(count - 1)
            end = left + 2 * count
    return "".join(map(str, out.bits))


def _digits(bits: str, alphabet: str) -> str:
    """The bits after a leading 1, as one integer written in the alphabet's base."""
    number, base = int("1" + bits, 2), len(alphabet)
    digits = []
    while number:
        number, d = divmod(number, base)
        digits.append(alphabet[d])
    return "".join(reversed(digits))


def _decode(code: str, alphabet: str) -> Tower:
    if not code or len(code) > 400 or any(ch not in alphabet for ch in code):
        raise ValueError(f"{code!r} is not a tower code: codes are 0-9 and A-Z without I, L, O and U")
    number = 0
    for ch in code:
        number = number * len(alphabet) + alphabet.index(ch)
    bits = bin(number)[3:]
    reader = _Reader(bits)
    rows = reader.gamma() + 1
    if rows > MAX_ROWS:
        raise ValueError("too many rows")
    squares, prev = [], 0
    for r in range(rows):
        n_runs = reader.gamma() + 1
        end = None
        for k in range(n_runs):
            if k == 0:
                left = prev + reader.signed()
                prev = left
            else:
                left = end + 1 + reader.gamma()
            count = reader.gamma() + 1
            if count > MAX_ACROSS or len(squares) + count > MAX_SQUARES:
                raise ValueError("too many squares")
            squares += [(r, left + 2 * i) for i in range(count)]
            end = left + 2 * count
    if reader.pos != len(bits):
        raise ValueError(f"{code!r} is not a tower code (extra bits)")
    try:
        check_extent(squares)
    except TowerError as e:
        raise ValueError(e.message) from None
    tower = Tower.of(squares)
    if _digits(_bits(tower), alphabet) != code:
        raise ValueError(f"{code!r} is not the canonical code of a tower")
    return tower
