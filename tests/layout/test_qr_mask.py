"""The QR mask chosen in numpy is the one segno chooses, module for module."""

import random
import string

import numpy as np
import pytest
import segno
from segno.encoder import evaluate_mask, mask_scores

from rnwprint.layout.page import qr_rows
from rnwprint.layout.qr_mask import _n1, _n2, _n3, _n4, penalties, qr_code

ALPHABETS = (string.digits, string.ascii_uppercase + string.digits + " $%*+-./:",
             string.ascii_letters + string.digits + "._-~;,=", "áéíñü€" + string.ascii_lowercase)


def _payloads(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        alphabet = rng.choice(ALPHABETS)
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 150)))
        yield text, {"error": rng.choice("lmqh"), "micro": False, "boost_error": rng.random() < 0.2}


@pytest.mark.parametrize("seed", range(4))
def test_the_same_mask_and_modules_as_segno(seed):
    """Every rule and quirk of segno's scoring matters to some payload: 60 payloads of every
    mode, error level and version (1 to 14, with and without version information) a seed."""
    for text, options in _payloads(seed, 60):
        expected = segno.make(text, **options)
        mask, matrix = qr_code(text, **options)
        assert (mask, matrix) == (expected.mask, expected.matrix), (text, options)


def test_every_mask_is_chosen_for_some_payload():
    chosen = {qr_code(text, **options)[0] for text, options in _payloads(9, 120)}
    assert chosen == set(range(8))


def test_a_custom_towers_identity_is_the_code_segno_makes():
    payload = "rtt1.es.a4.t." + "3f9a2bZk-" * 17  # a custom tower's code: version 9 or 10
    expected = segno.make(payload, error="m", micro=False, boost_error=False)
    assert qr_rows(payload) == tuple("".join("1" if v else "0" for v in row) for row in expected.matrix)


def _matrices(seed: int, n: int) -> np.ndarray:
    """Eight n x n matrices of every darkness, rich in finder-like runs (some overlapping,
    some at the edges) and in the 2s and 3s segno leaves in remainder modules."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(8):
        m = (rng.random((n, n)) < rng.uniform(0.05, 0.95)).astype(np.int16)
        for _ in range(rng.integers(0, 3 * n)):  # 1011101, 10111011101, 1011101011101 ...
            tail = ([], [1, 1, 0, 1], [0, 1, 1, 1, 0, 1], [1, 0, 1, 1, 1, 0, 1])[rng.integers(0, 4)]
            piece = np.array([1, 0, 1, 1, 1, 0, 1] + tail, np.int16)
            row, col = rng.integers(0, n), rng.integers(0, n - len(piece) + 1)
            if rng.random() < 0.5:
                m[row, col:col + len(piece)] = piece
            else:
                m[col:col + len(piece), row] = piece
        m[rng.random((n, n)) < 0.01 * (k % 3)] += 2
        if k == 0:  # two runs end to end, light on the outer sides: segno counts both
            m[n // 2, :21] = [0, 0, 0, 0] + [1, 0, 1, 1, 1, 0, 1] * 2 + [0, 0, 0]
        # end to end and both counted, in a line where two more overlap (so the scan is followed)
        line = [0, 0, 0, 0] + [1, 0, 1, 1, 1, 0, 1] * 2 + [0, 0, 0, 0] + [1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1]
        if k == 1 and n >= len(line):
            m[n // 2, :len(line)] = line
        out.append(m)
    return np.stack(out)


@pytest.mark.parametrize("seed", range(6))
def test_each_penalty_rule_scores_as_segno(seed):
    n = 21 + 4 * seed
    matrices = _matrices(seed, n)
    ours = np.stack((_n1(matrices), _n2(matrices), _n3(matrices), _n4(matrices)), axis=1)
    rows = [tuple(bytearray(r) for r in m.tolist()) for m in matrices]
    assert ours.tolist() == [list(mask_scores(m, n, n)) for m in rows]
    assert penalties(matrices).tolist() == [evaluate_mask(m, n, n) for m in rows]
