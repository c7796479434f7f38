"""Where output goes (-o, --annotate, every command that writes) and what reaches the terminal:
never a replaced device, FIFO, symlink or input file, never a leftover temporary file, true
reasons, one line per error."""

from __future__ import annotations

import io
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

from rnwprint.cli import main


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
