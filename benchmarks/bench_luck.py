"""Luck-adjusted games: how much of a playout's variance the value model's view of the luck
of its rolls takes out, and what it costs.

Run from the repository root::

    python benchmarks/bench_luck.py            # about a minute and a half
    python benchmarks/bench_luck.py --quick    # a few seconds, to check that it runs

From a mid-game position of each game (a seeded game between light bots, stopped halfway
through its length; Corona de Hierro at 3 players), the rest of the game is played out
``GAMES`` times by the default bot on the same seeded games twice: plainly, and with each
game's shares adjusted by the luck of its rolls (``win_chances(..., luck=True)``: the sum over
the game's chance nodes of ``E[V(child)] - V(drawn child)``, ``V`` the game's value model, a
control variate of mean zero). Reported per game: the variance of seat 0's per-game value
both ways, their ratio (the games the adjusted estimate needs for the same interval, as a
share of the plain one's), and the seconds a game takes both ways (the adjustment values every
outcome of every roll and draw of at most 64 outcomes).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from coronas.engine import available_games
from coronas.manygames.estimator import FromPosition, Games, seat_bots

GAMES = 600
POSITIONS = [("batalla", 2, 1), ("carolus", 2, 1), ("hierro", 3, 1)]


def halfway(name: str, players: int, seed: int):
    """A position halfway through a seeded game between light bots."""
    game = available_games()[name]
    state = game(players=players, seed=seed).new_initial_state()
    rng, bot = random.Random(seed), game.bot("light")
    while not state.is_terminal():
        state.apply(state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng))
    for _ in range(len(state.history) // 2):
        state.undo()
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    return state


def measure(name: str, players: int, seed: int, games: int) -> dict[str, float]:
    state = halfway(name, players, seed)
    bots = seat_bots(state, None)
    out: dict[str, float] = {}
    for luck in (False, True):
        with Games(bots, 7, None, 1, 100_000) as runs:
            tasks = runs.draw(games)
            began = time.perf_counter()
            got = runs.play(FromPosition(state), tasks, luck)
            seconds = time.perf_counter() - began
        values = got.adjusted if luck else got.per_game
        seat0 = [float(v[0]) for v in values if v is not None]
        key = "luck" if luck else "plain"
        out[f"{key}_mean"] = statistics.fmean(seat0)
        out[f"{key}_var"] = statistics.variance(seat0)
        out[f"{key}_ms"] = 1000 * seconds / games
    out["ratio"] = out["luck_var"] / out["plain_var"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 games a position")
    args = parser.parse_args()
    games = 40 if args.quick else GAMES
    print(
        "| game | mean, plain | mean, adjusted | variance, plain | variance, adjusted | ratio "
        "| ms a game, plain | ms a game, adjusted |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, players, seed in POSITIONS:
        r = measure(name, players, seed, games)
        print(
            f"| {name} ({players} players) | {r['plain_mean']:.3f} | {r['luck_mean']:.3f} "
            f"| {r['plain_var']:.3f} | {r['luck_var']:.3f} | {r['ratio']:.2f} "
            f"| {r['plain_ms']:.1f} | {r['luck_ms']:.1f} |"
        )


if __name__ == "__main__":
    main()
