"""A blank typed-in sheet file for a game: every cell id, with a comment saying where it is."""

from __future__ import annotations

from rnwprint.game import Game


def blank_file(game: Game, variant: str, lang: str) -> str:
    sheet = game.build(variant, lang, "a4")
    values = 'a whole number 1-6, "X" for crossed out'
    if game.allows_guarded:
        values += ', "(n)" for a circled number'
    lines = [
        f"# {game.title}, {variant}: typed-in sheet. Fill in what is written on the paper",
        f"# ({values}); leave blank cells as \"\".",
        "# Check it with: rnwprint audit THIS_FILE",
        f'game = "{game.name}"',
        f'variant = "{variant}"',
        "",
        "[cells]",
    ]
    width = max(len(cid) for cid in sheet.cells)
    for cell in sheet.cells.values():
        lines.append(f'{cell.id:<{width}} = ""  # {cell.label}')
    if game.counters:
        lines += ["", "[counters]"]
        lines += [f"{name} = 0  # {text}" for name, text in game.counters.items()]
    return "\n".join(lines) + "\n"
