"""Saved games: a game's parameters and its list of actions as JSON, read back by replay.

A saved game is untrusted input. Before anything is replayed the whole file is checked: its
size, its nesting depth, the format and version, the game's parameters (rules and boards are
stored inline; a saved game never names another file to open) and every action's fields
against the types its dataclass declares. A problem raises :class:`SaveFileError` naming the
file, the JSON path of the value and what was expected.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from coronas.engine.actions import _unjson, action_to_dict
from coronas.engine.errors import IllegalAction, RulesError, SaveFileError
from coronas.engine.game import available_games
from coronas.engine.schema import action_checker, short
from coronas.engine.textfile import MAX_FILE_BYTES, parse_json, read_text_file
from coronas.formatting import listing

if TYPE_CHECKING:
    from coronas.engine.state import State

__all__ = ["FORMAT_VERSION", "MAX_ACTIONS", "MAX_FILE_BYTES", "load_game", "state_to_dict"]

FORMAT_VERSION = 2
"""Version of the saved-game JSON format written by :meth:`State.to_json`. Version 1 files
are read too: each game's :meth:`~coronas.engine.Game.upgrade_action` turns their actions
into today's (version 2 plays Corona de Hierro's Spy in two steps)."""
READ_VERSIONS = (1, 2)
"""The format versions :func:`load_game` reads."""
MAX_ACTIONS = 200_000
"""The most actions a saved game may hold."""
MAX_MESSAGE = 300
"""How long an error message about a saved game may be."""


def state_to_dict(state: State) -> dict[str, Any]:
    """What :meth:`State.to_dict` returns: format, version, game, parameters, actions."""
    return {
        "format": "coronas-game",
        "version": FORMAT_VERSION,
        "game": state.game.name,
        "params": state.game.params(),
        "actions": [action_to_dict(a) for a in state.history],
    }


def _fail(source: str, message: str) -> SaveFileError:
    text = f"{source}: {message}"
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 3] + "..."
    return SaveFileError(text)


def load_game(path: str | Path, source: str | None = None) -> State:
    """Load a saved game from the file at ``path`` (see :meth:`State.from_json` for text)."""
    if isinstance(path, str) and path.lstrip().startswith("{"):
        raise SaveFileError(
            "load_game takes the path of a saved game; for JSON text use State.from_json(text)"
        )
    if not isinstance(path, (str, Path)):
        raise SaveFileError(f"load_game takes the path of a saved game, got {short(path)}")
    text = read_text_file(path, SaveFileError, "coronas saved game")
    return load_game_text(text, source or str(path))


def load_game_text(text: str, source: str = "saved game") -> State:
    """Check a saved game's JSON text field by field, then replay it on a fresh state."""
    data = parse_json(text, source)
    if not isinstance(data, dict) or data.get("format") != "coronas-game":
        raise _fail(source, "not a coronas saved game (no 'format': 'coronas-game')")
    version = data.get("version")
    if type(version) is not int or version not in READ_VERSIONS:
        raise _fail(
            source,
            f"version: saved with format version {short(version)}; "
            f"this coronas reads versions {', '.join(map(str, READ_VERSIONS))}",
        )
    unknown = sorted(set(data) - {"format", "version", "game", "params", "actions"})
    if unknown:
        raise _fail(source, f"unknown field(s) {short(unknown)}")
    games = available_games()
    name = data.get("game")
    game_cls = games.get(name) if isinstance(name, str) else None
    if game_cls is None:
        raise _fail(
            source, f"game: unknown game {short(name)}; expected one of {listing(sorted(games))}"
        )
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise _fail(source, f"params: expected an object, got {short(params)}")
    problem = game_cls.check_params(params)
    if problem is not None:
        raise _fail(source, problem)
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise _fail(source, f"actions: expected a list, got {short(actions)}")
    if len(actions) > MAX_ACTIONS:
        raise _fail(source, f"actions: more than {MAX_ACTIONS} actions")
    if version < FORMAT_VERSION:  # each upgraded action keeps its index in the file
        actions = [
            (i, new)
            for i, raw in enumerate(actions)
            for new in game_cls.upgrade_action(raw, version)
        ]
        if len(actions) > MAX_ACTIONS:
            raise _fail(source, f"actions: more than {MAX_ACTIONS} actions")
    else:
        actions = list(enumerate(actions))
    by_name = {t.__name__: t for t in game_cls.action_types}
    parsed = [(i, _action(raw, i, by_name, source)) for i, raw in actions]
    try:
        game = game_cls.from_params(params)
        state = game.new_initial_state()  # a game may refuse its parameters only here
    except (ValueError, RulesError) as exc:
        raise _fail(source, f"params: {exc}") from None
    except (TypeError, KeyError, IndexError, AttributeError) as exc:
        raise _fail(source, f"params: malformed ({type(exc).__name__}: {exc})") from None
    for i, action in parsed:
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise _fail(source, f"actions[{i}] ({action}) cannot be replayed: {exc}") from None
    return state


def _action(raw: Any, i: int, by_name: dict[str, type], source: str) -> Any:
    where = f"actions[{i}]"
    if not isinstance(raw, dict) or "type" not in raw:
        raise _fail(source, f"{where}: expected an object with a 'type' field, got {short(raw)}")
    kind = raw["type"]
    cls = by_name.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise _fail(
            source,
            f"{where}.type: unknown action type {short(kind)}; "
            f"expected one of {listing(sorted(by_name))}",
        )
    names = {f for f in cls.__dataclass_fields__}
    extra = sorted(set(raw) - names - {"type"})
    if extra:
        raise _fail(source, f"{where}: {kind} has no field(s) {short(extra)}")
    bad = action_checker(cls, json=True)(raw)
    if bad is not None:
        field, expected = bad
        raise _fail(source, f"{where}.{field}: expected {expected}, got {short(raw[field])}")
    try:
        return cls(**{k: _unjson(v) for k, v in raw.items() if k != "type"})
    except (TypeError, ValueError) as exc:
        raise _fail(source, f"{where}: {kind}: {exc}") from None
