"""Win shares of a position: the common end of every game's ``evaluate(state)``.

A tree search that cuts a playout before the end needs each seat's chance of winning from
there. Each game's ``playout`` module sums what its score is made of into one *strength* per
seat; :func:`logistic_shares` turns strengths into shares (a lead of ``scale`` multiplies a
seat's odds by e, the multinomial logistic model of a race), and :func:`terminal_shares`
gives the exact shares once the game is over.

>>> logistic_shares([2.0, 2.0, 2.0], scale=1.0)
(0.3333333333333333, 0.3333333333333333, 0.3333333333333333)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__all__ = ["logistic_shares", "terminal_shares"]


def logistic_shares(strengths: Sequence[float], scale: float) -> tuple[float, ...]:
    """Shares proportional to ``exp(strength / scale)``: in [0, 1], summing to 1, equal for
    equal strengths, and the larger the lead the nearer to 1."""
    top = max(strengths)
    weights = [math.exp((s - top) / scale) for s in strengths]  # the largest is exp(0) = 1
    total = sum(weights)
    return tuple(w / total for w in weights)


def terminal_shares(state: Any) -> tuple[float, ...]:
    """At a terminal state, 1/k to each of the k winners and 0 to the others."""
    winners = state.winners()
    share = 1.0 / len(winners)
    return tuple(share if p in winners else 0.0 for p in range(state.num_players))
