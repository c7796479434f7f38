"""Render the small sheet pictures the README shows into docs/images/.

    python tools/make_readme_images.py            # the README's pictures
    python tools/make_readme_images.py --all DIR  # every sheet kind, es/en x A4/Letter, to look at

Same code, same bytes: the pictures come from the project's own PNG renderer.
To show another sheet kind, add a line to SHEETS.
"""

from __future__ import annotations

import argparse
import pathlib

from PIL import Image

from rnwprint.games import get_game
from rnwprint.render.png import render_image

ROOT = pathlib.Path(__file__).resolve().parent.parent
DPI = 60

# (picture name, game, variant, language, page) -- the README's pictures, in its order
SHEETS = [
    ("rolling-america", "rolling-america", "us", "en", "a4"),
    ("rolling-espana", "rolling-espana", "es", "es", "a4"),
    ("twenty-one", "twenty-one", "A", "en", "a4"),
    ("roll-to-the-top", "roll-to-the-top", "eiffel", "en", "a4"),
    ("catan-map", "catan", "map", "en", "a4"),
    ("catan-notes", "catan", "notes", "en", "a4"),
]


def write(
    name: str,
    game: str,
    variant: str,
    lang: str,
    page: str,
    folder: pathlib.Path,
    dpi: int,
) -> pathlib.Path:
    sheet = get_game(game).build(variant, lang, page)
    path = folder / f"{name}.png"
    # a 256-colour palette keeps the files small; the octree keeps small patches of strong
    # colour (the players' colours) that a median cut merges into grey
    image = render_image(sheet, dpi).quantize(
        256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    image.save(path, format="PNG", optimize=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--all",
        metavar="DIR",
        help="render every sheet kind in es/en and A4/Letter into DIR",
    )
    parser.add_argument("--dpi", type=int, default=DPI)
    args = parser.parse_args()
    if args.all:
        folder = pathlib.Path(args.all)
        folder.mkdir(parents=True, exist_ok=True)
        for name, game, variant, _, _ in SHEETS:
            for lang in ("es", "en"):
                for page in ("a4", "letter"):
                    print(
                        write(
                            f"{name}_{lang}_{page}",
                            game,
                            variant,
                            lang,
                            page,
                            folder,
                            args.dpi,
                        )
                    )
        return
    folder = ROOT / "docs" / "images"
    folder.mkdir(parents=True, exist_ok=True)
    for sheet in SHEETS:
        print(write(*sheet, folder, args.dpi))


if __name__ == "__main__":
    main()
