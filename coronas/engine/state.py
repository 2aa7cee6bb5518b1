"""The State every game's position derives from: whose turn, actions, chance, apply and undo."""

from __future__ import annotations

import abc
import functools
import random
from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import coronas.engine.journal as journal
from coronas.dice import Die, to_fraction
from coronas.engine.actions import jsonable
from coronas.engine.advice import Odds
from coronas.engine.errors import IllegalAction
from coronas.engine.schema import action_checker, short
from coronas.engine.seats import check_seat

if TYPE_CHECKING:
    from coronas.engine.game import Game

__all__ = ["CHANCE", "TERMINAL", "State", "freeze"]

CHANCE = -1
"""``current_player`` at a chance node."""
TERMINAL = -4
"""``current_player`` once the game is over."""


@functools.cache
def _types_of(game_cls: type) -> frozenset[type]:
    return frozenset(game_cls.action_types)


def freeze(value: Any) -> Hashable:
    """A hashable value equal for equal data: lists become tuples, dicts frozensets of items."""
    t = type(value)
    if t is journal.LoggedList or t is list:
        try:
            flat = tuple(value)
            hash(flat)
        except TypeError:
            return tuple(freeze(v) for v in value)
        return flat
    if t is journal.LoggedDict or t is dict:
        try:
            flat = frozenset(value.items())
        except TypeError:
            return frozenset((k, freeze(v)) for k, v in value.items())
        return flat
    if isinstance(value, (set, frozenset)):
        return frozenset(freeze(v) for v in value)
    return value


class State(journal.Journaled, abc.ABC):
    """One position of a game. Subclasses implement:

    * ``_setup()``: put the initial position in ``self`` (called once by ``__init__``);
    * ``_current_player()``: a player index, :data:`CHANCE` or :data:`TERMINAL`;
    * ``_legal_actions()``: the actions of the player to move (decision nodes);
    * ``_chance_outcomes()``: ``(outcome, probability)`` pairs (chance nodes);
    * ``_apply(action)``: change the position. It may assume the action is legal;
    * ``_returns()``: the final score of each player (terminal states);
    * optionally ``_why_illegal(action)``: the reason an action is refused, in the game's words,
      and ``_check(action)`` to refuse an illegal action without listing every legal one;
    * ``graph()``, ``__str__`` and ``_repr_html_`` for display; ``player_name(p)`` if the
      game's texts call the players otherwise than ``"player p"``, and ``describe(action)``
      if an action says more in words with the position at hand.

    The position is the state's attributes, other than the bookkeeping in ``_UNLOGGED``:
    ints, strings, tuples, frozen dataclasses and None, or lists and dicts of those (stored as
    :class:`~coronas.engine.journal.LoggedList` / ``LoggedDict``). Every change made during an
    ``apply`` goes into an undo record (:mod:`coronas.engine.journal`), so ``undo`` costs the
    size of the change. Names in ``_CONSTANT_FIELDS`` hold data fixed for the whole game (board
    tables): clones share them and :meth:`key` leaves them out.
    """

    _UNLOGGED: ClassVar[frozenset[str]] = frozenset(
        {"game", "history", "_undo", "_keycache", "_listed"}
    )
    _UNKEYED: ClassVar[frozenset[str]] = frozenset()
    """Logged data that is not part of the position (a turn counter kept for the display):
    :meth:`key` leaves it out, so positions that differ only there are merged."""

    def __init__(self, game: Game):
        self.game = game
        self.history: list[Any] = []
        self._undo: list[tuple] = []
        self._listed: list[Any] | None = None
        previous = journal.start_record()
        try:
            self._setup()
        finally:
            journal.seal_record(self, journal.end_record(previous)[0])

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

    def _odds(self, action: Any) -> Odds | None:
        """The game's odds of ``action`` (None: it rolls no dice); with ``action`` None, of
        the roll being made (chance node) or of the choice in front of the player (a reroll
        decision). Games override it, built on their ``odds`` module."""
        return None

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
        """How the game calls seat ``player`` (0-based) in its texts: ``"player 1"`` for the
        first seat, counting from one as people do, unless the game says otherwise (a
        colour). :func:`~coronas.engine.seats.parse_seat` reads these names back."""
        return f"player {player + 1}"

    def is_terminal(self) -> bool:
        return self._current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self._current_player() == CHANCE

    def legal_actions(self) -> list[Any]:
        """The actions the player to move may take (empty at chance and terminal nodes).

        The state remembers the list until it next changes, so that ``apply`` of one of these
        very objects needs no check (a playout lists, picks one and applies it). A game's
        ``sample_chance`` may remember its outcome the same way.
        """
        if self._current_player() < 0:
            return []
        listed = self._legal_actions()
        self.__dict__["_listed"] = listed
        return list(listed)

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

    def odds(self, action: Any = None) -> Odds | None:
        """The exact chance that ``action`` achieves its aim from this position.

        None for an action that rolls no dice. Without ``action``: at a chance node, the roll
        being made (its aim, the chance of this roll and of the whole action with the rerolls
        left); at a decision inside an action (spend a shield or gold to reroll, or keep), the
        chance of the aim for each choice and the best one. ``action`` must be legal here.
        """
        if action is not None:
            self._check_shape(action)
            if self.is_chance_node():
                raise IllegalAction("a roll is being made: ask state.odds() for its odds")
            self._check(action)
        return self._odds(action)

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-ready data.

        By default the whole position (every attribute of the state, as :meth:`key` sees it),
        with ``game``, ``observer`` (who looks) and ``to_move`` (the player to move,
        :data:`CHANCE` or :data:`TERMINAL`): right for a game without secrets. A game with
        secrets (cards in hand) overrides it, and its bots decide on it alone.
        """
        check_seat(self, player)
        skip = self._UNLOGGED | self._CONSTANT_FIELDS | self._UNKEYED
        data = self.__dict__
        return {
            "game": self.game.name,
            **{k: jsonable(data[k]) for k in sorted(data) if k not in skip},
            "observer": player,
            "to_move": self._current_player(),
        }

    def resample(self, player: int, rng: random.Random) -> State:
        """A full position equal to this one in everything ``player`` has seen, the rest drawn
        at random consistently with it (a *determinisation*, for search on a seat's view).

        By default a copy: right for a game without secrets. A game with secrets overrides it
        and draws its hidden cards with ``rng``.
        """
        return self.clone()

    def observation_text(self, player: int) -> str:
        """:meth:`observation` in words; by default the open position, as ``str`` shows it."""
        self.observation(player)  # checks the player
        return f"{self}\n(seen by {self.player_name(player)}; nothing is hidden)"

    def _check_shape(self, action: Any) -> None:
        """Refuse an object that is not one of the game's actions, or has an ill-typed field."""
        cls = type(action)
        if cls not in _types_of(type(self.game)):
            raise IllegalAction(
                f"{short(action)} is not an action or chance outcome of {self.game.name}"
            )
        bad = action_checker(cls)(action)
        if bad is not None:
            field, expected = bad
            raise IllegalAction(
                f"{cls.__name__}.{field}: expected {expected}, got {short(getattr(action, field))}"
            )

    def apply(self, action: Any) -> None:
        """Play ``action`` (or take chance outcome ``action``) in place.

        Raises :class:`IllegalAction` and leaves the state unchanged if it is not allowed.
        """
        listed = self.__dict__.get("_listed")
        # An object legal_actions() just listed is legal: only others are checked.
        if listed is None or id(action) not in map(id, listed):
            self._check_shape(action)
            self._check(action)
        self._apply_unchecked(action)

    def _apply_unchecked(self, action: Any) -> None:
        """``apply`` without the checks, for an action the state listed itself (a chance
        outcome or a legal action): the tree walk's inner loop."""
        self.__dict__["_listed"] = None
        previous = journal.start_record()
        try:
            self._apply(action)
        except BaseException:
            journal.undo_record(self, journal.end_record(previous)[0])
            raise
        record, loose = journal.end_record(previous)
        if loose:
            journal.seal_record(self, record)
        self._undo.append(record)
        self.history.append(action)
        cache = self.__dict__.get("_keycache")
        if cache is not None:
            cache.applied(record)

    def undo(self) -> Any:
        """Take back the last ``apply`` and return the action that was undone."""
        if not self.history:
            raise IllegalAction("nothing to undo: no action has been played yet")
        record = self._undo.pop()
        self.__dict__["_listed"] = None
        journal.undo_record(self, record)
        cache = self.__dict__.get("_keycache")
        if cache is not None:
            cache.undone(record)
        return self.history.pop()

    def clone(self) -> State:
        """An independent copy with the same history (undo works on it too)."""
        new = object.__new__(type(self))
        memo: dict[int, Any] = {}
        constant = self._CONSTANT_FIELDS
        unlogged = self._UNLOGGED
        data = new.__dict__
        for k, v in self.__dict__.items():
            if k not in unlogged:
                data[k] = v if k in constant else journal.copy_value(v, memo)
        data["game"] = self.game
        data["history"] = list(self.history)
        data["_undo"] = [journal.copy_record(r, memo) for r in self._undo]
        data["_listed"] = None
        return new

    def copy_position(self) -> State:
        """An independent copy of the position alone: no history, nothing to undo. Where a
        game played from here starts (win chances, a determinisation): cheaper than
        :meth:`clone`, which copies every undo record too."""
        new = object.__new__(type(self))
        memo: dict[int, Any] = {}
        constant = self._CONSTANT_FIELDS
        data = new.__dict__
        for k, v in self.__dict__.items():
            if k not in self._UNLOGGED:
                data[k] = v if k in constant else journal.copy_value(v, memo)
        data["game"] = self.game
        data["history"] = []
        data["_undo"] = []
        return new

    def child(self, action: Any) -> State:
        """A copy with ``action`` applied; this state is left alone."""
        new = self.clone()
        new.apply(action)
        return new

    def key(self) -> Hashable:
        """A hashable key of the position (not of the history): equal positions, equal keys.

        Used to merge transpositions when a game tree is walked
        (:func:`~coronas.engine.exact_distribution`). Games may override it with a cheaper key.
        """
        data = self.__dict__
        cache = data.get("_keycache")
        if cache is not None:
            return cache.key(self)
        names = self._key_names()
        return (type(self).__name__, names, *[freeze(data[k]) for k in names])

    def _key_names(self) -> tuple[str, ...]:
        """The attributes that make up the position, in the order :meth:`key` lists them."""
        skip = self._UNLOGGED | self._CONSTANT_FIELDS | self._UNKEYED
        return tuple(sorted(k for k in self.__dict__ if k not in skip))

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
        return {k: v for k, v in self.__dict__.items() if k not in self._UNLOGGED}

    def __eq__(self, other: object) -> bool:
        if type(self) is not type(other):
            return NotImplemented
        return self.game == other.game and self._data() == other._data()

    __hash__ = None  # mutable

    def to_dict(self) -> dict[str, Any]:
        """The game as JSON-ready data: its parameters and every action so far."""
        from coronas.engine.saving import state_to_dict

        return state_to_dict(self)

    def to_json(self, indent: int | None = None) -> str:
        """The game as JSON: its parameters and every action and chance outcome so far."""
        import json

        return json.dumps(self.to_dict(), indent=indent)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(indent=1), encoding="utf-8")

    @classmethod
    def from_json(cls, text: str, source: str = "saved game") -> State:
        """Load a game saved by :meth:`to_json`, replaying its actions on a fresh state."""
        from coronas.engine.saving import SaveFileError, load_game_text

        state = load_game_text(text, source=source)
        if cls is not State and not isinstance(state, cls):
            raise SaveFileError(f"{source}: holds a {state.game.name} game, not {cls.__name__}")
        return state

    def _repr_html_(self) -> str:
        from html import escape

        return f"<pre>{escape(str(self))}</pre>"
