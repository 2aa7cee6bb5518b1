"""Exact odds for Batalla de Coronas: battles with rerolls, the decision dice, the dragon.

Everything is computed in exact fractions; single probabilities come back as sympy
``Rational`` (``Fraction`` under :func:`~coronas.dice.exact_fractions`) and distributions as
:class:`~coronas.dice.Die`. The tests check each function
against the engine's own game tree (:func:`coronas.engine.exact_distribution`) and against
seeded simulations.

>>> b = battle(2, 2)                      # 2 swords against 2 shields, nobody has gold
>>> b.gem                                 # the attacker must win by 2 or more: 10 of 36 rolls
5/18
>>> p_chair(3)                            # a die shows 3: 1 - (5/6)**2
11/36
>>> p_doubles()
1/6

:mod:`~coronas.batalla.odds.battles` holds the battles (solved by
:mod:`~coronas.batalla.odds.solver`), :mod:`~coronas.batalla.odds.council`
the decision dice, gold income and the dragon, :mod:`~coronas.batalla.odds.position` the odds
of the move at hand in an engine state (``state.odds()`` and the bots' battle choices).
"""

from coronas.batalla.odds.battles import (
    BattleOdds,
    BattleOutcome,
    battle,
    gem_probability,
    gem_table,
)
from coronas.batalla.odds.council import (
    DEFAULT_COUNCIL,
    chair_table,
    decision_table,
    dragon_policy_choice,
    dragon_turn,
    dragon_turns,
    gold_income,
    gold_table,
    p_chair,
    p_doubles,
)
from coronas.batalla.odds.position import battle_choice

__all__ = [
    "DEFAULT_COUNCIL",
    "BattleOdds",
    "BattleOutcome",
    "battle",
    "battle_choice",
    "chair_table",
    "decision_table",
    "dragon_policy_choice",
    "dragon_turn",
    "dragon_turns",
    "gem_probability",
    "gem_table",
    "gold_income",
    "gold_table",
    "p_chair",
    "p_doubles",
]
