"""``coronas simulate GAME``: many games with bots; win rates by bot and by seat, game lengths.

``--out FILE`` keeps each game in a JSON Lines file as it finishes and ``--resume`` continues
an interrupted run from it; ``--csv FILE`` writes the table of games for pandas or a
spreadsheet; a game that does not end within ``--max-steps`` is counted apart (``--strict``
stops the run at the first one instead).
"""

from __future__ import annotations

import argparse
import functools
import shlex
import sys
from typing import Any

import coronas.cli.games as games
from coronas.cli._base import CommandError, cpu_count, whole

__all__ = ["MAX_GAMES", "MAX_STEPS", "add_parser", "again", "run", "run_arguments", "save_plot"]

MAX_GAMES = 10**6
"""The largest ``--games``."""
MAX_STEPS = 10**7
"""The largest ``--max-steps``."""


def run(args: argparse.Namespace) -> int:
    from coronas.manygames.simulate import Interrupted, simulate

    game_cls = games.find_game(args.game)
    n_players = games.players(game_cls, args)
    _, bots = games.make_bots(game_cls, args.bots, n_players)
    rules = args.rules
    if rules is not None and game_cls.rules_class is not None:
        rules = game_cls.rules_class.load(rules)  # read once, not in every worker
    factory = functools.partial(game_cls, players=n_players, rules=rules)
    try:
        result = simulate(
            factory,
            bots,
            args.games,
            seed=args.seed,
            jobs=args.jobs,
            progress=not args.no_progress,
            max_steps=args.max_steps,
            strict=args.strict,
            out=args.out,
            resume=args.resume,
        )
    except FileExistsError:
        raise CommandError(
            f"{args.out}: the file exists: add --resume to continue its run, or choose another file"
        ) from None
    except Interrupted as stop:
        print(
            f"coronas: interrupted after {stop.played} of {stop.total} games, kept in "
            f"{args.out}; continue with:\n  {again(args, 'simulate', n_players, [args.bots])}",
            file=sys.stderr,
        )
        return 130
    print(result)
    if result.unfinished:
        first = result.unfinished[0]
        bots_by_seat = ",".join(result.labels[b] for b in first.seats)
        print(
            f"  coronas play {args.game} --players {n_players} --bots {bots_by_seat} "
            f"--seed {first.game_seed} --play-seed {first.play_seed} --max-steps {args.max_steps}"
            + (f" --rules {shlex.quote(args.rules)}" if args.rules else "")
        )
    if args.out:
        print(f"games kept in {args.out}")
    if args.csv:
        table = result.to_pandas()
        try:
            table.to_csv(args.csv, index=False)
        except OSError as exc:
            raise OSError(f"{args.csv}: cannot write the file ({exc.strerror or exc})") from None
        print(f"table of games saved to {args.csv}")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        save_plot(result.plot(), args.plot)
    return 0


def again(args: argparse.Namespace, command: str, n_players: int, bots: list[str]) -> str:
    """The command that continues this run (``simulate`` or ``tournament``) from its
    results file."""
    words = ["coronas", command, args.game, "--players", str(n_players), "--bots", *bots]
    words += ["--games", str(args.games), "--seed", str(args.seed)]
    words += ["--max-steps", str(args.max_steps), "--out", args.out, "--resume"]
    if args.rules:
        words += ["--rules", args.rules]
    if args.jobs > 1:
        words += ["--jobs", str(args.jobs)]
    return shlex.join(words)


def save_plot(fig: Any, path: str) -> None:
    """Write a matplotlib figure as PNG, saying where; a path that cannot be written is one
    line naming it."""
    try:
        fig.savefig(path, dpi=120)
    except OSError as exc:
        raise OSError(f"{path}: cannot write the file ({exc.strerror or exc})") from None
    print(f"plot saved to {path}")


def run_arguments(p: argparse.ArgumentParser) -> None:
    """--jobs, --max-steps, --out, --resume and --no-progress: how a run of many games runs
    and is kept (``simulate`` and ``tournament``)."""
    p.add_argument(
        "--jobs",
        type=whole(1, cpu_count),
        default=1,
        help="worker processes, 1 to the number of CPUs (default 1: this process)",
    )
    p.add_argument(
        "--max-steps",
        type=whole(1, MAX_STEPS),
        default=100_000,
        metavar="N",
        help=f"a game not over after N actions, 1 to {MAX_STEPS} (default 100000), is "
        "counted apart as unfinished",
    )
    p.add_argument(
        "--out", metavar="FILE", help="keep each game in FILE (JSON Lines) as it finishes"
    )
    p.add_argument(
        "--resume", action="store_true", help="continue the interrupted run kept in --out FILE"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def check(args: argparse.Namespace) -> None:
    if args.resume and not args.out:
        raise CommandError("--resume needs --out FILE, the results file to continue")
    if args.csv:
        try:
            import pandas  # noqa: F401
        except ModuleNotFoundError:
            raise CommandError(
                "--csv needs pandas, the 'analysis' extra: pip install 'coronas[analysis]'"
            ) from None


def add_parser(sub: Any) -> None:
    p = sub.add_parser("simulate", help="play many games: win rates, game lengths")
    games.game_arguments(p)
    p.add_argument(
        "--games",
        type=whole(1, MAX_GAMES),
        default=1000,
        help=f"number of games, 1 to {MAX_GAMES} (default 1000)",
    )
    run_arguments(p)
    p.add_argument(
        "--strict",
        action="store_true",
        help="stop at the first game that does not end or whose bot fails",
    )
    p.add_argument("--csv", metavar="FILE", help="save the table of games (one row a seat)")
    p.add_argument("--plot", metavar="FILE", help="save a plot of the results (PNG)")
    p.set_defaults(func=run, check=check, _parser=p)
