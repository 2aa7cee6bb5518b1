"""Cut games in a ranking of the moves: games cut after a horizon and scored by the value
model (``rank_actions(horizon=N)``) against games played to the end, at one time budget.

Run from the repository root, one position at a time::

    python benchmarks/bench_horizon.py 0        # the README's Hierro position, about 70 s
    python benchmarks/bench_horizon.py 1        # a Batalla decision
    python benchmarks/bench_horizon.py 2        # a Carolus decision
    python benchmarks/bench_horizon.py --quick   # a check that it runs (Batalla, 1 s)

At each position (``bench_advice.position``), ``rank_actions`` with the default bot, seed 0,
``time=SECONDS`` on one core, with games played to the end and cut at each horizon;
reported: games a second (every move's games), the mean half-width of a move's 95% interval
(over the moves played, and over those still live at the end, in points), the shortlist's
size, and the regret of the pick against a plain reference ranking
(``time=REFERENCE``, seed 1, games to the end): the reference's chance of its best move minus
its chance of the move picked, in points, and whether the pick is on the reference's
shortlist. A cut ranking's half-width is that of the value model's score at the cut, not of
the chance of winning: the regret against games to the end is what says whether it helps.
"""

from __future__ import annotations

import argparse
import time

from bench_advice import position

POSITIONS = [("hierro", 4, 1, 40), ("batalla", 2, 1, 30), ("carolus", 2, 1, 30)]
HORIZONS = (20, 60)


def summary(ranking, seconds: float) -> dict[str, float]:
    played = [r for r in ranking.rows if r["games"]]
    live = [r for r in played if not r["dropped"]]
    return {
        "rate": sum(r["games"] for r in ranking.rows) / seconds,
        "half": sum((r["high"] - r["low"]) / 2 for r in played) / max(1, len(played)),
        "live": sum((r["high"] - r["low"]) / 2 for r in live) / max(1, len(live)),
        "shortlist": sum(1 for r in ranking.rows if r["shortlist"]),
        "games": ranking.games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("position", type=int, nargs="?", choices=range(len(POSITIONS)))
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--reference", type=float, default=30.0)
    parser.add_argument("--horizons", type=int, nargs="*", default=list(HORIZONS))
    parser.add_argument(
        "--quick", action="store_true", help="a check that it runs: Batalla, 1 s, one horizon"
    )
    args = parser.parse_args()
    if args.quick:
        args.position = 1 if args.position is None else args.position
        args.seconds, args.reference, args.horizons = 1.0, 2.0, [20]
    elif args.position is None:
        parser.error("give a position: 0 (Hierro), 1 (Batalla) or 2 (Carolus)")
    name, players, seed, steps = POSITIONS[args.position]
    state = position(name, players, seed, steps)
    ref = state.rank_actions(time=args.reference, seed=1, exact=False)
    chance = {r["label"]: float(r["chance"]) for r in ref.rows}
    listed = {r["label"] for r in ref.rows if r["shortlist"]}
    best = ref.rows[0]["label"]
    print(
        f"{name} {players}p seed {seed} after {steps}: {len(ref.rows)} moves; reference "
        f"{ref.games} games a live move in {args.reference:.0f} s, best {best!r}, "
        f"shortlist {len(listed)}"
    )
    print(
        "| games | games a second | games a live move | mean half-width, played / live "
        "| shortlist | regret (points) | pick on the reference's shortlist |"
    )
    print("|---|---|---|---|---|---|---|")
    for horizon in [None, *args.horizons]:
        began = time.monotonic()
        ranking = state.rank_actions(time=args.seconds, seed=0, exact=False, horizon=horizon)
        r = summary(ranking, time.monotonic() - began)
        picked = ranking.rows[0]["label"]
        how = "to the end" if horizon is None else f"cut after {horizon}"
        print(
            f"| {how} | {r['rate']:.0f} | {r['games']} "
            f"| {100 * r['half']:.1f} / {100 * r['live']:.1f} "
            f"| {r['shortlist']} | {100 * (chance[best] - chance[picked]):.1f} "
            f"| {'yes' if picked in listed else 'no'} |"
        )


if __name__ == "__main__":
    main()
