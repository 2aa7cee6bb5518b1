"""Exact odds of a Batalla de Coronas battle: both sides reroll for gold, optimally.

A battle is solved as a zero-sum game over P(gem) (see :func:`battle`, and the solver in
:mod:`coronas.batalla.odds.solver`); :func:`gem_probability` is the fast cached number for
bots, :func:`battle_choice` the optimal decision at an engine state.

>>> battle(2, 2).gem                      # the attacker must win by 2 or more: 10 of 36 rolls
5/18
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from coronas.batalla.odds.solver import ZERO, BattleOutcome, _gold_left, _solver, _tokens
from coronas.batalla.rules import Rules
from coronas.dice import Die, ProbTable, rational
from coronas.engine.schema import short

if TYPE_CHECKING:
    import sympy

__all__ = [
    "BattleOdds",
    "BattleOutcome",
    "battle",
    "gem_probability",
    "gem_table",
]


class BattleOdds:
    """The exact outcome of one battle, without rerolls and with optimal rerolls.

    * ``optimal`` / ``no_rerolls``: :class:`~coronas.dice.Die` over :class:`BattleOutcome`;
    * ``gem`` / ``gem_no_rerolls``: P(the attacker takes a gem), sympy ``Rational``;
    * ``policy``: a :class:`~coronas.dice.ProbTable` of every reroll decision reached under
      optimal play (dice, gold left, who decides, the choice, P(gem) after rerolling and after
      keeping, the probability of reaching that decision);
    * :meth:`table`: P(win by m / tie / lose by m / gem) side by side for both ways of playing.

    ``attacker_crown`` / ``attacker_cross``: the attacker holds the Crown (its gold pays for
    rerolls, within the cap of ``attacker_gems_won``) / the Cross and may send its clergy to
    the golden square with it. Under the rule ``cross_effect="reroll"`` the Cross is one free
    reroll instead, for whichever side holds it (``attacker_cross`` or ``defender_cross``).
    Without rerolls nobody spends anything.
    """

    def __init__(
        self,
        attacker_swords: int,
        defender_shields: int,
        attacker_gold: int,
        defender_gold: int,
        rules: Rules,
        attacker_crown: bool = False,
        attacker_cross: bool = False,
        attacker_gems_won: int = 0,
        defender_cross: bool = False,
    ):
        self.attacker_swords = attacker_swords
        self.defender_shields = defender_shields
        self.attacker_gold = attacker_gold
        self.defender_gold = defender_gold
        self.attacker_crown = attacker_crown
        self.attacker_cross = attacker_cross
        self.defender_cross = defender_cross
        self.rules = rules
        solver = _solver(
            attacker_swords, defender_shields, rules, rules.gold_cap(attacker_gems_won)
        )
        gold = (attacker_gold, defender_gold)
        tokens = _tokens(attacker_crown, attacker_cross, rules, defender_cross)
        self.optimal: Die = Die.from_pmf(solver.distribution(gold, True, tokens))
        self.no_rerolls: Die = Die.from_pmf(solver.distribution(gold, False))
        self._policy_rows = solver.policy_rows(gold, tokens)
        self._first_gold = _gold_left((0, 0, *gold, 0, 0, 0, tokens))

    @property
    def gem(self) -> sympy.Rational | Fraction:
        """P(gem) with optimal rerolls on both sides."""
        return rational(self.optimal.prob(lambda o: o.gem))

    @property
    def gem_no_rerolls(self) -> sympy.Rational | Fraction:
        """P(gem) when nobody rerolls."""
        return rational(self.no_rerolls.prob(lambda o: o.gem))

    @property
    def policy(self) -> ProbTable:
        header = (
            "dice (att vs def)",
            "gold left (att / def)",
            "decides",
            "choice",
            "P(gem) if reroll",
            "P(gem) if keep",
            "P(reach)",
        )
        return ProbTable(self._policy_rows, header=header)

    def expected_gold_spent(self) -> tuple[Fraction, Fraction]:
        """Expected gold spent by attacker and defender under optimal rerolls."""
        return (
            self.optimal.map(lambda o: o.attacker_gold_spent).mean(),
            self.optimal.map(lambda o: o.defender_gold_spent).mean(),
        )

    def table(self) -> ProbTable:
        """P(each result) without rerolls and with optimal rerolls."""

        def by(die: Die, key) -> Fraction:
            return die.prob(key)

        labels: list[tuple[str, Any]] = []
        faces = self.rules.faces
        top = max(faces) - min(faces)
        for m in range(top, 0, -1):
            labels.append(
                (f"attacker wins by {m}", lambda o, m=m: o.winner == "attacker" and o.margin == m)
            )
        labels.append(("tie", lambda o: o.winner == "tie"))
        for m in range(1, top + 1):
            labels.append(
                (f"defender wins by {m}", lambda o, m=m: o.winner == "defender" and o.margin == m)
            )
        labels.append(("gem taken", lambda o: o.gem))
        rows = [(name, by(self.no_rerolls, f), by(self.optimal, f)) for name, f in labels]
        return ProbTable(rows, header=("result", "no rerolls", "optimal rerolls"))

    @property
    def title(self) -> str:
        """The battle in words: "3 swords (gold 1) attack 2 shields (gold 0)"."""
        held = (("Crown", self.attacker_crown), ("Cross", self.attacker_cross))
        tokens = [name for name, has in held if has]
        extra = f", {' and '.join(tokens)}" if tokens else ""
        theirs = ", Cross" if self.defender_cross else ""
        return (
            f"{self.attacker_swords} swords (gold {self.attacker_gold}{extra}) attack "
            f"{self.defender_shields} shields (gold {self.defender_gold}{theirs})"
        )

    def __repr__(self) -> str:
        return (
            f"BattleOdds({self.title}: P(gem) = {self.gem} with optimal rerolls, "
            f"{self.gem_no_rerolls} without)"
        )

    def __str__(self) -> str:
        return f"{self.title}\n{self.table()}\n\nreroll decisions:\n{self.policy}"

    def _repr_html_(self) -> str:
        from html import escape

        ga, gd = self.expected_gold_spent()
        first = [r for r in self._policy_rows if r[1] == self._first_gold]
        later = len(self._policy_rows) - len(first)
        policy = (
            ProbTable(first, header=self.policy.header)._repr_html_()
            if first
            else "<p>No reroll decision arises.</p>"
        )
        if later:
            policy += f"<p>{later} later decisions (after a reroll): see <code>.policy</code>.</p>"
        return (
            f"<h4>{escape(self.title)}</h4>"
            f"<p>P(gem) = <b>{self.gem}</b> with optimal rerolls "
            f"(<b>{self.gem_no_rerolls}</b> without). Expected gold spent: attacker "
            f"{ga} ({float(ga):.2f}), defender {gd} ({float(gd):.2f}).</p>"
            f"{self.table()._repr_html_()}"
            f"<h5>Optimal reroll decisions on the first roll</h5>{policy}"
        )


def battle(
    attacker_swords: int,
    defender_shields: int,
    attacker_gold: int = 0,
    defender_gold: int = 0,
    rules: Rules | None = None,
    *,
    attacker_crown: bool = False,
    attacker_cross: bool = False,
    attacker_gems_won: int = 0,
    defender_cross: bool = False,
) -> BattleOdds:
    """The exact distribution of a battle's outcome, (a) with no rerolls and (b) with optimal
    rerolls: the attacker maximises and the defender minimises P(gem), and neither pays for a
    reroll that does not change that probability. A winning attacker spends as many swords as
    it may. The defender spends no token (tokens are spent in one's own turn, B11); the
    attacker's Crown pays for rerolls like gold (``attacker_crown``, capped by
    ``attacker_gems_won``), and its Cross may send the defender's gold to the bottom before
    the defender decides (``attacker_cross``: the golden square is open to its clergy). Under
    the rule ``cross_effect="reroll"`` the Cross is a free reroll for the side that holds it
    (``attacker_cross`` or ``defender_cross``; there is one Cross).

    >>> b = battle(3, 1, attacker_gold=1)
    >>> b.gem_no_rerolls                  # any win takes the last shield: 15/36
    5/12
    >>> b.gem > b.gem_no_rerolls          # a losing attacker pays 1 gold and tries again
    True
    >>> battle(3, 1, attacker_crown=True).gem > b.gem   # the Crown's 3 gold: rerolls for 1, 2
    True
    """
    args = (attacker_swords, defender_shields, attacker_gold, defender_gold, rules)
    checked = _battle_args(*args, attacker_crown, attacker_cross, attacker_gems_won, defender_cross)
    return BattleOdds(*checked)


def _battle_args(
    attacker_swords: Any,
    defender_shields: Any,
    attacker_gold: Any,
    defender_gold: Any,
    rules: Any,
    attacker_crown: Any,
    attacker_cross: Any,
    attacker_gems_won: Any,
    defender_cross: Any = False,
) -> tuple[int, int, int, int, Rules, bool, bool, int, bool]:
    """A battle's arguments checked (swords and shields 0..militia_max, gold gold_min..the
    cap) and in the order :class:`BattleOdds` takes them; else ValueError naming the argument
    and its range."""
    if rules is None:
        rules = _DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise ValueError(f"rules: expected a coronas.batalla.Rules, got {type(rules).__name__}")
    gems = attacker_gems_won
    if isinstance(gems, bool) or not isinstance(gems, int) or not 0 <= gems < rules.gems_each:
        raise ValueError(
            f"attacker_gems_won must be a whole number from 0 to {rules.gems_each - 1}, "
            f"got {short(gems)}"
        )
    for name, v, lo, hi in (
        ("attacker_swords", attacker_swords, rules.min_swords_to_attack, rules.militia_max),
        ("defender_shields", defender_shields, 0, rules.militia_max),
        ("attacker_gold", attacker_gold, rules.gold_min, rules.gold_cap(gems)),
        ("defender_gold", defender_gold, rules.gold_min, rules.gold_max),
    ):
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"{name} must be a whole number from {lo} to {hi}, got {short(v)}")
    crown, cross, theirs = bool(attacker_crown), bool(attacker_cross), bool(defender_cross)
    if cross and theirs:
        raise ValueError("attacker_cross and defender_cross: there is one Cross, held by one side")
    return (
        attacker_swords,
        defender_shields,
        attacker_gold,
        defender_gold,
        rules,
        crown,
        cross,
        gems,
        theirs,
    )


_DEFAULT_RULES = Rules()


def gem_probability(
    attacker_swords: int,
    defender_shields: int,
    attacker_gold: int = 0,
    defender_gold: int = 0,
    rules: Rules | None = None,
    *,
    attacker_crown: bool = False,
    attacker_cross: bool = False,
    attacker_gems_won: int = 0,
    defender_cross: bool = False,
) -> Fraction:
    """P(gem) of :func:`battle` with optimal rerolls, as a ``Fraction`` (fast, cached: for
    bots and inner loops). The numbers must lie on their tracks, as for :func:`battle`.

    >>> gem_probability(2, 2)
    Fraction(5, 18)
    """
    args = (attacker_swords, defender_shields, attacker_gold, defender_gold, rules)
    checked = _battle_args(*args, attacker_crown, attacker_cross, attacker_gems_won, defender_cross)
    return _gem_probability(*checked)


@functools.lru_cache(maxsize=4096)
def _gem_probability(
    attacker_swords: int,
    defender_shields: int,
    attacker_gold: int,
    defender_gold: int,
    rules: Rules,
    attacker_crown: bool,
    attacker_cross: bool,
    attacker_gems_won: int,
    defender_cross: bool,
) -> Fraction:
    solver = _solver(attacker_swords, defender_shields, rules, rules.gold_cap(attacker_gems_won))
    tokens = _tokens(attacker_crown, attacker_cross, rules, defender_cross)
    start = solver.start((attacker_gold, defender_gold), tokens)
    return sum((p * solver.value(node) for node, p in start), ZERO)


def gem_table(
    attacker_gold: int = 0, defender_gold: int = 0, rules: Rules | None = None
) -> ProbTable:
    """P(gem) with optimal rerolls for every swords (rows) against shields (columns) pair;
    ``.to_matrix()`` gives the sympy Matrix (for a heatmap).

    >>> gem_table()[1][3]                  # 2 swords against 2 shields
    Fraction(5, 18)
    """
    rules = rules or Rules()
    shields = range(rules.militia_max + 1)
    rows = [
        (
            f"{s} swords",
            *(gem_probability(s, d, attacker_gold, defender_gold, rules) for d in shields),
        )
        for s in range(rules.min_swords_to_attack, rules.militia_max + 1)
    ]
    return ProbTable(rows, header=("", *(f"{d} shields" for d in shields)))
