"""What the photo decoders say of a damaged or unreadable file: the damage named in one line,
every cell it touches unsure, and no decoder noise on the terminal."""

from __future__ import annotations

import json
import sys

import cv2
import numpy as np

from rnwprint.cli import main


def damaged(jpeg: bytes) -> bytes:
    """The photo with a stretch of its image data flipped (no marker bytes made or lost),
    near the end: the rows below it decode as grey, the sheet above stays readable."""
    data = bytearray(jpeg)
    start = len(data) - 5000
    for i in range(start, start + 100):
        if data[i] not in (0x00, 0xFF) and data[i] ^ 0x21 != 0xFF:
            data[i] ^= 0x21
    return bytes(data)


def test_read_of_a_damaged_jpeg_says_so_and_marks_every_cell_unsure(tmp_path, photo, capfd):
    path = tmp_path / "damaged.jpg"
    path.write_bytes(damaged(photo))
    code = main(["read", str(path)])
    out, err = capfd.readouterr()
    assert code == 0
    assert "Corrupt JPEG" not in err.replace("(Corrupt JPEG", "")  # the decoder's own line is gone
    warnings = [line for line in err.splitlines() if "dañado" in line]  # a Spanish sheet: its notes in Spanish
    assert len(warnings) == 1 and warnings[0].startswith(f"rnwprint: {path}: El archivo de la foto está dañado")
    cells = out.split("[cells]\n")[1].split("\n\n")[0].splitlines()
    assert len(cells) == 30  # Twenty One: 5 rows of 6
    assert all(line.endswith("# UNSURE: el archivo de la foto está dañado") for line in cells)  # a Spanish sheet
    assert "# Nota: El archivo de la foto está dañado (" in out


def test_read_json_of_a_damaged_jpeg_names_the_damage(tmp_path, photo, capfd):
    path = tmp_path / "damaged.jpg"
    path.write_bytes(damaged(photo))
    assert main(["read", "--json", str(path)]) == 0
    report = json.loads(capfd.readouterr().out)
    assert report["damaged"].startswith("Corrupt JPEG data")
    assert len(report["unsure"]) == 30
    assert {u["why"] for u in report["unsure"]} == {"the photo file is damaged"}


def test_read_of_an_undamaged_jpeg_says_nothing_of_damage(tmp_path, photo, capfd):
    path = tmp_path / "p.jpg"
    path.write_bytes(photo)
    assert main(["read", "--json", str(path)]) == 0
    out, err = capfd.readouterr()
    assert json.loads(out)["damaged"] == "" and "damaged" not in err


def test_read_of_a_corrupt_png_is_one_line_without_libpng_noise(tmp_path, photo, capfd):
    grey = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_GRAYSCALE)
    png = bytearray(cv2.imencode(".png", grey)[1].tobytes())
    middle = len(png) // 2
    png[middle:middle + 50] = bytes(b ^ 0x55 for b in png[middle:middle + 50])
    path = tmp_path / "bad.png"
    path.write_bytes(bytes(png))
    assert main(["read", str(path)]) == 2
    err = capfd.readouterr().err
    assert err == f"rnwprint: {path}: cannot decode the PNG image: the file is truncated or corrupt\n"


def test_read_of_an_iphone_heic_photo_without_pillow_heif_says_how_to_read_it(cli, tmp_path, monkeypatch):
    path = tmp_path / "IMG_0001.HEIC"
    path.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(500))
    monkeypatch.setitem(sys.modules, "pillow_heif", None)
    result = cli("read", path)
    assert result.code == 2
    assert result.err.startswith(f"rnwprint: {path}: a HEIC/HEIF photo needs pillow-heif, and it is not installed: "
                                 "pip install 'rnwprint[photo]', or export the photo as JPEG")


def test_audit_of_a_damaged_jpeg_says_so_in_the_report(tmp_path, photo, capfd):
    path = tmp_path / "damaged.jpg"
    path.write_bytes(damaged(photo))
    main(["audit", "--json", str(path)])
    report = json.loads(capfd.readouterr().out)
    assert report["damaged_photo"].startswith("Corrupt JPEG data")
    assert len(report["unsure_cells"]) == 30
    main(["audit", "--lang", "es", str(path)])
    assert "El archivo de la foto está dañado (Corrupt JPEG data" in capfd.readouterr().out


def test_a_jpeg_damaged_where_the_page_lies_is_refused_as_damaged(tmp_path, photo, capfd):
    data = bytearray(photo)
    for i in range(len(data) // 50, len(data) // 50 + 400):  # early: the rows below turn to garbage
        if data[i] not in (0x00, 0xFF) and data[i] ^ 0x21 != 0xFF:
            data[i] ^= 0x21
    path = tmp_path / "early.jpg"
    path.write_bytes(bytes(data))
    assert main(["read", str(path)]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"rnwprint: {path}: the photo file is damaged (Corrupt JPEG data")
    assert "copy it again from the phone; " in err  # and then why the page was not found


def test_a_png_with_bytes_after_its_end_chunk_is_read(tmp_path, photo, capfd):
    grey = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_GRAYSCALE)
    png = cv2.imencode(".png", grey)[1].tobytes()
    path = tmp_path / "appended.png"
    path.write_bytes(png + np.random.default_rng(0).integers(0, 256, 10_000, np.uint8).tobytes())
    assert main(["read", "--json", str(path)]) == 0
    assert json.loads(capfd.readouterr().out)["cells"]["R1C1"] == 4
