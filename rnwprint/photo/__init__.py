"""Reading phone photos of printed sheets: locating the page, reading the cells, digit/mark classifier."""

from rnwprint.core.report import ADVISED_PX_PER_MM, light_text
from rnwprint.locale import t


def too_coarse(px_per_mm: float) -> bool:
    """Whether a photo seeing the page at `px_per_mm` is too coarse to read digits well."""
    return px_per_mm < ADVISED_PX_PER_MM


def coarse_advice(px_per_mm: float, lang: str = "en") -> str:
    """What to do next time about a photo that sees the page at `px_per_mm`, or "" if nothing."""
    if not too_coarse(px_per_mm):
        return ""
    return t(lang, "audit.coarse_photo", px=f"{px_per_mm:.1f}", good=f"{ADVISED_PX_PER_MM:.0f}")


def light_advice(light: dict[str, int], lang: str = "en") -> str:
    """What to do next time about a photo whose light left cells unreadable for sure, as
    {"dark": cells, "bright": cells} (see photo.read: cells too dark or washed out), or ""."""
    from rnwprint.photo.read import DARK_PAPER

    return light_text(light, DARK_PAPER, lang)
