"""Reading phone photos of printed sheets: locating the page, reading the cells, digit/mark classifier."""

from rnwprint.core.errors import RnwError
from rnwprint.core.report import ADVISED_PX_PER_MM, decimal, light_text
from rnwprint.locale import t

#: what reading a photo needs beyond rnwprint's own dependencies (the `photo` extra)
NEEDS = ("numpy", "cv2")


def photo_reader(where: str):
    """The photo reader (rnwprint.photo.pipeline); RnwError naming `where` (the photo) if
    numpy or OpenCV is not installed (a plain `pip install rnwprint` leaves OpenCV out; numpy
    comes with it, but a broken install may lack it)."""
    try:
        from rnwprint.photo import pipeline as reader
    except ImportError as e:
        if e.name not in NEEDS:
            raise
        raise RnwError(f"reading photos needs numpy and OpenCV, and {'OpenCV' if e.name == 'cv2' else e.name} "
                       "is not installed: pip install 'rnwprint[photo]'", where) from None
    return reader


def too_coarse(px_per_mm: float) -> bool:
    """Whether a photo seeing the page at `px_per_mm` is too coarse to read digits well."""
    return px_per_mm < ADVISED_PX_PER_MM


def coarse_advice(px_per_mm: float, lang: str = "en") -> str:
    """What to do next time about a photo that sees the page at `px_per_mm`, or "" if nothing."""
    if not too_coarse(px_per_mm):
        return ""
    return t(lang, "audit.coarse_photo", px=decimal(px_per_mm, ".1f", lang), good=f"{ADVISED_PX_PER_MM:.0f}")


def light_advice(light: dict[str, int], lang: str = "en") -> str:
    """What to do next time about a photo whose light left cells unreadable for sure, as
    {"dark": cells, "bright": cells} (see photo.read: cells too dark or washed out), or ""."""
    from rnwprint.photo.read import DARK_PAPER

    return light_text(light, DARK_PAPER, lang)
