"""Games saved by an earlier version of the engine replay to the same position.

``fixtures/random_game.json`` is a seeded game of two random players played to its end;
``fixtures/position_game.json`` starts from a position set up by hand (``Game(position=...)``)
with a variant rule set. Next to each is the text of its final position as it was when the
game was saved.
"""

from importlib import resources

import pytest

from coronas.batalla import Game, State

FIXTURES = resources.files("tests.batalla") / "fixtures"


@pytest.mark.parametrize("name", ["random_game", "position_game"])
def test_a_saved_game_replays_to_an_equal_state_with_the_same_text(name):
    text = (FIXTURES / f"{name}.json").read_text(encoding="utf-8")
    shown = (FIXTURES / f"{name}.txt").read_text(encoding="utf-8").rstrip("\n")
    state = State.from_json(text)
    assert isinstance(state.game, Game)
    assert state.is_terminal()
    assert str(state) == shown
    again = State.from_json(state.to_json())
    assert again == state and str(again) == shown
    # replaying the same actions by hand on a fresh state gives the same position
    fresh = state.game.new_initial_state()
    for action in state.history:
        fresh.apply(action)
    assert fresh == state and str(fresh) == shown


def test_a_fresh_interpreter_loads_a_saved_game_through_the_engine_alone():
    # the engine finds the game by importing its state module, without coronas.batalla.Game
    import subprocess
    import sys

    path = FIXTURES / "random_game.json"
    code = (
        "import sys; from coronas.engine import available_games, load_game\n"
        "state = load_game(sys.argv[1])\n"
        "print(available_games()['batalla'].__module__, state.is_terminal())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["coronas.batalla.game", "True"]
