"""Win shares of a position: the common end of every game's ``evaluate(state)``.

A tree search that cuts a playout before the end needs each seat's chance of winning from
there. Each game's ``playout`` module sums what its score is made of into one *strength* per
seat; :func:`logistic_shares` turns strengths into shares (a lead of ``scale`` multiplies a
seat's odds by e, the multinomial logistic model of a race), and :func:`win_shares` gives
the shares once the game is over: the one rule by which a search, a win-chance estimate and a
ladder count a shared victory.

>>> logistic_shares([2.0, 2.0, 2.0], scale=1.0)
(0.3333333333333333, 0.3333333333333333, 0.3333333333333333)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

__all__ = ["logistic_shares", "shares", "win_shares"]


def logistic_shares(strengths: Sequence[float], scale: float) -> tuple[float, ...]:
    """Shares proportional to ``exp(strength / scale)``: in [0, 1], summing to 1, equal for
    equal strengths, and the larger the lead the nearer to 1."""
    top = max(strengths)
    weights = [math.exp((s - top) / scale) for s in strengths]  # the largest is exp(0) = 1
    total = sum(weights)
    return tuple(w / total for w in weights)


def shares(winners: Sequence[int], players: int, exact: bool = False) -> tuple[Any, ...]:
    """1/k of a win to each of the ``k`` seats in ``winners``, 0 to the other seats: floats,
    or Fractions with ``exact``.

    >>> shares([0, 2], 3, exact=True)
    (Fraction(1, 2), Fraction(0, 1), Fraction(1, 2))
    """
    one = Fraction(1, len(winners)) if exact else 1.0 / len(winners)
    zero = Fraction(0) if exact else 0.0
    return tuple(one if p in winners else zero for p in range(players))


def win_shares(state: Any, exact: bool = False) -> tuple[Any, ...]:
    """At a finished game, 1/k to each of its k winners and 0 to the others (Fractions with
    ``exact``)."""
    return shares(state.winners(), state.num_players, exact)
