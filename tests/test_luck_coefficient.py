"""The luck of a game's rolls taken out by regression: the coefficient fitted from the games
(``intervals.luck_coefficient``), the estimate and its interval from the residual variance
(``intervals.luck_interval``), and the paired comparison of two arms adjusted so. Synthetic
games, seeded: each game a share ``y`` and a luck ``c`` of mean zero."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from coronas.manygames.estimator import Arm, FromPosition, Played
from coronas.manygames.intervals import (
    MIN_FIT_GAMES,
    LuckSums,
    luck_coefficient,
    luck_interval,
    normal_interval,
    paired_difference,
)


def summed(games: list[tuple[float, float]]) -> LuckSums:
    seat = LuckSums()
    for y, c in games:
        seat.add(y, c)
    return seat


def test_luck_unrelated_to_the_results_is_given_a_coefficient_near_zero():
    # 2000 games won with chance 0.4 whatever the luck, which is uniform on [-0.3, 0.3]: the
    # slope's standard error is 0.49 / (0.17 sqrt(2000)) = 0.064, so |b| < 0.25 (about 4 of
    # them); the estimate moves from the plain mean by b mean(c), under 0.25 * 0.017 (4
    # standard errors of mean(c)) = 0.004, and the interval keeps the plain one's width to
    # within a percent (one slope fitted from 2000 games explains almost nothing).
    rng = random.Random(1)
    games = [(float(rng.random() < 0.4), rng.uniform(-0.3, 0.3)) for _ in range(2000)]
    seat = summed(games)
    b = luck_coefficient([seat])
    assert b is not None and abs(b) < 0.25
    mean, low, high = luck_interval(seat, b)
    plain = [y for y, _ in games]
    plain_low, plain_high = normal_interval(plain)
    assert abs(mean - sum(plain) / len(plain)) < 0.004
    assert 0.99 < (high - low) / (plain_high - plain_low) < 1.01


def test_results_that_follow_the_luck_lose_the_variance_the_luck_explains():
    # y = 0.5 + c + e, c and e normal with sd 0.3 and 0.2: the luck explains 0.09 of the
    # variance 0.13, so the variance left is 0.04 / 0.13 = 0.31 of the plain one and the slope
    # is 1. Over 2000 games the variances' ratio is known to about 0.31 * sqrt(2 / 2000) =
    # 0.01: asked within 0.04 of 0.31 (squared widths), and the slope within 0.05 of 1 (its
    # standard error 0.2 / (0.3 sqrt(2000)) = 0.015).
    rng = random.Random(2)
    games = []
    for _ in range(2000):
        c = rng.gauss(0, 0.3)
        games.append((0.5 + c + rng.gauss(0, 0.2), c))
    seat = summed(games)
    b = luck_coefficient([seat])
    assert b is not None and abs(b - 1) < 0.05
    _, low, high = luck_interval(seat, b)
    unadjusted = luck_interval(seat, None)
    ratio = ((high - low) / (unadjusted[2] - unadjusted[1])) ** 2
    assert abs(ratio - 0.04 / 0.13) < 0.04
    # the coefficient 1 a perfect model would want does as well here, 0 not at all
    _, low_one, high_one = luck_interval(seat, Fraction(1))
    assert abs((high_one - low_one) - (high - low)) < 0.01 * (high - low)


def test_the_fitted_estimate_stays_unbiased_and_its_intervals_cover():
    # Games won with chance 0.5 + c, c uniform on [-0.3, 0.3]: the chance of winning is 0.5.
    # 2000 seeded estimates of 30 games each (just above MIN_FIT_GAMES, where the bias of a
    # slope fitted from the same games is largest): each estimate's sd is about
    # sqrt((0.25 - 0.03) / 30) = 0.086, so their mean is known to 0.002 and asked within
    # 0.008 of 0.5; the 95% intervals cover 0.5 in 92% to 97.5% of them (binomial sd 0.5%;
    # a normal interval on 28 degrees of freedom covers about 94.5%).
    rng = random.Random(3)
    estimates, covered = [], 0
    for _ in range(2000):
        games = []
        for _ in range(30):
            c = rng.uniform(-0.3, 0.3)
            games.append((float(rng.random() < 0.5 + c), c))
        seat = summed(games)
        mean, low, high = luck_interval(seat, luck_coefficient([seat]))
        estimates.append(mean)
        covered += low <= 0.5 <= high
    assert abs(sum(estimates) / len(estimates) - 0.5) < 0.008
    assert 0.92 <= covered / 2000 <= 0.975


def test_few_games_or_no_luck_leave_the_plain_mean():
    games = [(1.0, 0.2), (0.0, -0.2)] * ((MIN_FIT_GAMES - 1) // 2)
    assert luck_coefficient([summed(games)]) is None
    steady = summed([(float(k % 2), 0.0) for k in range(40)])
    assert luck_coefficient([steady]) is None
    mean, low, high = luck_interval(steady, None)
    assert mean == 0.5
    assert (low, high) == pytest.approx(normal_interval([float(k % 2) for k in range(40)]))


def test_one_coefficient_for_every_seat_keeps_the_chances_summing_to_one():
    # Three seats, the luck summing to 0 in each game and the shares to 1: the shared slope
    # takes off sum_s b mean(c_s) = 0, so the chances still sum to 1.
    rng = random.Random(4)
    seats = [LuckSums() for _ in range(3)]
    for _ in range(200):
        luck = [rng.uniform(-0.15, 0.15) for _ in range(2)]
        luck.append(-sum(luck))
        winner = rng.choices(range(3), weights=[1 / 3 + c for c in luck])[0]
        for s, seat in enumerate(seats):
            seat.add(Fraction(s == winner), luck[s])
    b = luck_coefficient(seats)
    assert b is not None and 0.5 < b < 1.5
    assert abs(sum(luck_interval(seat, b)[0] for seat in seats) - 1) < 1e-12


def test_paired_luck_adjusted_moves_differ_by_the_difference_of_their_chances():
    # Two moves on the same 60 games (common random numbers), each with its own fitted
    # coefficient: the mean of the paired differences is the difference of their figures.
    rng = random.Random(5)
    luck = [(c, -c) for c in (rng.uniform(-0.3, 0.3) for _ in range(60))]
    arms = []
    for edge in (0.0, 0.1):
        won = []
        for c, _ in luck:
            mine = Fraction(int(rng.random() < 0.5 + edge + c))
            won.append((mine, 1 - mine))
        arm = Arm(FromPosition(None), 2, luck=True)
        arm.add(Played([Fraction(0)] * 2, [Fraction(0)] * 2, 60, 0, won, [], luck))
        arms.append(arm)
    assert arms[0].coefficient() != arms[1].coefficient()
    mean, low, high = paired_difference(arms[1].shares(0), arms[0].shares(0))
    assert mean == pytest.approx(float(arms[1].chance(0) - arms[0].chance(0)), abs=1e-5)
    assert low < mean < high
