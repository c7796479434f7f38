"""The reader's decisions on guard circles, pinned on crafted crops: a circle round the box
or a digit, taken off whole, a ring with nothing inside, a circled cross."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support.crafted import sure_of

from rnwprint.core.entries import CROSSED, Guarded
from rnwprint.core.sheet import Cell
from rnwprint.photo import digits
from rnwprint.photo import read as photo_read
from rnwprint.photo.decide import WHY_CIRCLED_X



def ring_crop(sweep_deg: float, inside_drawn: str | None) -> np.ndarray:
    """A map box's inside (45 px) with a guard circle drawn `sweep_deg` of the way round
    along its edge, and a character in the middle."""
    crop = np.zeros((45, 45), np.uint8)
    cv2.ellipse(crop, (22, 22), (21, 21), 0, 90, 90 + sweep_deg, 255, 3)
    if inside_drawn == "X":
        cv2.line(crop, (14, 14), (30, 30), 255, 3)
        cv2.line(crop, (14, 30), (30, 14), 255, 3)
    elif inside_drawn:
        cv2.putText(crop, inside_drawn, (14, 31), cv2.FONT_HERSHEY_SIMPLEX, 0.7, 255, 2)
    return crop.astype(np.float32) / 255


@pytest.mark.parametrize("sweep, circled", [(360, True), (300, True), (240, True), (120, False), (60, False)])
def test_a_guard_circle_goes_most_of_the_way_round(sweep, circled):
    """A hurried circle left a third open still guards the number; an arc a third of the way
    round (a big digit's curve against the box edge) does not."""
    crop = ring_crop(sweep, "3")
    ink, found, _ = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert found == circled
    if circled:  # the circle goes, the 3 stays
        assert not ink[:, :6].any() and not ink[:, -6:].any() and ink[15:30, 15:30].any()


@pytest.mark.parametrize("written, poke", [("2", False), ("3", False), ("5", False), ("7", False), ("3", True)])
def test_the_circle_comes_off_and_the_guarded_digit_stays_whole(written, poke):
    """A digit half the box high and about as wide in a circle round the box edge: the reader
    goes on with the digit exactly as it sees it written alone (no piece of it cut, nothing
    of the circle, not even a bit of it poking in towards the digit)."""
    glyph = np.zeros((40, 40), np.uint8)
    cv2.putText(glyph, written, (5, 32), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 255, 4)
    ys, xs = np.nonzero(glyph)
    glyph = cv2.resize(glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1], (20, 22), interpolation=cv2.INTER_NEAREST)
    digit = np.zeros((45, 45), np.uint8)
    digit[11:33, 12:32] = glyph
    ring = np.zeros_like(digit)
    cv2.circle(ring, (22, 22), 21, 255, 3)
    if poke:
        ring[7:10, 21:25] = 255
    crop = np.maximum(digit, ring).astype(np.float32) / 255
    ink, circled, _ = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert circled
    alone = photo_read._ink(digit.astype(np.float32) / 255)
    assert np.array_equal(ink > 0, alone > 0)


def stick_in_ellipse(centre, axes, height):
    """A stick `height` px tall (a 1) at `centre` of a 45 px box, an ellipse drawn round it
    (the crop, and the stick's ink alone)."""
    stick = np.zeros((45, 45), np.uint8)
    cv2.line(stick, (centre[0], centre[1] - height // 2), (centre[0], centre[1] + height // 2), 255, 3)
    ring = np.zeros_like(stick)
    cv2.ellipse(ring, centre, axes, 0, 0, 360, 255, 3)
    return np.maximum(stick, ring).astype(np.float32) / 255, photo_read._ink(stick.astype(np.float32) / 255) > 0


@pytest.mark.parametrize("centre, axes", [((23, 25), (22, 18)), ((22, 25), (23, 17)), ((22, 26), (24, 17))])
def test_a_flattened_circle_drawn_low_comes_off_without_arcs(centre, axes):
    """A hurried circle, flatter than the box and drawn low, comes within two thirds of the
    middle at its top: it is followed round (the ellipse through its ink), so no arc of it is
    left beside the number to be read as part of it."""
    crop, alone = stick_in_ellipse(centre, axes, 14)
    ink, circled, _ = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert circled
    assert np.array_equal(ink > 0, alone)


@pytest.mark.parametrize("centre, axes, height", [((23, 24), (15, 11), 12), ((24, 23), (13, 15), 12),
                                                ((21, 23), (15, 12), 14)])
def test_a_small_circle_drawn_round_the_number_comes_off_along_its_ellipse(centre, axes, height):
    """A circle drawn tight round the number, well inside the box, off-centre and flattened:
    the number inside is read whole, with nothing of the ring (a fixed cut at the ring's
    radius left an arc or shortened the 1)."""
    stick = np.zeros((45, 45), np.uint8)
    cv2.line(stick, (centre[0], centre[1] - height // 2), (centre[0], centre[1] + height // 2), 255, 3)
    ring = np.zeros_like(stick)
    cv2.ellipse(ring, centre, axes, 0, 0, 360, 255, 3)
    crop = np.maximum(stick, ring).astype(np.float32) / 255
    inside = photo_read._small_circle(crop, crop, photo_read.INK_DARKNESS)
    assert inside is not None
    assert np.array_equal(inside > 0, photo_read._ink(stick.astype(np.float32) / 255) > 0)


def test_a_tall_number_in_a_circle_keeps_its_ends():
    """A 1 two thirds of the box tall in a circle round the box: its ends reach past two thirds
    of the half box and are kept (at most a pixel lost), the circle goes."""
    crop, alone = stick_in_ellipse((22, 22), (21, 21), 30)
    ink, circled, _ = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert circled
    kept = ink > 0
    assert not (kept & ~alone).any() and kept.sum() >= alone.sum() - 1


def test_ink_that_makes_no_ellipse_falls_back_to_the_middle_of_the_box():
    """Ring ink too scarce to fit an ellipse to: the number is what lies near the middle."""
    from rnwprint.photo.circles import INNER_R2, _inside_ring, _rim

    sparse = np.zeros((45, 45), np.float32)
    sparse[0, :10] = 1.0
    assert _inside_ring(sparse) is None
    crop = ring_crop(360, "3")
    inside = _inside_ring(crop)
    assert inside is not None and inside[22, 22] and not inside[1, 22] and not inside[22, 1]
    assert inside.sum() > (_rim(45, 45)[0] <= INNER_R2).sum()  # it reaches further out than the fallback


@pytest.mark.parametrize("centre, axes, angle", [((23, 25), (22, 16), 30), ((22, 22), (21, 19), 0), ((24, 21), (20, 17), 120)])
def test_the_ring_is_followed_round_as_the_ellipse_it_is(centre, axes, angle):
    """What lies inside a ring drawn as a tilted ellipse is that ellipse's inside, less the
    pen and a margin (about three quarters of it), turned as it is, not a quarter turn."""
    from rnwprint.photo.circles import _inside_ring

    ring = np.zeros((45, 45), np.uint8)
    cv2.ellipse(ring, centre, axes, angle, 0, 360, 255, 3)
    inside = _inside_ring(ring.astype(np.float32) / 255)

    def overlap(turn):
        drawn = np.zeros_like(ring)
        cv2.ellipse(drawn, centre, (round(axes[0] * 0.75), round(axes[1] * 0.75)), angle + turn, 0, 360, 255, -1)
        return (inside & (drawn > 0)).sum() / (inside | (drawn > 0)).sum()

    assert overlap(0) > 0.93
    assert overlap(90) < 0.9


def test_ink_that_makes_no_plausible_ellipse_is_no_ring_to_follow():
    """A box's corner left in (ink along two edges) or a small loop in one corner makes no
    ellipse round the number: the fixed middle of the box is used instead."""
    from rnwprint.photo.circles import _inside_ring

    corner = np.zeros((45, 45), np.float32)
    corner[:3, :] = corner[:, :3] = 1.0
    loop = np.zeros((45, 45), np.float32)
    cv2.ellipse(loop, (40, 40), (4, 4), 0, 0, 360, 1.0, 2)
    assert _inside_ring(corner) is None and _inside_ring(loop) is None


@pytest.mark.parametrize("speck", [False, True])
def test_a_ring_with_nothing_inside_is_a_zero_not_a_guard(speck):
    """A zero written round the box (a speck of dust inside it or not) guards nothing."""
    crop = ring_crop(360, None)
    if speck:
        crop[21:24, 21:24] = 1.0
    _, found, ringed = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert not found and ringed  # (an empty ring is told apart: a number washed out of it?)


@pytest.mark.parametrize("sweep, inside, rings", [(360, None, True), (300, "3", True), (120, "3", False), (0, "0", False)])
def test_ink_near_the_box_edge_most_of_the_way_round_rings_the_box(sweep, inside, rings):
    """What the reader calls a ring round the box, with or without a number inside: a circle
    (or most of one); not an arc a third of the way round, nor a digit alone."""
    assert photo_read._rings(ring_crop(sweep, inside)) == rings


def test_a_ring_is_ink_on_the_rim_in_at_least_14_of_24_directions_three_pixels_each():
    """The rule itself, pixel by pixel: three pixels out on the rim (beyond 0.8 of the half
    box, squared) in 14 of the 24 directions ring the box; 13 directions, two pixels each, or
    ink all round just inside the rim do not."""
    from rnwprint.photo.circles import CIRCLE_RIM, _rim

    r2, sector = _rim(45, 45)

    def ink(directions, pixels=3, out=True):
        drawn = np.zeros((45, 45), np.float32)
        where = r2 > CIRCLE_RIM if out else (r2 <= CIRCLE_RIM) & (r2 > 0.6)
        for d in directions:
            ys, xs = np.nonzero(where & (sector == d))
            drawn[ys[:pixels], xs[:pixels]] = 1.0
        return drawn

    assert photo_read._rings(ink(range(14)))
    assert photo_read._rings(ink(range(5, 24, 1)))
    assert not photo_read._rings(ink(range(13)))
    assert not photo_read._rings(ink(range(24), pixels=2))
    assert not photo_read._rings(ink(range(24), out=False))


def test_a_circled_cross_is_a_cross_flagged_and_a_circled_number_is_guarded():
    """The circle comes off and the X inside is read: a crossed-out cell (a guard guards a
    number, an X is no score), flagged: its circle is not dropped silently, the X may be a
    guarded number misread. The same circle round a 3 guards the 3, unflagged."""
    crop = ring_crop(360, "X")
    ink, circled, _ = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert circled
    map_box = Cell("WA", ((0, 0), (7, 0), (7, 7), (0, 7)), low=1, high=6)
    read = photo_read._decide(map_box, digits.probabilities([ink]), circled, False)
    assert read.value == CROSSED and read.unsure and read.why == WHY_CIRCLED_X
    three = photo_read._decide(map_box, sure_of("3", 0.95, "8"), True, False)
    assert three.value == Guarded(3) and not three.unsure


def test_the_number_inside_is_taken_by_the_first_cut_that_leaves_some():
    """Where the fitted ellipse leaves nothing inside the ring (or none fits), the fixed cut
    is tried next; a ring with nothing inside either way guards nothing."""
    from rnwprint.photo.circles import _number_inside

    crop = ring_crop(360, "3")
    middle = np.zeros(crop.shape, bool)
    middle[12:33, 12:33] = True
    nothing = np.zeros(crop.shape, bool)
    for cuts in ((nothing, middle), (None, middle), (middle,)):
        number = _number_inside(crop, crop, photo_read.INK_DARKNESS, cuts)
        assert number is not None and number[middle].any() and not number[~middle].any()
    assert _number_inside(crop, crop, photo_read.INK_DARKNESS, (nothing, None)) is None


def big_two_crop(margin: int) -> np.ndarray:
    """A map box's inside (48 px) holding a 2 as tall as the box: its top arc and its bar run
    along the box's edge, `margin` px in from it."""
    crop = np.zeros((48, 48), np.float32)
    cv2.ellipse(crop, (24, 16), (24 - margin, 16 - margin // 2), 0, 180, 400, 0.8, 3)
    end = (int(24 + (24 - margin) * np.cos(np.radians(40))), int(16 + (16 - margin // 2) * np.sin(np.radians(40))))
    cv2.line(crop, end, (margin, 45), 0.8, 3)
    cv2.line(crop, (margin, 45), (47 - margin, 45), 0.8, 3)
    return crop


@pytest.mark.parametrize("crop, own", [
    (big_two_crop(6), True),  # along the edge in 15 of 24 directions, one stroke with the "number": flagged
    (big_two_crop(5), True),  # 16 directions: flagged still
    (big_two_crop(4), False),  # 18 directions (RING_WHOLE): a circle
    (ring_crop(360, "1"), False),  # a guard ring apart from its number
    (ring_crop(200, "3"), False),  # a hurried ring, 15 directions round, apart from its number
])
def test_a_ring_that_is_the_numbers_own_stroke_part_way_round_is_doubted(crop, own):
    number, circled, _ = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert circled and photo_read._number_s_own_stroke(crop, number) is own


def test_a_ring_touching_its_number_all_the_way_round_is_a_guard():
    crop = ring_crop(360, None)
    cv2.line(crop, (22, 2), (22, 42), 1.0, 3)  # a 1 from the ring's top to its bottom
    number, circled, _ = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert circled and not photo_read._number_s_own_stroke(crop, number)


def test_a_big_two_along_the_edge_of_a_map_box_is_not_a_sure_guard():
    """On a crafted Rolling America page, the 2 above drawn as tall as CO's and KS's boxes:
    their rings are the 2's own strokes, so whatever is read is flagged."""
    from support.crafted import PX, blank_page, inside

    from rnwprint.games import GAMES

    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    page = blank_page(sheet)
    for cid in ("CO", "KS"):
        c0, r0, c1, r1 = inside(sheet.cells[cid])
        crop = cv2.resize(big_two_crop(4), (c1 - c0, r1 - r0), interpolation=cv2.INTER_LINEAR)
        page[r0:r1, c0:c1] = (page[r0:r1, c0:c1] * (1 - crop)).astype(np.uint8)
    reads = photo_read.read_cells(page, sheet, PX, True, PX)
    for cid in ("CO", "KS"):
        assert reads[cid].unsure and reads[cid].why == photo_read.OWN_STROKE_WHY, cid
        # read whole, as written: the "ring" taken off would leave a 1 (its upright) guarded
        assert reads[cid].value == 2, cid


@pytest.mark.parametrize("guarded_sure, kept", [(0.80, 4), (0.95, Guarded(4)), (0.96, Guarded(4))])
def test_a_ring_in_one_piece_with_its_number_keeps_the_surer_of_the_two_reads(guarded_sure, kept):
    """Read inside the ring (guarded) and whole as written (plain, here 95 % sure): the surer
    stands, the guarded one where they are as sure; flagged either way."""
    why = photo_read.OWN_STROKE_WHY
    guarded = photo_read.CellRead("CO", Guarded(4), guarded_sure, True, why)
    plain = photo_read.CellRead("CO", 4, 0.95, True, why)
    read = photo_read._ring_or_stroke(guarded, plain)
    assert read.value == kept and read.unsure and read.why == why


def test_a_six_s_loop_taken_for_a_small_circle_is_read_as_the_six_and_a_small_circle_guards():
    """On a crafted Rolling America page: a held-out 6 as big as the box (its loop looks like a
    circle inside the box) reads 6, not guarded; a 3 and a 2 with a real circle drawn round
    them inside the box read guarded; all four flagged, "a circle inside the box"."""
    from support.crafted import PX, blank_page, held_out_number, inside

    from rnwprint.games import GAMES

    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    page = blank_page(sheet)

    def write(cid: str, ink: np.ndarray) -> None:
        c0, r0, c1, r1 = inside(sheet.cells[cid])
        page[r0:r1, c0:c1] = (page[r0:r1, c0:c1] * (1 - np.clip(ink * 1.2, 0, 1))).astype(np.uint8)

    for cid in ("CO", "UT"):
        c0, r0, c1, r1 = inside(sheet.cells[cid])
        six = held_out_number(6, 0, 0, (0, 0))
        write(cid, cv2.resize(six[np.flatnonzero(six.any(axis=1))], (c1 - c0, r1 - r0)))
    for cid, number in (("TX", 3), ("NV", 2)):
        c0, r0, c1, r1 = inside(sheet.cells[cid])
        w, h = c1 - c0, r1 - r0
        ink = np.zeros((h, w), np.float32)
        digit = cv2.resize(held_out_number(number, 0, 1, (4, 4)), (int(w * 0.5), int(h * 0.55)))
        y, x = (h - digit.shape[0]) // 2, (w - digit.shape[1]) // 2
        ink[y:y + digit.shape[0], x:x + digit.shape[1]] = digit
        cv2.ellipse(ink, (w // 2, h // 2), (int(w * 0.36), int(h * 0.38)), 0, 0, 360, 1.0, 3)
        write(cid, ink)
    reads = photo_read.read_cells(page, sheet, PX, True, PX)
    expected = {"CO": 6, "UT": 6, "TX": Guarded(3), "NV": Guarded(2)}
    assert {cid: reads[cid].value for cid in expected} == expected
    assert all(reads[cid].unsure and reads[cid].why == photo_read.SMALL_CIRCLE_WHY for cid in expected)
