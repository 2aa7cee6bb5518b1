"""Batalla de Coronas: two kingdoms, two dice a turn, a council of six, battles and a dragon.

* :class:`Game` / :class:`State`: the rules engine on the shared protocol
  (:mod:`coronas.engine`), with the roll-off, the decision dice, battle dice and rerolls as
  explicit chance nodes;
* :class:`Rules`: every number and ruling as data;
* :mod:`coronas.batalla.odds`: exact odds (battles with optimal rerolls, the decision dice,
  the dragon);
* :mod:`coronas.batalla.bots`: random and greedy players.

The rule set loads with the package, the engine when first used: :mod:`coronas.batalla.odds`
imports alone.

>>> from coronas.batalla import Game
>>> state = Game(seed=1).new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # the roll-off, ties rolled again
(True, 30)
"""

from coronas._lazy import lazy_exports
from coronas.batalla.rules import (
    CHURCH_SQUARES,
    COUNSELOR_COLOURS,
    COUNSELOR_NAMES,
    COUNSELORS,
    Rules,
)
from coronas.engine import IllegalAction

_ENGINE = (
    "PHASES",
    "Accept",
    "Attack",
    "BatallaGame",
    "BatallaState",
    "BattleRoll",
    "Buy",
    "ChooseDie",
    "CrossReroll",
    "EndTurn",
    "Invoke",
    "Muster",
    "Reroll",
    "RerollDie",
    "Roll",
    "RollOff",
    "Seat",
    "SpendCross",
    "SpendCrown",
    "SpendSwords",
    "Visit",
)

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        **dict.fromkeys(_ENGINE, "actions"),
        "BatallaGame": "game",
        "BatallaState": "state",
        "Game": "game:BatallaGame",
        "State": "state:BatallaState",
    },
)

__all__ = [
    "CHURCH_SQUARES",
    "COUNSELORS",
    "COUNSELOR_COLOURS",
    "COUNSELOR_NAMES",
    "Game",
    "IllegalAction",
    "Rules",
    "State",
    *_ENGINE,
]
