"""Dice and exact finite distributions: the probability core of coronas.

A :class:`Die` is an immutable finite distribution: a mapping from outcomes to exact
:class:`fractions.Fraction` probabilities that sum to 1. It knows nothing about any game.
Outcomes are usually integers (die faces) but may be any hashable value, so the same type
also holds the exact distribution of a battle's result or of a whole game tree.

Arithmetic stays in ``Fraction`` (fast and exact). The odds modules of the games hand their
answers out through one edge, :func:`rational` (and :func:`rational_matrix` for tables): sympy
``Rational`` and ``Matrix`` by default, for a class working in sympy, or plain ``Fraction``
inside :func:`exact_fractions`, for scripts, bots and the command line that want speed and no
sympy import. :meth:`Die.to_sympy` and :func:`random_symbol` always give sympy objects.

>>> d6 = Die.d(6)
>>> d6.p_ge(4)
Fraction(1, 2)
>>> d6.p_at_least(4, rerolls=2)      # fail, fail, fail has probability (1/2)**3
Fraction(7, 8)
>>> p_greater(d6, d6), p_greater_equal(d6, d6)
(Fraction(5, 12), Fraction(7, 12))
>>> d6.best_of(2)[6]
Fraction(11, 36)
>>> (d6 + d6)[7]
Fraction(1, 6)
>>> Die([1, 1, 2])                   # repeated faces are allowed
Die({1: 2/3, 2: 1/3})
"""

from __future__ import annotations

import bisect
import contextlib
import contextvars
import itertools
import math
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from numbers import Integral, Rational
from typing import TYPE_CHECKING, Any, Literal

from coronas.formatting import ProbTable

if TYPE_CHECKING:
    import sympy

__all__ = [
    "D6",
    "Die",
    "ProbTable",
    "compare",
    "d",
    "exact_fractions",
    "p_greater",
    "p_greater_equal",
    "random_symbol",
    "rational",
    "rational_matrix",
    "to_fraction",
]

Tie = Literal["first", "second", "none"]


def to_fraction(p: Any) -> Fraction:
    """Convert an exact probability (``Fraction``, ``int``, sympy ``Rational``) to ``Fraction``.

    Floats are refused: a float is never an exact probability.

    >>> import sympy
    >>> to_fraction(sympy.Rational(1, 3))
    Fraction(1, 3)
    """
    if isinstance(p, bool):
        raise ValueError(f"probability must be an exact number, not the bool {p!r}")
    if isinstance(p, (Fraction, Integral)):
        return Fraction(p)
    if isinstance(p, Rational):
        return Fraction(int(p.numerator), int(p.denominator))
    # sympy numbers are not registered as numbers.Rational
    num, den = getattr(p, "p", None), getattr(p, "q", None)
    if isinstance(num, int) and isinstance(den, int) and getattr(p, "is_Rational", False):
        return Fraction(num, den)
    raise ValueError(f"probability must be exact (Fraction, int or sympy Rational), got {p!r}")


# -- the edge: how exact numbers leave the library ------------------------------------------

_FRACTIONS: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "coronas_exact_fractions", default=False
)


@contextlib.contextmanager
def exact_fractions(enabled: bool = True) -> Iterator[None]:
    """Within this block the odds functions answer in plain ``Fraction``, not sympy.

    Every probability the odds modules hand out passes through :func:`rational`, and every
    table through :func:`rational_matrix`: sympy ``Rational`` and ``Matrix`` by default (for
    a class working in sympy), ``Fraction`` and a list of rows of ``Fraction`` inside the
    block. The values are equal either way; only their type changes. It is meant for
    scripts, bots and the command line, which want speed and no sympy import (importing
    sympy alone takes most of a second).

    Like :func:`decimal.localcontext` it lives in a :class:`contextvars.ContextVar`: blocks
    nest and each restores the mode it found (``exact_fractions(False)`` turns sympy back on
    inside), a thread starts in the default mode, and it also works as a decorator. The mode
    in force when a number is *read* decides its type: result objects keep Fractions and
    convert in their properties, and no cache keeps a converted value.

    >>> with exact_fractions():
    ...     rational(Fraction(3, 4))
    Fraction(3, 4)
    >>> rational(Fraction(3, 4))
    3/4
    """
    token = _FRACTIONS.set(bool(enabled))
    try:
        yield
    finally:
        _FRACTIONS.reset(token)


def _sympy_rational(p: Fraction) -> sympy.Rational:
    import sympy

    return sympy.Rational(p.numerator, p.denominator)


def rational(p: Any) -> sympy.Rational | Fraction:
    """An exact number as the odds modules hand it out: a sympy ``Rational``, or inside
    :func:`exact_fractions` a ``Fraction`` (sympy is then not imported).

    >>> rational(Fraction(1, 3))
    1/3
    >>> with exact_fractions():
    ...     rational(Fraction(1, 3))
    Fraction(1, 3)
    """
    p = to_fraction(p)
    return p if _FRACTIONS.get() else _sympy_rational(p)


def rational_matrix(rows: Iterable[Iterable[Any]]) -> sympy.Matrix | list[list[Fraction]]:
    """A table of exact numbers as the odds modules hand it out: a sympy ``Matrix``, or
    inside :func:`exact_fractions` a list of rows of ``Fraction`` (what ``Matrix.tolist()``
    gives; ``sympy.Matrix(rows)`` turns it back).

    >>> rational_matrix([[Fraction(1, 2), 1]])
    Matrix([[1/2, 1]])
    >>> with exact_fractions():
    ...     rational_matrix([[Fraction(1, 2), 1]])
    [[Fraction(1, 2), Fraction(1, 1)]]
    """
    table = [[to_fraction(c) for c in row] for row in rows]
    if _FRACTIONS.get():
        return table
    import sympy

    return sympy.Matrix([[_sympy_rational(c) for c in row] for row in table])


def _check_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    return int(value)


def _sort_key(outcome: Any) -> tuple:
    return (0, outcome) if isinstance(outcome, (int, Fraction)) else (1, repr(outcome))


class Die:
    """An immutable finite distribution with exact probabilities.

    ``Die(faces)`` builds a fair die from its faces; a repeated face counts once per copy.
    ``Die.from_pmf(mapping)`` takes outcome -> probability (or weight) directly.
    Outcomes with probability 0 are dropped. Two dice are equal when their distributions are.
    """

    __slots__ = ("_hash", "_items", "_pmf", "_sampler")

    def __init__(self, faces: Iterable[Hashable]):
        faces = list(faces)
        if not faces:
            raise ValueError("a die needs at least one face; got an empty list of faces")
        weights: dict[Hashable, int] = {}
        for face in faces:
            try:
                weights[face] = weights.get(face, 0) + 1
            except TypeError:
                raise ValueError(f"die faces must be hashable, got {face!r}") from None
        self._set(weights)

    def _set(self, weights: Mapping[Hashable, Any]) -> None:
        total = sum(weights.values(), Fraction(0))
        if total <= 0:
            raise ValueError("a distribution needs a positive total weight")
        items = sorted(
            ((o, Fraction(w) / total) for o, w in weights.items() if w != 0),
            key=lambda ow: _sort_key(ow[0]),
        )
        self._items: tuple[tuple[Hashable, Fraction], ...] = tuple(items)
        self._pmf: dict[Hashable, Fraction] = dict(items)
        self._hash: int | None = None
        self._sampler: tuple[tuple, tuple[int, ...] | None, int] | None = None

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def from_pmf(cls, pmf: Mapping[Hashable, Any] | Iterable[tuple[Hashable, Any]]) -> Die:
        """A distribution from outcome -> exact probability (or non-negative weight).

        Weights are normalised, so ``{0: 1, 1: 3}`` means P(1) = 3/4. Repeated outcomes in a
        list of pairs are added up.

        >>> Die.from_pmf({"hit": Fraction(1, 3), "miss": Fraction(2, 3)})["hit"]
        Fraction(1, 3)
        """
        pairs = pmf.items() if isinstance(pmf, Mapping) else pmf
        weights: dict[Hashable, Fraction] = {}
        for outcome, p in pairs:
            w = to_fraction(p)
            if w < 0:
                raise ValueError(f"probability of {outcome!r} is negative: {w}")
            weights[outcome] = weights.get(outcome, Fraction(0)) + w
        if not weights:
            raise ValueError("a distribution needs at least one outcome; got none")
        die = cls.__new__(cls)
        die._set(weights)
        return die

    @classmethod
    def d(cls, sides: int) -> Die:
        """The standard die with faces 1..sides.

        >>> Die.d(4)
        Die({1: 1/4, 2: 1/4, 3: 1/4, 4: 1/4})
        """
        sides = _check_int("sides", sides)
        if sides < 1:
            raise ValueError(f"a die needs at least one side, got sides={sides}")
        return cls(range(1, sides + 1))

    @classmethod
    def constant(cls, value: Hashable) -> Die:
        """A distribution that is ``value`` with probability 1."""
        return cls([value])

    # -- mapping-like access ---------------------------------------------------------------
    def __getitem__(self, outcome: Hashable) -> Fraction:
        """P(X = outcome); 0 for an outcome the die cannot show."""
        return self._pmf.get(outcome, Fraction(0))

    def __iter__(self) -> Iterator[Hashable]:
        return (o for o, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._pmf

    def items(self) -> tuple[tuple[Hashable, Fraction], ...]:
        """(outcome, probability) pairs in sorted order."""
        return self._items

    def outcomes(self) -> tuple[Hashable, ...]:
        return tuple(o for o, _ in self._items)

    def pmf(self) -> dict[Hashable, Fraction]:
        """A fresh dict outcome -> exact probability."""
        return dict(self._items)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Die):
            return NotImplemented
        return self._pmf == other._pmf

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._pmf.items()))
        return self._hash

    def __repr__(self) -> str:
        body = ", ".join(f"{o!r}: {p}" for o, p in self._items)
        return f"Die({{{body}}})"

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    # -- probabilities of events ------------------------------------------------------------
    def prob(self, event: Callable[[Any], bool]) -> Fraction:
        """P(event(X)) for a predicate over outcomes.

        >>> Die.d(6).prob(lambda x: x % 2 == 0)
        Fraction(1, 2)
        """
        return sum((p for o, p in self._items if event(o)), Fraction(0))

    def p_ge(self, target: int) -> Fraction:
        """P(X >= target): the chance one roll reaches ``target``.

        >>> Die.d(6).p_ge(5)
        Fraction(1, 3)
        """
        target = _check_int("target", target)
        return self.prob(lambda x: x >= target)

    def p_le(self, target: int) -> Fraction:
        """P(X <= target)."""
        target = _check_int("target", target)
        return self.prob(lambda x: x <= target)

    def p_at_least(self, target: int, rerolls: int = 0) -> Fraction:
        """P(some roll >= target) when a failed roll may be rerolled up to ``rerolls`` times.

        Rolling again only while failing, the chance of failing every time is q**(k+1) with
        q = P(X < target), so the answer is 1 - q**(k+1): a truncated geometric series.

        >>> Die.d(6).p_at_least(6, rerolls=1)
        Fraction(11, 36)
        """
        rerolls = _check_int("rerolls", rerolls)
        if rerolls < 0:
            raise ValueError(f"rerolls must be 0 or more, got {rerolls}")
        q = 1 - self.p_ge(target)
        return 1 - q ** (rerolls + 1)

    def mean(self) -> Fraction:
        """The exact expected value (numeric outcomes only)."""
        return sum((to_fraction(o) * p for o, p in self._items), Fraction(0))

    def variance(self) -> Fraction:
        """The exact variance (numeric outcomes only)."""
        mu = self.mean()
        return sum(((to_fraction(o) - mu) ** 2 * p for o, p in self._items), Fraction(0))

    # -- new distributions ----------------------------------------------------------------
    def map(self, fn: Callable[[Any], Hashable]) -> Die:
        """The distribution of ``fn(X)``; outcomes that map together add up.

        >>> Die.d(6).map(lambda x: x >= 5)
        Die({False: 2/3, True: 1/3})
        """
        return Die.from_pmf([(fn(o), p) for o, p in self._items])

    def combine(self, other: Die, fn: Callable[[Any, Any], Hashable]) -> Die:
        """The distribution of ``fn(X, Y)`` for independent X ~ self and Y ~ other."""
        if not isinstance(other, Die):
            raise ValueError(f"expected a Die, got {other!r}")
        return Die.from_pmf(
            [(fn(a, b), pa * pb) for a, pa in self._items for b, pb in other._items]
        )

    def __add__(self, other: Die | int) -> Die:
        """Sum of independent dice (or a shift by a constant)."""
        if isinstance(other, Integral):
            return self.map(lambda x: x + other)
        return self.combine(other, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, other: Die | int) -> Die:
        """Difference X - Y of independent dice (or a shift by a constant).

        >>> (Die.d(6) - Die.d(6))[0]
        Fraction(1, 6)
        """
        if isinstance(other, Integral):
            return self.map(lambda x: x - other)
        return self.combine(other, lambda a, b: a - b)

    def __neg__(self) -> Die:
        return self.map(lambda x: -x)

    def __mul__(self, n: int) -> Die:
        """``die * n`` is the sum of n independent rolls (icepool's ``n @ die``).

        >>> (Die.d(6) * 3)[10]
        Fraction(1, 8)
        """
        n = _check_int("n", n)
        if n < 1:
            raise ValueError(f"the number of dice must be at least 1, got {n}")
        result = self
        for _ in range(n - 1):
            result = result + self
        return result

    __rmul__ = __mul__

    def max(self, other: Die) -> Die:
        """The larger of two independent rolls."""
        return self.combine(other, max)

    def min(self, other: Die) -> Die:
        """The smaller of two independent rolls."""
        return self.combine(other, min)

    def best_of(self, n: int) -> Die:
        """The highest of ``n`` independent rolls of this die.

        P(max <= x) = P(X <= x)**n, computed exactly.

        >>> Die.d(6).best_of(3)[6]
        Fraction(91, 216)
        """
        n = _check_int("n", n)
        if n < 1:
            raise ValueError(f"best_of needs at least one roll, got n={n}")
        cdf = Fraction(0)
        out = []
        for o, p in self._items:
            prev = cdf**n
            cdf += p
            out.append((o, cdf**n - prev))
        return Die.from_pmf(out)

    def worst_of(self, n: int) -> Die:
        """The lowest of ``n`` independent rolls of this die."""
        return (-self).best_of(n).map(lambda x: -x)

    def reroll_below(self, target: int, rerolls: int = 1) -> Die:
        """The face kept when any roll below ``target`` is rolled again, up to ``rerolls`` times.

        >>> Die.d(6).reroll_below(4, rerolls=1)[1]
        Fraction(1, 12)
        """
        rerolls = _check_int("rerolls", rerolls)
        target = _check_int("target", target)
        if rerolls < 0:
            raise ValueError(f"rerolls must be 0 or more, got {rerolls}")
        result = self
        for _ in range(rerolls):
            kept = [(o, p) for o, p in result._items if o >= target]
            failed = 1 - sum((p for _, p in kept), Fraction(0))
            result = Die.from_pmf(kept + [(o, p * failed) for o, p in self._items])
        return result

    # -- sampling -------------------------------------------------------------------------
    def sampler(self) -> tuple[tuple[Hashable, ...], tuple[int, ...] | None, int]:
        """``(outcomes, cum_weights, total)``: integer weights over the common denominator,
        worked out once per (immutable) die; ``cum_weights`` is None for a fair die.

        >>> Die([1, 1, 2]).sampler(), D6.sampler()[1:]
        (((1, 2), (2, 3), 3), (None, 6))
        """
        if self._sampler is None:
            outcomes = tuple(o for o, _ in self._items)
            den = math.lcm(*(p.denominator for _, p in self._items))
            weights = [p.numerator * (den // p.denominator) for _, p in self._items]
            cum = None if den == len(outcomes) else tuple(itertools.accumulate(weights))
            self._sampler = (outcomes, cum, den)
        return self._sampler

    def sample(self, rng: random.Random | int | None = None, n: int | None = None) -> Any:
        """One seeded roll (or a list of ``n``). ``rng`` is a ``random.Random`` or a seed.

        Each roll is ``rng.choices(outcomes, integer_weights)``'s (one ``rng.random()``).

        >>> Die.d(6).sample(rng=1) == Die.d(6).sample(rng=1)
        True
        """
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        outcomes, cum, total = self._sampler or self.sampler()
        if n is None:
            if cum is None:
                return outcomes[int(rng.random() * total)]
            return outcomes[bisect.bisect(cum, rng.random() * total, 0, len(cum) - 1)]
        n = _check_int("n", n)
        if n < 0:
            raise ValueError(f"n must be 0 or more, got {n}")
        return rng.choices(outcomes, cum_weights=cum, k=n)

    # -- sympy views ------------------------------------------------------------------------
    def to_sympy(self) -> dict:
        """outcome -> sympy ``Rational`` (always sympy: this is a conversion asked for)."""
        return {o: _sympy_rational(p) for o, p in self._items}

    def to_symbol(self, name: str = "X"):
        """A ``sympy.stats`` random symbol with this distribution (see :func:`random_symbol`)."""
        return random_symbol(self, name)

    def table(self, title: str = "outcome") -> ProbTable:
        """A table of P(X = x) with exact fraction and percentage, rendered in Jupyter."""
        return ProbTable([(o, p) for o, p in self._items], header=(title, "P"))


def d(sides: int) -> Die:
    """Shorthand for :meth:`Die.d`."""
    return Die.d(sides)


D6 = Die.d(6)
"""The standard six-sided die."""


def compare(a: Die, b: Die, ties: Tie = "none") -> Fraction:
    """P(the roll of ``a`` beats the roll of ``b``) for independent rolls, with a tie rule.

    ``ties="first"``: a tie counts as a win for ``a`` (P(A >= B)); ``ties="second"`` or
    ``"none"``: a tie is not a win for ``a`` (P(A > B)).

    >>> compare(D6, D6, ties="first")
    Fraction(7, 12)
    """
    if ties not in ("first", "second", "none"):
        raise ValueError(f"ties must be 'first', 'second' or 'none', got {ties!r}")
    total = Fraction(0)
    for x, px in a.items():
        for y, py in b.items():
            if x > y or (x == y and ties == "first"):
                total += px * py
    return total


def p_greater(a: Die, b: Die) -> Fraction:
    """P(A > B) for independent rolls."""
    return compare(a, b, ties="none")


def p_greater_equal(a: Die, b: Die) -> Fraction:
    """P(A >= B) for independent rolls: ties go to A."""
    return compare(a, b, ties="first")


def random_symbol(die: Die, name: str = "X"):
    """A ``sympy.stats`` finite random variable with the die's distribution.

    >>> from sympy.stats import P
    >>> X, Y = random_symbol(D6, "X"), random_symbol(D6, "Y")
    >>> P(X >= 4), P(X > Y)
    (1/2, 5/12)
    """
    from sympy.stats import FiniteRV

    bad = [o for o in die if isinstance(o, bool) or not isinstance(o, (Integral, Fraction))]
    if bad:
        raise ValueError(f"sympy.stats needs numeric outcomes; this die has {bad[0]!r}")
    return FiniteRV(name, die.to_sympy())
