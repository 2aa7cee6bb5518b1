"""Fast playouts of Batalla de Coronas: a light policy and a hand-set evaluation of a position.

A tree search plays many games to their end (or to a depth) for each decision, so its
playout policy must cost little more than a random choice and still play sensibly.
:class:`LightBot` is the greedy player (:class:`~coronas.batalla.bots.GreedyBot`) made
cheap: it values things in gold as the greedy player does (the greedy player is this policy
with an observation and exact battles), reads the position's fields directly instead of
building an observation (Batalla hides nothing, so they are the observation), decides its
battles by a rule of thumb instead of the exact battle solver, and attacks by memoised gem
odds.
:func:`hand_set_evaluate` scores a position by hand-set weights: the baseline of the value
model (:func:`coronas.batalla.features.evaluate`), which scores a position where a playout is
cut.

>>> import random
>>> from coronas.batalla import Game
>>> from coronas.engine import play
>>> state = play(Game(seed=3).new_initial_state(), LightBot(), random.Random(3))
>>> hand_set_evaluate(state) in ((1.0, 0.0), (0.0, 1.0))
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from coronas.batalla.actions import (
    Accept,
    Attack,
    Buy,
    ChooseDie,
    EndTurn,
    Invoke,
    Muster,
    Reroll,
    Seat,
    SpendCross,
    SpendCrown,
    SpendSwords,
    Visit,
)
from coronas.batalla.odds import gem_probability
from coronas.batalla.rules import CHURCH_SQUARES, Rules
from coronas.engine.evaluation import logistic_shares, win_shares

if TYPE_CHECKING:
    from coronas.batalla.state import BatallaState

__all__ = [
    "SCALE",
    "SEARCH",
    "SEARCH_CLASSIC",
    "SEAT_ORDER",
    "LightBot",
    "hand_set_evaluate",
    "hand_set_strength",
]

SEAT_ORDER = ("master_of_coin", "sorcerer", "militia_commander", "smith", "priest", "noble")
"""The light and greedy players' preference for empty chairs, best first."""

SEARCH_CLASSIC = {"c": 0.3, "depth": 3, "evaluate": "baseline", "simulations": 1000}
"""The search bot's settings in this game (``mcts-classic`` in ``BOTS``, the plain UCT search
as it was before the value model, kept beside :data:`SEARCH`): a small exploration constant,
playouts cut after 3 actions and scored by :func:`hand_set_evaluate` (``evaluate:
"baseline"``, the value model's baseline), and 1000 simulations a decision (about 0.15 s on
one core). Chosen against the greedy player in seeded matches (``docs/performance.md``):
with 400 simulations and no cut mcts won 4 of 20 games, cut at 3 actions with c = 0.3 16 of
20."""

SEARCH = {"c": 0.3, "depth": 3, "simulations": 1000}
"""The search bot's settings in this game (``mcts`` in ``BOTS``): the classic search's, its cut
playouts scored by :func:`~coronas.batalla.features.evaluate` (the value model), since neither
other change tried made a stronger search. PUCT on the move prior was no search (the prior
imitates the greedy player so closely, 0.08 nats, that it played greedy's move at 12 of 12
positions and won 100 of 200 games against greedy); two and a half times the simulations (2500)
won 76 of 200 seeded games against these settings. These won 177 of 200 against greedy (88.5%,
95% interval 83.3% - 92.2%) and 130 of 200 against :data:`SEARCH_CLASSIC` (65.0%, 58.2% - 71.3%).
The runs are in docs/performance.md."""

SCALE = 0.5
"""Gems of lead (with the tracks' worth, see :func:`hand_set_evaluate`) that multiply the odds
by e."""


def hand_set_evaluate(state: BatallaState) -> tuple[float, float]:
    """Each player's estimated chance of winning by hand-set weights, from the open position.

    A player wins by taking the enemy's gems, so its strength is the gems it has won, plus a
    tenth of a gem for each sword it holds beyond the enemy's shields (the next gem's
    distance), for each shield it holds (its own gems' guard) and for each dragon level (the
    dragon's attack takes shields nobody can defend), and a fiftieth for each gold piece (what
    it may buy next). Strengths become shares by the logistic model of
    :func:`~coronas.engine.evaluation.logistic_shares` with a scale of :data:`SCALE` gems, so a
    lead of one gem gives about 88%. At the end of the game: 1 to the winner.
    """
    if state.is_terminal():
        return win_shares(state)
    return logistic_shares([hand_set_strength(state, 0), hand_set_strength(state, 1)], SCALE)


def hand_set_strength(state: BatallaState, p: int) -> float:
    """Player ``p``'s strength in :func:`hand_set_evaluate`, in gems."""
    return (
        state.gems_won[p]
        + 0.1 * (state.swords[p] - state.shields[1 - p] + state.shields[p] + state.dragon[p])
        + 0.02 * state.gold[p]
    )


class _Position(Mapping[str, Any]):
    """The position's fields read as the observation reads them, without copying them."""

    __slots__ = ("_state",)

    def __init__(self, state: BatallaState):
        self._state = state

    def __getitem__(self, key: str) -> Any:
        if key == "gold_cap":
            return [self._state.cap(0), self._state.cap(1)]
        return self._state.__dict__[key]

    def __iter__(self) -> Iterator[str]:
        return (k for k in self._state.__dict__ if not k.startswith("_"))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class LightBot:
    """A one-step greedy player that values things in gold, light enough for playouts.

    * decision phase: the die (and counselor, Noble target, church square) worth the most gold
      now: a militia unit is worth its price, a dragon level the price of that level, gold its
      amount up to the cap, a church square what it takes from the enemy;
    * buying phase: spend the Crown when the gold fits under the cap; buy the dragon level if
      it makes the dragon attack, a shield when down to 1, swords up to the enemy's shields
      (plus one), then dragon levels, then the weaker militia track;
    * attack when the chance of a gem (:meth:`_gem_chance`) is at least ``attack_threshold``,
      or when it has twice the enemy's shields in swords;
    * battles: spend every sword that may be spent; reroll while the own die does not beat
      the other's (and is not the top face) and the reroll is affordable; otherwise keep.

    It reads the position's fields (:meth:`_observe`); the greedy player reads its
    observation instead and decides battles by their exact odds.
    """

    name = "light"

    def __init__(self, attack_threshold: Fraction = Fraction(1, 4)):
        self.attack_threshold = Fraction(attack_threshold)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(attack_threshold={self.attack_threshold})"

    def _observe(self, state: BatallaState) -> Mapping[str, Any]:
        """What the player to move sees: the open position, read in place."""
        return _Position(state)

    def _battle(self, state: BatallaState, legal: list[Any]) -> Any:
        """A battle decision, by the rule of thumb in the class docstring."""
        if state.phase == "spend":
            spends = [a for a in legal if isinstance(a, SpendSwords)]
            return max(spends, key=lambda a: a.n) if spends else legal[0]
        if state.phase == "reroll_choice":
            attacker, defender = state.bdice
            mine, theirs = (attacker, defender) if state.decider == 0 else (defender, attacker)
            if mine <= theirs and mine < max(state.rules.die_faces):
                reroll = next((a for a in legal if isinstance(a, Reroll)), None)
                if reroll is not None:
                    return reroll
        return Accept() if Accept() in legal else legal[0]

    # -- valuations in gold, from an observation ------------------------------------------
    def _church_value(self, r: Rules, obs: Mapping[str, Any], square: str) -> float:
        q = 1 - obs["player"]
        if square == "golden":
            return max(obs["gold"][q] - r.gold_min, 0)
        if square == "blue":
            return r.militia_cost if obs["swords"][q] > 0 else 0
        level = obs["dragon"][q]
        return r.dragon_costs[level - 1] if level > 0 else 0

    def _activation_value(
        self, r: Rules, obs: Mapping[str, Any], counselor: str, gold: int
    ) -> float:
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

    def _die_value(self, r: Rules, obs: Mapping[str, Any], action: ChooseDie) -> float:
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
        obs = self._observe(state)
        r, phase, p = state.rules, obs["phase"], obs["player"]
        if phase in ("reroll_choice", "battle_tokens", "spend"):
            return self._battle(state, legal)
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

    def _gem_chance(self, r: Rules, obs: Mapping[str, Any]) -> Fraction:
        """The chance that an attack now wins a gem: without rerolls or tokens (a lower bound
        that needs one memoised entry per swords and shields, filled in the first playouts)."""
        p = obs["player"]
        return gem_probability(obs["swords"][p], obs["shields"][1 - p], 0, 0, r)

    def _buy(self, r: Rules, obs: Mapping[str, Any], legal: list[Any]) -> Any:
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
            chance = self._gem_chance(r, obs)
            if chance >= self.attack_threshold or swords[p] >= 2 * max(shields[q], 1):
                return Attack()
        return EndTurn()


def _church_squares(r: Rules, obs: Mapping[str, Any], p: int) -> list[str]:
    """The squares a Priest activated now would offer player ``p`` (ruling 8)."""
    if r.church_revisit == "never":
        return [s for s in CHURCH_SQUARES if s not in obs["visited"][p]]
    return [s for s in CHURCH_SQUARES if s != obs["clergy"][p]]
