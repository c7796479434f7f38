"""Photos in bad light (issue 15, part 3): a photo brightened until the paper clips to white,
or darkened to a few grey levels, is read with every doubtful cell flagged and the reason
said; ink is judged against the paper and print around each cell. And a QR code naming a
page size the corner markers contradict is refused."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from support import synth

from rnwprint.app.audit import audit_file
from rnwprint.core.errors import RnwError
from rnwprint.games import GAMES
from rnwprint.photo.pipeline import as_json, read_photo, typed_in_text


def exposed(jpeg: bytes, factor: float) -> bytes:
    """Every pixel value times `factor`, clipped at 255 (as bench/bench_light.py does)."""
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    scaled = np.clip(image.astype(np.float32) * factor, 0, 255).astype(np.uint8)
    return cv2.imencode(".jpg", scaled, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()


def grainy(jpeg: bytes, sigma: float) -> bytes:
    """The photo with sensor noise of `sigma` grey levels added (what a phone shows in dim light)."""
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).astype(np.float32)
    noisy = np.clip(image + np.random.default_rng(7).normal(0.0, sigma, image.shape), 0, 255).astype(np.uint8)
    return cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()


@pytest.fixture(scope="module")
def rolling_sheet():
    sheet = GAMES["rolling-america"].build("us", "en", "a4")
    marks = synth.random_marks(sheet, 21)
    ticks = [c.id for c in sheet.cells.values() if c.kind == "tick"]
    marks.update({t: True for t in ticks[::2]})
    return sheet, marks, synth.make_photo(sheet, marks, seed=21, megapixels=4.0)


@pytest.fixture(scope="module")
def read_at(rolling_sheet, tmp_path_factory):
    _, _, jpeg = rolling_sheet
    folder = tmp_path_factory.mktemp("light")
    done = {}

    def read(factor: float | None, noise: float = 0.0):
        """The photo exposed by `factor` (None: as taken), then with `noise` grey levels of grain."""
        if (factor, noise) not in done:
            path = folder / f"x{factor}-noise{noise}.jpg"
            shot = jpeg if factor is None else exposed(jpeg, factor)
            path.write_bytes(grainy(shot, noise) if noise else shot)
            done[factor, noise] = path, read_photo(path)
        return done[factor, noise]
    return read


def truth(sheet, marks, cid):
    value = marks.get(cid)
    return bool(value) if sheet.cells[cid].kind == "tick" else value


def silent_errors(sheet, marks, result):
    return [(cid, truth(sheet, marks, cid), r.value) for cid, r in result.reads.items()
            if r.value != truth(sheet, marks, cid) and not r.unsure]


@pytest.mark.parametrize("factor", [2.0, 3.0, 4.0])
def test_a_photo_brightened_until_the_paper_clips_reads_nothing_wrong_without_a_flag(rolling_sheet, read_at, factor):
    """Issue 15: x3 read 15 of 22 cells wrong, 5 without a flag; x4 read filled cells as blank."""
    sheet, marks, _ = rolling_sheet
    _, result = read_at(factor)
    assert silent_errors(sheet, marks, result) == []
    assert result.light.get("bright", 0) > 0
    assert "too bright" in result.advice()


def test_a_photo_brightened_three_times_still_reads_most_filled_cells(rolling_sheet, read_at):
    """The pen fades with the print: scaled back by how much the print faded there, 35 of
    the 47 filled cells read right (flagged: the light is past trusting), where judging the
    faded ink as if in normal light read 24 (and 10 of the rest as blank, unflagged)."""
    sheet, marks, _ = rolling_sheet
    _, result = read_at(3.0)
    filled = [cid for cid in sheet.cells if truth(sheet, marks, cid) not in (None, False)]
    right = [cid for cid in filled if result.reads[cid].value == truth(sheet, marks, cid)]
    assert len(filled) == 47
    assert len(right) >= 33


def test_a_marker_the_reduced_copy_loses_in_a_washed_out_photo_is_found_on_the_full_photo(
        rolling_sheet, tmp_path, monkeypatch):
    """This ×3 photo reduced by 2 over whole blocks (the last odd column left out) shows only
    three markers, and its washed-out QR code cannot be read through them: the fourth,
    looked for on the photo itself, lets it be read."""
    from rnwprint.photo import markers

    _, _, jpeg = rolling_sheet
    path = tmp_path / "x3.jpg"
    path.write_bytes(exposed(jpeg, 3.0))

    def whole_blocks(grey, factor):
        h, w = grey.shape
        return cv2.resize(grey[:h - h % factor, :w - w % factor], (w // factor, h // factor),
                          interpolation=cv2.INTER_AREA)

    monkeypatch.setattr(markers, "_reduced", whole_blocks)
    assert len(markers._detect(cv2.imread(str(path), cv2.IMREAD_GRAYSCALE))[0]) == 3
    with monkeypatch.context() as m:
        m.setattr("rnwprint.photo.locate.detect_on_full_image", lambda grey: {})
        with pytest.raises(RnwError, match="cannot read its QR code"):
            read_photo(path)
    result = read_photo(path)
    assert result.fix.markers == (0, 1, 2, 3) and not result.fix.used_qr


def test_a_circle_whose_number_washed_out_is_flagged_not_read_plain(tmp_path, monkeypatch):
    """Three times too bright, a circled 1 keeps most of its circle but only a trace of the 1:
    the ring with (almost) nothing inside was taken for a 0 and the whole read as a plain 5,
    sure and unflagged. A 1-6 box holds no 0: such a ring is flagged."""
    import pathlib

    monkeypatch.syspath_prepend(str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
    from bench_photo import photo_set

    from rnwprint.core.entries import Guarded
    from rnwprint.photo.circles import EMPTY_RING_WHY

    path, sheet, marks, _ = next(photo_set([7013], tmp_path))
    assert marks["CT"] == Guarded(1)
    shot = tmp_path / "x3.jpg"
    shot.write_bytes(exposed(path.read_bytes(), 3.0))
    read = read_photo(shot).reads["CT"]
    assert read.unsure and read.why == EMPTY_RING_WHY


def test_a_photo_brightened_twice_reads_its_filled_cells_and_flags_only_where_faded(rolling_sheet, read_at):
    sheet, marks, _ = rolling_sheet
    _, result = read_at(2.0)
    filled = [cid for cid in sheet.cells if truth(sheet, marks, cid) not in (None, False)]
    assert sum(result.reads[cid].value == truth(sheet, marks, cid) for cid in filled) >= 45
    assert 0 < len(result.unsure) < len(sheet.cells)


def test_a_washed_out_cell_says_why_it_is_flagged(rolling_sheet, read_at):
    sheet, _, _ = rolling_sheet
    _, result = read_at(4.0)
    bright = [r for r in result.reads.values() if r.light == "bright"]
    assert len(bright) == sum(result.light.values()) == len(sheet.cells)
    assert all(r.unsure and "too bright" in r.why for r in bright)


def test_a_photo_far_too_dark_flags_every_cell_and_says_why(rolling_sheet, read_at):
    """Issue 15: x0.03 (grey levels 0-8) read a cell wrong without a flag."""
    sheet, marks, _ = rolling_sheet
    path, result = read_at(0.03)
    assert silent_errors(sheet, marks, result) == []
    assert result.light == {"dark": len(sheet.cells)}
    assert all(r.unsure and r.why == "the photo is too dark here to tell what is written from the paper"
               for r in result.reads.values())
    notes = [line for line in typed_in_text(result).splitlines() if line.startswith("# Note: ")]
    assert any(f"The photo is too dark to read {len(sheet.cells)} cell(s) for sure" in n for n in notes)
    assert as_json(result)["light"] == {"dark": len(sheet.cells)}
    assert "too dark" in as_json(result)["advice"]


def test_the_audit_of_a_dark_photo_says_so_in_the_users_language(rolling_sheet, read_at):
    sheet, _, _ = rolling_sheet
    path, _ = read_at(0.03)
    report = audit_file(path, "es")
    assert report.to_dict()["light_photo"] == {"dark": len(sheet.cells)}
    assert (f"La foto está demasiado oscura para leer con seguridad {len(sheet.cells)} casilla(s)"
            in report.to_text("es"))
    assert f"The photo is too dark to read {len(sheet.cells)} cell(s)" in report.to_text("en")


def test_normal_light_flags_no_cell_for_the_light(rolling_sheet, read_at):
    _, result = read_at(1.0)
    assert result.light == {}
    assert all(not r.light for r in result.reads.values())
    assert "too bright" not in result.advice() and "too dark" not in result.advice()
    assert "light_photo" not in audit_file(read_at(1.0)[0]).to_dict()


@pytest.mark.parametrize("noise", [12, 18, 25, 35])
@pytest.mark.parametrize("factor", [None, 1.0])
def test_a_grainy_photo_reads_nothing_wrong_without_a_flag(rolling_sheet, read_at, noise, factor):
    """Noise of 18-25 grey levels (a dim room) read a blank tick box in three as ticked, surely."""
    sheet, marks, _ = rolling_sheet
    _, result = read_at(factor, noise)
    assert silent_errors(sheet, marks, result) == []


def test_a_grainy_photo_reads_its_filled_cells_and_says_where_a_light_stroke_may_be_lost(rolling_sheet, read_at):
    sheet, marks, _ = rolling_sheet
    _, result = read_at(1.0, 18)
    filled = [cid for cid in sheet.cells if truth(sheet, marks, cid) not in (None, False)]
    assert sum(result.reads[cid].value == truth(sheet, marks, cid) for cid in filled) >= 0.9 * len(filled)
    grainy = [r for r in result.reads.values() if r.light == "grainy"]
    assert 0 < len(grainy) == result.light["grainy"] < len(sheet.cells)
    assert all(r.unsure and "grainy" in r.why for r in grainy if r.value in (None, False))
    assert f"The photo is grainy (taken in too little light?): a light stroke may be lost in the noise in " \
           f"{len(grainy)} cell(s)" in result.advice()
    assert f"La foto tiene mucho grano (¿poca luz?): un trazo claro puede perderse en el ruido en {len(grainy)} " \
           "casilla(s)" in result.advice("es")


def test_a_little_grain_flags_no_cell_for_it(rolling_sheet, read_at):
    sheet, marks, _ = rolling_sheet
    _, result = read_at(1.0, 8)
    assert result.light == {} and "grainy" not in result.advice()
    assert 0 < read_at(1.0, 12)[1].light["grainy"] < len(sheet.cells) / 4
    assert read_at(1.0, 35)[1].light["grainy"] > len(sheet.cells) / 2
    assert all(result.reads[cid].value == truth(sheet, marks, cid) for cid in sheet.cells
               if truth(sheet, marks, cid) not in (None, False))


# --------------------------------------------------------------------------- page size


@pytest.mark.parametrize("game, page, claimed, markers", [
    ("twenty-one", "a4", "letter", "A4"),
    ("rolling-america", "letter", "a4", "Letter"),
])
def test_a_qr_code_naming_the_other_page_size_is_refused(tmp_path, game, page, claimed, markers):
    """Issue 15: an A4 sheet whose QR code said Letter was read with 8 cells wrong."""
    g = GAMES[game]
    sheet = g.build(g.variants[0], "en", page)
    lying = synth.with_identity(sheet, dataclasses.replace(sheet.identity, page=claimed))
    path = tmp_path / "photo.jpg"
    path.write_bytes(synth.make_photo(lying, synth.random_marks(sheet, 3), seed=3, megapixels=2.0))
    with pytest.raises(RnwError, match=f"QR code says the page is {claimed.capitalize()}, "
                                       f"but its corner markers sit as on {markers}"):
        read_photo(path)


def test_the_annotated_audit_of_a_dark_photo_marks_every_box_to_check(rolling_sheet, read_at, tmp_path):
    """Every cell of the x0.03 photo is unsure: each box of the annotated picture carries the
    amber "?" badge, drawn where render.written puts it."""
    from rnwprint.cli import main
    from rnwprint.render.png import DEFAULT_DPI
    from rnwprint.render.written import AMBER, DOUBT, DOUBT_MM

    sheet, _, _ = rolling_sheet
    path, _ = read_at(0.03)
    assert main(["audit", str(path), "--annotate", str(tmp_path / "check.png")]) in (0, 1)
    image = cv2.cvtColor(cv2.imread(str(tmp_path / "check.png")), cv2.COLOR_BGR2RGB).astype(int)
    amber = np.array([int(AMBER[i:i + 2], 16) for i in (1, 3, 5)])
    s = DEFAULT_DPI / 25.4
    for cid in ("TX", "CA", "ME", "colour_change:1", "rounds:8"):
        x0, y0, x1, y1 = sheet.cells[cid].bounds
        r = min(DOUBT * min(x1 - x0, y1 - y0), DOUBT_MM)
        pixel = image[int((y0 + 1.2 * r) * s), int((x1 - 1.2 * r - 0.75 * r) * s)]  # left of the "?", in the badge
        assert np.abs(pixel - amber).sum() < 60, cid


def test_a_photo_s_entries_name_the_tick_boxes_it_saw_ticked(rolling_sheet, read_at):
    """Every other tick box is ticked on this sheet: the annotated audit picture crosses those,
    not the first ones of each counter."""
    sheet, marks, _ = rolling_sheet
    _, result = read_at(1.0)
    ticked = tuple(c.id for c in sheet.cells.values() if c.kind == "tick" and marks.get(c.id))
    assert result.entries().ticked == ticked and len(ticked) > 3
