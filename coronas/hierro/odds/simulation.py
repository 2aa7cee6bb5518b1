"""Monte Carlo battles: the same battle rolled with seeded dice, to set beside the exact value.

Both sides follow the optimal policy of :func:`~coronas.hierro.odds.battle`; the dice are
rolled by :meth:`coronas.dice.Die.sample`, a batch at a time.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from html import escape
from typing import Any

from coronas.dice import Die
from coronas.formatting import percent, plural
from coronas.hierro.odds._common import _count, _rules
from coronas.hierro.odds.battles import battle
from coronas.hierro.odds.solver import State4
from coronas.hierro.rules import Rules

__all__ = ["MonteCarloEstimate", "simulate_battle"]

MAX_SIMULATIONS = 1_000_000
"""The most battles one :func:`simulate_battle` call rolls."""

_BATCH = 512
"""Rolls drawn from :meth:`Die.sample` at a time: one call per many rolls."""


@dataclasses.dataclass(frozen=True)
class MonteCarloEstimate:
    """An estimate from seeded random runs: ``successes`` out of ``n``."""

    successes: int
    n: int
    seed: Any

    @property
    def p(self) -> Fraction:
        return Fraction(self.successes, self.n)

    @property
    def stderr(self) -> float:
        """The standard error sqrt(p (1 - p) / n)."""
        p = self.successes / self.n
        return (p * (1 - p) / self.n) ** 0.5

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval."""
        from coronas.manygames.intervals import wilson_interval

        return wilson_interval(self.successes, self.n)

    def __repr__(self) -> str:
        lo, hi = self.interval
        return (
            f"MonteCarloEstimate({self.successes}/{self.n} = {self.successes / self.n:.4f}, "
            f"95% interval {lo:.4f}-{hi:.4f})"
        )

    def __str__(self) -> str:
        """``5922 of 10000 battles won by the attacker: 59.22% (95% interval 58.25% to
        60.18%), seed 5``: the estimate, its interval and the runs behind it."""
        return f"{self._runs()}: {self._estimate()}{self._seed()}"

    def _repr_html_(self) -> str:
        return f"<p>{escape(self._runs())}: <b>{escape(self._estimate())}</b>{self._seed()}</p>"

    def _runs(self) -> str:
        return f"{self.successes} of {plural(self.n, 'battle')} won by the attacker"

    def _estimate(self) -> str:
        lo, hi = self.interval
        p = Fraction(self.successes, self.n)
        return f"{percent(p)} (95% interval {percent(lo)} to {percent(hi)})"

    def _seed(self) -> str:
        return "" if self.seed is None else escape(f", seed {self.seed}")


def _rolls(die: Die, rng: random.Random) -> Callable[[], Any]:
    """A function rolling ``die`` once per call, from batches of seeded exact-weight rolls."""

    def stream() -> Iterator[Any]:
        while True:
            yield from die.sample(rng, n=_BATCH)

    return stream().__next__


def simulate_battle(
    attacker: int,
    defender: int,
    attacker_shields: int = 0,
    defender_shields: int = 0,
    n: int = 10_000,
    seed: int | None = None,
    rules: Rules | None = None,
    cavalry_charge: bool = False,
) -> MonteCarloEstimate:
    """Roll ``n`` battles with a seeded RNG, both sides following the optimal policy, and
    count the attacker's wins: the Monte Carlo counterpart of :func:`battle`. ``n`` is from
    1 to :data:`MAX_SIMULATIONS`; the sizes are those :func:`battle` takes."""
    rules = _rules(rules)
    _count("n", n, 1, MAX_SIMULATIONS)
    result = battle(attacker, defender, attacker_shields, defender_shields, rules, cavalry_charge)
    solver = result.policy._solver
    rng = random.Random(seed)
    rollers: dict[Die, Callable[[], Any]] = {}

    def roller(die: Die) -> Callable[[], Any]:
        if die not in rollers:
            rollers[die] = _rolls(die, rng)
        return rollers[die]

    # Decisions are looked up in plain dicts of booleans: comparing the solver's large
    # integers at every roll would make the simulation slow.
    faces: dict[tuple[int, int], tuple[Callable[[], Any], dict[Any, int], Callable[[], Any]]] = {}
    att_rule: dict[State4, tuple[bool, ...]] = {}
    def_rule: dict[tuple[int, int, int, int, int, bool], bool] = {}
    wins = 0
    for _ in range(n):
        a, d, sa, sd = attacker, defender, attacker_shields, defender_shields
        while a and d:
            if (a, d) not in faces:
                xs = solver._faces(a, d)[0]
                faces[(a, d)] = (
                    roller(solver.att_die(a)),
                    {x: i for i, x in enumerate(xs)},
                    roller(solver.def_die(d)),
                )
            roll_x, index, roll_y = faces[(a, d)]
            x = roll_x()
            while sa:
                key = (a, d, sa, sd)
                if key not in att_rule:
                    att_rule[key] = tuple(
                        solver.attacker_rerolls(a, d, sa, sd, i) for i in range(len(index))
                    )
                if not att_rule[key][index[x]]:
                    break
                sa -= 1
                x = roll_x()
            y = roll_y()
            while sd:
                dkey = (a, d, sa, sd, index[x], y <= x)
                if dkey not in def_rule:
                    def_rule[dkey] = solver.defender_rerolls(*dkey)
                if not def_rule[dkey]:
                    break
                sd -= 1
                y = roll_y()
            if x >= y:
                d -= 1
            else:
                a -= 1
        wins += d == 0
    return MonteCarloEstimate(wins, n, seed)
