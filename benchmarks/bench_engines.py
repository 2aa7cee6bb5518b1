"""Engine speed: random playouts of each game against python-chess random playouts.

Run from the repository root::

    python benchmarks/bench_engines.py            # about 30 s
    python benchmarks/bench_engines.py --quick    # a few seconds, to check that it runs

Each engine plays whole games with uniformly random decisions (``coronas.engine.RandomBot``)
and seeded dice and draws (``state.sample_chance``), through the public protocol
(``legal_actions``, ``apply`` with its legality check and undo record, ``chance_outcomes``).
An *action* is every ``apply``: a player's decision or a chance outcome; a *decision* is an
``apply`` at a node where a player chooses (not a chance node). python-chess plays
random games the usual way (``while not board.is_game_over(): board.push(random.choice(
list(board.legal_moves)))``); a *move* is one ``push``.

The games and chess take turns in short slices, several rounds over, so a machine that is
busy with something else slows them all alike: the ratios hold even when the absolute
figures do not. The target is a ratio of at least 1: each engine at least as fast per action
as python-chess is per move. The last column compares decisions with moves (a chess move is
a decision): Corona de Hierro aims at 1.5 there.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time

import _machine

_machine.ensure_importable()

import chess  # noqa: E402

from coronas.engine import RandomBot, available_games, play  # noqa: E402

GAMES = (("hierro", 4), ("carolus", 2), ("batalla", 2))
"""The games measured, with their number of players."""


def chess_playouts(seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Random chess games for about ``seconds``: (moves, games, time)."""
    moves = games = 0
    start = time.perf_counter()
    while True:
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            moves += 1
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return moves, games, elapsed


def game_playouts(
    game_cls: type, players: int, seconds: float, rng: random.Random
) -> tuple[int, int, int, float]:
    """Random games for about ``seconds``: (actions, decisions, games, time)."""
    actions = decisions = games = 0
    bot = RandomBot()
    start = time.perf_counter()
    while True:
        state = game_cls(players=players, seed=rng.getrandbits(32)).new_initial_state()
        counter = [0]

        def count(s, a, counter=counter):
            if s.current_player >= 0:
                counter[0] += 1

        play(state, bot, rng, callback=count)
        actions += len(state.history)
        decisions += counter[0]
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return actions, decisions, games, elapsed


def profile_game(game_cls: type, players: int, games: int = 3) -> str:
    """The ten functions with the most own time in a few random games."""
    profiler = cProfile.Profile()
    rng = random.Random(1)
    profiler.enable()
    for _ in range(games):
        state = game_cls(players=players, seed=rng.getrandbits(32)).new_initial_state()
        play(state, RandomBot(), rng)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(10)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run, to check it works")
    parser.add_argument(
        "--profile", action="store_true", help="profile the engines slower than chess"
    )
    args = parser.parse_args(argv)
    rounds, slice_s = (1, 0.3) if args.quick else (6, 1.0)
    registry = available_games()
    rng = random.Random(2026)

    totals: dict[str, list[float]] = {"chess": [0, 0, 0, 0.0]}
    for name, _ in GAMES:
        totals[name] = [0, 0, 0, 0.0]
    for _ in range(rounds):
        moves, games, elapsed = chess_playouts(slice_s, rng)
        t = totals["chess"]
        t[0] += moves
        t[1] += moves
        t[2] += games
        t[3] += elapsed
        for name, players in GAMES:
            actions, decisions, games, elapsed = game_playouts(
                registry[name], players, slice_s, rng
            )
            t = totals[name]
            t[0] += actions
            t[1] += decisions
            t[2] += games
            t[3] += elapsed

    chess_rate = totals["chess"][0] / totals["chess"][3]
    rows = [
        [
            f"python-chess {chess.__version__} (random games)",
            f"{totals['chess'][2]}",
            f"{totals['chess'][0] / totals['chess'][2]:.0f} moves",
            f"{chess_rate:,.0f} moves/s",
            "",
            "1.00",
            "1.00",
        ]
    ]
    slow: list[tuple[str, int]] = []
    for name, players in GAMES:
        actions, decisions, games, elapsed = totals[name]
        rate = actions / elapsed
        ratio = rate / chess_rate
        if ratio < 1:
            slow.append((name, players))
        rows.append(
            [
                f"{name} ({players} players)",
                f"{games}",
                f"{actions / games:.0f} actions ({decisions / games:.0f} decisions)",
                f"{rate:,.0f} actions/s",
                f"{decisions / elapsed:,.0f}",
                f"{ratio:.2f}",
                f"{decisions / elapsed / chess_rate:.2f}",
            ]
        )
    print(f"Engine speed: random playouts ({_machine.machine_line()})")
    print()
    print(
        _machine.table(
            [
                "engine",
                "games",
                "per game",
                "speed",
                "decisions/s",
                "speed / chess",
                "decisions / chess",
            ],
            rows,
        )
    )
    print()
    if slow:
        print("Slower per action than python-chess per move: " + ", ".join(n for n, _ in slow))
    else:
        print("Every engine is at least as fast per action as python-chess per move.")
    if args.profile:
        for name, players in slow:
            print(f"\nWhere {name} spends its time:\n")
            print(profile_game(registry[name], players))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
