"""The reader's decisions on guard circles, pinned on crafted crops: a circle round the box
or a digit, taken off whole, a ring with nothing inside, a circled cross."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support.crafted import PEN, PX, blank_page, sure_of

from rnwprint.core.entries import CROSSED, Guarded
from rnwprint.core.sheet import Cell
from rnwprint.games import GAMES
from rnwprint.photo import digits
from rnwprint.photo import ink as photo_ink
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


def big_ring_crop(radius: int | None, centre=(22, 22), inside_drawn: str | None = "3") -> np.ndarray:
    """A 45 px box with a guard circle of `radius` px (None: none) drawn round it, bigger than
    the box (only arcs across its corners are inside the crop), and a character in the middle."""
    crop = np.zeros((45, 45), np.uint8)
    if radius is not None:
        cv2.circle(crop, centre, radius, 255, 3)
    if inside_drawn:
        cv2.putText(crop, inside_drawn, (14, 31), cv2.FONT_HERSHEY_SIMPLEX, 0.7, 255, 2)
    return crop.astype(np.float32) / 255


@pytest.mark.parametrize("radius", [24, 26, 28])
def test_a_circle_bigger_than_the_box_is_seen_by_its_corner_arcs(radius):
    """Drawn round the box rather than inside it, a guard circle leaves only arcs across the
    four corners: it guards the number (read sure), and the arcs go, the 3 stays whole."""
    crop = big_ring_crop(radius)
    ink, found, ringed = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert found and ringed
    alone = big_ring_crop(radius, inside_drawn=None) == 0
    number = crop * alone
    assert np.array_equal(ink > 0, photo_read._ink(number) > 0)


def test_arcs_across_three_corners_are_enough():
    """Drawn a little off-centre, the circle misses one corner of the box: three arcs still
    guard the number, sure; two are left to the flagged reading below."""
    three = big_ring_crop(26, centre=(28, 28))
    ink, found, _ = photo_read._remove_circle(three, three, photo_read.INK_DARKNESS)
    assert found and not ink[:8].any() and ink[15:30, 15:30].any()
    two = big_ring_crop(25, centre=(28, 28))
    assert photo_read._remove_circle(two, two, photo_read.INK_DARKNESS)[1:] == (False, False)


def test_corner_arcs_with_nothing_inside_are_an_empty_ring():
    crop = big_ring_crop(26, inside_drawn=None)
    _, found, ringed = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert not found and ringed


def test_a_big_circle_drawn_off_centre_shows_in_two_corners_and_is_read_flagged():
    """Drawn off to the right, the circle crosses only the box's left corners, in two arcs: too
    little to be sure of, so the number is read guarded with the reason to look. One stroke
    across two corners (a big 5's bar) is no such pair of arcs."""
    from rnwprint.photo.circles import _big_circle

    crop = big_ring_crop(32, centre=(28, 22))
    assert not photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)[1]
    inside = _big_circle(crop, crop, photo_read.INK_DARKNESS)
    assert inside is not None and not inside[:, :6].any() and inside[15:30, 15:30].any()
    assert _big_circle(big_ring_crop(26, centre=(42, 22)), crop, photo_read.INK_DARKNESS) is None  # one corner
    bar = big_ring_crop(None)
    cv2.line(bar, (3, 5), (41, 5), 1.0, 3)
    assert _big_circle(bar, bar, photo_read.INK_DARKNESS) is None


def test_what_reaches_the_corners_from_the_middle_or_hugs_the_edges_is_no_big_circle():
    """An X drawn corner to corner, the box's print left along its edges (a misregistered
    photo) and a grainy photo's specks in every corner are not a guard circle's arcs."""
    from rnwprint.photo.circles import _big_circle, _corner_arcs

    cross = np.zeros((45, 45), np.float32)
    cv2.line(cross, (2, 2), (42, 42), 1.0, 3)
    cv2.line(cross, (2, 42), (42, 2), 1.0, 3)
    edges = big_ring_crop(None)
    edges[:2], edges[-2:], edges[:, :2], edges[:, -2:] = 1.0, 1.0, 1.0, 1.0
    specks = big_ring_crop(None)
    for y, x in [(5, 5), (5, 38), (38, 5), (38, 38)]:
        specks[y:y + 3, x:x + 3] = 1.0  # 9 px each: under ARC_AREA of the crop
    gapped = np.zeros((45, 45), np.float32)  # an X whose strokes stop 0.55 of the half box short of the middle
    for (x0, y0), (x1, y1) in [((13, 13), (3, 3)), ((31, 13), (41, 3)), ((13, 31), (3, 41)), ((31, 31), (41, 41))]:
        cv2.line(gapped, (x0, y0), (x1, y1), 1.0, 3)
    for crop in (cross, edges, specks, gapped):
        assert _corner_arcs(crop, 2) is None and _big_circle(crop, crop, photo_read.INK_DARKNESS) is None
    for crop in (cross, specks):
        assert photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)[1:] == (False, False)


def off_centre_crop(centre, axes, written: str | None = "3", thickness: int = 2) -> np.ndarray:
    """A 45 px box with `written` at `centre`, 14 px high, and (axes not None) an ellipse
    drawn round it there: a guard circle round a number written off to one side."""
    crop = np.zeros((45, 45), np.uint8)
    if axes is not None:
        cv2.ellipse(crop, centre, axes, 0, 0, 360, 255, thickness)
    if written:
        (w, h), _ = cv2.getTextSize(written, cv2.FONT_HERSHEY_SIMPLEX, 0.65, 2)
        cv2.putText(crop, written, (centre[0] - w // 2, centre[1] + h // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.65, 255, 2)
    return crop.astype(np.float32) / 255


@pytest.mark.parametrize("centre, axes", [((29, 27), (14, 15)), ((16, 28), (14, 14)), ((27, 17), (15, 13))])
def test_a_circle_off_the_middle_of_the_box_is_found_round_its_own_ink(centre, axes):
    """A number written off to one side and circled there: the checks that look from the
    box's middle see no ring (the circle is near the middle on one side, well inside on the
    other), the off-centre check does, and the number comes out whole, nothing of the ring."""
    from rnwprint.photo.circles import _off_centre_circle

    crop = off_centre_crop(centre, axes)
    assert photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)[1:] == (False, False)
    assert photo_read._small_circle(crop, crop, photo_read.INK_DARKNESS) is None
    inside, why = _off_centre_circle(crop, crop, photo_read.INK_DARKNESS)
    alone = off_centre_crop(centre, None)
    assert why == photo_read.OFF_CIRCLE_WHY
    assert np.array_equal(inside > 0, photo_read._ink(alone) > 0)


@pytest.mark.parametrize("written", ["3", "5", "2", "8", "0", "6"])
def test_a_big_digit_reaching_its_own_edges_is_no_off_centre_circle(written):
    """A thick digit filling the box off to one side reaches its own extent's edge nearly all
    round (a 3, a 5) or rings it (a slashed 0, the loops of 6 and 8), but its strokes run on
    inwards: no guard circle."""
    from rnwprint.photo.circles import _off_centre_circle

    glyph = np.zeros((40, 40), np.uint8)
    cv2.putText(glyph, written, (4, 34), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 255, 5)
    ys, xs = np.nonzero(glyph)
    crop = np.zeros((45, 45), np.uint8)
    crop[8:40, 12:40] = cv2.resize(glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1], (28, 32),
                                   interpolation=cv2.INTER_NEAREST)
    crop = crop.astype(np.float32) / 255
    assert _off_centre_circle(crop, crop, photo_read.INK_DARKNESS) is None


def test_the_off_centre_circle_needs_the_ring_nearly_all_round_apart_from_the_number():
    """Left a third open, the ring is not enough to go on (the number is read as it is); a
    ring the number runs into is told from a big digit's own stroke by nothing but that, so
    the cell is read as written and flagged; a circle running out over the box's edge is
    enough where it shows."""
    from rnwprint.photo.circles import _off_centre_circle

    crop = np.zeros((45, 45), np.uint8)
    cv2.ellipse(crop, (28, 26), (14, 15), 0, 0, 240, 255, 2)
    cv2.putText(crop, "3", (22, 33), cv2.FONT_HERSHEY_SIMPLEX, 0.65, 255, 2)
    crop = crop.astype(np.float32) / 255
    assert _off_centre_circle(crop, crop, photo_read.INK_DARKNESS) is None
    touching = off_centre_crop((28, 26), (14, 15))
    cv2.line(touching, (15, 27), (24, 27), 1.0, 2)  # the number's stroke run on into the ring's left side
    assert _off_centre_circle(touching, touching, photo_read.INK_DARKNESS) == (None, photo_read.OFF_TOUCHING_WHY)
    out_over = off_centre_crop((31, 25), (17, 17))  # out to x = 48: a sixth of the way round is beyond the crop
    inside, why = _off_centre_circle(out_over, out_over, photo_read.INK_DARKNESS)
    assert why == photo_read.OFF_CIRCLE_WHY
    assert np.array_equal(inside > 0, photo_read._ink(off_centre_crop((31, 25), None)) > 0)


def test_what_the_off_centre_ring_holds_must_be_a_number_apart_from_it():
    """Inside the ring: a scrap under a third of the ring's height is no guarded number, a
    stroke 0.4 of it is; a blot filling the ring up to its ink leaves no paper between them,
    as a digit's own loop does not either; a ring whose end hooks a little inwards (a pen's
    start) is still a ring."""
    from rnwprint.photo.circles import _off_centre_circle

    def ring_with(draw) -> np.ndarray:
        crop = np.zeros((45, 45), np.uint8)
        cv2.ellipse(crop, (28, 26), (14, 15), 0, 0, 360, 255, 2)
        draw(crop)
        return crop.astype(np.float32) / 255

    def found(crop) -> bool:
        found = _off_centre_circle(crop, crop, photo_read.INK_DARKNESS)
        return found is not None and found[0] is not None

    assert not found(ring_with(lambda c: cv2.rectangle(c, (24, 23), (31, 28), 255, -1)))  # 6 of 31 rows
    assert found(ring_with(lambda c: cv2.rectangle(c, (26, 20), (28, 32), 255, -1)))  # 13 of 31 rows
    assert not found(ring_with(lambda c: cv2.ellipse(c, (28, 26), (11, 12), 0, 0, 360, 255, -1)))
    hooked = off_centre_crop((28, 26), (14, 15))
    cv2.line(hooked, (42, 26), (35, 29), 1.0, 2)  # the ring's start, hooked 7 px inwards
    assert found(hooked)


def test_a_circle_a_third_beyond_the_box_is_judged_on_what_shows():
    """A circle round a number written at the box's right edge runs a third of the way round
    beyond the crop: the directions where it runs inside the crop are all inked, and that is
    enough."""
    from rnwprint.photo.circles import _off_centre_circle

    crop = off_centre_crop((34, 25), (17, 17), thickness=3)
    inside, why = _off_centre_circle(crop, crop, photo_read.INK_DARKNESS)
    assert why == photo_read.OFF_CIRCLE_WHY
    assert np.array_equal(inside > 0, photo_read._ink(off_centre_crop((34, 25), None)) > 0)


def test_most_plain_digits_are_turned_away_before_an_ellipse_is_fitted(monkeypatch):
    """The off-centre check is asked about every written map cell no other check found a
    ring in: a digit narrower than 0.6 of the box (a 1, a narrow 0), or one whose ink reaches
    the edge of its own extent in few directions round it (a 7: a bar and a stroke), is
    turned away by a first look, before the costly ellipse fitting; a ring is not."""
    from rnwprint.photo import circles

    def no_fitting(*_):
        raise AssertionError("an ellipse was fitted")

    one = np.zeros((45, 45), np.float32)
    cv2.line(one, (22, 6), (22, 38), 1.0, 3)  # spans 0.7 of the box high, 0.07 across
    seven = np.zeros((45, 45), np.float32)
    cv2.line(seven, (6, 6), (38, 6), 1.0, 3)  # a wide 7: spans 0.75 of the box both ways
    cv2.line(seven, (38, 6), (14, 40), 1.0, 3)
    zero = np.zeros((45, 45), np.float32)
    cv2.ellipse(zero, (22, 22), (12, 16), 0, 0, 360, 1.0, 2)  # round, but 0.58 of the box across
    ring = off_centre_crop((28, 26), (14, 15))
    monkeypatch.setattr(circles, "_fitted_ring", no_fitting)
    for crop in (one, seven, zero):
        assert circles._off_centre_circle(crop, crop, photo_read.INK_DARKNESS) is None
    with pytest.raises(AssertionError, match="fitted"):
        circles._off_centre_circle(ring, ring, photo_read.INK_DARKNESS)


def outline_window(radius: int = 0, sweep: int = 360, written: str | None = "3", leftovers: bool = False) -> np.ndarray:
    """The darkness round a 7 mm map box at 8 px/mm, grown by circles.OUTLINE_OUT_MM (5 px)
    each way (66 px; the box's outline at 5 px in, taken away with the print), `written` in
    the middle, a circle of `radius` px drawn round the box's middle `sweep` degrees of the
    way, and (`leftovers`) the print's dashes left along the outline's inner edge by a
    misregistered photo."""
    dark = np.zeros((66, 66), np.uint8)
    if radius:
        cv2.ellipse(dark, (33, 33), (radius, radius), 0, 100, 100 + sweep, 150, 3)
    if written:
        cv2.putText(dark, written, (24, 44), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 150, 2)
    cv2.rectangle(dark, (5, 5), (60, 60), 0, 1)
    if leftovers:
        for k in range(7, 58, 6):
            dark[k:k + 3, 7:9] = dark[k:k + 3, 57:59] = dark[7:9, k:k + 3] = dark[57:59, k:k + 3] = 120
    return dark.astype(np.float32) / 255


def outline_read(window: np.ndarray):
    """What the outline check makes of `window` (outline_window): whether its first look
    passes the cell, and the number it keeps (None: no circle)."""
    from rnwprint.photo import circles

    cell = window[10:56, 10:56].copy()  # the cell: 0.7 mm in from the box's edges
    ink = photo_read._ink(cell)
    found = circles._outline_circle(ink, cell, photo_read.INK_DARKNESS, window, 8.0)
    return circles._reaches_edges(ink), found


@pytest.mark.parametrize("radius", [27, 28, 29, 30, 31])
def test_a_circle_drawn_along_the_box_outline_is_found_and_the_number_kept_whole(radius):
    """A guard circle as wide as the box, give or take 0.4 mm, runs along its printed outline,
    left out of the cell with the strip along it: the cell shows only bits of it near its
    edges (the first look), the ink along the outline goes nearly all round (cut where it
    crosses the outline, taken away with the print); the number inside is kept exactly."""
    reaches, number = outline_read(outline_window(radius))
    alone = photo_read._ink(outline_window()[10:56, 10:56].copy())
    assert reaches and number is not None
    assert np.array_equal(number > 0, alone > 0)


@pytest.mark.parametrize("window", [outline_window(leftovers=True), outline_window(written="0"),
                                    outline_window(written=None, leftovers=True)])
def test_print_leftovers_or_a_plain_number_are_no_circle_along_the_outline(window):
    """The print's dashes left along the outline by a misregistered photo (pieces under
    OUTLINE_PIECE_MM2), a plain 3 or 0: no circle, and no number taken out of the cell."""
    assert outline_read(window)[1] is None


@pytest.mark.parametrize("sweep, found", [(195, False), (210, False), (225, True), (300, True)])
def test_the_circle_along_the_outline_goes_round_16_of_24_directions(sweep, found):
    """An arc along the outline 210 degrees round (15 of 24 directions: a neighbour's circle,
    a stroke) is no guard circle; 225 degrees round (16) is, left open as a hurried hand
    leaves it."""
    assert (outline_read(outline_window(29, sweep=sweep))[1] is not None) == found


def test_a_plain_number_is_turned_away_by_the_first_look():
    """The outline's darkness is only worked out for a cell whose ink comes near its edges
    nearly all round: a number in the middle of its box does not."""
    assert not outline_read(outline_window())[0]
    assert not outline_read(outline_window(written="0"))[0]
    assert outline_read(outline_window(29))[0]


def test_a_circle_along_the_outline_is_not_lost_in_a_photo(tmp_path, monkeypatch):
    """An 8 MP photo of a Rolling America sheet, four numbers in ten circled about as wide as
    the box (synth_ink.BIG_CIRCLE, the photo generator's circles bigger than the box): no
    circled number is read plain without a flag, and the one whose circle runs along the
    outline, out of the other checks' sight (VA's 4), is read guarded, flagged for it. With
    the outline check left out, that 4 is read plain, unflagged: a guard lost silently."""
    from support import synth, synth_ink

    from rnwprint.games import GAMES
    from rnwprint.photo.pipeline import read_photo

    monkeypatch.setattr(synth_ink, "CIRCLE_SIZE", synth_ink.BIG_CIRCLE)
    game = GAMES["rolling-america"]
    sheet = game.build(game.default_variant, "en", "a4")
    marks = synth.random_marks(sheet, 6, circled=0.4)
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(synth.make_photo(sheet, marks, seed=6, megapixels=8.0))

    def lost(reads):
        return [cid for cid, read in reads.items() if isinstance(marks.get(cid), Guarded)
                and not isinstance(read.value, Guarded) and not read.unsure]

    reads = read_photo(photo).reads
    assert lost(reads) == []
    assert reads["VA"].value == marks["VA"] == Guarded(4) and reads["VA"].unsure
    assert reads["VA"].why == photo_read.OUTLINE_WHY
    monkeypatch.setattr(photo_read, "_outline_circle", lambda *_: None)
    assert lost(read_photo(photo).reads) == ["VA"]


@pytest.mark.parametrize("photo_px_per_mm, asked", [(8.0, True), (2.4, True), (2.35, False)])
def test_the_outline_is_looked_at_only_in_a_photo_that_sees_it_sharp(monkeypatch, photo_px_per_mm, asked):
    """A written number whose ink passes the first look (made to, here), on a page at 8 px/mm:
    the outline check is asked about it in a photo that saw the page at 2.4 px/mm or more
    (most 2 MP photos of an A4 page, and finer), not in a coarser one (1 MP), whose blurred
    outline frames every box."""
    from rnwprint.games import GAMES

    sheet = GAMES["rolling-america"].build(GAMES["rolling-america"].variants[0], "en", "a4")
    raw, _ = photo_read._printed(sheet, 8.0)
    page = (225 - 170 * raw.astype(np.float32)).astype(np.uint8)
    x0, y0, x1, y1 = (int(round(v * 8)) for v in sheet.cells["TX"].bounds)
    cv2.putText(page, "4", ((x0 + x1) // 2 - 8, (y0 + y1) // 2 + 9), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 40, 2)
    asked_about = []
    monkeypatch.setattr(photo_read, "_reaches_edges", lambda ink: True)
    monkeypatch.setattr(photo_read, "_outline_circle", lambda ink, *_: asked_about.append(ink.shape))
    photo_read.separate(page, sheet, 8.0, True, photo_px_per_mm)
    assert len(asked_about) == (1 if asked else 0)


@pytest.mark.parametrize("directions", [6, 7])
def test_the_first_look_asks_for_ink_near_the_edges_in_7_of_24_directions(directions):
    """Dots of ink in the cell's outer 3 px, each in its own one of 24 directions round the
    middle: 7 directions pass the first look, 6 do not."""
    from rnwprint.photo import circles

    crop = np.zeros((46, 46), np.float32)
    for k in range(directions):
        angle = (k * 3 + 0.5) * 2 * np.pi / 24 - np.pi  # every third direction, its middle
        reach = 21.5 / max(abs(np.cos(angle)), abs(np.sin(angle)))  # out to the crop's edge
        x, y = 22.5 + reach * np.cos(angle), 22.5 + reach * np.sin(angle)
        x, y = int(np.clip(x, 0, 44)), int(np.clip(y, 0, 44))
        crop[y:y + 2, x:x + 2] = 1.0
        cv2.line(crop, (22, 22), (x, y), 1.0, 1)  # joined to the middle: one piece, no specks
    assert circles._reaches_edges(crop) == (directions >= 7)


@pytest.mark.parametrize("specks", [5, 6])
def test_a_cell_with_a_grainy_photos_specks_is_not_looked_at_along_the_outline(specks):
    """A cell whose ink reaches its edges all round (a circle's bits) and holds 6 specks
    (pieces under 0.7 % of the cell: a grainy photo's) is not looked at along the outline,
    whose grain comes together into pieces too; with 5 it is."""
    from rnwprint.photo import circles

    crop = outline_window(29)[10:56, 10:56].copy()
    for k in range(specks):
        crop[10 + 3 * k:12 + 3 * k, 35:37] = 0.6  # 4 px each, beside the 3
    assert circles._reaches_edges(photo_read._ink(crop)) == (specks < 6)


def test_the_grain_of_a_dim_photo_along_the_outline_is_no_circle():
    """A dim photo's grain all round the box (specks up to 0.3 dark, half as dark as the pen)
    and a plain 3: ink along the outline is only what stands out of the grain (_grain), so no
    circle."""
    rng = np.random.default_rng(3)
    window = outline_window()
    grain = cv2.resize(rng.uniform(0.0, 0.3, (33, 33)).astype(np.float32), (66, 66), interpolation=cv2.INTER_NEAREST)
    window = np.maximum(window, grain)
    assert outline_read(window)[1] is None


def circled_three_page(sheet):
    """A clean page of `sheet` with a 3 in a guard circle, drawn well inside its first box."""
    page = blank_page(sheet)
    cell = next(iter(sheet.cells.values()))
    r0, r1, c0, c1 = photo_ink._cell_crop(cell, PX)
    middle = ((c0 + c1) // 2, (r0 + r1) // 2)
    half = min(r1 - r0, c1 - c0) // 2
    cv2.ellipse(page, middle, (int(half * 0.8),) * 2, 0, 0, 360, PEN, 3)
    cv2.putText(page, "3", (middle[0] - half // 4, middle[1] + half // 4), cv2.FONT_HERSHEY_SIMPLEX,
                half / 40, PEN, 3)
    return page, cell


@pytest.mark.parametrize("photo_px_per_mm, small", [(3.9, True), (4.0, False), (8.0, False)])
def test_a_circled_number_is_small_in_a_photo_coarser_than_advised(photo_px_per_mm, small):
    """A circled number is drawn half as big as a plain one: in a photo under the 4 px/mm the
    reader advises it is marked small (see the next test)."""
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    page, cell = circled_three_page(sheet)
    _, written = photo_read.separate(page, sheet, PX, True, photo_px_per_mm)
    (w,) = written
    assert w.cell.id == cell.id and w.circled and w.small == small


@pytest.mark.parametrize("sure, small, flagged", [(0.84, True, True), (0.85, True, False), (0.86, True, False),
                                                  (0.84, False, False), (0.69, False, True)])
def test_a_small_circled_number_is_sure_only_from_85_percent(sure, small, flagged):
    """A circled number read from a coarse photo below 85 % sure is flagged with its best
    guess; elsewhere the usual 70 %. Its guard stays either way."""
    map_box = Cell("WA", ((0, 0), (7, 0), (7, 7), (0, 7)), low=1, high=6)
    probs = sure_of("3", sure, "5")
    w = photo_read.Written(map_box, [np.zeros((40, 40), np.float32)], False, True, 0.1, (0.0, 0.0), small=small)
    read = photo_read.read_written(w, probs, second=probs)
    assert read.value == Guarded(3) and read.unsure == flagged
    assert read.why == (f"best guess {sure:.0%} sure" if flagged else "")
