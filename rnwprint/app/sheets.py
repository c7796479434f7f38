"""Print sheets: a game's sheets built for the variants asked for, and rendered and written."""

from __future__ import annotations

import functools
import pathlib
from collections.abc import Callable
from dataclasses import dataclass

from rnwprint.app import as_value
from rnwprint.core.errors import RnwError
from rnwprint.core.sheet import Identity, Sheet


@dataclass(frozen=True)
class Printed:
    """A game's fresh sheets, named by their identities; each built (or read from the disk
    cache) only when asked for, since a sheet printed before is not needed to print it again."""

    game: object  # the Game
    identities: list[Identity]  # in page order (a PDF's copies one after another)
    variants: list[str]  # the variants printed (labels of SVG/PNG pages)
    name: str  # the default file's name without its folder (GAME_VARIANT_LANG_PAGE.FORMAT)

    def __len__(self) -> int:
        return len(self.identities)

    @functools.cached_property
    def sheets(self) -> list[Sheet]:
        built = {i: _built(self.game, i) for i in dict.fromkeys(self.identities)}  # copies: built once
        return [built[i] for i in self.identities]

    def rendered(self, fmt: str) -> list[bytes]:
        """render(self.sheets, fmt), kept on disk under the pages' identities (rnwprint.cache):
        a sheet printed again with the same code, data and libraries is copied, not drawn again."""
        from rnwprint.cache import rendered
        from rnwprint.render import render

        return rendered(fmt, [i.encode() for i in self.identities], lambda: render(self.sheets, fmt))


@as_value
def printed(game: str, variant: str | None, lang: str, page: str, fmt: str, copies: int = 1,
            seed: int | None = None) -> Printed | RnwError:
    """The sheets of `game` (any case): `variant` (None: the first; "all": every one), `copies`
    of each in a PDF; `seed` shuffles a game's layout (Catan's island)."""
    from rnwprint.games import check_variant, get_game

    g = get_game(game)
    every = variant is not None and variant.lower() == "all"
    variants = list(g.variants) if every else [check_variant(g, g.default_variant if variant is None else variant)]
    if seed is not None:
        if g.seeded is None:
            raise RnwError(f"--seed shuffles a game's layout: {g.name} has none to shuffle")
        try:
            shuffled = [g.seeded(v, seed) for v in variants]
        except ValueError as e:
            raise RnwError(str(e), "--seed") from None
        if shuffled == variants and not every:
            raise RnwError(f"{g.name} {variants[0]} has no layout to shuffle", "--seed")
        variants = shuffled
    identities = [Identity(g.name, v, lang, page, g.layout_version) for v in variants]
    if fmt == "pdf":
        identities = [i for i in identities for _ in range(copies)]
    # a shuffled "all" is named by its seed, apart from the unshuffled one
    name = variants[0] if not every else "all" if seed is None else f"all-{seed}"
    return Printed(g, identities, variants, f"{g.name}_{name}_{lang}_{page}.{fmt}")


def _built(game, identity: Identity) -> Sheet:
    """The game's sheet, read from the disk cache (rnwprint.cache) when an earlier process
    built it with this same code and data: a map sheet's layout and QR code are not made again."""
    from rnwprint.cache import sheet_of

    return sheet_of(identity, lambda: game.build(identity.variant, identity.lang, identity.page))


@as_value
def written(sheets: list[Sheet] | Printed, fmt: str, target: pathlib.Path, labels: list[str] | None = None,
            inputs=(), done: Callable[[pathlib.Path], None] = lambda path: None) -> list[pathlib.Path] | RnwError:
    """Render and write atomically: one PDF, or one SVG/PNG per page (numbered, see
    output.page_paths; `labels` name the pages too), or one file to standard output for the
    target "-"; `done` is told each file once all are written.
    Every path is checked before anything is rendered or written; none may be an input."""
    from rnwprint.output import check_target, is_stdout, page_paths, write_all_atomic
    from rnwprint.render import render

    paths = [target] if fmt == "pdf" else page_paths(target, len(sheets), labels)
    if len(paths) > 1 and is_stdout(target):
        raise RnwError(f"- is standard output, one file, and {fmt.upper()} writes one file per page "
                       f"({len(paths)} pages): name a file, or use --format pdf", "-o -")
    if len(paths) > 1 and target.exists() and not target.is_file():
        raise RnwError(f"not a regular file, and {fmt.upper()} writes one file per page ({paths[0].name}, ...): "
                       "name a file, or use --format pdf", str(target))
    for path in paths:
        check_target(path, inputs)
    blobs = sheets.rendered(fmt) if isinstance(sheets, Printed) else render(sheets, fmt)
    write_all_atomic(zip(paths, blobs), inputs)  # all the pages, or none
    for path in paths:
        done(path)
    return paths
