"""Exact odds for Corona de Hierro's dice: castle assaults, diplomacy and battles.

Everything is exact (``Fraction`` inside, sympy ``Rational`` at the edge, or ``Fraction`` there
too under :func:`coronas.dice.exact_fractions`) and works for any dice faces a player types
into the rule set (:class:`coronas.hierro.rules.Rules`).

* :func:`castle_assault`: one "attack a castle" action, with experience shields spent to
  reroll while failing; and how many actions and turns it takes to take the castle.
* :func:`diplomacy`: the same for an emissary's roll (die by legitimacy band);
  :func:`emissary_race`: two players' emissaries in one castle, who gets it first.
* :func:`battle`: a battle fought to the end with experience shields played optimally by
  both sides, in the rulebook's order (the attacker rolls and rerolls without seeing the
  defender's die; the defender then rolls and rerolls knowing the attacker's result). Its
  ``policy`` says when each side should reroll.
* :func:`battle_table`: P(attacker wins) for every size up to 10 against 10, a sympy Matrix
  (a list of rows of Fractions under :func:`~coronas.dice.exact_fractions`).
* :func:`battle_chain`: the battle as a networkx Markov chain, for drawing and teaching.
* :func:`simulate_battle`: the same battle rolled with seeded dice (Monte Carlo).
* :func:`battle_choice`: the optimal reroll decision in a battle of an engine state.

The modules: :mod:`~coronas.hierro.odds.rolls` (castles and diplomacy, counted with
:mod:`~coronas.hierro.odds.steps`), :mod:`~coronas.hierro.odds.solver` (the exact battle
solver), :mod:`~coronas.hierro.odds.battles` (the battle queries),
:mod:`~coronas.hierro.odds.results` (what they answer),
:mod:`~coronas.hierro.odds.simulation` (Monte Carlo) and
:mod:`~coronas.hierro.odds.position` (what ``state.odds()`` answers in a position, from the
others). Every other public name is here.

>>> castle_assault(4, army=3, shields=2).probability      # 1 - (1/2)**3
7/8
>>> battle(1, 1).attacker_wins                            # P(X >= Y) for two d6
7/12
>>> battle(2, 1).attacker_wins                            # 7/12 + 5/12 * 7/12
119/144
>>> battle(1, 1, attacker_shields=1).attacker_wins        # reroll 1-3: 15/36 + 1/2 * 7/12
17/24
"""

from coronas.hierro.odds.battles import attrition_rules, battle, battle_chain, battle_table
from coronas.hierro.odds.position import battle_choice
from coronas.hierro.odds.results import BattlePolicy, BattleResult
from coronas.hierro.odds.rolls import (
    RaceResult,
    RollOdds,
    castle_assault,
    diplomacy,
    emissary_race,
)
from coronas.hierro.odds.simulation import MonteCarloEstimate, simulate_battle
from coronas.hierro.odds.solver import clear_cache
from coronas.hierro.odds.steps import StepCount

__all__ = [
    "BattlePolicy",
    "BattleResult",
    "MonteCarloEstimate",
    "RaceResult",
    "RollOdds",
    "StepCount",
    "attrition_rules",
    "battle",
    "battle_chain",
    "battle_choice",
    "battle_table",
    "castle_assault",
    "clear_cache",
    "diplomacy",
    "emissary_race",
    "simulate_battle",
]
