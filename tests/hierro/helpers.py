"""Shared helpers for the Corona de Hierro tests."""

from __future__ import annotations

import random
from typing import Any

import pytest

from coronas.engine import IllegalAction
from coronas.hierro import Game, HierroState, Roll

RED, GREEN, BLUE, YELLOW, BLACK = range(5)
"""Seats with the default colours (rules.colours)."""


def position(players: int = 3, rules: Any = None, **kwargs: Any) -> HierroState:
    """A hand-built position of a ``players``-player game."""
    return Game(players=players, rules=rules).position(**kwargs)


def assert_illegal(state: HierroState, action: Any, words: str) -> None:
    """``action`` is refused with a message containing ``words`` and changes nothing."""
    before = state.clone()
    history = list(state.history)
    assert action not in state.legal_actions()
    with pytest.raises(IllegalAction, match=words):
        state.apply(action)
    assert state == before
    assert state.history == history


def assert_legal(state: HierroState, action: Any) -> None:
    assert action in state.legal_actions(), f"{action} should be legal: {state.legal_actions()}"


def roll(state: HierroState, *values: int) -> None:
    """Apply the given die results, one per roll (the state must be at roll steps)."""
    for v in values:
        assert state.step == "roll", f"expected a roll, the state is at {state.step}"
        state.apply(Roll(v))


def random_game(players: int, seed: int, advanced: bool = False) -> HierroState:
    """A random game played to its end, uniformly among legal actions."""
    rules = {"advanced": True} if advanced else None
    state = Game(players=players, seed=seed, rules=rules).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state
