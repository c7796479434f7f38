"""Guard circles drawn along the box's printed outline: found where the ink runs round the
outline, the number inside kept whole, and print leftovers, plain numbers and grain turned away."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from support.crafted import page_with_a_4

from rnwprint.core.entries import Guarded
from rnwprint.games import GAMES
from rnwprint.photo import read as photo_read


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
    the outline check left out, that 4 is not read guarded: only the border's ink (the circle
    taken for the number's strokes along the outline, overflow.in_border) flags it."""
    from support import synth, synth_ink

    from rnwprint.photo.pipeline import read_photo

    photo = tmp_path / "photo.jpg"
    _, marks = synth.circled_rolling_photo(photo, synth_ink.BIG_CIRCLE)

    def lost(reads):
        return [cid for cid, read in reads.items() if isinstance(marks.get(cid), Guarded)
                and not isinstance(read.value, Guarded) and not read.unsure]

    reads = read_photo(photo).reads
    assert lost(reads) == []
    assert reads["VA"].value == marks["VA"] == Guarded(4) and reads["VA"].unsure
    assert reads["VA"].why == photo_read.OUTLINE_WHY
    monkeypatch.setattr(photo_read, "_outline_circle", lambda *_: None)
    without = read_photo(photo).reads["VA"]
    assert not isinstance(without.value, Guarded) and without.why.startswith("the number's strokes run along")


@pytest.mark.parametrize("photo_px_per_mm, asked", [(8.0, True), (2.4, True), (2.35, False)])
def test_the_outline_is_looked_at_only_in_a_photo_that_sees_it_sharp(monkeypatch, photo_px_per_mm, asked):
    """A written number whose ink passes the first look (made to, here), on a page at 8 px/mm:
    the outline check is asked about it in a photo that saw the page at 2.4 px/mm or more
    (most 2 MP photos of an A4 page, and finer), not in a coarser one (1 MP), whose blurred
    outline frames every box."""

    sheet = GAMES["rolling-america"].build(GAMES["rolling-america"].variants[0], "en", "a4")
    page = page_with_a_4(sheet, "TX")
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
