"""The load stage: a photo file read safely into a grey (or colour) array. Files that are
unreadable, not an image, too large (judged from the header, before decoding), truncated or
corrupt are refused with RnwError naming the file; the headers are read without decoding
(JPEG and PNG parsed here, others by Pillow), and a guard catches what the C decoders print
on stderr. An iPhone's HEIC photo is decoded by pillow-heif, a PDF's pages drawn by photo.pdf."""

from __future__ import annotations

import io
import math
import os
import re
import sys
import tempfile
import warnings

import numpy as np

from rnwprint.core.errors import RnwError
from rnwprint.core.inputs import cannot_read, open_input
from rnwprint.photo.magic import HEIF_BRANDS, format_by_magic

MAX_PIXELS = 50_000_000  # a 50 MP photo; anything larger is refused before decoding
MAX_FILE_BYTES = 4 * MAX_PIXELS  # more than 4 bytes a pixel is no photo: refused before reading it all
TRUNCATED_JPEG = "truncated JPEG file (the image data stops early): copy the photo again"
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


def load_photo(path, colour: bool = False) -> np.ndarray:
    """Read a photo file into a grey (or, with colour=True, BGR) uint8 array.

    Refuses, with RnwError naming the file: unreadable and empty files, files that are not
    an image, images over MAX_PIXELS (from the header, before any decoding), and truncated
    or corrupt images."""
    return load_photo_noting_damage(path, colour)[0]


def load_photo_noting_damage(path, colour: bool = False) -> tuple[np.ndarray, str]:
    """`load_photo`, and what the decoder said was damaged in a file it still decoded
    (a JPEG whose data is corrupt in places decodes with garbage there); "" if nothing.
    A PDF (a scan) is drawn page by page (photo.pdf); `path` may name one of its pages."""
    from rnwprint.photo.pdf import PdfPage, is_pdf, render_page

    if isinstance(path, PdfPage):
        return render_page(path, colour), ""
    where = str(path)
    try:
        with open_input(path) as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except IsADirectoryError:
        raise RnwError("a folder with no photo in it (JPEG, PNG, HEIC or PDF)", where) from None
    except OSError as e:
        raise RnwError(cannot_read(e, path), where) from None
    if len(data) > MAX_FILE_BYTES:
        raise RnwError(f"file larger than {MAX_FILE_BYTES / 1e6:g} MB: too large for a photo of at most "
                       f"{MAX_PIXELS / 1e6:g} MP", where)
    if is_pdf(data):  # a scan (of one page: pdf.pages_of splits longer ones)
        return render_page(path, colour), ""
    return decode_photo_noting_damage(data, where, colour)


def _refuse_if_too_large(w: int, h: int, where: str | None) -> None:
    """RnwError for an image of more than MAX_PIXELS, told from its header before decoding."""
    if w * h > MAX_PIXELS:
        raise RnwError(f"image too large to be a photo: {w}x{h} = {math.ceil(w * h / 1e5) / 10:g} MP "
                       f"(at most {MAX_PIXELS / 1e6:.0f} MP); refused before decoding", where)


def _decode_heif(data: bytes, where: str | None, colour: bool) -> np.ndarray:
    """An iPhone's HEIC photo (HEIF), decoded by pillow-heif (of the `photo` extra)."""
    import cv2

    try:
        import pillow_heif
    except ImportError:
        raise RnwError("a HEIC/HEIF photo needs pillow-heif, and it is not installed: pip install "
                       "'rnwprint[photo]', or export the photo as JPEG (on an iPhone: Settings > Camera > "
                       "Formats > Most Compatible)", where) from None
    try:
        heif = pillow_heif.open_heif(io.BytesIO(data), convert_hdr_to_8bit=True)
        _refuse_if_too_large(*heif.size, where)
        rgb = np.asarray(heif)
    except (ValueError, RuntimeError, OSError, SyntaxError):
        raise RnwError("cannot decode the HEIC image: the file is truncated or corrupt", where) from None
    if rgb.ndim == 2:
        return cv2.cvtColor(rgb, cv2.COLOR_GRAY2BGR) if colour else np.ascontiguousarray(rgb)
    alpha = rgb.shape[2] == 4
    code = ((cv2.COLOR_RGBA2BGR if alpha else cv2.COLOR_RGB2BGR) if colour else
            (cv2.COLOR_RGBA2GRAY if alpha else cv2.COLOR_RGB2GRAY))
    return cv2.cvtColor(rgb, code)


def decode_photo(data: bytes, where: str | None = None, colour: bool = False) -> np.ndarray:
    """`load_photo` for bytes already in memory."""
    return decode_photo_noting_damage(data, where, colour)[0]


def _damaged_kind(data: bytes) -> str | None:
    """The format an image file that Pillow could not open starts as (a GIF, WebP, TIFF or BMP
    cut short or damaged); None if it starts as none of them."""
    if data[:2] == b"BM" and int.from_bytes(data[2:6], "little") == len(data):
        return "BMP"  # "BM" starts much text too: only with its own length in bytes 2-5
    kind = format_by_magic(data)
    return kind if kind in ("GIF", "WebP", "TIFF") else None


def _png_complete(data: bytes) -> bool:
    """Whether the PNG's chunks, walked by their lengths, reach its end chunk (IEND): data
    appended after it (as some apps do) leaves it far from the file's end."""
    pos = 8
    while pos + 8 <= len(data):
        if data[pos + 4:pos + 8] == b"IEND":
            return True
        pos += 12 + int.from_bytes(data[pos:pos + 4], "big")
    return False


def decode_photo_noting_damage(data: bytes, where: str | None = None, colour: bool = False) -> tuple[np.ndarray, str]:
    """`load_photo_noting_damage` for bytes already in memory."""
    import cv2

    if not data:
        raise RnwError("empty file, not a photo", where)
    kind, size = image_header(data)
    if kind is None and data[4:8] == b"ftyp" and data[8:12] == b"avif":
        raise RnwError("an AVIF image, a format rnwprint cannot decode: export it as JPEG", where)
    if kind is None and data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS:
        return _decode_heif(data, where, colour), ""
    damaged = _damaged_kind(data) if kind is None else None
    if damaged:
        raise RnwError(f"corrupt {damaged} file: it cannot be decoded; copy the image again, or export it as JPEG",
                       where)
    if kind is None:
        raise RnwError("not an image (expected a JPEG or PNG photo)", where)
    if size is None:
        raise RnwError(f"corrupt {kind} file: cannot read the image size", where)
    w, h = size
    _refuse_if_too_large(w, h, where)
    if w == 0 or h == 0:
        raise RnwError(f"corrupt {kind} file: the image is {w}x{h}", where)
    # a JPEG that ends in its end-of-image marker is walked to it only if the decoder stumbles
    # (a truncation cannot leave those two bytes last; walking a 3 MB file takes 0.8 ms)
    ends = kind == "JPEG" and data.endswith(b"\xff\xd9")
    if kind == "JPEG" and not ends and not _jpeg_complete(data):
        raise RnwError(TRUNCATED_JPEG, where)
    if kind == "PNG" and data.rfind(b"IEND", max(0, len(data) - 4096)) < 0 and not _png_complete(data):
        raise RnwError("truncated PNG file (no end chunk): copy the image again", where)
    flags = cv2.IMREAD_COLOR if colour else cv2.IMREAD_GRAYSCALE
    image, said = _quiet(lambda: cv2.imdecode(np.frombuffer(data, np.uint8), flags))
    if ends and (image is None or said) and not _jpeg_complete(data):
        raise RnwError(TRUNCATED_JPEG, where)
    if image is None:
        raise RnwError(f"cannot decode the {kind} image: the file is truncated or corrupt", where)
    damage = [line.strip() for line in said.splitlines() if line.startswith(_DAMAGE)]
    return image, damage[0] if damage else ""
