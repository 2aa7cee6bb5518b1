"""``coronas tournament GAME --bots random greedy mcts:500``: a ladder of bots.

Every pairing (every line-up of three to five seats) plays ``--games`` games with seats
rotated; the command prints each bot's win rate in each pairing with its 95% interval and the
bots' Bradley-Terry ratings in Elo points with their intervals. ``--out FILE`` keeps the games
as they finish and ``--resume`` continues an interrupted run; ``--plot FILE`` saves the
picture of the ratings.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import coronas.cli.games as games
from coronas.cli._base import CommandError, whole
from coronas.cli.simulate import again, run_arguments, save_plot

__all__ = ["MAX_GAMES", "add_parser", "run"]

MAX_GAMES = 100_000
"""The largest ``--games`` (a pairing's games)."""


def _bot_names(args: argparse.Namespace) -> list[str]:
    names = [n.strip() for word in args.bots for n in word.split(",") if n.strip()]
    if len(names) < 2:
        raise CommandError("a tournament needs at least two bots: --bots random greedy")
    if len(set(names)) != len(names):
        raise CommandError(f"--bots names a bot twice: {' '.join(names)}")
    return names


def run(args: argparse.Namespace) -> int:
    from coronas.manygames.runner import Interrupted
    from coronas.manygames.tournament import MAX_GAMES as MAX_TOTAL
    from coronas.manygames.tournament import count_line_ups, tournament

    game_cls = games.find_game(args.game)
    n_players = args.players if args.players is not None else game_cls.min_players
    if not game_cls.min_players <= n_players <= game_cls.max_players:
        raise CommandError(
            f"{game_cls.name} is for {game_cls.min_players}-{game_cls.max_players} players, "
            f"got {n_players}"
        )
    names = _bot_names(args)
    n_ups = count_line_ups(len(names), n_players)
    if n_ups * args.games > MAX_TOTAL:  # a usage mistake: refused before any bot is made
        what = "pairings" if n_players == 2 else "line-ups"
        raise CommandError(
            f"{len(names)} bots at {n_players} seats make {n_ups} {what}; with --games "
            f"{args.games} that is {n_ups * args.games} games, more than the limit of "
            f"{MAX_TOTAL} games a tournament: give fewer --games or fewer --bots"
        )
    for name in names:  # unknown names and bad budgets: a usage mistake, named
        games.make_bots(game_cls, name, 1)
    if args.anchor is not None and args.anchor not in names:
        raise CommandError(f"--anchor {args.anchor!r} is not one of --bots: {' '.join(names)}")
    rules = args.rules
    if rules is not None and game_cls.rules_class is not None:
        rules = game_cls.rules_class.load(rules)
    try:
        ladder = tournament(
            game_cls,
            names,
            games=args.games,
            players=n_players,
            rules=rules,
            seed=args.seed,
            jobs=args.jobs,
            out=args.out,
            resume=args.resume,
            max_steps=args.max_steps,
            progress=not args.no_progress,
            anchor=args.anchor,
        )
    except FileExistsError:
        raise CommandError(
            f"{args.out}: the file exists: add --resume to continue its run, or choose another file"
        ) from None
    except Interrupted as stop:
        print(
            f"coronas: interrupted after {stop.played} of {stop.total} games, kept in "
            f"{args.out}; continue with:\n  {again(args, 'tournament', n_players, names)}",
            file=sys.stderr,
        )
        return 130
    print(ladder)
    if args.out:
        print(f"games kept in {args.out}")
    if args.plot:
        if ladder.ratings is None:
            raise CommandError("no game compared two bots: there are no ratings to plot")
        import matplotlib

        matplotlib.use("Agg")
        save_plot(ladder.plot().figure, args.plot)
    return 0


def check(args: argparse.Namespace) -> None:
    if args.resume and not args.out:
        raise CommandError("--resume needs --out FILE, the results file to continue")


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "tournament", help="a ladder of bots: every pairing, win rates and Elo ratings"
    )
    p.add_argument("game", metavar="GAME", help="hierro, carolus or batalla")
    p.add_argument(
        "--bots",
        nargs="+",
        default=["random", "greedy", "mcts"],
        metavar="BOT",
        help="two or more bots, each once; mcts takes a budget: mcts:2000 (simulations), "
        "mcts:1s (seconds a decision) (default: random greedy mcts)",
    )
    p.add_argument(
        "--players",
        type=whole(1, games.MAX_PLAYERS),
        help="number of players, within the game's range (hierro 3-5, carolus 2-3, batalla 2)",
    )
    p.add_argument(
        "--games",
        type=whole(1, MAX_GAMES),
        default=100,
        help=f"games of each pairing or line-up, 1 to {MAX_GAMES} (default 100)",
    )
    p.add_argument(
        "--seed",
        type=whole(0, games.MAX_SEED),
        default=0,
        help="random seed, 0 to 2**63-1 (default 0)",
    )
    p.add_argument("--rules", metavar="FILE", help="a JSON rule file (fields that differ)")
    run_arguments(p)
    p.add_argument("--anchor", metavar="BOT", help="the bot rated 0 Elo (default: random)")
    p.add_argument("--plot", metavar="FILE", help="save the ratings and their intervals (PNG)")
    p.set_defaults(func=run, check=check, _parser=p)
