"""The battle solver of Batalla de Coronas: a battle as a zero-sum game over P(gem).

:class:`_BattleSolver` values every node of a battle (the dice, both sides' gold and rerolls
paid, who declined, the tokens held) under optimal play, and lists its outcomes and its
reroll decisions; :mod:`coronas.batalla.odds.battles` asks it the public questions and
:mod:`coronas.batalla.odds.position` reads an engine state into one of its nodes.
"""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction

from coronas.batalla.rules import Rules
from coronas.dice import Die

__all__ = ["CROSS", "CROWN", "FREE", "ONE", "ZERO", "BattleOutcome"]

ZERO, ONE = Fraction(0), Fraction(1)


@dataclasses.dataclass(frozen=True)
class BattleOutcome:
    """How one battle ended.

    ``winner`` is "attacker", "tie" or "defender" and ``margin`` the difference of the final
    dice. A winning attacker spends as many swords as it may (the margin, its swords and the
    defender's shields bound it): ``swords_spent`` = ``shields_destroyed``. A losing attacker
    loses ``swords_lost`` swords. ``gem``: the defender's shields reached (or stood at) 0.
    ``attacker_gold_spent`` / ``defender_gold_spent``: gold paid for rerolls;
    ``crown_spent``: the attacker spent the Crown for that gold; ``cross_spent``: it sent its
    clergy to the golden square with the Cross (the defender's gold fell to the bottom);
    ``attacker_cross_reroll`` / ``defender_cross_reroll``: that side spent the Cross on a free
    reroll (the rule ``cross_effect="reroll"``).
    """

    winner: str
    margin: int
    shields_destroyed: int
    swords_spent: int
    swords_lost: int
    gem: bool
    attacker_gold_spent: int
    defender_gold_spent: int
    crown_spent: bool = False
    cross_spent: bool = False
    attacker_cross_reroll: bool = False
    defender_cross_reroll: bool = False

    def __str__(self) -> str:
        text = "tie" if self.winner == "tie" else f"{self.winner} wins by {self.margin}"
        if self.shields_destroyed:
            text += f", -{self.shields_destroyed} shields"
        if self.swords_lost:
            text += f", -{self.swords_lost} swords"
        if self.gem:
            text += ", gem taken"
        if self.attacker_gold_spent or self.defender_gold_spent:
            text += (
                f" (gold spent: attacker {self.attacker_gold_spent}, "
                f"defender {self.defender_gold_spent})"
            )
        if self.crown_spent:
            text += " (Crown spent)"
        if self.cross_spent:
            text += " (Cross spent: the defender's gold to the bottom)"
        for side in ("attacker", "defender"):
            if getattr(self, f"{side}_cross_reroll"):
                text += f" (the {side}'s Cross spent on a free reroll)"
        return text


# A battle node: dice (attacker, defender), gold (attacker, defender), rerolls paid (attacker,
# defender), ``declined`` as the state keeps it (1 the attacker kept the roll, 2 the defender,
# 4 the attacker let its moment to spend a token pass) and the tokens (CROWN: the attacker
# holds the Crown and may spend it in the battle; CROSS: it holds the Cross and may send its
# clergy to the golden square with it; FREE[side]: under cross_effect="reroll", that side
# holds the Cross and may spend it on one free reroll).
_Node = tuple[int, int, int, int, int, int, int, int]
CROWN, CROSS, _PASSED = 1, 2, 4
FREE = (4, 8)


class _BattleSolver:
    """The battle as a zero-sum game over P(gem): the attacker maximises, the defender
    minimises, and a side pays (gold, a token) only when that strictly changes P(gem) its way
    (so nothing is spent in vain). Who may reroll follows the rules (B7): the side whose die is
    lower, and on a tie nobody (or, with ``reroll_on_tie``, the attacker first, then the
    defender). The attacker's gold counts the Crown's, spent only when its gold alone cannot
    pay (later is never worse: less gold is lost above the cap). Before each defender decision
    (B11; also at its own decisions) the attacker may spend the Cross on the golden square,
    which takes the defender's gold to the bottom of the track. Under the rule
    ``cross_effect="reroll"`` the side holding the Cross may instead spend it on a free
    reroll when it is behind; it does so only when that does strictly better than keeping
    the roll and than paying gold for the reroll."""

    def __init__(self, swords: int, shields: int, rules: Rules, cap: int):
        self.swords, self.shields, self.rules, self.cap = swords, shields, rules, cap
        self.faces = Die(rules.die_faces).items()

    def spend(self, a: int, d: int) -> int:
        """Swords a winning attacker spends (as many as allowed)."""
        return min(a - d, self.swords, self.shields)

    def is_gem(self, a: int, d: int) -> bool:
        if a <= d:
            return False
        return self.shields == 0 or self.spend(a, d) >= self.shields

    def purse(self, node: _Node, side: int) -> int:
        """The gold ``side`` can pay with: the attacker's counts the Crown's."""
        if side == 1:
            return node[3]
        gold = node[2]
        if node[7] & CROWN:
            gold = max(gold, min(gold + self.rules.crown_gold, self.cap))
        return gold

    def decider(self, node: _Node) -> int | None:
        a, d, _, _, ka, kd, declined, _ = node
        if a == d:
            sides: tuple[int, ...] = (0, 1) if self.rules.reroll_on_tie else ()
        else:
            sides = (0,) if a < d else (1,)
        for side in sides:
            if declined & (1 << side):
                continue
            k = ka if side == 0 else kd
            if node[7] & FREE[side] or self.purse(node, side) >= self.rules.reroll_cost(k):
                return side
        return None

    def after_accept(self, node: _Node, side: int) -> _Node:
        return (*node[:6], node[6] | (1 << side), node[7])

    def after_reroll(self, node: _Node, side: int) -> list[tuple[_Node, Fraction]]:
        a, d, ga, gd, ka, kd, _, tokens = node
        if side == 0:
            cost = self.rules.reroll_cost(ka)
            if ga < cost:  # the Crown pays
                ga, tokens = min(ga + self.rules.crown_gold, self.cap), tokens & ~CROWN
            return [((v, d, ga - cost, gd, ka + 1, kd, 0, tokens), p) for v, p in self.faces]
        cost = self.rules.reroll_cost(kd)
        return [((a, v, ga, gd - cost, ka, kd + 1, 0, tokens), p) for v, p in self.faces]

    def after_free_reroll(self, node: _Node, side: int) -> list[tuple[_Node, Fraction]]:
        """The nodes after ``side`` spends the Cross on a reroll: no gold, and the reroll does
        not count in the rising price."""
        a, d, ga, gd, ka, kd, _, tokens = node
        tokens &= ~FREE[side]
        if side == 0:
            return [((v, d, ga, gd, ka, kd, 0, tokens), p) for v, p in self.faces]
        return [((a, v, ga, gd, ka, kd, 0, tokens), p) for v, p in self.faces]

    def can_pay(self, node: _Node, side: int) -> bool:
        k = node[4] if side == 0 else node[5]
        return self.purse(node, side) >= self.rules.reroll_cost(k)

    def cross_now(self, node: _Node, side: int) -> bool:
        """Whether the attacker may spend the Cross at this decision (its own, or its moment
        before the defender's)."""
        if not node[7] & CROSS:
            return False
        return side == 0 or (self.rules.battle_token_moment and not node[6] & _PASSED)

    def choice(self, node: _Node) -> tuple[str, list[tuple[_Node, Fraction]]] | None:
        """The optimal step at ``node`` and the nodes it leads to: "cross" (the attacker spends
        the Cross on the golden square), "pass" (the attacker lets its moment pass), "reroll",
        "cross_reroll" (a free reroll with the Cross) or "keep" (the side behind); None when
        the battle is decided."""
        side = self.decider(node)
        if side is None:
            return None
        if self.cross_now(node, side):
            zeroed = (*node[:3], self.rules.gold_min, *node[4:7], node[7] & ~CROSS)
            passed = (*node[:6], node[6] | _PASSED, node[7])
            rest = self.value(passed) if side == 1 else self.decide(node, side)
            if self.value(zeroed) > rest:
                return "cross", [(zeroed, ONE)]
            if side == 1:
                return "pass", [(passed, ONE)]
        step = self.best(side, *self.options(node, side))[0]
        if step == "reroll":
            return "reroll", self.after_reroll(node, side)
        if step == "cross_reroll":
            return "cross_reroll", self.after_free_reroll(node, side)
        return "keep", [(self.after_accept(node, side), ONE)]

    @functools.cache  # noqa: B019 - one solver per battle, kept small
    def value(self, node: _Node) -> Fraction:
        """P(gem) from this node under optimal play."""
        step = self.choice(node)
        if step is None:
            return ONE if self.is_gem(node[0], node[1]) else ZERO
        return sum((p * self.value(n) for n, p in step[1]), ZERO)

    def decide(self, node: _Node, side: int) -> Fraction:
        return self.best(side, *self.options(node, side))[1]

    def options(self, node: _Node, side: int) -> tuple[Fraction, Fraction | None, Fraction | None]:
        """P(gem) after keeping, after a paid reroll and after a free one (None: not open)."""
        keep = self.value(self.after_accept(node, side))
        paid = free = None
        if self.can_pay(node, side):
            paid = self.mean(self.after_reroll(node, side))
        if node[7] & FREE[side]:
            free = self.mean(self.after_free_reroll(node, side))
        return keep, paid, free

    def mean(self, nodes: list[tuple[_Node, Fraction]]) -> Fraction:
        return sum((p * self.value(n) for n, p in nodes), ZERO)

    @staticmethod
    def best(
        side: int, keep: Fraction, paid: Fraction | None, free: Fraction | None
    ) -> tuple[str, Fraction]:
        """The choice of ``side`` (the attacker maximises P(gem), the defender minimises it):
        a reroll only when it does strictly better than keeping, and the Cross only when it
        does strictly better than paying."""
        choice, value = "keep", keep
        for name, v in (("reroll", paid), ("cross_reroll", free)):
            if v is not None and (v > value if side == 0 else v < value):
                choice, value = name, v
        return choice, value

    def start(self, gold: tuple[int, int], tokens: int) -> list[tuple[_Node, Fraction]]:
        """The nodes after the battle roll, with their probabilities."""
        return [
            ((a, d, gold[0], gold[1], 0, 0, 0, tokens), pa * pd)
            for a, pa in self.faces
            for d, pd in self.faces
        ]

    def paid(self, k: int) -> int:
        """Gold paid for ``k`` rerolls by one side."""
        return sum(self.rules.reroll_cost(i) for i in range(k))

    def outcome(self, node: _Node, tokens: int) -> BattleOutcome:
        a, d, _, _, ka, kd, _, left = node
        gone = tokens & ~left
        spent = (self.paid(ka), self.paid(kd), bool(gone & CROWN), bool(gone & CROSS))
        spent += (bool(gone & FREE[0]), bool(gone & FREE[1]))
        if a > d:
            n = min(self.spend(a, d), self.shields) if self.shields else 0
            return BattleOutcome("attacker", a - d, n, n, 0, self.is_gem(a, d), *spent)
        if d > a:
            lost = min(d - a, self.swords)
            return BattleOutcome("defender", d - a, 0, 0, lost, False, *spent)
        return BattleOutcome("tie", 0, 0, 0, 0, False, *spent)

    def distribution(
        self, gold: tuple[int, int], rerolls: bool, tokens: int = 0
    ) -> dict[BattleOutcome, Fraction]:
        start = self.start(gold, tokens if rerolls else 0)
        return self.outcomes(start, tokens if rerolls else 0, rerolls)

    def outcomes(
        self, start: list[tuple[_Node, Fraction]], tokens: int, rerolls: bool = True
    ) -> dict[BattleOutcome, Fraction]:
        """The outcomes of the battle from ``start`` (nodes with their probabilities), the
        attacker having held ``tokens`` when the battle began."""
        memo: dict[_Node, dict[BattleOutcome, Fraction]] = {}

        def walk(node: _Node) -> dict[BattleOutcome, Fraction]:
            if node in memo:
                return memo[node]
            step = self.choice(node) if rerolls else None
            if step is None:
                out = {self.outcome(node, tokens): ONE}
            else:
                out = {}
                for n, p in step[1]:
                    for o, q in walk(n).items():
                        out[o] = out.get(o, ZERO) + p * q
            memo[node] = out
            return out

        total: dict[BattleOutcome, Fraction] = {}
        for node, p in start:
            for o, q in walk(node).items():
                total[o] = total.get(o, ZERO) + p * q
        return total

    def policy_rows(self, gold: tuple[int, int], tokens: int = 0) -> list[tuple]:
        """Every reroll decision reached with positive probability under optimal play."""
        reach: dict[_Node, Fraction] = {}
        order: list[_Node] = []
        frontier = self.start(gold, tokens)
        while frontier:
            nxt: dict[_Node, Fraction] = {}
            for node, p in frontier:
                step = self.choice(node)
                if step is None:
                    continue
                if step[0] in ("reroll", "cross_reroll", "keep"):
                    if node not in reach:
                        order.append(node)
                    reach[node] = reach.get(node, ZERO) + p
                for n, q in step[1]:
                    nxt[n] = nxt.get(n, ZERO) + p * q
            frontier = list(nxt.items())
        rows = []
        for node in order:
            a, d, ga, _, ka, kd, _, _ = node
            side = self.decider(node)
            keep, paid, free = self.options(node, side)
            step, value = self.best(side, keep, paid, free)
            who = ("attacker", "defender")[side]
            cost = self.rules.reroll_cost(ka if side == 0 else kd)
            choice = "keep"
            if step == "reroll":
                crown = side == 0 and ga < cost
                choice = f"{'spend the Crown, ' if crown else ''}pay {cost} and reroll"
            elif step == "cross_reroll":
                choice = "spend the Cross and reroll"
            again = value if step != "keep" else (paid if paid is not None else free)
            rows.append((f"{a} vs {d}", _gold_left(node), who, choice, again, keep, reach[node]))
        return rows


def _gold_left(node: _Node) -> str:
    """The gold column of a policy row: "1 / 0", "1+Crown / 0", "0+Cross / 1"."""
    tokens = node[7]
    attacker = ("+Crown" if tokens & CROWN else "") + ("+Cross" if tokens & FREE[0] else "")
    defender = "+Cross" if tokens & FREE[1] else ""
    return f"{node[2]}{attacker} / {node[3]}{defender}"


@functools.lru_cache(maxsize=256)
def _solver(swords: int, shields: int, rules: Rules, cap: int | None = None) -> _BattleSolver:
    return _BattleSolver(swords, shields, rules, rules.gold_max if cap is None else cap)


def _tokens(crown: bool, cross: bool, rules: Rules, defender_cross: bool = False) -> int:
    """The token bits of a battle's start: the Crown counts where the rules let it pay; the
    Cross, as the rules read it, sends the attacker's clergy to the golden square or buys
    its holder (attacker or defender) a free reroll."""
    bits = CROWN if crown and rules.crown_in_battle else 0
    if rules.cross_effect == "reroll":
        return bits | (FREE[0] if cross else 0) | (FREE[1] if defender_cross else 0)
    return bits | (CROSS if cross else 0)
