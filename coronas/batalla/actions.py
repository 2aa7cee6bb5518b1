"""The actions and chance outcomes of Batalla de Coronas, with their wording.

Every action is a small frozen dataclass whose ``str`` says what it does in the rulebook's
words; the chance outcomes (the roll-off, the decision dice, the battle dice, a reroll) are
actions too, applied by the state at its chance nodes.

>>> from coronas.batalla import ChooseDie, Roll
>>> str(Roll(5, 2)), str(ChooseDie(3, 1))
('roll 2 and 5', 'use the 3 for the council (the 1 is gold)')
"""

from __future__ import annotations

import dataclasses
from typing import Any

from coronas.batalla.rules import CHURCH_SQUARES, COUNSELOR_COLOURS, COUNSELOR_NAMES, COUNSELORS
from coronas.engine import Action

__all__ = [
    "ACTION_TYPES",
    "PHASES",
    "SIDES",
    "TOKENS",
    "Accept",
    "Attack",
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
]

TOKENS = ("crown", "cross", "smith")
"""The three tokens, as the state names the field of each holder."""
SIDES = ("attacker", "defender")
"""The sides of a battle: ``state.decider`` 0 is the attacker, 1 the defender."""


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _name(counselor: Any) -> str:
    """The counselor's name in the rulebook ("Master of Coin"); anything else as it is."""
    return (
        COUNSELOR_NAMES.get(counselor, counselor) if isinstance(counselor, str) else str(counselor)
    )


@dataclasses.dataclass(frozen=True)
class RollOff(Action):
    """Chance: the roll-off for the first turn, the final (untied) dice of players 1 and 2."""

    first: int
    second: int

    def __str__(self) -> str:
        who = 1 if self.first > self.second else 2
        return f"roll-off {self.first} against {self.second}: player {who} goes first"


@dataclasses.dataclass(frozen=True)
class Roll(Action):
    """Chance: the two decision dice of a turn, lowest first (``Roll(5, 2)`` is ``Roll(2, 5)``)."""

    low: int
    high: int

    def __post_init__(self) -> None:
        # The dice are not ordered: keep one name for each outcome. (Values that are not
        # numbers are left as they are, for ``apply`` to refuse.)
        if _whole(self.low) and _whole(self.high) and self.low > self.high:
            low, high = self.high, self.low
            object.__setattr__(self, "low", low)
            object.__setattr__(self, "high", high)

    def __str__(self) -> str:
        return f"roll {self.low} and {self.high}"


@dataclasses.dataclass(frozen=True)
class ChooseDie(Action):
    """Use the die showing ``chair`` for the council; the other die is gold."""

    chair: int
    gold: int

    def __str__(self) -> str:
        return f"use the {self.chair} for the council (the {self.gold} is gold)"


@dataclasses.dataclass(frozen=True)
class Seat(Action):
    """Seat a counselor in the empty chair just chosen (and activate it)."""

    counselor: str

    def __str__(self) -> str:
        c = self.counselor
        colour = COUNSELOR_COLOURS.get(c, "?") if isinstance(c, str) else "?"
        return f"seat the {_name(c)} ({colour} pawn)"


@dataclasses.dataclass(frozen=True)
class Muster(Action):
    """The Militia Commander's free unit: ``"shield"`` or ``"sword"``."""

    unit: str

    def __str__(self) -> str:
        return f"Militia Commander: +1 {self.unit}"


@dataclasses.dataclass(frozen=True)
class Invoke(Action):
    """The Noble activates another seated counselor."""

    counselor: str

    def __str__(self) -> str:
        return f"Noble: activate the {_name(self.counselor)}"


@dataclasses.dataclass(frozen=True)
class Visit(Action):
    """The Priest moves the clergy to a church square (golden, blue or red)."""

    square: str

    def __str__(self) -> str:
        return f"Priest: visit the {self.square} square"


@dataclasses.dataclass(frozen=True)
class Buy(Action):
    """Buying phase: ``"shield"``, ``"sword"`` or ``"dragon"``; ``smith`` spends the Smith
    token for two militia units at the price of one."""

    item: str
    smith: bool = False

    def __str__(self) -> str:
        if self.item == "dragon":
            return "buy a dragon level"
        if self.smith:
            return f"buy 2 {self.item}s for the price of 1 (spend the Smith token)"
        return f"buy 1 {self.item}"


@dataclasses.dataclass(frozen=True)
class SpendCrown(Action):
    """Spend the Crown token for gold (any time in one's own turn)."""

    def __str__(self) -> str:
        return "spend the Crown token for 3 gold"


@dataclasses.dataclass(frozen=True)
class SpendCross(Action):
    """Spend the Cross token to move the clergy to another church square (with its effect)."""

    square: str

    def __str__(self) -> str:
        return f"spend the Cross token: the clergy visits the {self.square} square"


@dataclasses.dataclass(frozen=True)
class Attack(Action):
    """End the buying phase and attack the enemy kingdom."""

    def __str__(self) -> str:
        return "attack the enemy kingdom"


@dataclasses.dataclass(frozen=True)
class EndTurn(Action):
    """End the buying phase without attacking: the turn passes."""

    def __str__(self) -> str:
        return "end the turn without attacking"


@dataclasses.dataclass(frozen=True)
class BattleRoll(Action):
    """Chance: the battle dice of the attacker and the defender."""

    attacker: int
    defender: int

    def __str__(self) -> str:
        return f"battle: attacker rolls {self.attacker}, defender rolls {self.defender}"


@dataclasses.dataclass(frozen=True)
class Reroll(Action):
    """Pay ``cost`` gold to reroll one's battle die."""

    cost: int

    def __str__(self) -> str:
        return f"pay {self.cost} gold and reroll"


@dataclasses.dataclass(frozen=True)
class CrossReroll(Action):
    """Spend the Cross token for a free reroll (rule ``cross_effect="reroll"``)."""

    def __str__(self) -> str:
        return "spend the Cross token and reroll"


@dataclasses.dataclass(frozen=True)
class Accept(Action):
    """Keep the battle dice as they are (at the attacker's moment before the defender's
    reroll: spend no token, let the defender decide)."""

    def __str__(self) -> str:
        return "keep the roll"


@dataclasses.dataclass(frozen=True)
class RerollDie(Action):
    """Chance: the new value of a rerolled battle die."""

    value: int

    def __str__(self) -> str:
        return f"reroll: {self.value}"


@dataclasses.dataclass(frozen=True)
class SpendSwords(Action):
    """A winning attacker spends ``n`` swords to take ``n`` shields."""

    n: int

    def __str__(self) -> str:
        s = "" if self.n == 1 else "s"
        return f"spend {self.n} sword{s} (the enemy loses {self.n} shield{s})"


ACTION_TYPES: tuple[type, ...] = (
    RollOff, Roll, ChooseDie, Seat, Muster, Invoke, Visit, Buy, SpendCrown, SpendCross,
    Attack, EndTurn, BattleRoll, Reroll, CrossReroll, Accept, RerollDie, SpendSwords,
)  # fmt: skip

PHASES: dict[str, str] = {
    "rolloff": "the roll-off for the first turn",
    "roll": "rolling the two dice",
    "choose": "the decision phase: choose the die for the council",
    "seat": "the decision phase: choose the counselor for the empty chair",
    "muster": "the decision phase: the Militia Commander's shield or sword",
    "invoke": "the decision phase: the counselor the Noble activates",
    "church": "the decision phase: the church square the Priest visits",
    "buy": "the buying phase",
    "battle": "the battle roll",
    "reroll_choice": "the battle: reroll or keep the roll",
    "battle_tokens": "the battle: the attacker may spend a token before the defender decides",
    "reroll": "the battle: the reroll",
    "spend": "the battle: how many swords to spend",
    "over": "the end of the game",
}
"""Every phase of the state machine, with the words used in messages."""

# Shared instances keep legal-action lists cheap and membership tests fast (identity first).
_ATTACK, _END, _ACCEPT, _CROWN, _CROSS_REROLL = (
    Attack(),
    EndTurn(),
    Accept(),
    SpendCrown(),
    CrossReroll(),
)


_SEAT = {c: Seat(c) for c in COUNSELORS}
_INVOKE = {c: Invoke(c) for c in COUNSELORS}
_MUSTER = {u: Muster(u) for u in ("shield", "sword")}
_VISIT = {s: Visit(s) for s in CHURCH_SQUARES}
_SPEND_CROSS = {s: SpendCross(s) for s in CHURCH_SQUARES}
_BUY = {(i, s): Buy(i, s) for i in ("shield", "sword", "dragon") for s in (False, True)}
