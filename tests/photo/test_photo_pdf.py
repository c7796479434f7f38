"""Sheets in a PDF (a scanner's, a scan app's, or rnwprint's own written on in a tablet app):
each page read as a photo, in order, named by its page."""

from __future__ import annotations

import json
import sys
import tomllib

import pytest
from PIL import Image

from rnwprint.core.entries import CROSSED
from rnwprint.core.errors import RnwError
from rnwprint.games import GAMES
from rnwprint.photo.pdf import PdfPage, pages_of, render_page
from rnwprint.photo.pipeline import read_photo
from rnwprint.render import render
from support import synth


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    """A 4 MP photo of a filled Twenty One sheet, and what the reader reads from it."""
    sheet = GAMES["twenty-one"].build("B", "en", "a4")
    marks = synth.random_marks(sheet, 31)
    path = tmp_path_factory.mktemp("pdf") / "sheet.jpg"
    path.write_bytes(synth.make_photo(sheet, marks, seed=31, megapixels=4.0))
    return sheet, path, read_photo(path)


def scanned(folder, *pages, name="scans.pdf"):
    """A PDF whose pages are these images (paths or PIL images), each a JPEG at 150 dpi, as a
    scanner writes it."""
    images = [Image.open(p).convert("RGB") if not isinstance(p, Image.Image) else p for p in pages]
    path = folder / name
    images[0].save(path, save_all=True, append_images=images[1:], resolution=150)
    return path


def values(result) -> dict:
    return {cid: read.value for cid, read in result.reads.items()}


def test_a_scanned_page_reads_as_its_photo(photo, tmp_path):
    sheet, path, result = photo
    again = read_photo(scanned(tmp_path, path))
    assert again.identity == sheet.identity
    assert values(again) == values(result)
    assert again.source == str(tmp_path / "scans.pdf")  # one page: named as the file


def test_each_page_of_a_longer_scan_is_read_in_order_and_a_page_without_a_sheet_said_in_place(photo, cli, tmp_path):
    sheet, path, result = photo
    blank = Image.new("RGB", (1240, 1754), "white")
    pdf = scanned(tmp_path, path, blank, path)
    out = cli("read", pdf, "--json", "--jobs", "1")
    assert out.code == 2
    lines = [json.loads(line) for line in out.out.splitlines()]
    assert [line["source"] for line in lines] == [f"{pdf}, page {n}" for n in (1, 2, 3)]
    assert [line.get("game") for line in lines] == ["twenty-one", None, "twenty-one"]
    said = f"{pdf}, page 2: no rnwprint sheet found in the photo (no corner markers, no QR code)"
    assert out.err == f"rnwprint: {said}\n" and lines[1]["error"] == said
    audited = cli("audit", pdf, "--jobs", "1", "--json")
    assert audited.code == 2 and audited.err.count("\n") == 1
    assert [json.loads(line).get("game") for line in audited.out.splitlines()] == ["twenty-one", None, "twenty-one"]


def test_into_names_each_pages_files_after_the_page(photo, cli, tmp_path):
    _, path, result = photo
    pdf = scanned(tmp_path, path, path)
    folder = tmp_path / "checked"
    assert cli("read", pdf, "--into", folder, "--jobs", "1").code == 0
    assert sorted(p.name for p in folder.iterdir()) == ["scans-page1.png", "scans-page1.toml",
                                                        "scans-page2.png", "scans-page2.toml"]
    typed_in = tomllib.loads((folder / "scans-page2.toml").read_text())
    assert typed_in["game"] == "twenty-one"
    assert cli("read", pdf, "--json", "--jobs", "1").out.count(f'"source": "{pdf}, page 2"') == 1
    # -o writes one result: a PDF of two pages is two
    refused = cli("read", pdf, "-o", tmp_path / "one.toml")
    assert refused.code == 2 and "one photo" in refused.err
    # a PDF of one page is named as its file
    one = scanned(tmp_path, path, name="single.pdf")
    named = cli("read", one, "--into", folder)
    assert named.code == 0 and named.out.startswith(f"{one}: {folder / 'single.toml'}, ")
    assert (folder / "single.toml").exists() and (folder / "single.png").exists()


def test_rnwprints_own_pdf_reads_blank(tmp_path):
    sheet = GAMES["rolling-espana"].build("es", "es", "a4")
    path = tmp_path / "espana.pdf"
    path.write_bytes(render([sheet], "pdf")[0])
    result = read_photo(path)
    assert result.identity == sheet.identity
    assert all(read.value in (None, False) for read in result.reads.values())
    assert not result.unsure


def test_pages_of_leaves_photos_and_broken_pdfs_whole(photo, tmp_path):
    _, path, _ = photo
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00" * 200)
    pdf = scanned(tmp_path, path, path)
    assert pages_of([path, broken, pdf]) == [path, broken, PdfPage(pdf, 1, 2), PdfPage(pdf, 2, 2)]
    with pytest.raises(RnwError, match=r"broken\.pdf: cannot open the PDF: it is damaged or not a PDF"):
        read_photo(broken)


def test_a_page_gone_since_the_pages_were_counted_is_said(photo, tmp_path):
    _, path, _ = photo
    pdf = scanned(tmp_path, path, path)
    with pytest.raises(RnwError, match=r"scans\.pdf, page 3: the PDF has only 2 page\(s\) now"):
        read_photo(PdfPage(pdf, 3, 3))


def test_a_pdf_without_pages_is_not_lost_from_the_batch(photo, tmp_path, cli):
    pypdf = pytest.importorskip("pypdf")
    _, path, _ = photo
    empty = tmp_path / "empty.pdf"
    with open(empty, "wb") as f:
        pypdf.PdfWriter().write(f)
    assert pages_of([empty, path]) == [empty, path]
    out = cli("read", empty, path, "--json", "--jobs", "1")
    assert out.code == 2
    assert out.err.splitlines()[0] == f"rnwprint: {empty}: cannot open the PDF: it is damaged or not a PDF"
    assert [json.loads(line).get("game") for line in out.out.splitlines()] == [None, "twenty-one"]


def test_a_pdf_of_several_pages_given_whole_says_how_to_read_it(photo, tmp_path):
    _, path, _ = photo
    with pytest.raises(RnwError, match="a PDF of 2 pages: give it to `rnwprint read` or `audit`"):
        read_photo(scanned(tmp_path, path, path))


def test_a_password_protected_pdf_is_refused_with_the_reason(photo, tmp_path):
    pypdf = pytest.importorskip("pypdf")
    _, path, _ = photo
    writer = pypdf.PdfWriter(clone_from=str(scanned(tmp_path, path)))
    writer.encrypt("secret")
    locked = tmp_path / "locked.pdf"
    with open(locked, "wb") as f:
        writer.write(f)
    with pytest.raises(RnwError, match="locked.pdf: cannot open the PDF: it is protected by a password"):
        read_photo(locked)


def test_a_page_is_drawn_at_200_dpi_unless_that_would_be_too_many_pixels(tmp_path):
    path = tmp_path / "page.pdf"
    Image.new("RGB", (1600, 2200), "white").save(path, resolution=100)  # 16 x 22 inches
    assert render_page(path).shape == (4400, 3200)
    assert render_page(path, colour=True).shape == (4400, 3200, 3)
    small = render_page(path, max_pixels=1_000_000)
    assert small.shape[0] * small.shape[1] <= 1_000_000 and small.shape[0] > 800


def test_without_pypdfium2_a_pdf_gets_the_install_advice(photo, tmp_path, monkeypatch):
    _, path, _ = photo
    pdf = scanned(tmp_path, path)
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    with pytest.raises(RnwError, match=r"reading a PDF needs pypdfium2.*pip install 'rnwprint\[photo\]'"):
        read_photo(pdf)


def test_audit_annotate_takes_a_pdf_of_one_page_and_refuses_one_of_two(photo, cli, tmp_path):
    _, path, _ = photo
    picture = tmp_path / "violations.png"
    one = cli("audit", scanned(tmp_path, path, name="one.pdf"), "--annotate", picture)
    assert one.code in (0, 1) and picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    two = cli("audit", scanned(tmp_path, path, path), "--annotate", picture)
    assert two.code == 2 and "holds 2 pages: give a PDF of one page with it" in two.err


def test_rnwprints_own_pdf_written_on_in_a_tablet_app_reads_the_ink(tmp_path):
    """A tablet app keeps the pen's strokes as ink annotations over the page: they are drawn
    with it, and read."""
    pypdf = pytest.importorskip("pypdf")
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject

    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    printed = tmp_path / "sheet.pdf"
    printed.write_bytes(render([sheet], "pdf")[0])
    writer = pypdf.PdfWriter(clone_from=str(printed))
    pt = 72 / 25.4

    def ink(cell_id: str, *strokes):
        x0, y0, x1, y1 = sheet.cells[cell_id].bounds
        points = [[((x0 + (x1 - x0) * fx) * pt, (sheet.height - y0 - (y1 - y0) * fy) * pt) for fx, fy in stroke]
                  for stroke in strokes]
        xs, ys = [x for s in points for x, _ in s], [y for s in points for _, y in s]
        writer.add_annotation(0, DictionaryObject({
            NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Ink"),
            NameObject("/Rect"): ArrayObject(FloatObject(v) for v in (min(xs) - 3, min(ys) - 3, max(xs) + 3, max(ys) + 3)),
            NameObject("/InkList"): ArrayObject(ArrayObject(FloatObject(v) for p in s for v in p) for s in points),
            NameObject("/C"): ArrayObject(FloatObject(v) for v in (0, 0, 0.6)),
            NameObject("/BS"): DictionaryObject({NameObject("/W"): FloatObject(2)})}))

    ink("R1C1", [(0.45, 0.2), (0.55, 0.15), (0.55, 0.85)])  # a 1
    ink("R1C2", [(0.3, 0.2), (0.7, 0.8)], [(0.7, 0.2), (0.3, 0.8)])  # an X
    ink("R2C3", [(0.3, 0.25), (0.5, 0.15), (0.7, 0.25), (0.65, 0.45), (0.3, 0.85), (0.75, 0.85)])  # a 2
    written = tmp_path / "written.pdf"
    with open(written, "wb") as f:
        writer.write(f)
    reads = read_photo(written).reads
    assert [reads[c].value for c in ("R1C1", "R1C2", "R2C3")] == [1, CROSSED, 2]
    assert all(reads[c].value is None for c in sheet.cells if c not in ("R1C1", "R1C2", "R2C3"))
