"""Advice a player can act on: what a ranking of the moves gives within a time budget, and how
much worse its pick is than a ranking with twenty times the budget.

Run from the repository root::

    python benchmarks/bench_advice.py            # about 20 minutes (5 positions, 10 s + 200 s)
    python benchmarks/bench_advice.py --quick    # under a minute, to check that it runs

The positions: Corona de Hierro at the README's position (4 players, seed 1, after 40 steps
of light play) and held-out decisions (other seeds and player counts, Batalla de Coronas
halfway through a game). At each, ``rank_actions`` with the default bot and ``time=T`` (10 s;
``--quick``: 1 s) on one core; reported: the seconds to the quick ranking, the moves, how many
ended with a half-width of at most 5 points or dropped with a reason (the target: all), the
shortlist's size (target: at most 3), and the regret of its pick: the reference ranking's
chance of the reference's best move minus its chance of the move picked, in points, the
reference played with ``20 * T`` seconds and another seed.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from coronas.engine import available_games

POSITIONS = [
    ("hierro", 4, 1, 40),  # the README's position
    ("hierro", 4, 2, 40),
    ("hierro", 3, 3, 60),
    ("batalla", 2, 1, 30),
    ("batalla", 2, 2, 30),
]


def position(name: str, players: int, seed: int, steps: int) -> Any:
    """The first decision with a choice after ``steps`` steps of seeded light play."""
    game = available_games()[name]
    state = game(players=players, seed=seed).new_initial_state()
    rng, bot = random.Random(seed), game.bot("light")
    while len(state.history) < steps or state.current_player < 0 or len(state.legal_actions()) < 2:
        state.apply(state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng))
    return state


def advise(state: Any, budget: dict[str, Any], reference: dict[str, Any]) -> dict[str, Any]:
    """One position's figures: ``budget`` and ``reference`` are ``rank_actions`` options
    (``time=10`` or ``games=40``, a seed); the regret is measured on the reference."""
    began = time.monotonic()
    first: list[float] = []

    def seen(ranking: Any) -> None:
        if not first:
            first.append(time.monotonic() - began)

    ranking = state.rank_actions(on_update=seen, **budget)
    seconds = time.monotonic() - began
    ref = state.rank_actions(**reference)
    chance = {r["label"]: float(r["chance"]) for r in ref.rows}
    best = ref.rows[0]["label"]
    picked = ranking.rows[0]["label"]
    settled = sum(1 for r in ranking.rows if r["dropped"] or (r["high"] - r["low"]) / 2 <= 0.05)
    return {
        "moves": len(ranking.rows),
        "quick": first[0] if first else seconds,
        "seconds": seconds,
        "settled": settled,
        "shortlist": sum(1 for r in ranking.rows if r["shortlist"]),
        "regret": 100 * (chance[best] - chance[picked]),
        "games": ranking.games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 s a ranking, two positions")
    args = parser.parse_args()
    seconds = 1.0 if args.quick else 10.0
    positions = POSITIONS[:1] + POSITIONS[3:4] if args.quick else POSITIONS
    print(
        "| position | moves | first ranking (s) | ranking (s) | games a live move "
        "| within 5 points or dropped | shortlist | regret (points) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, players, seed, steps in positions:
        state = position(name, players, seed, steps)
        r = advise(state, {"time": seconds, "seed": 0}, {"time": 20 * seconds, "seed": 1})
        print(
            f"| {name} {players}p seed {seed} after {steps} | {r['moves']} | {r['quick']:.2f} "
            f"| {r['seconds']:.1f} | {r['games']} | {r['settled']} of {r['moves']} "
            f"| {r['shortlist']} | {r['regret']:.1f} |"
        )


if __name__ == "__main__":
    main()
