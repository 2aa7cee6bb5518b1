"""Who wins from here: the precision a minute buys, and what common random numbers save.

Run from the repository root::

    python benchmarks/bench_winchances.py            # about four minutes
    python benchmarks/bench_winchances.py --quick    # a few seconds, to check that it runs
    python benchmarks/bench_winchances.py --decisions 24   # common random numbers, held out

**Precision per time.** From a mid-game position of each game (a seeded game between light
bots, stopped halfway through its length), ``win_chances`` plays the rest of the game out with
the default bot on 2 worker processes for 60 seconds (``time=60, jobs=2``) and reports the
widest 95% interval's half-width reached, with the games behind it. Targets: 1 percentage
point for Batalla de Coronas and Carolus Magnus, 2 for Corona de Hierro at 3 players.

**Common random numbers.** At the same position's first decision with a choice, the chance of
winning after each of two actions is estimated from ``GAMES`` games each, ``REPEATS`` times
with different seeds: once on common random numbers (game ``i`` after either action starts
from the same seeds, as ``rank_actions`` does) and once on independent seeds. The spread of
the estimated *difference* over the repeats, and the mean half-width of its 95% interval
(paired for common numbers, the two intervals combined for independent ones), are compared:
the same number of games, so the same time, and the ratio of the widths is what common random
numbers save.

**Common random numbers at held-out decisions** (``--decisions N``). One position says little
about a game's rankings, so the same question is asked at the first ``N`` held-out decisions
of ``benchmarks/bench_advice.py`` (those its advice is judged at): two of the legal moves drawn
by the decision's seed, ``--games`` games after each on common random numbers (one task list
for both, as ``rank_actions`` plays them) and on seeds of their own. From each decision, the
variance of one game's difference (the shares of the seat to move) on common numbers, and on
seeds of their own the two moves' variances added: the variance of a difference of two means
of ``n`` games is either over ``n``. The game's figure is the ratio of the sums over the
decisions (independent over common: how many times the games common numbers are worth), with
the decisions where common numbers did worse; for a game that declares its turns
(``GameSpec.turn``), the same on common numbers drawn by turns (``play(..., turns=)``).
Whether a game's rankings then pick better on them is the advice benchmark's question
(``bench_advice.py --common``, ``--by-turns``).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Any

import _machine

GAMES = (("batalla", 2, 1.0), ("carolus", 2, 1.0), ("hierro", 3, 2.0))
"""The games measured, their players and the target half-width in percentage points."""


def mid_game(name: str, players: int, seed: int = 7) -> Any:
    """A seeded game between light bots, stopped halfway through its length at a decision
    with at least two legal actions."""
    from coronas.engine import available_games

    game = available_games()[name]
    rng, bot = random.Random(seed), game.bot("light")
    whole = game(players=players, seed=seed).new_initial_state()
    while not whole.is_terminal():
        whole.apply(whole.sample_chance(rng) if whole.is_chance_node() else bot.choose(whole, rng))
    state = game(players=players, seed=seed).new_initial_state()
    for action in whole.history[: len(whole.history) // 2]:
        state.apply(action)
    rng = random.Random(seed + 1)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply(state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng))
    return state


def precision(state: Any, seconds: float, jobs: int) -> tuple[float, int, float]:
    """The widest half-width (percentage points), the games and the wall time of a run."""
    start = time.perf_counter()
    found = state.win_chances(time=seconds, jobs=jobs, exact=False, seed=1)
    return 100 * found.half_width, found.games, time.perf_counter() - start


def crn(state: Any, games: int, repeats: int) -> dict[str, float]:
    """The difference between the chances after the first two actions, estimated ``repeats``
    times on common and on independent random numbers: the spread of the estimates and the
    mean half-width of their intervals, in percentage points."""
    from coronas.manygames.estimator import FromPosition, Games, seat_bots
    from coronas.manygames.intervals import paired_difference, share_interval

    mover = state.current_player
    a, b = state.legal_actions()[:2]
    bots = seat_bots(state, None)
    out: dict[str, list[float]] = {"crn": [], "independent": [], "crn_hw": [], "ind_hw": []}
    for r in range(repeats):
        with Games(bots, 1000 + r, None, 1, 100_000) as common:
            tasks = common.draw(games)
            got = [common.play(FromPosition(state, None, x), tasks) for x in (a, b)]
        shares = [[None if g is None else g[mover] for g in p.per_game] for p in got]
        mean, lo, hi = paired_difference(shares[0], shares[1])
        out["crn"].append(100 * mean)
        out["crn_hw"].append(100 * (hi - lo) / 2)
        apart = []
        for k, x in enumerate((a, b)):  # each action on seeds of its own
            with Games(bots, 50_000 + 2 * r + k, None, 1, 100_000) as own:
                apart.append(own.play(FromPosition(state, None, x), own.draw(games)))
        means = [float(p.totals[mover]) / p.ended for p in apart]
        halves = [
            (lambda iv: (iv[1] - iv[0]) / 2)(
                share_interval(float(p.totals[mover]), float(p.squares[mover]), p.ended)
            )
            for p in apart
        ]
        out["independent"].append(100 * (means[0] - means[1]))
        out["ind_hw"].append(100 * math.hypot(*halves))
    return {
        "crn_sd": statistics.stdev(out["crn"]),
        "ind_sd": statistics.stdev(out["independent"]),
        "crn_hw": statistics.fmean(out["crn_hw"]),
        "ind_hw": statistics.fmean(out["ind_hw"]),
    }


def variances(state: Any, games: int, seed: int) -> tuple[float, float, float | None]:
    """The variance of one game's difference between two moves drawn with ``seed`` (the
    shares of the seat to move): on common random numbers, on games of their own (the
    two moves' variances added), and on common random numbers drawn by the game's turns
    (``GameSpec.turn``; None for a game that declares none)."""
    from coronas.manygames.estimator import FromPosition, Games, seat_bots

    mover = state.current_player
    moves = random.Random(seed).sample(state.legal_actions(), 2)
    bots = seat_bots(state, None)

    def shares(played: Any) -> list[float]:
        if None in played.per_game:
            raise SystemExit(f"a game from seed {seed}'s decision did not end")
        return [float(g[mover]) for g in played.per_game]

    with Games(bots, seed, None, 1, 100_000) as common:
        tasks = common.draw(games)
        a, b = (shares(common.play(FromPosition(state, None, m), tasks)) for m in moves)
    paired = statistics.variance([x - y for x, y in zip(a, b, strict=True)])
    turns = state.game.spec().turn
    by_turn = None
    if turns is not None:
        with Games(bots, seed, None, 1, 100_000, turns) as stepped:
            tasks = stepped.draw(games)
            a, b = (shares(stepped.play(FromPosition(state, None, m), tasks)) for m in moves)
        by_turn = statistics.variance([x - y for x, y in zip(a, b, strict=True)])
    apart = 0.0
    for k, m in enumerate(moves):
        with Games(bots, seed + 10**6 * (k + 1), None, 1, 100_000) as own:
            apart += statistics.variance(
                shares(own.play(FromPosition(state, None, m), own.draw(games)))
            )
    return paired, apart, by_turn


def held_out_crn(decisions: int, games: int) -> list[list[str]]:
    """:func:`variances` at the first ``decisions`` held-out decisions of each game (at
    ``bench_advice``'s number of players: Corona de Hierro at 4): a row a game."""
    from bench_advice import PLAYERS, held_out

    rows = []
    for name, players in sorted(PLAYERS.items()):
        found = [variances(state, games, seed) for seed, _, state in held_out(name, decisions)]
        paired = sum(p for p, _, _ in found)
        apart = sum(a for _, a, _ in found)
        worse = sum(p > a for p, a, _ in found)
        stepped = [t for _, _, t in found if t is not None]
        by_turn = sum(stepped)
        rows.append(
            [
                f"{name} ({players} players)",
                f"{decisions} x {games}",
                f"{math.sqrt(apart / decisions):.3f}",
                f"{math.sqrt(paired / decisions):.3f}",
                f"{apart / paired:.2f}" if paired else "no spread on common seeds",
                f"{worse} of {decisions}",
                f"{math.sqrt(by_turn / decisions):.3f}" if stepped else "-",
                f"{apart / by_turn:.2f}" if by_turn else "-",
                f"{sum(t > p for p, _, t in found if t is not None)} of {decisions}"
                if stepped
                else "-",
            ]
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run, to check it works")
    parser.add_argument(
        "--decisions",
        type=int,
        metavar="N",
        help="instead: common random numbers at the first N held-out decisions of each game",
    )
    parser.add_argument(
        "--games", type=int, default=200, help="with --decisions: games a move (200)"
    )
    args = parser.parse_args(argv)
    _machine.ensure_importable()
    if args.decisions is not None:
        if args.decisions < 1 or args.games < 2:
            parser.error("--decisions needs at least 1 decision and --games at least 2")
        print(f"Common random numbers at held-out decisions ({_machine.machine_line()})")
        print()
        header = [
            "game",
            "decisions x games a move",
            "sd of a game's difference, own seeds",
            "sd, common",
            "variance ratio own / common",
            "common worse at",
            "sd, common by turns",
            "variance ratio own / by turns",
            "by turns worse than common at",
        ]
        print(_machine.table(header, held_out_crn(args.decisions, args.games)))
        return 0

    seconds, jobs = (1.0, 2) if args.quick else (60.0, 2)
    games, repeats = (20, 3) if args.quick else (200, 30)
    print(f"Who wins from here ({_machine.machine_line()})")
    print()
    rows, crn_rows = [], []
    for name, players, target in GAMES:
        state = mid_game(name, players)
        half, played, wall = precision(state, seconds, jobs)
        rows.append(
            [
                f"{name} ({players} players)",
                f"{len(state.history)}",
                f"{played:,}",
                f"{wall:.0f} s",
                f"{half:.2f}",
                f"{target:g}",
                "yes" if half <= target else "no",
            ]
        )
        c = crn(state, games, repeats)
        crn_rows.append(
            [
                f"{name} ({players} players)",
                f"{repeats} x {games}",
                f"{c['ind_sd']:.2f}",
                f"{c['crn_sd']:.2f}",
                f"{c['ind_hw']:.2f}",
                f"{c['crn_hw']:.2f}",
                f"{c['crn_hw'] / c['ind_hw']:.2f}",
            ]
        )
    print(f"Precision per time: {seconds:g} s on {jobs} worker processes, light bots")
    print()
    print(
        _machine.table(
            [
                "game",
                "actions played before",
                "games",
                "wall time",
                "half-width (points)",
                "target",
                "met",
            ],
            rows,
        )
    )
    print()
    print("Common random numbers: the difference between the first two actions' chances")
    print()
    print(
        _machine.table(
            [
                "game",
                "repeats x games an action",
                "sd, independent (points)",
                "sd, common",
                "half-width, independent",
                "half-width, common (paired)",
                "ratio common / independent",
            ],
            crn_rows,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
