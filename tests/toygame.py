"""A tiny game on the shared protocol, used to test the engine itself.

One player attacks a castle: roll a d6 and succeed on ``target`` or more. After a failed
roll the player may spend one of ``shields`` to roll again, or give up.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from coronas.dice import D6
from coronas.engine import CHANCE, TERMINAL, Action, Game, RuleSet, State, register_game


@dataclasses.dataclass(frozen=True)
class ToyRules(RuleSet):
    target: int = 4
    shields: int = 2
    faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


@dataclasses.dataclass(frozen=True)
class Roll(Action):
    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


@dataclasses.dataclass(frozen=True)
class Reroll(Action):
    def __str__(self) -> str:
        return "spend a shield and reroll"


@dataclasses.dataclass(frozen=True)
class GiveUp(Action):
    def __str__(self) -> str:
        return "give up"


class ToyState(State):
    def _setup(self) -> None:
        self.shields = self.rules.shields
        self.last: int | None = None
        self.rolling = True
        self.done = False

    def _current_player(self) -> int:
        if self.done:
            return TERMINAL
        return CHANCE if self.rolling else 0

    def _chance_outcomes(self):
        n = len(self.rules.faces)
        counts: dict[int, int] = {}
        for f in self.rules.faces:
            counts[f] = counts.get(f, 0) + 1
        return [(Roll(f), Fraction(c, n)) for f, c in sorted(counts.items())]

    def _legal_actions(self):
        return [Reroll(), GiveUp()] if self.shields > 0 else [GiveUp()]

    def _why_illegal(self, action):
        if isinstance(action, Reroll) and self.shields == 0:
            return "no shield left to spend on a reroll"
        return None

    def _apply(self, action) -> None:
        if isinstance(action, Roll):
            self.last = action.value
            self.rolling = False
            self.done = action.value >= self.rules.target
        elif isinstance(action, Reroll):
            self.shields -= 1
            self.rolling = True
        else:
            self.done = True

    def _returns(self):
        return [1 if self.success else 0]

    @property
    def success(self) -> bool:
        return self.last is not None and self.last >= self.rules.target

    def __str__(self) -> str:
        return f"last roll {self.last}, {self.shields} shields left"


@register_game
class ToyGame(Game):
    name = "toy"
    state_class = ToyState
    rules_class = ToyRules
    action_types = (Roll, Reroll, GiveUp)
    min_players = max_players = 1


__all__ = ["D6", "GiveUp", "Reroll", "Roll", "ToyGame", "ToyRules", "ToyState"]
