"""``state.odds()``: the chance of the move at hand, by hand and against the engine's tree."""

import random
from fractions import Fraction as F

import pytest
import sympy

from coronas.batalla import (
    Accept,
    Attack,
    BattleRoll,
    Buy,
    EndTurn,
    Game,
    IllegalAction,
    Reroll,
    Rules,
    SpendCross,
    SpendSwords,
)
from coronas.batalla.odds import BattleOdds, battle_choice
from coronas.dice import Die, exact_fractions
from tests.batalla.helpers import battle_minimax, battle_walk, play_out, position


def test_attack_odds_in_the_position_of_the_odds_command():
    # `coronas odds batalla-battle 3 2 --gold 1 0`: 3 swords against 2 shields, the attacker
    # has 1 gold, the defender none. A gem needs the attacker ahead by 2 or more: d = 1:
    # a = 3..6 (4 rolls), d = 2: 3, d = 3: 2, d = 4: 1, so 10 of 36 = 60/216. Behind (a < d:
    # d - 1 rolls for each d), the attacker pays its 1 gold and rerolls, for a gem with
    # chance (5 - d)/6: d = 2: 1 * 3, d = 3: 2 * 2, d = 4: 3 * 1, 10 more of 216 (against a
    # 5 or a 6 a reroll cannot take the gem and the gold is kept). 70/216 = 35/108.
    state = position(phase="buy", swords=[3, 2], shields=[2, 2], gold=[1, 0])
    before = state.clone()
    o = state.odds(Attack())
    assert o.success == sympy.Rational(35, 108) and isinstance(o.success, sympy.Rational)
    assert o.aim == "take a gem" and o.subject == state.describe(Attack())
    assert isinstance(o.detail, BattleOdds) and o.detail.gem == o.success
    assert o.roll is None and o.choices == ()
    assert state == before and state.history == before.history
    with exact_fractions():
        o = state.odds(Attack())
    assert o.success == F(35, 108) and type(o.success) is F
    # actions without dice
    assert state.odds(EndTurn()) is None
    with pytest.raises(IllegalAction, match="a shield costs 3 gold and you have 1"):
        state.odds(Buy("shield"))
    assert state.odds() is None  # no roll pending in the buying phase


def test_the_battle_roll_and_a_reroll_being_made():
    # 3 swords against 2 shields, 3 gold against none.
    state = play_out(position(phase="buy", swords=[3, 2], shields=[2, 2], gold=[3, 0]), [Attack()])
    o = state.odds()
    assert o.roll == sympy.Rational(10, 36)  # the dice as they fall (above)
    assert o.success == state.odds().success  # asking changes nothing
    state.apply(BattleRoll(2, 3))
    # behind 2 against 3: keep, no gem; reroll for 1: 5 or 6 is a gem (2/6), a 1 or a 2 is
    # behind again and the second reroll (2 gold, all that is left) gives 2/6 more: 1/3 +
    # 1/3 * 1/3 = 4/9 (a 3 ties, a 4 wins by 1: no gem, the defender has nothing to pay).
    o = state.odds()
    assert o.aim == "take a gem" and o.choices == ((Reroll(1), F(4, 9)), (Accept(), 0))
    assert o.best == Reroll(1) == battle_choice(state) and o.success == sympy.Rational(4, 9)
    assert state.odds(Reroll(1)).success == sympy.Rational(4, 9)
    assert state.odds(Accept()) is None
    state.apply(Reroll(1))
    o = state.odds()  # the reroll being made: this die alone 2/6, the whole battle 4/9
    assert o.roll == sympy.Rational(1, 3) and o.success == sympy.Rational(4, 9)
    assert isinstance(o.detail, Die) and o.detail.prob(lambda r: r.gem) == F(4, 9)


def test_the_defender_decides_for_its_gems():
    # 3 swords against 2 shields; 5 against 2 is a gem unless the defender (1 gold) rerolls:
    # its new die stops the gem on 4, 5 or 6 (5 - d < 2): 1/2.
    state = position(phase="buy", swords=[3, 2], shields=[2, 2], gold=[0, 1])
    play_out(state, [Attack(), BattleRoll(5, 2)])
    o = state.odds()
    assert o.aim == "keep its gems" and o.choices == ((Reroll(1), F(1, 2)), (Accept(), 0))
    assert o.best == Reroll(1) and state.odds(Reroll(1)).success == sympy.Rational(1, 2)
    state.apply(Reroll(1))
    o = state.odds()
    assert o.aim == "keep its gems" and o.roll == o.success == sympy.Rational(1, 2)


def test_the_attackers_moment_before_the_defenders_reroll():
    # 4 against 2 (a gem as it stands), the defender has 3 gold, the attacker the Cross.
    # The golden square leaves the defender nothing to pay: the gem is certain. Keeping the
    # Cross: the defender rerolls, and only a 1 or a 2 leaves the gem (then the Cross takes
    # its gold before it rerolls again): 1/3. The blue or the red square spends the Cross for
    # nothing: the defender may reroll twice (1 + 2 gold), 1/3 * 1/3 = 1/9.
    state = position(phase="buy", swords=[3, 2], shields=[2, 2], gold=[0, 3], cross=0)
    play_out(state, [Attack(), BattleRoll(4, 2)])
    o = state.odds()
    assert dict(o.choices) == {
        SpendCross("golden"): 1,
        Accept(): F(1, 3),
        SpendCross("blue"): F(1, 9),
        SpendCross("red"): F(1, 9),
    }
    assert o.best == SpendCross("golden") == o.choices[0][0] and o.success == 1


def test_the_swords_to_spend():
    state = position(phase="buy", swords=[3, 2], shields=[2, 2])
    play_out(state, [Attack(), BattleRoll(6, 2)])
    o = state.odds()
    assert o.choices == ((SpendSwords(2), 1), (SpendSwords(0), 0), (SpendSwords(1), 0))
    assert o.best == SpendSwords(2) and state.odds(SpendSwords(1)) is None


# -- against the engine's game tree, in positions from seeded random play --------------------

_BATTLE = ("battle", "reroll", "reroll_choice", "battle_tokens", "spend")


def _set_up(rng: random.Random) -> dict:
    """A buying phase with random tracks, gold, gems and tokens (the Crown and the Cross)."""
    gems = [rng.randrange(3), rng.randrange(3)]
    return {
        "phase": "buy",
        "to_move": rng.randrange(2),
        "swords": [rng.randint(1, 5), rng.randint(1, 5)],
        "shields": [rng.randint(0, 5), rng.randint(0, 5)],
        "gold": [rng.randint(-1, 7 - g) for g in gems],
        "gems_won": gems,
        "clergy": [rng.choice([None, "golden", "blue"]) for _ in range(2)],
        "crown": rng.choice([0, 1, None]),
        "cross": rng.choice([0, 1, None]),
    }


def _positions(n: int, seed: int, rules: Rules | None = None) -> list:
    """Positions of random play where an attack may be declared or a battle is going on:
    half of the games from the start, half from a random set-up with tokens (an attack is
    chosen half the time it is legal)."""
    rng = random.Random(seed)
    found: list = []
    seen: set = set()
    games = 0
    while len(found) < n:
        set_up = _set_up(rng) if games % 2 else None
        games += 1
        game = Game(seed=rng.randrange(10**6), position=set_up, rules=rules)
        state = game.new_initial_state()
        taken = 0
        while not state.is_terminal() and len(found) < n and taken < 4:
            legal = state.legal_actions()
            if (state.phase in _BATTLE or Attack() in legal) and state.key() not in seen:
                seen.add(state.key())
                found.append(state.clone())
                taken += 1
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            elif Attack() in legal and rng.random() < 0.5:
                state.apply(Attack())
            else:
                state.apply(rng.choice(legal))
    return found


POSITIONS = _positions(48, seed=20261202)
REROLL_CROSS_POSITIONS = _positions(16, seed=20261203, rules=Rules(cross_effect="reroll"))
"""Under the Example of a Game's reading, where the Cross is a free reroll for its holder."""


def _odds_and_walk(state):
    if state.phase == "buy":
        return state.odds(Attack()), battle_walk(state)
    o = state.odds()
    gem = battle_walk(state)
    return o, gem if o.aim == "take a gem" else 1 - gem


def test_random_positions_cover_the_battle():
    phases = {s.phase for s in POSITIONS}
    assert len(POSITIONS) >= 30 and {"buy", "battle", "reroll_choice"} <= phases
    assert any(s.crown == s.player for s in POSITIONS)
    assert any(s.cross == s.player for s in POSITIONS)


def test_random_positions_under_the_free_reroll_cross_have_its_holders_rerolling():
    states = REROLL_CROSS_POSITIONS
    assert any(s.cross == s.player for s in states)
    assert any(s.cross == 1 - s.player for s in states)


@pytest.mark.parametrize(
    "state",
    [*POSITIONS, *REROLL_CROSS_POSITIONS],
    ids=[
        *(f"printed-{i}" for i in range(len(POSITIONS))),
        *(f"cross-reroll-{i}" for i in range(len(REROLL_CROSS_POSITIONS))),
    ],
)
def test_odds_equal_the_engine_tree_in_random_positions(state):
    o, walked = _odds_and_walk(state)
    assert o.success == walked
    if o.choices:
        assert o.best == battle_choice(state)
        p = state.player
        for action, chance in o.choices:
            child = state.child(action)
            if isinstance(action, SpendSwords):  # the battle is over, the turn has passed
                gem = F(child.gems_won[p] > state.gems_won[p])
            else:
                gem = battle_walk(child)
            assert chance == (gem if o.aim == "take a gem" else 1 - gem), action


@pytest.mark.slow
@pytest.mark.parametrize("state", [*POSITIONS, *REROLL_CROSS_POSITIONS])
def test_odds_are_the_best_any_play_of_the_engine_gives(state):
    o, _ = _odds_and_walk(state)
    gem = battle_minimax(state)
    assert o.success == (gem if o.aim == "take a gem" else 1 - gem)
