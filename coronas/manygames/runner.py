"""One runner of many games, under ``simulate``, tournaments and win chances.

A run is a :class:`Match` (how a game starts, the pool of bots, the step cap) and a stream
of :class:`Task` (one per game: its index, its two seeds and which bot of the pool sits at
each seat). :func:`run` plays the tasks and gives back one :class:`GameRecord` per game, in
game order. What it guarantees:

* **Seeds drawn up front.** :func:`draw_tasks` draws each game's seeds in game order from
  ``random.Random(seed)``, so a game is the same whatever plays it, in whatever order.
* **Any executor.** Games go in chunks to any :class:`concurrent.futures.Executor` (a process
  pool, a dask client's ``get_executor()``), at most ``IN_FLIGHT`` chunks at a time; a chunk
  whose future fails (a worker killed) is sent again, ``retries`` times at most. Unless told
  otherwise a chunk is sized to take about ``CHUNK_SECONDS`` (one game when games are slow),
  so records come back nearly as the games end. The match travels to the workers, so its
  parts must be picklable (module-level classes, :func:`functools.partial`), not lambdas.
* **Never fatal.** A game that reaches the step cap, or whose bot raises, is a record too
  (``outcome`` ``"cap"`` or ``"error"``, with its seeds and the message), never anyone's
  win; the run goes on. ``strict=True`` stops at the first such game instead.
* **Kept as it finishes.** With a :class:`ResultsFile` each record is appended and flushed to
  a JSON Lines file as it comes back; a run read back with ``resume`` plays only the games
  the file lacks, with the same seeds, so it ends as an uninterrupted run would.
* **One Ctrl-C stops it.** Worker processes ignore SIGINT; the parent's
  :class:`KeyboardInterrupt` cancels the chunks not started, and :func:`worker_pool` (the
  pool ``jobs > 1`` makes) terminates its workers even in the middle of a game, so the run
  ends at once with every record that came back kept. An executor passed in is left running
  (its queued chunks cancelled): it belongs to the caller.

The parts are chosen so that other kinds of runs need no change here:

* ``Match.start(game_seed)`` makes the start :class:`~coronas.engine.State` of a game:
  :class:`NewGame` wraps a game factory for whole games; a win-chance estimate passes a
  callable that resamples a position for a viewer from the seed.
* ``Task.seats`` indexes the pool ``Match.bots``, one entry per seat: a simulation rotates
  one line-up (:func:`rotated_seats`), a tournament draws several line-ups from a larger pool
  in one run and one results file (any ``seating(i)``).

    >>> from functools import partial
    >>> from coronas.batalla import Game
    >>> from coronas.engine import RandomBot
    >>> match = Match(NewGame(Game), (RandomBot(), RandomBot()))
    >>> records = run(match, draw_tasks(1, 4, partial(rotated_seats, players=2)))
    >>> [r.index for r in records], all(r.finished for r in records)
    ([0, 1, 2, 3], True)
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import itertools
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from coronas.engine import CHANCE, GameDidNotEnd, State, play
from coronas.formatting import plural
from coronas.manygames.pool import stop_workers, worker_pool
from coronas.manygames.results import (
    MAX_MESSAGE,
    OUTCOMES,
    GameRecord,
    ResultsFile,
    ResultsFileError,
    Task,
)

__all__ = [
    "DEFAULT_MAX_STEPS",
    "OUTCOMES",
    "SAY_LONGER_THAN",
    "GameRecord",
    "Interrupted",
    "Match",
    "NewGame",
    "ResultsFile",
    "ResultsFileError",
    "Task",
    "draw_tasks",
    "game_record",
    "play_task",
    "rotated_seats",
    "run",
    "run_games",
    "run_many",
    "stop_workers",
    "worker_pool",
]

DEFAULT_MAX_STEPS = 100_000
"""Actions (chance outcomes included) after which a game is stopped and recorded unfinished."""
IN_FLIGHT = 256
"""Chunks sent to an executor ahead of their results: tasks are drawn as the run goes, so a
million games never sit in memory as tasks all at once."""
CHUNK_SECONDS = 0.2
"""What a chunk of games should take when ``run`` sizes the chunks itself: short, so that a
game's record comes back (and is kept) soon after it ends and Ctrl-C loses little."""
MAX_CHUNK = 256
"""The most games in a chunk that ``run`` sizes itself."""
SAY_LONGER_THAN = 120.0
"""A run with a progress bar whose estimate is longer than this (seconds) says so, on one
line, before the rest of its games are played."""


class NewGame:
    """``Match.start`` for whole games: ``NewGame(factory)(seed)`` is
    ``factory(seed=seed).new_initial_state()``. Picklable when ``factory`` is."""

    def __init__(self, factory: Callable[..., Any]):
        self.factory = factory

    def __call__(self, game_seed: int) -> State:
        return self.factory(seed=game_seed).new_initial_state()

    def __repr__(self) -> str:
        return f"NewGame({self.factory!r})"


@dataclasses.dataclass(frozen=True)
class Match:
    """What every game of a run shares: ``start(game_seed)`` makes its first state, ``bots``
    is the pool the tasks' seats index, ``max_steps`` the step cap, ``turns`` the game's
    turns where its draws follow them (:func:`~coronas.engine.search.play`)."""

    start: Callable[[int], State]
    bots: Sequence[Any]
    max_steps: int = DEFAULT_MAX_STEPS
    turns: Callable[[State], tuple[int, ...]] | None = None


def rotated_seats(index: int, players: int, rotate: bool = True) -> tuple[int, ...]:
    """The seating of one line-up ``0..players-1`` for game ``index``: bot ``j`` at seat
    ``(index + j) % players`` (or always at seat ``j`` when ``rotate`` is false).

    >>> [rotated_seats(i, 3) for i in range(3)]
    [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    """
    shift = index % players if rotate else 0
    return tuple((s - shift) % players for s in range(players))


def draw_tasks(
    seed: int, n_games: int, seating: Callable[[int], tuple[int, ...]]
) -> Iterator[Task]:
    """The games' tasks in game order, drawn as they are needed: game ``i`` takes the
    ``2i``-th and ``2i+1``-th 63-bit numbers of ``random.Random(seed)`` as its game and play
    seeds, and ``seating(i)`` as its seats."""
    master = random.Random(seed)
    for i in range(n_games):
        yield Task(i, master.getrandbits(63), master.getrandbits(63), tuple(seating(i)))


def play_task(
    match: Match, task: Task, watch: Callable[[State, Any], None] | None = None
) -> tuple[State, GameRecord]:
    """Play one game; the final (or stopped) state and its record. A bot's error and the
    step cap become the record's outcome, never an exception. ``watch(state, action)`` is
    called before each action is applied (the luck of a game's rolls is measured so)."""
    state = match.start(task.game_seed)
    seated = [match.bots[b] for b in task.seats]
    decisions = 0

    def count(s: State, action: Any) -> None:
        nonlocal decisions
        if s.current_player != CHANCE:
            decisions += 1
        if watch is not None:
            watch(s, action)

    outcome, message = "ended", ""
    try:
        play(
            state,
            seated,
            random.Random(task.play_seed),
            max_steps=match.max_steps,
            callback=count,
            turns=match.turns,
        )
    except GameDidNotEnd as exc:
        outcome, message = "cap", str(exc)
    except Exception as exc:  # a bot's failure is a result of the run, not its end
        outcome = "error"
        message = f"{type(exc).__name__}: {exc}"[:MAX_MESSAGE]
    return state, game_record(task, state, outcome, message, decisions)


def game_record(task: Task, state: State, outcome: str, message: str, decisions: int) -> GameRecord:
    """The record of ``task``'s game, stopped at ``state`` for ``outcome`` (its winners and
    returns only if it ``"ended"`` at the end of the game)."""
    over = outcome == "ended" and state.is_terminal()
    return GameRecord(
        index=task.index,
        game_seed=task.game_seed,
        play_seed=task.play_seed,
        seats=task.seats,
        winners=tuple(state.winners()) if over else (),
        returns=tuple(state.returns()) if over else (),
        actions=len(state.history),
        decisions=decisions,
        outcome=outcome,
        message=message,
    )


def play_chunk(
    match: Match, tasks: Sequence[Task], sending: int = 0
) -> tuple[list[GameRecord], float]:
    """A worker's entry point: play a chunk of games (module level, so processes import
    it); their records and the seconds they took (to size the next chunks). ``sending`` is
    unused by the games: a number drawn anew for each sending, so that a cluster that names
    a task by its arguments (dask) never answers a chunk sent again with one it cancelled."""
    began = time.perf_counter()
    records = [play_task(match, task)[1] for task in tasks]
    return records, time.perf_counter() - began


def run(
    match: Match,
    tasks: Iterable[Task],
    *,
    executor: concurrent.futures.Executor | None = None,
    jobs: int = 1,
    chunk_size: int | None = None,
    strict: bool = False,
    results: ResultsFile | None = None,
    done: Mapping[int, GameRecord] | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    retries: int = 2,
) -> list[GameRecord]:
    """Play ``tasks`` and return every game's record in game order.

    The games run on ``executor`` if given (it is left open), else on a process pool of
    ``jobs`` workers when ``jobs > 1`` (:func:`worker_pool`), else here, one at a time.
    ``chunk_size`` games go to a worker at once; None sizes the chunks to take about
    ``CHUNK_SECONDS`` each, from the time the games take. ``done`` maps game indices
    already played (read back from a results file) to their records: those tasks are checked
    against the records (the same seeds and seats) and not played again. ``results`` receives
    each new record as it comes back, ``on_record(record)`` is called for it (a progress bar,
    a live table). ``strict`` raises :class:`RuntimeError` at the first game that did not end.
    Ctrl-C raises :class:`KeyboardInterrupt` at once, every record that came back before it
    kept; the pool made here is stopped, its workers terminated.
    """
    done = dict(done or {})
    records = dict(done)

    def todo() -> Iterator[Task]:
        for task in tasks:
            old = done.get(task.index)
            if old is None:
                yield task
            elif old.task != task:
                raise ResultsFileError(
                    f"game {task.index} in the results file has other seeds or seats than "
                    "this run would give it: the file is from another run"
                )

    def keep(record: GameRecord) -> None:
        if strict and not record.finished:
            raise RuntimeError(
                f"game {record.index} (game seed {record.game_seed}, play seed "
                f"{record.play_seed}): {record.message}"
            )
        records[record.index] = record
        if results is not None:
            results.append(record)
        if on_record is not None:
            on_record(record)

    if executor is None and jobs > 1:
        with worker_pool(jobs) as pool:
            _run_on(pool, [(match, _Chunks(todo(), chunk_size), keep)], retries)
    elif executor is None:
        for task in todo():
            keep(play_task(match, task)[1])
    else:
        _run_on(executor, [(match, _Chunks(todo(), chunk_size), keep)], retries)
    return [records[i] for i in sorted(records)]


def run_many(
    runs: Sequence[tuple[Match, Sequence[Task]]],
    *,
    executor: concurrent.futures.Executor | None = None,
    chunk_size: int | None = None,
    retries: int = 2,
) -> list[list[GameRecord]]:
    """Play several runs' tasks at once, each run's records in its tasks' order: as
    :func:`run` for each ``(match, tasks)`` in turn, but on ``executor`` every run's chunks
    are sent before any is waited for, so that the workers never wait for the last chunk of
    one run before the next run's begin (the moves of a ranking, each played on the same
    games). Without an executor, here, one game at a time."""
    got: list[dict[int, GameRecord]] = [{} for _ in runs]
    if executor is None:
        for k, (match, tasks) in enumerate(runs):
            for task in tasks:
                got[k][task.index] = play_task(match, task)[1]
    else:
        sources = [
            (match, _Chunks(iter(tasks), chunk_size), partial(_keep_in, got[k]))
            for k, (match, tasks) in enumerate(runs)
        ]
        _run_on(executor, sources, retries)
    return [[mine[i] for i in sorted(mine)] for mine in got]


def _keep_in(records: dict[int, GameRecord], record: GameRecord) -> None:
    records[record.index] = record


class _Chunks:
    """The tasks cut into chunks: of ``size`` games, or (``size`` None) of as many games
    as take about ``CHUNK_SECONDS``, from the seconds a game has taken so far (one game
    until a chunk has come back)."""

    def __init__(self, tasks: Iterator[Task], size: int | None):
        self.tasks, self.size = tasks, size
        self.games, self.seconds = 0, 0.0

    def timed(self, games: int, seconds: float) -> None:
        self.games += games
        self.seconds += seconds

    def next(self) -> list[Task]:
        size = self.size
        if size is None:
            if not self.games:
                size = 1
            else:
                per_game = max(self.seconds / self.games, 1e-6)
                size = max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / per_game)))
        return list(itertools.islice(self.tasks, size))


def _run_on(
    executor: concurrent.futures.Executor,
    sources: Sequence[tuple[Match, _Chunks, Callable[[GameRecord], None]]],
    retries: int,
) -> None:
    """Play the chunks of every source ``(match, chunks, keep)`` on ``executor``, one source
    after another, at most ``IN_FLIGHT`` chunks at a time, each record to its source's
    ``keep``; a chunk whose future fails is sent again (at most ``retries`` times), so a lost
    worker loses no game. Any exception (Ctrl-C) cancels the chunks not started and returns at
    once."""
    Sent = tuple[list[Task], int, int]  # the chunk, its tries, its source
    pending: dict[concurrent.futures.Future, Sent] = {}
    current = 0  # the source whose chunks are being sent

    def send(chunk: list[Task], source: int, tries: int = 0) -> None:
        sending = int.from_bytes(os.urandom(8), "big")
        match = sources[source][0]
        pending[executor.submit(play_chunk, match, chunk, sending)] = (chunk, tries, source)

    def send_next() -> bool:
        nonlocal current
        while current < len(sources):
            chunk = sources[current][1].next()
            if chunk:
                send(chunk, current)
                return True
            current += 1
        return False

    try:
        while len(pending) < IN_FLIGHT and send_next():
            pass
        while pending:
            finished, _ = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for future in finished:
                chunk, tries, source = pending.pop(future)
                try:
                    got, seconds = future.result()
                except Exception:
                    if tries >= retries:
                        raise
                    send(chunk, source, tries + 1)
                    continue
                _, chunks, keep = sources[source]
                chunks.timed(len(got), seconds)
                for record in got:
                    keep(record)
                send_next()
    except BaseException:
        for future in pending:
            future.cancel()
        raise


class Interrupted(KeyboardInterrupt):
    """A run with a results file stopped by Ctrl-C: ``played`` of ``total`` games are kept in
    ``path``, and the same call with ``resume=True`` finishes it."""

    def __init__(self, played: int, total: int, path: Any):
        self.played, self.total, self.path = played, total, path
        super().__init__(
            f"interrupted after {played} of {total} games; they are kept in {path}: "
            "continue with the same arguments and resume=True"
        )


class _Estimate:
    """How long the rest of a run takes, from the time the first game of each group of
    games (a tournament's line-up; a simulation is one group) took here, alone: the bar's
    rate and time left are right from the first game on, where tqdm's own, measured on the
    games that finish first (the quick ones), promise a search bot's hours in seconds."""

    def __init__(self, groups: Sequence[range], workers: int):
        self.groups, self.workers = list(groups), max(1, workers)
        self.cost: dict[int, float] = {}  # group -> seconds of its first game
        self.left = [len(g) for g in self.groups]
        self.ready = False  # every group's first game timed
        self.began = 0.0  # when the games after the first ones began
        self.done = 0.0  # the estimated seconds (on one core) of the games played since

    def start(self) -> None:
        """The first games are timed: the estimate holds from here on."""
        self.ready, self.began = True, time.monotonic()

    def group(self, index: int) -> int:
        return next(g for g, r in enumerate(self.groups) if index in r)

    def played(self, index: int) -> None:
        g = self.group(index)
        self.left[g] -= 1
        if self.ready:
            self.done += self.cost.get(g, 0.0)

    def _scale(self) -> float:
        """Measured time over estimated time, once a fifth of the work is done and 5 s have
        passed (before that the games in play would weigh too much): a first game that was
        shorter or longer than the run's games stops misleading the bar."""
        total = self.done + sum(self.cost.get(g, 0.0) * n for g, n in enumerate(self.left))
        elapsed = time.monotonic() - self.began
        if not self.ready or self.done < 0.2 * total or elapsed < 5 or self.done <= 0:
            return 1.0
        return elapsed / (self.done / self.workers)

    def seconds_left(self) -> float:
        left = sum(self.cost.get(g, 0.0) * n for g, n in enumerate(self.left)) / self.workers
        return left * self._scale()

    def per_game(self) -> float:
        total = sum(len(r) for r in self.groups)
        spent = sum(self.cost.get(g, 0.0) * len(r) for g, r in enumerate(self.groups))
        return spent / max(1, total) / self.workers * self._scale()

    def line(self) -> str:
        """``about 12 minutes on 2 workers (first game took 21.9 s)``."""
        minutes = max(1, round(self.seconds_left() / 60))
        costs = sorted(self.cost.values())
        took = (
            f"first game took {costs[0]:.1f} s"
            if len(costs) == 1 or costs[-1] - costs[0] < 0.05
            else f"first games took {costs[0]:.1f} s to {costs[-1]:.1f} s"
        )
        workers = plural(self.workers, "worker")
        return f"about {plural(minutes, 'minute')} on {workers} ({took})"

    def postfix(self) -> str:
        left = int(self.seconds_left())
        clock = f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}"
        each = self.per_game()
        rate = f"{each:.1f} s a game" if each >= 1 else f"{1 / max(each, 1e-9):.1f} games/s"
        return f"about {clock.removeprefix('0:')} left, {rate}"


def run_games(
    match: Match,
    tasks: Any,
    n_games: int,
    *,
    out: str | os.PathLike[str] | None = None,
    header: dict[str, Any] | None = None,
    resume: bool = False,
    progress: str | None = None,
    executor: concurrent.futures.Executor | None = None,
    jobs: int = 1,
    chunk_size: int | None = None,
    strict: bool = False,
    groups: Sequence[range] | None = None,
) -> list[GameRecord]:
    """Play ``tasks`` (``n_games`` of them) with :func:`run`: every record in
    game order, kept in the results file ``out`` (described by ``header``; ``resume``
    continues it) as each game finishes, with a tqdm bar titled ``progress`` (None: no bar).
    Ctrl-C with a results file raises :class:`Interrupted`, saying how to continue.
    Shared by :func:`~coronas.manygames.simulate.simulate` and
    :func:`~coronas.manygames.tournament.tournament`.

    With a bar, the first game of each of ``groups`` (game indices that cost alike: a
    tournament's line-ups; None is one group of every game) is played here first and timed,
    and the bar's rate and time left are estimated from those times; a run estimated at more
    than :data:`SAY_LONGER_THAN` seconds says so on one line before the rest is played
    (``about 12 minutes on 2 workers (first game took 21.9 s)``). ``tasks`` is then a
    function that draws the tasks afresh (it is called twice), or an iterable of them.
    """
    results = None
    if out is not None:
        results = ResultsFile(out, header or {}, resume=resume)
    done = dict(results.done) if results is not None else {}
    bar = None
    estimate = None
    again = callable(tasks) or isinstance(tasks, Sequence)  # the first games drawn apart
    if progress and not again:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_games, initial=len(done), desc=progress, unit="game")
    elif progress:
        from tqdm.auto import tqdm

        estimate = _Estimate(groups or [range(n_games)], jobs if executor is None else 1)
        for index in done:
            estimate.played(index)
        bar = tqdm(
            total=n_games,
            initial=len(done),
            desc=progress,
            unit="game",
            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]",
        )
        bar.set_postfix_str("timing the first games", refresh=True)
    played = len(done)

    def tick(record: GameRecord) -> None:
        nonlocal played
        played += 1
        if estimate is not None:
            estimate.played(record.index)
        if bar is not None:
            if estimate is not None and estimate.ready:
                bar.set_postfix_str(estimate.postfix(), refresh=False)
            bar.update(1)

    try:
        if estimate is not None and bar is not None:
            firsts = [next((i for i in r if i not in done), None) for r in estimate.groups]
            wanted = {i: g for g, i in enumerate(firsts) if i is not None}
            drawn = tasks() if callable(tasks) else tasks
            for task in itertools.islice(drawn, max(wanted, default=-1) + 1):
                if task.index not in wanted:
                    continue
                began = time.perf_counter()
                (record,) = run(match, [task], strict=strict, results=results, on_record=tick)
                estimate.cost[wanted[task.index]] = time.perf_counter() - began
                done[task.index] = record
            estimate.start()
            if estimate.seconds_left() > SAY_LONGER_THAN:
                bar.write(f"{progress}: {estimate.line()}", file=sys.stderr)
            bar.set_postfix_str(estimate.postfix(), refresh=True)
        return run(
            match,
            tasks() if callable(tasks) else tasks,
            executor=executor,
            jobs=jobs,
            chunk_size=chunk_size,
            strict=strict,
            results=results,
            done=done,
            on_record=tick,
        )
    except KeyboardInterrupt:
        if results is None:
            raise
        with contextlib.suppress(OSError):  # else (the file moved away) the games seen back
            played = results.kept()
        raise Interrupted(played, n_games, out) from None
    finally:
        if results is not None:
            results.close()
        if bar is not None:
            bar.close()
