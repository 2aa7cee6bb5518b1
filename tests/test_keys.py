"""Position keys and the transposition table of the tree walk.

``State.key()`` must be equal for equal positions whatever the path, and the key a tree walk
keeps up to date through apply and undo (``journal.KeyCache``) must always be the key the
state would give from scratch.
"""

import random
from fractions import Fraction as F

import pytest

from coronas.batalla import Game as BatallaGame
from coronas.carolus import Game as CarolusGame
from coronas.engine import CHANCE, TERMINAL, Game, State, exact_distribution, journal
from coronas.hierro import AcceptRoll
from coronas.hierro import Game as HierroGame
from tests.hierro.test_odds import CITY, battle_state, fight_over
from tests.toygame import GiveUp, Reroll, Roll, ToyGame

GAMES = {
    "hierro": lambda: HierroGame(players=3, seed=3),
    "batalla": lambda: BatallaGame(seed=3),
    "carolus": lambda: CarolusGame(players=2, seed=3),
}


def fresh_key(state: State):
    """The key computed from scratch, on a copy that has no cache."""
    return state.clone().key()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_kept_key_is_the_fresh_key_along_random_applies_and_undos(name):
    state = GAMES[name]().new_initial_state()
    rng = random.Random(7)
    # Play a little way in without the cache, so undo also meets applies made before it came.
    for _ in range(5):
        if state.current_player == TERMINAL:
            break
        chance = state.is_chance_node()
        state.apply(state.sample_chance(rng) if chance else rng.choice(state.legal_actions()))
    state._keycache = journal.KeyCache()
    checked = 0
    for _ in range(400):
        if state.history and (state.current_player == TERMINAL or rng.random() < 0.3):
            state.undo()
        elif state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        assert state.key() == fresh_key(state)
        checked += 1
    assert checked == 400


def test_equal_positions_reached_by_different_paths_have_equal_keys():
    state = ToyGame().new_initial_state()
    state.apply(Roll(1))
    state.apply(Reroll())
    after_one_reroll = state.key()
    other = ToyGame().new_initial_state()
    other.apply(Roll(2))
    other.apply(Reroll())
    # The last roll is part of the position (1 then 2 differ)...
    assert other.key() != after_one_reroll
    # ...but once both roll a 3 the positions are equal, whatever came before.
    state.apply(Roll(3))
    other.apply(Roll(3))
    assert state.key() == other.key()
    assert state.history != other.history
    hash(state.key())


class GrowState(State):
    """A state whose applies make and delete attributes and change nested containers."""

    def _setup(self):
        self.n = 0
        self.bag = {"a": [1, 2]}

    def _current_player(self):
        return TERMINAL if self.n >= 4 else CHANCE

    def _chance_outcomes(self):
        return [(Roll(1), F(1, 2)), (Roll(2), F(1, 2))]

    def _legal_actions(self):
        return []

    def _apply(self, action):
        self.n += 1
        self.bag["a"].append(action.value)
        if action.value == 2:
            if hasattr(self, "extra"):
                del self.extra
            else:
                self.extra = [self.n]
        self.bag[f"k{self.n}"] = {"inner": [action.value]}

    def _returns(self):
        return [self.n]


class GrowGame(Game):
    name = "grow"
    state_class = GrowState
    action_types = (Roll,)
    min_players = max_players = 1


def test_the_kept_key_follows_attributes_that_come_and_go_and_nested_changes():
    state = GrowGame().new_initial_state()
    state._keycache = journal.KeyCache()
    seen = 0

    def down(depth):
        nonlocal seen
        assert state.key() == fresh_key(state)
        seen += 1
        if state.is_terminal():
            return
        for outcome, _p in state.chance_outcomes():
            state.apply(outcome)
            down(depth + 1)
            state.undo()
            assert state.key() == fresh_key(state)

    down(0)
    assert seen == 1 + 2 + 4 + 8 + 16


def reroll_once_then_give_up(s):
    return Reroll() if s.shields == 2 else GiveUp()


def test_the_walk_gives_the_same_answer_with_and_without_transpositions():
    state = ToyGame().new_initial_state()
    with_keys = exact_distribution(state, reroll_once_then_give_up, lambda s: s.success)
    without = exact_distribution(state, reroll_once_then_give_up, lambda s: s.success, key=False)
    # Success on 4+ with one reroll: 1 - (1/2)^2.
    assert with_keys[True] == without[True] == F(3, 4)


def test_a_hierro_battle_walk_merges_transpositions_and_matches_the_plain_walk():
    # 2 v 2 with no shields: each round the attacker loses a pawn with probability 5/12
    # (the defender's die beats the attacker's: 15 of 36 pairs), the defender with 7/12.
    # The attacker wins by winning two rounds before losing two:
    # (7/12)^2 + 2 * (7/12)^2 * (5/12) = 49/144 * (1 + 10/12) = 539/864.
    state = battle_state(2, 2, 0, 0)
    won = lambda s: s.army(CITY, 1) == 0  # noqa: E731
    calls = {"keyed": 0, "plain": 0}

    def counting(label):
        def result(s):
            calls[label] += 1
            return won(s)

        return result

    accept = lambda s: AcceptRoll()  # noqa: E731 (no shields: never asked)
    keyed = exact_distribution(state, accept, counting("keyed"), stop=fight_over)
    plain = exact_distribution(state, accept, counting("plain"), stop=fight_over, key=False)
    assert keyed[True] == plain[True] == F(539, 864)
    # The plain walk reaches every end of every path; the keyed one merges the repeated rounds.
    assert calls["keyed"] < calls["plain"]
