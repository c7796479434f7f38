"""A tournament's photos read at once (issue 15, part 4): `read/audit --jobs N` reads photos in
a process pool, prints results in the order the photos were given, and reports a bad photo
in its place while the others are read."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest
from support import synth

from rnwprint import batch
from rnwprint.games import GAMES


@pytest.fixture(scope="module")
def photos(tmp_path_factory) -> list[pathlib.Path]:
    """Four Twenty One photos, named against the alphabet (so input order is not name order);
    the first is the largest, so it would finish last if results came back as they are done."""
    folder = tmp_path_factory.mktemp("tournament")
    g = GAMES["twenty-one"]
    sheet = g.build(g.default_variant, "en", "a4")
    paths = []
    for i in range(4):
        path = folder / f"{'zyxw'[i]}.jpg"
        path.write_bytes(synth.make_photo(sheet, {"R1C1": 4 + i, "R2C1": 3}, 5 + i, 12.0 if i == 0 else 6.0))
        paths.append(path)
    return paths


@pytest.fixture
def broken(tmp_path) -> pathlib.Path:
    path = tmp_path / "broken.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + b"not a photo" * 10)
    return path


def sources(stdout: str) -> list[str]:
    """The photo each typed-in file printed says it was read from, in printed order."""
    head = "# Read by rnwprint from "
    return [line[len(head):].rsplit(" (", 1)[0] for line in stdout.splitlines() if line.startswith(head)]


def test_read_with_two_jobs_prints_photos_in_the_order_given(cli, photos):
    result = cli("read", "--jobs", "2", *photos)
    assert result.code == 0, result.err
    assert sources(result.out) == [str(p) for p in photos]


def test_read_json_with_two_jobs_names_each_photo_in_the_order_given(cli, photos):
    result = cli("read", "--jobs", "2", "--json", *photos)
    assert [json.loads(line)["source"] for line in result.out.splitlines()] == [str(p) for p in photos]


def test_a_bad_photo_in_the_middle_is_reported_and_the_others_read(cli, photos, broken):
    given = [photos[0], broken, photos[1]]
    result = cli("read", "--jobs", "2", *given)
    assert result.code == 2
    assert sources(result.out) == [str(photos[0]), str(photos[1])]
    assert len(result.err.strip().splitlines()) == 1 and f"rnwprint: {broken}:" in result.err


def test_into_writes_each_photos_typed_in_file_and_picture_into_the_folder(cli, photos, broken, tmp_path):
    folder = tmp_path / "checked"
    result = cli("read", "--jobs", "2", "--into", folder, photos[0], broken, photos[1])
    assert result.code == 2 and f"rnwprint: {broken}:" in result.err
    assert sorted(p.name for p in folder.iterdir()) == ["y.png", "y.toml", "z.png", "z.toml"]
    assert result.out.splitlines() == [f"{photos[0]}: {folder / 'z.toml'}, 0 cell(s) UNSURE",
                                       f"{photos[1]}: {folder / 'y.toml'}, 0 cell(s) UNSURE"]
    alone = cli("read", photos[1])  # the same typed-in file as read one photo at a time
    assert (folder / "y.toml").read_text(encoding="utf-8") == alone.out
    assert 'R1C1 = 5' in alone.out
    assert (folder / "y.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_into_refuses_two_photos_of_one_name_before_reading(cli, photos, tmp_path):
    other = tmp_path / "elsewhere" / photos[0].name
    other.parent.mkdir()
    other.write_bytes(photos[0].read_bytes())
    result = cli("read", "--into", tmp_path / "out", photos[0], other)
    assert result.code == 2 and not (tmp_path / "out").exists()
    assert f"{photos[0]} and {other} would both be written as z.toml" in result.err


def test_into_refuses_one_photo_given_twice_before_reading(cli, photos, tmp_path):
    result = cli("read", "--into", tmp_path / "out", photos[1], photos[0], photos[1])
    assert result.code == 2 and not (tmp_path / "out").exists()
    assert result.err == f"rnwprint: {tmp_path / 'out'}: {photos[1]} given twice: --into writes each photo's files once\n"


def test_into_never_writes_over_a_photo_it_reads(cli, photos, tmp_path):
    photo = tmp_path / "z.png"  # its picture would be z.png in its own folder
    photo.write_bytes(photos[0].read_bytes())
    result = cli("read", "--into", tmp_path, photo)
    assert result.code == 2 and "is an input of this command" in result.err
    assert photo.read_bytes() == photos[0].read_bytes() and not (tmp_path / "z.toml").exists()


def test_into_never_writes_over_a_file_already_in_the_folder(cli, photos, tmp_path):
    """A typed-in file checked by hand, then the same photo read into the folder again: the
    corrections are kept, and nothing is read or written."""
    folder = tmp_path / "checked"
    assert cli("read", "--into", folder, photos[0]).code == 0
    checked = folder / "z.toml"
    checked.write_text(checked.read_text(encoding="utf-8") + "# R2C3 checked on the paper\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    again = cli("read", "--into", folder, photos[0], photos[1])
    assert again.code == 2 and again.out == ""
    assert again.err.splitlines() == [f"rnwprint: {folder}: z.toml and 1 more already there: --into does not write "
                                      "over files (a typed-in file may hold your corrections); move them away or "
                                      "read into another folder"]
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # y.toml not written either


def test_a_photos_typed_in_file_and_picture_are_written_both_or_neither(cli, photos, tmp_path, monkeypatch):
    """The disk full while the picture is written: the typed-in file written first is not
    left behind alone (nor are temporary files), and an older pair stays as it was."""
    from rnwprint import output

    target, picture = tmp_path / "r.toml", tmp_path / "r.png"
    assert cli("read", photos[1], "-o", target, "--annotate", picture).code == 0
    before = (target.read_bytes(), picture.read_bytes())
    real_write = output._write_fd

    def full_on_png(fd, data):
        if data[:8] == b"\x89PNG\r\n\x1a\n":
            raise OSError(28, "No space left on device")
        real_write(fd, data)

    monkeypatch.setattr(output, "_write_fd", full_on_png)
    result = cli("read", photos[0], "-o", target, "--annotate", picture)
    assert result.code == 2
    assert result.err == f"rnwprint: {picture}: cannot write file: no space left on the device (the disk is full)\n"
    assert (target.read_bytes(), picture.read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.png", "r.toml"]
    target.unlink(), picture.unlink()
    assert cli("read", photos[0], "-o", target, "--annotate", picture).code == 2 and not target.exists()


def test_into_makes_no_folder_when_no_photo_can_be_read(cli, broken, tmp_path):
    result = cli("read", "--into", tmp_path / "new", broken)
    assert result.code == 2 and f"rnwprint: {broken}:" in result.err
    assert not (tmp_path / "new").exists()


def test_into_a_file_or_with_o_is_refused(cli, photos, tmp_path):
    afile = tmp_path / "notes.txt"
    afile.write_text("keep me", encoding="utf-8")
    refused = cli("read", "--into", afile, photos[0])
    assert refused.code == 2 and "is a file, not a folder" in refused.err
    assert afile.read_text(encoding="utf-8") == "keep me"
    both = cli("read", "--into", tmp_path / "out", "-o", tmp_path / "a.toml", photos[0])
    assert both.code == 2 and "without -o and --annotate" in both.err


def test_one_job_and_two_jobs_print_the_same(cli, photos, broken):
    one = cli("read", "--jobs", "1", photos[2], broken, photos[3])
    two = cli("read", "--jobs", "2", photos[2], broken, photos[3])
    assert one.out and (one.code, one.out, one.err) == (two.code, two.out, two.err)


def test_audit_with_two_jobs_keeps_photos_and_typed_in_files_in_order(cli, photos, broken, write):
    typed = write("typed.toml", 'game = "twenty-one"\n[cells]\nR1C1 = 9\n')
    result = cli("audit", "--jobs", "2", "--json", photos[1], broken, typed, photos[0])
    assert result.code == 2
    objects = [json.loads(line) for line in result.out.splitlines()]
    assert [o["source"] for o in objects] == [str(photos[1]), str(broken), str(typed), str(photos[0])]
    assert ["error" in o for o in objects] == [False, True, False, False]
    assert f"rnwprint: {broken}:" in result.err


def test_audit_with_one_job_prints_what_two_jobs_print(cli, photos):
    one = cli("audit", "--jobs", "1", photos[0], photos[3])
    two = cli("audit", "--jobs", "2", photos[0], photos[3])
    assert one.out and (one.code, one.out, one.err) == (two.code, two.out, two.err)


@pytest.mark.parametrize("command", ["read", "audit"])
def test_zero_jobs_is_refused(cli, photos, command):
    result = cli(command, "--jobs", "0", photos[0])
    assert result.code == 2 and "--jobs" in result.err and "0" in result.err


def run_process(*args) -> subprocess.CompletedProcess:
    """`python -m rnwprint ARGS` in a process of its own: one that has not loaded OpenCV."""
    return subprocess.run([sys.executable, "-m", "rnwprint", *map(str, args)], capture_output=True, text=True,
                          check=False, timeout=300)


def test_a_fresh_process_forks_its_workers_with_the_reader_already_loaded():
    probe = ("import sys; from rnwprint.batch import _context, PRELOAD; "
             "print(_context(list(PRELOAD)).get_start_method(), 'rnwprint.photo.pipeline' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["fork", "True"]


def test_a_process_that_has_used_opencv_starts_a_fork_server_instead():
    import cv2  # noqa: F401 -- the tests' synthetic photos load it anyway

    assert batch._context(list(batch.PRELOAD)).get_start_method() == "forkserver"


def test_forked_workers_print_what_one_process_prints(photos, broken):
    given = [photos[3], broken, photos[0], photos[1]]
    one, two = run_process("read", "--jobs", "1", *given), run_process("read", "--jobs", "2", *given)
    assert one.returncode == 2 and sources(one.stdout) == [str(photos[3]), str(photos[0]), str(photos[1])]
    assert (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout, two.stderr)


def test_typed_in_files_are_audited_with_two_jobs_where_the_photo_reader_is_not_installed(write):
    files = [write(f"{name}.toml", f'game = "twenty-one"\n[cells]\nR1C1 = {n}\n') for name, n in (("b", 9), ("a", 4))]
    probe = ("import sys; sys.modules['cv2'] = None; from rnwprint.cli import main; "
             f"sys.exit(main(['audit', '--jobs', '2', '--json', {str(files[0])!r}, {str(files[1])!r}]))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    assert [json.loads(line)["source"] for line in done.stdout.splitlines()] == [str(f) for f in files]


def test_two_jobs_run_in_worker_processes_and_one_job_in_this_one():
    import os

    here = str(os.getpid())  # os.readlink("/proc/self") names the process that calls it
    assert [out for _, out in batch.Ordered(os.readlink, ["/proc/self"] * 2, 1)] == [here, here]
    two = [out for _, out in batch.Ordered(os.readlink, ["/proc/self"] * 4, 2)]
    assert len(two) == 4 and here not in two and all(out.isdigit() for out in two)


def test_a_process_running_other_threads_starts_a_fork_server():
    probe = ("import sys, threading; from rnwprint.batch import _context, PRELOAD; stop = threading.Event(); "
             "threading.Thread(target=stop.wait).start(); "
             "print(_context(list(PRELOAD)).get_start_method(), 'cv2' in sys.modules); stop.set()")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["forkserver", "False"]


def _children(pid: int) -> list[int]:
    kids = []
    for status in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            kids.append(int(status.parent.name))
    return kids


def _running(pid: int) -> bool:
    try:
        return (pathlib.Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_killing_a_big_tower_batch_ends_its_workers_too(tmp_path):
    """`kill` ends the command by the signal's default action, which shuts no pool down: the
    workers building the towers' sheets must end with it, not wait for ever."""
    proc = subprocess.Popen([sys.executable, "-m", "rnwprint", "tower", "--random", "--count", "3000", "--seed", "8",
                             "-o", str(tmp_path / "k.pdf")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "RNWPRINT_CACHE": ""})
    deadline = time.monotonic() + 60
    while len(kids := _children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(kids) >= 2, "no workers started"
    proc.terminate()
    assert proc.wait(timeout=30) == -signal.SIGTERM
    deadline = time.monotonic() + 10
    while any(_running(k) for k in kids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_running(k) for k in kids)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("asked, items, cores, workers", [(1000, 100, 2, 8), (3, 100, 2, 3), (8, 5, 2, 5), (9, 100, 2, 8)])
def test_workers_are_as_asked_but_no_more_than_the_photos_nor_four_a_core(monkeypatch, asked, items, cores, workers):
    monkeypatch.setattr(batch, "cores", lambda: cores)
    assert batch.Ordered(str, range(items), asked).workers() == workers
