"""Helpers for Carolus Magnus tests: positions are set up by hand with ``Position``."""

from __future__ import annotations

import pytest

from coronas.carolus import CarolusState, Game, Position


def make(players: int = 2, **fields) -> CarolusState:
    """A state from a hand-made :class:`Position` (see its docstring for the fields)."""
    return Game(players=players, position=Position(**fields)).new_initial_state()


@pytest.fixture
def build():
    return make
