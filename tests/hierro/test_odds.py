"""Corona de Hierro odds: hand-worked values, the rulebook's examples, the engine's own game
tree (coronas.engine.exact_distribution and an independent minimax over it), any dice faces,
and seeded Monte Carlo runs."""

import itertools
import math
import random
from fractions import Fraction as F

import networkx as nx
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from coronas.attrition import attacker_win_probability
from coronas.dice import Die
from coronas.engine import IllegalAction, exact_distribution
from coronas.hierro import Game
from coronas.hierro import odds as ho
from coronas.hierro.actions import (
    AcceptRoll,
    AttackArmy,
    AttackCastle,
    Move,
    PlayCavalryCharge,
    PlayGoodFortune,
    RequestSupport,
    Reroll,
    Roll,
)
from coronas.hierro.rules import Rules

CITY = "Belluno"  # a city without a castle, for battles
CASTLE = "Luni"  # a neutral castle: 4 to take by arms, 3 for an emissary (default board)
ODD = Rules(red=(1, 1, 2, 3, 4, 5), yellow=(1, 2, 3, 4, 5, 6), green=(2, 3, 4, 5, 6, 6))
"""Non-standard faces: a weak red die and a strong green one."""


def R(n, d=1):
    return sympy.Rational(n, d)


# ---------------------------------------------------------------------------------------------
# Hand-worked values
# ---------------------------------------------------------------------------------------------


def test_castle_assault_by_hand():
    # Green die (3+ pawns), needs 4, two shields: fails only if all three rolls fail,
    # (1/2)^3, so 1 - 1/8 = 7/8. Shields spent: 1 if the first fails, 2 if the first two do:
    # 1/2 + 1/4 = 3/4.
    odds = ho.castle_assault(4, army=3, shields=2)
    assert odds.probability == R(7, 8)
    assert odds.expected_shields == R(3, 4)
    assert odds.colour == "green"
    assert odds.single_roll == R(1, 2)
    # Red die (1 pawn), needs 5, no shield: 2/6.
    assert ho.castle_assault(5).probability == R(1, 3)
    assert ho.castle_assault(5).colour == "red"
    # A target no face reaches: nothing to win, and no shield is wasted on it.
    hopeless = ho.castle_assault(7, shields=2)
    assert hopeless.probability == 0 and hopeless.expected_shields == 0
    assert hopeless.actions.mean is None


def test_castle_with_troops_inside_is_negative_binomial():
    # Two successes at p = 1/2 and no shields: P(N = n) = (n - 1) p^2 q^(n - 2).
    odds = ho.castle_assault(4, army=2, troops_inside=True)
    for n in range(2, 9):
        assert odds.actions.pmf(n) == (n - 1) * F(1, 2) ** n
    assert odds.actions.pmf(1) == 0
    assert odds.actions.mean == 4  # 2 / p
    # Two actions a turn: one turn if the first two succeed (1/4); two turns if the second
    # success comes on action 3 or 4: 2/8 + 3/16 = 7/16.
    assert odds.turns.pmf(1) == F(1, 4)
    assert odds.turns.pmf(2) == F(7, 16)
    assert odds.successes_needed == 2


def test_castle_with_troops_inside_and_shields_by_hand():
    # Yellow die, needs 4 (p = 1/2), 2 shields spent while failing. The rolls are a sequence
    # of fair coin flips; F failures come before the 2nd success, P(F = f) = (f+1) / 2^(f+2).
    # Every failure while shields last is a free reroll, so actions N = 2 + max(0, F - 2):
    # P(N = 2) = P(F <= 2) = 1/4 + 2/8 + 3/16 = 11/16; P(N = 3) = P(F = 3) = 4/32 = 1/8.
    odds = ho.castle_assault(4, army=2, shields=2, troops_inside=True)
    assert odds.actions.pmf(2) == F(11, 16)
    assert odds.actions.pmf(3) == F(1, 8)
    # E[N] = 2 + E[F] - E[min(F, 2)] with E[F] = 2 q / p = 2 and
    # E[min(F, 2)] = 1 * 1/4 + 2 * (1 - 1/4 - 1/4) = 5/4, so 2 + 2 - 5/4 = 11/4.
    assert odds.actions.mean == R(11, 4)
    assert odds.expected_shields_until_taken == R(5, 4)
    assert odds.actions.cdf(3) == F(13, 16)
    assert odds.actions.sf(3) == F(3, 16)


def test_turns_when_one_action_is_left():
    # One success at p = 1/2, one action left this turn, then two a turn:
    # P(T = 1) = 1/2; P(T = 2) = 1/2 * (1 - 1/4) = 3/8; E[T] = 1 + 1/2 * 1/(3/4) = 5/3.
    odds = ho.castle_assault(4, actions_left=1)
    assert odds.turns.pmf(1) == F(1, 2)
    assert odds.turns.pmf(2) == F(3, 8)
    assert odds.turns.mean == R(5, 3)
    with pytest.raises(ValueError, match="actions_left"):
        ho.castle_assault(4, actions_left=3)


def test_good_fortune_rolls_the_green_die_for_that_action_only():
    rules = Rules(red=(1, 1, 1, 1, 1, 4), green=(4, 4, 4, 4, 5, 6))
    # Needs 4: the green die always makes it; the red die only on its single 4.
    lucky = ho.castle_assault(4, rules=rules, good_fortune=True)
    assert lucky.probability == 1 and lucky.colour == "green"
    assert ho.castle_assault(4, rules=rules).probability == R(1, 6)
    # Troops inside: the card clears them for sure, then the red die needs a 4: 1 + 6 = 7
    # actions on average (1 + 1/p).
    assert (
        ho.castle_assault(4, rules=rules, good_fortune=True, troops_inside=True).actions.mean == 7
    )


def test_a_castle_out_of_reach_is_never_taken():
    # Good fortune's green die clears the troops, but the red die can never make the 4 after.
    rules = Rules(red=(1, 1, 1, 1, 1, 1), green=(4, 4, 4, 4, 5, 6))
    odds = ho.castle_assault(4, rules=rules, good_fortune=True, troops_inside=True)
    assert odds.actions.eventually == 0 and odds.actions.never == 1
    assert odds.actions.mean is None and odds.turns.mean is None
    assert "P(ever) = 0" in repr(odds)
    assert odds.actions.pmf(5) == 0


def test_diplomacy_by_hand():
    # Legitimacy 2 is in the red band; 5 is yellow; 12 is green (RULINGS H2).
    assert ho.diplomacy(2).probability == R(5, 6)
    assert ho.diplomacy(2, legitimacy=6).colour == "yellow"
    assert ho.diplomacy(2, legitimacy=12).colour == "green"
    # Needs 5 with one shield: 1 - (4/6)^2 = 5/9.
    assert ho.diplomacy(5, shields=1).probability == R(5, 9)
    rules = Rules(yellow=(1, 1, 1, 6, 6, 6))
    assert ho.diplomacy(5, legitimacy=7, rules=rules).probability == R(1, 2)
    assert "diplomatic roll" in repr(ho.diplomacy(4))


def test_rulebook_diplomacy_example():
    # Page 11: green and red each have an emissary in a castle that needs 2 or more. Green
    # rolls first and gets a 1 (1/6), then red rolls a 3 and wins the castle. With one roll a
    # turn each and p = 5/6: P(first wins) = p / (1 - q^2) = (5/6) / (35/36) = 6/7; the
    # example's course, q p = 5/36, is part of red's 1/7 = q p / (1 - q^2).
    race = ho.emissary_race(2, attempts_per_turn=1)
    assert race.wins == (R(6, 7), R(1, 7))
    assert race.never == 0
    assert F(5, 36) / (1 - F(1, 36)) == F(1, 7)
    # Expected turns: 1 + q + q^2 (1 + q) / (1 - q^2) = 1 + 1/6 + (1/36)(7/6)/(35/36) = 6/5.
    assert race.expected_turns == R(6, 5)


def test_emissary_race_with_shields_by_hand():
    # Needs 4 (p = 1/2 on every die), one roll a turn. The first player has one shield, so
    # its first turn fails with (1/2)^2; then plain alternation:
    # P(first) = 3/4 + 1/4 * 1/2 * (1/2) / (1 - 1/4) = 3/4 + 1/12 = 5/6.
    race = ho.emissary_race(4, shields=(1, 0), attempts_per_turn=1)
    assert race.first_wins == R(5, 6)
    assert race.second_wins == R(1, 6)
    # Nobody can make a 7.
    stuck = ho.emissary_race(7)
    assert stuck.never == 1 and stuck.expected_turns is None


def test_battles_by_hand():
    assert ho.battle(1, 1).attacker_wins == R(7, 12)
    assert ho.battle(2, 1).attacker_wins == R(119, 144)
    # One attacking shield, 1 v 1: with x the attacker wins with x/6; rerolling is worth
    # 7/12 = 3.5/6, so reroll 1-3: (4 + 5 + 6)/36 + (3/6)(7/12) = 15/36 + 7/24 = 17/24.
    one = ho.battle(1, 1, attacker_shields=1)
    assert one.attacker_wins == R(17, 24)
    assert one.policy.attacker_rerolls(1, 1, 1, 0) == (1, 2, 3)
    # One defending shield: the defender rerolls any losing die, so the attacker needs two
    # dice <= x: (1/6) sum_x (x/6)^2 = 91/216.
    assert ho.battle(1, 1, defender_shields=1).attacker_wins == R(91, 216)
    # One shield each: keeping x is worth (x/6)^2 (1 for a 6), rerolling 91/216, so the
    # attacker rerolls 1-3: (16/36 + 25/36 + 1)/6 + (1/2)(91/216) = 77/216 + 91/432 = 245/432.
    both = ho.battle(1, 1, 1, 1)
    assert both.attacker_wins == R(245, 432)
    assert both.policy.attacker_rerolls(1, 1, 1, 1) == (1, 2, 3)
    assert both.policy.defender_rerolls(1, 1, 0, 1, 4) == (1, 2, 3, 4)
    # Against a 6 nothing helps: the defender keeps its shield.
    assert both.policy.defender_rerolls(1, 1, 0, 1, 6) == ()
    # Shields spent: the attacker spends its shield on 1-3 (1/2).
    assert both.attacker_shields_spent[1] == F(1, 2)


def test_battle_distributions_by_hand():
    result = ho.battle(2, 1)
    assert result.survivors.pmf() == {(2, 0): F(7, 12), (1, 0): F(35, 144), (0, 1): F(25, 144)}
    assert result.expected_rounds == R(17, 12)
    assert result.shields_spent.pmf() == {(0, 0): F(1)}
    assert result.defender_wins == R(25, 144)
    assert result.attacker_survivors[1] == F(35, 144)


def test_battle_without_shields_is_the_attrition_solver():
    for rules in (Rules(), ODD):
        for a in range(1, 6):
            for d in range(1, 6):
                expected = attacker_win_probability(ho.attrition_rules(rules), a, d)
                assert ho.battle(a, d, rules=rules).attacker_wins == expected


def test_rulebook_battle_example():
    # Page 8: red attacks green in Trento, both large. Red wins three rolls running while the
    # green army shrinks to medium, then small: the defender rolls green, yellow, red.
    # With d6 each step is won with 7/12, so the example's course has (7/12)^3.
    G = ho.battle_chain(3, 3)
    path = [(3, 3), (3, 2), (3, 1), (3, 0)]
    steps = [G.edges[u, v]["p"] for u, v in itertools.pairwise(path)]
    assert steps == [F(7, 12)] * 3
    assert G.nodes[(3, 0)]["winner"] == "attacker" and G.nodes[(3, 0)]["absorbing"]
    # With dice of different faces, each step uses the right pair of dice.
    G = ho.battle_chain(3, 3, rules=ODD)
    green, yellow, red = (ODD.die(c) for c in ("green", "yellow", "red"))

    def p_ge(x, y):
        return sum((px * y.p_le(v) for v, px in x.items()), F(0))

    assert G.edges[(3, 3), (3, 2)]["p"] == p_ge(green, green)
    assert G.edges[(3, 2), (3, 1)]["p"] == p_ge(green, yellow)
    assert G.edges[(3, 1), (3, 0)]["p"] == p_ge(green, red)
    # And the engine plays the example move by move.
    state = Game(players=3).position(armies={"Trento": {0: 3, 1: 3}}, shields=[0, 0, 0])
    state.apply(AttackArmy("Trento", 1))
    for a, d, colour in ((3, 3, "green"), (2, 1, "yellow"), (1, 1, "red")):
        state.apply(Roll(a))
        assert state.roll_die() == Rules().die(colour)
        state.apply(Roll(d))
    assert state.army("Trento", 0) == 3 and state.army("Trento", 1) == 0


def test_cavalry_charge_rolls_yellow_throughout():
    # A yellow die that always shows 1 wins only the defender's 1s: 1/6 a roll.
    rules = Rules(yellow=(1, 1, 1, 1, 1, 1))
    charge = ho.battle(1, 1, rules=rules, cavalry_charge=True)
    assert charge.attacker_wins == R(1, 6)
    assert ho.battle(1, 1, rules=rules).attacker_wins == R(7, 12)  # the red d6
    # 3 v 1 with the card: three chances of 1/6: 1 - (5/6)^3 = 91/216.
    assert ho.battle(3, 1, rules=rules, cavalry_charge=True).attacker_wins == R(91, 216)
    # The card's victory point comes with a win.
    assert ho.battle(2, 1, cavalry_charge=True).expected_vp == R(119, 144)
    assert ho.battle(2, 1).expected_vp == 0


def test_good_fortune_is_not_a_battle_card():
    with pytest.raises(ValueError, match="castle or diplomatic roll"):
        ho.battle(2, 2, good_fortune=True)


def test_policy_table_reads_well():
    result = ho.battle(1, 1, 1, 1)
    rows = result.policy.rows()
    assert (
        "1 v 1",
        1,
        1,
        "reroll 1-3",
        "after 1-5: reroll a losing die; after 6: never reroll",
    ) in rows
    text = repr(result.policy)
    assert "reroll 1-3" in text and "attacker shields" in text
    assert "<table>" in result.policy._repr_html_()
    assert "never reroll" in str(ho.battle(2, 2, 0, 1).policy)
    assert "nothing to decide" in ho.battle(2, 2).policy._repr_html_()
    assert "attacker wins" in result._repr_html_()


def test_battle_table_is_a_matrix_of_the_battles():
    table = ho.battle_table(3, 2, 1, 1)
    assert table.shape == (3, 2)
    assert table[0, 0] == R(245, 432)
    for a in range(1, 4):
        for d in range(1, 3):
            assert table[a - 1, d - 1] == ho.battle(a, d, 1, 1).attacker_wins
    assert ho.battle_table(1, 1)[0, 0] == R(7, 12)


def test_battle_chain_is_an_absorbing_markov_chain():
    G = ho.battle_chain(3, 2, 1, 1)
    assert isinstance(G, nx.DiGraph)
    start = G.graph["start"]
    assert start == (3, 2, 1, 1)
    for node, data in G.nodes(data=True):
        out = sum(G.edges[node, v]["p"] for v in G.successors(node))
        assert out == (0 if data["absorbing"] else 1)
    # The absorbing states carry the battle's final distribution.
    result = ho.battle(3, 2, 1, 1)
    wins = sum(d["reach"] for _, d in G.nodes(data=True) if d["winner"] == "attacker")
    assert wins == F(int(result.attacker_wins.p), int(result.attacker_wins.q))
    assert G.nodes[start]["attacker_wins"] == wins


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="attacker"):
        ho.battle(0, 2)
    with pytest.raises(ValueError, match="shields"):
        ho.castle_assault(4, shields=-1)
    with pytest.raises(ValueError, match="army"):
        ho.castle_assault(4, army=0)
    with pytest.raises(ValueError, match="rules"):
        ho.battle(1, 1, rules={"red": [1]})
    with pytest.raises(ValueError, match="faces"):
        ho.battle(1, 1, 0, 0).policy.attacker_should_reroll(1, 1, 0, 0, 7)


# ---------------------------------------------------------------------------------------------
# The engine's own game tree
# ---------------------------------------------------------------------------------------------


def battle_state(a, d, sa, sd, rules=None, cavalry=False):
    game = Game(players=3, rules=rules or Rules())
    hands = [["cavalry_charge"], [], []] if cavalry else None
    state = game.position(armies={CITY: {0: a, 1: d}}, shields=[sa, sd, 0], hands=hands)
    state.apply(PlayCavalryCharge(CITY, 1) if cavalry else AttackArmy(CITY, 1))
    return state


def battle_key(s):
    f = s.fight
    return (s.step, f["stage"], s.army(CITY, 0), s.army(CITY, 1), *s.shields[:2], f["a"], f["d"])


def fight_over(s):
    return s.fight is None


def engine_battle_value(state):
    """P(attacker wins) with the attacker (player 0) maximising and the defender minimising
    at every reroll decision, by a plain minimax over the engine's tree."""
    memo = {}

    def value(s):
        if s.fight is None:
            return F(1) if s.army(CITY, 1) == 0 else F(0)
        k = battle_key(s)
        if k in memo:
            return memo[k]
        if s.is_chance_node():
            branches = s.chance_outcomes()
        else:
            branches = [(a, None) for a in s.legal_actions()]
        vals = []
        for action, p in branches:
            s.apply(action)
            try:
                vals.append((value(s), p))
            finally:
                s.undo()
        if s.is_chance_node():
            v = sum((val * p for val, p in vals), F(0))
        elif s.current_player == 0:
            v = max(val for val, _ in vals)
        else:
            v = min(val for val, _ in vals)
        memo[k] = v
        return v

    return value(state.clone())


def follow(policy):
    """An engine policy that spends shields as the solver's policy says."""
    return lambda s: ho.battle_choice(s, policy)


def test_battle_choice_is_the_solver_advice_at_a_reroll():
    # 1 v 1, the attacker holds a shield and rolls a 3: P(win) if it keeps the 3 is
    # P(defender's d6 <= 3) = 1/2; a reroll wins 7/12 (P(X >= Y) for two d6). Reroll.
    state = battle_state(1, 1, 1, 0)
    state.apply(Roll(3))
    assert state.step == "reroll"
    assert ho.battle_choice(state) == Reroll()
    # With a 4 kept it wins 4/6 = 2/3 > 7/12: keep.
    state.undo()
    state.apply(Roll(4))
    assert ho.battle_choice(state) == AcceptRoll()
    with pytest.raises(IllegalAction, match="not a battle's reroll decision"):
        ho.battle_choice(battle_state(1, 1, 1, 0))


@pytest.mark.parametrize(
    "a, d, sa, sd, rules, cavalry",
    [
        (1, 1, 1, 1, None, False),
        (2, 2, 2, 1, None, False),
        (3, 2, 1, 2, None, False),
        (2, 3, 2, 2, ODD, False),
        (3, 3, 1, 1, ODD, False),
        (2, 2, 1, 1, ODD, True),
    ],
)
def test_battle_equals_the_engine(a, d, sa, sd, rules, cavalry):
    rules = rules or Rules()
    result = ho.battle(a, d, sa, sd, rules=rules, cavalry_charge=cavalry)
    state = battle_state(a, d, sa, sd, rules, cavalry)
    # The optimum over the engine's own choices is the solver's value...
    exact = F(int(result.attacker_wins.p), int(result.attacker_wins.q))
    assert engine_battle_value(state) == exact
    # ...and playing the solver's policy in the engine gives the solver's whole distribution.

    def outcome(s):
        a_left, d_left = s.army(CITY, 0), s.army(CITY, 1)
        # The loser of the battle takes a shield from the supply afterwards (not spent).
        spent_a = sa - s.shields[0] + (a_left == 0)
        spent_d = sd - s.shields[1] + (d_left == 0)
        return (a_left, d_left, spent_a, spent_d)

    dist = exact_distribution(
        state, follow(result.policy), outcome, stop=fight_over, key=battle_key
    )
    assert dist == result.outcomes
    if cavalry:
        wins = exact_distribution(
            state, follow(result.policy), lambda s: s.vp[0], stop=fight_over, key=battle_key
        )
        assert wins.mean() == F(int(result.expected_vp.p), int(result.expected_vp.q))


def always_reroll(s):
    return Reroll() if Reroll() in s.legal_actions() else AcceptRoll()


def roll_key(s):
    f = s.fight
    return (s.step, s.shields[0], f["a"]) if f else None


@pytest.mark.parametrize(
    "army, shields, rules, good_fortune",
    [(1, 0, None, False), (2, 2, None, False), (3, 1, ODD, False), (1, 2, ODD, True)],
)
def test_castle_assault_equals_the_engine(army, shields, rules, good_fortune):
    rules = rules or Rules()
    target = 4  # Luni's left banner on the default board
    game = Game(players=3, rules=rules)
    assert game.info.army_target[CASTLE] == target
    hands = [["good_fortune"], [], []] if good_fortune else None
    state = game.position(armies={CASTLE: {0: army}}, shields=[shields, 0, 0], hands=hands)
    state.apply(PlayGoodFortune(CASTLE, "army") if good_fortune else AttackCastle(CASTLE))
    dist = exact_distribution(
        state,
        always_reroll,
        lambda s: (s.owner.get(CASTLE) == 0, shields - s.shields[0]),
        stop=fight_over,
        key=roll_key,
    )
    odds = ho.castle_assault(target, army, shields, rules, good_fortune=good_fortune)
    assert dist.prob(lambda r: r[0]) == F(int(odds.probability.p), int(odds.probability.q))
    assert dist.map(lambda r: r[1]).mean() == F(
        int(odds.expected_shields.p), int(odds.expected_shields.q)
    )


@pytest.mark.parametrize(
    "legitimacy, shields, good_fortune",
    [(2, 1, False), (6, 2, False), (11, 0, False), (2, 1, True)],
)
def test_diplomacy_equals_the_engine(legitimacy, shields, good_fortune):
    rules = ODD
    game = Game(players=3, rules=rules)
    target = game.info.emissary_target[CASTLE]
    hands = [["good_fortune"], [], []] if good_fortune else None
    state = game.position(
        emissaries={CASTLE: [0]},
        legitimacy=[legitimacy, 2, 2],
        shields=[shields, 0, 0],
        hands=hands,
    )
    state.apply(PlayGoodFortune(CASTLE, "emissary") if good_fortune else RequestSupport(CASTLE))
    dist = exact_distribution(
        state,
        always_reroll,
        lambda s: (s.owner.get(CASTLE) == 0, shields - s.shields[0]),
        stop=fight_over,
        key=roll_key,
    )
    odds = ho.diplomacy(target, legitimacy, shields, rules, good_fortune=good_fortune)
    assert dist.prob(lambda r: r[0]) == F(int(odds.probability.p), int(odds.probability.q))
    assert dist.map(lambda r: r[1]).mean() == F(
        int(odds.expected_shields.p), int(odds.expected_shields.q)
    )


def _bystander(castle):
    """Players other than 0 move their army along a road, away from ``castle``."""

    def choose(s):
        moves = [a for a in s.legal_actions() if isinstance(a, Move) and a.to != castle]
        return moves[0]

    return choose


def _campaign_counts(s):
    attacks = sum(isinstance(a, (AttackCastle, RequestSupport)) for a in s.history)
    moves = sum(isinstance(a, Move) for a in s.history)
    return attacks, moves


@pytest.mark.parametrize("shields, actions_left", [(0, 2), (2, 2), (1, 1)])
def test_actions_and_turns_to_take_a_castle_with_troops_equal_the_engine(shields, actions_left):
    horizon = 6
    game = Game(players=3)
    state = game.position(
        castles={CASTLE: (1, True)},
        armies={CASTLE: {0: 3}, "Turin": {1: 1}, "Friuli": {2: 1}},
        shields=[shields, 0, 0],
        actions_left=actions_left,
    )

    def attacker(s):
        if s.step == "reroll":
            return always_reroll(s)
        return AttackCastle(CASTLE)

    def result(s):
        attacks, moves = _campaign_counts(s)
        if s.owner.get(CASTLE) != 0:
            return ("not yet", None)
        # Two bystanders with two actions each pass between two turns of player 0.
        return (attacks, 1 + moves // 4)

    def stop(s):
        if s.fight is not None:
            return False
        return s.owner.get(CASTLE) == 0 or _campaign_counts(s)[0] >= horizon

    def key(s):
        f = s.fight
        return (
            s.step,
            s.player,
            s.left,
            s.troops.get(CASTLE),
            s.owner.get(CASTLE),
            s.shields[0],
            f["a"] if f else None,
            *_campaign_counts(s),
        )

    dist = exact_distribution(
        state, {0: attacker, 1: _bystander(CASTLE), 2: _bystander(CASTLE)}, result, stop, key
    )
    odds = ho.castle_assault(
        4, army=3, shields=shields, troops_inside=True, actions_left=actions_left
    )
    for n in range(1, horizon + 1):
        assert dist.prob(lambda r, n=n: r[0] == n) == odds.actions.pmf(n)
    assert dist[("not yet", None)] == odds.actions.sf(horizon)
    # Turns: within the horizon, every turn that is surely complete.
    full_turns = (horizon + (2 - actions_left)) // 2
    for t in range(1, full_turns + 1):
        assert dist.prob(lambda r, t=t: r[1] == t) == odds.turns.pmf(t)


def test_emissary_race_equals_the_engine():
    # Red (legitimacy 2) and green (legitimacy 6, yellow die) both have an emissary in Luni
    # (3+ to win it), with 1 and 0 shields; red rolls first, two actions a turn.
    horizon = 8
    game = Game(players=3, rules=ODD)
    state = game.position(
        emissaries={CASTLE: [0, 1]},
        legitimacy=[2, 6, 2],
        shields=[1, 0, 0],
        armies={"Friuli": {2: 1}},
    )

    def roller(s):
        if s.step == "reroll":
            return always_reroll(s)
        return RequestSupport(CASTLE)

    def stop(s):
        if s.fight is not None:
            return False
        return s.owner.get(CASTLE) is not None or _campaign_counts(s)[0] >= horizon

    def key(s):
        f = s.fight
        return (
            s.step,
            s.player,
            s.left,
            s.owner.get(CASTLE),
            *s.shields[:2],
            f["a"] if f else None,
            _campaign_counts(s)[0],
        )

    dist = exact_distribution(
        state,
        {0: roller, 1: roller, 2: _bystander(CASTLE)},
        lambda s: s.owner.get(CASTLE),
        stop,
        key,
    )
    race = ho.emissary_race(3, legitimacy=(2, 6), shields=(1, 0), rules=ODD)
    first = F(int(race.first_wins.p), int(race.first_wins.q))
    second = F(int(race.second_wins.p), int(race.second_wins.q))
    undecided = dist[None]
    assert 0 < undecided < F(1, 100)
    # Within the horizon the engine's wins can only fall short of the exact race's wins by
    # the still-undecided mass.
    assert dist[0] <= first <= dist[0] + undecided
    assert dist[1] <= second <= dist[1] + undecided


# ---------------------------------------------------------------------------------------------
# Any faces
# ---------------------------------------------------------------------------------------------

faces = st.lists(st.integers(1, 6), min_size=1, max_size=6).map(tuple)


def brute_battle(rules, a, d, sa, sd):
    """The rulebook's order of rolls, as a plain minimax over every die face. Rerolls are
    offered as the engine offers them: to the attacker below its die's highest face, to the
    defender losing to an x its die can beat."""
    memo = {}

    def start(a, d, sa, sd):
        if d == 0:
            return F(1)
        if a == 0:
            return F(0)
        return att_roll(a, d, sa, sd)

    def att_roll(a, d, sa, sd):
        key = ("a", a, d, sa, sd)
        if key not in memo:
            x_die = rules.army_die(a)
            total = F(0)
            for x, p in x_die.items():
                options = [def_roll(a, d, sa, sd, x)]
                if sa and x < max(x_die):
                    options.append(att_roll(a, d, sa - 1, sd))
                total += p * max(options)
            memo[key] = total
        return memo[key]

    def def_roll(a, d, sa, sd, x):
        key = ("d", a, d, sa, sd, x)
        if key not in memo:
            y_die = rules.army_die(d)
            total = F(0)
            for y, p in y_die.items():
                options = [start(a, d - 1, sa, sd) if x >= y else start(a - 1, d, sa, sd)]
                if sd and x >= y and max(y_die) > x:
                    options.append(def_roll(a, d, sa, sd - 1, x))
                total += p * min(options)
            memo[key] = total
        return memo[key]

    return start(a, d, sa, sd)


@settings(max_examples=25, deadline=None)
@given(
    red=faces,
    yellow=faces,
    green=faces,
    a=st.integers(1, 3),
    d=st.integers(1, 3),
    sa=st.integers(0, 2),
    sd=st.integers(0, 2),
)
def test_battle_for_any_faces(red, yellow, green, a, d, sa, sd):
    rules = Rules(red=red, yellow=yellow, green=green)
    result = ho.battle(a, d, sa, sd, rules=rules)
    assert F(int(result.attacker_wins.p), int(result.attacker_wins.q)) == brute_battle(
        rules, a, d, sa, sd
    )
    assert sum(result.outcomes.pmf().values()) == 1


@settings(max_examples=40, deadline=None)
@given(die=faces, target=st.integers(1, 7), shields=st.integers(0, 3), army=st.integers(1, 4))
def test_castle_assault_for_any_faces(die, target, shields, army):
    rules = Rules(red=die, yellow=die, green=die)
    q = F(sum(1 for f in die if f < target), len(die))
    expected = 1 - q ** (shields + 1) if q < 1 else F(0)
    assert ho.castle_assault(target, army, shields, rules).probability == sympy.Rational(
        expected.numerator, expected.denominator
    )


# ---------------------------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------------------------


def test_battle_monte_carlo():
    exact = ho.battle(4, 3, 2, 1)
    n = 3000
    est = ho.simulate_battle(4, 3, 2, 1, n=n, seed=11)
    p = float(exact.attacker_wins)
    assert abs(est.successes / n - p) < 4 * math.sqrt(p * (1 - p) / n)
    lo, hi = est.interval
    assert lo < est.successes / n < hi
    assert "95% interval" in repr(est)


def test_a_monte_carlo_estimate_reads_as_a_sentence():
    est = ho.MonteCarloEstimate(5922, 10000, seed=5)
    # Wilson, z = 1.96: centre (0.5922 + z^2/2n) / (1 + z^2/n) = 0.59216, half-width
    # z sqrt(0.5922 * 0.4078 / n + z^2/4n^2) / (1 + z^2/n) = 0.00963: 58.25% to 60.18%
    text = "5922 of 10000 battles won by the attacker: 59.22% (95% interval 58.25% to 60.18%)"
    assert str(est) == text + ", seed 5"
    assert est._repr_html_() == (
        "<p>5922 of 10000 battles won by the attacker: "
        "<b>59.22% (95% interval 58.25% to 60.18%)</b>, seed 5</p>"
    )
    assert str(ho.MonteCarloEstimate(1, 1, seed=None)).endswith("to 100.00%)")


def test_castle_campaign_monte_carlo():
    # Roll the campaign with real dice: a castle with troops inside, the yellow die, 5+, two
    # shields spent while failing; compare the mean number of actions with the exact one.
    odds = ho.castle_assault(5, army=2, shields=2, troops_inside=True)
    die = Rules().die("yellow")
    rng = random.Random(5)
    n, total, sq = 3000, 0, 0
    for _ in range(n):
        need, left, actions = 2, 2, 0
        while need:
            actions += 1
            while True:
                if die.sample(rng) >= 5:
                    need -= 1
                    break
                if not left:
                    break
                left -= 1
        total += actions
        sq += actions * actions
    mean = total / n
    sd = math.sqrt(sq / n - mean * mean)
    assert abs(mean - float(odds.actions.mean)) < 4 * sd / math.sqrt(n)
    assert isinstance(odds.actions.table(), object) and "more than" in str(odds.actions.table())
    assert "turns" in odds._repr_html_().lower() or "Turns" in odds._repr_html_()


def test_die_faces_are_read_from_the_rules():
    rules = Rules(red=(1, 1, 2, 3, 4, 5))
    # Both single pawns roll this red die. P(X = Y) = (2/6)^2 + 4 (1/6)^2 = 8/36, and by
    # symmetry P(X >= Y) = (1 + P(X = Y)) / 2 = (1 + 8/36) / 2 = 11/18.
    assert ho.battle(1, 1, rules=rules).attacker_wins == R(11, 18)
    assert ho.castle_assault(2, rules=rules).probability == R(2, 3)
    assert ho.castle_assault(2, rules=rules).die == Die([1, 1, 2, 3, 4, 5])


def test_figures_are_written(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from coronas.plotting.odds import write_figures

    paths = write_figures(tmp_path)
    assert [p.name for p in paths] == ["hierro-battle-heatmap.png", "hierro-battle-chain.png"]
    assert all(p.stat().st_size > 10_000 for p in paths)


def test_a_heatmap_never_rounds_a_chance_to_certainty():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coronas.plotting.odds import draw_battle_heatmap

    # rows: attacking pawns 1-2, columns: defending pawns 1-2
    table = sympy.Matrix([[F(9996, 10000), F(1, 2)], [F(1), F(4, 10000)]])
    ax = draw_battle_heatmap(table)
    cells = {(t.get_position()): t.get_text() for t in ax.texts}
    plt.close(ax.figure)
    # 99.96% would round to 100 and 0.04% to 0: they read >99 and <1; 1 is 100
    assert cells == {(0, 0): ">99", (1, 0): "50", (0, 1): "100", (1, 1): "<1"}
    table = ho.battle_table(10, 10)
    ax = draw_battle_heatmap(table)
    texts = [t.get_text() for t in ax.texts]
    plt.close(ax.figure)
    assert all(text != "100" for text in texts)  # no battle here is certain
    assert all(text != "0" for text in texts)
    assert ">99" in texts  # 10 pawns against 1 almost always win
