"""A number or tick written so pale that next to none of it is ink: flagged, not read blank
and sure (rnwprint/photo/pale.py)."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
from support import synth

from rnwprint.games import GAMES
from rnwprint.photo import pale
from rnwprint.photo import read as photo_read
from rnwprint.photo.ink import INK_DARKNESS
from rnwprint.photo.pale import PALE_TICK_MM, PALE_WHY, pale_strokes
from rnwprint.photo.pipeline import read_photo

FLOOR = INK_DARKNESS
PX = 8.0  # px/mm of the page the reader cuts cells from


def stroke(tall_mm: float, shade: float = 0.9, size: tuple[int, int] = (60, 60), width: int = 3) -> np.ndarray:
    """A cell's darkness (7.5 mm square at 8 px/mm): one upright stroke `tall_mm` tall, 3 px
    wide, `shade` times the ink floor dark, in its middle."""
    dark = np.zeros(size, np.float32)
    h = int(round(tall_mm * PX))
    top, left = (size[0] - h) // 2, size[1] // 2 - width // 2
    dark[top:top + h, left:left + width] = shade * FLOOR
    return dark


@pytest.mark.parametrize("tall_mm, found", [(2.7, True), (2.6, False)])
def test_a_pale_stroke_counts_from_2_5_mm(tall_mm, found):
    """PALE_STROKE_MM: softened, a stroke loses 0.1-0.2 mm at its ends; 2.7 mm is as long as a
    small digit's stroke, 2.6 mm what grain or a speck of dirt may reach."""
    assert pale_strokes(stroke(tall_mm), FLOOR, PX) == found


@pytest.mark.parametrize("shade, found", [(0.74, True), (0.72, False)])
def test_a_pale_stroke_stands_out_by_half_the_ink_floor_once_softened(shade, found):
    """PALE_SHARE: a 3 px stroke softened by PALE_BLUR_MM keeps about 0.68 of its darkness; at
    0.74 of the floor it is above half the floor, at 0.72 below."""
    assert pale_strokes(stroke(5.0, shade), FLOOR, PX) == found


@pytest.mark.parametrize("tall_mm, found", [(2.2, True), (2.1, False)])
def test_a_pale_tick_counts_from_2_mm(tall_mm, found):
    """In a tick box (5.5 x 3.5 mm), PALE_TICK_MM."""
    assert pale_strokes(stroke(tall_mm, size=(44, 28)), FLOOR, PX, PALE_TICK_MM) == found


def test_a_line_along_the_cell_s_edge_is_no_pale_number():
    """The print's leftover along the box's outline touches the crop's edge: left out."""
    dark = np.zeros((60, 60), np.float32)
    dark[:, 0:3] = 0.9 * FLOOR
    dark[0:3, :] = 0.9 * FLOOR
    assert not pale_strokes(dark, FLOOR, PX)


@pytest.mark.parametrize("side", ["left", "right", "top", "bottom"])
def test_a_pale_stroke_touching_the_crop_s_edge_is_left_out_one_apart_from_it_counts(side):
    """A stroke 4 mm long along one edge of the crop, touching it (the print's leftover), is
    left out; the same stroke 4 px in from that edge is a number's stroke."""
    def along(gap: int) -> np.ndarray:
        dark = np.zeros((60, 60), np.float32)
        dark[14:46, gap:gap + 3] = 0.9 * FLOOR
        return {"left": dark, "right": dark[:, ::-1], "top": dark.T, "bottom": dark.T[::-1]}[side].copy()
    assert not pale_strokes(along(0), FLOOR, PX)
    assert pale_strokes(along(4), FLOOR, PX)


def test_a_pale_dash_across_a_tick_box_counts():
    """A tick drawn as a dash from side to side of its box touches both side edges, across
    them: not the print's leftover, which runs along an edge."""
    dark = np.zeros((44, 28), np.float32)
    dark[20:23, :] = 0.9 * FLOOR
    assert pale_strokes(dark, FLOOR, PX, PALE_TICK_MM)
    along_the_top = np.zeros((44, 28), np.float32)
    along_the_top[0:3, :] = 0.9 * FLOOR
    assert not pale_strokes(along_the_top, FLOOR, PX, PALE_TICK_MM)


def test_grain_is_no_pale_number():
    """Noise a quarter of the floor on average: specks, never a piece 3 mm long once softened."""
    for seed in range(20):
        dark = np.abs(np.random.default_rng(seed).normal(0, 0.035, (60, 60))).astype(np.float32)
        assert not pale_strokes(dark, FLOOR, PX), seed


def test_a_grainy_textured_box_is_no_pale_number(monkeypatch):
    """A blank Twenty One box of a stranger's grainy photo (hand I, its darkness as the reader
    cut it: 0.07 dark all over, the floor 0.18): softened, its grain runs together into pieces
    longer than 3 mm above half the floor. Above PALE_OVER_PAPER times its median, none."""
    box = np.load(pathlib.Path(__file__).parent.parent / "data" / "grainy-box.npz")
    dark, floor = box["dark"].astype(np.float32), float(box["floor"])
    assert not pale_strokes(dark, floor, PX)
    monkeypatch.setattr(pale, "PALE_OVER_PAPER", 0.0)
    assert pale_strokes(dark, floor, PX)


def test_pale_pencil_numbers_on_a_map_photo_are_flagged_not_read_blank(monkeypatch, tmp_path):
    """A Rolling America sheet written in a hard pencil pressed lightly (synth_ink.INKS "pale"),
    photographed at 8 MP: without the pale-stroke check 13 of its 37 numbers read blank, sure;
    with it, 5 of those are flagged instead, and no blank box is flagged."""
    game = GAMES["rolling-america"]
    sheet = game.build(game.variants[0], "en", "a4")
    marks = synth.random_marks(sheet, 5)
    photo = tmp_path / "pale.jpg"
    photo.write_bytes(synth.make_photo(sheet, marks, seed=5, megapixels=8.0, ink="pale"))

    def lost_and_flagged_blanks():
        reads = read_photo(photo).reads
        written = [cid for cid, value in marks.items() if value not in (None, False)]
        lost = [cid for cid in written if reads[cid].value in (None, False) and not reads[cid].unsure]
        blanks_flagged = [cid for cid, read in reads.items() if marks.get(cid) in (None, False) and read.unsure]
        pale = [reads[cid] for cid in written if reads[cid].why == PALE_WHY]
        return lost, blanks_flagged, pale

    lost, blanks_flagged, pale = lost_and_flagged_blanks()
    monkeypatch.setattr(photo_read, "pale_strokes", lambda *args: False)
    lost_without, blanks_flagged_without, _ = lost_and_flagged_blanks()
    assert len(lost_without) >= 12
    assert len(lost) <= len(lost_without) - 4 and set(lost) <= set(lost_without)
    assert pale and all(read.value is None and read.unsure for read in pale)
    assert blanks_flagged == blanks_flagged_without == []


@pytest.mark.parametrize("length, found", [(20, True), (19, False)])
@pytest.mark.parametrize("upright", [False, True])
def test_a_piece_counts_from_exactly_the_length_either_way(length, upright, found):
    mask = np.zeros((40, 40), bool)
    mask[10, 5:5 + length] = True
    assert pale._long_pieces(mask.T if upright else mask, 20, clear=False) == found


def test_short_pieces_side_by_side_are_no_long_piece():
    """Their shadows on the box's side run together past the length; each piece is short."""
    mask = np.zeros((40, 40), bool)
    mask[5, 2:14] = True
    mask[20, 14:26] = True  # begins in the column the first ends beside: one shadow 24 long
    assert not pale._long_pieces(mask, 20, clear=False)
    mask[6:20, 13] = True  # joined
    assert pale._long_pieces(mask, 20, clear=False)
