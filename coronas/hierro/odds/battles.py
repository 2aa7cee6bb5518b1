"""Battles fought to the end with experience shields played optimally by both sides.

* :func:`battle`: one battle, its outcome distribution and its ``policy`` (when each side
  should reroll), from the shared solver (:mod:`coronas.hierro.odds.solver`).
* :func:`battle_table`: P(attacker wins) for every size up to 10 against 10.
* :func:`battle_chain`: the battle as a networkx Markov chain, for drawing and teaching.
* :func:`attrition_rules`: the battle rules for the game-independent solver.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from coronas.attrition import AttritionRules
from coronas.dice import Die, rational_matrix
from coronas.hierro.odds._common import _battle_counts, _rules
from coronas.hierro.odds.results import BattlePolicy, BattleResult
from coronas.hierro.odds.solver import State4, _BattleSolver, _solver
from coronas.hierro.rules import Rules

if TYPE_CHECKING:
    import sympy

__all__ = ["attrition_rules", "battle", "battle_chain", "battle_table"]


def attrition_rules(rules: Rules | None = None, cavalry_charge: bool = False) -> AttritionRules:
    """The battle rules of a Corona de Hierro rule set as :class:`AttritionRules`.

    With ``cavalry_charge`` the attacker rolls the card's die (yellow) throughout.
    """
    rules = _rules(rules)
    attacker = {1: (rules.die(rules.cavalry_die),)} if cavalry_charge else _army_steps(rules)
    return AttritionRules(
        attacker_dice=attacker,
        defender_dice=_army_steps(rules),
        ties="attacker",
        name="Corona de Hierro" + (" (Cavalry charge)" if cavalry_charge else ""),
    )


def _army_steps(rules: Rules) -> dict[int, tuple[Die]]:
    return {
        1: (rules.die("red"),),
        rules.medium_from: (rules.die("yellow"),),
        rules.large_from: (rules.die("green"),),
    }


def _battle_walk(
    solver: _BattleSolver, start: State4
) -> tuple[dict[State4, Fraction], dict[State4, int], tuple[set[State4], set[State4]]]:
    """Follow optimal play from ``start``, one round at a time (each round costs one pawn).

    Returns the final states with their probabilities; the numerator of the probability of
    passing through each state (over M**(exponent(start) - exponent(state)), see
    :class:`_BattleSolver`); and the situations in which each side can face a reroll.
    """
    e0 = solver.exponent(*start)
    reach: dict[State4, int] = {start: 1}
    points: tuple[set[State4], set[State4]] = (set(), set())
    level = {start: 1}
    while level:
        nxt_level: dict[State4, int] = {}
        for state, m in level.items():
            if state[0] == 0 or state[1] == 0:
                continue
            nxt, att_points, def_points = solver.round(state)
            points[0].update(att_points)
            points[1].update(def_points)
            for t, n in nxt.items():
                nxt_level[t] = nxt_level.get(t, 0) + m * n
        reach.update(nxt_level)
        level = nxt_level
    ends = {
        st: Fraction(m, solver.M ** (e0 - solver.exponent(*st)))
        for st, m in reach.items()
        if st[0] == 0 or st[1] == 0
    }
    return ends, reach, points


def battle(
    attacker: int,
    defender: int,
    attacker_shields: int = 0,
    defender_shields: int = 0,
    rules: Rules | None = None,
    cavalry_charge: bool = False,
    good_fortune: bool = False,
) -> BattleResult:
    """A battle between two armies, fought to the end, shields played optimally.

    ``attacker`` and ``defender`` are pawns; each side rolls the die of its current size (red
    1, yellow 2, green 3 or more), re-chosen after every loss, and the attacker wins ties.
    The attacker rolls first and may spend shields on rerolls without seeing the defender's
    die; then the defender rolls and rerolls knowing the attacker's result. The attacker
    maximises, the defender minimises the attacker's chance of winning the battle. Rerolls
    are the ones the game offers (as in :mod:`coronas.hierro.state`): the attacker's below its
    die's highest face, the defender's when it is losing the roll and could still win it.

    ``cavalry_charge``: the attacker played Cavalry charge and rolls its die (yellow)
    throughout, and scores a victory point if it wins. Good fortune is a card for a castle
    or an emissary's roll, not for a battle: ``good_fortune=True`` is refused with the
    reason.

    Limits: 1 to 100 pawns and 0 to 100 shields a side, and ``attacker * defender *
    (attacker_shields + 1) * (defender_shields + 1)`` at most 20,000 (every battle of the
    game: 8 pawns against 8 with 15 shields each is 16,384); beyond them a ValueError.

    >>> b = battle(1, 1, defender_shields=1)        # the defender rerolls any losing die
    >>> b.attacker_wins                              # sum over x of (x/6)**2 / 6
    91/216
    >>> b.policy.defender_rerolls(1, 1, 0, 1, x=3)
    (1, 2, 3)
    """
    rules = _rules(rules)
    _battle_counts(attacker, defender, attacker_shields, defender_shields)
    if good_fortune:
        raise ValueError(
            "Good fortune is played with an emissary in a neutral castle or an army at the "
            "gate of a castle: it changes the die of a castle or diplomatic roll, not of a "
            "battle (use castle_assault(..., good_fortune=True) or diplomacy(...))"
        )
    solver = _solver(rules, cavalry_charge, attacker_shields, defender_shields)
    solver.ensure(attacker, defender)
    start = (attacker, defender, attacker_shields, defender_shields)
    ends, _, (att_points, def_points) = _battle_walk(solver, start)
    outcomes = Die.from_pmf(
        [
            ((a, d, attacker_shields - sa, defender_shields - sd), p)
            for (a, d, sa, sd), p in ends.items()
        ]
    )
    return BattleResult(
        attacker=attacker,
        defender=defender,
        attacker_shields=attacker_shields,
        defender_shields=defender_shields,
        cavalry_charge=cavalry_charge,
        cavalry_vp=rules.cavalry_vp,
        outcomes=outcomes,
        policy=BattlePolicy(solver, start, att_points, def_points),
    )


def battle_table(
    max_attacker: int = 10,
    max_defender: int = 10,
    attacker_shields: int = 0,
    defender_shields: int = 0,
    rules: Rules | None = None,
    cavalry_charge: bool = False,
) -> sympy.Matrix | list[list[Fraction]]:
    """P(attacker wins) for every size: row ``i`` is ``i+1`` attacking pawns, column ``j`` is
    ``j+1`` defending pawns; both sides hold the given shields and play them optimally. A
    sympy Matrix; a list of rows of Fractions under :func:`~coronas.dice.exact_fractions`.

    >>> battle_table(2, 2)      # 2 v 2: (7/12)**2 (1 + 2 * 5/12)
    Matrix([
    [   7/12,  49/144],
    [119/144, 539/864]])
    """
    rules = _rules(rules)
    _battle_counts(max_attacker, max_defender, attacker_shields, defender_shields)
    solver = _solver(rules, cavalry_charge, attacker_shields, defender_shields)
    solver.ensure(max_attacker, max_defender)
    shields = (attacker_shields, defender_shields)
    return rational_matrix(
        [
            [solver.value(a, d, *shields) for d in range(1, max_defender + 1)]
            for a in range(1, max_attacker + 1)
        ]
    )


def battle_chain(
    attacker: int,
    defender: int,
    attacker_shields: int = 0,
    defender_shields: int = 0,
    rules: Rules | None = None,
    cavalry_charge: bool = False,
):
    """The battle as an absorbing Markov chain (a ``networkx.DiGraph``), one step a round.

    Nodes are ``(attacker pawns, defender pawns)`` when neither side has shields, and
    ``(attacker pawns, defender pawns, attacker shields, defender shields)`` otherwise.
    Node attributes: ``attacker``, ``defender``, ``attacker_shields``, ``defender_shields``,
    ``absorbing`` (the battle is over), ``winner`` (``"attacker"``, ``"defender"`` or
    None), ``reach`` (P(the battle passes through it), a Fraction), ``attacker_wins``
    (P(attacker wins) from there, a Fraction) and ``label``. Edge attributes: ``p`` (the
    exact transition probability, a Fraction, under optimal rerolls) and ``label``.
    ``G.graph["start"]`` is the first node.

    >>> G = battle_chain(2, 1)
    >>> G.edges[(2, 1), (2, 0)]["p"], G.edges[(2, 1), (1, 1)]["p"]
    (Fraction(7, 12), Fraction(5, 12))
    """
    import networkx as nx

    rules = _rules(rules)
    _battle_counts(attacker, defender, attacker_shields, defender_shields)
    solver = _solver(rules, cavalry_charge, attacker_shields, defender_shields)
    solver.ensure(attacker, defender)
    start = (attacker, defender, attacker_shields, defender_shields)
    _, reach, _ = _battle_walk(solver, start)
    shields = bool(attacker_shields or defender_shields)
    e0 = solver.exponent(*start)

    def node(s: State4) -> tuple[int, ...]:
        return s if shields else (s[0], s[1])

    G = nx.DiGraph(start=node(start), cavalry_charge=cavalry_charge)
    for s, m in reach.items():
        a, d, sa, sd = s
        over = a == 0 or d == 0
        label = f"{a} v {d}" + (f"\n{sa}/{sd} sh." if shields else "")
        G.add_node(
            node(s),
            attacker=a,
            defender=d,
            attacker_shields=sa,
            defender_shields=sd,
            absorbing=over,
            winner=("attacker" if d == 0 else "defender") if over else None,
            reach=Fraction(m, solver.M ** (e0 - solver.exponent(*s))),
            attacker_wins=solver.value(a, d, sa, sd),
            label=label,
        )
        if not over:
            for t, p in solver.round_fractions(s).items():
                G.add_edge(node(s), node(t), p=p, label=str(p))
    return G
