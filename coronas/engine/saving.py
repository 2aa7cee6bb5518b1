"""Saved games: a game's parameters and its list of actions as JSON, read back by replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coronas.engine.actions import action_from_dict, action_to_dict
from coronas.engine.errors import IllegalAction, SaveFileError
from coronas.engine.game import _GAMES, _import_games

if TYPE_CHECKING:
    from coronas.engine.state import State

__all__ = ["FORMAT_VERSION", "load_game", "state_to_dict"]

FORMAT_VERSION = 1
"""Version of the saved-game JSON format written by :meth:`State.to_json`."""


def state_to_dict(state: State) -> dict[str, Any]:
    """What :meth:`State.to_dict` returns: format, version, game, parameters, actions."""
    return {
        "format": "coronas-game",
        "version": FORMAT_VERSION,
        "game": state.game.name,
        "params": state.game.params(),
        "actions": [action_to_dict(a) for a in state.history],
    }


def load_game(text: str | Path, source: str | None = None) -> State:
    """Load any saved game (JSON text, or a path to a file)."""
    if isinstance(text, Path) or (isinstance(text, str) and not text.lstrip().startswith("{")):
        path = Path(text)
        source = source or str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SaveFileError(f"{source}: cannot read the file ({exc.strerror})") from None
        except UnicodeDecodeError:
            raise SaveFileError(f"{source}: not a coronas saved game (not UTF-8 text)") from None
    source = source or "saved game"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveFileError(
            f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    if not isinstance(data, dict) or data.get("format") != "coronas-game":
        raise SaveFileError(f"{source}: not a coronas saved game (no 'format': 'coronas-game')")
    if data.get("version") != FORMAT_VERSION:
        raise SaveFileError(
            f"{source}: saved with format version {data.get('version')!r}; "
            f"this coronas reads version {FORMAT_VERSION}"
        )
    _import_games()
    game_cls = _GAMES.get(data.get("game"))
    if game_cls is None:
        raise SaveFileError(
            f"{source}: unknown game {data.get('game')!r}; expected one of {sorted(_GAMES)}"
        )
    try:
        game = game_cls.from_params(data.get("params") or {})
    except (ValueError, TypeError) as exc:
        raise SaveFileError(f"{source}: bad game parameters: {exc}") from None
    state = game.new_initial_state()
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise SaveFileError(f"{source}: 'actions' must be a list")
    types = {t.__name__: t for t in game.action_types}
    for i, raw in enumerate(actions):
        try:
            action = action_from_dict(raw, types)
        except SaveFileError as exc:
            raise SaveFileError(f"{source}: action {i}: {exc}") from None
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise SaveFileError(
                f"{source}: action {i} ({action}) cannot be replayed: {exc}"
            ) from None
    return state
