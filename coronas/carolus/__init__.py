"""Carolus Magnus: 2-3 players, a ring of 15 regions, knights drawn one at a time.

>>> from coronas.carolus import Game
>>> state = Game(players=2, seed=1).new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 5)

* :class:`Game`, :class:`CarolusState`: the rules engine (:mod:`coronas.carolus.state`);
* :class:`Rules`: every number of the rulebook as data (:mod:`coronas.carolus.rules`);
* :class:`Position`: a position set up by hand;
* :mod:`coronas.carolus.odds`: exact odds of draws, emperor stops and family control;
* :mod:`coronas.carolus.bots`: random and greedy players.

The rule set loads with the package, the engine when first used: :mod:`coronas.carolus.odds`
imports alone.
"""

from coronas._lazy import lazy_exports
from coronas.carolus.rules import JOKER, Rules

_ENGINE = (
    "AssignJoker",
    "CarolusState",
    "ChooseDisc",
    "Deploy",
    "Draw",
    "Game",
    "MoveEmperor",
    "PlaceKnight",
    "Position",
    "Resolution",
    "SetOrder",
    "family_controller",
)

__getattr__, __dir__ = lazy_exports(__name__, dict.fromkeys(_ENGINE, "state"))

__all__ = ["JOKER", "Rules", *_ENGINE]
