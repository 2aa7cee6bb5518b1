"""Batalla de Coronas on the shared protocol: actions, the game state and every rule of play.

A turn is: roll both dice (a chance node), the decision phase (which die goes to the council,
which counselor sits down, the choices the counselor's ability asks for), the buying phase, and
optionally an attack, whose battle dice and rerolls are chance nodes and decisions in turn.
The first player is found by a roll-off (a chance node). The player to take the enemy's last
gem wins.

>>> from coronas.batalla import Game, Roll, ChooseDie, Seat, RollOff
>>> state = Game().new_initial_state()
>>> state.apply(RollOff(5, 2))           # player 1 rolled 5, player 2 rolled 2
>>> state.apply(Roll(1, 3))
>>> [str(a) for a in state.legal_actions()]
['use the 1 for the council (the 3 is gold)', 'use the 3 for the council (the 1 is gold)']
>>> state.apply(ChooseDie(3, 1)); state.apply(Seat("sorcerer"))
>>> state.dragon[0], state.gold[0]
(1, 1)
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from coronas.batalla.rules import (
    CHURCH_SQUARES,
    COUNSELOR_COLOURS,
    COUNSELOR_NAMES,
    COUNSELORS,
    Rules,
)
from coronas.dice import Die
from coronas.engine import CHANCE, TERMINAL, Action, Game, State, register_game

__all__ = [
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
]

TOKENS = ("crown", "cross", "smith")
SIDES = ("attacker", "defender")

# --------------------------------------------------------------------------------------------
# Actions and chance outcomes
# --------------------------------------------------------------------------------------------


def _name(counselor: str) -> str:
    return COUNSELOR_NAMES.get(counselor, counselor)


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
        if self.low > self.high:  # the dice are not ordered: keep one name for each outcome
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
        return f"seat the {_name(c)} ({COUNSELOR_COLOURS.get(c, '?')} pawn)"


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
    """Keep the battle dice as they are."""

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
    "reroll": "the battle: the reroll",
    "spend": "the battle: how many swords to spend",
    "over": "the end of the game",
}
"""Every phase of the state machine, with the words used in messages."""

_CHANCE_PHASES = frozenset({"rolloff", "roll", "battle", "reroll"})

# Shared instances keep legal-action lists cheap and membership tests fast (identity first).
_ATTACK, _END, _ACCEPT, _CROWN, _CROSS_REROLL = (
    Attack(),
    EndTurn(),
    Accept(),
    SpendCrown(),
    CrossReroll(),
)


# --------------------------------------------------------------------------------------------
# The state
# --------------------------------------------------------------------------------------------


class BatallaState(State):
    """A position of Batalla de Coronas. Players are 0 and 1 ("player 1" and "player 2").

    Game data (compared by ``==``, restored by ``undo``):

    * ``phase``: a key of :data:`PHASES`; ``player``: whose turn it is; ``turn``: turns started
      so far (the first player's first turn is 1);
    * per player (lists of two): ``shields``, ``swords``, ``gold``, ``dragon``, ``gems_won``,
      ``chairs`` (a tuple of the counselor in chair 1..6, or None), ``clergy`` (church square,
      None at the golden door), ``visited`` (squares visited so far);
    * ``crown``, ``cross``, ``smith``: the holder of each token (0, 1) or None in the supply;
    * ``bonus_taken``: who got the council-completion Noble activation (None: nobody yet);
    * this turn: ``dice`` (the two decision dice), ``chair`` (chosen chair awaiting a seat),
      ``queue`` (counselor activations still to resolve);
    * the battle: ``bdice`` (attacker's, defender's die), ``rerolls`` (rerolls paid by each
      side), ``decider`` (0 attacker / 1 defender, who may reroll now), ``declined``
      (bit mask of sides that kept a tie), ``rerolling`` (side whose die is being rerolled);
    * ``last_battle``: the final dice (attacker, defender) of the latest battle;
    * ``winner``: the player who took the last gem.
    """

    game: BatallaGame

    # -- setup -----------------------------------------------------------------------------
    def _setup(self) -> None:
        r: Rules = self.rules
        self.phase = "rolloff"
        self.player = 0
        self.turn = 0
        self.shields = [r.shields_start, r.shields_start]
        self.swords = [r.swords_start, r.swords_start]
        self.gold = [r.gold_start, r.gold_start]
        self.dragon = [0, 0]
        self.gems_won = [0, 0]
        self.chairs = [(None,) * r.chairs, (None,) * r.chairs]
        self.clergy = [None, None]
        self.visited = [(), ()]
        self.crown = None
        self.cross = None
        self.smith = None
        self.bonus_taken = None
        self.dice = None
        self.chair = None
        self.queue = ()
        self.bdice = None
        self.rerolls = (0, 0)
        self.decider = None
        self.declined = 0
        self.rerolling = None
        self.last_battle = None
        self.winner = None
        position = getattr(self.game, "position", None)
        if position is not None:
            self._place(position)

    def _place(self, pos: Mapping[str, Any]) -> None:
        """Start from a set-up position (already validated by :class:`BatallaGame`)."""
        for key in ("shields", "swords", "gold", "dragon", "gems_won", "clergy"):
            if key in pos:
                setattr(self, key, list(pos[key]))
        if "chairs" in pos:
            self.chairs = [tuple(c) for c in pos["chairs"]]
        self.visited = [(c,) if c else () for c in self.clergy]
        for token in TOKENS:
            setattr(self, token, pos.get(token))
        self.bonus_taken = pos.get("bonus_taken")
        self.player = pos.get("to_move", 0)
        self.turn = pos.get("turn", 2)
        self.phase = pos.get("phase", "roll")

    # -- fast undo ---------------------------------------------------------------------------
    def _snapshot(self) -> dict[str, Any]:
        # A shallow copy is enough for everything but the per-player lists (the rest is
        # immutable: ints, strings, tuples, None).
        snap = self.__dict__.copy()
        for k in _BASE:
            del snap[k]
        for k in _LIST_FIELDS:
            snap[k] = snap[k][:]
        return snap

    def _restore(self, snap: dict[str, Any]) -> None:
        d = self.__dict__
        d.update(snap)
        # copy the lists again: a clone shares its undo stack's snapshots with the original
        for k in _LIST_FIELDS:
            d[k] = snap[k][:]

    def _copy_data(self) -> dict[str, Any]:
        return self._snapshot()

    # -- the protocol ------------------------------------------------------------------------
    def _current_player(self) -> int:
        phase = self.phase
        if phase in _CHANCE_PHASES:
            return CHANCE
        if phase == "over":
            return TERMINAL
        if phase == "reroll_choice":
            return self.player if self.decider == 0 else 1 - self.player
        return self.player

    def _chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        faces = self.rules.die_faces
        phase = self.phase
        if phase == "roll":
            return _roll_outcomes(faces)
        if phase == "battle":
            return _battle_outcomes(faces)
        if phase == "reroll":
            return _reroll_outcomes(faces)
        return _rolloff_outcomes(faces)

    def sample_chance(self, rng: random.Random | int | None = None) -> Action:
        """Pick a chance outcome with its exact probability (the same draw as the engine's
        ``Die.sample`` on :meth:`chance_outcomes`, without rebuilding the distribution)."""
        if self._current_player() != CHANCE:
            return super().sample_chance(rng)
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        outcomes, weights = _sampler(self._chance_outcomes())
        return rng.choices(outcomes, weights)[0]

    def _legal_actions(self) -> list[Action]:
        phase, p, r = self.phase, self.player, self.rules
        if phase == "choose":
            lo, hi = self.dice
            if lo == hi:
                return [ChooseDie(lo, lo), *self._token_actions()]
            return [ChooseDie(lo, hi), ChooseDie(hi, lo), *self._token_actions()]
        if phase == "seat":
            seated = self.chairs[p]
            return [_SEAT[c] for c in COUNSELORS if c not in seated] + self._token_actions()
        if phase == "muster":
            return [_MUSTER[u] for u in self._muster_options()] + self._token_actions()
        if phase == "invoke":
            return [_INVOKE[c] for c in self._noble_options()] + self._token_actions()
        if phase == "church":
            return [_VISIT[s] for s in self._church_options(p)] + self._token_actions()
        if phase == "buy":
            acts: list[Action] = []
            gold = self.gold[p]
            if gold >= r.militia_cost:
                holds_smith = self.smith == p
                if self.shields[p] < r.militia_max:
                    acts.append(_BUY[("shield", False)])
                    if holds_smith:
                        acts.append(_BUY[("shield", True)])
                if self.swords[p] < r.militia_max:
                    acts.append(_BUY[("sword", False)])
                    if holds_smith:
                        acts.append(_BUY[("sword", True)])
            level = self.dragon[p]
            if level < r.dragon_attack_level and gold >= r.dragon_costs[level]:
                acts.append(_BUY[("dragon", False)])
            acts.extend(self._token_actions())
            if self._attack_refusal() is None:
                acts.append(_ATTACK)
            acts.append(_END)
            return acts
        if phase == "reroll_choice":
            side = self.decider
            who = p if side == 0 else 1 - p
            acts = []
            cost = r.reroll_cost(self.rerolls[side])
            if self.gold[who] >= cost:
                acts.append(Reroll(cost))
            if r.cross_effect == "reroll" and self.cross == who:
                acts.append(_CROSS_REROLL)
            acts.append(_ACCEPT)
            if side == 0:
                acts.extend(self._token_actions())
            return acts
        if phase == "spend":
            return [SpendSwords(n) for n in self._spend_options()] + self._token_actions()
        return []

    def _token_actions(self) -> list[Action]:
        """Tokens the player whose turn it is may spend now (any time in their own turn)."""
        p = self.player
        acts: list[Action] = []
        if self.crown == p:
            acts.append(_CROWN)
        if self.cross == p and self.rules.cross_effect == "priest" and self._cross_ready(p):
            acts.extend(_SPEND_CROSS[s] for s in self._church_options(p))
        return acts

    def _cross_ready(self, p: int) -> bool:
        return not self.rules.cross_needs_priest or "priest" in self.chairs[p]

    # -- option lists --------------------------------------------------------------------------
    def _muster_options(self) -> list[str]:
        p, top = self.player, self.rules.militia_max
        return [u for u, v in (("shield", self.shields[p]), ("sword", self.swords[p])) if v < top]

    def _noble_options(self) -> list[str]:
        return [c for c in COUNSELORS if c != "noble" and c in self.chairs[self.player]]

    def _church_options(self, p: int) -> list[str]:
        if self.rules.church_revisit == "never":
            return [s for s in CHURCH_SQUARES if s not in self.visited[p]]
        return [s for s in CHURCH_SQUARES if s != self.clergy[p]]

    def _spend_options(self) -> range:
        p = self.player
        a, d = self.bdice
        most = min(a - d, self.swords[p], self.shields[1 - p])
        return range(min(self.rules.min_swords_spent, most), most + 1)

    def _attack_refusal(self) -> str | None:
        """Why the player to move may not attack now, or None if they may."""
        r, p = self.rules, self.player
        if self.turn == 1 and not r.first_turn_attack:
            return "whoever has the first turn of the game cannot declare an attack during it"
        if self.swords[p] < r.min_swords_to_attack:
            return f"to be able to attack you need at least {r.min_swords_to_attack} sword"
        return None

    # -- applying actions ------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        kind = type(action)
        p = self.player
        if kind is Roll:
            self.dice = (action.low, action.high)
            self.phase = "choose"
        elif kind is ChooseDie:
            self._gain_gold(p, action.gold)
            if self.chairs[p][action.chair - 1] is None:
                self.chair = action.chair
                self.phase = "seat"
            else:
                self.queue = (self.chairs[p][action.chair - 1],)
                self._run_queue()
        elif kind is Seat:
            chairs = list(self.chairs[p])
            chairs[self.chair - 1] = action.counselor
            self.chairs[p] = tuple(chairs)
            self.chair = None
            self.queue = (action.counselor,)
            if (
                self.rules.council_bonus
                and self.bonus_taken is None
                and None not in self.chairs[p]
                and "noble" in self.chairs[p]
            ):
                self.bonus_taken = p
                self.queue = (action.counselor, "noble")
            self._run_queue()
        elif kind is Muster:
            self._add_unit(p, action.unit, self.rules.militia_commander_units)
            self._run_queue()
        elif kind is Invoke:
            self.queue = (action.counselor, *self.queue)
            self._run_queue()
        elif kind is Visit:
            self._visit(p, action.square)
            self._run_queue()
        elif kind is Buy:
            self._buy(p, action)
        elif kind is SpendCrown:
            self.crown = None
            self._gain_gold(p, self.rules.crown_gold)
        elif kind is SpendCross:
            self.cross = None
            self._visit(p, action.square)
        elif kind is Attack:
            self.rerolls = (0, 0)
            self.declined = 0
            self.phase = "battle"
        elif kind is EndTurn:
            self._end_turn()
        elif kind is BattleRoll:
            self.bdice = (action.attacker, action.defender)
            self._compare()
        elif kind is Reroll:
            side = self.decider
            self.gold[p if side == 0 else 1 - p] -= action.cost
            rerolls = list(self.rerolls)
            rerolls[side] += 1
            self.rerolls = tuple(rerolls)
            self.rerolling = side
            self.phase = "reroll"
        elif kind is CrossReroll:
            self.cross = None
            self.rerolling = self.decider
            self.phase = "reroll"
        elif kind is Accept:
            self.declined |= 1 << self.decider
            self._compare()
        elif kind is RerollDie:
            a, d = self.bdice
            self.bdice = (action.value, d) if self.rerolling == 0 else (a, action.value)
            self.rerolling = None
            self.declined = 0
            self._compare()
        elif kind is SpendSwords:
            self.swords[p] -= action.n
            self.shields[1 - p] -= action.n
            if self.shields[1 - p] == 0:
                self._take_gem(p)
            self._end_battle()
        elif kind is RollOff:
            self.player = 0 if action.first > action.second else 1
            self._start_turn()
        else:  # pragma: no cover - _check only lets legal actions through
            raise TypeError(f"not a Batalla de Coronas action: {action!r}")

    def _why_illegal(self, action: Any) -> str | None:
        phase, p, r = self.phase, self.player, self.rules
        if phase == "over":
            return None
        kind = type(action)
        unknown = _unknown_name(action)
        if unknown:
            return unknown
        if kind is Attack and phase == "buy":
            return self._attack_refusal()
        if kind is Buy and phase == "buy":
            if action.item == "dragon":
                level = self.dragon[p]
                cost = r.dragon_costs[level] if level < r.dragon_attack_level else None
                return f"dragon level {level + 1} costs {cost} gold and you have {self.gold[p]}"
            track = self.shields if action.item == "shield" else self.swords
            if action.smith and self.smith != p:
                holder = "nobody" if self.smith is None else f"player {self.smith + 1}"
                return f"you do not have the Smith token ({holder} has it)"
            if track[p] >= r.militia_max:
                return f"your {action.item}s are already at {r.militia_max}, the top of the track"
            return f"a {action.item} costs {r.militia_cost} gold and you have {self.gold[p]}"
        if kind is SpendCrown:
            return "you do not have the Crown token" if self.crown != p else None
        if kind is SpendCross:
            if self.cross != p:
                return "you do not have the Cross token"
            if r.cross_effect != "priest":
                return "with these rules the Cross token buys a battle reroll, not a church visit"
            if not self._cross_ready(p):
                return "the Cross token moves the clergy only once the Priest sits on the council"
            return f"the clergy cannot visit the {action.square} square now"
        if kind is Visit and phase == "church":
            return f"the clergy cannot visit the {action.square} square now"
        if kind is Seat and phase == "seat":
            return f"the {_name(action.counselor)} already sits on your council"
        if kind is Muster and phase == "muster":
            return f"your {action.unit}s are already at {r.militia_max}, the top of the track"
        if kind is Invoke and phase == "invoke":
            return (
                f"the Noble can activate only another counselor of your council, not the "
                f"{_name(action.counselor)}"
            )
        if kind is ChooseDie and phase == "choose":
            return f"the dice show {self.dice[0]} and {self.dice[1]}"
        if kind is Reroll and phase == "reroll_choice":
            side = self.decider
            cost = r.reroll_cost(self.rerolls[side])
            who = p if side == 0 else 1 - p
            if action.cost != cost:
                return f"your next reroll in this battle costs {cost} gold, not {action.cost}"
            return f"this reroll costs {cost} gold and you have {self.gold[who]}"
        if kind is SpendSwords and phase == "spend":
            opts = self._spend_options()
            return f"you can spend from {opts.start} to {opts.stop - 1} swords"
        return f"{action} is not possible now: this is {PHASES[phase]}"

    # -- rules of play -----------------------------------------------------------------------
    def cap(self, p: int) -> int:
        """The most gold player ``p`` may hold now (7 minus the gems they have won)."""
        return self.rules.gold_cap(self.gems_won[p])

    def _gain_gold(self, p: int, amount: int) -> None:
        self.gold[p] = min(self.gold[p] + amount, self.cap(p))

    def _add_unit(self, p: int, unit: str, n: int) -> None:
        track = self.shields if unit == "shield" else self.swords
        track[p] = min(track[p] + n, self.rules.militia_max)

    def _buy(self, p: int, action: Buy) -> None:
        r = self.rules
        if action.item == "dragon":
            self.gold[p] -= r.dragon_costs[self.dragon[p]]
            self._raise_dragon(p, 1)
            return
        self.gold[p] -= r.militia_cost
        if action.smith:
            self.smith = None
            self._add_unit(p, action.item, r.smith_units)
        else:
            self._add_unit(p, action.item, 1)

    def _raise_dragon(self, p: int, levels: int) -> None:
        r = self.rules
        self.dragon[p] = min(self.dragon[p] + levels, r.dragon_attack_level)
        if self.dragon[p] >= r.dragon_attack_level:
            self.dragon[p] = 0
            q = 1 - p
            self.shields[q] = max(self.shields[q] - r.dragon_damage, 0)
            if self.shields[q] == 0 and r.dragon_takes_gem:
                self._take_gem(p)

    def _visit(self, p: int, square: str) -> None:
        r, q = self.rules, 1 - p
        self.clergy[p] = square
        if square not in self.visited[p]:
            self.visited[p] = (*self.visited[p], square)
        if square == "golden":
            self.gold[q] = r.gold_min
        elif square == "blue":
            self.swords[q] = max(self.swords[q] - r.church_sword_loss, 0)
        elif square == "red":
            self.dragon[q] = max(self.dragon[q] - r.church_dragon_loss, 0)

    def _run_queue(self) -> None:
        """Resolve pending counselor activations until one needs a choice or none is left."""
        p = self.player
        while self.queue:
            if self.phase == "over":
                return
            counselor, self.queue = self.queue[0], self.queue[1:]
            if counselor == "militia_commander":
                if self._muster_options():
                    self.phase = "muster"
                    return
            elif counselor == "master_of_coin":
                self._gain_gold(p, self.rules.master_of_coin_gold)
            elif counselor == "sorcerer":
                self._raise_dragon(p, self.rules.sorcerer_levels)
            elif counselor == "smith":
                self.smith = p
            elif counselor == "noble":
                if self._noble_options():
                    self.phase = "invoke"
                    return
            elif counselor == "priest" and self._church_options(p):
                self.phase = "church"
                return
        if self.phase != "over":
            self.phase = "buy"

    def _take_gem(self, p: int) -> None:
        """Player ``p`` brought the enemy's shields to 0: a gem, the Crown; the Cross to them."""
        self.gems_won[p] += 1
        self.crown = p
        self.cross = 1 - p
        self.gold[p] = min(self.gold[p], self.cap(p))
        if self.gems_won[p] >= self.rules.gems_each:
            self.winner = p
            self.phase = "over"
            self.queue = ()

    # -- the battle ------------------------------------------------------------------------
    def _may_reroll(self, side: int) -> bool:
        who = self.player if side == 0 else 1 - self.player
        r = self.rules
        if self.gold[who] >= r.reroll_cost(self.rerolls[side]):
            return True
        return r.cross_effect == "reroll" and self.cross == who

    def _compare(self) -> None:
        """After a battle roll or a decision: let the side behind reroll, or resolve."""
        a, d = self.bdice
        sides: tuple[int, ...] = (0,) if a < d else (1,)
        if a == d:  # B7: on a tie nobody rerolls, unless the rule set says otherwise
            sides = (0, 1) if self.rules.reroll_on_tie else ()
        for side in sides:
            if not self.declined & (1 << side) and self._may_reroll(side):
                self.decider = side
                self.phase = "reroll_choice"
                return
        self.decider = None
        self._resolve()

    def _resolve(self) -> None:
        p, q = self.player, 1 - self.player
        a, d = self.bdice
        self.last_battle = (a, d)
        if a > d:
            if self.shields[q] == 0:
                self._take_gem(p)
            elif len(self._spend_options()) > 0:
                self.phase = "spend"
                return
        elif d > a:
            self.swords[p] = max(self.swords[p] - (d - a), 0)
        self._end_battle()

    def _end_battle(self) -> None:
        if self.phase != "over":
            self._end_turn()

    def _end_turn(self) -> None:
        self.player = 1 - self.player
        self._start_turn()

    def _start_turn(self) -> None:
        self.turn += 1
        self.phase = "roll"
        self.dice = None
        self.bdice = None
        self.decider = None
        self.declined = 0
        self.rerolls = (0, 0)

    def _returns(self) -> list[int]:
        return [1 if self.winner == i else 0 for i in range(2)]

    def scores(self) -> list[int]:
        """Gems each player has won."""
        return list(self.gems_won)

    # -- views -------------------------------------------------------------------------------
    @property
    def attacker_die(self) -> int | None:
        return None if self.bdice is None else self.bdice[0]

    def player_name(self, player: int) -> str:
        """``"player 1"`` or ``"player 2"``: the rulebook counts the players from one."""
        return f"player {player + 1}"

    def gems_in_castle(self, p: int) -> int:
        """Gems still in player ``p``'s power area."""
        return self.rules.gems_each - self.gems_won[1 - p]

    def token_holders(self) -> dict[str, int | None]:
        """Who holds each token (None: the common supply)."""
        return {t: getattr(self, t) for t in TOKENS}

    def describe_phase(self) -> str:
        """The phase in words, with whose turn it is."""
        if self.phase == "over":
            return f"game over: {self.player_name(self.winner)} wins"
        if self.phase == "rolloff":
            return PHASES["rolloff"]
        text = f"turn {self.turn}, {self.player_name(self.player)}: {PHASES[self.phase]}"
        if self.phase == "reroll_choice":
            who = self.player if self.decider == 0 else 1 - self.player
            text += f" ({self.player_name(who)}, the {SIDES[self.decider]}, decides)"
        return text

    def graph(self):
        """Both kingdoms as a networkx graph.

        Nodes (all with a ``kind`` attribute):

        * ``("kingdom", p)``: kind "kingdom", ``player`` (0/1), ``gems_in_castle``,
          ``gems_won``, ``gold_cap``, ``to_move`` (bool);
        * ``("chair", p, n)`` for n = 1..6: kind "chair", ``number``, ``counselor`` (key or
          None), ``colour`` (pawn colour or None);
        * ``("track", p, name)`` for shields, swords, gold, dragon: kind "track", ``value``,
          ``low``, ``high`` (the bounds now; the gold high is the current cap);
        * ``("church", p, square)`` for the door and the three squares: kind "church",
          ``clergy`` (bool: the white disc is here), ``visited`` (bool);
        * ``("token", name)`` for crown, cross, smith: kind "token", ``holder`` (0, 1, None);
        * ``"supply"``: kind "supply".

        Edges: kingdom - chair, kingdom - track, kingdom - church (``relation="part of"``);
        token - kingdom or supply (``relation="held by"``); kingdom - kingdom
        (``relation="enemy"``) and kingdom - supply (``relation="beside"``: the neutral zone
        between the boards), so the graph is connected.
        """
        import networkx as nx

        r = self.rules
        g = nx.Graph()
        g.add_node("supply", kind="supply")
        for p in range(2):
            k = ("kingdom", p)
            g.add_node(
                k,
                kind="kingdom",
                player=p,
                gems_in_castle=self.gems_in_castle(p),
                gems_won=self.gems_won[p],
                gold_cap=self.cap(p),
                to_move=(self.player == p and self.phase not in ("rolloff", "over")),
            )
            for n, c in enumerate(self.chairs[p], start=1):
                g.add_node(
                    ("chair", p, n),
                    kind="chair",
                    number=n,
                    counselor=c,
                    colour=COUNSELOR_COLOURS.get(c) if c else None,
                )
                g.add_edge(k, ("chair", p, n), relation="part of")
            tracks = {
                "shields": (self.shields[p], 0, r.militia_max),
                "swords": (self.swords[p], 0, r.militia_max),
                "gold": (self.gold[p], r.gold_min, self.cap(p)),
                "dragon": (self.dragon[p], 0, r.dragon_attack_level),
            }
            for name, (value, low, high) in tracks.items():
                g.add_node(("track", p, name), kind="track", value=value, low=low, high=high)
                g.add_edge(k, ("track", p, name), relation="part of")
            for square in ("door", *CHURCH_SQUARES):
                here = self.clergy[p] == square or (square == "door" and self.clergy[p] is None)
                g.add_node(
                    ("church", p, square),
                    kind="church",
                    clergy=here,
                    visited=square in self.visited[p],
                )
                g.add_edge(k, ("church", p, square), relation="part of")
        g.add_edge(("kingdom", 0), ("kingdom", 1), relation="enemy")
        for p in range(2):
            g.add_edge(("kingdom", p), "supply", relation="beside")
        for t in TOKENS:
            holder = getattr(self, t)
            g.add_node(("token", t), kind="token", holder=holder)
            g.add_edge(
                ("token", t),
                "supply" if holder is None else ("kingdom", holder),
                relation="held by",
            )
        return g

    def board_text(self, p: int) -> str:
        """One kingdom board as text."""
        r = self.rules
        held = [t.capitalize() for t in TOKENS if getattr(self, t) == p]
        lines = [
            f"Player {p + 1}: {self.gems_in_castle(p)} gems in the castle, "
            f"{self.gems_won[p]} won; tokens: {', '.join(held) or 'none'}",
            "  council  "
            + "  ".join(f"{n}:{_name(c) if c else '-'}" for n, c in enumerate(self.chairs[p], 1)),
            f"  shields  {_track(self.shields[p], 0, r.militia_max)}",
            f"  swords   {_track(self.swords[p], 0, r.militia_max)}",
            f"  gold     {_track(self.gold[p], r.gold_min, r.gold_max, self.cap(p))}",
            f"  dragon   {_track(self.dragon[p], 0, r.dragon_attack_level, labels='X')}",
            "  church   "
            + "  ".join(
                (f"[{s}]" if (self.clergy[p] or "door") == s else s)
                for s in ("door", *CHURCH_SQUARES)
            ),
        ]
        return "\n".join(lines)

    def __str__(self) -> str:
        head = f"Batalla de Coronas: {self.describe_phase()}"
        extra = []
        if self.dice is not None and self.phase not in ("battle", "roll"):
            extra.append(f"decision dice: {self.dice[0]} and {self.dice[1]}")
        if self.bdice is not None:
            extra.append(f"battle dice: attacker {self.bdice[0]}, defender {self.bdice[1]}")
        body = [self.board_text(0), self.board_text(1)]
        return "\n".join([head, *extra, *body])

    def _repr_html_(self) -> str:
        return _state_html(self)


_BASE = State._BASE_FIELDS


def _unknown_name(action: Any) -> str | None:
    """A message if ``action`` names a counselor, square, unit or item the game does not have."""
    kind = type(action)
    if kind in (Seat, Invoke) and action.counselor not in COUNSELORS:
        return f"there is no counselor {action.counselor!r}; the counselors are {list(COUNSELORS)}"
    if kind in (Visit, SpendCross) and action.square not in CHURCH_SQUARES:
        return f"there is no church square {action.square!r}; they are {list(CHURCH_SQUARES)}"
    if kind is Muster and action.unit not in ("shield", "sword"):
        return f"the Militia Commander gives a 'shield' or a 'sword', not {action.unit!r}"
    if kind is Buy:
        if action.item not in ("shield", "sword", "dragon"):
            return f"you can buy a 'shield', a 'sword' or a 'dragon' level, not {action.item!r}"
        if action.item == "dragon" and action.smith:
            return "the Smith token buys militia units (shields or swords), not dragon levels"
    return None


_LIST_FIELDS = ("shields", "swords", "gold", "dragon", "gems_won", "chairs", "clergy", "visited")


def _track(value: int, low: int, high: int, cap: int | None = None, labels: str = "") -> str:
    cells = []
    for v in range(low, high + 1):
        text = labels if (labels and v == 0) else str(v)
        if cap is not None and v > cap:
            text = "#"
        cells.append(f"[{text}]" if v == value else f" {text} ")
    return "".join(cells) + f"  = {value}"


_PAWN_CSS = {
    "blue": "#3b6fd8",
    "yellow": "#e8c31b",
    "red": "#d23c3c",
    "black": "#222222",
    "purple": "#8a3fb8",
    "white": "#f4f4f4",
}
_TRACK_CSS = {"shields": "#3b6fd8", "swords": "#3b6fd8", "gold": "#e8c31b", "dragon": "#2e8b57"}
_SQUARE_CSS = {"door": "#c9a227", "golden": "#f2d64b", "blue": "#6d9bf0", "red": "#e36b6b"}


def _state_html(state: BatallaState) -> str:
    """Both kingdom boards as HTML tables (what Jupyter shows for a state)."""
    from html import escape

    r = state.rules
    cell = "padding:2px 6px;border:1px solid #bbb;text-align:center;min-width:1.6em"

    def track_row(name: str, value: int, low: int, high: int, cap: int | None = None) -> str:
        cells = []
        for v in range(low, high + 1):
            label = "X" if (name == "dragon" and v == 0) else str(v)
            style = cell
            if v == value:
                style += f";background:{_TRACK_CSS[name]};color:white;font-weight:bold"
            elif cap is not None and v > cap:
                style += ";background:#999;color:#999"
                label = "&#9670;"
            cells.append(f"<td style='{style}'>{label}</td>")
        return f"<tr><th style='text-align:left'>{name}</th>{''.join(cells)}</tr>"

    boards = []
    for p in range(2):
        turn = state.player == p and state.phase not in ("rolloff", "over")
        chairs = []
        for n, c in enumerate(state.chairs[p], start=1):
            if c is None:
                chairs.append(f"<td style='{cell}'>{n}<br>&mdash;</td>")
            else:
                colour = _PAWN_CSS[COUNSELOR_COLOURS[c]]
                fg = "black" if COUNSELOR_COLOURS[c] in ("white", "yellow") else "white"
                chairs.append(
                    f"<td style='{cell};background:{colour};color:{fg}' "
                    f"title='{escape(_name(c))}'>{n}<br>{escape(_name(c))}</td>"
                )
        church = []
        for sq in ("door", *CHURCH_SQUARES):
            here = (state.clergy[p] or "door") == sq
            mark = " &#9679;" if here else ""
            church.append(f"<td style='{cell};background:{_SQUARE_CSS[sq]}'>{sq}{mark}</td>")
        tokens = [t.capitalize() for t in TOKENS if getattr(state, t) == p]
        gems = "&#128142;" * state.gems_in_castle(p)
        won = "&#128142;" * state.gems_won[p]
        rows = [
            f"<tr><th style='text-align:left'>council</th>{''.join(chairs)}</tr>",
            track_row("shields", state.shields[p], 0, r.militia_max),
            track_row("swords", state.swords[p], 0, r.militia_max),
            track_row("gold", state.gold[p], r.gold_min, r.gold_max, state.cap(p)),
            track_row("dragon", state.dragon[p], 0, r.dragon_attack_level),
            f"<tr><th style='text-align:left'>church</th>{''.join(church)}</tr>",
        ]
        border = "3px solid #d4a017" if turn else "1px solid #888"
        boards.append(
            f"<div style='border:{border};border-radius:6px;padding:6px;margin:4px'>"
            f"<b>Player {p + 1}</b>{' (to move)' if turn else ''}<br>"
            f"castle: {gems or 'no gems'} &nbsp; won: {won or 'none'} &nbsp; "
            f"tokens: {escape(', '.join(tokens) or 'none')}"
            f"<table style='border-collapse:collapse;margin-top:4px'>{''.join(rows)}</table></div>"
        )
    info = [escape(state.describe_phase())]
    if state.dice is not None and state.phase not in ("battle", "roll"):
        info.append(f"decision dice: {state.dice[0]} and {state.dice[1]}")
    if state.bdice is not None:
        info.append(f"battle dice: attacker {state.bdice[0]}, defender {state.bdice[1]}")
    return (
        f"<div><div>{'<br>'.join(info)}</div>"
        f"<div style='display:flex;flex-wrap:wrap'>{''.join(boards)}</div></div>"
    )


# Cached outcome lists and action instances --------------------------------------------------

_OUTCOMES: dict[tuple, list] = {}


def _counts(faces: tuple[int, ...]) -> dict[int, int]:
    out: dict[int, int] = {}
    for f in faces:
        out[f] = out.get(f, 0) + 1
    return out


def _roll_outcomes(faces: tuple[int, ...]) -> list[tuple[Action, Fraction]]:
    key = ("roll", faces)
    if key not in _OUTCOMES:
        c, n = _counts(faces), len(faces) ** 2
        acc: dict[tuple[int, int], int] = {}
        for a, ca in c.items():
            for b, cb in c.items():
                pair = (min(a, b), max(a, b))
                acc[pair] = acc.get(pair, 0) + ca * cb
        _OUTCOMES[key] = [(Roll(lo, hi), Fraction(w, n)) for (lo, hi), w in sorted(acc.items())]
    return _OUTCOMES[key]


def _battle_outcomes(faces: tuple[int, ...]) -> list[tuple[Action, Fraction]]:
    key = ("battle", faces)
    if key not in _OUTCOMES:
        c, n = _counts(faces), len(faces) ** 2
        _OUTCOMES[key] = [
            (BattleRoll(a, d), Fraction(ca * cd, n))
            for a, ca in sorted(c.items())
            for d, cd in sorted(c.items())
        ]
    return _OUTCOMES[key]


def _reroll_outcomes(faces: tuple[int, ...]) -> list[tuple[Action, Fraction]]:
    key = ("reroll", faces)
    if key not in _OUTCOMES:
        c, n = _counts(faces), len(faces)
        _OUTCOMES[key] = [(RerollDie(v), Fraction(w, n)) for v, w in sorted(c.items())]
    return _OUTCOMES[key]


def _rolloff_outcomes(faces: tuple[int, ...]) -> list[tuple[Action, Fraction]]:
    """Rolling again on ties until the dice differ: each untied pair with its conditional
    probability P(pair) / P(no tie)."""
    key = ("rolloff", faces)
    if key not in _OUTCOMES:
        c = _counts(faces)
        pairs = [
            (a, b, ca * cb) for a, ca in sorted(c.items()) for b, cb in sorted(c.items()) if a != b
        ]
        total = sum(w for *_, w in pairs)
        if total == 0:
            raise ValueError("the roll-off never ends: the die has a single face")
        _OUTCOMES[key] = [(RollOff(a, b), Fraction(w, total)) for a, b, w in pairs]
    return _OUTCOMES[key]


_SAMPLERS: dict[int, tuple[list[Action], list[int]]] = {}


def _sampler(outcomes: list[tuple[Action, Fraction]]) -> tuple[list[Action], list[int]]:
    """Outcomes and integer weights in the order ``Die.sample`` uses, cached per list."""
    key = id(outcomes)
    if key not in _SAMPLERS:
        items = Die.from_pmf(outcomes).items()
        den = math.lcm(*(p.denominator for _, p in items))
        _SAMPLERS[key] = ([o for o, _ in items], [int(p * den) for _, p in items])
    return _SAMPLERS[key]


_SEAT = {c: Seat(c) for c in COUNSELORS}
_INVOKE = {c: Invoke(c) for c in COUNSELORS}
_MUSTER = {u: Muster(u) for u in ("shield", "sword")}
_VISIT = {s: Visit(s) for s in CHURCH_SQUARES}
_SPEND_CROSS = {s: SpendCross(s) for s in CHURCH_SQUARES}
_BUY = {(i, s): Buy(i, s) for i in ("shield", "sword", "dragon") for s in (False, True)}


# --------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------

_POSITION_KEYS = (
    "to_move", "turn", "phase", "shields", "swords", "gold", "dragon", "gems_won", "chairs",
    "clergy", "crown", "cross", "smith", "bonus_taken",
)  # fmt: skip


def _check_position(pos: Any, rules: Rules) -> dict[str, Any]:
    """Validate a set-up position; raise ValueError naming the field and what was expected."""
    if not isinstance(pos, Mapping):
        raise ValueError(f"position: expected an object of fields, got {pos!r}")
    unknown = sorted(set(pos) - set(_POSITION_KEYS))
    if unknown:
        raise ValueError(
            f"position: unknown field(s) {unknown}; the fields are {list(_POSITION_KEYS)}"
        )
    out: dict[str, Any] = {}

    def whole(v: Any, lo: int, hi: int, where: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(
                f"position: {where}: expected a whole number from {lo} to {hi}, got {v!r}"
            )
        return v

    def holder(v: Any, where: str) -> int | None:
        if v is None:
            return None
        return whole(v, 0, 1, where)

    def pair(key: str, lo: int, hi: int) -> list[int]:
        v = pos[key]
        if not isinstance(v, (list, tuple)) or len(v) != 2:
            raise ValueError(
                f"position: {key}: expected a list of 2 values (one a player), got {v!r}"
            )
        return [whole(x, lo, hi, f"{key}[{i}]") for i, x in enumerate(v)]

    bounds = {
        "shields": (0, rules.militia_max),
        "swords": (0, rules.militia_max),
        "gold": (rules.gold_min, rules.gold_max),
        "dragon": (0, rules.dragon_attack_level - 1),
        "gems_won": (0, rules.gems_each - 1),
    }
    for key, (lo, hi) in bounds.items():
        if key in pos:
            out[key] = pair(key, lo, hi)
    if "to_move" in pos:
        out["to_move"] = whole(pos["to_move"], 0, 1, "to_move")
    if "turn" in pos:
        out["turn"] = whole(pos["turn"], 1, 10**9, "turn")
    if "phase" in pos:
        if pos["phase"] not in ("roll", "buy"):
            raise ValueError(f"position: phase: expected 'roll' or 'buy', got {pos['phase']!r}")
        out["phase"] = pos["phase"]
    if "chairs" in pos:
        chairs = pos["chairs"]
        if not isinstance(chairs, (list, tuple)) or len(chairs) != 2:
            raise ValueError("position: chairs: expected a list of 2 councils")
        out["chairs"] = []
        for i, council in enumerate(chairs):
            if not isinstance(council, (list, tuple)) or len(council) != rules.chairs:
                raise ValueError(
                    f"position: chairs[{i}]: expected {rules.chairs} chairs "
                    f"(a counselor or null each), got {council!r}"
                )
            seated = [c for c in council if c is not None]
            bad = [c for c in seated if c not in COUNSELORS]
            if bad or len(set(seated)) != len(seated):
                raise ValueError(
                    f"position: chairs[{i}]: expected distinct counselors from "
                    f"{list(COUNSELORS)}, got {council!r}"
                )
            out["chairs"].append(tuple(council))
    if "clergy" in pos:
        clergy = pos["clergy"]
        if (
            not isinstance(clergy, (list, tuple))
            or len(clergy) != 2
            or any(c is not None and c not in CHURCH_SQUARES for c in clergy)
        ):
            raise ValueError(
                f"position: clergy: expected 2 church squares from "
                f"{list(CHURCH_SQUARES)} or null (the door), got {clergy!r}"
            )
        out["clergy"] = list(clergy)
    for key in ("crown", "cross", "smith", "bonus_taken"):
        if key in pos:
            out[key] = holder(pos[key], key)
    if "gold" in out and "gems_won" in out:
        for i in range(2):
            if out["gold"][i] > rules.gold_cap(out["gems_won"][i]):
                raise ValueError(
                    f"position: gold[{i}]: more than the cap of "
                    f"{rules.gold_cap(out['gems_won'][i])} for a player with "
                    f"{out['gems_won'][i]} gems won"
                )
    return out


@register_game
class BatallaGame(Game):
    """A match of Batalla de Coronas (2 players).

    ``Game(seed=..., rules=Rules(...))``; ``position`` (optional) starts the match from a
    set-up position instead of the roll-off, for odds and puzzles: a dict with any of
    ``to_move`` (0/1), ``turn`` (default 2), ``phase`` ("roll" or "buy"), two-value lists
    ``shields``, ``swords``, ``gold``, ``dragon``, ``gems_won``, ``clergy``, the councils
    ``chairs`` (two lists of 6 counselor keys or None), and token holders ``crown``,
    ``cross``, ``smith``. It is saved with the game, so such a match replays too.

    >>> state = BatallaGame(position={"swords": [3, 2], "shields": [2, 1], "phase": "buy"}
    ...                     ).new_initial_state()
    >>> state.phase, state.swords
    ('buy', [3, 2])
    """

    name = "batalla"
    state_class = BatallaState
    rules_class = Rules
    action_types = ACTION_TYPES
    min_players = 2
    max_players = 2

    def __init__(
        self,
        players: int | None = None,
        seed: int | None = None,
        rules: Rules | Mapping[str, Any] | str | None = None,
        position: Mapping[str, Any] | None = None,
    ):
        super().__init__(players=players, seed=seed, rules=rules)
        self.position = None if position is None else _check_position(position, self.rules)

    def params(self) -> dict[str, Any]:
        out = super().params()
        if self.position is not None:
            out["position"] = {
                k: (list(v) if isinstance(v, tuple) else v) for k, v in self.position.items()
            }
            if "chairs" in out["position"]:
                out["position"]["chairs"] = [list(c) for c in self.position["chairs"]]
        return out

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> BatallaGame:
        return cls(
            players=params.get("players"),
            seed=params.get("seed"),
            rules=params.get("rules"),
            position=params.get("position"),
        )

    def new_initial_state(self) -> BatallaState:
        return BatallaState(self)
