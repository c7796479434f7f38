"""Bad photo files to `read` and `audit`: told apart from typed-in files by their content, refused
in one line naming the file (too large, broken, no photo at all, OpenCV missing), exit 2."""

from __future__ import annotations

import io
import json
import sys

import pytest
from bad_input_support import GOOD, one_line, png_header
from PIL import Image


@pytest.fixture(scope="module")
def sheet_photo() -> bytes:
    from support import synth

    from rnwprint.games import GAMES

    sheet = GAMES["twenty-one"].build("A", "en", "a4")
    return synth.make_photo(sheet, synth.random_marks(sheet, 5), seed=5, megapixels=2.0)


@pytest.mark.parametrize("fmt, name", [("GIF", "sheet.gif"), ("WEBP", "sheet.webp"), ("TIFF", "sheet.tif"),
                                       ("JPEG", "sheet"), ("PNG", "sheet.txt")])
def test_audit_of_a_photo_in_any_format_or_name_reads_the_photo(cli, tmp_path, sheet_photo, fmt, name):
    path = tmp_path / name
    with Image.open(io.BytesIO(sheet_photo)) as im:
        im.save(path, fmt)
    result = cli("audit", path, "--json")
    assert result.code in (0, 1), result.err
    assert json.loads(result.out)["game"] == "twenty-one"


@pytest.mark.parametrize("name", ["IMG_0001.HEIC", "IMG_0001"])
def test_audit_of_a_broken_heic_photo_says_so_as_read_does(cli, tmp_path, name):
    path = tmp_path / name  # the first bytes of an iPhone photo, and nothing of the picture
    path.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(200))
    audited = cli("audit", path)
    assert audited.code == 2
    assert one_line(audited) == f"rnwprint: {path}: cannot decode the HEIC image: the file is truncated or corrupt"
    assert cli("read", path).err == audited.err


def test_audit_of_a_typed_in_file_named_like_a_photo_reads_it_as_typed_in(cli, write):
    result = cli("audit", write("sheet.jpg", GOOD), "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["game"] == "twenty-one"


def test_audit_of_text_named_like_a_photo_says_it_is_neither(cli, write):
    """A phone photo saved wrong (text where the JPEG should be) is not called a bad TOML file."""
    path = write("photo.jpg", "IMG_0042 could not be downloaded\n")
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result).startswith(f"rnwprint: {path}: not an image (expected a JPEG or PNG photo), "
                                       "nor a typed-in sheet: malformed TOML")
    named_as_text = cli("audit", write("notes.toml", "IMG_0042 could not be downloaded\n"))
    assert "not an image" not in named_as_text.err


@pytest.mark.parametrize("name, reason", [
    ("junk.toml", "not a text file (expected UTF-8 TOML or JSON)"),
    ("photo.jpg", "not an image (expected a JPEG or PNG photo)"),  # named like a photo: said so
])
def test_audit_of_binary_junk_is_one_line(cli, tmp_path, name, reason):
    path = tmp_path / name
    path.write_bytes(bytes(range(256)) * 8)
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == f"rnwprint: {path}: {reason}"


@pytest.mark.parametrize("name", ["sheet.toml", "photo.jpg", "photo.png"])
def test_audit_of_an_empty_file_says_it_is_empty(cli, tmp_path, name):
    path = tmp_path / name
    path.write_bytes(b" \n")
    result = cli("audit", path)
    assert result.code == 2
    assert one_line(result) == (f"rnwprint: {path}: empty file: expected a typed-in sheet (TOML or JSON) "
                                "or a photo (JPEG or PNG)")


def test_read_photo_file_larger_than_any_50_megapixel_photo_is_refused_unread(cli, tmp_path, monkeypatch):
    from rnwprint.photo import load

    monkeypatch.setattr(load, "MAX_PIXELS", 250_000)  # so that a 1 MB file stands for a 200 MB one
    monkeypatch.setattr(load, "MAX_FILE_BYTES", 1_000_000)
    path = tmp_path / "padded.png"
    path.write_bytes(png_header(10, 10, 0) + bytes(1_000_000))
    for command in ("read", "audit"):
        result = cli(command, path)
        assert one_line(result) == (f"rnwprint: {path}: file larger than 1 MB: too large for a photo of at most "
                                    "0.25 MP")


@pytest.mark.parametrize("command", ["read", "audit"])
def test_a_photo_without_the_photo_extra_installed_says_what_to_install(tmp_path, command):
    """A plain `pip install rnwprint` has no OpenCV: a photo is refused with how to get it,
    and a typed-in file given with it is still audited."""
    import subprocess

    photo = tmp_path / "photo.jpg"
    Image.new("RGB", (40, 30), "white").save(photo)
    typed = tmp_path / "mine.toml"
    typed.write_text(GOOD, encoding="utf-8")
    files = [str(photo)] + ([str(typed)] if command == "audit" else [])
    probe = ("import sys; sys.modules['cv2'] = None; from rnwprint.cli import main; "
             f"sys.exit(main([{command!r}, '--jobs', '1', *{files!r}]))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [(f"rnwprint: {photo}: reading photos needs numpy and OpenCV, and OpenCV "
                                          "is not installed: pip install 'rnwprint[photo]'")]
    if command == "audit":
        assert "Puntuación" in done.stdout  # the typed-in file's report


def test_annotate_with_a_pdf_of_several_pages_says_so(cli, tmp_path):
    pdf, picture = tmp_path / "all.pdf", tmp_path / "a.png"
    assert cli("sheet", "twenty-one", "--variant", "all", "-o", pdf).code == 0
    result = cli("audit", pdf, "--annotate", picture)
    assert result.code == 2 and not picture.exists()
    assert one_line(result) == (f"rnwprint: --annotate draws one sheet's violations in a PNG, and {pdf} holds 6 "
                                "pages: give a PDF of one page with it, or --annotate a .pdf file for a page per sheet")


def test_read_json_gives_a_file_that_is_no_photo_an_object_too(cli, write):
    bad = write("notes.jpg", "not a photo\n")
    result = cli("read", bad, "--json")
    assert result.code == 2
    assert json.loads(result.out) == {"source": str(bad), "error": f"{bad}: not an image (expected a JPEG or PNG photo)"}
