"""Positions as a Markov chain: exact answers where play can come back to where it was.

:func:`~coronas.engine.exact_distribution` sums over a game *tree*; it cannot finish where
play under the policies returns to a position it has already passed through (a battle whose
rolls can leave everything as it was, a game whose bots may undo each other's moves). Such play
is an absorbing Markov chain: the positions are its states, the end of the game (or a ``stop``
rule) absorbs, and the chance of each result is an absorption probability, the solution of a
linear system (Osborne's treatment of Risk battles is the classic example). This module builds
the chain from the engine's own moves and solves the system in exact fractions.

Exact solving needs the chain to be small: every reachable position is kept, and the
elimination is in fractions. It suits endgames, battles and toy games of a class; a whole game
of Corona de Hierro is far beyond it (``max_states`` refuses it with a clear message).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import Any

from coronas.dice import Die, to_fraction
from coronas.engine.search import CHECK_EVERY, UnfinishedWalk, check_deadline
from coronas.engine.state import CHANCE, TERMINAL, State

__all__ = ["absorption_distribution", "markov_chain"]

Policy = Callable[[State], Any] | Mapping[int, Callable[[State], Any]]


def _branches(state: State, policy: Policy) -> list[tuple[Any, Fraction]]:
    player = state.current_player
    if player == CHANCE:
        return [(a, to_fraction(p)) for a, p in state.chance_outcomes()]
    pol = policy[player] if isinstance(policy, Mapping) else policy
    choice = pol(state)
    if isinstance(choice, list):
        return [(a, to_fraction(p)) for a, p in choice]
    return [(choice, Fraction(1))]


def markov_chain(
    state: State,
    policy: Policy,
    result_fn: Callable[[State], Hashable],
    stop: Callable[[State], bool] | None = None,
    max_states: int = 20_000,
    deadline: float | None = None,
) -> tuple[list[Hashable], dict[Hashable, dict[Hashable, Fraction]], dict]:
    """The chain of positions reachable from ``state`` when play follows ``policy``.

    Returns ``(keys, moves, ends)``: the positions' keys in the order they were found (the
    start first), ``moves[k]`` the chance of going from position ``k`` to each other position,
    and ``ends[k]`` the chance of each result reached from ``k`` in one step (a terminal state,
    or one where ``stop`` holds, scored by ``result_fn``). A policy is as for
    :func:`~coronas.engine.exact_distribution`: one action or ``(action, probability)`` pairs.
    More than ``max_states`` positions raise :class:`UnfinishedWalk`, and so does a chain
    still being built at ``deadline`` (a :func:`time.monotonic` reading;
    :class:`~coronas.engine.search.WalkOutOfTime`).
    """

    def absorbed(s: State) -> bool:
        return s.current_player == TERMINAL or (stop is not None and stop(s))

    if absorbed(state):
        raise ValueError("the position is already at the end: there is no chain to solve")
    start = state.clone()
    keys = [start.key()]
    todo = [start]
    seen = {keys[0]}
    moves: dict[Hashable, dict[Hashable, Fraction]] = {}
    ends: dict[Hashable, dict[Hashable, Fraction]] = {}
    while todo:
        if deadline is not None and not len(moves) % CHECK_EVERY:
            check_deadline(deadline, "building the chain of positions")
        s = todo.pop()
        k = s.key()
        out: dict[Hashable, Fraction] = {}
        done: dict[Hashable, Fraction] = {}
        for action, p in _branches(s, policy):
            if not p:
                continue
            s.apply(action)
            if absorbed(s):
                r = result_fn(s)
                done[r] = done.get(r, 0) + p
            else:
                j = s.key()
                out[j] = out.get(j, 0) + p
                if j not in seen:
                    if len(seen) >= max_states:
                        raise UnfinishedWalk(
                            f"play under these policies reaches more than {max_states} "
                            "positions: too many to solve as a Markov chain exactly"
                        )
                    seen.add(j)
                    keys.append(j)
                    # the position alone: a copy of the history would grow with the
                    # depth of the walk and make each new position slower than the last
                    todo.append(s.copy_position())
            s.undo()
        moves[k] = out
        ends[k] = done
    return keys, moves, ends


def absorption_distribution(
    state: State,
    policy: Policy,
    result_fn: Callable[[State], Hashable],
    stop: Callable[[State], bool] | None = None,
    max_states: int = 20_000,
    deadline: float | None = None,
) -> Die:
    """The exact distribution of ``result_fn`` where play from ``state`` ends, with cycles.

    The positions reachable under ``policy`` (see :func:`markov_chain`) form an absorbing
    chain; the chance ``x[k][r]`` of ending with result ``r`` from position ``k`` solves
    ``x[k] = ends[k] + sum_j moves[k][j] x[j]``, eliminated here in exact fractions. Where play
    can go on for ever with a positive chance (a loop that no roll leaves), the chance of
    ending is below 1 and :class:`UnfinishedWalk` says so. With ``deadline`` (a
    :func:`time.monotonic` reading) building or solving the chain gives up then
    (:class:`~coronas.engine.search.WalkOutOfTime`).
    """
    keys, moves, ends = markov_chain(state, policy, result_fn, stop, max_states, deadline)
    # Rows of (I - M) x = e, one per position, as sparse dicts; solved by Gauss-Jordan
    # elimination in the order the positions were found.
    rows: dict[Hashable, dict[Hashable, Fraction]] = {}
    rhs: dict[Hashable, dict[Hashable, Fraction]] = {}
    for k in keys:
        row = {j: -p for j, p in moves[k].items()}
        row[k] = row.get(k, 0) + 1
        rows[k] = row
        rhs[k] = dict(ends[k])
    steps = 0
    for k in keys:
        check_deadline(deadline, "solving the chain of positions")
        pivot = rows[k].get(k, 0)
        if not pivot:
            raise UnfinishedWalk(
                "under these policies play can go on for ever from this position "
                "(a loop that no roll or choice leaves): it has no final result"
            )
        row, b = rows[k], rhs[k]
        if pivot != 1:
            row = rows[k] = {j: v / pivot for j, v in row.items()}
            b = rhs[k] = {r: v / pivot for r, v in b.items()}
        for other in keys:
            if other == k:
                continue
            factor = rows[other].get(k)
            if not factor:
                continue
            steps += 1
            if deadline is not None and not steps % CHECK_EVERY:
                check_deadline(deadline, "solving the chain of positions")
            target, tb = rows[other], rhs[other]
            for j, v in row.items():
                value = target.get(j, 0) - factor * v
                if value:
                    target[j] = value
                else:
                    target.pop(j, None)
            for r, v in b.items():
                value = tb.get(r, 0) - factor * v
                if value:
                    tb[r] = value
                else:
                    tb.pop(r, None)
    answer = rhs[keys[0]]
    total = sum(answer.values())
    if total != 1:
        raise UnfinishedWalk(
            f"under these policies play ends with probability {total} only: "
            "the rest of the time it goes on for ever"
        )
    return Die.from_pmf(answer)
