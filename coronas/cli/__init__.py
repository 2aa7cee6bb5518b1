"""The ``coronas`` command line: exact odds at the table, whole games, simulations, figures.

::

    coronas odds hierro-castle 5 --army 3 --shields 2   # exact odds, in under a second
    coronas odds hierro-battle 3 2 --shields 1 0
    coronas play hierro --players 4 --seed 1 --bots random,greedy --save game.json
    coronas replay game.json --step         # step through a saved game
    coronas advise game.json                # the odds of every move in a saved position
    coronas simulate batalla --games 2000 --bots random,greedy --jobs 2
    coronas tournament batalla --bots random greedy mcts:500 --games 200
    coronas train hierro --games 2000 --jobs 2   # refit the value model and move prior
    coronas figures --out figures
    coronas app                             # the companion for the table, in the browser

One module a command (:mod:`~coronas.cli.odds`, :mod:`~coronas.cli.play`,
:mod:`~coronas.cli.replay`, :mod:`~coronas.cli.advise`, :mod:`~coronas.cli.simulate`,
:mod:`~coronas.cli.tournament`, :mod:`~coronas.cli.train`, :mod:`~coronas.cli.figures`,
:mod:`~coronas.cli.app`); this
one builds the parser and runs the command.

The command line never shows a traceback. A usage mistake (a bad or out-of-range number, an
unknown command, option, game or bot) is one line on stderr with exit status 2; any other
failure (a missing, unwritable or malformed file, an illegal move in a saved game, a failed
browser step, memory or recursion exhausted) is one line with exit status 1; an interrupt
(Ctrl-C) is one line with exit status 130.
"""

from __future__ import annotations

import time

STARTED = time.monotonic()
"""When this package was imported: the start of a command typed at a prompt, from which
``advise --win-chances`` counts its ``--time`` (the imports and the loading are in it)."""

import argparse
import sys
from collections.abc import Sequence

from coronas import __version__
from coronas.cli import advise, app, figures, odds, play, replay, simulate, tournament, train
from coronas.cli._base import CommandError, Parser, cut
from coronas.cli.games import bots_for, find_game

__all__ = ["CommandError", "bots_for", "build_parser", "find_game", "main"]

COMMANDS = (odds, advise, play, replay, simulate, tournament, train, figures, app)
"""The modules of the commands, in the order ``coronas --help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: ``coronas COMMAND ...`` for every command of ``COMMANDS``."""
    parser = Parser(
        prog="coronas",
        description="Exact odds, games and figures for Corona de Hierro, Carolus Magnus and "
        "Batalla de Coronas.",
    )
    parser.add_argument("--version", action="version", version=f"coronas {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for command in COMMANDS:
        command.add_parser(sub)
    parser.set_defaults(func=lambda args: parser.print_help(), _parser=parser)
    return parser


def _fail(message: str, status: int) -> int:
    print(cut(f"coronas: error: {message}"), file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status: 0, 2 for a usage mistake or a bad input
    file, 1 for any other failure, 130 when interrupted."""
    try:
        return _run(argv)
    except KeyboardInterrupt:
        print("coronas: interrupted", file=sys.stderr)
        return 130


def _input_errors() -> tuple[type[BaseException], ...]:
    """The errors of a bad input file: a saved game, a rule file, a board file, a results
    file."""
    from coronas.engine import RulesError, SaveFileError

    found: list[type[BaseException]] = [SaveFileError, RulesError]
    board = sys.modules.get("coronas.hierro.board_file")
    if board is not None:
        found.append(board.BoardError)
    results = sys.modules.get("coronas.manygames.results")
    if results is not None:
        found.append(results.ResultsFileError)
    return tuple(found)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not fail again."""
    import contextlib
    import os

    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _run(argv: Sequence[str] | None) -> int:
    from coronas.engine import IllegalAction

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        # a command typed at a prompt began with the process; one called from Python, now
        args.began = STARTED if argv is None else time.monotonic()
        check = getattr(args, "check", None)
        if check is not None:
            try:
                check(args)
            except CommandError as exc:
                args._parser.error(str(exc))
        return args.func(args) or 0
    except SystemExit as exc:  # --help, --version and usage mistakes found by argparse
        return exc.code if isinstance(exc.code, int) else 2
    except CommandError as exc:
        return _fail(str(exc), 2)
    except _input_errors() as exc:  # a bad file given on the command line: its problem named
        return _fail(str(exc), 2)
    except IllegalAction as exc:
        return _fail(str(exc), 1)
    except BrokenPipeError:  # the reader went away (``coronas advise g.json | head``)
        _quiet_stdout()
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        return _fail(f"{where}{exc.strerror or exc}", 1)
    except MemoryError:
        return _fail("out of memory: ask for less (see docs/cli.md for the limits)", 1)
    except RecursionError:
        return _fail("the computation went too deep (the recursion limit): ask for less", 1)
    except (ValueError, RuntimeError, figures.FigureError) as exc:
        return _fail(str(exc) or type(exc).__name__, 1)  # a rule file refused, a failed step
    except Exception as exc:  # anything else is still one line, never a traceback
        return _fail(f"{type(exc).__name__}: {exc}", 1)
