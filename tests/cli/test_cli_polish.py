"""The command line as a new user meets it (issue 16): formats from file names, one JSON
convention, reports in the user's language, templates, options that would do nothing,
help and forgiving choices."""

from __future__ import annotations

import json

import pytest
from project import ROOT

PDF, PNG, SVG = b"%PDF", b"\x89PNG", b"<svg"


def test_sheet_format_follows_the_output_name(cli, tmp_path):
    png, svg = tmp_path / "x.png", tmp_path / "y.SVG"
    assert cli("sheet", "twenty-one", "-o", png).code == 0
    assert cli("sheet", "twenty-one", "-o", svg).code == 0
    assert png.read_bytes().startswith(PNG)
    assert svg.read_bytes().lstrip().startswith(b"<?xml") or svg.read_bytes().lstrip().startswith(SVG)


def test_sheet_without_extension_or_format_is_pdf(cli, tmp_path):
    out = tmp_path / "plain"
    assert cli("sheet", "twenty-one", "-o", out).code == 0
    assert out.read_bytes().startswith(PDF)


def test_format_contradicting_the_name_is_refused(cli, tmp_path):
    out = tmp_path / "y.pdf"
    result = cli("sheet", "twenty-one", "--format", "png", "-o", out)
    assert result.code == 2 and not out.exists()
    assert "y.pdf: the name says PDF but --format says PNG" in result.err


def test_format_agreeing_with_the_name_is_written(cli, tmp_path):
    out = tmp_path / "z.png"
    assert cli("sheet", "twenty-one", "--format", "png", "-o", out).code == 0
    assert out.read_bytes().startswith(PNG)


def test_tower_sheet_named_png_is_a_png(cli, tmp_path):
    out = tmp_path / "eiffel.png"
    assert cli("tower", "--builtin", "eiffel", "-o", out).code == 0
    assert out.read_bytes().startswith(PNG)


@pytest.mark.parametrize("args", [("sheet", "twenty-one", "-o"), ("tower", "--builtin", "oak", "-o")])
def test_sheet_named_jpg_is_refused(cli, tmp_path, args):
    out = tmp_path / "x.jpg"
    result = cli(*args, out)
    assert result.code == 2 and not out.exists()
    assert "a .jpg name, but this writes PDF, SVG or PNG: name it .pdf, .svg or .png" in result.err


def test_read_annotate_named_jpg_is_refused_before_reading(cli, tmp_path):
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"not read: the name is refused first")
    result = cli("read", photo, "--annotate", tmp_path / "checked.jpg")
    assert result.code == 2
    assert "--annotate" in result.err and "a .jpg name, but this writes PNG: name it .png" in result.err


def test_read_output_named_json_is_refused(cli, tmp_path):
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"x")
    result = cli("read", photo, "-o", tmp_path / "mine.json")
    assert result.code == 2 and "a .json name, but this writes TOML: name it .toml" in result.err


def test_roll_log_named_yaml_is_refused(cli, tmp_path):
    result = cli("roll", "rolling-america", "--seed", "1", "-o", tmp_path / "game.yaml")
    assert result.code == 2 and "name it .toml or .json" in result.err
    assert result.out == ""


README = (ROOT / "README.md").read_text(encoding="utf-8")
MINE = 'game = "twenty-one"\nvariant = "A"\n[cells]\nR1C1 = 6\nR1C4 = 5\n'
OTHER = 'game = "twenty-one"\n[cells]\nR1C1 = 6\n'


def test_audit_json_prints_one_compact_object_per_line(cli, write):
    result = cli("audit", write("mine.toml", MINE), write("other.toml", OTHER), "--json")
    lines = result.out.splitlines()
    assert result.code == 1 and len(lines) == 2
    reports = [json.loads(line) for line in lines]
    assert [r["valid"] for r in reports] == [False, True]
    assert [r["score"] for r in reports] == [12, 7]  # 6 + 5 + bonus 1; 6 + bonus 1


def test_readme_json_example_is_what_audit_prints(cli, write, monkeypatch, tmp_path):
    block = README.split("```jsonl\n", 1)[1].split("```", 1)[0]
    shown = [json.loads(line) for line in block.splitlines()]
    monkeypatch.chdir(tmp_path)
    write("mine.toml", MINE), write("other.toml", OTHER)
    printed = cli("audit", "mine.toml", "other.toml", "--json", "--lang", "en").out.splitlines()
    assert [json.loads(line) for line in printed] == shown


def test_spanish_audit_report_is_spanish_with_singular_and_plural(cli, write):
    one = cli("audit", write("mine.toml", MINE), "--lang", "es")
    assert one.out.splitlines() == ["Hoja: twenty-one A (" + str(write("mine.toml", MINE)) + ")",
                                    "1 regla incumplida:",
                                    "  over-field  R1C4: 5 es mayor que el 3 del campo",
                                    "Puntuación: 12"]
    two = cli("audit", write("two.toml", MINE + "R1C5 = 6\n"), "--lang", "es")
    assert "2 reglas incumplidas:" in two.out
    assert "1 rule broken:" in cli("audit", write("mine.toml", MINE), "--lang", "en").out


def test_audit_speaks_the_sheets_own_language_unless_told(cli, write):
    assert "1 regla incumplida:" in cli("audit", write("mine.toml", MINE)).out  # no lang: Spanish
    english = write("en.toml", MINE.replace('variant = "A"', 'variant = "A"\nlang = "en"'))
    assert "1 rule broken:" in cli("audit", english).out
    assert "1 regla incumplida:" in cli("audit", english, "--lang", "es").out
    assert "1 rule broken:" in cli("audit", write("EN.toml", MINE.replace('variant = "A"', 'variant = "A"\nlang = "EN"'))).out
    assert "1 regla incumplida:" in cli("audit", write("blank.toml", MINE.replace('variant = "A"', 'variant = "A"\nlang = ""'))).out
    for said, shown in (('"fr"', "'fr'"), ("3", "3"), ("true", "true")):
        unknown = write("fr.toml", MINE.replace('variant = "A"', f'variant = "A"\nlang = {said}'))
        refused = cli("audit", unknown)
        assert refused.code == 2 and refused.out == ""
        assert refused.err == f"rnwprint: {unknown}: lang: {shown} is not a language of twenty-one; choose one of: es, en\n"


def test_template_names_its_language_so_audit_answers_in_it(cli, write):
    blank = cli("template", "twenty-one", "--lang", "en").out
    assert 'lang = "en"' in blank.splitlines()[4]
    assert "The sheet follows the rules." in cli("audit", write("blank.toml", blank)).out


def test_spanish_report_writes_decimals_with_a_comma():
    from rnwprint.core.report import Report

    report = Report("twenty-one", "A", "photo.jpg", 0, coarse_photo=2.5)
    assert "2,5 px/mm" in report.to_text("es") and "2.5 px/mm" in report.to_text("en")


def test_tower_rate_speaks_spanish(cli):
    result = cli("tower", "--builtin", "burj", "--rate", "--games", "50", "--lang", "es", "--descending")
    assert result.code == 0
    line = result.out.strip()
    assert line.startswith("burj: 13 casillas, 7 filas, regla descendente; 50 partidas: media ")
    mean = line.split("media ")[1].split(" rondas")[0]
    assert "," in mean and "." not in mean
    assert "percentil 10" in line and "percentil 90" in line and "squares" not in line


def test_tower_show_speaks_spanish_and_counts_one_square(cli, tmp_path):
    drawing = tmp_path / "one.txt"
    drawing.write_text("[]\n")
    assert cli("tower", "--ascii", drawing, "--show", "--lang", "es").out.startswith(f"# {drawing}: 1 casilla, código ")
    assert cli("tower", "--ascii", drawing, "--show", "--lang", "en").out.startswith(f"# {drawing}: 1 square, code ")


def test_tower_rate_of_one_square_says_square_and_row(cli, tmp_path):
    drawing = tmp_path / "one.txt"
    drawing.write_text("[]\n")
    result = cli("tower", "--ascii", drawing, "--rate", "--games", "1", "--lang", "en")
    assert result.out.startswith(f"{drawing}: 1 square, 1 row; 1 game: mean 1.00 rounds")


def test_spanish_game_log_names_the_dice_in_spanish_and_reads_back(cli, tmp_path):
    log = tmp_path / "partida.toml"
    assert cli("roll", "rolling-espana", "--seed", "3", "--lang", "es", "-o", log).code == 0
    text = log.read_text(encoding="utf-8")
    assert 'die = "azul"' in text and "dice = { azul = 5, morado = 2 }" in text  # seed 3's first turn
    assert not any(f'"{die}"' in text for die in ("red", "blue", "green", "yellow", "orange", "purple", "white"))


def test_spanish_game_log_with_moves_round_trips(tmp_path):
    from rnwprint.games.rolling.log import Turn, Write, load_log, log_text, roll_game
    from rnwprint.games.rolling.rules import load_board

    board = load_board("rolling-espana")
    played = [Turn(t.number, t.round, t.dice, tuple(Write(die, nothing=True) for die, _ in t.dice))
              for t in roll_game(3)[:2]]
    path = tmp_path / "log.toml"
    path.write_text(log_text("rolling-espana", played, "es", 3), encoding="utf-8")
    assert 'die = "morado"\nnothing = true' in path.read_text(encoding="utf-8")
    assert load_log(path, board).turns == tuple(played)


def test_template_variant_all_is_refused_and_all_is_not_offered(cli):
    result = cli("template", "twenty-one", "--variant", "all")
    assert result.code == 2
    assert result.err.strip() == ("rnwprint: --variant all: a template is the file of one sheet: "
                                  "name one of A, B, C, D, E, F")
    unknown = cli("template", "twenty-one", "--variant", "Z")
    assert unknown.code == 2 and unknown.err.strip().endswith("choose one of: A, B, C, D, E, F")
    catan = cli("template", "catan", "--variant", "all")  # its notes sheet has nothing to type in
    assert catan.err.strip() == "rnwprint: --variant all: a template is the file of one sheet: name one of map"


def test_sheet_still_offers_all(cli, tmp_path):
    assert cli("sheet", "twenty-one", "--variant", "Z", "-o", tmp_path / "x.pdf").err.strip().endswith("or all")


@pytest.mark.parametrize("lang, no_cross", [("en", 'this game has no crosses: an "X" is reported as a broken rule'),
                                            ("es", 'en este juego no se tacha: una "X" se señala como regla incumplida')])
def test_roll_to_the_top_template_does_not_offer_crossing_out(cli, lang, no_cross):
    out = cli("template", "roll-to-the-top", "--lang", lang).out
    assert no_cross in out
    assert '"X" for crossed out' not in out and '"X" si está tachada' not in out


def test_an_x_in_roll_to_the_top_is_a_broken_rule(cli, write):
    path = write("x.toml", 'game = "roll-to-the-top"\nvariant = "burj"\n[cells]\nA1 = "X"\n')
    result = cli("audit", path, "--json")
    assert result.code == 1 and json.loads(result.out)["violations"][0]["rule"] == "bad-value"


def test_twenty_one_template_still_offers_crossing_out(cli):
    assert '"X" for crossed out' in cli("template", "twenty-one", "--lang", "en").out


def test_two_tower_sources_are_refused_as_two(cli):
    result = cli("tower", "--random", "--builtin", "eiffel")
    assert result.code == 2
    assert result.err.strip() == "rnwprint: give only one source: --random and --builtin were given"


@pytest.mark.parametrize("args, reason", [
    (("--builtin", "eiffel", "--seed", "3"), "--seed is for random towers, so it would do nothing here"),
    (("--builtin", "eiffel", "--squares", "20"), "--squares is for random towers"),
    (("--code", "V", "--shape", "tree"), "--shape is for random towers"),
    (("--builtin", "oak", "--count", "1"), "--count is for random towers"),
    (("--random", "--columns", "4"), "--columns sets the squares across a picture's shape: use it with --picture"),
    (("--builtin", "oak", "--games", "4"), "--games sets how many games --rate simulates: use it with --rate"),
    (("--builtin", "oak", "--rate", "--show"), "give only one of --rate and --show"),
    (("--builtin", "oak", "--show", "--descending"), "--descending changes the rule, not the drawing"),
    (("--builtin", "oak", "--show", "--format", "png"), "--format writes a sheet, and --rate and --show print"),
    (("--builtin", "oak", "--rate", "-o", "x.pdf"), "-o writes a sheet, and --rate and --show print"),
    (("--builtin", "oak", "--show", "--page", "letter"), "--page sizes a sheet"),
])
def test_tower_options_that_would_do_nothing_are_refused(cli, tmp_path, monkeypatch, args, reason):
    monkeypatch.chdir(tmp_path)
    result = cli("tower", *args)
    assert result.code == 2 and reason in result.err
    assert result.out == "" and not any(tmp_path.iterdir())


def test_tower_columns_with_ascii_is_refused(cli, tmp_path):
    drawing = tmp_path / "t.txt"
    drawing.write_text("[][]\n")
    result = cli("tower", "--ascii", drawing, "--columns", "4", "--show")
    assert result.code == 2 and "--columns sets the squares across a picture's shape" in result.err


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_copies_of_a_picture_format_are_refused(cli, tmp_path, fmt):
    result = cli("sheet", "twenty-one", "--copies", "2", "--format", fmt, "-o", tmp_path / f"x.{fmt}")
    assert result.code == 2 and not any(tmp_path.iterdir())
    assert f"--copies puts copies into one PDF; {fmt.upper()} writes each sheet once" in result.err


def test_default_values_given_by_nobody_are_not_refused(cli, tmp_path):
    drawing = tmp_path / "t.txt"
    drawing.write_text("[][]\n")
    assert cli("tower", "--ascii", drawing, "--show", "--lang", "en").code == 0  # --columns 8, --seed 1 unused
    assert cli("sheet", "twenty-one", "--format", "png", "-o", tmp_path / "x.png").code == 0  # --copies 1


def test_bare_rnwprint_shows_the_help_and_exits_0(cli):
    result = cli()
    assert result.code == 0 and result.err == ""
    assert result.out.startswith("Usage: rnwprint") and "Commands:" in result.out


def test_every_command_help_has_an_example_and_every_option_a_description(cli):
    from rnwprint.cli import every_command

    for name, command in every_command().items():
        result = cli(name, "--help")
        assert result.code == 0
        assert f"  rnwprint {name}" in result.out, name  # an example line
        for param in command.params:
            if param.param_type_name == "option":
                assert param.help, f"{name} {param.opts[0]} has no description"


def test_command_summaries_are_whole(cli):
    listing = cli("--help").out.split("Commands:")[1]
    assert "..." not in listing
    assert "Check finished sheets (typed-in files or photos)." in listing


def test_tower_help_does_not_say_builtin_only_rates(cli):
    out = " ".join(cli("tower", "--help").out.split())
    assert "--builtin TEXT A built-in challenge by name, e.g. eiffel (rnwprint games lists them)." in out


def test_template_speaks_the_sheet_default_language(cli):
    assert "hoja para teclear" in cli("template", "twenty-one").out


def test_games_are_listed_in_aligned_columns_with_the_descending_variants(cli):
    lines = cli("games").out.splitlines()
    assert lines[0].split() == ["game", "languages", "variants"]
    column = lines[0].index("variants")
    for line in lines[1:5]:
        assert line[column - 1] == " " and line[column] != " ", line
    assert lines[1][column:] == "A, B, C, D, E, F"
    tower = "\n".join(lines)
    for name in ("burj", "pyramid", "oak", "pisa", "cn", "eiffel", "taipei", "sagrada"):
        assert f"{name}-desc" in tower


@pytest.mark.parametrize("args", [
    ("sheet", "twenty-one", "--variant", "a", "--lang", "ES", "--page", "A4", "--format", "PDF"),
    ("sheet", "Twenty-One", "--variant", "B"),
    ("sheet", "roll-to-the-top", "--variant", "Eiffel-DESC"),
    ("sheet", "twenty-one", "--variant", "ALL"),
])
def test_choices_are_taken_in_any_case(cli, tmp_path, args):
    out = tmp_path / "x.pdf"
    result = cli(*args, "-o", out)
    assert result.code == 0, result.err
    assert out.read_bytes().startswith(PDF)


@pytest.mark.parametrize("game, typed, meant", [("TWENTY-ONE", "b", "twenty-one B"),
                                                ("Roll-To-The-Top", "EIFFEL-DESC", "roll-to-the-top eiffel-desc"),
                                                ("Catan", "MAP-07", "catan map-7"),
                                                ("roll-to-the-top", "T.1fetq-DESC", "roll-to-the-top t.1FETQ-desc")])
def test_a_typed_in_files_game_and_variant_are_taken_in_any_case(cli, write, game, typed, meant):
    result = cli("audit", write("s.toml", f'game = "{game}"\nvariant = "{typed}"\n[cells]\n'), "--lang", "en")
    assert result.code == 0 and result.out.startswith(f"Sheet: {meant} (")


def test_any_case_names_the_same_file_as_lowercase(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("sheet", "TWENTY-ONE", "--variant", "c", "--lang", "EN", "--page", "LETTER").out.strip() == \
        "output/twenty-one_C_en_letter.pdf"


def test_builtin_tower_and_shape_in_any_case(cli):
    assert cli("tower", "--builtin", "EIFFEL", "--show", "--lang", "en").out.startswith("# eiffel: 37 squares")
    assert cli("tower", "--random", "--shape", "TREE", "--show").code == 0


@pytest.mark.parametrize("game, typed, meant", [
    ("twenty-one", "RIC2", "R1C2"),  # I for 1
    ("twenty-one", "R1CZ", "R1C2"),  # Z for 2
    ("twenty-one", "r1c2", "R1C2"),  # lower case
    ("twenty-one", "RC12", "R1C2"),  # two neighbours swapped
    ("rolling-america", "TEX", "TX"),  # one letter too many
    ("rolling-america", "tx", "TX"),
])
def test_a_misread_cell_id_gets_did_you_mean(cli, write, game, typed, meant):
    path = write("s.toml", f'game = "{game}"\n[cells]\n{typed} = 3\n')
    result = cli("audit", path)
    assert result.code == 2 and f"cells.{typed}: unknown cell id" in result.err
    assert f"(did you mean {meant}?)" in result.err


@pytest.mark.parametrize("game, typed", [
    ("twenty-one", "R1C7"),  # R1C1 … R1C6 are all one change away: no single guess
    ("twenty-one", "R9C9"),
    ("rolling-america", "TE"),  # TN, TX, NE, ME, DE …
])
def test_no_guess_when_no_single_id_fits(cli, write, game, typed):
    result = cli("audit", write("s.toml", f'game = "{game}"\n[cells]\n{typed} = 3\n'))
    assert result.code == 2 and "unknown cell id" in result.err and "did you mean" not in result.err


def test_readme_states_every_numeric_limit_of_the_options():
    import click

    from rnwprint.cli import every_command

    limits = README.split("### Limits", 1)[1].split("\n## ", 1)[0]
    for name, command in every_command().items():
        for param in command.params:
            if isinstance(param.type, click.IntRange) and param.type.max is not None:
                assert f"{param.type.min}–{param.type.max:,}" in limits, f"{name} {param.opts[-1]}"


def test_readme_documents_roll_under_commands():
    commands = README.split("## Commands", 1)[1].split("\n## ", 1)[0]
    assert "### `rnwprint roll GAME`" in commands
