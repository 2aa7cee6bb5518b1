"""Shared helpers for the Batalla de Coronas tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from coronas.batalla import Game, State


def position(**fields: Any) -> State:
    """A state set up at the start of player 1's turn (or as ``fields`` say)."""
    rules = fields.pop("rules", None)
    return Game(rules=rules, position=fields).new_initial_state()


def play_out(state: State, actions: Iterable[Any]) -> State:
    """Apply ``actions`` in order (each must be legal) and return the state."""
    for action in actions:
        state.apply(action)
    return state
