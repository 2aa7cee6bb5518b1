"""Checks shared by the playout tests of every game: a policy plays legal actions to the end,
an evaluation gives win shares all along a game and the exact ones at its end, and a light
seat's score against random seats."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from coronas.engine import RandomBot, State, play


def play_legally(state: State, bot: Any, rng: random.Random, max_actions: int = 5000) -> State:
    """Play ``state`` to its end with ``bot`` in every seat, checking that each choice is one
    of the legal actions; the game must end within ``max_actions``."""
    while not state.is_terminal():
        assert len(state.history) < max_actions, "the game did not end"
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        action = bot.choose(state, rng)
        assert action in state.legal_actions()
        state.apply(action)
    return state


def check_shares_along_a_game(
    state: State, evaluate: Callable[[State], tuple[float, ...]], light: Any, rng: random.Random
) -> None:
    """Along a game of light and random moves, ``evaluate`` gives one value per seat in
    [0, 1] summing to 1; at the end, 1/k to each of the k winners."""
    while not state.is_terminal():
        shares = evaluate(state)
        assert len(shares) == state.num_players
        assert all(0 <= v <= 1 for v in shares)
        assert sum(shares) == pytest.approx(1, abs=1e-12)
        bot = light if rng.random() < 0.5 else RandomBot()
        state.apply(state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng))
    winners = state.winners()
    assert evaluate(state) == tuple(
        1 / len(winners) if p in winners else 0.0 for p in range(state.num_players)
    )


def light_wins(game: Callable[[int], State], light: Any, players: int, games: int) -> float:
    """Seeded games of one ``light`` seat (rotated) against random seats, ``game(seed)`` giving
    each start: the light seat's wins, a shared win counting 1/k."""
    wins = 0.0
    for seed in range(games):
        seat = seed % players
        bots: list[Any] = [RandomBot() for _ in range(players)]
        bots[seat] = light
        winners = play(game(seed), bots, seed).winners()
        wins += 1 / len(winners) if seat in winners else 0
    return wins
