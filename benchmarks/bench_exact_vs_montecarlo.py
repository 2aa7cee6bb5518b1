"""Exact odds against Monte Carlo for one question, timed in the same run.

The question: in Corona de Hierro, 5 pawns with 1 experience shield attack 5 pawns with 1
shield; both sides play their shields optimally. What is P(attacker wins)?

* exact: ``coronas.hierro.odds.battle(5, 5, 1, 1)`` from a cold cache (the solver is
  rebuilt every time), median of several runs;
* Monte Carlo: ``coronas.hierro.odds.simulate_battle``, the fastest simulation the library
  has (plain dice and dictionary look-ups of the optimal policy, no game engine). "Good to 3
  decimals" means a 95% interval of ±0.0005: n = z² p (1 - p) / 0.0005² battles. The time
  per battle is measured on a sample and multiplied by that n (``--full`` runs them all).

Run from the repository root::

    python benchmarks/bench_exact_vs_montecarlo.py            # about 5 s
    python benchmarks/bench_exact_vs_montecarlo.py --quick    # about 1 s
    python benchmarks/bench_exact_vs_montecarlo.py --full     # runs every battle (~30 s)

Target: the exact answer at least 100 times faster than that Monte Carlo estimate.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import _machine

_machine.ensure_importable()

from coronas.hierro import odds  # noqa: E402

QUESTION = (5, 5, 1, 1)
"""Attacker pawns, defender pawns, attacker shields, defender shields."""
Z95 = 1.959963984540054
HALF_WIDTH = 0.0005


def exact_time(repeat: int) -> tuple[float, object]:
    """Median time of a cold exact solution, and the answer."""
    times = []
    answer = None
    for _ in range(repeat):
        odds.clear_cache()  # cold: no solver left from an earlier call
        start = time.perf_counter()
        answer = odds.battle(*QUESTION).attacker_wins
        times.append(time.perf_counter() - start)
    return statistics.median(times), answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--quick", action="store_true", help="a short run, to check it works")
    group.add_argument("--full", action="store_true", help="run every Monte Carlo battle")
    args = parser.parse_args(argv)

    t_exact, p = exact_time(3 if args.quick else 15)
    p_float = float(p)
    needed = math.ceil(Z95**2 * p_float * (1 - p_float) / HALF_WIDTH**2)
    sample = needed if args.full else (20_000 if args.quick else 300_000)
    start = time.perf_counter()
    estimate = odds.simulate_battle(*QUESTION, n=sample, seed=2026)
    t_sample = time.perf_counter() - start
    t_mc = t_sample / sample * needed
    lo, hi = estimate.interval

    a, d, sa, sd = QUESTION
    print(
        f"Exact odds against Monte Carlo: {a} pawns ({sa} shield) attack {d} pawns "
        f"({sd} shield), P(attacker wins) ({_machine.machine_line()})"
    )
    print()
    rows = [
        ["exact (cold cache)", f"{p} = {p_float:.6f}", "", f"{t_exact * 1000:.1f} ms", "1"],
        [
            f"Monte Carlo, {sample:,} battles (run)",
            f"{float(estimate.p):.6f}",
            f"{lo:.4f} - {hi:.4f}",
            f"{t_sample:.2f} s",
            f"{t_sample / t_exact:,.0f}",
        ],
        [
            f"Monte Carlo to ±{HALF_WIDTH} (95%): {needed:,} battles",
            "",
            f"± {HALF_WIDTH}",
            f"{t_mc:.1f} s" + ("" if args.full else " (projected)"),
            f"{t_mc / t_exact:,.0f}",
        ],
    ]
    print(_machine.table(["method", "P(attacker wins)", "95% interval", "time", "x exact"], rows))
    print()
    verdict = "meets" if t_mc / t_exact >= 100 else "misses"
    print(
        f"The exact answer is {t_mc / t_exact:,.0f} times faster: it {verdict} the target of 100."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
