"""The benchmark scripts that run rnwprint in processes of their own still run: BENCHMARKS'
figures come from them, and what a subprocess imports is not checked by importing them."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

BENCH = pathlib.Path(__file__).resolve().parent.parent / "bench"


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True,
                          check=False, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_bench_cold_times_a_cold_read_stage_by_stage():
    out = run("bench_cold.py", "--rounds", "1", "--sheets", "twenty-one")
    row = next(line.split() for line in out.splitlines() if line.strip().startswith("twenty-one"))
    assert len(row) == 13 and float(row[-1]) > 0  # the sheet, the process, outside, nine stages and the total


def test_bench_pool_start_times_the_workers_start():
    out = run("bench_pool_start.py", "--rounds", "1")
    assert "pool of 2 workers to its first results" in out


def test_bench_png_times_a_preview_against_lanczos():
    out = run("bench_png.py", "--rounds", "1")
    assert sum("(Lanczos, as before:" in line for line in out.splitlines()) == 3


def test_bench_catan_photo_reads_a_photo_too_bright_without_a_silent_error():
    out = run("bench_catan_photo.py", "--photos", "1", "--only", "4", "--gain", "2")
    line = next(line for line in out.splitlines() if "4 MP x2, 1 photos, 144 places" in line)
    assert "wrong and not flagged 0.00%" in line


def test_bench_catan_photo_reads_a_grainy_photo_without_a_silent_error():
    out = run("bench_catan_photo.py", "--photos", "1", "--only", "4", "--noise", "25")
    line = next(line for line in out.splitlines() if "4 MP noise 25, 1 photos, 144 places" in line)
    assert "wrong and not flagged 0.00%" in line


def test_writer_digits_are_binarised_without_breaking_a_thin_stroke():
    """bench_photo --writers: a digit drawn with a thin pen, fainter than half grey along its
    middle, is kept whole (cut at a quarter); a firm digit is cut at half grey as before."""
    import cv2
    import numpy as np

    sys.path.insert(0, str(BENCH))
    from bench_photo import binarised

    thin = np.zeros((28, 28), np.uint8)
    cv2.line(thin, (6, 4), (20, 24), 200, 1)
    thin[10:18, :] = np.minimum(thin[10:18, :], 90)  # faint in the middle
    firm = np.zeros((28, 28), np.uint8)
    cv2.circle(firm, (14, 14), 8, 255, 3)
    firm[13:15, 4:24] = 100  # a faint smudge across: not ink at half grey
    bits = binarised(np.stack([thin, firm]))
    assert cv2.connectedComponents(bits[0].astype(np.uint8))[0] - 1 == 1
    assert (bits[0] == (thin >= 64)).all()
    assert (bits[1] == (firm >= 128)).all()


def test_bench_warm_reads_the_same_photos_side_by_side_with_another_checkout():
    """Side by side, both processes read the same files: this checkout against itself reads
    every photo, times it from outside, and prints the ratio."""
    checkout = BENCH.parent
    out = run("bench_warm.py", "--photos", "1", "--rounds", "1", "--turns", "2", "--sheets", "twenty-one",
              "--baseline", str(checkout))
    lines = out.splitlines()
    this = next(line for line in lines if line.startswith("this:"))
    base = next(line for line in lines if line.startswith("baseline:"))
    assert float(this.split()[1]) > 0 and float(base.split()[1]) > 0
    ratio = float(next(line for line in lines if line.startswith("this / baseline:")).split()[-1])
    assert 0.2 < ratio < 5
    turns = next(line for line in lines if line.startswith("median of the turns' ratios"))
    each = [float(r) for r in turns.split("(")[-1].rstrip(")").split(", ")]
    assert len(each) == 2 and abs(float(turns.split(": ")[1].split()[0]) - (each[0] + each[1]) / 2) <= 0.0015
    row = next(line.split() for line in lines if line.startswith("twenty-one"))
    assert len(row) == 11  # the sheet, nine stages and the total


def test_bench_pairs_tells_the_split_from_the_classifier_in_two_digit_misreads():
    out = run("bench_pairs.py", "--photos", "1")
    head = next(line for line in out.splitlines() if line.startswith("1 Roll to the Top photos"))
    cells, pieces = map(int, re.search(r"(\d+) two-digit cells, (\d+) split in two pieces", head).groups())
    assert cells >= 5 and 0 < pieces <= cells
    tens = next(line for line in out.splitlines() if "tens misread, by true digit" in line)
    assert sum(int(pair.split("/")[1]) for pair in tens.split(": ", 1)[1].split(", ")) == cells


def test_bench_pairs_reads_only_roll_to_the_top_photos():
    sys.path.insert(0, str(BENCH))
    from bench_pairs import tower_seeds
    from bench_photo import SHEETS

    assert [SHEETS[seed % len(SHEETS)] for seed in tower_seeds(5)] == ["roll-to-the-top"] * 5
    assert min(tower_seeds(5)) >= 5000  # the tuning seeds, not the held-out figures' 1000-1099


def test_bench_doubt_counts_real_and_misread_verdicts():
    out = run("bench_doubt.py", "--photos", "2", "--kinds", "slips,random")
    slips = re.search(r"slips: the sheet's own broken rules found (\d+), marked \(\?\) (\d+) -> (\d+); "
                      r"a misread's broken rules (\d+), stated as sure (\d+) -> (\d+)", out)
    assert slips, out
    real, marked, marked_with, _, sure, sure_with = map(int, slips.groups())
    assert real >= 2 and marked <= marked_with <= real and sure_with <= sure
    assert "random: the sheet's own broken rules found" in out


def test_bench_formats_reads_heic_photos_as_jpegs_and_every_sheet_kind_scanned_into_a_pdf():
    out = run("bench_formats.py", "--repeat", "1", "--dpi", "200", "--megapixels", "1")
    assert sum("the same cells read" in line for line in out.splitlines()) == 4 and "OTHER CELLS READ" not in out
    rows = [line for line in out.splitlines() if "filled cells read right" in line]
    assert len(rows) == 8  # four sheet kinds, in colour and in grey
    for row in rows:
        right, filled, silent = (int(n) for n in re.search(r"read right (\d+)/(\d+), wrong and not flagged (\d+)",
                                                            row).groups())
        # a misread is flagged, never silent; at most two a sheet (a tower's touching digits
        # the two readers read apart: seed 3's 24 flagged as 34, 42 % sure, the cut's 24 named)
        assert filled > 10 and right >= filled - 2 and silent == 0, row


def test_bench_light_reads_grainy_photos_with_and_without_the_grain_check():
    def silent(*more: str) -> int:
        """The cells read wrong and not flagged in two photos with sensor noise of 25 grey levels."""
        out = run("bench_light.py", "--photos", "2", "--factors", "1", "--noise", "25", *more)
        [row] = [line for line in out.splitlines() if line.startswith("| noise 25 |")]
        return int(row.split("|")[4].split()[0])

    # the grain check flags what grain makes unreadable: at most one of 97 cells stays wrong
    # unflagged (BENCHMARKS: 14 of 999 at noise 25), against 10 without the check
    assert silent() <= 1 and silent("--no-grain") >= 5


def test_bench_finger_counts_the_numbers_a_fingertip_hides():
    out = run("bench_finger.py", "--photos", "2")
    assert re.search(r"^2 photos with a fingertip read \(0 refused\): \d+ numbers read otherwise without a flag, "
                     r"\d+ flagged$", out, re.M)


def test_bench_circled_reads_photos_full_of_circled_numbers():
    """Two photos (Rolling America, then Rolling España), a third of their boxes circled."""
    out = run("bench_circled.py", "--photos", "2")
    circled = re.search(r"^circled: (\d+) cells: right ([\d.]+)%", out, re.M)
    assert circled and int(circled[1]) > 10 and float(circled[2]) > 80
    assert "circled cells flagged, by reason:" in out and "2 photos (seeds 8000-8001)" in out


def test_bench_circled_draws_circles_round_the_box_when_asked():
    """--circles round: every circle clear of its box, none of them lost, flagged for it."""
    out = run("bench_circled.py", "--photos", "2", "--circles", "round")
    circled = re.search(r"^circled: (\d+) cells: .* circles lost without a flag (\d+)$", out, re.M)
    assert circled and int(circled[1]) > 10 and circled[2] == "0"
    assert "circles: round" in out and "a circle round the box: is the number guarded?" in out


def test_bench_shrunk_counts_boxes_by_how_finely_a_shrunk_copy_sees_the_page():
    """One photo shrunk to 8 sizes: the coarsest copies (under 1.8 px/mm) have every box
    flagged and none wrong unflagged; the bins' boxes add up to the copies read."""
    out = run("bench_shrunk.py", "--photos", "1", "--first-seed", "101")
    assert "1 photos (seeds 101-101), each shrunk to 800, 900, 1024" in out
    rows = re.findall(r"^(\d\.\d\d)-(?:\d\.\d\d| {4})\s+(\d+)\s+(\d+) \(\s*[\d.]+%\)\s+([\d.]+)%$", out, re.M)
    coarse = [(int(silent), float(flagged)) for lo, _, silent, flagged in rows if float(lo) < 1.8]
    assert coarse and all(silent == 0 and flagged == 100 for silent, flagged in coarse)
    refused = int(re.search(r"(\d+) copies refused", out)[1])
    assert sum(int(n) for _, n, _, _ in rows) % 67 == 0 and sum(int(n) for _, n, _, _ in rows) // 67 == 8 - refused


def test_bench_stranger_reads_a_set_in_the_truth_format(tmp_path):
    """A set of two photos, one of them missing: the other read, every cell kind counted, the
    missing photo reported as not read, a cell whose truth says otherwise listed as wrong."""
    import json

    from support import synth

    from rnwprint.core.entries import CROSSED
    from rnwprint.games import GAMES

    sheet = GAMES["twenty-one"].build("A", "es", "a4")
    marks = {cid: v for cid, v in synth.random_marks(sheet, 6).items() if sheet.cells[cid].kind == "number"}
    (tmp_path / "photos").mkdir()
    (tmp_path / "truth").mkdir()
    (tmp_path / "photos" / "one.jpg").write_bytes(synth.make_photo(sheet, marks, seed=6, megapixels=4.0))
    truth = {cid: "X" if v == CROSSED else str(v) for cid, v in marks.items()}
    lied = next(cid for cid, v in marks.items() if v != CROSSED)
    truth[lied] = str(marks[lied] % 6 + 1)  # another number than the one written
    for name in ("one", "two"):
        (tmp_path / "truth" / f"{name}.json").write_text(json.dumps({"cells": truth}))
    out = run("bench_stranger.py", str(tmp_path))
    assert "photos not read: 1 [('two.jpg'" in out
    filled = re.search(r"^  all filled: (\d+) cells, right ([\d.]+)%", out, re.M)
    assert filled and int(filled[1]) == len(marks) and float(filled[2]) < 100
    assert re.search(rf"^  one.jpg {lied}: {truth[lied]} read {marks[lied]} \(\d+%\)$", out, re.M)
    assert re.search(r"^  blank: \d+ cells, right 100.00%", out, re.M)
