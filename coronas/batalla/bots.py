"""Simple players for Batalla de Coronas: random legal play and a greedy player.

A bot has a ``name`` and ``choose(state, rng) -> action``; :func:`coronas.engine.play` runs a
game with one bot a seat. The bots decide on ``state.observation(player)``, the legal actions
and the rule set. Batalla de Coronas hides nothing, so the observation is the whole position;
the greedy player's battle choices come from :func:`coronas.batalla.odds.battle_choice`, exact
odds of the open position.

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
from coronas.batalla.rules import CHURCH_SQUARES, Rules
from coronas.engine import MCTSBot, RandomBot

if TYPE_CHECKING:
    from coronas.batalla.state import BatallaState

__all__ = ["BOTS", "GreedyBot", "MCTSBot", "RandomBot"]

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

    # -- valuations in gold, from an observation ------------------------------------------
    def _church_value(self, r: Rules, obs: dict[str, Any], square: str) -> float:
        q = 1 - obs["player"]
        if square == "golden":
            return max(obs["gold"][q] - r.gold_min, 0)
        if square == "blue":
            return r.militia_cost if obs["swords"][q] > 0 else 0
        level = obs["dragon"][q]
        return r.dragon_costs[level - 1] if level > 0 else 0

    def _activation_value(self, r: Rules, obs: dict[str, Any], counselor: str, gold: int) -> float:
        p = obs["player"]
        if counselor == "militia_commander":
            full = obs["shields"][p] >= r.militia_max and obs["swords"][p] >= r.militia_max
            return 0 if full else r.militia_cost
        if counselor == "master_of_coin":
            return max(min(r.master_of_coin_gold, obs["gold_cap"][p] - gold), 0)
        if counselor == "sorcerer":
            level = obs["dragon"][p]
            bonus = 4 if level + 1 >= r.dragon_attack_level else 0
            return r.dragon_costs[level] + bonus
        if counselor == "smith":
            return 0 if obs["smith"] == p else r.militia_cost / 2
        if counselor == "priest":
            squares = _church_squares(r, obs, p)
            return max((self._church_value(r, obs, q) for q in squares), default=0)
        if counselor == "noble":
            others = [c for c in obs["chairs"][p] if c and c != "noble"]
            return max((self._activation_value(r, obs, c, gold) for c in others), default=0)
        return 0

    def _die_value(self, r: Rules, obs: dict[str, Any], action: ChooseDie) -> float:
        p = obs["player"]
        gold = min(obs["gold"][p] + action.gold, obs["gold_cap"][p])
        seated = obs["chairs"][p][action.chair - 1]
        if seated is None:
            options = [c for c in SEAT_ORDER if c not in obs["chairs"][p]]
            value = max(self._activation_value(r, obs, c, gold) for c in options) + 1
        else:
            value = self._activation_value(r, obs, seated, gold)
        return value + (gold - obs["gold"][p])

    # -- choosing ----------------------------------------------------------------------------
    def choose(self, state: BatallaState, rng: random.Random) -> Any:
        legal = state.legal_actions()
        obs = state.observation(state.current_player)
        r, phase, p = state.rules, obs["phase"], obs["player"]
        if phase in ("reroll_choice", "battle_tokens", "spend"):
            choice = battle_choice(state)  # exact odds of the open position
            return choice if choice in legal else legal[-1]
        if phase == "choose":
            dice = [a for a in legal if isinstance(a, ChooseDie)]
            return max(dice, key=lambda a: (self._die_value(r, obs, a), a.gold))
        if phase == "seat":
            return next(
                a for c in SEAT_ORDER for a in legal if isinstance(a, Seat) and a.counselor == c
            )
        if phase == "muster":
            want = "shield" if obs["shields"][p] <= obs["swords"][p] else "sword"
            return next(
                (a for a in legal if isinstance(a, Muster) and a.unit == want),
                next(a for a in legal if isinstance(a, Muster)),
            )
        if phase == "invoke":
            options = [a for a in legal if isinstance(a, Invoke)]
            return max(
                options, key=lambda a: self._activation_value(r, obs, a.counselor, obs["gold"][p])
            )
        if phase == "church":
            options = [a for a in legal if isinstance(a, Visit)]
            return max(options, key=lambda a: self._church_value(r, obs, a.square))
        if phase == "buy":
            return self._buy(r, obs, legal)
        return rng.choice(legal)

    def _buy(self, r: Rules, obs: dict[str, Any], legal: list[Any]) -> Any:
        p = obs["player"]
        q = 1 - p
        gold = obs["gold"][p]
        if SpendCrown() in legal and gold + r.crown_gold <= obs["gold_cap"][p]:
            return SpendCrown()
        crosses = [a for a in legal if isinstance(a, SpendCross)]
        if crosses:
            best = max(crosses, key=lambda a: self._church_value(r, obs, a.square))
            if self._church_value(r, obs, best.square) >= 2:
                return best

        def buy(item: str) -> Any:
            for smith in (True, False):
                action = Buy(item, smith) if item != "dragon" else Buy("dragon")
                if action in legal:
                    return action
            return None

        shields, swords = obs["shields"], obs["swords"]
        wishes = []
        if obs["dragon"][p] + 1 >= r.dragon_attack_level:
            wishes.append("dragon")
        if shields[p] <= 1:
            wishes.append("shield")
        if swords[p] <= shields[q]:
            wishes.append("sword")
        wishes.append("dragon")
        wishes.append("shield" if shields[p] <= swords[p] else "sword")
        for item in wishes:
            action = buy(item)
            if action is not None:
                return action
        if Attack() in legal:
            chance = gem_probability(
                swords[p],
                shields[q],
                gold,
                obs["gold"][q],
                r,
                attacker_crown=obs["crown"] == p,
                attacker_cross=_cross_counts(r, obs, p),
                attacker_gems_won=obs["gems_won"][p],
                defender_cross=r.cross_effect == "reroll" and obs["cross"] == q,
            )
            if chance >= self.attack_threshold or swords[p] >= 2 * max(shields[q], 1):
                return Attack()
        return EndTurn()


def _cross_counts(r: Rules, obs: dict[str, Any], p: int) -> bool:
    """Whether the Cross ``p`` holds helps its attack: as a free reroll, or (the printed
    reading) when its clergy may go to the golden square, which takes the defender's gold."""
    if obs["cross"] != p:
        return False
    if r.cross_effect == "reroll":
        return True
    ready = not r.cross_needs_priest or "priest" in obs["chairs"][p]
    return ready and "golden" in _church_squares(r, obs, p)


def _church_squares(r: Rules, obs: dict[str, Any], p: int) -> list[str]:
    """The squares a Priest activated now would offer player ``p`` (ruling 8)."""
    if r.church_revisit == "never":
        return [s for s in CHURCH_SQUARES if s not in obs["visited"][p]]
    return [s for s in CHURCH_SQUARES if s != obs["clergy"][p]]


BOTS: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}
"""The bots by name (for the command line and widgets)."""
