"""Issue 5: finding a printed sheet in a phone photo (rnwprint.photo.locate and the stages it calls), checked on
photos made by support.synth, whose true page -> image mapping is known."""

from __future__ import annotations

import dataclasses
import struct
import zlib

import cv2
import numpy as np
import pytest

from rnwprint.core.entries import Guarded
from rnwprint.core.errors import RnwError
from rnwprint.games import GAMES
from rnwprint.photo import locate as L
from rnwprint.photo.load import decode_photo, load_photo
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


# --------------------------------------------------------------------------- bad input


def one_line(error: RnwError) -> str:
    text = str(error)
    assert "\n" not in text and text.startswith("photo")
    return text


def tiny_png(width: int, height: int) -> bytes:
    """A PNG whose header declares width x height, with a few bytes of image data."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
            + chunk(b"IEND", b""))


def small_jpeg() -> bytes:
    return cv2.imencode(".jpg", np.full((40, 60), 200, np.uint8))[1].tobytes()


def huge_jpeg() -> bytes:
    """A small JPEG whose frame header is patched to declare 60000 x 60000."""
    data = bytearray(small_jpeg())
    sof = data.find(b"\xff\xc0")
    data[sof + 5: sof + 9] = struct.pack(">HH", 60000, 60000)
    return bytes(data)


BAD_FILES = {
    "text": (b"game = 'twenty-one'\n", "not an image"),
    "empty": (b"", "empty file"),
    "truncated jpeg": (None, "truncated JPEG"),
    "huge png header": (tiny_png(30000, 30000), "too large to be a photo: 30000x30000"),
    "huge jpeg header": (huge_jpeg(), "too large to be a photo: 60000x60000"),
    "just past the limit": (tiny_png(7000, 7200), r"too large to be a photo: 7000x7200 = 50\.4 MP \(at most 50 MP\)"),
    "truncated png": (tiny_png(64, 64)[:-20], "truncated PNG"),
    "damaged gif": (b"GIF89a" + bytes(10), "corrupt GIF file"),
    "damaged webp": (b"RIFF" + bytes(4) + b"WEBPVP8 " + bytes(8), "corrupt WebP file"),
    "damaged tiff": (b"II*\x00" + bytes(8), "corrupt TIFF file"),
    "damaged bmp": (b"BM" + (40).to_bytes(4, "little") + bytes(34), "corrupt BMP file"),
    "text starting BM": (b"BMW owners' scores\n", "not an image"),
    "a sound file": (b"RIFF" + bytes(4) + b"WAVEfmt " + bytes(8), "not an image"),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_bad_files_are_one_clear_error(tmp_path, sheets, case):
    data, reason = BAD_FILES[case]
    if data is None:
        whole = synth.make_photo(sheets["twenty-one"], {}, 1, 1.0)
        data = whole[: len(whole) * 2 // 3]
    path = tmp_path / "photo.jpg"
    path.write_bytes(data)
    with pytest.raises(RnwError, match=reason) as e:
        load_photo(path)
    assert e.value.where == str(path)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("cut", [1, 2, 3, 500])
def test_a_jpeg_cut_short_by_a_few_bytes_is_refused_as_truncated(tmp_path, sheets, cut):
    """A file missing only its end-of-image marker (or a byte of it) decodes without a
    complaint from libjpeg: it is still refused, as truncated."""
    whole = synth.make_photo(sheets["twenty-one"], {}, 1, 1.0)
    assert whole.endswith(b"\xff\xd9")
    path = tmp_path / "photo.jpg"
    path.write_bytes(whole[:-cut])
    with pytest.raises(RnwError, match="truncated JPEG file"):
        load_photo(path)
    path.write_bytes(whole + b"\0" * cut)  # padding after the end (some cameras): a whole photo
    assert load_photo(path).shape == load_photo(path, colour=True).shape[:2]


def test_a_jpeg_cut_right_after_a_small_jpeg_inside_it_is_refused_as_truncated(tmp_path, sheets):
    """A JPEG may carry another, small one (a preview) in a segment of its own: cut right
    after that one's end-of-image marker, the file ends in one too, but the photo's own
    image data is missing."""
    photo = synth.make_photo(sheets["twenty-one"], {}, 1, 1.0)
    frame = photo.find(b"\xff\xc0")
    after_frame = frame + 2 + int.from_bytes(photo[frame + 2:frame + 4], "big")
    app = b"PREVIEW\0" + small_jpeg()
    whole = photo[:after_frame] + b"\xff\xe2" + struct.pack(">H", len(app) + 2) + app + photo[after_frame:]
    path = tmp_path / "photo.jpg"
    path.write_bytes(whole)
    assert load_photo(path).shape == load_photo(path, colour=True).shape[:2]  # the whole one reads
    path.write_bytes(whole[:after_frame + 4 + len(app)])
    assert path.read_bytes().endswith(b"\xff\xd9")
    with pytest.raises(RnwError, match="truncated JPEG file"):
        load_photo(path)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(RnwError, match="cannot read file"):
        load_photo(tmp_path / "nothing.jpg")
    with pytest.raises(RnwError, match="a folder with no photo in it"):
        load_photo(tmp_path)


def test_a_good_file_loads_grey_or_colour(tmp_path, sheets):
    path = tmp_path / "photo.jpg"
    path.write_bytes(synth.make_photo(sheets["twenty-one"], {}, 1, 1.0))
    assert load_photo(path).ndim == 2
    assert load_photo(path, colour=True).shape[2] == 3
    png = tmp_path / "photo.png"
    png.write_bytes(cv2.imencode(".png", load_photo(path))[1].tobytes())
    assert load_photo(png).shape == load_photo(path).shape


def test_photo_without_a_sheet():
    image = decode_photo(synth.make_photo_without_sheet(seed=1, megapixels=1.0))
    with pytest.raises(RnwError, match="no rnwprint sheet found") as e:
        L.locate(image, where="photo")
    one_line(e.value)


def test_sheet_printed_by_an_older_layout_version(sheets):
    sheet = sheets["twenty-one"]
    old = synth.with_identity(sheet, dataclasses.replace(sheet.identity, layout=sheet.identity.layout - 1))
    image = decode_photo(synth.make_photo(old, {"R1C1": 3}, 6, 2.0))
    with pytest.raises(RnwError, match="older layout version") as e:
        L.locate(image, where="photo")
    one_line(e.value)


def test_sheet_of_a_game_this_rnwprint_does_not_know(sheets):
    sheet = sheets["rolling-espana"]
    other = synth.with_identity(sheet, dataclasses.replace(sheet.identity, game="rolling-europa"))
    image = decode_photo(synth.make_photo(other, {}, 7, 2.0))
    with pytest.raises(RnwError, match="does not know .'rolling-europa'") as e:
        L.locate(image, where="photo")
    one_line(e.value)


def test_sheet_of_another_game_than_expected(sheets):
    image = decode_photo(synth.make_photo(sheets["twenty-one"], {}, 9, 2.0))
    with pytest.raises(RnwError, match="twenty-one sheet, not rolling-america"):
        L.locate(image, where="photo", expect_game="rolling-america")


def test_too_few_markers(sheets):
    sheet = sheets["twenty-one"]
    photo = synth.synthesize(sheet, {}, 2, 2.0)
    image = decode_photo(photo.jpeg)
    for i in (0, 1):  # paint over two markers
        quad = photo.truth.project(L.marker_quads(sheet)[i]).astype(np.int32)
        cv2.fillConvexPoly(image, cv2.convexHull(quad), 128)
        cv2.polylines(image, [quad], True, 128, 9)
    with pytest.raises(RnwError, match="only 2 of the 4 corner markers found") as e:
        L.locate(image, where="photo")
    one_line(e.value)


# --------------------------------------------------------------------------- the generator


def test_generator_is_deterministic_and_checks_its_options(sheets):
    sheet = sheets["roll-to-the-top"]
    marks = {"A1": 12, "A2": "X", "B1": Guarded(3)}
    first = synth.make_photo(sheet, marks, 21, 1.0)
    assert first == synth.make_photo(sheet, marks, 21, 1.0)
    assert first != synth.make_photo(sheet, marks, 22, 1.0)
    assert synth.frame_size(12.0) == (4000, 3000)
    with pytest.raises(TypeError, match="unknown photo option"):
        synth.make_photo(sheet, {}, 1, 1.0, tilts=3)
    with pytest.raises(KeyError, match="no cell 'Z9'"):
        synth.make_photo(sheet, {"Z9": 1}, 1, 1.0)


def test_generator_writes_into_the_cells(sheets):
    """Ink lands in the marked cells and nowhere else."""
    sheet = sheets["twenty-one"]
    marks = {"R1C1": 4, "R2C3": "X", "R3C5": 35}
    clean = synth.synthesize(sheet, {}, 5, 2.0, blur=0, noise=0, light=0, shadow=0, curl=0, jpeg_quality=95)
    filled = synth.synthesize(sheet, marks, 5, 2.0, blur=0, noise=0, light=0, shadow=0, curl=0, jpeg_quality=95)
    a, b = (decode_photo(p.jpeg).astype(int) for p in (clean, filled))
    fix = L.locate(b.astype(np.uint8))
    for cell_id, cell in sheet.cells.items():
        x0, y0, x1, y1 = cell.bounds
        inner = np.array([(x0 + 2, y0 + 2), (x1 - 2, y0 + 2), (x1 - 2, y1 - 2), (x0 + 2, y1 - 2)])
        mask = np.zeros(a.shape, np.uint8)
        cv2.fillConvexPoly(mask, fix.to_image(inner).astype(np.int32), 1)
        darker = ((a - b) > 40)[mask > 0].mean()
        assert (darker > 0.02) == (cell_id in marks), cell_id


# --------------------------------------------------------------------------- speed (issue 15)


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
    mask = np.ones_like(template)
    mask[inner:-inner, inner:-inner] = 0
    want = cv2.matchTemplate(window.astype(np.float32), template, cv2.TM_CCOEFF_NORMED, mask=mask)
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
    mask = np.ones_like(template)
    mask[inner:-inner, inner:-inner] = 0
    want = cv2.matchTemplate(window.astype(np.float32), template, cv2.TM_CCOEFF_NORMED, mask=mask)
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
    entries = sorted(p.name.split("-")[0] for p in folder.iterdir())
    assert entries == ["guarded", "print", "sheet"]
    assert read(str(folder)) == first
    for entry in folder.iterdir():
        entry.write_bytes(b"damaged")
    assert read(str(folder)) == first
    assert all(p.read_bytes() != b"damaged" for p in folder.iterdir())  # built again, stored again
    assert read("") == first


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
