"""The one estimator of a position's figures from games: what :func:`~.winchances.win_chances`
(each seat's chance of winning) and :func:`~.moves.rank_actions` (every move ranked) share.

Batches, executors and worker pools, a seat's view (positions resampled from what it has seen) and
the order of the work are decided here once: the options are checked and the budget kept by
:mod:`~.budget`, the bots seated by :mod:`~.players`, the exact attempts made first by
:mod:`~.exact`, and a game scored beyond its plain result (luck-adjusted, or cut after a horizon)
by :mod:`~.scoring`. A caller says what to play out, as *arms* (one start each: the position
itself, or the position after one move) and how to sum their games up; :func:`play_out` plays every
live arm on the same seeded games (common random numbers) or on games of their own, batch by batch,
calls the caller's summary after each batch, lets the caller drop arms between batches, and says
why it stopped (``games``, ``precision`` or ``time``).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from coronas.engine.evaluation import shares, win_shares
from coronas.engine.state import State
from coronas.manygames.budget import Budget, check_options, game_cost
from coronas.manygames.exact import exact_allowed, exact_win_chances
from coronas.manygames.intervals import (
    LuckSums,
    luck_coefficient,
    luck_interval,
    normal_interval,
    share_interval,
)
from coronas.manygames.players import (
    DEFAULT_BOT,
    bot_label,
    describe_bots,
    seat_bots,
)
from coronas.manygames.runner import (
    DEFAULT_MAX_STEPS,
    GameRecord,
    Match,
    Task,
    draw_tasks,
    run_many,
)
from coronas.manygames.scoring import check_horizon, play_cut_chunk, play_luck_chunk

__all__ = [
    "DEFAULT_BOT",
    "Arm",
    "BotError",
    "FromPosition",
    "Games",
    "Played",
    "Setup",
    "bot_label",
    "describe_bots",
    "exact_answers",
    "play_out",
    "prepare",
    "seat_bots",
    "view_of",
]


class FromPosition:
    """The start of every game of an estimate: ``start(game_seed)`` is ``state`` drawn again
    for ``viewer`` (:meth:`~coronas.engine.State.resample` with ``random.Random(game_seed)``),
    or without a viewer a copy of the position (its history is not the game's: no undo
    records to copy), with ``action`` applied if one is given. A module-level class, so that
    worker processes can receive it."""

    def __init__(self, state: State, viewer: int | None = None, action: Any = None):
        self.state, self.viewer, self.action = state, viewer, action

    def __call__(self, game_seed: int) -> State:
        import random

        if self.viewer is None:
            start = self.state.copy_position()
        else:
            start = self.state.resample(self.viewer, random.Random(game_seed))
        if self.action is not None:
            start.apply(self.action)
        return start


def play_batch(
    budget: Budget,
    size: int,
    parallel: int,
    cost: float | None,
    play: Callable[[int, int], None],
) -> tuple[int, float | None]:
    """Play a batch of ``size`` games (in a ranking, games an action) as ``play(lo, hi)``, its games
    ``lo`` to ``hi - 1``: at once without a time limit; with one, in pieces
    (:meth:`~.budget.Budget.piece`), the first of one game a worker to measure what a game costs,
    each sized to end in time with room to spare. Returns how many were played (fewer than
    ``size`` when time ran out: the run then stops) and the cost per game, as last measured. With
    nothing measured yet (``cost`` None) one piece is always played: an estimate needs a game."""
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
    run is left by an exception (:func:`~.pool.worker_pool`): one Ctrl-C stops it."""

    def __init__(
        self,
        bots: Sequence[Any],
        seed: int | None,
        executor: Any,
        jobs: int,
        max_steps: int,
        turns: Callable[[State], tuple[int, ...]] | None = None,
    ):
        import random

        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        seats = tuple(range(len(bots)))
        self.tasks = draw_tasks(seed, 10**12, lambda i: seats)
        self.bots = tuple(bots)
        self.max_steps = max_steps
        self.turns = turns
        self.executor = executor
        self.jobs = jobs
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> Games:
        if self.executor is None and self.jobs > 1:
            from coronas.manygames.pool import worker_pool

            self.executor = self._stack.enter_context(worker_pool(self.jobs))
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stack.__exit__(*exc)

    def draw(self, n: int) -> list[Task]:
        return [next(self.tasks) for _ in range(n)]

    def play(
        self, start: FromPosition, tasks: list[Task], luck: bool = False, horizon: int | None = None
    ) -> Played:
        """The games of ``tasks`` from ``start``, summed up (:class:`Played`); with ``luck`` the
        luck of each game's rolls (:class:`~.scoring.Luck`) kept beside its shares; with a
        ``horizon``, each game cut after that many actions and scored by the value model
        (:func:`~.scoring.play_cut`). A game whose bot raised stops everything with a
        :class:`BotError` carrying its message."""
        return self.play_many([start], [tasks], luck, horizon)[0]

    def play_many(
        self,
        starts: Sequence[FromPosition],
        tasks: Sequence[list[Task]],
        luck: bool = False,
        horizon: int | None = None,
    ) -> list[Played]:
        """:meth:`play` for each start with its tasks, in order. On an executor every start's
        games are sent at once (plain games by :func:`~.runner.run_many`), so that the
        workers go from one start's games to the next without waiting for each start's last
        game."""
        pairs = list(zip(starts, tasks, strict=True))
        if not (luck or horizon):
            runs = [(Match(s, self.bots, self.max_steps, self.turns), t) for s, t in pairs]
            chunk = max(1, max(map(len, tasks), default=1) // (2 * self.jobs))
            played = run_many(runs, executor=self.executor, chunk_size=chunk)
            return [self._summed([(r, None) for r in records], "") for records in played]
        # luck and cut games play their own loop, with one stream of draws a game
        runs = [(Match(s, self.bots, self.max_steps), t) for s, t in pairs]
        game = type(starts[0].state.game) if starts else None
        if horizon:
            scored = self._play_scored(runs, play_cut_chunk, game, horizon)
            return [self._summed(one, "score") for one in scored]
        return [self._summed(one, "luck") for one in self._play_scored(runs, play_luck_chunk, game)]

    def _summed(
        self, pairs: Sequence[tuple[GameRecord, tuple[float, ...] | None]], figure: str
    ) -> Played:
        """Games summed up seat by seat, each game's win shares (exact) and what the figure
        that comes with its record is: with ``figure`` ``"score"`` a cut game's score (floats,
        summed in place of the shares and kept as ``adjusted``, what an arm of cut games
        reads), with ``"luck"`` the luck of its rolls (kept as ``luck_terms``), with ``""``
        none."""
        n = len(self.bots)
        got = Played([Fraction(0)] * n, [Fraction(0)] * n, 0, 0, [])
        kept = {"score": got.adjusted, "luck": got.luck_terms}.get(figure)
        for r, extra in pairs:
            if r.outcome == "error":
                raise BotError(
                    f"a game played out from here failed (game seed {r.game_seed}, play seed "
                    f"{r.play_seed}): {r.message}"
                )
            if not r.finished:
                got.unfinished += 1
                got.per_game.append(None)
                if kept is not None:
                    kept.append(None)
                continue
            got.ended += 1
            won: tuple[Any, ...] = extra if figure == "score" else shares(r.winners, n, exact=True)
            got.per_game.append(won)
            if kept is not None:
                kept.append(extra)
            for p, share in enumerate(won):
                got.totals[p] += share
                got.squares[p] += share * share
        return got

    def _play_scored(
        self, runs: Sequence[tuple[Match, list[Task]]], entry: Callable[..., Any], *args: Any
    ) -> list[list[tuple[GameRecord, tuple[float, ...]]]]:
        """Each run's games with a figure each (``entry`` is :func:`~.scoring.play_luck_chunk`
        or :func:`~.scoring.play_cut_chunk`, given ``args`` after the tasks), in task order:
        here, or in chunks on the executor, every run's chunks sent before any is waited for
        (queued chunks cancelled if the run is left by an exception, such as Ctrl-C; a worker
        pool of ``jobs`` is then stopped by :meth:`__exit__`)."""
        if self.executor is None:
            return [entry(match, tasks, *args) for match, tasks in runs]
        sent = []
        for match, tasks in runs:
            chunk = max(1, len(tasks) // (2 * self.jobs))
            sent.append(
                [
                    self.executor.submit(entry, match, tasks[i : i + chunk], *args)
                    for i in range(0, len(tasks), chunk)
                ]
            )
        try:
            return [[pair for f in futures for pair in f.result()] for futures in sent]
        except BaseException:
            for futures in sent:
                for f in futures:
                    f.cancel()
            raise


@dataclasses.dataclass
class Played:
    """A batch of games: each seat's total share of the wins and the sum of its squared
    shares over the games that ended, how many ended and did not, and each game's shares in
    task order (None for a game that did not end); for cut games each one's score
    (``adjusted``), for luck-adjusted games the luck of each one's rolls, every seat's
    (``luck_terms``), in the same order."""

    totals: list[Fraction]
    squares: list[Fraction]
    ended: int
    unfinished: int
    per_game: list[tuple[Fraction, ...] | None]
    adjusted: list[tuple[float, ...] | None] = dataclasses.field(default_factory=list)
    luck_terms: list[tuple[float, ...] | None] = dataclasses.field(default_factory=list)


def view_of(state: State, viewer: int | None) -> str:
    names = [state.player_name(p) for p in range(state.num_players)]
    if viewer is None:
        secrets = state.game.has_secrets
        return "full information (every hidden card seen)" if secrets else "open position"
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < len(names):
        raise ValueError(f"viewer must be a seat from 0 to {len(names) - 1}, got {viewer!r}")
    return f"from {names[viewer]}'s view"


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
    """Every seat's exact chance from each of ``starts`` (:func:`~.exact.exact_win_chances`), or
    None as soon as one cannot be had, or when exact answers are not asked for or not allowed (a
    seat's view in a game with secrets). The attempts share one deadline,
    :meth:`~.budget.Budget.exact_deadline`: a failed attempt costs at most its share of the time."""
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
    still ``live`` (played in the next batch) or was dropped, and why (``dropped``). With
    ``luck``, each game's luck too (``luck_terms``) and every seat's sums of shares and luck
    (``luck_sums``), from which the luck's coefficient and the figures are had; with ``cut``,
    each cut game's score (``adjusted``)."""

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
    luck_terms: list[tuple[float, ...] | None] = dataclasses.field(default_factory=list)
    luck_sums: list[LuckSums] = dataclasses.field(default_factory=list)

    def __post_init__(self) -> None:
        self.totals = self.totals or [Fraction(0)] * self.seats
        self.squares = self.squares or [Fraction(0)] * self.seats
        self.luck_sums = self.luck_sums or [LuckSums() for _ in range(self.seats)]

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
        self.luck_terms += got.luck_terms
        if got.luck_terms:
            for won, luck in zip(got.per_game, got.luck_terms, strict=True):
                if won is not None and luck is not None:
                    for p in range(self.seats):
                        self.luck_sums[p].add(won[p], luck[p])

    def coefficient(self) -> Fraction | None:
        """With ``luck``, how much of each game's luck is taken off its shares: the slope
        fitted from this arm's games (:func:`~.intervals.luck_coefficient`), None (none
        taken off) with too few games."""
        return luck_coefficient(self.luck_sums)

    def chance(self, seat: int) -> Fraction:
        """Seat ``seat``'s share of the games that ended (0 before any did); with ``luck``
        the regression estimate, the mean share less the fitted coefficient times the mean
        luck (:func:`~.intervals.luck_interval`), with ``cut`` the mean of the cut games'
        scores (both to a millionth)."""
        if not self.ended:
            return Fraction(0)
        if self.luck:
            mean = luck_interval(self.luck_sums[seat], self.coefficient())[0]
            return Fraction(mean).limit_denominator(10**6)
        if self.cut:
            values = [v for v in self.shares(seat) if v is not None]
            return Fraction(sum(values) / len(values)).limit_denominator(10**6)
        return self.totals[seat] / self.ended

    def interval(self, seat: int) -> tuple[float, float]:
        """The 95% interval of :meth:`chance` (:func:`share_interval`; with ``luck`` the
        normal interval of the regression estimate, from the residual variance of the shares
        less the fitted luck, :func:`~.intervals.luck_interval`; with ``cut`` the normal
        interval of the scores, :func:`normal_interval`: an interval for the value model's
        score at the cut, not for the games' result)."""
        if self.luck:
            return luck_interval(self.luck_sums[seat], self.coefficient())[1:]
        if self.cut:
            return normal_interval([v for v in self.shares(seat) if v is not None])
        return share_interval(float(self.totals[seat]), float(self.squares[seat]), self.ended)

    def shares(self, seat: int) -> list[Any]:
        """Seat ``seat``'s share of each game, in task order (None: the game did not end);
        with ``luck`` the share less the luck of the game's rolls times this arm's fitted
        coefficient (:meth:`coefficient`), with ``cut`` each cut game's score (floats).

        A paired comparison of two arms (:func:`~.intervals.paired_difference`) takes each
        arm's games with its own coefficient: the mean of the differences is then the
        difference of the two arms' :meth:`chance`, and each coefficient, whatever it is,
        leaves its arm's figures unbiased (up to the order ``1/n`` of having been fitted
        from the same games). The difference's interval treats the coefficients as fixed."""
        if self.luck:
            b = float(self.coefficient() or 0)
            return [
                None if g is None or c is None else float(g[seat]) - b * c[seat]
                for g, c in zip(self.per_game, self.luck_terms, strict=True)
            ]
        games = self.adjusted if self.cut else self.per_game
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
    turns: Callable[[State], tuple[int, ...]] | None = None,
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
    ``progress(n)`` is told of every ``n`` games played (a game for every live arm).
    ``turns`` (with ``common``): the games draw by the game's turns
    (:func:`~coronas.engine.search.play`), so that the arms' games keep in step."""
    budget = setup.budget
    cost: float | None = None  # seconds one arm's game takes on one worker, once measured
    figures: Any = None
    for arm in arms:
        arm.luck, arm.cut = setup.luck, setup.horizon or 0
    turns = turns if common else None
    with Games(
        setup.seated, setup.seed, setup.executor, setup.jobs, setup.max_steps, turns
    ) as runs:
        size = setup.batch * setup.jobs
        while True:
            live = [a for a in arms if a.live]
            n = budget.next_batch(
                min(a.played for a in live),
                size,
                None if cost is None else cost * len(live),  # a game for every live arm
                setup.jobs,
            )
            tasks = runs.draw(n)
            batches = [tasks if common or k == 0 else runs.draw(n) for k in range(len(live))]

            def play(lo: int, hi: int) -> None:
                starts = [a.start for a in live]  # noqa: B023 (called at once)
                pieces = [mine[lo:hi] for mine in batches]  # noqa: B023
                got = runs.play_many(starts, pieces, setup.luck, setup.horizon)
                for arm, one in zip(live, got, strict=True):  # noqa: B023
                    arm.add(one)
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
