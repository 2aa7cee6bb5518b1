"""The one estimator of a position's figures from games: what :func:`~.winchances.win_chances`
(each seat's chance of winning) and :func:`~.moves.rank_actions` (every move ranked) share.

Budgets (games, precision, time), batches, executors and worker pools, a seat's view
(positions resampled from what it has seen), the exact attempts and the stopping rules are
decided here once. A caller says what to play out, as *arms* (one start each: the position
itself, or the position after one move) and how to sum their games up; :func:`play_out` plays
every live arm on the same seeded games (common random numbers) or on games of their own,
batch by batch, calls the caller's summary after each batch, lets the caller drop arms
between batches, and says why it stopped (``games``, ``precision`` or ``time``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from coronas.engine.evaluation import shares, win_shares
from coronas.engine.state import CHANCE, TERMINAL, State
from coronas.manygames.intervals import normal_interval, share_interval
from coronas.manygames.results import MAX_MESSAGE
from coronas.manygames.runner import (
    DEFAULT_MAX_STEPS,
    GameRecord,
    Match,
    Task,
    draw_tasks,
    play_task,
    run,
)

__all__ = [
    "DEFAULT_BOT",
    "EXACT_SECONDS",
    "EXACT_SHARE",
    "MAX_BATCH",
    "Arm",
    "BotError",
    "Budget",
    "FromPosition",
    "Games",
    "Luck",
    "Played",
    "Setup",
    "bot_label",
    "check_horizon",
    "describe_bots",
    "exact_answers",
    "exact_win_chances",
    "play_cut",
    "play_out",
    "prepare",
    "seat_bots",
    "view_of",
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
MAX_BATCH = 10_000
"""The most games a batch (per worker) may have."""
MAX_GAMES = 10**9
MAX_JOBS = 1024
MAX_STEPS = 10**9
MAX_SEED = 2**63 - 1


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


PLAYER_WORDS = {
    "light": "the quick playout player",
    "greedy": "the greedy player",
    "policy": "the learned player",
    "mcts": "the search player",
    "random": "a player choosing at random",
}
"""The bots by name in a player's words (``mcts:200`` is the search player too)."""


def player_words(label: str) -> str:
    """``the learned player (policy)``: a bot's label in a player's words, its name kept."""
    words = PLAYER_WORDS.get(label.split(":")[0])
    return label if words is None else f"{words} ({label})"


def describe_bots(names: Sequence[str], labels: Sequence[str]) -> str:
    """``if every seat plays like the learned player (policy)`` or ``if red plays like the
    search player (mcts), green like the greedy player (greedy)...``: the assumption every
    figure from games rests on, in a player's words."""
    if len(set(labels)) == 1:
        return f"if every seat plays like {player_words(labels[0])}"
    return "if " + ", ".join(
        f"{n} plays like {player_words(b)}" if i == 0 else f"{n} like {player_words(b)}"
        for i, (n, b) in enumerate(zip(names, labels, strict=True))
    )


def _exact_shares(state: State) -> tuple[Fraction, ...]:
    return win_shares(state, exact=True)


def bot_label(bot: Any) -> str:
    name = getattr(bot, "name", None)
    if isinstance(name, str):
        return name
    return getattr(bot, "__name__", type(bot).__name__)


DEFAULT_BOT = "light"
"""Who plays the rest of the game by default: each game's light playout policy (its
``playout.LightBot``), the fastest bot that plays sensibly (about 100 to 200 games a second on
one core, where a greedy bot plays 5 to 35 and a search bot one game in tens of seconds), so a
first figure comes within a second and a narrow one within a minute."""


def seat_bots(state: State, bots: Any) -> list[Any]:
    """One bot per seat from ``bots``: None (the game's :data:`DEFAULT_BOT`), a name
    (``"greedy"``, ``"mcts:200"``) or a bot for every seat, or a list of them, one per seat.
    Anything else is refused here, before a game is played: a :class:`TypeError` naming it
    (a bot is a name, an object with ``choose(state, rng)`` or a function ``f(state, rng)``)
    or the :class:`ValueError` of an unknown name."""
    n = state.num_players
    if bots is None:
        bots = DEFAULT_BOT if DEFAULT_BOT in state.game.bots() else "random"
    seated = list(bots) if isinstance(bots, (list, tuple)) else [bots] * n
    if len(seated) != n:
        raise ValueError(f"{len(seated)} bots for {n} seats: give one bot, or one per seat")
    for bot in seated:
        if not (isinstance(bot, str) or hasattr(bot, "choose") or callable(bot)):
            raise TypeError(
                "bots: a bot is a name such as 'greedy', an object with a "
                f"choose(state, rng) method or a function f(state, rng), got {bot!r}"
            )
    return [state.game.bot(b) if isinstance(b, str) else b for b in seated]


class FromPosition:
    """The start of every game of an estimate: ``start(game_seed)`` is ``state`` drawn again
    for ``viewer`` (:meth:`~coronas.engine.State.resample` with ``random.Random(game_seed)``),
    or a copy without a viewer, with ``action`` applied if one is given. A module-level class,
    so that worker processes can receive it."""

    def __init__(self, state: State, viewer: int | None = None, action: Any = None):
        self.state, self.viewer, self.action = state, viewer, action

    def __call__(self, game_seed: int) -> State:
        import random

        if self.viewer is None:
            start = self.state.clone()
        else:
            start = self.state.resample(self.viewer, random.Random(game_seed))
        if self.action is not None:
            start.apply(self.action)
        return start


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
    """Refuse a bad option of :func:`win_chances` or :func:`~coronas.manygames.moves.rank_actions`
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
    everything: an exact attempt may use :data:`EXACT_SHARE` of it (:meth:`exact_deadline`),
    and the games are sized to end within the rest (:meth:`next_batch`, :meth:`done`)."""

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
        """Seconds left of ``time`` (infinite without a time limit)."""
        if self.time is None:
            return math.inf
        return self.time - (self.clock() - self.started)

    def exact_deadline(self) -> float:
        """When an exact attempt gives up (a :func:`time.monotonic` reading):
        :data:`EXACT_SHARE` of ``time`` from the start, or :data:`EXACT_SECONDS` without a
        time limit. The games have the rest."""
        share = EXACT_SECONDS if self.time is None else EXACT_SHARE * self.time
        return self.started + share

    def next_batch(self, played: int, batch: int) -> int:
        """How many games to draw for the next batch (in a ranking, games an action):
        ``batch``, no more than ``games`` leaves. The batches' ends, where the figures are
        shown and ``precision`` is checked, do not depend on the clock, so a run stopped by
        precision is the same on any machine; the time is kept within a batch
        (:func:`play_batch`)."""
        return batch if self.games is None else max(1, min(batch, self.games - played))

    def piece(self, left: int, cost: float | None, parallel: int) -> int:
        """How many of a batch's ``left`` games to play now: all of them without a time
        limit; with one, as many as end in the time left at ``cost`` seconds each (a game,
        or a game for every action) on ``parallel`` workers, 0 when not one more does, and
        one a worker while the cost is unknown."""
        if self.time is None:
            return left
        if cost is None:
            return min(left, parallel)
        return min(left, int(max(0.0, self.remaining()) / cost) * parallel)

    def done(self, played: int, half_width: float | None, cost: float | None = None) -> bool:
        """Whether to stop after ``played`` games (:meth:`reason` is not None)."""
        return self.reason(played, half_width, cost) is not None

    def reason(
        self, played: int, half_width: float | None, cost: float | None = None
    ) -> str | None:
        """Why to stop after ``played`` games, or None to go on: ``"games"`` reached,
        ``"precision"`` met, or ``"time"`` up (or too little of it left for one more game, one
        more an action, at ``cost`` seconds)."""
        if self.games is not None and played >= self.games:
            return "games"
        if self.precision is not None and half_width is not None and half_width <= self.precision:
            return "precision"
        if self.time is None:
            return None
        left = self.remaining()
        if left <= 0 or (played > 0 and cost is not None and cost > left):
            return "time"
        return None


def game_cost(seconds: float, games: int, parallel: int) -> float:
    """The seconds one game (in a ranking, one game an action) takes on one worker, from
    ``games`` of them that took ``seconds`` on ``parallel`` workers, at most ``parallel``
    at a time; never below a microsecond, so it always divides."""
    return max(1e-6, seconds * min(parallel, games) / max(1, games))


def play_batch(
    budget: Budget,
    size: int,
    parallel: int,
    cost: float | None,
    play: Callable[[int, int], None],
) -> tuple[int, float | None]:
    """Play a batch of ``size`` games (in a ranking, games an action) as ``play(lo, hi)``,
    its games ``lo`` to ``hi - 1``: at once without a time limit; with one, in pieces
    (:meth:`Budget.piece`), the first of one game a worker to measure what a game costs,
    and no piece started that would not end in time. Returns how many were played (fewer
    than ``size`` when time ran out: the run then stops) and the cost per game, as last
    measured. With nothing measured yet (``cost`` None) one piece is always played: an
    estimate needs a game."""
    done = 0
    while done < size:
        n = budget.piece(size - done, cost, parallel)
        if n <= 0:
            break
        began = budget.clock()
        play(done, done + n)
        cost = game_cost(budget.clock() - began, n, parallel)
        done += n
    return done, cost


class BotError(RuntimeError):
    """A game played out from the position failed: a bot (or the game) raised. The message
    is the game's seeds and the error's own words; the estimate stops at once rather than
    count such games as unfinished."""


class Games:
    """Seeded games from a position, in batches, on any executor: the tasks are drawn once
    from ``seed`` and every start (one per action compared) plays the same tasks, so that
    actions are compared on common random numbers. With ``jobs > 1`` and no executor the
    games run on a pool of worker processes that ignore Ctrl-C and are terminated when the
    run is left by an exception (:func:`~.runner.worker_pool`): one Ctrl-C stops it."""

    def __init__(
        self,
        bots: Sequence[Any],
        seed: int | None,
        executor: Any,
        jobs: int,
        max_steps: int,
    ):
        import random

        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        seats = tuple(range(len(bots)))
        self.tasks = draw_tasks(seed, 10**12, lambda i: seats)
        self.bots = tuple(bots)
        self.max_steps = max_steps
        self.executor = executor
        self.jobs = jobs
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> Games:
        if self.executor is None and self.jobs > 1:
            from coronas.manygames.runner import worker_pool

            self.executor = self._stack.enter_context(worker_pool(self.jobs))
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stack.__exit__(*exc)

    def draw(self, n: int) -> list[Task]:
        return [next(self.tasks) for _ in range(n)]

    def play(
        self, start: FromPosition, tasks: list[Task], luck: bool = False, horizon: int | None = None
    ) -> Played:
        """The games of ``tasks`` from ``start``, summed up (:class:`Played`); with ``luck``
        each game's shares adjusted by the luck of its rolls (:class:`Luck`) too; with a
        ``horizon``, each game cut after that many actions and scored by the value model
        (:func:`play_cut`). A game whose bot raised stops everything with a
        :class:`BotError` carrying its message."""
        match = Match(start, self.bots, self.max_steps)
        chunk = max(1, len(tasks) // (2 * self.jobs)) if self.executor is not None else 16
        corrections: list[tuple[float, ...]] | None = None
        game = type(start.state.game)
        if horizon:
            return self._summed(
                self._play_scored(match, tasks, chunk, play_cut_chunk, game, horizon), True
            )
        if luck:
            pairs = self._play_scored(match, tasks, chunk, play_luck_chunk, game)
            records = [r for r, _ in pairs]
            corrections = [c for _, c in pairs]
        else:
            records = run(match, tasks, executor=self.executor, chunk_size=chunk)
        n = len(self.bots)
        got = Played([Fraction(0)] * n, [Fraction(0)] * n, 0, 0, [])
        if corrections is None:
            return self._summed([(r, None) for r in records], False)
        for k, r in enumerate(records):
            if r.outcome == "error":
                raise BotError(
                    f"a game played out from here failed (game seed {r.game_seed}, play seed "
                    f"{r.play_seed}): {r.message}"
                )
            if not r.finished:
                got.unfinished += 1
                got.per_game.append(None)
                got.adjusted.append(None)
                continue
            got.ended += 1
            won = shares(r.winners, n, exact=True)
            got.per_game.append(won)
            if corrections is not None:
                got.adjusted.append(
                    tuple(float(w) + c for w, c in zip(won, corrections[k], strict=True))
                )
            for p, share in enumerate(won):
                got.totals[p] += share
                got.squares[p] += share * share
        return got

    def _summed(
        self, pairs: Sequence[tuple[GameRecord, tuple[float, ...] | None]], scored: bool
    ) -> Played:
        """Games summed up seat by seat: each game's win shares (exact), or with ``scored``
        the scores that come with the records (a cut game's, floats); the scores are also
        kept as ``adjusted``, what an arm of scored games reads."""
        n = len(self.bots)
        got = Played([Fraction(0)] * n, [Fraction(0)] * n, 0, 0, [])
        for r, score in pairs:
            if r.outcome == "error":
                raise BotError(
                    f"a game played out from here failed (game seed {r.game_seed}, play seed "
                    f"{r.play_seed}): {r.message}"
                )
            if not r.finished:
                got.unfinished += 1
                got.per_game.append(None)
                if scored:
                    got.adjusted.append(None)
                continue
            got.ended += 1
            won: tuple[Any, ...] = shares(r.winners, n, exact=True) if score is None else score
            got.per_game.append(won)
            if scored:
                got.adjusted.append(won)
            for p, share in enumerate(won):
                got.totals[p] += share
                got.squares[p] += share * share
        return got

    def _play_scored(
        self, match: Match, tasks: list[Task], chunk: int, entry: Callable[..., Any], *args: Any
    ) -> list[tuple[GameRecord, tuple[float, ...]]]:
        """The games with a figure each (``entry`` is :func:`play_luck_chunk` or
        :func:`play_cut_chunk`, given ``args`` after the tasks), in task order: here, or in
        chunks on the executor (queued chunks cancelled if the run is left by an exception,
        such as Ctrl-C; a worker pool of ``jobs`` is then stopped by :meth:`__exit__`)."""
        if self.executor is None:
            return entry(match, tasks, *args)
        futures = [
            self.executor.submit(entry, match, tasks[i : i + chunk], *args)
            for i in range(0, len(tasks), chunk)
        ]
        try:
            return [pair for f in futures for pair in f.result()]
        except BaseException:
            for f in futures:
                f.cancel()
            raise


MAX_LUCK_OUTCOMES = 64
"""A roll or draw with more outcomes than this is not valued for its luck (skipped, as the
position decides, not the draw: the correction's mean stays zero)."""


class Luck:
    """What one game's rolls and draws were worth, by the game's value model: the sum over
    its chance nodes of ``E[V(child)] - V(drawn child)`` for every seat (``total``), ``V``
    the value model (the shares themselves once the game is over).

    Each term has mean zero whatever was played before (the expectation is over the very
    outcomes the node draws from, with their exact probabilities), so adding the sum to a
    game's shares leaves the estimate unbiased, and takes out of it the part of the luck the
    value model sees: a control variate. Called by the runner before each action
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
                self.total[i] += expected[i] - drawn[i]


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
    next position the game calls settled (:func:`~coronas.engine.mcts.may_cut`, as the
    search cuts its playouts), and scored by the value model: its record and every seat's
    score, the value model's chances there (made to sum to 1), or the win shares if the game
    ended first. Played with the same seeds, in the same order, as :func:`play_task`, so a
    game that ends before its horizon is the very game a plain run plays. The step cap and a
    bot's error become the record's outcome, as there (no score)."""
    from coronas.engine.mcts import may_cut
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
    finished = outcome == "ended"
    record = GameRecord(
        index=task.index,
        game_seed=task.game_seed,
        play_seed=task.play_seed,
        seats=task.seats,
        winners=tuple(state.winners()) if finished and state.is_terminal() else (),
        returns=tuple(state.returns()) if finished and state.is_terminal() else (),
        actions=len(state.history),
        decisions=decisions,
        outcome=outcome,
        message=message,
    )
    return record, score


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


@dataclasses.dataclass
class Played:
    """A batch of games: each seat's total share of the wins and the sum of its squared
    shares over the games that ended, how many ended and did not, and each game's shares in
    task order (None for a game that did not end)."""

    totals: list[Fraction]
    squares: list[Fraction]
    ended: int
    unfinished: int
    per_game: list[tuple[Fraction, ...] | None]
    adjusted: list[tuple[float, ...] | None] = dataclasses.field(default_factory=list)


def view_of(state: State, viewer: int | None) -> str:
    names = [state.player_name(p) for p in range(state.num_players)]
    if viewer is None:
        secrets = state.game.has_secrets
        return "full information (every hidden card seen)" if secrets else "open position"
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < len(names):
        raise ValueError(f"viewer must be a seat from 0 to {len(names) - 1}, got {viewer!r}")
    return f"from {names[viewer]}'s view"


def exact_allowed(state: State, viewer: int | None) -> bool:
    """An exact walk sees the true position: not for a viewer in a game with secrets."""
    return viewer is None or not state.game.has_secrets


STOPPED = {
    "games": "stopped: every figure has its games",
    "precision": "stopped: every interval as narrow as asked",
    "time": "stopped: the time was up",
    "exact": "exact: nothing left to play",
}
"""Why an estimate stopped, in words (what a panel shows under its figures)."""


@dataclasses.dataclass
class Setup:
    """A call's options, checked, with what every figure says it rests on: the bots seated
    (``assumption``, in a player's words) and whose information the games start from
    (``view``). ``budget``'s clock started when this was made."""

    state: State
    seated: list[Any]
    names: list[str]
    assumption: str
    view: str
    viewer: int | None
    budget: Budget
    seed: int | None
    exact: bool
    executor: Any
    jobs: int
    max_steps: int
    batch: int
    on_update: Any
    luck: bool = False
    horizon: int | None = None


def prepare(
    state: State,
    bots: Any = None,
    *,
    games: int | None = None,
    precision: float | None = None,
    time: float | None = None,
    seed: int | None = 0,
    exact: bool = True,
    viewer: int | None = None,
    executor: Any = None,
    jobs: int = 1,
    max_steps: int = DEFAULT_MAX_STEPS,
    batch: int = 20,
    on_update: Any = None,
    luck: bool = False,
    horizon: int | None = None,
) -> Setup:
    """Check every option of an estimate and seat its bots, before anything is played or
    walked: a bad option raises :class:`ValueError` naming it, a bot that is not one
    :class:`TypeError`. The budget's clock starts here, so ``time`` bounds everything after."""
    budget = Budget(games, precision, time)
    check_options(
        jobs=jobs, batch=batch, max_steps=max_steps, seed=seed, exact=exact, on_update=on_update
    )
    if not isinstance(luck, bool):
        raise ValueError(f"luck must be True or False, got {luck!r}")
    if luck and state.game.spec().evaluate is None:
        raise ValueError(f"luck: {state.game.name} declares no value model to measure it with")
    horizon = check_horizon(horizon, state.game, luck)
    seated = seat_bots(state, bots)
    names = [state.player_name(p) for p in range(state.num_players)]
    return Setup(
        state=state,
        seated=seated,
        names=names,
        assumption=describe_bots(names, [bot_label(b) for b in seated]),
        view=view_of(state, viewer),
        viewer=viewer,
        budget=budget,
        seed=seed,
        exact=exact,
        executor=executor,
        jobs=jobs,
        max_steps=max_steps,
        batch=batch,
        on_update=on_update,
        luck=luck,
        horizon=horizon,
    )


def exact_answers(setup: Setup, starts: Sequence[State]) -> list[tuple[Fraction, ...]] | None:
    """Every seat's exact chance from each of ``starts`` (:func:`exact_win_chances`), or None
    as soon as one cannot be had, or when exact answers are not asked for or not allowed (a
    seat's view in a game with secrets). The attempts share one deadline,
    :meth:`Budget.exact_deadline`: a failed attempt costs at most its share of the time."""
    if not (setup.exact and exact_allowed(setup.state, setup.viewer)):
        return None
    deadline = setup.budget.exact_deadline()
    found = []
    for start in starts:
        if start.is_terminal():
            found.append(tuple(win_shares(start, exact=True)))
            continue
        chances = exact_win_chances(start, setup.seated, deadline=deadline)
        if chances is None:
            return None
        found.append(chances)
    return found


@dataclasses.dataclass
class Arm:
    """One start played out: its games summed up seat by seat (a shared win counted 1/k),
    each game's shares in task order (None for one that did not end), and whether it is
    still ``live`` (played in the next batch) or was dropped, and why (``dropped``)."""

    start: FromPosition
    seats: int
    totals: list[Fraction] = dataclasses.field(default_factory=list)
    squares: list[Fraction] = dataclasses.field(default_factory=list)
    ended: int = 0
    unfinished: int = 0
    per_game: list[tuple[Fraction, ...] | None] = dataclasses.field(default_factory=list)
    dropped: str = ""
    luck: bool = False
    adjusted: list[tuple[float, ...] | None] = dataclasses.field(default_factory=list)
    cut: int = 0

    def __post_init__(self) -> None:
        self.totals = self.totals or [Fraction(0)] * self.seats
        self.squares = self.squares or [Fraction(0)] * self.seats

    @property
    def live(self) -> bool:
        return not self.dropped

    @property
    def scored(self) -> bool:
        """Whether each game's figure is a float score (luck-adjusted, or a cut game's value
        model score) rather than its exact win shares."""
        return self.luck or bool(self.cut)

    @property
    def played(self) -> int:
        return self.ended + self.unfinished

    def add(self, got: Played) -> None:
        for p in range(self.seats):
            self.totals[p] += got.totals[p]
            self.squares[p] += got.squares[p]
        self.ended += got.ended
        self.unfinished += got.unfinished
        self.per_game += got.per_game
        self.adjusted += got.adjusted

    def chance(self, seat: int) -> Fraction:
        """Seat ``seat``'s share of the games that ended (0 before any did); with ``luck``
        the mean of the luck-adjusted shares, with ``cut`` of the cut games' scores (to a
        millionth)."""
        if not self.ended:
            return Fraction(0)
        if self.scored:
            values = [v for v in self.shares(seat) if v is not None]
            return Fraction(sum(values) / len(values)).limit_denominator(10**6)
        return self.totals[seat] / self.ended

    def interval(self, seat: int) -> tuple[float, float]:
        """The 95% interval of :meth:`chance` (:func:`share_interval`; with ``luck`` the
        normal interval of the adjusted shares, :func:`normal_interval`; with ``cut`` that of
        the scores: an interval for the value model's score at the cut, not for the games'
        result)."""
        if self.scored:
            return normal_interval([v for v in self.shares(seat) if v is not None])
        return share_interval(float(self.totals[seat]), float(self.squares[seat]), self.ended)

    def shares(self, seat: int) -> list[Any]:
        """Seat ``seat``'s share of each game, in task order (None: the game did not end);
        with ``luck`` the shares adjusted by the luck of each game's rolls, with ``cut`` each
        cut game's score (floats)."""
        games = self.adjusted if self.scored else self.per_game
        return [None if g is None else g[seat] for g in games]

    def moments(self, seat: int) -> tuple[float, float, int]:
        """``(total, sum of squares, games)`` of :meth:`shares` over the games that ended."""
        values = [float(v) for v in self.shares(seat) if v is not None]
        return sum(values), sum(v * v for v in values), len(values)


def play_out(
    setup: Setup,
    arms: Sequence[Arm],
    summarise: Callable[[Sequence[Arm]], tuple[Any, float | None]],
    *,
    common: bool = True,
    prune: Callable[[Sequence[Arm]], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Any, str]:
    """Play the live ``arms`` out, batch by batch, until the budget stops them; returns the
    last summary and why it stopped (``"games"``, ``"precision"`` or ``"time"``).

    Each batch is ``setup.batch`` games a worker for every live arm: with ``common`` the same
    seeded tasks for all of them (common random numbers), else tasks of their own. After a
    batch in which every live arm had a game end, ``summarise(arms)`` gives the figures and
    the widest half-width that ``precision`` is checked against; ``setup.on_update`` is
    called with the figures, then ``prune(arms)`` may drop arms (set ``arm.dropped`` to the
    reason) so the next batches play only those that still matter. ``time`` is kept within a
    batch (:func:`play_batch`); the batches' ends do not depend on the clock, so a run
    stopped by ``games`` or ``precision`` is the same on any machine and executor.
    ``progress(n)`` is told of every ``n`` games played (a game for every live arm)."""
    budget = setup.budget
    cost: float | None = None  # seconds one arm's game takes on one worker, once measured
    figures: Any = None
    for arm in arms:
        arm.luck, arm.cut = setup.luck, setup.horizon or 0
    with Games(setup.seated, setup.seed, setup.executor, setup.jobs, setup.max_steps) as runs:
        size = setup.batch * setup.jobs
        while True:
            live = [a for a in arms if a.live]
            n = budget.next_batch(min(a.played for a in live), size)
            tasks = runs.draw(n)
            batches = [tasks if common or k == 0 else runs.draw(n) for k in range(len(live))]

            def play(lo: int, hi: int) -> None:
                for arm, mine in zip(live, batches, strict=True):  # noqa: B023 (called at once)
                    arm.add(runs.play(arm.start, mine[lo:hi], setup.luck, setup.horizon))
                if progress is not None:
                    progress(hi - lo)

            unit = None if cost is None else cost * len(live)  # a game for every live arm
            done, unit = play_batch(budget, n, setup.jobs, unit, play)
            cost = None if unit is None else unit / len(live)
            width = None
            if all(a.ended for a in live):
                figures, width = summarise(arms)
                if setup.on_update is not None:
                    setup.on_update(figures)
            played = min(a.played for a in live)
            why = "time" if done < n else budget.reason(played, width, unit)
            if why is not None:
                if figures is None:
                    raise RuntimeError(
                        f"none of the {played} games ended within {setup.max_steps} steps"
                    )
                return figures, why
            if prune is not None and figures is not None and width is not None:
                prune(arms)
