"""What a battle query answers: the battle's outcome and the optimal shield policy."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any

from coronas.attrition import BattleEnd
from coronas.dice import Die, ProbTable, rational
from coronas.formatting import listing, percent, plural
from coronas.hierro.odds._common import _battle_counts, _ranges
from coronas.hierro.odds.solver import State4, _BattleSolver

if TYPE_CHECKING:
    import sympy

__all__ = ["BattlePolicy", "BattleResult"]


def _describe_attacker(faces: Sequence[Any], rerolled: Sequence[bool]) -> str:
    chosen = [f for f, r in zip(faces, rerolled, strict=True) if r]
    return f"reroll {_ranges(chosen)}" if chosen else "never reroll"


def _describe_defender(faces: Sequence[Any], decisions: Sequence[tuple[bool, bool]]) -> str:
    """``decisions[i]``: (reroll when losing, reroll when winning) after the attacker's face i."""
    words = {
        (True, False): "reroll a losing die",
        (False, False): "never reroll",
        (True, True): "reroll anything",
        (False, True): "reroll a winning die",
    }
    groups: list[tuple[str, list[Any]]] = []
    for face, dec in zip(faces, decisions, strict=True):
        if groups and groups[-1][0] == words[dec]:
            groups[-1][1].append(face)
        else:
            groups.append((words[dec], [face]))
    if len(groups) == 1:
        return groups[0][0]
    return "; ".join(f"after {_ranges(fs)}: {w}" for w, fs in groups)


class BattlePolicy:
    """When each side should spend an experience shield to reroll, played optimally.

    ``attacker_rerolls(a, d, sa, sd)`` gives the attacker's faces worth rerolling with ``a``
    pawns against ``d``, holding ``sa`` shields against ``sd``. ``defender_rerolls(a, d, sa,
    sd, x)`` gives the defender's faces worth rerolling when the attacker stopped on ``x``
    keeping ``sa`` shields and the defender holds ``sd``. When rerolling and keeping are
    worth exactly the same, the shield is kept. ``table()`` lists the situations that can
    arise in this battle.
    """

    def __init__(
        self,
        solver: _BattleSolver,
        start: State4,
        attacker_points: set[State4],
        defender_points: set[State4],
    ):
        self._solver = solver
        self.start = start
        self._attacker_points = attacker_points
        self._defender_points = defender_points

    def _index(self, a: int, d: int, x: Any) -> int:
        xs = self._solver._faces(a, d)[0]
        if x not in xs:
            raise ValueError(
                f"the attacker's die cannot show {x!r} here; its faces are {listing(xs, 'and')}"
            )
        return xs.index(x)

    def _check(self, a: int, d: int, sa: int, sd: int) -> None:
        _battle_counts(a, d, sa, sd)
        if sa > self._solver.max_sa or sd > self._solver.max_sd:
            raise ValueError("more shields than this battle was solved for")
        self._solver.ensure(a, d)

    def value(self, a: int, d: int, sa: int, sd: int) -> Fraction:
        """P(attacker wins) from the start of a round (the attacker about to roll), with
        ``a`` pawns against ``d`` holding ``sa`` shields against ``sd``. A side with no pawn
        left has lost: 1 when ``d`` is 0, 0 when ``a`` is."""
        if (a == 0) != (d == 0):
            _battle_counts(max(a, 1), max(d, 1), sa, sd)
            return Fraction(int(d == 0))
        self._check(a, d, sa, sd)
        return self._solver.value(a, d, sa, sd)

    def value_after_attacker(self, a: int, d: int, sa: int, sd: int, x: Any) -> Fraction:
        """P(attacker wins) once the attacker has kept ``x`` with ``sa`` shields left and the
        defender, holding ``sd``, is about to roll (and reroll) against it."""
        self._check(a, d, sa, sd)
        return self._solver.stopped_value(a, d, sa, sd, self._index(a, d, x))

    def attacker_rerolls(self, a: int, d: int, sa: int, sd: int) -> tuple[Any, ...]:
        """The attacker's die faces it should reroll (empty: keep whatever it rolls)."""
        self._check(a, d, sa, sd)
        xs = self._solver._faces(a, d)[0]
        return tuple(x for i, x in enumerate(xs) if self._solver.attacker_rerolls(a, d, sa, sd, i))

    def attacker_should_reroll(self, a: int, d: int, sa: int, sd: int, x: Any) -> bool:
        """Should the attacker, having rolled ``x``, spend a shield to roll again?"""
        self._check(a, d, sa, sd)
        return self._solver.attacker_rerolls(a, d, sa, sd, self._index(a, d, x))

    def defender_should_reroll(self, a: int, d: int, sa: int, sd: int, x: Any, y: Any) -> bool:
        """Should the defender, having rolled ``y`` against the attacker's ``x``, reroll?"""
        self._check(a, d, sa, sd)
        return self._solver.defender_rerolls(a, d, sa, sd, self._index(a, d, x), y <= x)

    def defender_rerolls(self, a: int, d: int, sa: int, sd: int, x: Any) -> tuple[Any, ...]:
        """The defender's die faces it should reroll once the attacker stopped on ``x``."""
        self._check(a, d, sa, sd)
        i = self._index(a, d, x)
        ys = self._solver.def_die(d).outcomes()
        return tuple(y for y in ys if self._solver.defender_rerolls(a, d, sa, sd, i, y <= x))

    def rows(self) -> list[tuple[str, int, int, str, str]]:
        """``(battle, attacker shields, defender shields, attacker's rule, defender's rule)``
        for every situation with a shield to spend that can arise in this battle."""
        s = self._solver
        keys = sorted(
            self._attacker_points | self._defender_points,
            key=lambda k: (-(k[0] + k[1]), -k[0], -k[2], -k[3]),
        )
        out = []
        for a, d, sa, sd in keys:
            xs = s._faces(a, d)[0]
            att = "-"
            if (a, d, sa, sd) in self._attacker_points:
                att = _describe_attacker(
                    xs, [s.attacker_rerolls(a, d, sa, sd, i) for i in range(len(xs))]
                )
            dfn = "-"
            if (a, d, sa, sd) in self._defender_points:
                dfn = _describe_defender(
                    xs,
                    [
                        (
                            s.defender_rerolls(a, d, sa, sd, i, True),
                            s.defender_rerolls(a, d, sa, sd, i, False),
                        )
                        for i in range(len(xs))
                    ],
                )
            out.append((f"{a} v {d}", sa, sd, att, dfn))
        return out

    def table(self) -> ProbTable:
        """The policy as a table (rendered in Jupyter)."""
        return ProbTable(
            self.rows(),
            header=("pawns", "attacker shields", "defender shields", "attacker", "defender"),
        )

    def __repr__(self) -> str:
        rows = self.rows()
        if not rows:
            return "BattlePolicy(no shields to spend)"
        return str(self.table())

    def _repr_html_(self) -> str:
        if not self.rows():
            return "<p>No shields to spend: nothing to decide.</p>"
        return self.table()._repr_html_()


@dataclasses.dataclass(frozen=True)
class BattleResult(BattleEnd):
    """A battle fought to the end, shields played optimally by both sides.

    ``outcomes`` is the exact distribution of the final ``(attacker pawns, defender pawns,
    attacker shields spent, defender shields spent)``; the other distributions are views of
    it (``attacker_wins``, ``survivors``, ``table()`` ... as in
    :class:`~coronas.attrition.BattleEnd`). ``policy`` says when each side should reroll.
    """

    attacker: int
    defender: int
    attacker_shields: int
    defender_shields: int
    cavalry_charge: bool
    cavalry_vp: int
    outcomes: Die
    policy: BattlePolicy

    @property
    def survivors(self) -> Die:
        """The final ``(attacker pawns, defender pawns)``; one of them is 0."""
        return self.outcomes.map(lambda e: (e[0], e[1]))

    @property
    def shields_spent(self) -> Die:
        """The shields spent ``(by the attacker, by the defender)``."""
        return self.outcomes.map(lambda e: (e[2], e[3]))

    @property
    def attacker_shields_spent(self) -> Die:
        return self.outcomes.map(lambda e: e[2])

    @property
    def defender_shields_spent(self) -> Die:
        return self.outcomes.map(lambda e: e[3])

    @property
    def expected_rounds(self) -> sympy.Rational | Fraction:
        """Each roll-off costs exactly one pawn, so rounds = pawns lost in all."""
        total = self.attacker + self.defender
        return rational(self.outcomes.map(lambda e: total - e[0] - e[1]).mean())

    @property
    def expected_vp(self) -> sympy.Rational | Fraction:
        """Victory points the attacker expects from Cavalry charge (0 without the card)."""
        return self.attacker_wins * (self.cavalry_vp if self.cavalry_charge else 0)

    @property
    def title(self) -> str:
        """One line naming the battle: sizes, shields and card."""
        card = ", Cavalry charge" if self.cavalry_charge else ""
        attack = "attacks" if self.attacker == 1 else "attack"
        return (
            f"{plural(self.attacker, 'pawn')} ({plural(self.attacker_shields, 'shield')}) "
            f"{attack} {plural(self.defender, 'pawn')} "
            f"({plural(self.defender_shields, 'shield')}){card}"
        )

    def __repr__(self) -> str:
        p = self.attacker_wins
        return (
            f"{self.title}: attacker wins {p} ({percent(p)}); expected shields spent "
            f"{self.attacker_shields_spent.mean()} / {self.defender_shields_spent.mean()}"
        )

    def _repr_html_(self) -> str:
        p = self.attacker_wins
        head = (
            f"<p><b>{escape(self.title)}</b>: attacker wins <b>{p}</b> ({percent(p)}). "
            f"Shields spent on average: attacker {self.attacker_shields_spent.mean()}, "
            f"defender {self.defender_shields_spent.mean()}.</p>"
        )
        policy = ""
        if self.policy.rows():
            policy = "<p>When to reroll:</p>" + self.policy._repr_html_()
        return head + self.table()._repr_html_() + policy
