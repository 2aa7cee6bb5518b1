"""state.odds() in Corona de Hierro: hand-worked values from the position, and the engine's
own game tree (coronas.engine.exact_distribution, with rerolls chosen by a plain minimax over
that tree) from positions of seeded random play."""

import random
from fractions import Fraction as F

import pytest
import sympy

from coronas.dice import exact_fractions
from coronas.engine import IllegalAction, exact_distribution
from coronas.hierro import Game
from coronas.hierro import odds as ho
from coronas.hierro.actions import (
    AcceptRoll,
    AttackArmy,
    AttackCastle,
    DrawCards,
    Move,
    PlayCavalryCharge,
    PlayGoodFortune,
    PlayResistance,
    Recruit,
    RequestSupport,
    Reroll,
    SendEmissary,
    TakeCard,
)

from .helpers import BLUE, GREEN, RED, position, roll

CITY = "Belluno"  # a city without a castle, for battles
DICE_ACTIONS = (AttackArmy, AttackCastle, PlayCavalryCharge, PlayGoodFortune, RequestSupport)


# ---------------------------------------------------------------------------------------------
# Hand-worked values
# ---------------------------------------------------------------------------------------------


def test_attack_a_castle_with_three_pawns_and_two_shields():
    state = position(armies={"Verona": {RED: 3}}, shields=[2, 2, 2])
    odds = state.odds(AttackCastle("Verona"))
    # Three pawns roll the green die; Verona's left banner is 5: a roll succeeds with 2/6,
    # and the action fails only if all three rolls (two rerolls) fail: 1 - (2/3)**3.
    assert odds.success == F(19, 27)
    assert odds.success == ho.castle_assault(5, army=3, shields=2).probability
    assert isinstance(odds.success, sympy.Rational)
    assert odds.aim == "take the castle of Verona"
    assert odds.subject == state.describe(AttackCastle("Verona"))
    assert odds.roll is None and odds.choices == ()
    assert odds.detail.shields == 2
    with exact_fractions():
        fast = state.odds(AttackCastle("Verona"))
    assert type(fast.success) is F and fast.success == F(19, 27)


def test_a_castle_with_troops_inside_first_loses_its_troops():
    state = position(castles={"Verona": GREEN}, armies={"Verona": {RED: 2}}, shields=[1, 2, 2])
    odds = state.odds(AttackCastle("Verona"))
    # Yellow die (2 pawns), 5+, one reroll: 1 - (2/3)**2; success drives out the troops.
    assert odds.success == F(5, 9)
    assert odds.aim == "drive the troops out of Verona"
    assert odds.detail.successes_needed == 2


def test_a_roll_in_progress_and_the_reroll_decision():
    state = position(armies={"Verona": {RED: 3}}, shields=[2, 2, 2])
    state.apply(AttackCastle("Verona"))
    with exact_fractions():
        pending = state.odds()
        assert pending.roll == F(1, 3)  # this roll: 5 or 6 on the green die
        assert pending.success == F(19, 27)  # with the two rerolls still to come
        roll(state, 4)
        advice = state.odds()
        # Rerolling leaves one reroll: 1 - (2/3)**2; keeping the 4 fails the attack.
        assert advice.choices == ((Reroll(), F(5, 9)), (AcceptRoll(), F(0)))
        assert advice.best == Reroll() and advice.success == F(5, 9)
        assert state.odds(Reroll()).success == F(5, 9)
        assert state.odds(AcceptRoll()).success == 0
        state.apply(Reroll())
        again = state.odds()
        assert (again.roll, again.success) == (F(1, 3), F(5, 9))


def test_diplomacy_and_good_fortune():
    # Luni's right banner is 3. Legitimacy 2 is the red band: the red die, 4 faces of 6.
    state = position(
        emissaries={"Luni": [RED]}, shields=[1, 2, 2], hands=[["good_fortune"], [], []]
    )
    odds = state.odds(RequestSupport("Luni"))
    assert odds.success == 1 - F(1, 3) ** 2  # one reroll: 8/9
    assert odds.aim == "win the support of Luni"
    # Good fortune rolls the green die (a d6 by default): the same chance here.
    assert state.odds(PlayGoodFortune("Luni", "emissary")).success == F(8, 9)
    state.apply(RequestSupport("Luni"))
    assert state.odds().roll == F(2, 3)


def test_good_fortune_by_arms_rolls_the_green_die():
    state = position(armies={"Verona": {RED: 1}}, shields=[0, 2, 2], hands=[["good_fortune"]] * 3)
    # One pawn alone rolls the red die; Good fortune the green one: 5+ is 1/3 either way on
    # standard dice, so a rule set with a stronger green die tells them apart.
    assert state.odds(AttackCastle("Verona")).success == F(1, 3)
    strong = Game(players=3, rules={"green": [5, 5, 5, 5, 6, 6]}).position(
        armies={"Verona": {RED: 1}}, shields=[0, 2, 2], hands=[["good_fortune"], [], []]
    )
    assert strong.odds(PlayGoodFortune("Verona", "army")).success == 1
    assert strong.odds(AttackCastle("Verona")).success == F(1, 3)


def test_battles():
    state = position(armies={CITY: {RED: 3, GREEN: 2}}, shields=[1, 2, 2])
    odds = state.odds(AttackArmy(CITY, GREEN))
    assert odds.success == ho.battle(3, 2, attacker_shields=1, defender_shields=2).attacker_wins
    assert odds.aim == f"win the battle in {CITY}"
    assert odds.detail.policy is not None
    # One pawn against one without shields: P(X >= Y) for two d6, 21/36.
    small = position(armies={CITY: {RED: 1, GREEN: 1}}, shields=[0, 0, 0])
    assert small.odds(AttackArmy(CITY, GREEN)).success == F(7, 12)


def test_cavalry_charge_rolls_the_yellow_die():
    # A weak red die 1, 1, 2, 3, 4, 5 tells the dice apart (yellow and green stay d6).
    weak = {"red": [1, 1, 2, 3, 4, 5]}
    state = Game(players=3, rules=weak).position(
        armies={CITY: {RED: 1, GREEN: 2}}, shields=[0, 0, 0], hands=[["cavalry_charge"], [], []]
    )
    charge = state.odds(PlayCavalryCharge(CITY, GREEN))
    # d6 against d6 (7/12), then d6 against the weak red die: 1 on y = 1, then 5/6 ... 2/6,
    # (2 + 14/6) / 6 = 13/18.
    assert charge.success == F(7, 12) * F(13, 18)
    assert charge.success == ho.battle(1, 2, rules=state.rules, cavalry_charge=True).attacker_wins
    # Without the card: the weak red die against d6, (1+1+2+3+4+5)/36 = 4/9; then against
    # the weak red die, 2/6 + (4+3+2+1)/36 = 11/18.
    assert state.odds(AttackArmy(CITY, GREEN)).success == F(4, 9) * F(11, 18)


def test_a_battle_roll_by_roll():
    # 1 against 1; red has a shield, green none.
    state = position(armies={CITY: {RED: 1, GREEN: 1}}, shields=[1, 0, 2])
    state.apply(AttackArmy(CITY, GREEN))
    with exact_fractions():
        start = state.odds()
        # The attacker rerolls 1-3 once: 15/36 + 1/2 * 7/12; one roll meets one roll 7/12.
        assert (start.success, start.roll) == (F(17, 24), F(7, 12))
        roll(state, 2)
        advice = state.odds()
        # Reroll: 1 against 1 with no shields, 7/12. Keep the 2: the defender's 1 or 2, 1/3.
        assert advice.choices == ((Reroll(), F(7, 12)), (AcceptRoll(), F(1, 3)))
        assert advice.best == Reroll()
        state.apply(AcceptRoll())
        # Green rolls against a 2: it holds on 3-6, and that is its whole chance.
        defence = state.odds()
        assert defence.aim == f"beat off red's attack in {CITY}"
        assert (defence.roll, defence.success) == (F(2, 3), F(2, 3))


def test_the_defenders_reroll():
    state = position(armies={CITY: {RED: 2, GREEN: 1}}, shields=[0, 1, 2])
    state.apply(AttackArmy(CITY, GREEN))
    roll(state, 4, 3)  # red's yellow die shows 4, green's red die 3: green is losing
    with exact_fractions():
        advice = state.odds()
        # Keep: green loses its last pawn. Reroll: it holds on 5 or 6, 1/3, and then the
        # battle goes on at 1 against 1 with no shields left, where green holds on 5/12.
        assert advice.choices == ((Reroll(), F(1, 3) * F(5, 12)), (AcceptRoll(), F(0)))
        assert advice.best == Reroll()


def test_moves_without_dice_have_no_odds():
    state = position(
        castles={"Verona": RED},
        armies={"Verona": {RED: 1, GREEN: 2}, "Vicenza": {RED: 2}, CITY: {BLUE: 1}},
        shields=[3, 2, 2],
        hands=[["resistance"], [], []],
    )
    for action in (
        Move("Vicenza", "Padua", 1),
        Recruit("Verona"),
        SendEmissary("Rome"),
        PlayResistance("Verona", GREEN),
        TakeCard("military"),
        DrawCards("political"),
    ):
        assert action in state.legal_actions(), action
        assert state.odds(action) is None
    assert state.odds() is None  # nothing is being rolled


def test_odds_of_an_illegal_action_are_refused():
    state = position(armies={"Verona": {RED: 3}})
    with pytest.raises(IllegalAction):
        state.odds(AttackCastle("Trento"))
    state.apply(AttackCastle("Verona"))
    with pytest.raises(IllegalAction, match="a roll is being made"):
        state.odds(AttackCastle("Verona"))
    assert state.odds().success == F(19, 27)


# ---------------------------------------------------------------------------------------------
# The engine's own game tree, from positions of seeded random play
# ---------------------------------------------------------------------------------------------


def fight_over(s):
    return s.fight is None


def fight_key(s):
    f = s.fight
    if f is None:
        return None
    return (
        s.step,
        tuple(sorted(f.items())),
        s.army(f["where"], f["att"]),
        s.army(f["where"], f["dfn"]) if f["dfn"] is not None else 0,
        s.shields[f["att"]],
        s.shields[f["dfn"]] if f["dfn"] is not None else 0,
    )


def aim_reached(start):
    """The test of the aim of the fight in progress at ``start``, read at the end of it."""
    f = start.fight
    att, where = f["att"], f["where"]
    if f["kind"] == "battle":
        dfn = f["dfn"]
        return lambda s: s.army(where, dfn) == 0
    if f["kind"] == "diplomacy":
        return lambda s: s.owner.get(where) == att
    before = (start.owner.get(where), start.troops.get(where))
    return lambda s: (s.owner.get(where), s.troops.get(where)) != before


def minimax_policy(reached, attacker):
    """Reroll or keep as a plain minimax over the engine's tree says: the attacker (or the
    player rolling for a castle) maximises the chance of its aim, a defender minimises it."""
    memo = {}

    def value(s):
        if s.fight is None:
            return F(int(reached(s)))
        k = fight_key(s)
        if k not in memo:
            if s.is_chance_node():
                memo[k] = sum((p * child(s, o) for o, p in s.chance_outcomes()), F(0))
            else:
                vals = [child(s, a) for a in s.legal_actions()]
                memo[k] = max(vals) if s.current_player == attacker else min(vals)
        return memo[k]

    def child(s, action):
        s.apply(action)
        try:
            return value(s)
        finally:
            s.undo()

    def policy(s):
        scored = [(child(s, a), a) for a in s.legal_actions()]
        pick = max if s.current_player == attacker else min
        return pick(scored, key=lambda va: va[0])[1]

    return policy


def tree_chance(s, fight=None):
    """P(the aim of ``fight``, by default the fight in progress at ``s``) by the engine's
    tree, with optimal rerolls, until the fight is over."""
    fight = fight or s
    reached, attacker = aim_reached(fight), fight.fight["att"]
    policy = minimax_policy(reached, attacker)
    dist = exact_distribution(s, policy, reached, stop=fight_over, key=fight_key)
    return dist.prob(lambda r: r)


def for_roller(s, p):
    """``p`` (the attacker's chance) as the chance of the player whose die it is."""
    f = s.fight
    return 1 - p if f["kind"] == "battle" and f["stage"] == "dfn" else p


def sample_positions(seeds, max_size, quota):
    """(state, dice action) pairs at decisions, and states inside fights (rolls, rerolls),
    from seeded games that play a dice action half the time one is legal: up to ``quota`` of
    each kind of action and of each kind of roll (castle, diplomacy, a battle's attacker or
    defender; roll or reroll). Fights with more than ``max_size`` pawns and shields in all
    are left out."""
    actions, inside = {}, {}
    for seed in seeds:
        rng = random.Random(seed)
        state = Game(players=3, seed=seed).new_initial_state()
        for _ in range(300):
            if state.is_terminal():
                break
            f = state.fight
            if f is not None and state.step in ("roll", "reroll"):
                kind = (f["kind"], f["stage"] if f["kind"] == "battle" else "", state.step)
                got = inside.setdefault(kind, [])
                if len(got) < quota and size(state, f) <= max_size:
                    got.append(state.clone())
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            dice = [a for a in legal if isinstance(a, DICE_ACTIONS)]
            if dice and rng.random() < 0.5:
                action = rng.choice(dice)
                got = actions.setdefault(type(action), [])
                before = state.clone() if len(got) < quota else None
                state.apply(action)
                if before is not None and size(state, state.fight) <= max_size:
                    got.append((before, action))
            else:
                state.apply(rng.choice(legal))
    return [x for v in actions.values() for x in v], [x for v in inside.values() for x in v]


def size(s, f):
    pieces = s.army(f["where"], f["att"]) + s.shields[f["att"]]
    if f["dfn"] is not None:
        pieces += s.army(f["where"], f["dfn"]) + s.shields[f["dfn"]]
    return pieces


def check_action(state, action):
    with exact_fractions():
        odds = state.odds(action)
    assert odds is not None, action
    child = state.child(action)
    assert odds.success == tree_chance(child), (str(state), action)


def check_inside(state):
    with exact_fractions():
        odds = state.odds()
    assert odds.success == for_roller(state, tree_chance(state)), str(state)
    if state.step == "reroll":
        values = dict(odds.choices)
        assert set(values) == set(state.legal_actions())
        for choice, p in values.items():
            after = tree_chance(state.child(choice), fight=state)
            assert p == for_roller(state, after), (str(state), choice)
        assert odds.success == max(values.values())


def test_odds_equal_the_engine_tree_in_random_play():
    actions, inside = sample_positions(range(10), max_size=8, quota=8)
    kinds = {type(a) for _, a in actions}
    assert len(actions) >= 30 and len(inside) >= 30, (len(actions), len(inside))
    assert {AttackArmy, AttackCastle} <= kinds
    assert any(s.step == "reroll" for s in inside)
    assert any(s.fight["kind"] == "battle" and s.fight["stage"] == "dfn" for s in inside)
    for state, action in actions:
        check_action(state, action)
    for state in inside:
        check_inside(state)


@pytest.mark.slow
def test_odds_equal_the_engine_tree_in_longer_random_play():
    actions, inside = sample_positions(range(6, 40), max_size=14, quota=60)
    for state, action in actions:
        check_action(state, action)
    for state in inside:
        check_inside(state)
