"""The integer engine behind :mod:`coronas.attrition`.

One round's losses are counted in integers (the dice's integer weights, see
:meth:`coronas.dice.Die.sampler`). Conditioned on the round costing somebody a unit, every
round of a rule set has its move probabilities over one common base ``B`` (the lcm of the
rounds' denominators; 6**5 for Risk). So P(attacker wins from (a, d)) is an integer over a
power of ``B``, one factor per round of the longest battle from there, and the dynamic
programme adds integers, with no fractions and no gcds. Pushing one battle's probability
mass forward for the distribution of its end, a move that costs ``k`` units carries weight
``w * B**(k - 1)``, so the mass at ``(i, j)`` is over ``B**(a + d - i - j)``.

Sizes above the last step of either side's dice roll the same dice, so one round's moves
depend on ``(min(a, ca), min(d, cd))`` only: a small grid of moves for the whole battle.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from fractions import Fraction
from typing import Any

from coronas.dice import Die

MAX_ROLL_TABLE = 50_000
"""The most joint rolls of one round that :meth:`Engine.simulate` tabulates (6**5 for Risk);
bigger rounds are sorted and compared roll by roll."""

Moves = tuple[tuple[int, int, int], ...]
"""One round's moves ``(attacker losses, defender losses, weight over B)``."""


def _weights(die: Die) -> tuple[tuple[Any, ...], list[int], int]:
    outcomes, cum, den = die.sampler()
    if cum is None:
        return outcomes, [1] * den, den
    return outcomes, [c - p for c, p in zip(cum, (0, *cum[:-1]), strict=True)], den


@functools.lru_cache(maxsize=256)
def sorted_roll(dice: tuple[Die, ...]) -> tuple[dict[tuple, int], int]:
    """The dice's values sorted from highest to lowest, as integer counts out of a total."""
    acc: dict[tuple, int] = {(): 1}
    total = 1
    for die in dice:
        outcomes, weights, den = _weights(die)
        nxt: dict[tuple, int] = {}
        for t, c in acc.items():
            for o, w in zip(outcomes, weights, strict=True):
                key = tuple(sorted((*t, o), reverse=True))
                nxt[key] = nxt.get(key, 0) + c * w
        acc, total = nxt, total * den
    return acc, total


def losses(xs: tuple, ys: tuple, pairs: int, ties: str) -> tuple[int, int]:
    """``(attacker losses, defender losses)`` for sorted rolls compared ``pairs`` times."""
    la = ld = 0
    for x, y in zip(xs[:pairs], ys[:pairs], strict=True):
        if x > y or (x == y and ties == "attacker"):
            ld += 1
        elif x < y or ties == "defender":
            la += 1
    return la, ld


@functools.lru_cache(maxsize=1024)
def round_counts(
    attacker: tuple[Die, ...], defender: tuple[Die, ...], ties: str, pairing: str
) -> tuple[dict[tuple[int, int], int], int]:
    """One round's uncapped losses ``(la, ld)`` as integer counts out of a total."""
    a_roll, a_total = sorted_roll(attacker)
    d_roll, d_total = sorted_roll(defender)
    pairs = 1 if pairing == "highest" else min(len(attacker), len(defender))
    out: dict[tuple[int, int], int] = {}
    for xs, cx in a_roll.items():
        for ys, cy in d_roll.items():
            key = losses(xs, ys, pairs, ties)
            out[key] = out.get(key, 0) + cx * cy
    return out, a_total * d_total


class Engine:
    """The moves of every round of one rule set over a common base, and the solvers."""

    def __init__(self, rules: Any):
        self.rules = rules
        pairs = 1
        if rules.pairing == "pairs":
            pairs = max(
                min(len(x), len(y)) for _, x in rules.attacker_dice for _, y in rules.defender_dice
            )
        self.ca = max(rules.attacker_dice[-1][0], pairs)
        self.cd = max(rules.defender_dice[-1][0], pairs)
        rounds: dict[tuple[int, int], tuple[dict[tuple[int, int], int], int, int]] = {}
        base = 1
        for i in range(1, self.ca + 1):
            for j in range(1, self.cd + 1):
                counts, total = round_counts(
                    rules.dice("attacker", i), rules.dice("defender", j), rules.ties, rules.pairing
                )
                capped: dict[tuple[int, int], int] = {}
                for (la, ld), c in counts.items():
                    key = (min(la, i), min(ld, j))
                    if key != (0, 0):
                        capped[key] = capped.get(key, 0) + c
                go = sum(capped.values())
                rounds[(i, j)] = (capped, total, go)
                if go:
                    # Moves c / go and mean rounds per visit total / go, over go / g.
                    base = math.lcm(base, go // math.gcd(go, total, *capped.values()))
        self.B = base
        self.grid: list[list[tuple[Moves, Moves, int] | None]] = [
            [None] * (self.cd + 1) for _ in range(self.ca + 1)
        ]
        for (i, j), (capped, total, go) in rounds.items():
            if not go:
                continue
            moves = tuple(sorted((la, ld, c * base // go) for (la, ld), c in capped.items()))
            # The same moves, each carrying B**(units lost - 1): exponents follow a + d.
            lifted = tuple((la, ld, w * base ** (la + ld - 1)) for la, ld, w in moves)
            self.grid[i][j] = (moves, lifted, total * base // go)
        self._pow = [1]
        self._rollers: list[list[Any]] = [[None] * (self.cd + 1) for _ in range(self.ca + 1)]
        self._wins: tuple[list[list[int]], list[list[int]]] = ([[0]], [[0]])

    def power(self, k: int) -> int:
        """``B**k``, remembered."""
        pw = self._pow
        while len(pw) <= k:
            pw.append(pw[-1] * self.B)
        return pw[k]

    def cell(self, a: int, d: int) -> tuple[Moves, Moves, int]:
        """The round at ``a`` against ``d``: its moves, lifted moves and mean-rounds weight."""
        cell = self.grid[min(a, self.ca)][min(d, self.cd)]
        if cell is None:
            raise ValueError(
                f"{self.rules}: with {a} against {d} no round ever costs anyone a unit; "
                "the battle would never end"
            )
        return cell

    # -- exact, backward: P(attacker wins) for every size ----------------------------------
    def wins(self, max_a: int, max_d: int) -> tuple[list[list[int]], list[list[int]]]:
        """P(attacker wins) from every size up to ``(max_a, max_d)`` as numerators ``N`` and
        exponents ``E``: ``N[a][d] / B**E[a][d]``.

        ``E`` is the longest battle from ``(a, d)`` in rounds, 1 + the largest ``E`` of the
        next round's sizes, so each round adds one factor ``B`` and the integers stay as
        short as one common denominator allows (the fractions then reduce quickly). Solved
        once and kept; a bigger request solves again, at least doubling the side that
        grows, so growing a table one size at a time stays cheap.
        """
        old = self._wins
        have_a, have_d = len(old[0]) - 1, len(old[0][0]) - 1
        if max_a <= have_a and max_d <= have_d:
            return old
        max_a = have_a if max_a <= have_a else max(max_a, 2 * have_a)
        max_d = have_d if max_d <= have_d else max(max_d, 2 * have_d)
        self.power(max_a + max_d)
        pw = self._pow
        # Row 0: the attacker is gone (P = 0). Column 0: the defender is gone (P = 1).
        N = [[0] * (max_d + 1)] + [[1] + [0] * max_d for _ in range(max_a)]
        E = [[0] * (max_d + 1) for _ in range(max_a + 1)]
        ca, cd, grid = self.ca, self.cd, self.grid
        for i in range(1, max_a + 1):
            row = grid[min(i, ca)]
            Ni, Ei = N[i], E[i]
            for j in range(1, max_d + 1):
                cell = row[min(j, cd)]
                if cell is None:
                    self.cell(i, j)
                moves = cell[0]  # type: ignore[index]
                e = 0
                for di, dj, _ in moves:
                    x = E[i - di][j - dj]
                    if x > e:
                        e = x
                n = 0
                for di, dj, w in moves:
                    v = N[i - di][j - dj]
                    if v:
                        x = e - E[i - di][j - dj]
                        n += w * v * pw[x] if x else w * v
                Ni[j], Ei[j] = n, e + 1
        self._wins = (N, E)
        return N, E

    def win(self, a: int, d: int) -> Fraction:
        """P(the attacker wins from ``(a, d)``)."""
        if d == 0:
            return Fraction(int(a > 0))
        N, E = self.wins(a, d)
        return Fraction(N[a][d], self.power(E[a][d]))

    # -- exact, forward: one battle's end ---------------------------------------------------
    def battle(self, a: int, d: int) -> tuple[dict[tuple[int, int], Fraction], Fraction]:
        """The distribution of the end of the battle ``a`` against ``d``, and its mean
        number of rounds, by pushing the probability mass forward one round at a time.

        The mass at ``(i, j)`` is an integer over ``B**(a + d - i - j)``.
        """
        top = a + d
        levels: list[dict[tuple[int, int], int]] = [{} for _ in range(top + 1)]
        levels[top][(a, d)] = 1
        ends: dict[tuple[int, int], Fraction] = {}
        rounds = 0
        for level in range(top, -1, -1):
            here, spent = levels[level], 0
            for (i, j), m in here.items():
                if i == 0 or j == 0:
                    ends[(i, j)] = Fraction(m, self.power(top - level))
                    continue
                _, lifted, g = self.cell(i, j)
                spent += m * g
                for di, dj, w in lifted:
                    nxt, key = levels[level - di - dj], (i - di, j - dj)
                    nxt[key] = nxt.get(key, 0) + m * w
            if spent:
                # Each visit lasts g / B rounds on average: spent over B**(top - level + 1).
                rounds += spent * self.power(level - 1)
            levels[level] = {}
        return ends, Fraction(rounds, self.power(top))

    # -- approximate: floats --------------------------------------------------------------
    def float_wins(self, max_a: int, max_d: int) -> list[list[float]]:
        """P(attacker wins) for every size in floating point (rows and columns from 0)."""
        B = self.B
        grid: list[list[tuple[tuple[int, int, float], ...] | None]] = [
            [None if c is None else tuple((x, y, w / B) for x, y, w in c[0]) for c in row]
            for row in self.grid
        ]
        P = [[0.0] * (max_d + 1)] + [[1.0] + [0.0] * max_d for _ in range(max_a)]
        ca, cd = self.ca, self.cd
        for i in range(1, max_a + 1):
            row = grid[min(i, ca)]
            Pi = P[i]
            for j in range(1, max_d + 1):
                moves = row[min(j, cd)]
                if moves is None:
                    self.cell(i, j)
                p = 0.0
                for di, dj, q in moves:  # type: ignore[union-attr]
                    p += q * P[i - di][j - dj]
                Pi[j] = p
        return P

    # -- Monte Carlo ----------------------------------------------------------------------
    def _roller(self, i: int, j: int) -> tuple[tuple, list[tuple[int, int]] | None, int, int]:
        """How to roll one round at ``i`` against ``j``: the dice (each as ``(cum_weights,
        total, faces, outcomes)``, attacker's first), the losses for every joint roll
        indexed by the faces' positions in mixed radix (None when there are too many), the
        number of attacker's dice and of comparisons."""
        rules = self.rules
        a_dice, d_dice = rules.dice("attacker", i), rules.dice("defender", j)
        dice = []
        for die in (*a_dice, *d_dice):
            outcomes, cum, total = die.sampler()
            dice.append((cum, total, len(outcomes), outcomes))
        k = len(a_dice)
        pairs = 1 if rules.pairing == "highest" else min(k, len(d_dice))
        table = None
        if math.prod(n for _, _, n, _ in dice) <= MAX_ROLL_TABLE:

            def rolls(side: list) -> tuple[list[int], list[tuple]]:
                """Each joint roll of one side as the number of its sorted roll."""
                ids: list[int] = []
                distinct: dict[tuple, int] = {}
                for roll in itertools.product(*(outcomes for *_, outcomes in side)):
                    ids.append(
                        distinct.setdefault(tuple(sorted(roll, reverse=True)), len(distinct))
                    )
                return ids, list(distinct)

            (a_ids, a_sorted), (d_ids, d_sorted) = rolls(dice[:k]), rolls(dice[k:])
            by_sorted = [[losses(xs, ys, pairs, rules.ties) for ys in d_sorted] for xs in a_sorted]
            table = [by_sorted[i][j] for i in a_ids for j in d_ids]
        return tuple(dice), table, k, pairs

    def simulate(self, a0: int, d0: int, n: int, rng: Any) -> int:
        """How many of ``n`` random battles the attacker wins. Every die is rolled with one
        ``rng.random()``, as :meth:`Die.sample` rolls it, attacker's dice first, in the
        order the rules list them; the round's losses are then looked up."""
        ca, cd, ties = self.ca, self.cd, self.rules.ties
        rollers = self._rollers
        for i in range(1, min(a0, ca) + 1):  # the rounds this battle can reach
            for j in range(1, min(d0, cd) + 1):
                if rollers[i][j] is None:
                    rollers[i][j] = self._roller(i, j)
        rnd, bis = rng.random, bisect.bisect
        wins = 0
        for _ in range(n):
            a, d = a0, d0
            while a and d:
                dice, table, k, pairs = rollers[a if a < ca else ca][d if d < cd else cd]
                if table is not None:
                    idx = 0
                    for cum, total, m, _ in dice:
                        r = rnd() * total
                        idx = idx * m + (int(r) if cum is None else bis(cum, r, 0, m - 1))
                    la, ld = table[idx]
                else:
                    roll = []
                    for cum, total, m, outcomes in dice:
                        r = rnd() * total
                        roll.append(outcomes[int(r) if cum is None else bis(cum, r, 0, m - 1)])
                    xs, ys = sorted(roll[:k], reverse=True), sorted(roll[k:], reverse=True)
                    la, ld = losses(tuple(xs), tuple(ys), pairs, ties)
                a = a - la if la < a else 0
                d = d - ld if ld < d else 0
            if a and not d:
                wins += 1
        return wins
