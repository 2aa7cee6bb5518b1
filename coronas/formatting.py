"""How coronas writes a probability and a count, the same way everywhere.

A probability is shown as its exact fraction and its percentage, ``7/12 (58.33%)``: in the
command line, the widgets, the notebooks and every result's ``str``. Floats appear only in
plots.

>>> from fractions import Fraction
>>> probability_text(Fraction(7, 12))
'7/12 (58.33%)'
>>> probability_text(1)
'1 (100.00%)'
>>> plural(1, "reroll"), plural(2, "reroll")
('1 reroll', '2 rerolls')

A fraction too long to read at the table (more than ``READABLE_DIGITS`` digits above or below
the line) is shown by :func:`readable_probability` as its percentage alone; the exact fraction
stays one option away (``--exact`` on the command line).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

__all__ = [
    "READABLE_DIGITS",
    "ProbTable",
    "is_long",
    "listing",
    "percent",
    "plural",
    "probability_text",
    "readable_probability",
    "rerolls_text",
    "score_text",
]

READABLE_DIGITS = 12
"""The most digits a numerator or denominator may have for a fraction to be shown."""


def percent(p: Any, digits: int = 2) -> str:
    """``p`` (an exact probability) as a percentage: ``58.33%``. A chance below 1 never
    reads as 100% nor one above 0 as 0%: they read ``>99.99%`` and ``<0.01%``.

    >>> percent(Fraction(9999, 10**4)), percent(Fraction(99999, 10**5)), percent(Fraction(1, 10**6))
    ('99.99%', '>99.99%', '<0.01%')
    """
    text = f"{float(p) * 100:.{digits}f}"
    step = f"{10.0**-digits:.{digits}f}"
    if p < 1 and float(text) >= 100:
        return f">{100 - float(step):.{digits}f}%"
    if p > 0 and float(text) <= 0:
        return f"<{step}%"
    return f"{text}%"


def probability_text(p: Any) -> str:
    """An exact probability and its percentage: ``7/12 (58.33%)``."""
    return f"{p} ({percent(p)})"


def readable_probability(p: Any, exact: bool = False) -> str:
    """``p`` as a player can read it: ``7/12 (58.33%)``, or the percentage alone, ``59.06%``,
    when the fraction has more than ``READABLE_DIGITS`` digits above or below the line
    (``exact=True`` always gives the fraction too).

    >>> readable_probability(Fraction(7, 12))
    '7/12 (58.33%)'
    >>> readable_probability(Fraction(2, 3**30))
    '<0.01%'
    >>> readable_probability(Fraction(2, 3**30), exact=True)
    '2/205891132094649 (<0.01%)'
    """
    if exact or not is_long(p):
        return probability_text(p)
    return percent(p)


def is_long(p: Any) -> bool:
    """Whether the exact fraction ``p`` is too long to read (``READABLE_DIGITS``)."""
    q = Fraction(p)
    return max(len(str(q.numerator)), len(str(q.denominator))) > READABLE_DIGITS


def listing(items: Iterable[Any], last: str = "or") -> str:
    """Names as a sentence writes them: ``red, yellow or green`` (never a Python list).

    >>> listing(("red", "yellow", "green")), listing(["shield"], "and")
    ('red, yellow or green', 'shield')
    """
    words = [str(i) for i in items]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def score_text(score: Any) -> str:
    """A final score as text; a breakdown ``{"castles": 15, ..., "total": 22}`` reads
    ``"22 (castles 15, ...)"``, its empty parts left out.

    >>> score_text({"loyalty": 4, "castles": 0, "total": 4}), score_text(3)
    ('4 (loyalty 4)', '3')
    """
    if isinstance(score, Mapping):
        parts = ", ".join(f"{k} {v}" for k, v in score.items() if k != "total" and v)
        total = score.get("total")
        if total is None:
            return parts or "0"
        return f"{total} ({parts})" if parts else str(total)
    return str(score)


def rerolls_text(n: int) -> str:
    """``no reroll``, ``up to 1 reroll``, ``up to 2 rerolls``: how many rerolls an action
    allows.

    >>> rerolls_text(0), rerolls_text(2)
    ('no reroll', 'up to 2 rerolls')
    """
    return "no reroll" if n == 0 else f"up to {plural(n, 'reroll')}"


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``1 reroll``, ``2 rerolls`` (``many`` for an irregular plural)."""
    return f"{n} {noun if n == 1 else (many or noun + 's')}"


class ProbTable:
    """A small table of exact probabilities: rows of labels followed by one or more Fractions.

    Renders in Jupyter as HTML with each probability as an exact fraction and a percentage,
    and converts to a ``sympy.Matrix`` of the probability columns.

    >>> t = ProbTable([("hit", Fraction(1, 3)), ("miss", Fraction(2, 3))], header=("", "P"))
    >>> print(t)
         P
    hit  1/3 (33.33%)
    miss 2/3 (66.67%)
    """

    def __init__(self, rows: Sequence[Sequence[Any]], header: Sequence[str] | None = None):
        self.rows = [tuple(r) for r in rows]
        self.header = tuple(header) if header is not None else None

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)

    def __getitem__(self, i: int) -> tuple:
        return self.rows[i]

    def to_matrix(self):
        """The probability cells as a ``sympy.Matrix`` of ``Rational`` (always sympy)."""
        import sympy

        return sympy.Matrix(
            [
                [sympy.Rational(c.numerator, c.denominator) for c in r if isinstance(c, Fraction)]
                for r in self.rows
            ]
        )

    @staticmethod
    def _cell(c: Any) -> str:
        if isinstance(c, Fraction):
            return probability_text(c)
        return str(c)

    def __str__(self) -> str:
        lines = [([*self.header] if self.header else None)] + [
            [self._cell(c) for c in r] for r in self.rows
        ]
        body = [r for r in lines if r is not None]
        widths = [max(len(r[i]) for r in body if i < len(r)) for i in range(len(body[0]))]
        return "\n".join(
            " ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)).rstrip() for r in body
        )

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        from html import escape

        def cell(c: Any) -> str:
            if isinstance(c, Fraction):
                return (
                    f"<td style='text-align:right'><b>{c}</b> "
                    f"<span style='color:#666'>({percent(c)})</span></td>"
                )
            return f"<td>{escape(str(c))}</td>"

        head = (
            "<tr>" + "".join(f"<th>{escape(str(h))}</th>" for h in self.header) + "</tr>"
            if self.header
            else ""
        )
        body = "".join("<tr>" + "".join(cell(c) for c in r) + "</tr>" for r in self.rows)
        return f"<table>{head}{body}</table>"
