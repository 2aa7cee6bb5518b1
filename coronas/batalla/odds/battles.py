"""Exact odds of a Batalla de Coronas battle: both sides reroll for gold, optimally.

A battle is solved as a zero-sum game over P(gem) (see :func:`battle`); :func:`gem_probability`
is the fast cached number for bots, :func:`battle_choice` the optimal decision at an engine
state.

>>> battle(2, 2).gem                      # the attacker must win by 2 or more: 10 of 36 rolls
5/18
"""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from coronas.batalla.actions import Accept, Reroll, SpendSwords
from coronas.batalla.rules import Rules
from coronas.dice import Die, ProbTable, rational
from coronas.engine.schema import short

if TYPE_CHECKING:
    import sympy

__all__ = [
    "BattleOdds",
    "BattleOutcome",
    "battle",
    "battle_choice",
    "gem_probability",
    "gem_table",
]

ZERO, ONE = Fraction(0), Fraction(1)


@dataclasses.dataclass(frozen=True)
class BattleOutcome:
    """How one battle ended.

    ``winner`` is "attacker", "tie" or "defender" and ``margin`` the difference of the final
    dice. A winning attacker spends as many swords as it may (the margin, its swords and the
    defender's shields bound it): ``swords_spent`` = ``shields_destroyed``. A losing attacker
    loses ``swords_lost`` swords. ``gem``: the defender's shields reached (or stood at) 0.
    """

    winner: str
    margin: int
    shields_destroyed: int
    swords_spent: int
    swords_lost: int
    gem: bool
    attacker_gold_spent: int
    defender_gold_spent: int

    def __str__(self) -> str:
        text = "tie" if self.winner == "tie" else f"{self.winner} wins by {self.margin}"
        if self.shields_destroyed:
            text += f", -{self.shields_destroyed} shields"
        if self.swords_lost:
            text += f", -{self.swords_lost} swords"
        if self.gem:
            text += ", gem taken"
        if self.attacker_gold_spent or self.defender_gold_spent:
            text += (
                f" (gold spent: attacker {self.attacker_gold_spent}, "
                f"defender {self.defender_gold_spent})"
            )
        return text


# A battle node: dice (attacker, defender), gold left, rerolls paid, sides that kept a tie.
_Node = tuple[int, int, int, int, int, int, int]


class _BattleSolver:
    """The battle as a zero-sum game over P(gem): the attacker maximises, the defender
    minimises, and a side rerolls only when that strictly changes P(gem) its way (so no gold
    is spent in vain). Who may reroll follows the rules (B7): the side whose die is lower,
    and on a tie nobody (or, with ``reroll_on_tie``, the attacker first, then the defender)."""

    def __init__(self, swords: int, shields: int, rules: Rules):
        self.swords, self.shields, self.rules = swords, shields, rules
        self.faces = Die(rules.die_faces).items()

    def spend(self, a: int, d: int) -> int:
        """Swords a winning attacker spends (as many as allowed)."""
        return min(a - d, self.swords, self.shields)

    def is_gem(self, a: int, d: int) -> bool:
        if a <= d:
            return False
        return self.shields == 0 or self.spend(a, d) >= self.shields

    def decider(self, node: _Node) -> int | None:
        a, d, ga, gd, ka, kd, declined = node
        if a == d:
            sides: tuple[int, ...] = (0, 1) if self.rules.reroll_on_tie else ()
        else:
            sides = (0,) if a < d else (1,)
        for side in sides:
            gold, k = (ga, ka) if side == 0 else (gd, kd)
            if not declined & (1 << side) and gold >= self.rules.reroll_cost(k):
                return side
        return None

    def after_accept(self, node: _Node, side: int) -> _Node:
        a, d, ga, gd, ka, kd, declined = node
        return (a, d, ga, gd, ka, kd, declined | (1 << side))

    def after_reroll(self, node: _Node, side: int) -> list[tuple[_Node, Fraction]]:
        a, d, ga, gd, ka, kd, _ = node
        if side == 0:
            cost = self.rules.reroll_cost(ka)
            return [((v, d, ga - cost, gd, ka + 1, kd, 0), p) for v, p in self.faces]
        cost = self.rules.reroll_cost(kd)
        return [((a, v, ga, gd - cost, ka, kd + 1, 0), p) for v, p in self.faces]

    @functools.cache  # noqa: B019 - one solver per battle, kept small
    def value(self, node: _Node) -> Fraction:
        """P(gem) from this node under optimal play."""
        side = self.decider(node)
        if side is None:
            return ONE if self.is_gem(node[0], node[1]) else ZERO
        keep, again = self.options(node, side)
        return again if self.rerolls(side, keep, again) else keep

    def options(self, node: _Node, side: int) -> tuple[Fraction, Fraction]:
        keep = self.value(self.after_accept(node, side))
        again = sum((p * self.value(n) for n, p in self.after_reroll(node, side)), ZERO)
        return keep, again

    @staticmethod
    def rerolls(side: int, keep: Fraction, again: Fraction) -> bool:
        return again > keep if side == 0 else again < keep

    def outcome(self, node: _Node, gold: tuple[int, int]) -> BattleOutcome:
        a, d, ga, gd = node[:4]
        if a > d:
            n = min(self.spend(a, d), self.shields) if self.shields else 0
            return BattleOutcome(
                "attacker", a - d, n, n, 0, self.is_gem(a, d), gold[0] - ga, gold[1] - gd
            )
        if d > a:
            return BattleOutcome(
                "defender", d - a, 0, 0, min(d - a, self.swords), False, gold[0] - ga, gold[1] - gd
            )
        return BattleOutcome("tie", 0, 0, 0, 0, False, gold[0] - ga, gold[1] - gd)

    def distribution(self, gold: tuple[int, int], rerolls: bool) -> dict[BattleOutcome, Fraction]:
        memo: dict[_Node, dict[BattleOutcome, Fraction]] = {}

        def walk(node: _Node) -> dict[BattleOutcome, Fraction]:
            if node in memo:
                return memo[node]
            side = self.decider(node) if rerolls else None
            if side is None:
                out = {self.outcome(node, gold): ONE}
            else:
                keep, again = self.options(node, side)
                if self.rerolls(side, keep, again):
                    out = {}
                    for n, p in self.after_reroll(node, side):
                        for o, q in walk(n).items():
                            out[o] = out.get(o, ZERO) + p * q
                else:
                    out = walk(self.after_accept(node, side))
            memo[node] = out
            return out

        total: dict[BattleOutcome, Fraction] = {}
        for a, pa in self.faces:
            for d, pd in self.faces:
                for o, q in walk((a, d, gold[0], gold[1], 0, 0, 0)).items():
                    total[o] = total.get(o, ZERO) + pa * pd * q
        return total

    def policy_rows(self, gold: tuple[int, int]) -> list[tuple]:
        """Every reroll decision reached with positive probability under optimal play."""
        reach: dict[_Node, Fraction] = {}
        order: list[_Node] = []
        frontier: list[tuple[_Node, Fraction]] = [
            ((a, d, gold[0], gold[1], 0, 0, 0), pa * pd)
            for a, pa in self.faces
            for d, pd in self.faces
        ]
        while frontier:
            nxt: dict[_Node, Fraction] = {}
            for node, p in frontier:
                side = self.decider(node)
                if side is None:
                    continue
                if node not in reach:
                    order.append(node)
                reach[node] = reach.get(node, ZERO) + p
                keep, again = self.options(node, side)
                children = (
                    self.after_reroll(node, side)
                    if self.rerolls(side, keep, again)
                    else [(self.after_accept(node, side), ONE)]
                )
                for n, q in children:
                    nxt[n] = nxt.get(n, ZERO) + p * q
            frontier = list(nxt.items())
        rows = []
        for node in order:
            a, d, ga, gd, ka, kd, _ = node
            side = self.decider(node)
            keep, again = self.options(node, side)
            who = ("attacker", "defender")[side]
            cost = self.rules.reroll_cost(ka if side == 0 else kd)
            choice = f"pay {cost} and reroll" if self.rerolls(side, keep, again) else "keep"
            rows.append((f"{a} vs {d}", f"{ga} / {gd}", who, choice, again, keep, reach[node]))
        return rows


@functools.lru_cache(maxsize=256)
def _solver(swords: int, shields: int, rules: Rules) -> _BattleSolver:
    return _BattleSolver(swords, shields, rules)


class BattleOdds:
    """The exact outcome of one battle, without rerolls and with optimal rerolls.

    * ``optimal`` / ``no_rerolls``: :class:`~coronas.dice.Die` over :class:`BattleOutcome`;
    * ``gem`` / ``gem_no_rerolls``: P(the attacker takes a gem), sympy ``Rational``;
    * ``policy``: a :class:`~coronas.dice.ProbTable` of every reroll decision reached under
      optimal play (dice, gold left, who decides, the choice, P(gem) after rerolling and after
      keeping, the probability of reaching that decision);
    * :meth:`table`: P(win by m / tie / lose by m / gem) side by side for both ways of playing.
    """

    def __init__(
        self,
        attacker_swords: int,
        defender_shields: int,
        attacker_gold: int,
        defender_gold: int,
        rules: Rules,
    ):
        self.attacker_swords = attacker_swords
        self.defender_shields = defender_shields
        self.attacker_gold = attacker_gold
        self.defender_gold = defender_gold
        self.rules = rules
        solver = _solver(attacker_swords, defender_shields, rules)
        gold = (attacker_gold, defender_gold)
        self.optimal: Die = Die.from_pmf(solver.distribution(gold, rerolls=True))
        self.no_rerolls: Die = Die.from_pmf(solver.distribution(gold, rerolls=False))
        self._policy_rows = solver.policy_rows(gold)

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
        return (
            f"{self.attacker_swords} swords (gold {self.attacker_gold}) attack "
            f"{self.defender_shields} shields (gold {self.defender_gold})"
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
        first = [
            r for r in self._policy_rows if r[1] == f"{self.attacker_gold} / {self.defender_gold}"
        ]
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
) -> BattleOdds:
    """The exact distribution of a battle's outcome, (a) with no rerolls and (b) with optimal
    rerolls: the attacker maximises and the defender minimises P(gem), and neither pays for a
    reroll that does not change that probability. A winning attacker spends as many swords as
    it may. Tokens are left out (nobody holds the Cross or the Crown).

    >>> b = battle(3, 1, attacker_gold=1)
    >>> b.gem_no_rerolls                  # any win takes the last shield: 15/36
    5/12
    >>> b.gem > b.gem_no_rerolls          # a losing attacker pays 1 gold and tries again
    True
    """
    rules = _check_battle(attacker_swords, defender_shields, attacker_gold, defender_gold, rules)
    return BattleOdds(attacker_swords, defender_shields, attacker_gold, defender_gold, rules)


def _check_battle(
    attacker_swords: Any, defender_shields: Any, attacker_gold: Any, defender_gold: Any, rules: Any
) -> Rules:
    """The rule set, once every number is on its track (swords and shields 0..militia_max,
    gold gold_min..gold_max); else ValueError naming the argument and its range."""
    if rules is None:
        rules = _DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise ValueError(f"rules: expected a coronas.batalla.Rules, got {type(rules).__name__}")
    for name, v, lo, hi in (
        ("attacker_swords", attacker_swords, rules.min_swords_to_attack, rules.militia_max),
        ("defender_shields", defender_shields, 0, rules.militia_max),
        ("attacker_gold", attacker_gold, rules.gold_min, rules.gold_max),
        ("defender_gold", defender_gold, rules.gold_min, rules.gold_max),
    ):
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"{name} must be a whole number from {lo} to {hi}, got {short(v)}")
    return rules


_DEFAULT_RULES = Rules()


def gem_probability(
    attacker_swords: int,
    defender_shields: int,
    attacker_gold: int = 0,
    defender_gold: int = 0,
    rules: Rules | None = None,
) -> Fraction:
    """P(gem) of :func:`battle` with optimal rerolls, as a ``Fraction`` (fast, cached: for
    bots and inner loops). The numbers must lie on their tracks, as for :func:`battle`.

    >>> gem_probability(2, 2)
    Fraction(5, 18)
    """
    rules = _check_battle(attacker_swords, defender_shields, attacker_gold, defender_gold, rules)
    return _gem_probability(attacker_swords, defender_shields, attacker_gold, defender_gold, rules)


@functools.lru_cache(maxsize=4096)
def _gem_probability(
    attacker_swords: int,
    defender_shields: int,
    attacker_gold: int = 0,
    defender_gold: int = 0,
    rules: Rules | None = None,
) -> Fraction:
    solver = _solver(attacker_swords, defender_shields, rules)
    return sum(
        (
            pa * pd * solver.value((a, d, attacker_gold, defender_gold, 0, 0, 0))
            for a, pa in solver.faces
            for d, pd in solver.faces
        ),
        ZERO,
    )


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


def battle_choice(state: Any) -> Any:
    """The optimal action of :func:`battle` at a battle decision of an engine state: reroll or
    keep at ``reroll_choice``, the most swords at ``spend``. (For bots and for checking the
    odds on the engine's own game tree.)"""
    if state.phase == "spend":
        return SpendSwords(max(state._spend_options()))
    if state.phase != "reroll_choice":
        raise ValueError(f"not a battle decision: this is {state.describe_phase()}")
    p = state.player
    solver = _solver(state.swords[p], state.shields[1 - p], state.rules)
    a, d = state.bdice
    node = (a, d, state.gold[p], state.gold[1 - p], *state.rerolls, state.declined)
    side = state.decider
    keep, again = solver.options(node, side)
    if solver.rerolls(side, keep, again):
        return Reroll(state.rules.reroll_cost(state.rerolls[side]))
    return Accept()
