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
import json
import math
import os
import random
import re
import signal
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from coronas.engine import CHANCE, GameDidNotEnd, State, play

__all__ = [
    "DEFAULT_MAX_STEPS",
    "OUTCOMES",
    "GameRecord",
    "Match",
    "NewGame",
    "ResultsFile",
    "ResultsFileError",
    "Task",
    "draw_tasks",
    "play_task",
    "rotated_seats",
    "run",
]

DEFAULT_MAX_STEPS = 100_000
"""Actions (chance outcomes included) after which a game is stopped and recorded unfinished."""
OUTCOMES = ("ended", "cap", "error")
"""How a game ended: by the book, at the step cap, or with an error raised by a bot."""
IN_FLIGHT = 256
"""Chunks sent to an executor ahead of their results: tasks are drawn as the run goes, so a
million games never sit in memory as tasks all at once."""
MAX_MESSAGE = 500
"""The longest error message kept in a record, in characters."""
_SEED_LIMIT = 1 << 63


@dataclasses.dataclass(frozen=True)
class Task:
    """One game to play: its number in the run, its seeds, and ``seats[s]``, the index in the
    match's pool of bots of the bot at seat ``s``."""

    index: int
    game_seed: int
    play_seed: int
    seats: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """What one game left behind (enough to replay it).

    ``seats[s]`` is the index (in the pool of bots) of the bot at seat ``s``; ``winners`` and
    ``returns`` are by seat, as the game reports them (empty for an unfinished game);
    ``actions`` counts every applied action including chance outcomes, ``decisions`` only the
    players' choices. ``outcome`` is one of :data:`OUTCOMES`; ``message`` says why a game did
    not end (empty when it did).
    """

    index: int
    game_seed: int
    play_seed: int
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    returns: tuple[Any, ...]
    actions: int
    decisions: int
    outcome: str = "ended"
    message: str = ""

    @property
    def finished(self) -> bool:
        """Whether the game ended by its rules (not at the step cap, not by an error)."""
        return self.outcome == "ended"

    @property
    def winning_bots(self) -> tuple[int, ...]:
        """Indices (in the pool of bots) of the bots that won this game."""
        return tuple(sorted(self.seats[s] for s in self.winners))

    @property
    def task(self) -> Task:
        return Task(self.index, self.game_seed, self.play_seed, self.seats)


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


# -- the results file --------------------------------------------------------------------------


class ResultsFileError(ValueError):
    """A results file that cannot be continued: the message names the file, the line and the
    field, and what was expected."""


FORMAT = "coronas-results"
VERSION = 1
MAX_HEADER = 1 << 20
"""The longest first line of a results file, in bytes (it may hold rule sets and boards)."""
MAX_LINE = 1 << 16
"""The longest line of one game, in bytes."""
MAX_PLAYERS = 64
MAX_GAMES = 10**8
MAX_STEPS = 10**9
"""Bounds on the numbers a results file may hold: players, games, actions of a game."""
RECORD_FIELDS = (
    "game",
    "game_seed",
    "play_seed",
    "seats",
    "bots",
    "winners",
    "returns",
    "actions",
    "decisions",
    "outcome",
    "message",
)
"""The fields of a game's line in a results file."""


class ResultsFile:
    """A run's results as JSON Lines: a first line that describes the run, then one line per
    game, appended and flushed as each game finishes.

    ``header`` is the description (JSON-ready; it must hold ``games``, ``players`` and
    ``bots``, the labels of the pool); ``"format"`` and ``"version"`` are added. A new file
    must not exist already. With ``resume=True`` an existing file is read back: its header
    must equal ``header`` field by field (the first field that differs is named), every line
    is checked (bounded sizes, known fields, values in range) and ``done`` holds its records;
    a damaged last line (a write cut short) is dropped, to be played again. With
    ``resume=True`` and no file yet, a new one is started.
    """

    def __init__(self, path: str | os.PathLike[str], header: Mapping[str, Any], resume: bool):
        self.path = Path(path)
        self.header = json.loads(json.dumps({"format": FORMAT, "version": VERSION, **header}))

        def fail(message: str) -> ResultsFileError:
            return ResultsFileError(f"the run's description: {message}")

        self.games = _whole(header.get("games"), "games", 1, MAX_GAMES, fail)
        self.players = _whole(header.get("players"), "players", 1, MAX_PLAYERS, fail)
        self.labels = list(header.get("bots", ()))
        self.done: dict[int, GameRecord] = {}
        if resume and self.path.exists():
            keep = self._read()
            mode = "r+b"
        elif self.path.exists():
            raise FileExistsError(
                f"{self.path}: the file exists; continue it with resume, or choose another file"
            )
        else:
            keep, mode = 0, "xb"
        self._file = open(self.path, mode)  # noqa: SIM115 (open for the whole run)
        if keep:
            self._file.seek(keep)
            self._file.truncate()
        else:  # a new file, or one whose first line was never written whole
            self._file.truncate(0)
            self._write(self.header)

    def append(self, record: GameRecord) -> None:
        """Write one game's line and flush it to the operating system."""
        self._write(self._line(record))

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, data: Mapping[str, Any]) -> None:
        self._file.write(json.dumps(data, separators=(",", ":")).encode() + b"\n")
        self._file.flush()

    def _line(self, r: GameRecord) -> dict[str, Any]:
        return {
            "game": r.index,
            "game_seed": r.game_seed,
            "play_seed": r.play_seed,
            "seats": list(r.seats),
            "bots": [self.labels[b] if b < len(self.labels) else str(b) for b in r.seats],
            "winners": list(r.winners),
            "returns": [_number_out(x) for x in r.returns],
            "actions": r.actions,
            "decisions": r.decisions,
            "outcome": r.outcome,
            "message": r.message,
        }

    # -- reading back ----------------------------------------------------------------------
    def _fail(self, line: int, message: str) -> ResultsFileError:
        return ResultsFileError(f"{self.path}, line {line}: {message}")

    def _parse(self, raw: bytes, line: int) -> Any:
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise self._fail(line, "expected one JSON object on the line") from None

    def _read(self) -> int:
        """Read the file back into ``done``; the byte offset where the next line goes."""
        with open(self.path, "rb") as f:
            first = f.readline(MAX_HEADER + 1)
            if not first.endswith(b"\n"):
                if len(first) > MAX_HEADER:
                    raise self._fail(1, f"the first line is longer than {MAX_HEADER} bytes")
                return 0  # not even the first line was written whole: start again
            self._check_header(self._parse(first, 1))
            keep = f.tell()
            number = 1
            while True:
                line = f.readline(MAX_LINE + 1)
                if not line:
                    return keep
                number += 1
                if not line.endswith(b"\n"):
                    if len(line) > MAX_LINE:
                        raise self._fail(number, f"the line is longer than {MAX_LINE} bytes")
                    return keep  # the last line was cut short: dropped, its game played again
                try:
                    data = self._parse(line, number)
                except ResultsFileError:
                    if f.read(1):
                        raise
                    return keep  # a damaged last line: dropped
                record = self._record(data, number)
                if record.index in self.done:
                    raise self._fail(number, f"game {record.index} is in the file twice")
                self.done[record.index] = record
                keep = f.tell()

    def _check_header(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise self._fail(1, "expected an object describing the run")
        if data.get("format") != FORMAT:
            raise self._fail(1, f"'format': expected {FORMAT!r}: this is not a results file")
        for field, want in self.header.items():
            if field not in data:
                raise self._fail(1, f"{field!r} is missing")
            if data[field] != want:
                raise self._fail(
                    1,
                    f"this file is from another run: {field!r} is {_short(data[field])} "
                    f"there and {_short(want)} here",
                )
        extra = sorted(set(data) - set(self.header))
        if extra:
            raise self._fail(1, f"unknown field {extra[0]!r}: the file is from another run")

    def _record(self, data: Any, line: int) -> GameRecord:
        def fail(message: str) -> ResultsFileError:
            return self._fail(line, message)

        if not isinstance(data, dict):
            raise fail("expected an object for one game")
        fields = set(RECORD_FIELDS)
        unknown = sorted(set(data) - fields)
        if unknown:
            raise fail(f"unknown field {unknown[0]!r}")
        missing = sorted(fields - set(data))
        if missing:
            raise fail(f"{missing[0]!r} is missing")
        n, pool = self.players, max(1, len(self.labels))
        outcome = data["outcome"]
        if outcome not in OUTCOMES:
            raise fail(f"'outcome': expected one of {', '.join(OUTCOMES)}, got {_short(outcome)}")
        seats = _ints(data["seats"], "seats", 0, pool - 1, n, n, fail)
        winners = _ints(data["winners"], "winners", 0, n - 1, 0, n, fail)
        returns = data["returns"]
        size = n if outcome == "ended" else 0
        if not isinstance(returns, list) or len(returns) != size:
            raise fail(f"'returns': expected a list of {size} numbers")
        if (outcome == "ended") != bool(winners):
            raise fail("'winners': a game that ended has winners, an unfinished one none")
        message = data["message"]
        if not isinstance(message, str) or len(message) > MAX_MESSAGE:
            raise fail(f"'message': expected text of at most {MAX_MESSAGE} characters")
        bots = [self.labels[b] for b in seats] if self.labels else data["bots"]
        if data["bots"] != bots:
            raise fail(f"'bots': expected {_short(bots)} for seats {seats}")
        return GameRecord(
            index=_whole(data["game"], "game", 0, self.games - 1, fail),
            game_seed=_whole(data["game_seed"], "game_seed", 0, _SEED_LIMIT - 1, fail),
            play_seed=_whole(data["play_seed"], "play_seed", 0, _SEED_LIMIT - 1, fail),
            seats=tuple(seats),
            winners=tuple(winners),
            returns=tuple(_number_in(x, fail) for x in returns),
            actions=_whole(data["actions"], "actions", 0, MAX_STEPS, fail),
            decisions=_whole(data["decisions"], "decisions", 0, MAX_STEPS, fail),
            outcome=outcome,
            message=message,
        )


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _whole(value: Any, name: str, low: int, high: int, fail: Callable[[str], Exception]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise fail(f"{name!r}: expected a whole number from {low} to {high}, got {_short(value)}")
    return value


def _ints(
    value: Any,
    name: str,
    low: int,
    high: int,
    least: int,
    most: int,
    fail: Callable[[str], Exception],
) -> list[int]:
    if not isinstance(value, list) or not least <= len(value) <= most:
        raise fail(f"{name!r}: expected a list of {least} to {most} whole numbers")
    return [_whole(v, name, low, high, fail) for v in value]


_FRACTION = re.compile(r"-?\d{1,30}/\d{1,30}")


def _number_out(x: Any) -> Any:
    """A score as JSON: ints and floats as they are, a Fraction as ``"p/q"``."""
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    return x


def _number_in(x: Any, fail: Callable[[str], Exception]) -> Any:
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) < 10**30:
        return x
    if isinstance(x, float) and math.isfinite(x):
        return x
    if isinstance(x, str) and _FRACTION.fullmatch(x) and int(x.split("/")[1]):
        return Fraction(x)
    raise fail(f"'returns': expected numbers, got {_short(x)}")
