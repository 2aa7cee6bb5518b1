"""The stepper says who plays each seat, by the game's names, and takes seats as people name
them (model level, no browser)."""

from __future__ import annotations

import pytest

from coronas.batalla import Game as Batalla
from coronas.hierro import Game as Hierro
from coronas.hierro.bots import GreedyBot
from coronas.widgets import StepperModel


def test_each_seat_is_listed_with_its_bot_or_as_a_person():
    model = StepperModel(Batalla(seed=1).new_initial_state(), bots={1: "greedy"}, seed=1)
    assert model.bot_name(0) is None and model.bot_name(1) == "greedy"
    assert [model.seat_label(p) for p in range(2)] == ["player 1: person", "player 2: greedy"]
    assert model.seats_text() == "Seats: player 1: person, player 2: greedy"
    assert [label for label, _ in model.view_options()][1:3] == [
        "seat: player 1 (person)",
        "seat: player 2 (greedy)",
    ]


def test_bots_may_be_keyed_by_a_seat_name_or_its_number_from_one():
    state = Hierro(players=3, seed=1).new_initial_state()
    model = StepperModel(state, bots={"Green": "mcts:5", "3": GreedyBot()}, seed=1)
    assert model.seats_text() == "Seats: red: person, green: mcts:5, blue: greedy"
    # a 0-based key is the Python API's seat: 0 is red
    model = StepperModel(state, bots={0: "greedy"}, seed=1)
    assert model.seat_label(0) == "red: greedy" and model.bot_name(1) is None
    # one bot for every seat, or one per seat
    assert StepperModel(state, seed=1).seat_label(2) == "blue: random"
    listed = StepperModel(state, bots=["light", "greedy", "random"], seed=1)
    assert listed.seats_text() == "Seats: red: light, green: greedy, blue: random"


def test_a_bot_for_a_seat_that_is_not_there_is_refused():
    state = Batalla(seed=1).new_initial_state()
    with pytest.raises(ValueError, match=r"bots: no seat 2: the keys are seats 0 to 1 or"):
        StepperModel(state, bots={2: "greedy"})
    with pytest.raises(ValueError, match=r"no seat 'red': the seats are player 1, player 2"):
        StepperModel(state, bots={"red": "greedy"})


def test_the_bot_move_plays_for_the_seat_named():
    state = Batalla(seed=1).new_initial_state()
    model = StepperModel(state, bots={"player 2": "greedy"}, seed=1)
    movers = set()
    while len(movers) < 2 and not model.state.is_terminal():
        player = model.state.current_player
        if model.state.is_chance_node():
            model.roll()
        elif player == 1:
            assert model.bot_move() is not None  # player 2's greedy bot
            movers.add(player)
        else:
            assert model.bot_move() is None and model.message == "no bot plays for player 1"
            assert model.play(model.state.legal_actions()[0])
            movers.add(player)
    assert movers == {0, 1}


def test_humans_may_be_named_as_people_say_them():
    state = Hierro(players=3, seed=1).new_initial_state()
    model = StepperModel(state, seed=1, view="pass", humans=["red", "3"])
    assert model.humans == frozenset({0, 2})
    with pytest.raises(ValueError, match=r"no seat 'purple': the seats are red, green, blue"):
        StepperModel(state, seed=1, view="pass", humans=["purple"])
