"""The one edge where exact numbers leave the library: sympy by default, plain Fractions
inside ``coronas.dice.exact_fractions()``. Same values, other type; nothing cached keeps a
converted value, so a result computed in one mode never comes back in the other."""

import threading
from fractions import Fraction as F

import sympy

from coronas import attrition
from coronas.attrition import RISK
from coronas.batalla import odds as bo
from coronas.carolus import odds as co
from coronas.dice import exact_fractions, rational, rational_matrix
from coronas.hierro import odds as ho


def is_sympy(x):
    return isinstance(x, sympy.Rational)


def is_fraction(x):
    return type(x) is F


def test_rational_is_sympy_by_default_and_a_fraction_inside():
    assert is_sympy(rational(F(1, 3))) and rational(F(1, 3)) == sympy.Rational(1, 3)
    with exact_fractions():
        assert rational(F(1, 3)) == F(1, 3) and is_fraction(rational(F(1, 3)))
        assert is_fraction(rational(sympy.Rational(2, 7))) and rational(2) == 2


def test_rational_matrix_is_a_matrix_or_a_list_of_rows():
    rows = [[F(1, 2), F(1, 3)], [1, 0]]
    assert rational_matrix(rows) == sympy.Matrix(
        [[sympy.Rational(1, 2), sympy.Rational(1, 3)], [1, 0]]
    )
    with exact_fractions():
        table = rational_matrix(rows)
    assert table == [[F(1, 2), F(1, 3)], [F(1), F(0)]]
    assert all(is_fraction(c) for row in table for c in row)
    assert sympy.Matrix(table) == rational_matrix(rows)


def test_blocks_nest_and_restore_the_mode_they_found():
    with exact_fractions():
        with exact_fractions():
            assert is_fraction(rational(F(1, 2)))
        assert is_fraction(rational(F(1, 2)))
        with exact_fractions(False):
            assert is_sympy(rational(F(1, 2)))
        assert is_fraction(rational(F(1, 2)))
    assert is_sympy(rational(F(1, 2)))


def test_the_mode_is_restored_after_an_exception():
    try:
        with exact_fractions():
            raise KeyError("boom")
    except KeyError:
        pass
    assert is_sympy(rational(F(1, 2)))


def test_it_works_as_a_decorator():
    @exact_fractions()
    def chance():
        return ho.castle_assault(4, shields=1).probability

    assert is_fraction(chance()) and chance() == F(3, 4)  # 1 - (1/2)**2
    assert is_sympy(ho.castle_assault(4, shields=1).probability)


def test_a_new_thread_starts_in_the_default_mode():
    seen = []
    with exact_fractions():
        thread = threading.Thread(target=lambda: seen.append(rational(F(1, 2))))
        thread.start()
        thread.join()
    assert is_sympy(seen[0])


# Each public answer, worked out by hand: (call, exact value).
ANSWERS = [
    # green die (3 pawns), 4+: 1/2; one reroll while failing: 1 - (1/2)**2
    (lambda: ho.castle_assault(4, army=3, shields=1).probability, F(3, 4)),
    # 2 successes at p = 1/2 (troops inside): 2 / (1/2) actions on average
    (lambda: ho.castle_assault(4, troops_inside=True).actions.mean, F(4)),
    # the shield is spent only after a failed first roll: 1/2
    (lambda: ho.castle_assault(4, shields=1).expected_shields, F(1, 2)),
    # legitimacy 2 is red, 2+: 5/6
    (lambda: ho.diplomacy(2).single_roll, F(5, 6)),
    # p = 5/6, one roll each a turn: p / (1 - q**2) = (5/6) / (35/36) = 6/7
    (lambda: ho.emissary_race(2, attempts_per_turn=1).first_wins, F(6, 7)),
    # P(X >= Y) for two d6: 21/36
    (lambda: ho.battle(1, 1).attacker_wins, F(7, 12)),
    # 7/12 + 5/12 * 7/12 = 119/144
    (lambda: ho.battle(2, 1).attacker_wins, F(119, 144)),
    # Risk 1 v 1: P(X > Y) = 15/36
    (lambda: attrition.attacker_win_probability(RISK, 1, 1), F(5, 12)),
    # Risk 2 v 1: one round, or two after the attacker loses the first (91/216)
    (lambda: attrition.solve(RISK, 2, 1).expected_rounds, F(307, 216)),
    # a win by 2 or more: 4 + 3 + 2 + 1 of 36 rolls
    (lambda: bo.battle(2, 2).gem, F(5, 18)),
    # a die shows 3: 1 - (5/6)**2
    (lambda: bo.p_chair(3), F(11, 36)),
    # at least 1 of 3 draws for a family, 2 faces of 6 each: 1 - (2/3)**3
    (lambda: co.knights_for_family(3, 1), F(19, 27)),
]


def test_every_odds_module_answers_in_either_type_with_equal_values():
    for call, expected in ANSWERS:
        outside = call()
        with exact_fractions():
            inside = call()
        assert is_sympy(outside) and is_fraction(inside), (outside, inside)
        assert inside == outside == expected


def test_tables_are_a_matrix_or_rows_with_equal_values():
    # 2 v 2 without shields: (7/12)**2 (1 + 2 * 5/12) = 539/864
    expected = [[F(7, 12), F(49, 144)], [F(119, 144), F(539, 864)]]
    for table in (ho.battle_table, lambda a, d: attrition.win_table(attrition.HIERRO, a, d)):
        with exact_fractions():
            rows = table(2, 2)
        assert rows == expected and all(is_fraction(c) for r in rows for c in r)
        assert isinstance(table(2, 2), sympy.Matrix) and table(2, 2).tolist() == expected


def test_caches_never_return_a_value_made_in_the_other_mode():
    ho.clear_cache()
    attrition.clear_cache()
    # Solve inside the block first: the solvers and the lru caches fill up in there.
    with exact_fractions():
        odds = ho.castle_assault(4, troops_inside=True)
        assert is_fraction(odds.actions.mean) and is_fraction(odds.turns.eventually)
        battle = ho.battle(3, 2, attacker_shields=1)
        assert is_fraction(battle.attacker_wins)
        assert is_fraction(attrition.solve(RISK, 3, 2).attacker_wins)
        assert is_fraction(bo.battle(3, 2, attacker_gold=1).gem)
    # The same objects, read outside, and the same questions asked again.
    assert is_sympy(odds.actions.mean) and is_sympy(odds.turns.eventually)
    assert is_sympy(battle.attacker_wins)
    assert is_sympy(ho.battle(3, 2, attacker_shields=1).attacker_wins)
    assert is_sympy(attrition.solve(RISK, 3, 2).attacker_wins)
    assert is_sympy(bo.battle(3, 2, attacker_gold=1).gem)
    # And back inside: still Fractions, equal to the sympy answers.
    with exact_fractions():
        assert odds.actions.mean == 4 and is_fraction(odds.actions.mean)
        assert ho.battle(3, 2, attacker_shields=1).attacker_wins == battle.attacker_wins
        assert is_fraction(ho.battle(3, 2, attacker_shields=1).attacker_wins)
