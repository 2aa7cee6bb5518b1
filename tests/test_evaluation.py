"""Fitting an evaluation: the conditional logit's maximum likelihood, checked against answers
worked out by hand and against a seeded sample drawn from known weights."""

from __future__ import annotations

import math
import random

import pytest

from coronas.engine.evaluation import fit_weights, log_loss, logistic_shares


def test_three_wins_in_four_give_odds_of_three():
    """A seat with the feature beat a seat without it 3 times in 4: e^w / (1 + e^w) = 3/4,
    so w = ln 3."""
    samples = [([[1.0], [0.0]], [1, 0])] * 3 + [([[1.0], [0.0]], [0, 1])]
    (w,) = fit_weights(samples)
    assert w == pytest.approx(math.log(3), abs=1e-9)


def test_tables_of_two_and_three_seats_fit_together():
    """At three seats, the seat with the feature won 3 games in 5: e^w / (e^w + 2) = 3/5,
    so e^w = 3 there too; with the two-seat games of the test above, w = ln 3."""
    two = [([[1.0], [0.0]], [1, 0])] * 3 + [([[1.0], [0.0]], [0, 1])]
    three = [([[1.0], [0.0], [0.0]], [1, 0, 0])] * 3 + [([[1.0], [0.0], [0.0]], [0, 1, 0])] * 2
    (w,) = fit_weights(two + three)
    assert w == pytest.approx(math.log(3), abs=1e-9)


def test_a_shared_win_counts_as_half_a_win_to_each():
    """A win shared by seats 0 and 1 weighs as one game won by each, counted half."""
    x = [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]
    shared = [(x, [0.5, 0.5, 0.0]), (x, [0.0, 0.0, 1.0])]
    apart = [(x, [1, 0, 0]), (x, [0, 1, 0]), (x, [0, 0, 1]), (x, [0, 0, 1])]
    assert fit_weights(shared) == pytest.approx(fit_weights(apart), abs=1e-8)


def test_weights_drawn_from_are_found_again():
    """3000 seeded games of three seats, two features each drawn from a standard normal, the
    winner drawn by the model with weights (0.8, -0.5). Each fitted weight's standard error is
    about 0.03; the tolerance, 0.15, is five of them."""
    rng = random.Random(7)
    truth = (0.8, -0.5)
    samples = []
    for _ in range(3000):
        x = [[rng.gauss(0, 1), rng.gauss(0, 1)] for _ in range(3)]
        p = logistic_shares([truth[0] * a + truth[1] * b for a, b in x], 1.0)
        winner = rng.choices(range(3), weights=p)[0]
        samples.append((x, [int(q == winner) for q in range(3)]))
    fitted = fit_weights(samples)
    assert fitted == pytest.approx(truth, abs=0.15)
    assert log_loss(samples, fitted) < log_loss(samples, truth) + 1e-9  # the maximum
    assert log_loss(samples, fitted) < math.log(3) - 0.1


def test_log_loss_of_even_weights_is_ln_k():
    samples = [([[1.0], [2.0]], [1, 0]), ([[3.0], [0.0], [1.0]], [0, 0, 1])]
    assert log_loss(samples, [0.0]) == pytest.approx((math.log(2) + math.log(3)) / 2)


def test_bad_samples_are_named():
    with pytest.raises(ValueError, match="no positions"):
        fit_weights([])
    with pytest.raises(ValueError, match="same number of features"):
        fit_weights([([[1.0], [0.0]], [1, 0]), ([[1.0, 2.0], [0.0, 1.0]], [0, 1])])
    with pytest.raises(ValueError, match="no positions"):
        log_loss([], [1.0])
