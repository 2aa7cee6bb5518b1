"""Carolus Magnus: 2-3 players, a ring of 15 regions, knights drawn one at a time.

>>> from coronas.carolus import Game
>>> state = Game(players=2, seed=1).new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 5)

* :class:`Game` (:mod:`coronas.carolus.game`), :class:`CarolusState`
  (:mod:`coronas.carolus.state`): the rules engine, with its actions in
  :mod:`coronas.carolus.actions`;
* :class:`Rules`: every number of the rulebook as data (:mod:`coronas.carolus.rules`);
* :class:`Position`: a position set up by hand (:mod:`coronas.carolus.game`);
* :mod:`coronas.carolus.odds`: exact odds of draws, emperor stops and family control;
  ``state.odds(action)`` (:mod:`coronas.carolus.advice`) applies them to the move at hand;
* ``state.observation(player)``: what a player sees, JSON-ready (everything: nothing is
  hidden in Carolus Magnus);
* :mod:`coronas.carolus.bots`: random and greedy players.

The rule set loads with the package, the engine when first used: :mod:`coronas.carolus.odds`
imports alone.
"""

from coronas._lazy import lazy_exports
from coronas.carolus.rules import JOKER, Rules

_ENGINE = {
    "AssignJoker": "actions",
    "CarolusState": "state",
    "ChooseDisc": "actions",
    "Deploy": "actions",
    "Draw": "actions",
    "Game": "game",
    "MoveEmperor": "actions",
    "PlaceKnight": "actions",
    "Position": "game",
    "Resolution": "effects",
    "SetOrder": "actions",
    "family_controller": "effects",
}

__getattr__, __dir__ = lazy_exports(__name__, _ENGINE)

__all__ = ["JOKER", "Rules", *_ENGINE]
