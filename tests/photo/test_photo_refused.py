"""Photos refused with one clear line: files that are no photo or a damaged one, a photo
with no sheet in it, a sheet of another layout or game, too few corner markers."""

from __future__ import annotations

import dataclasses
import struct
import zlib

import cv2
import numpy as np
import pytest

from rnwprint.core.errors import RnwError
from rnwprint.games import GAMES
from rnwprint.photo import locate as L
from rnwprint.photo.load import decode_photo, load_photo
from support import synth



@pytest.fixture(scope="module")
def sheets():
    return {name: g.build(g.default_variant, "en", "a4") for name, g in GAMES.items()}


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
