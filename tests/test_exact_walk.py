"""An exact walk that cannot finish says why, instead of running out of stack."""

import dataclasses
from fractions import Fraction

import pytest

from coronas.batalla import Game as BatallaGame
from coronas.engine import CHANCE, TERMINAL, Action, Game, State, UnfinishedWalk, exact_distribution


@dataclasses.dataclass(frozen=True)
class Flip(Action):
    pass


class CoinState(State):
    """Flip a coin until it shows heads: tails leaves the position as it was."""

    def _setup(self) -> None:
        self.heads = False

    def _current_player(self) -> int:
        return TERMINAL if self.heads else CHANCE

    def _chance_outcomes(self):
        return [(Flip(), Fraction(1, 2)), (None, Fraction(1, 2))]

    def _legal_actions(self):
        return []

    def _apply(self, action) -> None:
        if action is not None:
            self.heads = True

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
    # Batalla at 2 gems each with both seats choosing at random: the turn number keeps every
    # position new, so the walk would go down without end.
    state = BatallaGame(position={"gems_won": [2, 2]}).new_initial_state()
    with pytest.raises(UnfinishedWalk, match="800 actions deep"):
        exact_distribution(state, uniform, lambda s: tuple(s.winners()))
    # a stop rule that ends the walk early lets it finish: the first roll's doubles
    first = exact_distribution(
        state, uniform, lambda s: s.dice[0] == s.dice[1], stop=lambda s: bool(s.history)
    )
    assert first[True] == Fraction(1, 6)
