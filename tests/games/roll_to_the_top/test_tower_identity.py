"""A custom tower's sheet is rebuilt from its photo alone, in another process (issue 15).

The identity QR carries the tower's code (variant ``t.CODE``); a long code makes a bigger QR
code, while every built-in sheet keeps the version-3 code it always had. Printing, and making
the photo, happen in this process; reading happens in a fresh ``python -m rnwprint``, which
never saw the tower.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import subprocess
import sys

import pypdf
import pytest

from rnwprint.core.sheet import IDENTITY
from rnwprint.games import GAMES
from rnwprint.games.roll_to_the_top import game as rtt
from rnwprint.games.roll_to_the_top.sheet import build, build_tower
from rnwprint.games.roll_to_the_top.tower import Tower, TowerError
from rnwprint.games.roll_to_the_top.tower_code import encode
from rnwprint.games.roll_to_the_top.tower_input import from_picture, parse_ascii
from rnwprint.layout.page import MARGIN

cv2 = pytest.importorskip("cv2")
from project import ROOT
from support.synth import make_photo, with_identity  # noqa: E402  (needs OpenCV)


def rnwprint(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rnwprint", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def printed_code(pdf) -> str:
    """The tower code as printed (in groups of four: 7KD3-M9QX-2B) in the sheet's title, or
    when too long for it in lines under the legend, read back with pypdf."""
    text = pypdf.PdfReader(pdf).pages[0].extract_text()
    found = (re.search(r"Custom tower ([0-9A-Z]{1,4}(-[0-9A-Z]{1,4})*)\n", text)
             or re.search(r"Tower code: ((?:[0-9A-Z]{4}-\n?)*[0-9A-Z]{1,4})\n", text))
    return re.sub(r"[-\n]", "", found.group(1))


def qr_module_count(sheet) -> int:
    (qr,) = sheet.having(IDENTITY)
    return len(qr.rows)


def read_in_a_new_process(sheet, tmp_path, marks, megapixels=4.0, seed=1):
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(make_photo(sheet, marks, seed=seed, megapixels=megapixels))
    result = rnwprint("read", photo, "--json")
    assert result.returncode == 0, result.stderr
    return photo, json.loads(result.stdout)


def some_marks(tower: Tower) -> dict:
    """A few one-digit numbers on the ground row, rising by one a row above."""
    return {cid: row + 2 for cid, (row, _) in zip(tower.ids, tower.squares) if row < 2}


def assert_read_back(data: dict, tower: Tower, code: str, marks: dict) -> None:
    assert (data["game"], data["variant"], data["lang"]) == ("roll-to-the-top", "t." + code, "en")
    assert set(data["cells"]) <= set(tower.ids)
    unsure = {u["cell"] for u in data["unsure"]}
    wrong = {cid: data["cells"].get(cid) for cid, v in marks.items() if cid not in unsure and data["cells"].get(cid) != v}
    assert wrong == {}


def test_random_tower_printed_by_one_process_reads_back_in_another(tmp_path):
    pdf = tmp_path / "t.pdf"
    printed = rnwprint("tower", "--random", "--seed", "3", "--lang", "en", "-o", pdf)
    assert printed.returncode == 0, printed.stderr
    code = printed_code(pdf)
    tower = rtt.tower_from_text(code)
    sheet = build(rtt.custom_variant_name(tower), "en", "a4")
    marks = some_marks(tower)
    photo, data = read_in_a_new_process(sheet, tmp_path, marks)
    assert_read_back(data, tower, code, marks)
    audit = rnwprint("audit", photo, "--json")
    assert audit.returncode in (0, 1), audit.stderr
    assert json.loads(audit.stdout)["details"]["squares"] == len(tower)


def test_the_printed_pdf_itself_carries_the_code_in_its_qr(tmp_path):
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    pdf = tmp_path / "t.pdf"
    assert rnwprint("tower", "--random", "--seed", "3", "--lang", "en", "-o", pdf).returncode == 0
    subprocess.run(["pdftoppm", "-png", "-r", "150", pdf, tmp_path / "page"], check=True)
    (png,) = tmp_path.glob("page*.png")
    text, *_ = cv2.QRCodeDetector().detectAndDecode(cv2.imread(str(png), cv2.IMREAD_GRAYSCALE))
    assert text == f"rnwprint:roll-to-the-top:t.{printed_code(pdf)}:en:a4:2"


ASCII_TOWER = """\
   []
  [][]
 [][][]    []
[][][][][][][]
"""


def test_ascii_tower_reads_back_in_a_new_process(tmp_path):
    art = tmp_path / "tower.txt"
    art.write_text(ASCII_TOWER)
    pdf = tmp_path / "t.pdf"
    assert rnwprint("tower", "--ascii", art, "--lang", "en", "--descending", "-o", pdf).returncode == 0
    code = printed_code(pdf)
    tower = parse_ascii(ASCII_TOWER)
    sheet = build_tower(tower, "en", "a4", descending=True)
    _, data = read_in_a_new_process(sheet, tmp_path, {"A1": 4, "A7": 6})
    assert data["variant"] == f"t.{code}-desc"
    assert (data["cells"]["A1"], data["cells"]["A7"]) == (4, 6)


def test_picture_tower_reads_back_in_a_new_process(tmp_path):
    from PIL import Image, ImageDraw

    picture = tmp_path / "spire.png"
    img = Image.new("L", (300, 400), 255)
    ImageDraw.Draw(img).polygon([(150, 10), (280, 390), (20, 390)], fill=0)
    img.save(picture)
    pdf = tmp_path / "t.pdf"
    assert rnwprint("tower", "--picture", picture, "--columns", "9", "--lang", "en", "-o", pdf).returncode == 0
    code = printed_code(pdf)
    tower = from_picture(picture, 9)
    sheet = build_tower(tower, "en", "letter")
    marks = some_marks(tower)
    _, data = read_in_a_new_process(sheet, tmp_path, marks, seed=2)
    assert_read_back(data, tower, code, marks)
    assert data["page"] == "letter"


def test_a_200_square_tower_gets_a_bigger_qr_that_reads_from_a_1_mp_photo(tmp_path):
    tower = rtt.random_towers(3, 1, squares=200, max_width=25)[0]
    sheet = build_tower(tower, "en", "a4")
    assert qr_module_count(sheet) == 37  # version 5: its identity has 67 bytes, version 4 holds 62
    _, data = read_in_a_new_process(sheet, tmp_path, {}, megapixels=1.0)
    assert data["variant"] == sheet.identity.variant and len(data["variant"]) > 20


def intricate(seed: int, rows: int, across: int) -> Tower:
    """Full ground row; above it squares a random 1-2 squares apart, each resting on one below:
    playable, and its code grows with every row."""
    rng = random.Random(seed)
    below = [2 * i for i in range(across)]
    squares = [(0, c) for c in below]
    for row in range(1, rows):
        here, c = [], rng.randint(0, 2)
        while c < 2 * across - 2:
            if any(abs(c - b) < 2 for b in below):
                here.append(c)
            c += rng.choice([2, 2, 3, 3, 4])
        squares += [(row, c) for c in here]
        below = here
    return Tower.of(squares).check()


def test_an_intricate_tower_needs_a_version_7_qr_and_reads_back(tmp_path):
    tower = intricate(1, 23, 22)
    sheet = build_tower(tower, "en", "a4")
    assert len(sheet.identity.encode()) == 121 and qr_module_count(sheet) == 45  # 106 < 121 <= 122 (v7, M)
    # the QR code grows up from the bottom margin, and the tower stays clear of it
    (qr,) = sheet.having(IDENTITY)
    assert qr.y + 45 * qr.module == pytest.approx(sheet.height - MARGIN)
    assert max(c.bounds[3] for c in sheet.cells.values()) < qr.y - 3
    _, data = read_in_a_new_process(sheet, tmp_path, {"A1": 5}, megapixels=2.0)
    assert data["variant"] == sheet.identity.variant and data["cells"].get("A1") == 5


def test_a_tower_whose_code_is_too_long_for_any_qr_is_refused_with_its_length():
    tower = intricate(2, 60, 40)
    with pytest.raises(TowerError, match=r"too intricate for the sheet's QR code: its code has \d{3} characters, "
                                         r"at most 178 fit"):  # 213 bytes less 35 for rnwprint:roll-to-the-top:t.:en:a4:1
        build_tower(tower, "en", "a4")


def test_a_typed_in_file_naming_the_code_audits_in_a_new_process(tmp_path):
    # no drawing: the variant alone names the tower, with no state left from printing it
    code = rtt.custom_variant_name(parse_ascii(ASCII_TOWER))[2:]
    typed = tmp_path / "mine.toml"
    typed.write_text(f'game = "roll-to-the-top"\nvariant = "t.{code}"\n[cells]\nA1 = 3\nB1 = 2\n')
    result = rnwprint("audit", typed, "--json", "--lang", "en")
    assert result.returncode == 1
    assert json.loads(result.stdout)["violations"][0]["message"] == (
        "B1: 2 is less than the 3 in A1, which it rests on")


def test_readme_custom_tower_example_runs_as_written(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r'```toml\n(game = "roll-to-the-top"\nvariant = "t\..*?)```', readme, re.S).group(1)
    typed = tmp_path / "mine.toml"
    typed.write_text(example)
    result = rnwprint("audit", typed, "--json")
    assert result.returncode in (0, 1), result.stderr
    assert json.loads(result.stdout)["details"]["squares"] == 6


def test_an_unknown_code_is_an_unknown_variant():
    with pytest.raises(ValueError, match=r"unknown variant 't\.zz!' .* or a custom tower t\.CODE"):
        rtt.parse_variant("t.zz!")


def test_a_code_of_an_unplayable_tower_is_refused_naming_the_squares():
    # "[]  []": two ground squares a square apart are not one tower
    code = encode(Tower.of([(0, 0), (0, 4)]))
    with pytest.raises(ValueError, match="unplayable tower: not connected to the rest of the tower: A2"):
        rtt.parse_variant(rtt.CUSTOM + code)


# Built-in sheets keep the QR code they always had: the digest of every built-in sheet's QR
# (modules and place), as printed before custom towers carried their code (commit 1049390);
# changed since on purpose only: layout v2 of every game (Roll to the Top: larger, centred
# squares; the maps: the round track's numbers above its boxes; Twenty One: rows lower), the
# maps' layout v3 (write boxes by their states) and Catan's two sheets added.
BUILTIN_QR_DIGEST = "678e1e7cff61d111471076594220d352f9e5e430b1ffdd6465f7756f82dec568"


def test_builtin_sheets_keep_their_version_3_qr_codes():
    digest = hashlib.sha256()
    for name, game in GAMES.items():
        variants = list(game.variants) + ([v + "-desc" for v in game.variants] if name == rtt.NAME else [])
        for variant in variants:
            for lang in ("es", "en"):
                for page in ("a4", "letter"):
                    sheet = game.build(variant, lang, page)
                    (qr,) = sheet.having(IDENTITY)
                    assert len(qr.rows) == 29, (variant, lang, page)
                    digest.update(f"{variant}:{lang}:{page}:{qr.x:.3f}:{qr.y:.3f}:{qr.module}:"
                                  f"{''.join(qr.rows)}\n".encode())
    assert digest.hexdigest() == BUILTIN_QR_DIGEST


def test_a_photo_relabelled_with_a_longer_identity_keeps_its_qr_on_the_bottom_margin(tmp_path):
    sheet = build("burj", "en", "a4")
    tower = rtt.random_towers(3, 1, squares=200, max_width=25)[0]
    other = build_tower(tower, "en", "a4")
    relabelled = with_identity(sheet, other.identity)
    assert qr_module_count(relabelled) == 37
    _, data = read_in_a_new_process(relabelled, tmp_path, {}, megapixels=2.0)
    assert data["variant"] == other.identity.variant  # the tower the QR names, not the burj drawn
