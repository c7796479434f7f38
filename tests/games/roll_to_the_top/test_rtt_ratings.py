"""Roll to the Top: the difficulty ratings and the simulated games behind them."""

from __future__ import annotations

from rnwprint.core.sheet import Path, Text
from rnwprint.games.roll_to_the_top import game as rtt
from rnwprint.games.roll_to_the_top import sim as tower_sim
from rnwprint.games.roll_to_the_top.sheet import GOLD, build

BUILTINS = list(rtt.builtins())
T_TOWER = "[][][]\n  []\n"  # B1 and B3 are overhangs beside B2, which rests on A1
PYRAMID_ART = "    []\n   [][]\n  [][][]\n [][][][]\n[][][][][]\n"
LEDGE = "[][][][]\n      []\n"  # B1, B2, B3 are overhangs side by side; B4 rests on A1



# --- ratings --------------------------------------------------------------------------------

def test_ratings_are_deterministic_and_ordered():
    easy, big = rtt.builtins()["pyramid"].tower, rtt.builtins()["sagrada"].tower
    assert len(easy) == 15 and len(big) >= 39
    a = tower_sim.rate(easy, games=60)
    assert a == tower_sim.rate(easy, games=60)
    b = tower_sim.rate(big, games=60)
    assert a.mean < b.mean and a.p90 < b.p90 and a.stars < b.stars
    assert a.p10 <= a.mean <= a.p90 and 1 <= a.stars <= 5


def test_burj_khalifa_rates_easiest_of_the_builtins():
    # the rules: "Con los nuevos jugadores, el Burj Khalifa es el más fácil"
    means = {tid: tower_sim.rate(b.tower).mean for tid, b in rtt.builtins().items()}
    assert min(means, key=means.get) == "burj"
    assert all(means["burj"] < mean for tid, mean in means.items() if tid != "burj")


def test_burj_sheet_prints_one_star_and_about_9_rounds():
    sheet = build("burj", "en", "a4")
    gold = [i for i in sheet.items if isinstance(i, Path) and i.style.fill == GOLD]
    assert len(gold) == 1
    assert "about 9 rounds (6–12) solo" in [i.text for i in sheet.items if isinstance(i, Text)]


def test_every_simulated_game_of_a_big_tower_ends():
    rounds = tower_sim.simulate(rtt.builtins()["taipei"].tower, 30)
    assert all(0 < r < tower_sim.MAX_ROUNDS for r in rounds)


def test_white_die_faces_are_two_add_two_remove_either_and_swap():
    assert tower_sim.WHITE_FACES == ("+", "+", "−", "−", "±", "⇄")

