"""Saved games kept from before the engine's code was reorganised: they must still load into
the same state and print the same.

``random_game_4p.json`` is a 4-player game played to its end by ``RandomBot`` (game seed and
play seed 2024); ``hand_position_3p.json`` a position set up by hand (``Game(position=...)``,
seed 5) followed by 40 random steps (``random.Random(5)``). Each file holds ``state.to_json()``
and ``str(state)`` as recorded when it was saved.
"""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from coronas.engine import RandomBot, action_to_dict, play
from coronas.hierro import Game, HierroState


def _fixture(name: str) -> dict[str, str]:
    text = resources.files("tests.hierro").joinpath(f"fixtures/{name}.json").read_text("utf-8")
    return json.loads(text)


# Rule-set fields added since the fixtures were saved: an old save loads with their defaults
# and is written back with them.
_ADDED_RULES = {"king_scores_band": False}


def _resaved(save: str) -> dict:
    """The saved game as today's ``to_json()`` writes it: the same, plus the added fields."""
    data = json.loads(save)
    data["params"]["rules"].update(_ADDED_RULES)
    return data


def _replayed(save: str) -> HierroState:
    """The saved game rebuilt from its parameters, each saved action found among the legal
    actions or chance outcomes of its step (so each was legal there)."""
    data = json.loads(save)
    state = Game.from_params(data["params"]).new_initial_state()
    for raw in data["actions"]:
        if state.is_chance_node():
            options = [a for a, _ in state.chance_outcomes()]
        else:
            options = state.legal_actions()
        state.apply(next(a for a in options if action_to_dict(a) == raw))
    return state


@pytest.mark.parametrize("name", ["random_game_4p", "hand_position_3p"])
def test_saved_game_loads_equal(name: str) -> None:
    fx = _fixture(name)
    state = HierroState.from_json(fx["save"])
    assert str(state) == fx["str"]
    assert json.loads(state.to_json()) == _resaved(fx["save"])
    again = _replayed(fx["save"])
    assert again == state
    assert str(again) == fx["str"]


def test_random_game_plays_the_same() -> None:
    fx = _fixture("random_game_4p")
    state = play(Game(players=4, seed=2024).new_initial_state(), RandomBot(), rng=2024)
    assert state.is_terminal()
    assert state == HierroState.from_json(fx["save"])
    assert str(state) == fx["str"]


def test_hand_position_plays_the_same() -> None:
    fx = _fixture("hand_position_3p")
    params = json.loads(fx["save"])["params"]
    state = Game.from_params(params).new_initial_state()
    rng = random.Random(5)
    for _ in range(40):
        state.apply(
            state.sample_chance(rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    assert str(state) == fx["str"]
    assert json.loads(state.to_json()) == _resaved(fx["save"])
