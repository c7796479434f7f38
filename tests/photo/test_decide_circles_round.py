"""Guard circles drawn round the box and clear of it (nothing of them in the cell): found from
the pen ink round the box, and specks, grain, other boxes' ink and a part-circle turned away."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support.crafted import page_with_a_4

from rnwprint.core.entries import Guarded
from rnwprint.games import GAMES
from rnwprint.photo import circles
from rnwprint.photo import read as photo_read

PX = 8.0  # px/mm of the crafted windows: a 7 mm box grown by circles.ROUND_MM (3 mm) each way


def round_window(rx: int = 40, ry: int = 40, sweep: int = 360) -> np.ndarray:
    """The darkness round a 7 mm box (104 px square, the box at 24-80 px), a pen circle of half
    axes rx, ry px round its middle, `sweep` degrees of the way from the right."""
    dark = np.zeros((104, 104), np.uint8)
    if sweep:
        cv2.ellipse(dark, (52, 52), (rx, ry), 0, 0, sweep, 150, 3)
    return dark.astype(np.float32) / 255


def box_left_out() -> np.ndarray:
    """The box out to ROUND_FROM_MM (0.3 mm, 2.4 px) round it."""
    left_out = np.zeros((104, 104), bool)
    left_out[21:83, 21:83] = True
    return left_out


@pytest.mark.parametrize("rx, ry", [(36, 36), (40, 40), (46, 46), (32, 48), (48, 34)])
def test_a_circle_round_the_box_clear_of_it_is_found(rx, ry):
    """Circles 4.5-5.75 mm from the middle of a 7 mm box (its corners at 4.95 mm), and ovals
    taller or wider than the box: ink round the box all the way."""
    assert circles._round_circle(round_window(rx, ry), box_left_out(), PX)


@pytest.mark.parametrize("sweep, found", [(250, False), (260, True)])
def test_the_circle_round_the_box_goes_round_18_of_24_directions(sweep, found):
    """An arc 250 degrees round the box (ink in 17 of 24 directions round its middle: a
    neighbour's circle, a region's border left after the print) is no guard circle; 260 (18) is,
    left open as a hurried hand leaves it."""
    assert circles._round_circle(round_window(sweep=sweep), box_left_out(), PX) == found


@pytest.mark.parametrize("pixels, found", [(1, False), (2, True)])
def test_a_direction_counts_from_two_pixels_of_ink(pixels, found):
    """Ink in 17 of 24 directions round the box, and `pixels` in an 18th: one pixel is not a
    direction gone round, two are (the first look, pieces not asked for)."""
    r, sector = circles._polar(104, 104)
    ring = (r > 0.75) & (r < 0.85)
    pen = ring & (sector < 17)
    for y, x in np.argwhere(ring & (sector == 17))[:pixels]:
        pen[y, x] = True
    assert circles._goes_round(pen, PX, pieces=False) == found


def page_with_circle_round(darkness: float | None):
    """A Rolling America page at 8 px/mm (print at 55 of 255, paper 225), TX's box holding a 4,
    and (unless None) a circle 5 mm round its middle this much darker than the paper."""
    sheet = GAMES["rolling-america"].build(GAMES["rolling-america"].variants[0], "en", "a4")
    raw, printed = photo_read._printed(sheet, PX)
    page = page_with_a_4(sheet, "TX")
    x0, y0, x1, y1 = (round(v * PX) for v in sheet.cells["TX"].bounds)
    middle = ((x0 + x1) // 2, (y0 + y1) // 2)
    if darkness is not None:
        cv2.circle(page, middle, int(5 * PX), int(225 * (1 - darkness)), 3)
    return photo_read._round_of(page, raw, printed, photo_read._near_boxes(sheet)["TX"], sheet.cells["TX"], PX, (0, 0))


@pytest.mark.parametrize("darkness, looked", [(None, False), (0.17, False), (0.23, True), (0.5, True)])
def test_the_first_look_asks_for_pen_a_fifth_darker_than_the_paper(darkness, looked):
    """A plain 4, or one in a circle 17 % darker than the paper (ink for the full check, past
    INK_DARKNESS, but not for the first look): the darkness round the box is not worked out;
    in a circle 23 % or 50 % darker it is, and the full check finds the circle."""
    found = page_with_circle_round(darkness)
    assert (found is not None) == looked
    if looked:
        assert circles._round_circle(*found, PX)


@pytest.mark.parametrize("side, found", [(4, False), (7, True)])
def test_pieces_of_ink_round_the_box_count_from_half_a_square_millimetre(side, found):
    """24 dots round the box, one in each direction: 4 px square (16 px, 0.25 mm²: a grainy
    photo's specks) are no circle; 7 px square (49 px, 0.77 mm²) are pieces of one."""
    dark = np.zeros((104, 104), np.float32)
    for k in range(24):
        angle = (k + 0.5) * 2 * np.pi / 24
        x, y = int(52 + 40 * np.cos(angle)), int(52 + 40 * np.sin(angle))
        dark[y:y + side, x:x + side] = 0.6
    assert circles._round_circle(dark, box_left_out(), PX) == found


@pytest.mark.parametrize("specks, found, found_flagged", [(15, True, True), (16, False, True), (31, False, True),
                                                         (32, False, False)])
def test_a_circle_among_16_specks_or_more_is_taken_for_grain(specks, found, found_flagged):
    """A whole circle round the box with `specks` dots of 3 px square (9 px, under half a square
    millimetre) strewn round it: up to 15 it is a circle; from 16 the ink round the box is a
    grainy photo's grain come together, and no circle is told for sure (but one is among up to
    31, ROUND_SPECKS_FLAGGED: the number is then flagged, see below)."""
    dark = round_window()
    clear = [(y, x) for y in range(1, 100, 6) for x in range(1, 100, 6)
             if not box_left_out()[y:y + 3, x:x + 3].any() and not dark[y - 2:y + 5, x - 2:x + 5].any()]
    for y, x in clear[:specks]:  # 6 px apart: none touches another
        dark[y:y + 3, x:x + 3] = 0.6
    assert circles._round_circle(dark, box_left_out(), PX, specks=circles.ROUND_SPECKS_FLAGGED) == found_flagged


def test_specks_do_not_carry_an_arc_round():
    """An arc 240 degrees round the box (15 of 24 directions) and 6 dots of 16 px (specks,
    under half a square millimetre) in the directions it leaves: pieces alone go round too few
    directions, no circle; counted with the specks (as the first look counts), all round."""
    dark = round_window(sweep=240)
    for k in range(6):
        angle = np.radians(255 + 17 * k)
        x, y = int(52 + 40 * np.cos(angle)), int(52 + 40 * np.sin(angle))
        dark[y:y + 4, x:x + 4] = 0.6
    pen = ~box_left_out() & (photo_read._ink(dark) > 0)
    assert not circles._round_circle(dark, box_left_out(), PX)
    assert not circles._goes_round(pen, PX)
    assert circles._goes_round(pen, PX, pieces=False)


def test_the_boxes_near_each_box_are_those_within_reach():
    """_near_boxes on a Rolling America sheet: for each box, the other boxes that come within
    ROUND_MM of it (out to their outlines), as a box by box comparison finds them."""
    sheet = GAMES["rolling-america"].build(GAMES["rolling-america"].variants[0], "en", "a4")
    near = photo_read._near_boxes(sheet)
    reach = circles.ROUND_MM + photo_read.BORDER_MM
    for cell in sheet.cells.values():
        x0, y0, x1, y1 = cell.bounds
        expected = [o.bounds for o in sheet.cells.values() if o is not cell and o.bounds[0] < x1 + reach
                    and o.bounds[2] > x0 - reach and o.bounds[1] < y1 + reach and o.bounds[3] > y0 - reach]
        assert sorted(near[cell.id]) == sorted(expected)
    assert sum(len(boxes) for boxes in near.values()) > 20


def test_ink_where_no_circle_is_looked_for_is_left_out():
    """A whole circle round the box, its left half lying where other boxes are (left out):
    12 directions are too few."""
    left_out = box_left_out()
    left_out[:, :52] = True
    assert circles._round_circle(round_window(), box_left_out(), PX)
    assert not circles._round_circle(round_window(), left_out, PX)


def test_the_grain_of_a_dim_photo_round_the_box_is_no_circle():
    """Grain all round the box (specks up to 0.3 dark): only what stands out of it is ink."""
    rng = np.random.default_rng(3)
    grain = cv2.resize(rng.uniform(0.0, 0.3, (52, 52)).astype(np.float32), (104, 104), interpolation=cv2.INTER_NEAREST)
    assert not circles._round_circle(grain, box_left_out(), PX)


def left_out_at(left_out: np.ndarray, cell, x: float, y: float) -> bool | None:
    """Whether the point (x, y) mm of the page is left out round `cell` (None: beyond the crop)."""
    row, col = int((y - cell.bounds[1] + circles.ROUND_MM) * PX), int((x - cell.bounds[0] + circles.ROUND_MM) * PX)
    inside = 0 <= row < left_out.shape[0] and 0 <= col < left_out.shape[1]
    return bool(left_out[row, col]) if inside else None


def test_the_box_and_the_boxes_near_it_are_left_out():
    """Where no circle round a box is looked for, on a Rolling America page at 8 px/mm: the
    box itself (out to ROUND_FROM_MM), every other box within reach out to its outline (0.7 mm
    beyond its edges), and nothing else where no other box reaches."""
    sheet = GAMES["rolling-america"].build(GAMES["rolling-america"].variants[0], "en", "a4")
    near = photo_read._near_boxes(sheet)
    alone = 0
    for cell in sheet.cells.values():
        left_out = photo_read._round_left_out(near[cell.id], cell, (104, 104), PX)
        x0, y0, x1, y1 = cell.bounds
        assert left_out_at(left_out, cell, (x0 + x1) / 2, (y0 + y1) / 2) and left_out_at(left_out, cell, x0 - 0.2, y0 - 0.2)
        assert left_out_at(left_out, cell, x1 + 0.2, y1 + 0.2)
        others = [o.bounds for o in sheet.cells.values() if o is not cell]
        points = [p for ox0, oy0, ox1, oy1 in others
                  for p in (((ox0 + ox1) / 2, (oy0 + oy1) / 2), (ox0 - 0.6, (oy0 + oy1) / 2), (ox1 + 0.6, (oy0 + oy1) / 2),
                            ((ox0 + ox1) / 2, oy0 - 0.6), ((ox0 + ox1) / 2, oy1 + 0.6))]
        assert all(left_out_at(left_out, cell, *p) in (True, None) for p in points)
        if not any(ox0 < x1 + 3 and ox1 > x0 - 3 and oy0 < y1 + 3 and oy1 > y0 - 3 for ox0, oy0, ox1, oy1 in others):
            alone += 1
            assert left_out_at(left_out, cell, x0 - 1.5, (y0 + y1) / 2) is False
            assert left_out.mean() == pytest.approx(((x1 - x0 + 0.6) / (x1 - x0 + 6)) ** 2, abs=0.04)
    assert alone > 10


def test_circles_round_the_box_are_not_lost_in_a_photo(tmp_path, monkeypatch):
    """An 8 MP photo of a Rolling America sheet, four numbers in ten circled round the box and
    clear of it (synth_ink.ROUND_CIRCLE: 0.74-0.86 of its sides from its middle): every
    circled number is read guarded, flagged for its circle, and no plain one is; with the
    check left out, the faint ring check behind it finds most of them; with both left out, all
    17 are read plain without a flag."""
    from support import synth, synth_ink

    from rnwprint.photo.pipeline import read_photo

    photo = tmp_path / "photo.jpg"
    _, marks = synth.circled_rolling_photo(photo, synth_ink.ROUND_CIRCLE)
    circled = sorted(cid for cid, value in marks.items() if isinstance(value, Guarded))

    def lost(reads):
        return [cid for cid in circled if not isinstance(reads[cid].value, Guarded) and not reads[cid].unsure]

    reads = read_photo(photo).reads
    assert len(circled) == 17 and lost(reads) == []
    assert [cid for cid in circled if reads[cid].why == photo_read.ROUND_WHY and reads[cid].value == marks[cid]]
    assert not [cid for cid, read in reads.items() if isinstance(read.value, Guarded) and cid not in circled]
    monkeypatch.setattr(photo_read, "_round_circle", lambda *_, **__: False)
    assert len(lost(read_photo(photo).reads)) <= 5  # the faint ring check (round_ring) still finds most
    monkeypatch.setattr(photo_read, "ring_shares", lambda page, boxes, px: [0.0] * len(boxes))
    assert lost(read_photo(photo).reads) == circled


@pytest.mark.parametrize("photo_px_per_mm, guarded, ink, asked", [
    (8.0, True, 40, True), (1.8, True, 40, True), (1.75, True, 40, False), (8.0, False, 40, False),
    (8.0, True, 146, True), (8.0, True, 155, True)])
def test_round_the_box_is_looked_at_in_a_sharp_photo_of_a_sheet_with_guards(monkeypatch, photo_px_per_mm, guarded, ink, asked):
    """A plain 4 (grey level `ink` on paper of 225) on a page at 8 px/mm: the ink round its box
    is looked at in a photo that saw the page at 1.8 px/mm or more (in a coarser one every box
    is flagged), only on a sheet whose numbers may be guarded; round a pale number too (155:
    0.31 darker than the paper, as dark as a grainy photo's grain taken for a number; see
    below)."""
    sheet = GAMES["rolling-america"].build(GAMES["rolling-america"].variants[0], "en", "a4")
    page = page_with_a_4(sheet, "TX", ink)
    asked_about = []
    monkeypatch.setattr(photo_read, "_round_of", lambda page, raw, printed, near, cell, *_: asked_about.append(cell.id))
    photo_read.separate(page, sheet, PX, guarded, photo_px_per_mm)
    assert len(asked_about) == (1 if asked else 0)


@pytest.mark.parametrize("ink, circled, why", [
    (40, True, photo_read.ROUND_WHY),  # a number as dark as a pen's: read guarded, flagged
    (146, True, photo_read.ROUND_WHY),  # 0.35 darker than the paper
    (155, False, photo_read.PALE_ROUND_WHY),  # 0.31: the grain round it may come together as a ring
])
def test_ink_round_a_pale_number_s_box_is_flagged_not_read_as_a_guard(monkeypatch, ink, circled, why):
    """A circle round the box of a number paler than ROUND_NUMBER_PEN (a pencil's, or a dim
    photo's): in a grainy photo the grain round such a box comes together as a ring, so the
    number is read as written, flagged; a darker one's circle guards it."""
    sheet = GAMES["rolling-america"].build(GAMES["rolling-america"].variants[0], "en", "a4")
    monkeypatch.setattr(photo_read, "_round_of", lambda *_: (None, None))  # a first look past
    monkeypatch.setattr(photo_read, "_round_circle", lambda *_: True)
    _, written = photo_read.separate(page_with_a_4(sheet, "TX", ink), sheet, PX, True, 8.0)
    assert [(w.circled, w.why) for w in written if w.cell.id == "TX"] == [(circled, why)]


def test_a_circle_round_the_box_among_specks_is_flagged_not_read_as_a_guard(monkeypatch):
    """A circle round a dark number's box found only among ROUND_SPECKS specks or more (up to
    ROUND_SPECKS_FLAGGED: a 2 MP photo's circle breaks into specks as grain does): the number
    is read as written, flagged."""
    sheet = GAMES["rolling-america"].build(GAMES["rolling-america"].variants[0], "en", "a4")
    monkeypatch.setattr(photo_read, "_round_of", lambda *_: (None, None))
    monkeypatch.setattr(photo_read, "_round_circle", lambda *_, specks=circles.ROUND_SPECKS: specks == circles.ROUND_SPECKS_FLAGGED)
    _, written = photo_read.separate(page_with_a_4(sheet, "TX", 40), sheet, PX, True, 8.0)
    assert [(w.circled, w.why) for w in written if w.cell.id == "TX"] == [(False, photo_read.PALE_ROUND_WHY)]


def sector_at(degrees: float) -> int:
    """The direction (of 24) of the point of round_window's circle `degrees` round from the right."""
    x, y = 52 + 40 * np.cos(np.radians(degrees)), 52 + 40 * np.sin(np.radians(degrees))
    return int(circles._polar(104, 104)[1][round(y), round(x)])


def arc_and_rim(extra: str) -> tuple[np.ndarray, np.ndarray]:
    """A 250-degree arc round the box (17 directions of 24) and the box's rim: ink near its edge
    in the middle of the gap the arc leaves (`extra` "other"), or where the arc is ("same")."""
    rim = np.zeros(24, bool)
    if extra == "other":
        rim[sector_at(305)] = True
    elif extra == "same":
        rim[[sector_at(a) for a in (20, 60, 100, 140, 180, 220)]] = True
    return round_window(sweep=250), rim


@pytest.mark.parametrize("extra, found", [("none", False), ("other", True), ("same", False)])
def test_a_circle_partly_round_the_box_and_partly_inside_it_is_found_with_the_box_s_rim(extra, found):
    """A circle drawn round the box but crossing into it at one side (a heavy hand's circle
    overlapping the box): 250 degrees of it round the box (17 directions) and its rest inside
    the box near its edge, in an 18th direction, go round (rim_directions); the box's rim in
    directions the circle round it already covers adds nothing."""
    window, rim = arc_and_rim(extra)
    assert circles._round_circle(window, box_left_out(), PX, rim) == found


def test_the_box_s_rim_counts_in_directions_of_three_pixels_of_ink():
    """rim_directions: ink beyond CIRCLE_RIM of the half box, 3 px or more in a direction."""
    r2, sector = circles._rim(56, 56)
    ink = np.zeros((56, 56), np.float32)
    for y, x in np.argwhere((r2 > circles.CIRCLE_RIM) & (sector == 5))[:3]:
        ink[y, x] = 0.5
    for y, x in np.argwhere((r2 > circles.CIRCLE_RIM) & (sector == 9))[:2]:
        ink[y, x] = 0.5
    ink[28, 28] = 0.5  # the middle: no rim
    assert list(np.flatnonzero(circles.rim_directions(ink))) == [5]


def test_a_heavy_circle_through_the_box_s_top_is_found_in_a_map_page(monkeypatch):
    """A box of a crafted Rolling America page, a 4 in it and a circle round it drawn low, so
    that it runs through the box near its top: read guarded, flagged; without the box's rim,
    not guarded."""
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    page = page_with_a_4(sheet, "TX")
    x0, y0, x1, y1 = (v * PX for v in sheet.cells["TX"].bounds)
    middle = (round((x0 + x1) / 2), round((y0 + y1) / 2 + 0.22 * (y1 - y0)))
    cv2.ellipse(page, middle, (round(0.7 * (x1 - x0)), round(0.62 * (y1 - y0))), 0, 0, 360, 40, 5)
    read = photo_read.read_cells(page, sheet, PX, True, PX)["TX"]
    assert isinstance(read.value, Guarded) and read.unsure and read.why == circles.ROUND_WHY
    monkeypatch.setattr(photo_read, "rim_directions", lambda ink: circles.NOWHERE)
    read = photo_read.read_cells(page, sheet, PX, True, PX)["TX"]
    # the circle's ink inside the box further in than the rim (crossing_directions) still
    # goes round with it: a circle crossing the box, the number read as written, flagged
    assert not isinstance(read.value, Guarded) and read.unsure and read.why == circles.CROSSING_WHY
    monkeypatch.setattr(photo_read, "crossing_directions", lambda ink: circles.NOWHERE)
    read = photo_read.read_cells(page, sheet, PX, True, PX)["TX"]
    assert not isinstance(read.value, Guarded) and read.why != circles.CROSSING_WHY


def test_the_box_s_ink_crossing_counts_beyond_eight_tenths_of_the_half_box_two_pixels_a_direction():
    """crossing_directions: ink at 0.8 of the half box or beyond, 2 px or more in a direction
    (not at 0.75; not 1 px)."""
    r, sector = circles._polar(56, 56)
    ink = np.zeros((56, 56), np.float32)
    for lo, hi, direction, pixels in ((0.80, 0.84, 3, 2), (0.72, 0.78, 9, 6), (0.85, 0.95, 15, 1)):
        for y, x in np.argwhere((r >= lo) & (r < hi) & (sector == direction))[:pixels]:
            ink[y, x] = 0.5
    assert list(np.flatnonzero(circles.crossing_directions(ink))) == [3]
