"""A photo too coarse to trust (a messaging app's 1024 px copy): every box flagged, whatever
was read of it, and a box whose print cannot be made out there is no sign of a finger."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from rnwprint.games import GAMES
from rnwprint.photo.pipeline import COARSE, TRUSTED_FROM, _coarse_flagged, read_photo
from rnwprint.photo.light import LIGHT_WHY
from rnwprint.photo.read import CellRead
from support import synth

READS = {"A": CellRead("A", 3, 0.95, False, ""),
         "B": CellRead("B", None, 1.0, True, LIGHT_WHY["covered"], light="covered"),
         "C": CellRead("C", 5, 0.5, True, "best guess 50% sure"),
         "D": CellRead("D", None, 1.0, True, LIGHT_WHY["dark"], light="dark")}


def test_under_1_8_px_per_mm_every_box_is_flagged_and_none_is_covered():
    flagged = _coarse_flagged(READS, SimpleNamespace(px_per_mm=TRUSTED_FROM - 0.01))
    assert all(r.unsure for r in flagged.values())
    assert [flagged[c].value for c in "ABCD"] == [3, None, 5, None]  # what was read is kept
    assert flagged["A"].why == flagged["B"].why == COARSE and flagged["B"].light == ""
    assert flagged["C"].why == f"best guess 50% sure; {COARSE}"
    assert flagged["D"].why == f"{LIGHT_WHY['dark']}; {COARSE}" and flagged["D"].light == "dark"
    assert _coarse_flagged(READS, SimpleNamespace(px_per_mm=TRUSTED_FROM)) is READS


@pytest.mark.parametrize("side, coarse", [(1024, True), (1600, False)])
def test_a_photo_a_messaging_app_shrank(tmp_path, side, coarse):
    """Rolling America, 12 MP, shrunk to `side` px across (1.4 and 2.2 px/mm): at 1024 px
    every box is flagged as too coarse and none said covered; at 1600 px most boxes read sure."""
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    marks = synth.random_marks(sheet, 21)
    image = cv2.imdecode(np.frombuffer(synth.make_photo(sheet, marks, seed=21, megapixels=12), np.uint8),
                         cv2.IMREAD_COLOR)
    f = side / max(image.shape[:2])
    path = tmp_path / "sent.jpg"
    cv2.imwrite(str(path), cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA),
                [cv2.IMWRITE_JPEG_QUALITY, 70])
    result = read_photo(path)
    assert (result.photo_px_per_mm < TRUSTED_FROM) == coarse
    assert "covered" not in result.light
    if coarse:
        assert all(r.unsure and COARSE in r.why for r in result.reads.values())
    else:
        assert sum(r.unsure for r in result.reads.values()) < len(result.reads) / 4
        assert not any(COARSE in r.why for r in result.reads.values())
