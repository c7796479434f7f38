"""Write templates/twenty-one.toml: the field numbers and the fair colour
layouts of sheets A-F.

Sheet s, row r, position p shows colour (PATTERN[r][p] + s) mod 6, so for every row and
position the six sheets show six different colours, and the rows of one sheet follow
five different orders (PATTERN is a Latin rectangle: a position never repeats a colour
down a sheet either).

    python tools/make_twenty_one_layouts.py
"""

import pathlib

COLOURS = ["white", "black", "red", "blue", "yellow", "green"]
PATTERN = [
    [0, 1, 2, 3, 4, 5],
    [3, 5, 0, 4, 1, 2],
    [4, 2, 5, 1, 0, 3],
    [2, 4, 1, 5, 3, 0],
    [5, 3, 4, 0, 2, 1],
]
NUMBERS = [6, 5, 4, 3, 2, 1]


def main() -> None:
    lines = [
        "# Twenty One layouts, written by tools/make_twenty_one_layouts.py.",
        "# numbers: the number on each field, row by row (the same on every sheet;",
        "# sources disagree about rows 2-5, so change them here if yours differ).",
        "# sheets: the die colour of each field, row by row.",
        "",
        "numbers = [",
        *(f"    {NUMBERS}," for _ in PATTERN),
        "]",
        "",
        "[sheets]",
    ]
    for s, name in enumerate("ABCDEF"):
        rows = [[COLOURS[(v + s) % 6] for v in row] for row in PATTERN]
        lines.append(f"{name} = [")
        lines += ["    [" + ", ".join(f'"{c}"' for c in row) + "]," for row in rows]
        lines.append("]")
    out = pathlib.Path(__file__).resolve().parent.parent / "templates" / "twenty-one.toml"
    out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
