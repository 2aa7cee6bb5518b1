"""``coronas play GAME``: one game with bots, its log, its end, and the game saved as JSON."""

from __future__ import annotations

import argparse
from typing import Any

import coronas.cli.games as games
from coronas.cli._base import count, whole

__all__ = ["MAX_STEPS", "add_parser", "run"]

MAX_STEPS = 10**7
"""The largest ``--max-steps``."""


def run(args: argparse.Namespace) -> int:
    from coronas.engine import GameDidNotEnd, play

    game_cls = games.find_game(args.game)
    n_players = games.players(game_cls, args)
    labels, bots = games.make_bots(game_cls, args.bots, n_players)
    game = game_cls(players=n_players, seed=args.seed, rules=args.rules)
    state = game.new_initial_state()
    print(
        f"{game_cls.name}: {count(n_players, 'player')}, seed {args.seed}, bots {', '.join(labels)}"
    )
    number = 0

    def log(s: Any, action: Any) -> None:
        nonlocal number
        number += 1
        if not args.quiet:
            print(games.step_line(s, action, number, labels))

    try:
        play_seed = args.seed if args.play_seed is None else args.play_seed
        play(state, bots, play_seed, max_steps=args.max_steps, callback=log)
    except GameDidNotEnd:
        pass  # --max-steps reached: the position so far is the answer (and can be saved)
    games.print_end(state, labels)
    if not state.is_terminal():
        print(f"stopped after {count(args.max_steps, 'step')} (--max-steps)")
    if args.save:
        try:
            state.save(args.save)
        except OSError as exc:
            raise OSError(f"{args.save}: cannot write the file ({exc.strerror or exc})") from None
        print(f"saved to {args.save}")
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser("play", help="play one game with bots and print its log")
    games.game_arguments(p)
    p.add_argument(
        "--play-seed",
        type=whole(0, games.MAX_SEED),
        metavar="N",
        help="seed of the dice and the bots, if not --seed (a game of a simulation is "
        "--seed GAME_SEED --play-seed PLAY_SEED)",
    )
    p.add_argument("--save", metavar="FILE", help="save the game as JSON")
    p.add_argument("--quiet", action="store_true", help="print only the end of the game")
    p.add_argument(
        "--max-steps",
        type=whole(1, MAX_STEPS),
        default=100_000,
        metavar="N",
        help=f"stop after N steps, 1 to {MAX_STEPS} (default 100000), and print the position",
    )
    p.set_defaults(func=run, _parser=p)
