"""``coronas train GAME``: refit a game's value model and move prior from seeded self-play.

Plays ``--games`` seeded games (greedy, light and policy seats; the policy seats play the
shipped move prior, the one in ``--policy-prior FILE``, or none with ``--no-policy``), fits
both models on the first 80% (the move prior to greedy's moves or, with ``--teacher mcts:N``,
to that search's visit shares) and measures them on the rest (:func:`coronas.training.train`),
prints the figures and writes ``value_model.json`` and ``move_prior.json`` into ``--out`` (by
default the game's package data, the files the game ships and reads). With ``--players`` other
than the game's table, only the value model is written, as that table's
``value_model-N-players.json``: a seat's chances depend on how many share them, and the game
judges positions at that table with it.
"""

from __future__ import annotations

import argparse
from importlib import resources
from typing import Any

import coronas.cli.games as games
from coronas.cli._base import CommandError, cpu_count, whole

__all__ = ["MAX_GAMES", "add_parser", "run"]

MAX_GAMES = 10**6
"""The largest ``--games``."""


def run(args: argparse.Namespace) -> int:
    from coronas.engine.learning import ModelFileError, forget_loaded, learning_of
    from coronas.training import check_teacher, train

    game_cls = games.find_game(args.game)
    try:
        spec = learning_of(game_cls)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    try:
        check_teacher(game_cls, args.teacher)
    except ValueError as exc:  # "teacher: ...", refused before any game
        raise CommandError(f"--{exc}") from None
    try:
        result = train(
            game_cls.name,
            games=args.games,
            seed=args.seed,
            jobs=args.jobs,
            rate=args.rate,
            players=args.players,
            progress=not args.no_progress,
            policy_prior=False if args.no_policy else args.policy_prior or True,
            teacher=args.teacher,
        )
    except ModelFileError as exc:  # the --policy-prior file, refused before any game
        raise CommandError(str(exc)) from None

    print(f"coronas train {game_cls.name}")
    print(result.report())
    out = args.out or str(resources.files(spec.package).joinpath("data"))
    for path in result.save(out, game_cls.name):
        print(f"wrote {path}")
    if result.value.fitted["players"] != spec.players:
        print(
            f"(at {result.value.fitted['players']} players the value model alone: the game "
            f"plays the move prior fitted at {spec.players})"
        )
    forget_loaded()
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser("train", help="refit a game's value model and move prior by self-play")
    p.add_argument("game", help="the game: hierro, carolus or batalla")
    p.add_argument(
        "--games",
        type=whole(5, MAX_GAMES),
        default=2000,
        metavar="N",
        help="games played, 80%% fitted and 20%% held out (default 2000)",
    )
    p.add_argument(
        "--seed",
        type=whole(0, games.MAX_SEED),
        default=1000,
        metavar="S",
        help="the first game's seed; game i has seed S+i (default 1000)",
    )
    p.add_argument(
        "--jobs",
        type=whole(1, cpu_count),
        default=1,
        metavar="J",
        help="worker processes (default 1)",
    )
    p.add_argument(
        "--players",
        type=whole(2, games.MAX_PLAYERS),
        default=None,
        metavar="N",
        help="players at the table (default: the game's, hierro 3, the others 2; at "
        "another table only its value model is written)",
    )
    p.add_argument(
        "--rate",
        type=float,
        default=0.1,
        metavar="R",
        help="share of positions and of greedy decisions kept, in (0, 1] (default 0.1)",
    )
    policy = p.add_mutually_exclusive_group()
    policy.add_argument(
        "--policy-prior",
        metavar="FILE",
        help="the move prior the policy seats play (default: the shipped one, if any)",
    )
    policy.add_argument("--no-policy", action="store_true", help="no policy seat")
    p.add_argument(
        "--teacher",
        metavar="BOT",
        help="fit the move prior to this search's visit shares at the sampled decisions "
        "instead of greedy's moves (mcts:300; a number of simulations, so the refit repeats)",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="where to write the model files (default: the game's package data)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run, _parser=p, check=_check)


def _check(args: argparse.Namespace) -> None:
    if not 0 < args.rate <= 1:
        raise CommandError(f"--rate is a share of positions, in (0, 1], got {args.rate}")
