"""When an estimate stops and what its options may be: the :class:`Budget` (games, precision,
time), the checks of every option before anything is played, the limits they are checked
against, and the words for why the games stopped (:data:`STOPPED`)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from coronas.manygames.exact import EXACT_SECONDS, EXACT_SHARE

__all__ = [
    "MAX_BATCH",
    "MAX_GAMES",
    "MAX_JOBS",
    "MAX_SEED",
    "MAX_STEPS",
    "RESERVE",
    "ROUNDS",
    "ROUND_SECONDS",
    "SLACK",
    "STOPPED",
    "Budget",
    "check_options",
    "game_cost",
]

MAX_BATCH = 10_000
"""The most games a batch (per worker) may have."""
MAX_GAMES = 10**9
MAX_JOBS = 1024
MAX_STEPS = 10**9
MAX_SEED = 2**63 - 1
SLACK = 2
"""With a time limit, a piece of games is planned to take at most 1/SLACK of the time left."""
ROUND_SECONDS = 0.25
"""With a time limit alone, the shortest batch of games, in seconds of the workers' play
(:meth:`Budget.next_batch`): the figures between two batches cost the workers a wait."""
ROUNDS = 40
"""... or a time limit's share: a short time is still looked at this many times."""
RESERVE = 0.01
"""The share of a time limit the games leave for what follows them: the figures, the workers'
shutdown, and the last small pieces, which wait longest for their slowest worker."""


def _whole(value: Any, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def _positive(value: Any) -> bool:
    real = isinstance(value, (int, float, Fraction)) and not isinstance(value, bool)
    return real and math.isfinite(value) and value > 0


def check_options(
    *,
    jobs: Any,
    batch: Any,
    max_steps: Any,
    seed: Any,
    exact: Any,
    on_update: Any,
) -> None:
    """Refuse a bad option of :func:`~.winchances.win_chances` or :func:`~.moves.rank_actions`
    with a :class:`ValueError` naming it, before anything is played or walked."""
    if not _whole(jobs, 1, MAX_JOBS):
        raise ValueError(f"jobs must be a whole number from 1 to {MAX_JOBS}, got {jobs!r}")
    if not _whole(batch, 1, MAX_BATCH):
        raise ValueError(f"batch must be a whole number from 1 to {MAX_BATCH}, got {batch!r}")
    if not _whole(max_steps, 1, MAX_STEPS):
        raise ValueError(
            f"max_steps must be a whole number from 1 to {MAX_STEPS}, got {max_steps!r}"
        )
    if seed is not None and not _whole(seed, 0, MAX_SEED):
        raise ValueError(f"seed must be None or a whole number from 0 to 2**63-1, got {seed!r}")
    if not isinstance(exact, bool):
        raise ValueError(f"exact must be True or False, got {exact!r}")
    if on_update is not None and not callable(on_update):
        raise ValueError(f"on_update must be a function of the figures, got {on_update!r}")


class Budget:
    """When to stop: ``games`` played, every half-width at most ``precision``, or ``time``
    seconds gone (with none of them: 0.02 or 30 s).

    The clock starts when the budget is made, before any exact attempt, so ``time`` bounds
    everything: an exact attempt may use :data:`~.exact.EXACT_SHARE` of it (:meth:`exact_deadline`),
    and the games are sized to end within the rest (:meth:`next_batch`, :meth:`piece`,
    :meth:`reason`)."""

    def __init__(self, games: Any, precision: Any, time: Any):
        import time as clock

        if games is not None and not _whole(games, 1, MAX_GAMES):
            raise ValueError(f"games must be a whole number from 1 to {MAX_GAMES}, got {games!r}")
        if precision is not None and not (_positive(precision) and precision < 1):
            raise ValueError(f"precision is a half-width between 0 and 1, got {precision!r}")
        if time is not None and not _positive(time):
            raise ValueError(f"time is a number of seconds above 0, got {time!r}")
        if games is None and precision is None and time is None:
            precision, time = 0.02, 30.0
        self.games, self.precision = games, precision
        self.time = None if time is None else float(time)
        self.clock = clock.monotonic
        self.started = clock.monotonic()

    def remaining(self) -> float:
        """Seconds left for games: what is left of ``time`` less :data:`RESERVE` of it, kept
        for what follows them (infinite without a time limit)."""
        if self.time is None:
            return math.inf
        return (1 - RESERVE) * self.time - (self.clock() - self.started)

    def exact_deadline(self) -> float:
        """When an exact attempt gives up (a :func:`time.monotonic` reading):
        :data:`~.exact.EXACT_SHARE` of ``time`` from the start, or :data:`~.exact.EXACT_SECONDS`
        without a time limit. The games have the rest."""
        share = EXACT_SECONDS if self.time is None else EXACT_SHARE * self.time
        return self.started + share

    def next_batch(
        self, played: int, batch: int, cost: float | None = None, parallel: int = 1
    ) -> int:
        """How many games to draw for the next batch (in a ranking, games an action):
        ``batch``, no more than ``games`` leaves. The batches' ends, where the figures are
        shown and ``precision`` is checked, do not depend on the clock, so a run stopped by
        games or precision is the same on any machine; the time is kept within a batch
        (:func:`~.estimator.play_batch`).

        With a time limit alone, and ``cost`` measured (the seconds of a game, or of a game
        for every action, on one worker), a batch is at least as many games as fill
        :data:`ROUND_SECONDS` (or 1/:data:`ROUNDS` of a shorter time) on ``parallel``
        workers: between two batches the workers wait for the figures, and a batch of a few
        quick games would spend more time waiting than playing.

        >>> Budget(None, None, 10).next_batch(0, 8, cost=0.001, parallel=2)
        500
        >>> Budget(None, 0.01, 10).next_batch(0, 8, cost=0.001, parallel=2)
        8
        """
        if self.games is not None:
            return max(1, min(batch, self.games - played))
        if self.time is None or self.precision is not None or cost is None:
            return batch
        seconds = min(ROUND_SECONDS, self.time / ROUNDS)
        return max(batch, min(MAX_BATCH * parallel, math.ceil(seconds * parallel / cost)))

    def piece(self, left: int, cost: float | None, parallel: int) -> int:
        """How many of a batch's ``left`` games to play now: all of them without a time
        limit; with one, as many as take at most half the time left at ``cost`` seconds each (a
        game, or a game for every action) on ``parallel`` workers, 0 when not one game a worker
        does, and one a worker while the cost is unknown.

        Half, because a piece may run longer than its games' measured cost: the games vary,
        and a small piece waits for its slowest worker at every action. A piece that takes up
        to twice its share still ends in time, and the pieces shrink as the time runs out."""
        if self.time is None:
            return left
        if cost is None:
            return min(left, parallel)
        return min(left, self._each(cost) * parallel)

    def _each(self, cost: float) -> int:
        """How many games of ``cost`` seconds one worker may play in a piece (half the time
        left for games, :data:`SLACK`)."""
        return int(max(0.0, self.remaining()) / (SLACK * cost))

    def reason(
        self, played: int, half_width: float | None, cost: float | None = None
    ) -> str | None:
        """Why to stop after ``played`` games, or None to go on: ``"games"`` reached,
        ``"precision"`` met, or ``"time"`` up (or too little of it left for one more game, one
        more an action, at ``cost`` seconds: :meth:`piece` would play none)."""
        if self.games is not None and played >= self.games:
            return "games"
        if self.precision is not None and half_width is not None and half_width <= self.precision:
            return "precision"
        if self.time is None:
            return None
        if self.remaining() <= 0 or (played > 0 and cost is not None and self._each(cost) == 0):
            return "time"
        return None


def game_cost(seconds: float, games: int, parallel: int) -> float:
    """The seconds one game (in a ranking, one game an action) takes on one worker, from
    ``games`` of them that took ``seconds`` on ``parallel`` workers, at most ``parallel``
    at a time; never below a microsecond, so it always divides."""
    return max(1e-6, seconds * min(parallel, games) / max(1, games))


STOPPED = {
    "games": "stopped: every figure has its games",
    "precision": "stopped: every interval as narrow as asked",
    "time": "stopped: the time was up",
    "exact": "exact: nothing left to play",
}
"""Why an estimate stopped, in words (what a panel shows under its figures)."""
