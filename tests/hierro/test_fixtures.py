"""Saved games kept from earlier versions of the engine: they must still load into the same
state and print the same.

``random_game_4p.json`` is a 4-player game played to its end by ``RandomBot`` (game seed and
play seed 2024); ``hand_position_3p.json`` a position set up by hand (``Game(position=...)``,
seed 5) followed by 40 random steps (``random.Random(5)``). Each file holds ``state.to_json()``
and ``str(state)`` as recorded when it was saved (the text's wording since brought up to date:
"1 card", "2 actions left"; "(red band)"; "N VP if the game ended now"; and at game over
each player's score and the loyalty cards by name). The ``_format1`` files are the same two
recorded in saved-game format 1, before Spy was played in two steps (their random game is
another one, as the legal actions then listed Spy once for each card it could discard).
"""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from coronas.engine import FORMAT_VERSION, RandomBot, SaveFileError, action_to_dict, play
from coronas.hierro import Game, HierroState

NAMES = ["random_game_4p", "hand_position_3p"]
FILES = [*NAMES, *(f"{name}_format1" for name in NAMES)]


def _fixture(name: str) -> dict[str, str]:
    text = resources.files("tests.hierro").joinpath(f"fixtures/{name}.json").read_text("utf-8")
    return json.loads(text)


# Rule-set fields added since the format-1 fixtures were saved: an old save loads with their
# defaults and is written back with them.
_ADDED_RULES = {"king_scores_band": False}


def _upgraded(save: str) -> dict:
    """The saved game as today's ``to_json()`` writes it: today's version, the added rule
    fields, and a format-1 ``PlaySpy(target, discard)`` as ``PlaySpy`` + ``SpyDiscard``."""
    data = json.loads(save)
    if data["version"] == 1:
        data["params"]["rules"].update(_ADDED_RULES)
        data["actions"] = [
            new for raw in data["actions"] for new in Game.upgrade_action(raw, data["version"])
        ]
        data["version"] = FORMAT_VERSION
    return data


def _replayed(save: str) -> HierroState:
    """The saved game rebuilt from its parameters, each saved action found among the legal
    actions or chance outcomes of its step (so each was legal there)."""
    data = _upgraded(save)
    state = Game.from_params(data["params"]).new_initial_state()
    for raw in data["actions"]:
        if state.is_chance_node():
            options = [a for a, _ in state.chance_outcomes()]
        else:
            options = state.legal_actions()
        state.apply(next(a for a in options if action_to_dict(a) == raw))
    return state


@pytest.mark.parametrize("name", FILES)
def test_saved_game_loads_equal(name: str) -> None:
    fx = _fixture(name)
    state = HierroState.from_json(fx["save"])
    assert str(state) == fx["str"]
    assert json.loads(state.to_json()) == _upgraded(fx["save"])
    again = _replayed(fx["save"])
    assert again == state
    assert str(again) == fx["str"]


def test_format1_spy_is_read_as_two_steps() -> None:
    old = json.loads(_fixture("random_game_4p_format1")["save"])
    spies = [a for a in old["actions"] if a["type"] == "PlaySpy"]
    assert spies and all("discard" in a for a in spies)
    state = HierroState.from_json(_fixture("random_game_4p_format1")["save"])
    played = [a for a in state.history if type(a).__name__ in ("PlaySpy", "SpyDiscard")]
    assert len(played) == 2 * len(spies)
    assert [action_to_dict(a) for a in played[1::2]] == [
        {"type": "SpyDiscard", "card": a["discard"]} for a in spies
    ]


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
    assert json.loads(state.to_json()) == _upgraded(fx["save"])


def test_an_error_after_an_upgraded_spy_names_the_action_of_the_file() -> None:
    data = json.loads(_fixture("random_game_4p_format1")["save"])
    k = next(i for i, a in enumerate(data["actions"]) if a["type"] == "PlaySpy")
    data["actions"][k + 1] = {"type": "Move", "frm": "Atlantis", "to": "Rome", "count": 1}
    with pytest.raises(SaveFileError, match=rf"actions\[{k + 1}\] \(.*\) cannot be replayed"):
        HierroState.from_json(json.dumps(data))
    data["actions"][k] = {"type": "PlaySpy", "target": 9, "discard": "pope"}
    with pytest.raises(SaveFileError, match=rf"actions\[{k}\] \(.*\) cannot be replayed"):
        HierroState.from_json(json.dumps(data))
