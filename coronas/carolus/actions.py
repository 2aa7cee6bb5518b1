"""Carolus Magnus actions and chance outcomes: small frozen dataclasses with their wording.

>>> for action in (Deploy("red"), Deploy("blue", 4), MoveEmperor(1, 2)):
...     print(action)
deploy a red knight to the court
deploy a blue knight to region 4
move the emperor 1 step to region 2

Set-up outcomes (:class:`PlaceKnight`, :class:`SetOrder`) and knight draws (:class:`Draw`) are
chance outcomes; the others are a player's decisions.
"""

from __future__ import annotations

import dataclasses

from coronas.carolus.rules import JOKER
from coronas.engine import Action


def player_name(player: int) -> str:
    """How the texts call seat ``player`` (0-based): ``"player 1"`` for the first, counting
    from one as the rulebook and the other games do."""
    return f"player {player + 1}"


__all__ = [
    "ACTION_TYPES",
    "AssignJoker",
    "ChooseDisc",
    "Deploy",
    "Draw",
    "MoveEmperor",
    "PlaceKnight",
    "SetOrder",
]


@dataclasses.dataclass(frozen=True)
class PlaceKnight(Action):
    """Set-up chance outcome: the shuffled knight that lands in ``region``."""

    region: int
    family: str

    def __str__(self) -> str:
        return f"a {self.family} knight starts in region {self.region}"


@dataclasses.dataclass(frozen=True)
class SetOrder(Action):
    """Set-up chance outcome: the random initial playing order."""

    order: tuple[int, ...]

    def __str__(self) -> str:
        return "initial order: " + ", ".join(player_name(p) for p in self.order)


@dataclasses.dataclass(frozen=True)
class Draw(Action):
    """Chance outcome: one knight drawn into a reserve (a family or the joker)."""

    family: str

    def __str__(self) -> str:
        return "draw a joker" if self.family == JOKER else f"draw a {self.family} knight"


@dataclasses.dataclass(frozen=True)
class AssignJoker(Action):
    """The drawer turns the joker just drawn into a knight of ``family``."""

    family: str

    def __str__(self) -> str:
        return f"the joker becomes a {self.family} knight"


@dataclasses.dataclass(frozen=True)
class ChooseDisc(Action):
    """Choose this round's disc: turn order and the emperor's longest move."""

    disc: int

    def __str__(self) -> str:
        return f"choose disc {self.disc}"


@dataclasses.dataclass(frozen=True)
class Deploy(Action):
    """Deploy one reserve knight of ``family`` to the court (``region=None``) or a region."""

    family: str
    region: int | None = None

    def __str__(self) -> str:
        where = "the court" if self.region is None else f"region {self.region}"
        return f"deploy a {self.family} knight to {where}"


@dataclasses.dataclass(frozen=True)
class MoveEmperor(Action):
    """Move the emperor ``steps`` regions clockwise, to region ``region``."""

    steps: int
    region: int

    def __str__(self) -> str:
        s = "step" if self.steps == 1 else "steps"
        return f"move the emperor {self.steps} {s} to region {self.region}"


ACTION_TYPES = (PlaceKnight, SetOrder, Draw, AssignJoker, ChooseDisc, Deploy, MoveEmperor)
"""Every action and outcome type, in the order a saved game's loader tries them."""
