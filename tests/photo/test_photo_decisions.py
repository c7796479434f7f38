"""The reader's decisions, each pinned on a crafted crop or page: blank or written, ticked or
not, sure or flagged, circled or not, which numbers a cell may hold. The pages are drawn
here at the reader's own scale (8 px/mm): paper, the sheet's print, pen marks where we put
them, so every expected value is known without the reader."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rnwprint.core.entries import CROSSED, Guarded
from rnwprint.games import GAMES
from rnwprint.photo import digits
from rnwprint.photo import read as photo_read
from rnwprint.core.sheet import Cell

PX = 8.0  # the rectified page's px/mm
PAPER, PRINT, PEN = 225, 55, 40  # grey levels as a photo in ordinary light has them
DIE_CELL = Cell("R1C1", ((0, 0), (22, 0), (22, 22), (0, 22)), low=1, high=6)  # a Twenty One box: 1-6
TOWER_SQUARE = Cell("A1", ((0, 0), (15, 0), (15, 15), (0, 15)), low=1, high=50)
TICK_BOX = Cell("rounds:1", ((0, 0), (7, 0), (7, 7), (0, 7)), kind="tick")


def sure_of(label: str, p: float, also: str) -> np.ndarray:
    """A classifier's output for one crop: `p` on `label`, the rest on `also`."""
    row = np.zeros(len(digits.CLASSES))
    row[digits.CLASSES.index(label)] = p
    row[digits.CLASSES.index(also)] = 1 - p
    return row[None]


def blank_page(sheet) -> np.ndarray:
    """The sheet as printed, photographed square on, nothing written."""
    raw, _ = photo_read._printed(sheet, PX)
    page = PAPER - (PAPER - PRINT) * raw.astype(np.float32)
    return cv2.GaussianBlur(page, (0, 0), 0.8).astype(np.uint8)


def inside(cell) -> tuple[int, int, int, int]:
    """The box's inside in page pixels (left, top, right, bottom), its printed outline left out."""
    x0, y0, x1, y1 = cell.bounds
    b = photo_read.BORDER_MM
    return tuple(int(round(v * PX)) for v in (x0 + b, y0 + b, x1 - b, y1 - b))


def sprinkle(page: np.ndarray, cell, count: int) -> None:
    """`count` specks of pen (3x3 px, a dot of dust or a pen's touch) on a grid in the middle
    of the box, none touching another."""
    c0, r0, c1, r1 = inside(cell)
    k = int(np.ceil(np.sqrt(count)))
    xs = np.linspace(c0 + 25, c1 - 25, k).astype(int)
    ys = np.linspace(r0 + 25, r1 - 25, k).astype(int)
    for i in range(count):
        page[ys[i // k]:ys[i // k] + 3, xs[i % k]:xs[i % k] + 3] = PEN


# --------------------------------------------------------------------------- sure or flagged


@pytest.mark.parametrize("p, flagged", [(0.66, True), (0.69, True), (0.71, False), (0.75, False)])
def test_a_read_less_than_70_percent_sure_is_flagged(p, flagged):
    """The unsure threshold chosen on the calibration photos (BENCHMARKS, issue 5): a best
    guess under 70 % sure is flagged for a person and says how sure it was."""
    read = photo_read._decide(DIE_CELL, sure_of("4", p, "1"), False, False)
    assert read.value == 4 and read.confidence == pytest.approx(p)
    assert read.unsure == flagged
    assert read.why == (f"best guess {round(100 * p)}% sure" if flagged else "")


def two_digits(tens: str, units: str, p: float) -> np.ndarray:
    """A two-digit square's crops: the whole (unreadable as one character), then one cut."""
    whole = np.full(len(digits.CLASSES), 1 / len(digits.CLASSES))
    return np.concatenate([whole[None], sure_of(tens, p, "7"), sure_of(units, p, "7")])


def test_two_touching_digits_read_80_percent_sure_are_flagged_two_pieces_apart_are_not():
    """Ink in one piece may be one wide digit or two touching ones: its read is trusted less
    (x 0.85) and two digits each 80 % sure fall under the threshold. The same digits written
    apart are surely two: 80 % sure stands."""
    touching = photo_read._decide(TOWER_SQUARE, two_digits("2", "4", 0.8), False, False)
    assert touching.value == 24 and touching.unsure
    assert touching.confidence == pytest.approx(0.85 * 0.8)
    apart = photo_read._decide(TOWER_SQUARE, two_digits("2", "4", 0.8), False, True)
    assert apart.value == 24 and not apart.unsure and apart.confidence == pytest.approx(0.8)


# --------------------------------------------------------------------------- what a cell may hold


@pytest.mark.parametrize("written", ["0", "7", "9"])
def test_a_one_to_six_cell_never_reads_a_number_it_cannot_hold(written):
    """A die box holds 1-6 or X: a digit outside that is read as the likeliest one allowed."""
    read = photo_read._decide(DIE_CELL, sure_of(written, 0.9, "6"), False, False)
    assert read.value == 6 and read.confidence == pytest.approx(1.0)


def test_one_narrow_digit_in_a_tower_square_is_read_as_that_digit():
    """Ink no wider than a digit goes to the classifier whole, as one digit 1-9 or an X."""
    assert photo_read._decide(TOWER_SQUARE, sure_of("7", 0.9, "1"), False, False).value == 7
    assert photo_read._decide(TOWER_SQUARE, sure_of("X", 0.9, "1"), False, False).value == CROSSED


def test_one_wide_digit_in_a_tower_square_is_read_whole_and_trusted_less():
    """A 1 written wide (a long flag and foot) is cut in two for a look; the whole, read as
    a 1 90 % sure, beats an unsure cut (4 and 7, 50 % each), at 0.85 x 90 %: not flagged."""
    whole = sure_of("1", 0.9, "7")
    read = photo_read._decide(TOWER_SQUARE, np.concatenate([whole, sure_of("4", 0.5, "1"), sure_of("7", 0.5, "1")]),
                              False, False)
    assert read.value == 1 and read.confidence == pytest.approx(0.85 * 0.9) and not read.unsure


def test_a_cut_read_far_likelier_than_the_first_wins():
    """Touching digits cut two ways: the emptiest column gives 25 (its 2 read 30 % sure, its 5
    70 %: 0.21 likely), another column 27 (80 % each: 0.64, x 0.75 for not being the first
    cut, still far likelier): the cell reads 27, flagged (0.85 x 80 %)."""
    whole = np.full((1, len(digits.CLASSES)), 1 / len(digits.CLASSES))
    probs = np.concatenate([whole, sure_of("2", 0.3, "5"), sure_of("1", 0.3, "5"),
                            sure_of("2", 0.8, "5"), sure_of("7", 0.8, "5")])
    read = photo_read._decide(TOWER_SQUARE, probs, False, False)
    assert read.value == 27 and read.confidence == pytest.approx(0.85 * 0.8) and read.unsure


def test_a_cross_in_a_tower_square_is_a_cross_as_sure_as_the_whole_is():
    """An X is wide and in one piece: the whole, read as an X 90 % sure, beats a cut that
    reads 4 and 7 (50 % each), and the cross is as sure as the whole."""
    read = photo_read._decide(TOWER_SQUARE, np.concatenate([sure_of("X", 0.9, "1"), sure_of("4", 0.5, "1"),
                                                            sure_of("7", 0.5, "1")]), False, False)
    assert read.value == CROSSED and read.confidence == pytest.approx(0.9) and not read.unsure


def test_a_ten_reads_ten_and_no_tower_number_starts_with_zero():
    """Two pieces read surely as 1 and 0 are 10; as 0 and 7 they are no number a square holds
    (07 is not written): the likeliest from 10 up, flagged."""
    ten = photo_read._decide(TOWER_SQUARE, two_digits("1", "0", 0.95), False, True)
    assert ten.value == 10 and not ten.unsure
    softmax_like = two_digits("0", "7", 0.95) + 0.001  # a network never says 0 exactly
    seven = photo_read._decide(TOWER_SQUARE, softmax_like / softmax_like.sum(axis=1, keepdims=True), False, True)
    assert 10 <= seven.value <= 50 and seven.unsure


def test_a_tower_square_never_reads_a_number_above_its_range():
    """A square holding 1-50, read as a clear 5 and 7: not 57, and flagged."""
    read = photo_read._decide(TOWER_SQUARE, two_digits("5", "7", 0.95), False, True)
    assert read.value != 57 and 1 <= read.value <= 50 and read.unsure


# --------------------------------------------------------------------------- circles


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
    ink, found = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
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
    ink, circled = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert circled
    alone = photo_read._ink(digit.astype(np.float32) / 255)
    assert np.array_equal(ink > 0, alone > 0)


@pytest.mark.parametrize("speck", [False, True])
def test_a_ring_with_nothing_inside_is_a_zero_not_a_guard(speck):
    """A zero written round the box (a speck of dust inside it or not) guards nothing."""
    crop = ring_crop(360, None)
    if speck:
        crop[21:24, 21:24] = 1.0
    _, found = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert not found


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


def test_a_circled_cross_is_a_cross_and_a_circled_number_is_guarded():
    """The circle comes off and the X inside is read: a crossed-out cell (a guard guards a
    number, an X is no score). The same circle round a 3 guards the 3."""
    crop = ring_crop(360, "X")
    ink, circled = photo_read._remove_circle(crop, crop, photo_read.INK_DARKNESS)
    assert circled
    map_box = Cell("WA", ((0, 0), (7, 0), (7, 7), (0, 7)), low=1, high=6)
    read = photo_read._decide(map_box, digits.probabilities([ink]), circled, False)
    assert read.value == CROSSED and not read.unsure
    assert photo_read._decide(map_box, sure_of("3", 0.95, "8"), True, False).value == Guarded(3)


# --------------------------------------------------------------------------- ticks


@pytest.mark.parametrize("share, ticked, flagged, confidence", [
    (0.001, False, False, 1.0),  # a speck
    (0.0045, False, True, 0.75),  # a faint tick? read blank, flagged; halfway between 0.3 % and the line
    (0.008, True, True, 0.5 + 1 / 6),  # a short light tick, flagged; a third of the way from the line to 1.2 %
    (0.02, True, False, 1.0),  # a tick
])
def test_a_faint_tick_is_flagged_either_way(share, ticked, flagged, confidence):
    """A tick box's ink (its share of the box): clearly blank and clearly ticked are read
    sure; in between (0.3-1.2 %) it is read the likelier way (the line: 0.6 %) and flagged
    as a faint tick, the surer the further from the line (50 % on it)."""
    read = photo_read._tick(TICK_BOX, share)
    assert read.value is ticked and read.unsure == flagged
    assert read.why == ("faint tick" if flagged else "")
    assert read.confidence == pytest.approx(confidence)


# --------------------------------------------------------------------------- blank or written


@pytest.fixture(scope="module")
def twenty_one():
    return GAMES["twenty-one"].build("A", "en", "a4")


def read_one(sheet, draw, photo_px_per_mm: float = PX):
    """Draw into the first box of a clean page, read the page, return that box's read."""
    page = blank_page(sheet)
    cell = next(iter(sheet.cells.values()))
    draw(page, cell)
    return photo_read.read_cells(page, sheet, PX, False, photo_px_per_mm)[cell.id]


@pytest.mark.parametrize("specks", [0, 4, 14])
def test_a_blank_box_with_a_few_specks_reads_blank_and_sure(twenty_one, specks):
    read = read_one(twenty_one, lambda page, cell: sprinkle(page, cell, specks))
    assert read.value is None and not read.unsure


@pytest.mark.parametrize("specks", [30, 49])
def test_faint_marks_in_a_blank_box_are_flagged(twenty_one, specks):
    """More specks than dust leaves, too few for a number (about 0.4-0.6 % of the box):
    read blank, but a person is asked to look."""
    read = read_one(twenty_one, lambda page, cell: sprinkle(page, cell, specks))
    assert read.value is None and read.unsure and read.why == "faint marks"
    assert 0 < read.confidence < 0.5  # from 50 % sure blank at 0.3 % of the box in ink to 0 at 0.6 %


def test_a_tick_on_the_page_reads_ticked_and_its_neighbour_blank():
    """A tick drawn in the first round box of a Rolling America page, the next box left
    blank: read as a person would, at 8 and at 3 px/mm."""
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    page = blank_page(sheet)
    c0, r0, c1, r1 = inside(sheet.cells["rounds:1"])
    w, h = c1 - c0, r1 - r0
    cv2.line(page, (c0 + w // 4, r0 + h // 2), (c0 + w // 2, r1 - h // 5), PEN, 3)
    cv2.line(page, (c0 + w // 2, r1 - h // 5), (c1 - w // 6, r0 + h // 6), PEN, 3)
    for photo_px_per_mm in (PX, 3.0):
        reads = photo_read.read_cells(page, sheet, PX, True, photo_px_per_mm)
        assert reads["rounds:1"].value is True and not reads["rounds:1"].unsure
        assert reads["rounds:2"].value is False and not reads["rounds:2"].unsure


def test_a_sprinkle_no_digit_explains_reads_blank_flagged(twenty_one):
    """80 specks (about 1 % of the box, more than a blank's share): the classifier finds no
    character in them, and so little ink unread is stray marks, not a number."""
    read = read_one(twenty_one, lambda page, cell: sprinkle(page, cell, 80))
    assert read.value is None and read.unsure and read.why == "faint marks"


def test_as_much_ink_as_a_number_keeps_its_best_guess(twenty_one):
    """150 specks (over 2 % of the box): too much ink for stray marks; the best guess is
    shown, flagged."""
    read = read_one(twenty_one, lambda page, cell: sprinkle(page, cell, 150))
    assert read.value is not None and read.unsure and read.why.startswith("best guess")


def thin_one(page, cell):
    """A 1 written with a fine pen: a stroke 3 px (0.4 mm) wide, about 1.5 % of the box."""
    c0, r0, c1, r1 = inside(cell)
    x = (c0 + c1) // 2
    cv2.line(page, (x, r0 + 30), (x - 6, r1 - 30), PEN, 3)


def test_a_thin_one_is_written_not_blank(twenty_one):
    read = read_one(twenty_one, thin_one)
    assert read.value == 1 and not read.unsure


def fading_stroke(page, cell):
    """A vertical stroke whose ink fades every 12 px from 40 % to 12 % darker than the paper,
    as a coarse photo blurs a thin line."""
    c0, r0, c1, r1 = inside(cell)
    x = (c0 + c1) // 2
    for y in range(r0 + 30, r1 - 30, 12):
        page[y:y + 8, x - 3:x + 3] = round(PAPER * (1 - 0.4))
        page[y + 8:y + 12, x - 3:x + 3] = round(PAPER * (1 - 0.12))


@pytest.mark.parametrize("photo_px_per_mm, pieces", [(2.5, 1), (PX, 9)])
def test_a_coarse_photos_faded_stroke_is_taken_whole(twenty_one, photo_px_per_mm, pieces):
    """Seen at under 3 px/mm a written box's ink is taken from 10 % darker than the paper
    (not 14 %): the faded stretches stay, and the stroke goes to the classifier in one piece."""
    page = blank_page(twenty_one)
    cell = next(iter(twenty_one.cells.values()))
    fading_stroke(page, cell)
    _, written = photo_read.separate(page, twenty_one, PX, False, photo_px_per_mm)
    (w,) = [w for w in written if w.cell.id == cell.id]
    assert cv2.connectedComponents((w.crops[0] > 0).astype(np.uint8))[0] - 1 == pieces


def test_a_coarse_photo_still_tells_a_blank_box_by_the_usual_floor(twenty_one):
    """The lower floor is for the strokes of a box already known to be written: faint
    shading (12 % darker than the paper) in a blank box is no ink, however coarse the photo."""
    def shade(page, cell):
        c0, r0, c1, r1 = inside(cell)
        for y in range(r0 + 30, r1 - 30, 10):
            page[y:y + 5, c0 + 30:c1 - 30] = round(PAPER * (1 - 0.12))
    read = read_one(twenty_one, shade, photo_px_per_mm=2.5)
    assert read.value is None and not read.unsure


def test_a_faint_unsure_read_of_little_ink_is_blank_flagged(monkeypatch):
    """Both networks unsure (here: evenly split) of a box with under 2 % of it in ink: stray
    marks, read blank and flagged; with more ink, the best guess stays."""
    monkeypatch.setattr(digits, "convnet_probabilities", lambda images: np.full((len(images), len(digits.CLASSES)),
                                                                               1 / len(digits.CLASSES)))
    crop = np.zeros((40, 40), np.float32)
    crop[10:30, 18:21] = 1.0
    probs = sure_of("4", 0.55, "1")
    for share, value in ((0.015, None), (0.03, 4)):
        read = photo_read.read_written(photo_read.Written(DIE_CELL, [crop], False, False, share, (0.0, 0.0)), probs)
        assert read.value == value and read.unsure
        assert read.why == ("faint marks" if value is None else f"best guess {read.confidence:.0%} sure")


# --------------------------------------------------------------------------- two-digit cells: flag, never re-guess


def pair_of(whole: np.ndarray, tens: np.ndarray, units: np.ndarray) -> np.ndarray:
    return np.concatenate([whole, tens, units])


UNREADABLE_WHOLE = np.full((1, len(digits.CLASSES)), 1 / len(digits.CLASSES))


def test_a_pair_whose_tens_reads_as_no_allowed_digit_is_flagged_not_put_in_range():
    """Two pieces read as a clear 7 (5 % on a 4) and a clear 9: 79 is no number of a 1-50
    square. The likeliest number it may hold (49: among the tens a square allows, all the 7's
    share left is on 4) is kept as the guess, as sure as its less sure digit among what the
    square allows (95 %), but flagged with the reason; a clear 4 and 9 reads 49, sure."""
    read = photo_read._decide(TOWER_SQUARE, pair_of(UNREADABLE_WHOLE, sure_of("7", 0.95, "4"), sure_of("9", 0.95, "4")),
                              False, True)
    assert read.value == 49 and read.unsure and read.why == photo_read.WHY_RANGE
    assert read.confidence == pytest.approx(0.95)
    sure = photo_read._decide(TOWER_SQUARE, pair_of(UNREADABLE_WHOLE, sure_of("4", 0.95, "7"), sure_of("9", 0.95, "4")),
                              False, True)
    assert sure.value == 49 and not sure.unsure and sure.why == ""


@pytest.mark.parametrize("units", ["1", "3"])
def test_a_units_digit_the_range_forbids_after_a_five_is_flagged(units):
    """In a 1-50 square a 5 may only be followed by 0: a clear 5 and 1 or 3 (10 % on 0) is 50
    at best and flagged, never a silent 50 (nor 51)."""
    read = photo_read._decide(TOWER_SQUARE, pair_of(UNREADABLE_WHOLE, sure_of("5", 0.95, "4"), sure_of(units, 0.9, "0")),
                              False, True)
    assert read.value == 50 and read.unsure


def tall_and_piece(piece_height: int, piece_left: bool = False) -> np.ndarray:
    """Ink 40 px tall: a full-height stroke, and 12 px to its right (or left) a stroke
    `piece_height` px tall, its foot on the same line."""
    ink = np.zeros((60, 60), np.float32)
    tall, piece = (26, 10) if piece_left else (10, 26)
    ink[10:50, tall:tall + 4] = 1.0
    ink[50 - piece_height:50, piece:piece + 4] = 1.0
    return ink


@pytest.mark.parametrize("height, short", [(26, True), (27, True), (28, False), (29, False), (40, False)])
@pytest.mark.parametrize("piece_left", [False, True])
def test_a_piece_under_70_percent_of_the_inks_height_makes_its_way_short(height, short, piece_left):
    """Two pieces side by side are two digits; the shorter under 0.7 of the ink's height
    (28 of 40 px) is short: more likely a broken digit's stroke than a digit."""
    crops, apart = photo_read._split_digits(tall_and_piece(height, piece_left), TOWER_SQUARE)
    assert apart and len(crops) == 3
    assert photo_read._short_ways(crops) == (short,)


def test_two_sure_digits_one_of_them_short_are_flagged():
    """A clear 1 and 2 (95 % each) from pieces of which one is short: flagged with the
    reason; the same read from pieces of one height stands."""
    probs = pair_of(UNREADABLE_WHOLE, sure_of("1", 0.95, "4"), sure_of("2", 0.95, "4"))
    read = photo_read._decide(TOWER_SQUARE, probs, False, True, (True,))
    assert read.value == 12 and read.unsure and read.why == photo_read.WHY_SHORT
    assert read.confidence == pytest.approx(0.95)
    even = photo_read._decide(TOWER_SQUARE, probs, False, True, (False,))
    assert even.value == 12 and not even.unsure


def test_a_short_piece_flags_only_the_way_it_is_in():
    """Two ways to group three pieces: the first (read 1 and 2, 60 % each) has a short
    piece, the second (4 and 2, 95 % each) does not and wins: not flagged."""
    probs = np.concatenate([UNREADABLE_WHOLE, sure_of("1", 0.6, "4"), sure_of("2", 0.6, "4"),
                            sure_of("4", 0.95, "1"), sure_of("2", 0.95, "4")])
    read = photo_read._decide(TOWER_SQUARE, probs, False, True, (True, False))
    assert read.value == 42 and not read.unsure


def test_a_written_cell_of_two_pieces_one_short_is_read_flagged(monkeypatch):
    """End to end from the ink: a tall stroke and a short one side by side, both networks
    reading them as a sure 1 and 4, read 14 and flagged as short."""
    def sure_one_then_four(images):
        rows = [sure_of("1", 0.5, "4")[0], sure_of("1", 0.95, "4")[0], sure_of("4", 0.95, "1")[0]]
        return np.stack(rows[:len(images)]).astype(np.float32)
    monkeypatch.setattr(digits, "probabilities_of_images", sure_one_then_four)
    monkeypatch.setattr(digits, "convnet_probabilities", sure_one_then_four)
    ink = tall_and_piece(20)
    crops, apart = photo_read._split_digits(ink, TOWER_SQUARE)
    written = photo_read.Written(TOWER_SQUARE, crops, apart, False, 0.05, (0.0, 0.0))
    read = photo_read.read_written(written, digits.probabilities(crops))
    assert read.value == 14 and read.unsure and read.why == photo_read.WHY_SHORT


@pytest.mark.parametrize("pair_sure, flagged", [(0.72, True), (0.68, False)])
def test_one_wide_digit_is_flagged_when_two_digits_read_70_percent_sure_too(pair_sure, flagged):
    """Ink in one piece read as a 4 (95 % sure) and, cut, as 1 and 4: when the cut's digits
    are each over 70 % sure too, the shape cannot tell one digit from two: flagged."""
    probs = pair_of(sure_of("4", 0.95, "1"), sure_of("1", pair_sure, "7"), sure_of("4", pair_sure, "1"))
    read = photo_read._decide(TOWER_SQUARE, probs, False, False)
    assert read.value == 4 and read.confidence == pytest.approx(0.85 * 0.95)
    assert read.unsure == flagged and read.why == (photo_read.WHY_ONE_OR_TWO if flagged else "")


@pytest.mark.parametrize("whole_sure, flagged", [(0.72, True), (0.68, False)])
def test_two_touching_digits_are_flagged_when_one_digit_reads_70_percent_sure_too(whole_sure, flagged):
    """Touching ink cut into a 2 and a 4 (95 % each) that, whole, also reads as a 4: flagged
    when the whole is over 70 % sure."""
    probs = pair_of(sure_of("4", whole_sure, "1"), sure_of("2", 0.95, "7"), sure_of("4", 0.95, "1"))
    read = photo_read._decide(TOWER_SQUARE, probs, False, False)
    assert read.value == 24 and read.confidence == pytest.approx(0.85 * 0.95)
    assert read.unsure == flagged and read.why == (photo_read.WHY_ONE_OR_TWO if flagged else "")


def read_by_two_networks(monkeypatch, apart: bool, first: np.ndarray, second: np.ndarray):
    crops = [np.ones((20, 30), np.float32), np.ones((20, 12), np.float32), np.ones((20, 12), np.float32)]
    monkeypatch.setattr(digits, "convnet_probabilities", lambda images: second.astype(np.float32))
    return photo_read.read_written(photo_read.Written(TOWER_SQUARE, crops, apart, False, 0.05, (0.0, 0.0)), first)


@pytest.mark.parametrize("first_reads, sure, flagged", [("4", 0.77, False), ("7", 0.72, True)])
def test_a_two_digit_read_the_first_network_alone_reads_otherwise_is_flagged(monkeypatch, first_reads, sure, flagged):
    """Two pieces the feature network reads as a sure 2 and a `first_reads` 55 % sure (the
    rest on the other of 4 and 7); the convolutional network reads a sure 2 and 4. Their
    average reads 24 (its 4 77 or 72 % sure): flagged when the feature network alone read 27."""
    first = pair_of(UNREADABLE_WHOLE, sure_of("2", 0.99, "7"), sure_of(first_reads, 0.55, "7" if first_reads == "4" else "4"))
    second = pair_of(UNREADABLE_WHOLE, sure_of("2", 0.99, "7"), sure_of("4", 0.99, "7"))
    read = read_by_two_networks(monkeypatch, True, first, second)
    assert read.value == 24 and read.confidence == pytest.approx(sure)
    assert read.unsure == flagged and read.why == (photo_read.WHY_NETWORKS if flagged else "")


@pytest.mark.parametrize("second_whole, flagged", [(None, False), ("4", True)])
def test_a_two_digit_read_the_second_network_alone_reads_otherwise_is_flagged(monkeypatch, second_whole, flagged):
    """Touching ink the feature network reads as a sure 2 and 4 (trusted x 0.85: under 90 %,
    the second network is asked), the whole unreadable. The convolutional network reads the
    cut as 2 and 4 90 % sure and, when `second_whole`, the whole as a 4 95 % sure: alone it
    reads 4. The average reads 24 (80 % sure): flagged when the second network alone read 4."""
    first = pair_of(UNREADABLE_WHOLE, sure_of("2", 0.99, "7"), sure_of("4", 0.99, "7"))
    whole = UNREADABLE_WHOLE if second_whole is None else sure_of(second_whole, 0.95, "1")
    second = pair_of(whole, sure_of("2", 0.9, "7"), sure_of("4", 0.9, "7"))
    read = read_by_two_networks(monkeypatch, False, first, second)
    assert read.value == 24 and read.confidence == pytest.approx(0.85 * 0.945)
    assert read.unsure == flagged and read.why == (photo_read.WHY_NETWORKS if flagged else "")


def test_each_way_of_grouping_three_pieces_is_judged_on_its_own_pieces():
    """A short piece (26 of 40 px), then two tall ones: grouped short | tall tall (the widest
    gap first), the way has a short piece; grouped short tall | tall, it has none."""
    ink = np.zeros((60, 60), np.float32)
    ink[24:50, 5:9] = 1.0
    ink[10:50, 22:26] = 1.0
    ink[10:50, 32:36] = 1.0
    crops, apart = photo_read._split_digits(ink, TOWER_SQUARE)
    assert apart and len(crops) == 5
    assert not crops[1][:, 20:].any() and crops[3][:, 20:28].any() and not crops[4][:, :30].any()
    assert photo_read._short_ways(crops) == (True, False)


def test_a_one_digit_cell_is_not_flagged_for_the_networks_reading_it_differently(monkeypatch):
    """The networks' disagreement flags two-digit cells only: a die box the feature network
    reads as a 1 (55 %) and the convolutional one as a sure 4 reads 4, 72 % sure, unflagged."""
    monkeypatch.setattr(digits, "convnet_probabilities", lambda images: sure_of("4", 0.99, "1").astype(np.float32))
    written = photo_read.Written(DIE_CELL, [np.ones((20, 12), np.float32)], False, False, 0.05, (0.0, 0.0))
    read = photo_read.read_written(written, sure_of("1", 0.55, "4"))
    assert read.value == 4 and read.confidence == pytest.approx(0.72) and not read.unsure


# --- digits leaning more than SLANT_SEEN: also read straightened -----------------------------


def leaning_digits(label: int, shear: float, count: int = 100) -> list[np.ndarray]:
    """Held-out digits `label`, their tops pushed right by `shear` px a row (1.1: about 48°)."""
    images, labels = digits.heldout_digits()
    out = []
    for image in images[np.flatnonzero(labels == label)[:count]]:
        wide = cv2.copyMakeBorder(image, 0, 0, 14, 14, cv2.BORDER_CONSTANT, 0).astype(np.float32) / 255
        out.append(cv2.warpAffine(wide, np.float32([[1, -shear, shear * 13.5], [0, 1, 0]]), (56, 28)))
    return out


def read_as_cells(monkeypatch, crops, circled=False):
    """read_cells on these crops, each the ink of a written 1-6 box."""
    from dataclasses import replace

    written = [photo_read.Written(replace(DIE_CELL, id=f"c{k}"), [crop], False, circled, 0.1, (0.0, 0.0))
               for k, crop in enumerate(crops)]
    monkeypatch.setattr(photo_read, "separate", lambda *args: ({}, written))
    reads = photo_read.read_cells(None, None, 8.0, True, 8.0)
    return [reads[f"c{k}"] for k in range(len(crops))]


def test_a_line_leaning_right_has_a_negative_slant_and_is_straightened_to_slant_to():
    line = np.zeros((28, 28), np.float32)
    cv2.line(line, (8, 24), (20, 4), 1.0, 2)  # the top 12 px right of the foot, over 20 rows
    assert digits.slant(line) == pytest.approx(-0.6, abs=0.05)
    assert digits.slant(np.rot90(np.diag(np.ones(28, np.float32)))) < 0
    assert digits.slant(cv2.flip(line, 1)) == pytest.approx(0.6, abs=0.05)
    assert digits.slant(digits.straightened(line)) == pytest.approx(-digits.SLANT_TO, abs=0.05)
    assert digits.slant(digits.straightened(cv2.flip(line, 1))) == pytest.approx(digits.SLANT_TO, abs=0.05)
    upright = np.zeros((28, 28), np.float32)
    upright[4:24, 13:15] = 1
    assert digits.slant(upright) == pytest.approx(0.0, abs=1e-6)
    assert digits.leaning([line, upright, None, digits.straightened(line)]) == [0]


@pytest.mark.parametrize("label", [3, 4])
def test_digits_leaning_far_are_read_right_more_often_straightened(monkeypatch, label):
    """3s and 4s leaning about 48° (beyond all but a few MNIST digits) are read right far more
    often, and never more often wrong and unflagged, read both as they lean and straightened
    than as they lean only."""
    crops = leaning_digits(label, 1.1, 300)  # every held-out one (about 200)
    both = read_as_cells(monkeypatch, crops)
    monkeypatch.setattr(digits, "SLANT_SEEN", 99.0)
    as_they_lean = read_as_cells(monkeypatch, crops)

    def right(reads):
        return sum(r.value == label for r in reads)

    def silent(reads):
        return sum(r.value != label and not r.unsure for r in reads)

    assert right(both) >= right(as_they_lean) + 10
    assert right(both) >= 0.95 * len(crops)
    assert silent(both) <= silent(as_they_lean)


def test_a_circled_digit_is_read_as_it_leans(monkeypatch):
    """What is left of a guard circle skews a digit's moments: circled digits are not straightened."""
    crops = leaning_digits(3, 1.1, 60)
    circled = [r.value for r in read_as_cells(monkeypatch, crops, circled=True)]
    straightened = [r.value for r in read_as_cells(monkeypatch, crops)]
    monkeypatch.setattr(digits, "SLANT_SEEN", 99.0)
    assert circled == [r.value for r in read_as_cells(monkeypatch, crops, circled=True)]
    assert [getattr(v, "value", v) for v in circled] != straightened  # (the test can tell them apart)


def test_the_second_opinion_reads_the_leaning_crops_it_is_asked_about_straightened_too(monkeypatch):
    """The convolutional network, asked about the cells the first is unsure of, gets each of
    their leaning crops twice: as it leans and straightened."""
    crops = leaning_digits(3, 1.1, 60)
    asked = []
    convnet = digits.convnet_probabilities
    monkeypatch.setattr(digits, "convnet_probabilities", lambda images: asked.append(images) or convnet(images))
    read_as_cells(monkeypatch, crops)
    plain, straightened = asked  # one batch of the crops, one of them straightened
    assert 0 < len(plain) == len(straightened) < len(crops)
    for image, upright in zip(plain, straightened):
        assert np.allclose(digits.straightened(image), upright)
