"""``coronas tournament GAME --bots random greedy mcts:500``: a ladder of bots.

Every pairing (every line-up of three to five seats) plays ``--games`` games with seats
rotated; the command prints each bot's win rate in each pairing with its 95% interval and the
bots' Bradley-Terry ratings in Elo points with their intervals. ``--out FILE`` keeps the games
as they finish and ``--resume`` continues an interrupted run; ``--plot FILE`` saves the
picture of the ratings.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

import coronas.cli.games as games
from coronas.cli._base import CommandError, cpu_count, whole

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
    from coronas.runner import Interrupted
    from coronas.tournament import tournament

    game_cls = games.find_game(args.game)
    n_players = args.players if args.players is not None else game_cls.min_players
    if not game_cls.min_players <= n_players <= game_cls.max_players:
        raise CommandError(
            f"{game_cls.name} is for {game_cls.min_players}-{game_cls.max_players} players, "
            f"got {n_players}"
        )
    names = _bot_names(args)
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
            f"{args.out}; continue with:\n  {_again(args, n_players, names)}",
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
        fig = ladder.plot().figure
        try:
            fig.savefig(args.plot, dpi=120)
        except OSError as exc:
            raise OSError(f"{args.plot}: cannot write the file ({exc.strerror or exc})") from None
        print(f"plot saved to {args.plot}")
    return 0


def _again(args: argparse.Namespace, n_players: int, names: list[str]) -> str:
    """The command that continues this run from its results file."""
    words = ["coronas", "tournament", args.game, "--players", str(n_players), "--bots", *names]
    words += ["--games", str(args.games), "--seed", str(args.seed)]
    words += ["--max-steps", str(args.max_steps), "--out", args.out, "--resume"]
    if args.rules:
        words += ["--rules", args.rules]
    if args.jobs > 1:
        words += ["--jobs", str(args.jobs)]
    return shlex.join(words)


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
    p.add_argument(
        "--jobs",
        type=whole(1, cpu_count),
        default=1,
        help="worker processes, 1 to the number of CPUs (default 1: this process)",
    )
    p.add_argument(
        "--max-steps",
        type=whole(1, 10**7),
        default=100_000,
        metavar="N",
        help="a game not over after N actions (default 100000) is counted apart",
    )
    p.add_argument("--anchor", metavar="BOT", help="the bot rated 0 Elo (default: random)")
    p.add_argument(
        "--out", metavar="FILE", help="keep each game in FILE (JSON Lines) as it finishes"
    )
    p.add_argument(
        "--resume", action="store_true", help="continue the interrupted run kept in --out FILE"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--plot", metavar="FILE", help="save the ratings and their intervals (PNG)")
    p.set_defaults(func=run, check=check, _parser=p)
