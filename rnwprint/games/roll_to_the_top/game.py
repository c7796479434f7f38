"""Roll to the Top: fill a tower of squares from the ground up with dice numbers.

Towers are geometry (rnwprint.games.roll_to_the_top.tower); the built-in challenges are data in
templates/towers.toml. A variant names the tower and the rule:

- a built-in challenge by its id (``burj``, ``eiffel`` …; the first is the easiest);
- a custom tower as ``t.`` + its code (rnwprint.games.roll_to_the_top.tower.encode), so the identity QR
  alone rebuilds the exact sheet, in any process;
- either one + ``-desc`` for the descending rule (each number ≤ the ones it rests on).

`rnwprint sheet roll-to-the-top --variant all` prints the built-ins (ascending); the
descending ones are asked for by name (``eiffel-desc``).

game.py keeps the variants and the built-in challenges; sheet.py lays out and draws the
sheet, difficulty.py rates a tower for it, rules.py audits a filled-in sheet.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass

from rnwprint.core.entries import shown
from rnwprint.core.errors import RnwError
from rnwprint.data import data_path
from rnwprint.games.roll_to_the_top.tower import OldCodeError, Tower, TowerError
from rnwprint.games.roll_to_the_top.tower_code import decode, encode, normal_code
from rnwprint.games.roll_to_the_top.tower_input import parse_ascii

NAME = "roll-to-the-top"
LAYOUT_VERSION = 2  # 2: squares as large as the page allows (up to 25 mm), the tower centred
TEMPLATE = data_path("templates", "towers.toml")
DESC = "-desc"
CUSTOM = "t."


@dataclass(frozen=True)
class Builtin:
    id: str
    names: dict[str, str]
    tower: Tower


@functools.cache
def _entries() -> tuple[tuple[str, dict[str, str], str, str], ...]:
    """(id, names, art, key) of each built-in challenge in template order, names checked."""
    where = str(TEMPLATE)
    with open(TEMPLATE, "rb") as f:
        data = tomllib.load(f)
    out = []
    for n, entry in enumerate(data.get("tower", [])):
        key = f"tower[{n}]"
        tid = entry.get("id")
        if not isinstance(tid, str) or not re.fullmatch(r"[a-z][a-z0-9]{0,10}", tid):
            # 11 characters at most: with "-desc" a variant has 16 (see the identity QR below)
            raise RnwError(f"{key}.id: expected a short lowercase name such as \"eiffel\" (1-11 letters "
                           "or digits)", where)
        if any(tid == other for other, *_ in out):
            raise RnwError(f"{key}.id: {tid!r} is used twice", where)
        unknown = sorted(set(entry) - {"id", "es", "en", "art"})
        if unknown:
            raise RnwError(f"{key}: unknown keys {', '.join(unknown)}; valid keys are id, es, en, art", where)
        names = {lang: entry.get(lang) for lang in ("es", "en")}
        if not all(isinstance(v, str) and v for v in names.values()):
            raise RnwError(f"{key}: needs its name in es and en", where)
        out.append((tid, names, entry.get("art", ""), key))
    if not out:
        raise RnwError("no [[tower]] entries", where)
    return tuple(out)


@functools.cache
def builtins() -> dict[str, Builtin]:
    """The built-in challenges in their template order, each checked playable."""
    where = str(TEMPLATE)
    return {tid: Builtin(tid, names, parse_ascii(art, f"{where}: {key}.art").check(f"{where}: {key}.art"))
            for tid, names, art, key in _entries()}


VARIANTS = tuple(tid for tid, *_ in _entries())  # towers are built (and checked) when first used


# --- variants ---------------------------------------------------------------------------
#
# A custom tower's variant is "t." + its code: the identity QR holds it (a bigger QR code for
# a long one, see layout.page.qr_rows), so a photo alone rebuilds the sheet. A built-in's id
# has 11 characters at most, so that its identity keeps to the 53 bytes of a version-3 code.


def custom_variant_name(tower: Tower, descending: bool = False) -> str:
    """The variant of a custom tower: ``t.`` + its code (+ ``-desc``)."""
    return CUSTOM + encode(tower) + (DESC if descending else "")


@functools.lru_cache(maxsize=256)
def _custom_tower(code: str) -> Tower | None:
    """The tower of a code (None: not a tower code), checked playable (TowerError); an old
    code is refused saying what it is now (OldCodeError)."""
    try:
        tower = decode(code)
    except OldCodeError:
        raise
    except ValueError:
        return None
    return tower.check()


def parse_variant(variant: str) -> tuple[Tower, bool, str | None]:
    """variant -> (tower, descending?, built-in id or None); ValueError says what is wrong."""
    descending = variant.endswith(DESC)
    base = variant[: -len(DESC)] if descending else variant
    if base in builtins():
        return builtins()[base].tower, descending, base
    if base[:len(CUSTOM)].lower() == CUSTOM:
        try:
            tower = _custom_tower(base[len(CUSTOM):])
        except TowerError as e:
            raise ValueError(e.message) from None
        except OldCodeError as e:
            raise ValueError(f"{variant!r}: {e}") from None
        if tower is not None:
            return tower, descending, None
    raise ValueError(f"unknown variant {variant!r} for {NAME}; choose one of: {', '.join(VARIANTS)} "
                     f"(add {DESC} for the descending rule), or a custom tower t.CODE (the code printed "
                     f"on its sheet)")


def tower_from_text(text: str, where: str = "tower") -> Tower:
    """A tower drawn in ASCII, or the code printed on a custom tower's sheet; checked playable."""
    stripped = text.strip()
    if not stripped:
        raise TowerError("empty: draw the tower with [] squares, or give the code printed on a custom "
                         "tower's sheet", where)
    if "[" not in stripped and " " not in stripped and "\n" not in stripped:
        return tower_from_code(stripped, where, "neither a tower drawing ([] squares) nor a tower code")
    return parse_ascii(text, where).check(where)


NO_CODE = "not a tower code: check it against the one printed on the sheet"


def tower_from_code(code: str, where: str = "--code", wrong: str = NO_CODE) -> Tower:
    """The tower of the code printed on a custom tower's sheet; checked playable. TowerError
    saying what the code is (`wrong`) when it is none."""
    code = code.strip()
    if not code:
        raise TowerError("empty: give the code printed on a custom tower's sheet", where)
    try:
        return decode(code).check(where)
    except OldCodeError as e:
        raise TowerError(str(e), where) from None
    except ValueError:
        raise TowerError(f"{shown(code)} is {wrong}", where) from None


def custom_variant(variant: str | None, extra: dict) -> str | None:
    """Game hook: built-in + -desc, t.CODE, and a typed-in file's `tower` / `descending` keys."""
    art = extra.get("tower")
    descending = extra.get("descending", False)
    if not isinstance(descending, bool):
        raise ValueError(f"descending: {descending!r} is not true or false")
    if variant is not None and not isinstance(variant, str):
        raise ValueError(f"{variant!r} is not a variant name")
    if variant is not None and variant.lower().endswith(DESC):  # t.1FETQ-DESC as t.1FETQ-desc
        variant = variant[: -len(DESC)] + DESC
    if extra.get("descending") is False and variant and variant.endswith(DESC):
        raise ValueError(f"descending = false, but the variant {variant!r} is the descending rule: drop one of them")
    if art is None:
        if variant is None:
            return VARIANTS[0] + DESC if descending else None
        if not (variant.removesuffix(DESC) in builtins() or variant[:len(CUSTOM)].lower() == CUSTOM):
            return None
        tower, desc, builtin = parse_variant(variant)
        if builtin is None:  # as printed: t.7KD3M9QX for t.7kd3-m9qx
            return custom_variant_name(tower, desc or descending)
        return variant + DESC if descending and not variant.endswith(DESC) else variant
    if not isinstance(art, str):
        raise ValueError("tower: expected the tower drawn as text ([] squares) or its code")
    try:
        tower = tower_from_text(art)
    except TowerError as e:
        raise ValueError(str(e)) from None
    drawn = custom_variant_name(tower, descending or bool(variant and variant.endswith(DESC)))
    if variant is not None:
        named = variant.removesuffix(DESC)
        if named in builtins():
            if builtins()[named].tower != tower:
                raise ValueError(f"{variant!r} is not the tower given under `tower`")
            return variant + DESC if descending and not variant.endswith(DESC) else variant
        same = named[:len(CUSTOM)].lower() == CUSTOM and CUSTOM + normal_code(named[len(CUSTOM):]) == drawn.removesuffix(DESC)
        if not same:  # the code as printed (7KD3-M9QX) or typed (7kd3m9qx) names it too
            raise ValueError(f"{variant!r} is not the tower given under `tower` (that one is "
                             f"{drawn.removesuffix(DESC)}); check the drawing against the sheet")
    return drawn


def cell_ids(variant: str) -> frozenset[str]:
    return frozenset(parse_variant(variant)[0].ids)


def random_towers(seed: int, count: int = 1, squares: int = 30, shape: str = "mixed",
                  max_width: int = 12) -> list[Tower]:
    """`count` different playable towers, the same ones for the same arguments."""
    import random

    from rnwprint.games.roll_to_the_top.tower import random_tower

    rng = random.Random(seed)
    towers: dict[tuple, Tower] = {}
    tries = 0
    while len(towers) < count:
        tower = random_tower(rng, squares, shape, max_width)
        towers.setdefault(tower.squares, tower)
        tries += 1
        if tries > 20 * count + 100:
            raise TowerError(f"found only {len(towers)} different towers of {squares} squares "
                             f"(shape {shape}); ask for fewer or larger ones", "--count")
    return list(towers.values())
