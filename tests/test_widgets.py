"""The generic stepper and calculator, driven as a person would: values set, buttons clicked.

The toy game (tests/toygame.py): roll a d6, succeed on 4 or more; after a failure spend one
of 2 shields to roll again, or give up.
"""

import dataclasses
from fractions import Fraction as F

import pytest

from coronas.dice import Die
from coronas.engine import Action
from coronas.widgets import Calculator, DiceModel, Stepper, StepperModel, parse_outcome
from coronas.widgets.stepper import action_group
from tests.toygame import GiveUp, Reroll, Roll, ToyGame, ToyRules

pytest.importorskip("ipywidgets")


def new_state(**rules):
    return ToyGame(rules=ToyRules(**rules)).new_initial_state()


# -- the model ------------------------------------------------------------------------------


def test_chance_table_has_exact_probabilities():
    model = StepperModel(new_state(faces=(1, 1, 2, 3, 4, 6)))
    # the face 1 appears twice among six faces: 2/6 = 1/3
    assert model.chance_table() == [
        (Roll(1), F(1, 3)),
        (Roll(2), F(1, 6)),
        (Roll(3), F(1, 6)),
        (Roll(4), F(1, 6)),
        (Roll(6), F(1, 6)),
    ]
    assert model.status.startswith("Chance")


def test_typed_roll_accepts_number_or_wording_and_rejects_impossible():
    model = StepperModel(new_state(faces=(1, 1, 2, 3, 4, 6)))
    assert not model.enter("5")  # there is no 5 on this die
    assert "not a possible outcome" in model.message and "roll 6" in model.message
    assert not model.enter("")
    assert "type what was rolled" in model.message
    assert not model.enter("three")
    assert model.state.history == [] and model.log == []
    assert model.enter(" Roll 3 ")
    assert model.state.history == [Roll(3)] and model.message == ""
    assert model.log == ["chance: roll 3  (probability 1/6 (16.67%))"]
    assert not model.enter("4")  # now a decision is due, not a roll
    assert "choose an action" in model.message


@dataclasses.dataclass(frozen=True)
class TwoDice(Action):
    low: int
    high: int

    def __str__(self):
        return f"rolled {self.low} and {self.high}"


@dataclasses.dataclass(frozen=True)
class Draw(Action):
    family: str

    def __str__(self):
        return f"draw a {self.family} knight"


def test_parse_outcome_for_two_dice_in_either_order_and_for_cards():
    pairs = [TwoDice(a, b) for a in range(1, 7) for b in range(a, 7)]
    assert parse_outcome("3 5", pairs) == TwoDice(3, 5)
    assert parse_outcome("5,3", pairs) == TwoDice(3, 5)
    assert parse_outcome("rolled 2 and 2", pairs) == TwoDice(2, 2)
    with pytest.raises(ValueError, match=r"'7 1' is not a possible outcome.* and 9 more"):
        parse_outcome("7 1", pairs)
    cards = [Draw("red"), Draw("blue"), Draw("joker")]
    assert parse_outcome("Joker", cards) == Draw("joker")
    with pytest.raises(ValueError, match="not a possible outcome"):
        parse_outcome("green", cards)


def test_play_illegal_action_keeps_state_and_says_why():
    model = StepperModel(new_state(shields=0))
    model.enter("1")
    before = model.state.clone()
    assert model.action_groups() == {"Give up": [GiveUp()]}
    assert not model.play(Reroll())
    assert model.message == "no shield left to spend on a reroll"
    assert model.state == before and len(model.log) == 1


def test_seeded_roll_is_reproducible_and_logged():
    a, b = StepperModel(new_state(), seed=7), StepperModel(new_state(), seed=7)
    assert a.roll() == b.roll()
    assert a.log == b.log and a.log[0].startswith("chance: roll ")


def test_bot_moves_undo_and_scores():
    def keen(state, rng):  # reroll while a shield is left
        return state.legal_actions()[0]

    model = StepperModel(new_state(target=7), bots=keen, seed=3)  # 7 is never rolled
    steps = model.play_to_end()
    # never succeeding: 3 rolls, 2 rerolls and the forced give-up = 6 steps
    assert steps == 6 and model.state.is_terminal()
    assert model.results() == [("player 0", 0)]
    assert model.status.startswith("Game over after 6 steps")
    assert model.undo() == GiveUp()
    assert model.state.legal_actions() == [GiveUp()] and len(model.log) == 5
    while model.state.history:
        model.undo()
    assert model.undo() is None and "nothing to undo" in model.message
    assert model.bot_move() is not None  # a roll at the chance node


def test_bots_per_seat_and_missing_bot():
    model = StepperModel(new_state(target=7), bots={}, seed=0)
    model.roll()
    assert model.bot_move() is None and "no bot plays for player 0" in model.message
    calls = []

    def always_give_up(state, rng):
        calls.append(state.current_player)
        return GiveUp()

    model = StepperModel(new_state(target=7), bots=[always_give_up], seed=0)
    model.play_to_end()
    assert calls == [0] and model.state.history[-1] == GiveUp()


def test_player_names():
    model = StepperModel(new_state(target=7), names=["Ada"])
    model.roll()
    model.play(GiveUp())
    assert model.log[-1] == "Ada: give up" and model.status.endswith("Winner(s): Ada")
    with pytest.raises(ValueError, match="expected 1 names, got 2"):
        StepperModel(new_state(), names=["Ada", "Bo"])


def test_action_group_names():
    assert action_group(GiveUp()) == "Give up"
    assert action_group(Reroll()) == "Reroll"


# -- the view -------------------------------------------------------------------------------


def test_stepper_view_roll_type_choose_undo():
    view = Stepper(new_state(), seed=1, draw=False)
    assert view.chance_box.layout.display is None
    assert view.decision_box.layout.display == "none"
    assert "last roll None, 2 shields left" in view.status.value  # the state's own line
    assert "<b>1/6</b>" in view.chance_html.value and "16.67%" in view.chance_html.value

    view.typed.value = "8"
    view.enter_button.click()
    assert "&#x27;8&#x27; is not a possible outcome" in view.message.value
    assert view.state.history == []

    view.typed.value = "2"
    view.enter_button.click()
    assert view.state.history == [Roll(2)] and view.typed.value == ""
    assert view.decision_box.layout.display is None and view.chance_box.layout.display == "none"
    assert [label for label, _ in view.group_select.options] == ["Reroll (1)", "Give up (1)"]

    view.group_select.value = "Give up"
    assert view.action_select.options == (("give up", 0),)
    view.play_button.click()
    assert view.state.is_terminal()
    assert "Scores:" in view.results.value and "player 0: 0" in view.results.value
    assert "player 0: give up" in view.log.value

    view.undo_button.click()
    assert view.state.history == [Roll(2)] and "undone: give up" in view.message.value
    view.filter_text.value = "shield"
    assert view.action_select.options == (("spend a shield and reroll", 0),)
    view.play_button.click()
    assert view.state.shields == 1 and view.state.is_chance_node()

    view.outcome_select.value = 5  # the sixth outcome: roll 6
    view.take_button.click()
    assert view.state.history[-1] == Roll(6) and view.state.is_terminal()


def test_stepper_view_bot_and_play_to_end():
    view = Stepper(new_state(target=7), seed=2, draw=False)
    view.bot_button.click()
    assert len(view.state.history) == 1 and view.state.current_player == 0
    view.end_button.click()
    assert view.state.is_terminal() and "Game over" in view.status.value
    view.roll_button.click()
    assert "nothing to roll" in view.message.value


def test_stepper_view_uses_a_drawing_and_survives_a_broken_one():
    def broken(state):
        raise RuntimeError("no ink")

    view = Stepper(new_state(), draw=broken)
    assert "the drawing failed: no ink" in view.board.value
    assert "last roll None" in view.board.value  # falls back to the state's own text

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    def picture(state):
        fig = Figure()
        fig.add_subplot().set_title(str(state))
        return fig

    view = Stepper(new_state(), draw=picture)
    assert view.board.value.startswith("<img") and "base64," in view.board.value


# -- the calculator ---------------------------------------------------------------------------


def test_dice_calculator_updates_on_every_change():
    calc = Calculator(DiceModel())
    # P(at least 4 on a d6) = 3/6 = 1/2
    assert calc.answer.values == {
        "P(at least 4 on faces 1, 2, 3, 4, 5, 6 with up to 0 rerolls)": F(1, 2)
    }
    assert "<b>1/2</b>" in calc.output.value and "50.00%" in calc.output.value
    calc.inputs["target"].value = 6
    calc.inputs["rerolls"].value = 2
    # failing three times: (5/6)**3 = 125/216, so 1 - 125/216 = 91/216
    assert list(calc.answer.values.values()) == [F(91, 216)]
    assert "91/216" in calc.output.value
    calc.inputs["faces"].value = "1, 1, 6"
    # failing on a 1 twice in three faces: 1 - (2/3)**3 = 19/27
    assert list(calc.answer.values.values()) == [F(19, 27)]


def test_calculator_shows_errors_instead_of_raising():
    calc = Calculator(DiceModel())
    calc.inputs["faces"].value = "1, 2, x"
    assert calc.answer.error and "faces must be whole numbers; &#x27;x&#x27;" in calc.output.value
    calc.inputs["faces"].value = ""
    assert "type the faces" in calc.output.value
    with pytest.raises(KeyError, match="has no input 'sides'"):
        DiceModel(sides=6)


def test_parse_outcome_rules():
    outcomes = [Roll(1), Roll(2)]
    assert parse_outcome("2", outcomes) == Roll(2)
    assert parse_outcome("ROLL 1", outcomes) == Roll(1)
    with pytest.raises(ValueError, match="fits more than one outcome"):
        parse_outcome("roll", outcomes)
    assert Die([1]).outcomes() == (1,)
