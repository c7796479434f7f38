"""Sheets in a PDF: a scanner's or a phone's scan app's, or an rnwprint sheet written on in a
tablet app. Each page is drawn as a photo would show it (pypdfium2, of the `photo` extra)
and read like one; `pages_of` turns a PDF given to `read` or `audit` into its pages."""

from __future__ import annotations

import math
import os
import pathlib
from dataclasses import dataclass

from rnwprint.core.errors import RnwError

PDF_MAGIC = b"%PDF-"
#: a page is drawn at this many dots per inch: 7.9 px a millimetre, about what a 12 MP photo
#: of a whole page gives and twice the reader's floor, in 0.1-0.2 s a page
RENDER_DPI = 200
NEEDS = "reading a PDF needs pypdfium2, and it is not installed: pip install 'rnwprint[photo]'"


@dataclass(frozen=True)
class PdfPage:
    """Page `number` (from 1) of the PDF at `path`, of `pages` pages in all; names itself as
    the path for a PDF of one page."""

    path: pathlib.Path
    number: int
    pages: int

    def __str__(self) -> str:
        return str(self.path) if self.pages == 1 else f"{self.path}, page {self.number}"

    def __fspath__(self) -> str:  # the file it is in: what an output must not overwrite
        return os.fspath(self.path)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def stem(self) -> str:
        """The file name outputs are named after: `scans-page3` for page 3 of scans.pdf."""
        return self.path.stem if self.pages == 1 else f"{self.path.stem}-page{self.number}"


def is_pdf(head: bytes) -> bool:
    return head.startswith(PDF_MAGIC)


def pages_of(paths) -> list:
    """Each path, a PDF as its pages (PdfPage); a PDF that cannot be opened, or has no page,
    stays whole, so reading it says why in its place."""
    out = []
    for path in paths:
        if not _starts_as_pdf(path):
            out.append(path)
            continue
        try:
            count = _page_count(path)
        except RnwError:
            count = 0
        out.extend([PdfPage(pathlib.Path(path), k, count) for k in range(1, count + 1)] or [path])
    return out


def _starts_as_pdf(path) -> bool:
    if not os.path.isfile(path):  # a pipe is read once, by whoever reads it for good
        return False
    try:
        with open(path, "rb") as f:
            return is_pdf(f.read(len(PDF_MAGIC)))
    except OSError:
        return False  # reading it says why


def _open(path):
    try:
        import pypdfium2
    except ImportError:
        raise RnwError(NEEDS, str(path)) from None
    try:
        return pypdfium2.PdfDocument(os.fspath(path))
    except pypdfium2.PdfiumError as e:
        why = "it is protected by a password" if "password" in str(e).lower() else "it is damaged or not a PDF"
        raise RnwError(f"cannot open the PDF: {why}", str(path)) from None


def _page_count(path) -> int:
    document = _open(path)
    try:
        return len(document)
    finally:
        document.close()


def render_page(page: PdfPage | str | os.PathLike, colour: bool = False, max_pixels: int | None = None):
    """The page drawn at RENDER_DPI (less for a page so large it would pass `max_pixels`, by
    default photo.load's limit), grey or BGR uint8, as OpenCV takes them. A path names a PDF
    of one page. RnwError naming the page if it cannot."""
    import numpy as np

    from rnwprint.photo.load import MAX_PIXELS

    path, number = (page.path, page.number) if isinstance(page, PdfPage) else (page, 1)
    document = _open(path)
    try:
        if not isinstance(page, PdfPage) and len(document) != 1:
            raise RnwError(f"a PDF of {len(document)} pages: give it to `rnwprint read` or `audit`, "
                           "which read each page", str(page))
        if number > len(document):  # changed since its pages were counted
            raise RnwError(f"the PDF has only {len(document)} page(s) now", str(page))
        pdf_page = document[number - 1]
        width, height = pdf_page.get_size()  # in points, 72 an inch
        fit = math.sqrt((max_pixels or MAX_PIXELS) / ((width + 1) * (height + 1)))  # (+1: pixels round up)
        bitmap = pdf_page.render(scale=min(RENDER_DPI / 72, fit), grayscale=not colour)
        return np.array(bitmap.to_numpy())  # a copy: the bitmap's memory goes with the document
    finally:
        document.close()
