"""What a run of many games leaves behind: one :class:`GameRecord` per game, and the
:class:`ResultsFile` that keeps them as JSON Lines while the run goes on.

A results file is untrusted input when a run is resumed from it: every line is checked (sizes
bounded, known fields, values in range) before a record is built, and a file from another
run is refused naming the field that differs. :mod:`coronas.manygames.runner` plays the games.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

__all__ = ["OUTCOMES", "GameRecord", "ResultsFile", "ResultsFileError", "Task"]

OUTCOMES = ("ended", "cap", "error")
"""How a game ended: by the book, at the step cap, or with an error raised by a bot."""
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
"""Bounds on the numbers a results file may hold: players, games, actions of a game (a
run's own step cap, its header's ``max_steps``, bounds its games more tightly)."""
MAX_RETURN = 10**9
"""The largest score (in absolute value) a game's line may hold: far above any game's
points, low enough that sums and means of a million games stay finite and exact."""
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
    ``bots``, the labels of the pool, and may hold ``max_steps``, the step cap);
    ``"format"`` and ``"version"`` are added. A new file must not exist already. With
    ``resume=True`` an existing file is read back: its header must equal ``header`` field by
    field (the first field that differs is named), every line is checked as data a game could
    have left (:meth:`_record`: known fields; seats in the pool; winners distinct seats of
    the table; ``actions`` at most the step cap and ``decisions`` at most ``actions``;
    returns one finite number a seat, at most :data:`MAX_RETURN`) and ``done`` holds its
    records; a damaged last line (a write cut short) is dropped, to be played again. With
    ``resume=True`` and no file yet, a new one is started; a symbolic link to nothing is
    refused, naming where it points.
    """

    def __init__(self, path: str | os.PathLike[str], header: Mapping[str, Any], resume: bool):
        self.path = Path(path)
        self.header = json.loads(json.dumps({"format": FORMAT, "version": VERSION, **header}))

        def fail(message: str) -> ResultsFileError:
            return ResultsFileError(f"the run's description: {message}")

        self.games = _whole(header.get("games"), "games", 1, MAX_GAMES, fail)
        self.players = _whole(header.get("players"), "players", 1, MAX_PLAYERS, fail)
        self.labels = list(header.get("bots", ()))
        self.max_steps = _whole(header.get("max_steps", MAX_STEPS), "max_steps", 1, MAX_STEPS, fail)
        self.done: dict[int, GameRecord] = {}
        if self.path.is_symlink() and not self.path.exists():
            raise ResultsFileError(
                f"{self.path} is a symbolic link to {os.readlink(self.path)}, which does not "
                "exist: give the file itself, or remove the link"
            )
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

    def kept(self) -> int:
        """How many games the file holds now: its whole lines after the first. Read from the
        file itself, so that a Ctrl-C between a game's line and the count kept beside it
        (a progress bar's) cannot make the two disagree."""
        self._file.flush()
        with open(self.path, "rb") as lines:
            return max(0, sum(line.endswith(b"\n") for line in lines) - 1)

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
        if len(set(winners)) != len(winners):
            raise fail(f"'winners': expected different seats, got {_short(winners)}")
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
        actions = _whole(data["actions"], "actions", 0, self.max_steps, fail)
        decisions = _whole(data["decisions"], "decisions", 0, actions, fail)
        return GameRecord(
            index=_whole(data["game"], "game", 0, self.games - 1, fail),
            game_seed=_whole(data["game_seed"], "game_seed", 0, _SEED_LIMIT - 1, fail),
            play_seed=_whole(data["play_seed"], "play_seed", 0, _SEED_LIMIT - 1, fail),
            seats=tuple(seats),
            winners=tuple(winners),
            returns=tuple(_number_in(x, fail) for x in returns),
            actions=actions,
            decisions=decisions,
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
    """A score read back: a whole number, a finite float or ``"p/q"``, at most
    :data:`MAX_RETURN` in absolute value."""
    value: Any = None
    whole = isinstance(x, int) and not isinstance(x, bool)
    if whole or (isinstance(x, float) and math.isfinite(x)):
        value = x
    elif isinstance(x, str) and _FRACTION.fullmatch(x) and int(x.split("/")[1]):
        value = Fraction(x)
    if value is None or abs(value) > MAX_RETURN:
        raise fail(
            f"'returns': expected finite numbers from {-MAX_RETURN} to {MAX_RETURN}, "
            f"got {_short(x)}"
        )
    return value
