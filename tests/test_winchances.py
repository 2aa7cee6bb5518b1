"""Whole-game win chances: exact answers worked out by hand, estimates with their intervals."""

import dataclasses
from fractions import Fraction

from coronas.engine import CHANCE, TERMINAL, Action, Game, RandomBot, State
from coronas.winchances import exact_win_chances, from_counts


@dataclasses.dataclass(frozen=True)
class Six(Action):
    hit: bool


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    pass


class RaceState(State):
    """Two players take turns to roll a d6; the first to roll a 6 wins. Before rolling, the
    player to move may only pass the die on (one legal action), which keeps the race a game."""

    def _setup(self) -> None:
        self.to_move = 0
        self.rolling = False
        self.winner = None

    def _current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.rolling else self.to_move

    def _legal_actions(self):
        return [Pass()]

    def _chance_outcomes(self):
        return [(Six(True), Fraction(1, 6)), (Six(False), Fraction(5, 6))]

    def _apply(self, action) -> None:
        if isinstance(action, Pass):
            self.rolling = True
        elif action.hit:
            self.winner = self.to_move
        else:
            self.rolling = False
            self.to_move = 1 - self.to_move

    def _returns(self):
        return [1 if p == self.winner else 0 for p in (0, 1)]


class RaceGame(Game):
    name = "race"
    state_class = RaceState
    action_types = (Six, Pass)


def test_a_race_with_a_cycle_is_solved_exactly():
    # P(first wins) = 1/6 + (5/6)**2 P(first wins), so 1/6 / (1 - 25/36) = 6/11
    state = RaceGame().new_initial_state()
    assert exact_win_chances(state, [RandomBot(), RandomBot()]) == (
        Fraction(6, 11),
        Fraction(5, 11),
    )


def test_a_bot_without_a_mixed_strategy_gets_no_exact_answer():
    def first(state, rng):
        return state.legal_actions()[0]

    assert exact_win_chances(RaceGame().new_initial_state(), [first, first]) is None


def test_an_estimate_carries_its_interval_and_its_games():
    chances = from_counts(
        ["red", "blue"],
        [Fraction(61, 2), Fraction(39, 2)],
        50,
        "every seat plays like random",
        "the whole table",
    )
    assert chances.chances == (Fraction(61, 100), Fraction(39, 100))
    lo, hi = chances.low[0], chances.high[0]
    assert lo < 0.61 < hi and 0.1 < hi - lo < 0.3  # 50 games: about 13 points each side
    text = str(chances)
    assert "50 games, 95% intervals" in text and "every seat plays like random" in text
    assert "red 61.0% (" in text


def test_an_estimate_of_the_race_holds_the_exact_answer():
    # 6/11 = 54.5% for the first player; 400 seeded games, the 95% interval about 5 points wide
    state = RaceGame().new_initial_state()
    from coronas.winchances import win_chances

    est = win_chances(state, RandomBot(), games=400, seed=1, exact=False)
    assert not est.exact and est.games == 400
    assert est.low[0] <= 6 / 11 <= est.high[0]
    assert est.chances[0] + est.chances[1] == 1
    again = win_chances(state, RandomBot(), games=400, seed=1, exact=False)
    assert again == est
    exact = win_chances(state, RandomBot())
    assert exact.exact and exact.chances == (Fraction(6, 11), Fraction(5, 11))
    assert "6/11 (54.5%)" in str(exact)
