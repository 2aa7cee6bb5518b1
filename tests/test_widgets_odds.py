"""The stepper shows the odds of the move at hand: the model words them, the view shows them.

The toy game (tests/toygame.py) with an odds hook: roll a die, succeed on 4 or more; after a
failure spend one of the shields to roll again, or give up. With the die (1, 1, 2, 3, 4, 6)
a roll succeeds with 2/6 = 1/3; with k rolls left the attempt succeeds with 1 - (2/3)**k.
The games' own odds are checked once per game, and only once that game gives any.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from coronas.dice import exact_fractions
from coronas.engine import RandomBot, available_games, register_game
from coronas.engine.advice import Odds
from coronas.formatting import probability_text
from coronas.widgets import Stepper, StepperModel
from coronas.widgets.stepper import PositionOdds, odds_phrase, odds_record
from tests.toygame import GiveUp, Reroll, Roll, ToyGame, ToyRules, ToyState

LOADED_DIE = (1, 1, 2, 3, 4, 6)


class OddsToyState(ToyState):
    """The toy game with :meth:`State._odds`: exact odds of the attempt (rolls left: this
    roll and one for each shield)."""

    calls = 0  # how many times the odds were computed, to see the cache at work

    def _one_roll(self) -> F:
        faces = self.rules.faces
        return F(sum(f >= self.rules.target for f in faces), len(faces))

    def _within(self, rolls: int) -> F:
        return 1 - (1 - self._one_roll()) ** rolls

    def _odds(self, action):
        type(self).calls += 1
        aim = f"roll {self.rules.target} or more"
        if action is None:
            if self.is_chance_node():
                return Odds(
                    aim=aim,
                    success=self._within(self.shields + 1),
                    subject="the roll",
                    roll=self._one_roll(),
                )
            if not self.shields:
                return None
            choices = (("reroll", self._within(self.shields)), ("give up", F(0)))
            return Odds(
                aim=aim, success=choices[0][1], subject="reroll or give up", choices=choices
            )
        if isinstance(action, Reroll):
            return Odds(aim=aim, success=self._within(self.shields), subject=str(action))
        return None  # giving up rolls no dice


@register_game
class OddsToyGame(ToyGame):
    name = "toy-odds"
    state_class = OddsToyState


def odds_state(**rules):
    return OddsToyGame(rules=ToyRules(**{"faces": LOADED_DIE, **rules})).new_initial_state()


# -- the words -------------------------------------------------------------------------------


def test_phrases_of_a_dice_action_a_roll_and_a_reroll_decision():
    assert odds_phrase(Odds(aim="take the castle", success=F(19, 27))) == (
        "19/27 (70.37%) to take the castle"
    )
    roll = Odds(aim="take it", success=F(7, 8), subject="the roll", roll=F(1, 2))
    assert odds_phrase(roll) == "this roll: 1/2 (50.00%); in all: 7/8 (87.50%) to take it"
    assert odds_phrase(roll, subject=True).startswith("the roll: this roll: 1/2")
    # the last roll of an attempt: this roll is the whole chance, said once
    last = Odds(aim="take it", success=F(1, 2), roll=F(1, 2))
    assert odds_phrase(last) == "1/2 (50.00%) to take it"
    advice = Odds(aim="win", success=F(7, 12), choices=(("keep", F(1, 3)), ("reroll", F(7, 12))))
    assert odds_phrase(advice) == "keep: 1/3 (33.33%) to win; reroll: 7/12 (58.33%) (best)"
    equal = Odds(aim="win", success=F(1, 2), choices=(("a", F(1, 2)), ("b", F(1, 2))))
    assert odds_phrase(equal) == "a: 1/2 (50.00%) to win; b: 1/2 (50.00%) (all the same)"


def test_odds_record_is_json_ready_with_exact_fractions_and_floats():
    advice = Odds(aim="win", success=F(7, 12), choices=(("reroll", F(7, 12)), ("keep", F(1, 3))))
    record = odds_record(advice)
    assert record["success"] == {"fraction": "7/12", "float": 7 / 12}
    assert record["roll"] is None and record["best"] == "reroll"
    assert record["choices"][1] == {
        "choice": "keep",
        "success": {"fraction": "1/3", "float": 1 / 3},
    }
    assert odds_record(None) is None


# -- the model -------------------------------------------------------------------------------


def test_model_gives_the_odds_of_the_roll_being_made():
    model = StepperModel(odds_state())
    # this roll 1/3; with 2 shields, three rolls in all: 1 - (2/3)**3 = 19/27
    assert model.pending_odds().roll == F(1, 3)
    assert model.pending_odds().success == F(19, 27)
    assert model.odds_text() == (
        "the roll: this roll: 1/3 (33.33%); in all: 19/27 (70.37%) to roll 4 or more"
    )


def test_model_advises_at_a_reroll_decision_and_prices_each_dice_action():
    model = StepperModel(odds_state())
    assert model.enter("1")  # failed: reroll with one of the 2 shields, or give up
    # two rolls left: 1 - (2/3)**2 = 5/9; giving up never succeeds
    assert model.odds_text() == (
        "reroll or give up: reroll: 5/9 (55.56%) to roll 4 or more (best); give up: 0 (0.00%)"
    )
    assert model.pending_odds().best == "reroll"
    assert model.action_odds(Reroll()).success == F(5, 9)
    assert model.odds_text(Reroll()) == "5/9 (55.56%) to roll 4 or more"
    assert model.action_odds(GiveUp()) is None and model.odds_text(GiveUp()) == ""
    assert model.play(Reroll()) and model.enter("2")
    # one shield left, one roll: 1/3
    assert model.odds_text(Reroll()) == "1/3 (33.33%) to roll 4 or more"


def test_model_has_no_odds_at_the_end_or_without_a_hook():
    model = StepperModel(odds_state())
    assert model.enter("6") and model.state.is_terminal()
    assert model.pending_odds() is None and model.odds_text() == ""
    plain = StepperModel(ToyGame(rules=ToyRules(faces=LOADED_DIE)).new_initial_state())
    assert plain.odds_text() == "" and plain.pending_odds() is None


def test_odds_are_computed_once_per_position_and_again_after_a_step_or_undo():
    model = StepperModel(odds_state())
    assert model.enter("1")
    before = OddsToyState.calls
    for _ in range(3):
        model.odds_text()
        model.odds_text(Reroll())
        model.odds_text(GiveUp())
    assert OddsToyState.calls - before == 3  # pending, reroll, give up: once each
    model.play(Reroll())
    model.enter("1")
    # one shield left now: one roll, 1/3
    assert model.action_odds(Reroll()).success == F(1, 3)
    model.undo()
    model.undo()
    # back with 2 shields: not the answer remembered for the other position
    assert model.action_odds(Reroll()).success == F(5, 9)


def test_odds_follow_a_loaded_game(tmp_path):
    model = StepperModel(odds_state())
    assert model.enter("1")
    path = tmp_path / "game.json"
    assert model.save(path)
    fresh = StepperModel(odds_state())
    assert fresh.odds_text().startswith("the roll")
    assert fresh.load(path)
    assert fresh.odds_text().startswith("reroll or give up: reroll: 5/9")


def test_cache_refuses_an_illegal_action_without_raising():
    state = odds_state()
    state.apply(Roll(1))
    state.apply(Reroll())
    state.apply(Roll(1))
    state.apply(Reroll())
    state.apply(Roll(1))  # no shield left: a reroll is not legal
    cache = PositionOdds()
    assert cache.get(state, Reroll()) is None
    assert cache.get(state) is None  # nothing left to decide but giving up


# -- the view --------------------------------------------------------------------------------


def test_stepper_shows_the_roll_the_advice_and_the_selected_actions_odds():
    stepper = Stepper(odds_state(), draw=False)
    assert "19/27 (70.37%)" in stepper.advice.value and "odds:" in stepper.advice.value
    stepper.typed.value = "1"
    stepper.enter_button.click()
    advice = stepper.advice.value
    assert "advice:" in advice and "reroll: 5/9 (55.56%) to roll 4 or more (best)" in advice
    stepper.group_select.value = "Reroll"
    assert "5/9 (55.56%) to roll 4 or more" in stepper.action_odds.value
    stepper.group_select.value = "Give up"
    assert stepper.action_odds.value == ""  # no dice
    stepper.typed.value = "6"
    stepper.group_select.value = "Reroll"
    stepper.play_button.click()
    stepper.enter_button.click()
    assert stepper.state.is_terminal() and stepper.advice.value == ""


def test_stepper_asks_only_for_the_odds_it_shows_once_per_position():
    state = odds_state()
    state.apply(Roll(1))
    before = OddsToyState.calls
    stepper = Stepper(state, draw=False)
    assert OddsToyState.calls - before == 2  # the advice and the selected action
    stepper.refresh()
    stepper.filter_text.value = "spend"
    assert OddsToyState.calls - before == 2


# -- the games ---------------------------------------------------------------------------------


def first_odds(name, steps=400, seed=1):
    """A position of a seeded random game with odds (of an action, or of the roll being made
    or the choice at hand) and those odds; every game gives some within a few hundred steps."""
    state = available_games()[name](seed=seed).new_initial_state()
    rng, bot = random.Random(seed), RandomBot()
    with exact_fractions():
        for _ in range(steps):
            if state.is_terminal():
                break
            if state.odds() is not None:
                return state, None, state.odds()
            for action in state.legal_actions():
                odds = state.odds(action)
                if odds is not None:
                    return state, action, odds
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng)
            )
    pytest.fail(f"{name}: no dice action with odds in {steps} steps of a random game")


@pytest.mark.parametrize("name", ["hierro", "carolus", "batalla"])
def test_stepper_shows_each_games_odds(name):
    state, action, odds = first_odds(name)
    assert 0 <= odds.success <= 1
    model = StepperModel(state)
    text = model.odds_text(action)
    assert probability_text(odds.success) in text
    assert text == (odds_phrase(odds) if action is not None else odds_phrase(odds, subject=True))


def test_a_fraction_too_long_to_read_is_shown_as_its_percentage():
    from coronas.formatting import readable_probability as readable
    from coronas.widgets.stepper.view import _with_exact

    # 12 digits or fewer: the fraction and its percentage
    assert readable(F(19, 27)) == "19/27 (70.37%)"
    assert readable(F(123456, 999999)) == "41152/333333 (12.35%)"  # 11 digits once reduced
    # 13 digits above the line: 1234567890123/10**13 = 12.35%, the fraction in the tooltip
    long = F(1234567890123, 10**13)
    assert readable(long) == "12.35%"
    assert readable(long, exact=True) == "1234567890123/10000000000000 (12.35%)"
    odds = Odds(aim="take the castle", success=long, roll=F(1, 2))
    assert odds_phrase(odds) == "this roll: 1/2 (50.00%); in all: 12.35% to take the castle"
    html = _with_exact(odds_phrase(odds), odds_phrase(odds, exact=True))
    assert "title='this roll: 1/2 (50.00%); in all: 1234567890123/10000000000000 (12.35%)" in html
    assert _with_exact("1/2 (50.00%)", "1/2 (50.00%)") == "<b>1/2 (50.00%)</b>"  # no tooltip
