"""Reading photos end to end: print a sheet, fill it in, photograph it (the generator), read
it back, audit it. What is read wrong is flagged for a person to check."""

from __future__ import annotations

import json
import re
import tomllib

import cv2
import numpy as np
import pytest
from support import synth

from rnwprint.core.entries import CROSSED, Entries, Guarded
from rnwprint.core.errors import RnwError
from rnwprint.games import GAMES, get_game
from rnwprint.photo import read as photo_read
from rnwprint.photo.pipeline import PhotoRead, annotate, read_photo, typed_in_text

#: A fixed set of generated photos, two of each sheet kind, at the sizes a phone takes (4 and
#: 8 MP): BENCHMARKS' figures for photos of 4 MP and more are 99.75 % of the filled cells read
#: right, none wrong and not flagged, 1.15 % flagged, every blank read blank.
FIXED_SET = [  # (game, variant, lang, page, seed, megapixels)
    ("twenty-one", "C", "es", "a4", 111, 4.0),
    ("rolling-america", "us", "en", "letter", 112, 4.0),
    ("rolling-espana", "es", "es", "a4", 113, 4.0),
    ("roll-to-the-top", "pyramid", "en", "a4", 114, 4.0),
    ("twenty-one", "C", "es", "a4", 115, 8.0),
    ("rolling-america", "us", "en", "letter", 116, 8.0),
    ("rolling-espana", "es", "es", "a4", 117, 8.0),
    ("roll-to-the-top", "pyramid", "en", "a4", 118, 8.0),
]


def fill(sheet, seed: int, guarded: bool) -> dict:
    marks = synth.random_marks(sheet, seed, circled=0.1 if guarded else 0.0)
    ticks = [c.id for c in sheet.cells.values() if c.kind == "tick"]
    marks.update({cid: True for cid in ticks[::2]})
    return marks


def photograph(case, folder):
    """(game, sheet, what was written, the photo's path, what the reader read)."""
    name, variant, lang, page, seed, megapixels = case
    game = GAMES[name]
    sheet = game.build(variant, lang, page)
    marks = fill(sheet, seed, game.allows_guarded)
    path = folder / f"{name}-{seed}.jpg"
    path.write_bytes(synth.make_photo(sheet, marks, seed=seed, megapixels=megapixels))
    return game, sheet, marks, path, read_photo(path)


@pytest.fixture(scope="module")
def fixed_set(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photos")
    return [photograph(case, folder) for case in FIXED_SET]


@pytest.fixture(params=range(len(FIXED_SET)), ids=[f"{c[0]}-{c[5]:.0f}MP" for c in FIXED_SET])
def each_photo(request, fixed_set):
    return fixed_set[request.param]


@pytest.fixture(params=range(4), ids=[c[0] for c in FIXED_SET[:4]])
def photographed(request, fixed_set):
    """One photo of each sheet kind (for the commands, which read it again)."""
    return fixed_set[request.param]


def truth(sheet, marks, cell_id):
    value = marks.get(cell_id)
    return bool(value) if sheet.cells[cell_id].kind == "tick" else value


def true_counters(sheet, marks) -> dict[str, int]:
    """The tick counters as written: the boxes the fill ticked."""
    counts = {c.counter: 0 for c in sheet.cells.values() if c.kind == "tick"}
    for cid, value in marks.items():
        if sheet.cells[cid].kind == "tick" and value:
            counts[sheet.cells[cid].counter] += 1
    return counts


def test_identity_and_every_cell_read(each_photo):
    game, sheet, _, _, result = each_photo
    assert result.identity == sheet.identity
    assert list(result.reads) == list(sheet.cells)  # in the sheet's order, as --json lists them


def test_the_fixed_set_reads_as_well_as_the_figures_say(fixed_set):
    """All the photos' cells together: at least 99 % of the filled ones read right, none
    wrong without a flag, at most 5 % flagged, every blank read blank."""
    filled = right = flagged = cells = 0
    silent, blanks_misread = [], []
    for _, sheet, marks, path, result in fixed_set:
        for cid, read in result.reads.items():
            expected = truth(sheet, marks, cid)
            cells += 1
            flagged += read.unsure
            if expected in (None, False):
                if read.value not in (None, False):
                    blanks_misread.append((path.name, cid, read.value))
            else:
                filled += 1
                right += read.value == expected
            if read.value != expected and not read.unsure:
                silent.append((path.name, cid, expected, read.value))
    assert silent == []
    assert blanks_misread == []
    assert right >= 0.99 * filled
    assert flagged <= 0.05 * cells


def test_wrong_reads_are_flagged(each_photo):
    """Wrong and not flagged is the worst outcome: not one, in any photo of the set."""
    _, sheet, marks, _, result = each_photo
    unflagged = [(cid, truth(sheet, marks, cid), r.value) for cid, r in result.reads.items()
                 if r.value != truth(sheet, marks, cid) and not r.unsure]
    assert unflagged == []


def test_audit_of_the_photo_matches_the_typed_in_sheet(each_photo):
    """Once a person has checked the cells the reader flagged (and only those), the photo
    holds what was written, tick counters included, and its audit is the typed-in sheet's."""
    game, sheet, marks, _, result = each_photo
    written = {cid: v for cid, v in marks.items() if sheet.cells[cid].kind == "number"}
    typed = Entries("typed.toml", sheet.identity.game, sheet.identity.variant, written, true_counters(sheet, marks))
    checked = {cid: v for cid, v in result.entries().cells.items() if cid not in result.unsure}
    checked.update({cid: written[cid] for cid in result.unsure if cid in written})
    assert checked == written
    ticks = {cid: (bool(marks.get(cid)) if read.unsure else read.value)
             for cid, read in result.reads.items() if sheet.cells[cid].kind == "tick"}
    counters = {name: sum(ticks[c.id] for c in sheet.cells.values() if c.kind == "tick" and c.counter == name)
                for name in typed.counters}
    assert counters == typed.counters
    if not result.unsure:
        assert result.counters() == typed.counters
    a = game.audit(Entries("photo.jpg", typed.game, typed.variant, checked, counters), "en")
    b = game.audit(typed, "en")
    assert (a.score, a.violations) == (b.score, b.violations)


# Once known silent misreads (issue 15): a circled 5 read as a circled 2, 73 % sure (3 MP); a blank
# tick box read ticked from its printed round number, blurred at 3.4 px/mm (4 MP). Since layout v2
# the round numbers stand above their boxes and both photos read (the circled 5's photo changed
# with the layout, so that one may come back: the reader itself did not change).
@pytest.mark.parametrize("megapixels", [3.0, 4.0])
def test_rolling_america_photos_that_once_misread_silently_read_or_flag(megapixels, tmp_path):
    _, sheet, marks, _, result = photograph(("rolling-america", "us", "en", "letter", 12, megapixels), tmp_path)
    assert all(r.unsure for cid, r in result.reads.items() if r.value != truth(sheet, marks, cid))


def test_typed_in_text_parses_and_marks_unsure_cells(photographed):
    _, sheet, _, _, result = photographed
    text = typed_in_text(result)
    data = tomllib.loads(text)
    assert data["game"] == sheet.identity.game and data["variant"] == sheet.identity.variant
    for cid in result.unsure:
        if sheet.cells[cid].kind == "number":
            line = next(l for l in text.splitlines() if l.startswith(f"{cid} ") or l.startswith(f"{cid}="))
            assert "UNSURE" in line
    for cid, value in data["cells"].items():
        read = result.reads[cid].value
        expected = "" if read is None else ("X" if read == CROSSED else
                                            f"({read.value})" if isinstance(read, Guarded) else read)
        assert value == expected
    boxes = data.get("totals", {})  # score boxes are not read: left blank for the person to type in
    assert set(boxes) == set(get_game(sheet.identity.game).totals) and set(boxes.values()) <= {""}


def test_read_and_audit_commands(photographed, cli, tmp_path):
    game, sheet, _, path, result = photographed
    out, picture = tmp_path / "read.toml", tmp_path / "read.png"
    assert cli("read", path, "-o", out, "--annotate", picture).code == 0
    assert tomllib.loads(out.read_text())["game"] == game.name
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    as_json = json.loads(cli("read", path, "--json").out)
    assert as_json["game"] == game.name and len(as_json["unsure"]) == len(result.unsure)
    audited = cli("audit", path, "--json")
    assert audited.code in (0, 1)
    report = json.loads(audited.out)
    assert report["game"] == game.name and report.get("unsure_cells", []) == result.unsure
    # the typed-in file names the printed sheet's language: audited, it speaks as the photo does
    assert tomllib.loads(out.read_text())["lang"] == sheet.identity.lang
    score = {"es": "Puntuación:", "en": "Score:"}[sheet.identity.lang]
    assert score in cli("audit", path).out and score in cli("audit", out).out


def test_a_bad_photo_in_a_batch_does_not_stop_the_others(photographed, cli, tmp_path):
    _, _, _, path, _ = photographed
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a picture")
    result = cli("audit", bad, path)
    assert result.code == 2
    assert result.err.count("\n") == 1 and str(bad) in result.err
    assert "Score" in result.out or "Puntuación" in result.out


def test_a_mirrored_photo_reads_as_the_sheet_itself(photographed, tmp_path):
    """Left and right swapped (a front camera, a photo of the sheet in a mirror): no corner
    marker reads as it is, so the photo is read flipped back, and every cell as unmirrored."""
    _, sheet, _, path, result = photographed
    image = cv2.imread(str(path))
    mirrored = tmp_path / "mirrored.png"
    cv2.imwrite(str(mirrored), image[:, ::-1])
    again = read_photo(mirrored)
    assert again.identity == sheet.identity
    assert {cid: r.value for cid, r in again.reads.items()} == {cid: r.value for cid, r in result.reads.items()}


def test_two_sheets_side_by_side_are_refused_as_two(fixed_set, tmp_path):
    """Their markers would mix (the largest of each id is taken), or one sheet be read and
    the other left silently: the photo is refused saying why."""
    from rnwprint.photo.markers import _detect

    left, right = (cv2.imread(str(case[3]), cv2.IMREAD_GRAYSCALE) for case in fixed_set[4:6])  # 8 MP
    h = min(left.shape[0], right.shape[0])
    both = tmp_path / "both.png"
    cv2.imwrite(str(both), np.hstack([left[:h], right[:h]]))
    with pytest.raises(RnwError, match="more than one sheet in the photo .*: photograph one sheet at a time"):
        read_photo(both)
    assert not _detect(left)[2] and not _detect(right)[2]


def test_a_photo_without_markers_is_refused_after_its_mirror_image_is_tried(tmp_path):
    path = tmp_path / "table.jpg"
    path.write_bytes(synth.make_photo_without_sheet(seed=4))
    with pytest.raises(RnwError, match="no rnwprint sheet found"):
        read_photo(path)


@pytest.mark.parametrize("megapixels, coarse", [(1.0, True), (12.0, False)])
def test_a_photo_too_coarse_to_read_well_says_so(megapixels, coarse, cli, tmp_path):
    sheet = GAMES["twenty-one"].build("A", "es", "a4")
    path = tmp_path / "sheet.jpg"
    path.write_bytes(synth.make_photo(sheet, fill(sheet, 3, False), seed=3, megapixels=megapixels))
    read = cli("read", path, "-o", tmp_path / "read.toml")
    assert read.code == 0
    assert ("px/mm" in read.err) == coarse
    assert ("# Nota: En la foto, la hoja tiene" in (tmp_path / "read.toml").read_text()) == coarse  # a Spanish sheet
    if coarse:  # its decimals as Spanish writes them, as the audit's report says them
        assert re.search(r"la hoja tiene \d,\d px/mm", (tmp_path / "read.toml").read_text())
    audited = cli("audit", path, "--lang", "es")
    assert ("acércate" in audited.out) == coarse
    assert ("lo escrito se lee bien desde 4 px/mm" in audited.out) == coarse  # the advised resolution, with its unit
    report = json.loads(cli("audit", path, "--json").out)
    assert ("coarse_photo_px_per_mm" in report) == coarse


@pytest.mark.parametrize("name", ["twenty-one", "rolling-america", "rolling-espana", "roll-to-the-top"])
def test_the_annotated_picture_labels_each_box_on_the_box_itself(name):
    """Every other box read (the longest labels: a circled number or a tower's two digits, both
    unsure), the rest blank: each label sits on its own box (inside it, or on a tab just above
    it), never on a neighbour. On a tower a label past the box's corner lands on the next square."""
    game = GAMES[name]
    sheet = game.build(game.variants[0], "en", "a4")
    cells = sorted(sheet.cells.values(), key=lambda c: c.bounds)
    labelled = {c.id for c in cells[::2]}
    value = Guarded(6) if game.allows_guarded else 23
    reads = {c.id: photo_read.CellRead(c.id, (True if c.kind == "tick" else value) if c.id in labelled else None,
                                       0.5, c.id in labelled) for c in cells}
    page = np.full((int(sheet.height * 8), int(sheet.width * 8)), 128, np.uint8)
    result = PhotoRead("p.jpg", sheet.identity, sheet, reads, page, 8.0)
    image = cv2.imdecode(np.frombuffer(annotate(result), np.uint8), cv2.IMREAD_COLOR).astype(int)
    drawn = (image != 128).any(axis=2)  # the outlines, the tags and their text

    def box(cell, above=0):
        x0, y0, x1, y1 = (int(v * 8) for v in cell.bounds)
        zone = np.zeros_like(drawn)
        zone[max(y0 - above, 0):y1 + 3, x0 - 2:x1 + 3] = True  # with the outline's width
        return zone

    own = np.zeros_like(drawn)
    for cell in cells:
        if cell.id in labelled:
            zone = box(cell, above=25)
            assert (image[zone] > 200).all(axis=1).sum() > 10, cell.id  # the white text of its label
            own |= zone
    for cell in cells:
        if cell.id not in labelled:
            inner = box(cell) & ~own  # a shared edge with a labelled box is that box's outline
            assert not drawn[inner].any(), f"a label drawn on {cell.id}, which holds nothing"
    assert not drawn[~own].any()
