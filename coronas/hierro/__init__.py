"""Corona de Hierro: 3-5 players, a road map of northern Italy, coloured dice and castles.

>>> from coronas.hierro import Game
>>> state = Game(players=3, seed=7).new_initial_state()
>>> state.current_player
0

The rule set and the action types load with the package; the engine (``Game``,
``HierroState``, with the board and networkx) loads when first used, so that
:mod:`coronas.hierro.odds` and :mod:`coronas.hierro.rules` import alone.
"""

from coronas._lazy import lazy_exports
from coronas.hierro.actions import *  # noqa: F403
from coronas.hierro.actions import __all__ as _actions
from coronas.hierro.rules import Rules

_ENGINE = {"Game": "game", "HierroState": "state"}

__getattr__, __dir__ = lazy_exports(__name__, _ENGINE)

__all__ = [*_ENGINE, "Rules", *_actions]
