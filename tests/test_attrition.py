"""The attrition solver: hand-worked values, Risk's classic numbers, any faces, Monte Carlo."""

import math
from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from coronas.attrition import (
    HIERRO,
    MAX_SIMULATIONS,
    RISK,
    AttritionRules,
    attacker_win_probability,
    dice_by_size,
    expected_rounds,
    markov_chain,
    negative_binomial_win,
    round_outcomes,
    simulate,
    solve,
    survivors,
    win_table,
)
from coronas.dice import D6, Die, exact_fractions


def test_hierro_small_battles_by_hand():
    # One d6 each, ties to the attacker: P(X >= Y) = (6 + 5 + ... + 1) / 36 = 21/36 = 7/12.
    assert attacker_win_probability(HIERRO, 1, 1) == sympy.Rational(7, 12)
    # 2 v 1: win the first roll (7/12), or lose it (5/12) and win the 1 v 1 (7/12):
    # 84/144 + 35/144 = 119/144.
    assert attacker_win_probability(HIERRO, 2, 1) == sympy.Rational(119, 144)
    # 1 v 2: the attacker must win twice in a row: 49/144.
    assert attacker_win_probability(HIERRO, 1, 2) == sympy.Rational(49, 144)
    assert isinstance(attacker_win_probability(HIERRO, 1, 1), sympy.Rational)


def test_hierro_is_a_negative_binomial_when_the_dice_are_identical():
    # The attacker needs d wins before a losses, each round won with p = 7/12:
    # P = sum_{k < a} C(d - 1 + k, k) p^d q^k. For 3 v 2:
    # p^2 (1 + 2 q + 3 q^2) = 49/144 * (1 + 10/12 + 75/144) = 49/144 * 339/144 = 16611/20736.
    p, q = F(7, 12), F(5, 12)
    assert p**2 * (1 + 2 * q + 3 * q**2) == F(16611, 20736)
    assert attacker_win_probability(HIERRO, 3, 2) == sympy.Rational(16611, 20736)
    for a in range(1, 7):
        for d in range(1, 7):
            expected = sum(math.comb(d - 1 + k, k) * p**d * q**k for k in range(a))
            assert attacker_win_probability(HIERRO, a, d) == sympy.Rational(
                expected.numerator, expected.denominator
            )
            assert negative_binomial_win(p, a, d) == expected


def test_hierro_survivors_and_rounds_by_hand():
    # 2 v 1: the attacker wins at once with 2 left (7/12), or after losing one (5/12 * 7/12),
    # or loses everything (5/12 * 5/12).
    result = solve(HIERRO, 2, 1)
    assert result.survivors.pmf() == {(2, 0): F(7, 12), (1, 0): F(35, 144), (0, 1): F(25, 144)}
    assert survivors(HIERRO, 2, 1) == result.survivors
    assert result.attacker_survivors[2] == F(7, 12)
    assert result.defender_survivors[1] == F(25, 144)
    # One round with 7/12, two otherwise: 1 + 5/12 = 17/12.
    assert expected_rounds(HIERRO, 2, 1) == sympy.Rational(17, 12)
    assert result.defender_wins == sympy.Rational(25, 144)
    assert "attacker wins 119/144" in repr(result)
    assert "<table>" in result._repr_html_()


def test_risk_single_rolls_by_hand():
    # One die each, ties to the defender: P(X > Y) = 15/36 = 5/12.
    assert round_outcomes(RISK, 1, 1)[(0, 1)] == F(5, 12)
    # Two attacking dice against one: P(max > Y) = 1 - (1/6) sum_y (y/6)^2 = 1 - 91/216 = 125/216.
    assert round_outcomes(RISK, 2, 1)[(0, 1)] == F(125, 216)
    # Three against one: 1 - (1/6) sum_y (y/6)^3 = 1 - 441/1296 = 855/1296.
    assert round_outcomes(RISK, 3, 1)[(0, 1)] == F(855, 1296)
    # One against two: P(X > max(Y1, Y2)) = (1/6) sum_x ((x-1)/6)^2 = 55/216.
    assert round_outcomes(RISK, 1, 2)[(0, 1)] == F(55, 216)


def test_risk_classic_pairwise_rounds():
    # The published values (Tan 1997; Osborne 2003) for 3 dice against 2 and 2 against 2,
    # out of 6^5 = 7776 and 6^4 = 1296 equally likely rolls.
    three_two = round_outcomes(RISK, 3, 2)
    assert three_two[(0, 2)] == F(2890, 7776)
    assert three_two[(1, 1)] == F(2611, 7776)
    assert three_two[(2, 0)] == F(2275, 7776)
    two_two = round_outcomes(RISK, 2, 2)
    assert two_two[(0, 2)] == F(295, 1296)
    assert two_two[(1, 1)] == F(420, 1296)
    assert two_two[(2, 0)] == F(581, 1296)


def test_risk_battles_by_hand():
    assert attacker_win_probability(RISK, 1, 1) == sympy.Rational(5, 12)
    # 2 v 1: win the first round (125/216), or lose one (91/216) and win the 1 v 1 (5/12):
    # 1500/2592 + 455/2592 = 1955/2592.
    assert attacker_win_probability(RISK, 2, 1) == sympy.Rational(1955, 2592)
    # 1 v 2: the single attacker must win two rounds, each 1 die against 2 then 1 against 1:
    # 55/216 * 5/12 = 275/2592.
    assert attacker_win_probability(RISK, 1, 2) == sympy.Rational(275, 2592)


def test_ties_to_nobody_reroll_the_round():
    # One d6 each, a tie costs nobody anything. P(win a decided round) = 15/30 = 1/2, and a
    # round is decided with probability 5/6, so a 1 v 1 lasts 6/5 rounds on average.
    rules = AttritionRules(attacker_dice=D6, defender_dice=D6, ties="none")
    assert attacker_win_probability(rules, 1, 1) == sympy.Rational(1, 2)
    assert expected_rounds(rules, 1, 1) == sympy.Rational(6, 5)
    never = AttritionRules(attacker_dice=Die([3]), defender_dice=Die([3]), ties="none")
    with pytest.raises(ValueError, match="never end"):
        solve(never, 1, 1)


def test_highest_pairing_compares_only_the_best_dice():
    # Two d6 against one d6, only the best compared, one unit lost: 125/216 as in Risk,
    # but with a tie to the defender and at most one loss per round.
    rules = AttritionRules(
        attacker_dice={1: [D6], 2: [D6, D6]},
        defender_dice=D6,
        ties="defender",
        pairing="highest",
    )
    assert round_outcomes(rules, 2, 1).pmf() == {(0, 1): F(125, 216), (1, 0): F(91, 216)}


def test_any_faces():
    # A weak die (1, 1, 2, 3, 4, 5) against a d6, ties to the attacker:
    # P(X >= Y) = sum_x P(X = x) * x / 6 = (1 + 1 + 2 + 3 + 4 + 5) / 36 = 16/36 = 4/9.
    weak = Die([1, 1, 2, 3, 4, 5])
    rules = AttritionRules(attacker_dice=weak, defender_dice=D6, ties="attacker")
    assert attacker_win_probability(rules, 1, 1) == sympy.Rational(4, 9)
    # 2 v 1 = p + q p = 4/9 + 5/9 * 4/9 = 56/81.
    assert attacker_win_probability(rules, 2, 1) == sympy.Rational(56, 81)


@settings(max_examples=40, deadline=None)
@given(
    faces=st.lists(st.integers(1, 6), min_size=1, max_size=6),
    other=st.lists(st.integers(1, 6), min_size=1, max_size=6),
    a=st.integers(1, 5),
    d=st.integers(1, 5),
)
def test_one_die_each_is_negative_binomial_for_any_faces(faces, other, a, d):
    x, y = Die(faces), Die(other)
    p = sum((px * y.p_le(v) for v, px in x.items()), F(0))  # P(X >= Y)
    rules = AttritionRules(attacker_dice=x, defender_dice=y, ties="attacker")
    expected = negative_binomial_win(p, a, d)
    assert attacker_win_probability(rules, a, d) == sympy.Rational(
        expected.numerator, expected.denominator
    )
    assert sum(survivors(rules, a, d).pmf().values()) == 1


def test_table_rows_and_columns():
    table = win_table(HIERRO, 3, 2)
    assert table.shape == (3, 2)
    assert table[1, 0] == sympy.Rational(119, 144)  # 2 attackers, 1 defender
    assert table[0, 1] == sympy.Rational(49, 144)  # 1 attacker, 2 defenders


def test_monte_carlo_agrees():
    for rules, a, d in ((RISK, 3, 2), (HIERRO, 3, 3)):
        exact = float(attacker_win_probability(rules, a, d))
        n = 4000
        est = float(simulate(rules, a, d, n=n, rng=7))
        se = math.sqrt(exact * (1 - exact) / n)
        assert abs(est - exact) < 4 * se


def test_rules_are_validated():
    with pytest.raises(ValueError, match="size 1"):
        AttritionRules(attacker_dice={2: [D6]}, defender_dice=D6)
    with pytest.raises(ValueError, match="ties"):
        AttritionRules(attacker_dice=D6, defender_dice=D6, ties="nobody")
    with pytest.raises(ValueError, match="Die objects"):
        AttritionRules(attacker_dice={1: [6]}, defender_dice=D6)
    with pytest.raises(ValueError, match="numbers"):
        AttritionRules(attacker_dice=Die(["a", "b"]), defender_dice=D6)
    with pytest.raises(ValueError, match="attacker"):
        solve(HIERRO, -1, 2)
    assert dice_by_size(lambda n: [D6] * min(n, 3), 6) == RISK.attacker_dice
    assert RISK.dice("attacker", 7) == (D6, D6, D6)


def test_markov_chain_rows_sum_to_one_and_absorb_the_battle():
    G = markov_chain(RISK, 3, 2)
    assert G.graph["start"] == (3, 2)
    # The classic 3 v 2 round: 2890/7776 the defender loses two, 2611/7776 one each.
    assert G.edges[(3, 2), (3, 0)]["p"] == F(2890, 7776)
    assert G.edges[(3, 2), (2, 1)]["p"] == F(2611, 7776)
    for node, data in G.nodes(data=True):
        out = sum(G.edges[node, v]["p"] for v in G.successors(node))
        assert out == (0 if data["absorbing"] else 1)
    start = G.nodes[(3, 2)]["attacker_wins"]
    assert start == F(
        int(attacker_win_probability(RISK, 3, 2).p), int(attacker_win_probability(RISK, 3, 2).q)
    )
    # Ties to nobody: the round that changes nothing is a self-loop.
    rules = AttritionRules(attacker_dice=D6, defender_dice=D6, ties="none")
    assert markov_chain(rules, 1, 1).edges[(1, 1), (1, 1)]["p"] == F(1, 6)


# -- the integer programme against a brute-force recursion in fractions ----------------------

WEAK = Die([1, 1, 2, 3, 4, 5])
ODD = AttritionRules(
    # Two dice each even at size 1 (so both sides can fall together), a tie costs nobody.
    attacker_dice={1: [WEAK, D6], 3: [D6, D6, Die([2, 3, 4])]},
    defender_dice={1: [Die.d(4), Die.d(4)]},
    ties="none",
    name="odd",
)


def _losses(rules, xs, ys):
    """(attacker losses, defender losses) for one roll of each side's dice, by the rules."""
    xs, ys = sorted(xs, reverse=True), sorted(ys, reverse=True)
    pairs = 1 if rules.pairing == "highest" else min(len(xs), len(ys))
    la = ld = 0
    for x, y in zip(xs[:pairs], ys[:pairs], strict=True):
        if x > y or (x == y and rules.ties == "attacker"):
            ld += 1
        elif x < y or rules.ties == "defender":
            la += 1
    return la, ld


def _brute_round(rules, a, d):
    """One round's capped losses, every roll of every die enumerated, in Fractions."""
    import itertools

    xs_dice, ys_dice = rules.dice("attacker", a), rules.dice("defender", d)
    out = {}
    for roll in itertools.product(*(die.items() for die in (*xs_dice, *ys_dice))):
        p = math.prod((q for _, q in roll), start=F(1))
        la, ld = _losses(
            rules, [v for v, _ in roll[: len(xs_dice)]], [v for v, _ in roll[len(xs_dice) :]]
        )
        key = (max(a - la, 0), max(d - ld, 0))
        out[key] = out.get(key, F(0)) + p
    return out


def _brute(rules, a, d, memo):
    """(end distribution, expected rounds) by the recursion E = 1 + stay E + sum p E'."""
    if a == 0 or d == 0:
        return {(a, d): F(1)}, F(0)
    if (a, d) not in memo:
        moves = _brute_round(rules, a, d)
        go = 1 - moves.pop((a, d), F(0))
        ends, rounds = {}, F(1)
        for nxt, p in moves.items():
            sub, r = _brute(rules, *nxt, memo)
            rounds += p * r
            for end, q in sub.items():
                ends[end] = ends.get(end, F(0)) + p / go * q
        memo[(a, d)] = (ends, rounds / go)
    return memo[(a, d)]


@pytest.mark.parametrize("rules", [RISK, ODD], ids=["risk", "odd"])
def test_the_programme_equals_a_brute_force_recursion(rules):
    memo = {}
    with exact_fractions():
        table = win_table(rules, 5, 5)
        for a in range(1, 6):
            for d in range(1, 6):
                ends, rounds = _brute(rules, a, d, memo)
                wins = sum((p for (x, y), p in ends.items() if y == 0 and x > 0), F(0))
                assert table[a - 1][d - 1] == wins
                assert attacker_win_probability(rules, a, d) == wins
                result = solve(rules, a, d)
                assert result.survivors.pmf() == ends
                assert result.expected_rounds == rounds
    if rules is ODD:
        assert solve(ODD, 1, 1).survivors[(0, 0)] > 0  # both sides can fall together


def test_risk_ten_against_ten():
    p = attacker_win_probability(RISK, 10, 10)
    assert abs(float(p) - 0.5675928721351) < 1e-12
    assert win_table(RISK, 10, 10)[9, 9] == p == solve(RISK, 10, 10).attacker_wins


@pytest.mark.parametrize("rules", [RISK, HIERRO, ODD], ids=["risk", "hierro", "odd"])
def test_the_approximate_table_is_within_1e12_of_the_exact_one(rules):
    size = 30 if rules is not ODD else 12
    with exact_fractions():
        exact = win_table(rules, size, size)
    approx = win_table(rules, size, size, exact=False)
    assert approx.shape == (size, size)
    cells = [(i, j) for i in range(size) for j in range(size)]
    assert max(abs(float(exact[i][j]) - approx[i, j]) for i, j in cells) < 1e-12
    # Far beyond exact sizes it is still a table of probabilities, rising with the attackers.
    big = win_table(RISK, 300, 40, exact=False)
    assert big.shape == (300, 40) and big.min() > 0 and big.max() <= 1
    assert (big[1:] >= big[:-1]).all()


def test_tables_grow_and_shrink_from_what_is_solved():
    small = win_table(ODD, 3, 2)
    assert win_table(ODD, 7, 9)[:3, :2] == small
    assert win_table(ODD, 2, 3)[1, 0] == small[1, 0]


@pytest.mark.parametrize("n", [0, -5, 2.5, True, MAX_SIMULATIONS + 1, "100"])
def test_simulate_checks_the_number_of_battles(n):
    with pytest.raises(ValueError, match="from 1 to 10,000,000"):
        simulate(RISK, 3, 2, n=n)


def test_simulate_rolls_each_die_as_die_sample_does():
    # The battles a seed gives are those of rolling every die with Die.sample, in order.
    import random

    def by_hand(rules, a0, d0, n, rng):
        wins = 0
        for _ in range(n):
            a, d = a0, d0
            while a and d:
                xs = [die.sample(rng) for die in rules.dice("attacker", a)]
                la, ld = _losses(rules, xs, [die.sample(rng) for die in rules.dice("defender", d)])
                a, d = max(a - la, 0), max(d - ld, 0)
            wins += a > 0 and d == 0
        return F(wins, n)

    for rules, a, d in ((RISK, 5, 4), (ODD, 4, 3), (HIERRO, 3, 3)):
        assert simulate(rules, a, d, n=300, rng=11) == by_hand(rules, a, d, 300, random.Random(11))
    assert simulate(RISK, 2, 2, n=1) in (0, 1)


def test_a_heatmap_draws_the_approximate_table():
    import matplotlib

    matplotlib.use("Agg")
    from coronas.plotting.odds import draw_battle_heatmap

    ax = draw_battle_heatmap(win_table(RISK, 40, 30, exact=False), annotate=False, title="Risk")
    assert ax.get_images()[0].get_array().shape == (40, 30)
