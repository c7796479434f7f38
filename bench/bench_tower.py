"""Issue 4 figures: Roll to the Top simulation speed, many random towers, one sheet's cost.

    python bench/bench_tower.py
"""

from __future__ import annotations

import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import PYTHON, machine, median_ms, run_seconds  # noqa: E402

from rnwprint.games.roll_to_the_top import game as rtt, sheet as rtt_sheet  # noqa: E402
from rnwprint.games.roll_to_the_top import sim as tower_sim  # noqa: E402
from rnwprint.render.pdf import render_pdf  # noqa: E402


def main() -> None:
    print(f"machine: {machine()}")

    for label, tower in (("pisa (built-in, 30 squares)", rtt.builtins()["pisa"].tower),
                         ("random seed 1 (30 squares)", rtt.random_towers(1, 1, 30)[0])):
        assert len(tower) == 30
        times, cpu = [], []
        for _ in range(3):
            start, start_cpu = time.perf_counter(), time.process_time()
            rounds = tower_sim.simulate(tower, 10_000)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        print(f"10,000 solo games, {label}: {statistics.median(times):.2f} s median of 3, "
              f"CPU {statistics.median(cpu):.2f} s (target <= 5; mean {statistics.fmean(rounds):.1f} rounds)")

    towers = rtt.random_towers(99, 40, 30)
    it = iter(towers * 2)
    builtin_ms = median_ms(lambda: render_pdf([rtt_sheet.build("eiffel", "es", "a4")]))
    fresh_ms = median_ms(lambda: render_pdf([rtt_sheet.build_tower(next(it), "es", "a4")]), repeat=30, warmup=3)
    print(f"build + render one tower sheet (PDF), median of 30: built-in eiffel {builtin_ms:.1f} ms, "
          f"a new random tower each time (its {tower_sim.RATING_GAMES}-game rating included) {fresh_ms:.1f} ms "
          f"(target <= 30)")

    with tempfile.TemporaryDirectory() as tmp:
        argv = [PYTHON, "-m", "rnwprint", "tower", "--random", "--count", "1000", "--seed", "1",
                "-o", f"{tmp}/towers.pdf"]
        times = [run_seconds(argv) for _ in range(3)]
        size = pathlib.Path(f"{tmp}/towers.pdf").stat().st_size
    print(f"whole process, tower --random --count 1000 --seed 1: {statistics.median(times):.1f} s median of 3 "
          f"(runs {', '.join(f'{t:.1f}' for t in times)}; target <= 20); PDF {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
