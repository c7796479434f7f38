"""A finger over the page: the reader judges ink against the paper round it, so an even blob
wider than a stroke passes for paper and the number under it reads blank. A box whose print
cannot be found round it, its outline hidden, is flagged ("is something over it?"); so is a
box read blank whose print was found only weakly, with much of its outline hidden (a
fingertip over its corner)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter
from support import synth

from rnwprint.games import GAMES
from rnwprint.photo.light import LIGHT_WHY, _outline_hidden
from rnwprint.photo.pipeline import read_photo, typed_in_text
from rnwprint.photo.printed import _PRINTED, _printed

COVERED_WHY = LIGHT_WHY["covered"]


@pytest.fixture(scope="module")
def sheet():
    return GAMES["rolling-america"].build("us", "en", "a4")


def drawn_page(sheet, px_per_mm=6.0):
    """The sheet's print around its cells as a perfect photo would show it, and (raw, grey)."""
    raw, _ = _printed(sheet, px_per_mm)
    grey = _PRINTED[(sheet.identity.encode(), px_per_mm)][2]
    return grey.copy(), raw, grey


@pytest.mark.parametrize("cover, hidden", [(None, (0.0, 0.05)), (1.0, (0.95, 1.0)), (0.3, (0.1, 0.45)),
                                           (0.7, (0.55, 0.9))])
def test_the_share_of_a_box_outline_hidden_is_the_share_a_blob_covers(sheet, cover, hidden):
    """A blob of skin grey (150) over the left `cover` of TX's box and its margin."""
    page, raw, grey = drawn_page(sheet)
    cell = sheet.cells["TX"]
    x0, y0, x1, y1 = (v * 6.0 for v in cell.bounds)
    if cover is not None:
        left = int(x0 - 2 * 6.0)
        page[int(y0 - 12):int(y1 + 12), left:int(left + cover * (x1 - x0 + 24))] = 150
    share = _outline_hidden(page, raw, grey, cell, 6.0, (0, 0))
    assert hidden[0] <= share <= hidden[1]


def skin_over(jpeg: bytes, colour, blur: float, shape) -> bytes:
    """The photo with skin of `colour` wherever `shape(draw)` draws on a mask, its edge
    softened by `blur` pixels."""
    image = Image.open(io.BytesIO(jpeg)).convert("RGB")
    mask = Image.new("L", image.size, 0)
    shape(ImageDraw.Draw(mask))
    image = Image.composite(Image.new("RGB", image.size, colour), image, mask.filter(ImageFilter.GaussianBlur(blur)))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90)
    return out.getvalue()


def box_in_photo(result, cid: str) -> tuple[float, float, float, float]:
    """Where `cid`'s box's top left and bottom right corners lie in the photo."""
    x0, y0, x1, y1 = result.sheet.cells[cid].bounds
    (ax, ay), (bx, by) = result.fix.to_image([(x0, y0), (x1, y1)])
    return ax, ay, bx, by


def fingered(jpeg: bytes, result, cells, colour=(196, 140, 112)) -> bytes:
    """The photo with a fingertip of `colour` laid over each of `cells`."""
    def tips(draw):
        for cid in cells:
            ax, ay, bx, by = box_in_photo(result, cid)
            cx, cy, rad = (ax + bx) / 2, (ay + by) / 2, max(abs(bx - ax), abs(by - ay)) * 0.9
            draw.ellipse((cx - rad * 1.3, cy - rad, cx + rad * 1.3, cy + rad * 2.5), fill=255)
    return skin_over(jpeg, colour, 6, tips)


@pytest.fixture(scope="module")
def finger_photos(sheet, tmp_path_factory):
    folder = tmp_path_factory.mktemp("finger")
    marks = synth.random_marks(sheet, 21)
    (folder / "clear.jpg").write_bytes(synth.make_photo(sheet, marks, seed=21, megapixels=8.0))
    clear = read_photo(folder / "clear.jpg")
    photos = {}
    for name, cells, colour in (("light", ["TX"], (196, 140, 112)), ("dark", ["KS", "MO"], (120, 80, 60))):
        (folder / f"{name}.jpg").write_bytes(fingered((folder / "clear.jpg").read_bytes(), clear, cells, colour))
        photos[name] = (cells, folder / f"{name}.jpg")
    return marks, clear, photos


@pytest.mark.parametrize("name", ["light", "dark"])
def test_a_number_under_a_finger_is_flagged_never_read_blank_silently(finger_photos, name):
    marks, clear, photos = finger_photos
    cells, path = photos[name]
    result = read_photo(path)
    for cid in cells:
        assert marks[cid] is not None and clear.reads[cid].value == marks[cid]
        assert result.reads[cid].unsure and result.reads[cid].why == COVERED_WHY and result.reads[cid].light == "covered"
    assert result.light.get("covered") == len(cells)
    assert f"Something covers {len(cells)} cell(s) (a finger holding the sheet?)" in result.advice()
    assert "# UNSURE: the box's print cannot be seen: is something over it (a finger)?" in typed_in_text(result)
    wrong = [cid for cid, r in result.reads.items() if not r.unsure and r.value != clear.reads[cid].value]
    assert wrong == []


def test_without_the_check_the_finger_hides_the_number_silently(finger_photos, monkeypatch):
    """What the check is for: with it off, the covered numbers read blank, unflagged."""
    _, _, photos = finger_photos
    monkeypatch.setattr("rnwprint.photo.read.COVERED", 1.0)
    monkeypatch.setattr("rnwprint.photo.read.COVERED_FOUND", 1.0)
    cells, path = photos["dark"]
    result = read_photo(path)
    assert [(result.reads[cid].value, result.reads[cid].unsure) for cid in cells] == [(None, False)] * len(cells)


def test_a_clear_photo_flags_no_box_as_covered(finger_photos):
    _, clear, _ = finger_photos
    assert "covered" not in clear.light
    assert not any(r.why == COVERED_WHY for r in clear.reads.values())


@pytest.mark.parametrize("erased, hidden", [("band", (0.9, 1.0)), ("all but the band", (0.0, 0.1))])
def test_only_the_print_along_the_box_s_edges_counts_as_its_outline(sheet, erased, hidden):
    """The print erased (paper white) in the band within 0.3 mm of TX's edges, or everywhere
    round it but that band (the map's borders beside the box): only the band counts."""
    page, raw, grey = drawn_page(sheet)
    x0, y0, x1, y1 = (v * 6.0 for v in sheet.cells["TX"].bounds)
    band = np.zeros(page.shape, bool)
    near = int(0.3 * 6.0)
    band[int(y0) - near:int(y1) + near + 1, int(x0) - near:int(x1) + near + 1] = True
    band[int(y0) + near + 1:int(y1) - near, int(x0) + near + 1:int(x1) - near] = False
    page[band if erased == "band" else ~band] = 255
    share = _outline_hidden(page, raw, grey, sheet.cells["TX"], 6.0, (0, 0))
    assert hidden[0] <= share <= hidden[1]


@pytest.mark.parametrize("faded, hidden", [(0.4, True), (0.6, False)])
def test_an_outline_is_seen_from_half_the_contrast_it_is_drawn_with(sheet, faded, hidden):
    """The print round TX kept at `faded` of its contrast with the paper: under half, hidden."""
    page, raw, grey = drawn_page(sheet)
    page = (255 - (255 - page.astype(np.float32)) * faded).astype(np.uint8)
    share = _outline_hidden(page, raw, grey, sheet.cells["TX"], 6.0, (0, 0))
    assert share > 0.9 if hidden else share < 0.1


def fingertip_over_corner(jpeg: bytes, result, cid: str, colour=(196, 140, 112)) -> bytes:
    """The photo with a fingertip coming from the top left over a third of `cid`'s box: the
    rest of its outline still shows, so its print is found."""
    ax, ay, bx, by = box_in_photo(result, cid)
    side = max(abs(bx - ax), abs(by - ay))
    cx, cy, r = ax + 0.35 * (bx - ax), ay + 0.35 * (by - ay), 0.6 * side

    def tip(draw):
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
        draw.polygon([(cx - r, cy), (cx + r, cy), (cx + r - 6 * side, cy - 6 * side), (cx - r - 6 * side, cy - 6 * side)],
                     fill=255)
    return skin_over(jpeg, colour, 4, tip)


@pytest.fixture(scope="module")
def corner_photo(finger_photos, tmp_path_factory):
    marks, clear, photos = finger_photos
    path = tmp_path_factory.mktemp("corner") / "corner.jpg"
    path.write_bytes(fingertip_over_corner(photos["light"][1].with_name("clear.jpg").read_bytes(), clear, "KS"))
    return marks, clear, path


def test_a_fingertip_over_a_box_s_corner_is_flagged_though_the_box_is_found(corner_photo):
    """KS's 2 under a fingertip reads blank; the rest of its outline is found (weakly), so it
    is not among the boxes missed: before the weak-match check, it read blank silently."""
    marks, clear, path = corner_photo
    result = read_photo(path)
    assert marks["KS"] == 2 and clear.reads["KS"].value == 2
    assert result.reads["KS"].value is None and result.reads["KS"].unsure and result.reads["KS"].light == "covered"
    wrong = [cid for cid, r in result.reads.items() if not r.unsure and r.value != clear.reads[cid].value]
    assert wrong == []


def test_without_the_weak_match_check_the_corner_finger_hides_the_number_silently(corner_photo, monkeypatch):
    _, _, path = corner_photo
    monkeypatch.setattr("rnwprint.photo.read.COVERED_FOUND", 1.0)
    read = read_photo(path).reads["KS"]
    assert (read.value, read.unsure) == (None, False)


@pytest.mark.parametrize("kind, match, px_per_mm, hidden, covered", [
    ("number", 0.69, 4.0, 0.41, True), ("number", 0.70, 4.0, 0.41, False),  # WEAK_MATCH
    ("number", 0.5, 3.25, 0.41, True), ("number", 0.5, 3.24, 0.41, False),  # FINGER_SHARP: coarser photos blur as much
    ("number", 0.5, 4.0, 0.40, False), ("number", 0.5, 4.0, 0.9, True),  # COVERED_FOUND
    ("tick", 0.5, 4.0, 0.9, False),  # a tick box found weakly: not judged so
    ("number", 0.29, 2.0, 0.51, True), ("tick", 0.29, 2.0, 0.51, True),  # not found: past COVERED, any photo
    ("number", 0.30, 2.0, 0.51, False),  # found (REGISTER_MATCH), in a coarse photo
    ("number", 0.29, 4.0, 0.5, False),
])
def test_a_box_is_covered_when_not_found_or_found_weakly_with_much_of_its_outline_hidden(kind, match, px_per_mm,
                                                                                          hidden, covered):
    from rnwprint.core.sheet import Cell
    from rnwprint.photo.read import _covered

    cell = Cell("A1", ((0, 0), (10, 0), (10, 10), (0, 10)), kind=kind)
    assert _covered(cell, match, px_per_mm, lambda: hidden) is covered


def test_a_folded_sheet_reads_its_numbers_and_flags_the_crease_in_empty_boxes(tmp_path):
    """Folded in four and opened again: the creases run down the middle of the page, through
    column 4 of Twenty One's rows. An empty box the crease crosses looks like a pale 1: flagged,
    never read as a number without a flag; the numbers written read as without the fold."""
    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    marks = synth.random_marks(sheet, 4, share=0.5)
    path = tmp_path / "folded.jpg"
    path.write_bytes(synth.make_photo(sheet, marks, seed=4, megapixels=12.0, crease=0.2))
    reads = read_photo(path).reads
    creased = [cid for cid in ("R1C4", "R2C4", "R4C4", "R5C4") if cid not in marks]
    assert creased and all(reads[cid].unsure for cid in creased)
    assert all(read.value == marks.get(cid) or read.unsure for cid, read in reads.items())


def _seen(hidden: list[float], covered: int):
    """(cell, shift, light, ...) as read.separate keeps them: the first `covered` boxes judged
    covered; and each box's outline hidden as given."""
    from types import SimpleNamespace

    seen = [(SimpleNamespace(id=f"C{i}"), (0, 0), "covered" if i < covered else "", None, 0.0)
            for i in range(len(hidden))]
    return seen, lambda cell, shift: hidden[int(cell.id[1:])]


@pytest.mark.parametrize("hidden, covered, still", [
    ([0.45] * 3 + [0.3] * 27, 3, 3),  # a tenth of the boxes: a finger, however little hidden
    ([0.51, 0.49, 0.6, 0.45, 0.5] + [0.3] * 25, 5, 2),  # more: covered only past 0.2 over the clear boxes' median
    ([0.9] * 21 + [0.4] * 9, 21, 21),  # clear boxes 0.3 of them: theirs is the median
    ([0.9] * 22 + [0.4] * 8, 22, 0),  # fewer: the median of all, a blurred page
])
def test_a_blurred_page_is_not_a_finger_over_every_box(hidden, covered, still):
    from rnwprint.photo.read import _blur_not_covered

    seen, hidden_of = _seen(hidden, covered)
    after = _blur_not_covered(seen, hidden_of)
    assert sum(light == "covered" for _, _, light, *_ in after) == still
    assert all(a[0] is s[0] and a[3:] == s[3:] for a, s in zip(after, seen))


@pytest.mark.parametrize("game", ["twenty-one", "rolling-espana"])
def test_a_photo_blurred_all_over_flags_no_box_as_covered(game, tmp_path):
    """A stranger's photos, blurred by a shaken hand at 3-4 px/mm: every box's outline faded
    past half its contrast, each box was taken for one under a finger (30 of 30, 51 of 69)."""
    import cv2

    g = GAMES[game]
    sheet = g.build(g.default_variant, "es", "letter")
    marks = {cid: v for cid, v in synth.random_marks(sheet, 4).items() if not hasattr(v, "value")}
    photo = cv2.imdecode(np.frombuffer(synth.make_photo(sheet, marks, seed=4, megapixels=4.0), np.uint8),
                         cv2.IMREAD_COLOR)
    path = tmp_path / "blurred.jpg"
    cv2.imwrite(str(path), cv2.GaussianBlur(photo, (0, 0), 1.2), [cv2.IMWRITE_JPEG_QUALITY, 90])
    result = read_photo(path)
    assert not [cid for cid, r in result.reads.items() if r.light == "covered"]
    numbers = [cid for cid, c in sheet.cells.items() if c.kind == "number"]
    assert sum(result.reads[cid].value == marks.get(cid) for cid in numbers) >= 0.95 * len(numbers)
