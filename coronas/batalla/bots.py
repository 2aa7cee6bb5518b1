"""Simple players for Batalla de Coronas: random legal play and a greedy player.

A bot has a ``name`` and ``choose(state, rng) -> action``; :func:`coronas.engine.play` runs a
game with one bot a seat.

>>> import random
>>> from coronas.batalla import Game
>>> from coronas.engine import play
>>> state = play(Game(seed=7).new_initial_state(), [GreedyBot(), RandomBot()], rng=7)
>>> state.is_terminal()
True
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from coronas.batalla.actions import (
    Attack,
    Buy,
    ChooseDie,
    EndTurn,
    Invoke,
    Muster,
    Seat,
    SpendCross,
    SpendCrown,
    Visit,
)
from coronas.batalla.odds import battle_choice, gem_probability
from coronas.engine import RandomBot

if TYPE_CHECKING:
    from coronas.batalla.state import BatallaState

__all__ = ["BOTS", "GreedyBot", "RandomBot"]

SEAT_ORDER = ("master_of_coin", "sorcerer", "militia_commander", "smith", "priest", "noble")
"""The greedy player's preference for empty chairs, best first."""


class GreedyBot:
    """A one-step greedy player that values things in gold.

    * decision phase: the die (and counselor, Noble target, church square) worth the most gold
      now: a militia unit is worth its price, a dragon level the price of that level, gold its
      amount up to the cap, a church square what it takes from the enemy;
    * buying phase: spend the Crown when the gold fits under the cap; buy the dragon level if
      it makes the dragon attack, a shield when down to 1, swords up to the enemy's shields
      (plus one), then dragon levels, then the weaker militia track;
    * attack when the chance of a gem with optimal rerolls is at least ``attack_threshold``,
      or when it has twice the enemy's shields in swords;
    * battles: the optimal rerolls of :func:`coronas.batalla.odds.battle`, and the most swords.
    """

    name = "greedy"

    def __init__(self, attack_threshold: Fraction = Fraction(1, 4)):
        self.attack_threshold = Fraction(attack_threshold)

    def __repr__(self) -> str:
        return f"GreedyBot(attack_threshold={self.attack_threshold})"

    # -- valuations in gold --------------------------------------------------------------
    def _church_value(self, s: BatallaState, square: str) -> float:
        q, r = 1 - s.player, s.rules
        if square == "golden":
            return max(s.gold[q] - r.gold_min, 0)
        if square == "blue":
            return r.militia_cost if s.swords[q] > 0 else 0
        level = s.dragon[q]
        return r.dragon_costs[level - 1] if level > 0 else 0

    def _activation_value(self, s: BatallaState, counselor: str, gold: int) -> float:
        p, r = s.player, s.rules
        if counselor == "militia_commander":
            return r.militia_cost if s._muster_options() else 0
        if counselor == "master_of_coin":
            return max(min(r.master_of_coin_gold, s.cap(p) - gold), 0)
        if counselor == "sorcerer":
            level = s.dragon[p]
            bonus = 4 if level + 1 >= r.dragon_attack_level else 0
            return r.dragon_costs[level] + bonus
        if counselor == "smith":
            return 0 if s.smith == p else r.militia_cost / 2
        if counselor == "priest":
            squares = s._church_options(p)
            return max((self._church_value(s, q) for q in squares), default=0)
        if counselor == "noble":
            others = [c for c in s.chairs[p] if c and c != "noble"]
            return max((self._activation_value(s, c, gold) for c in others), default=0)
        return 0

    def _die_value(self, s: BatallaState, action: ChooseDie) -> float:
        p = s.player
        gold = min(s.gold[p] + action.gold, s.cap(p))
        seated = s.chairs[p][action.chair - 1]
        if seated is None:
            options = [c for c in SEAT_ORDER if c not in s.chairs[p]]
            value = max(self._activation_value(s, c, gold) for c in options) + 1
        else:
            value = self._activation_value(s, seated, gold)
        return value + (gold - s.gold[p])

    # -- choosing ----------------------------------------------------------------------------
    def choose(self, state: BatallaState, rng: random.Random) -> Any:
        s, phase = state, state.phase
        legal = s.legal_actions()
        if phase in ("reroll_choice", "battle_tokens", "spend"):
            choice = battle_choice(s)
            return choice if choice in legal else legal[-1]
        if phase == "choose":
            dice = [a for a in legal if isinstance(a, ChooseDie)]
            return max(dice, key=lambda a: (self._die_value(s, a), a.gold))
        if phase == "seat":
            return next(
                a for c in SEAT_ORDER for a in legal if isinstance(a, Seat) and a.counselor == c
            )
        if phase == "muster":
            p = s.player
            want = "shield" if s.shields[p] <= s.swords[p] else "sword"
            return next(
                (a for a in legal if isinstance(a, Muster) and a.unit == want),
                next(a for a in legal if isinstance(a, Muster)),
            )
        if phase == "invoke":
            options = [a for a in legal if isinstance(a, Invoke)]
            return max(
                options, key=lambda a: self._activation_value(s, a.counselor, s.gold[s.player])
            )
        if phase == "church":
            options = [a for a in legal if isinstance(a, Visit)]
            return max(options, key=lambda a: self._church_value(s, a.square))
        if phase == "buy":
            return self._buy(s, legal)
        return rng.choice(legal)

    def _buy(self, s: BatallaState, legal: list[Any]) -> Any:
        p, q, r = s.player, 1 - s.player, s.rules
        gold = s.gold[p]
        if SpendCrown() in legal and gold + r.crown_gold <= s.cap(p):
            return SpendCrown()
        crosses = [a for a in legal if isinstance(a, SpendCross)]
        if crosses:
            best = max(crosses, key=lambda a: self._church_value(s, a.square))
            if self._church_value(s, best.square) >= 2:
                return best

        def buy(item: str) -> Any:
            for smith in (True, False):
                action = Buy(item, smith) if item != "dragon" else Buy("dragon")
                if action in legal:
                    return action
            return None

        level = s.dragon[p]
        wishes = []
        if level + 1 >= r.dragon_attack_level:
            wishes.append("dragon")
        if s.shields[p] <= 1:
            wishes.append("shield")
        if s.swords[p] <= s.shields[q]:
            wishes.append("sword")
        wishes.append("dragon")
        wishes.append("shield" if s.shields[p] <= s.swords[p] else "sword")
        for item in wishes:
            action = buy(item)
            if action is not None:
                return action
        if Attack() in legal:
            chance = gem_probability(
                s.swords[p],
                s.shields[q],
                s.gold[p],
                s.gold[q],
                r,
                attacker_crown=s.crown == p,
                attacker_gems_won=s.gems_won[p],
            )
            if chance >= self.attack_threshold or s.swords[p] >= 2 * max(s.shields[q], 1):
                return Attack()
        return EndTurn()


BOTS: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot}
"""The bots by name (for the command line and widgets)."""
