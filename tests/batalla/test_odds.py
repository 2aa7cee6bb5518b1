"""Exact odds: hand-worked values, the engine's own game tree, and seeded simulations."""

import math
import random
from fractions import Fraction as F

import pytest
import sympy

from coronas.batalla import (
    Accept,
    Attack,
    Buy,
    ChooseDie,
    EndTurn,
    Invoke,
    Rules,
    SpendSwords,
    odds,
)
from coronas.batalla.odds import BattleOutcome, battle, battle_choice
from coronas.dice import Die
from coronas.engine import exact_distribution
from tests.batalla.helpers import battle_minimax, battle_walk, position

# -- battles by hand ------------------------------------------------------------------------


def test_two_swords_against_two_shields_without_gold():
    # The gem needs a win by 2 or more: d=1: a=3..6 (4), d=2: 3, d=3: 2, d=4: 1 -> 10/36.
    b = battle(2, 2)
    assert b.gem == sympy.Rational(5, 18) and b.gem_no_rerolls == sympy.Rational(5, 18)
    assert isinstance(b.gem, sympy.Rational)
    # Nobody has gold: both ways of playing are the same battle.
    assert b.optimal == b.no_rerolls
    # A win by 1 destroys 1 shield: 5 of 36 rolls.
    assert b.no_rerolls.prob(lambda o: o.shields_destroyed == 1) == F(5, 36)


def test_no_reroll_distribution_by_hand():
    b = battle(1, 2)
    assert b.gem == 0  # one sword cannot take two shields
    d = b.no_rerolls
    for m in range(1, 6):
        # a win by m: 6 - m of the 36 rolls; one sword spent, one shield destroyed
        assert d[BattleOutcome("attacker", m, 1, 1, 0, False, 0, 0)] == F(6 - m, 36)
        # a loss by m: the single sword is lost
        assert d[BattleOutcome("defender", m, 0, 0, 1, False, 0, 0)] == F(6 - m, 36)
    assert d[BattleOutcome("tie", 0, 0, 0, 0, False, 0, 0)] == F(6, 36)
    # no shields: any win takes the gem, 15 of 36 rolls
    assert battle(3, 0).gem == sympy.Rational(15, 36)


def test_one_attacker_reroll_by_hand():
    # 1 sword against 1 shield, the attacker has 1 gold: any win is a gem (15/36). When behind
    # (a < d) it pays 1 and rerolls, winning with P(a' > d) = (6 - d)/6; there are d - 1 such
    # first rolls for each d:  sum_d (d-1)(6-d) = 0+4+6+6+4+0 = 20, so 20/216 more.
    b = battle(1, 1, attacker_gold=1)
    assert b.gem == sympy.Rational(15, 36) + sympy.Rational(20, 216)  # = 55/108
    assert b.gem_no_rerolls == sympy.Rational(15, 36)
    # Against a 6 a reroll cannot win: no gold is spent then. Spent when 1 <= a < d <= 5:
    # 1+2+3+4 = 10 of 36 rolls.
    assert b.expected_gold_spent() == (F(10, 36), F(0))


def test_one_defender_reroll_by_hand():
    # The defender has 1 gold and rerolls every lost roll (a > d); the attacker then needs
    # a > d': sum_a (a-1)/36 * (a-1)/6 = (0+1+4+9+16+25)/216 = 55/216.
    b = battle(1, 1, defender_gold=1)
    assert b.gem == sympy.Rational(55, 216)


def test_the_crown_pays_for_rerolls_by_hand():
    """The Crown: "At any time during your turn, you can discard it to get 3 gold"; a reroll:
    "First, you pay, then you can reroll". The Crown's gold pays for the attacker's rerolls
    (rulings B7, B11)."""
    # 1 sword against 1 shield, no gold but the Crown: 3 gold, rerolls for 1 and then 2.
    # Behind against d (d - 1 first rolls of 36), a reroll wins (6-d)/6, ties 1/6 (nothing
    # more: nobody rerolls a tie), is behind again (d-1)/6 and then rerolls once more:
    # P(win) = (6-d)/6 + (d-1)/6 * (6-d)/6 = (6-d)(5+d)/36. Summed with weights d - 1:
    # 1*4*7 + 2*3*8 + 3*2*9 + 4*1*10 = 28 + 48 + 54 + 40 = 170 of 1296, on top of 15/36.
    b = battle(1, 1, attacker_crown=True)
    assert b.gem == sympy.Rational(15 * 36 + 170, 1296)  # = 355/648
    assert b.gem_no_rerolls == sympy.Rational(15, 36)
    assert b.optimal.prob(lambda o: o.crown_spent) == F(10, 36)  # spent when 1 <= a < d <= 5
    assert "Crown" in b.title and "spend the Crown, pay 1 and reroll" in str(b)
    # the other reading: no Crown in battle, and nobody has gold
    no_crown = Rules(crown_in_battle=False)
    assert battle(1, 1, rules=no_crown, attacker_crown=True).gem == sympy.Rational(15, 36)
    # the cap: 2 gems won leave 5. With 4 gold the Crown spent at once adds only 1 (5 gold:
    # rerolls for 1 and 2, as with 3 gold); kept until the gold falls short (1 left after
    # paying 1 and 2), it adds 3 and pays the third reroll: as with 6 gold.
    crowned = battle(1, 1, 4, attacker_crown=True, attacker_gems_won=2).gem
    assert battle(1, 1, 5).gem == battle(1, 1, 3).gem < crowned == battle(1, 1, 6).gem
    with pytest.raises(ValueError, match="attacker_gold must be a whole number from -1 to 5"):
        battle(1, 1, 6, attacker_gems_won=2)


def test_the_cross_takes_the_defenders_reroll_by_hand():
    """The Cross: "at any time during your turn (decision phase, buying phase, and battle
    phase)" moves the clergy; the golden square "moves the enemy's gold token to -1" (B11)."""
    # 1 against 1, the defender has 1 gold (55/216, above): before it rerolls a lost roll,
    # the attacker sends its clergy to the golden square, and every win (15/36) stands.
    assert battle(1, 1, defender_gold=1, attacker_cross=True).gem == sympy.Rational(15, 36)
    b = battle(1, 1, defender_gold=1, attacker_cross=True)
    assert b.optimal.prob(lambda o: o.cross_spent) == F(15, 36)  # only when the defender is behind
    assert battle(1, 1, attacker_cross=True).optimal.prob(lambda o: o.cross_spent) == 0


def _tokens_position(swords, shields, ga, gd, crown, cross, gems_won=0, rules=None):
    return position(
        rules=rules,
        phase="buy",
        swords=[swords, 2],
        shields=[2, shields],
        gold=[ga, gd],
        crown=0 if crown else None,
        cross=0 if cross else None,
        gems_won=[gems_won, 0],
    )


@pytest.mark.parametrize(
    "swords, shields, ga, gd, crown, cross, gems_won",
    [
        (1, 1, 0, 0, True, False, 0),
        (3, 2, 0, 2, True, True, 0),
        (2, 1, 4, 3, True, False, 2),
        (2, 2, 1, 3, False, True, 0),
        (3, 3, -1, 1, True, True, 1),
    ],
)
def test_battle_odds_with_tokens_equal_the_engine_tree(
    swords, shields, ga, gd, crown, cross, gems_won
):
    b = battle(
        swords,
        shields,
        ga,
        gd,
        attacker_crown=crown,
        attacker_cross=cross,
        attacker_gems_won=gems_won,
    )
    state = _tokens_position(swords, shields, ga, gd, crown, cross, gems_won)
    assert battle_walk(state) == b.gem  # the odds module's choices played on the engine
    assert battle_minimax(state) == b.gem  # and no other choice of the engine does better


def test_battle_odds_with_tokens_under_the_other_readings_equal_the_engine_tree():
    for rules in (Rules(battle_token_moment=False), Rules(crown_in_battle=False)):
        b = battle(3, 2, 0, 2, rules, attacker_crown=True, attacker_cross=True)
        state = _tokens_position(3, 2, 0, 2, True, True, rules=rules)
        assert battle_walk(state) == battle_minimax(state) == b.gem


REROLL_CROSS = Rules(cross_effect="reroll")
"""The Example of a Game's reading of the Cross: one free reroll for its holder (B11)."""


def test_the_cross_as_a_free_reroll_by_hand():
    """The Example of a Game: the Cross buys a reroll. Free, for whichever side holds it,
    and not counted in the rising price (ruling B11, ``cross_effect="reroll"``)."""
    # 1 sword against 1 shield, no gold, the attacker holds the Cross: behind against d
    # ((d - 1) of the 36 first rolls) it rerolls once and wins with (6 - d)/6:
    # 15/36 + (1*4 + 2*3 + 3*2 + 4*1) / 216 = 90/216 + 20/216 = 55/108.
    b = battle(1, 1, rules=REROLL_CROSS, attacker_cross=True)
    assert b.gem == sympy.Rational(55, 108)
    assert b.optimal.prob(lambda o: o.attacker_cross_reroll) == F(10, 36)  # 1 <= a < d <= 5
    assert "spend the Cross and reroll" in str(b) and "(gold 0, Cross)" in b.title
    # The defender holds it: behind by a > d it rerolls once and still loses with (a - 1)/6:
    # sum over a of (a - 1)/36 * (a - 1)/6 = (1 + 4 + 9 + 16 + 25) / 216 = 55/216.
    b = battle(1, 1, rules=REROLL_CROSS, defender_cross=True)
    assert b.gem == sympy.Rational(55, 216)
    assert b.optimal.prob(lambda o: o.defender_cross_reroll) == F(15, 36)
    # The Cross and 1 gold are two rerolls, as the Crown's 3 gold are (1, then 2): 355/648;
    # gold is paid first and the Cross kept while it does no better.
    both = battle(1, 1, 1, rules=REROLL_CROSS, attacker_cross=True)
    assert both.gem == battle(1, 1, attacker_crown=True).gem == sympy.Rational(355, 648)
    with pytest.raises(ValueError, match="there is one Cross"):
        battle(1, 1, rules=REROLL_CROSS, attacker_cross=True, defender_cross=True)
    # Under the printed reading the defender's Cross does nothing in a battle (B11).
    assert battle(1, 1, defender_cross=True).gem == sympy.Rational(15, 36)


@pytest.mark.parametrize(
    "swords, shields, ga, gd, holder",
    [(1, 1, 0, 0, 0), (1, 1, 0, 0, 1), (3, 2, 1, 2, 0), (2, 2, 2, 1, 1), (3, 3, 0, 3, 1)],
)
def test_the_cross_as_a_free_reroll_equals_the_engine_tree(swords, shields, ga, gd, holder):
    b = battle(
        swords,
        shields,
        ga,
        gd,
        REROLL_CROSS,
        attacker_cross=holder == 0,
        defender_cross=holder == 1,
    )
    state = position(
        rules=REROLL_CROSS,
        phase="buy",
        swords=[swords, 2],
        shields=[2, shields],
        gold=[ga, gd],
        cross=holder,
    )
    assert battle_walk(state) == b.gem  # the odds module's choices played on the engine
    assert battle_minimax(state) == b.gem  # and no other choice of the engine does better


def test_battle_policy_table_and_display():
    b = battle(2, 1, attacker_gold=1)
    rows = list(b.policy)
    assert rows and all(r[2] == "attacker" for r in rows)
    # behind 1 vs 6, a reroll still wins with 0 chance: keep (no gold spent in vain)
    row = next(r for r in rows if r[0] == "1 vs 6")
    assert row[3] == "keep" and row[4] == row[5] == 0
    row = next(r for r in rows if r[0] == "2 vs 3")
    assert row[3] == "pay 1 and reroll" and row[4] == F(3, 6)
    html = b._repr_html_()
    assert "P(gem)" in html and "<table>" in html
    assert "gem taken" in str(b.table())
    with pytest.raises(ValueError, match="attacker_swords must be a whole number from 1 to 5"):
        battle(0, 2)


# -- battles on the engine ------------------------------------------------------------------


def _engine_battle(swords, shields, ga, gd, rules=None, rerolls=True) -> Die:
    state = position(
        rules=rules, phase="buy", swords=[swords, 2], shields=[2, shields], gold=[ga, gd]
    )
    state.apply(Attack())

    def policy(s):
        if rerolls:
            return battle_choice(s)
        if s.phase == "spend":
            return SpendSwords(max(s._spend_options()))
        return Accept()

    def result(s):
        a, d = s.last_battle
        lost = swords - s.swords[0]
        destroyed = shields - s.shields[1]
        winner = "attacker" if a > d else "defender" if d > a else "tie"
        return BattleOutcome(
            winner,
            abs(a - d),
            destroyed,
            destroyed,
            lost - destroyed,
            s.gems_won[0] == 1,
            ga - s.gold[0],
            gd - s.gold[1],
        )

    def key(s):
        return (s.phase, s.bdice, tuple(s.gold), s.rerolls, s.declined, s.decider)

    return exact_distribution(state, policy, result, stop=lambda s: s.phase == "roll", key=key)


@pytest.mark.parametrize(
    "swords, shields, ga, gd",
    [(2, 2, 0, 0), (1, 1, 1, 0), (3, 2, 3, 1), (2, 1, 2, 3), (5, 0, 1, 1), (4, 3, 6, 6)],
)
def test_battle_odds_equal_the_engine_tree(swords, shields, ga, gd):
    b = battle(swords, shields, ga, gd)
    assert _engine_battle(swords, shields, ga, gd) == b.optimal
    assert _engine_battle(swords, shields, ga, gd, rerolls=False) == b.no_rerolls


def test_battle_odds_with_reroll_on_tie_and_other_costs_equal_the_engine_tree():
    rules = Rules(reroll_on_tie=True, reroll_first_cost=2, reroll_cost_step=0)
    b = battle(2, 2, 4, 2, rules=rules)
    assert _engine_battle(2, 2, 4, 2, rules=rules) == b.optimal
    assert b.gem != battle(2, 2, 4, 2).gem


@pytest.mark.parametrize(
    "gold, rules, cross",
    [([3, 2], None, None), ([1, 2], REROLL_CROSS, 1)],
    ids=["gold", "defender's free reroll Cross"],
)
def test_battle_odds_agree_with_a_seeded_simulation(gold, rules, cross):
    b = battle(3, 2, *gold, rules, defender_cross=cross == 1)
    p = float(b.gem)
    rng = random.Random(20261201)
    n, gems = 3000, 0
    for _ in range(n):
        state = position(
            rules=rules, phase="buy", swords=[3, 2], shields=[2, 2], gold=gold, cross=cross
        )
        state.apply(Attack())
        while state.phase != "roll":
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(battle_choice(state))
        gems += state.gems_won[0]
    se = math.sqrt(p * (1 - p) / n)
    assert abs(gems / n - p) < 4 * se


# -- the decision dice ----------------------------------------------------------------------


def test_decision_dice_by_hand():
    assert odds.p_chair(3) == sympy.Rational(11, 36)  # 36 - 5*5 rolls show a 3
    assert odds.p_chair(3, noble_chair=5) == sympy.Rational(5, 9)  # 36 - 4*4 = 20
    assert odds.p_doubles() == sympy.Rational(1, 6)
    most = odds.gold_income("most")
    assert most[6] == F(11, 36) and most.mean() == F(161, 36)  # E[max of 2d6] = 161/36
    assert odds.gold_income("least")[1] == F(11, 36)
    # keeping chair 3 for the council: gold 3 only on a double 3
    assert odds.gold_income(chair=3)[3] == F(1, 36)
    assert len(odds.decision_table()) == 21
    assert [r[1] for r in odds.chair_table()] == [F(11, 36)] * 6
    assert odds.gold_table()[5][1:] == (F(11, 36), F(1, 36))


def _roll_distribution(result, policy=None):
    state = position()
    return exact_distribution(
        state,
        policy or (lambda s: s.legal_actions()[0]),
        result,
        stop=lambda s: s.phase not in ("roll", "choose"),
    )


def test_decision_tables_equal_the_engine_tree():
    for chair in range(1, 7):
        d = exact_distribution(
            position(),
            lambda s: None,
            lambda s, c=chair: c in s.dice,
            stop=lambda s: s.phase == "choose",
        )
        assert d[True] == odds.p_chair(chair)
    d = exact_distribution(
        position(),
        lambda s: None,
        lambda s: bool({3, 5} & set(s.dice)),
        stop=lambda s: s.phase == "choose",
    )
    assert d[True] == odds.p_chair(3, noble_chair=5)
    d = exact_distribution(
        position(),
        lambda s: None,
        lambda s: s.dice[0] == s.dice[1],
        stop=lambda s: s.phase == "choose",
    )
    assert d[True] == odds.p_doubles()

    def most(s):  # the higher die is gold (the lower seats a counselor)
        return max((a for a in s.legal_actions() if isinstance(a, ChooseDie)), key=lambda a: a.gold)

    gold = _roll_distribution(lambda s: s.gold[0], most)
    assert gold == odds.gold_income("most")


# -- the dragon -----------------------------------------------------------------------------


def test_dragon_by_hand():
    # Level 4, no gold, default council (Sorcerer on 3, Noble on 5, Master of Coin on 6).
    # It attacks this turn if a 3 or a 5 shows (20/36), or else a 6 shows (the other die on a
    # chair, 6 gold buys level 5): dice in {1,2,4,6} with a 6: 16 - 9 = 7 more. 27/36 = 3/4.
    assert odds.dragon_turns(level=4, gold=0)[1] == F(3, 4)
    assert odds.dragon_turns(level=4, gold=6) == Die([1])
    # With the cap at 5 (2 gems won) and no Sorcerer reachable, level 5 (6 gold) never comes.
    council = ("militia_commander", "smith", "noble", "priest", "master_of_coin", "sorcerer")
    d = odds.dragon_turns(level=4, gold=5, council=council, gems_won=2, horizon=3)
    # the Sorcerer on 6 or the Noble on 3: 20/36 a turn
    assert d[1] == F(20, 36) and d[None] == F(16, 36) ** 3
    # No counselor for gold or dragon: level 5 (6 gold) needs a 6 on the gold die, the higher
    # die: 11/36 a turn; with 3 gold saved, a higher die of 3 or more: 1 - (2/6)**2 = 8/9.
    nobody = (None,) * 6
    assert odds.dragon_turns(level=4, gold=0, council=nobody)[1] == F(11, 36)
    assert odds.dragon_turns(level=4, gold=3, council=nobody)[1] == F(8, 9)
    with pytest.raises(ValueError, match="distinct counselor"):
        odds.dragon_turns(council=("noble", "noble", None, None, None, None))


def _dragon_bot(s):
    p = s.player
    if s.phase == "choose":
        lo, hi = s.dice
        _, g = odds.dragon_policy_choice(s.dragon[p], s.gold[p], lo, hi, council=s.chairs[p])
        return ChooseDie(lo if g == hi else hi, g)
    if s.phase == "invoke":
        legal = s.legal_actions()
        for target in ("sorcerer", "master_of_coin"):
            if Invoke(target) in legal:
                return Invoke(target)
    if s.phase == "buy":
        return Buy("dragon") if Buy("dragon") in s.legal_actions() else EndTurn()
    return s.legal_actions()[0]


def _dragon_position(level, gold):
    return position(
        dragon=[level, 0],
        gold=[gold, 0],
        shields=[2, 5],
        chairs=[odds.DEFAULT_COUNCIL, (None,) * 6],
    )


def _engine_turn(level, gold) -> Die:
    return exact_distribution(
        _dragon_position(level, gold),
        _dragon_bot,
        lambda s: (s.shields[1] < 5, s.dragon[0], s.gold[0]),
        stop=lambda s: s.player == 1,
    )


def test_dragon_turn_equals_the_engine_tree():
    for level in range(5):
        for gold in (-1, 0, 2, 5, 7):
            assert _engine_turn(level, gold) == odds.dragon_turn(level, gold), (level, gold)


def test_dragon_turns_agree_with_a_seeded_simulation_on_the_engine():
    exact = odds.dragon_turns()
    assert sum(exact.pmf().values()) == 1 and None not in exact
    rng = random.Random(7)
    n, total = 400, 0
    for _ in range(n):
        level, gold, turns = 0, 0, 0
        while True:
            turns += 1
            state = _dragon_position(level, gold)
            while state.player == 0:
                action = state.sample_chance(rng) if state.is_chance_node() else _dragon_bot(state)
                state.apply(action)
            if state.shields[1] < 5:
                break
            level, gold = state.dragon[0], state.gold[0]
        total += turns
    mean = float(exact.mean())
    sd = math.sqrt(float(exact.variance()))
    assert abs(total / n - mean) < 4 * sd / math.sqrt(n)


def test_gem_table_diagonal_by_hand():
    # s swords against s shields: a gem needs a - d >= s, which (6-s)(7-s)/2 of the 36 rolls
    # give (5+4+...+(6-s)... summed: 15, 10, 6, 3, 1 for s = 1..5).
    table = odds.gem_table()
    for s in range(1, 6):
        assert table[s - 1][s + 1] == F((6 - s) * (7 - s), 72)
    assert table.to_matrix().shape == (5, 6)
    assert battle(3, 2, 1, 2).title == "3 swords (gold 1) attack 2 shields (gold 2)"


def test_decision_tables_agree_with_a_seeded_simulation_on_the_engine():
    rng = random.Random(11)
    n, hits, doubles, gold = 3000, 0, 0, 0
    state = position()
    for _ in range(n):
        roll = state.sample_chance(rng)
        hits += 3 in (roll.low, roll.high)
        doubles += roll.low == roll.high
        after = state.child(roll)  # the higher die goes to gold, through the engine
        after.apply(ChooseDie(roll.low, roll.high))
        gold += after.gold[0]
    for count, p in ((hits, odds.p_chair(3)), (doubles, odds.p_doubles())):
        p = float(p)
        assert abs(count / n - p) < 4 * math.sqrt(p * (1 - p) / n)
    most = odds.gold_income("most")
    sd = math.sqrt(float(most.variance()) / n)
    assert abs(gold / n - float(most.mean())) < 4 * sd
