"""The generic stepper and calculator, driven as a person would: values set, buttons clicked.

The toy game (tests/toygame.py): roll a d6, succeed on 4 or more; after a failure spend one
of 2 shields to roll again, or give up.
"""

import dataclasses
import json
from fractions import Fraction as F
from html import escape
from pathlib import Path

import pytest

from coronas.dice import Die
from coronas.engine import Action
from coronas.widgets import Calculator, DiceModel, Stepper, StepperModel, parse_outcome
from coronas.widgets.stepper import action_group
from tests.toygame import GiveUp, Reroll, Roll, ToyGame, ToyRules


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
    assert model.status.startswith("Roll the dice or draw: ")


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
    assert model.results() == [("player 1", 0)]
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
    assert model.bot_move() is None and "no bot plays for player 1" in model.message
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
    assert model.log[-1] == "Ada: give up" and model.status.endswith(": Ada wins")
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
    assert "Scores:" in view.results.value and "player 1: 0" in view.results.value
    assert "player 1: give up" in view.log.value

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


def test_model_log_of_a_state_with_history_reads_as_if_played_here():
    state = new_state()
    state.apply(Roll(2))
    state.apply(Reroll())
    model = StepperModel(state, names=["Ada"])
    assert model.log == [
        "chance: roll 2  (probability 1/6 (16.67%))",
        "Ada: spend a shield and reroll",
    ]


# -- saving and loading -----------------------------------------------------------------------


def played_view(**kwargs):
    """A stepper on the toy game after two steps: a roll of 2 and a reroll."""
    view = Stepper(new_state(), seed=1, draw=False, **kwargs)
    view.typed.value = "2"
    view.enter_button.click()
    view.group_select.value = "Reroll"
    view.play_button.click()
    assert view.state.history == [Roll(2), Reroll()]
    return view


def test_stepper_view_saves_and_loads_with_its_buttons(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    view = played_view()
    name = view.file_text.value
    assert name.startswith("saves/toy-") and name.endswith(".json")
    view.save_button.click()
    saved = json.loads((tmp_path / name).read_text())
    assert saved["game"] == "toy" and saved["actions"] == [
        {"type": "Roll", "value": 2},
        {"type": "Reroll"},
    ]
    assert f"saved 2 steps to {name}" in view.message.value
    assert "color:#555" in view.message.value  # a note, not an error

    # a fresh stepper loads it: the game, the log and everything shown are the same
    other = Stepper(new_state(), seed=5, draw=False)
    assert other.file_text.value != name  # every stepper has a file of its own
    other.file_text.value = name
    rng = other.model.rng
    other.load_button.click()
    assert f"loaded 2 steps from {name}" in other.message.value
    assert other.state == view.state and other.state.to_json() == view.state.to_json()
    assert other.state.is_chance_node() and other.chance_html.value == view.chance_html.value
    assert (
        other.model.log
        == view.model.log
        == [
            "chance: roll 2  (probability 1/6 (16.67%))",
            "player 1: spend a shield and reroll",
        ]
    )
    assert other.log.value == view.log.value and other.status.value == view.status.value
    assert other.model.rng is rng  # the dice keep their seeded RNG
    # the loaded game goes on: undo, then a bot move
    other.undo_button.click()
    assert other.state.history == [Roll(2)] and other.state.legal_actions() == [
        Reroll(),
        GiveUp(),
    ]
    other.bot_button.click()
    assert len(other.state.history) == 2 and len(other.model.log) == 2


def test_two_steppers_of_one_position_default_to_files_of_their_own(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first, second = Stepper(new_state(), draw=False), Stepper(new_state(), draw=False)
    names = {first.file_text.value, second.file_text.value}
    assert len(names) == 2 and all(n.startswith("saves/toy-") for n in names)
    first.save_button.click()
    second.save_button.click()
    assert len(list((tmp_path / "saves").iterdir())) == 2  # neither overwrote the other
    # the box is wide enough for the name in full (about 0.6em a character, and "File")
    assert all(len(n) * 0.6 + 3 < 24 for n in names)
    assert first.file_text.layout.width == "24em"


def test_a_saved_game_loads_back_equal_with_its_rules(tmp_path):
    def keen(state, rng):  # reroll while a shield is left
        return state.legal_actions()[0]

    # 7 is never rolled: 3 rolls, 2 rerolls and the forced give-up
    model = StepperModel(new_state(target=7, faces=(1, 2, 3, 6, 6, 6)), bots=keen, seed=2)
    model.play_to_end()
    path = tmp_path / "toy.json"
    assert model.save(path) and model.message == f"saved 6 steps to {path}"
    other = StepperModel(new_state(), seed=2)
    assert other.load(str(path))
    assert other.state == model.state and other.state.rules == model.state.rules
    assert other.results() == model.results() and other.log == model.log


def _write(path, content):
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)


def _other_game(path):
    from coronas.batalla import Game

    Game(seed=1).new_initial_state().save(path)


LOAD_ERRORS = {
    "missing": (None, "cannot read the file (No such file or directory)"),
    "a folder": (lambda p: p.mkdir(), "not a regular file"),
    "not JSON": (lambda p: _write(p, "my notes"), "not valid JSON (line 1, column 1"),
    "not text": (lambda p: _write(p, b"\x89PNG\r\n\x1a\n\xff\x00"), "not UTF-8 text"),
    "other JSON": (lambda p: _write(p, '{"a": 1}'), "not a coronas saved game"),
    "damaged": (
        lambda p: _write(p, '{"format": "coronas-game", "version": 1, "game": "toy"}'),
        "actions: expected a list",
    ),
    "another game": (_other_game, "holds a batalla game, not a toy game"),
}


def _shown(view):
    """Everything about the stepper but its message: to check that a failure changed nothing."""
    model = view.model
    return (
        model.state.to_json(),
        list(model.state.history),
        model.state.legal_actions(),
        list(model.log),
        model.rng.getstate(),
        [getattr(view, name).value for name in ("status", "board", "log", "chance_html")],
    )


@pytest.mark.parametrize("case", LOAD_ERRORS)
def test_a_failed_load_changes_nothing_and_names_the_file(tmp_path, case):
    make, reason = LOAD_ERRORS[case]
    path = tmp_path / "saves" / "game.json"
    path.parent.mkdir()
    if make is not None:
        make(path)
    view = played_view(file=str(path))
    before = _shown(view)
    view.load_button.click()
    assert _shown(view) == before
    assert f"{path}: " in view.model.message and reason in view.model.message
    assert "color:#a00" in view.message.value and escape(str(path)) in view.message.value


SAVE_ERRORS = {
    "no such folder": ("missing/game.json", "cannot write the file (No such file or directory)"),
    "a folder": (".", "cannot write the file (Is a directory)"),
    "under a file": ("taken/game.json", "cannot write the file (Not a directory)"),
}


@pytest.mark.parametrize("case", SAVE_ERRORS)
def test_a_failed_save_changes_nothing_and_names_the_file(tmp_path, case):
    name, reason = SAVE_ERRORS[case]
    (tmp_path / "taken").write_text("a file, not a folder")
    path = tmp_path / name
    view = played_view(file=str(path))
    before = _shown(view)
    view.save_button.click()
    assert _shown(view) == before
    assert view.model.message == f"{path}: {reason}"
    assert "color:#a00" in view.message.value


def test_save_into_a_folder_that_cannot_be_written(tmp_path, monkeypatch):
    # As root every folder is writable, so the refusal of a read-only one is simulated.
    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "write_text", refuse)
    path = tmp_path / "locked" / "game.json"
    model = StepperModel(new_state())
    model.roll()
    before = (model.state.clone(), list(model.log))
    assert not model.save(path)
    assert model.message == f"{path}: cannot write the file (Permission denied)"
    assert (model.state, model.log) == before


def test_save_and_load_need_a_file_name():
    view = played_view(file="  ")
    before = _shown(view)
    view.save_button.click()
    assert "type the name of the file to save to" in view.message.value
    view.load_button.click()
    assert "type the name of the file to load" in view.message.value
    assert _shown(view) == before


# -- the calculator ---------------------------------------------------------------------------


def test_dice_calculator_updates_on_every_change():
    calc = Calculator(DiceModel())
    # P(at least 4 on a d6) = 3/6 = 1/2
    assert calc.answer.values == {"P(at least 4 on faces 1, 2, 3, 4, 5, 6 with no reroll)": F(1, 2)}
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
