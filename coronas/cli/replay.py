"""``coronas replay FILE``: step through a saved game, action by action."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import coronas.cli.games as games
from coronas.cli._base import count

__all__ = ["add_parser", "run"]


def run(args: argparse.Namespace) -> int:
    from coronas.engine import load_game

    final = load_game(Path(args.file))
    state = final.game.new_initial_state()
    interactive = args.step and sys.stdin.isatty()
    print(f"{final.game.name}: {count(final.num_players, 'player')}, seed {final.game.seed}")
    for number, action in enumerate(final.history, 1):
        print(games.step_line(state, action, number, None))
        state.apply(action)
        if args.step:
            print(state)
            if interactive:
                try:
                    answer = input("-- Enter for the next step, q to stop: ")
                except EOFError:
                    answer = "q"
                if answer.strip().lower().startswith("q"):
                    return 0
    games.print_end(state, show=not args.step)
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="step through a saved game")
    p.add_argument("file", help="a game saved with coronas play --save or State.save")
    p.add_argument(
        "--step",
        action="store_true",
        help="show the position after each action (and wait for Enter in a terminal)",
    )
    p.set_defaults(func=run, _parser=p)
