"""Games: a match description (players, seed, rule set) and the registry of games by name."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from coronas.engine.errors import RulesError
from coronas.engine.rules import RuleSet
from coronas.engine.schema import check_int
from coronas.formatting import listing

if TYPE_CHECKING:
    from coronas.engine.state import State
    from coronas.engine.surface import GameSpec

__all__ = ["Game", "available_games", "lazy_state_class", "register_game"]


class Game:
    """A match description: the game, its number of players, rule set and seed.

    Subclasses set ``name``, ``state_class``, ``rules_class``, ``action_types``,
    ``min_players`` and ``max_players``, declare whether the game has secrets
    (``has_secrets``), and return what the generic code needs of them from :meth:`declare`
    (their plug-in surface, :class:`~coronas.engine.surface.GameSpec`).
    """

    name: ClassVar[str] = "game"
    state_class: ClassVar[type[State]]
    rules_class: ClassVar[type[RuleSet] | None] = None
    action_types: ClassVar[tuple[type, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    score_name: ClassVar[str] = "score"
    """What :meth:`State.scores` counts, in the game's words ("VP", "gems won"): the label of
    the final scores wherever they are printed."""
    return_name: ClassVar[str] = "score"
    """What :meth:`State.returns` counts, in the game's words ("VP", "wins"): the label of a
    mean over many games."""
    has_secrets: ClassVar[bool] = False
    """Whether a seat may not see everything (cards dealt face down, a hand): a search, a
    seat's win chance or a bot then starts from :meth:`State.resample`, never from the true
    position. Declared, never guessed: a game that declares secrets without a ``resample`` of
    its own is refused (:func:`~coronas.engine.surface.check_secrets`)."""
    _spec: ClassVar[GameSpec]  # read once by spec(), per class
    extra_params: ClassVar[tuple[str, ...]] = ()
    """Keyword arguments of the constructor that a saved game records beside players, seed
    and rules (``"position"``, ``"board"``), read back by :meth:`from_params`."""

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
    def check_params(cls, params: Mapping[str, Any]) -> str | None:
        """What is wrong with saved parameters (``params.players: ...``), or None.

        Checks the kind and range of each field before :meth:`from_params` builds the match;
        a saved game stores its rules and board inline, so a text where either belongs (a
        file path) is refused: loading a saved game never opens another file.
        """
        known = {"players", "seed", "rules", *cls.extra_params}
        unknown = sorted(set(params) - known)
        if unknown:
            return (
                f"params: unknown field(s) {listing(unknown[:5], 'and')}; expected some of "
                f"{listing(sorted(known), 'and')}"
            )
        players = params.get("players")
        if players is not None:
            problem = check_int(players, "params.players", cls.min_players, cls.max_players)
            if problem:
                return problem
        seed = params.get("seed")
        if seed is not None:
            problem = check_int(seed, "params.seed", -(2**64), 2**64)
            if problem:
                return problem
        for name in ("rules", *cls.extra_params):
            value = params.get(name)
            if value is None or isinstance(value, dict) or (name == "board" and value == "default"):
                continue
            if isinstance(value, str):
                return (
                    f"params.{name}: a saved game stores its {name} inline; "
                    "it does not name a file to open"
                )
            return f"params.{name}: expected an object, got {type(value).__name__}"
        return None

    @classmethod
    def upgrade_action(cls, raw: Any, version: int) -> list[Any]:
        """A saved action of an older format ``version`` as the actions of today's format
        (still unchecked JSON: the loader checks what this returns). Most are unchanged."""
        return [raw]

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Game:
        """The match that saved ``params``: players, seed and rules, and each name in the
        game's ``extra_params`` (a position set up by hand, a board) given as a keyword."""
        extra = {name: params.get(name) for name in cls.extra_params}
        return cls(
            players=params.get("players"),
            seed=params.get("seed"),
            rules=params.get("rules"),
            **extra,
        )

    @classmethod
    def declare(cls) -> GameSpec:
        """The game's plug-in surface (bots, playout, evaluation, search settings, fitted
        models, drawing): a game overrides this, importing its own modules inside so that
        importing the game stays light. The default: random play, no evaluation."""
        from coronas.engine.surface import GameSpec

        return GameSpec()

    @classmethod
    def spec(cls) -> GameSpec:
        """The game's plug-in surface, declared by :meth:`declare`, read once per class (a
        game that declares secrets without a ``resample`` is refused here)."""
        cached = cls.__dict__.get("_spec")
        if cached is None:
            from coronas.engine.surface import check_secrets

            check_secrets(cls, cls.state_class)
            cached = cls.declare()
            cls._spec = cached
        return cached

    @classmethod
    def bots(cls) -> dict[str, Any]:
        """The bots this game offers, by name (``random``, ``greedy``, ``mcts``, ...), as its
        :meth:`declare` names them; ``random`` always."""
        return dict(cls.spec().bots)

    @classmethod
    def bot(cls, spec: str) -> Any:
        """A fresh bot by name, or by name and settings: ``"greedy"``, ``"mcts:2000"``
        (simulations a decision), ``"mcts:1s"`` (seconds a decision). A bot with settings
        reads them with its ``from_spec``. An unknown name raises :class:`ValueError` with
        the bots there are."""
        if not isinstance(spec, str):
            raise ValueError(f"a bot is named by a string such as 'greedy', got {spec!r}")
        table = cls.bots()
        name, colon, settings = spec.partition(":")
        name = name.strip()
        if name not in table:
            import difflib

            near = difflib.get_close_matches(name, list(table), n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise ValueError(
                f"unknown bot {name!r} for {cls.name}{hint} (the bots are {', '.join(table)})"
            )
        factory = table[name]
        if not colon:
            return factory()
        from_spec = getattr(factory, "from_spec", None)
        if from_spec is None:
            raise ValueError(f"bot {name!r} takes no settings, got {spec!r}")
        try:
            return from_spec(settings)
        except ValueError as exc:
            raise ValueError(f"bot {spec!r}: {exc}") from None

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.params() == other.params()

    def __hash__(self) -> int:
        return hash((type(self), self.num_players, self.seed))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.num_players}, seed={self.seed})"


class lazy_state_class:
    """``Game.state_class`` imported when first asked for: a game's state module imports its
    game module (for the positions set up by hand), so the game module names its state class
    by module and name instead of importing it at the top.

    >>> class G:
    ...     state_class = lazy_state_class("fractions", "Fraction")
    >>> G.state_class.__name__
    'Fraction'
    """

    def __init__(self, module: str, name: str):
        self.module, self.name = module, name

    def __get__(self, game: Any, owner: Any = None) -> type[State]:
        import importlib

        return getattr(importlib.import_module(self.module), self.name)


_GAMES: dict[str, type[Game]] = {}


def register_game(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game loadable by name from saved JSON. A game whose state class
    is already defined is checked at once (:func:`~coronas.engine.surface.check_secrets`);
    one that names its state class lazily is checked when its surface is first read."""
    if not isinstance(cls.__dict__.get("state_class"), lazy_state_class):
        from coronas.engine.surface import check_secrets

        check_secrets(cls, cls.state_class)
    _GAMES[cls.name] = cls
    return cls


def available_games() -> dict[str, type[Game]]:
    """The registered games by name (``"batalla"``, ``"carolus"``, ``"hierro"``, ...)."""
    _import_games()
    return dict(sorted(_GAMES.items()))


ENTRY_POINTS = "coronas.games"
"""The entry-point group through which an installed package offers its games: each entry
names a :class:`Game` subclass (``hierro = "coronas.hierro.game:HierroGame"``)."""


def _import_games() -> None:
    """Load the games installed packages offer (the ``coronas.games`` entry points), which
    register themselves; only when asked, to keep ``import coronas.engine`` fast."""
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINTS):
        entry.load()
