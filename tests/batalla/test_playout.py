"""The light playout policy and the evaluation of a position of Batalla de Coronas."""

from __future__ import annotations

import random

import pytest

from coronas.batalla import Game
from coronas.batalla.playout import LightBot, evaluate
from coronas.engine import RandomBot, play

from .helpers import position


def test_light_bot_plays_legal_actions_to_the_end():
    for seed in range(6):
        state = Game(seed=seed).new_initial_state()
        rng = random.Random(seed)
        bot = LightBot()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            action = bot.choose(state, rng)
            assert action in state.legal_actions()
            state.apply(action)
        assert len(state.history) < 5000


def test_light_bot_beats_random_play():
    """Seeded: of 10 games against random play, seats alternating, light wins at least 9."""
    wins = 0
    for seed in range(10):
        seat = seed % 2
        bots = [RandomBot(), RandomBot()]
        bots[seat] = LightBot()
        state = play(Game(seed=200 + seed).new_initial_state(), bots, seed)
        wins += state.winners() == [seat]
    assert wins >= 9


def test_evaluate_gives_shares_in_0_1_summing_to_1_and_exact_at_the_end():
    for seed in range(4):
        state = Game(seed=seed).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            shares = evaluate(state)
            assert len(shares) == 2 and all(0 <= v <= 1 for v in shares)
            assert sum(shares) == pytest.approx(1, abs=1e-12)
            bot = LightBot() if rng.random() < 0.5 else RandomBot()
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng)
            )
        (winner,) = state.winners()
        assert evaluate(state) == tuple(1.0 if p == winner else 0.0 for p in range(2))


def test_evaluate_is_even_at_the_start_and_favours_the_player_two_gems_ahead():
    assert evaluate(Game(seed=1).new_initial_state()) == (0.5, 0.5)
    ahead = position(gems_won=[2, 0])
    behind = position(gems_won=[0, 2])
    assert evaluate(ahead)[0] > 0.95
    assert evaluate(behind)[0] < 0.05
    assert evaluate(ahead)[0] == pytest.approx(evaluate(behind)[1])
