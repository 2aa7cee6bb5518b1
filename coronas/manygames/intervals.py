"""The intervals coronas puts around an estimate: a win rate, a share of wins, a difference.

* :func:`wilson_interval`: the Wilson score interval of a proportion, for win rates from
  simulations (it stays inside [0, 1] and behaves with few or no successes);
* :func:`share_interval`: the same for a seat's share of the wins, where a shared victory
  counts 1/k, on the effective number of games;
* :func:`paired_difference`: the interval of the difference between two actions played out on
  the same games (common random numbers); :func:`independent_difference` the same for two
  actions played out on games of their own;
* :func:`luck_coefficient` and :func:`luck_interval`: a share of the wins with the luck of
  each game's rolls taken out by regression (a control variate whose coefficient is fitted
  from the games, summed up in :class:`LuckSums`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from fractions import Fraction

__all__ = [
    "MIN_FIT_GAMES",
    "Z95",
    "LuckSums",
    "independent_difference",
    "luck_coefficient",
    "luck_interval",
    "normal_interval",
    "paired_difference",
    "share_interval",
    "wilson_interval",
]


Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: ``successes`` out of ``n`` trials.

    Unlike the textbook ``p ± z·sqrt(p(1-p)/n)`` it stays inside [0, 1] and is sensible for
    0 or ``n`` successes (Wilson, 1927).

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 10)[0]
    0.0
    """
    if n <= 0:
        raise ValueError(f"a confidence interval needs at least one trial, got n={n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n={n}, got {successes}")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def share_interval(total: float, squares: float, games: int) -> tuple[float, float]:
    """The 95% interval of a seat's chance from its ``total`` share of ``games`` games won and
    the sum of the squares of its shares (``squares``: equal to ``total`` when no game was
    shared).

    A share is 1, 0, or 1/k of a shared win, so it varies less than a plain win or loss: the
    Wilson score interval is taken with the *effective* number of games, ``n p(1 - p) / s²``
    (Kish's design effect, ``s²`` the shares' variance), which is ``n`` itself when no game
    was shared and more when some were. Without that the interval is too wide where ties are
    common (measured: 97.5% coverage instead of 95% at 6% of Carolus games shared).

    >>> share_interval(20, 20, 40) == wilson_interval(20, 40)  # no game shared: plain Wilson
    True
    >>> lo, hi = share_interval(21, 19, 40)  # 4 of 40 games shared: narrower
    >>> (hi - lo) < (share_interval(21, 21, 40)[1] - share_interval(21, 21, 40)[0])
    True
    """
    p = total / games
    spread = squares / games - p * p
    bernoulli = p * (1 - p)
    effective = games * bernoulli / spread if spread > 0 and bernoulli > 0 else games
    return wilson_interval(p * effective, effective)


def paired_difference(
    mine: list[Fraction | None], best: list[Fraction | None], z: float = Z95
) -> tuple[float, float, float]:
    """The mean difference of an action's shares from the best action's on the same games
    (common random numbers), with its 95% interval: ``(mean, low, high)``. Games that did
    not end after either action are left out. A normal interval on the paired differences:
    the pairing removes the luck both games share, so it is narrower than the two actions'
    intervals taken apart; with fewer than two pairs the interval is the widest, -1 to 1.
    ``z`` widens it (the normal quantile; 95% by default). Two lists of different lengths are
    paired on their first games (a move dropped from later games keeps its own)."""
    pairs = [
        float(a - b) for a, b in zip(mine, best, strict=False) if a is not None and b is not None
    ]
    if len(pairs) < 2:
        mean = sum(pairs) / len(pairs) if pairs else 0.0
        return mean, -1.0, 1.0
    n = len(pairs)
    mean = sum(pairs) / n
    var = sum((d - mean) ** 2 for d in pairs) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, max(-1.0, mean - half), min(1.0, mean + half)


def independent_difference(
    a: tuple[float, float, int], b: tuple[float, float, int], z: float = Z95
) -> tuple[float, float, float]:
    """The mean difference between two shares estimated on games of their own, each given as
    ``(total, sum of squares, games)``, with its 95% normal interval ``(mean, low, high)``:
    the variances of the two means add up.

    >>> mean, low, high = independent_difference((30, 30, 40), (20, 20, 40))  # 3/4 against 1/2
    >>> mean, round(low, 4), round(high, 4)  # 0.25 -+ 1.96 sqrt(0.1875/40 + 0.25/40)
    (0.25, 0.045, 0.455)
    """
    means = [t / n for t, _, n in (a, b)]
    spread = sum(max(q / n - (t / n) ** 2, 0.0) / n for t, q, n in (a, b))
    mean = means[0] - means[1]
    half = z * math.sqrt(spread)
    return mean, max(-1.0, mean - half), min(1.0, mean + half)


def normal_interval(values: list[float], z: float = Z95) -> tuple[float, float]:
    """The 95% normal interval of the mean of ``values`` (numbers that need not be 0 or 1,
    such as shares adjusted by the luck of a game's rolls), kept inside [0, 1]; with fewer
    than two values, all of [0, 1].

    >>> low, high = normal_interval([0.5, 0.7, 0.6, 0.6])  # mean 0.6, sd 0.0816
    >>> round(low, 4), round(high, 4)  # 0.6 -+ 1.96 * 0.0816 / 2
    (0.52, 0.68)
    """
    n = len(values)
    if n < 2:
        return 0.0, 1.0
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return max(0.0, mean - half), min(1.0, mean + half)


MIN_FIT_GAMES = 20
"""The fewest games from which the luck's coefficient is fitted (:func:`luck_coefficient`):
with fewer, the luck is left out (coefficient 0, the plain mean), as a slope fitted on a
handful of games is noise that the interval would not show."""


@dataclasses.dataclass
class LuckSums:
    """One seat's sums over the games that ended, exact: of its share ``y`` of each game, of
    the luck ``c`` of each game's rolls (:class:`~coronas.manygames.scoring.Luck`, mean zero),
    and of their squares and products. Five sums are all the regression estimate needs
    (:func:`luck_coefficient`, :func:`luck_interval`), however many games are played; kept
    as fractions (the luck's floats converted exactly) so that no difference of large sums
    loses the residual variance, which is 0 where the value model sees all of the luck."""

    games: int = 0
    y: Fraction = Fraction(0)
    yy: Fraction = Fraction(0)
    c: Fraction = Fraction(0)
    cc: Fraction = Fraction(0)
    yc: Fraction = Fraction(0)

    def add(self, y: Fraction | float, c: float) -> None:
        """One more game: share ``y``, luck ``c``."""
        y, c = Fraction(y), Fraction(c)
        self.games += 1
        self.y += y
        self.yy += y * y
        self.c += c
        self.cc += c * c
        self.yc += y * c

    def spread(self) -> tuple[Fraction, Fraction, Fraction]:
        """The sums of squares and products about the means: ``(Syy, Scc, Syc)``."""
        n = self.games
        return (
            self.yy - self.y * self.y / n,
            self.cc - self.c * self.c / n,
            self.yc - self.y * self.c / n,
        )


def luck_coefficient(seats: Sequence[LuckSums]) -> Fraction | None:
    """How much of the luck to take out of each game's shares: the least-squares slope of the
    shares on the luck, one slope for every seat (``sum Syc / sum Scc`` over the seats), or
    None with fewer than :data:`MIN_FIT_GAMES` games or luck that never varied (then none is
    taken out: coefficient 0, the plain mean).

    The coefficient that leaves the least variance in ``y - b c`` is ``cov(y, c) / var(c)``;
    1 would be right if the value model were exact, and is not when it is less sure of what
    one roll is worth than of a whole position. Fitted from the very games it adjusts, the
    estimate is biased by an amount of order ``1/n``, small beside its standard error. One
    slope is shared by the seats: with two seats it is the same as each seat's own (their
    shares and their luck sum to 1 and 0 in every game), and with more it keeps the seats'
    chances summing to 1, where a slope of their own would not; measured in Corona de Hierro
    at 3 players it leaves within 1% of the variance each seat's own slope leaves.

    >>> seat = LuckSums()
    >>> for y, c in [(1, 0.5), (0, -0.5)] * 10:  # the shares follow the luck exactly
    ...     seat.add(y, c)
    >>> luck_coefficient([seat])
    Fraction(1, 1)
    """
    n = seats[0].games if seats else 0
    if n < MIN_FIT_GAMES:
        return None
    spreads = [s.spread() for s in seats]
    cc = sum(s[1] for s in spreads)
    if cc <= 0:
        return None
    return sum(s[2] for s in spreads) / cc


def luck_interval(
    seat: LuckSums, coefficient: Fraction | None, z: float = Z95
) -> tuple[float, float, float]:
    """The regression estimate of a seat's chance, ``mean(y) - b mean(c)`` with ``b`` the
    ``coefficient`` (:func:`luck_coefficient`; None: 0), and its 95% normal interval kept
    inside [0, 1]: ``(mean, low, high)``. The variance is that of the residuals ``y - b c``,
    over ``n - 2`` when ``b`` was fitted from these games (``n - 1`` when not); with fewer
    than two games the interval is all of [0, 1].

    >>> seat = LuckSums()
    >>> for y, c in [(1, 0.25), (0, -0.25), (1, 0.0), (0, 0.0)] * 5:
    ...     seat.add(y, c)
    >>> mean, low, high = luck_interval(seat, luck_coefficient([seat]))
    >>> mean, round(low, 3), round(high, 3)  # slope 2, residuals 0.5, 0.5, 1, 0: sd 0.373
    (0.5, 0.337, 0.663)
    """
    n = seat.games
    b = coefficient or Fraction(0)
    mean = (seat.y - b * seat.c) / n if n else Fraction(0)
    free = n - (2 if coefficient is not None else 1)
    if free < 1:
        return float(mean), 0.0, 1.0
    syy, scc, syc = seat.spread()
    residual = max(syy - 2 * b * syc + b * b * scc, Fraction(0))
    half = z * math.sqrt(residual / free / n)
    return float(mean), max(0.0, float(mean) - half), min(1.0, float(mean) + half)
