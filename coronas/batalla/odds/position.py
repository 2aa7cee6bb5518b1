"""The odds of the move at hand in a Batalla de Coronas game: what ``state.odds()`` answers.

Built on the battle solver of :mod:`coronas.batalla.odds.solver` (no second
implementation): the chance comes from the position itself, gold, rerolls already paid and the
attacker's tokens included, with both sides' rerolls, the attacker's Crown and Cross and its
swords played optimally (ruling B12).

The dice actions and their aims:

* :class:`~coronas.batalla.actions.Attack`: the attacker takes a gem in this battle;
  ``detail`` is the :class:`~coronas.batalla.odds.BattleOdds` of the battle;
* :class:`~coronas.batalla.actions.Reroll` and
  :class:`~coronas.batalla.actions.CrossReroll`, for the side that rerolls: the attacker
  takes a gem, the defender keeps its gems (the chance that no gem is taken);
* every other action rolls no dice: None (the decision dice are rolled at the start of a
  turn, whatever was done before; the dragon and the counselors roll nothing).

Without an action, ``state.odds()`` describes:

* the battle roll (a chance node): the attacker's aim, ``roll`` the chance that the dice as
  they fall take a gem (no reroll), ``success`` the chance of the whole attack;
* a reroll being made (a chance node): the aim of the side rerolling, ``roll`` the chance
  that the new die gives that aim as the dice then stand, ``success`` the whole battle's;
* a decision inside the battle (reroll or keep, the attacker's moment to spend a token, the
  swords to spend): ``choices`` pairs each legal action with the chance of the deciding
  side's aim after it, the optimal choice first (``best``), then the others in the game's
  order; ``success`` is the chance under optimal play;
* any other position: None (no roll is pending).

Mid-battle, ``detail`` is the distribution (a :class:`~coronas.dice.Die`) over
:class:`~coronas.batalla.odds.BattleOutcome` of the battle's end under optimal play.

>>> from coronas.batalla import Attack, Game
>>> state = Game(position={"phase": "buy", "swords": [3, 2], "shields": [2, 2],
...                        "gold": [1, 0]}).new_initial_state()
>>> print(state.odds(Attack()))
attack the enemy kingdom: 35/108 (32.41%) to take a gem
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from coronas.batalla.actions import (
    Accept,
    Attack,
    CrossReroll,
    Reroll,
    SpendCross,
    SpendCrown,
    SpendSwords,
)
from coronas.batalla.odds.battles import BattleOdds
from coronas.batalla.odds.solver import (
    CROSS,
    CROWN,
    ONE,
    ZERO,
    _BattleSolver,
    _Node,
    _solver,
    _tokens,
)
from coronas.dice import Die, rational
from coronas.engine.advice import Odds

__all__ = ["ATTACKER_AIM", "DEFENDER_AIM", "battle_choice", "position_odds", "state_battle"]

ATTACKER_AIM = "take a gem"
DEFENDER_AIM = "keep its gems"

_DECISIONS = ("reroll_choice", "battle_tokens", "spend")


def position_odds(state: Any, action: Any = None) -> Odds | None:
    """``state.odds(action)`` for Batalla de Coronas (``action`` already checked legal)."""
    if action is None:
        return _pending(state)
    kind = type(action)
    if kind is Attack:
        return _attack(state, action)
    if kind in (Reroll, CrossReroll):
        solver, node = state_battle(state)
        side = state.decider
        children = _rerolled(solver, node, side, free=kind is CrossReroll)
        return _odds(
            state.describe(action), side, _mean(solver, children), _detail(solver, node, children)
        )
    return None


def _attack(state: Any, action: Any) -> Odds:
    p, q = state.player, 1 - state.player
    solver, node = state_battle(state)
    start = solver.start((state.gold[p], state.gold[q]), node[7])
    detail = BattleOdds(
        state.swords[p],
        state.shields[q],
        state.gold[p],
        state.gold[q],
        state.rules,
        bool(node[7] & CROWN),
        bool(node[7] & CROSS),
        state.gems_won[p],
    )
    return _odds(state.describe(action), 0, _mean(solver, start), detail)


def _pending(state: Any) -> Odds | None:
    phase = state.phase
    if phase == "battle":
        solver, node = state_battle(state)
        start = solver.start(node[2:4], node[7])
        roll = sum((pr for n, pr in start if solver.is_gem(n[0], n[1])), ZERO)
        return _odds(
            state.describe_phase(), 0, _mean(solver, start), _detail(solver, node, start), roll
        )
    if phase == "reroll":
        solver, node = state_battle(state)
        side = state.rerolling
        children = [((*n[:6], 0, n[7]), pr) for n, pr in _faces(solver, node, side)]
        roll = sum((pr for n, pr in children if solver.is_gem(n[0], n[1])), ZERO)
        if side == 1:
            roll = ONE - roll
        return _odds(
            state.describe_phase(),
            side,
            _mean(solver, children),
            _detail(solver, node, children),
            roll,
        )
    if phase in _DECISIONS:
        return _decision(state)
    return None


def _decision(state: Any) -> Odds:
    """Every legal action of a battle decision with the chance of the decider's aim."""
    solver, node = state_battle(state)
    side = state.decider if state.phase == "reroll_choice" else 0
    best = battle_choice(state)
    legal = state.legal_actions()
    ordered = [best, *(a for a in legal if a != best)]
    choices = []
    for action in ordered:
        p = _after(state, solver, node, action)
        choices.append((action, rational(p if side == 0 else ONE - p)))
    success = max(p for _, p in choices)
    detail = _detail(solver, node, [(node, ONE)]) if state.phase != "spend" else None
    return Odds(
        aim=ATTACKER_AIM if side == 0 else DEFENDER_AIM,
        success=success,
        subject=state.describe_phase(),
        choices=tuple(choices),
        detail=detail,
    )


def _after(state: Any, solver: _BattleSolver, node: _Node, action: Any) -> Fraction:
    """P(gem) after ``action`` at a battle decision, optimal play from there on."""
    kind = type(action)
    if kind is SpendSwords:
        return ONE if action.n >= solver.shields else ZERO
    if kind in (Reroll, CrossReroll):
        return _mean(solver, _rerolled(solver, node, state.decider, free=kind is CrossReroll))
    a, d, ga, gd, ka, kd, declined, tokens = node
    if kind is SpendCrown:
        ga = min(ga + state.rules.crown_gold, solver.cap)
        return solver.value((a, d, ga, gd, ka, kd, declined, tokens & ~CROWN))
    if kind is SpendCross:
        gd = state.rules.gold_min if action.square == "golden" else gd
        return solver.value((a, d, ga, gd, ka, kd, declined, tokens & ~CROSS))
    # Accept: the decider keeps the roll (at the moment, the attacker lets it pass)
    passed = 4 if state.phase == "battle_tokens" else 1 << state.decider
    return solver.value((*node[:6], declined | passed, tokens))


def _faces(solver: _BattleSolver, node: _Node, side: int) -> list[tuple[_Node, Fraction]]:
    """The nodes after ``side``'s die is rolled again (nothing more paid)."""
    a, d = node[:2]
    if side == 0:
        return [((v, d, *node[2:]), pr) for v, pr in solver.faces]
    return [((a, v, *node[2:]), pr) for v, pr in solver.faces]


def _rerolled(
    solver: _BattleSolver, node: _Node, side: int, free: bool
) -> list[tuple[_Node, Fraction]]:
    """The nodes after ``side`` rerolls: paid with gold, or free with the Cross."""
    if not free:
        return solver.after_reroll(node, side)
    return solver.after_free_reroll(node, side)


def _mean(solver: _BattleSolver, nodes: list[tuple[_Node, Fraction]]) -> Fraction:
    return sum((pr * solver.value(n) for n, pr in nodes), ZERO)


def _detail(solver: _BattleSolver, node: _Node, nodes: list[tuple[_Node, Fraction]]) -> Die:
    return Die.from_pmf(solver.outcomes(nodes, node[7]))


def _odds(
    subject: str, side: int, gem: Fraction, detail: Any, roll: Fraction | None = None
) -> Odds:
    """An :class:`Odds` for ``side``'s aim, from P(gem)."""
    success = gem if side == 0 else ONE - gem
    return Odds(
        aim=ATTACKER_AIM if side == 0 else DEFENDER_AIM,
        success=rational(success),
        subject=subject,
        roll=None if roll is None else rational(roll),
        detail=detail,
    )


def state_battle(state: Any) -> tuple[_BattleSolver, _Node | None]:
    """The solver of the battle at an engine state (the attacker to move, or in its battle)
    and the node of its dice and decision now (None before the battle roll)."""
    p, rules = state.player, state.rules
    q = 1 - p
    solver = _solver(state.swords[p], state.shields[q], rules, state.cap(p))
    tokens = _tokens(state.crown == p, False, rules)
    if rules.cross_effect == "reroll":  # a free reroll for the side that holds the Cross
        tokens |= _tokens(False, state.cross == p, rules, state.cross == q)
    elif state.cross == p and state._cross_ready(p) and "golden" in state._church_options(p):
        tokens |= CROSS
    if state.bdice is None:
        return solver, (0, 0, state.gold[p], state.gold[q], *state.rerolls, 0, tokens)
    a, d = state.bdice
    return solver, (a, d, state.gold[p], state.gold[q], *state.rerolls, state.declined, tokens)


def battle_choice(state: Any) -> Any:
    """The optimal action of :func:`battle` at a battle decision of an engine state: reroll
    (spending the Crown first when gold alone cannot pay; or the Cross, under
    ``cross_effect="reroll"``) or keep at ``reroll_choice``, the
    Cross on the golden square or nothing at the attacker's moment (``battle_tokens``), the
    most swords at ``spend``. (For bots and for checking the odds on the engine's own game
    tree.)"""
    if state.phase == "spend":
        return SpendSwords(max(state._spend_options()))
    if state.phase not in ("reroll_choice", "battle_tokens"):
        raise ValueError(f"not a battle decision: this is {state.describe_phase()}")
    solver, node = state_battle(state)
    step = solver.choice(node)
    kind = None if step is None else step[0]
    if kind == "cross":
        return SpendCross("golden")
    if kind == "cross_reroll" and state.phase == "reroll_choice":
        return CrossReroll()
    if kind != "reroll" or state.phase == "battle_tokens":
        return Accept()
    cost = state.rules.reroll_cost(state.rerolls[state.decider])
    if state.gold[state._deciding()] < cost:
        return SpendCrown()
    return Reroll(cost)
