"""Saving the stepper's game to a file and loading one back (the engine's JSON; a locked
table's sealed under a passphrase, :mod:`~coronas.widgets.stepper.sealed`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from coronas.engine import SaveFileError, State
from coronas.engine.saving import load_game_text
from coronas.engine.textfile import parse_json, read_text_file
from coronas.widgets.stepper.sealed import Table, is_table, read_table, table_text

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

    # provided by the model:
    _history_log: Callable[[State], list[Any]]
    _seat_bots: Callable[[State], Any]
    _open_table: Callable[[Table | None, bool], None]

    def save(self, path: str | Path, passphrase: str | None = None) -> bool:
        """Write the game to the file ``path`` as JSON (:meth:`State.save
        <coronas.engine.State.save>`): its parameters and every step so far, so that
        :meth:`load` gives back an equal state (a position set up by hand too: its game
        records it). A locked table writes a table file (:mod:`~coronas.widgets.stepper.sealed`)
        sealed under ``passphrase``, which it then requires; a table unlocked since writes one
        in the clear whose notes say so. False, with the reason naming the file, if the file
        cannot be written."""
        if not str(path).strip():
            self.message = "type the name of the file to save to"
            return False
        if self.locked and not passphrase:
            self.message = "type a passphrase: a locked table saves its secrets sealed under it"
            return False
        try:
            if Path(path).parent == Path(SAVES):  # the steppers' own folder, made when needed
                Path(SAVES).mkdir(exist_ok=True)
            if self.locked or self.notes:
                table = Table(self.view, tuple(self.humans), self.locked, tuple(self.notes))
                log = [e.for_viewer(None) for e in self._entries]
                Path(path).write_text(table_text(self.state, table, log, passphrase), "utf-8")
            else:
                self.state.save(path)
        except OSError as exc:
            self.message = f"{path}: cannot write the file ({exc.strerror or exc})"
            return False
        sealed = "sealed " if self.locked else ""
        self.message = f"saved {_steps(self.state)} {sealed}to {path}"
        return True

    def load(self, path: str | Path, passphrase: str | None = None) -> bool:
        """Replace the game with the one saved in the file ``path`` (by :meth:`save`,
        ``State.save`` or ``coronas play --save``), read with
        :func:`~coronas.engine.saving.load_game_text`; a sealed table file is opened with
        ``passphrase`` and gives a locked table. The log is rebuilt from its history; the
        bots stay. At a locked table the load is written in every seat's log. False, with
        the reason naming the file, and nothing changed, if the file is missing, is not a
        saved game, is sealed under another passphrase, or holds another game (or a number
        of players other than the ``names`` given)."""
        if not str(path).strip():
            self.message = "type the name of the file to load"
            return False
        source = str(path)
        table = None
        try:
            text = read_text_file(path, SaveFileError, "coronas saved game")
            data = parse_json(text, source)
            if is_table(data):
                state, table = read_table(data, source, passphrase)
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
        was_locked, at = self.locked, len(self.state.history)
        self._entries = self._history_log(state)
        self._seat_bots(state)
        self.state = state
        self._open_table(table, was_locked)
        if self.locked:
            n = len(state.history)
            self.notes.append((n, f"a saved game was loaded at action {at}: it goes on from {n}"))
        self.message = f"loaded {_steps(state)} from {path}"
        return True
