"""``coronas simulate GAME``: many games with bots; win rates and game lengths."""

from __future__ import annotations

import argparse
import functools
from typing import Any

import coronas.cli.games as games
from coronas.cli._base import cpu_count, whole

__all__ = ["MAX_GAMES", "add_parser", "run"]

MAX_GAMES = 10**6
"""The largest ``--games``."""


def run(args: argparse.Namespace) -> int:
    from coronas.simulate import simulate

    game_cls = games.find_game(args.game)
    n_players = games.players(game_cls, args)
    _, bots = games.make_bots(game_cls, args.bots, n_players)
    rules = args.rules
    if rules is not None and game_cls.rules_class is not None:
        rules = game_cls.rules_class.load(rules)  # read once, not in every worker
    factory = functools.partial(game_cls, players=n_players, rules=rules)
    result = simulate(
        factory,
        bots,
        args.games,
        seed=args.seed,
        jobs=args.jobs,
        progress=not args.no_progress,
    )
    print(result)
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        fig = result.plot()
        try:
            fig.savefig(args.plot, dpi=120)
        except OSError as exc:
            raise OSError(f"{args.plot}: cannot write the file ({exc.strerror or exc})") from None
        print(f"plot saved to {args.plot}")
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser("simulate", help="play many games: win rates, game lengths")
    games.game_arguments(p)
    p.add_argument(
        "--games",
        type=whole(1, MAX_GAMES),
        default=1000,
        help=f"number of games, 1 to {MAX_GAMES} (default 1000)",
    )
    p.add_argument(
        "--jobs",
        type=whole(1, cpu_count),
        default=1,
        help="worker processes, 1 to the number of CPUs (default 1: this process)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--plot", metavar="FILE", help="save a plot of the results (PNG)")
    p.set_defaults(func=run, _parser=p)
