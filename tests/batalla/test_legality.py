"""The check of one action agrees with the list of legal actions; malformed actions are refused.

``apply`` checks an action by the rule of its type (``_reason``) instead of looking it up in
``legal_actions()``: the two must agree on every action in every position reached.
"""

import random

import pytest

from coronas.batalla import (
    Attack,
    BattleRoll,
    Buy,
    ChooseDie,
    Game,
    IllegalAction,
    Invoke,
    Muster,
    Reroll,
    RerollDie,
    Roll,
    RollOff,
    Seat,
    SpendCross,
    SpendSwords,
    Visit,
)
from coronas.batalla.bots import GreedyBot, RandomBot
from tests.batalla.helpers import position
from tests.batalla.test_properties import ALL_ACTIONS, RULE_SETS


@pytest.mark.parametrize("seed", range(12))
def test_the_rule_of_each_action_agrees_with_the_legal_actions(seed):
    rng = random.Random(seed)
    state = Game(seed=seed, rules=RULE_SETS[seed % 3]).new_initial_state()
    bots = [GreedyBot(), RandomBot()]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            for action in ALL_ACTIONS:
                assert state._possible(action) == (action in outcomes), action
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        assert len(legal) == len(set(legal))
        for action in {*ALL_ACTIONS, *legal}:
            reason = state._reason(action)
            assert (reason is None) == (action in legal), (action, reason)
        state.apply(bots[state.current_player].choose(state, rng))


def test_a_refusal_gives_the_rule_that_is_broken():
    state = position(phase="buy", gold=[1, 0], swords=[0, 2], shields=[5, 2])
    with pytest.raises(IllegalAction, match="at least 1 sword"):
        state.apply(Attack())
    with pytest.raises(IllegalAction, match="already at 5, the top of the track"):
        state.apply(Buy("shield"))
    with pytest.raises(IllegalAction, match=r"you do not have the Smith token \(nobody has it\)"):
        state.apply(Buy("sword", smith=True))
    with pytest.raises(IllegalAction, match="dragon level 1 costs 2 gold and you have 1"):
        state.apply(Buy("dragon"))
    with pytest.raises(IllegalAction, match="there is no counselor 'jester'"):
        state.apply(Seat("jester"))
    with pytest.raises(IllegalAction, match="not possible now: this is the buying phase"):
        state.apply(Seat("noble"))
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        position().apply(Roll(0, 7))


MALFORMED = [
    ChooseDie("3", 1),
    ChooseDie(3.0, 1),
    ChooseDie(True, 1),
    Seat(["noble"]),
    Seat(None),
    Invoke(3),
    Muster(b"shield"),
    Visit(("red",)),
    SpendCross(None),
    Buy("shield", 1),
    Buy(["shield"]),
    Reroll("1"),
    SpendSwords(1.0),
    Roll("1", 3),
    Roll(None, None),
    BattleRoll(4, [2]),
    RerollDie("5"),
    RollOff(6, "1"),
]


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
@pytest.mark.parametrize("phase", ["roll", "buy", "over"])
def test_an_action_with_a_field_of_the_wrong_kind_is_illegal_not_a_type_error(action, phase):
    if phase == "over":
        state = position(gems_won=[2, 0], shields=[2, 0], swords=[3, 0], phase="buy")
        state.apply(Attack())
        state.apply(BattleRoll(6, 1))
        assert state.is_terminal()
    else:
        state = position(phase=phase)
    before = state.clone()
    with pytest.raises(IllegalAction, match=r"\w+\.\w+: expected "):
        state.apply(action)
    assert state == before and state.history == before.history


def test_roll_orders_only_numbers():
    assert Roll(5, 2) == Roll(2, 5)
    assert (Roll("5", 2).low, Roll("5", 2).high) == ("5", 2)
