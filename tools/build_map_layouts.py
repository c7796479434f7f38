#!/usr/bin/env python3
"""Bake the fitted map layouts of Rolling America and Rolling España into the package.

Fitting a map to a page and placing its write boxes takes seconds (shapely, a seeded search);
every `rnwprint sheet` and every photo read would redo it. This tool does it once per map x
page size and writes ``assets/maps/layout-GAME-PAGE.json``: the map's scale and
place, the drawn outlines (to 0.01 mm), the write boxes and their leaders, and a key, the
digest of everything the layout is made from (layout_key in rnwprint/games/rolling/sheet.py). At run time a layout whose
key differs from the current one is not used: the map is fitted again, so a stale file can
cost time but never change a sheet. tests/layout/test_write_boxes.py checks the shipped files are
current and that a sheet prints the same bytes either way.

    python tools/build_map_layouts.py          # write the files
    python tools/build_map_layouts.py --check  # exit 1 if a file is missing or stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rnwprint.data import data_path  # noqa: E402
from rnwprint.games.rolling import sheet as rolling_sheet  # noqa: E402

GAMES = ("rolling-america", "rolling-espana")
PAGES = ("a4", "letter")


def text(game: str, page: str) -> str:
    return json.dumps(rolling_sheet.layout(game, page), ensure_ascii=False, separators=(",", ":")) + "\n"


def path(game: str, page: str) -> Path:
    return data_path("maps", f"layout-{game}-{page}.json")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the shipped files are current")
    args = parser.parse_args()
    stale = []
    for game in GAMES:
        for page in PAGES:
            out = path(game, page)
            if args.check:
                try:
                    key = json.loads(out.read_text(encoding="utf-8")).get("key")
                except (OSError, ValueError):
                    key = None
                if key != rolling_sheet.layout_key(game, page):
                    stale.append(out.name)
                continue
            new = text(game, page)
            if not out.exists() or out.read_text(encoding="utf-8") != new:
                out.write_text(new, encoding="utf-8")
                print(f"wrote {out.relative_to(ROOT)} ({len(new.encode()) // 1000} KB)")
    if stale:
        print("stale or missing (run tools/build_map_layouts.py):", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
