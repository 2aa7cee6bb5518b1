"""Strength: the search bot against the greedy and the random players, game by game.

Run from the repository root (each match-up of 100 games takes 5 to 30 minutes on two
cores; run it in the background)::

    python benchmarks/bench_strength.py                       # every game, 100 games a match-up
    python benchmarks/bench_strength.py --game batalla --games 200
    python benchmarks/bench_strength.py --quick               # a few seconds, to check that it runs

Each match-up plays seat-rotated games (``coronas.simulate``: game ``i`` moves every bot one
seat on, so the search bot sits in every seat equally often) on two worker processes, every
game seeded. The search bot is the game's own ``mcts`` (``Game.bot("mcts")``: its tuned
exploration constant, playout depth and budget, ``playout.SEARCH``); before the games, its
time per decision is measured on one core from seeded positions of the game, since the budget
must stay within half a second a decision. Two-player games set mcts against one opponent;
Corona de Hierro at 3 players sets one mcts seat against two of the opponent.

Targets (the lower end of the 95% Wilson interval): against greedy above 50% in Batalla de
Coronas and Carolus Magnus (target 75%), above 1/3 in Corona de Hierro (target 50%); against
random at least 95% in every game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from functools import partial
from typing import Any

import _machine

GAMES = (("batalla", 2), ("carolus", 2), ("hierro", 3))
"""The games measured, with their number of players."""
FAIR = {2: 0.5, 3: 1 / 3}
"""A seat's fair share of the wins, by the number of players: what the greedy target beats."""


def decision_times(game: Any, players: int, bot: Any, positions: int) -> list[float]:
    """Seconds the search takes for one decision, at ``positions`` seeded positions of games
    between light bots (one core, this process)."""
    light = game.bot("light")
    times = []
    for seed in range(positions):
        rng = random.Random(seed)
        state = game(players=players, seed=seed).new_initial_state()
        for _ in range(20 + 10 * seed):
            if state.is_terminal():
                break
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else light.choose(state, rng)
            )
        while not state.is_terminal() and (
            state.is_chance_node() or len(state.legal_actions()) < 2
        ):
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else light.choose(state, rng)
            )
        if state.is_terminal():
            continue
        start = time.perf_counter()
        bot.choose(state, random.Random(seed))
        times.append(time.perf_counter() - start)
    return times


def match(game: Any, players: int, bot: Any, opponent: str, games: int, jobs: int) -> Any:
    """Seat-rotated games of the search bot against ``players - 1`` seats of ``opponent``."""
    from coronas.simulate import simulate

    bots = [bot] + [game.bot(opponent) for _ in range(players - 1)]
    factory = partial(game, players=players)
    return simulate(factory, bots, games, seed=2026, jobs=jobs, progress=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run, to check it works")
    parser.add_argument("--game", choices=[g for g, _ in GAMES], action="append")
    parser.add_argument("--games", type=int, default=100, help="games a match-up (100)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument(
        "--against", choices=["greedy", "random"], action="append", help="opponents (both)"
    )
    args = parser.parse_args(argv)
    _machine.ensure_importable()
    from coronas.engine import available_games

    games = 2 if args.quick else args.games
    chosen = [(g, p) for g, p in GAMES if not args.game or g in args.game]
    opponents = args.against or ["greedy", "random"]
    print(f"Strength ({_machine.machine_line()})")
    print()
    rows, timing = [], []
    for name, players in chosen:
        game = available_games()[name]
        bot = game.bot("mcts:5") if args.quick else game.bot("mcts")
        times = decision_times(game, players, bot, 2 if args.quick else 8)
        print(f"{name}: {bot!r}, {statistics.fmean(times):.2f} s a decision", file=sys.stderr)
        timing.append(
            [
                f"{name} ({players} players)",
                repr(bot),
                f"{statistics.fmean(times):.2f} s",
                f"{max(times):.2f} s",
            ]
        )
        for opponent in opponents:
            start = time.perf_counter()
            result = match(game, players, bot, opponent, games, args.jobs)
            lo, hi = result.confidence_interval(0)
            rate = float(result.win_rate(0))
            target = 0.95 if opponent == "random" else FAIR[players]
            seats = "one mcts seat against " + ", ".join([opponent] * (players - 1))
            rows.append(
                [
                    f"{name} ({players} players)",
                    seats,
                    f"{len(result.finished)}",
                    f"{result.wins[0]}",
                    f"{rate:.1%}",
                    f"{lo:.1%} - {hi:.1%}",
                    f"lower end above {target:.0%}" if opponent != "random" else "at least 95%",
                    "yes" if (lo > target if opponent != "random" else rate >= target) else "no",
                    f"{(time.perf_counter() - start) / 60:.0f} min",
                ]
            )
            # each match-up as it ends, so that a long run interrupted keeps what it measured
            print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    print("The search bot's time per decision (one core, seeded positions):")
    print()
    print(_machine.table(["game", "bot", "mean", "longest"], timing))
    print()
    print(f"Matches, seats rotated, {args.jobs} worker processes, seed 2026:")
    print()
    print(
        _machine.table(
            [
                "game",
                "seats",
                "games",
                "mcts wins",
                "win rate",
                "95% interval (Wilson)",
                "condition",
                "met",
                "wall time",
            ],
            rows,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
