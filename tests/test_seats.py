"""Seats as people read and type them: the game's names or numbers counted from one."""

from __future__ import annotations

import pytest

from coronas.batalla import Game as Batalla
from coronas.carolus import Game as Carolus
from coronas.engine import parse_seat, seat_names
from coronas.hierro import Game as Hierro


def test_each_game_names_its_seats_counting_from_one():
    assert seat_names(Hierro(players=3)) == ["red", "green", "blue"]
    assert seat_names(Batalla()) == ["player 1", "player 2"]
    state = Carolus(players=3).new_initial_state()
    assert seat_names(state) == ["player 1", "player 2", "player 3"]


def test_carolus_texts_count_players_from_one():
    from coronas.carolus import Position
    from coronas.carolus.actions import SetOrder

    assert str(SetOrder((2, 0, 1))) == "initial order: player 3, player 1, player 2"
    pos = Position(phase="replenish", chosen=(1, 2), courts=({"red": 1}, {"red": 2}))
    state = Carolus(players=2, position=pos).new_initial_state()
    text = str(state)
    assert "order: player 1 (disc 1), player 2 (disc 2)" in text
    assert "player 0" not in text and "player 0" not in state.observation_text(1)
    assert state.observation_text(1).startswith("Carolus Magnus seen by player 2")


@pytest.mark.parametrize(
    ("game", "text", "seat"),
    [
        (Hierro(players=3), "red", 0),
        (Hierro(players=3), " Blue ", 2),
        (Hierro(players=3), "2", 1),  # the second seat, green
        (Batalla(), "Player 2", 1),
        (Batalla(), "player  1", 0),
        (Batalla(), "1", 0),
        (Carolus(players=3), "player 3", 2),
        (Carolus(players=3), "3", 2),
    ],
)
def test_a_seat_is_read_by_name_or_by_its_number_from_one(game, text, seat):
    assert parse_seat(game, text) == seat
    assert parse_seat(game.new_initial_state(), text) == seat


@pytest.mark.parametrize("text", ["0", "4", "purple", "", "-1", "player 0", "२", "1.0"])
def test_a_seat_that_is_not_there_is_refused_with_the_seats_listed(text):
    game = Hierro(players=3)
    message = f"no seat {text!r}: the seats are red, green, blue (or 1 to 3)"
    with pytest.raises(ValueError) as caught:
        parse_seat(game, text)
    assert str(caught.value) == message


def test_the_refusal_lists_the_players_of_a_game_without_colours():
    with pytest.raises(ValueError, match=r"the seats are player 1, player 2 \(or 1 to 2\)"):
        parse_seat(Batalla(), "3")
