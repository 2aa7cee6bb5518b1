"""A game's plug-in surface: everything the generic code needs from a game, declared once.

The search, win chances, move rankings, training, the command line and the widgets are
written once over the engine's protocol. What a game's rules make different (its bots, the
playout policy and evaluation of a search, where a cut playout may be scored, the search's
settings, whether its moves are compared on common random numbers and by which turns, its
fitted models, how the widgets draw it) it declares in one :class:`GameSpec`, returned by its
:meth:`Game.declare <coronas.engine.Game.declare>`. Generic code reads
:meth:`Game.spec <coronas.engine.Game.spec>`; it never imports a game's module by name and
never guesses a property by reflection. Whether a game has secrets is declared on the game
class itself (:attr:`Game.has_secrets <coronas.engine.Game.has_secrets>`), and a game that
declares secrets without a ``resample`` of its own is refused (:func:`check_secrets`).

>>> from coronas.batalla import Game
>>> spec = Game.spec()
>>> sorted(spec.bots)[:3], spec.common_random_numbers, Game.has_secrets
(['greedy', 'light', 'mcts'], True, False)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["RANKING_OPTIONS", "GameSpec", "check_secrets"]

RANKING_OPTIONS = ("drop_behind", "prior_mass", "quick_kept", "halving", "last_part", "last_kept")
"""The options of :func:`~coronas.manygames.moves.rank_actions` a game may set for its own
rankings (:attr:`GameSpec.ranking`): which moves are played out, and how."""


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """What a game declares for the generic code.

    ``bots``: its players by name (``Game.bot("greedy")``; ``random`` is always added).
    ``playout``: the policy a search plays its playouts with (None: the random bot).
    ``evaluate(state)``: each seat's chance of winning from a position, for cut playouts (None:
    playouts run to the end). ``settled(state)``: where a cut playout may be scored (None:
    anywhere). ``search``: the tuned settings of the game's ``mcts`` bot.
    ``common_random_numbers``: whether moves compared by their playouts are played on the same
    seeded games. ``learning``: the features and fitted models of learned play
    (:class:`~coronas.engine.learning.Learning`; None: nothing to learn from).
    ``drawing``: ``(function, keyword arguments)`` that draws a whole state with matplotlib
    (``function(state=s, **kwargs)``), imported only when a widget draws; None: the state's
    own HTML. ``ranking``: how a ranking of the moves spends its games in this game where the
    caller does not say (:func:`~coronas.manygames.moves.rank_actions`' ``drop_behind``,
    ``prior_mass``, ``quick_kept``, ``halving``, ``last_part`` and ``last_kept``; the generic
    defaults for any left out),
    chosen by the advice benchmark's regret in this game. ``turn(state)``: which turn of which
    seat a position is in, as whole numbers (a module-level function, so that worker
    processes receive it), so that a ranking asked to (``by_turns``) has the moves it compares
    on common random numbers draw the n-th roll and make the n-th choice of each turn alike
    however the turns before went (None: each game's draws come from one stream, which two
    games fall out of step with at their first difference).
    """

    bots: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    playout: Any = None
    evaluate: Callable[[Any], Sequence[float]] | None = None
    settled: Callable[[Any], bool] | None = None
    search: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    common_random_numbers: bool = True
    learning: Any = None
    drawing: tuple[Callable[[], Callable[..., Any]], Mapping[str, Any]] | None = None
    ranking: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    turn: Callable[[Any], tuple[int, ...]] | None = None

    def __post_init__(self) -> None:
        from coronas.engine.search import RandomBot

        unknown = sorted(set(self.ranking) - set(RANKING_OPTIONS))
        if unknown:
            raise TypeError(
                f"ranking: {unknown[0]!r} is not an option of a game's rankings; expected "
                f"{', '.join(RANKING_OPTIONS)}"
            )

        if "random" not in self.bots:
            object.__setattr__(self, "bots", {"random": RandomBot, **self.bots})
        if self.playout is None:
            object.__setattr__(self, "playout", RandomBot())


def check_secrets(game: Any, state_class: type) -> None:
    """Refuse a game that declares secrets but whose state draws nothing anew: a search or a
    seat's win chance would then see every hidden card. Raises :class:`TypeError`."""
    from coronas.engine.state import State

    if game.has_secrets and state_class.resample is State.resample:
        raise TypeError(
            f"{game.name} declares secrets (has_secrets = True) but "
            f"{state_class.__name__} has no resample of its own: a seat's view would see "
            "every hidden card"
        )
