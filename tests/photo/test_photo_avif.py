"""An AVIF photo (some Android phones save them) is read like its JPEG where Pillow decodes
AVIF, alone or in a folder of photos."""

from __future__ import annotations

import pytest
from PIL import Image, features
from support import synth

from rnwprint.cli import main
from rnwprint.games import GAMES
from rnwprint.photo.pipeline import read_photo

pytestmark = pytest.mark.skipif(not features.check("avif"), reason="this Pillow has no AVIF codec")


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("avif")
    sheet = GAMES["twenty-one"].build("B", "en", "a4")
    (folder / "p.jpg").write_bytes(synth.make_photo(sheet, synth.random_marks(sheet, 5), seed=5, megapixels=8.0))
    (folder / "only").mkdir()
    Image.open(folder / "p.jpg").save(folder / "only" / "p.avif", quality=90)
    return folder / "p.jpg", folder / "only" / "p.avif"


def test_an_avif_photo_reads_as_its_jpeg(photos):
    jpeg, avif = photos
    expected, got = read_photo(jpeg), read_photo(avif)
    assert {c: r.value for c, r in got.reads.items()} == {c: r.value for c, r in expected.reads.items()}


def test_a_folder_of_avif_photos_is_read(photos, capsys):
    _, avif = photos
    assert main(["read", str(avif.parent)]) == 0
    assert capsys.readouterr().out.startswith(f"# Read by rnwprint from {avif} (twenty-one B, en, a4).")
