"""Issue 5: finding a printed sheet in a phone photo (rnwprint.photo.locate and the stages it calls), checked on
photos made by support.synth, whose true page -> image mapping is known."""

from __future__ import annotations


import cv2
import numpy as np
import pytest

from rnwprint.games import GAMES
from rnwprint.photo import locate as L
from rnwprint.photo.load import decode_photo
from rnwprint.photo.markers import detect_markers
from rnwprint.photo.rectify import rectify, rectify_cells, to_pixels
from support import synth

TOLERANCE_MM = 1.0


@pytest.fixture(scope="module")
def sheets():
    return {name: g.build(g.default_variant, "en", "a4") for name, g in GAMES.items()}


def cell_error_mm(fix: L.PageFix, photo: synth.SynthPhoto, sheet) -> float:
    """Worst distance (page mm) between where the fix and the truth put the cell centres."""
    centres = np.array([np.mean(c.polygon, axis=0) for c in sheet.cells.values()])
    found, truth = fix.to_image(centres), photo.truth.project(centres)
    return float((np.hypot(*(found - truth).T) / fix.px_per_mm).max())


def locate_photo(sheet, seed: int, megapixels: float = 2.0, **options):
    photo = synth.synthesize(sheet, synth.random_marks(sheet, seed), seed, megapixels, **options)
    fix = L.locate(decode_photo(photo.jpeg), where="photo.jpg")
    assert fix.identity == sheet.identity
    return fix, photo


@pytest.mark.parametrize("game", GAMES)
def test_every_game_is_found_to_within_a_millimetre(sheets, game):
    sheet = sheets[game]
    fix, photo = locate_photo(sheet, seed=11, tilt=20)
    assert fix.markers == (0, 1, 2, 3) and not fix.used_qr
    assert fix.error_mm < 0.5
    assert cell_error_mm(fix, photo, sheet) < TOLERANCE_MM
    assert set(fix.timings) == {"markers", "qr", "sheet", "homography"}


HARD = {
    "upside down": dict(rotation=180, tilt=12),
    "quarter turn": dict(rotation=90),
    "three quarter turn, landscape": dict(rotation=270, game="rolling-america"),
    "tilted 30 degrees": dict(tilt=30),
    "tilted 30 degrees, landscape": dict(tilt=30, game="rolling-espana"),
    "shadow across a marker": dict(shadow_marker=2, shadow=0.5),
    "shadow across the marker by the QR code": dict(shadow_marker=3, shadow=0.5, game="roll-to-the-top"),
    "jpeg quality 60": dict(jpeg_quality=60, noise=3.0),
    "paper curl, strong light gradient": dict(curl=1.5, light=0.6),
    "1 MP": dict(megapixels=1.0, fill=0.9),
}


@pytest.mark.parametrize("case", HARD)
def test_hard_photos_still_read(sheets, case):
    options = dict(HARD[case])
    sheet = sheets[options.pop("game", "twenty-one")]
    megapixels = options.pop("megapixels", 2.0)
    fix, photo = locate_photo(sheet, seed=3, megapixels=megapixels, **options)
    assert len(fix.markers) >= 3
    assert cell_error_mm(fix, photo, sheet) < TOLERANCE_MM


@pytest.mark.parametrize("game, hidden, how", [("twenty-one", 1, "blob"), ("twenty-one", 3, "blob"),
                                               ("rolling-america", 2, "blob"), ("rolling-espana", 0, "crop")])
def test_three_markers_and_the_qr_code(sheets, game, hidden, how):
    sheet = sheets[game]
    fix, photo = locate_photo(sheet, seed=5, hide_marker=hidden, hide_by=how)
    assert hidden not in fix.markers and len(fix.markers) == 3
    assert fix.used_qr
    assert cell_error_mm(fix, photo, sheet) < TOLERANCE_MM


def test_a_12_megapixel_photo(sheets):
    sheet = sheets["rolling-america"]
    fix, photo = locate_photo(sheet, seed=8, megapixels=12.0)
    assert fix.image_size == (4000, 3000)
    assert cell_error_mm(fix, photo, sheet) < 0.5
    page = rectify(decode_photo(photo.jpeg), fix, sheet, 8.0)
    assert page.shape == (round(sheet.height * 8), round(sheet.width * 8))


def test_rectified_page_puts_the_markers_where_the_sheet_has_them(sheets):
    sheet = sheets["twenty-one"]
    photo = synth.synthesize(sheet, {}, 4, 3.0, tilt=25, blur=0.5, noise=1.0)
    grey = decode_photo(photo.jpeg)
    fix = L.locate(grey)
    r = 6.0
    page = rectify(grey, fix, sheet, r)
    found = detect_markers(page)
    assert sorted(found) == [0, 1, 2, 3]
    for i, quad in L.marker_quads(sheet).items():
        assert np.abs(found[i] - to_pixels(quad, r)).max() < 0.25 * r  # a quarter mm
    cells = rectify_cells(grey, fix, sheet, r, margin_mm=1.0)
    assert set(cells) == set(sheet.cells)
    crop, origin = cells["R1C1"]
    x0, y0, x1, y1 = sheet.cells["R1C1"].bounds
    assert origin == (x0 - 1.0, y0 - 1.0)
    assert crop.shape == (round((y1 - y0 + 2) * r), round((x1 - x0 + 2) * r))
    # every crop is the same pixels as that part of the whole rectified page, sampled at the
    # crop's own origin (a cell's origin falls between the page's pixels)
    for crop, (x, y) in cells.values():
        shift = np.float32([[1, 0, x * r], [0, 1, y * r]])
        same = cv2.warpAffine(page, shift, (crop.shape[1], crop.shape[0]),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP).astype(int)
        assert np.abs(same - crop).mean() < 1.5


def test_mapping_round_trip(sheets):
    fix, _ = locate_photo(sheets["roll-to-the-top"], seed=2)
    points = np.array([(0, 0), (105, 148.5), (210, 297)], float)
    assert np.allclose(fix.to_page(fix.to_image(points)), points, atol=1e-6)


@pytest.mark.parametrize("seed, game", [(11, "rolling-espana"), (13, "rolling-america")])
def test_a_page_filling_a_third_of_a_12_mp_frame_is_found_on_the_full_image(sheets, seed, game):
    """A page a third of the frame across (about 3 px/mm): its markers, some 30 px a side,
    are too small for the reduced copies and for OpenCV's least marker on the full image (a
    perimeter of 3 % of its long side); looked for down to 1.5 %, all four are found."""
    from rnwprint.photo import markers

    sheet = sheets[game]
    photo = synth.synthesize(sheet, {}, seed=seed, megapixels=12, fill=0.35)
    grey = decode_photo(photo.jpeg)
    assert sorted(markers.detect_markers(grey)) == [0, 1, 2, 3]
    fix = L.locate(grey)
    assert 2.5 < fix.px_per_mm < 3.5 and cell_error_mm(fix, photo, sheet) < TOLERANCE_MM


def square(area: float, x: float = 0.0) -> np.ndarray:
    side = area ** 0.5
    return np.array([(x, 0), (x + side, 0), (x + side, side), (x, side)], float)


@pytest.mark.parametrize("areas, twice", [
    ([100], False),  # one marker of the id
    ([100, 40], True),  # another as large as 0.4 of it: a second sheet
    ([100, 39], False),  # smaller: a speck taken for a marker
    ([10, 100, 50], True),  # the largest two compared, whatever the order
    ([100, 30, 5], False),
])
def test_a_marker_seen_twice_about_as_large_means_two_sheets(areas, twice):
    from rnwprint.photo.markers import _twice

    assert _twice([square(a, 200 * k) for k, a in enumerate(areas)]) is twice
