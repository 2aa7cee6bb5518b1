"""The protocol the three games share: games, states, actions, chance nodes, history.

Modelled on OpenSpiel's game API and python-chess's habits:

* ``Game(players=..., seed=..., rules=...)`` describes a match; ``game.new_initial_state()``
  gives a :class:`State`.
* A state is either a *chance node* (``is_chance_node()``; ``chance_outcomes()`` lists
  ``(outcome, Fraction)`` pairs summing to 1), a *decision node* for ``current_player``
  (``legal_actions()``), or *terminal* (``is_terminal()``, ``scores()``, ``winners()``).
* ``apply(action)`` changes the state in place (like ``push``); ``undo()`` reverts the last
  ``apply`` (like ``pop``); ``child(action)`` returns a changed copy. An action that is not
  legal raises :class:`IllegalAction` with the reason and leaves the state as it was.
* Chance outcomes are applied like actions, so a seeded RNG (``sample_chance``), an exact
  tree walk (:func:`exact_distribution`) or a person typing the number they rolled all drive
  the same code.
* ``to_json()`` / ``State.from_json(text)`` save and load a game as JSON with a format version:
  the game's parameters and the list of actions, replayed on load.

A game implements a :class:`State` subclass with a handful of ``_``-methods (see the class
docstring) and a :class:`Game` subclass naming it. Actions are frozen dataclasses whose fields
are ints, strings, ``None`` or tuples of those; list every action type in
``Game.action_types`` so saved games can be read back.
"""

from __future__ import annotations

import abc
import copy
import dataclasses
import json
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from coronas.dice import Die, to_fraction

__all__ = [
    "CHANCE",
    "FORMAT_VERSION",
    "TERMINAL",
    "Action",
    "Bot",
    "Game",
    "IllegalAction",
    "RandomBot",
    "RuleSet",
    "RulesError",
    "SaveFileError",
    "State",
    "action_from_dict",
    "action_to_dict",
    "available_games",
    "exact_distribution",
    "load_game",
    "play",
    "register_game",
]

FORMAT_VERSION = 1
"""Version of the saved-game JSON format written by :meth:`State.to_json`."""

CHANCE = -1
"""``current_player`` at a chance node."""
TERMINAL = -4
"""``current_player`` once the game is over."""


class IllegalAction(ValueError):
    """An action that the rules do not allow now. The message says why, in the game's words."""


class SaveFileError(ValueError):
    """A saved game that cannot be read: the message names the problem."""


class RulesError(ValueError):
    """A rule set (or rule file) with a field that is missing, unknown or of the wrong kind."""


# --------------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Action:
    """Base class for actions and chance outcomes: a frozen dataclass with a readable str."""

    def __str__(self) -> str:  # games override with their own wording
        fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self))
        return f"{type(self).__name__}({fields})"


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    return value


def _unjson(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_unjson(v) for v in value)
    if isinstance(value, dict) and set(value) == {"fraction"}:
        return Fraction(value["fraction"])
    return value


def action_to_dict(action: Any) -> dict[str, Any]:
    """A JSON-ready dict for an action dataclass: ``{"type": name, field: value, ...}``."""
    if not dataclasses.is_dataclass(action):
        raise TypeError(f"actions must be dataclasses, got {action!r}")
    out = {"type": type(action).__name__}
    for f in dataclasses.fields(action):
        out[f.name] = _jsonable(getattr(action, f.name))
    return out


def action_from_dict(data: Mapping[str, Any], types: Iterable[type]) -> Any:
    """Rebuild an action from :func:`action_to_dict` output, given the game's action types."""
    by_name = {t.__name__: t for t in types}
    if not isinstance(data, Mapping) or "type" not in data:
        raise SaveFileError(f"an action must be an object with a 'type' field, got {data!r}")
    cls = by_name.get(data["type"])
    if cls is None:
        raise SaveFileError(
            f"unknown action type {data['type']!r}; expected one of {sorted(by_name)}"
        )
    names = {f.name for f in dataclasses.fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise SaveFileError(f"action {data['type']} has unknown fields {sorted(extra)}")
    try:
        return cls(**{k: _unjson(v) for k, v in data.items() if k != "type"})
    except TypeError as exc:
        raise SaveFileError(f"action {data['type']}: {exc}") from None


# --------------------------------------------------------------------------------------------
# Rule sets
# --------------------------------------------------------------------------------------------

R = TypeVar("R", bound="RuleSet")


class RuleSet:
    """Mixin for a game's frozen rule-set dataclass: conversion to and from plain data.

    Every number and variant of a game lives in its rule set. ``to_dict`` gives JSON-ready
    data; ``from_dict`` and ``load`` check every field and raise :class:`RulesError` naming
    the file, the field and what was expected.
    """

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls: type[R], data: Mapping[str, Any], source: str = "rules") -> R:
        if not isinstance(data, Mapping):
            raise RulesError(f"{source}: expected an object of rule fields, got {data!r}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise RulesError(
                f"{source}: unknown field(s) {unknown}; the fields are {sorted(fields)}"
            )
        defaults = cls()
        values = {}
        for name, value in data.items():
            expected = getattr(defaults, name)
            values[name] = _coerce(value, expected, f"{source}: field {name!r}")
        try:
            return dataclasses.replace(defaults, **values)
        except (TypeError, ValueError) as exc:
            raise RulesError(f"{source}: {exc}") from None

    @classmethod
    def load(cls: type[R], path: str | Path) -> R:
        """Read a rule set from a JSON file; fields left out keep their defaults."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise RulesError(f"{path}: cannot read the file ({exc.strerror})") from None
        except json.JSONDecodeError as exc:
            raise RulesError(
                f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
            ) from None
        return cls.from_dict(data, source=str(path))

    def replace(self: R, **changes: Any) -> R:
        """A copy with some fields changed (the rule set itself is immutable)."""
        return type(self).from_dict({**self.to_dict(), **changes})


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _coerce(value: Any, like: Any, where: str) -> Any:
    """Convert JSON data to the type of the default value ``like``, or raise RulesError."""
    if isinstance(like, bool):
        if not isinstance(value, bool):
            raise RulesError(f"{where}: expected true or false, got {value!r}")
        return value
    if isinstance(like, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{where}: expected a whole number, got {value!r}")
        return value
    if isinstance(like, str):
        if not isinstance(value, str):
            raise RulesError(f"{where}: expected text, got {value!r}")
        return value
    if isinstance(like, tuple):
        if not isinstance(value, (list, tuple)):
            raise RulesError(f"{where}: expected a list, got {value!r}")
        if like:
            return tuple(_coerce(v, like[0], f"{where}[{i}]") for i, v in enumerate(value))
        return tuple(value)
    if isinstance(like, Mapping):
        if not isinstance(value, Mapping):
            raise RulesError(f"{where}: expected an object, got {value!r}")
        sample = next(iter(like.values()), None)
        if sample is None:
            return dict(value)
        return {k: _coerce(v, sample, f"{where}[{k!r}]") for k, v in value.items()}
    if dataclasses.is_dataclass(like):
        if not isinstance(value, Mapping):
            raise RulesError(f"{where}: expected an object, got {value!r}")
        return type(like)(
            **{
                f.name: _coerce(
                    value.get(f.name, getattr(like, f.name)),
                    getattr(like, f.name),
                    f"{where}.{f.name}",
                )
                for f in dataclasses.fields(like)
            }
        )
    return value


# --------------------------------------------------------------------------------------------
# Games and states
# --------------------------------------------------------------------------------------------


class Game:
    """A match description: the game, its number of players, rule set and seed.

    Subclasses set ``name``, ``state_class``, ``rules_class``, ``action_types``,
    ``min_players`` and ``max_players``.
    """

    name: ClassVar[str] = "game"
    state_class: ClassVar[type[State]]
    rules_class: ClassVar[type[RuleSet] | None] = None
    action_types: ClassVar[tuple[type, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def __init__(self, players: int | None = None, seed: int | None = None, rules: Any = None):
        if players is None:
            players = self.min_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be a whole number, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, got {players}"
            )
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed must be a whole number or None, got {seed!r}")
        self.num_players = players
        self.seed = seed
        if self.rules_class is not None:
            if rules is None:
                rules = self.rules_class()
            elif isinstance(rules, Mapping):
                rules = self.rules_class.from_dict(rules)
            elif isinstance(rules, (str, Path)):
                rules = self.rules_class.load(rules)
            elif not isinstance(rules, self.rules_class):
                raise RulesError(
                    f"rules must be a {self.rules_class.__name__}, a dict or a file path, "
                    f"got {rules!r}"
                )
        self.rules = rules

    def new_initial_state(self) -> State:
        """The state before the first move (often a chance node: dealing, a roll-off)."""
        return self.state_class(self)

    def rng(self) -> random.Random:
        """A fresh RNG from the game's seed: the same seed gives the same sequence."""
        return random.Random(self.seed)

    def params(self) -> dict[str, Any]:
        """What a saved game records to rebuild this match."""
        return {
            "players": self.num_players,
            "seed": self.seed,
            "rules": self.rules.to_dict() if isinstance(self.rules, RuleSet) else None,
        }

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Game:
        return cls(
            players=params.get("players"), seed=params.get("seed"), rules=params.get("rules")
        )

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.params() == other.params()

    def __hash__(self) -> int:
        return hash((type(self), self.num_players, self.seed))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.num_players}, seed={self.seed})"


_GAMES: dict[str, type[Game]] = {}


def register_game(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game loadable by name from saved JSON."""
    _GAMES[cls.name] = cls
    return cls


class State(abc.ABC):
    """One position of a game. Subclasses implement:

    * ``_setup()``: put the initial position in ``self`` (called once by ``__init__``);
    * ``_current_player()``: a player index, :data:`CHANCE` or :data:`TERMINAL`;
    * ``_legal_actions()``: the actions of the player to move (decision nodes);
    * ``_chance_outcomes()``: ``(outcome, probability)`` pairs (chance nodes);
    * ``_apply(action)``: change the position. It may assume the action is legal;
    * ``_returns()``: the final score of each player (terminal states);
    * optionally ``_why_illegal(action)``: the reason an action is refused, in the game's words;
    * optionally ``_snapshot()`` / ``_restore(snap)`` for a faster undo and clone than
      ``deepcopy``. A snapshot is never changed once taken and may be restored more than once
      (a clone shares its original's undo stack), so ``_restore`` must copy what it mutates;
    * ``graph()``, ``__str__`` and ``_repr_html_`` for display; ``player_name(p)`` if the
      game's texts call the players otherwise than ``"player p"``, and ``describe(action)``
      if an action says more in words with the position at hand.

    Everything in ``self.__dict__`` except the names in ``_BASE_FIELDS`` is game data: it is
    what ``undo``, ``clone`` and ``==`` work on.
    """

    _BASE_FIELDS: ClassVar[frozenset[str]] = frozenset({"game", "history", "_undo"})

    def __init__(self, game: Game):
        self.game = game
        self.history: list[Any] = []
        self._undo: list[Any] = []
        self._setup()

    # -- subclass hooks ------------------------------------------------------------------
    @abc.abstractmethod
    def _setup(self) -> None: ...

    @abc.abstractmethod
    def _current_player(self) -> int: ...

    @abc.abstractmethod
    def _legal_actions(self) -> list[Any]: ...

    @abc.abstractmethod
    def _chance_outcomes(self) -> list[tuple[Any, Fraction]]: ...

    @abc.abstractmethod
    def _apply(self, action: Any) -> None: ...

    @abc.abstractmethod
    def _returns(self) -> list[Any]: ...

    def _why_illegal(self, action: Any) -> str | None:
        """Why ``action`` is not legal here, or None to use the generic message."""
        return None

    def _snapshot(self) -> Any:
        return copy.deepcopy({k: v for k, v in self.__dict__.items() if k not in self._BASE_FIELDS})

    def _restore(self, snap: Any) -> None:
        for k in [k for k in self.__dict__ if k not in self._BASE_FIELDS]:
            del self.__dict__[k]
        self.__dict__.update(copy.deepcopy(snap))

    # -- the protocol --------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The player to move, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""
        return self._current_player()

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def rules(self) -> Any:
        return self.game.rules

    def describe(self, action: Any) -> str:
        """``action`` in words as it would be played here (``str(action)`` unless the game
        adds what the position knows: army sizes, the die rolled, the number needed)."""
        return str(action)

    def player_name(self, player: int) -> str:
        """How the game calls seat ``player`` in its texts (``"player 0"`` unless the game
        says otherwise: a colour, or ``"player 1"`` counting from one)."""
        return f"player {player}"

    def is_terminal(self) -> bool:
        return self._current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self._current_player() == CHANCE

    def legal_actions(self) -> list[Any]:
        """The actions the player to move may take (empty at chance and terminal nodes)."""
        if self._current_player() < 0:
            return []
        return list(self._legal_actions())

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        """``(outcome, exact probability)`` pairs at a chance node; they sum to 1."""
        if not self.is_chance_node():
            return []
        return [(o, to_fraction(p)) for o, p in self._chance_outcomes()]

    def chance_distribution(self) -> Die:
        """The chance outcomes as a :class:`~coronas.dice.Die`."""
        if not self.is_chance_node():
            raise IllegalAction("this is not a chance node: nothing is rolled or drawn now")
        return Die.from_pmf(self.chance_outcomes())

    def sample_chance(self, rng: random.Random | int | None = None) -> Any:
        """Pick a chance outcome with its exact probability, using a seeded RNG."""
        return self.chance_distribution().sample(rng)

    def _check(self, action: Any) -> None:
        player = self._current_player()
        if player == TERMINAL:
            raise IllegalAction(f"the game is over; {action} cannot be played")
        if player == CHANCE:
            allowed = [o for o, _ in self._chance_outcomes()]
            if action not in allowed:
                shown = ", ".join(str(o) for o in allowed[:12])
                more = "" if len(allowed) <= 12 else f" and {len(allowed) - 12} more"
                raise IllegalAction(
                    f"{action} is not a possible outcome here; the possible outcomes are "
                    f"{shown}{more}"
                )
            return
        if action not in self._legal_actions():
            reason = self._why_illegal(action)
            raise IllegalAction(
                reason or f"{action} is not legal for {self.player_name(player)} now"
            )

    def apply(self, action: Any) -> None:
        """Play ``action`` (or take chance outcome ``action``) in place.

        Raises :class:`IllegalAction` and leaves the state unchanged if it is not allowed.
        """
        self._check(action)
        snap = self._snapshot()
        try:
            self._apply(action)
        except Exception:
            self._restore(snap)
            raise
        self._undo.append(snap)
        self.history.append(action)

    def undo(self) -> Any:
        """Take back the last ``apply`` and return the action that was undone."""
        if not self.history:
            raise IllegalAction("nothing to undo: no action has been played yet")
        self._restore(self._undo.pop())
        return self.history.pop()

    def clone(self) -> State:
        """An independent copy with the same history (undo works on it too)."""
        new = copy.copy(self)
        new._restore(self._snapshot())
        new.history = list(self.history)
        new._undo = list(self._undo)
        return new

    def child(self, action: Any) -> State:
        """A copy with ``action`` applied; this state is left alone."""
        new = self.clone()
        new.apply(action)
        return new

    def returns(self) -> list[Any]:
        """Final score of each player (only at a terminal state)."""
        if not self.is_terminal():
            raise IllegalAction("the game is not over yet: there are no final scores")
        return list(self._returns())

    def scores(self) -> list[Any]:
        """Final score of each player; games may give a richer breakdown."""
        return self.returns()

    def winners(self) -> list[int]:
        """The players with the highest final score (several on a shared victory)."""
        scores = self.returns()
        best = max(scores)
        return [i for i, s in enumerate(scores) if s == best]

    # -- equality, saving, replay ------------------------------------------------------------
    def _data(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._BASE_FIELDS}

    def __eq__(self, other: object) -> bool:
        if type(self) is not type(other):
            return NotImplemented
        return self.game == other.game and self._data() == other._data()

    __hash__ = None  # mutable

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "coronas-game",
            "version": FORMAT_VERSION,
            "game": self.game.name,
            "params": self.game.params(),
            "actions": [action_to_dict(a) for a in self.history],
        }

    def to_json(self, indent: int | None = None) -> str:
        """The game as JSON: its parameters and every action and chance outcome so far."""
        return json.dumps(self.to_dict(), indent=indent)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(indent=1), encoding="utf-8")

    @classmethod
    def from_json(cls, text: str, source: str = "saved game") -> State:
        """Load a game saved by :meth:`to_json`, replaying its actions on a fresh state."""
        state = load_game(text, source=source)
        if cls is not State and not isinstance(state, cls):
            raise SaveFileError(f"{source}: holds a {state.game.name} game, not {cls.__name__}")
        return state

    def _repr_html_(self) -> str:
        from html import escape

        return f"<pre>{escape(str(self))}</pre>"


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
    for i, raw in enumerate(actions):
        try:
            action = action_from_dict(raw, game.action_types)
        except SaveFileError as exc:
            raise SaveFileError(f"{source}: action {i}: {exc}") from None
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise SaveFileError(
                f"{source}: action {i} ({action}) cannot be replayed: {exc}"
            ) from None
    return state


def available_games() -> dict[str, type[Game]]:
    """The registered games by name (``"batalla"``, ``"carolus"``, ``"hierro"``, ...)."""
    _import_games()
    return dict(sorted(_GAMES.items()))


def _import_games() -> None:
    """Import the games' engine modules so they register themselves (only when asked, to
    keep ``import coronas.engine`` fast)."""
    import importlib

    for name in ("coronas.batalla.state", "coronas.hierro.game", "coronas.carolus.state"):
        importlib.import_module(name)


# --------------------------------------------------------------------------------------------
# Bots and generic algorithms
# --------------------------------------------------------------------------------------------


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose(state, rng) -> action``. A plain function ``f(state, rng)`` works
    too wherever a bot is expected."""

    def choose(self, state: State, rng: random.Random) -> Any: ...


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, state: State, rng: random.Random) -> Any:
        return rng.choice(state.legal_actions())

    def __repr__(self) -> str:
        return "RandomBot()"


def _as_chooser(bot: Any) -> Callable[[State, random.Random], Any]:
    if hasattr(bot, "choose"):
        return bot.choose
    if callable(bot):
        return bot
    raise TypeError(f"a bot needs a choose(state, rng) method or must be callable, got {bot!r}")


def play(
    state: State,
    bots: Sequence[Any] | Mapping[int, Any] | Any,
    rng: random.Random | int | None = None,
    max_steps: int = 100_000,
    callback: Callable[[State, Any], None] | None = None,
) -> State:
    """Play ``state`` to its end in place, with ``bots[player]`` choosing at decisions and
    ``rng`` sampling chance nodes. One bot alone plays every seat. Returns the state.

    ``callback(state, action)`` is called before each action is applied (for logging).
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    if isinstance(bots, Mapping):
        choosers = {p: _as_chooser(b) for p, b in bots.items()}
    elif isinstance(bots, Sequence) and not isinstance(bots, str):
        choosers = dict(enumerate(_as_chooser(b) for b in bots))
    else:
        one = _as_chooser(bots)
        choosers = {p: one for p in range(state.num_players)}
    for _ in range(max_steps):
        player = state.current_player
        if player == TERMINAL:
            return state
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            if player not in choosers:
                raise ValueError(f"no bot for player {player}")
            action = choosers[player](state, rng)
        if callback is not None:
            callback(state, action)
        state.apply(action)
    raise RuntimeError(f"the game did not end within {max_steps} steps")


def exact_distribution(
    state: State,
    policy: Callable[[State], Any] | Mapping[int, Callable[[State], Any]],
    result_fn: Callable[[State], Hashable],
    stop: Callable[[State], bool] | None = None,
    key: Callable[[State], Hashable] | None = None,
    max_nodes: int = 2_000_000,
) -> Die:
    """The exact distribution of ``result_fn`` over the game tree below ``state``.

    Chance nodes are weighted by their exact probabilities. At a decision node the
    ``policy(state)`` (or ``policy[player](state)``) gives either one action or a list of
    ``(action, probability)`` pairs for a mixed strategy. The walk ends at terminal states or
    where ``stop(state)`` is true, and ``result_fn`` is evaluated there.

    ``key(state)`` (optional) gives a hashable summary of the position: positions with the
    same key share one computation, which makes long chains (battles) fast.

    This brute-force walk is the ground truth the fast formulas in each game's ``odds`` are
    tested against. ``state`` itself is left as it was.
    """
    work = state.clone()
    memo: dict[Hashable, dict[Hashable, Fraction]] = {}
    nodes = 0

    def decide(s: State) -> list[tuple[Any, Fraction]]:
        pol = policy[s.current_player] if isinstance(policy, Mapping) else policy
        choice = pol(s)
        if isinstance(choice, list):
            return [(a, to_fraction(p)) for a, p in choice]
        return [(choice, Fraction(1))]

    def walk(s: State) -> dict[Hashable, Fraction]:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise RuntimeError(f"the game tree has more than {max_nodes} nodes; add a stop rule")
        if s.is_terminal() or (stop is not None and stop(s)):
            return {result_fn(s): Fraction(1)}
        k = key(s) if key is not None else None
        if k is not None and k in memo:
            return memo[k]
        branches = s.chance_outcomes() if s.is_chance_node() else decide(s)
        acc: dict[Hashable, Fraction] = {}
        for action, p in branches:
            if p == 0:
                continue
            s.apply(action)
            try:
                sub = walk(s)
            finally:
                s.undo()
            for r, q in sub.items():
                acc[r] = acc.get(r, Fraction(0)) + p * q
        if k is not None:
            memo[k] = acc
        return acc

    return Die.from_pmf(walk(work))
