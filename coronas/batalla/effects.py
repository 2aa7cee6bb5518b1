"""What the actions of Batalla de Coronas do: gold, counselors, buying, the church, battles.

:class:`Effects` is a part of :class:`~coronas.batalla.state.BatallaState`: ``_apply`` changes
the position for an action or chance outcome that has been checked, and the rest are the
rules of play it runs on (the counselors' activations, the dragon, the gems, the battle and
the end of a turn).
"""

from __future__ import annotations

from typing import Any

from coronas.batalla.actions import (
    Accept,
    Attack,
    BattleRoll,
    Buy,
    ChooseDie,
    CrossReroll,
    EndTurn,
    Invoke,
    Muster,
    Reroll,
    RerollDie,
    Roll,
    RollOff,
    Seat,
    SpendCross,
    SpendCrown,
    SpendSwords,
    Visit,
)
from coronas.engine import IllegalAction

__all__ = ["Effects"]

_PASSED = 4
"""Bit of ``state.declined``: the attacker let its moment before the defender's reroll pass."""


class Effects:
    """The effects of actions and chance outcomes (a part of ``BatallaState``)."""

    # -- applying an action ------------------------------------------------------------------
    def _apply(self, action: Any) -> None:
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
            self._after_moment_token()
        elif kind is SpendCross:
            self.cross = None
            self._visit(p, action.square)
            self._after_moment_token()
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
            self.declined |= _PASSED if self.phase == "battle_tokens" else 1 << self.decider
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
            raise IllegalAction(f"not a Batalla de Coronas action: {action!r}")

    # -- rules of play -----------------------------------------------------------------------
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
    def _reroll_gold(self, side: int) -> int:
        """The gold ``side`` can pay with now: the attacker's counts the Crown's, which it may
        spend at once (B7, B11: "first you pay, then you can reroll")."""
        p = self.player
        if side == 1:
            return self.gold[1 - p]
        gold = self.gold[p]
        if self.crown == p and self.rules.crown_in_battle:
            gold = max(gold, min(gold + self.rules.crown_gold, self.cap(p)))
        return gold

    def _may_reroll(self, side: int) -> bool:
        who = self.player if side == 0 else 1 - self.player
        r = self.rules
        if self._reroll_gold(side) >= r.reroll_cost(self.rerolls[side]):
            return True
        return r.cross_effect == "reroll" and self.cross == who

    def _compare(self) -> None:
        """After a battle roll or a decision: let the side behind reroll, or resolve. Before
        the defender decides, the attacker holding a token it may spend has its moment."""
        a, d = self.bdice
        sides: tuple[int, ...] = (0,) if a < d else (1,)
        if a == d:  # B7: on a tie nobody rerolls, unless the rule set says otherwise
            sides = (0, 1) if self.rules.reroll_on_tie else ()
        for side in sides:
            if not self.declined & (1 << side) and self._may_reroll(side):
                if side == 1 and self._moment_due():
                    self.decider = None
                    self.phase = "battle_tokens"
                    return
                self.decider = side
                self.phase = "reroll_choice"
                return
        self.decider = None
        self._resolve()

    def _moment_due(self) -> bool:
        """B11: the attacker may spend a token before the defender's reroll decision."""
        return (
            self.rules.battle_token_moment and not self.declined & _PASSED and self._battle_tokens()
        )

    def _after_moment_token(self) -> None:
        """A token spent at the attacker's moment: compare again (the defender may no longer
        be able to pay; the attacker may spend another token first)."""
        if self.phase == "battle_tokens":
            self._compare()

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
        self.opening = self.turn == 1
        self.phase = "roll"
        self.dice = None
        self.bdice = None
        self.decider = None
        self.declined = 0
        self.rerolls = (0, 0)
