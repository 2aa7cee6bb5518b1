"""Playouts: random and light policies of each game, side by side, and how they play.

Run from the repository root::

    python benchmarks/bench_playouts.py            # about a minute and a half
    python benchmarks/bench_playouts.py --quick    # a few seconds, to check that it runs
    python benchmarks/bench_playouts.py --random-only --against DIR
    python benchmarks/bench_playouts.py --pairs DIR  # today against checkout DIR, same run
    python benchmarks/bench_playouts.py --pairs DIR --game carolus --policy light

A *playout* plays a game to its end from the start through the public protocol
(:func:`coronas.engine.play`: ``legal_actions``, ``apply`` with its checks and undo record,
``sample_chance``), every seat played by one policy: ``RandomBot`` (uniform among the legal
actions) or the game's ``LightBot`` (``coronas.<game>.playout``, the default playout policy of
a tree search). An *action* is every ``apply``, decisions and chance outcomes alike.

The policies take turns in short slices, several rounds over, and are timed in CPU time of
this process, so that a machine busy with other work slows them alike: the ratios hold even
when the absolute figures do not. The light policies' memoised tables are filled by a few
games before timing starts (a search fills them in its first playouts).

``--against DIR`` imports coronas from the checkout ``DIR`` instead of this one (with
``--random-only``, which needs nothing newer than the engine): the way to time an older
engine on the same machine. :data:`BEFORE` is such a figure, recorded before Corona de
Hierro's engine was made faster; the table sets today's figure beside it. A figure recorded
in another run met another load on the machine, so ``--pairs DIR`` compares in one run:
fresh processes of this checkout and of ``DIR`` in turns, each playing the same seeded games
(:func:`seeded_games`), and the ratio of each pair; ``--game`` and ``--policy light`` time
another game, or its light player, the same way.

Targets: Corona de Hierro's random playouts at least 2x :data:`BEFORE` in actions per second;
each light policy's playout at most 3x the time of a random playout of the same game; the light
policy winning clearly more than its share against random seats (seats rotated, 95% Wilson
interval).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from typing import Any

import _machine

GAMES = (("hierro", 3), ("batalla", 2), ("carolus", 2))
"""The games measured, with their number of players."""

BEFORE = {
    "actions_per_s": 37_377.0,
    "games_per_s": 83.8,
    "when": "2026-12-03 09:47-09:51 UTC, AMD EPYC, 2 cores, Python 3.11.7",
    "how": "mean of four --random-only runs against main at 73b10df",
}
"""Corona de Hierro, 3 players, random playouts, measured by this script with
``--random-only --against`` a checkout of the engine before its speed-ups."""


def playouts(
    game_cls: type, players: int, bot: Any, seconds: float, rng: random.Random
) -> tuple[int, int, float]:
    """Whole games played by ``bot`` in every seat for about ``seconds`` of CPU time:
    (actions, games, CPU seconds)."""
    from coronas.engine import play

    actions = games = 0
    start = time.process_time()
    while True:
        state = game_cls(players=players, seed=rng.getrandbits(32)).new_initial_state()
        play(state, bot, rng)
        actions += len(state.history)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return actions, games, elapsed


def seeded_games(
    game_cls: type, players: int, games: int, policy: str = "random"
) -> tuple[int, float, str]:
    """Games with seeds 0 to ``games - 1``, every seat played by ``policy`` (``random`` or the
    game's ``light`` player), seeded alike: (actions, CPU seconds, a digest of the
    histories). The same games on any engine that lists and plays as this one does."""
    import hashlib

    from coronas.engine import RandomBot, play

    bot = RandomBot() if policy == "random" else game_cls.bot(policy)
    if policy != "random":  # fill the light player's memoised tables first, as a search does
        play(game_cls(players=players, seed=games).new_initial_state(), bot, games)
    digest = hashlib.sha256()
    actions = 0
    start = time.process_time()
    for seed in range(games):
        state = play(game_cls(players=players, seed=seed).new_initial_state(), bot, seed)
        actions += len(state.history)
        digest.update(repr(state.history).encode())
    return actions, time.process_time() - start, digest.hexdigest()[:16]


def pairs(
    against: str, rounds: int, games: int, game: str = "hierro", policy: str = "random"
) -> int:
    """One game's seeded playouts (``policy`` in every seat) of this checkout against checkout
    ``against``, in turns, ``rounds`` times: a fresh process each, the same seeded games
    (their histories checked alike), CPU time of the games alone (imports left out)."""
    here = [
        sys.executable,
        __file__,
        "--seeded-games",
        str(games),
        "--game",
        game,
        "--policy",
        policy,
    ]
    rows = []
    ratios = []
    for r in range(rounds):
        got = {}
        for label, extra in (("before", ["--against", against]), ("today", [])):
            run = subprocess.run([*here, *extra], capture_output=True, text=True, check=True)
            actions, cpu, digest = run.stdout.split()[-3:]
            got[label] = (int(actions), float(cpu), digest)
        if got["before"][::2] != got["today"][::2]:
            raise SystemExit(
                f"the seeded games differ: {got['before'][0]} actions before "
                f"(histories {got['before'][2]}), {got['today'][0]} today ({got['today'][2]})"
            )
        before, today = (got[k][0] / got[k][1] for k in ("before", "today"))
        ratios.append(today / before)
        rows.append([f"{r + 1}", f"{before:,.0f}", f"{today:,.0f}", f"{today / before:.2f}"])
    players = dict(GAMES)[game]
    print(
        f"{game}, {players} players, {policy} playouts of {games} seeded games "
        f"({got['today'][0]} actions, the same histories), {against} against this checkout, "
        "in turns:"
    )
    print()
    print(_machine.table(["pair", "before (actions/s)", "today (actions/s)", "ratio"], rows))
    print()
    print(
        f"ratio today / before: median {statistics.median(ratios):.2f}, "
        f"min {min(ratios):.2f}, max {max(ratios):.2f} ({rounds} pairs)"
    )
    return 0


def match(game_cls: type, players: int, light: Any, games: int) -> tuple[float, int]:
    """``games`` seeded games of one light seat (rotated) against random seats: the light
    seat's wins (a shared win counts 1/k) and the number of games."""
    from coronas.engine import RandomBot, play

    wins = 0.0
    for g in range(games):
        seat = g % players
        bots: list[Any] = [RandomBot() for _ in range(players)]
        bots[seat] = light
        state = play(game_cls(players=players, seed=10_000 + g).new_initial_state(), bots, g)
        winners = state.winners()
        if seat in winners:
            wins += 1 / len(winners)
    return wins, games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run, to check it works")
    parser.add_argument(
        "--random-only", action="store_true", help="Corona de Hierro's random playouts alone"
    )
    parser.add_argument("--against", metavar="DIR", help="import coronas from checkout DIR")
    parser.add_argument(
        "--pairs",
        metavar="DIR",
        help="one game's seeded playouts against checkout DIR, in turns, in this run (by "
        "default Corona de Hierro's random playouts: --game, --policy)",
    )
    parser.add_argument(
        "--game", choices=[name for name, _ in GAMES], default="hierro", help="for --pairs"
    )
    parser.add_argument(
        "--policy", choices=("random", "light"), default="random", help="for --pairs"
    )
    parser.add_argument("--rounds", type=int, default=7, help="pairs for --pairs (7)")
    parser.add_argument("--games", type=int, default=60, help="seeded games a run (60)")
    parser.add_argument("--seeded-games", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pairs:
        return pairs(args.pairs, args.rounds, args.games, args.game, args.policy)
    if args.against:
        sys.path.insert(0, args.against)
    else:
        _machine.ensure_importable()
    import coronas
    from coronas.engine import RandomBot, available_games

    if args.seeded_games is not None:  # one side of --pairs
        game_cls = available_games()[args.game]
        got = seeded_games(game_cls, dict(GAMES)[args.game], args.seeded_games, args.policy)
        print(*got)
        return 0

    rounds, slice_s = (1, 0.3) if args.quick else (6, 1.5)
    match_games = 6 if args.quick else 40
    registry = available_games()
    rng = random.Random(2026)
    print(f"Playouts ({_machine.machine_line()}), coronas from {coronas.__file__}")
    print()

    if args.random_only:
        totals = [0, 0, 0.0]
        for _ in range(rounds):
            for i, v in enumerate(playouts(registry["hierro"], 3, RandomBot(), slice_s, rng)):
                totals[i] += v
        actions, games, cpu = totals
        rows = [["hierro (3 players)", f"{games}", f"{actions / games:.0f}"]]
        rows[0] += [f"{actions / cpu:,.0f}", f"{games / cpu:.1f}"]
        print(
            _machine.table(
                ["random playouts", "games", "actions / game", "actions/s", "games/s"], rows
            )
        )
        return 0

    light = {name: registry[name].bot("light") for name, _ in GAMES}
    for name, players in GAMES:  # fill the light policies' memoised tables
        playouts(registry[name], players, light[name], 0.05, random.Random(1))
    totals: dict[tuple[str, str], list[float]] = {}
    for _ in range(rounds):
        for name, players in GAMES:
            for policy, bot in (("random", RandomBot()), ("light", light[name])):
                got = playouts(registry[name], players, bot, slice_s, rng)
                row = totals.setdefault((name, policy), [0, 0, 0.0])
                for i, v in enumerate(got):
                    row[i] += v

    rows = []
    for name, players in GAMES:
        r_actions, r_games, r_cpu = totals[(name, "random")]
        for policy in ("random", "light"):
            actions, games, cpu = totals[(name, policy)]
            per_game = (cpu / games) / (r_cpu / r_games)
            per_action = (cpu / actions) / (r_cpu / r_actions)
            rows.append(
                [
                    f"{name} ({players} players)",
                    policy,
                    f"{games}",
                    f"{actions / games:.0f}",
                    f"{actions / cpu:,.0f}",
                    f"{games / cpu:.1f}",
                    f"{per_game:.2f}",
                    f"{per_action:.2f}",
                ]
            )
    print(
        _machine.table(
            [
                "game",
                "policy",
                "games",
                "actions / game",
                "actions/s",
                "games/s",
                "time / game vs random",
                "time / action vs random",
            ],
            rows,
        )
    )
    print()
    actions, games, cpu = totals[("hierro", "random")]
    if BEFORE["actions_per_s"]:
        print(
            "Corona de Hierro's random playouts, today's engine in this run against the figure "
            f"recorded before its speed-ups ({BEFORE['when']}, {BEFORE['how']}):"
        )
        print()
        print(
            _machine.table(
                ["engine", "actions/s", "games/s", "ratio (actions/s)"],
                [
                    [
                        "before (recorded)",
                        f"{BEFORE['actions_per_s']:,.0f}",
                        f"{BEFORE['games_per_s']:.1f}",
                        "1.00",
                    ],
                    [
                        "today (this run)",
                        f"{actions / cpu:,.0f}",
                        f"{games / cpu:.1f}",
                        f"{actions / cpu / BEFORE['actions_per_s']:.2f}",
                    ],
                ],
            )
        )
        print()

    from coronas.manygames.simulate import wilson_interval

    rows = []
    for name, players in GAMES:
        wins, n = match(registry[name], players, light[name], match_games)
        low, high = wilson_interval(wins, n)
        rows.append(
            [
                f"{name} ({players} players)",
                f"{n}",
                f"{wins:g}",
                f"{wins / n:.0%}",
                f"{low:.0%} - {high:.0%}",
                f"{1 / players:.0%}",
            ]
        )
    print("One light seat (rotated) against random seats, seeded games:")
    print()
    print(
        _machine.table(
            ["game", "games", "light wins", "win rate", "95% interval (Wilson)", "a seat's share"],
            rows,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
