"""Games saved before the engine was split into modules load back the same.

Each fixture is a game saved with ``state.to_json()`` and its ``str(state)`` written at the
same time. Loading it replays every action on today's code, so a change in what an action
does, in the order of the legal actions or in the text of a state shows up here.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from coronas.carolus import CarolusState, Game, Position
from coronas.engine import RandomBot, State, play

FIXTURES = Path(__file__).parent / "fixtures"


def random_game() -> CarolusState:
    """A 3-player game played to its end by random bots (seed and rng 2024)."""
    return play(Game(players=3, seed=2024).new_initial_state(), RandomBot(), rng=2024)


HAND_SET = Position(
    knights={3: {"red": 2, "blue": 1}, 7: {"green": 1}, 14: {"pink": 2}},
    merged=((14, 15, 1),),
    castles={14: (0, 2), 5: (1, 1)},
    emperor=5,
    courts=({"red": 2, "yellow": 1}, {"red": 1, "blue": 2}),
    reserves=({"green": 2, "pink": 1, "red": 1}, {"yellow": 3, "blue": 1}),
    control={"red": 0},
    order=(1, 0),
    used=((2,), (3, 5)),
    phase="deploy",
    chosen=(4, 2),
    turn=0,
    round=4,
)


def hand_set_game() -> CarolusState:
    """60 random actions and outcomes from a 2-player position set up by hand (rng 11)."""
    state = Game(players=2, position=HAND_SET).new_initial_state()
    rng, bot = random.Random(11), RandomBot()
    for _ in range(60):
        if state.is_terminal():
            break
        a = state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng)
        state.apply(a)
    return state


@pytest.mark.parametrize(
    ("name", "rebuild"), [("random-3p", random_game), ("position-2p", hand_set_game)]
)
def test_a_saved_game_loads_back_equal_with_the_same_text(name, rebuild):
    text = (FIXTURES / f"{name}.json").read_text(encoding="utf-8")
    shown = (FIXTURES / f"{name}.txt").read_text(encoding="utf-8").rstrip("\n")
    loaded = State.from_json(text)
    assert isinstance(loaded, CarolusState)
    assert str(loaded) == shown
    again = rebuild()
    assert loaded == again
    assert str(again) == shown
    assert CarolusState.from_json(loaded.to_json()) == loaded
