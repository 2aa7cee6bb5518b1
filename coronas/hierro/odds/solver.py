"""The battle solver: exact backward induction over pawns and shields, in integers.

One solver per set of battle dice is kept (:func:`_solver`) and shared by every query: it
holds the solved battles and grows to the most shields asked, adding cells and changing
none, so the order of the questions does not change what is computed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from coronas.dice import Die
from coronas.hierro.rules import Rules

State4 = tuple[int, int, int, int]
_Faces = tuple[tuple[Any, ...], list[int], list[int], list[bool], list[bool], list[int]]
"""Face values, counts out of M, P(Y <= x) out of M, rerolls offered to each side, and
P(Y > x) out of M."""


class _BattleSolver:
    """Backward induction over (attacker pawns, defender pawns, attacker shields, defender
    shields), exact.

    A round: the attacker rolls X with ``s`` shields and may reroll (one shield each) until it
    stops; then the defender, knowing the attacker's final x, rolls Y with ``t`` shields and
    may reroll; x >= y costs the defender a pawn, otherwise the attacker loses one.

    ``V(a, d, s, t)`` is P(attacker wins) at the start of a round; ``D(s, t, x)`` is that
    chance once the attacker has stopped on x with ``s`` shields left and the defender is
    about to roll with ``t``. With W = V(a, d-1, s, t), L = V(a-1, d, s, t), q = P(Y <= x):

        D(s, t, x) = q min(W, D(s, t-1, x)) + (1-q) min(L, D(s, t-1, x))   (no min if t = 0)
        V(s, t) = sum_x P(X = x) max(D(s, t, x), V(s-1, t))                 (no max if s = 0)

    The min and max run over the rerolls the rules offer (the project's ruling, as in the
    engine: only when they can help): the attacker below its die's highest face, the defender
    when losing the roll to an x its die can beat. Rerolling only when strictly better: when
    both choices are worth the same, the shield is kept.

    Every die probability is a count over one common denominator M, and a battle from
    (a, d, s, t) has at most E = 2 (a + d - 1) + s + t rolls, so V(a, d, s, t) is an integer
    over M**E; D(s, t, x) has the same denominator as the V it is compared with. The solver
    keeps those integers: exact, and much faster than fractions.
    """

    def __init__(
        self,
        att_colour: Callable[[int], str],
        def_colour: Callable[[int], str],
        dice: Mapping[str, Die],
        max_sa: int,
        max_sd: int,
    ):
        self._att_colour = att_colour
        self._def_colour = def_colour
        self.dice = dict(dice)
        self.M = math.lcm(*(p.denominator for die in self.dice.values() for _, p in die.items()))
        self.max_sa = max_sa
        self.max_sd = max_sd
        self.V: dict[tuple[int, int], list[list[int]]] = {}
        self.D: dict[tuple[int, int], list[list[list[int]]]] = {}
        # Face counts and the rerolls offered depend only on the two dice: one record per
        # pair of colours, shared by every (a, d) that rolls them.
        self._die_counts: dict[str, tuple[tuple[Any, ...], list[int]]] = {}
        self._by_colour: dict[tuple[str, str], _Faces] = {}
        self.faces: dict[tuple[int, int], _Faces] = {}
        self.rounds: dict[State4, tuple[dict[State4, int], frozenset, frozenset]] = {}
        self._solved = (0, 0)  # every battle up to these pawns is complete at the capacity

    def att_die(self, size: int) -> Die:
        """The die the attacker rolls with ``size`` pawns."""
        return self.dice[self._att_colour(size)]

    def def_die(self, size: int) -> Die:
        """The die the defender rolls with ``size`` pawns."""
        return self.dice[self._def_colour(size)]

    def grow(self, max_sa: int, max_sd: int) -> None:
        """Make room for ``max_sa`` and ``max_sd`` shields. Solved cells stay as they are
        (a cell depends only on fewer pawns and fewer shields); :meth:`ensure` adds the new
        ones."""
        if max_sa > self.max_sa or max_sd > self.max_sd:
            self.max_sa = max(self.max_sa, max_sa)
            self.max_sd = max(self.max_sd, max_sd)
            self._solved = (0, 0)

    @staticmethod
    def exponent(a: int, d: int, s: int, t: int) -> int:
        """V(a, d, s, t) is an integer over M**exponent."""
        return 2 * (a + d - 1) + s + t

    def _terminal(self, a: int, d: int) -> list[list[int]]:
        if a == 0:
            return [[0] * (self.max_sd + 1) for _ in range(self.max_sa + 1)]
        # The attacker has won: V = 1 = M**e / M**e, one power of M per s + t.
        e = self.exponent(a, 0, 0, 0)
        powers = [self.M ** (e + k) for k in range(self.max_sa + self.max_sd + 1)]
        return [powers[s : s + self.max_sd + 1] for s in range(self.max_sa + 1)]

    def _complete(self, key: tuple[int, int]) -> bool:
        """Does the table of ``key`` have a cell for every s, t up to the capacity?"""
        V = self.V.get(key)
        return V is not None and len(V) > self.max_sa and len(V[0]) > self.max_sd

    def ints(self, a: int, d: int) -> list[list[int]]:
        """The numerators of V(a, d, s, t) for every s, t."""
        if a == 0 or d == 0:
            key = (a, d)
            if not self._complete(key):
                self.V[key] = self._terminal(a, d)
            return self.V[key]
        return self.V[(a, d)]

    def value(self, a: int, d: int, s: int, t: int) -> Fraction:
        """P(attacker wins) from the start of a round at (a, d) with s and t shields."""
        return Fraction(self.ints(a, d)[s][t], self.M ** self.exponent(a, d, s, t))

    def stopped_value(self, a: int, d: int, s: int, t: int, i: int) -> Fraction:
        """D(s, t, x): P(attacker wins) once the attacker has stopped on its i-th face value
        with ``s`` shields left and the defender is about to roll with ``t`` (an integer over
        M**(exponent - 1): the attacker's roll is made)."""
        return Fraction(self.D[(a, d)][s][t][i], self.M ** (self.exponent(a, d, s, t) - 1))

    def ensure(self, a: int, d: int) -> None:
        """Solve every battle up to ``a`` against ``d`` pawns, for every shield count up to
        the capacity (each from the two it depends on, solved just before)."""
        done_a, done_d = self._solved
        if a <= done_a and d <= done_d:
            return
        for i in range(1, a + 1):
            self.ints(i, 0)
        for j in range(1, d + 1):
            self.ints(0, j)
        for i in range(1, a + 1):
            for j in range(1, d + 1):
                if not self._complete((i, j)):
                    self._solve(i, j)
        if a >= done_a and d >= done_d:
            self._solved = (a, d)

    def _pair(self, a: int, d: int) -> _Faces:
        """The face record of ``a`` pawns against ``d``, shared by every pair of sizes that
        rolls the same two dice."""
        key = (a, d)
        faces = self.faces.get(key)
        if faces is None:
            colours = (self._att_colour(a), self._def_colour(d))
            faces = self._by_colour.get(colours)
            if faces is None:
                faces = self._by_colour[colours] = self._count_faces(*colours)
            self.faces[key] = faces
        return faces

    def _count_faces(self, att: str, dfn: str) -> _Faces:
        """The attacker's face values, their counts out of M, P(Y <= x) out of M (ties go
        to the attacker), and which rerolls the rules offer (the engine's ruling: only when
        they can help): the attacker below its die's highest face; the defender losing the
        roll (y <= x) against an x some face of its die beats; and P(Y > x) out of M."""
        xs, cx = self._counts(att)
        ys, cy = self._counts(dfn)
        cq = [sum(c for y, c in zip(ys, cy, strict=True) if y <= x) for x in xs]
        att_may = [i < len(xs) - 1 for i in range(len(xs))]
        dfn_may = [q < self.M for q in cq]
        return xs, cx, cq, att_may, dfn_may, [self.M - q for q in cq]

    def _counts(self, colour: str) -> tuple[tuple[Any, ...], list[int]]:
        """The ``colour`` die's face values and their counts out of M (integers)."""
        counts = self._die_counts.get(colour)
        if counts is None:
            die = self.dice[colour]
            M = self.M
            counts = self._die_counts[colour] = (
                die.outcomes(),
                [p.numerator * (M // p.denominator) for _, p in die.items()],
            )
        return counts

    def _faces(self, a: int, d: int) -> tuple[tuple[Any, ...], list[int], list[int]]:
        """The attacker's face values, their counts out of M, and P(Y <= x) out of M."""
        return self._pair(a, d)[:3]

    def _solve(self, a: int, d: int) -> None:
        """Fill the cells of (a, d) still missing, for every s, t up to the capacity."""
        _, cx, cq, att_may, dfn_may, cr = self._pair(a, d)
        W, L = self.V[(a, d - 1)], self.V[(a - 1, d)]  # complete: see ensure
        key = (a, d)
        if key in self.V:
            V, D = self.V[key], self.D[key]
        else:
            V, D = self.V[key], self.D[key] = [], []
        width = self.max_sd + 1
        for s in range(self.max_sa + 1):
            if s == len(V):
                V.append([])
                D.append([])
            Vs = V[s]
            if len(Vs) == width:
                continue
            Ds, Ws, Ls = D[s], W[s], L[s]
            below = V[s - 1] if s else None
            for t in range(len(Vs), width):
                win, lose = Ws[t], Ls[t]
                if t == 0:
                    row = [q * win + r * lose for q, r in zip(cq, cr, strict=True)]
                else:
                    # Only a losing die (y <= x) that some face could turn round is rerolled.
                    row = [
                        q * (win if (win < prev or not may) else prev) + r * lose
                        for q, r, prev, may in zip(cq, cr, Ds[t - 1], dfn_may, strict=True)
                    ]
                Ds.append(row)
                if below is None:
                    v = sum(c * r for c, r in zip(cx, row, strict=True))
                else:
                    keep = below[t]
                    v = sum(
                        c * (keep if (may and keep > r) else r)
                        for c, r, may in zip(cx, row, att_may, strict=True)
                    )
                Vs.append(v)

    # -- the optimal decisions -------------------------------------------------------------
    def attacker_rerolls(self, a: int, d: int, s: int, t: int, i: int) -> bool:
        """After rolling its i-th face value with ``s`` shields, should the attacker reroll?"""
        return (
            s > 0 and self._pair(a, d)[3][i] and self.V[(a, d)][s - 1][t] > self.D[(a, d)][s][t][i]
        )

    def defender_rerolls(self, a: int, d: int, s: int, t: int, i: int, losing: bool) -> bool:
        """With ``t`` shields, facing the attacker's i-th face value, having rolled a losing
        (``y <= x``) or winning die: should the defender reroll?"""
        if t == 0 or not losing or not self._pair(a, d)[4][i]:
            return False
        return self.D[(a, d)][s][t - 1][i] < self.ints(a, d - 1)[s][t]

    def round(
        self, state: State4
    ) -> tuple[dict[State4, int], frozenset[State4], frozenset[State4]]:
        """One round from ``state`` with both sides playing optimally.

        Returns the next round's states, each with its probability as an integer over
        M**(rolls made) = M**(exponent(state) - exponent(next)); and the ``(a, d, attacker
        shields, defender shields)`` at which the attacker, and the defender, can face a
        choice to reroll during the round.
        """
        if state in self.rounds:
            return self.rounds[state]
        a, d, s0, t0 = state
        _, cx, cq, att_may, dfn_may, _ = self._pair(a, d)
        V, D, W = self.V[(a, d)], self.D[(a, d)], self.ints(a, d - 1)
        M = self.M
        # The attacker: ``num / M**k`` is the chance of being about to roll with s shields
        # after k rolls; it stops on (face i, shields left) after k + 1 rolls. It rerolls as
        # :meth:`attacker_rerolls` says (inlined: this is the inner loop of every query).
        stops: list[tuple[int, int, int]] = []
        att_points: set[State4] = set()
        num, s = 1, s0
        while num:
            again = 0
            if s > 0:
                att_points.add((a, d, s, t0))
                keep, row = V[s - 1][t0], D[s][t0]
                for i, c in enumerate(cx):
                    if att_may[i] and keep > row[i]:
                        again += num * c
                    else:
                        stops.append((i, s, num * c))
            else:
                stops.extend((i, 0, num * c) for i, c in enumerate(cx))
            num, s = again, s - 1
        # The defender, knowing the attacker's face: only losing (y <= x) or not matters, and
        # only a losing die is rerolled (:meth:`defender_rerolls`).
        out: dict[State4, int] = {}
        def_points: set[State4] = set()
        for i, s_left, weight in stops:
            lose, win = cq[i], M - cq[i]
            num, t = weight, t0
            Ds, Ws = D[s_left], W[s_left]
            while num:
                if t > 0:
                    def_points.add((a, d, s_left, t))
                again = 0
                if lose:
                    if t > 0 and dfn_may[i] and Ds[t - 1][i] < Ws[t]:
                        again = num * lose
                    else:
                        nxt = (a, d - 1, s_left, t)
                        out[nxt] = out.get(nxt, 0) + num * lose
                if win:
                    nxt = (a - 1, d, s_left, t)
                    out[nxt] = out.get(nxt, 0) + num * win
                num, t = again, t - 1
        result = (out, frozenset(att_points), frozenset(def_points))
        self.rounds[state] = result
        return result

    def round_fractions(self, state: State4) -> dict[State4, Fraction]:
        """The next round's states with their probabilities as fractions."""
        e = self.exponent(*state)
        out, _, _ = self.round(state)
        return {nxt: Fraction(n, self.M ** (e - self.exponent(*nxt))) for nxt, n in out.items()}


_SOLVERS: dict[tuple, _BattleSolver] = {}


def _solver(rules: Rules, cavalry_charge: bool, sa: int, sd: int) -> _BattleSolver:
    """The shared solver for these dice, with room for at least ``sa`` and ``sd`` shields.

    A query with more shields than the solver holds grows it: the battles already solved
    keep their cells and gain the new ones when next asked for.
    """
    cav = rules.cavalry_die if cavalry_charge else None
    key = (rules.red, rules.yellow, rules.green, rules.medium_from, rules.large_from, cav)
    solver = _SOLVERS.get(key)
    if solver is not None:
        solver.grow(sa, sd)
        return solver
    if cav is not None:

        def att_colour(_size: int) -> str:
            return cav

    else:
        att_colour = rules.army_colour
    dice = {c: rules.die(c) for c in ("red", "yellow", "green")}
    solver = _SOLVERS[key] = _BattleSolver(att_colour, rules.army_colour, dice, sa, sd)
    return solver


def clear_cache() -> None:
    """Forget every solved battle table (for timing a cold start)."""
    _SOLVERS.clear()
