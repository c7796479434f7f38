"""The reader's decisions on ink, pinned on crafted pages drawn at the reader's own scale
(8 px/mm: paper, the sheet's print, pen marks where we put them): ticked or not, blank or
written, faint marks, coarse photos."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support.crafted import DIE_CELL, PAPER, PEN, PX, TICK_BOX, blank_page, inside, sprinkle, sure_of

from rnwprint.games import GAMES
from rnwprint.photo import digits
from rnwprint.photo import ink as photo_ink
from rnwprint.photo import read as photo_read
from rnwprint.photo.pale import PALE_WHY


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
    shading (12 % darker than the paper) in a blank box is no ink, however coarse the photo.
    Its lines run across the box like a pencil's pressed lightly, so the box is marked unsure
    for them (pale.PALE_WHY), still blank."""
    def shade(page, cell):
        c0, r0, c1, r1 = inside(cell)
        for y in range(r0 + 30, r1 - 30, 10):
            page[y:y + 5, c0 + 30:c1 - 30] = round(PAPER * (1 - 0.12))
    read = read_one(twenty_one, shade, photo_px_per_mm=2.5)
    assert read.value is None and read.why == PALE_WHY


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


@pytest.fixture(scope="module")
def rolling_america():
    return GAMES["rolling-america"].build("us", "en", "a4")


def specks_of_print(sheet, cell, gap: int, dust: bool) -> np.ndarray:
    """A blank page with three 2x3 px specks of pen (under 0.6 % of the box: short of a number)
    `gap` rows below its printed id (0: just below, as a blurred photo leaves the id's edges
    past the print taken away); with `dust`, a 2x2 px speck far from the print too."""
    page = blank_page(sheet)
    r0, r1, c0, c1 = photo_ink._cell_crop(cell, PX)
    printed = photo_read._printed(sheet, PX)[1][r0:r1, c0:c1] > 0
    rows, cols = np.flatnonzero(printed.any(axis=1)), np.flatnonzero(printed.any(axis=0))
    top = r0 + rows[-1] + 1 + gap
    for left in np.linspace(c0 + cols[0], c0 + cols[-1] - 1, 3).astype(int):
        page[top:top + 2, left:left + 3] = PEN
    if dust:
        page[r1 - 8:r1 - 6, c1 - 8:c1 - 6] = PEN
    return page


@pytest.mark.parametrize("gap, dust, flagged", [(0, False, False), (0, True, False), (1, False, True),
                                                (20, False, True)])
def test_specks_beside_a_box_s_printed_id_are_no_faint_marks(rolling_america, gap, dust, flagged):
    """Specks within 0.25 mm (2 px) of the box's printed id (TX) are the print's blurred edge:
    the blank box reads blank, sure (before, 12 blank boxes in 100 photos of 2-12 MP were
    flagged "faint marks" for them), nor with a speck of dust elsewhere (0.2 % of the box). The
    same specks a pixel further down are faint marks."""
    cell = rolling_america.cells["TX"]
    page = specks_of_print(rolling_america, cell, gap, dust)
    read = photo_read.read_cells(page, rolling_america, PX, True, PX)[cell.id]
    assert read.value is None and read.unsure is flagged
    assert read.why == ("faint marks" if flagged else "")


# --------------------------------------------------------------------------- ink fainter than the page's


def _write_on(page, cell, text: str, darkness: float) -> None:
    c0, r0, c1, r1 = inside(cell)
    grey = int(round(PAPER * (1 - darkness)))
    cv2.putText(page, text, (c0 + (c1 - c0) // 4, r1 - (r1 - r0) // 5), cv2.FONT_HERSHEY_SIMPLEX, (r1 - r0) / 45, grey, 5)


def _crease(page, cell, darkness: float) -> None:
    """A fold's crease down the middle of the box: a soft grey band 0.4 mm wide, top to bottom."""
    c0, r0, c1, r1 = inside(cell)
    band = np.exp(-((np.arange(page.shape[1]) - (c0 + c1) / 2) / (0.4 * PX)) ** 2)
    rows = slice(r0 - 20, r1 + 20)
    page[rows] = (page[rows].astype(np.float32) * (1 - darkness * band)).astype(np.uint8)


@pytest.mark.parametrize("pen, crease, flagged", [
    (0.82, 0.40, True),  # a crease half as dark as the pen: flagged, whatever it reads as
    (0.82, 0.50, False),  # past FAINT_AMONG (0.55 of the pen): a stroke like the others
    (0.30, 0.25, False),  # a page written in a faint pencil: its own typical
])
def test_ink_far_fainter_than_the_pages_numbers_is_flagged(twenty_one, pen, crease, flagged):
    page = blank_page(twenty_one)
    cells = list(twenty_one.cells.values())
    for cell, text in zip(cells, "4352"):
        _write_on(page, cell, text, pen)
    _crease(page, cells[5], crease)
    reads = photo_read.read_cells(page, twenty_one, PX, False, PX)
    assert (reads[cells[5].id].why == photo_read.FAINT_AMONG_WHY) is flagged
    assert reads[cells[5].id].unsure or not flagged
    assert all(reads[c.id].why != photo_read.FAINT_AMONG_WHY for c in cells[:4])


def test_a_page_with_more_creased_boxes_than_numbers_still_flags_the_creases(twenty_one):
    """Folded early in the game: two numbers written, a crease down three empty boxes."""
    page = blank_page(twenty_one)
    cells = list(twenty_one.cells.values())
    for cell, text in zip(cells, "43"):
        _write_on(page, cell, text, 0.82)
    for cell in cells[6::6][:3]:  # R2C1, R3C1, R4C1
        _crease(page, cell, 0.3)
    reads = photo_read.read_cells(page, twenty_one, PX, False, PX)
    assert [reads[c.id].why == photo_read.FAINT_AMONG_WHY for c in cells[6::6][:3]] == [True] * 3
    assert not any(reads[c.id].unsure for c in cells[:2])
