"""Photo file headers read without decoding (JPEG and PNG parsed here, others by Pillow),
and a guard that catches what the C decoders print on stderr. Split out of photo.locate."""

from __future__ import annotations

import io
import os
import re
import sys
import tempfile
import warnings

_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif")
_DAMAGE = ("Corrupt JPEG data", "Premature end of JPEG file")  # libjpeg's words for bad data


def _quiet(decode):
    """(decode(), what it printed on stderr): the C decoders (libjpeg, libpng) print their
    warnings and errors straight to file descriptor 2, beside our own messages."""
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
        caught = tempfile.TemporaryFile()
    except (OSError, ValueError):
        return decode(), ""  # nowhere to put it: let it through
    with caught:
        try:
            saved = os.dup(2)
        except OSError:
            return decode(), ""  # no stderr to protect
        os.dup2(caught.fileno(), 2)
        try:
            result = decode()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        return result, caught.read(1 << 16).decode("utf-8", "replace")


def image_header(data: bytes) -> tuple[str | None, tuple[int, int] | None]:
    """(format, (width, height)) read from the header only; (None, None) if not an image.

    JPEG and PNG are parsed here; other formats are identified by Pillow (lazily, without
    decoding)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        if len(data) < 24 or data[12:16] != b"IHDR":
            return "PNG", None
        return "PNG", (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big"))
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG", _jpeg_size(data)
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as im:
                return im.format or "image", im.size
    except Image.DecompressionBombError:
        return "image", (1 << 16, 1 << 16)  # beyond Pillow's own limit: surely too large
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        return None, None


_STANDALONE = (0x01, *range(0xD0, 0xD8))  # markers without a length
_FRAMES = (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF)  # SOFn
_NEXT_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")  # in entropy-coded data


def _jpeg_segments(data: bytes):
    """(marker, offset) of each JPEG marker in order, up to the end-of-image marker (yielded)
    or to where the data runs out or breaks. After each start-of-scan the entropy-coded data
    is skipped to the next marker (0xFF there is always followed by 0x00 or a restart
    marker). Whatever follows the end of the image (a phone's appended video) is not read."""
    i, n = 2, len(data)
    while i + 2 <= n:
        if data[i] != 0xFF:
            return
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        yield marker, i
        if marker == 0xD9:
            return
        if marker in _STANDALONE:
            i += 2
            continue
        if i + 4 > n:
            return
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if length < 2:
            return
        i += 2 + length
        if marker == 0xDA:
            found = _NEXT_MARKER.search(data, i)
            if found is None:
                return
            i = found.start()


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The frame size from the SOFn segment."""
    for marker, i in _jpeg_segments(data):
        if marker in _FRAMES:
            if i + 9 > len(data):
                return None
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        if marker in (0xD9, 0xDA):  # end of image or scan before any frame
            return None
    return None


def _jpeg_complete(data: bytes) -> bool:
    """Whether the JPEG's segments and scans run on to the end-of-image marker."""
    return any(marker == 0xD9 for marker, _ in _jpeg_segments(data))
