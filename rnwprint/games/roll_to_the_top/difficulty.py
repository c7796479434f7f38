"""Roll to the Top: the rating printed on a tower's sheet (seeded simulation) and the
`tower` command's rating line."""

from __future__ import annotations

from rnwprint.core.report import decimal
from rnwprint.games.roll_to_the_top import sim as tower_sim
from rnwprint.games.roll_to_the_top.tower import Tower
from rnwprint.locale import t

_RATINGS: dict[tuple[Tower, bool], tower_sim.Rating] = {}


def rating(tower: Tower, descending: bool) -> tower_sim.Rating:
    """The printed rating (seeded simulation), remembered for the towers of this process."""
    key = (tower, descending)
    if key not in _RATINGS:
        if len(_RATINGS) > 20_000:
            _RATINGS.clear()
        _RATINGS[key] = tower_sim.rate(tower, descending)
    return _RATINGS[key]


def rating_line(label: str, tower: Tower, descending: bool, games: int, lang: str = "en") -> str:
    r = tower_sim.rate(tower, descending, games)
    return t(lang, "roll-to-the-top.rating", label=label, squares=counted(lang, "squares", len(tower)),
             rows=counted(lang, "rows", tower.rows), rule=t(lang, "roll-to-the-top.rating_descending") if descending else "",
             games=counted(lang, "games", r.games), mean=decimal(r.mean, ".2f", lang),
             p10=decimal(r.p10, "g", lang), p90=decimal(r.p90, "g", lang),
             stars="★" * r.stars + "☆" * (5 - r.stars), n=r.stars)


_COUNTED = {"squares": ("roll-to-the-top.squares_1", "roll-to-the-top.squares_n"),
            "rows": ("roll-to-the-top.rows_1", "roll-to-the-top.rows_n"),
            "games": ("roll-to-the-top.games_1", "roll-to-the-top.games_n")}


def counted(lang: str, key: str, n: int) -> str:
    """"1 square", "2 squares" ("1 casilla", "2 casillas")."""
    one, more = _COUNTED[key]
    return t(lang, one if n == 1 else more, n=n)
