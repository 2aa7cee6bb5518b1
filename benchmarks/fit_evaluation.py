"""Fit a game's evaluation of a position to who went on to win, and say how well it predicts.

A search that cuts its playouts scores the position where it stopped by the game's
``playout.evaluate``: each seat's chance of winning from there. Where the game's playout module
names its ``FEATURES`` (``features(state)``, one row per seat) and their ``WEIGHTS``, those
weights can be fitted instead of guessed: play seeded games, keep positions along them with
each seat's features and the game's final win shares, and find the weights of the conditional
logit model that make the results most likely (``coronas.engine.evaluation.fit_weights``).

Run from the repository root (4000 games of Corona de Hierro take about five minutes on one
worker, two to three on two)::

    python benchmarks/fit_evaluation.py hierro
    python benchmarks/fit_evaluation.py hierro --games 400    # a quicker, rougher fit

The games: greedy players in every seat, and in every other game one seat (rotated) the light
playout policy, so that the positions include uneven play. Positions: a tenth of the
decisions at settled positions (``playout.settled``), drawn by a seeded coin. The first 80%
of the games fit the weights, the last 20% measure them: the mean log-loss, in nats, of the
held-out positions' results under the uniform guess (``ln k``), the game's weights as they
stand, and the new fit (lower is better). Paste the new weights into ``WEIGHTS`` only with
the figures beside them in docs/performance.md.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

import _machine

PLAYERS = {"hierro": 3, "carolus": 2, "batalla": 2}
"""Seats at the table of the games fitted, by game."""


def playout_module(name: str) -> tuple[Any, Any]:
    """The game class named ``name`` and its ``playout`` module."""
    from coronas.engine import available_games

    game = available_games()[name]
    return game, importlib.import_module(f"{game.__module__.rsplit('.', 1)[0]}.playout")


def positions(name: str, players: int, rate: float, seed: int) -> list[tuple[Any, Any]]:
    """One seeded game's sampled positions: ``(features, final win shares)`` each."""
    from coronas.engine.evaluation import win_shares

    game, module = playout_module(name)
    settled = getattr(module, "settled", None)
    bots = [game.bot("greedy") for _ in range(players)]
    if seed % 2:
        bots[seed % players] = game.bot("light")
    rng = random.Random(seed)
    state = game(players=players, seed=seed).new_initial_state()
    kept = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        if (settled is None or settled(state)) and rng.random() < rate:
            kept.append(module.features(state))
        state.apply(bots[state.current_player].choose(state, rng))
    won = win_shares(state)
    return [(f, won) for f in kept]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=4000, help="games played (4000)")
    parser.add_argument("--seed", type=int, default=1000, help="the first game's seed (1000)")
    parser.add_argument("--rate", type=float, default=0.1, help="share of positions kept (0.1)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    args = parser.parse_args(argv)
    _machine.ensure_importable()
    from coronas.engine.evaluation import fit_weights, log_loss

    module = playout_module(args.game)[1]
    if not hasattr(module, "features"):
        print(f"{args.game} has no features(state) in its playout module to fit", file=sys.stderr)
        return 2
    players = PLAYERS[args.game]
    seeds = range(args.seed, args.seed + args.games)
    work = partial(positions, args.game, players, args.rate)
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(work, seeds, chunksize=8))
    cut = int(0.8 * len(games))
    train = [p for g in games[:cut] for p in g]
    test = [p for g in games[cut:] for p in g]
    weights = fit_weights(train)
    print(f"Fit of {args.game}'s evaluation ({_machine.machine_line()})")
    print()
    print(
        f"{args.games} games from seed {args.seed}: {len(train)} positions of {cut} games "
        f"fitted, {len(test)} positions of {len(games) - cut} games held out."
    )
    print()
    print(
        _machine.table(
            ["feature", "weight now", "fitted"],
            [
                [n, f"{w:.3f}", f"{v:.3f}"]
                for n, w, v in zip(module.FEATURES, module.WEIGHTS, weights, strict=True)
            ],
        )
    )
    print()
    rows = [
        ["every seat alike", f"{math.log(players):.4f}"],
        ["the weights now", f"{log_loss(test, module.WEIGHTS):.4f}"],
        ["the weights fitted", f"{log_loss(test, weights):.4f}"],
    ]
    print(_machine.table(["held-out positions scored by", "log-loss (nats)"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
