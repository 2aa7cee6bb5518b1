"""Do the bots finish their games? How many games end by the book, how many at the step cap.

Run from the repository root::

    python benchmarks/bench_endings.py            # 1,000 games a row: about 20 min, one core
    python benchmarks/bench_endings.py --quick    # 20 games a row, to check that it runs

Corona de Hierro: greedy self-play at 3, 4 and 5 players. Batalla de Coronas and Carolus
Magnus (2 players): every pairing of the random and greedy bots. Each row is one
:func:`manygames.simulate.simulate` run (seed 0, the default step cap of 100,000 actions), and
counts the games that ended by the book (a rule of the game ended them), at the step cap, or
on a bot's error. The target is every game by the book. The table goes to
``docs/performance.md``; games per second are printed beside it for information only.
"""

from __future__ import annotations

import argparse
import time
from functools import partial

import _machine

_machine.ensure_importable()

from coronas.cli import bots_for, find_game  # noqa: E402
from coronas.manygames.simulate import simulate  # noqa: E402

ROWS = (
    ("hierro", ("greedy", "greedy", "greedy")),
    ("hierro", ("greedy",) * 4),
    ("hierro", ("greedy",) * 5),
    ("batalla", ("random", "random")),
    ("batalla", ("greedy", "random")),
    ("batalla", ("greedy", "greedy")),
    ("carolus", ("random", "random")),
    ("carolus", ("greedy", "random")),
    ("carolus", ("greedy", "greedy")),
)
"""The runs: a game and its bots, one per seat (the seats rotate from game to game)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 games a row")
    parser.add_argument("--games", type=int, default=1000, help="games a row (default 1000)")
    args = parser.parse_args()
    n = 20 if args.quick else args.games
    print(_machine.machine_line())
    rows = []
    for name, names in ROWS:
        game_cls = find_game(name)
        table = bots_for(game_cls)
        bots = [table[b]() for b in names]
        start = time.perf_counter()
        result = simulate(partial(game_cls, players=len(names)), bots, n, seed=0, progress=False)
        seconds = time.perf_counter() - start
        lost = result.unfinished
        caps = sum(1 for r in lost if r.outcome == "cap")
        rows.append(
            [
                name,
                str(len(names)),
                " v ".join(names),
                str(n),
                str(len(result.finished)),
                str(caps),
                str(len(lost) - caps),
                f"{n / seconds:.1f}",
            ]
        )
        print(f"{name} {' v '.join(names)}: {len(result.finished)} of {n} by the book", flush=True)
    header = ["game", "players", "bots", "games", "by the book", "at the cap", "bot error"]
    print(_machine.table([*header, "games/s"], rows))


if __name__ == "__main__":
    main()
