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

__all__ = ["fit_weights", "log_loss", "logistic_shares", "shares", "win_shares"]


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


Sample = tuple[Sequence[Sequence[float]], Sequence[float]]
"""One position for :func:`fit_weights`: each seat's features, and each seat's win share in
the game that was played on from there."""


def fit_weights(
    samples: Sequence[Sample], iterations: int = 100, ridge: float = 1e-6
) -> tuple[float, ...]:
    """The weights ``w`` under which positions' features best predict who won: the maximum
    likelihood of the conditional logit model (McFadden, 1974), in which seat ``p`` wins with
    probability ``exp(w . x_p) / sum_q exp(w . x_q)``; the same model as
    :func:`logistic_shares` with ``strength = w . x`` and a scale of 1.

    A game's evaluation is fitted this way from positions of played games (``coronas train
    GAME``, :mod:`coronas.training`): each sample is ``(features, shares)``, one row of
    features per seat and the seat's win share (1/k for each of k winners). The
    log-likelihood is concave; Newton's method climbs it, halving a step that would not
    climb, until a step moves no weight by more than 1e-10. ``ridge`` keeps the Hessian
    invertible when a feature never varies. Positions may have different numbers of seats.
    The same routine fits a move prior (:func:`coronas.engine.learning.fit_choice`, of which
    this is the unpenalised case).

    A seat with the feature won 3 of 4 games against one without: ``e^w / (1 + e^w) = 3/4``,
    so ``w = ln 3``.

    >>> (w,) = fit_weights([([[1.0], [0.0]], [1, 0])] * 3 + [([[1.0], [0.0]], [0, 1])])
    >>> abs(w - math.log(3)) < 1e-9
    True
    """
    from coronas.engine.learning import fit_choice

    widths = set()
    for i, (features, won) in enumerate(samples):
        if len(won) != len(features):
            raise ValueError(f"position {i}: {len(features)} seats but {len(won)} win shares")
        widths.update(len(row) for row in features)
    if not samples or not widths:
        raise ValueError("no positions to fit")
    if len(widths) != 1:
        raise ValueError(f"every seat needs the same number of features, got {sorted(widths)}")
    return fit_choice(samples, l2=0.0, iterations=iterations, jitter=ridge)


def log_loss(samples: Sequence[Sample], weights: Sequence[float]) -> float:
    """The mean cross-entropy, in nats, of the win shares of ``samples`` under the model of
    :func:`fit_weights` with ``weights``: the lower, the better the features predict who wins
    (every seat given 1/k, with k seats, scores ``ln k``)."""
    if not samples:
        raise ValueError("no positions to score")
    total = 0.0
    for features, won in samples:
        strengths = [sum(w * f for w, f in zip(weights, row, strict=True)) for row in features]
        predicted = logistic_shares(strengths, 1.0)
        total -= sum(y * math.log(q) for y, q in zip(won, predicted, strict=True) if y)
    return total / len(samples)
