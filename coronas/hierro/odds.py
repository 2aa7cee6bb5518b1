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

>>> castle_assault(4, army=3, shields=2).probability      # 1 - (1/2)**3
7/8
>>> battle(1, 1).attacker_wins                            # P(X >= Y) for two d6
7/12
>>> battle(2, 1).attacker_wins                            # 7/12 + 5/12 * 7/12
119/144
>>> battle(1, 1, attacker_shields=1).attacker_wins        # reroll 1-3: 15/36 + 1/2 * 7/12
17/24
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any

from coronas.attrition import AttritionRules, BattleEnd
from coronas.dice import Die, ProbTable, rational, rational_matrix
from coronas.hierro.rules import Rules

if TYPE_CHECKING:
    import sympy

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
    "battle_table",
    "castle_assault",
    "diplomacy",
    "emissary_race",
    "simulate_battle",
]


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return _default_rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a coronas.hierro.rules.Rules, got {rules!r}")
    return rules


@functools.lru_cache(maxsize=1)
def _default_rules() -> Rules:
    return Rules()


def _plural(n: int, noun: str) -> str:
    """``1 reroll``, ``2 rerolls``."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _pct(p: Any) -> str:
    return f"{float(p) * 100:.2f}%"


def _count(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name}: expected a whole number >= {low}, got {value!r}")
    return value


def _ranges(values: Iterable[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3, 5"``."""
    vals = sorted(set(values))
    out: list[str] = []
    i = 0
    while i < len(vals):
        j = i
        while j + 1 < len(vals) and vals[j + 1] == vals[j] + 1:
            j += 1
        out.append(str(vals[i]) if i == j else f"{vals[i]}-{vals[j]}")
        i = j + 1
    return ", ".join(out)


# ---------------------------------------------------------------------------------------------
# Counting actions and turns: an absorbing chain read one step at a time
# ---------------------------------------------------------------------------------------------

Step = Callable[[Hashable], list[tuple[Hashable, Fraction]]]


class StepCount:
    """The exact distribution of the number of steps (actions, turns) until something happens.

    It is the absorption time of a small Markov chain: ``step(state)`` lists
    ``(next_state, probability)``; ``done(state)`` marks success. The first step may follow
    its own rule (``first_step``: a turn with fewer actions left, a Good fortune card). The
    support is infinite when a failure can repeat forever, so the distribution is read
    term by term (``pmf``, ``cdf``, ``table``) and its mean is solved exactly.

    The chain may only loop on a state onto itself (retrying with nothing left to change);
    any other cycle is refused.
    """

    def __init__(
        self,
        start: Hashable,
        step: Step,
        done: Callable[[Hashable], bool],
        unit: str = "action",
        first_step: Step | None = None,
    ):
        self.unit = unit
        self._step_fn = functools.lru_cache(maxsize=None)(step)
        self._done = done
        first = first_step(start) if first_step is not None else self._step_fn(start)
        self._first = [(s, Fraction(p)) for s, p in first if p]
        self._pmf: list[Fraction] = [Fraction(0)]  # P(N = 0) = 0
        self._live: dict[Hashable, Fraction] = {}
        absorbed = Fraction(0)
        for s, p in self._first:
            if done(s):
                absorbed += p
            else:
                self._live[s] = self._live.get(s, Fraction(0)) + p
        self._pmf.append(absorbed)

    def _extend(self, n: int) -> None:
        while len(self._pmf) <= n and self._live:
            nxt: dict[Hashable, Fraction] = {}
            absorbed = Fraction(0)
            for s, m in self._live.items():
                for t, p in self._step_fn(s):
                    if not p:
                        continue
                    if self._done(t):
                        absorbed += m * p
                    else:
                        nxt[t] = nxt.get(t, Fraction(0)) + m * p
            self._pmf.append(absorbed)
            self._live = nxt
        while len(self._pmf) <= n:
            self._pmf.append(Fraction(0))

    def pmf(self, n: int) -> Fraction:
        """P(N = n)."""
        if n < 0:
            return Fraction(0)
        self._extend(n)
        return self._pmf[n]

    def cdf(self, n: int) -> Fraction:
        """P(N <= n): the chance it is done within ``n`` steps."""
        if n < 0:
            return Fraction(0)
        self._extend(n)
        return sum(self._pmf[: n + 1], Fraction(0))

    def sf(self, n: int) -> Fraction:
        """P(N > n)."""
        return 1 - self.cdf(n)

    def _solve_from(
        self, s: Hashable, memo: dict, done_value: Fraction, step_cost: int
    ) -> Fraction:
        """The chain's first-step equation from ``s``, solved for self-loops:
        X(s) = cost + stay X(s) + sum p X(t)  =>  X(s) = (cost + sum p X(t)) / (1 - stay).

        With cost 0 and done worth 1 it gives P(done eventually); with cost 1 and done worth
        0, the expected number of steps.
        """
        if self._done(s):
            return done_value
        if s in memo:
            value = memo[s]
            if value is None:
                raise ValueError("StepCount needs a chain whose only loops are self-loops")
            return value
        memo[s] = None  # in progress
        stay, total = Fraction(0), Fraction(step_cost)
        for t, p in self._step_fn(s):
            if not p:
                continue
            if t == s:
                stay += p
            else:
                total += p * self._solve_from(t, memo, done_value, step_cost)
        memo[s] = Fraction(0) if stay == 1 else total / (1 - stay)
        return memo[s]

    def _from_start(self, done_value: Fraction, step_cost: int) -> Fraction:
        """:meth:`_solve_from` over the first step's outcomes."""
        memo: dict = {}
        return sum(
            (p * self._solve_from(s, memo, done_value, step_cost) for s, p in self._first),
            Fraction(0),
        )

    @functools.cached_property
    def _eventually(self) -> Fraction:
        return self._from_start(Fraction(1), 0)

    @functools.cached_property
    def _mean(self) -> Fraction | None:
        return 1 + self._from_start(Fraction(0), 1) if self._eventually == 1 else None

    @property
    def eventually(self) -> sympy.Rational | Fraction:
        """P(it happens at all): below 1 only if some course makes success impossible."""
        return rational(self._eventually)

    @property
    def never(self) -> sympy.Rational | Fraction:
        """P(it never happens)."""
        return rational(1 - self._eventually)

    @property
    def mean(self) -> sympy.Rational | Fraction | None:
        """The exact expected number of steps (None when success may never come)."""
        return None if self._mean is None else rational(self._mean)

    def table(self, n: int = 8) -> ProbTable:
        """P(N = k) and P(N <= k) for k = 1..n, and the tail P(N > n)."""
        rows: list[tuple] = [(k, self.pmf(k), self.cdf(k)) for k in range(1, n + 1)]
        rows.append((f"more than {n}", self.sf(n), Fraction(1)))
        return ProbTable(rows, header=(f"{self.unit}s", "P(exactly)", "P(at most)"))

    def __repr__(self) -> str:
        mean = f"happens with P = {self.eventually}" if self.mean is None else f"mean {self.mean}"
        head = ", ".join(f"{k}: {self.pmf(k)}" for k in range(1, 5))
        return f"StepCount({self.unit}s: {mean}; P(N=k) {head}, ...)"

    def _repr_html_(self) -> str:
        mean = (
            f"none (it happens with probability {self.eventually})"
            if self.mean is None
            else f"{self.mean} ({float(self.mean):.3f})"
        )
        return f"<p>{escape(self.unit)}s needed, mean {mean}</p>" + self.table()._repr_html_()


def _action_outcomes(p: Fraction, shields: int) -> list[tuple[bool, int, Fraction]]:
    """One roll-for-a-target action with up to ``shields`` rerolls spent while failing.

    Returns ``(success, shields_spent, probability)``: success on roll i (i = 1..s+1) has
    probability q**(i-1) p and spends i-1 shields; failing every roll spends all of them.
    A target the die cannot reach is not worth a shield.
    """
    if p == 0:
        return [(False, 0, Fraction(1))]
    q = 1 - p
    out = [(True, i, q**i * p) for i in range(shields + 1) if q**i * p]
    if q:
        out.append((False, shields, q ** (shields + 1)))
    return out


# ---------------------------------------------------------------------------------------------
# Castle assaults and diplomacy
# ---------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class RollOdds:
    """The odds of rolling for a target: attacking a castle or seeking a castle's support.

    ``probability`` is the chance one action succeeds, with up to ``shields`` rerolls spent
    while failing; ``expected_shields`` is what that action spends on average. ``actions``
    and ``turns`` are the distributions of the number of actions and turns (``StepCount``)
    until the castle is taken, spending shields while they last; a castle with troops inside
    needs two successes (the first clears the troops).
    """

    kind: str
    target: int
    colour: str
    die: Die
    shields: int
    good_fortune: bool
    successes_needed: int
    actions: StepCount
    turns: StepCount
    _shields_until_taken: Fraction | None

    @property
    def single_roll(self) -> sympy.Rational | Fraction:
        """The chance of one roll, without any reroll."""
        return rational(self.die.p_ge(self.target))

    @property
    def probability(self) -> sympy.Rational | Fraction:
        """The chance one action succeeds, rerolling while failing: 1 - q**(shields + 1)."""
        return rational(self.die.p_at_least(self.target, self.shields))

    @property
    def expected_shields(self) -> sympy.Rational | Fraction:
        """The shields one action spends on average."""
        one = _action_outcomes(self.die.p_ge(self.target), self.shields)
        return rational(sum((k * p for _, k, p in one), Fraction(0)))

    @property
    def expected_shields_until_taken(self) -> sympy.Rational | Fraction | None:
        """The shields spent on average until the castle is taken (None if it may never be)."""
        spent = self._shields_until_taken
        return None if spent is None else rational(spent)

    def summary(self) -> list[tuple[str, str]]:
        rows = [
            ("die", f"{self.colour} ({', '.join(str(f) for f in self.die)})"),
            ("one roll succeeds", f"{self.single_roll}  ({_pct(self.single_roll)})"),
            (
                f"one action succeeds (up to {_plural(self.shields, 'reroll')})",
                f"{self.probability}  ({_pct(self.probability)})",
            ),
            ("shields spent in that action (mean)", str(self.expected_shields)),
        ]
        need = "2 successes: troops inside" if self.successes_needed == 2 else "1 success"
        for label, count in (("actions", self.actions), ("turns", self.turns)):
            mean = (
                f"never certain: P(ever) = {count.eventually}"
                if count.mean is None
                else f"mean {count.mean} ({float(count.mean):.3f})"
            )
            rows.append((f"{label} to take it ({need})", mean))
        if self.expected_shields_until_taken is not None:
            rows.append(
                ("shields spent until taken (mean)", str(self.expected_shields_until_taken))
            )
        return rows

    def __repr__(self) -> str:
        gf = ", Good fortune" if self.good_fortune else ""
        head = f"{self.kind}: {self.target}+ with the {self.colour} die{gf}"
        return head + "\n" + "\n".join(f"  {k}: {v}" for k, v in self.summary())

    def _repr_html_(self) -> str:
        gf = ", Good fortune" if self.good_fortune else ""
        rows = "".join(
            f"<tr><td>{escape(k)}</td><td><b>{escape(v)}</b></td></tr>" for k, v in self.summary()
        )
        return (
            f"<p><b>{escape(self.kind)}</b>: {self.target}+ with the {self.colour} die{gf}</p>"
            f"<table>{rows}</table><p>Turns needed:</p>" + self.turns.table(6)._repr_html_()
        )


def _roll_odds(
    kind: str,
    target: int,
    colour: str,
    rules: Rules,
    shields: int,
    good_fortune: bool,
    successes: int,
    actions_left: int | None,
) -> RollOdds:
    if isinstance(target, bool) or not isinstance(target, int):
        raise ValueError(f"target: expected the whole number on the banner, got {target!r}")
    _count("shields", shields, 0)
    per_turn = rules.actions_per_turn
    first_turn = per_turn if actions_left is None else _count("actions_left", actions_left, 1)
    if first_turn > per_turn:
        raise ValueError(f"actions_left: a turn has {per_turn} actions, got {actions_left}")
    base_die = rules.die(colour)
    gf_colour = rules.good_fortune_die
    die = rules.die(gf_colour) if good_fortune else base_die
    p_base = base_die.p_ge(target)
    p_first = die.p_ge(target)

    # A campaign state: (successes still needed, shields left, Good fortune still to play).
    def action(state: Hashable) -> list[tuple[Hashable, Fraction]]:
        need, left, gf = state  # type: ignore[misc]
        p = p_first if gf else p_base
        return [((need - ok, left - k, False), pr) for ok, k, pr in _action_outcomes(p, left)]

    def turn(state: Hashable, n: int) -> list[tuple[Hashable, Fraction]]:
        dist = {state: Fraction(1)}
        for _ in range(n):
            nxt: dict[Hashable, Fraction] = {}
            for s, m in dist.items():
                for t, p in [(s, Fraction(1))] if s[0] == 0 else action(s):
                    nxt[t] = nxt.get(t, Fraction(0)) + m * p
            dist = nxt
        return list(dist.items())

    def done(state: Hashable) -> bool:
        return state[0] == 0  # type: ignore[index]

    start = (successes, shields, good_fortune)
    actions = StepCount(start, action, done, unit="action")
    turns = StepCount(
        start,
        lambda s: turn(s, per_turn),
        done,
        unit="turn",
        first_step=lambda s: turn(s, first_turn),
    )
    return RollOdds(
        kind=kind,
        target=target,
        colour=gf_colour if good_fortune else colour,
        die=die,
        shields=shields,
        good_fortune=good_fortune,
        successes_needed=successes,
        actions=actions,
        turns=turns,
        _shields_until_taken=_shields_until_done(start, action, done),
    )


def _shields_until_done(
    start: Hashable, step: Step, done: Callable[[Hashable], bool]
) -> Fraction | None:
    """Expected shields spent before ``done``: start shields minus expected shields left."""
    memo: dict[Hashable, Fraction | None] = {}

    def left(s: Hashable) -> Fraction | None:
        if done(s):
            return Fraction(s[1])  # type: ignore[index]
        if s in memo:
            return memo[s]
        stay, total = Fraction(0), Fraction(0)
        for t, p in step(s):
            if t == s:
                stay += p
                continue
            sub = left(t)
            if sub is None:
                memo[s] = None
                return None
            total += p * sub
        memo[s] = None if stay == 1 else total / (1 - stay)
        return memo[s]

    kept = left(start)
    return None if kept is None else start[1] - kept  # type: ignore[index]


def castle_assault(
    target: int,
    army: int = 1,
    shields: int = 0,
    rules: Rules | None = None,
    *,
    troops_inside: bool = False,
    good_fortune: bool = False,
    actions_left: int | None = None,
) -> RollOdds:
    """The odds of attacking a castle by military means.

    ``target`` is the number on the castle's left banner; ``army`` the pawns of the attacking
    army (red die for 1, yellow for 2, green for 3 or more); ``shields`` the experience
    shields the player is willing to spend on rerolls while failing. A castle of another
    player with its troops still inside (``troops_inside``) needs two successful actions:
    the first removes the troops. ``good_fortune``: the first action is the card Good
    fortune, which rolls the green die instead (its rerolls too). ``actions_left``: actions
    left in the current turn (default: a whole turn).

    >>> odds = castle_assault(5, army=2, shields=1)   # 1 - (2/3)**2
    >>> odds.probability, odds.expected_shields
    (5/9, 2/3)
    >>> castle_assault(4, troops_inside=True).actions.mean   # 2 successes at p = 1/2
    4
    """
    rules = _rules(rules)
    _count("army", army, 1)
    return _roll_odds(
        "attack a castle",
        target,
        rules.army_colour(army),
        rules,
        shields,
        good_fortune,
        2 if troops_inside else 1,
        actions_left,
    )


def diplomacy(
    target: int,
    legitimacy: int = 2,
    shields: int = 0,
    rules: Rules | None = None,
    *,
    good_fortune: bool = False,
    actions_left: int | None = None,
) -> RollOdds:
    """The odds of a diplomatic roll for a castle's support.

    ``target`` is the number on the castle's right banner; the die is the colour of the
    player's legitimacy band (red, yellow, green). The actions and turns count diplomatic
    rolls only, from the turn after the emissary was placed.

    >>> diplomacy(2).probability                # the rulebook's example: 2+ on the red die
    5/6
    """
    rules = _rules(rules)
    _count("legitimacy", legitimacy, 0)
    return _roll_odds(
        "diplomatic roll",
        target,
        rules.band(legitimacy),
        rules,
        shields,
        good_fortune,
        1,
        actions_left,
    )


@dataclasses.dataclass(frozen=True)
class RaceResult:
    """Two players' emissaries in one castle, rolling in turn: who obtains its support."""

    target: int
    legitimacy: tuple[int, int]
    shields: tuple[int, int]
    attempts_per_turn: int
    _wins: tuple[Fraction, Fraction]
    _never: Fraction
    _expected_turns: Fraction | None

    @property
    def wins(self) -> tuple[sympy.Rational | Fraction, sympy.Rational | Fraction]:
        """P(the first player obtains the support), P(the second does)."""
        return rational(self._wins[0]), rational(self._wins[1])

    @property
    def first_wins(self) -> sympy.Rational | Fraction:
        return rational(self._wins[0])

    @property
    def second_wins(self) -> sympy.Rational | Fraction:
        return rational(self._wins[1])

    @property
    def never(self) -> sympy.Rational | Fraction:
        """P(nobody ever obtains it): both dice fail every time."""
        return rational(self._never)

    @property
    def expected_turns(self) -> sympy.Rational | Fraction | None:
        """The expected number of turns until somebody obtains it (None if nobody may)."""
        return None if self._expected_turns is None else rational(self._expected_turns)

    def __repr__(self) -> str:
        w1, w2 = self.wins
        return (
            f"emissary race for {self.target}+: first to roll wins {w1} ({_pct(w1)}), "
            f"second wins {w2} ({_pct(w2)}), expected turns {self.expected_turns}"
        )

    def _repr_html_(self) -> str:
        rows: list[tuple[str, Fraction]] = [
            (
                f"{who} player (legitimacy {level}, {_plural(shields, 'shield')})",
                p,
            )
            for who, level, shields, p in zip(
                ("first", "second"), self.legitimacy, self.shields, self._wins, strict=True
            )
        ]
        if self._never:
            rows.append(("nobody ever", self._never))
        return (
            f"<p>Emissary race for a castle needing <b>{self.target}+</b></p>"
            + ProbTable(rows, header=("obtains the support", "P"))._repr_html_()
        )


def emissary_race(
    target: int,
    legitimacy: tuple[int, int] = (2, 2),
    shields: tuple[int, int] = (0, 0),
    rules: Rules | None = None,
    *,
    attempts_per_turn: int | None = None,
) -> RaceResult:
    """Two emissaries in one castle; the players take turns rolling for its support.

    The first player of the pairs rolls first. Each turn a player makes up to
    ``attempts_per_turn`` diplomatic rolls (default: all the actions of a turn), spending
    shields on rerolls while failing; the first success takes the castle. Spending shields
    as early as possible is optimal here: a reroll now comes before the rival's next chance.

    A failed turn uses ``attempts + shields`` failed rolls and leaves no shields, so with
    f_i = q_i**(attempts + s_i) for each player's first turn and g_i = q_i**attempts after:
    P(first wins) = (1 - f1) + f1 f2 (1 - g1) / (1 - g1 g2).

    >>> emissary_race(2, attempts_per_turn=1).wins    # p = 5/6: p / (1 - q**2) = 6/7
    (6/7, 1/7)
    """
    rules = _rules(rules)
    attempts = rules.actions_per_turn if attempts_per_turn is None else attempts_per_turn
    _count("attempts_per_turn", attempts, 1)
    for name, pair in (("legitimacy", legitimacy), ("shields", shields)):
        if len(tuple(pair)) != 2:
            raise ValueError(f"{name}: expected a pair (first player, second player)")
        for v in pair:
            _count(name, v, 0)
    q1, q2 = (1 - rules.diplomacy_die(lv).p_ge(target) for lv in legitimacy)
    f1, f2 = q1 ** (attempts + shields[0]), q2 ** (attempts + shields[1])
    g1, g2 = q1**attempts, q2**attempts
    if g1 * g2 == 1:
        w1, w2, never, turns = 1 - f1, f1 * (1 - f2), f1 * f2, None
    else:
        w1 = (1 - f1) + f1 * f2 * (1 - g1) / (1 - g1 * g2)
        w2 = f1 * (1 - f2) + f1 * f2 * g1 * (1 - g2) / (1 - g1 * g2)
        never = Fraction(0)
        # E0 = 1 + g1 (1 + g2 E0): the later rounds; the first two turns add 1 + f1.
        e0 = (1 + g1) / (1 - g1 * g2)
        turns = 1 + f1 + f1 * f2 * e0
    return RaceResult(
        target=target,
        legitimacy=tuple(legitimacy),  # type: ignore[arg-type]
        shields=tuple(shields),  # type: ignore[arg-type]
        attempts_per_turn=attempts,
        _wins=(w1, w2),
        _never=never,
        _expected_turns=turns,
    )


# ---------------------------------------------------------------------------------------------
# Battles
# ---------------------------------------------------------------------------------------------


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


State4 = tuple[int, int, int, int]


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
        att_die: Callable[[int], Die],
        def_die: Callable[[int], Die],
        dice: Iterable[Die],
        max_sa: int,
        max_sd: int,
    ):
        self.att_die = att_die
        self.def_die = def_die
        self.M = math.lcm(*(p.denominator for die in dice for _, p in die.items()))
        self.max_sa = max_sa
        self.max_sd = max_sd
        self.V: dict[tuple[int, int], list[list[int]]] = {}
        self.D: dict[tuple[int, int], list[list[list[int]]]] = {}
        self.faces: dict[tuple[int, int], tuple[tuple[Any, ...], list[int], list[int]]] = {}
        self.rounds: dict[State4, tuple[dict[State4, int], frozenset, frozenset]] = {}
        self.may: dict[tuple[int, int], tuple[list[bool], list[bool]]] = {}

    @staticmethod
    def exponent(a: int, d: int, s: int, t: int) -> int:
        """V(a, d, s, t) is an integer over M**exponent."""
        return 2 * (a + d - 1) + s + t

    def _terminal(self, a: int, d: int) -> list[list[int]]:
        if a == 0:
            return [[0] * (self.max_sd + 1) for _ in range(self.max_sa + 1)]
        return [
            [self.M ** self.exponent(a, 0, s, t) for t in range(self.max_sd + 1)]
            for s in range(self.max_sa + 1)
        ]

    def ints(self, a: int, d: int) -> list[list[int]]:
        """The numerators of V(a, d, s, t) for every s, t."""
        if a == 0 or d == 0:
            key = (a, d)
            if key not in self.V:
                self.V[key] = self._terminal(a, d)
            return self.V[key]
        return self.V[(a, d)]

    def value(self, a: int, d: int, s: int, t: int) -> Fraction:
        """P(attacker wins) from the start of a round at (a, d) with s and t shields."""
        return Fraction(self.ints(a, d)[s][t], self.M ** self.exponent(a, d, s, t))

    def ensure(self, a: int, d: int) -> None:
        for i in range(1, a + 1):
            for j in range(1, d + 1):
                if (i, j) not in self.V:
                    self._solve(i, j)

    def _faces(self, a: int, d: int) -> tuple[tuple[Any, ...], list[int], list[int]]:
        """The attacker's face values, their counts out of M, and P(Y <= x) out of M."""
        key = (a, d)
        if key not in self.faces:
            x_die, y_die = self.att_die(a), self.def_die(d)
            xs = x_die.outcomes()
            cx = [int(x_die[x] * self.M) for x in xs]
            cq = [int(y_die.prob(lambda y, x=x: y <= x) * self.M) for x in xs]  # ties: attacker
            self.faces[key] = (xs, cx, cq)
        return self.faces[key]

    def _solve(self, a: int, d: int) -> None:
        _, cx, cq = self._faces(a, d)
        M = self.M
        cr = [M - q for q in cq]
        att_may, dfn_may = self._may(a, d)
        W, L = self.ints(a, d - 1), self.ints(a - 1, d)
        n = len(cx)
        D = []
        for s in range(self.max_sa + 1):
            Ws, Ls = W[s], L[s]
            rows = []
            prev: list[int] | None = None
            for t in range(self.max_sd + 1):
                win, lose = Ws[t], Ls[t]
                if prev is None:
                    row = [cq[i] * win + cr[i] * lose for i in range(n)]
                else:
                    # Only a losing die (y <= x) that some face could turn round is rerolled.
                    row = []
                    for i in range(n):
                        r = prev[i]
                        keep = win if (win < r or not dfn_may[i]) else r
                        row.append(cq[i] * keep + cr[i] * lose)
                rows.append(row)
                prev = row
            D.append(rows)
        V = [[0] * (self.max_sd + 1) for _ in range(self.max_sa + 1)]
        for t in range(self.max_sd + 1):
            prev_v: int | None = None
            for s in range(self.max_sa + 1):
                row = D[s][t]
                if prev_v is None:
                    v = sum(c * r for c, r in zip(cx, row, strict=True))
                else:
                    v = sum(
                        c * (prev_v if (may and prev_v > r) else r)
                        for c, r, may in zip(cx, row, att_may, strict=True)
                    )
                V[s][t] = v
                prev_v = v
        self.V[(a, d)] = V
        self.D[(a, d)] = D

    # -- the optimal decisions -------------------------------------------------------------
    def _may(self, a: int, d: int) -> tuple[list[bool], list[bool]]:
        """Which rerolls the rules offer (the engine's ruling: only when they can help): the
        attacker below its die's highest face; the defender losing the roll (y <= x) against
        an x some face of its die beats."""
        key = (a, d)
        if key not in self.may:
            _, cx, cq = self._faces(a, d)
            self.may[key] = ([i < len(cx) - 1 for i in range(len(cx))], [q < self.M for q in cq])
        return self.may[key]

    def attacker_rerolls(self, a: int, d: int, s: int, t: int, i: int) -> bool:
        """After rolling its i-th face value with ``s`` shields, should the attacker reroll?"""
        return (
            s > 0 and self._may(a, d)[0][i] and self.V[(a, d)][s - 1][t] > self.D[(a, d)][s][t][i]
        )

    def defender_rerolls(self, a: int, d: int, s: int, t: int, i: int, losing: bool) -> bool:
        """With ``t`` shields, facing the attacker's i-th face value, having rolled a losing
        (``y <= x``) or winning die: should the defender reroll?"""
        if t == 0 or not losing or not self._may(a, d)[1][i]:
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
        _, cx, cq = self._faces(a, d)
        M = self.M
        # The attacker: ``num / M**k`` is the chance of being about to roll with s shields
        # after k rolls; it stops on (face i, shields left) after k + 1 rolls.
        stops: list[tuple[int, int, int]] = []
        att_points: set[State4] = set()
        num, s = 1, s0
        while num:
            if s > 0:
                att_points.add((a, d, s, t0))
            again = 0
            for i, c in enumerate(cx):
                if self.attacker_rerolls(a, d, s, t0, i):
                    again += num * c
                else:
                    stops.append((i, s, num * c))
            num, s = again, s - 1
        # The defender, knowing the attacker's face: only losing (y <= x) or not matters.
        out: dict[State4, int] = {}
        def_points: set[State4] = set()
        for i, s_left, weight in stops:
            lose, win = cq[i], M - cq[i]
            num, t = weight, t0
            while num:
                if t > 0:
                    def_points.add((a, d, s_left, t))
                again = 0
                for losing, c in ((True, lose), (False, win)):
                    if not c:
                        continue
                    if self.defender_rerolls(a, d, s_left, t, i, losing):
                        again += num * c
                    else:
                        nxt = (a, d - 1, s_left, t) if losing else (a - 1, d, s_left, t)
                        out[nxt] = out.get(nxt, 0) + num * c
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

    A query with more shields than the cached solver holds replaces it by a larger one.
    """
    cav = rules.cavalry_die if cavalry_charge else None
    key = (rules.red, rules.yellow, rules.green, rules.medium_from, rules.large_from, cav)
    solver = _SOLVERS.get(key)
    if solver is None or solver.max_sa < sa or solver.max_sd < sd:
        cap_a = max(sa, solver.max_sa if solver else 0)
        cap_d = max(sd, solver.max_sd if solver else 0)
        if cav is not None:
            cav_die = rules.die(cav)

            def att_die(_size: int) -> Die:
                return cav_die
        else:
            att_die = rules.army_die
        dice = [rules.die(c) for c in ("red", "yellow", "green")]
        solver = _SOLVERS[key] = _BattleSolver(att_die, rules.army_die, dice, cap_a, cap_d)
    return solver


def clear_cache() -> None:
    """Forget every solved battle table (for timing a cold start)."""
    _SOLVERS.clear()


def _describe_attacker(faces: Sequence[Any], rerolled: Sequence[bool]) -> str:
    chosen = [f for f, r in zip(faces, rerolled, strict=True) if r]
    return f"reroll {_ranges(chosen)}" if chosen else "never reroll"


def _describe_defender(faces: Sequence[Any], decisions: Sequence[tuple[bool, bool]]) -> str:
    """``decisions[i]``: (reroll when losing, reroll when winning) after the attacker's face i."""
    words = {
        (True, False): "reroll a losing die",
        (False, False): "never reroll",
        (True, True): "reroll anything",
        (False, True): "reroll a winning die",
    }
    groups: list[tuple[str, list[Any]]] = []
    for face, dec in zip(faces, decisions, strict=True):
        if groups and groups[-1][0] == words[dec]:
            groups[-1][1].append(face)
        else:
            groups.append((words[dec], [face]))
    if len(groups) == 1:
        return groups[0][0]
    return "; ".join(f"after {_ranges(fs)}: {w}" for w, fs in groups)


class BattlePolicy:
    """When each side should spend an experience shield to reroll, played optimally.

    ``attacker_rerolls(a, d, sa, sd)`` gives the attacker's faces worth rerolling with ``a``
    pawns against ``d``, holding ``sa`` shields against ``sd``. ``defender_rerolls(a, d, sa,
    sd, x)`` gives the defender's faces worth rerolling when the attacker stopped on ``x``
    keeping ``sa`` shields and the defender holds ``sd``. When rerolling and keeping are
    worth exactly the same, the shield is kept. ``table()`` lists the situations that can
    arise in this battle.
    """

    def __init__(
        self,
        solver: _BattleSolver,
        start: State4,
        attacker_points: set[State4],
        defender_points: set[State4],
    ):
        self._solver = solver
        self.start = start
        self._attacker_points = attacker_points
        self._defender_points = defender_points

    def _index(self, a: int, d: int, x: Any) -> int:
        xs = self._solver._faces(a, d)[0]
        if x not in xs:
            raise ValueError(f"the attacker's die cannot show {x!r} here; its faces are {xs}")
        return xs.index(x)

    def _check(self, a: int, d: int, sa: int, sd: int) -> None:
        _count("attacker", a, 1)
        _count("defender", d, 1)
        _count("attacker_shields", sa, 0)
        _count("defender_shields", sd, 0)
        if sa > self._solver.max_sa or sd > self._solver.max_sd:
            raise ValueError("more shields than this battle was solved for")
        self._solver.ensure(a, d)

    def attacker_rerolls(self, a: int, d: int, sa: int, sd: int) -> tuple[Any, ...]:
        """The attacker's die faces it should reroll (empty: keep whatever it rolls)."""
        self._check(a, d, sa, sd)
        xs = self._solver._faces(a, d)[0]
        return tuple(x for i, x in enumerate(xs) if self._solver.attacker_rerolls(a, d, sa, sd, i))

    def attacker_should_reroll(self, a: int, d: int, sa: int, sd: int, x: Any) -> bool:
        """Should the attacker, having rolled ``x``, spend a shield to roll again?"""
        self._check(a, d, sa, sd)
        return self._solver.attacker_rerolls(a, d, sa, sd, self._index(a, d, x))

    def defender_should_reroll(self, a: int, d: int, sa: int, sd: int, x: Any, y: Any) -> bool:
        """Should the defender, having rolled ``y`` against the attacker's ``x``, reroll?"""
        self._check(a, d, sa, sd)
        return self._solver.defender_rerolls(a, d, sa, sd, self._index(a, d, x), y <= x)

    def defender_rerolls(self, a: int, d: int, sa: int, sd: int, x: Any) -> tuple[Any, ...]:
        """The defender's die faces it should reroll once the attacker stopped on ``x``."""
        self._check(a, d, sa, sd)
        i = self._index(a, d, x)
        ys = self._solver.def_die(d).outcomes()
        return tuple(y for y in ys if self._solver.defender_rerolls(a, d, sa, sd, i, y <= x))

    def rows(self) -> list[tuple[str, int, int, str, str]]:
        """``(battle, attacker shields, defender shields, attacker's rule, defender's rule)``
        for every situation with a shield to spend that can arise in this battle."""
        s = self._solver
        keys = sorted(
            self._attacker_points | self._defender_points,
            key=lambda k: (-(k[0] + k[1]), -k[0], -k[2], -k[3]),
        )
        out = []
        for a, d, sa, sd in keys:
            xs = s._faces(a, d)[0]
            att = "-"
            if (a, d, sa, sd) in self._attacker_points:
                att = _describe_attacker(
                    xs, [s.attacker_rerolls(a, d, sa, sd, i) for i in range(len(xs))]
                )
            dfn = "-"
            if (a, d, sa, sd) in self._defender_points:
                dfn = _describe_defender(
                    xs,
                    [
                        (
                            s.defender_rerolls(a, d, sa, sd, i, True),
                            s.defender_rerolls(a, d, sa, sd, i, False),
                        )
                        for i in range(len(xs))
                    ],
                )
            out.append((f"{a} v {d}", sa, sd, att, dfn))
        return out

    def table(self) -> ProbTable:
        """The policy as a table (rendered in Jupyter)."""
        return ProbTable(
            self.rows(),
            header=("pawns", "attacker shields", "defender shields", "attacker", "defender"),
        )

    def __repr__(self) -> str:
        rows = self.rows()
        if not rows:
            return "BattlePolicy(no shields to spend)"
        return str(self.table())

    def _repr_html_(self) -> str:
        if not self.rows():
            return "<p>No shields to spend: nothing to decide.</p>"
        return self.table()._repr_html_()


@dataclasses.dataclass(frozen=True)
class BattleResult(BattleEnd):
    """A battle fought to the end, shields played optimally by both sides.

    ``outcomes`` is the exact distribution of the final ``(attacker pawns, defender pawns,
    attacker shields spent, defender shields spent)``; the other distributions are views of
    it (``attacker_wins``, ``survivors``, ``table()`` ... as in
    :class:`~coronas.attrition.BattleEnd`). ``policy`` says when each side should reroll.
    """

    attacker: int
    defender: int
    attacker_shields: int
    defender_shields: int
    cavalry_charge: bool
    cavalry_vp: int
    outcomes: Die
    policy: BattlePolicy

    @property
    def survivors(self) -> Die:
        """The final ``(attacker pawns, defender pawns)``; one of them is 0."""
        return self.outcomes.map(lambda e: (e[0], e[1]))

    @property
    def shields_spent(self) -> Die:
        """The shields spent ``(by the attacker, by the defender)``."""
        return self.outcomes.map(lambda e: (e[2], e[3]))

    @property
    def attacker_shields_spent(self) -> Die:
        return self.outcomes.map(lambda e: e[2])

    @property
    def defender_shields_spent(self) -> Die:
        return self.outcomes.map(lambda e: e[3])

    @property
    def expected_rounds(self) -> sympy.Rational | Fraction:
        """Each roll-off costs exactly one pawn, so rounds = pawns lost in all."""
        total = self.attacker + self.defender
        return rational(self.outcomes.map(lambda e: total - e[0] - e[1]).mean())

    @property
    def expected_vp(self) -> sympy.Rational | Fraction:
        """Victory points the attacker expects from Cavalry charge (0 without the card)."""
        return self.attacker_wins * (self.cavalry_vp if self.cavalry_charge else 0)

    @property
    def title(self) -> str:
        """One line naming the battle: sizes, shields and card."""
        card = ", Cavalry charge" if self.cavalry_charge else ""
        attack = "attacks" if self.attacker == 1 else "attack"
        return (
            f"{_plural(self.attacker, 'pawn')} ({_plural(self.attacker_shields, 'shield')}) "
            f"{attack} {_plural(self.defender, 'pawn')} "
            f"({_plural(self.defender_shields, 'shield')}){card}"
        )

    def __repr__(self) -> str:
        p = self.attacker_wins
        return (
            f"{self.title}: attacker wins {p} ({_pct(p)}); expected shields spent "
            f"{self.attacker_shields_spent.mean()} / {self.defender_shields_spent.mean()}"
        )

    def _repr_html_(self) -> str:
        p = self.attacker_wins
        head = (
            f"<p><b>{escape(self.title)}</b>: attacker wins <b>{p}</b> ({_pct(p)}). "
            f"Shields spent on average: attacker {self.attacker_shields_spent.mean()}, "
            f"defender {self.defender_shields_spent.mean()}.</p>"
        )
        policy = ""
        if self.policy.rows():
            policy = "<p>When to reroll:</p>" + self.policy._repr_html_()
        return head + self.table()._repr_html_() + policy


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

    >>> b = battle(1, 1, defender_shields=1)        # the defender rerolls any losing die
    >>> b.attacker_wins                              # sum over x of (x/6)**2 / 6
    91/216
    >>> b.policy.defender_rerolls(1, 1, 0, 1, x=3)
    (1, 2, 3)
    """
    rules = _rules(rules)
    _count("attacker", attacker, 1)
    _count("defender", defender, 1)
    _count("attacker_shields", attacker_shields, 0)
    _count("defender_shields", defender_shields, 0)
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
    _count("max_attacker", max_attacker, 1)
    _count("max_defender", max_defender, 1)
    _count("attacker_shields", attacker_shields, 0)
    _count("defender_shields", defender_shields, 0)
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
    _count("attacker", attacker, 1)
    _count("defender", defender, 1)
    _count("attacker_shields", attacker_shields, 0)
    _count("defender_shields", defender_shields, 0)
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


@dataclasses.dataclass(frozen=True)
class MonteCarloEstimate:
    """An estimate from seeded random runs: ``successes`` out of ``n``."""

    successes: int
    n: int
    seed: Any

    @property
    def p(self) -> Fraction:
        return Fraction(self.successes, self.n)

    @property
    def stderr(self) -> float:
        """The standard error sqrt(p (1 - p) / n)."""
        p = self.successes / self.n
        return (p * (1 - p) / self.n) ** 0.5

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval."""
        from coronas.simulate import wilson_interval

        return wilson_interval(self.successes, self.n)

    def __repr__(self) -> str:
        lo, hi = self.interval
        return (
            f"MonteCarloEstimate({self.successes}/{self.n} = {self.successes / self.n:.4f}, "
            f"95% interval {lo:.4f}-{hi:.4f})"
        )


def simulate_battle(
    attacker: int,
    defender: int,
    attacker_shields: int = 0,
    defender_shields: int = 0,
    n: int = 10_000,
    seed: int | None = None,
    rules: Rules | None = None,
    cavalry_charge: bool = False,
) -> MonteCarloEstimate:
    """Roll ``n`` battles with a seeded RNG, both sides following the optimal policy, and
    count the attacker's wins: the Monte Carlo counterpart of :func:`battle`."""
    rules = _rules(rules)
    _count("n", n, 1)
    result = battle(attacker, defender, attacker_shields, defender_shields, rules, cavalry_charge)
    solver = result.policy._solver
    rng = random.Random(seed)
    # Decisions are looked up in plain dicts of booleans: comparing the solver's large
    # fractions at every roll would make the simulation slow.
    faces: dict[tuple[int, int], tuple[list[Any], dict[Any, int], list[Any]]] = {}
    att_rule: dict[State4, tuple[bool, ...]] = {}
    def_rule: dict[tuple[int, int, int, int, int, bool], bool] = {}
    wins = 0
    for _ in range(n):
        a, d, sa, sd = attacker, defender, attacker_shields, defender_shields
        while a and d:
            if (a, d) not in faces:
                x_die = solver.att_die(a)
                faces[(a, d)] = (
                    _face_list(x_die),
                    _face_index(x_die),
                    _face_list(solver.def_die(d)),
                )
            xs, index, ys = faces[(a, d)]
            x = rng.choice(xs)
            while sa:
                key = (a, d, sa, sd)
                if key not in att_rule:
                    att_rule[key] = tuple(
                        solver.attacker_rerolls(a, d, sa, sd, i) for i in range(len(index))
                    )
                if not att_rule[key][index[x]]:
                    break
                sa -= 1
                x = rng.choice(xs)
            y = rng.choice(ys)
            while sd:
                dkey = (a, d, sa, sd, index[x], y <= x)
                if dkey not in def_rule:
                    def_rule[dkey] = solver.defender_rerolls(*dkey)
                if not def_rule[dkey]:
                    break
                sd -= 1
                y = rng.choice(ys)
            if x >= y:
                d -= 1
            else:
                a -= 1
        wins += d == 0
    return MonteCarloEstimate(wins, n, seed)


@functools.lru_cache(maxsize=64)
def _face_index(die: Die) -> dict[Any, int]:
    """Face value -> its position among the die's distinct values (the solver's index)."""
    return {x: i for i, x in enumerate(die.outcomes())}


@functools.lru_cache(maxsize=64)
def _face_list(die: Die) -> list[Any]:
    """The die as a list of equally likely faces (for ``rng.choice``)."""
    import math

    den = math.lcm(*(p.denominator for _, p in die.items()))
    return [o for o, p in die.items() for _ in range(int(p * den))]
