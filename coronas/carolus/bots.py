"""Carolus Magnus players for simulation: random, greedy and light.

Bots decide on what their player may see (``state.observation(player)``). Nothing is hidden
in Carolus Magnus, so that is the whole position: they read the board, courts, reserves and
discs, never the history, and two games that reach the same position get the same choice.

The light player (:class:`coronas.carolus.playout.LightBot`) is the playout policy of a tree
search: the greedy player's disc and emperor, cheaper knights.

Each bot has a ``name`` and ``choose(state, rng) -> action``, so it works with
:func:`coronas.engine.play`:

>>> from coronas.carolus import Game
>>> from coronas.engine import play
>>> s = play(Game(players=2).new_initial_state(), [GreedyBot(), RandomBot()], rng=3)
>>> s.is_terminal()
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from coronas.carolus.actions import AssignJoker, ChooseDisc, Deploy, MoveEmperor
from coronas.carolus.playout import SEARCH, SEARCH_CLASSIC, LightBot, court_lead, lead
from coronas.engine import RandomBot
from coronas.engine.mctsbot import tuned
from coronas.engine.policybot import PolicyBot

if TYPE_CHECKING:
    from coronas.carolus.state import CarolusState

__all__ = ["BOTS", "GreedyBot", "LightBot", "RandomBot"]


def _best_stop(state: CarolusState, p: int, disc: int) -> int:
    """The best castle lead ``p`` can get by stopping the emperor within ``disc`` steps."""
    ring, here = state.ring, state.emperor
    i = ring.index(here)
    return max(
        lead(state.resolution(ring[(i + s) % len(ring)]).castle_totals, p)
        for s in range(1, min(disc, len(ring)) + 1)
    )


def _court_value(state: CarolusState, p: int) -> float:
    """Families held, and how far ahead in each court, as a small positional bonus."""
    return sum(
        (3.0 if held == p else 0.0) + 0.3 * max(-2, min(2, court_lead(state, p, f)))
        for f, held in enumerate(state.control)
    )


class GreedyBot:
    """One step of look-ahead on castles: deploys the knight, chooses the disc and stops the
    emperor where the castle lead over the best rival is largest, then prefers holding
    families. Ties are broken at random (with the given rng)."""

    name = "greedy"

    def choose(self, state: CarolusState, rng: random.Random) -> Any:
        actions = state.legal_actions()
        p = state.current_player
        first = actions[0]
        if isinstance(first, AssignJoker):
            scored = [(self._after(state, a, p, state.chosen[p] or 5), a) for a in actions]
        elif isinstance(first, ChooseDisc):
            scored = [(_best_stop(state, p, a.disc) * 10 - 0.1 * a.disc, a) for a in actions]
        elif isinstance(first, MoveEmperor):
            scored = []
            for a in actions:
                res = state.resolution(a.region)
                scored.append((lead(res.castle_totals, p) * 10 - 0.01 * a.steps, a))
        elif isinstance(first, Deploy):
            disc = state.chosen[p]
            scored = [(self._after(state, a, p, disc), a) for a in actions]
        else:
            return rng.choice(actions)
        best = max(s for s, _ in scored)
        return rng.choice([a for s, a in scored if s == best])

    @staticmethod
    def _after(state: CarolusState, action: Any, p: int, disc: int) -> float:
        state.apply(action)
        try:
            return _best_stop(state, p, disc) * 10 + _court_value(state, p)
        finally:
            state.undo()

    def __repr__(self) -> str:
        return "GreedyBot()"


BOTS: dict[str, Any] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "light": LightBot,
    "mcts": tuned(SEARCH),
    "mcts-classic": tuned(SEARCH_CLASSIC, "mcts-classic"),
    "policy": PolicyBot,
}
"""The bots by name, as ``coronas play --bots`` and ``coronas simulate`` find them."""
