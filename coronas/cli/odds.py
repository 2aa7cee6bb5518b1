"""``coronas odds QUESTION``: exact odds of a roll, a battle or a draw, in under a second.

One grammar for every question: the main numbers are positional, in the order a player says
them (the target, the two armies, swords then shields, the draws); an option means the same
wherever it appears. Every number has a range checked at parse time (see ``LIMITS``), chosen
so that every question allowed is answered in a few seconds at most. The answers are plain
``Fraction``s: an odds question imports neither sympy nor networkx.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from coronas.cli._base import CommandError, count, table_text, whole
from coronas.formatting import READABLE_DIGITS, is_long, readable_probability, rerolls_text

__all__ = ["LIMITS", "ODDS_COMMANDS", "add_parser"]

LIMITS = {
    "target": (1, 20),
    "army": (1, 100),
    "shields": (0, 15),  # Corona de Hierro has 15 experience shields in all (H4)
    "legitimacy": (0, 15),  # the legitimacy track, up to the crown
    "battle_size": 5000,  # ATTACKER x DEFENDER x (S + 1) x (T + 1), Corona de Hierro
    "risk_size": 1000,  # ATTACKER x DEFENDER, classic Risk
    "swords": (1, 5),  # Batalla de Coronas: the militia tracks run 0-5, an attack needs 1
    "batalla_shields": (0, 5),
    "gold": (-1, 7),  # the gold track
    "gems_won": (0, 9),  # Batalla de Coronas: fewer than the gems of a castle (3 by default)
    "draws": (0, 300),
}
"""The limits of the odds questions' numbers (docs/cli.md lists them)."""

SHORTENED_NOTE = (
    f"Fractions of more than {READABLE_DIGITS} digits are shown as percentages: "
    "--exact prints them."
)
"""The line after an answer whose long fractions were shown as percentages."""


def _n(name: str) -> Callable[[str], int]:
    return whole(*LIMITS[name])


@dataclasses.dataclass
class _OddsCommand:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], None]
    check: Callable[[argparse.Namespace], None] | None = None
    usage: str | None = None  # the grammar, where argparse would show a positional as optional


ODDS_COMMANDS: list[_OddsCommand] = []
"""The ``coronas odds`` questions, one per odds function of a game."""


def _odds(
    name: str,
    help: str,
    add_arguments: Callable[[argparse.ArgumentParser], None],
    check: Callable[[argparse.Namespace], None] | None = None,
    usage: str | None = None,
):
    def register(run: Callable[[argparse.Namespace], None]):
        ODDS_COMMANDS.append(_OddsCommand(name, help, add_arguments, run, check, usage))
        return run

    return register


# -- shared pieces ----------------------------------------------------------------------------


class _Shown:
    """Writes the answer's numbers as a player reads them (``readable_probability``): a
    fraction too long to read as its percentage, unless ``--exact``; remembers whether one
    was shortened, to say so at the end."""

    def __init__(self, exact: bool):
        self.exact = exact
        self.shortened = False

    def __call__(self, p: Fraction) -> str:
        self.shortened |= not self.exact and is_long(p)
        return readable_probability(p, self.exact)

    def number(self, x: Fraction) -> str:
        """A number that is not a probability (an expected count): exact and to 2 places."""
        if not self.exact and is_long(x):
            self.shortened = True
            return f"{float(x):.2f}"
        return f"{x} ({float(x):.2f})"


def _answer(args: argparse.Namespace, label: str, p: Fraction) -> None:
    print(f"{label}: {args.show(p)}")


def _print_table(args: argparse.Namespace, table: Any) -> None:
    print()
    print(table_text(table, args.show))


def _game_rules(module: str, path: str | None) -> Any:
    """The game's rule set, read from ``--rules FILE`` if given (else the defaults)."""
    rules_cls = importlib.import_module(module).Rules
    return rules_cls.load(path) if path else rules_cls()


def _rules_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", metavar="FILE", help="a JSON rule file (fields that differ)")


def _positional(p: argparse.ArgumentParser, name: str, limit: str, help: str) -> None:
    """A positional number that the old spelling ``--name N`` may still give (hidden)."""
    low, high = LIMITS[limit]
    p.add_argument(
        name, nargs="?", type=_n(limit), metavar=name.upper(), help=f"{help}, {low} to {high}"
    )
    p.add_argument(f"--{name}", dest=f"old_{name}", type=_n(limit), help=argparse.SUPPRESS)


def _merge(args: argparse.Namespace, *names: str) -> None:
    """Each of ``names`` given once, as a positional or with its old ``--name`` spelling."""
    missing = []
    for name in names:
        new, old = getattr(args, name), getattr(args, f"old_{name}")
        if new is not None and old is not None:
            raise CommandError(f"{name.upper()} given twice ({new} and --{name} {old})")
        if new is None and old is None:
            missing.append(name.upper())
        setattr(args, name, new if new is not None else old)
    if missing:
        raise CommandError(f"the following arguments are required: {', '.join(missing)}")


def _shields_arg(p: argparse.ArgumentParser, help: str) -> None:
    low, high = LIMITS["shields"]
    p.add_argument(
        "--shields",
        type=_n("shields"),
        default=0,
        metavar="K",
        help=f"{help}, {low} to {high} (default 0)",
    )


# -- Corona de Hierro: castles and emissaries -------------------------------------------------


def _hierro_roll_args(p: argparse.ArgumentParser, banner: str) -> None:
    _positional(p, "target", "target", f"the number on the castle's {banner}")
    _shields_arg(p, "experience shields you will spend on rerolls")
    p.add_argument(
        "--good-fortune", action="store_true", help="play Good fortune (roll the green die)"
    )
    _rules_arg(p)


def _hierro_castle_args(p: argparse.ArgumentParser) -> None:
    _hierro_roll_args(p, "left banner")
    low, high = LIMITS["army"]
    p.add_argument(
        "--army",
        type=_n("army"),
        default=1,
        metavar="N",
        help=f"pawns in the attacking army, {low} to {high} (default 1)",
    )
    p.add_argument(
        "--troops-inside",
        action="store_true",
        help="the castle still has its owner's troops inside (two successes needed)",
    )


def _print_roll_odds(args: argparse.Namespace, odds: Any) -> None:
    _answer(args, f"P(one action succeeds, {rerolls_text(odds.shields)})", odds.probability)
    _answer(args, "P(one roll succeeds, no reroll)", odds.single_roll)
    if args.table:
        print()
        for label, value in odds.summary():
            print(f"{label}: {' '.join(value.split())}")
        print()
        goal = "win the castle's support" if odds.kind == "diplomatic roll" else "take the castle"
        print(f"turns needed to {goal}:")
        print(table_text(odds.turns.table(8), args.show))


@_odds(
    "hierro-castle",
    "Corona de Hierro: attack a castle with an army",
    _hierro_castle_args,
    lambda args: _merge(args, "target"),
    "%(prog)s TARGET [--army N] [--shields K] [--troops-inside] [--good-fortune] "
    "[--rules FILE] [--table]",
)
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
    army = count(args.army, "pawn")
    print(f"attack a castle: {args.target}+ with the {odds.colour} die ({army})")
    _print_roll_odds(args, odds)


def _hierro_diplomacy_args(p: argparse.ArgumentParser) -> None:
    _hierro_roll_args(p, "right banner")
    low, high = LIMITS["legitimacy"]
    p.add_argument(
        "--legitimacy",
        type=_n("legitimacy"),
        default=2,
        metavar="L",
        help=f"your legitimacy level, {low} to {high} (default 2)",
    )


@_odds(
    "hierro-diplomacy",
    "Corona de Hierro: an emissary's roll for a castle's support",
    _hierro_diplomacy_args,
    lambda args: _merge(args, "target"),
    "%(prog)s TARGET [--legitimacy L] [--shields K] [--good-fortune] [--rules FILE] [--table]",
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
    _print_roll_odds(args, odds)


# -- Corona de Hierro: battles ----------------------------------------------------------------


def _armies(p: argparse.ArgumentParser, what: str) -> None:
    low, high = LIMITS["army"]
    for side in ("attacker", "defender"):
        p.add_argument(
            side, type=_n("army"), metavar=side.upper(), help=f"{what} {side}, {low} to {high}"
        )


def _hierro_battle_args(p: argparse.ArgumentParser) -> None:
    _armies(p, "pawns of the")
    low, high = LIMITS["shields"]
    p.add_argument(
        "--shields",
        type=_n("shields"),
        nargs=2,
        default=[0, 0],
        metavar=("S", "T"),
        help=f"experience shields of attacker and defender, {low} to {high} in all (default 0 0)",
    )
    p.add_argument(
        "--cavalry-charge", action="store_true", help="the attacker plays Cavalry charge"
    )
    _rules_arg(p)


def _check_hierro_battle(args: argparse.Namespace) -> None:
    s, t = args.shields
    most = LIMITS["shields"][1]
    if s + t > most:
        raise CommandError(f"--shields: {s} + {t} shields, but the game has {most} in all")
    size = args.attacker * args.defender * (s + 1) * (t + 1)
    if size > LIMITS["battle_size"]:
        raise CommandError(
            f"battle too large to answer quickly: ATTACKER x DEFENDER x (S+1) x (T+1) = {size}, "
            f"the limit is {LIMITS['battle_size']}"
        )


def _reroll_advice(result: Any) -> list[str]:
    """What each side should do on the first roll, from the battle's optimal policy."""
    a, d, s, t = result.policy.start
    rules = {(row[0], row[1], row[2]): row[3:] for row in result.policy.rows()}
    attacker, defender = rules.get((f"{a} v {d}", s, t), ("-", "-"))
    lines = []
    for side, shields, rule in (("attacker", s, attacker), ("defender", t, defender)):
        held = count(shields, "shield")
        if not shields:
            lines.append(f"first roll, {side} ({held}): nothing to spend")
        elif rule == "-":
            lines.append(f"first roll, {side} ({held}): no reroll can help")
        else:
            by = "by the attacker's die, " if rule.startswith("after") else ""
            lines.append(f"first roll, {side} ({held}): {by}{rule}")
    return lines


@_odds(
    "hierro-battle",
    "Corona de Hierro: a battle between two armies, shields played optimally",
    _hierro_battle_args,
    _check_hierro_battle,
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
    _answer(args, "P(attacker wins)", result.attacker_wins)
    _answer(args, "P(defender wins)", result.defender_wins)
    for line in _reroll_advice(result):
        print(line)
    if args.table:
        _print_table(args, result.table())
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
        _print_matrix(args, matrix)


def _print_matrix(args: argparse.Namespace, rows: Sequence[Sequence[Fraction]]) -> None:
    """Rows of probabilities (numbered from 1, as are the columns) as a text table."""
    cells = [[args.show(p) for p in row] for row in rows]
    width = max(len(c) for row in cells for c in row)
    print("    " + "".join(f"{j + 1:>{width + 2}}" for j in range(len(cells[0]))))
    for i, row in enumerate(cells):
        print(f"{i + 1:>3} " + "".join(f"{c:>{width + 2}}" for c in row))


# -- Batalla de Coronas -----------------------------------------------------------------------


def _batalla_battle_args(p: argparse.ArgumentParser) -> None:
    _positional(p, "swords", "swords", "the attacker's swords")
    low, high = LIMITS["batalla_shields"]
    p.add_argument(
        "shields",
        nargs="?",
        type=_n("batalla_shields"),
        metavar="SHIELDS",
        help=f"the defender's shields, {low} to {high}",
    )
    p.add_argument(
        "--shields", dest="old_shields", type=_n("batalla_shields"), help=argparse.SUPPRESS
    )
    low, high = LIMITS["gold"]
    p.add_argument(
        "--gold",
        type=_n("gold"),
        nargs=2,
        default=[0, 0],
        metavar=("G", "H"),
        help=f"gold of attacker and defender, to pay for rerolls, {low} to {high} (default 0 0)",
    )
    p.add_argument(
        "--crown",
        action="store_true",
        help="the attacker holds the Crown token, which pays for rerolls like gold",
    )
    low, high = LIMITS["gems_won"]
    p.add_argument(
        "--gems-won",
        type=_n("gems_won"),
        default=0,
        metavar="N",
        help=f"gems the attacker has won, {low} to {high} (each lowers its gold cap; default 0)",
    )
    cross = p.add_mutually_exclusive_group()  # there is one Cross
    cross.add_argument(
        "--cross",
        action="store_true",
        help="the attacker holds the Cross token and may use it on the golden square (or, "
        "with rules whose cross_effect is 'reroll', on a free reroll)",
    )
    cross.add_argument(
        "--defender-cross",
        action="store_true",
        help="the defender holds the Cross (it counts only with rules whose cross_effect is "
        "'reroll': a free reroll)",
    )
    _rules_arg(p)


def _check_batalla_gold(args: argparse.Namespace, rules: Any) -> None:
    """The gems won and the gold within the rule set's tracks, in the options' words."""
    gems = args.gems_won
    if gems >= rules.gems_each:
        raise CommandError(
            f"--gems-won: at most {rules.gems_each - 1} (taking all {rules.gems_each} of a "
            f"castle's gems ends the game), got {gems}"
        )
    cap = rules.gold_cap(gems)
    for side, gold, top in (("attacker", args.gold[0], cap), ("defender", args.gold[1], None)):
        top = rules.gold_max if top is None else top
        if not rules.gold_min <= gold <= top:
            won = f" with {count(gems, 'gem')} won" if side == "attacker" and gems else ""
            raise CommandError(
                f"--gold: the {side}'s gold runs from {rules.gold_min} to {top}{won}, got {gold}"
            )


@_odds(
    "batalla-battle",
    "Batalla de Coronas: the chance that an attack takes a gem, with optimal rerolls",
    _batalla_battle_args,
    lambda args: _merge(args, "swords", "shields"),
    "%(prog)s SWORDS SHIELDS [--gold G H] [--crown] [--gems-won N] [--cross | --defender-cross] "
    "[--rules FILE] [--table]",
)
def odds_batalla_battle(args: argparse.Namespace) -> None:
    from coronas.batalla.odds import battle

    rules = _game_rules("coronas.batalla.rules", args.rules)
    _check_batalla_gold(args, rules)
    result = battle(
        args.swords,
        args.shields,
        attacker_gold=args.gold[0],
        defender_gold=args.gold[1],
        rules=rules,
        attacker_crown=args.crown,
        attacker_cross=args.cross,
        attacker_gems_won=args.gems_won,
        defender_cross=args.defender_cross,
    )
    print(result.title)
    _answer(args, "P(gem) with optimal rerolls", result.gem)
    _answer(args, "P(gem) without rerolls", result.gem_no_rerolls)
    if args.table:
        _print_table(args, result.table())
        print()
        print("reroll decisions:")
        print(table_text(result.policy, args.show))


# -- Risk-style battles (coronas.attrition) ---------------------------------------------------


def _check_risk(args: argparse.Namespace) -> None:
    size = args.attacker * args.defender
    if size > LIMITS["risk_size"]:
        raise CommandError(
            f"battle too large to answer quickly: ATTACKER x DEFENDER = {size}, "
            f"the limit is {LIMITS['risk_size']}"
        )


@_odds(
    "risk",
    "classic Risk: a battle fought to the end (3 dice against 2)",
    lambda p: _armies(p, "armies of the"),
    _check_risk,
)
def odds_risk(args: argparse.Namespace) -> None:
    from coronas.attrition import RISK, solve

    result = solve(RISK, args.attacker, args.defender)
    print(f"Risk: {args.attacker} attacking armies against {args.defender} defending")
    _answer(args, "P(attacker wins)", result.attacker_wins)
    print(f"expected rounds: {args.show.number(result.expected_rounds)}")
    if args.table:
        _print_table(args, result.table())


# -- Carolus Magnus ---------------------------------------------------------------------------


def _carolus_draws_args(p: argparse.ArgumentParser) -> None:
    _positional(p, "draws", "draws", "knights drawn")
    low, high = LIMITS["draws"]
    p.add_argument(
        "--at-least",
        type=_n("draws"),
        default=1,
        metavar="K",
        help=f"knights wanted for the family, {low} to {high} (default 1)",
    )
    p.add_argument("--family", help="the family (default the first; all are alike by default)")
    _rules_arg(p)


@_odds(
    "carolus-draws",
    "Carolus Magnus: knights of one family (jokers included) in a replenish",
    _carolus_draws_args,
    lambda args: _merge(args, "draws"),
    "%(prog)s DRAWS [--at-least K] [--family F] [--rules FILE] [--table]",
)
def odds_carolus_draws(args: argparse.Namespace) -> None:
    from coronas.carolus.odds import family_draw_distribution, knights_for_family
    from coronas.dice import ProbTable

    rules = _game_rules("coronas.carolus.rules", args.rules)
    family = args.family or rules.families[0]
    p = knights_for_family(args.draws, args.at_least, family=family, rules=rules)
    print(f"{args.draws} knights drawn, at least {args.at_least} for {family} (jokers count)")
    _answer(args, "P", p)
    if args.table:
        dist = family_draw_distribution(args.draws, family=family, rules=rules)
        rows = [(k, dist[k], dist.p_ge(k)) for k in range(args.draws + 1)]
        _print_table(args, ProbTable(rows, header=("knights", "P(exactly)", "P(at least)")))


# -- the parser -------------------------------------------------------------------------------


def _runner(command: _OddsCommand) -> Callable[[argparse.Namespace], int]:
    """The question's answer in plain Fractions (an odds question never waits for sympy to
    import); a number the odds function refuses (outside a rule file's tracks, an unknown
    family) is a usage error."""

    def run(args: argparse.Namespace) -> int:
        from coronas.dice import exact_fractions
        from coronas.engine import RulesError

        args.show = _Shown(args.exact)
        try:
            with exact_fractions():
                command.run(args)
        except RulesError:
            raise
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if args.show.shortened:
            print(f"\n{SHORTENED_NOTE}")
        return 0

    return run


def add_parser(sub: Any) -> None:
    odds = sub.add_parser("odds", help="exact odds of a roll, a battle or a draw")
    odds_sub = odds.add_subparsers(dest="question", metavar="QUESTION", parser_class=type(odds))
    for command in ODDS_COMMANDS:
        p = odds_sub.add_parser(
            command.name, help=command.help, description=command.help, usage=command.usage
        )
        command.add_arguments(p)
        p.add_argument(
            "--table", action="store_true", help="also print the whole table of outcomes"
        )
        p.add_argument(
            "--exact",
            action="store_true",
            help=f"print every exact fraction, even one of more than {READABLE_DIGITS} digits "
            "(by default shown as its percentage)",
        )
        p.set_defaults(func=_runner(command), check=command.check, _parser=p)
    odds.set_defaults(func=lambda args: odds.print_help(), _parser=odds)
