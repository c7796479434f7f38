"""Every printed or reported word, in Spanish and English (data in es.toml / en.toml)."""

from __future__ import annotations

import functools
import tomllib

from rnwprint.data import data_path

LANGUAGES = ("es", "en")


@functools.cache
def _strings(lang: str) -> dict[str, str]:
    with open(data_path("locale", f"{lang}.toml"), "rb") as f:
        data = tomllib.load(f)
    flat: dict[str, str] = {}
    for section, entries in data.items():
        for key, value in entries.items():
            flat[f"{section}.{key}"] = value
    return flat


def t(lang: str, key: str, **values: object) -> str:
    """The string `key` ("section.name") in `lang`, formatted with `values`."""
    text = _strings(lang)[key]
    return text.format(**values) if values else text
