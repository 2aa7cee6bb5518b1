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
"""

from coronas.carolus.rules import JOKER, Rules
from coronas.carolus.state import (
    AssignJoker,
    CarolusState,
    ChooseDisc,
    Deploy,
    Draw,
    Game,
    MoveEmperor,
    PlaceKnight,
    Position,
    Resolution,
    SetOrder,
    family_controller,
)

__all__ = [
    "JOKER",
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
    "Rules",
    "SetOrder",
    "family_controller",
]
