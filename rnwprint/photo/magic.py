"""Image formats told from a file's first bytes, before any image library loads (a typed-in
text file never loads one): what `audit` takes for a photo, what `read` names a damaged file."""

from __future__ import annotations

#: HEIF brands: an iPhone's HEIC photos
HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1")
_MAGIC = ((0, b"\xff\xd8\xff", "JPEG"), (0, b"\x89PNG\r\n\x1a\n", "PNG"), (0, b"GIF8", "GIF"),
          (0, b"II*\x00", "TIFF"), (0, b"MM\x00*", "TIFF"), (8, b"WEBP", "WebP"),
          (4, b"ftypavif", "AVIF"), (0, b"%PDF-", "PDF"))  # a PDF: a scan, read page by page as photos


def format_by_magic(head: bytes) -> str | None:
    """'JPEG', 'PNG', 'GIF', 'TIFF', 'WebP', 'AVIF', 'PDF' or 'HEIC' by the file's first bytes;
    None for anything else."""
    if head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS:
        return "HEIC"
    for offset, magic, kind in _MAGIC:
        if head[offset:offset + len(magic)] == magic:
            return kind
    return None
