"""Attrition battles: an exact solver for "roll, compare, lose a unit, repeat" fights.

Many dice games settle a fight the same way. Each round both sides roll dice chosen by their
current size, the dice are compared, every lost comparison costs the loser one unit, and the
battle goes on until one side is gone. The battle is then an absorbing Markov chain on the
pairs (attacker units, defender units), and everything about it follows from one dynamic
programme over those pairs. The programme runs in integers (every round's probabilities are
counts over one common base, so a winning chance is an integer over a power of it; see
:mod:`coronas._attrition_dp`): a whole table of winning chances costs one pass over the
sizes, one battle's end is found by pushing its probability mass forward, and fractions
(sympy ``Rational`` by default) appear only in the answers. ``win_table(..., exact=False)``
runs the same programme in floating point, for approximate pictures of any size.

Sizes are whole numbers up to :data:`MAX_UNITS` (1000) a side, and an exact question covers
at most :data:`MAX_PAIRS` (100,000) pairs ``attacker * defender`` (1,000,000 in floating
point, 10,000 for :func:`markov_chain`); beyond that a ``ValueError`` names the limit.

An :class:`AttritionRules` says which dice each side rolls at each size, how they are
compared and who wins a tie. Two presets:

* :data:`HIERRO`: Corona de Hierro. One die each, red / yellow / green for 1 / 2 / 3+ units
  (all d6 by default), ties to the attacker.
* :data:`RISK`: classic Risk. The attacker rolls as many d6 as it has units, up to 3, the
  defender up to 2; highest against highest, second against second; ties to the defender.

>>> attacker_win_probability(HIERRO, 1, 1)          # P(X >= Y) for two d6
7/12
>>> attacker_win_probability(HIERRO, 2, 1)          # 7/12 + 5/12 * 7/12
119/144
>>> attacker_win_probability(RISK, 1, 1)            # P(X > Y) for two d6
5/12
>>> round_outcomes(RISK, 3, 2)[(0, 2)]              # the classic 2890/7776
Fraction(1445, 3888)
>>> solve(HIERRO, 2, 1).expected_rounds             # 1 round, or 2 with probability 5/12
17/12
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from coronas import _attrition_dp as _dp
from coronas.bounds import at_most, whole
from coronas.dice import D6, Die, ProbTable, rational, rational_matrix
from coronas.formatting import percent

if TYPE_CHECKING:
    import sympy

__all__ = [
    "HIERRO",
    "MAX_SIMULATIONS",
    "RISK",
    "AttritionResult",
    "AttritionRules",
    "BattleEnd",
    "attacker_win_probability",
    "clear_cache",
    "dice_by_size",
    "expected_rounds",
    "markov_chain",
    "negative_binomial_win",
    "round_outcomes",
    "simulate",
    "solve",
    "survivors",
    "win_table",
]

Side = Literal["attacker", "defender"]
Ties = Literal["attacker", "defender", "none"]
Pairing = Literal["pairs", "highest"]

DiceSteps = tuple[tuple[int, tuple[Die, ...]], ...]
"""Dice by size as steps: ``((1, dice), (2, dice), ...)``; a size uses the last step at or
below it."""


def _steps(value: Any, side: str) -> DiceSteps:
    """Normalise a dice rule (mapping size -> dice, or steps, or one die) to sorted steps."""
    if isinstance(value, Die):
        value = {1: (value,)}
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, Iterable):
        pairs = list(value)
    else:
        raise ValueError(
            f"{side}_dice: expected a mapping from size to a list of dice, got {value!r}"
        )
    steps = []
    for pair in pairs:
        try:
            size, dice = pair
        except (TypeError, ValueError):
            raise ValueError(f"{side}_dice: expected (size, dice) pairs, got {pair!r}") from None
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"{side}_dice: sizes are whole numbers from 1, got {size!r}")
        dice = (dice,) if isinstance(dice, Die) else tuple(dice)
        if not dice or not all(isinstance(d, Die) for d in dice):
            raise ValueError(
                f"{side}_dice: size {size} needs a non-empty list of Die objects, got {dice!r}"
            )
        for d in dice:
            bad = [o for o in d if isinstance(o, bool) or not isinstance(o, (int, Fraction))]
            if bad:
                raise ValueError(f"{side}_dice: die faces must be numbers, got {bad[0]!r}")
        steps.append((size, dice))
    steps.sort(key=lambda s: s[0])
    if not steps or steps[0][0] != 1:
        raise ValueError(f"{side}_dice: the rule must say which dice a side of size 1 rolls")
    if len({s for s, _ in steps}) != len(steps):
        raise ValueError(f"{side}_dice: a size is listed twice")
    return tuple(steps)


MAX_DICE = 10
"""The most dice one side may roll in a round."""
MAX_STEPS = 1000
"""The most sizes a dice rule may list."""
MAX_ROLLS = 1_000_000
"""The most ways one round may be rolled: the product of the faces of every die of both
sides (Risk's 3 dice against 2 is 7,776)."""


@dataclasses.dataclass(frozen=True)
class AttritionRules:
    """How one round of an attrition battle is fought.

    ``attacker_dice`` and ``defender_dice`` map a size to the dice rolled at that size and
    above, until the next listed size: ``{1: [red], 2: [yellow], 3: [green]}`` means red for
    one unit, yellow for two and green for three or more. A single :class:`Die` means that
    die at every size.

    ``pairing="pairs"`` compares the highest die of each side, then the second highest, and
    so on, as many comparisons as the smaller side has dice (Risk). ``"highest"`` compares
    only the two highest dice, one unit lost per round.

    ``ties`` says who wins a comparison of equal dice: ``"attacker"``, ``"defender"`` or
    ``"none"`` (nobody loses on that comparison; a round with no loss is rolled again).

    At most :data:`MAX_DICE` dice a side, and one round rolled at most :data:`MAX_ROLLS` ways
    (the faces of all the dice multiplied); beyond that a ValueError.
    """

    attacker_dice: DiceSteps
    defender_dice: DiceSteps
    ties: Ties = "attacker"
    pairing: Pairing = "pairs"
    name: str = "attrition"

    def __post_init__(self) -> None:
        object.__setattr__(self, "attacker_dice", _steps(self.attacker_dice, "attacker"))
        object.__setattr__(self, "defender_dice", _steps(self.defender_dice, "defender"))
        if self.ties not in ("attacker", "defender", "none"):
            raise ValueError(f"ties: expected 'attacker', 'defender' or 'none', got {self.ties!r}")
        if self.pairing not in ("pairs", "highest"):
            raise ValueError(f"pairing: expected 'pairs' or 'highest', got {self.pairing!r}")
        rolls = []
        for side in ("attacker", "defender"):
            steps = getattr(self, f"{side}_dice")
            at_most(f"{side}_dice: the sizes listed", len(steps), MAX_STEPS)
            for _, dice in steps:
                at_most(f"{side}_dice: the dice rolled at one size", len(dice), MAX_DICE)
            rolls.append(max(math.prod(len(d) for d in dice) for _, dice in steps))
        at_most("the rolls of one round (attacker's x defender's)", math.prod(rolls), MAX_ROLLS)

    def dice(self, side: Side, size: int) -> tuple[Die, ...]:
        """The dice ``side`` rolls when it has ``size`` units."""
        if size < 1:
            raise ValueError(f"a side with {size} units does not roll")
        steps = self.attacker_dice if side == "attacker" else self.defender_dice
        chosen = steps[0][1]
        for start, dice in steps:
            if start <= size:
                chosen = dice
        return chosen

    def __str__(self) -> str:
        return self.name


HIERRO = AttritionRules(
    attacker_dice={1: (D6,), 2: (D6,), 3: (D6,)},
    defender_dice={1: (D6,), 2: (D6,), 3: (D6,)},
    ties="attacker",
    name="Corona de Hierro (red/yellow/green d6 by size 1/2/3+, ties to the attacker)",
)
"""Corona de Hierro's battles with the default dice: one die each, the red die for 1 unit,
yellow for 2, green for 3 or more (all standard d6), ties to the attacker. For other faces
use :func:`coronas.hierro.odds.attrition_rules`."""

RISK = AttritionRules(
    attacker_dice={1: (D6,), 2: (D6, D6), 3: (D6, D6, D6)},
    defender_dice={1: (D6,), 2: (D6, D6)},
    ties="defender",
    pairing="pairs",
    name="Risk (attacker up to 3 d6, defender up to 2, highest pairs compared, ties to defender)",
)
"""Classic Risk: the attacker (counting only the armies that attack) rolls one d6 per army
up to 3, the defender up to 2; highest against highest; ties to the defender."""


# ---------------------------------------------------------------------------------------------
# One round
# ---------------------------------------------------------------------------------------------


def _round(
    attacker: tuple[Die, ...], defender: tuple[Die, ...], ties: str, pairing: str
) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    counts, total = _dp.round_counts(attacker, defender, ties, pairing)
    return tuple(sorted((k, Fraction(c, total)) for k, c in counts.items()))


def round_outcomes(rules: AttritionRules, attacker: int, defender: int) -> Die:
    """The distribution of one round's losses ``(attacker_losses, defender_losses)``.

    Losses are capped at the units each side has.

    >>> round_outcomes(HIERRO, 3, 3)
    Die({(0, 1): 7/12, (1, 0): 5/12})
    """
    _check_sizes(attacker, defender, allow_zero=False)
    raw = _round(
        rules.dice("attacker", attacker),
        rules.dice("defender", defender),
        rules.ties,
        rules.pairing,
    )
    return Die.from_pmf([((min(la, attacker), min(ld, defender)), p) for (la, ld), p in raw])


# ---------------------------------------------------------------------------------------------
# The whole battle
# ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _engine(rules: AttritionRules) -> _dp.Engine:
    return _dp.Engine(rules)


@functools.lru_cache(maxsize=256)
def _battle(rules: AttritionRules, attacker: int, defender: int) -> tuple[Die, Fraction]:
    if attacker == 0 or defender == 0:
        return Die.constant((attacker, defender)), Fraction(0)
    ends, rounds = _engine(rules).battle(attacker, defender)
    return Die.from_pmf(ends), rounds


def clear_cache() -> None:
    """Forget every solved battle and round (for timing a cold start)."""
    _battle.cache_clear()
    _engine.cache_clear()
    _dp.round_counts.cache_clear()
    _dp.sorted_roll.cache_clear()


MAX_UNITS = 1000
"""The most units one side of an exact battle may have."""
MAX_PAIRS = 100_000
"""The most (attacker, defender) pairs an exact question may cover: ``attacker * defender``
(300 against 300 takes about half a second; the memory grows with it)."""
MAX_FLOAT_PAIRS = 1_000_000
"""The same for ``win_table(..., exact=False)`` (1000 against 1000 in floating point)."""
MAX_CHAIN_PAIRS = 10_000
"""The same for :func:`markov_chain`, whose graph holds a node per pair (100 against 100)."""


def _check_sizes(
    attacker: int, defender: int, allow_zero: bool = True, limit: int = MAX_PAIRS
) -> None:
    """Refuse sizes that are not whole numbers from 0 (or 1) to :data:`MAX_UNITS`, or whose
    product is over ``limit``."""
    low = 0 if allow_zero else 1
    whole("attacker", attacker, low, MAX_UNITS)
    whole("defender", defender, low, MAX_UNITS)
    at_most("attacker x defender", attacker * defender, limit)


class BattleEnd:
    """The views of a battle fought to the end, read from ``survivors``: the distribution of
    the final ``(attacker units, defender units)``, one of them 0.

    The base of :class:`AttritionResult` and of Corona de Hierro's
    :class:`~coronas.hierro.odds.BattleResult`. Single probabilities are sympy Rationals
    (Fractions under :func:`~coronas.dice.exact_fractions`).
    """

    survivors: Die

    @property
    def attacker_wins(self) -> sympy.Rational | Fraction:
        """P(the defender is wiped out, and the attacker is not)."""
        return rational(self.survivors.prob(lambda e: e[1] == 0 and e[0] > 0))

    @property
    def defender_wins(self) -> sympy.Rational | Fraction:
        return 1 - self.attacker_wins

    @property
    def attacker_survivors(self) -> Die:
        """Units the attacker has left at the end (0 when it lost)."""
        return self.survivors.map(lambda e: e[0])

    @property
    def defender_survivors(self) -> Die:
        """Units the defender has left at the end (0 when it lost)."""
        return self.survivors.map(lambda e: e[1])

    def table(self) -> ProbTable:
        """The final positions with their exact probabilities."""
        rows = []
        for (a, d), p in self.survivors.items():
            who = "attacker wins" if d == 0 else "defender wins"
            rows.append((who, a, d, p))
        rows.sort(key=lambda r: (r[0], -r[1], -r[2]))
        return ProbTable(rows, header=("", "attacker left", "defender left", "P"))


@dataclasses.dataclass(frozen=True)
class AttritionResult(BattleEnd):
    """The exact outcome of one attrition battle: the views of :class:`BattleEnd` and the
    expected number of rounds.
    """

    rules: AttritionRules
    attacker: int
    defender: int
    survivors: Die
    _rounds: Fraction

    @property
    def expected_rounds(self) -> sympy.Rational | Fraction:
        """The mean number of rounds (a round in which nobody loses counts)."""
        return rational(self._rounds)

    def __repr__(self) -> str:
        p = self.attacker_wins
        return (
            f"AttritionResult({self.rules.name}: {self.attacker} vs {self.defender}, "
            f"attacker wins {p} ({percent(p)}), expected rounds {self.expected_rounds})"
        )

    def _repr_html_(self) -> str:
        from html import escape

        p = self.attacker_wins
        head = (
            f"<p><b>{self.attacker} against {self.defender}</b> ({escape(self.rules.name)}): "
            f"attacker wins <b>{p}</b> ({percent(p)}); "
            f"expected rounds {self.expected_rounds}</p>"
        )
        return head + self.table()._repr_html_()


def solve(rules: AttritionRules, attacker: int, defender: int) -> AttritionResult:
    """Solve the battle ``attacker`` units against ``defender`` units exactly.

    The probability mass is pushed forward from the first round to the last in integers
    (over a power of one base for the rule set), so the battle costs about ``attacker *
    defender`` small steps; the answer is memoised.
    """
    _check_sizes(attacker, defender)
    ends, rounds = _battle(rules, attacker, defender)
    return AttritionResult(
        rules=rules, attacker=attacker, defender=defender, survivors=ends, _rounds=rounds
    )


def attacker_win_probability(
    rules: AttritionRules, attacker: int, defender: int
) -> sympy.Rational | Fraction:
    """P(the attacker wipes out the defender), exactly, as a sympy Rational (a Fraction
    under :func:`~coronas.dice.exact_fractions`).

    Read from the table of :func:`win_table` (solved once per rule set and kept).

    >>> attacker_win_probability(RISK, 2, 1)     # 125/216 + 91/216 * 5/12
    1955/2592
    """
    _check_sizes(attacker, defender)
    return rational(_engine(rules).win(attacker, defender))


def survivors(rules: AttritionRules, attacker: int, defender: int) -> Die:
    """The exact distribution of the final ``(attacker_units, defender_units)``."""
    return solve(rules, attacker, defender).survivors


def expected_rounds(
    rules: AttritionRules, attacker: int, defender: int
) -> sympy.Rational | Fraction:
    """The expected number of rounds until one side is gone (rerolled draws count)."""
    return solve(rules, attacker, defender).expected_rounds


def win_table(
    rules: AttritionRules, max_attacker: int = 10, max_defender: int = 10, *, exact: bool = True
) -> sympy.Matrix | list[list[Fraction]] | Any:
    """P(attacker wins) for every size: row i is i+1 attackers, column j is j+1 defenders
    (a sympy Matrix; a list of rows of Fractions under :func:`~coronas.dice.exact_fractions`).

    The table is one dynamic programme over the sizes in integers, solved once per rule set
    and kept: about ``max_attacker * max_defender`` additions of integers that grow with the
    size (200 x 200 takes a few seconds, most of it turning the integers into fractions).

    ``exact=False`` runs the same programme in floating point and returns a NumPy array of
    floats, which is *approximate* (rounding errors of about 1e-15 for 100 x 100, tested
    to stay within 1e-12) and fast enough for pictures far beyond exact sizes, such as a
    500 x 500 heatmap (:func:`coronas.plotting.odds.draw_battle_heatmap` takes either).

    >>> win_table(HIERRO, 2, 2)     # 2 v 2: (7/12)**2 * (1 + 2 * 5/12) = 539/864
    Matrix([
    [   7/12,  49/144],
    [119/144, 539/864]])
    >>> win_table(HIERRO, 2, 2, exact=False).round(6)
    array([[0.583333, 0.340278],
           [0.826389, 0.623843]])
    """
    _check_sizes(
        max_attacker, max_defender, allow_zero=False, limit=MAX_PAIRS if exact else MAX_FLOAT_PAIRS
    )
    engine = _engine(rules)
    if not exact:
        import numpy as np

        P = engine.float_wins(max_attacker, max_defender)
        return np.array([row[1:] for row in P[1:]], dtype=float)
    N, E = engine.wins(max_attacker, max_defender)
    power = engine.power
    return rational_matrix(
        [
            [Fraction(N[a][d], power(E[a][d])) for d in range(1, max_defender + 1)]
            for a in range(1, max_attacker + 1)
        ]
    )


def markov_chain(rules: AttritionRules, attacker: int, defender: int):
    """The battle as an absorbing Markov chain: a ``networkx.DiGraph`` on ``(a, d)`` pairs.

    Node attributes: ``attacker``, ``defender``, ``absorbing``, ``winner`` (``"attacker"``,
    ``"defender"`` or None), ``attacker_wins`` (P(attacker wins) from there, a Fraction).
    Edge attributes: ``p``, the exact probability of one round's move (a round in which
    nobody loses is a self-loop), and ``label``. ``G.graph["start"]`` is the first node.

    >>> G = markov_chain(RISK, 2, 1)
    >>> G.edges[(2, 1), (2, 0)]["p"], G.edges[(2, 1), (1, 1)]["p"]
    (Fraction(125, 216), Fraction(91, 216))
    """
    import networkx as nx

    _check_sizes(attacker, defender, allow_zero=False, limit=MAX_CHAIN_PAIRS)
    engine = _engine(rules)
    engine.wins(attacker, defender)
    G = nx.DiGraph(start=(attacker, defender), rules=rules.name)
    todo, seen = [(attacker, defender)], {(attacker, defender)}
    while todo:
        a, d = todo.pop()
        over = a == 0 or d == 0
        G.add_node(
            (a, d),
            attacker=a,
            defender=d,
            absorbing=over,
            winner=("attacker" if d == 0 else "defender") if over else None,
            attacker_wins=engine.win(a, d),
        )
        if over:
            continue
        moves: dict[tuple[int, int], Fraction] = {}
        for (la, ld), p in _round(
            rules.dice("attacker", a), rules.dice("defender", d), rules.ties, rules.pairing
        ):
            nxt = (max(a - la, 0), max(d - ld, 0))
            moves[nxt] = moves.get(nxt, Fraction(0)) + p
        for nxt, p in moves.items():
            G.add_edge((a, d), nxt, p=p, label=str(p))
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return G


MAX_SIMULATIONS = 10_000_000
"""The most battles one :func:`simulate` call rolls (about a minute of work)."""


def simulate(
    rules: AttritionRules,
    attacker: int,
    defender: int,
    n: int = 10_000,
    rng: Any = None,
) -> Fraction:
    """The fraction of ``n`` seeded random battles the attacker wins (Monte Carlo).

    For comparing with the exact answer in a lesson; ``rng`` is a ``random.Random`` or a
    seed. ``n`` is from 1 to :data:`MAX_SIMULATIONS`. Every die is rolled as
    :meth:`Die.sample <coronas.dice.Die.sample>` rolls it, so a seed gives the same battles.

    >>> simulate(RISK, 3, 2, n=1000, rng=1) == simulate(RISK, 3, 2, n=1000, rng=1)
    True
    """
    import random

    _check_sizes(attacker, defender, allow_zero=False)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_SIMULATIONS:
        raise ValueError(
            f"n: expected a whole number of battles from 1 to {MAX_SIMULATIONS:,}, got {n!r}"
        )
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    return Fraction(_engine(rules).simulate(attacker, defender, n, rng), n)


def negative_binomial_win(p: Fraction, attacker: int, defender: int) -> Fraction:
    """P(the attacker wins) when every round is one comparison the attacker wins with ``p``.

    The attacker needs ``defender`` wins before ``attacker`` losses: a negative binomial,
    sum over k < attacker of C(defender - 1 + k, k) p**defender (1 - p)**k.

    >>> negative_binomial_win(Fraction(7, 12), 2, 1)
    Fraction(119, 144)
    """
    whole("attacker", attacker, 0, MAX_UNITS)
    whole("defender", defender, 0, MAX_UNITS)
    p = Fraction(p)
    q = 1 - p
    return sum(
        (math.comb(defender - 1 + k, k) * p**defender * q**k for k in range(attacker)),
        Fraction(0),
    )


def dice_by_size(fn: Callable[[int], Sequence[Die]], up_to: int) -> DiceSteps:
    """Steps for :class:`AttritionRules` from a function size -> dice, for sizes 1..up_to.

    Sizes above ``up_to`` roll what ``up_to`` rolls. Equal neighbours are merged.

    >>> dice_by_size(lambda n: [D6] * min(n, 2), 5) == RISK.defender_dice
    True
    """
    steps: list[tuple[int, tuple[Die, ...]]] = []
    for size in range(1, up_to + 1):
        dice = tuple(fn(size))
        if not steps or steps[-1][1] != dice:
            steps.append((size, dice))
    return _steps(steps, "rule")
