"""The QR code's data mask chosen as segno chooses it, in numpy.

segno scores each of the eight masks with the penalty rules of ISO/IEC 18004 (7.8.3) in pure
Python: 5-7 ms a code, most of the time a custom tower's sheet takes to build. Here segno makes
the code once with mask 0 (no scoring); the eight masked matrices are scored at once in
numpy, rule for rule as segno scores them (its quirks included: the remainder modules it leaves
at 2 or 3, its N3 scan), so the code chosen and its bytes are the same.
"""

from __future__ import annotations

import functools

import numpy as np

#: the eight QR data masks (ISO/IEC 18004 table 10); i = row, j = column
_MASKS = (
    lambda i, j: (i + j) % 2 == 0,
    lambda i, j: i % 2 == 0,
    lambda i, j: j % 3 == 0,
    lambda i, j: (i + j) % 3 == 0,
    lambda i, j: (i // 2 + j // 3) % 2 == 0,
    lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
    lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
    lambda i, j: ((i + j) % 2 + (i * j) % 3) % 2 == 0,
)
_FINDER_LIKE = (1, 0, 1, 1, 1, 0, 1)


def qr_code(payload: str, **options) -> tuple[int, tuple[bytearray, ...]]:
    """The mask and the modules (rows of 0 and 1) of segno.make(payload, **options) for a QR
    code (not micro), with the mask segno would choose."""
    import segno
    from segno import consts, encoder

    first = segno.make(payload, mask=0, **options)
    version = first.version
    template, data = _layout(version)
    masks = _mask_stack(template.shape[0])
    unmasked = np.where(data, np.array(first.matrix, np.int16) ^ masks[0], template)  # format areas back to 0
    candidates = np.where(data, unmasked ^ masks, unmasked)
    best = int(np.argmin(penalties(candidates)))  # the first of the lowest, as segno's "<"
    matrix = tuple(bytearray(row) for row in candidates[best].tolist())
    encoder.add_format_info(matrix, version, consts.ERROR_MAPPING[first.error], best)
    encoder.add_version_info(matrix, version)
    return best, matrix


def penalties(matrices: np.ndarray) -> np.ndarray:
    """segno's evaluate_mask of each matrix of the stack (k, n, n)."""
    return _n1(matrices) + _n2(matrices) + _n3(matrices) + _n4(matrices)


@functools.cache
def _layout(version: int) -> tuple[np.ndarray, np.ndarray]:
    """The matrix before the codewords go in (function patterns, reserved format and version
    areas at 0, the data region at 2), and where the data region is."""
    from segno import encoder

    n = 17 + 4 * version
    matrix = encoder.make_matrix(n, n)
    encoder.add_finder_patterns(matrix, n, n)
    encoder.add_alignment_patterns(matrix, n, n)
    template = np.array(matrix, np.int16)
    return template, template > 1


@functools.cache
def _mask_stack(n: int) -> np.ndarray:
    i, j = np.indices((n, n))
    return np.stack([mask(i, j) for mask in _MASKS]).astype(np.int16)


def _n1(m: np.ndarray) -> np.ndarray:
    """Runs of five or more equal modules in a row or a column: 3 + (length - 5) each."""
    lines = np.concatenate((m, m.transpose(0, 2, 1)), axis=1)  # (8, 2n, n)
    k, rows, n = lines.shape
    flat = lines.reshape(k * rows, n)
    starts = np.ones(flat.shape, bool)
    starts[:, 1:] = flat[:, 1:] != flat[:, :-1]
    labels = np.cumsum(starts.ravel()) - 1
    lengths = np.bincount(labels)
    first_of_run = np.flatnonzero(starts.ravel())
    owner = first_of_run // (rows * n)  # which mask each run belongs to
    penalty = np.where(lengths >= 5, lengths - 2, 0)
    return np.bincount(owner, weights=penalty, minlength=k).astype(np.int64)


def _n2(m: np.ndarray) -> np.ndarray:
    """2 x 2 blocks of one colour: 3 each."""
    same = ((m[:, 1:, 1:] == m[:, 1:, :-1]) & (m[:, 1:, :-1] == m[:, :-1, 1:])
            & (m[:, :-1, 1:] == m[:, :-1, :-1]))
    return 3 * same.sum(axis=(1, 2))


def _n3(m: np.ndarray) -> np.ndarray:
    """1:1:3:1:1 finder-like runs with four light modules on a side: 40 each, found the way
    segno's scan finds them (after a counted one it resumes past it, else 4 modules on)."""
    k, n, _ = m.shape
    lines = np.concatenate((m, m.transpose(0, 2, 1)), axis=1)  # (8, 2n, n)
    found = np.ones((k, 2 * n, n - 6), bool)  # the pattern starts here
    for t, colour in enumerate(_FINDER_LIKE):
        found &= lines[:, :, t:t + n - 6] == colour
    dark = np.zeros(lines.shape[:2] + (n + 1,), np.int32)
    np.cumsum(lines != 0, axis=2, out=dark[:, :, 1:])  # dark[.., b] - dark[.., a]: dark ones in [a, b)
    idx = np.arange(n - 6)
    light_before = dark[:, :, idx] == dark[:, :, np.maximum(idx - 4, 0)]
    light_after = dark[:, :, np.minimum(idx + 11, n)] == dark[:, :, idx + 7]
    counted = found & (light_before | light_after)
    scores = 40 * counted.sum(axis=(1, 2))
    # two finds closer than 7 modules in a line: the scan may skip the second, so follow it
    close = np.zeros(found.shape[:2], bool)
    for d in range(1, 7):
        close |= (found[:, :, d:] & found[:, :, :-d]).any(axis=2)
    masks = np.nonzero(close)[0].tolist()
    for mask, finds, counts in zip(masks, found[close].tolist(), counted[close].tolist()):
        resume = 0
        for i, (find, count) in enumerate(zip(finds, counts)):
            if not find:
                continue
            if i < resume:
                scores[mask] -= 40 * count
            else:
                resume = i + 7 if count else i + 4
    return scores


def _n4(m: np.ndarray) -> np.ndarray:
    """How far the dark share is from half, in steps of 5 %: 10 a step (segno's sum, in which
    a remainder module left at 2 or 3 counts 2 or 3)."""
    n = m.shape[1]
    totals = m.sum(axis=(1, 2), dtype=np.int64)
    return np.array([10 * int(abs(float(t) / (n * n) * 100 - 50) / 5) for t in totals])
