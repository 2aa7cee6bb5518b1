"""The ``coronas`` command line: exact odds at the table, whole games, simulations, figures.

::

    coronas odds risk 10 10                 # exact odds of a battle, in under a second
    coronas play hierro --players 4 --seed 1 --bots random,greedy --save game.json
    coronas replay game.json --step         # step through a saved game
    coronas simulate batalla --games 2000 --bots random,greedy --jobs 2
    coronas figures --out figures

Every error a user can cause (a bad argument, a missing or malformed file, an illegal move in
a saved game) is reported on one line with exit status 2, never with a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import importlib
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

from coronas import __version__
from coronas.dice import exact_fractions

__all__ = ["CommandError", "bots_for", "build_parser", "find_game", "main"]


class CommandError(Exception):
    """A mistake in what the user asked for: printed on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr (and exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# --------------------------------------------------------------------------------------------
# Games and bots by name
# --------------------------------------------------------------------------------------------


def _games() -> dict[str, type]:
    from coronas.engine import available_games

    return available_games()


def find_game(name: str) -> type:
    """The registered game class called ``name`` ("hierro", "carolus", "batalla")."""
    games = _games()
    if name not in games:
        raise CommandError(f"unknown game {name!r}; the games are {', '.join(games)}")
    return games[name]


def bots_for(game_cls: type) -> dict[str, Callable[[], Any]]:
    """The bots a game offers, by name: its ``bots`` module's ``BOTS`` dict if it has one,
    otherwise every class there with a ``name`` and a ``choose`` method; ``random`` always.
    """
    from coronas.engine import RandomBot

    found: dict[str, Callable[[], Any]] = {"random": RandomBot}
    package = game_cls.__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.bots")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.bots":
            raise
        return found
    table = getattr(module, "BOTS", None)
    if isinstance(table, dict):
        found.update(table)
        return found
    for value in vars(module).values():
        name = getattr(value, "name", None)
        if isinstance(value, type) and isinstance(name, str) and hasattr(value, "choose"):
            found[name] = value
    return found


def _make_bots(game_cls: type, spec: str, players: int) -> tuple[list[str], list[Any]]:
    """The bot names (one per seat) and fresh bots for ``--bots spec``."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise CommandError("--bots needs at least one bot name")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise CommandError(
            f"{len(names)} bots for {players} players: give one bot, or one per player"
        )
    table = bots_for(game_cls)
    unknown = [n for n in names if n not in table]
    if unknown:
        raise CommandError(
            f"unknown bot {unknown[0]!r} for {game_cls.name}; the bots are {', '.join(table)}"
        )
    return names, [table[n]() for n in names]


def _players(game_cls: type, args: argparse.Namespace) -> int:
    if args.players is not None:
        return args.players
    names = [n for n in args.bots.split(",") if n.strip()]
    return len(names) if len(names) > 1 else game_cls.min_players


def _make_game(game_cls: type, players: int, seed: int | None, rules: str | None) -> Any:
    return game_cls(players=players, seed=seed, rules=rules)


def _score_text(score: Any) -> str:
    """A score, or a breakdown ``{"castles": 15, ..., "total": 22}`` as ``22 (castles 15...)``."""
    if isinstance(score, dict):
        parts = ", ".join(f"{k} {v}" for k, v in score.items() if k != "total" and v)
        total = score.get("total")
        if total is None:
            return parts or "0"
        return f"{total} ({parts})" if parts else str(total)
    return str(score)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _fmt(p: Fraction) -> str:
    """An exact probability and its percentage: ``35/72 (48.61%)``."""
    return f"{p} ({float(p):.2%})"


# --------------------------------------------------------------------------------------------
# play, replay
# --------------------------------------------------------------------------------------------


def _step_line(state: Any, action: Any, number: int, labels: Sequence[str] | None) -> str:
    from coronas.engine import CHANCE

    player = state.current_player
    if player == CHANCE:
        who = "chance"
    else:
        who = state.player_name(player)
        if labels is not None:
            who += f" ({labels[player]})"
    return f"{number:5d}. {who}: {state.describe(action)}"


def _print_end(state: Any, labels: Sequence[str] | None = None, show: bool = True) -> None:
    if show:
        print()
        print(state)
    print()
    if not state.is_terminal():
        print(f"the game is not over: {state.player_name(state.current_player)} to move")
        return
    names = [
        state.player_name(p) + (f" ({labels[p]})" if labels else "")
        for p in range(state.num_players)
    ]
    scores = zip(names, state.scores(), strict=True)
    print("scores: " + "; ".join(f"{n} {_score_text(s)}" for n, s in scores))
    print("winner(s): " + ", ".join(names[p] for p in state.winners()))


def cmd_play(args: argparse.Namespace) -> int:
    from coronas.engine import play

    game_cls = find_game(args.game)
    players = _players(game_cls, args)
    labels, bots = _make_bots(game_cls, args.bots, players)
    game = _make_game(game_cls, players, args.seed, args.rules)
    state = game.new_initial_state()
    print(
        f"{game_cls.name}: {_count(players, 'player')}, seed {args.seed}, bots {', '.join(labels)}"
    )
    counter = iter(range(1, sys.maxsize))

    def log(s: Any, action: Any) -> None:
        line = _step_line(s, action, next(counter), labels)
        if not args.quiet:
            print(line)

    play(state, bots, args.seed, max_steps=args.max_steps, callback=log)
    _print_end(state, labels)
    if args.save:
        try:
            state.save(args.save)
        except OSError as exc:
            raise CommandError(f"{args.save}: cannot write the file ({exc.strerror})") from None
        print(f"saved to {args.save}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from coronas.engine import load_game

    final = load_game(Path(args.file))
    state = final.game.new_initial_state()
    interactive = args.step and sys.stdin.isatty()
    print(f"{final.game.name}: {_count(final.num_players, 'player')}, seed {final.game.seed}")
    for number, action in enumerate(final.history, 1):
        print(_step_line(state, action, number, None))
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
    _print_end(state, show=not args.step)
    return 0


# --------------------------------------------------------------------------------------------
# simulate, figures
# --------------------------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace) -> int:
    from coronas.simulate import simulate

    game_cls = find_game(args.game)
    players = _players(game_cls, args)
    _, bots = _make_bots(game_cls, args.bots, players)
    rules = args.rules
    if rules is not None and game_cls.rules_class is not None:
        rules = game_cls.rules_class.load(rules)  # read once, not in every worker
    factory = functools.partial(game_cls, players=players, rules=rules)
    if args.jobs < 1:
        raise CommandError(f"--jobs must be at least 1, got {args.jobs}")
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
            raise CommandError(f"{args.plot}: cannot write the file ({exc.strerror})") from None
        print(f"plot saved to {args.plot}")
    return 0


def cmd_figures(args: argparse.Namespace) -> int:
    """Draw the matplotlib figures, then photograph the stepper in JupyterLab (headless
    Chromium) unless ``--no-browser``; without a browser the screenshot is skipped with a
    note saying how to get it."""
    from coronas.plotting import write_figures

    written = write_figures(args.out)
    for path in written:
        print(path, flush=True)
    if not args.no_browser:
        from coronas.widgets import browser

        shot = Path(args.out) / "stepper.png"
        missing = browser.unavailable()
        if missing:
            print(f"coronas: skipped {shot}: {missing}", file=sys.stderr)
        else:
            try:
                progress = functools.partial(print, flush=True)
                written.append(browser.stepper_screenshot(shot, progress=progress))
            except browser.BrowserError as exc:
                raise CommandError(
                    f"{shot} not written: {exc.summary} (the other figures are written)"
                ) from None
            print(shot)
    print(f"{len(written)} figures written to {args.out}")
    return 0


# --------------------------------------------------------------------------------------------
# odds
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class _OddsCommand:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], None]


ODDS_COMMANDS: list[_OddsCommand] = []
"""The ``coronas odds`` subcommands, one per odds function of a game."""


def _odds(name: str, help: str, add_arguments: Callable[[argparse.ArgumentParser], None]):
    def register(run: Callable[[argparse.Namespace], None]):
        ODDS_COMMANDS.append(_OddsCommand(name, help, add_arguments, run))
        return run

    return register


def _nonneg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of at least 0, got {value}")
    return value


def _positive(text: str) -> int:
    value = _nonneg(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def _print_table(table: Any) -> None:
    print()
    print(table)


def _answer(label: str, p: Fraction) -> None:
    print(f"{label}: {_fmt(p)}")


def _game_rules(module: str, path: str | None) -> Any:
    """The game's rule set, read from ``--rules FILE`` if given (else the defaults)."""
    rules_cls = importlib.import_module(module).Rules
    return rules_cls.load(path) if path else rules_cls()


def _rules_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", metavar="FILE", help="a JSON rule file (fields that differ)")


# -- Corona de Hierro ---------------------------------------------------------------------------


def _hierro_roll_args(p: argparse.ArgumentParser, banner: str) -> None:
    p.add_argument(
        "--target", type=_positive, required=True, help=f"the number on the castle's {banner}"
    )
    p.add_argument(
        "--shields", type=_nonneg, default=0, help="experience shields you will spend on rerolls"
    )
    p.add_argument(
        "--good-fortune", action="store_true", help="play Good fortune (roll the green die)"
    )
    _rules_arg(p)


def _hierro_castle_args(p: argparse.ArgumentParser) -> None:
    _hierro_roll_args(p, "left banner")
    p.add_argument("--army", type=_positive, default=1, help="pawns in the attacking army")
    p.add_argument(
        "--troops-inside",
        action="store_true",
        help="the castle still has its owner's troops inside (two successes needed)",
    )


def _print_roll_odds(odds: Any, table: bool) -> None:
    _answer(f"P(one action succeeds, up to {_count(odds.shields, 'reroll')})", odds.probability)
    _answer("P(one roll succeeds, no reroll)", odds.single_roll)
    if table:
        print()
        for label, value in odds.summary():
            print(f"{label}: {value}")
        print()
        goal = "win the castle's support" if odds.kind == "diplomatic roll" else "take the castle"
        print(f"turns needed to {goal}:")
        print(odds.turns.table(8))


@_odds("hierro-castle", "Corona de Hierro: attack a castle with an army", _hierro_castle_args)
def odds_hierro_castle(args: argparse.Namespace) -> None:
    from coronas.hierro.odds import castle_assault

    odds = castle_assault(
        args.target,
        army=args.army,
        shields=args.shields,
        rules=_game_rules("coronas.hierro.rules", args.rules),
        troops_inside=args.troops_inside,
        good_fortune=args.good_fortune,
    )
    army = _count(args.army, "pawn")
    print(f"attack a castle: {args.target}+ with the {odds.colour} die ({army})")
    _print_roll_odds(odds, args.table)


def _hierro_diplomacy_args(p: argparse.ArgumentParser) -> None:
    _hierro_roll_args(p, "right banner")
    p.add_argument(
        "--legitimacy", type=_nonneg, default=2, help="your legitimacy level (default 2)"
    )


@_odds(
    "hierro-diplomacy",
    "Corona de Hierro: an emissary's roll for a castle's support",
    _hierro_diplomacy_args,
)
def odds_hierro_diplomacy(args: argparse.Namespace) -> None:
    from coronas.hierro.odds import diplomacy

    odds = diplomacy(
        args.target,
        legitimacy=args.legitimacy,
        shields=args.shields,
        rules=_game_rules("coronas.hierro.rules", args.rules),
        good_fortune=args.good_fortune,
    )
    print(
        f"diplomatic roll: {args.target}+ with the {odds.colour} die (legitimacy {args.legitimacy})"
    )
    _print_roll_odds(odds, args.table)


def _hierro_battle_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("attacker", type=_positive, help="pawns in the attacking army")
    p.add_argument("defender", type=_positive, help="pawns in the defending army")
    p.add_argument(
        "--shields",
        type=_nonneg,
        nargs=2,
        default=[0, 0],
        metavar=("ATTACKER", "DEFENDER"),
        help="experience shields of attacker and defender (default 0 0)",
    )
    p.add_argument(
        "--cavalry-charge", action="store_true", help="the attacker plays Cavalry charge"
    )
    _rules_arg(p)


@_odds(
    "hierro-battle",
    "Corona de Hierro: a battle between two armies, shields played optimally",
    _hierro_battle_args,
)
def odds_hierro_battle(args: argparse.Namespace) -> None:
    from coronas.hierro.odds import battle, battle_table

    rules = _game_rules("coronas.hierro.rules", args.rules)
    shields_a, shields_d = args.shields
    result = battle(
        args.attacker,
        args.defender,
        attacker_shields=shields_a,
        defender_shields=shields_d,
        rules=rules,
        cavalry_charge=args.cavalry_charge,
    )
    print(result.title)
    _answer("P(attacker wins)", result.attacker_wins)
    _answer("P(defender wins)", result.defender_wins)
    if args.table:
        _print_table(result.table())
        matrix = battle_table(
            args.attacker,
            args.defender,
            shields_a,
            shields_d,
            rules=rules,
            cavalry_charge=args.cavalry_charge,
        )
        print()
        print("P(attacker wins) for smaller armies (rows: attacking pawns, columns: defending):")
        _print_matrix(matrix)


def _print_matrix(rows: Sequence[Sequence[Fraction]]) -> None:
    """Rows of probabilities (numbered from 1, as are the columns) as a text table of
    fractions and percentages."""
    cells = [[f"{p} ({float(p):.1%})" for p in row] for row in rows]
    width = max(len(c) for row in cells for c in row)
    print("    " + "".join(f"{j + 1:>{width + 2}}" for j in range(len(cells[0]))))
    for i, row in enumerate(cells):
        print(f"{i + 1:>3} " + "".join(f"{c:>{width + 2}}" for c in row))


# -- Batalla de Coronas -----------------------------------------------------------------------


def _batalla_battle_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--swords", type=_nonneg, required=True, help="the attacker's swords")
    p.add_argument("--shields", type=_nonneg, required=True, help="the defender's shields")
    p.add_argument(
        "--gold",
        type=int,
        nargs=2,
        default=[0, 0],
        metavar=("ATTACKER", "DEFENDER"),
        help="gold of attacker and defender, to pay for rerolls (default 0 0)",
    )
    _rules_arg(p)


@_odds(
    "batalla-battle",
    "Batalla de Coronas: the chance that an attack takes a gem, with optimal rerolls",
    _batalla_battle_args,
)
def odds_batalla_battle(args: argparse.Namespace) -> None:
    from coronas.batalla.odds import battle

    result = battle(
        args.swords,
        args.shields,
        attacker_gold=args.gold[0],
        defender_gold=args.gold[1],
        rules=_game_rules("coronas.batalla.rules", args.rules),
    )
    print(result.title)
    _answer("P(gem) with optimal rerolls", result.gem)
    _answer("P(gem) without rerolls", result.gem_no_rerolls)
    if args.table:
        _print_table(result.table())
        print()
        print("reroll decisions:")
        print(result.policy)


# -- Risk-style battles (coronas.attrition) ---------------------------------------------------


def _risk_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("attackers", type=_positive, help="attacking armies")
    p.add_argument("defenders", type=_positive, help="defending armies")


@_odds("risk", "classic Risk: a battle fought to the end (3 dice against 2)", _risk_args)
def odds_risk(args: argparse.Namespace) -> None:
    from coronas.attrition import RISK, solve

    result = solve(RISK, args.attackers, args.defenders)
    print(f"Risk: {args.attackers} attacking armies against {args.defenders} defending")
    _answer("P(attacker wins)", result.attacker_wins)
    print(f"expected rounds: {result.expected_rounds} ({float(result.expected_rounds):.2f})")
    if args.table:
        _print_table(result.table())


# -- Carolus Magnus ---------------------------------------------------------------------------


def _carolus_draws_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--draws", type=_nonneg, required=True, help="knights drawn")
    p.add_argument(
        "--at-least", type=_nonneg, default=1, help="knights wanted for the family (default 1)"
    )
    p.add_argument("--family", help="the family (default the first; all are alike by default)")
    _rules_arg(p)


@_odds(
    "carolus-draws",
    "Carolus Magnus: knights of one family (jokers included) in a replenish",
    _carolus_draws_args,
)
def odds_carolus_draws(args: argparse.Namespace) -> None:
    from coronas.carolus.odds import family_draw_distribution, knights_for_family
    from coronas.dice import ProbTable

    rules = _game_rules("coronas.carolus.rules", args.rules)
    family = args.family or rules.families[0]
    p = knights_for_family(args.draws, args.at_least, family=family, rules=rules)
    print(f"{args.draws} knights drawn, at least {args.at_least} for {family} (jokers count)")
    _answer("P", p)
    if args.table:
        dist = family_draw_distribution(args.draws, family=family, rules=rules)
        rows = [(k, dist[k], dist.p_ge(k)) for k in range(args.draws + 1)]
        _print_table(ProbTable(rows, header=("knights", "P(exactly)", "P(at least)")))


# --------------------------------------------------------------------------------------------
# The parser
# --------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="coronas",
        description="Exact odds, games and figures for Corona de Hierro, Carolus Magnus and "
        "Batalla de Coronas.",
    )
    parser.add_argument("--version", action="version", version=f"coronas {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    odds = sub.add_parser("odds", help="exact odds of a roll, a battle or a draw")
    odds_sub = odds.add_subparsers(dest="question", metavar="QUESTION", parser_class=_Parser)
    for command in ODDS_COMMANDS:
        p = odds_sub.add_parser(command.name, help=command.help, description=command.help)
        command.add_arguments(p)
        p.add_argument(
            "--table", action="store_true", help="also print the whole table of outcomes"
        )
        # Answers in plain Fractions: an odds question never waits for sympy to import.
        p.set_defaults(func=exact_fractions()(command.run))
    odds.set_defaults(func=lambda args: odds.print_help())

    def game_args(p: argparse.ArgumentParser, default_bots: str) -> None:
        p.add_argument("game", help="hierro, carolus or batalla")
        p.add_argument("--players", type=_positive, help="number of players")
        p.add_argument(
            "--bots",
            default=default_bots,
            help="bot names, one for all seats or one per seat, comma-separated "
            f"(default {default_bots})",
        )
        p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
        p.add_argument("--rules", metavar="FILE", help="a JSON rule file (fields that differ)")

    play = sub.add_parser("play", help="play one game with bots and print its log")
    game_args(play, "random")
    play.add_argument("--save", metavar="FILE", help="save the game as JSON")
    play.add_argument("--quiet", action="store_true", help="print only the end of the game")
    play.add_argument("--max-steps", type=_positive, default=100_000, help=argparse.SUPPRESS)
    play.set_defaults(func=cmd_play)

    replay = sub.add_parser("replay", help="step through a saved game")
    replay.add_argument("file", help="a game saved with coronas play --save or State.save")
    replay.add_argument(
        "--step",
        action="store_true",
        help="show the position after each action (and wait for Enter in a terminal)",
    )
    replay.set_defaults(func=cmd_replay)

    simulate = sub.add_parser("simulate", help="play many games: win rates, game lengths")
    game_args(simulate, "random")
    simulate.add_argument("--games", type=_positive, default=1000, help="number of games")
    simulate.add_argument(
        "--jobs", type=int, default=1, help="worker processes (default 1: this process)"
    )
    simulate.add_argument("--no-progress", action="store_true", help="no progress bar")
    simulate.add_argument("--plot", metavar="FILE", help="save a plot of the results (PNG)")
    simulate.set_defaults(func=cmd_simulate)

    figures = sub.add_parser(
        "figures", help="regenerate every figure of figures/, the stepper's screenshot too"
    )
    figures.add_argument("--out", default="figures", help="output folder (default figures)")
    figures.add_argument(
        "--no-browser",
        action="store_true",
        help="skip the stepper's screenshot (it starts JupyterLab and headless Chromium)",
    )
    figures.set_defaults(func=cmd_figures)

    parser.set_defaults(func=lambda args: parser.print_help())
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad arguments or files)."""
    from coronas.engine import IllegalAction, RulesError, SaveFileError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        status = args.func(args)
    except SystemExit as exc:  # --help, --version and usage errors from argparse
        return exc.code if isinstance(exc.code, int) else 2
    except (CommandError, IllegalAction, SaveFileError, RulesError, ValueError) as exc:
        print(f"coronas: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"coronas: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("coronas: interrupted", file=sys.stderr)
        return 130
    return status or 0


if __name__ == "__main__":
    sys.exit(main())
