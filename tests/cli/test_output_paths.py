"""Where output goes (-o, --annotate, every command that writes), what reaches the terminal,
and what the photo decoders say: never a replaced device, FIFO, symlink or input file, never
a leftover temporary file, true reasons, one line per error."""

from __future__ import annotations

import io
import json
import os
import pathlib
import signal
import socket
import stat
import subprocess
import sys
import textwrap
import threading
import time

import cv2
import numpy as np
import pytest
from project import ROOT
from support import synth

from rnwprint.cli import main
from rnwprint.games import GAMES


@pytest.fixture(scope="module")
def photo(tmp_path_factory) -> bytes:
    g = GAMES["twenty-one"]
    return synth.make_photo(g.build(g.default_variant, "es", "a4"), {"R1C1": 4, "R2C1": 7}, 5, 4.0)


def leftovers(folder: pathlib.Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


# --------------------------------------------------------------------------- what -o names


def test_sheet_to_a_symlink_to_dev_null_leaves_the_link(cli, tmp_path):
    link = tmp_path / "null.pdf"
    link.symlink_to("/dev/null")
    result = cli("sheet", "twenty-one", "-o", link)
    assert result.code == 0, result.err
    assert link.is_symlink() and os.readlink(link) == "/dev/null"
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_sheet_to_a_copy_of_dev_null_writes_into_the_device(cli, tmp_path):
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root")
    result = cli("sheet", "twenty-one", "-o", node)
    assert result.code == 0, result.err
    assert stat.S_ISCHR(os.lstat(node).st_mode)
    assert leftovers(tmp_path) == []


def test_sheet_to_dev_full_says_the_disk_is_full(cli, tmp_path):
    link = tmp_path / "full.pdf"
    link.symlink_to("/dev/full")
    result = cli("sheet", "twenty-one", "-o", link)
    assert result.code == 2
    assert result.err.strip() == f"rnwprint: {link}: cannot write file: no space left on the device (the disk is full)"
    assert link.is_symlink()
    assert leftovers(tmp_path) == []


def test_roll_log_to_dev_full_says_the_disk_is_full_and_prints_no_turns(cli, tmp_path):
    link = tmp_path / "log.toml"
    link.symlink_to("/dev/full")
    result = cli("roll", "rolling-america", "--seed", "3", "-o", link)
    assert result.code == 2 and "the disk is full" in result.err
    assert result.out == ""


def test_sheet_to_a_fifo_writes_through_it(cli, tmp_path):
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    received = []

    def read_all():
        with open(fifo, "rb") as f:
            received.append(f.read())

    thread = threading.Thread(target=read_all)
    thread.start()
    result = cli("sheet", "twenty-one", "-o", fifo)
    thread.join(10)
    assert result.code == 0, result.err
    assert received[0].startswith(b"%PDF")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_sheet_to_a_fifo_nobody_reads_gives_up(cli, tmp_path, monkeypatch):
    monkeypatch.setattr("rnwprint.output.FIFO_WAIT", 0.2)
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    start = time.monotonic()
    result = cli("sheet", "twenty-one", "-o", fifo)
    assert time.monotonic() - start < 5
    assert result.code == 2 and "no program opened for reading" in result.err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_sheet_to_a_symlink_writes_its_target_and_keeps_the_link(cli, tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "sheet.pdf"
    target.write_bytes(b"old")
    link = tmp_path / "link.pdf"
    link.symlink_to(target)
    result = cli("sheet", "twenty-one", "-o", link)
    assert result.code == 0, result.err
    assert link.is_symlink() and link.resolve() == target
    assert target.read_bytes().startswith(b"%PDF")
    assert leftovers(tmp_path) == [] and leftovers(tmp_path / "real") == []


def test_sheet_to_a_dangling_symlink_creates_its_target(cli, tmp_path):
    link = tmp_path / "link.pdf"
    link.symlink_to("made.pdf")
    result = cli("sheet", "twenty-one", "-o", link)
    assert result.code == 0, result.err
    assert link.is_symlink() and (tmp_path / "made.pdf").read_bytes().startswith(b"%PDF")


def test_sheet_to_a_folder_is_refused(cli, tmp_path):
    result = cli("sheet", "twenty-one", "-o", tmp_path)
    assert result.code == 2
    assert result.err.strip() == f"rnwprint: {tmp_path}: is a folder, not a file: name a file inside it"


def test_an_output_ending_in_a_slash_is_refused_not_written_as_a_file(cli, tmp_path):
    result = cli("sheet", "twenty-one", "-o", f"{tmp_path}/sheets/")
    assert result.code == 2
    assert "ends with a slash, so names a folder: name a file inside it" in result.err
    assert list(tmp_path.iterdir()) == []


def test_sheet_to_a_socket_is_refused(cli, tmp_path):
    path = tmp_path / "s.pdf"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    try:
        result = cli("sheet", "twenty-one", "-o", path)
    finally:
        sock.close()
    assert result.code == 2 and "is a socket, not a file" in result.err
    assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_svg_pages_to_dev_null_are_refused_not_made_beside_it(cli, tmp_path):
    link = tmp_path / "null.svg"
    link.symlink_to("/dev/null")
    result = cli("sheet", "twenty-one", "--variant", "all", "--format", "svg", "-o", link)
    assert result.code == 2 and "one file per page" in result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null.svg"]


def test_sheet_over_a_private_file_keeps_it_private(cli, tmp_path):
    out = tmp_path / "mine.pdf"
    out.write_bytes(b"old")
    out.chmod(0o600)
    assert cli("sheet", "twenty-one", "-o", out).code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and out.read_bytes().startswith(b"%PDF")


def test_a_long_file_name_is_written(cli, tmp_path):
    out = tmp_path / ("n" * 250 + ".pdf")  # 254 characters: the longest a name may be, nearly
    result = cli("sheet", "twenty-one", "-o", out)
    assert result.code == 0, result.err
    assert out.read_bytes().startswith(b"%PDF")


# --------------------------------------------------------------------------- true reasons


def test_sheet_under_a_regular_file_says_it_is_a_file_not_a_folder(cli, tmp_path):
    blocker = tmp_path / "notes"
    blocker.write_text("x")
    result = cli("sheet", "twenty-one", "-o", blocker / "deeper" / "x.pdf")
    assert result.code == 2
    assert f"rnwprint: {blocker}: is a file, not a folder" in result.err
    assert "File exists" not in result.err and "Not a directory" not in result.err


def test_sheet_under_proc_says_nothing_can_be_written_there(cli):
    result = cli("sheet", "twenty-one", "-o", "/proc/x.pdf")
    assert result.code == 2 and "cannot write under /proc" in result.err
    assert "No such file" not in result.err


def test_sheet_with_an_empty_output_path_says_it_is_empty(cli):
    result = cli("sheet", "twenty-one", "-o", "")
    assert result.code == 2 and "empty output path" in result.err
    assert "busy" not in result.err


def test_read_with_an_empty_annotate_path_says_it_is_empty(cli, tmp_path, photo):
    (tmp_path / "p.jpg").write_bytes(photo)
    result = cli("read", tmp_path / "p.jpg", "--annotate", "")
    assert result.code == 2 and "empty output path" in result.err


# --------------------------------------------------------------------------- never over an input


@pytest.mark.parametrize("option", ["-o", "--annotate"])
def test_read_refuses_to_write_over_its_own_photo(cli, tmp_path, photo, option):
    path = tmp_path / "p"  # no extension: a .jpg name would be refused first, for its extension
    path.write_bytes(photo)
    result = cli("read", path, option, path)
    assert result.code == 2
    assert result.err.strip() == f"rnwprint: {path}: is an input of this command: refusing to write over it"
    assert path.read_bytes() == photo


def test_read_refuses_the_photo_spelt_another_way(cli, tmp_path, photo, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pathlib.Path("p").write_bytes(photo)  # no extension: a .jpg name would be refused first
    pathlib.Path("link").symlink_to("p")
    for other in ("./p", "link", str(tmp_path / "p")):
        result = cli("read", "p", "-o", other)
        assert result.code == 2 and "refusing to write over it" in result.err, other
    assert pathlib.Path("p").read_bytes() == photo and pathlib.Path("link").is_symlink()


def test_read_refuses_one_file_for_both_outputs(cli, tmp_path, photo):
    (tmp_path / "p.jpg").write_bytes(photo)
    out = tmp_path / "out.toml"
    result = cli("read", tmp_path / "p.jpg", "-o", out, "--annotate", tmp_path / "." / "out.toml")
    assert result.code == 2 and "name the same file" in result.err
    assert not out.exists()
    for target, picture in (("-", "-"), ("/dev/stdout", "-"), ("-", "/dev/fd/1")):  # standard output, twice
        result = cli("read", tmp_path / "p.jpg", "-o", target, "--annotate", picture)
        assert result.code == 2 and "name the same file" in result.err and result.out == ""


def test_tower_refuses_to_write_over_its_ascii_drawing(cli, tmp_path):
    drawing = tmp_path / "tower"  # no extension: a .txt name would be refused first
    drawing.write_text("  []\n [][]\n[][][]\n", encoding="utf-8")
    result = cli("tower", "--ascii", drawing, "--format", "svg", "-o", drawing)
    assert result.code == 2 and "refusing to write over it" in result.err
    assert drawing.read_text(encoding="utf-8") == "  []\n [][]\n[][][]\n"


def test_tower_refuses_to_write_over_its_picture(cli, tmp_path):
    picture = tmp_path / "shape.png"
    image = np.full((200, 100), 255, np.uint8)
    image[20:180, 20:80] = 0
    cv2.imwrite(str(picture), image)
    before = picture.read_bytes()
    result = cli("tower", "--picture", picture, "--columns", "4", "--format", "png", "-o", picture)
    assert result.code == 2 and "refusing to write over it" in result.err
    assert picture.read_bytes() == before


# --------------------------------------------------------------------------- signals

SLOW_WRITER = textwrap.dedent("""
    import sys, time
    import rnwprint.output as output
    real = output._write_fd
    def slow(fd, data):
        real(fd, data[:1000])
        print("writing", flush=True)
        time.sleep(60)
        real(fd, data[1000:])
    output._write_fd = slow
    from rnwprint.cli import main
    sys.exit(main(sys.argv[1:]))
""")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_killed_while_writing_leaves_no_temporary_file(tmp_path, sig):
    old = tmp_path / "sheet.pdf"
    old.write_bytes(b"the old sheet")
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, "sheet", "twenty-one", "-o", str(old)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert proc.stdout.readline() == b"writing\n", proc.stderr.read()
        assert len(leftovers(tmp_path)) == 1  # the write is under way
        proc.send_signal(sig)
        proc.wait(20)
    finally:
        proc.kill()
    assert proc.returncode == -sig  # ended by the signal itself: the shell shows 128 + signal
    assert leftovers(tmp_path) == []
    assert old.read_bytes() == b"the old sheet"


# --------------------------------------------------------------------------- terminal


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("command", ["read", "audit"])
def test_errors_in_a_batch_on_a_terminal_each_start_a_line(command, tmp_path, monkeypatch):
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    broken = [tmp_path / f"broken{k}.jpg" for k in range(3)]
    for path in broken:
        path.write_bytes(b"\xff\xd8\xff\xe0" + bytes(200))  # a JPEG's start, then nothing
    code = main([command, *map(str, broken)])
    err = terminal.getvalue()
    assert code == 2
    assert "photos" in err  # the bar was drawn
    lines = err.split("\n")
    errors = [line for line in lines if "rnwprint:" in line]
    assert len(errors) == 3
    assert all(line.startswith("rnwprint: ") for line in errors), err


def test_a_full_standard_output_is_one_line_exit_2():
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "rnwprint", "tower", "--random", "--count", "300", "--show"],
                              stdout=full, stderr=subprocess.PIPE, cwd=ROOT, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.decode() == "rnwprint: standard output: cannot write: No space left on device\n"


def test_template_with_standard_output_closed_says_so():
    proc = subprocess.run([sys.executable, "-m", "rnwprint", "template", "twenty-one"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, timeout=60,
                          preexec_fn=lambda: os.close(1))
    assert proc.returncode == 2
    assert proc.stderr.decode() == "rnwprint: standard output: cannot write: it is closed\n"


# --------------------------------------------------------------------------- decoders


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


# --------------------------------------------------------------------------- -o - : standard output


def rnwprint(*args, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rnwprint", *map(str, args)], capture_output=True, cwd=cwd,
                          timeout=120, env={**os.environ, "RNWPRINT_CACHE": ""})


@pytest.mark.parametrize("fmt,name", [("pdf", "-"), ("png", "-"), ("pdf", "/dev/stdout")])
def test_sheet_to_a_dash_writes_the_file_to_standard_output(tmp_path, fmt, name):
    piped = rnwprint("sheet", "twenty-one", "--variant", "B", "--format", fmt, "-o", name, cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert piped.stderr == b"" and list(tmp_path.iterdir()) == []  # no file named "-", no name printed
    written = rnwprint("sheet", "twenty-one", "--variant", "B", "-o", f"b.{fmt}", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    assert piped.stdout == (tmp_path / f"b.{fmt}").read_bytes()


def test_a_pdf_of_every_variant_goes_to_standard_output_whole(tmp_path):
    piped = rnwprint("sheet", "twenty-one", "--variant", "all", "--copies", "2", "-o", "-", cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.startswith(b"%PDF") and piped.stdout.count(b"/Type /Page\n") == 12


@pytest.mark.parametrize("args", [("sheet", "twenty-one", "--variant", "all", "--format", "svg"),
                                  ("tower", "--random", "--seed", "3", "--count", "2", "--format", "png")])
def test_pages_a_file_each_are_refused_on_standard_output(tmp_path, args):
    assert rnwprint(*args, "-o", "/dev/stdout", cwd=tmp_path).returncode == 2
    piped = rnwprint(*args, "-o", "-", cwd=tmp_path)
    assert piped.returncode == 2 and piped.stdout == b""
    assert piped.stderr.decode().startswith("rnwprint: -o -: - is standard output, one file, and ")
    assert piped.stderr.decode().count("\n") == 1 and "--format pdf" in piped.stderr.decode()
    assert list(tmp_path.iterdir()) == []


def test_dot_slash_dash_names_a_file_not_standard_output(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("sheet", "twenty-one", "-o", "./-")
    assert result.code == 0, result.err
    assert (tmp_path / "-").read_bytes().startswith(b"%PDF")
    assert result.out == f"{tmp_path / '-'}\n"


def test_roll_to_a_dash_prints_the_log_alone(tmp_path):
    piped = rnwprint("roll", "rolling-espana", "--seed", "7", "-o", "-", cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    rnwprint("roll", "rolling-espana", "--seed", "7", "-o", "log.toml", cwd=tmp_path)
    assert piped.stdout == (tmp_path / "log.toml").read_bytes()
    assert list(tmp_path.iterdir()) == [tmp_path / "log.toml"]


def test_read_to_a_dash_prints_the_typed_in_file_and_writes_the_picture(cli, tmp_path, photo, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.jpg").write_bytes(photo)
    printed = cli("read", "p.jpg")
    piped = cli("read", "p.jpg", "-o", "-", "--annotate", "seen.png")
    assert piped.code == 0, piped.err
    assert piped.out == printed.out and "R1C1 = 4" in piped.out
    assert (tmp_path / "seen.png").read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jpg", "seen.png"]


def test_read_with_the_picture_to_a_dash_writes_the_typed_in_file(tmp_path, photo):
    (tmp_path / "p.jpg").write_bytes(photo)
    piped = rnwprint("read", "p.jpg", "-o", "mine.toml", "--annotate", "-", cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.startswith(b"\x89PNG") and b"R1C1 = 4" in (tmp_path / "mine.toml").read_bytes()


@pytest.mark.parametrize("args, says", [
    (("-o", "-", "--json"), "-o - writes the typed-in file to standard output, where --json's lines go too"),
    (("--annotate", "-"), "--annotate - writes the picture to standard output, where the typed-in file goes too"),
    (("--annotate", "-", "-o", "x.toml", "--json"), "where the JSON lines go too"),
])
def test_two_things_for_standard_output_are_refused(cli, tmp_path, photo, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.jpg").write_bytes(photo)
    result = cli("read", "p.jpg", *args)
    assert result.code == 2 and result.out == ""
    assert says in result.err and result.err.count("\n") == 1
    assert [p.name for p in tmp_path.iterdir()] == ["p.jpg"]


def test_audit_refuses_its_picture_on_standard_output(cli, write):
    sheet = write("a.toml", 'game = "twenty-one"\nvariant = "A"\n[cells]\nR1C1 = 6\n')
    result = cli("audit", sheet, "--annotate", "-")
    assert result.code == 2 and result.out == ""
    assert "where the report is printed: give --annotate a file" in result.err


def test_a_reader_that_stops_reading_ends_the_command_quietly_with_141():
    """`rnwprint ... | head -1`: exit 141 as a Unix tool stopped by SIGPIPE, never 1 (rules
    broken). 300 towers' drawings are more than a pipe holds: the reader's close is seen."""
    proc = subprocess.Popen([sys.executable, "-m", "rnwprint", "tower", "--random", "--count", "300", "--show"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=60) == 141
    assert proc.stderr.read() == b""


@pytest.mark.parametrize("command", [("sheet", "twenty-one"), ("roll", "rolling-america", "--seed", "3")])
def test_an_output_name_of_spaces_only_is_refused(cli, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    result = cli(*command, "-o", "  ")
    assert result.code == 2 and result.err.strip().endswith("'  ': only spaces: name a file")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name, ext", [("x.svgz", "svgz"), ("x.tar.gz", "gz"), ("x.docx", "docx")])
def test_a_name_of_another_format_is_refused_not_written_as_a_pdf(cli, tmp_path, name, ext):
    result = cli("sheet", "twenty-one", "-o", tmp_path / name)
    assert result.code == 2 and f"a .{ext} name, but this writes PDF, SVG or PNG" in result.err
    assert list(tmp_path.iterdir()) == []


def test_a_sheet_of_a_file_a_page_is_written_whole_or_not_at_all(cli, tmp_path, monkeypatch):
    """The disk full at the sixth SVG page: none of the six pages is left (nor temporary
    files), and pages written before by another run stay as they were."""
    from rnwprint import output

    assert cli("sheet", "twenty-one", "--variant", "all", "--format", "svg", "-o", tmp_path / "s.svg").code == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert len(before) == 6
    real_write, calls = output._write_fd, []

    def full_at_the_sixth(fd, data):
        calls.append(fd)
        if len(calls) == 6:
            raise OSError(28, "No space left on device")
        real_write(fd, data)

    monkeypatch.setattr(output, "_write_fd", full_at_the_sixth)
    result = cli("sheet", "twenty-one", "--variant", "all", "--format", "svg", "--lang", "en", "-o", tmp_path / "s.svg")
    assert result.code == 2 and result.out == "" and "the disk is full" in result.err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    for p in tmp_path.iterdir():
        p.unlink()
    calls.clear()
    assert cli("sheet", "twenty-one", "--variant", "all", "--format", "svg", "-o", tmp_path / "s.svg").code == 2
    assert list(tmp_path.iterdir()) == []
