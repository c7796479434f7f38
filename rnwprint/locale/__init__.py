"""Every printed or reported word, in Spanish and English (data in es.toml / en.toml)."""

from __future__ import annotations

import functools
import pathlib
import tomllib

LANGUAGES = ("es", "en")
_HERE = pathlib.Path(__file__).parent


@functools.cache
def _strings(lang: str) -> dict[str, str]:
    with open(_HERE / f"{lang}.toml", "rb") as f:
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
