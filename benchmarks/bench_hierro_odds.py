"""Timings of Corona de Hierro's exact odds, and of Monte Carlo for the same question.

Run it from the repository root:

    python benchmarks/bench_hierro_odds.py            # the full run (about a minute)
    python benchmarks/bench_hierro_odds.py --quick    # a short Monte Carlo run

It prints a Markdown section for docs/performance.md:

* the 10 x 10 table of P(attacker wins) for each pair of shields 0..3 x 0..3 (16 tables),
  from a cold cache, all at once and each table on its own;
* the order of those 16 questions: in natural order ((0, 0), (0, 1), ... (3, 3)) against
  the best order (shields (3, 3) first), and one cold query against the same query warm,
  timed side by side in turns (so load on the machine slows them alike), with the ratios;
* one mid-game query (5 pawns with 2 shields attacking 4 pawns with 1 shield), cold;
* the same query by Monte Carlo, with enough battles for three decimal places (a 95%
  interval of +-0.0005 around the estimate);
* for scale, the game-independent solver on classic Risk, 30 armies against 30;
* 6 pawns against 6 walked on the engine's own game tree (every die an explicit chance
  node, both sides rerolling as the solver says, transpositions merged on ``State.key()``)
  against the solver, side by side, with the cost of the walk's apply and undo alone.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import math
import os
import platform
import statistics
import time
from functools import partial
from pathlib import Path

from coronas import attrition
from coronas.dice import exact_fractions
from coronas.engine import exact_distribution
from coronas.hierro import AttackArmy, Game, Roll, odds
from coronas.hierro.odds.simulation import MAX_SIMULATIONS

QUERY = (5, 4, 2, 1)
"""Attacker pawns, defender pawns, attacker shields, defender shields."""
Z95 = 1.959963984540054


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def time_it(fn, repeat: int = 1, clock=time.perf_counter) -> list[float]:
    """Wall times of ``fn``, the garbage collector off while it runs (as ``timeit`` does: a
    full collection of the heap sympy leaves would land on whichever call is unlucky)."""
    out = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = clock()
            fn()
            out.append(clock() - start)
        finally:
            gc.enable()
    return out


def all_tables() -> None:
    for sa in range(4):
        for sd in range(4):
            odds.battle_table(10, 10, sa, sd)


def each_table_cold() -> float:
    total = 0.0
    for sa in range(4):
        for sd in range(4):
            odds.clear_cache()
            start = time.perf_counter()
            odds.battle_table(10, 10, sa, sd)
            total += time.perf_counter() - start
    return total


def cold_query() -> None:
    odds.clear_cache()
    odds.battle(*QUERY)


NATURAL = [(sa, sd) for sa in range(4) for sd in range(4)]
"""The 16 shield pairs (attacker, defender) in natural order: the solver grows 7 times."""
BEST = [(3, 3)] + [pair for pair in NATURAL if pair != (3, 3)]
"""The same 16 with the most shields first: the solver is sized once."""


def tables_in(order: list[tuple[int, int]]) -> None:
    odds.clear_cache()
    for sa, sd in order:
        odds.battle_table(10, 10, sa, sd)


def side_by_side(rounds: int) -> dict[str, float]:
    """The best CPU time of each order and of the cold and warm query, run in turns, each
    case once a round: the least disturbed run of each by other work on the machine.

    Under :func:`exact_fractions`, so the times are the solver's and not sympy's
    conversion of the answers (which costs the same in any order)."""
    cases = {
        "natural": lambda: tables_in(NATURAL),
        "best": lambda: tables_in(BEST),
        "cold": cold_query,
        "warm": lambda: odds.battle(*QUERY),
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    with exact_fractions():
        for _ in range(rounds):
            for name, fn in cases.items():
                times[name] += time_it(fn, clock=time.process_time)
    return {name: min(ts) for name, ts in times.items()}


CITY = "Belluno"
"""A city without a castle, for the battles walked on the engine."""
WALKS = [(6, 6, 0, 0), (6, 6, 1, 1)]


def battle_position(a: int, d: int, sa: int, sd: int):
    """The engine state of ``a`` pawns attacking ``d`` at CITY, the attacker about to roll."""
    state = Game(players=3).position(armies={CITY: {0: a, 1: d}}, shields=[sa, sd, 0])
    state.apply(AttackArmy(CITY, 1))
    return state


def walk(state, policy) -> tuple[object, int]:
    """P(attacker wins) by the engine's tree walk, and the number of nodes it visited."""
    visits = 0

    def fight_over(s) -> bool:
        nonlocal visits
        visits += 1
        return s.fight is None

    dist = exact_distribution(
        state,
        lambda s: odds.battle_choice(s, policy),
        lambda s: s.army(CITY, 1) == 0,
        stop=fight_over,
    )
    return dist[True], visits


def apply_undo_cost(state, n: int = 20_000) -> float:
    """CPU seconds of one unchecked apply of a roll and its undo, as the walk does them."""
    roll = Roll(3)
    start = time.process_time()
    for _ in range(n):
        state._apply_unchecked(roll)
        state.undo()
    return (time.process_time() - start) / n


def solve_cold(battle: tuple[int, int, int, int]) -> None:
    odds.clear_cache()
    odds.battle(*battle)


def walks_side_by_side(rounds: int) -> list[dict[str, float]]:
    """Solver (cold) and engine walk of each battle in WALKS, in turns: best CPU times."""
    out = []
    with exact_fractions():
        for battle in WALKS:
            policy = odds.battle(*battle).policy
            state = battle_position(*battle)
            solver, walker = [], []
            for _ in range(rounds):
                solver += time_it(partial(solve_cold, battle), clock=time.process_time)
                walker += time_it(partial(walk, state, policy), clock=time.process_time)
            odds.clear_cache()
            exact = odds.battle(*battle).attacker_wins
            found, visits = walk(state, policy)
            if found != exact:
                raise SystemExit(f"the walk gives {found}, the solver {exact}")
            out.append(
                {
                    "battle": battle,
                    "solver": min(solver),
                    "walk": min(walker),
                    "visits": visits,
                    "apply_undo": apply_undo_cost(state),
                }
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short Monte Carlo run only")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    def cold_tables() -> None:
        odds.clear_cache()
        all_tables()

    tables = time_it(cold_tables, repeat=3)
    each = [each_table_cold() for _ in range(2)]
    query_cold = time_it(cold_query, repeat=20)
    odds.battle(*QUERY)
    query_warm = time_it(lambda: odds.battle(*QUERY), repeat=20)
    castle = time_it(
        lambda: odds.castle_assault(4, army=2, shields=2, troops_inside=True).turns.mean,
        repeat=20,
    )

    def risk() -> None:
        attrition.clear_cache()
        attrition.solve(attrition.RISK, 30, 30)

    risk_time = time_it(risk, repeat=3)
    rounds = 5 if args.quick else 21
    order = side_by_side(rounds)
    walks = walks_side_by_side(2 if args.quick else 7)

    exact = odds.battle(*QUERY).attacker_wins
    p = float(exact)
    n = math.ceil(Z95**2 * p * (1 - p) / 0.0005**2)
    run = 20_000 if args.quick else min(n, MAX_SIMULATIONS)
    start = time.perf_counter()
    est = odds.simulate_battle(*QUERY, n=run, seed=args.seed)
    mc_time = (time.perf_counter() - start) * n / run  # projected to n battles
    half = Z95 * math.sqrt(p * (1 - p) / n)

    a, d, sa, sd = QUERY
    print("## Corona de Hierro odds (`coronas.hierro.odds`)")
    print()
    print(
        f"Measured {datetime.date.today().isoformat()} on {cpu_name()} "
        f"({platform.machine()}, {os.cpu_count()} cores), Python "
        f"{platform.python_version()}, by `python benchmarks/bench_hierro_odds.py`"
        + (" --quick" if args.quick else "")
        + "."
    )
    print()
    print("| what | time |")
    print("|---|---|")
    print(
        f"| all 16 tables 10 x 10 (shields 0..3 x 0..3), cold cache, one after the other "
        f"| {min(tables):.3f} s (best of 3) |"
    )
    print(
        f"| the same 16 tables, the cache cleared before each one (sum) "
        f"| {min(each):.3f} s (best of 2) |"
    )
    print(
        f"| one query, {a} pawns + {sa} shields attack {d} pawns + {sd} shield, cold "
        f"| {statistics.median(query_cold) * 1000:.1f} ms (median of 20) |"
    )
    print(
        f"| the same query, tables already solved "
        f"| {statistics.median(query_warm) * 1000:.2f} ms (median of 20) |"
    )
    print(
        f"| castle with troops inside, 2 shields: exact turns distribution and mean "
        f"| {statistics.median(castle) * 1000:.2f} ms (median of 20) |"
    )
    print(
        f"| `coronas.attrition`: Risk, 30 armies against 30, cold "
        f"| {min(risk_time) * 1000:.0f} ms (best of 3) |"
    )
    print(
        f"| the query by Monte Carlo to 95% +-{half:.4f}: {n:,} battles "
        f"(timed on {run:,}, projected) | {mc_time:.1f} s |"
    )
    print()
    print(
        f"Exact answer: {exact} = {p:.6f}. Monte Carlo: {est.successes / run:.6f} "
        f"(off by {abs(est.successes / run - p):.6f}; seed {args.seed})."
    )
    print()
    print(
        f"The order of the questions, timed side by side in turns under `exact_fractions()` "
        f"(CPU time, best of {rounds} rounds, each from a cold cache):"
    )
    print()
    print("| what | time | ratio |")
    print("|---|---|---|")
    ratio = order["natural"] / order["best"]
    print(
        f"| 16 tables 10 x 10 in natural order, shields (0, 0), (0, 1) ... (3, 3) "
        f"| {order['natural'] * 1000:.1f} ms | {ratio:.2f} x the best order |"
    )
    print(
        f"| the same 16 tables, shields (3, 3) first (the best order) "
        f"| {order['best'] * 1000:.1f} ms | 1.00 |"
    )
    print(
        f"| one query, {a} v {d} with {sa} / {sd} shields, cold "
        f"| {order['cold'] * 1000:.2f} ms | {order['cold'] / order['warm']:.1f} x warm |"
    )
    print(f"| the same query, tables already solved | {order['warm'] * 1000:.2f} ms | 1.0 |")
    print()
    print(
        "The engine's own game tree against the solver, timed side by side in turns "
        f"(CPU time, best of {2 if args.quick else 7}): the walk visits every roll, reroll "
        "decision and exchange as an explicit node, merging equal positions on "
        "`State.key()`; *apply + undo alone* is the cost of its unchecked apply and undo of "
        "one roll, times the nodes visited: what any walk on this engine pays before keys "
        "and sums."
    )
    print()
    print(
        "| battle (pawns, shields) | solver, cold | engine walk | walk / solver "
        "| nodes visited | apply + undo alone | its ratio |"
    )
    print("|---|---|---|---|---|---|---|")
    for w in walks:
        a, d, sa, sd = w["battle"]
        floor = w["apply_undo"] * w["visits"]
        print(
            f"| {a} v {d}, shields {sa} / {sd} | {w['solver'] * 1000:.2f} ms "
            f"| {w['walk'] * 1000:.1f} ms | {w['walk'] / w['solver']:.0f} x "
            f"| {w['visits']:,} | {floor * 1000:.1f} ms ({w['apply_undo'] * 1e6:.1f} us each) "
            f"| {floor / w['solver']:.0f} x |"
        )


if __name__ == "__main__":
    main()
