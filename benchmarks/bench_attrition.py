"""The exact attrition solver against the obvious alternatives, on classic Risk.

Run from the repository root::

    python benchmarks/bench_attrition.py            # about two minutes
    python benchmarks/bench_attrition.py --quick    # small sizes, to check that it runs

What is timed, the contenders taking turns round after round so that load on the machine
slows them alike (the ratios hold when the absolute figures do not):

* ``attrition.win_table(RISK, 60, 60)`` from a cold cache, against a bare dynamic programme
  written below for Risk alone (integer counts over powers of 6, the same exact table of
  Fractions at the end). coronas is timed handing out Fractions (``exact_fractions``) and
  handing out a sympy Matrix (the default);
* ``attrition.solve(RISK, 30, 30).attacker_wins`` cold, each run in a fresh interpreter
  (imports not timed), against icepool pushing the battle forward with
  ``icepool.map(step, start, repeat=a + d - 1)``;
* ``attrition.simulate(RISK, 10, 10, n=20000)`` against a plain Monte Carlo loop over
  ``random.random`` written out for Risk (it rolls the same battles for the same seed);
* how the exact table's time grows with its size n x n, n = 30 .. 200 (the exponent of a
  least-squares fit of log time on log n), and the approximate 500 x 500 table.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import statistics
import subprocess
import sys
import time
from fractions import Fraction

import _machine

_machine.ensure_importable()

from coronas import attrition  # noqa: E402
from coronas.attrition import RISK  # noqa: E402
from coronas.dice import exact_fractions  # noqa: E402

HAVE_ICEPOOL = importlib.util.find_spec("icepool") is not None
"""icepool comes with the ``bench`` extra (``pip install -e ".[bench]"``)."""

# -- the references -------------------------------------------------------------------------

RISK_ROUNDS = {
    # (attacker dice, defender dice): [(attacker losses, defender losses, count)] out of
    # 6**(dice rolled), the published counts (Tan 1997; Osborne 2003).
    (1, 1): [(0, 1, 15), (1, 0, 21)],
    (2, 1): [(0, 1, 125), (1, 0, 91)],
    (3, 1): [(0, 1, 855), (1, 0, 441)],
    (1, 2): [(0, 1, 55), (1, 0, 161)],
    (2, 2): [(0, 2, 295), (1, 1, 420), (2, 0, 581)],
    (3, 2): [(0, 2, 2890), (1, 1, 2611), (2, 0, 2275)],
}


def bare_dp(n_a: int, n_d: int) -> list[list[Fraction]]:
    """P(attacker wins) for Risk up to n_a x n_d: P = N / 6**E, E the most dice ever rolled."""
    N = [[0] * (n_d + 1)] + [[1] + [0] * n_d for _ in range(n_a)]
    E = [[0] * (n_d + 1) for _ in range(n_a + 1)]
    pw = [6**k for k in range(5 * (n_a + n_d) + 1)]
    for a in range(1, n_a + 1):
        for d in range(1, n_d + 1):
            k = min(a, 3) + min(d, 2)
            moves = [
                (max(a - la, 0), max(d - ld, 0), c)
                for la, ld, c in RISK_ROUNDS[min(a, 3), min(d, 2)]
            ]
            e = max(E[x][y] for x, y, _ in moves)
            N[a][d] = sum(c * N[x][y] * pw[e - E[x][y]] for x, y, c in moves)
            E[a][d] = e + k
    return [[Fraction(N[a][d], pw[E[a][d]]) for d in range(1, n_d + 1)] for a in range(1, n_a + 1)]


def plain_monte_carlo(a0: int, d0: int, n: int, seed: int) -> float:
    """Risk battles rolled with random.random and nothing else, written out for Risk."""
    rnd = random.Random(seed).random
    wins = 0
    for _ in range(n):
        a, d = a0, d0
        while a and d:
            xs = [int(rnd() * 6)]
            if a > 1:
                xs.append(int(rnd() * 6))
            if a > 2:
                xs.append(int(rnd() * 6))
            ys = [int(rnd() * 6)]
            if d > 1:
                ys.append(int(rnd() * 6))
            xs.sort(reverse=True)
            ys.sort(reverse=True)
            if xs[0] > ys[0]:
                d -= 1
            else:
                a -= 1
            if len(xs) > 1 and len(ys) > 1:
                if xs[1] > ys[1]:
                    d -= 1
                else:
                    a -= 1
        wins += d == 0
    return wins / n


def icepool_battle(a0: int, d0: int) -> Fraction:
    """P(attacker wins) by icepool: each round's losses from the sorted pools, then the
    battle pushed forward ``a + d - 1`` rounds with ``icepool.map``."""
    import icepool

    def losses(xs: tuple, ys: tuple) -> tuple[int, int]:
        la = ld = 0
        for x, y in zip(sorted(xs, reverse=True), sorted(ys, reverse=True), strict=False):
            if x > y:
                ld += 1
            else:
                la += 1
        return la, ld

    rounds = {
        (na, nd): list(icepool.map(losses, icepool.d6.pool(na), icepool.d6.pool(nd)).items())
        for na in (1, 2, 3)
        for nd in (1, 2)
    }

    def step(state: tuple[int, int]) -> object:
        a, d = state
        if a == 0 or d == 0:
            return state
        out: dict[tuple[int, int], int] = {}
        for (la, ld), q in rounds[min(a, 3), min(d, 2)]:
            key = (max(a - la, 0), max(d - ld, 0))
            out[key] = out.get(key, 0) + q
        return icepool.Die(out)

    end = icepool.map(step, icepool.Die([(a0, d0)]), repeat=a0 + d0 - 1)
    won = sum(q for (a, d), q in end.items() if d == 0 and a > 0)
    return Fraction(won, end.denominator())


# -- timing ---------------------------------------------------------------------------------


def seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def cold_table(n: int, mode: str) -> None:
    attrition.clear_cache()
    if mode == "fractions":
        with exact_fractions():
            attrition.win_table(RISK, n, n)
    else:
        attrition.win_table(RISK, n, n)


CHILD = {
    "coronas": "attrition.solve(RISK, A, A).attacker_wins",
    "icepool": "icepool_battle(A, A)",
}


def child(name: str, size: int) -> None:
    """In a fresh interpreter: import, then time one cold answer and print the seconds."""
    import sympy  # noqa: F401

    if name == "icepool":
        import icepool  # noqa: F401
    code = CHILD[name].replace("A", str(size))
    print(seconds(lambda: eval(code)))  # the imports above are not timed


def fresh(name: str, size: int) -> float:
    out = subprocess.run(
        [sys.executable, __file__, "--child", name, str(size)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.split()[-1])


def interleaved(
    contenders: dict[str, object], rounds: int, pick=statistics.median
) -> dict[str, float]:
    """The median (or ``pick``) time of each contender, taking turns ``rounds`` times."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, fn in contenders.items():
            times[name].append(seconds(fn))  # type: ignore[arg-type]
    return {name: pick(ts) for name, ts in times.items()}


def slope(sizes: list[int], times: list[float]) -> float:
    """The exponent k of a least-squares fit time ~ n**k."""
    xs, ys = [math.log(n) for n in sizes], [math.log(t) for t in times]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def fmt(t: float) -> str:
    return f"{t * 1000:.1f} ms" if t < 1 else f"{t:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, to check it runs")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    quick = args.quick
    table_n, battle_n, sim_n = (20, 10, 1000) if quick else (60, 30, 20_000)
    rounds = 1 if quick else 5
    sizes = [10, 20, 40] if quick else [30, 60, 100, 150, 200]

    # The exact values agree before anything is timed.
    with exact_fractions():
        assert attrition.win_table(RISK, 12, 12) == bare_dp(12, 12)
    # Both roll the dice in the same order with one random() each: the same battles.
    assert float(attrition.simulate(RISK, 10, 10, n=500, rng=3)) == plain_monte_carlo(
        10, 10, 500, 3
    )
    if HAVE_ICEPOOL:
        assert attrition.solve(RISK, 8, 7).attacker_wins == icepool_battle(8, 7)

    table = interleaved(
        {
            "bare": lambda: bare_dp(table_n, table_n),
            "fractions": lambda: cold_table(table_n, "fractions"),
            "sympy": lambda: cold_table(table_n, "sympy"),
        },
        rounds,
    )
    cold: dict[str, list[float]] = (
        {"coronas": [], "icepool": []} if HAVE_ICEPOOL else {"coronas": []}
    )
    for _ in range(1 if quick else 3):
        for name in cold:
            cold[name].append(fresh(name, battle_n))
    solve_t = {name: statistics.median(ts) for name, ts in cold.items()}
    solve_ref = (
        (f"icepool `map(..., repeat=a+d-1)`: {fmt(solve_t['icepool'])}", solve_t["icepool"])
        if HAVE_ICEPOOL
        else ('icepool not installed (`pip install -e ".[bench]"`)', math.nan)
    )
    sim = interleaved(
        {
            "plain": lambda: plain_monte_carlo(10, 10, sim_n, 1),
            "coronas": lambda: attrition.simulate(RISK, 10, 10, n=sim_n, rng=1),
        },
        max(1, rounds // 2),
    )
    growth: dict[str, list[float]] = {"bare": [], "fractions": []}
    for n in sizes:  # the best of a few runs: load on the machine only ever adds time
        best = interleaved(
            {
                "bare": lambda n=n: bare_dp(n, n),
                "fractions": lambda n=n: cold_table(n, "fractions"),
            },
            1 if quick else 3 if n <= 100 else 2,
            pick=min,
        )
        for name in growth:
            growth[name].append(best[name])
    big = sizes[-1]
    big_sympy = seconds(lambda: cold_table(big, "sympy"))
    approx_n = 100 if quick else 500
    attrition.clear_cache()
    approx = seconds(lambda: attrition.win_table(RISK, approx_n, approx_n, exact=False))

    print(f"## Attrition (`coronas.attrition`), classic Risk\n\n{_machine.machine_line()}\n")
    print(
        f"Medians of {rounds} interleaved rounds (cold solves: of {len(cold['coronas'])} fresh "
        "interpreters each).\n"
    )
    rows = [
        [
            f"`win_table(RISK, {table_n}, {table_n})` cold, Fractions",
            fmt(table["fractions"]),
            f"bare integer DP: {fmt(table['bare'])}",
            f"{table['fractions'] / table['bare']:.2f}",
            "at most 3",
        ],
        [
            f"`win_table(RISK, {table_n}, {table_n})` cold, sympy Matrix",
            fmt(table["sympy"]),
            f"bare integer DP: {fmt(table['bare'])}",
            f"{table['sympy'] / table['bare']:.2f}",
            "",
        ],
        [
            f"`solve(RISK, {battle_n}, {battle_n}).attacker_wins` cold",
            fmt(solve_t["coronas"]),
            solve_ref[0],
            f"{solve_t['coronas'] / solve_ref[1]:.3f}",
            "at most 0.33",
        ],
        [
            f"`simulate(RISK, 10, 10, n={sim_n})`",
            fmt(sim["coronas"]),
            f"plain `random.random` loop for Risk: {fmt(sim['plain'])}",
            f"{sim['coronas'] / sim['plain']:.2f}",
            "at most 3",
        ],
        [f"`win_table(RISK, {big}, {big})` cold, sympy Matrix", fmt(big_sympy), "", "", "seconds"],
        [
            f"`win_table(RISK, {approx_n}, {approx_n}, exact=False)` (floats)",
            fmt(approx),
            "",
            "",
            "",
        ],
    ]
    print(_machine.table(["work", "coronas", "reference", "coronas / reference", "target"], rows))
    print()
    grow_rows = [
        [str(n), fmt(tb), fmt(tf)]
        for n, tb, tf in zip(sizes, growth["bare"], growth["fractions"], strict=True)
    ]
    grow_rows.append(
        [
            f"growth n^k, n = {sizes[0]}..{sizes[-1]}",
            f"k = {slope(sizes, growth['bare']):.2f}",
            f"k = {slope(sizes, growth['fractions']):.2f}",
        ]
    )
    print("Growth: each size the best of a few cold runs.\n")
    print(_machine.table(["n x n table", "bare integer DP", "win_table, Fractions"], grow_rows))
    p = attrition.solve(RISK, 10, 10).attacker_wins
    print(f"\nRisk 10 v 10: attacker wins {float(p):.6f} (exact, {len(str(p))} characters).")


if __name__ == "__main__":
    main()
