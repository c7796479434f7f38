"""A photo's typed-in file speaks the sheet's language: the header, the notes and every reason a
cell is marked UNSURE (the word itself stays, in both languages: it is what to look for)."""

from __future__ import annotations

import re

import pytest
from support import synth

from rnwprint.games import GAMES
from rnwprint.games.catan import photo as catan_photo
from rnwprint.locale import t
from rnwprint.photo import circles, decide, faded, faint_ring, guards, light, overflow, pale, pipeline, read, round_ring
from rnwprint.photo.pipeline import read_photo, typed_in_text
from rnwprint.photo.reasons import REASONS, said


def every_reason_constant() -> set[str]:
    """Every reason the reader's modules define: names ending or starting in WHY, and LIGHT_WHY's."""
    found = {pipeline.DAMAGED, *light.LIGHT_WHY.values()}
    for module in (circles, decide, faded, faint_ring, guards, overflow, pale, read, round_ring, catan_photo):
        for name, value in vars(module).items():
            if isinstance(value, str) and ("WHY" in name.split("_") or name.startswith("WHY_")):
                found.add(value)
    return found


def test_every_reason_the_reader_gives_can_be_said_in_spanish():
    assert every_reason_constant() <= set(REASONS)
    assert len(every_reason_constant()) >= 27


@pytest.mark.parametrize("english, key", list(REASONS.items()))
def test_each_reason_in_english_is_the_reader_s_own_words(english, key):
    assert t("en", key) == english
    assert t("es", key) != english and t("es", key).count("{}") == english.count("{}")


@pytest.mark.parametrize("english, key", list(REASONS.items()))
def test_each_reason_filled_in_is_said_in_spanish_whole_beside_another(english, key):
    """Some reasons hold "; " themselves ("the number runs over the box's edge; read with its ink
    out of the box, it is 3"): said whole all the same, alone and between two others."""
    values = ["7"] * english.count("{}")
    spanish = t("es", key).format(*values)
    assert said(english.format(*values), "es") == spanish
    assert said(f"faint marks; {english.format(*values)}; best guess 40% sure", "es") == \
        f"marcas tenues; {spanish}; lectura más probable, segura al 40%"


@pytest.mark.parametrize("why, spanish", [
    ("best guess 62% sure; read whole, it is 21", "lectura más probable, segura al 62%; leído entero, es 21"),
    ("another network reads 17", "otra red lee 17"),
    ("the number's strokes run along the box's outline; read with them, it is 2",
     "los trazos del número van a lo largo del borde de la casilla; leído con ellos, es 2"),
    ("faint marks", "marcas tenues"),
    (circles.OUTLINE_WHY + "; " + light.LIGHT_WHY["grainy"],
     "tinta a lo largo del borde de la casilla: ¿un círculo alrededor de la casilla, que resguarda el número?; "
     "la foto tiene mucho grano aquí (¿poca luz?): un trazo claro puede perderse en el ruido"),
    ("colour: red 61%, blue 39%", "color: red 61%, blue 39%"),
    ("colour: too faint to tell (red?)", "color: demasiado tenue para saberlo (¿red?)"),
    ("", ""),
    ("a reason nobody wrote down", "a reason nobody wrote down"),
])
def test_reasons_are_said_in_spanish_part_by_part(why, spanish):
    assert said(why, "es") == spanish
    assert said(why, "en") == why


def test_a_spanish_sheet_s_photo_reads_the_same_cells_said_in_spanish(tmp_path):
    texts = {}
    for lang in ("es", "en"):
        sheet = GAMES["rolling-america"].build("us", lang, "a4")
        path = tmp_path / f"{lang}.jpg"
        path.write_bytes(synth.make_photo(sheet, synth.random_marks(sheet, 7), seed=7, megapixels=2.0))
        texts[lang] = typed_in_text(read_photo(path))
    es, en = (texts[lang].splitlines() for lang in ("es", "en"))
    assert es[0].startswith("# Leído por rnwprint de ") and en[0].startswith("# Read by rnwprint from ")
    assert "casilla(s) marcada(s) UNSURE (dudosas) abajo" in es[1] and "cell(s) marked UNSURE below" in en[1]
    values = [[line.split("#")[0] for line in lines if not line.startswith(("#", "lang ="))] for lines in (es, en)]
    assert values[0] == values[1]
    flagged = {lang: [line for line in lines if "# UNSURE: " in line] for lang, lines in (("es", es), ("en", en))}
    assert flagged["es"] and [line.split()[0] for line in flagged["es"]] == [line.split()[0] for line in flagged["en"]]
    spanish = [re.compile("(.+?)".join(map(re.escape, t("es", key).split("{}")))) for key in REASONS.values()]
    for line in flagged["es"]:
        for reason in line.split("# UNSURE: ")[1].split("; "):
            assert reason not in REASONS and any(p.fullmatch(reason) for p in spanish), reason
