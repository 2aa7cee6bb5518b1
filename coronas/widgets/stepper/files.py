"""Saving the stepper's game to a file and loading one back (the engine's JSON)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from coronas.engine import SaveFileError, State, load_game

__all__ = ["SAVES", "SaveLoad", "default_save_path"]

SAVES = "saves"  # the folder steppers save to by default (git ignores it)


def default_save_path(state: State) -> str:
    """Where a stepper saves by default: ``saves/<game>-<digest>.json`` in a folder git
    ignores, named after the game and its starting position, so two steppers of a notebook
    save to different files and a fresh stepper of the same position loads the same one."""
    digest = hashlib.sha1(state.to_json().encode()).hexdigest()[:8]
    return f"{SAVES}/{state.game.name}-{digest}.json"


def _steps(state: State) -> str:
    n = len(state.history)
    return f"{n} step" + ("" if n == 1 else "s")


class SaveLoad:
    """Save and Load for :class:`~coronas.widgets.stepper.StepperModel`, which provides the
    state, the names, the message, the log and the bots these methods read and replace."""

    state: State
    names: tuple[str, ...] | None
    message: str
    _entries: list[Any]

    # provided by the model:
    _history_log: Callable[[State], list[Any]]
    _seat_bots: Callable[[int], Any]

    def save(self, path: str | Path) -> bool:
        """Write the game to the file ``path`` as JSON (:meth:`State.save
        <coronas.engine.State.save>`): its parameters and every step so far, so that
        :meth:`load` gives back an equal state (a position set up by hand too: its game
        records it). False, with the reason naming the file, if the file cannot be written."""
        if not str(path).strip():
            self.message = "type the name of the file to save to"
            return False
        try:
            if Path(path).parent == Path(SAVES):  # the steppers' own folder, made when needed
                Path(SAVES).mkdir(exist_ok=True)
            self.state.save(path)
        except OSError as exc:
            self.message = f"{path}: cannot write the file ({exc.strerror or exc})"
            return False
        self.message = f"saved {_steps(self.state)} to {path}"
        return True

    def load(self, path: str | Path) -> bool:
        """Replace the game with the one saved in the file ``path`` (by :meth:`save`,
        ``State.save`` or ``coronas play --save``), read with
        :func:`~coronas.engine.load_game`. The log is rebuilt from its history; the RNG and
        the bots stay. False, with the reason naming the file, and nothing changed, if the
        file is missing, is not a saved game, or holds another game (or a number of players
        other than the ``names`` given)."""
        if not str(path).strip():
            self.message = "type the name of the file to load"
            return False
        try:
            state = load_game(Path(path))
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
        self._entries = self._history_log(state)
        self._seat_bots(state.num_players)
        self.state = state
        self.message = f"loaded {_steps(state)} from {path}"
        return True
