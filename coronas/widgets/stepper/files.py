"""Saving the stepper's game to a file and loading one back (the engine's JSON; a locked
table's sealed under a passphrase, :mod:`~coronas.widgets.stepper.sealed`)."""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from coronas.engine import SaveFileError, State
from coronas.engine.saving import load_game_text
from coronas.engine.textfile import parse_json, read_text_file
from coronas.widgets.stepper.sealed import (
    Check,
    Table,
    is_table,
    passphrase_problem,
    read_table,
    table_text,
)
from coronas.widgets.stepper.seats import PASS_AND_PLAY

__all__ = ["SAVES", "SaveLoad", "default_save_path"]

SAVES = "saves"  # the folder steppers save to by default (git ignores it)


def default_save_path(state: State) -> str:
    """Where a stepper saves by default: ``saves/<game>-<token>.json`` in a folder git
    ignores, named after the game and a random token that no file there and no other
    stepper of this session has, so no two steppers share a file, even of one position."""
    while True:
        path = f"{SAVES}/{state.game.name}-{secrets.token_hex(4)}.json"
        if path not in _GIVEN and not Path(path).exists():
            _GIVEN.add(path)
            return path


_GIVEN: set[str] = set()  # the default files given to this session's steppers


def _steps(state: State) -> str:
    n = len(state.history)
    return f"{n} step" + ("" if n == 1 else "s")


def _missing(kept: list[Any], notes: list[Any]) -> list[Any]:
    """The notes of ``kept`` that ``notes`` does not have (counted: a note twice in
    ``kept`` and once in ``notes`` is missing once), in their order."""
    left = Counter(notes)
    missing = []
    for note in kept:
        if left[note]:
            left[note] -= 1
        else:
            missing.append(note)
    return missing


class SaveLoad:
    """Save and Load for :class:`~coronas.widgets.stepper.StepperModel`, which provides the
    state, the names, the message, the log, the table's lock and notes and the bots these
    methods read and replace."""

    state: State
    names: tuple[str, ...] | None
    message: str
    _entries: list[Any]
    notes: list[tuple[int, str]]
    view: Any
    humans: frozenset[int]
    view_locked: bool
    locked: bool
    _pins: dict[int, bytes]
    _pin_salt: bytes
    _salt: bytes
    _teacher: Check | None
    _sealed_with: Check | None
    existing: str | None = None
    """The file the last Save refused because it exists (None otherwise): a view asks
    whether to overwrite it."""

    # provided by the model:
    _history_log: Callable[[State], list[Any]]
    _seat_bots: Callable[[State], Any]
    _open_table: Callable[[Table | None, bool], None]

    def save(
        self, path: str | Path, passphrase: str | None = None, overwrite: bool = False
    ) -> bool:
        """Write the game to the file ``path`` as JSON (:meth:`State.save
        <coronas.engine.State.save>`): its parameters and every step so far, so that
        :meth:`load` gives back an equal state (a position set up by hand too: its game
        records it). A locked table writes a table file (:mod:`~coronas.widgets.stepper.sealed`)
        sealed whole under ``passphrase`` (at least 8 characters, not only spaces), with the
        seats' PINs and the teacher's passphrase check; it opens again as a locked table in
        pass and play (a locked seat's view as pass and play with that seat's person only). A
        table unlocked since writes one in the clear whose notes say so. An existing file is
        replaced only with ``overwrite=True`` (it may be another table's save). False, with
        the reason naming the file and nothing written, if the passphrase is missing or too
        short, the file exists, or it cannot be written."""
        self.existing = None
        if not str(path).strip():
            self.message = "type the name of the file to save to"
            return False
        if self.locked:
            problem = passphrase_problem(passphrase)
            if problem is not None:
                self.message = (
                    f"type a passphrase ({problem}, not only spaces): a locked table saves "
                    "its secrets sealed under it"
                )
                return False
        if Path(path).exists() and not Path(path).is_dir() and not overwrite:
            self.existing = str(path)
            self.message = (
                f"{path}: the file exists (perhaps another table's save): nothing was written; "
                "save with overwrite=True to replace it, or choose another name"
            )
            return False
        try:
            if Path(path).parent == Path(SAVES):  # the steppers' own folder, made when needed
                Path(SAVES).mkdir(exist_ok=True)
            if self.locked or self.notes:
                # a sealed table opens in pass and play; a locked seat's view, with its person
                humans = self.humans if self.view == PASS_AND_PLAY else {self.view}
                table = Table(
                    PASS_AND_PLAY if self.locked else self.view,
                    tuple(humans if self.locked else self.humans),
                    self.locked,
                    tuple(self.notes),
                    pins=tuple(self._pins.items()),
                    pin_salt=self._pin_salt,
                    teacher=self._teacher,
                )
                log = [e.for_viewer(None) for e in self._entries]
                text, check = table_text(self.state, table, log, passphrase)
                Path(path).write_text(text, "utf-8")
                if check is not None:
                    self._sealed_with = check
            else:
                self.state.save(path)
        except OSError as exc:
            self.message = f"{path}: cannot write the file ({exc.strerror or exc})"
            return False
        sealed = "sealed " if self.locked else ""
        self.message = f"saved {_steps(self.state)} {sealed}to {path}"
        return True

    def _adopt_sealed(self, table: Table) -> None:
        """A sealed table's PINs, teacher and passphrase, after a Load: the PINs and the
        passphrase that opened it are the file's; a teacher's passphrase the table already
        had stays (a file cannot take the unlock from the teacher), else the file's."""
        n = self.state.num_players
        self._salt = table.pin_salt
        self._pins = {seat: digest for seat, digest in table.pins if seat < n}
        self._teacher = self._teacher or table.teacher
        self._sealed_with = table.opened_with

    def load(self, path: str | Path, passphrase: str | None = None) -> bool:
        """Replace the game with the one saved in the file ``path`` (by :meth:`save`,
        ``State.save`` or ``coronas play --save``), read with
        :func:`~coronas.engine.saving.load_game_text`; a sealed table file is opened with
        ``passphrase`` and gives a locked table in pass and play, with the seats' PINs and
        the notes it was saved with. The log is rebuilt from its history; the bots stay. At
        a locked table the load is written in every seat's log, and no note is lost. False,
        with the reason naming the file, and nothing changed, if the file is missing, is not
        a saved game, is sealed under another passphrase or altered, or holds another game
        (or a number of players other than the ``names`` given)."""
        if not str(path).strip():
            self.message = "type the name of the file to load"
            return False
        source = str(path)
        table = None
        try:
            text = read_text_file(path, SaveFileError, "coronas saved game")
            data = parse_json(text, source)
            if is_table(data):
                state, table = read_table(text, data, source, passphrase)
            else:
                state = load_game_text(text, source)
        except SaveFileError as exc:
            self.message = str(exc)
            return False
        kind, wanted = state.game.name, self.state.game.name
        if kind != wanted:
            self.message = f"{path}: holds a {kind} game, not a {wanted} game"
            return False
        if self.names is not None and len(self.names) != state.num_players:
            self.message = (
                f"{path}: a game for {state.num_players} players, but this stepper names "
                f"{len(self.names)}"
            )
            return False
        was_locked, at, kept = self.locked, len(self.state.history), list(self.notes)
        self._entries = self._history_log(state)
        self._seat_bots(state)
        self.state = state
        self._open_table(table, was_locked)
        if table is not None and table.locked:
            self._adopt_sealed(table)
        self._pins = {seat: d for seat, d in self._pins.items() if seat < state.num_players}
        if self.locked:
            n = len(state.history)
            self.notes += _missing(kept, self.notes)  # none of the table's notes is lost
            sealed = table is not None and table.locked
            what = "a saved game" if sealed else "a saved game in the clear (not sealed)"
            self.notes.append((n, f"{what} was loaded at action {at}: it goes on from {n}"))
        self.message = f"loaded {_steps(state)} from {path}"
        return True
