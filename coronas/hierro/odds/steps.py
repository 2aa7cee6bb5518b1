"""Counting actions and turns until something happens: an absorbing chain read step by step.

:class:`StepCount` is the exact distribution of the number of actions (or turns) a castle
assault or a diplomatic campaign takes; :func:`_action_outcomes` is one roll-for-a-target
action with shields spent on rerolls while failing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING

from coronas.dice import ProbTable, rational

if TYPE_CHECKING:
    import sympy

__all__ = ["Step", "StepCount"]

Step = Callable[[Hashable], list[tuple[Hashable, Fraction]]]


class StepCount:
    """The exact distribution of the number of steps (actions, turns) until something happens.

    It is the absorption time of a small Markov chain: ``step(state)`` lists
    ``(next_state, probability)``; ``done(state)`` marks success. The first step may follow
    its own rule (``first_step``: a turn with fewer actions left, a Good fortune card). The
    support is infinite when a failure can repeat forever, so the distribution is read
    term by term (``pmf``, ``cdf``, ``table``) and its mean is solved exactly.

    The chain may only loop on a state onto itself (retrying with nothing left to change);
    any other cycle is refused.
    """

    def __init__(
        self,
        start: Hashable,
        step: Step,
        done: Callable[[Hashable], bool],
        unit: str = "action",
        first_step: Step | None = None,
    ):
        self.unit = unit
        self._step_fn = functools.lru_cache(maxsize=None)(step)
        self._done = done
        first = first_step(start) if first_step is not None else self._step_fn(start)
        self._first = [(s, Fraction(p)) for s, p in first if p]
        self._pmf: list[Fraction] = [Fraction(0)]  # P(N = 0) = 0
        self._live: dict[Hashable, Fraction] = {}
        absorbed = Fraction(0)
        for s, p in self._first:
            if done(s):
                absorbed += p
            else:
                self._live[s] = self._live.get(s, Fraction(0)) + p
        self._pmf.append(absorbed)

    def _extend(self, n: int) -> None:
        while len(self._pmf) <= n and self._live:
            nxt: dict[Hashable, Fraction] = {}
            absorbed = Fraction(0)
            for s, m in self._live.items():
                for t, p in self._step_fn(s):
                    if not p:
                        continue
                    if self._done(t):
                        absorbed += m * p
                    else:
                        nxt[t] = nxt.get(t, Fraction(0)) + m * p
            self._pmf.append(absorbed)
            self._live = nxt
        while len(self._pmf) <= n:
            self._pmf.append(Fraction(0))

    def pmf(self, n: int) -> Fraction:
        """P(N = n)."""
        if n < 0:
            return Fraction(0)
        self._extend(n)
        return self._pmf[n]

    def cdf(self, n: int) -> Fraction:
        """P(N <= n): the chance it is done within ``n`` steps."""
        if n < 0:
            return Fraction(0)
        self._extend(n)
        return sum(self._pmf[: n + 1], Fraction(0))

    def sf(self, n: int) -> Fraction:
        """P(N > n)."""
        return 1 - self.cdf(n)

    def _solve_from(
        self, s: Hashable, memo: dict, done_value: Fraction, step_cost: int
    ) -> Fraction:
        """The chain's first-step equation from ``s``, solved for self-loops:
        X(s) = cost + stay X(s) + sum p X(t)  =>  X(s) = (cost + sum p X(t)) / (1 - stay).

        With cost 0 and done worth 1 it gives P(done eventually); with cost 1 and done worth
        0, the expected number of steps.
        """
        if self._done(s):
            return done_value
        if s in memo:
            value = memo[s]
            if value is None:
                raise ValueError("StepCount needs a chain whose only loops are self-loops")
            return value
        memo[s] = None  # in progress
        stay, total = Fraction(0), Fraction(step_cost)
        for t, p in self._step_fn(s):
            if not p:
                continue
            if t == s:
                stay += p
            else:
                total += p * self._solve_from(t, memo, done_value, step_cost)
        memo[s] = Fraction(0) if stay == 1 else total / (1 - stay)
        return memo[s]

    def _from_start(self, done_value: Fraction, step_cost: int) -> Fraction:
        """:meth:`_solve_from` over the first step's outcomes."""
        memo: dict = {}
        return sum(
            (p * self._solve_from(s, memo, done_value, step_cost) for s, p in self._first),
            Fraction(0),
        )

    @functools.cached_property
    def _eventually(self) -> Fraction:
        return self._from_start(Fraction(1), 0)

    @functools.cached_property
    def _mean(self) -> Fraction | None:
        return 1 + self._from_start(Fraction(0), 1) if self._eventually == 1 else None

    @property
    def eventually(self) -> sympy.Rational | Fraction:
        """P(it happens at all): below 1 only if some course makes success impossible."""
        return rational(self._eventually)

    @property
    def never(self) -> sympy.Rational | Fraction:
        """P(it never happens)."""
        return rational(1 - self._eventually)

    @property
    def mean(self) -> sympy.Rational | Fraction | None:
        """The exact expected number of steps (None when success may never come)."""
        return None if self._mean is None else rational(self._mean)

    def table(self, n: int = 8) -> ProbTable:
        """P(N = k) and P(N <= k) for k = 1..n, and the tail P(N > n)."""
        rows: list[tuple] = [(k, self.pmf(k), self.cdf(k)) for k in range(1, n + 1)]
        rows.append((f"more than {n}", self.sf(n), Fraction(1)))
        return ProbTable(rows, header=(f"{self.unit}s", "P(exactly)", "P(at most)"))

    def __repr__(self) -> str:
        mean = f"happens with P = {self.eventually}" if self.mean is None else f"mean {self.mean}"
        head = ", ".join(f"{k}: {self.pmf(k)}" for k in range(1, 5))
        return f"StepCount({self.unit}s: {mean}; P(N=k) {head}, ...)"

    def _repr_html_(self) -> str:
        mean = (
            f"none (it happens with probability {self.eventually})"
            if self.mean is None
            else f"{self.mean} ({float(self.mean):.3f})"
        )
        return f"<p>{escape(self.unit)}s needed, mean {mean}</p>" + self.table()._repr_html_()


def _action_outcomes(p: Fraction, shields: int) -> list[tuple[bool, int, Fraction]]:
    """One roll-for-a-target action with up to ``shields`` rerolls spent while failing.

    Returns ``(success, shields_spent, probability)``: success on roll i (i = 1..s+1) has
    probability q**(i-1) p and spends i-1 shields; failing every roll spends all of them.
    A target the die cannot reach is not worth a shield.
    """
    if p == 0:
        return [(False, 0, Fraction(1))]
    q = 1 - p
    out = [(True, i, q**i * p) for i in range(shields + 1) if q**i * p]
    if q:
        out.append((False, shields, q ** (shields + 1)))
    return out


def _shields_until_done(
    start: Hashable, step: Step, done: Callable[[Hashable], bool]
) -> Fraction | None:
    """Expected shields spent before ``done``: start shields minus expected shields left."""
    memo: dict[Hashable, Fraction | None] = {}

    def left(s: Hashable) -> Fraction | None:
        if done(s):
            return Fraction(s[1])  # type: ignore[index]
        if s in memo:
            return memo[s]
        stay, total = Fraction(0), Fraction(0)
        for t, p in step(s):
            if t == s:
                stay += p
                continue
            sub = left(t)
            if sub is None:
                memo[s] = None
                return None
            total += p * sub
        memo[s] = None if stay == 1 else total / (1 - stay)
        return memo[s]

    kept = left(start)
    return None if kept is None else start[1] - kept  # type: ignore[index]
