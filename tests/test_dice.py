"""Exact values of coronas.dice, each worked out by hand in the comment beside it."""

import math
import random
from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st
from sympy.stats import P

from coronas.dice import D6, Die, ProbTable, compare, d, p_greater, p_greater_equal, random_symbol


def test_d6_pmf_and_thresholds():
    assert D6.pmf() == {i: F(1, 6) for i in range(1, 7)}
    assert D6.p_ge(4) == F(1, 2)  # faces 4, 5, 6
    assert D6.p_ge(1) == 1 and D6.p_ge(7) == 0
    assert D6.p_le(2) == F(1, 3)
    assert D6.mean() == F(7, 2)  # 21 / 6
    assert D6.variance() == F(35, 12)  # (91/6) - (49/4)


def test_repeated_faces():
    die = Die([1, 2, 2, 3, 3, 3])
    assert die[3] == F(1, 2) and die[2] == F(1, 3) and die[1] == F(1, 6)
    assert die.p_ge(2) == F(5, 6)


def test_rerolls_are_a_truncated_geometric_series():
    # fail on 1-3 with probability 1/2 three times in a row: 1 - 1/8
    assert D6.p_at_least(4, rerolls=2) == F(7, 8)
    # need a 6, one reroll: 1 - (5/6)^2 = 11/36
    assert D6.p_at_least(6, rerolls=1) == F(11, 36)
    assert D6.p_at_least(4, rerolls=0) == F(1, 2)


def test_reroll_below_distribution():
    die = D6.reroll_below(4, rerolls=1)
    # a 1 is kept only after failing (1/2) and rolling 1 again (1/6)
    assert die[1] == F(1, 12)
    # a 5 comes first time (1/6) or after a fail (1/2 * 1/6)
    assert die[5] == F(1, 4)
    assert die.p_ge(4) == D6.p_at_least(4, rerolls=1) == F(3, 4)


def test_sum_max_min_difference():
    two = D6 + D6
    assert two[7] == F(6, 36) and two[2] == F(1, 36) and two[12] == F(1, 36)
    assert (D6 * 3)[3] == F(1, 216)
    diff = D6 - D6
    assert diff[0] == F(6, 36) and diff[5] == F(1, 36) and diff[-5] == F(1, 36)
    assert D6.max(D6)[6] == F(11, 36)  # 36 - 25 pairs have a 6
    assert D6.min(D6)[1] == F(11, 36)
    assert (D6 + 2)[8] == F(1, 6)


def test_comparisons_with_tie_rule():
    assert p_greater(D6, D6) == F(5, 12)  # 15 of 36 pairs
    assert p_greater_equal(D6, D6) == F(7, 12)  # 21 of 36 pairs
    assert compare(D6, D6, ties="second") == F(5, 12)
    assert compare(d(4), D6) == F(6, 24)  # pairs x > y: 0+1+2+3 = 6 of 24
    with pytest.raises(ValueError, match="ties"):
        compare(D6, D6, ties="attacker")


def test_best_and_worst_of():
    assert D6.best_of(2)[6] == F(11, 36)
    assert D6.best_of(2) == D6.max(D6)
    assert D6.worst_of(2)[1] == F(11, 36)
    assert D6.best_of(3)[1] == F(1, 216)


def test_map_and_prob():
    parity = D6.map(lambda x: x % 2)
    assert parity == Die.from_pmf({0: F(1, 2), 1: F(1, 2)})
    assert D6.prob(lambda x: x in (1, 6)) == F(1, 3)


def test_from_pmf_normalises_weights_and_rejects_floats():
    assert Die.from_pmf({0: 1, 1: 3})[1] == F(3, 4)
    assert Die.from_pmf({0: sympy.Rational(1, 3), 1: sympy.Rational(2, 3)})[0] == F(1, 3)
    with pytest.raises(ValueError, match="exact"):
        Die.from_pmf({0: 0.5, 1: 0.5})
    with pytest.raises(ValueError, match="negative"):
        Die.from_pmf({0: -1, 1: 2})


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: Die([]), "at least one face"),
        (lambda: d(0), "at least one side"),
        (lambda: D6.p_ge(3.5), "target must be an integer"),
        (lambda: D6.p_ge("4"), "target must be an integer"),
        (lambda: D6.p_at_least(4, rerolls=-1), "rerolls must be 0 or more"),
        (lambda: D6.best_of(0), "at least one roll"),
        (lambda: Die([[1]]), "hashable"),
    ],
)
def test_bad_input_is_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_sample_is_seeded_and_follows_the_distribution():
    assert D6.sample(rng=7, n=20) == D6.sample(rng=random.Random(7), n=20)
    rolls = Die([1, 1, 1, 2]).sample(rng=3, n=4000)
    ones = rolls.count(1) / len(rolls)
    assert abs(ones - 0.75) < 0.03  # 3/4 within about 4 standard errors


@pytest.mark.parametrize(
    "die",
    [D6, Die.d(20), Die([1, 1, 2]), Die.from_pmf({0: 1, 1: 3, 5: 2}), Die([7]), Die(["a", "b"])],
    ids=str,
)
def test_a_seed_gives_the_rolls_of_random_choices_with_integer_weights(die):
    # Die([1, 1, 2]) is 2/3, 1/3: integer weights 2 and 1 over the denominator 3.
    outcomes = [o for o, _ in die.items()]
    den = math.lcm(*(p.denominator for _, p in die.items()))
    weights = [int(p * den) for _, p in die.items()]
    for seed in range(5):
        mine, ref = random.Random(seed), random.Random(seed)
        rolls = [die.sample(mine) for _ in range(100)] + die.sample(mine, n=100)
        assert rolls == [ref.choices(outcomes, weights)[0] for _ in range(100)] + ref.choices(
            outcomes, weights, k=100
        )
    assert die.sampler() is die.sampler()  # worked out once per die
    assert Die([1, 1, 2]).sampler() == ((1, 2), (2, 3), 3)


def test_sympy_views():
    assert D6.to_sympy()[3] == sympy.Rational(1, 6)
    X, Y = random_symbol(D6, "X"), random_symbol(D6, "Y")
    assert P(X >= 4) == sympy.Rational(1, 2)
    assert P(X > Y) == sympy.Rational(5, 12)
    m = D6.table().to_matrix()
    assert m.shape == (6, 1) and m[0, 0] == sympy.Rational(1, 6)
    with pytest.raises(ValueError, match="numeric"):
        random_symbol(Die(["a", "b"]), "Z")


def test_table_renders_fraction_and_percentage():
    html = D6.best_of(2).table()._repr_html_()
    assert "11/36" in html and "30.56%" in html
    t = ProbTable([("x", F(1, 8))], header=("", "P"))
    assert "1/8 (12.50%)" in str(t)


dice = st.lists(st.integers(-3, 8), min_size=1, max_size=6).map(Die)


@given(dice, dice)
def test_properties_sum_to_one_and_order_relations(a, b):
    for die in (a, b, a + b, a - b, a.max(b), a.min(b), a.best_of(2)):
        assert sum(p for _, p in die.items()) == 1
    # P(A > B) + P(A = B) + P(B > A) = 1
    tie = sum(a[x] * b[x] for x in a)
    assert p_greater(a, b) + tie + p_greater(b, a) == 1
    assert p_greater_equal(a, b) == p_greater(a, b) + tie
    assert (a - b).p_ge(1) == p_greater(a, b)
