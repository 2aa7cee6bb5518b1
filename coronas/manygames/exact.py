"""The exact attempts: each seat's exact chance of winning where every bot states its mixed
strategy and the rest of the game can be walked (or solved as a Markov chain where play comes
back to a position), and how long an attempt may take before the games get the time.

The estimator (:mod:`~.estimator`) tries them first, before any game is played:
:func:`~.estimator.exact_answers`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from coronas.engine.evaluation import win_shares
from coronas.engine.state import State

__all__ = [
    "EXACT_MAX_STATES",
    "EXACT_SECONDS",
    "EXACT_SHARE",
    "exact_allowed",
    "exact_win_chances",
    "policy_of",
]

EXACT_SHARE = 0.25
"""The share of a ``time`` budget an exact attempt may use before it gives up and leaves the
rest to the games: an attempt that succeeds is usually quick (small games, a few last
actions), one that fails would otherwise hold the estimate up for minutes."""
EXACT_SECONDS = 10.0
"""How long an exact attempt may take when no ``time`` is given."""
EXACT_MAX_STATES = 5_000
"""The most positions an exact attempt solves as a Markov chain: one that reaches more fails
as soon as it finds the 5,001st (under a second in the three games)."""


def policy_of(bot: Any) -> Any:
    """The bot's mixed strategy ``policy(state) -> [(action, probability), ...]`` if it states
    one (the random bot: the uniform mix over the legal actions), else None: only such bots
    can be followed by an exact walk."""
    policy = getattr(bot, "policy", None)
    return policy if callable(policy) else None


def exact_win_chances(
    state: State,
    bots: Sequence[Any],
    max_nodes: int = 100_000,
    max_states: int = EXACT_MAX_STATES,
    deadline: float | None = None,
) -> tuple[Fraction, ...] | None:
    """Each seat's exact chance of winning when ``bots[p]`` plays seat ``p`` from ``state``,
    or None when it cannot be had: a bot that states no mixed strategy, a game tree larger
    than ``max_nodes`` nodes, play with cycles over more than ``max_states`` positions, or
    a walk still going at ``deadline`` (a :func:`time.monotonic` reading): an attempt that
    fails costs at most the time it was given.

    The tree is walked by :func:`~coronas.engine.exact_distribution`; where play can return
    to a position, the positions are solved as a Markov chain
    (:func:`~coronas.engine.chains.absorption_distribution`).
    """
    from coronas.engine.chains import absorption_distribution
    from coronas.engine.search import UnfinishedWalk, exact_distribution

    policies = [policy_of(b) for b in bots]
    if any(p is None for p in policies):
        return None
    table = dict(enumerate(policies))
    try:
        dist = exact_distribution(
            state, table, _exact_shares, max_nodes=max_nodes, deadline=deadline
        )
    except UnfinishedWalk as exc:
        if not exc.cycle:
            return None
        try:
            dist = absorption_distribution(
                state, table, _exact_shares, max_states=max_states, deadline=deadline
            )
        except UnfinishedWalk:
            return None
    except RuntimeError:  # more than max_nodes nodes
        return None
    return tuple(
        sum((p * shares[seat] for shares, p in dist.items()), Fraction(0))
        for seat in range(state.num_players)
    )


def _exact_shares(state: State) -> tuple[Fraction, ...]:
    return win_shares(state, exact=True)


def exact_allowed(state: State, viewer: int | None) -> bool:
    """An exact walk sees the true position: not for a viewer in a game with secrets."""
    return viewer is None or not state.game.has_secrets
