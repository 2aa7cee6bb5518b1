"""Every VP figure Corona de Hierro prints agrees with the scores of the same moment.

The players' lines of ``str(state)``, the players' table (open and seat views), the map's
inset (the board graph's ``vp``) and the stepper's scores line all read
``state.standing()``: before the end what each would score if the game ended now without
the secret loyalty points (the rulebook scores free emissaries "at the end of the game", so
a player whose emissaries are all free has 1 VP from the start), at the end the final scores.
A position set up by hand, whose loyalty cards were never dealt, says they are not known.
"""

from __future__ import annotations

import random
import re

import pytest

from coronas.hierro import Game
from coronas.widgets import Stepper, StepperModel

TAG = re.compile(r"<[^>]*>")


def _played(steps: int | None, seed: int = 5) -> object:
    """A seeded 3-player game, played at random for ``steps`` steps (None: to its end)."""
    state = Game(players=3, seed=seed).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and (steps is None or len(state.history) < steps):
        legal = None if state.is_chance_node() else state.legal_actions()
        state.apply(state.sample_chance(rng) if legal is None else rng.choice(legal))
    return state


def _table_vp(html: str) -> list[int]:
    """The VP column (the fifth) of the players' table, a row a player."""
    rows = re.findall(r"<tr>(.*?)</tr>", html)
    figures = []
    for row in rows:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        if cells:
            figures.append(int(TAG.sub("", cells[4])))
    return figures


def _figures(state) -> dict[str, list[int]]:
    """Every VP figure printed for ``state``, by where it is printed."""
    n = state.num_players
    over = state.is_terminal()
    word = r"score (\d+);" if over else r"(\d+) VP if the game ended now;"
    lines = str(state).splitlines()[1 : 1 + n]
    found = {
        "text": [int(re.search(word, line).group(1)) for line in lines],
        "table": _table_vp(state.players_html()),
        "seat table": _table_vp(state.observation_html(1)),
        "open html": _table_vp(state._repr_html_()),
        "map inset": list(state.graph().graph["vp"]),
    }
    view = Stepper(state.clone(), seed=1, draw=False, view=1)
    results = TAG.sub("", view.results.value)
    found["stepper"] = [
        int(re.search(rf"{state.colour(p)}: (\d+)", results).group(1)) for p in range(n)
    ]
    return found


@pytest.mark.parametrize("steps", [60, 150, None])
def test_every_vp_figure_is_the_standing_of_the_moment(steps):
    state = _played(steps)
    assert state.is_terminal() == (steps is None)
    expected = [row["total"] for row in state.standing()]
    for where, figures in _figures(state).items():
        assert figures == expected, (where, figures, expected)
    if steps is None:
        assert expected == [row["total"] for row in state.scores()]
    else:  # before the end: the public scores, without the secret loyalty points
        assert expected == [row["total"] for row in state.public_scores()]
    # the figures that disagreed before: the cards' VP alone is not what is shown
    assert expected != list(state.vp)


def test_the_map_inset_names_its_figure_and_shows_it():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coronas.plotting.hierro import draw_board

    for steps, label in ((150, "VP now"), (None, "score")):
        state = _played(steps)
        assert state.graph().graph["vp_label"] == label
        fig, ax = draw_board(state=state)
        texts = [t.get_text() for t in ax.texts]
        plt.close(fig)
        inset = next(t for t in texts if t.startswith("red "))
        for p, total in enumerate(state.vp_shown()):
            assert f"{label} {total}" in inset.splitlines()[p], inset


def test_a_score_before_any_move_is_worded_as_what_would_be_scored_now():
    # Each player's emissaries are all free: 1 VP each if the game ended now (rulebook:
    # "at the end of the game, if none of our emissaries is held hostage ... one victory
    # point"); nothing else scores yet. The wording says it is not a score already won.
    state = Game(players=3, seed=2).new_initial_state()
    assert state.vp_shown() == [1, 1, 1]
    assert [row["emissaries"] for row in state.standing()] == [1, 1, 1]
    view = Stepper(state, draw=False, view=0, lock_view=True)
    shown = TAG.sub("", view.results.value)
    assert shown.startswith("Scores if the game ended now"), shown
    assert "red: 1 (emissaries 1)" in shown, shown
    assert "1 VP if the game ended now" in str(state).splitlines()[1]
    assert "VP now: what each would score if the game ended here" in state.players_html()


def test_a_hand_set_position_s_game_over_says_its_loyalty_cards_are_not_known():
    state = Game(players=3, seed=1).position(legitimacy=[9, 1, 1], castles={"Verona": 0})
    assert "Loyalty card: not known (a position set up by hand)." in state.observation_text(0)
    rng = random.Random(1)
    while not state.is_terminal():
        legal = None if state.is_chance_node() else state.legal_actions()
        state.apply(state.sample_chance(rng) if legal is None else rng.choice(legal))
    text = str(state)
    assert "Loyalty cards: not known (a position set up by hand" in text, text
    assert "none" not in text.splitlines()[-1], text
    assert [row["loyalty"] for row in state.scores()] == [0, 0, 0]
    # one card given by hand: it is named, the others are not known
    state = Game(players=3, seed=1).position(loyalty=["crown:green", None, None])
    assert state.loyalty_text().startswith(
        "Loyalty cards: red Crown of green, green not known, blue not known"
    ), state.loyalty_text()


def test_a_dealt_game_names_every_loyalty_card_at_its_end():
    state = _played(None)
    assert "not known" not in state.loyalty_text()
    assert "Loyalty card: not dealt yet." in Game(players=3).new_initial_state().observation_text(0)


def test_one_legal_action_is_one_choice():
    from tests.toygame import Roll, ToyGame, ToyRules

    model = StepperModel(ToyGame(rules=ToyRules(shields=0)).new_initial_state(), seed=1)
    model.play(Roll(1))  # failed, no shield: giving up is the only choice
    assert model.status == "player 1 to move (1 choice)"
    model = StepperModel(ToyGame().new_initial_state(), seed=1)
    model.play(Roll(1))  # a shield: reroll or give up
    assert model.status == "player 1 to move (2 choices)"
