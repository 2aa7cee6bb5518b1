"""Castle assaults and diplomacy: rolling a die for a target, with rerolls.

* :func:`castle_assault`: one "attack a castle" action, with experience shields spent to
  reroll while failing; and how many actions and turns it takes to take the castle.
* :func:`diplomacy`: the same for an emissary's roll (die by legitimacy band);
  :func:`emissary_race`: two players' emissaries in one castle, who gets it first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING

from coronas.dice import Die, ProbTable, rational
from coronas.formatting import percent, plural, rerolls_text
from coronas.hierro.odds._common import MAX_COUNT, MAX_SHIELDS, _count, _rules
from coronas.hierro.odds.steps import StepCount, _action_outcomes, _shields_until_done
from coronas.hierro.rules import Rules

if TYPE_CHECKING:
    import sympy

__all__ = ["RaceResult", "RollOdds", "castle_assault", "diplomacy", "emissary_race"]

MAX_ATTEMPTS = 100
"""The most diplomatic rolls a turn of :func:`emissary_race` may hold."""


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
            ("one roll succeeds", f"{self.single_roll}  ({percent(self.single_roll)})"),
            (
                f"one action succeeds ({rerolls_text(self.shields)})",
                f"{self.probability}  ({percent(self.probability)})",
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
    _count("target", target, -MAX_COUNT)
    _count("shields", shields, 0, MAX_SHIELDS)
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

    Limits: ``target`` -1000 to 1000, ``army`` 1 to 1000, ``shields`` 0 to 100; beyond them
    a ValueError (:func:`diplomacy` likewise, with ``legitimacy`` 0 to 1000).

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
            f"emissary race for {self.target}+: first to roll wins {w1} ({percent(w1)}), "
            f"second wins {w2} ({percent(w2)}), expected turns {self.expected_turns}"
        )

    def _repr_html_(self) -> str:
        rows: list[tuple[str, Fraction]] = [
            (
                f"{who} player (legitimacy {level}, {plural(shields, 'shield')})",
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

    Limits: ``attempts_per_turn`` 1 to 100, shields 0 to 100 and legitimacy 0 to 1000 each,
    ``target`` -1000 to 1000; beyond them a ValueError.

    >>> emissary_race(2, attempts_per_turn=1).wins    # p = 5/6: p / (1 - q**2) = 6/7
    (6/7, 1/7)
    """
    rules = _rules(rules)
    attempts = rules.actions_per_turn if attempts_per_turn is None else attempts_per_turn
    _count("target", target, -MAX_COUNT)
    _count("attempts_per_turn", attempts, 1, MAX_ATTEMPTS)
    for name, pair, high in (
        ("legitimacy", legitimacy, MAX_COUNT),
        ("shields", shields, MAX_SHIELDS),
    ):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"{name}: expected a pair (first player, second player)")
        for v in pair:
            _count(name, v, 0, high)
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
