"""Guard circles bigger than the box (seen by their arcs across its corners) and circles
drawn off the middle of the box, round a number written to one side, on crafted crops."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rnwprint.photo import read as photo_read



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
