"""Fast playouts of Carolus Magnus: a light policy and an evaluation of a position.

A tree search plays many games to their end (or to a depth) for each decision, so its
playout policy must cost little more than a random choice and still play sensibly.
:class:`LightBot` keeps the greedy player's choices of disc and of the emperor's stop (the
largest castle lead within reach, which a handful of resolutions give) and places knights by
a rule of thumb on the courts instead of trying every placement. :func:`evaluate` scores a
position where a playout is cut. Nothing is hidden in Carolus Magnus: both read the open
position.

>>> import random
>>> from coronas.carolus import Game
>>> from coronas.engine import play
>>> state = play(Game(players=2, seed=5).new_initial_state(), LightBot(), random.Random(5))
>>> sum(evaluate(state))
1.0
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from coronas.carolus.actions import AssignJoker, ChooseDisc, Deploy, MoveEmperor
from coronas.engine.evaluation import logistic_shares, win_shares

if TYPE_CHECKING:
    from coronas.carolus.state import CarolusState

__all__ = ["COMMON_RANDOM_NUMBERS", "SCALE", "SEARCH", "LightBot", "evaluate"]

COMMON_RANDOM_NUMBERS = False
"""Whether ``rank_actions`` plays every move out on the same seeded games: not here. After two
different placements the bag's draws follow different knights at once, so games on the same
seeds part at the first draw and the difference between two moves is measured no better
(``benchmarks/bench_winchances.py``: the interval's width 0.99 times that of games of their
own, the spread of the estimates 1.38 times); each move gets games of its own instead."""

SEARCH = {"c": 0.3, "depth": 10, "simulations": 1000}
"""The search bot's settings in this game (``mcts`` in ``BOTS``): playouts cut after 10
actions and scored by :func:`evaluate`, a small exploration constant, and 1000 simulations a
decision, about 0.35 s on one core (played to the end, 200 simulations took a second)."""

SCALE = 1.5
"""Castles of lead (with families held, see :func:`evaluate`) that multiply the odds by e."""


def lead(totals: tuple[int, ...] | list[int], p: int) -> int:
    """How far ``p``'s total is ahead of the best rival's (negative when behind)."""
    return totals[p] - max(c for q, c in enumerate(totals) if q != p)


def evaluate(state: CarolusState) -> tuple[float, ...]:
    """Each player's estimated chance of winning, from the open position.

    The winner is who first builds the castle target, or has the most castles when the
    empire shrinks below four regions, so a player's strength is its castles on the board plus
    half a castle for each family it controls (a family's knights count towards every region
    the emperor resolves, so control is castles to come). Strengths become shares by the
    logistic model of :func:`~coronas.engine.evaluation.logistic_shares` with a scale of
    :data:`SCALE` castles, sharper as the leader nears the target (the scale shrinks with
    the fraction of the target still to build). At the end of the game: the exact shares.
    """
    if state.is_terminal():
        return win_shares(state)
    totals = state.castle_totals()
    control = state.control
    n = state.num_players
    strengths = [totals[p] + 0.5 * sum(1 for c in control if c == p) for p in range(n)]
    target = state.rules.castle_target(n)
    left = max(target - max(totals), 1) / target
    return logistic_shares(strengths, SCALE * left + 0.25)


class LightBot:
    """A fast playout policy for Carolus Magnus.

    * disc: the one whose reach holds the largest castle lead over the best rival (resolved
      once per reachable stop), the smallest such disc on a tie;
    * emperor: the stop with the largest castle lead, the nearest on a tie;
    * knights (and jokers): to the own court where one knight takes a family or keeps a
      tied one; else a knight of a family it controls to a region the emperor may reach
      this turn; else to the own court of the family it is closest to taking.

    Ties are broken at random (with the given rng).
    """

    name = "light"

    def choose(self, state: CarolusState, rng: random.Random) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = state.current_player
        first = legal[0]
        if isinstance(first, ChooseDisc):
            leads = _stop_leads(state, p, max(a.disc for a in legal))
            scored = [(max(leads[: a.disc]) * 10 - 0.1 * a.disc, a) for a in legal]
        elif isinstance(first, MoveEmperor):
            leads = _stop_leads(state, p, len(legal))
            scored = [(leads[a.steps - 1] * 10 - 0.01 * a.steps, a) for a in legal]
        elif isinstance(first, Deploy | AssignJoker):
            reach = _reach(state, state.chosen[p] or 5)
            families = state.rules.families
            scored = [
                (_knight_value(state, p, families.index(a.family), a, reach), a) for a in legal
            ]
        else:
            return rng.choice(legal)
        best = max(s for s, _ in scored)
        top = [a for s, a in scored if s == best]
        return top[0] if len(top) == 1 else rng.choice(top)

    def __repr__(self) -> str:
        return "LightBot()"


def _stop_leads(state: CarolusState, p: int, steps: int) -> list[int]:
    """``p``'s castle lead if the emperor stopped 1, 2, ... ``steps`` regions on."""
    ring, here = state.ring, state.emperor
    i, n = ring.index(here), len(ring)
    return [
        lead(state.resolution(ring[(i + s) % n]).castle_totals, p)
        for s in range(1, min(steps, n) + 1)
    ]


def _reach(state: CarolusState, disc: int) -> frozenset[int]:
    """The regions the emperor may stop in with ``disc``."""
    ring, here = state.ring, state.emperor
    i, n = ring.index(here), len(ring)
    return frozenset(ring[(i + s) % n] for s in range(1, min(disc, n) + 1))


def _knight_value(state: CarolusState, p: int, f: int, action: Any, reach: frozenset[int]) -> float:
    """The rule of thumb of :class:`LightBot` for one knight of family ``f``."""
    region = getattr(action, "region", None)
    held = state.control[f] == p
    if region is not None:
        return 1.5 if held and region in reach else -1.0
    own = state.court[p][f]
    rival = max(c[f] for q, c in enumerate(state.court) if q != p)
    if not held and own + 1 > rival:
        return 3.0  # this knight takes the family
    if held and own <= rival:
        return 2.5  # this knight keeps a tied family
    return 0.5 - 0.1 * abs(own + 1 - rival)  # nearer to the rival's count is worth more
