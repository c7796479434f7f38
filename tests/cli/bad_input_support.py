"""What the bad-input tests share: a good typed-in sheet, the one-line check, a PNG header."""

from __future__ import annotations

import struct
import zlib

GOOD = 'game = "twenty-one"\n[cells]\nR1C1 = 6\n'


def one_line(result) -> str:
    """The single stderr line of a refused file (fails if there is not exactly one)."""
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert "Traceback" not in result.err
    return lines[0]


def png_header(width: int, height: int, colour_type: int) -> bytes:
    """A PNG whose header claims width x height (8 bits a channel); the data is a few rows, which
    is all a decoder would reach if it started (it must not)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(1000)))
            + chunk(b"IEND", b""))
