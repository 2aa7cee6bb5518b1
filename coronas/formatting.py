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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

__all__ = ["ProbTable", "percent", "plural", "probability_text", "rerolls_text", "score_text"]


def percent(p: Any, digits: int = 2) -> str:
    """``p`` (an exact probability) as a percentage: ``58.33%``."""
    return f"{float(p) * 100:.{digits}f}%"


def probability_text(p: Any) -> str:
    """An exact probability and its percentage: ``7/12 (58.33%)``."""
    return f"{p} ({percent(p)})"


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
