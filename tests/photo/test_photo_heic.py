"""An iPhone's HEIC photo is read as its JPEG would be (pillow-heif, of the `photo` extra)."""

from __future__ import annotations

import pytest
from PIL import Image

from rnwprint.core.errors import RnwError
from rnwprint.games import GAMES
from rnwprint.photo.pipeline import read_photo
from support import synth

pillow_heif = pytest.importorskip("pillow_heif")


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    """A 2 MP photo of a filled Roll to the Top sheet as JPEG and as HEIC (encoded from it)."""
    game = GAMES["roll-to-the-top"]
    sheet = game.build("burj", "es", "a4")
    folder = tmp_path_factory.mktemp("heic")
    jpeg = folder / "IMG_0001.jpg"
    jpeg.write_bytes(synth.make_photo(sheet, synth.random_marks(sheet, 8, circled=0.0), seed=8, megapixels=2.0))
    heic = folder / "IMG_0001.HEIC"
    pillow_heif.from_pillow(Image.open(jpeg)).save(heic, quality=90)
    return sheet, jpeg, heic


def test_a_heic_photo_reads_as_its_jpeg(photos):
    sheet, jpeg, heic = photos
    assert heic.read_bytes()[4:12] == b"ftypheic"
    from_heic, from_jpeg = read_photo(heic), read_photo(jpeg)
    assert from_heic.identity == sheet.identity
    assert {c: r.value for c, r in from_heic.reads.items()} == {c: r.value for c, r in from_jpeg.reads.items()}


def test_read_and_audit_take_a_heic_photo(photos, cli):
    _, jpeg, heic = photos
    assert cli("read", heic, "--json").code == 0
    assert cli("audit", heic).out == cli("audit", jpeg).out.replace(str(jpeg), str(heic))


def test_a_heic_photo_cut_short_is_refused_as_corrupt(photos, tmp_path):
    _, _, heic = photos
    cut = tmp_path / "cut.heic"
    data = heic.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(RnwError, match=r"cut\.heic: cannot decode the HEIC image: the file is truncated or corrupt"):
        read_photo(cut)


def test_an_avif_image_is_refused_with_the_advice_to_export_it_as_jpeg(tmp_path):
    path = tmp_path / "photo.avif"
    path.write_bytes(b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf" + bytes(300))
    with pytest.raises(RnwError, match="an AVIF image, a format rnwprint cannot decode: export it as JPEG"):
        read_photo(path)
