"""An exact walk that cannot finish says why, instead of running out of stack."""

import dataclasses
from fractions import Fraction

import pytest

from coronas.batalla import Game as BatallaGame
from coronas.engine import CHANCE, TERMINAL, Action, Game, State, UnfinishedWalk, exact_distribution
from coronas.engine.chains import absorption_distribution, markov_chain


@dataclasses.dataclass(frozen=True)
class Flip(Action):
    heads: bool


class CoinState(State):
    """Flip a coin until it shows heads: tails leaves the position as it was."""

    def _setup(self) -> None:
        self.heads = False

    def _current_player(self) -> int:
        return TERMINAL if self.heads else CHANCE

    def _chance_outcomes(self):
        return [(Flip(True), Fraction(1, 2)), (Flip(False), Fraction(1, 2))]

    def _legal_actions(self):
        return []

    def _apply(self, action) -> None:
        self.heads = action.heads

    def _returns(self):
        return [1]


class CoinGame(Game):
    name = "coin"
    state_class = CoinState
    action_types = (Flip,)
    min_players = max_players = 1


def uniform(state):
    actions = state.legal_actions()
    return [(a, Fraction(1, len(actions))) for a in actions]


def test_a_cycle_is_named():
    state = CoinGame().new_initial_state()
    with pytest.raises(UnfinishedWalk, match="return to a position it has already passed"):
        exact_distribution(state, uniform, lambda s: s.heads)
    assert state.history == []  # the walk works on a copy


def test_a_game_that_goes_on_is_named_not_a_recursion_error():
    # Batalla at 2 gems each with both seats choosing at random: the same position comes back
    # (the turn counter is for the display, not part of the position), and the walk says so.
    state = BatallaGame(position={"gems_won": [2, 2]}).new_initial_state()
    with pytest.raises(UnfinishedWalk, match="return to a position it has already passed") as info:
        exact_distribution(state, uniform, lambda s: tuple(s.winners()))
    assert info.value.cycle
    # a stop rule that ends the walk early lets it finish: the first roll's doubles
    first = exact_distribution(
        state, uniform, lambda s: s.dice[0] == s.dice[1], stop=lambda s: bool(s.history)
    )
    assert first[True] == Fraction(1, 6)


def test_a_walk_deeper_than_its_limit_is_named():
    # A counter that only goes up never repeats a position and never ends.
    class Count(CoinState):
        def _setup(self) -> None:
            self.heads = False
            self.count = 0

        def _current_player(self) -> int:
            return CHANCE

        def _chance_outcomes(self):
            return [(Flip(False), Fraction(1))]

        def _apply(self, action) -> None:
            self.count += 1

    class CountGame(CoinGame):
        state_class = Count

    with pytest.raises(UnfinishedWalk, match="800 actions deep") as info:
        exact_distribution(CountGame().new_initial_state(), {}, lambda s: s.count)
    assert not info.value.cycle


def test_batalla_positions_one_turn_apart_are_one_position():
    # Only the first turn of the game differs ("WHOEVER HAS THE FIRST TURN OF THE GAME, DURING
    # THAT FIRST TURN, CANNOT DECLARE AN ATTACK."); later turns with the same board are one
    # position.
    game = BatallaGame(position={"gems_won": [1, 1]})
    a, b = game.new_initial_state(), game.new_initial_state()
    b.turn += 6
    assert a.key() == b.key()
    first = BatallaGame(position={"gems_won": [1, 1], "turn": 1}).new_initial_state()
    assert first.key() != a.key()


@dataclasses.dataclass(frozen=True)
class Step(Action):
    by: int


class WalkState(State):
    """A random walk on 0..4 from 2, up with 1/3 and down with 2/3, absorbed at 0 and 4."""

    def _setup(self) -> None:
        self.at = 2

    def _current_player(self) -> int:
        return TERMINAL if self.at in (0, 4) else CHANCE

    def _chance_outcomes(self):
        return [(Step(1), Fraction(1, 3)), (Step(-1), Fraction(2, 3))]

    def _legal_actions(self):
        return []

    def _apply(self, action) -> None:
        self.at += action.by

    def _returns(self):
        return [1 if self.at == 4 else 0]


class WalkGame(Game):
    name = "walk"
    state_class = WalkState
    action_types = (Step,)
    min_players = max_players = 1


def test_a_chain_is_solved_exactly():
    # The gambler's ruin: from 2 of 4 with q/p = 2, P(reach 4) = (1 - 2**2) / (1 - 2**4) = 1/5
    state = WalkGame().new_initial_state()
    with pytest.raises(UnfinishedWalk, match="cycle"):
        exact_distribution(state, {}, lambda s: s.at)
    dist = absorption_distribution(state, {}, lambda s: s.at)
    assert dist[4] == Fraction(1, 5)
    assert dist[0] == Fraction(4, 5)
    keys, moves, ends = markov_chain(state, {}, lambda s: s.at)
    assert len(keys) == 3  # positions 1, 2 and 3
    at = {state.child(Step(d)).key(): 2 + d for d in (-1, 1)}
    assert {at[k]: p for k, p in moves[keys[0]].items()} == {1: Fraction(2, 3), 3: Fraction(1, 3)}
    assert ends[keys[0]] == {}  # from 2 no single step ends the walk
    # coin flips until heads: certain to end
    assert absorption_distribution(CoinGame().new_initial_state(), {}, lambda s: s.heads)[
        True
    ] == Fraction(1)


def test_a_loop_that_never_ends_is_refused():
    # Tails for ever: a coin with no heads face never ends
    class Tails(CoinState):
        def _chance_outcomes(self):
            return [(Flip(False), Fraction(1))]

    class TailsGame(CoinGame):
        state_class = Tails

    with pytest.raises(UnfinishedWalk, match="go on for ever"):
        absorption_distribution(TailsGame().new_initial_state(), {}, lambda s: s.heads)


def test_a_chain_too_large_is_refused_with_its_size():
    state = BatallaGame(position={"gems_won": [2, 2]}).new_initial_state()
    with pytest.raises(UnfinishedWalk, match="more than 500 positions"):
        absorption_distribution(state, uniform, lambda s: tuple(s.winners()), max_states=500)
