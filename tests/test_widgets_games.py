"""The game calculators, the map viewer and the stepper on the three real games.

Expected values are worked out by hand in the comments; the widgets are driven by setting
input values and clicking buttons, as a person would.
"""

from fractions import Fraction as F

import pytest

from coronas.widgets import Calculator, Stepper, StepperModel
from coronas.widgets.calculators import (
    BatallaBattleModel,
    CarolusDrawsModel,
    CastleAssaultModel,
    DiplomacyModel,
    EmissaryRaceModel,
    HierroBattleModel,
)
from coronas.widgets.mapview import MapModel, MapViewer


@pytest.fixture(autouse=True)
def _agg():
    import matplotlib

    matplotlib.use("Agg")


def value(calc, label_start):
    (found,) = [v for k, v in calc.answer.values.items() if k.startswith(label_start)]
    return found


# -- Corona de Hierro ---------------------------------------------------------------------------


def test_castle_assault_calculator():
    calc = Calculator(CastleAssaultModel())
    # 4+ on the red d6, no shield: 3/6 = 1/2
    assert value(calc, "P(the action succeeds") == F(1, 2)
    calc.inputs["target"].value = 5
    calc.inputs["army"].value = 2
    calc.inputs["shields"].value = 1
    # 5+ on the yellow d6 with one reroll: 1 - (4/6)**2 = 5/9
    assert value(calc, "P(the action succeeds") == F(5, 9)
    assert value(calc, "P(one roll succeeds") == F(1, 3)
    assert "<b>5/9</b>" in calc.output.value and "yellow die" in calc.output.value
    calc.inputs["target"].value = 4
    calc.inputs["army"].value = 1
    calc.inputs["shields"].value = 0
    calc.inputs["troops_inside"].value = True
    # two successes at p = 1/2 each: 2 / (1/2) = 4 actions on average
    assert "actions until taken (mean): 4 (4.000)" in calc.answer.text


def test_diplomacy_and_emissary_race_calculators():
    calc = Calculator(DiplomacyModel(target=2))
    # the rulebook's example: 2+ on the red die (legitimacy 2) is 5/6
    assert value(calc, "P(the action succeeds") == F(5, 6)
    assert "red die" in calc.answer.text
    calc.inputs["legitimacy"].value = 10
    assert "green die" in calc.answer.text
    race = Calculator(EmissaryRaceModel(target=2, attempts=1))
    # one roll each, p = 5/6 each: first wins p / (1 - q**2) = (5/6) / (35/36) = 6/7
    assert value(race, "P(first") == F(6, 7) and value(race, "P(second") == F(1, 7)
    race.inputs["attempts"].value = 2
    race.inputs["target"].value = 4
    # two rolls a turn at p = 1/2: a turn fails with 1/4; first wins (3/4) / (1 - 1/16) = 4/5
    assert value(race, "P(first") == F(4, 5)


def test_hierro_battle_calculator_with_heatmap_and_policy():
    calc = Calculator(HierroBattleModel(attacker=1, defender=1))
    # one d6 each, the attacker wins ties: 21/36 = 7/12
    assert value(calc, "P(attacker wins)") == F(7, 12)
    assert calc.figure.value.startswith("<img")
    calc.inputs["attacker"].value = 2
    # win the first roll (7/12), or lose it and win 1 v 1 (5/12 * 7/12): 119/144
    assert value(calc, "P(attacker wins)") == F(119, 144)
    calc.inputs["attacker"].value = 1
    calc.inputs["defender_shields"].value = 1
    # the defender rerolls any losing die: the attacker must beat two rolls,
    # sum over x of (1/6) (x/6)**2 = 91/216
    assert value(calc, "P(attacker wins)") == F(91, 216)
    assert "reroll a losing die" in calc.output.value
    assert calc.answer.values["policy"]


def test_a_fraction_too_long_to_read_shows_its_percentage_and_a_tooltip():
    from html import escape

    calc = Calculator(
        HierroBattleModel(attacker=8, defender=8, attacker_shields=7, defender_shields=8)
    )
    p = value(calc, "P(attacker wins)")
    assert len(str(p.denominator)) > 12
    line = next(x for x in calc.answer.text.splitlines() if x.startswith("P(attacker wins)"))
    assert line == f"P(attacker wins) = {float(p) * 100:.2f}%", line
    assert f"title='{escape(str(p))}'" in calc.answer.html
    calc.inputs["attacker"].value = 1
    calc.inputs["defender"].value = 1
    calc.inputs["attacker_shields"].value = 0
    calc.inputs["defender_shields"].value = 0
    assert "P(attacker wins) = 7/12 (58.33%)" in calc.answer.text


def test_map_viewer_routes_and_castles_within():
    model = MapModel(draw=False, city="Friuli", target="Trento", moves=0)
    answer = model.answer()
    # the rulebook: Friuli and Trento are two moves apart, through Belluno
    assert answer.values["route"] == ["Friuli", "Belluno", "Trento"]
    assert answer.values["moves"] == 2
    assert answer.values["castles"] == {"Friuli": 0}
    model.set(moves=2)
    within = model.answer().values["castles"]
    assert within["Friuli"] == 0 and all(d <= 2 for d in within.values()) and len(within) > 1
    model.set(city="Nowhere")
    assert model.answer().error and "no city 'Nowhere'" in model.answer().text


def test_map_viewer_widget_draws_the_route():
    viewer = MapViewer(city="Friuli", target="Trento")
    assert viewer.figure.value.startswith("<img")
    viewer.inputs["target"].value = "Friuli"
    assert viewer.answer.values["route"] == ["Friuli"]
    assert "<b>0</b> move actions" in viewer.output.value


# -- Batalla de Coronas and Carolus Magnus --------------------------------------------------------


def test_batalla_battle_calculator():
    calc = Calculator(BatallaBattleModel())
    # 2 swords v 2 shields: the attacker must win by 2 or more, 10 of 36 rolls = 5/18
    assert value(calc, "P(gem) with optimal") == F(5, 18)
    assert value(calc, "P(gem) if nobody") == F(5, 18)  # no gold, no reroll
    calc.inputs["swords"].value = 3
    calc.inputs["shields"].value = 1
    # any win takes the last shield: 15/36 = 5/12 without rerolls
    assert value(calc, "P(gem) if nobody") == F(5, 12)
    calc.inputs["attacker_gold"].value = 1
    assert value(calc, "P(gem) with optimal") > F(5, 12)  # a paid reroll after a loss helps


def test_carolus_draws_calculator():
    calc = Calculator(CarolusDrawsModel())
    # P(red or joker) = 2/6 = 1/3; at least 2 of 3: 3 (1/3)**2 (2/3) + (1/3)**3 = 7/27
    assert list(calc.answer.values.values()) == [F(7, 27)]
    calc.inputs["draws"].value = 2
    assert list(calc.answer.values.values()) == [F(1, 9)]  # (1/3)**2
    calc.inputs["family"].value = calc.inputs["family"].options[-1][1]
    assert list(calc.answer.values.values()) == [F(1, 9)]  # every family is alike


# -- the stepper on real games ---------------------------------------------------------------------


def test_stepper_on_batalla_typed_dice_and_play_to_end():
    from coronas.batalla import Game

    model = StepperModel(Game(seed=1).new_initial_state(), seed=4)
    # the roll-off: ties are rolled again, so 3 against 3 is not an outcome; 30 ordered pairs
    assert len(model.chance_table()) == 30
    assert not model.enter("3 3") and "not a possible outcome" in model.message
    assert model.enter("1 6")
    assert model.log[-1].endswith("(probability 1/30 (3.33%))")
    # the decision dice, typed high first: (1, 6) has probability 2/36 = 1/18
    assert model.enter("6 1") and "1/18" in model.log[-1]
    model.play_to_end()
    assert model.state.is_terminal() and model.results() is not None
    steps = len(model.state.history)
    model.undo()
    assert len(model.state.history) == steps - 1 and not model.state.is_terminal()


@pytest.mark.parametrize("game", ["hierro", "carolus"])
def test_stepper_draws_the_board_and_plays(game):
    import importlib

    Game = importlib.import_module(f"coronas.{game}").Game
    view = Stepper(Game(players=3, seed=2).new_initial_state(), seed=5)
    assert view.board.value.startswith("<img")
    view.bot_button.click()
    view.bot_button.click()
    assert len(view.state.history) == 2 and len(view.model.log) == 2
    view.undo_button.click()
    assert len(view.state.history) == 1
    view.end_button.click()
    assert view.state.is_terminal() and "Scores:" in view.results.value


def test_stepper_offers_and_logs_actions_in_the_games_own_words():
    # Corona de Hierro describes an attack with the die and the number it needs, and names
    # players by colour; the stepper shows and logs that, and the status line says the roll.
    from coronas.hierro import Game

    position = Game(players=3, seed=1).position(
        castles={"Verona": 1}, armies={"Verona": {0: 3}, "Brescia": {0: 2, 2: 1}}
    )
    view = Stepper(position, draw=False)
    view.group_select.value = "Attack castle"
    castle = (
        "attack castle Verona with 3 armies (green die, needs 5 to drive out the troops inside)"
    )
    brescia = "attack castle Brescia with 2 armies (yellow die, needs 4)"  # neutral, no troops
    assert [label for label, _ in view.action_select.options] == [castle, brescia]
    view.group_select.value = "Attack army"
    battle = "attack blue's army in Brescia, 2 against 1 (yellow die against red die)"
    assert [label for label, _ in view.action_select.options] == [battle]
    view.filter_text.value = "blue"  # the filter searches the same words
    assert len(view.action_select.options) == 1
    view.filter_text.value = ""
    view.group_select.value = "Attack castle"
    view.play_button.click()
    assert view.model.log == [f"red: {castle}"]
    assert "red attacks the castle of Verona: red rolls the green die, needs 5+." in (
        view.status.value
    )
    assert view.model.enter("6")
    assert view.model.log[-1] == "chance: red rolls 6 on the green die  (probability 1/6 (16.67%))"


GAMES = {"hierro": 3, "carolus": 3, "batalla": 2}


@pytest.mark.parametrize("game", GAMES)
def test_stepper_saves_and_loads_each_game_equal(game, tmp_path):
    import importlib

    Game = importlib.import_module(f"coronas.{game}").Game
    view = Stepper(Game(players=GAMES[game], seed=7).new_initial_state(), seed=7, draw=False)
    for _ in range(40):
        view.bot_button.click()
    view.file_text.value = str(tmp_path / f"{game}.json")
    view.save_button.click()
    assert "saved 40 steps to" in view.message.value

    fresh = Stepper(Game(players=GAMES[game], seed=1).new_initial_state(), seed=1, draw=False)
    fresh.file_text.value = view.file_text.value
    fresh.load_button.click()
    assert "loaded 40 steps from" in fresh.message.value
    assert fresh.state == view.state and fresh.state.to_json() == view.state.to_json()
    assert fresh.state.legal_actions() == view.state.legal_actions()
    assert fresh.state.chance_outcomes() == view.state.chance_outcomes()
    assert fresh.model.log == view.model.log
    assert fresh.status.value == view.status.value and fresh.log.value == view.log.value
    fresh.end_button.click()  # the loaded game plays on to the end
    assert fresh.state.is_terminal()


def test_stepper_load_redraws_the_map(tmp_path):
    from coronas.hierro import Game

    played = StepperModel(Game(players=3, seed=4).new_initial_state(), seed=4)
    for _ in range(12):
        played.bot_move()
    assert played.save(tmp_path / "game.json")
    view = Stepper(Game(players=3, seed=4).new_initial_state(), file=str(tmp_path / "game.json"))
    empty_map = view.board.value
    view.load_button.click()
    assert view.board.value.startswith("<img") and view.board.value != empty_map
    assert view.state == played.state


def test_stepper_saves_a_hand_set_position_and_loads_it_back(tmp_path):
    from coronas.hierro import Game

    position = Game(players=3, seed=1).position(castles={"Verona": 1}, armies={"Verona": {0: 3}})
    view = Stepper(position, draw=False, file=str(tmp_path / "game.json"))
    view.group_select.value = "Attack castle"
    view.play_button.click()  # red attacks Verona: the die is about to be rolled
    played, log = view.state.clone(), list(view.model.log)
    view.save_button.click()
    assert view.model.message == f"saved 1 step to {tmp_path / 'game.json'}"
    view.undo_button.click()
    assert view.state != played
    view.load_button.click()
    assert view.state == played and view.state.history == played.history
    assert view.model.log == log and view.state.is_chance_node()


def test_stepper_loads_a_game_for_more_players(tmp_path):
    from coronas.carolus import Game

    path = tmp_path / "game.json"
    three = StepperModel(Game(players=3, seed=2).new_initial_state(), seed=2)
    for _ in range(5):
        three.bot_move()
    three.save(path)
    named = StepperModel(Game(players=2, seed=2).new_initial_state(), names=["Ada", "Bo"])
    assert not named.load(path) and named.state.num_players == 2
    assert named.message == f"{path}: a game for 3 players, but this stepper names 2"
    # the same bot (by default a random one) plays every seat of the loaded game
    model = StepperModel(Game(players=2, seed=2).new_initial_state())
    assert model.load(path) and model.state.num_players == 3
    model.play_to_end()
    assert model.state.is_terminal()


def test_the_stepper_seats_bots_by_name():
    from coronas.batalla import Game
    from coronas.engine import MCTSBot
    from coronas.widgets import StepperModel

    state = Game(seed=2).new_initial_state()
    model = StepperModel(state, bots={0: "mcts:20", 1: "greedy"}, seed=4)
    assert isinstance(model._bots[0].__self__, MCTSBot)
    assert model.play_to_end() > 0 and model.state.is_terminal()
    with pytest.raises(ValueError, match="did you mean 'greedy'"):
        StepperModel(Game(seed=2).new_initial_state(), bots="gredy")
