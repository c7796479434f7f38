"""Photo -> what is written on the sheet: load, locate the page, rebuild its Sheet, rectify,
read every cell. The result becomes a typed-in file, Entries for the audit, or an annotated
picture for a person to check."""

from __future__ import annotations

import functools
import math
import pathlib
import time
from dataclasses import dataclass, field, replace

import numpy as np

from rnwprint.core.entries import Entries, toml_value, typed_in
from rnwprint.core.errors import RnwError, printable
from rnwprint.photo import coarse_advice, light_advice, too_coarse
from rnwprint.photo.identity import sheet_for
from rnwprint.photo.load import load_photo, load_photo_noting_damage
from rnwprint.photo.locate import MarkersMissing, PageFix, locate
from rnwprint.photo.printed import _printed, of_print
from rnwprint.photo.read import CellRead, read_cells
from rnwprint.photo.rectify import rectify
from rnwprint.core.sheet import Identity, Sheet
from rnwprint.locale import t

PX_PER_MM = 8.0  # the rectified page: a 7 mm box is 56 px, plenty for a digit


@dataclass
class PhotoRead:
    source: str
    identity: Identity
    sheet: Sheet
    reads: dict[str, CellRead]
    page: np.ndarray  # rectified grey page at PX_PER_MM (around the cells: see whole_page)
    photo_px_per_mm: float  # how finely the photo itself sees the page
    timings: dict[str, float] = field(default_factory=dict)  # stage -> ms
    damage: str = ""  # what the decoder said was corrupt in the file ("": nothing)
    #: the photo and where the page lies in it, for the whole page (`whole_page`)
    image: np.ndarray | None = field(default=None, repr=False)
    fix: PageFix | None = field(default=None, repr=False)

    def whole_page(self) -> np.ndarray:
        """The whole page top-down at PX_PER_MM (`page` holds only the cells' surroundings)."""
        if self.image is None:
            return self.page
        return rectify(self.image, self.fix, self.sheet, PX_PER_MM)

    @property
    def unsure(self) -> list[str]:
        return [cid for cid, r in self.reads.items() if r.unsure]

    @property
    def too_coarse(self) -> bool:
        return too_coarse(self.photo_px_per_mm)

    @property
    def light(self) -> dict[str, int]:
        """Cells the photo's light left unreadable for sure: {"dark": n, "bright": n}, or {};
        cells under something (a finger) count as "covered", partly outside the photo as "outside"."""
        counts: dict[str, int] = {}
        for r in self.reads.values():
            if r.light:
                counts[r.light] = counts.get(r.light, 0) + 1
        return counts

    def advice(self, lang: str = "en") -> str:
        """What to do better next time (a photo too coarse, too dark or too bright), or ""."""
        return " ".join(a for a in (coarse_advice(self.photo_px_per_mm, lang), light_advice(self.light, lang)) if a)

    def damage_note(self, lang: str = "en") -> str:
        """What a damaged file means for the read, or ""."""
        return t(lang, "audit.damaged_photo", what=self.damage) if self.damage else ""

    def entries(self) -> Entries:
        cells = {cid: r.value for cid, r in self.reads.items()
                 if self.sheet.cells[cid].kind != "tick" and r.value is not None}
        ticked = tuple(cid for cid, r in self.reads.items() if self.sheet.cells[cid].kind == "tick" and r.value)
        return Entries(self.source, self.identity.game, self.identity.variant, cells, self.counters(),
                       self.identity.lang, ticked=ticked, page=self.identity.page)

    def counters(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for cid, r in self.reads.items():
            cell = self.sheet.cells[cid]
            if cell.kind == "tick":
                counts[cell.counter] = counts.get(cell.counter, 0) + bool(r.value)
        return counts


def read_photo(path: str | pathlib.Path) -> PhotoRead:
    """Read a photo of a printed rnwprint sheet. RnwError (naming the file) if it cannot.

    `timings` holds the milliseconds of each stage, one after the other, so they add up to
    "total": decode (the JPEG), markers, qr, sheet (rebuilding the Sheet the QR code names:
    only the first photo of a sheet in a process), homography, print (drawing that sheet's
    own print around its cells, to tell it from the pen: first photo of a sheet only), model
    (loading the digit networks: first photo only), rectify (the cells' surroundings, top-down)
    and cells (reading every cell). A stage's first use in a process includes the modules it
    imports."""
    from rnwprint.photo import digits

    where = str(path)
    clock = _Clock()
    image, damage = load_photo_noting_damage(path)
    clock.stage("decode")
    try:
        image, fix, mirrored = _locate(image, where)
    except RnwError as e:
        if damage:  # the decoder's garbage may be what hides the page: the file is what to mend first
            raise RnwError(f"the photo file is damaged ({damage}): copy it again from the phone; {e.message}",
                           e.where) from None
        raise
    sheet = sheet_for(fix.identity, where)
    if not sheet.cells:
        raise RnwError(f"a {fix.identity.game} {fix.identity.variant} sheet has no places to fill: nothing to read "
                       "(photograph a sheet the players write on)", where)
    if any(c.kind not in ("number", "tick") for c in sheet.cells.values()):  # places its game reads itself
        return _read_places(path, image, damage, fix, sheet, clock, mirrored)
    guarded, guard_counter = _guarding(fix.identity.game)
    clock.stages(fix.timings, last="homography")  # what locate did not time is its fit's
    _printed(sheet, PX_PER_MM)
    clock.stage("print")
    digits._model(), digits._convnet()
    clock.stage("model")
    page = rectify_around_cells(image, fix, sheet, PX_PER_MM)
    clock.stage("rectify")
    reads = read_cells(page, sheet, PX_PER_MM, guarded, fix.px_per_mm, guard_counter)
    reads = {cid: reads[cid] for cid in sheet.cells}  # in the sheet's order, written or not (--json's)
    reads = _outside_flagged(_coarse_flagged(reads, fix), sheet, fix)
    clock.stage("cells")
    clock.timings["total"] = (clock.mark - clock.start) * 1000
    if damage:  # a corrupt stretch decodes as garbage: where it lies is not known
        reads = {cid: replace(r, unsure=True, why=DAMAGED) for cid, r in reads.items()}
    return PhotoRead(where, fix.identity, sheet, reads, page, fix.px_per_mm, clock.timings, damage, image, fix)


def _coarse_flagged(reads: dict[str, CellRead], fix: PageFix) -> dict[str, CellRead]:
    """`reads`, every one flagged (COARSE) where the photo sees the page coarser than
    TRUSTED_FROM; there a box whose print cannot be made out is no sign of a finger."""
    if fix.px_per_mm >= TRUSTED_FROM:
        return reads
    return {cid: replace(r, unsure=True, light="" if r.light == "covered" else r.light,
                         why=f"{r.why}; {COARSE}" if r.unsure and r.light != "covered" else COARSE)
            for cid, r in reads.items()}


def _outside_flagged(reads: dict[str, CellRead], sheet: Sheet, fix: PageFix) -> dict[str, CellRead]:
    """`reads` with every cell whose box (grown by OUTSIDE_MM) the photo does not hold whole (a
    corner of the page left out of it: three markers found) flagged, whatever was read of it:
    what lies beyond the photo's edge is not known (and shows as white, not as too bright a
    light)."""
    ids = list(sheet.cells)
    m = OUTSIDE_MM
    boxes = np.array([sheet.cells[cid].bounds for cid in ids], np.float64).reshape(-1, 4)
    corners = fix.to_image(np.stack([boxes[:, [0, 1]] + (-m, -m), boxes[:, [2, 1]] + (m, -m),
                                     boxes[:, [2, 3]] + (m, m), boxes[:, [0, 3]] + (-m, m)], axis=1)).reshape(-1, 4, 2)
    w, h = fix.image_size
    x, y = corners[..., 0], corners[..., 1]
    out = ~((x >= 0) & (x <= w - 1) & (y >= 0) & (y <= h - 1)).all(axis=1)
    if not out.any():
        return reads
    return {**reads, **{cid: replace(reads[cid], unsure=True, why=OUTSIDE, light="outside")
                        for cid, o in zip(ids, out) if o}}


def _locate(image: np.ndarray, where: str) -> tuple[np.ndarray, PageFix, bool]:
    """The photo, where its page lies, and whether the photo was mirrored (left and right
    swapped, as a front camera or a mirror shows the sheet: no marker reads): such a photo is
    read flipped back."""
    try:
        return image, locate(image, where), False
    except MarkersMissing as first:
        flipped = _unmirrored(image)
        try:
            return flipped, locate(flipped, where), True
        except RnwError:
            raise first from None


def _unmirrored(image: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(image[:, ::-1])


@functools.cache
def _guarding(game: str) -> tuple[bool, str]:
    """Whether the game has guarded (circled) numbers, and its guard counter (Game.guard_counter),
    kept on disk with the sheets: on a cache hit the games need not be imported (sheet_for has
    checked the name)."""
    from rnwprint.cache import cached

    def ask() -> tuple[bool, str]:
        from rnwprint.games import get_game

        return get_game(game).allows_guarded, get_game(game).guard_counter

    # (a damaged entry fails to decode and is built again)
    return cached("guarded", game, ask, lambda g: (b"1" if g[0] else b"0") + g[1].encode(),
                  lambda d: ({b"1": True, b"0": False}[d[:1]], d[1:].decode()))


def _read_places(path, image, damage, fix, sheet: Sheet, clock, mirrored: bool) -> PhotoRead:
    """A sheet whose places its game reads itself (Catan's map, by pencil colour), in colour."""
    from rnwprint.games import get_game
    from rnwprint.photo.read import CellRead

    where = str(path)
    game = get_game(fix.identity.game, where)
    clock.stages(fix.timings, last="homography")
    colour = load_photo(path, colour=True)  # decoded again: the grey one found the page
    if _colourless(colour):
        raise RnwError("the photo has no colour (black and white?): the pieces on this sheet are told apart by "
                       "their pencils' colours; send the photo in colour", where)
    if mirrored:
        colour = _unmirrored(colour)
    clock.stage("decode")
    reads = {cid: CellRead(cid, r.value, r.confidence, r.unsure, r.why, light=r.light)
             for cid, r in game.read_places(colour, fix.homography, sheet).items()}
    reads = _outside_flagged(_coarse_flagged(reads, fix), sheet, fix)
    clock.stage("cells")
    page = np.full((1, 1), 255, np.uint8)  # nothing read from a grey page: whole_page() makes one for --annotate
    clock.timings["total"] = (clock.mark - clock.start) * 1000
    if damage:
        reads = {cid: replace(r, unsure=True, why=DAMAGED) for cid, r in reads.items()}
    return PhotoRead(where, fix.identity, sheet, reads, page, fix.px_per_mm, clock.timings, damage, image, fix)


#: a photo whose pixels' colour (the spread of their channels) stays under this share of their
#: brightness in 99 of 100 is black and white, as a grey JPEG or a grey scan decodes (0): a
#: printed Catan map's terrains and sea spread 15 % and more (12 generated photos at 2 and 12 MP,
#: plain, under a warm lamp, 0.15 and 0.05 times as bright: 15-30 %; their grey copies 0)
COLOURLESS = 0.05


def _colourless(image: np.ndarray) -> bool:
    few = image[::7, ::7].astype(np.int16)  # every 49th pixel is plenty for a whole page
    spread, bright = np.percentile(few.max(axis=2) - few.min(axis=2), 99), np.percentile(few.max(axis=2), 99)
    return bool(spread < COLOURLESS * bright)


#: how far around a cell's box the reader looks: the box may be found up to
#: read.REGISTER_PAD_MM + REGISTER_SEARCH_MM off, and its paper is judged LIGHT_MARGIN_MM
#: (and its ink against 2 mm) around it, from where it was found
AROUND_CELL_MM = 4.0


def rectify_around_cells(image: np.ndarray, fix, sheet: Sheet, px_per_mm: float) -> np.ndarray:
    """A top-down page (as photo.rectify makes it) where only the surroundings of the cells
    are warped, the rest left white: on a map sheet the cells' surroundings are a fifth of
    the page. Each pixel warped is the page's own (the same place, the same warp)."""
    r = px_per_mm
    page = np.full((round(sheet.height * r), round(sheet.width * r)), 255, np.uint8)
    for c0, r0, c1, r1 in _around_cells(sheet, r):
        page[r0:r1, c0:c1] = rectify(image, fix, sheet, r, (c0 / r, r0 / r, c1 / r, r1 / r))
    return page


def _around_cells(sheet: Sheet, r: float) -> list[tuple[int, int, int, int]]:
    """The rectangles of the page (pixel columns and rows, ends excluded) warped around the
    cells: each cell's box grown by AROUND_CELL_MM, two of them joined into the rectangle
    around both wherever that is no bigger than the two (their overlap is then warped once).
    The same for every photo of a sheet: kept with its print."""
    def work_out():
        h, w, m = round(sheet.height * r), round(sheet.width * r), AROUND_CELL_MM
        rects = []
        for cell in sheet.cells.values():
            x0, y0, x1, y1 = cell.bounds
            c0, r0 = max(math.floor((x0 - m) * r), 0), max(math.floor((y0 - m) * r), 0)
            c1, r1 = min(math.ceil((x1 + m) * r), w), min(math.ceil((y1 + m) * r), h)
            if c1 > c0 and r1 > r0:
                rects.append((c0, r0, c1, r1))
        return _joined(rects)

    return of_print(_printed(sheet, r)[0], "around cells", work_out)


def _joined(rects: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """`rects`, each in turn replaced with the first other one by the rectangle around both
    while that is no bigger than the two together."""
    left = np.array(rects, np.int64).reshape(-1, 4)
    area = (left[:, 2] - left[:, 0]) * (left[:, 3] - left[:, 1])
    out = []
    while len(left):
        a, rest, rest_area = left[0], left[1:], area[1:]
        both = np.concatenate((np.minimum(rest[:, :2], a[:2]), np.maximum(rest[:, 2:], a[2:])), axis=1)
        both_area = (both[:, 2] - both[:, 0]) * (both[:, 3] - both[:, 1])
        fits = np.flatnonzero(both_area <= area[0] + rest_area)
        if len(fits):  # a grew: it may now take in another
            k = fits[0]
            left = np.concatenate((both[k:k + 1], np.delete(rest, k, axis=0)))
            area = np.concatenate((both_area[k:k + 1], np.delete(rest_area, k)))
        else:
            out.append(tuple(int(v) for v in a))
            left, area = rest, rest_area
    return out


class _Clock:
    """Stage times in ms, each from the end of the one before (so they add up to the time
    since the start)."""

    def __init__(self):
        self.start = self.mark = time.perf_counter()
        self.timings: dict[str, float] = {}

    def stage(self, name: str) -> None:
        now = time.perf_counter()
        self.timings[name] = self.timings.get(name, 0.0) + (now - self.mark) * 1000
        self.mark = now

    def stages(self, timed: dict[str, float], last: str) -> None:
        """Stages timed by the callee since the last mark; the rest of that time goes to `last`."""
        now = time.perf_counter()
        for name, ms in timed.items():
            self.timings[name] = self.timings.get(name, 0.0) + ms
        self.timings[last] = self.timings.get(last, 0.0) + (now - self.mark) * 1000 - sum(timed.values())
        self.mark = now


DAMAGED = "the photo file is damaged"
OUTSIDE = "part of the box is outside the photo"
COARSE = "the photo is too coarse to be sure of any box"
#: a photo seeing the page coarser than this reads too many boxes wrong without a flag to be
#: trusted on any: every box is flagged, whatever was read of it (generated photos of the four
#: sheets shrunk to 800-1800 px as a messaging app sends them, 40 photos: boxes wrong and not
#: flagged 1.6 % under 1.4 px/mm, 0.9 % at 1.4-1.8, 0.36 % at 1.8-2, 0.2 % and fewer from 2)
TRUSTED_FROM = 1.8
OUTSIDE_MM = 0.5  # a stroke this near the box is read with it


def typed_in_text(result: PhotoRead) -> str:
    """The typed-in file a person would write, in the sheet's language, with every unsure cell
    marked UNSURE (in either language: the word to look for) and why."""
    from rnwprint.games import get_game
    from rnwprint.photo.reasons import said

    ident = result.identity
    lang = ident.lang
    comments = [
        t(lang, "read.header", source=printable(result.source), game=ident.game, variant=ident.variant, language=ident.lang,
          page=ident.page),
        t(lang, "read.unsure", count=len(result.unsure)),
        *(t(lang, "read.note", note=note) for note in (result.advice(lang), result.damage_note(lang)) if note),
    ]
    cells = []
    for cell in (c for c in result.sheet.cells.values() if c.kind != "tick"):
        r = result.reads[cell.id]
        cells.append((cell.id, r.value, f"UNSURE: {said(r.why, lang)}" if r.unsure else None))
    counters = []
    for name, count in result.counters().items():
        unsure = [cid for cid in result.unsure if result.sheet.cells[cid].counter == name]
        counters.append((name, count, "UNSURE: " + t(lang, "read.check_boxes", boxes=", ".join(unsure)) if unsure else None))
    totals = [(name, None, t(lang, "read.not_read", box=t(lang, key, box=name)))
              for name, key in get_game(ident.game).totals.items()]
    keys = [("game", ident.game, None), ("variant", ident.variant, None), ("lang", ident.lang, None)]
    return typed_in(comments, keys, cells, counters, totals)


def as_json(result: PhotoRead) -> dict:
    ident = result.identity
    return {
        "source": result.source,
        "game": ident.game, "variant": ident.variant, "lang": ident.lang, "page": ident.page,
        "cells": {cid: _json_value(r.value) for cid, r in result.reads.items()
                  if result.sheet.cells[cid].kind != "tick"},
        "counters": result.counters(),
        "photo_px_per_mm": round(result.photo_px_per_mm, 2),
        "advice": result.advice(),
        "light": result.light,
        "damaged": result.damage,
        "unsure": [{"cell": cid, "read": _json_value(result.reads[cid].value),
                    "confidence": round(result.reads[cid].confidence, 3), "why": result.reads[cid].why}
                   for cid in result.unsure],
        "timings_ms": {k: round(v, 1) for k, v in result.timings.items()},
    }


def _json_value(value):
    if value is None:
        return ""
    if isinstance(value, int):  # bool (a tick) or a number
        return value
    if isinstance(value, tuple):
        return value[0] if len(value) == 1 else list(value)
    return toml_value(value).strip('"')


def annotate(result: PhotoRead) -> bytes:
    """The rectified photo with what was read drawn on each cell: the box outlined, and the
    read on a tag in the box's top-right corner (free of the printed ids on every sheet),
    green when sure, red with a question mark when unsure. A box too small to hold a readable
    tag without hiding the writing carries it on top, as a tab, where no other box is. PNG bytes."""
    import cv2

    r = PX_PER_MM
    font, tab_scale = cv2.FONT_HERSHEY_SIMPLEX, 0.6  # smaller text is hard to read at 8 px/mm
    image = cv2.cvtColor(result.whole_page(), cv2.COLOR_GRAY2BGR)
    boxes = {cid: [v * r for v in cell.bounds] for cid, cell in result.sheet.cells.items()}
    for cid, read in result.reads.items():
        dx, dy = read.offset_mm  # where the box really was: a curled page moves boxes a little
        x0, y0, x1, y1 = result.sheet.cells[cid].bounds
        x0, y0, x1, y1 = x0 + dx, y0 + dy, x1 + dx, y1 + dy
        colour = (0, 0, 220) if read.unsure else (0, 160, 0)
        p0, p1 = (int(x0 * r), int(y0 * r)), (int(x1 * r), int(y1 * r))
        if read.unsure or read.value not in (None, False):
            cv2.rectangle(image, p0, p1, colour, 2)
        text = "" if read.value in (None, False) else ("v" if read.value is True else toml_value(read.value).strip('"'))
        if read.unsure:
            text += "?"
        if text:  # inside: as big as fits in a quarter of the box's height and in its width
            (w, h), _ = cv2.getTextSize(text, font, 1.0, 2)
            scale = min((p1[1] - p0[1]) / 4 / h, (p1[0] - p0[0] - 8) / w, 1.0)
            top = p0[1]
            if scale < tab_scale:  # a tab on top, if it lands on no other box
                (w, h), _ = cv2.getTextSize(text, font, tab_scale, 2)
                x0, y0 = p1[0] - w - 6, p0[1] - h - 6
                if not any(b[0] < p1[0] and b[2] > x0 and b[1] < p0[1] and b[3] > y0
                           for other, b in boxes.items() if other != cid):
                    scale, top = tab_scale, y0
            (w, h), _ = cv2.getTextSize(text, font, scale, 2)
            left = max(p1[0] - w - 6, p0[0]) if top == p0[1] else p1[0] - w - 6
            cv2.rectangle(image, (left, top), (p1[0], top + h + 6), colour, -1)
            cv2.putText(image, text, (left + 3, top + h + 3), font, scale, (255, 255, 255), 2 if scale >= 0.5 else 1,
                        cv2.LINE_AA)
    ok, png = cv2.imencode(".png", image)
    return png.tobytes()
