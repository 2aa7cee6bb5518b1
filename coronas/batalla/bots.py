"""Players for Batalla de Coronas: random legal play, a greedy player and the light one.

A bot has a ``name`` and ``choose(state, rng) -> action``; :func:`coronas.engine.play` runs a
game with one bot a seat. The bots decide on ``state.observation(player)``, the legal actions
and the rule set. Batalla de Coronas hides nothing, so the observation is the whole position;
the greedy player's battle choices come from :func:`coronas.batalla.odds.battle_choice`, exact
odds of the open position. The light player (:class:`coronas.batalla.playout.LightBot`, the
playout policy of a tree search) values things as the greedy player does, cheaply.

>>> import random
>>> from coronas.batalla import Game
>>> from coronas.engine import play
>>> state = play(Game(seed=7).new_initial_state(), [GreedyBot(), RandomBot()], rng=7)
>>> state.is_terminal()
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from coronas.batalla.odds import battle_choice, gem_probability
from coronas.batalla.playout import SEARCH, SEARCH_CLASSIC, SEAT_ORDER, LightBot, _church_squares
from coronas.batalla.rules import Rules
from coronas.engine import MCTSBot, RandomBot
from coronas.engine.mctsbot import tuned
from coronas.engine.policybot import PolicyBot

if TYPE_CHECKING:
    from collections.abc import Mapping

    from coronas.batalla.state import BatallaState

__all__ = ["BOTS", "SEAT_ORDER", "GreedyBot", "LightBot", "MCTSBot", "RandomBot"]


class GreedyBot(LightBot):
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
        super().__init__(attack_threshold)

    def _observe(self, state: BatallaState) -> Mapping[str, Any]:
        """What the player to move sees: its observation (the whole position)."""
        return state.observation(state.current_player)

    def _battle(self, state: BatallaState, legal: list[Any]) -> Any:
        """A battle decision: the optimal one, from the exact odds of the open position."""
        choice = battle_choice(state)
        return choice if choice in legal else legal[-1]

    def _gem_chance(self, r: Rules, obs: Mapping[str, Any]) -> Fraction:
        """The chance that an attack now wins a gem, with optimal rerolls and the tokens."""
        p = obs["player"]
        q = 1 - p
        return gem_probability(
            obs["swords"][p],
            obs["shields"][q],
            obs["gold"][p],
            obs["gold"][q],
            r,
            attacker_crown=obs["crown"] == p,
            attacker_cross=_cross_counts(r, obs, p),
            attacker_gems_won=obs["gems_won"][p],
            defender_cross=r.cross_effect == "reroll" and obs["cross"] == q,
        )


def _cross_counts(r: Rules, obs: Mapping[str, Any], p: int) -> bool:
    """Whether the Cross ``p`` holds helps its attack: as a free reroll, or (the printed
    reading) when its clergy may go to the golden square, which takes the defender's gold."""
    if obs["cross"] != p:
        return False
    if r.cross_effect == "reroll":
        return True
    ready = not r.cross_needs_priest or "priest" in obs["chairs"][p]
    return ready and "golden" in _church_squares(r, obs, p)


BOTS: dict[str, Any] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "light": LightBot,
    "mcts": tuned(SEARCH),
    "mcts-classic": tuned(SEARCH_CLASSIC, "mcts-classic"),
    "policy": PolicyBot,
}
"""The bots by name (for the command line and widgets)."""
