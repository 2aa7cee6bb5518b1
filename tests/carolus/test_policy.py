"""The learned player of Carolus Magnus (``policy``) and what its move prior reads."""

from __future__ import annotations

import random

from coronas.carolus import Game
from coronas.carolus.actions import Deploy
from coronas.carolus.features import ACTION_FEATURES, action_features
from coronas.engine import play

from .conftest import make

LONGEST = 1000
"""Actions (chance outcomes included) within which a seeded game between two policy players
must end: of 200 seeded games (seeds 0-199) between light players the longest took 314
actions (mean 216), between greedy players 878 (mean 299). A prior that sent every knight to
the court froze the board and its games ran on for about 13,000 actions on average."""


def test_games_between_policy_players_end_as_soon_as_other_players_games():
    for seed in range(5):
        state = Game(players=2, seed=seed).new_initial_state()
        bots = [Game.bot("policy"), Game.bot("policy")]
        play(state, bots, rng=seed, max_steps=LONGEST)  # GameDidNotEnd past LONGEST
        assert state.is_terminal()


def _features(state, action) -> dict[str, float]:
    legal = state.legal_actions()
    return dict(
        zip(ACTION_FEATURES, action_features(state, legal)[legal.index(action)], strict=True)
    )


def test_the_prior_sees_what_a_knight_does_to_the_stops_in_reach():
    """Disc 1 from region 1: only region 2 is in reach. Player 2 holds it (1 castle and 2
    green knights, green being player 2's family: 3 against player 1's red knight)."""
    state = make(
        knights={2: {"red": 1, "green": 2}},
        castles={2: (1, 1)},
        courts=({"red": 1, "green": 1}, {"green": 1}),
        control={"green": 1},
        reserves=({"red": 2, "green": 1, "blue": 1}, {}),
        phase="deploy",
        chosen=(1, 2),
    )
    before = state._data()
    # a green knight to the court takes green from player 2: region 2 turns, 3 against 1
    # (player 1's castle lead goes from -1 to +1)
    court_green = _features(state, Deploy("green"))
    assert court_green["gain"] == 2 and court_green["race"] == 1
    # a red knight in region 2 makes 2 against 3: nothing changes there
    assert _features(state, Deploy("red", 2))["gain"] == 0
    # a green knight in region 2 counts for player 2, who holds it anyway
    assert _features(state, Deploy("green", 2))["gain"] == 0
    # out of reach, or a family nobody controls: nothing
    assert _features(state, Deploy("red", 3))["gain"] == 0
    assert _features(state, Deploy("blue", 2))["gain"] == 0
    # red: the own court leads by one, a close race; blue: 0 against 0, also close
    assert _features(state, Deploy("red"))["race"] == 1
    assert _features(state, Deploy("blue"))["race"] == 1
    assert state._data() == before  # the features only looked


def test_a_knight_that_wins_a_region_gains_and_a_settled_court_race_is_not_close():
    state = make(
        knights={2: {"red": 1}},
        castles={2: (1, 1)},
        courts=({"red": 1}, {"blue": 5}),
        reserves=({"red": 2, "blue": 1}, {}),
        phase="deploy",
        chosen=(1, 2),
    )
    # red in region 2: 2 against player 2's castle, which player 1 replaces
    assert _features(state, Deploy("red", 2))["gain"] == 2
    # player 1's blue court is five knights behind: a knight there changes no race
    assert _features(state, Deploy("blue"))["race"] == 0


def test_stop_totals_are_the_castle_totals_of_the_resolution():
    rng = random.Random(4)
    state = Game(players=2, seed=4).new_initial_state()
    seen = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            for r in state.ring:
                assert tuple(state.stop_totals(r)) == state.resolution(r).castle_totals
                seen += 1
        action = state.sample_chance(rng) if state.is_chance_node() else None
        state.apply(action or Game.bot("light").choose(state, rng))
    assert seen > 100
