"""Issue 15's speed work, pinned: the markers' reduced copies, the print's ring match, the
cells' surroundings warped once, the stages' timings, the sheet cache, QR modules decoded once."""

from __future__ import annotations


import cv2
import numpy as np
import pytest

from rnwprint.games import GAMES
from rnwprint.photo import locate as L
from rnwprint.photo.load import decode_photo
from rnwprint.photo.rectify import rectify
from support import synth



@pytest.fixture(scope="module")
def sheets():
    return {name: g.build(g.default_variant, "en", "a4") for name, g in GAMES.items()}


@pytest.mark.parametrize("factor", [3, 5, 6, 7])
def test_the_markers_reduced_copy_is_opencvs_area_average(factor):
    """The copy the markers are looked for on (by a factor not a power of two)
    is OpenCV's INTER_AREA reduction of the whole blocks, pixel for pixel, whichever way it
    is computed."""
    from rnwprint.photo.markers import _reduced

    rng = np.random.default_rng(factor)
    grey = rng.integers(0, 256, (301, 403)).astype(np.uint8)
    grey[100:180, 50:200] = 20  # an edge, as round a marker
    h, w = grey.shape
    want = cv2.resize(grey[:h - h % factor, :w - w % factor], (w // factor, h // factor), interpolation=cv2.INTER_AREA)
    got = _reduced(grey, factor)
    assert got.shape == want.shape == (h // factor, w // factor)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("long_side, halved", [(800, 0), (1600, 0), (1732, 0), (2000, 0), (3264, 0), (3600, 0),
                                               (4000, 4), (4032, 4), (6000, 0), (8000, 8), (9000, 8)])
def test_a_photo_is_first_halved_for_its_markers_where_that_leaves_enough_pixels(long_side, halved):
    """Markers are looked for first on a copy halved (OpenCV's fast path) to 1000-1600 px
    where that is coarser than the usual copy: a 12 MP photo by 4 rather than 3."""
    from rnwprint.photo.markers import _halvings

    assert _halvings(long_side) == halved


def test_a_far_page_whose_markers_the_halved_copy_loses_is_looked_for_as_before(monkeypatch):
    """A page filling 40 % of a 12 MP frame: its markers are too small for the copy halved
    twice, so they are looked for on the copy reduced by 3, and all four are found."""
    from rnwprint.games import GAMES
    from rnwprint.photo import markers

    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    grey = decode_photo(synth.synthesize(sheet, {}, seed=9100, megapixels=12, fill=0.4, tilt=25).jpeg)
    copies = []
    reduced = markers._reduced
    monkeypatch.setattr(markers, "_reduced", lambda g, f: copies.append(f) or reduced(g, f))
    assert sorted(markers.detect_markers(grey)) == [0, 1, 2, 3]
    assert copies == [4, 3]
    copies.clear()
    near = decode_photo(synth.synthesize(sheet, {}, seed=9100, megapixels=12, fill=0.85, tilt=25).jpeg)
    assert sorted(markers.detect_markers(near)) == [0, 1, 2, 3] and copies == [4]


def opencv_ring_match(window: np.ndarray, template: np.ndarray, inner: int) -> np.ndarray:
    """OpenCV's own masked match of the template's ring (all but `inner` px in from its edges)."""
    mask = np.ones_like(template)
    mask[inner:-inner, inner:-inner] = 0
    return cv2.matchTemplate(window.astype(np.float32), template, cv2.TM_CCOEFF_NORMED, mask=mask)


def test_a_copy_reduced_by_a_power_of_two_is_halved_step_by_step():
    from rnwprint.photo.markers import _reduced

    grey = np.random.default_rng(4).integers(0, 256, (301, 403)).astype(np.uint8)
    half = cv2.resize(grey, (201, 150), interpolation=cv2.INTER_AREA)
    assert np.array_equal(_reduced(grey, 2), half)
    assert np.array_equal(_reduced(grey, 4), cv2.resize(half, (100, 75), interpolation=cv2.INTER_AREA))
    assert _reduced(grey, 1) is grey


def test_ring_match_is_opencvs_masked_match():
    """The registration's fast match gives OpenCV's masked TM_CCOEFF_NORMED: the same peak,
    the same scores to a thousandth, -1 where the window is flat."""
    from rnwprint.photo.read import _ring_match

    rng = np.random.default_rng(7)
    template = np.full((40, 48), 255, np.float32)
    template[8:10, 8:40] = template[30:32, 8:40] = template[8:32, 8:10] = 0  # three sides of a box
    template[3:6, 40:46] = 0  # an id beside it
    window = np.full((60, 68), 230, np.float32)
    window[13:53, 7:55] = template * 0.8 + 20
    window[25:35, 20:40] = 10  # pen inside the box: left out by the mask
    window = np.clip(window + rng.normal(0, 4, window.shape), 0, 255).round().astype(np.uint8)  # a grey page
    inner = 12
    want = opencv_ring_match(window, template, inner)
    got = _ring_match(window, template, inner)
    assert got.shape == want.shape == (21, 21)
    assert np.abs(got - want).max() < 1e-3
    assert cv2.minMaxLoc(got)[3] == cv2.minMaxLoc(want)[3] == (7, 13)
    flat = _ring_match(np.full((60, 68), 200, np.uint8), template, inner)
    assert (flat == -1).all()


@pytest.mark.parametrize("offsets", [(1, 1), (5, 5), (3, 7), (6, 6)])
def test_correlate_is_opencvs_ccorr_for_few_offsets_and_many(offsets, monkeypatch):
    """The guided search's few offsets (5 x 5 at most) are correlated directly, more through
    OpenCV: the same scores either way, to float32's precision, in a strip wider than high
    and one higher."""
    from rnwprint.photo import printed

    rng = np.random.default_rng(9)
    few = offsets[0] * offsets[1] <= 25
    for shape in ((16, 190), (150, 16)):
        template = rng.uniform(-128, 128, shape).astype(np.float32)
        window = rng.integers(0, 256, (shape[0] + offsets[0] - 1, shape[1] + offsets[1] - 1)).astype(np.float32)
        want = cv2.matchTemplate(window, template, cv2.TM_CCORR)
        with monkeypatch.context() as m:
            if few:  # not through OpenCV's transform, which costs as much as 25 x 25 offsets
                m.setattr(printed.cv2, "matchTemplate", None)
            got = printed._correlate(window, template)
        assert got.shape == want.shape == offsets
        assert np.abs(got - want).max() <= 1e-5 * np.abs(want).max()


def test_ring_match_of_a_big_box_strip_by_strip_is_opencvs_masked_match():
    """A box as big as Twenty One's (22 mm) is correlated strip by strip: still OpenCV's
    masked TM_CCOEFF_NORMED, the same peak."""
    from rnwprint.photo.printed import _prepare, _ring_match

    rng = np.random.default_rng(8)
    template = np.full((160, 176), 255, np.float32)
    template[8:11, 8:168] = template[149:152, 8:168] = template[8:152, 8:11] = template[8:152, 165:168] = 0
    template[2:6, 150:162] = 0  # an id beside the box
    window = np.full((184, 200), 230, np.float32)
    window[9:169, 15:191] = template * 0.8 + 20
    window[40:120, 50:130] = 10  # pen inside the box: left out by the mask
    window = np.clip(window + rng.normal(0, 4, window.shape), 0, 255).round().astype(np.uint8)
    inner = 16
    assert _prepare(template, inner)[3] is not None  # the strips are used
    want = opencv_ring_match(window, template, inner)
    got = _ring_match(window, template, inner)
    assert got.shape == want.shape == (25, 25)
    assert np.abs(got - want).max() < 1e-3
    assert cv2.minMaxLoc(got)[3] == cv2.minMaxLoc(want)[3] == (15, 9)


def test_the_cells_surroundings_are_the_rectified_page_there(sheets):
    """rectify_around_cells warps each cell's surroundings exactly as the whole page is
    warped there, and leaves the rest white."""
    from rnwprint.photo.pipeline import AROUND_CELL_MM, rectify_around_cells

    sheet = sheets["twenty-one"]
    photo = synth.synthesize(sheet, synth.random_marks(sheet, 2), 2, 2.0, tilt=20)
    grey = decode_photo(photo.jpeg)
    fix = L.locate(grey)
    whole = rectify(grey, fix, sheet, 8.0).astype(int)
    part = rectify_around_cells(grey, fix, sheet, 8.0).astype(int)
    assert part.shape == whole.shape
    near = np.zeros(whole.shape, bool)
    for cell in sheet.cells.values():
        x0, y0, x1, y1 = (np.array(cell.bounds) + [-AROUND_CELL_MM, -AROUND_CELL_MM, AROUND_CELL_MM, AROUND_CELL_MM]) * 8
        near[int(y0) + 1:int(y1) - 1, int(x0) + 1:int(x1) - 1] = True
    assert np.abs(part[near] - whole[near]).max() <= 1  # the same warp, a rounding apart at most
    assert (part[~near] == 255).mean() > 0.95
    assert (whole[~near] < 128).mean() > 0.02  # the title, the markers: left out


def test_overlapping_surroundings_are_warped_once():
    """Two cells' surroundings are warped as one rectangle where that is no bigger than the
    two (their overlap warped once); cells far apart stay apart; every cell stays covered."""
    from rnwprint.photo.pipeline import _joined

    assert _joined([(0, 0, 10, 10), (5, 0, 15, 10)]) == [(0, 0, 15, 10)]  # 150 px, not 200
    assert _joined([(0, 0, 10, 10), (0, 10, 10, 20)]) == [(0, 0, 10, 20)]  # touching: as big
    assert _joined([(0, 0, 10, 10), (9, 9, 19, 19)]) == [(0, 0, 10, 10), (9, 9, 19, 19)]  # 361 > 200
    assert _joined([(0, 0, 10, 10), (30, 0, 40, 10), (8, 0, 32, 10)]) == [(0, 0, 40, 10)]  # a grown one takes more
    assert _joined([]) == []


def test_a_sheets_surroundings_cover_every_cell_in_fewer_pixels(sheets):
    from rnwprint.photo.pipeline import AROUND_CELL_MM, _around_cells

    for name in ("twenty-one", "roll-to-the-top", "rolling-america"):
        sheet = sheets[name]
        rects = _around_cells(sheet, 8.0)
        alone = 0
        for cell in sheet.cells.values():
            x0, y0, x1, y1 = (np.array(cell.bounds) + [-AROUND_CELL_MM, -AROUND_CELL_MM, AROUND_CELL_MM, AROUND_CELL_MM]) * 8
            alone += (x1 - x0) * (y1 - y0)
            assert any(c0 <= x0 + 1 and r0 <= y0 + 1 and c1 >= x1 - 1 and r1 >= y1 - 1 for c0, r0, c1, r1 in rects), cell.id
        assert len(rects) < len(sheet.cells)
        assert sum((c1 - c0) * (r1 - r0) for c0, r0, c1, r1 in rects) < 0.9 * alone


def test_the_stages_add_up_to_the_total(tmp_path, sheets):
    from rnwprint.photo.pipeline import read_photo

    sheet = sheets["twenty-one"]
    path = tmp_path / "p.jpg"
    path.write_bytes(synth.make_photo(sheet, synth.random_marks(sheet, 4), seed=4, megapixels=2.0))
    timings = read_photo(path).timings
    stages = ["decode", "markers", "qr", "sheet", "homography", "print", "model", "rectify", "cells"]
    assert list(timings) == [*stages, "total"]
    assert abs(sum(timings[s] for s in stages) - timings["total"]) < 0.01
    assert all(timings[s] >= 0 for s in stages)


def test_the_sheet_cache_keeps_each_sheet_on_disk_and_never_changes_a_read(tmp_path, monkeypatch, sheets):
    """A second process finds the sheet and its print on disk and reads the same; a damaged
    entry is built again; RNWPRINT_CACHE="" keeps nothing."""
    import subprocess
    import sys

    sheet = sheets["twenty-one"]
    photo = tmp_path / "p.jpg"
    photo.write_bytes(synth.make_photo(sheet, synth.random_marks(sheet, 6), seed=6, megapixels=2.0))
    folder = tmp_path / "cache"

    def read(cache: str) -> dict:
        import json

        done = subprocess.run([sys.executable, "-m", "rnwprint", "read", "--json", str(photo)], capture_output=True, check=False,
                              text=True, env={**__import__("os").environ, "RNWPRINT_CACHE": cache})
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)
        return {k: v for k, v in out.items() if k != "timings_ms"}

    first = read(str(folder))
    entries = sorted(p.name.rsplit("-", 1)[0] for p in folder.iterdir())
    assert entries == ["guarded", "print", "print-around", "sheet"]
    assert read(str(folder)) == first
    for entry in folder.iterdir():
        entry.write_bytes(b"damaged")
    assert read(str(folder)) == first
    assert all(p.read_bytes() != b"damaged" for p in folder.iterdir())  # built again, stored again
    assert read("") == first


def test_module_matrices_decode_to_their_own_text_and_the_same_matrix_is_decoded_once(monkeypatch):
    """The footer code's modules are decoded by drawing them for OpenCV; a batch's photos of
    one printed sheet show the same modules, decoded by OpenCV once, and another code (even
    one of the same size) still reads as its own text."""
    from rnwprint.layout.page import qr_rows
    from rnwprint.photo import qr

    def modules(payload):
        return np.array([[c == "1" for c in row] for row in qr_rows(payload)])

    one, other = modules("rnwprint:t.abc123"), modules("rnwprint:t.xyz789")
    assert one.shape == other.shape
    qr._decode_module_bytes.cache_clear()
    calls = []
    detector = qr._qr_detector()

    class Counting:
        def decode(self, *args):
            calls.append(1)
            return detector.decode(*args)

    monkeypatch.setattr(qr, "_qr_detector", lambda: Counting())
    assert qr._decode_modules(one) == "rnwprint:t.abc123"
    assert qr._decode_modules(other) == "rnwprint:t.xyz789"
    assert qr._decode_modules(one.copy()) == "rnwprint:t.abc123"
    assert len(calls) == 2
    flipped = one.copy()
    flipped[-1, -1] ^= True  # one module of data changed: drawn and decoded anew
    qr._decode_modules(flipped)
    assert len(calls) == 3
    qr._decode_module_bytes.cache_clear()
