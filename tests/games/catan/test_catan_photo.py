"""Reading Catan's shared island map from a phone photo: each place's owner by pencil
colour, a dot (village) or a fill (city, road, town hall)."""

from __future__ import annotations

import numpy as np
import pytest
from catan_support import game_toml, pencil_game

from rnwprint.app.audit import audit_file
from rnwprint.games import GAMES
from rnwprint.games.catan import photo as catan_photo
from rnwprint.photo.pipeline import read_photo
from support.synth import make_photo
from support.synth_pencil import PENCILS, Pencil, fill_pencil

CATAN = GAMES["catan"]


@pytest.fixture(scope="module")
def photographed(tmp_path_factory):
    """Two finished maps (one shuffled, one in a half shadow) photographed at 4 MP, and read."""
    out = []
    for seed, variant, options in ((31, "map", {}), (32, "map-5", {"shadow": 0.5})):
        sheet = CATAN.build(variant, "en", "a4")
        truth, marks = pencil_game(seed, sheet)
        path = tmp_path_factory.mktemp("catan") / f"{seed}.jpg"
        path.write_bytes(make_photo(sheet, marks, seed=seed, megapixels=4, **options))
        out.append((sheet, truth, path, read_photo(path)))
    return out


def test_every_place_is_read_or_flagged(photographed):
    for sheet, truth, _, result in photographed:
        assert set(result.reads) == set(sheet.cells)
        right = sum(r.value == truth.get(cid) for cid, r in result.reads.items())
        wrong_quiet = [cid for cid, r in result.reads.items() if r.value != truth.get(cid) and not r.unsure]
        assert right >= 0.99 * len(sheet.cells)
        assert wrong_quiet == []
        assert sum(r.unsure for r in result.reads.values()) <= 0.05 * len(sheet.cells)


def test_a_photo_audits_as_its_typed_in_file(photographed, write):
    _, truth, path, result = photographed[0]
    read = {cid: list(value) if len(value) > 1 else value[0] for cid, value in result.entries().cells.items()}
    assert sum(read.get(k) == v[0] for k, v in truth.items()) >= 0.99 * len(truth)
    typed = audit_file(write("game.toml", game_toml(read, {})), "en")
    seen = audit_file(path, "en")
    assert [(v.rule, v.cells) for v in seen.violations] == [(v.rule, v.cells) for v in typed.violations]
    assert seen.details["players"] == typed.details["players"] and seen.score == typed.score


def test_read_writes_a_typed_in_file_the_audit_takes(photographed, cli, tmp_path):
    _, truth, path, _ = photographed[1]
    assert cli("read", path, "-o", tmp_path / "read.toml").code == 0
    text = (tmp_path / "read.toml").read_text()
    some = min(truth)
    assert f'{some} = "{truth[some][0]}"' in text
    assert cli("audit", tmp_path / "read.toml").code in (0, 1)


def test_a_pencil_fill_covers_more_than_a_dot_and_keeps_its_hue():
    sheet = CATAN.build("map", "en", "a4")
    page = np.full((int(sheet.height * 8), int(sheet.width * 8), 3), 255, np.uint8)
    fill_pencil(page, sheet, {"V20": Pencil("blue", False), "V30": Pencil("blue", True), "E40": Pencil("orange", True)},
                np.random.default_rng(1))

    def inked(cid):
        x0, y0, x1, y1 = (int(v * 8) for v in sheet.cells[cid].bounds)
        patch = page[y0:y1, x0:x1].reshape(-1, 3).astype(int)
        return patch[(255 - patch).max(axis=1) > 40]

    dot, fill, road = inked("V20"), inked("V30"), inked("E40")
    assert 0 < len(dot) < 0.5 * len(fill)
    for pixels, colour in ((fill, "blue"), (road, "orange")):
        absorbed = (255 - pixels).mean(axis=0)  # RGB
        want = 255 - np.array(PENCILS[colour])
        assert np.argmax(absorbed) == np.argmax(want) and np.argmin(absorbed) == np.argmin(want)


def _votes(**share):
    names, _ = catan_photo._pencils()
    return np.array([share.get(n, 0.0) for n in names])


@pytest.mark.parametrize("kind,coverage,colours,value,unsure", [
    ("corner", 0.01, {"red": 1}, None, False),  # a speck: blank
    ("corner", 0.15, {"red": 1}, ("red village",), False),  # a dot
    ("corner", 0.70, {"red": 1}, ("red city",), False),  # a fill
    ("corner", 0.38, {"red": 1}, ("red city",), True),  # dot or fill? flagged
    ("road", 0.60, {"blue": 0.6, "green": 0.4}, ("blue", "green"), True),  # two colours: two pieces
    ("road", 0.10, {"green": 1}, ("green",), True),  # a dot where a fill belongs
    ("hall", 0.50, {"orange": 0.9, "red": 0.1}, ("orange",), False),
])
def test_decisions(kind, coverage, colours, value, unsure):
    names, ref = catan_photo._pencils()
    size = 1000
    votes = _votes(**colours) * coverage * size
    mean = sum(ref[names.index(c)] * v for c, v in colours.items())
    read = catan_photo._decide("X", kind, votes, mean, size, names, ref)
    assert read.value == value and read.unsure == unsure


def test_a_coarse_photo_flags_what_a_sharp_one_decides():
    names, ref = catan_photo._pencils()
    mean = ref[names.index("red")]
    for coverage, sharp in ((0.5, ("red city",)), (0.02, None)):
        votes = _votes(red=1) * coverage * 1000
        decided = catan_photo._decide("V01", "corner", votes, mean, 1000, names, ref, coarse=False)
        flagged = catan_photo._decide("V01", "corner", votes, mean, 1000, names, ref, coarse=True)
        assert decided.value == sharp and not decided.unsure and flagged.unsure


def test_how_finely_the_photo_sees_the_page():
    homography = np.array([[4.0, 0, 10], [0, 4.0, 20], [0, 0, 1]])
    assert catan_photo._px_per_mm(homography, (0, 0, 100, 100)) == pytest.approx(4.0)
