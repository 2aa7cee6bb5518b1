"""Corona de Hierro: 3-5 players, a road map of northern Italy, coloured dice and castles.

>>> from coronas.hierro import Game
>>> state = Game(players=3, seed=7).new_initial_state()
>>> state.current_player
0
"""

from coronas.hierro.actions import *  # noqa: F403
from coronas.hierro.actions import __all__ as _actions
from coronas.hierro.game import Game
from coronas.hierro.rules import Rules
from coronas.hierro.state import HierroState

__all__ = ["Game", "HierroState", "Rules", *_actions]
