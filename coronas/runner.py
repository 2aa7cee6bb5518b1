"""One runner of many games, under ``simulate``, tournaments and win chances.

A run is a :class:`Match` (how a game starts, the pool of bots, the step cap) and a stream
of :class:`Task` (one per game: its index, its two seeds and which bot of the pool sits at
each seat). :func:`run` plays the tasks and gives back one :class:`GameRecord` per game, in
game order. What it guarantees:

* **Seeds drawn up front.** :func:`draw_tasks` draws each game's seeds in game order from
  ``random.Random(seed)``, so a game is the same whatever plays it, in whatever order.
* **Any executor.** Games go in chunks to any :class:`concurrent.futures.Executor` (a process
  pool, a dask client's ``get_executor()``), at most ``IN_FLIGHT`` chunks at a time; a chunk
  whose future fails (a worker killed) is sent again, ``retries`` times at most. The match
  travels to the workers, so its parts must be picklable (module-level classes,
  :func:`functools.partial`), not lambdas.
* **Never fatal.** A game that reaches the step cap, or whose bot raises, is a record too
  (``outcome`` ``"cap"`` or ``"error"``, with its seeds and the message), never anyone's
  win; the run goes on. ``strict=True`` stops at the first such game instead.
* **Kept as it finishes.** With a :class:`ResultsFile` each record is appended and flushed to
  a JSON Lines file as it comes back; a run read back with ``resume`` plays only the games
  the file lacks, with the same seeds, so it ends as an uninterrupted run would.

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
import dataclasses
import os
import random
import signal
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from coronas.engine import CHANCE, GameDidNotEnd, State, play
from coronas.results import (
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
    "GameRecord",
    "Interrupted",
    "Match",
    "NewGame",
    "ResultsFile",
    "ResultsFileError",
    "Task",
    "draw_tasks",
    "play_task",
    "rotated_seats",
    "run",
    "run_games",
]

DEFAULT_MAX_STEPS = 100_000
"""Actions (chance outcomes included) after which a game is stopped and recorded unfinished."""
IN_FLIGHT = 256
"""Chunks sent to an executor ahead of their results: tasks are drawn as the run goes, so a
million games never sit in memory as tasks all at once."""


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
    is the pool the tasks' seats index, ``max_steps`` the step cap."""

    start: Callable[[int], State]
    bots: Sequence[Any]
    max_steps: int = DEFAULT_MAX_STEPS


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


def play_task(match: Match, task: Task) -> tuple[State, GameRecord]:
    """Play one game; the final (or stopped) state and its record. A bot's error and the
    step cap become the record's outcome, never an exception."""
    state = match.start(task.game_seed)
    seated = [match.bots[b] for b in task.seats]
    decisions = 0

    def count(s: State, action: Any) -> None:
        nonlocal decisions
        if s.current_player != CHANCE:
            decisions += 1

    outcome, message = "ended", ""
    try:
        play(
            state,
            seated,
            random.Random(task.play_seed),
            max_steps=match.max_steps,
            callback=count,
        )
    except GameDidNotEnd as exc:
        outcome, message = "cap", str(exc)
    except Exception as exc:  # a bot's failure is a result of the run, not its end
        outcome = "error"
        message = f"{type(exc).__name__}: {exc}"[:MAX_MESSAGE]
    finished = outcome == "ended"
    record = GameRecord(
        index=task.index,
        game_seed=task.game_seed,
        play_seed=task.play_seed,
        seats=task.seats,
        winners=tuple(state.winners()) if finished else (),
        returns=tuple(state.returns()) if finished else (),
        actions=len(state.history),
        decisions=decisions,
        outcome=outcome,
        message=message,
    )
    return state, record


def play_chunk(match: Match, tasks: Sequence[Task]) -> list[GameRecord]:
    """A worker's entry point: play a chunk of games (module level, so processes import it)."""
    return [play_task(match, task)[1] for task in tasks]


def _quiet_worker() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops the run and says so."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(
    match: Match,
    tasks: Iterable[Task],
    *,
    executor: concurrent.futures.Executor | None = None,
    jobs: int = 1,
    chunk_size: int = 16,
    strict: bool = False,
    results: ResultsFile | None = None,
    done: Mapping[int, GameRecord] | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    retries: int = 2,
) -> list[GameRecord]:
    """Play ``tasks`` and return every game's record in game order.

    The games run on ``executor`` if given (it is left open), else on a process pool of
    ``jobs`` workers when ``jobs > 1``, else here, one at a time. ``done`` maps game indices
    already played (read back from a results file) to their records: those tasks are checked
    against the records (the same seeds and seats) and not played again. ``results`` receives
    each new record as it comes back, ``on_record(record)`` is called for it (a progress bar,
    a live table). ``strict`` raises :class:`RuntimeError` at the first game that did not end.
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

    own_pool = None
    try:
        if executor is None and jobs > 1:
            own_pool = executor = concurrent.futures.ProcessPoolExecutor(
                jobs, initializer=_quiet_worker
            )
        if executor is None:
            for task in todo():
                keep(play_task(match, task)[1])
        else:
            _run_on(executor, match, _batched(todo(), chunk_size), keep, retries)
    finally:
        if own_pool is not None:
            own_pool.shutdown(cancel_futures=True)
    return [records[i] for i in sorted(records)]


def _batched(tasks: Iterator[Task], size: int) -> Iterator[list[Task]]:
    chunk: list[Task] = []
    for task in tasks:
        chunk.append(task)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _run_on(
    executor: concurrent.futures.Executor,
    match: Match,
    chunks: Iterator[list[Task]],
    keep: Callable[[GameRecord], None],
    retries: int,
) -> None:
    """Play the chunks on ``executor``, at most ``IN_FLIGHT`` at a time; a chunk whose future
    fails is sent again (at most ``retries`` times), so a lost worker loses no game."""
    pending: dict[concurrent.futures.Future, tuple[list[Task], int]] = {}

    def send(chunk: list[Task], tries: int = 0) -> None:
        pending[executor.submit(play_chunk, match, chunk)] = (chunk, tries)

    try:
        for chunk in chunks:
            send(chunk)
            if len(pending) >= IN_FLIGHT:
                break
        while pending:
            finished, _ = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for future in finished:
                chunk, tries = pending.pop(future)
                try:
                    got = future.result()
                except Exception:
                    if tries >= retries:
                        raise
                    send(chunk, tries + 1)
                    continue
                for record in got:
                    keep(record)
                for chunk in chunks:
                    send(chunk)
                    break
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
    chunk_size: int = 16,
    strict: bool = False,
) -> list[GameRecord]:
    """Play ``tasks`` (``n_games`` of them) with :func:`coronas.runner.run`: every record in
    game order, kept in the results file ``out`` (described by ``header``; ``resume``
    continues it) as each game finishes, with a tqdm bar titled ``progress`` (None: no bar).
    Ctrl-C with a results file raises :class:`Interrupted`, saying how to continue.
    Shared by :func:`coronas.simulate.simulate` and :func:`coronas.tournament.tournament`."""
    results = None
    if out is not None:
        results = ResultsFile(out, header or {}, resume=resume)
    done = results.done if results is not None else {}
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_games, initial=len(done), desc=progress, unit="game")
    played = len(done)

    def tick(record: GameRecord) -> None:
        nonlocal played
        played += 1
        if bar is not None:
            bar.update(1)

    try:
        return run(
            match,
            tasks,
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
        raise Interrupted(played, n_games, out) from None
    finally:
        if results is not None:
            results.close()
        if bar is not None:
            bar.close()
