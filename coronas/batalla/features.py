"""What Batalla de Coronas's learned models read: each player's value features and the
features of a (position, action) pair. Batalla hides nothing, so both read the open position.

The value features are what the hand-set evaluation
(:func:`coronas.batalla.playout.hand_set_evaluate`) sums, given a weight each; the action
features are the light player's valuations in gold, whether the light player would play the
action, and its kind. :data:`LEARNING` declares them, and :func:`evaluate` is the value model
fitted on them, the evaluation of a cut playout.

>>> from coronas.batalla import Game
>>> state = Game(seed=1).new_initial_state()
>>> features(state)[0][:5]
(0, 0, 2, 0, 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from coronas.batalla.actions import (
    Accept,
    Attack,
    Buy,
    ChooseDie,
    CrossReroll,
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
from coronas.batalla.playout import (
    SCALE,
    SEAT_ORDER,
    LightBot,
    hand_set_evaluate,
)
from coronas.engine.learning import Learning

if TYPE_CHECKING:
    from coronas.batalla.state import BatallaState

__all__ = [
    "ACTION_FEATURES",
    "FEATURES",
    "LEARNING",
    "action_features",
    "evaluate",
    "features",
]

FEATURES = (
    "gems",
    "swords_over",
    "shields",
    "dragon",
    "wealth",
    "to_move",
    "hand_set",
)
"""What the value model reads of each player: gems won, swords beyond the enemy's shields,
shields, dragon level, wealth, 1 for the player to move, and the hand-set evaluation's
strength over its scale (so that the fitted model can do about as well as the hand-set one
on the positions it is fitted to). Wealth is the gold, and the Crown as the 3 gold it is
spent for: read as a token of its own, the Crown was credited with the won battle it comes
after (four times the gold it buys), and a search that cuts its playouts short then kept it
rather than spend it. The Cross is read as what it does (the Priest moved), not as a token.
Spending the Crown changes no feature, the hand-set strength included."""


def features(state: BatallaState) -> list[tuple[int, ...]]:
    """Each player's :data:`FEATURES`, read from the open position."""
    shields, swords, gems, dragon, gold = (
        state.shields,
        state.swords,
        state.gems_won,
        state.dragon,
        state.gold,
    )
    crown = state.crown
    crown_gold = state.rules.crown_gold
    rows = []
    for p in (0, 1):
        over = swords[p] - shields[1 - p]
        wealth = gold[p] + (crown_gold if crown == p else 0)
        # hand_set_strength(state, p), the Crown as its gold, inline: this runs at every cut
        # playout
        strength = gems[p] + 0.1 * (over + shields[p] + dragon[p]) + 0.02 * wealth
        rows.append(
            (
                gems[p],
                over,
                shields[p],
                dragon[p],
                wealth,
                int(state.player == p),
                strength / SCALE,
            )
        )
    return rows


ACTION_FEATURES = (
    "light",
    "value",
    "die_gold",
    "seat_rank",
    "muster_shield",
    "buy_dragon",
    "buy_shield",
    "buy_sword",
    "smith",
    "attack",
    "attack_chance",
    "end_turn",
    "crown",
    "cross",
    "reroll",
    "accept",
    "swords_spent",
)
"""What the move prior reads of an action: 1 if the light player would play it; its worth in
gold to the light player, in tens (a die, a counselor invoked, a church square); the gold on
a die; a chair's rank in the light player's order (1 best); a shield mustered; what a buy
buys and whether it spends the Smith; an attack and its chance of a gem (no rerolls); ending
the turn; spending the Crown or the Cross; a reroll; accepting; swords spent in a battle."""

_LIGHT = LightBot()
_RNG = random.Random(0)  # the light player's fallback when nothing is scored: never reached


def action_features(state: BatallaState, legal: Sequence[Any]) -> list[tuple[float, ...]]:
    """Each of ``legal``'s :data:`ACTION_FEATURES` in ``state``."""
    light = _LIGHT
    obs = light._observe(state)
    r = state.rules
    p = state.player
    if state.phase == "choose":  # the light player's choice, from the values computed here
        dice = {a: light._die_value(r, obs, a) for a in legal if type(a) is ChooseDie}
        choice = max(dice, key=lambda a: (dice[a], a.gold))
    else:
        dice = {}
        choice = light.choose(state, _RNG)
    rows = []
    chance = None
    for a in legal:
        value = die_gold = rank = muster = chance_here = spent = 0.0
        kind = type(a)
        if kind is ChooseDie:
            value = dice[a] / 10
            die_gold = a.gold
        elif kind is Invoke:
            value = light._activation_value(r, obs, a.counselor, obs["gold"][p]) / 10
        elif kind is Visit or kind is SpendCross:
            value = light._church_value(r, obs, a.square) / 10
        elif kind is Seat:
            rank = (SEAT_ORDER.index(a.counselor) + 1) if a.counselor in SEAT_ORDER else 0
        elif kind is Muster:
            muster = float(a.unit == "shield")
        elif kind is Attack:
            if chance is None:
                chance = _gem_chance(r, obs["swords"][p], obs["shields"][1 - p])
            chance_here = chance
        elif kind is SpendSwords:
            spent = a.n
        item = a.item if kind is Buy else None
        rows.append(
            (
                float(a == choice),
                value,
                die_gold,
                rank,
                muster,
                float(item == "dragon"),
                float(item == "shield"),
                float(item == "sword"),
                float(kind is Buy and a.smith),
                float(kind is Attack),
                chance_here,
                float(kind is EndTurn),
                float(kind is SpendCrown),
                float(kind is SpendCross or kind is CrossReroll),
                float(kind is Reroll),
                float(kind is Accept),
                spent,
            )
        )
    return rows


_GEMS: dict[tuple[Any, int, int], float] = {}


def _gem_chance(r: Any, swords: int, shields: int) -> float:
    """The light player's chance of a gem (no rerolls or tokens), as a float, memoised."""
    key = (r, swords, shields)
    hit = _GEMS.get(key)
    if hit is None:
        if len(_GEMS) > 4096:
            _GEMS.clear()
        hit = _GEMS[key] = float(gem_probability(swords, shields, 0, 0, r))
    return hit


LEARNING = Learning(
    game="batalla",
    value_names=FEATURES,
    value_features=features,
    action_names=ACTION_FEATURES,
    action_features=action_features,
    baseline=hand_set_evaluate,
    baseline_name="the hand-set evaluation (playout.hand_set_evaluate)",
    package="coronas.batalla",
    players=2,
)
"""Batalla de Coronas's declaration for learned judgement (:mod:`coronas.engine.learning`)."""


def evaluate(state: BatallaState) -> tuple[float, ...]:
    """Each player's estimated chance of winning, from the open position: the shipped value
    model (``data/value_model.json``, fitted by ``coronas train batalla``) where its held-out
    log-loss beat the hand-set evaluation's, else
    :func:`~coronas.batalla.playout.hand_set_evaluate` (:meth:`Learning.evaluate
    <coronas.engine.learning.Learning.evaluate>`). The evaluation of a cut playout."""
    return LEARNING.evaluate(state)
