"""Roll to the Top's own command, `tower` (rnwprint.cli adds the COMMANDS of every game in the
registry), and the custom tower the general `template` command may be given."""

from __future__ import annotations

import pathlib
import sys

import click

from rnwprint.cli_support import (
    INPUT,
    OUTPUT,
    SEED,
    WholeRange,
    _either,
    _format_of,
    _idle,
    _printing_options,
    _read_stdin,
    _write_sheets,
)
from rnwprint.core.errors import RnwError
from rnwprint.layout.page import PAGE_SIZES
from rnwprint.render import FORMATS


def template_tower(game, variant, code, ascii_file, picture, columns, random_tower, seed):
    """The custom tower `template` was given (as `tower` takes it) and what gave it (a file,
    an option), or None."""
    from rnwprint.games.roll_to_the_top import game as rtt

    if game != rtt.NAME:  # the tower options say whose they are
        for option in ("--columns", "--descending", "--seed"):
            _idle(option, True, f"is for {rtt.NAME}'s towers, not {game}"
                                + ("; the island shuffled by a seed is --variant map-SEED" if game == "catan" and
                                   option == "--seed" else ""))
    sources = [name for name, given in (("--variant", variant), ("--code", code), ("--ascii", ascii_file),
                                        ("--picture", picture), ("--random", random_tower)) if given or given == ""]
    _idle("--columns", not picture, "sets the squares across a picture's shape: use it with --picture")
    _idle("--seed", not random_tower, "picks the random tower: use it with --random")
    if len(sources) > 1:
        raise click.UsageError(f"give only one source: {_either(sources).replace(' or ', ' and ')} were given")
    if not sources or sources == ["--variant"]:
        _idle("--descending", True, "is for a custom tower (--code, --ascii, --picture or --random); "
                                    "a built-in's descending variant is named, e.g. --variant eiffel-desc")
        return None
    if game != rtt.NAME:
        raise click.UsageError(f"{sources[0]} gives a tower: it is for {rtt.NAME}, not {game}")
    if code is not None:
        return rtt.tower_from_code(code), "--code"
    if random_tower:
        return rtt.random_towers(seed, 1)[0], "--random"
    if picture:
        from rnwprint.games.roll_to_the_top.tower_input import from_picture

        tower = from_picture(picture, columns).check(str(picture), "; try another --columns or clean up the picture")
        return tower, str(picture)
    from rnwprint.core.entries import read_text

    where = "stdin" if str(ascii_file) == "-" else str(ascii_file)
    text = _read_stdin() if where == "stdin" else read_text(ascii_file, "ASCII art")
    return rtt.tower_from_text(text, where), where


@click.command(short_help="Make a Roll to the Top tower: its sheet, rating or drawing.")
@click.option("--ascii", "ascii_file", type=INPUT, default=None,
              help="A tower drawn as text: [] per square, one line per row, top first ('-': stdin).")
@click.option("--picture", type=INPUT, default=None,
              help="A PNG or JPEG whose dark shape is filled with squares.")
@click.option("--columns", type=WholeRange(1, 100), default=8, show_default=True,
              help="Squares across the picture's shape (--picture).")
@click.option("--random", "random_towers", is_flag=True, help="Random towers (see --seed, --squares, --shape).")
@click.option("--builtin", default=None, help="A built-in challenge by name, e.g. eiffel (rnwprint games lists them).")
@click.option("--code", default=None, help="The tower code printed on a custom tower's sheet.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Random towers: the same seed, the same towers.")
@click.option("--squares", type=WholeRange(3, 200), default=30, show_default=True,
              help="Random towers: squares in each.")
@click.option("--shape", type=click.Choice(("mixed", "taper", "spire", "tree"), case_sensitive=False), default="mixed",
              show_default=True, help="Random towers: their outline.")
@click.option("--max-width", type=WholeRange(1, 25), default=12, show_default=True,
              help="Random towers: the widest row, in squares.")
@click.option("--count", type=WholeRange(1, 10000), default=1, show_default=True,
              help="Random towers: how many different ones (one page each).")
@click.option("--descending", is_flag=True, help="The descending rule: each number <= those under it.")
@click.option("--rate", is_flag=True, help="Print the difficulty figures instead of printing sheets.")
@click.option("--games", type=WholeRange(1, 1_000_000), default=None,
              help="Games simulated for --rate (default: as many as behind the printed stars).")
@click.option("--show", is_flag=True, help="Print the tower as ASCII art and its code instead of sheets.")
@_printing_options
@click.option("-o", "--output", "target", type=OUTPUT, default=None,
              help="Output file, - for standard output (default: output/roll-to-the-top_NAME_LANG_PAGE.FORMAT).")
def tower(ascii_file, picture, columns, random_towers, builtin, code, seed, squares, shape, max_width,
          count, descending, rate, games, show, lang, page, fmt, target) -> None:
    """Make a Roll to the Top tower and print its sheet, its rating (--rate) or its drawing
    (--show). Give one source: --ascii, --picture, --random, --builtin or --code.

    \b
    rnwprint tower --ascii mine.txt --lang en
    rnwprint tower --random --seed 1 --count 10 --rate
    """
    from rnwprint.core.entries import read_text
    from rnwprint.games.roll_to_the_top import game as rtt
    from rnwprint.games.roll_to_the_top import sim as tower_sim
    from rnwprint.games.roll_to_the_top.difficulty import counted, rating_line
    from rnwprint.games.roll_to_the_top.sheet import MIN_SQUARE, build, build_sheets, check_page
    from rnwprint.games.roll_to_the_top.tower import check_fits
    from rnwprint.games.roll_to_the_top.tower_code import encode, grouped
    from rnwprint.games.roll_to_the_top.tower_input import format_ascii, from_picture
    from rnwprint.layout.page import MARGIN, PAGE_NAMES
    from rnwprint.locale import t as tr
    from rnwprint.output import DEFAULT_DIR

    fmt = _format_of(target, fmt, FORMATS, "pdf")
    sources = [name for name, given in (("--ascii", ascii_file), ("--picture", picture), ("--random", random_towers),
                                        ("--builtin", builtin), ("--code", code)) if given or given == ""]
    if len(sources) > 1:
        raise click.UsageError(f"give only one source: {_either(sources).replace(' or ', ' and ')} were given")
    if not sources:
        raise click.UsageError("say where the tower comes from: one of --ascii, --picture, --random, "
                               "--builtin, --code")
    _idle("--columns", not picture, "sets the squares across a picture's shape: use it with --picture")
    for option in ("--seed", "--squares", "--shape", "--max-width", "--count"):
        _idle(option, not random_towers, "is for random towers, so it would do nothing here: use it with --random")
    _idle("--games", not rate, "sets how many games --rate simulates: use it with --rate")
    if rate and show:
        raise click.UsageError("give only one of --rate and --show")
    _idle("--descending", show, "changes the rule, not the drawing --show prints: drop one of them")
    for option in ("--format", "-o"):
        _idle(option, rate or show, "writes a sheet, and --rate and --show print instead: drop one of them")
    _idle("--page", show, "sizes a sheet, and --show prints the drawing instead: drop one of them")
    if random_towers:
        towers = rtt.random_towers(seed, count, squares, shape, max_width)
        labels = [f"random-s{seed}" + (f"-{k + 1}" if count > 1 else "") for k in range(count)]
        name = f"random-s{seed}" + (f"-n{count}" if count > 1 else "")
    elif builtin is not None:
        builtin = builtin.lower()  # EIFFEL as eiffel, as every other choice
        if builtin not in rtt.builtins():
            desc = builtin.removesuffix(rtt.DESC) if builtin.removesuffix(rtt.DESC) in rtt.builtins() else ""
            raise RnwError(f"{builtin!r} is {desc}'s descending rule: give --builtin {desc} --descending" if desc else
                           f"unknown built-in tower {builtin!r}; choose one of: {', '.join(rtt.builtins())}",
                           "--builtin")
        towers, labels, name = [rtt.builtins()[builtin].tower], [builtin], builtin
    elif code is not None:
        towers, labels = [rtt.tower_from_code(code)], [code]
        name = encode(towers[0])  # as printed: 7KD3M9QX for 7kd3-m9qx
    elif picture:
        towers = [from_picture(picture, columns).check(str(picture), "; try another --columns or clean up the picture")]
        labels = [str(picture)]
        name = picture.stem
    else:
        text = _read_stdin() if str(ascii_file) == "-" else read_text(ascii_file, "ASCII art")
        where = "stdin" if str(ascii_file) == "-" else str(ascii_file)
        towers, labels = [rtt.tower_from_text(text, where)], [where]
        name = "stdin" if where == "stdin" else ascii_file.stem
    if not builtin and (rate or not show):  # the size against the page before any simulation
        box_w, box_h = (side - 2 * MARGIN for side in PAGE_SIZES[page])
        for label, t in zip(labels, towers):
            check_fits(t, box_w, box_h, MIN_SQUARE, label, PAGE_NAMES[page])
            if not random_towers:  # and exactly, as its sheet lays it out (random ones are made to fit)
                check_page(t, lang, page, descending, label)
    if show:
        for label, t in zip(labels, towers):
            click.echo(f"# {tr(lang, 'roll-to-the-top.show', label=label, squares=counted(lang, 'squares', len(t)), code=grouped(encode(t)))}")
            click.echo(format_ascii(t), nl=False)
        return
    if rate:
        for label, t in zip(labels, towers):
            click.echo(rating_line(label, t, descending, games or tower_sim.RATING_GAMES, lang))
        return
    if target is None:
        suffix = rtt.DESC if descending else ""
        target = DEFAULT_DIR / f"{rtt.NAME}_{name}{suffix}_{lang}_{page}.{fmt}"
    show_bar = len(towers) > 1 and sys.stderr.isatty()
    with click.progressbar(length=len(towers), label="towers", file=sys.stderr, hidden=not show_bar) as bar:
        if builtin:
            sheets = [build(builtin + (rtt.DESC if descending else ""), lang, page)]
        else:  # many sheets are built on the other processors while the first ones are drawn
            sheets = build_sheets(towers, lang, page, descending, progress=bar.update)
        _write_sheets(sheets, fmt, target, None, (ascii_file, picture))  # numbered pages: codes are in the titles


COMMANDS = (tower,)
