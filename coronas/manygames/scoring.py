"""How a single game is scored beyond its plain result: adjusted by the luck of its rolls as
the value model sees it (:class:`Luck`, ``luck=True``), or cut after a horizon and scored by
the value model (:func:`play_cut`, ``horizon=N``). The worker entry points that play such
games in chunks are module level, so that worker processes import them."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from coronas.engine.evaluation import win_shares
from coronas.engine.playouts import may_cut
from coronas.engine.state import CHANCE, TERMINAL, State
from coronas.manygames.budget import MAX_STEPS, _whole
from coronas.manygames.results import MAX_MESSAGE
from coronas.manygames.runner import GameRecord, Match, Task, game_record, play_task

__all__ = [
    "MAX_LUCK_OUTCOMES",
    "Luck",
    "check_horizon",
    "play_cut",
    "play_cut_chunk",
    "play_luck_chunk",
]

MAX_LUCK_OUTCOMES = 64
"""A roll or draw with more outcomes than this is not valued for its luck (skipped, as the
position decides, not the draw: the correction's mean stays zero)."""


class Luck:
    """What one game's rolls and draws were worth, by the game's value model: the sum over
    its chance nodes of ``V(drawn child) - E[V(child)]`` for every seat (``total``), ``V``
    the value model (the shares themselves once the game is over): how much better than
    expected the dice went for each seat.

    Each term has mean zero whatever was played before (the expectation is over the very
    outcomes the node draws from, with their exact probabilities), so the sum is a control
    variate: taking ``b`` times it off a game's shares leaves the estimate unbiased for any
    fixed ``b`` and takes out the part of the luck the value model sees. ``b`` is fitted
    from the games (:func:`~coronas.manygames.intervals.luck_coefficient`): 1 would suit an
    exact value model. Called by the runner before each action
    (:func:`~coronas.manygames.runner.play_task`'s ``watch``)."""

    def __init__(self, evaluate: Callable[[Any], Sequence[float]], seats: int):
        self.evaluate = evaluate
        self.total = [0.0] * seats

    def value(self, state: State) -> list[float]:
        if state.is_terminal():
            return [float(x) for x in win_shares(state)]
        return [float(x) for x in self.evaluate(state)]

    def __call__(self, state: State, action: Any) -> None:
        if state.current_player != CHANCE:
            return
        outcomes = state.chance_outcomes()
        if len(outcomes) > MAX_LUCK_OUTCOMES:
            return
        n = len(self.total)
        expected = [0.0] * n
        drawn = None
        for outcome, p in outcomes:
            state.apply(outcome)
            try:
                v = self.value(state)
            finally:
                state.undo()
            for i in range(n):
                expected[i] += float(p) * v[i]
            if drawn is None and outcome == action:
                drawn = v
        if drawn is not None:
            for i in range(n):
                self.total[i] += drawn[i] - expected[i]


def play_luck_chunk(
    match: Match, tasks: Sequence[Task], game: Any
) -> list[tuple[GameRecord, tuple[float, ...]]]:
    """A worker's entry point (module level, so processes import it): each game of
    ``tasks`` with the luck of its rolls by ``game``'s value model (:class:`Luck`)."""
    evaluate = game.spec().evaluate
    out = []
    for task in tasks:
        luck = Luck(evaluate, len(task.seats))
        _, record = play_task(match, task, luck)
        out.append((record, tuple(luck.total)))
    return out


def play_cut(
    match: Match,
    task: Task,
    horizon: int,
    evaluate: Callable[[Any], Sequence[float]],
    settled: Callable[[Any], bool] | None,
) -> tuple[GameRecord, tuple[float, ...] | None]:
    """One game of ``task`` cut after ``horizon`` actions (chance outcomes included), at the
    next position the game calls settled (:func:`~coronas.engine.playouts.may_cut`, as the
    search cuts its playouts), and scored by the value model: its record and every seat's
    score, the value model's chances there (made to sum to 1), or the win shares if the game
    ended first. Played with the same seeds, in the same order, as :func:`play_task`, so a
    game that ends before its horizon is the very game a plain run plays. The step cap and a
    bot's error become the record's outcome, as there (no score)."""
    from coronas.engine.search import _as_chooser

    state = match.start(task.game_seed)
    choosers = [_as_chooser(match.bots[b]) for b in task.seats]
    rng = random.Random(task.play_seed)
    steps = decisions = 0
    outcome, message, score = "ended", "", None
    try:
        while True:
            player = state.current_player
            if player == TERMINAL:
                score = tuple(float(x) for x in win_shares(state))
                break
            if steps >= horizon and may_cut(state, steps - horizon, settled):
                values = [float(x) for x in evaluate(state)]
                total = sum(values)
                if not (all(math.isfinite(v) and v >= 0 for v in values) and total > 0):
                    raise ValueError(f"the value model gave {values} at a cut game's end")
                score = tuple(v / total for v in values)
                break
            if steps >= match.max_steps:
                outcome, message = "cap", f"the game did not end within {match.max_steps} steps"
                break
            if player == CHANCE:
                action = state.sample_chance(rng)
            else:
                action = choosers[player](state, rng)
                decisions += 1
            state.apply(action)
            steps += 1
    except Exception as exc:  # a bot's failure is a result of the run, not its end
        outcome, score = "error", None
        message = f"{type(exc).__name__}: {exc}"[:MAX_MESSAGE]
    return game_record(task, state, outcome, message, decisions), score


def play_cut_chunk(
    match: Match, tasks: Sequence[Task], game: Any, horizon: int
) -> list[tuple[GameRecord, tuple[float, ...] | None]]:
    """A worker's entry point (module level, so processes import it): each game of
    ``tasks`` cut after ``horizon`` actions and scored by ``game``'s value model
    (:func:`play_cut`)."""
    spec = game.spec()
    return [play_cut(match, task, horizon, spec.evaluate, spec.settled) for task in tasks]


def check_horizon(horizon: Any, game: Any, luck: bool) -> int | None:
    """``horizon`` checked: None or 0 (games played to the end) gives None, a whole number
    of actions from 1 to ``MAX_STEPS`` itself; anything else, a game without a value model
    to score a cut game, or ``luck`` asked too, a :class:`ValueError` saying what was
    expected."""
    if horizon is None or (_whole(horizon, 0, 0)):
        return None
    if not _whole(horizon, 1, MAX_STEPS):
        raise ValueError(
            "horizon must be None or 0 (games played to the end) or a whole number of actions "
            f"from 1 to {MAX_STEPS} after which a game is cut, got {horizon!r}"
        )
    if game.spec().evaluate is None:
        raise ValueError(f"horizon: {game.name} declares no value model to score a cut game")
    if luck:
        raise ValueError("horizon and luck cannot be combined: give one or the other")
    return horizon
